"""Compiled bots: one function per bot and decision, picked at compile time for the numba hand loop.

Every decision function has the same arguments: ``bot`` (the deciding seat's ``BOT_*`` id),
``seat``, ``hand`` (the deciding player's cards as a 64-bit mask), ``state`` and
``suit_deadwood`` (the lookup table of ``kernels.melds``). ``state`` is one int64 array:
first the public table of ``kernels.view`` (the rules included), then each seat's private
memory for the hand: an int row (slot ``I_RNG`` holds the seat's SplitMix64 state as int64
bits, then the bot's memory) and a float row kept as int64 bits (the bot's parameter vector,
slots in ``kernels.parameters``, then the searching bots' memory). A bot reads the table and
its own rows only: not the opponent's hand, not the stock order, which are not there, and
not the opponent's memory (the Python adapter leaves it zero, so a bot that read it would not
play the same in both engines, and the differential tests would fail). One array keeps the
calls cheap: numba counts a reference for each array argument of each call.

**What a pairing compiles.** The engine asks a seat's bot through the seven dispatch
functions below (:func:`start_hand`, :func:`take_up_card`, :func:`draw_from_pile`,
:func:`discard`, :func:`knock`, :func:`big_gin`, :func:`take_fiftieth`), passing first
``kinds``: a bit mask of the bot ids that may sit at the table (:func:`kinds_of`). ``kinds``
is a compile-time constant (a numba literal): the kernels' entry points are compiled for
one mask (:func:`simgin.kernels.specialized`) and pass it down unchanged. Each dispatch
function is a numba ``overload`` that compiles, for that mask, a branch per bot in it and
nothing else. So ``simple`` vs ``simple`` compiles simple's decisions only, never the
heuristic, opponent or mcts kernels; each set of bots has its own specialisation of the
hand loop, kept in numba's on-disk cache like any other signature.

To add a bot: write its seven decision functions (``@njit(cache=True)``, the arguments
above; a decision it never makes can reuse :func:`_always` or :func:`_coin`), give it the
next id and name, and add its :class:`Policy` to ``POLICIES``.

The plain-Python twins of ``random``, ``simple`` and ``greedy`` (``strategies/``) draw the
same random numbers in the same order, so both forms play identical hands; every compiled
bot also runs in Python through :class:`simgin.strategies.compiled.CompiledStrategy`, which
calls :func:`decide` with a state built from the ``PlayerView``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit
from numba.core import types
from numba.core.errors import TypingError
from numba.extending import overload

from simgin.kernels import heuristic as _heuristic
from simgin.kernels import mcts as _mcts
from simgin.kernels import opponent as _opponent
from simgin.kernels import view as v
from simgin.kernels.melds import card_fits_meld, deadwood_of_mask, discard_deadwoods
from simgin.kernels.parameters import PARAMETER_CAPACITY
from simgin.kernels.rng import GOLDEN, MUL1, MUL2, S27, S30, S31, S32
from simgin.kernels.rule_index import REDISCARD as _REDISCARD
from simgin.kernels.rule_index import RULE_COUNT
from simgin.kernels.showdown import SUIT_VALUE

BOT_RANDOM = 0
BOT_SIMPLE = 1
BOT_GREEDY = 2
BOT_HEURISTIC = 3
BOT_OPPONENT = 4
BOT_MCTS = 5
BOT_NAMES = ("random", "simple", "greedy", "heuristic", "opponent", "mcts")

#: Slots of a seat's int row: the generator, then each bot's memory.
I_RNG = 0
I_PAIRS = 8  # simple: 52 partner masks of its (drawn, discarded) pairs
I_SCRATCH = 64  # 52 slots of scratch for the cheap bots
INT_MEMORY = 128
#: A seat's float row: the parameter vector, then the searching bots' memory.
F_MEMORY = PARAMETER_CAPACITY
FLOAT_MEMORY = PARAMETER_CAPACITY + 64
#: Where the rows start in ``state``, and its size.
S_INTS = v.TABLE_SIZE
S_FLOATS = S_INTS + 2 * INT_MEMORY
STATE_SIZE = S_FLOATS + 2 * FLOAT_MEMORY
REDISCARD = v.T_RULES + _REDISCARD

DECISION_START = 0
DECISION_TAKE_UP_CARD = 1
DECISION_DRAW_FROM_PILE = 2
DECISION_DISCARD = 3
DECISION_KNOCK = 4
DECISION_BIG_GIN = 5
DECISION_TAKE_FIFTIETH = 6


@njit(cache=True, inline="always")
def slot(seat, index):
    """Position in ``state`` of slot ``index`` of ``seat``'s int row."""
    return S_INTS + seat * INT_MEMORY + index


@njit(cache=True, inline="always")
def randint_at(state, seat, n):
    """``randint(n)`` of ``seat``'s SplitMix64 generator, kept in its int row (``kernels.rng``)."""
    at = slot(seat, I_RNG)
    current = np.uint64(state[at]) + GOLDEN
    state[at] = np.int64(current)
    z = (current ^ (current >> S30)) * MUL1
    z = (z ^ (z >> S27)) * MUL2
    z = z ^ (z >> S31)
    return np.int64(((z >> S32) * np.uint64(n)) >> S32)


# -- decisions shared by several bots ------------------------------------------------


@njit(cache=True)
def _nothing(bot, seat, hand, state, suit_deadwood):
    """A hand starts and the bot keeps no memory."""


@njit(cache=True)
def _always(bot, seat, hand, state, suit_deadwood):
    """Yes, without looking: knock, go big gin, take the fiftieth card."""
    return True


@njit(cache=True)
def _coin(bot, seat, hand, state, suit_deadwood):
    """Yes or no with chance 1/2 each (``random``)."""
    return randint_at(state, seat, 2) == 1


# -- random ---------------------------------------------------------------------------


@njit(cache=True)
def _random_discard(bot, seat, hand, state, suit_deadwood):
    """A uniformly random legal discard, the legal cards taken in ascending order.

    After the V7 take (``state[T_FIFTIETH]``) the player must knock, so only discards leaving
    at most the knock limit are legal, the taken card included.
    """
    drawn = state[v.T_DRAWN]
    from_pile = state[v.T_FROM_PILE] != 0
    cards = np.empty(11, np.int64)
    count = 0
    if state[v.T_FIFTIETH] != 0:
        knock_limit = state[v.T_KNOCK_LIMIT]
        work = state[slot(seat, I_SCRATCH) : slot(seat, I_SCRATCH + 52)]
        discard_deadwoods(hand, suit_deadwood, work)
        for c in range(52):
            if (hand >> c) & 1 and work[c] <= knock_limit:
                cards[count] = c
                count += 1
    else:
        rediscard = state[REDISCARD] != 0
        for c in range(52):
            if (hand >> c) & 1 and not (c == drawn and from_pile and not rediscard):
                cards[count] = c
                count += 1
    return cards[randint_at(state, seat, count)]


# -- simple ---------------------------------------------------------------------------


@njit(cache=True)
def _simple_start(bot, seat, hand, state, suit_deadwood):
    """A new hand: forget the (drawn, discarded) pairs."""
    for c in range(52):
        state[slot(seat, I_PAIRS + c)] = 0


@njit(cache=True)
def _simple_takes(bot, seat, hand, state, suit_deadwood):
    """Take the pile's top card when it completes a meld (R3, R4)."""
    return card_fits_meld(hand, v.pile_top(state))


@njit(cache=True)
def _simple_discard(bot, seat, hand, state, suit_deadwood):
    """The EAAI player's discard: a random one of those leaving the least deadwood, never the card just
    taken from the pile (R10) and, while another is allowed, never a card it once discarded after
    drawing the card drawn now. Int slots ``I_PAIRS + c`` hold those (drawn, discarded) pairs as
    partner masks. After the V7 take every card is allowed and no pair is kept."""
    fiftieth = state[v.T_FIFTIETH] != 0
    drawn = state[v.T_DRAWN]
    banned = drawn if state[v.T_FROM_PILE] != 0 and not fiftieth else np.int64(-1)
    partners = np.int64(0)
    if not fiftieth and drawn >= 0:
        partners = state[slot(seat, I_PAIRS + drawn)]
    cards = np.empty(11, np.int64)
    work = state[slot(seat, I_SCRATCH) : slot(seat, I_SCRATCH + 52)]
    discard_deadwoods(hand, suit_deadwood, work)
    count = _least(hand, work, banned, partners, cards)
    if count == 0:
        count = _least(hand, work, banned, np.int64(0), cards)
    choice = cards[randint_at(state, seat, count)]
    if not fiftieth and drawn >= 0:
        state[slot(seat, I_PAIRS + drawn)] |= 1 << choice
        state[slot(seat, I_PAIRS + choice)] |= 1 << drawn
    return choice


@njit(cache=True)
def _least(hand, left, banned, partners, cards):
    """Fill ``cards`` with the held cards, but ``banned`` and those in the mask ``partners``, whose
    discard leaves the least deadwood (``left[c]``); return their count."""
    best = 1 << 30
    count = 0
    for c in range(52):
        if not (hand >> c) & 1 or c == banned or (partners >> c) & 1:
            continue
        if left[c] < best:
            best = left[c]
            count = 0
        if left[c] == best:
            cards[count] = c
            count += 1
    return count


# -- greedy ---------------------------------------------------------------------------


@njit(cache=True)
def _greedy_takes(bot, seat, hand, state, suit_deadwood):
    """Take the pile's top card when some discard afterwards leaves less deadwood than the hand has now."""
    work = state[slot(seat, I_SCRATCH) : slot(seat, I_SCRATCH + 52)]
    best = discard_deadwoods(hand | (1 << v.pile_top(state)), suit_deadwood, work)
    return best < deadwood_of_mask(hand, suit_deadwood)


@njit(cache=True)
def _greedy_discard(bot, seat, hand, state, suit_deadwood):
    """The discard leaving the least deadwood; ties go to the higher rank, then the higher card.

    The card just taken from the pile may not be discarded (R10). After the V7 take every
    card is allowed and the least deadwood is within the knock limit.
    """
    drawn = state[v.T_DRAWN]
    keep_drawn = state[v.T_FROM_PILE] != 0 and state[v.T_FIFTIETH] == 0 and state[REDISCARD] == 0
    work = state[slot(seat, I_SCRATCH) : slot(seat, I_SCRATCH + 52)]
    discard_deadwoods(hand, suit_deadwood, work)
    best = -1
    for c in range(52):
        if not (hand >> c) & 1 or (keep_drawn and c == drawn):
            continue
        if best < 0 or work[c] < work[best] or (work[c] == work[best] and c % 13 >= best % 13):
            best = c
    return best


# -- heuristic, opponent and mcts (the searching bots) --------------------------------
#
# Each hands the searching code the table and the seat's own rows: its parameters, its
# memory, the rules and its generator (copied out of the int row and back).


@njit(cache=True)
def _rows(seat, state):
    """(parameters, float memory, int row, rules, generator) of ``seat``; the generator is a copy:
    put it back with :func:`_keep_rng`."""
    row = state[S_FLOATS + seat * FLOAT_MEMORY : S_FLOATS + (seat + 1) * FLOAT_MEMORY].view(np.float64)
    own = state[slot(seat, 0) : slot(seat, INT_MEMORY)]
    rng = np.empty(1, np.uint64)
    rng[0] = np.uint64(own[I_RNG])
    return row[:PARAMETER_CAPACITY], row[F_MEMORY:], own, state[v.T_RULES : v.T_RULES + RULE_COUNT], rng


@njit(cache=True, inline="always")
def _keep_rng(own, rng):
    own[I_RNG] = np.int64(rng[0])


@njit(cache=True)
def _estimate_start(bot, seat, hand, state, suit_deadwood):
    """A new hand: every unseen card equally likely (``kernels.opponent``)."""
    _, memory, own, _, _ = _rows(seat, state)
    _opponent.reset_beliefs(own, memory)


@njit(cache=True)
def _heuristic_takes(bot, seat, hand, state, suit_deadwood):
    """heuristic and opponent (``bot``): the pile's top card, on the first turn and later alike."""
    params, memory, own, rules, _ = _rows(seat, state)
    model = bot == BOT_OPPONENT
    return _heuristic.takes_pile_card(model, params, seat, hand, state, rules, own, memory, suit_deadwood)


@njit(cache=True)
def _heuristic_discard(bot, seat, hand, state, suit_deadwood):
    params, memory, own, rules, _ = _rows(seat, state)
    model = bot == BOT_OPPONENT
    return _heuristic.choose_discard(model, params, seat, hand, state, rules, own, memory, suit_deadwood)


@njit(cache=True)
def _heuristic_knock(bot, seat, hand, state, suit_deadwood):
    params, memory, own, rules, rng = _rows(seat, state)
    model = bot == BOT_OPPONENT
    answer = _heuristic.knocks(model, params, seat, hand, state, rules, own, memory, suit_deadwood, SUIT_VALUE, rng)
    _keep_rng(own, rng)
    return answer


@njit(cache=True)
def _estimated_fiftieth(bot, seat, hand, state, suit_deadwood):
    """opponent and mcts: take the fiftieth card when the estimated knock pays (V7)."""
    params, memory, own, rules, rng = _rows(seat, state)
    answer = _heuristic.takes_fiftieth(params, seat, hand, state, rules, own, memory, rng, suit_deadwood, SUIT_VALUE)
    _keep_rng(own, rng)
    return answer


@njit(cache=True)
def _mcts_draw(first_turn, seat, hand, state, suit_deadwood):
    params, memory, own, rules, rng = _rows(seat, state)
    answer = _mcts.choose_draw(
        first_turn, params, seat, hand, state, rules, own, memory, rng, suit_deadwood, SUIT_VALUE
    )
    _keep_rng(own, rng)
    return answer


@njit(cache=True)
def _mcts_take_up_card(bot, seat, hand, state, suit_deadwood):
    return _mcts_draw(True, seat, hand, state, suit_deadwood)


@njit(cache=True)
def _mcts_draw_from_pile(bot, seat, hand, state, suit_deadwood):
    return _mcts_draw(False, seat, hand, state, suit_deadwood)


@njit(cache=True)
def _mcts_discard(bot, seat, hand, state, suit_deadwood):
    params, memory, own, rules, rng = _rows(seat, state)
    answer = _mcts.choose_discard(params, seat, hand, state, rules, own, memory, rng, suit_deadwood, SUIT_VALUE)
    _keep_rng(own, rng)
    return answer


@njit(cache=True)
def _mcts_knock(bot, seat, hand, state, suit_deadwood):
    params, memory, own, rules, rng = _rows(seat, state)
    answer = _mcts.choose_knock(params, seat, hand, state, rules, own, memory, rng, suit_deadwood, SUIT_VALUE)
    _keep_rng(own, rng)
    return answer


# -- the bots, by id ------------------------------------------------------------------


class Policy(NamedTuple):
    """One compiled bot: its function for each decision (arguments ``bot, seat, hand, state, suit_deadwood``)."""

    start_hand: object
    """A new hand: set up the seat's memory."""
    take_up_card: object
    """First-turn offer of the up card, the pile's top card (R11): bool."""
    draw_from_pile: object
    """Normal turn: take the pile's top card instead of the stock's (R9): bool."""
    discard: object
    """The card to discard from the 11 held (R9, R10, V6, V7): int."""
    knock: object
    """Asked only when the 10 cards left may knock (R12, R13): bool."""
    big_gin: object
    """Asked only when all 11 cards are melded and big gin is on (V13): bool."""
    take_fiftieth: object
    """Asked only when taking the last discard lets this player knock (V7): bool."""


POLICIES = (
    Policy(_nothing, _coin, _coin, _random_discard, _coin, _coin, _coin),
    Policy(_simple_start, _simple_takes, _simple_takes, _simple_discard, _always, _always, _always),
    Policy(_nothing, _greedy_takes, _greedy_takes, _greedy_discard, _always, _always, _always),
    Policy(_estimate_start, _heuristic_takes, _heuristic_takes, _heuristic_discard, _heuristic_knock, _always, _always),
    Policy(
        _estimate_start,
        _heuristic_takes,
        _heuristic_takes,
        _heuristic_discard,
        _heuristic_knock,
        _always,
        _estimated_fiftieth,
    ),
    Policy(
        _estimate_start,
        _mcts_take_up_card,
        _mcts_draw_from_pile,
        _mcts_discard,
        _mcts_knock,
        _always,
        _estimated_fiftieth,
    ),
)
ALL_KINDS = (1 << len(POLICIES)) - 1


def kinds_of(bot_ids) -> int:  # type: ignore[no-untyped-def]
    """The ``kinds`` mask of a table where these bot ids sit."""
    kinds = 0
    for bot in np.asarray(bot_ids).ravel():
        if not 0 <= bot < len(POLICIES):
            raise ValueError(f"bot id {bot}: choose 0-{len(POLICIES) - 1} ({', '.join(BOT_NAMES)})")
        kinds |= 1 << int(bot)
    return kinds


def _members(kinds) -> tuple[int, ...]:  # type: ignore[no-untyped-def]
    """The bot ids in a literal ``kinds`` mask (a TypingError otherwise)."""
    if not isinstance(kinds, types.IntegerLiteral) or not 0 < kinds.literal_value <= ALL_KINDS:
        raise TypingError(
            f"kinds must be a compile-time constant mask of bot ids in 1-{ALL_KINDS}, got {kinds} "
            "(call the kernel through simgin.kernels.specialized)"
        )
    return tuple(bot for bot in range(len(POLICIES)) if kinds.literal_value >> bot & 1)


def _dispatch(decision: str):  # type: ignore[no-untyped-def]
    """Register the overload of one dispatch function: a branch on ``bot`` per bot in ``kinds``."""

    def implement(kinds, bot, seat, hand, state, suit_deadwood):  # type: ignore[no-untyped-def]
        members = _members(kinds)
        padded = (members * 6)[:6]
        k0, k1, k2, k3, k4, _ = padded
        f0, f1, f2, f3, f4, f5 = (getattr(POLICIES[member], decision) for member in padded)
        if len(members) == 1:

            def one(kinds, bot, seat, hand, state, suit_deadwood):  # type: ignore[no-untyped-def]
                return f0(bot, seat, hand, state, suit_deadwood)

            return one
        if len(members) == 2:

            def two(kinds, bot, seat, hand, state, suit_deadwood):  # type: ignore[no-untyped-def]
                if bot == k0:
                    return f0(bot, seat, hand, state, suit_deadwood)
                return f1(bot, seat, hand, state, suit_deadwood)

            return two

        def many(kinds, bot, seat, hand, state, suit_deadwood):  # type: ignore[no-untyped-def]
            if bot == k0:
                return f0(bot, seat, hand, state, suit_deadwood)
            if bot == k1:
                return f1(bot, seat, hand, state, suit_deadwood)
            if bot == k2:
                return f2(bot, seat, hand, state, suit_deadwood)
            if bot == k3:
                return f3(bot, seat, hand, state, suit_deadwood)
            if bot == k4:
                return f4(bot, seat, hand, state, suit_deadwood)
            return f5(bot, seat, hand, state, suit_deadwood)

        return many

    def register(stub):  # type: ignore[no-untyped-def]
        overload(stub, prefer_literal=True)(implement)
        return stub

    return register


@_dispatch("start_hand")
def start_hand(kinds, bot, seat, hand, state, suit_deadwood):  # type: ignore[no-untyped-def]
    """A new hand: clear the seat's memory (and set up the opponent estimate where used). numba only."""
    raise NotImplementedError("a numba dispatch function: call it from a kernel")


@_dispatch("take_up_card")
def take_up_card(kinds, bot, seat, hand, state, suit_deadwood):  # type: ignore[no-untyped-def]
    """First-turn offer of the up card, the pile's top card (R11). numba only."""
    raise NotImplementedError("a numba dispatch function: call it from a kernel")


@_dispatch("draw_from_pile")
def draw_from_pile(kinds, bot, seat, hand, state, suit_deadwood):  # type: ignore[no-untyped-def]
    """Normal turn: take the pile's top card instead of the stock's (R9). numba only."""
    raise NotImplementedError("a numba dispatch function: call it from a kernel")


@_dispatch("discard")
def discard(kinds, bot, seat, hand, state, suit_deadwood):  # type: ignore[no-untyped-def]
    """The card to discard from the 11 held (R9, R10, V6, V7). numba only."""
    raise NotImplementedError("a numba dispatch function: call it from a kernel")


@_dispatch("knock")
def knock(kinds, bot, seat, hand, state, suit_deadwood):  # type: ignore[no-untyped-def]
    """Asked only when the 10 cards left may knock (R12, R13). numba only."""
    raise NotImplementedError("a numba dispatch function: call it from a kernel")


@_dispatch("big_gin")
def big_gin(kinds, bot, seat, hand, state, suit_deadwood):  # type: ignore[no-untyped-def]
    """Asked only when all 11 cards are melded and big gin is on (V13). numba only."""
    raise NotImplementedError("a numba dispatch function: call it from a kernel")


@_dispatch("take_fiftieth")
def take_fiftieth(kinds, bot, seat, hand, state, suit_deadwood):  # type: ignore[no-untyped-def]
    """Asked only when taking the last discard lets this player knock (V7). numba only."""
    raise NotImplementedError("a numba dispatch function: call it from a kernel")


@njit(cache=True)
def decide_kernel(kinds, decision, bot, seat, hand, state, suit_deadwood):
    """One decision by its ``DECISION_*`` code, as an int (0/1, or the card to discard); see :func:`decide`."""
    if decision == DECISION_START:
        start_hand(kinds, bot, seat, hand, state, suit_deadwood)
        return np.int64(0)
    if decision == DECISION_TAKE_UP_CARD:
        return np.int64(take_up_card(kinds, bot, seat, hand, state, suit_deadwood))
    if decision == DECISION_DRAW_FROM_PILE:
        return np.int64(draw_from_pile(kinds, bot, seat, hand, state, suit_deadwood))
    if decision == DECISION_DISCARD:
        return np.int64(discard(kinds, bot, seat, hand, state, suit_deadwood))
    if decision == DECISION_KNOCK:
        return np.int64(knock(kinds, bot, seat, hand, state, suit_deadwood))
    if decision == DECISION_BIG_GIN:
        return np.int64(big_gin(kinds, bot, seat, hand, state, suit_deadwood))
    return np.int64(take_fiftieth(kinds, bot, seat, hand, state, suit_deadwood))


def decide(decision: int, bot: int, seat: int, hand: int, state: np.ndarray, suit_deadwood: np.ndarray) -> int:
    """One decision of bot ``bot`` by its ``DECISION_*`` code, from Python (compiling that bot only).

    The entry point of :class:`simgin.strategies.compiled.CompiledStrategy`; the engine calls
    the dispatch functions directly.
    """
    from simgin.kernels import specialized

    kernel = specialized(decide_kernel, 1 << bot, decision, bot, seat, hand, state, suit_deadwood)
    return kernel(1 << bot, decision, bot, seat, hand, state, suit_deadwood)

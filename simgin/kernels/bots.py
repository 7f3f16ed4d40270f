"""Compiled bots: their decisions for the numba hand loop, each bot compiled only when it plays.

Every decision has the same arguments (:mod:`simgin.kernels.decisions`): ``bot`` (the deciding seat's id), ``seat``,
``hand`` (the deciding player's cards as a 64-bit mask), ``state`` and ``suit_deadwood`` (the
lookup table of ``kernels.melds``). ``state`` is one int64 array: first the public table of
``kernels.view`` (the rules included), then each seat's private memory for the hand: an int
row (slot ``I_RNG`` holds the seat's SplitMix64 state as int64 bits, then the bot's memory)
and a float row kept as int64 bits (the bot's parameter vector, slots in
``kernels.parameters``, then the searching bots' memory). A bot reads the table and its own
rows only: not the opponent's hand, not the stock order, which are not there, and not the
opponent's memory (the Python adapter leaves it zero, so a bot that read it would not play
the same in both engines, and the differential tests would fail). One array keeps the
calls cheap: numba counts a reference for each array argument of each call.

**What a pairing compiles** (docs/ENGINE.md, "How the kernels compile"). Two kinds of bot:

- The *built-in* bots ``random``, ``simple`` and ``greedy`` take microseconds per decision, so
  the engine calls them directly (the dispatch functions below, :func:`discard` and the
  others), inlined into the hand loop (``inline="always"``: as separate calls the loop plays
  half as many hands per second). They are part of the hand loop's one compiled kernel,
  which every pairing shares.
- The *searching* bots ``heuristic``, ``opponent`` and ``mcts`` each have one ``decide``
  function (a ``POLICY`` signature: ``decision, bot, seat, hand, state, suit_deadwood`` to an
  int), which the engine receives as an argument per seat (a numba first-class function) and
  calls through. numba compiles such a function when a run passes it, that is when its bot
  plays, and caches it on its own; the hand loop never contains it. So ``simple`` vs
  ``simple`` compiles nothing of ``heuristic.py``, ``opponent.py`` or ``mcts.py``, and a
  pairing with ``mcts`` compiles mcts once and reuses the hand loop every pairing uses.

To add a bot (docs/ADDING_A_BOT.md): write its ``decide`` function (``@njit(cache=True)``, the
``POLICY`` arguments, returning 0/1 or the card to discard) in a kernel module of its own, which takes
the decision codes and the layout of ``state`` from :mod:`simgin.kernels.decisions` and never imports
this module (``kernels/mcts.py`` is an example); then register it here: import the module and add one
line at the end of ``BOTS``, which gives it its id (its position) and name. Pairings without it
compile nothing of it. The names of :mod:`simgin.kernels.decisions` are kept here too.

The plain-Python twins of ``random``, ``simple`` and ``greedy`` (``strategies/``) draw the
same random numbers in the same order, so both forms play identical hands; every compiled
bot also runs in Python through :class:`simgin.players.compiled.CompiledStrategy`, which
calls :func:`decide` with a state built from the ``PlayerView``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgin.kernels import heuristic as _heuristic, mcts as _mcts, opponent as _opponent, view as v
from simgin.kernels.decisions import (
    DECISION_BIG_GIN,
    DECISION_DISCARD,
    DECISION_DRAW_FROM_PILE,
    DECISION_KNOCK,
    DECISION_START,
    DECISION_TAKE_FIFTIETH,
    DECISION_TAKE_UP_CARD,
    F_MEMORY as F_MEMORY,
    FLOAT_MEMORY as FLOAT_MEMORY,
    I_RNG,
    INT_MEMORY as INT_MEMORY,
    POLICY as POLICY,
    REDISCARD,
    S_FLOATS as S_FLOATS,
    S_INTS as S_INTS,
    STATE_SIZE as STATE_SIZE,
    randint_at,
    seat_rows,
    slot,
)
from simgin.kernels.melds import card_fits_meld, deadwood_of_mask, discard_deadwoods
from simgin.kernels.showdown import SUIT_VALUE

#: Ids of the bots the kernels branch on (each its position in ``BOTS``, the list of every bot; a test checks).
BOT_RANDOM = 0
BOT_SIMPLE = 1
BOT_GREEDY = 2
BOT_HEURISTIC = 3
BOT_OPPONENT = 4
BOT_MCTS = 5
#: Bots with ids up to this one are built into the hand loop; the others play through their ``decide``.
LAST_BUILT_IN = BOT_GREEDY

#: Slots of a seat's int row after the generator (``I_RNG``): the cheap bots' memory.
I_PAIRS = 8  # simple: 52 partner masks of its (drawn, discarded) pairs
I_SCRATCH = 64  # 52 slots of scratch for the cheap bots


# -- the engine's questions: built-in bots directly, the others through their decide -----


@njit(cache=True, inline="always")
def start_hand(bot, seat, hand, state, suit_deadwood, policies):
    """A new hand: clear the seat's memory (and set up the opponent estimate where used)."""
    if bot == BOT_SIMPLE:
        _simple_start(seat, state)
    elif bot > LAST_BUILT_IN:
        policies[seat](DECISION_START, bot, seat, hand, state, suit_deadwood)


@njit(cache=True, inline="always")
def take_up_card(bot, seat, hand, state, suit_deadwood, policies):
    """First-turn offer of the up card, the pile's top card (R11)."""
    if bot > LAST_BUILT_IN:
        return policies[seat](DECISION_TAKE_UP_CARD, bot, seat, hand, state, suit_deadwood) == 1
    return _built_in_takes(bot, seat, hand, state, suit_deadwood)


@njit(cache=True, inline="always")
def draw_from_pile(bot, seat, hand, state, suit_deadwood, policies):
    """Normal turn: take the pile's top card instead of the stock's (R9)."""
    if bot > LAST_BUILT_IN:
        return policies[seat](DECISION_DRAW_FROM_PILE, bot, seat, hand, state, suit_deadwood) == 1
    return _built_in_takes(bot, seat, hand, state, suit_deadwood)


@njit(cache=True, inline="always")
def _built_in_takes(bot, seat, hand, state, suit_deadwood):
    """Whether a built-in bot takes the pile's top card; they decide the up card (R11) and a
    normal turn's draw (R9) alike."""
    if bot == BOT_RANDOM:
        return randint_at(state, seat, 2) == 1
    if bot == BOT_SIMPLE:
        return card_fits_meld(hand, v.pile_top(state))
    return _greedy_takes(seat, hand, state, suit_deadwood)


@njit(cache=True, inline="always")
def discard(bot, seat, hand, state, suit_deadwood, policies):
    """The card to discard from the 11 held (R9, R10, V6, V7).

    After the V7 take (``state[T_FIFTIETH]``) the player must knock, so only discards leaving
    at most the knock limit are legal, the taken card included.
    """
    if bot == BOT_RANDOM:
        return _random_discard(seat, hand, state, suit_deadwood)
    if bot == BOT_SIMPLE:
        return _simple_discard(seat, hand, state, suit_deadwood)
    if bot == BOT_GREEDY:
        return _greedy_discard(seat, hand, state, suit_deadwood)
    return policies[seat](DECISION_DISCARD, bot, seat, hand, state, suit_deadwood)


@njit(cache=True, inline="always")
def knock(bot, seat, hand, state, suit_deadwood, policies):
    """Asked only when the 10 cards left may knock (R12, R13)."""
    return _says_yes(DECISION_KNOCK, bot, seat, hand, state, suit_deadwood, policies)


@njit(cache=True, inline="always")
def big_gin(bot, seat, hand, state, suit_deadwood, policies):
    """Asked only when all 11 cards are melded and big gin is on (V13)."""
    return _says_yes(DECISION_BIG_GIN, bot, seat, hand, state, suit_deadwood, policies)


@njit(cache=True, inline="always")
def take_fiftieth(bot, seat, hand, state, suit_deadwood, policies):
    """Asked only when taking the last discard lets this player knock (V7)."""
    return _says_yes(DECISION_TAKE_FIFTIETH, bot, seat, hand, state, suit_deadwood, policies)


@njit(cache=True, inline="always")
def _says_yes(decision, bot, seat, hand, state, suit_deadwood, policies):
    """A yes-or-no question that every built-in bot answers alike: ``random`` flips a coin, the others
    always say yes (knock as soon as allowed, R12; big gin, V13; the 50th card, V7)."""
    if bot == BOT_RANDOM:
        return randint_at(state, seat, 2) == 1
    if bot <= LAST_BUILT_IN:
        return True
    return policies[seat](decision, bot, seat, hand, state, suit_deadwood) == 1


@njit(cache=True)
def built_in_decide(decision, bot, seat, hand, state, suit_deadwood):
    """The ``decide`` of the built-in bots, for the Python adapter (the engine calls them directly)."""
    if decision == DECISION_START:
        if bot == BOT_SIMPLE:
            _simple_start(seat, state)
        return 0
    if decision in (DECISION_TAKE_UP_CARD, DECISION_DRAW_FROM_PILE):
        return np.int64(_built_in_takes(bot, seat, hand, state, suit_deadwood))
    if decision == DECISION_DISCARD:
        if bot == BOT_RANDOM:
            return _random_discard(seat, hand, state, suit_deadwood)
        if bot == BOT_SIMPLE:
            return _simple_discard(seat, hand, state, suit_deadwood)
        return _greedy_discard(seat, hand, state, suit_deadwood)
    if bot == BOT_RANDOM:
        return randint_at(state, seat, 2)  # knock, big gin, take the fiftieth card: a coin
    return 1


@njit(cache=True)
def unused_policy(decision, bot, seat, hand, state, suit_deadwood):
    """The ``decide`` passed for a seat whose bot is built in: never called."""
    return -1


# -- random ---------------------------------------------------------------------------


@njit(cache=True)
def _random_discard(seat, hand, state, suit_deadwood):
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
def _simple_start(seat, state):
    """A new hand: forget the (drawn, discarded) pairs."""
    for c in range(52):
        state[slot(seat, I_PAIRS + c)] = 0


@njit(cache=True, inline="always")
def _simple_discard(seat, hand, state, suit_deadwood):
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


@njit(cache=True, inline="always")
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
def _greedy_takes(seat, hand, state, suit_deadwood):
    """Take the pile's top card when some discard afterwards leaves less deadwood than the hand has now."""
    work = state[slot(seat, I_SCRATCH) : slot(seat, I_SCRATCH + 52)]
    best = discard_deadwoods(hand | (1 << v.pile_top(state)), suit_deadwood, work)
    return best < deadwood_of_mask(hand, suit_deadwood)


@njit(cache=True)
def _greedy_discard(seat, hand, state, suit_deadwood):
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


# -- heuristic and opponent: their decide function ----------------------------------------
#
# It hands the searching code the table and the seat's own rows: its parameters, its memory,
# the rules and its generator (copied out of the int row and back). mcts has its decide in its
# own module (kernels/mcts.py), as a new bot does (docs/ADDING_A_BOT.md).


@njit(cache=True)
def _estimating_decide(decision, bot, seat, hand, state, suit_deadwood):
    """heuristic and opponent (``bot``): the heuristic policy, ``opponent`` with its running estimate."""
    params, memory, own, rules, rng = seat_rows(seat, state)
    model = bot == BOT_OPPONENT
    answer = np.int64(1)  # big gin, and heuristic's fiftieth card: always
    if decision == DECISION_START:
        _opponent.reset_beliefs(own, memory)
    elif decision in (DECISION_TAKE_UP_CARD, DECISION_DRAW_FROM_PILE):
        answer = _heuristic.takes_pile_card(model, params, seat, hand, state, rules, own, memory, suit_deadwood)
    elif decision == DECISION_DISCARD:
        answer = _heuristic.choose_discard(model, params, seat, hand, state, rules, own, memory, suit_deadwood)
    elif decision == DECISION_KNOCK:
        answer = _heuristic.knocks(model, params, seat, hand, state, rules, own, memory, suit_deadwood, SUIT_VALUE, rng)
    elif decision == DECISION_TAKE_FIFTIETH and model:
        answer = _heuristic.takes_fiftieth(
            params, seat, hand, state, rules, own, memory, rng, suit_deadwood, SUIT_VALUE
        )
    own[I_RNG] = np.int64(rng[0])
    return np.int64(answer)


#: Every compiled bot, weakest first, one line each: its name and its ``decide``. A bot's id is its
#: position. The built-in bots share :func:`built_in_decide` (the Python adapter's; the engine calls them
#: directly), the others are passed to the engine. The registry lists these names, each described by the
#: module of its name in ``strategies/``.
BOTS = (
    ("random", built_in_decide),
    ("simple", built_in_decide),
    ("greedy", built_in_decide),
    ("heuristic", _estimating_decide),
    ("opponent", _estimating_decide),
    ("mcts", _mcts.decide),
)
#: The bots' names, by id.
BOT_NAMES = tuple(name for name, _ in BOTS)
#: Each bot's ``decide``, by id.
POLICIES = tuple(decide for _, decide in BOTS)


def seat_policies(bot_ids) -> tuple:  # type: ignore[no-untyped-def]
    """The ``decide`` to pass the engine for each seat's bot: the bot's own for a searching bot,
    :func:`unused_policy` for a built-in one (so that a pairing compiles only what plays)."""
    return tuple(POLICIES[int(bot)] if bot > LAST_BUILT_IN else unused_policy for bot in bot_ids)


def decide(decision: int, bot: int, seat: int, hand: int, state: np.ndarray, suit_deadwood: np.ndarray) -> int:
    """One decision of bot ``bot`` by its ``DECISION_*`` code, as an int (0/1, or the card to discard).

    The entry point of :class:`simgin.players.compiled.CompiledStrategy`; it compiles that
    bot's ``decide`` only.
    """
    return POLICIES[bot](decision, bot, seat, hand, state, suit_deadwood)

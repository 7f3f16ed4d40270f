"""Compiled bots: one function per decision, dispatched on a bot id, for the numba hand loop.

Every decision function has the same arguments: ``bot`` (a ``BOT_*`` id), ``seat``,
``hand`` (the deciding player's cards as a 64-bit mask), ``state`` and ``suit_deadwood``
(the lookup table of ``kernels.melds``). ``state`` is one int64 array: first the public
table of ``kernels.view`` (the rules included), then each seat's private memory for the
hand: an int row (slot ``I_RNG`` holds the seat's SplitMix64 state as int64 bits, then the
bot's memory) and a float row kept as int64 bits (the bot's parameter vector, slots in
``kernels.parameters``, then the searching bots' memory). A bot reads the table and its own
rows only: not the opponent's hand, not the stock order, which are not there, and not the
opponent's memory (the Python adapter leaves it zero, so a bot that read it would not play
the same in both engines, and the differential tests would fail). One array, with the
cheap bots' decisions inlined into the hand loop, keeps the calls cheap: numba counts a
reference for each array argument of each call.

The plain-Python twins of ``random``, ``simple`` and ``greedy`` (``strategies/``) draw the
same random numbers in the same order, so both forms play identical hands; every compiled
bot also runs in Python through :class:`simgin.strategies.compiled.CompiledStrategy`, which
calls :func:`decide` with a state built from the ``PlayerView``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

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


@njit(cache=True, inline="always")
def start_hand(bot, seat, hand, state, suit_deadwood):
    """A new hand: clear the seat's memory (and set up the opponent estimate where used)."""
    if bot == BOT_SIMPLE:
        for c in range(52):
            state[slot(seat, I_PAIRS + c)] = 0
    elif bot >= BOT_HEURISTIC:
        _advanced(DECISION_START, bot, seat, hand, state, suit_deadwood)


@njit(cache=True, inline="always")
def take_up_card(bot, seat, hand, state, suit_deadwood):
    """First-turn offer of the up card, the pile's top card (R11)."""
    return _takes_pile_top(DECISION_TAKE_UP_CARD, bot, seat, hand, state, suit_deadwood)


@njit(cache=True, inline="always")
def draw_from_pile(bot, seat, hand, state, suit_deadwood):
    """Normal turn: take the pile's top card instead of the stock's (R9)."""
    return _takes_pile_top(DECISION_DRAW_FROM_PILE, bot, seat, hand, state, suit_deadwood)


@njit(cache=True, inline="always")
def _takes_pile_top(decision, bot, seat, hand, state, suit_deadwood):
    """Whether ``bot`` takes the pile's top card; the built-in bots decide the up card (R11) and a
    normal turn's draw (R9) alike, the searching ones see which of the two ``decision`` is."""
    if bot == BOT_RANDOM:
        return randint_at(state, seat, 2) == 1
    if bot == BOT_SIMPLE:
        return card_fits_meld(hand, v.pile_top(state))
    if bot == BOT_GREEDY:
        return _greedy_takes(hand, v.pile_top(state), state, seat, suit_deadwood)
    return _advanced(decision, bot, seat, hand, state, suit_deadwood) == 1


@njit(cache=True, inline="always")
def discard(bot, seat, hand, state, suit_deadwood):
    """The card to discard from the 11 held (R9, R10, V6, V7).

    After the V7 take (``state[T_FIFTIETH]``) the player must knock, so only discards leaving
    at most the knock limit are legal, the taken card included.
    """
    drawn = state[v.T_DRAWN]
    from_pile = state[v.T_FROM_PILE] != 0
    fiftieth = state[v.T_FIFTIETH] != 0
    if bot == BOT_RANDOM:
        rediscard = state[REDISCARD] != 0
        knock_limit = state[v.T_KNOCK_LIMIT]
        return _random_discard(hand, drawn, from_pile, rediscard, fiftieth, knock_limit, state, seat, suit_deadwood)
    if bot == BOT_SIMPLE:
        return _simple_discard(hand, drawn, from_pile, fiftieth, state, seat, suit_deadwood)
    if bot == BOT_GREEDY:
        keep_drawn = from_pile and not fiftieth and state[REDISCARD] == 0
        return _greedy_discard(hand, drawn, keep_drawn, state, seat, suit_deadwood)
    return _advanced(DECISION_DISCARD, bot, seat, hand, state, suit_deadwood)


@njit(cache=True, inline="always")
def knock(bot, seat, hand, state, suit_deadwood):
    """Asked only when the 10 cards left may knock (R12, R13)."""
    if bot == BOT_RANDOM:
        return randint_at(state, seat, 2) == 1
    if bot in (BOT_SIMPLE, BOT_GREEDY):
        return True
    return _advanced(DECISION_KNOCK, bot, seat, hand, state, suit_deadwood) == 1


@njit(cache=True, inline="always")
def big_gin(bot, seat, hand, state, suit_deadwood):
    """Asked only when all 11 cards are melded and big gin is on (V13): every bot but random goes."""
    if bot == BOT_RANDOM:
        return randint_at(state, seat, 2) == 1
    return True


@njit(cache=True, inline="always")
def take_fiftieth(bot, seat, hand, state, suit_deadwood):
    """Asked only when taking the last discard lets this player knock (V7)."""
    if bot == BOT_RANDOM:
        return randint_at(state, seat, 2) == 1
    if bot in (BOT_SIMPLE, BOT_GREEDY, BOT_HEURISTIC):
        return True
    return _advanced(DECISION_TAKE_FIFTIETH, bot, seat, hand, state, suit_deadwood) == 1


@njit(cache=True)
def decide(decision, bot, seat, hand, state, suit_deadwood):
    """One decision by its ``DECISION_*`` code, as an int (0/1, or the card to discard).

    The entry point of :class:`simgin.strategies.compiled.CompiledStrategy`; the engine calls
    the decision functions directly.
    """
    if decision == DECISION_START:
        start_hand(bot, seat, hand, state, suit_deadwood)
        return np.int64(0)
    if decision == DECISION_TAKE_UP_CARD:
        return np.int64(take_up_card(bot, seat, hand, state, suit_deadwood))
    if decision == DECISION_DRAW_FROM_PILE:
        return np.int64(draw_from_pile(bot, seat, hand, state, suit_deadwood))
    if decision == DECISION_DISCARD:
        return np.int64(discard(bot, seat, hand, state, suit_deadwood))
    if decision == DECISION_KNOCK:
        return np.int64(knock(bot, seat, hand, state, suit_deadwood))
    if decision == DECISION_BIG_GIN:
        return np.int64(big_gin(bot, seat, hand, state, suit_deadwood))
    return np.int64(take_fiftieth(bot, seat, hand, state, suit_deadwood))


@njit(cache=True)
def _advanced(decision, bot, seat, hand, state, suit_deadwood):
    """The decisions of heuristic, opponent and mcts, behind one call (the cheap bots' path stays small).

    Hands the searching code the table and the seat's own rows: its parameters, its
    memory, the rules and its generator (copied out of the int row and back).
    """
    table = state
    row = state[S_FLOATS + seat * FLOAT_MEMORY : S_FLOATS + (seat + 1) * FLOAT_MEMORY].view(np.float64)
    params = row[:PARAMETER_CAPACITY]
    memory = row[F_MEMORY:]
    own = state[slot(seat, 0) : slot(seat, INT_MEMORY)]
    rules = state[v.T_RULES : v.T_RULES + RULE_COUNT]
    rng = np.empty(1, np.uint64)
    rng[0] = np.uint64(own[I_RNG])
    model = bot == BOT_OPPONENT
    answer = np.int64(0)
    if decision == DECISION_START:
        _opponent.reset_beliefs(own, memory)
    elif bot == BOT_MCTS and decision == DECISION_TAKE_UP_CARD:
        answer = _mcts.choose_draw(True, params, seat, hand, table, rules, own, memory, rng, suit_deadwood, SUIT_VALUE)
    elif bot == BOT_MCTS and decision == DECISION_DRAW_FROM_PILE:
        answer = _mcts.choose_draw(False, params, seat, hand, table, rules, own, memory, rng, suit_deadwood, SUIT_VALUE)
    elif bot == BOT_MCTS and decision == DECISION_DISCARD:
        answer = _mcts.choose_discard(params, seat, hand, table, rules, own, memory, rng, suit_deadwood, SUIT_VALUE)
    elif bot == BOT_MCTS and decision == DECISION_KNOCK:
        answer = _mcts.choose_knock(params, seat, hand, table, rules, own, memory, rng, suit_deadwood, SUIT_VALUE)
    elif decision in (DECISION_TAKE_UP_CARD, DECISION_DRAW_FROM_PILE):
        answer = _heuristic.takes_pile_card(model, params, seat, hand, table, rules, own, memory, suit_deadwood)
    elif decision == DECISION_DISCARD:
        answer = _heuristic.choose_discard(model, params, seat, hand, table, rules, own, memory, suit_deadwood)
    elif decision == DECISION_KNOCK:
        answer = _heuristic.knocks(model, params, seat, hand, table, rules, own, memory, suit_deadwood, SUIT_VALUE, rng)
    elif decision == DECISION_TAKE_FIFTIETH:
        answer = _heuristic.takes_fiftieth(
            params, seat, hand, table, rules, own, memory, rng, suit_deadwood, SUIT_VALUE
        )
    own[I_RNG] = np.int64(rng[0])
    return np.int64(answer)


# -- random ---------------------------------------------------------------------------


@njit(cache=True)
def _random_discard(hand, drawn, from_pile, rediscard, fiftieth, knock_limit, state, seat, suit_deadwood):
    """A uniformly random legal discard, the legal cards taken in ascending order."""
    cards = np.empty(11, np.int64)
    count = 0
    if fiftieth:
        work = state[slot(seat, I_SCRATCH) : slot(seat, I_SCRATCH + 52)]
        discard_deadwoods(hand, suit_deadwood, work)
        for c in range(52):
            if (hand >> c) & 1 and work[c] <= knock_limit:
                cards[count] = c
                count += 1
    else:
        for c in range(52):
            if (hand >> c) & 1 and not (c == drawn and from_pile and not rediscard):
                cards[count] = c
                count += 1
    return cards[randint_at(state, seat, count)]


# -- simple ---------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _simple_discard(hand, drawn, from_pile, fiftieth, state, seat, suit_deadwood):
    """The EAAI player's discard; int slots ``I_PAIRS + c`` hold its (drawn, discarded) pairs as partner masks."""
    cards = np.empty(11, np.int64)
    work = state[slot(seat, I_SCRATCH) : slot(seat, I_SCRATCH + 52)]
    discard_deadwoods(hand, suit_deadwood, work)
    if fiftieth:
        count = _least(hand, work, -1, False, state, seat, False, cards)
        return cards[randint_at(state, seat, count)]
    count = _least(hand, work, drawn, from_pile, state, seat, True, cards)
    if count == 0:
        count = _least(hand, work, drawn, from_pile, state, seat, False, cards)
    choice = cards[randint_at(state, seat, count)]
    if drawn >= 0:
        state[slot(seat, I_PAIRS + drawn)] |= 1 << choice
        state[slot(seat, I_PAIRS + choice)] |= 1 << drawn
    return choice


@njit(cache=True, inline="always")
def _least(hand, left, drawn, from_pile, state, seat, use_pairs, cards):
    """Fill ``cards`` with the allowed cards whose discard leaves the least deadwood; return their count."""
    best = 1 << 30
    count = 0
    partners = state[slot(seat, I_PAIRS + drawn)] if use_pairs and drawn >= 0 else 0
    for c in range(52):
        if not (hand >> c) & 1:
            continue
        if c == drawn and from_pile:
            continue
        if (partners >> c) & 1:
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
def _greedy_takes(hand, card, state, seat, suit_deadwood):
    """Take ``card`` when some discard afterwards leaves less deadwood than the hand has now."""
    work = state[slot(seat, I_SCRATCH) : slot(seat, I_SCRATCH + 52)]
    best = discard_deadwoods(hand | (1 << card), suit_deadwood, work)
    return best < deadwood_of_mask(hand, suit_deadwood)


@njit(cache=True)
def _greedy_discard(hand, drawn, keep_drawn, state, seat, suit_deadwood):
    """The discard leaving the least deadwood; ties go to the higher rank, then the higher card.

    ``keep_drawn``: the card just taken from the pile may not be discarded (R10). After the
    V7 take every card is allowed and the least deadwood is within the knock limit.
    """
    work = state[slot(seat, I_SCRATCH) : slot(seat, I_SCRATCH + 52)]
    discard_deadwoods(hand, suit_deadwood, work)
    best = -1
    for c in range(52):
        if not (hand >> c) & 1 or (keep_drawn and c == drawn):
            continue
        if best < 0 or work[c] < work[best] or (work[c] == work[best] and c % 13 >= best % 13):
            best = c
    return best

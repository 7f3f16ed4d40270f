"""The opponent estimate: how likely the opponent holds each card, from what it did (R9, R11).

Kept by the ``opponent`` and ``mcts`` bots (``strategies/opponent.py``, ``strategies/mcts.py``).

Every card the player cannot see (not in its hand, not in the pile, not known to be held by
the opponent) has a weight, 1 at the deal. Each public move of the opponent multiplies the
weights of the cards *related* to the card it moved (the other three cards of its rank and
the cards one rank away in its suit by the factor, the cards two ranks away by its square
root), as a likelihood ratio would in a Bayesian update:

- it took a card from the pile: it probably holds cards that meld with it (``take_signal`` > 1);
- it passed the up card, or drew from the stock instead of the pile's top card: it
  probably holds nothing that melds with that card (``pass_signal`` < 1);
- it discarded a card: it probably holds nothing that melds with it (``discard_signal`` < 1).

The opponent holds 10 cards whenever the player decides; the ones it took from the pile and
has not discarded are certain, and the rest are spread over the unseen cards in proportion
to their weights (capped at probability 1). Sampled opponent hands draw from the same
weights, without replacement.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgin.kernels import parameters as pm, rule_index as ri, view as v
from simgin.kernels.melds import deadwood_of_mask
from simgin.kernels.rng import uniform

FULL_DECK = (1 << 52) - 1
HAND_SIZE = 10

# The seat's memory used by the estimate: slots of its ``ints`` row (slot 0 is its
# generator, ``kernels.decisions.I_RNG``) and of its float memory (after the parameters).
I_SEEN_TOOK = 1
I_SEEN_PASSED = 2
I_SEEN_DISCARDS = 3
F_WEIGHT = 0  # 52 slots


@njit(cache=True)
def popcount(mask):
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


@njit(cache=True)
def reset_beliefs(ints, floats):
    """The estimate at the deal: every unseen card equally likely."""
    ints[I_SEEN_TOOK] = 0
    ints[I_SEEN_PASSED] = 0
    ints[I_SEEN_DISCARDS] = 0
    for c in range(52):
        floats[F_WEIGHT + c] = 1.0


@njit(cache=True)
def signal(floats, card, factor):
    """Multiply the weights of the cards related to ``card``: its rank-mates and suit neighbours."""
    rank = card % 13
    suit = card // 13
    for s in range(4):
        if s != suit:
            floats[F_WEIGHT + 13 * s + rank] *= factor
    near = np.sqrt(factor)
    for step in (-2, -1, 1, 2):
        r = rank + step
        if 0 <= r < 13:
            floats[F_WEIGHT + 13 * suit + r] *= factor if step == -1 or step == 1 else near


@njit(cache=True)
def update_beliefs(params, seat, table, ints, floats):
    """Fold in the opponent's moves since the seat last looked (call it at every decision).

    Between two decisions of the seat the opponent plays at most one turn, so one new
    discard without a new take means it drew from the stock while the card under that
    discard lay on top of the pile: a pass, unless it already passed that card as the up card.
    """
    other = 1 - seat
    took = table[v.T_TOOK_COUNT + other]
    passed = table[v.T_PASSED_COUNT + other]
    discarded = table[v.T_DISCARD_COUNT + other]
    for i in range(ints[I_SEEN_PASSED], passed):
        signal(floats, table[v.T_PASSED + 2 * other + i], params[pm.PASS_SIGNAL])
    pile_count = table[v.T_PILE_COUNT]
    if took == ints[I_SEEN_TOOK] and discarded == ints[I_SEEN_DISCARDS] + 1 and pile_count >= 2:
        newest = table[v.T_DISCARDS + other * v.LIST_CAPACITY + discarded - 1]
        if table[v.T_PILE + pile_count - 1] == newest:
            below = table[v.T_PILE + pile_count - 2]
            already = False
            for i in range(passed):
                if table[v.T_PASSED + 2 * other + i] == below:
                    already = True
            if not already:
                signal(floats, below, params[pm.PASS_SIGNAL])
    for i in range(ints[I_SEEN_TOOK], took):
        signal(floats, table[v.T_TOOK + other * v.LIST_CAPACITY + i], params[pm.TAKE_SIGNAL])
    for i in range(ints[I_SEEN_DISCARDS], discarded):
        signal(floats, table[v.T_DISCARDS + other * v.LIST_CAPACITY + i], params[pm.DISCARD_SIGNAL])
    ints[I_SEEN_TOOK] = took
    ints[I_SEEN_PASSED] = passed
    ints[I_SEEN_DISCARDS] = discarded


@njit(cache=True)
def stateless_weights(params, seat, table, floats):
    """The ``heuristic`` bot's cruder estimate, from the lists alone: takes (1 / ``evidence``),
    passes and discards (``evidence``), no passes inferred from stock draws."""
    other = 1 - seat
    for c in range(52):
        floats[F_WEIGHT + c] = 1.0
    evidence = params[pm.EVIDENCE]
    for i in range(table[v.T_PASSED_COUNT + other]):
        signal(floats, table[v.T_PASSED + 2 * other + i], evidence)
    for i in range(table[v.T_TOOK_COUNT + other]):
        signal(floats, table[v.T_TOOK + other * v.LIST_CAPACITY + i], 1.0 / evidence)
    for i in range(table[v.T_DISCARD_COUNT + other]):
        signal(floats, table[v.T_DISCARDS + other * v.LIST_CAPACITY + i], evidence)


@njit(cache=True)
def probabilities(seat, hand, table, floats, p):
    """``p[c]``: the chance that the opponent holds card ``c``; returns (known mask, unseen mask).

    Known cards have 1; the opponent's other ``10 - known`` cards are spread over the unseen
    cards in proportion to their weights, no card above 1 (water filling).
    """
    known = v.known_opponent_cards(table, seat, hand)
    unseen = FULL_DECK & ~(hand | v.pile_mask(table) | known)
    for c in range(52):
        p[c] = 1.0 if (known >> c) & 1 else 0.0
    remaining = HAND_SIZE - popcount(known)
    free = unseen
    while remaining > 0 and free:
        total = 0.0
        for c in range(52):
            if (free >> c) & 1:
                total += floats[F_WEIGHT + c]
        if total <= 0.0:
            break
        scale = remaining / total
        capped = False
        for c in range(52):
            if (free >> c) & 1 and scale * floats[F_WEIGHT + c] >= 1.0:
                p[c] = 1.0
                remaining -= 1
                free &= ~(1 << c)
                capped = True
        if not capped:
            for c in range(52):
                if (free >> c) & 1:
                    p[c] = scale * floats[F_WEIGHT + c]
            break
    return known, unseen


#: Slots of the ``weights`` scratch array of :func:`sample_hand` and :func:`sample_likely_hand`: the weights of the
#: cards still to draw from, their running sums, and the weights as first built (restored between tries).
SAMPLE_WEIGHT_SLOTS = 3 * 52
_SUMS = 52
_BUILT = 104


@njit(cache=True)
def sample_hand(known, unseen, floats, rng, cards, weights):
    """An opponent hand: the known cards plus ``10 - known`` unseen cards drawn by weight.

    ``cards`` (52 slots) and ``weights`` (:data:`SAMPLE_WEIGHT_SLOTS`) are scratch arrays.
    """
    count, total = _unseen_weights(unseen, floats, cards, weights)
    return _draw_hand(known, count, total, rng, cards, weights)


@njit(cache=True, inline="always")
def _unseen_weights(unseen, floats, cards, weights):
    """The unseen cards in ascending order into ``cards`` and their weights into ``weights`` (and its built copy);
    (their count, the weights' sum)."""
    count = 0
    total = 0.0
    for c in range(52):
        if (unseen >> c) & 1:
            cards[count] = c
            weights[count] = floats[F_WEIGHT + c]
            weights[_BUILT + count] = weights[count]
            total += weights[count]
            count += 1
    return count, total


@njit(cache=True, inline="always")
def _draw_hand(known, count, total, rng, cards, weights):
    """``known`` plus ``10 - known`` of the ``count`` cards drawn without replacement by weight, each with one
    uniform number: the first card whose running sum of weights (in card order) passes ``uniform * total``.

    The running sums are kept between draws: those below the lowest card drawn so far are still right (the same
    additions in the same order as a scan from the first card), so a draw that lands there counts the sums at or
    below its target (they rise with the cards; the count has no branch to mispredict, where a binary search had
    one at each step) and only a draw past them adds further. The card drawn is the one a scan from the first
    card finds, to the last bit (tests/test_opponent_sampling.py)."""
    hand = known
    valid = 0  # the running sums of weights[:valid] are weights[_SUMS:_SUMS + valid]
    for _ in range(HAND_SIZE - popcount(known)):
        target = uniform(rng) * total
        pick = -1
        if target < 0.0:  # the total worn below zero by rounding: the first card with weight left, as a scan finds
            for j in range(count):
                if weights[j] > 0.0:
                    pick = j
                    break
        elif valid > 0 and weights[_SUMS + valid - 1] > target:
            pick = 0  # the sums rise with the cards: the first one past the target is the count of those below
            for j in range(valid):
                pick += weights[_SUMS + j] <= target
        else:
            running = weights[_SUMS + valid - 1] if valid > 0 else 0.0
            i = valid
            while i < count:
                running += weights[i]
                weights[_SUMS + i] = running
                i += 1
                if running > target:
                    pick = i - 1
                    break
            valid = i
            if pick < 0:  # rounding: the last card with weight left
                for j in range(count - 1, -1, -1):
                    if weights[j] > 0.0:
                        pick = j
                        break
        if pick < 0:
            break
        hand |= 1 << cards[pick]
        total -= weights[pick]
        weights[pick] = 0.0
        valid = min(valid, pick)
    return hand


#: Candidate hands drawn for each sampled opponent hand in the bots' worlds, one of which is kept by its quality
#: (:func:`sample_likely_hand`'s ``tries``; typed, so that every caller compiles one signature).
QUALITY_TRIES = np.int64(8)


@njit(cache=True)
def sample_likely_hand(known, unseen, floats, quality, rng, cards, weights, suit_deadwood, tries):
    """An opponent hand drawn as :func:`sample_hand`, then tilted towards well-kept hands.

    An opponent that has played a while holds a better hand than a random one: it kept the
    cards that meld and threw the others away. So ``tries`` hands are drawn (``QUALITY_TRIES``
    for the bots) and one is kept with probability proportional to ``exp(-quality * deadwood)``
    (``quality`` 0: the first one, no tilt). The unseen cards and their weights are listed once for
    all the tries.
    """
    if quality <= 0.0:
        return sample_hand(known, unseen, floats, rng, cards, weights)
    return sample_likely_hand_scored(known, unseen, floats, quality, rng, cards, weights, suit_deadwood, tries)[0]


@njit(cache=True)
def sample_likely_hand_scored(known, unseen, floats, quality, rng, cards, weights, suit_deadwood, tries):
    """(:func:`sample_likely_hand`'s hand, its deadwood): the tilt has found the deadwood of every hand it tried,
    so a caller that needs it (``kernels.knock.knocking_value``) need not search the hand again."""
    if quality <= 0.0:
        hand = sample_hand(known, unseen, floats, rng, cards, weights)
        return hand, deadwood_of_mask(hand, suit_deadwood)
    hands = np.empty(tries, np.int64)
    deadwoods = np.empty(tries, np.int64)
    scores = np.empty(tries)
    best = 1 << 30
    count, total = _unseen_weights(unseen, floats, cards, weights)
    for i in range(tries):
        if i > 0:
            weights[:count] = weights[_BUILT : _BUILT + count]
        hands[i] = _draw_hand(known, count, total, rng, cards, weights)
        deadwoods[i] = deadwood_of_mask(hands[i], suit_deadwood)
        best = min(best, deadwoods[i])
    total = 0.0
    for i in range(tries):
        scores[i] = np.exp(-quality * (deadwoods[i] - best))
        total += scores[i]
    target = uniform(rng) * total
    for i in range(tries):
        target -= scores[i]
        if target < 0.0:
            return hands[i], deadwoods[i]
    return hands[tries - 1], deadwoods[tries - 1]


@njit(cache=True, inline="always")
def knock_points(knocker_deadwood, defender_deadwood, rules):
    """The knocker's points (negative when undercut) when a 10-card knocker with ``knocker_deadwood`` knocks
    and the defender is left with ``defender_deadwood``: after its lay-offs on a knock (R16-R18), its whole
    deadwood on gin (R19: no lay-offs)."""
    if knocker_deadwood == 0:
        return rules[ri.GIN_BONUS] + defender_deadwood
    if knocker_deadwood < defender_deadwood:
        return defender_deadwood - knocker_deadwood
    if knocker_deadwood == defender_deadwood and not rules[ri.UNDERCUT_ON_TIE]:
        return 0
    return -(knocker_deadwood - defender_deadwood + rules[ri.UNDERCUT_BONUS])

"""Meld and deadwood kernels (R3-R6).

Why it is fast: within one suit, with no sets, the cards that runs can meld are exactly
the maximal blocks of 3 or more consecutive ranks, so a table indexed by the 13-bit suit
mask gives a suit's run-only deadwood. Only sets couple the suits. A hand of 11 cards has
at most three ranks with 3 or more cards, and each such rank has few set choices (none,
each 3-card subset, the 4-card set), so the minimum deadwood is the minimum, over those
few set choices, of four table lookups.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

SUIT_BITS = 0x1FFF


def _build_suit_deadwood() -> np.ndarray:
    """Run-only deadwood of every 13-bit suit mask (R4: ace low, no wrap-around)."""
    table = np.zeros(1 << 13, dtype=np.int64)
    for mask in range(1 << 13):
        starts = mask & (mask >> 1) & (mask >> 2)
        melded = starts | (starts << 1) | (starts << 2)
        loose = mask & ~melded
        table[mask] = sum(min(rank + 1, 10) for rank in range(13) if loose >> rank & 1)
    table.flags.writeable = False
    return table


SUIT_DEADWOOD = _build_suit_deadwood()


def _build_suit_drop(suit_deadwood: np.ndarray) -> np.ndarray:
    """For every 13-bit suit mask, the least run-only deadwood left in the suit after taking one of its cards out
    (``2**30`` for the empty mask): with it a best discard (R6) is one lookup per suit, not one per card."""
    table = np.full(1 << 13, 1 << 30, dtype=np.int64)
    for mask in range(1, 1 << 13):
        table[mask] = min(int(suit_deadwood[mask ^ (1 << rank)]) for rank in range(13) if mask >> rank & 1)
    table.flags.writeable = False
    return table


SUIT_DROP = _build_suit_drop(SUIT_DEADWOOD)


def _build_suit_drop_rank(suit_deadwood: np.ndarray, suit_drop: np.ndarray) -> np.ndarray:
    """For every 13-bit suit mask, the rank whose card to take out for :data:`SUIT_DROP`'s least deadwood, the
    highest of equally good ones (-1 for the empty mask): with it the best discard's card is one lookup per
    suit as well (:func:`least_deadwood_discard`)."""
    table = np.full(1 << 13, -1, dtype=np.int64)
    for mask in range(1, 1 << 13):
        table[mask] = max(
            rank for rank in range(13) if mask >> rank & 1 and suit_deadwood[mask ^ (1 << rank)] == suit_drop[mask]
        )
    table.flags.writeable = False
    return table


SUIT_DROP_RANK = _build_suit_drop_rank(SUIT_DEADWOOD, SUIT_DROP)
RANK_VALUES = np.array([min(rank + 1, 10) for rank in range(13)], dtype=np.int64)
RANK_VALUES.flags.writeable = False


@njit(cache=True, inline="always")
def suit_mask(hand: int, suit: int) -> int:
    return (hand >> (13 * suit)) & SUIT_BITS


@njit(cache=True, inline="always")
def has_three_of_a_rank(hand):
    """Whether some rank has 3 or more cards in ``hand``, so that sets are possible (R3)."""
    m0 = suit_mask(hand, 0)
    m1 = suit_mask(hand, 1)
    m2 = suit_mask(hand, 2)
    m3 = suit_mask(hand, 3)
    return (m0 & m1 & m2) | (m0 & m1 & m3) | (m0 & m2 & m3) | (m1 & m2 & m3) != 0


#: The four cards of rank 0, one per suit; shifted left by r, the four cards of rank r.
RANK_COLUMN = 1 | (1 << 13) | (1 << 26) | (1 << 39)


#: ``_BIT_OF_REMAINDER[2**k % 37] == k`` for k below 36: the powers of two leave distinct remainders modulo 37.
_BIT_OF_REMAINDER = np.full(37, -1, dtype=np.int64)
for _k in range(36):
    _BIT_OF_REMAINDER[(1 << _k) % 37] = _k
_BIT_OF_REMAINDER.flags.writeable = False


@njit(cache=True, inline="always")
def _bit_index(low):
    """Index of the single set bit of ``low`` (a power of two below 2**13): one lookup, not a loop."""
    return _BIT_OF_REMAINDER[low % 37]


@njit(cache=True, inline="always")
def single_set(hand):
    """The sets ``hand`` may form (R3), when they are few: 0 when no rank has three cards; the three cards when
    exactly one rank has three and none four (:func:`set_choices` would list no set, then that set); -1 otherwise
    (ask :func:`set_choices`). The common cases without building the list of choices."""
    m0 = suit_mask(hand, 0)
    m1 = suit_mask(hand, 1)
    m2 = suit_mask(hand, 2)
    m3 = suit_mask(hand, 3)
    three = (m0 & m1 & m2) | (m0 & m1 & m3) | (m0 & m2 & m3) | (m1 & m2 & m3)
    if three == 0:
        return np.int64(0)
    if m0 & m1 & m2 & m3 == 0 and three & (three - 1) == 0:
        return hand & (RANK_COLUMN << _bit_index(three))
    return np.int64(-1)


@njit(cache=True)
def set_choices(hand):
    """The ways to put cards of ``hand`` into sets (R3), as 52-bit masks of the set cards.

    Each rank with 3 or more cards offers: no set, and either its 3-card set or, with all
    four, each 3-card subset and the 4-card set. A choice takes one option per such rank;
    entry 0 is the choice of no sets. The order is fixed (the lowest rank's option varies
    fastest) because callers keep the first of equally good choices.
    """
    m0 = suit_mask(hand, 0)
    m1 = suit_mask(hand, 1)
    m2 = suit_mask(hand, 2)
    m3 = suit_mask(hand, 3)
    three = (m0 & m1 & m2) | (m0 & m1 & m3) | (m0 & m2 & m3) | (m1 & m2 & m3)
    four = m0 & m1 & m2 & m3
    total = 1
    for rank in range(13):
        if (four >> rank) & 1:
            total *= 6
        elif (three >> rank) & 1:
            total *= 2
    choices = np.empty(total, np.int64)
    choices[0] = 0
    size = 1
    for rank in range(13):
        if not (three >> rank) & 1:
            continue
        column = hand & (RANK_COLUMN << rank)
        if (four >> rank) & 1:
            # Each 3-card set (without suit 0, 1, 2, 3 in turn), then all four.
            for missing in range(4):
                _extend(choices, size, 1 + missing, column & ~(1 << (13 * missing + rank)))
            _extend(choices, size, 5, column)
            size *= 6
        else:
            _extend(choices, size, 1, column)
            size *= 2
    return choices


@njit(cache=True, inline="always")
def _extend(choices, size, option, cards):
    """Block ``option`` of the choices: the first ``size`` choices with ``cards`` added."""
    for j in range(size):
        choices[option * size + j] = choices[j] | cards


@njit(cache=True, inline="always")
def run_cards(m):
    """Cards of a 13-bit suit mask that lie in blocks of 3 or more consecutive ranks (R4)."""
    starts = m & (m >> 1) & (m >> 2)
    return starts | (starts << 1) | (starts << 2)


@njit(cache=True, inline="always")
def same_rank_count(hand, card):
    """How many other cards of ``card``'s rank ``hand`` holds (0-3)."""
    rank = card % 13
    suit = card // 13
    count = 0
    for s in range(4):
        if s != suit and (hand >> (13 * s + rank)) & 1:
            count += 1
    return count


@njit(cache=True, inline="always")
def card_fits_meld(hand, card):
    """Whether ``card`` belongs to some meld of ``hand`` plus ``card``: a set (two more of its
    rank in the hand, R3) or a run (a block of three or more in its suit, R4)."""
    if same_rank_count(hand, card) >= 2:
        return True
    rank = card % 13
    return (run_cards(suit_mask(hand, card // 13) | (1 << rank)) >> rank) & 1 == 1


@njit(cache=True)
def deadwood_of_mask(hand, suit_deadwood):
    """Minimum deadwood of a hand mask (R6)."""
    only = single_set(hand)
    if only >= 0:
        runs = _runs_deadwood(hand, suit_deadwood)
        return min(runs, _runs_deadwood(hand & ~only, suit_deadwood)) if only else runs
    best = 1 << 30
    for sets in set_choices(hand):
        rest = hand & ~sets
        total = (
            suit_deadwood[suit_mask(rest, 0)]
            + suit_deadwood[suit_mask(rest, 1)]
            + suit_deadwood[suit_mask(rest, 2)]
            + suit_deadwood[suit_mask(rest, 3)]
        )
        if total < best:
            best = total
    return best


@njit(cache=True)
def best_set_cards(hand, suit_deadwood):
    """The set cards of one minimum-deadwood arrangement, as a mask; runs are the leftover blocks."""
    best = 1 << 30
    best_sets = 0
    for sets in set_choices(hand):
        rest = hand & ~sets
        total = 0
        for suit in range(4):
            total += suit_deadwood[suit_mask(rest, suit)]
        if total < best:
            best = total
            best_sets = sets
    return best_sets


@njit(cache=True)
def discard_deadwoods(hand, suit_deadwood, out):
    """``out[card]`` = minimum deadwood of ``hand`` without ``card``, for every card held, in one search.

    Other entries of ``out`` are left untouched. Returns the smallest of them. For a set
    choice that does not use a card, the hand without that card scores the same, but for
    the card's own suit, so each set choice scores every discard with one lookup per card.
    """
    for card in range(52):
        if (hand >> card) & 1:
            out[card] = 1 << 30
    # np.int64(...): constants would make numba compile _discards_with_sets once per constant.
    best = np.int64(1 << 30)
    only = single_set(hand)
    if only >= 0:
        best = _discards_with_sets(hand, np.int64(0), suit_deadwood, out, best)
        return _discards_with_sets(hand, only, suit_deadwood, out, best) if only else best
    for sets in set_choices(hand):
        best = _discards_with_sets(hand, sets, suit_deadwood, out, best)
    return best


@njit(cache=True, inline="always")
def _runs_deadwood(cards, suit_deadwood):
    """The deadwood of ``cards`` melded in runs only (R4): one lookup per suit."""
    total = 0
    for suit in range(4):
        total += suit_deadwood[suit_mask(cards, suit)]
    return total


@njit(cache=True, inline="always")
def _discards_with_sets(hand, sets, suit_deadwood, out, best):
    """Lower ``out[card]`` to the deadwood left by discarding ``card`` with the set cards ``sets``; the new best."""
    remaining = hand & ~sets
    base = _runs_deadwood(remaining, suit_deadwood)
    for suit in range(4):
        m = suit_mask(remaining, suit)
        rest = base - suit_deadwood[m]
        bits = m
        while bits:
            low = bits & -bits
            rank = _bit_index(low)
            value = rest + suit_deadwood[m ^ low]
            card = 13 * suit + rank
            if value < out[card]:
                out[card] = value
                if value < best:
                    best = value
            bits ^= low
    return best


@njit(cache=True)
def least_deadwood_after_discard(hand, suit_deadwood, suit_drop):
    """The least deadwood ``hand`` can leave by discarding one card (R6: the minimum of :func:`discard_deadwoods`),
    without scoring each discard: for each set choice (R3), the best discard from the cards left takes one card
    out of one suit, whose best is ``suit_drop`` (:data:`SUIT_DROP`, built from ``suit_deadwood``). A card in a
    set is never a better discard than the same choice without that set, which :func:`set_choices` also lists."""
    best = np.int64(1 << 30)
    only = single_set(hand)
    if only >= 0:
        best = _least_after_discard(hand, suit_deadwood, suit_drop, best)
        return _least_after_discard(hand & ~only, suit_deadwood, suit_drop, best) if only else best
    for sets in set_choices(hand):
        best = _least_after_discard(hand & ~sets, suit_deadwood, suit_drop, best)
    return best


@njit(cache=True)
def least_deadwood_discard(hand, banned, suit_deadwood, suit_drop, suit_drop_rank):
    """(card, deadwood left) of the discard leaving the least deadwood (R6), ties to the higher rank, then the
    higher card; ``banned`` (-1: none) may not be discarded (R10). The same card as scoring every discard with
    :func:`discard_deadwoods` (tested), at a fraction of its cost: for each set choice (R3), each suit's best
    card to take out and what it leaves are one lookup each (:data:`SUIT_DROP`, :data:`SUIT_DROP_RANK`, built
    from ``suit_deadwood``), and only the suit holding ``banned`` is searched card by card. The fast playouts
    discard so at every turn (``kernels.mcts.policy_discard``)."""
    best_card = np.int64(-1)
    best = np.int64(1 << 30)
    only = single_set(hand)
    if only >= 0:
        best_card, best = _least_discard_with_sets(
            hand, np.int64(0), banned, suit_deadwood, suit_drop, suit_drop_rank, best_card, best
        )  # fmt: skip
        if only:
            best_card, best = _least_discard_with_sets(
                hand, only, banned, suit_deadwood, suit_drop, suit_drop_rank, best_card, best
            )  # fmt: skip
        return best_card, best
    for sets in set_choices(hand):
        best_card, best = _least_discard_with_sets(
            hand, sets, banned, suit_deadwood, suit_drop, suit_drop_rank, best_card, best
        )  # fmt: skip
    return best_card, best


@njit(cache=True, inline="always")
def _least_discard_with_sets(hand, sets, banned, suit_deadwood, suit_drop, suit_drop_rank, best_card, best):
    """:func:`least_deadwood_discard` over the discards of the cards not in ``sets``, given the best so far."""
    remaining = hand & ~sets
    base = _runs_deadwood(remaining, suit_deadwood)
    for suit in range(4):
        m = suit_mask(remaining, suit)
        if m == 0:
            continue
        if banned >= 0 and banned // 13 == suit and (m >> (banned % 13)) & 1:
            rank = -1
            drop = np.int64(1 << 30)
            for r in range(13):
                if (m >> r) & 1 and r != banned % 13 and suit_deadwood[m ^ (1 << r)] <= drop:
                    drop = suit_deadwood[m ^ (1 << r)]
                    rank = r
            if rank < 0:
                continue
        else:
            drop = suit_drop[m]
            rank = suit_drop_rank[m]
        value = base - suit_deadwood[m] + drop
        card = 13 * suit + rank
        if value < best or (value == best and (rank > best_card % 13 or (rank == best_card % 13 and card > best_card))):
            best = value
            best_card = card
    return best_card, best


@njit(cache=True, inline="always")
def _least_after_discard(remaining, suit_deadwood, suit_drop, best):
    m0 = suit_mask(remaining, 0)
    m1 = suit_mask(remaining, 1)
    m2 = suit_mask(remaining, 2)
    m3 = suit_mask(remaining, 3)
    d0, d1, d2, d3 = suit_deadwood[m0], suit_deadwood[m1], suit_deadwood[m2], suit_deadwood[m3]
    base = d0 + d1 + d2 + d3
    for m, d in ((m0, d0), (m1, d1), (m2, d2), (m3, d3)):
        if m:
            value = base - d + suit_drop[m]
            if value < best:
                best = value
    return best


@njit(cache=True)
def best_discard_of_mask(hand, suit_deadwood):
    """(card, deadwood) of a discard leaving the least deadwood; ties go to the lowest card; (-1, 0) if empty."""
    if hand == 0:
        return -1, 0
    out = np.empty(52, np.int64)
    best = discard_deadwoods(hand, suit_deadwood, out)
    for card in range(52):
        if (hand >> card) & 1 and out[card] == best:
            return card, best
    return -1, best


@njit(cache=True, parallel=True)
def deadwood_batch(hands, suit_deadwood, out):
    """Minimum deadwood of each hand mask; each iteration writes only its own row."""
    for i in prange(hands.shape[0]):
        out[i] = deadwood_of_mask(hands[i], suit_deadwood)


@njit(cache=True, parallel=True)
def best_discard_batch(hands, suit_deadwood, cards_out, deadwood_out):
    """Best discard and the deadwood it leaves, for each hand mask."""
    for i in prange(hands.shape[0]):
        card, dw = best_discard_of_mask(hands[i], suit_deadwood)
        cards_out[i] = card
        deadwood_out[i] = dw

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
MAX_SET_RANKS = 13
MAX_OPTIONS = 6  # per rank: none, four 3-card sets, the 4-card set


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
RANK_VALUES = np.array([min(rank + 1, 10) for rank in range(13)], dtype=np.int64)
RANK_VALUES.flags.writeable = False


@njit(cache=True, inline="always")
def suit_mask(hand: int, suit: int) -> int:
    return (hand >> (13 * suit)) & SUIT_BITS


@njit(cache=True)
def set_options(hand, ranks, options, option_counts):
    """Fill the set choices of a hand; return how many ranks have 3 or more cards.

    ``ranks[i]`` is such a rank, ``options[i, k]`` a 4-bit mask of the suits whose card of
    that rank goes into a set (0 = no set), ``option_counts[i]`` how many options rank i has.
    """
    m0 = suit_mask(hand, 0)
    m1 = suit_mask(hand, 1)
    m2 = suit_mask(hand, 2)
    m3 = suit_mask(hand, 3)
    three = (m0 & m1 & m2) | (m0 & m1 & m3) | (m0 & m2 & m3) | (m1 & m2 & m3)
    count = 0
    for rank in range(13):
        if not (three >> rank) & 1:
            continue
        present = ((m0 >> rank) & 1) | (((m1 >> rank) & 1) << 1) | (((m2 >> rank) & 1) << 2) | (((m3 >> rank) & 1) << 3)
        ranks[count] = rank
        options[count, 0] = 0
        if present == 15:
            options[count, 1] = 0b1110
            options[count, 2] = 0b1101
            options[count, 3] = 0b1011
            options[count, 4] = 0b0111
            options[count, 5] = 0b1111
            option_counts[count] = 6
        else:
            options[count, 1] = present
            option_counts[count] = 2
        count += 1
    return count


@njit(cache=True, inline="always")
def _removed_in_suit(suit, set_rank_count, ranks, options, choice):
    removed = 0
    for i in range(set_rank_count):
        if (options[i, choice[i]] >> suit) & 1:
            removed |= 1 << ranks[i]
    return removed


@njit(cache=True, inline="always")
def _advance(choice, option_counts, set_rank_count):
    """Odometer step over the set choices; False when all were visited."""
    for i in range(set_rank_count):
        choice[i] += 1
        if choice[i] < option_counts[i]:
            return True
        choice[i] = 0
    return False


@njit(cache=True, inline="always")
def card_fits_meld(hand, card):
    """Whether ``card`` belongs to some meld of ``hand`` plus ``card``: a set (two more of its
    rank in the hand, R3) or a run (a block of three or more in its suit, R4)."""
    rank = card % 13
    suit = card // 13
    same_rank = 0
    for s in range(4):
        if s != suit and (hand >> (13 * s + rank)) & 1:
            same_rank += 1
    if same_rank >= 2:
        return True
    m = suit_mask(hand, suit) | (1 << rank)
    starts = m & (m >> 1) & (m >> 2)
    return ((starts | (starts << 1) | (starts << 2)) >> rank) & 1 == 1


@njit(cache=True)
def deadwood_of_mask(hand, suit_deadwood):
    """Minimum deadwood of a hand mask (R6)."""
    m0 = suit_mask(hand, 0)
    m1 = suit_mask(hand, 1)
    m2 = suit_mask(hand, 2)
    m3 = suit_mask(hand, 3)
    if (m0 & m1 & m2) | (m0 & m1 & m3) | (m0 & m2 & m3) | (m1 & m2 & m3) == 0:
        return suit_deadwood[m0] + suit_deadwood[m1] + suit_deadwood[m2] + suit_deadwood[m3]
    ranks = np.empty(MAX_SET_RANKS, np.int64)
    options = np.empty((MAX_SET_RANKS, MAX_OPTIONS), np.int64)
    option_counts = np.empty(MAX_SET_RANKS, np.int64)
    set_rank_count = set_options(hand, ranks, options, option_counts)
    choice = np.zeros(MAX_SET_RANKS, np.int64)
    best = 1 << 30
    while True:
        total = (
            suit_deadwood[m0 & ~_removed_in_suit(0, set_rank_count, ranks, options, choice)]
            + suit_deadwood[m1 & ~_removed_in_suit(1, set_rank_count, ranks, options, choice)]
            + suit_deadwood[m2 & ~_removed_in_suit(2, set_rank_count, ranks, options, choice)]
            + suit_deadwood[m3 & ~_removed_in_suit(3, set_rank_count, ranks, options, choice)]
        )
        if total < best:
            best = total
        if not _advance(choice, option_counts, set_rank_count):
            break
    return best


@njit(cache=True)
def best_set_cards(hand, suit_deadwood):
    """The set cards of one minimum-deadwood arrangement, as a mask; runs are the leftover blocks."""
    ranks = np.empty(MAX_SET_RANKS, np.int64)
    options = np.empty((MAX_SET_RANKS, MAX_OPTIONS), np.int64)
    option_counts = np.empty(MAX_SET_RANKS, np.int64)
    set_rank_count = set_options(hand, ranks, options, option_counts)
    choice = np.zeros(MAX_SET_RANKS, np.int64)
    best = 1 << 30
    best_sets = 0
    while True:
        sets = 0
        total = 0
        for suit in range(4):
            removed = _removed_in_suit(suit, set_rank_count, ranks, options, choice)
            sets |= removed << (13 * suit)
            total += suit_deadwood[suit_mask(hand, suit) & ~removed]
        if total < best:
            best = total
            best_sets = sets
        if not _advance(choice, option_counts, set_rank_count):
            break
    return best_sets


@njit(cache=True)
def discard_deadwoods(hand, suit_deadwood, out):
    """``out[card]`` = minimum deadwood of ``hand`` without ``card``, for every card held, in one search.

    Other entries of ``out`` are left untouched. Returns the smallest of them. For a set
    choice that does not use a card, the hand without that card scores the same, but for
    the card's own suit, so each set choice scores every discard with one lookup per card.
    """
    ranks = np.empty(MAX_SET_RANKS, np.int64)
    options = np.empty((MAX_SET_RANKS, MAX_OPTIONS), np.int64)
    option_counts = np.empty(MAX_SET_RANKS, np.int64)
    set_rank_count = set_options(hand, ranks, options, option_counts)
    for card in range(52):
        if (hand >> card) & 1:
            out[card] = 1 << 30
    choice = np.zeros(MAX_SET_RANKS, np.int64)
    left = np.empty(4, np.int64)
    best = 1 << 30
    while True:
        base = 0
        for suit in range(4):
            left[suit] = suit_mask(hand, suit) & ~_removed_in_suit(suit, set_rank_count, ranks, options, choice)
            base += suit_deadwood[left[suit]]
        for suit in range(4):
            rest = base - suit_deadwood[left[suit]]
            bits = left[suit]
            while bits:
                low = bits & -bits
                rank = _bit_index(low)
                value = rest + suit_deadwood[left[suit] ^ low]
                card = 13 * suit + rank
                if value < out[card]:
                    out[card] = value
                    if value < best:
                        best = value
                bits ^= low
        if not _advance(choice, option_counts, set_rank_count):
            break
    return best


@njit(cache=True, inline="always")
def _bit_index(low):
    """Index of the single set bit of ``low`` (a power of two below 2**13)."""
    index = 0
    while low > 1:
        low >>= 1
        index += 1
    return index


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

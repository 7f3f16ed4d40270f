"""Compiled bots: the numba twins of ``strategies/random.py`` and ``strategies/simple.py``.

Each decision is a function of plain ints and arrays, dispatched on a bot id, and draws
random numbers only from the seat's own SplitMix64 state, in the same order as the
plain-Python twin, so both forms play identical hands.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgin.kernels.melds import discard_deadwoods, suit_mask
from simgin.kernels.rng import randint

BOT_RANDOM = 0
BOT_SIMPLE = 1
BOT_NAMES = ("random", "simple")


@njit(cache=True)
def card_fits_meld(hand, card):
    """Whether ``card`` belongs to some meld of ``hand`` plus ``card`` (a set or a run, R3-R4)."""
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
    runs = starts | (starts << 1) | (starts << 2)
    return (runs >> rank) & 1 == 1


@njit(cache=True)
def take_up_card(bot, hand, card, rng):
    """First-turn offer of the up card (R11)."""
    if bot == BOT_RANDOM:
        return randint(rng, 2) == 1
    return card_fits_meld(hand, card)


@njit(cache=True)
def draw_from_pile(bot, hand, card, rng):
    """Normal turn: take the pile's top ``card`` instead of the stock's (R9)."""
    if bot == BOT_RANDOM:
        return randint(rng, 2) == 1
    return card_fits_meld(hand, card)


@njit(cache=True)
def discard(bot, hand, drawn, from_pile, rediscard, fiftieth, knock_limit, pairs, rng, suit_deadwood, work):
    """The card to discard from ``hand`` (R9, R10, V6, V7).

    With ``fiftieth`` (the V7 take) the player must knock, so only discards leaving at most
    ``knock_limit`` are legal, the taken card included. ``pairs[c]`` is simple's memory of
    unordered (drawn, discarded) pairs this hand, as a mask of partner cards; ``work`` is a
    52-slot scratch array.
    """
    cards = np.empty(11, np.int64)
    count = 0
    if bot == BOT_RANDOM:
        if fiftieth:
            discard_deadwoods(hand, suit_deadwood, work)
        for c in range(52):
            if not (hand >> c) & 1:
                continue
            if fiftieth:
                if work[c] <= knock_limit:
                    cards[count] = c
                    count += 1
            elif not (c == drawn and from_pile and not rediscard):
                cards[count] = c
                count += 1
        return cards[randint(rng, count)]
    discard_deadwoods(hand, suit_deadwood, work)
    if fiftieth:
        count = _least(hand, work, -1, False, pairs, False, cards)
        return cards[randint(rng, count)]
    count = _least(hand, work, drawn, from_pile, pairs, True, cards)
    if count == 0:
        count = _least(hand, work, drawn, from_pile, pairs, False, cards)
    choice = cards[randint(rng, count)]
    if drawn >= 0:
        pairs[drawn] |= 1 << choice
        pairs[choice] |= 1 << drawn
    return choice


@njit(cache=True)
def _least(hand, left, drawn, from_pile, pairs, use_pairs, cards):
    """Fill ``cards`` with the allowed cards whose discard leaves the least deadwood; return their count."""
    best = 1 << 30
    count = 0
    for c in range(52):
        if not (hand >> c) & 1:
            continue
        if c == drawn and from_pile:
            continue
        if use_pairs and drawn >= 0 and (pairs[drawn] >> c) & 1:
            continue
        if left[c] < best:
            best = left[c]
            count = 0
        if left[c] == best:
            cards[count] = c
            count += 1
    return count


@njit(cache=True)
def knock(bot, rng):
    """Asked only when knocking is legal (R12)."""
    if bot == BOT_RANDOM:
        return randint(rng, 2) == 1
    return True


@njit(cache=True)
def big_gin(bot, rng):
    """Asked only when all 11 cards are melded and big gin is on (V13)."""
    if bot == BOT_RANDOM:
        return randint(rng, 2) == 1
    return True


@njit(cache=True)
def take_fiftieth(bot, rng):
    """Asked only when taking the last discard allows a knock (V7)."""
    if bot == BOT_RANDOM:
        return randint(rng, 2) == 1
    return True

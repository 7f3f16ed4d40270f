"""The luck of the cards, hand by hand: control-variate corrections at each chance event (issue 35;
docs/STATISTICS.md, *Luck-adjusted results*).

A *chance event* is the deal (with the up card, R8) and each card drawn from the stock (R9). At each one the
correction is the value of the state after it minus the mean of that value over every outcome the event could
have had. A hand's adjusted result is its result minus the sum of its corrections: unbiased for any value
function fixed in advance, because each correction averages to zero over the event's outcomes.

- **A stock draw.** The stock's next card is equally likely to be any card still in the stock (the deck is
  shuffled uniformly and no player sees the stock's order), so the correction for the drawer is
  ``f(e(hand + card)) - mean over the stock's cards c of f(e(hand + c))``, where ``e`` of 11 cards is the
  deadwood left by the best discard (R6) and ``f`` the value function of the stage the stock is at. The other
  player's correction in points is its negative (a hand's points are zero-sum); in hands won it has a value
  function of its own (the chance that the other wins). The other's hand is part of the state: a card that
  lets me knock is worth more when the other is far from knocking.
- **The deal.** The two dealt hands are exchangeable (R8: alternate cards of a uniform deck), so
  ``f(mine, theirs) - f(theirs, mine)`` averages to zero over deals for any ``f``: that is the deal's
  correction (not applied with V5's 11-card start, where the hands are not alike).

The value function (``value``, shape ``(STAGES, TARGETS, BUCKETS, BUCKETS)``) is a table: for a stage of the
hand and a target (net points, won, lost), the mean result of hands whose holder's deadwood and the other's
fall in two classes (:func:`bucket`); ``simgin.game.luck`` loads the shipped table and
``simgin.tools.fit_luck_value`` fits it. Corrections in points are multiplied by the hand's multiplier (V9).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgin.kernels.melds import SUIT_DROP, card_fits_meld, deadwood_of_mask, least_deadwood_after_discard

STAGE_DEAL = 0
"""The value function of the dealt hands (10 cards each)."""
STAGES = 7
"""The deal, then the stock draws by the stock left after them: 26 or more, 21-25, 16-20, 11-15, 6-10, 5 or
fewer."""
TARGET_POINTS = 0
"""The holder's net points of the hand (before the V9 multiplier)."""
TARGET_WIN = 1
"""1 when the holder wins the hand."""
TARGET_LOSS = 2
"""1 when the other player wins the hand."""
TARGETS = 3
BUCKETS = 14
"""Classes of a hand's deadwood ``e`` against the hand's knock limit ``L`` (:func:`bucket`)."""
#: The upper ends of the classes over the knock limit, by how much ``e`` is over it (the last is open).
OVER = (2, 4, 6, 9, 12, 16, 20, 25, 32)
LUCK_FIELDS = 3
"""A hand's corrections: seat 0's net points, seat 0's hands won, seat 1's hands won."""
LUCK_POINTS = 0
LUCK_WIN_0 = 1
LUCK_WIN_1 = 2


@njit(cache=True)
def draw_stage(stock_left):
    """The value function's stage after a stock draw that left ``stock_left`` cards."""
    if stock_left >= 26:
        return 1
    return 2 + min((25 - stock_left) // 5, 4)


@njit(cache=True)
def bucket(e, knock_limit):
    """The class of deadwood ``e`` (after the best discard, for 11 cards) at knock limit ``knock_limit``: 0 gin
    (R13); 1-3 may knock (R12): at most 1 below the limit, 2-4 below, 5 or more below; 4-13 over the limit by
    at most each of :data:`OVER`, then more."""
    if e == 0:
        return 0
    if e <= knock_limit:
        below = knock_limit - e
        return 1 if below <= 1 else 2 if below <= 4 else 3
    over = e - knock_limit
    for i in range(len(OVER)):
        if over <= OVER[i]:
            return 4 + i
    return 4 + len(OVER)


@njit(cache=True)
def value_of(value, stage, target, mine, theirs):
    """The value function: ``value[stage, target, bucket of my deadwood, bucket of the other's]``."""
    return value[stage, target, mine, theirs]


@njit(cache=True)
def deal_luck(value, hands, dealer, knock_limit, multiplier, suit_deadwood, luck):
    """Add the deal's corrections (10-card hands, R8) to ``luck`` (``LUCK_*``): seat 0's value of the deal minus
    the same with the hands swapped, which averages to zero over deals (the two hands are exchangeable)."""
    b0 = bucket(deadwood_of_mask(hands[0], suit_deadwood), knock_limit)
    b1 = bucket(deadwood_of_mask(hands[1], suit_deadwood), knock_limit)
    points = value[STAGE_DEAL, TARGET_POINTS, b0, b1] - value[STAGE_DEAL, TARGET_POINTS, b1, b0]
    win = value[STAGE_DEAL, TARGET_WIN, b0, b1] - value[STAGE_DEAL, TARGET_WIN, b1, b0]
    luck[LUCK_POINTS] += multiplier * points
    luck[LUCK_WIN_0] += win
    luck[LUCK_WIN_1] -= win


@njit(cache=True)
def draw_luck(value, hand, other, drawn, stock, first, player, knock_limit, multiplier, suit_deadwood, luck):
    """Add the corrections of ``player`` drawing ``drawn`` (= ``stock[first]``) from the stock ``stock[first:]``
    to its ``hand`` (10 cards, before the draw) to ``luck`` (``LUCK_*``); ``other`` is the other's hand."""
    stage = draw_stage(stock.shape[0] - first - 1)
    theirs = bucket(deadwood_of_mask(other, suit_deadwood), knock_limit)
    sums = np.zeros(TARGETS)
    drawn_values = np.zeros(TARGETS)
    count = stock.shape[0] - first
    # A card that fits no meld of the hand plus it (R3, R4) is deadwood however the 11 cards are arranged, so
    # the best discard leaves either the hand as it was (the card discarded) or the best 9 of the hand plus the
    # card: two searches for the whole stock instead of one per card.
    held = deadwood_of_mask(hand, suit_deadwood)
    best_nine = least_deadwood_after_discard(hand, suit_deadwood, SUIT_DROP)
    for i in range(first, stock.shape[0]):
        card = stock[i]
        if card_fits_meld(hand, card):
            e = least_deadwood_after_discard(hand | (np.int64(1) << card), suit_deadwood, SUIT_DROP)
        else:
            e = min(held, best_nine + min(card % 13 + 1, 10))
        mine = bucket(e, knock_limit)
        for target in range(TARGETS):
            v = value[stage, target, mine, theirs]
            sums[target] += v
            if card == drawn:
                drawn_values[target] = v
    points = drawn_values[TARGET_POINTS] - sums[TARGET_POINTS] / count
    mine_won = drawn_values[TARGET_WIN] - sums[TARGET_WIN] / count
    theirs_won = drawn_values[TARGET_LOSS] - sums[TARGET_LOSS] / count
    luck[LUCK_POINTS] += multiplier * points if player == 0 else -multiplier * points
    luck[LUCK_WIN_0 + player] += mine_won
    luck[LUCK_WIN_0 + 1 - player] += theirs_won

"""Knock resolution kernel: the knocker's shown melds, the defender's melds and lay-offs (R14-R19).

Lay-offs within one suit: a defender card can be laid off on a knocker's run exactly when
it is joined to that run through defender cards of the same suit (chained lay-offs, R14),
and laying all of those off is always best for them, since it leaves nothing of them as
deadwood. The remaining cards of the suit meld in their own blocks of 3 or more; a card that
completes a knocker's 3-card set is laid off singly. Sets couple the suits, so both sides
enumerate their few set choices (see ``kernels.melds``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgin.kernels.melds import (
    RANK_COLUMN,
    SUIT_BITS,
    best_set_cards,
    deadwood_of_mask,
    run_cards,
    set_choices,
    suit_mask,
)

KIND_DEAD = 0
KIND_KNOCK = 1
KIND_GIN = 2
KIND_BIG_GIN = 3
KIND_UNDERCUT = 4


def _build_suit_value() -> np.ndarray:
    table = np.array([sum(min(r + 1, 10) for r in range(13) if m >> r & 1) for m in range(1 << 13)], dtype=np.int64)
    table.flags.writeable = False
    return table


SUIT_VALUE = _build_suit_value()


@njit(cache=True)
def defender_best(defender, knocker_runs, set_fourths, suit_value, result):
    """Minimum deadwood of the defender with its own melds and lay-offs chosen together.

    ``knocker_runs[s]`` holds the knocker's shown run cards of suit s (13-bit), and
    ``set_fourths`` (52-bit) the cards that would complete a knocker's 3-card set.
    ``result`` receives [defender set cards, laid-off cards] of one best choice.
    """
    best = 1 << 30
    for sets in set_choices(defender):
        total = 0
        laid_all = 0
        for suit in range(4):
            m = suit_mask(defender & ~sets, suit)
            runs = knocker_runs[suit]
            reach = runs
            if runs:
                while True:
                    grown = (reach | (reach << 1) | (reach >> 1)) & (m | runs) & SUIT_BITS
                    if grown == reach:
                        break
                    reach = grown
            laid = reach & m
            rest = m & ~laid
            own = run_cards(rest)
            fourth = rest & ~own & suit_mask(set_fourths, suit)
            laid |= fourth
            laid_all |= laid << (13 * suit)
            total += suit_value[rest & ~own & ~fourth]
        if total < best:
            best = total
            result[0] = sets
            result[1] = laid_all
    return best


@njit(cache=True)
def knocker_layouts(knocker, suit_deadwood):
    """The knocker's minimum-deadwood arrangements as the defender meets them (R14): (knocker deadwood, count,
    set cards, shown run cards by suit, cards that would complete a shown 3-card set), one row per arrangement
    among the first ``count``, in :func:`kernels.melds.set_choices`' order.

    They depend on the knocker's hand alone, so a caller that meets many defenders with one hand (the bots'
    knock valuation, ``kernels.knock.knocking_value``) finds them once."""
    knocker_deadwood = deadwood_of_mask(knocker, suit_deadwood)
    choices = set_choices(knocker)
    shown_sets = np.empty(len(choices), np.int64)
    runs = np.empty((len(choices), 4), np.int64)
    fourths = np.empty(len(choices), np.int64)
    count = 0
    for sets in choices:
        total = 0
        for suit in range(4):
            left = suit_mask(knocker & ~sets, suit)
            runs[count, suit] = run_cards(left)
            total += suit_deadwood[left]
        if total == knocker_deadwood:
            completing = np.int64(0)
            for rank in range(13):
                column = RANK_COLUMN << rank
                shown = sets & column
                if shown != 0 and shown != column:
                    completing |= column & ~shown
            shown_sets[count] = sets
            fourths[count] = completing
            count += 1
    return knocker_deadwood, count, shown_sets, runs, fourths


@njit(cache=True)
def defender_left_over(defender, count, shown_sets, runs, fourths, suit_value, result):
    """The defender's deadwood after its melds and lay-offs against the knocker arrangement (of
    :func:`knocker_layouts`' first ``count``) that leaves it the most (R14: the knocker shows that one).
    ``result`` receives [knocker set cards, defender set cards, laid-off cards] of the first such arrangement."""
    inner = np.empty(2, np.int64)
    worst = -1
    for i in range(count):
        left_over = defender_best(defender, runs[i], fourths[i], suit_value, inner)
        if left_over > worst:
            worst = left_over
            result[0] = shown_sets[i]
            result[1] = inner[0]
            result[2] = inner[1]
    return worst


@njit(cache=True)
def knock_showdown(knocker, defender, suit_deadwood, suit_value, result):
    """Resolve a knock without gin: returns (knocker deadwood, defender deadwood after lay-offs).

    The knocker shows, among its minimum-deadwood arrangements, the one that leaves the
    defender the most deadwood (R14). ``result`` receives [knocker set cards, defender set
    cards, laid-off cards].
    """
    knocker_deadwood, count, shown_sets, runs, fourths = knocker_layouts(knocker, suit_deadwood)
    return knocker_deadwood, defender_left_over(defender, count, shown_sets, runs, fourths, suit_value, result)


@njit(cache=True)
def score_hand(
    knocker,
    defender,
    big_gin,
    gin_bonus,
    undercut_bonus,
    undercut_on_tie,
    big_gin_bonus,
    multiplier,
    suit_deadwood,
    suit_value,
    result,
):
    """Score a knock (R16-R19, V13): returns (kind, defender_won, points, knocker dw, defender dw, lay-off points).

    ``result`` receives [knocker set cards, defender set cards, laid-off cards].
    """
    knocker_deadwood = deadwood_of_mask(knocker, suit_deadwood)
    if knocker_deadwood == 0:
        result[0] = best_set_cards(knocker, suit_deadwood)
        result[1] = best_set_cards(defender, suit_deadwood)
        result[2] = 0
        defender_deadwood = deadwood_of_mask(defender, suit_deadwood)
        if big_gin:
            return KIND_BIG_GIN, 0, (big_gin_bonus + defender_deadwood) * multiplier, 0, defender_deadwood, 0
        return KIND_GIN, 0, (gin_bonus + defender_deadwood) * multiplier, 0, defender_deadwood, 0
    knocker_deadwood, defender_deadwood = knock_showdown(knocker, defender, suit_deadwood, suit_value, result)
    laid = result[2]
    layoff_points = 0
    for suit in range(4):
        layoff_points += suit_value[suit_mask(laid, suit)]
    if knocker_deadwood < defender_deadwood:
        return (
            KIND_KNOCK,
            0,
            (defender_deadwood - knocker_deadwood) * multiplier,
            knocker_deadwood,
            defender_deadwood,
            layoff_points,
        )
    if knocker_deadwood == defender_deadwood and not undercut_on_tie:
        return KIND_KNOCK, 0, 0, knocker_deadwood, defender_deadwood, layoff_points
    points = (knocker_deadwood - defender_deadwood + undercut_bonus) * multiplier
    return KIND_UNDERCUT, 1, points, knocker_deadwood, defender_deadwood, layoff_points

"""What a hand's result is worth in the game being played, for the bots that weigh it.

Used by the ``heuristic``, ``opponent`` and ``mcts`` bots (``strategies/heuristic.py``,
``strategies/opponent.py``, ``strategies/mcts.py``). A bot compares the outcomes of its
choices in one currency, *points now*: the hand points a choice is worth, bent by where the
game stands.

- **A game to the target (R20-R23).** The winner is whoever reaches ``target`` first; box
  bonuses, the game bonus and the shutout (R21, R22, V8) change the margin, never the
  winner. So a result is worth the change it makes to the chance of winning the game,
  :func:`win_chance`, divided by what one point is worth at the current score: far from
  the target that is the hand points themselves, and near it a win that reaches the target
  is worth all of the game while a bigger win is worth no more.
- **Hollywood (V14).** The higher total over the three games wins, boxes and game bonuses
  included, so a result is worth its points plus the box bonus (R22) of a won hand, in
  points for the winner and against the loser.

The chance of winning from scores ``mine`` and ``theirs`` treats the rest of the game as a
race: with ``R`` points still to make on each side and ``mu`` points per won hand,
``win_chance = Phi(WIN_CHANCE_SCALE * (R_theirs - R_mine) / sqrt(mu * (R_mine + R_theirs)))``.
``WIN_CHANCE_SCALE`` was fitted by maximum likelihood on 3,000 games of ``simple`` against
itself under four rule sets (standard, oklahoma, eaai and a target of 250 gave 0.81, 0.74,
0.74 and 0.77); ``mu`` comes from the rules (:func:`points_per_won_hand`).
"""

from __future__ import annotations

import math

from numba import njit

from simgin.kernels import rule_index as ri

WIN_CHANCE_SCALE = 0.77
#: Mean points of a won hand in ``simple`` against itself under the standard rules (15.5);
#: bonuses move it by how often they are paid (gins and undercuts about 5% of hands each).
BASE_POINTS_PER_WON_HAND = 15.5
_SQRT2 = math.sqrt(2.0)


@njit(cache=True)
def points_per_won_hand(rules):
    """The mean points of a won hand under ``rules``: the standard game's, moved by the bonuses and doubling."""
    mean = BASE_POINTS_PER_WON_HAND + 0.05 * (rules[ri.GIN_BONUS] - 20) + 0.05 * (rules[ri.UNDERCUT_BONUS] - 10)
    if rules[ri.OKLAHOMA] and rules[ri.OK_SPADE_DOUBLE]:
        mean *= 1.25  # one up card in four is a spade (V9)
    return max(mean, 1.0)


@njit(cache=True)
def win_chance(rules, mine, theirs):
    """The chance of winning a game to the target from these scores (R20), both below it."""
    target = rules[ri.TARGET]
    left_mine = max(0, target - mine)
    left_theirs = max(0, target - theirs)
    if left_mine == 0:
        return 1.0
    if left_theirs == 0:
        return 0.0
    z = WIN_CHANCE_SCALE * (left_theirs - left_mine) / math.sqrt(points_per_won_hand(rules) * (left_mine + left_theirs))
    return 0.5 * (1.0 + math.erf(z / _SQRT2))


@njit(cache=True)
def point_value(rules, mine, theirs):
    """What one more point is worth now, in chance of winning the game (never below a tiny floor)."""
    return max((win_chance(rules, mine + 8, theirs) - win_chance(rules, mine, theirs + 8)) / 16.0, 1e-6)


@njit(cache=True)
def result_value(rules, mine, theirs, points):
    """A hand won by ``points`` (> 0), lost by ``-points`` (< 0) or dead (0), in points now.

    ``mine`` and ``theirs`` are the scores before the hand (R20; summed over the three games
    under Hollywood, V14, where the value is linear: points plus the box bonus).
    """
    if points == 0:
        return 0.0
    if rules[ri.HOLLYWOOD]:
        return points + rules[ri.BOX_BONUS] if points > 0 else points - rules[ri.BOX_BONUS]
    now = win_chance(rules, mine, theirs)
    after = win_chance(rules, mine + points, theirs) if points > 0 else win_chance(rules, mine, theirs - points)
    return (after - now) / point_value(rules, mine, theirs)

"""``mcts`` races its actions (issue 37): a decision's worlds stop once the best action's paired lead is settled.

The stopping rule (:func:`simgin.kernels.mcts._apart`, at the default ``race`` of 3 standard errors) is checked
here on its own and by simulation: on paired differences with a known mean, stopping early picks the worse action
hardly more often than playing the whole budget does, and stops well before the budget when the actions are far
apart. ``race=0`` plays the whole budget, as the bot did before (``strategies.mcts.FROZEN_SPEC``, whose rows
``tests/test_mcts_playouts.py`` holds).
"""

from __future__ import annotations

import numpy as np
import pytest
from simgin.strategies import mcts as mcts_strategy

from simgin.kernels import mcts

BUDGET_WORLDS = 1500  # the default budget's worlds for a choice of two actions (3,000 playouts)
Z = mcts_strategy.DEFAULTS["race"]


def test_a_settled_lead_is_seen_only_at_a_look():
    race = np.zeros(2)
    for n in range(1, mcts.RACE_FIRST):
        assert not mcts._settled(race, n, 1.0 + (n % 2), Z)  # far apart, but not yet looked at
    assert mcts._settled(race, mcts.RACE_FIRST, 1.0, Z)
    assert not mcts._settled(race, mcts.RACE_FIRST + 1, 1.0, Z)  # between two looks
    assert mcts._apart(race[0], race[1], mcts.RACE_FIRST + mcts.RACE_LOOK, Z)
    assert not mcts._apart(race[0], race[1], mcts.RACE_FIRST + mcts.RACE_LOOK, 0.0)  # race=0: never


def test_a_difference_within_its_noise_is_not_settled():
    n = mcts.RACE_FIRST
    differences = np.array([1.0, -1.0] * (n // 2))
    assert not mcts._apart(differences.sum(), (differences**2).sum(), n, Z)  # mean 0
    differences[0] += 0.5  # mean 0.005, standard error about 0.1
    assert not mcts._apart(differences.sum(), (differences**2).sum(), n, Z)
    assert mcts._apart(n * 0.5, n * 0.25, n, Z)  # every difference 0.5: no noise at all


def raced(differences: np.ndarray) -> tuple[float, int]:
    """(sum, worlds) of a race over ``differences`` (one per world), stopped as ``mcts`` stops."""
    totals, squares = np.cumsum(differences), np.cumsum(differences**2)
    for n in range(mcts.RACE_FIRST, len(differences) + 1, mcts.RACE_LOOK):
        if mcts._apart.py_func(totals[n - 1], squares[n - 1], n, Z):
            return totals[n - 1], n
    return totals[-1], len(differences)


@pytest.mark.parametrize("effect", [0.0, 0.03, 0.1, 0.3])
def test_racing_picks_the_worse_action_hardly_more_often_than_the_whole_budget(effect):
    """2,000 seeded races of differences with mean ``effect`` (in standard deviations) and heavy tails (a
    playout's points are far from normal): the share of wrong picks racing adds to the whole budget's is
    at most 2.5 points (3 for a tie, where both picks are right), and a clear lead stops early."""
    rng = np.random.default_rng(37)
    wrong_full = wrong_raced = 0
    worlds = []
    repetitions = 2000
    for _ in range(repetitions):
        differences = effect + rng.standard_t(4, BUDGET_WORLDS) / np.sqrt(2)
        total, used = raced(differences)
        worlds.append(used)
        wrong_full += differences.sum() <= 0
        wrong_raced += total <= 0
    added = (wrong_raced - wrong_full) / repetitions
    if effect == 0.0:
        assert abs(added) < 0.03  # a tie: racing decides it as often one way as the other
    else:
        assert added < 0.025, (effect, wrong_full, wrong_raced)
    if effect >= 0.3:
        assert np.median(worlds) <= 160  # settled at its first looks
    if effect == 0.0:
        assert np.mean(np.array(worlds) == BUDGET_WORLDS) > 0.8  # most ties play the whole budget

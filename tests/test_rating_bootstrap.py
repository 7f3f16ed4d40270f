"""The rating bootstrap resamples whole deals across pairings (docs/STATISTICS.md §2, issue 32 item 10).

In a round robin every pairing plays the same deals, so the pairings' results are correlated deal by deal.
Resampling each pairing on its own treats them as independent and gives rating intervals that are too narrow;
resampling each deal once, for every pairing, keeps the correlation.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import simgin
from simgin.running.matches import JOINT_BOOTSTRAP_UNITS
from simgin.running.tournament_ratings import tournament_analysis, unit_outcomes, unit_scores
from simgin.statistics.stats import bootstrap_ratings, bradley_terry, pair_tables

STRENGTHS = np.array([0.0, 0.3, 0.6, 0.9])
PAIRINGS = [(i, j) for i in range(4) for j in range(i + 1, 4)]


def synthetic_round_robin(rng: np.random.Generator, deals: int, shared: float) -> tuple[np.ndarray, np.ndarray]:
    """Rows (a, b, points of a in a deal pair of 2 games) and deal ids of a four-player round robin.

    Each player's form on a deal, N(0, shared²), is the same in all its pairings on that deal (a deal that suits
    a bot suits it against everyone): pairings that share a player are correlated deal by deal."""
    form = rng.normal(0.0, shared, size=(deals, 4))
    rows, ids = [], []
    for i, j in PAIRINGS:
        chance = 1.0 / (1.0 + np.exp(-(STRENGTHS[i] - STRENGTHS[j] + form[:, i] - form[:, j])))
        points = (rng.random((deals, 2)) < chance[:, None]).sum(axis=1)
        rows += [(i, j, value) for value in points.tolist()]
        ids += list(range(deals))
    return np.array(rows, dtype=float), np.array(ids)


def coverage(tournaments: int, shared: float, seed: int) -> dict[bool, float]:
    """Share of 95% intervals (players 1-3, player 0 the anchor) that cover the rating of a 100,000-deal run."""
    rng = np.random.default_rng(seed)
    rows, _ = synthetic_round_robin(rng, 100_000, shared)
    truth = bradley_terry(*pair_tables(rows, 4), anchor=0, prior_draws=0)
    covered: dict[bool, list[np.ndarray]] = {True: [], False: []}
    for repetition in range(tournaments):
        rows, ids = synthetic_round_robin(rng, 200, shared)
        for joint in (True, False):
            boot = bootstrap_ratings(rows, 4, reps=200, seed=repetition, anchor=0, deals=ids if joint else None)
            covered[joint].append((boot.low[1:] <= truth[1:]) & (truth[1:] <= boot.high[1:]))
    return {joint: float(np.mean(hits)) for joint, hits in covered.items()}


@pytest.mark.slow  # calibration by seeded repetitions: .ci/run runs it with the slow tests
def test_the_joint_bootstrap_covers_about_95_percent_and_the_per_pairing_one_does_not():
    """200 seeded synthetic round robins of 200 deal pairs with correlated pairings (measured: joint 92-93%,
    per pairing 86-89%; with independent pairings both 93%, the percentile bootstrap's own small-sample
    shortfall)."""
    found = coverage(200, shared=1.0, seed=10)
    assert 0.90 <= found[True] <= 0.98, found
    assert found[True] - found[False] >= 0.025, found


@pytest.mark.slow
def test_the_joint_bootstrap_matches_the_independent_case_over_600_round_robins():
    correlated, independent = coverage(600, shared=1.0, seed=11), coverage(600, shared=0.0, seed=12)
    assert abs(correlated[True] - independent[True]) <= 0.03, (correlated, independent)
    assert correlated[False] <= independent[False] - 0.03, (correlated, independent)


def test_every_pairing_uses_the_same_drawn_deals():
    """Players 1 and 2 score exactly alike against 0 on every deal and split with each other: in every replicate
    that draws deals jointly they are rated alike; resampled pairing by pairing, they are not."""
    rng = np.random.default_rng(3)
    points = rng.integers(0, 3, size=150).astype(float)
    rows = [(0, 1, p) for p in points] + [(0, 2, p) for p in points] + [(1, 2, 1.0)] * 150
    deals = np.tile(np.arange(150), 3)
    joint = bootstrap_ratings(rows, 3, reps=300, seed=4, deals=deals)
    alone = bootstrap_ratings(rows, 3, reps=300, seed=4)
    assert np.allclose(joint.replicates[:, 1], joint.replicates[:, 2], atol=1e-3)
    assert not np.allclose(alone.replicates[:, 1], alone.replicates[:, 2], atol=1.0)
    assert np.allclose(joint.ratings, alone.ratings)  # the fit is the same; only the intervals change


def test_deals_must_be_one_whole_number_per_row():
    rows = [(0, 1, 1.0), (0, 1, 2.0)]
    with pytest.raises(ValueError, match="one deal id per row"):
        bootstrap_ratings(rows, deals=[0])
    with pytest.raises(ValueError, match="whole numbers"):
        bootstrap_ratings(rows, deals=[0.5, 1.0])


@pytest.mark.parametrize("mode", ["games", "hands"])
def test_unit_scores_are_the_tallys_pair_scores(mode):
    """A's points per unit from the unit records have the tally's distribution of pair scores, pairing by pairing,
    so the joint bootstrap fits the same data as before."""
    counts = {"games": 30} if mode == "games" else {"hands": 200}
    result = simgin.tournament(["simple", "greedy", "random"], seed=5, workers=1, **counts)
    run = result.run
    assert run.units is not None
    for index, tally in enumerate(run.tallies):
        values, expected, _ = unit_outcomes(tally, True, mode)
        scores = unit_scores(run.units[index], mode)
        assert [int((scores == value).sum()) for value in values] == expected.tolist()


def test_a_tournament_says_which_bootstrap_it_ran_and_the_ratings_do_not_change():
    result = simgin.tournament(["simple", "greedy", "random"], games=30, seed=6, workers=1)
    joint = result.analysis
    assert joint["bootstrap"]["joint"] and joint["bootstrap"]["resampling"].startswith("whole deals")
    alone = tournament_analysis(dataclasses.replace(result.run, units=None), seed=6)
    assert not alone["bootstrap"]["joint"] and "within each pairing" in alone["bootstrap"]["resampling"]
    for a, b in zip(joint["ratings"], alone["ratings"], strict=True):
        assert a["rating"] == pytest.approx(b["rating"])
    assert JOINT_BOOTSTRAP_UNITS >= 1_000_000

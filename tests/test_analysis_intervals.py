"""The intervals of ``simgin analyse`` take the deal pair as the unit with duplicate deals (docs/ANALYSIS.md,
docs/STATISTICS.md: the unit of every statistic), the hand without: recomputed from the decision rows, and
their coverage checked by seeded repetitions of data whose two hands of a pair are alike, as a duplicate deal's
are (issue 32 item 3, for the analysis: an interval that took the hands of a pair as independent was too narrow).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import simgin
from simgin.analysis.summary import interval_unit, loss_block, mean_interval
from simgin.statistics.core import quantile_95

REPETITIONS = 400
PAIRS = 60


def _ratio_interval_by_hand(frame: pd.DataFrame, hands: list[int], unit_of) -> list[float]:
    """The ratio estimator's 95% interval of the mean loss, written out: sums over units, delta method, Student's t
    below 30 units."""
    rows = frame.assign(unit=frame["hand"].map(unit_of))
    units = sorted({unit_of(hand) for hand in hands})
    sums = rows.groupby("unit")["loss"].sum().reindex(units, fill_value=0.0).to_numpy()
    counts = rows.groupby("unit")["loss"].size().reindex(units, fill_value=0).to_numpy(float)
    ratio = sums.sum() / counts.sum()
    residuals = sums - ratio * counts
    n = len(units)
    half = quantile_95(n) * np.sqrt(n / (n - 1) * (residuals**2).sum()) / counts.sum()  # Student below 30
    return [ratio - half, ratio + half]


@pytest.mark.parametrize("duplicate", [True, False])
def test_the_loss_interval_takes_the_deal_pair_as_the_unit(duplicate):
    result = simgin.analyse("greedy", "simple", hands=12, worlds=8, workers=1, duplicate=duplicate)
    data = result.to_json()
    frame = result.to_frame()
    hands = sorted(result.net_frame()["hand"])
    unit_of = (lambda hand: hand // 2) if duplicate else (lambda hand: hand)
    assert data["interval_unit"] == ("deal pair" if duplicate else "hand")
    for side, player in enumerate(data["players"]):
        mine = frame[frame["side"] == side]
        assert player["mean_loss_ci"] == pytest.approx(_ratio_interval_by_hand(mine, hands, unit_of))
        kind = next(iter(player["by_kind"]))
        expected = _ratio_interval_by_hand(mine[mine["kind"] == kind], hands, unit_of)
        assert player["by_kind"][kind]["mean_loss_ci"] == pytest.approx(expected)


def test_the_unit_is_named_for_hands_and_games():
    assert [interval_unit(mode, paired) for mode in ("hands", "games") for paired in (True, False)] == [
        "deal pair",
        "hand",
        "game pair",
        "game",
    ]


def _paired_hands(rng: np.random.Generator, mean: float) -> np.ndarray:
    """One figure per hand of :data:`PAIRS` deal pairs: the pair's shared part (its cards) and each hand's own."""
    shared = rng.normal(0.0, 1.0, PAIRS)
    return mean + np.repeat(shared, 2) + rng.normal(0.0, 0.5, 2 * PAIRS)


def test_the_per_hand_interval_covers_about_95_percent_with_pairs_and_too_little_without():
    """Skill and luck per hand: over seeded repetitions, the pair-unit interval holds the true mean in 95% of them
    (within three binomial standard errors); the hand-unit one, blind to the pairs' likeness, in far fewer."""
    rng = np.random.default_rng(32)
    hands = list(range(2 * PAIRS))
    covered = {True: 0, False: 0}
    for _ in range(REPETITIONS):
        values = _paired_hands(rng, 1.5)
        for paired in covered:
            low, high = mean_interval(values, hands, paired)
            covered[paired] += low < 1.5 < high
    spread = 3 * np.sqrt(0.95 * 0.05 / REPETITIONS)
    assert abs(covered[True] / REPETITIONS - 0.95) < spread
    assert covered[False] / REPETITIONS < 0.95 - spread  # about 86% in theory


def test_the_loss_interval_covers_about_95_percent_with_pairs():
    """Mean loss per decision: decisions per hand vary, and a pair's hands lose alike; the ratio estimator over
    deal pairs covers the true mean loss per decision in about 95% of seeded repetitions."""
    rng = np.random.default_rng(33)
    hands = list(range(2 * PAIRS))
    covered = 0
    for _ in range(REPETITIONS):
        level = np.repeat(rng.gamma(2.0, 0.5, PAIRS), 2)  # the pair's cards make its decisions costly or cheap
        counts = rng.integers(3, 15, 2 * PAIRS)
        hand = np.repeat(hands, counts)
        loss = rng.exponential(np.repeat(level, counts))
        block = loss_block(pd.DataFrame({"hand": hand, "loss": loss}), hands, paired=True)
        low, high = block["mean_loss_ci"]
        covered += low < 1.0 < high  # E[loss] = E[level] = 2.0 * 0.5
    assert abs(covered / REPETITIONS - 0.95) < 3 * np.sqrt(0.95 * 0.05 / REPETITIONS)

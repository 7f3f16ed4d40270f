"""Issue 32 item 31: two rule sets compared sequentially (docs/STATISTICS.md §10, the GSPRT of §1): the test's
error rates checked by simulation, the stopping point the same on any number of workers, and its CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from simgin.cli.main import main
from simgin.game.rules import Rules
from simgin.running import runner
from simgin.statistics.paired import DIFFERENCE_SUPPORT, paired_sprt
from simgin.studies.sequential import parse_rules_sprt, sequential_rules_test


def _unit_distribution(mean: float) -> np.ndarray:
    """Probabilities on the quarter-point support with exactly ``mean``: a spread like deal pairs give
    (most units unchanged), exponentially tilted to the mean (the tilt found by bisection)."""
    support = np.array(DIFFERENCE_SUPPORT)
    base = np.exp(-np.abs(support) * 3.0)
    low, high = -50.0, 50.0
    for _ in range(200):
        tilt = (low + high) / 2.0
        weights = base * np.exp(tilt * support)
        if weights @ support / weights.sum() < mean:
            low = tilt
        else:
            high = tilt
    return weights / weights.sum()


def _sequential(rng: np.random.Generator, mean: float, batch: int = 25, most: int = 4000) -> str:
    """One sequential test, a look every ``batch`` units, on unit differences whose true mean is ``mean``."""
    support, weights = np.array(DIFFERENCE_SUPPORT), _unit_distribution(mean)
    draws = np.empty(0)
    while draws.size < most:
        draws = np.concatenate([draws, rng.choice(support, batch, p=weights)])
        decision = paired_sprt(draws, 0.0, 0.05).decision
        if decision != "continue":
            return decision
    return "max"


@pytest.mark.slow  # calibration by seeded repetitions: .ci/run runs it with the slow tests
def test_the_sequential_test_keeps_its_error_rates() -> None:
    """Under H0 (mean 0) H1 is accepted in at most about 5% of 300 tests, under H1 (mean 5 points) H0 in at most
    about 5%: Wald's bounds with alpha = beta = 0.05 (allowing 3 binomial standard errors)."""
    rng = np.random.default_rng(31)
    under_null = [_sequential(rng, 0.0) for _ in range(300)]
    under_alternative = [_sequential(rng, 0.05) for _ in range(300)]
    assert under_null.count("H1") / 300 <= 0.088
    assert under_alternative.count("H0") / 300 <= 0.088
    assert under_null.count("H0") > 250 and under_alternative.count("H1") > 250


def test_interleaving_changes_no_result() -> None:
    configs = [
        runner.RunConfig(("simple", "greedy"), Rules(knock_limit=k), games=200, seed=5, chunk_units=25) for k in (10, 5)
    ]
    plain = runner.run_cells(configs, workers=1, unit_records=True)
    mixed = runner.run_cells(configs, workers=1, unit_records=True, interleave=True)
    for one, other in zip(plain, mixed, strict=True):
        assert one.tallies[0].to_dict() == other.tallies[0].to_dict()
        assert np.array_equal(one.units[0], other.units[0])


@pytest.mark.slow
def test_the_same_seed_stops_at_the_same_place_on_any_number_of_workers() -> None:
    one = sequential_rules_test(["simple", "greedy"], ["gin_bonus=20,25"], "d0=0,d1=5", games=4000, workers=1)
    two = sequential_rules_test(["simple", "greedy"], ["gin_bonus=20,25"], "d0=0,d1=5", games=4000, workers=2)
    assert one.to_json() == two.to_json()
    assert one.decision == "H0" and one.units < 2000  # a 5-point bonus step does not move the win rate 5 points
    assert [units for units, _ in one.trajectory] == [25 * (k + 1) for k in range(len(one.trajectory))]


def test_bad_hypotheses_are_refused_with_one_line() -> None:
    for text, message in [
        ("d0=0,d1=inf", "finite"),
        ("d0=5,d1=0", "d0 < d1"),
        ("d0=0,d0=1,d1=5", "twice"),
        ("elo0=0,elo1=5", "bad item"),
        ("d1=5", "both d0 and d1"),
    ]:
        with pytest.raises(ValueError, match=message):
            parse_rules_sprt(text)
    outcome = CliRunner().invoke(main, ["sweep", "simple", "random", "--grid", "knock_limit=10,1", "--sprt", "d0=0"])
    assert outcome.exit_code != 0 and outcome.output.strip().splitlines()[-1].startswith("Error: ")
    outcome = CliRunner().invoke(
        main, ["sweep", "simple", "random", "--grid", "knock_limit=10,1,5", "--sprt", "d0=0,d1=5"]
    )
    assert outcome.exit_code != 0 and "two rule sets" in outcome.output


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_the_cli_prints_the_decision_and_strict_json() -> None:
    args = ["sweep", "simple", "random", "--grid", "knock_limit=10,1", "--sprt", "d0=0,d1=5", "--quiet"]
    outcome = CliRunner().invoke(main, [*args, "--json"])
    assert outcome.exit_code == 0, outcome.output
    data = json.loads(outcome.output)
    assert data["kind"] == "sweep-sprt" and data["decision"] in ("H0", "H1", "max")
    assert data["llr"] <= data["lower"] or data["llr"] >= data["upper"] or data["decision"] == "max"
    text = CliRunner().invoke(main, args).output
    assert "accepted" in text and "LLR" in text

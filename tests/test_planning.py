"""Issue 32 item 30: planning a study before it runs, and what a finished sweep could have detected
(docs/STATISTICS.md §11), checked by simulation."""

from __future__ import annotations

import math

import numpy as np
import pytest
from click.testing import CliRunner

from simgin.cli.main import main
from simgin.running import runner
from simgin.running.tally import UNIT_INDEX
from simgin.statistics.paired import holm_levels
from simgin.statistics.power import detectable_difference, units_needed
from simgin.statistics.stats import paired_difference
from simgin.studies.planning import plan
from simgin.studies.sweep import sweep, unit_se


@pytest.mark.parametrize(("sd", "difference"), [(0.4, 0.05), (8.0, 1.0)])
def test_the_planned_number_of_units_has_the_power_asked_for(sd: float, difference: float) -> None:
    """Units drawn with the planned spread and a true shift of ``difference``: at the planned size the paired
    test rejects in about 80% of 400 repetitions (binomial SE 2 points: 72-88% allowed)."""
    n = units_needed(sd, difference, alpha=0.05, power=0.8)
    rng = np.random.default_rng(int(sd * 10))
    rejected = 0
    for _ in range(400):
        x = rng.normal(difference, sd, n)
        rejected += paired_difference(x, np.zeros(n)).p < 0.05
    assert 0.72 <= rejected / 400 <= 0.88, (n, rejected / 400)


def test_a_smaller_sample_has_less_power_and_the_detectable_difference_inverts_the_plan() -> None:
    assert units_needed(0.4, 0.05) > units_needed(0.4, 0.1) > units_needed(0.2, 0.1)
    n = units_needed(0.4, 0.05)
    assert detectable_difference(0.4 / math.sqrt(n)) == pytest.approx(0.05, rel=0.01)
    assert math.isnan(detectable_difference(math.nan))
    with pytest.raises(ValueError, match="positive"):
        units_needed(0.4, 0.0)


def test_a_match_plan_measures_the_spread_of_a_deal_pair_on_its_pilot() -> None:
    """The plan's sd is the standard deviation of the deal pairs' win share of the pilot run (the same seed)."""
    result = plan(["simple", "greedy"], 0.05, games=120, seed=3, workers=1)
    (row,) = result.rows
    config = runner.RunConfig(("simple", "greedy"), games=120, seed=3)
    units = runner.run_cells([config], workers=1, unit_records=True)[0].units[0]
    share = units[:, UNIT_INDEX["games_won_a"]] / units[:, UNIT_INDEX["games"]]
    assert row.sd == pytest.approx(share.std(ddof=1))
    assert row.units == units_needed(row.sd, 0.05) and row.count == 2 * row.units
    assert result.needed == row.count and result.comparisons == 1


def test_a_sweep_plan_uses_the_studys_number_of_comparisons() -> None:
    result = plan(["simple", "greedy"], 0.05, grid=["knock_limit=10,5"], games=80, workers=1)
    assert result.comparisons == 8  # the sweep's metrics for one pairing
    (row,) = result.rows
    assert row.cell == "knock_limit=5"
    assert row.units == units_needed(row.sd, 0.05, alpha=0.05 / 8)


def test_each_difference_of_a_sweep_says_what_it_could_have_detected() -> None:
    result = sweep(["simple", "greedy"], ["knock_limit=10,5"], games=80, seed=1, workers=1)
    levels = holm_levels([d.p for d in result.differences])
    base, cell = result.cells[0].result.units[0], result.cells[1].result.units[0]
    for d, level in zip(result.differences, levels, strict=True):
        expected = detectable_difference(unit_se(cell, base, d.metric, "games"), level, 0.8)
        assert d.detectable == pytest.approx(expected, nan_ok=True)
    assert result.to_json()["differences"][0]["detectable"] > 0


def test_plan_command_text_json_and_errors() -> None:
    outcome = CliRunner().invoke(main, ["plan", "simple", "greedy", "--difference", "5", "--games", "60", "--json"])
    assert outcome.exit_code == 0, outcome.output
    import json

    data = json.loads(outcome.output)
    assert data["kind"] == "plan" and data["needed"] == data["rows"][0]["games"] > 0
    outcome = CliRunner().invoke(main, ["plan", "simple", "greedy", "--difference", "-1"])
    assert outcome.exit_code != 0 and "Traceback" not in outcome.output
    assert outcome.output.strip().splitlines()[-1].startswith("Error: ") and "--difference" in outcome.output
    outcome = CliRunner().invoke(main, ["plan", "simple", "greedy", "--difference", "5", "--power", "1.5"])
    assert outcome.exit_code != 0 and "--power" in outcome.output

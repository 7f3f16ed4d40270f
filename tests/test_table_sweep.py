"""Sweeps of three-player (V11) and partnership (V12) tables (issue 32 item 29).

A table sweep plays one table under every cell of a grid on the same game seeds; its cells are exactly the
matches of those rules, its unit records add up to the runner's tallies, and its differences are the paired
comparisons of those records, recomputed here independently.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import simgin
from simgin.cli.main import main
from simgin.game.multiplayer import table_unit_fields
from simgin.game.rules import Rules
from simgin.running import runner
from simgin.statistics.paired import paired_comparison
from simgin.studies.table_sweep import table_sweep

THREE = ("simple", "greedy", "random")
TEAMS = ("simple", "greedy", "random", "heuristic")


@pytest.mark.parametrize(("table", "players"), [("three", THREE), ("teams", TEAMS)])
def test_unit_records_add_up_to_the_tally(table, players):
    """V11/V12: a unit is a game seed played in every seating; summed over units, the records are the tally."""
    config = runner.RunConfig(players, games=48, seed=4, table=table)
    result = runner.run_cells([config], workers=1, unit_records=True)[0]
    totals = dict(zip(table_unit_fields(table), result.units[0].sum(axis=0).tolist(), strict=True))
    tally = result.tallies[0]
    for name in ("games", "hands", "dead", "knock", "gin", "undercut"):
        assert totals[name] == tally[name], name
    if table == "three":
        for p in range(3):
            assert (totals[f"wins_{p}"], totals[f"net_{p}"]) == (tally[f"wins_{p}"], tally[f"net_{p}"])
    else:
        assert (totals["team_wins_0"], totals["team_wins_1"]) == (tally["team_wins_01"], tally["team_wins_23"])
        assert totals["team_margin_0"] == tally["team_margin_01"] == -totals["team_margin_1"]
    assert result.units[0].shape == (8 if table == "three" else 6, len(table_unit_fields(table)))


def test_each_cell_is_the_match_of_its_rules():
    """A cell's per-player win rates and net points are those of `simgin.match` with the cell's rules and seed."""
    result = table_sweep(THREE, ["knock_limit=10,5"], table="three", games=48, seed=1, workers=1)
    for cell in result.cells:
        match = simgin.match(*THREE, games=48, seed=1, workers=1, rules=Rules(knock_limit=cell.settings["knock_limit"]))
        frame = match.to_frame().set_index("player")
        for row in cell.rows[:3]:
            assert row["win_rate"] == pytest.approx(frame.loc[row["side"], "win_rate"])
            assert row["net_per_game"] == pytest.approx(frame.loc[row["side"], "net_per_game"])
            assert row["win_rate_low"] <= row["win_rate"] <= row["win_rate_high"]
        table_row = cell.rows[3]
        assert table_row["side"] == "table" and table_row["hands_per_game"] > 1


def test_the_differences_are_the_paired_comparisons_of_the_unit_records():
    """Recomputed from the runner's unit records: gin share of the table, and each team's share of games won."""
    players, grid = TEAMS, ["knock_limit=10,1"]
    result = table_sweep(players, grid, table="teams", games=96, seed=2, workers=1)
    runs = runner.run_cells(
        [runner.RunConfig(players, Rules(knock_limit=k), None, 96, 2, table="teams") for k in (10, 1)],
        workers=1,
        unit_records=True,
    )
    base, cell = (run.units[0].astype(float) for run in runs)
    column = {name: i for i, name in enumerate(table_unit_fields("teams"))}
    found = {(d.side, d.metric): d for d in result.differences}
    gin = paired_comparison(
        cell[:, column["gin"]], base[:, column["gin"]], cell[:, column["hands"]], base[:, column["hands"]], share=True
    )
    d = found[("table", "gin_rate")]
    assert (d.difference, d.p, d.low, d.high) == pytest.approx((gin.difference, gin.p, gin.low, gin.high))
    # A knock limit of 1 (V1: a knock needs deadwood <= 1) ends far more hands by gin than the standard 10.
    assert d.difference > 0.1 and d.significant and d.ci_holm[0] > 0
    wins = paired_comparison(
        cell[:, column["team_wins_0"]],
        base[:, column["team_wins_0"]],
        cell[:, column["games"]],
        base[:, column["games"]],
        share=True,
    )
    assert found[("simple + greedy", "win_rate")].difference == pytest.approx(wins.difference)
    assert len(result.differences) == 2 * 2 + 5  # two teams x two metrics, five of the table's
    for difference in result.differences:  # Holm-consistent intervals agree with the decisions
        assert difference.significant == (not difference.ci_holm[0] <= 0 <= difference.ci_holm[1])


def test_cells_that_are_the_same_game_at_the_table_are_played_once_and_not_compared():
    """A switch the table overrides makes no second game (Rules.overridden): dealer_rotation does not apply at a
    partnership table, whose dealing follows its own order (V12). The cell repeats the first one's figures."""
    result = table_sweep(TEAMS, ["dealer_rotation=loser,winner"], table="teams", games=48, seed=3, workers=1)
    assert result.cells[1].same_game_as == 0 and result.differences == ()
    assert result.cells[1].rows == result.cells[0].rows


def test_bad_input_is_one_line_and_the_cli_prints_strict_json(tmp_path):
    cases = [
        (["sweep", "simple", "greedy", "--table", "three", "--grid", "knock_limit=10,5"], "takes exactly three"),
        (["sweep", *THREE, "--table", "three", "--grid", "knock_limit=10,5", "--hands", "60"], "give --games"),
        (
            [
                "sweep",
                "--team",
                "simple,greedy",
                "--team",
                "random,heuristic",
                "--grid",
                "knock_limit=10,5",
                "--sprt",
                "d0=0,d1=5",
            ],
            "does not take a table",
        ),
        (["sweep", *THREE, "--table", "three", "--grid", "knock_limit=10,5", "--games", "50"], "multiple of 6"),
        (["sweep", *THREE, "--table", "three", "--grid", "hollywood=true,false", "--games", "48"], "hollywood"),
    ]
    for args, expected in cases:
        outcome = CliRunner().invoke(main, [*args, "--quiet"])
        assert outcome.exit_code != 0 and expected in outcome.output, (args, outcome.output)
        assert "Traceback" not in outcome.output and outcome.output.strip().count("\n") <= 2
    out = tmp_path / "run"
    args = ["sweep", *THREE, "--table", "three", "--grid", "knock_limit=10,1", "--games", "48", "--seed", "5"]
    outcome = CliRunner().invoke(main, [*args, "--workers", "1", "--quiet", "--json", "--out", str(out)])
    assert outcome.exit_code == 0, outcome.output

    def no_nan(value: str) -> None:
        raise ValueError(f"not strict JSON: {value}")

    data = json.loads(outcome.stdout, parse_constant=no_nan)
    assert data["table"] == "three" and data["unit"] == "game seed, every seating" and len(data["cells"]) == 2
    assert {"result.json", "sweep.csv", "differences.csv"} <= {p.name for p in out.iterdir()}
    report = CliRunner().invoke(main, ["report", str(out), "-o", str(tmp_path / "r.html"), "--json"])
    assert report.exit_code == 0, report.output
    html = (tmp_path / "r.html").read_text()
    assert "three-player table (V11)" in html and "knock_limit=1" in html
    files = {p.name for p in (tmp_path / "r_files").iterdir()}
    assert {"table_sweep_sides.csv", "table_sweep_differences.csv", "table_sweep_wins.png"} <= files
    text = CliRunner().invoke(main, [*args, "--workers", "1", "--quiet"])
    assert text.exit_code == 0 and "three-player table (V11), simple, greedy, random: 2 cells" in text.output
    assert np.isfinite(data["cells"][0]["rows"][0]["win_rate"])


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_a_table_sweep_resumes_from_its_directory_and_does_not_depend_on_workers(tmp_path):
    """Rerun into the same --out: every chunk is read back (unit records included) and the result is the same;
    two workers give the same result as one."""
    args = dict(table="three", games=48, seed=6)
    first = table_sweep(THREE, ["knock_limit=10,5"], workers=1, out=tmp_path / "run", **args).to_json()
    again = table_sweep(THREE, ["knock_limit=10,5"], workers=1, out=tmp_path / "run", **args).to_json()
    two = table_sweep(THREE, ["knock_limit=10,5"], workers=2, **args).to_json()
    for data in (first, again, two):
        data.pop("seconds")
    assert first == again == two

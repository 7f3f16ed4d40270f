"""Sequential tests (simgin compare), variant sweeps and tournament ratings (issue 5)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from simgin import Rules
from simgin.cli.main import main
from simgin.running import runner
from simgin.running.matches import run_sprt
from simgin.running.results import load_result
from simgin.running.tournament_ratings import tournament_analysis
from simgin.statistics.sprt import SprtSettings, parse_sprt
from simgin.studies.sweep import grid_cells, parse_grid, run_sweep

EAAI = Rules.preset("eaai")


def test_simple_against_random_accepts_h1_quickly():
    """docs/STATISTICS.md §1: a clearly stronger bot is recognised within a few hundred games."""
    _, summary = run_sprt("simple", "random", SprtSettings(elo0=0, elo1=10), EAAI, seed=4, workers=1)
    assert summary["decision"] == "H1"
    assert summary["games"] <= 400
    assert summary["llr"] >= summary["upper"]
    assert summary["trajectory"][-1]["llr"] == summary["llr"]
    assert [step["games"] for step in summary["trajectory"]] == [
        50.0 * (k + 1) for k in range(len(summary["trajectory"]))
    ]


@pytest.mark.slow
def test_sprt_stops_at_the_same_batch_on_any_number_of_workers():
    settings = SprtSettings(elo0=0, elo1=10, batch_pairs=5)
    _, one = run_sprt("simple", "random", settings, EAAI, seed=2, workers=1)
    _, two = run_sprt("simple", "random", settings, EAAI, seed=2, workers=2)
    assert one == two


def test_sprt_stops_undecided_at_max_games():
    """Bounds far from the truth with few games: neither hypothesis is accepted by max_games."""
    settings = SprtSettings(elo0=0, elo1=10, alpha=0.001, beta=0.001, max_games=20, batch_pairs=5)
    _, summary = run_sprt("simple", "simple", settings, EAAI, seed=1, workers=1)
    assert summary["decision"] == "max games"
    assert summary["games"] == 20
    assert summary["lower"] < summary["llr"] < summary["upper"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("elo0=0", "both"),
        ("elo0=x,elo1=1", "number"),
        ("foo=1,elo1=2", "foo"),
        ("elo0=5,elo1=1", r"--sprt 'elo0=5,elo1=1': elo0 must be below elo1 \(H0 below H1\), e\.g\. elo0=0,elo1=10$"),
        ("elo1=3,elo0=3", "elo0 must be below elo1"),
        ("points0=1,points1=0", r"points0 must be below points1 \(H0 below H1\), e\.g\. points0=0,points1=1$"),
    ],
)
def test_parse_sprt_errors(text, message):
    with pytest.raises(ValueError, match=message):
        parse_sprt(text)


@pytest.mark.parametrize(
    ("changes", "message"),
    [({"elo0": 5, "elo1": 5}, "elo0 < elo1"), ({"alpha": 0.7}, "alpha"), ({"max_games": 7}, "even")],
)
def test_sprt_settings_errors(changes, message):
    with pytest.raises(ValueError, match=message):
        SprtSettings(**changes)


def test_compare_cli_json_and_result_file(tmp_path):
    args = ["compare", "simple", "random", "--rules", "eaai", "--workers", "1", "--out", str(tmp_path), "--json"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["sprt"]["decision"] == "H1"
    saved = load_result(tmp_path)
    assert saved["kind"] == "compare"
    assert saved["sprt"]["llr"] == pytest.approx(data["sprt"]["llr"])
    bad = CliRunner().invoke(main, ["compare", "simple", "random", "--sprt", "elo0=3,elo1=1"])
    assert bad.exit_code != 0
    assert bad.output.strip().splitlines()[-1].startswith("Error: --sprt 'elo0=3,elo1=1': elo0 must be below elo1")


def test_parse_grid_values_and_errors():
    grid = parse_grid(["knock_limit=0..2", "dealer_rotation=loser,winner"], Rules())
    assert grid == {"knock_limit": [0, 1, 2], "dealer_rotation": ["loser", "winner"]}
    assert len(grid_cells(grid)) == 6
    assert grid_cells(grid)[1] == {"knock_limit": 0, "dealer_rotation": "winner"}
    for items, message in [
        (["knock_limit"], "expected SWITCH"),
        (["knock_limit=a..3"], "whole numbers"),
        (["knock_limit=0..12"], "knock_limit"),
        (["gin_bonus=x"], "whole number"),
        (["no_such=1"], "unknown rule"),
        (["gin_bonus=1", "gin_bonus=2"], "twice"),
        (["gin_bonus=0..200", "undercut_bonus=0..200"], "at most"),
    ]:
        with pytest.raises(ValueError, match=message):
            parse_grid(items, Rules())


def test_sweep_cells_share_seeds_with_a_plain_run():
    """Common random numbers: the cell with the base values is exactly the plain run."""
    base = runner.RunConfig(("simple", "random"), Rules(), hands=400, seed=8, chunk_units=100)
    cells, table = run_sweep(base, {"knock_limit": [7, 10]}, workers=1)
    plain = runner.run(base, workers=1)
    assert cells[1]["pairings"][0]["tally"] == plain.tallies[0].to_dict()
    assert cells[0]["pairings"][0]["tally"] != plain.tallies[0].to_dict()
    assert list(table["knock_limit"]) == [7, 7, 10, 10]


def test_sweep_rejects_an_invalid_cell():
    base = runner.RunConfig(("simple", "random"), Rules(eleven_card_start=True), hands=20, seed=1)
    with pytest.raises(ValueError, match="grid cell"):
        run_sweep(base, {"oklahoma": [False, True]}, workers=1)


def test_sweep_cli_writes_table(tmp_path):
    args = ["sweep", "simple", "random", "--grid", "gin_bonus=20,25", "--hands", "200", "--workers", "1"]
    result = CliRunner().invoke(main, [*args, "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "sweep.csv").read_text().count("\n") == 5
    assert load_result(tmp_path)["grid"] == {"gin_bonus": [20, 25]}
    bad = CliRunner().invoke(main, ["sweep", "simple", "random", "--grid", "knock_limit=0..99"])
    assert bad.exit_code != 0
    assert "knock_limit" in bad.output


def test_tournament_ratings_anchor_and_holm():
    result = runner.run(runner.RunConfig(("simple", "random"), hands=1000, seed=3, chunk_units=100), workers=1)
    analysis = tournament_analysis(result, anchor="simple", reps=200, seed=1)
    ratings = {row["player"]: row for row in analysis["ratings"]}
    assert ratings["simple"]["rating"] == 0
    assert ratings["random"]["high"] < -300
    assert analysis["pairwise"][0]["significant"]
    assert analysis["pairwise"][0]["p_holm"] >= analysis["pairwise"][0]["p"]


def test_a_bot_against_itself_accepts_h0_over_repeated_seeds():
    """Self-play on duplicate pairs never accepts H1 (an error rate of at most alpha) over seeded runs.

    The seats' random streams follow the seat, so a bot against itself mirrors every deal
    exactly and each pair splits; see the calibration tests in test_stats.py for the
    error rate on simulated pairs with a true difference of zero.
    """
    decisions = [
        run_sprt("simple", "simple", SprtSettings(elo0=0, elo1=10, batch_pairs=10), EAAI, seed=s, workers=1)[1][
            "decision"
        ]
        for s in range(8)
    ]
    assert decisions == ["H0"] * 8


def test_a_player_that_lost_every_game_is_flagged_as_a_bound():
    """random never wins a game against simple: its rating is set by the prior, and the CLI and report say so."""
    result = runner.run(runner.RunConfig(("simple", "random", "greedy"), games=10, seed=3, chunk_units=5), workers=1)
    analysis = tournament_analysis(result, anchor="simple", reps=100, seed=1)
    sweeps = {row["player"]: row["sweep"] for row in analysis["ratings"]}
    assert sweeps == {"simple": None, "random": "lost every game", "greedy": None}

    two = runner.run(runner.RunConfig(("simple", "random"), games=10, seed=3, chunk_units=5), workers=1)
    sweeps = {row["player"]: row["sweep"] for row in tournament_analysis(two, reps=100, seed=1)["ratings"]}
    assert sweeps == {"simple": "won every game", "random": "lost every game"}

    cli = CliRunner().invoke(main, ["tournament", "simple", "random", "--games", "10", "--workers", "1", "--quiet"])
    assert cli.exit_code == 0, cli.output
    ratings = cli.output.split("ratings (Elo scale")[1]
    random_line = next(line for line in ratings.splitlines() if line.strip().startswith("random "))
    assert "lost every game, so the rating is a bound set by the prior" in random_line

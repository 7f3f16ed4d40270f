"""``--adjust-luck`` on ``sweep`` and ``compare`` (issue 35): the luck-adjusted outcomes drive the differences,
p-values, Holm and the sequential tests, the plain figures stay beside them (docs/STATISTICS.md §13)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

import simgin
from simgin.cli.main import main
from simgin.running.tally import UNIT_INDEX
from simgin.statistics.paired import NORMAL_SPRT_MIN_UNITS, normal_sprt, paired_comparison

#: Small tunes of hands the command-line tests run, without --final and --adjust-luck.
TUNE = ["tune", "heuristic", "--against", "simple", "--params", "knock", "--budget", "2", "--hands", "20"]
TUNE_RULES = [
    *("tune-rules", "opponent", "simple", "--objective", "skill", "--vary", "knock_limit=8..10"),
    *("--budget", "2", "--hands", "20"),
]


@pytest.fixture(scope="module")
def study():
    """One sweep of hands, plain and luck-adjusted, on the same seed."""
    kwargs = dict(hands=600, seed=5, workers=1)
    plain = simgin.sweep(["opponent", "simple"], ["knock_limit=10,7"], **kwargs)
    adjusted = simgin.sweep(["opponent", "simple"], ["knock_limit=10,7"], adjust_luck=True, **kwargs)
    return plain, adjusted


def test_a_sweeps_unit_records_carry_the_luck_the_tally_sums(study):
    """A unit's luck columns add up to the tally's luck sums, and its plain columns are those of the plain run."""
    plain, adjusted = study
    for mine, theirs in zip(adjusted.cells, plain.cells, strict=True):
        units, plain_units = mine.result.units[0], theirs.result.units[0]
        assert units.dtype == np.float64 and plain_units.dtype == np.int32
        assert np.array_equal(units[:, : plain_units.shape[1]], plain_units)
        tally = mine.result.tallies[0]
        net = units[:, UNIT_INDEX["net_points_a"]] - units[:, UNIT_INDEX["luck_points_a"]]
        won = units[:, UNIT_INDEX["hands_won_a"]] - units[:, UNIT_INDEX["luck_hands_won_a"]]
        assert net.sum() == pytest.approx(tally["luck_y"]) and (net**2).sum() == pytest.approx(tally["luck_y_sq"])
        assert won.sum() == pytest.approx(tally["luck_v"])


def test_a_sweeps_differences_use_the_adjusted_outcomes_with_the_plain_beside(study):
    """Win rate and net points per hand: the difference, interval and p recomputed from the unit records' adjusted
    outcomes; ``plain`` equals the plain sweep's figures; the other metrics are the plain sweep's; Holm runs over
    the adjusted p-values."""
    plain, adjusted = study
    plain_rows = {(d.cell, d.metric): d for d in plain.differences}
    cell, base = adjusted.cells[1].result.units[0], adjusted.cells[0].result.units[0]
    luck = {"win_rate": ("hands_won_a", "luck_hands_won_a"), "net_points_per_hand": ("net_points_a", "luck_points_a")}
    for d in adjusted.differences:
        same = plain_rows[(d.cell, d.metric)]
        if d.metric in luck:
            events, correction = (UNIT_INDEX[name] for name in luck[d.metric])
            x, y = cell[:, events] - cell[:, correction], base[:, events] - base[:, correction]
            hands = UNIT_INDEX["hands"]
            expected = paired_comparison(x, y, cell[:, hands], base[:, hands], share=False)
            assert d.estimator == "luck-adjusted"
            assert d.difference == pytest.approx(expected.difference)
            assert d.ci == pytest.approx((expected.low, expected.high)) and d.p == pytest.approx(expected.p)
            assert d.plain["difference"] == pytest.approx(same.difference)
            assert d.plain["ci"] == pytest.approx(list(same.ci)) and d.plain["p"] == pytest.approx(same.p)
            assert "luck-adjusted" in adjusted.differences_frame().set_index("metric").loc[d.metric, "text"]
        else:
            assert d.estimator == "plain" and d.plain is None
            assert (d.difference, d.ci, d.p) == (same.difference, same.ci, same.p)
    ps = [d.p for d in adjusted.differences]
    assert [d.p_holm for d in adjusted.differences] == pytest.approx(list(simgin.statistics.stats.holm(ps)))


def test_a_sweeps_json_is_strict_and_has_each_pairings_luck_adjusted_figures(study):
    _, adjusted = study
    text = json.dumps(adjusted.to_json(), allow_nan=False)
    data = json.loads(text)
    assert [entry["cell"] for entry in data["luck_adjusted"]] == [cell["label"] for cell in data["cells"]]
    for cell, listed in zip(data["cells"], data["luck_adjusted"], strict=True):
        figures = cell["pairings"][0]["luck_adjusted"]
        assert listed["net_points_per_hand"] == figures["net_points_per_hand"] and listed["a"] == "opponent"
        for name in ("net_points_per_hand", "hands_won"):
            assert {"estimate", "ci", "variance_ratio"} <= set(figures[name])
            assert figures[name]["ci"][0] < figures[name]["estimate"] < figures[name]["ci"][1]
    frame = adjusted.to_frame()
    a, b = frame.iloc[0], frame.iloc[1]
    assert a["net_points_per_hand_luck_adjusted"] == pytest.approx(-b["net_points_per_hand_luck_adjusted"])
    shown = data["cells"][0]["pairings"][0]["luck_adjusted"]["net_points_per_hand"]
    # One figure, one interval: the luck_adjusted object and the table give the same estimate and interval.
    assert a["net_points_per_hand_luck_adjusted"] == pytest.approx(shown["estimate"])
    low, high = a["net_points_per_hand_luck_adjusted_low"], a["net_points_per_hand_luck_adjusted_high"]
    assert [low, high] == pytest.approx(shown["ci"])
    assert shown["plain_ci"] == pytest.approx([a["net_points_per_hand_low"], a["net_points_per_hand_high"]])


def test_sweep_adjust_luck_on_the_command_line():
    """``simgin sweep --adjust-luck`` prints the adjusted differences and figures; games and tables are one Error
    line each with a non-zero exit."""
    args = ["sweep", "opponent", "simple", "--grid", "knock_limit=10,7", "--hands", "200", "--workers", "1"]
    outcome = CliRunner().invoke(main, [*args, "--quiet", "--adjust-luck"])
    assert outcome.exit_code == 0, outcome.output
    assert "luck-adjusted (docs/STATISTICS.md §13)" in outcome.stdout
    data = json.loads(CliRunner().invoke(main, [*args, "--quiet", "--adjust-luck", "--json"]).stdout)
    assert {d["estimator"] for d in data["differences"]} == {"plain", "luck-adjusted"}
    for bad in (
        ["sweep", "opponent", "simple", "--grid", "knock_limit=10,7", "--games", "4"],
        ["sweep", "simple", "greedy", "random", "--table", "three", "--grid", "knock_limit=10,7", "--games", "6"],
    ):
        refused = CliRunner().invoke(main, [*bad, "--adjust-luck", "--quiet"])
        assert refused.exit_code == 1 and refused.output.startswith("Error: --adjust-luck: applies to runs of hands")
        assert refused.output.count("\n") == 1


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_the_rules_sprt_runs_on_the_adjusted_win_rates():
    from simgin.studies.sequential import sequential_rules_test

    kwargs = dict(hands=2000, seed=4, workers=1)
    plain = sequential_rules_test(["opponent", "simple"], ["knock_limit=10,1"], "d0=0,d1=5", **kwargs)
    adjusted = sequential_rules_test(
        ["opponent", "simple"], ["knock_limit=10,1"], "d0=0,d1=5", adjust_luck=True, **kwargs
    )
    assert plain.estimator == "plain" and plain.plain is None
    assert adjusted.estimator == "luck-adjusted" and adjusted.to_json()["plain"]["ci"][0] < adjusted.plain[0]
    assert adjusted.llr != plain.llr
    assert "luck-adjusted" in adjusted.text()


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_the_normal_sprt_holds_its_error_rate_on_resampled_adjusted_outcomes():
    """Null calibration of the sequential test on luck-adjusted units: per-pair adjusted net points of a real run,
    centred on 0 (a true H0), resampled in batches of 25 pairs and tested after each batch (H0: 0 against H1: +1
    point per hand) until a decision or 4,000 pairs; over 400 repetitions H1 is accepted at most about alpha = 5%
    of the time (Wald's bounds are conservative), and H0 most of the time."""
    from simgin.running import runner
    from simgin.running.matches import pair_points

    config = runner.RunConfig(("opponent", "simple"), hands=4000, seed=9, adjust_luck=True)
    units = runner.run_cells([config], workers=1, unit_records=True)[0].units[0]
    values = pair_points(units, True)
    values = values - values.mean()
    rng = np.random.default_rng(7)
    decisions = {"H0": 0, "H1": 0, "continue": 0}
    for _ in range(400):
        drawn = np.empty(0)
        decision = "continue"
        while decision == "continue" and drawn.size < 4000:
            drawn = np.concatenate([drawn, rng.choice(values, 25)])
            decision = normal_sprt(drawn, 0.0, 1.0).decision
        decisions[decision] += 1
    assert decisions["H1"] <= 0.05 * 400 + 2 * math.sqrt(0.05 * 0.95 * 400), decisions
    assert decisions["H0"] >= 0.85 * 400, decisions


def test_the_normal_sprt_waits_for_a_measured_spread():
    assert normal_sprt([0.5] * (NORMAL_SPRT_MIN_UNITS - 1), 0.0, 0.5).decision == "continue"
    assert normal_sprt([0.5] * 100, 0.0, 0.4).decision == "continue"  # no spread: no decision
    with pytest.raises(ValueError, match="s0 < s1"):
        normal_sprt([0.1], 1.0, 0.0)


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_compare_adjust_luck_tests_net_points_per_hand_and_keeps_the_plain_beside():
    """``compare(adjust_luck=True)`` plays duplicate hand pairs: its test, estimate and interval are the pairs'
    luck-adjusted net points per hand, the plain figures beside; the same on one and two workers."""
    from simgin.running.matches import mean_interval, pair_points

    one = simgin.compare("opponent", "simple", adjust_luck=True, seed=2, workers=1)
    two = simgin.compare("opponent", "simple", adjust_luck=True, seed=2, workers=2)
    assert one.summary == two.summary
    summary = one.summary
    assert summary["estimator"] == "luck-adjusted" and summary["unit"] == "hand"
    assert summary["decision"] in ("H0", "H1") and summary["hands"] == 2 * summary["pairs"]
    units = one.run.units[0]
    assert summary["net_points_per_hand"] == mean_interval(pair_points(units, True))
    assert summary["plain"]["net_points_per_hand"] == mean_interval(pair_points(units, False))
    luck = summary["luck_adjusted"]["net_points_per_hand"]
    assert luck["estimate"] == pytest.approx(summary["net_points_per_hand"]["estimate"])
    assert {"estimate", "ci", "variance_ratio"} <= set(summary["luck_adjusted"]["hands_won"])
    assert normal_sprt(pair_points(units, True), 0.0, 1.0).llr == pytest.approx(summary["llr"])


def test_compare_adjust_luck_on_the_command_line():
    args = ["compare", "opponent", "simple", "--seed", "2", "--workers", "1", "--quiet"]
    outcome = CliRunner().invoke(main, [*args, "--adjust-luck"])
    assert outcome.exit_code == 0, outcome.output
    assert "(luck-adjusted, docs/STATISTICS.md §13)" in outcome.stdout and "plain" in outcome.stdout
    data = json.loads(CliRunner().invoke(main, [*args, "--adjust-luck", "--json"]).stdout)
    assert data["sprt"]["estimator"] == "luck-adjusted" and data["luck_adjusted"] == data["sprt"]["luck_adjusted"]
    refused = CliRunner().invoke(main, [*args, "--adjust-luck", "--sprt", "elo0=0,elo1=10", "--model", "normalized"])
    assert refused.exit_code == 1 and refused.output.startswith("Error: --model normalized: a luck-adjusted test")
    assert refused.output.count("\n") == 1
    refused = CliRunner().invoke(main, [*args, "--sprt", "points0=1,points1=0"])
    assert refused.exit_code == 1 and "--sprt 'points0=1,points1=0': points0 must be below points1" in refused.output


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_tune_ranks_by_adjusted_net_points_and_keeps_the_plain_beside():
    """``tune(adjust_luck=True)``: every evaluation's score is the luck-adjusted net points per hand (the tally's
    adjusted sum per pair), the final's plain figure is the plain sums by the same batch means, and games are one
    TuneError."""
    from simgin.studies.search import batch_mean
    from simgin.studies.tune import TuneError
    from simgin.studies.tune_evaluation import pair_score_sum

    kwargs = dict(params=["knock", "knock_late"], budget=4, hands=40, final=200, workers=1, seed=3)
    with pytest.warns(UserWarning):
        adjusted = simgin.tune("heuristic", ["simple"], adjust_luck=True, **kwargs)
    with pytest.warns(UserWarning):
        plain = simgin.tune("heuristic", ["simple"], **kwargs)
    assert plain.luck_adjusted is None and "luck_adjusted" not in plain.to_json()
    final = next(e for e in adjusted.history if e.phase == "final")
    tally = simgin.running.tally.Tally.from_dict(final.opponents[0]["tally"])
    assert final.score == pytest.approx(pair_score_sum(tally, "hands", True) / final.pairs)
    figures = adjusted.to_json()["luck_adjusted"]
    points = figures["net_points_per_hand"]
    assert points["estimate"] == adjusted.score and points["ci"] == adjusted.score_ci
    expected = batch_mean(final.opponents[0]["plain_batch_sums"], final.batch_pairs)
    assert (points["plain"], *points["plain_ci"]) == pytest.approx(expected)
    assert points["plain"] == pytest.approx(pair_score_sum(tally, "hands") / final.pairs)
    plain_final = next(e for e in plain.history if e.phase == "final")
    assert points["plain"] == pytest.approx(plain_final.score)  # the same deals, the plain figure
    assert {"estimate", "ci", "variance_ratio"} <= set(figures["hands_won"]) and "start" in figures
    with pytest.raises(TuneError, match="--adjust-luck: applies to tunes of hands"):
        simgin.tune("heuristic", ["simple"], adjust_luck=True, games=8, budget=2)


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_tune_rules_judges_skill_by_the_adjusted_win_rate():
    """``tune_rules(adjust_luck=True)``: the skill score is the luck-adjusted share of hands won (a dead hand
    half), ``plain_win_rate`` equals the plain search's ``win_rate`` on the same deals, ``luck_adjusted`` has the
    fixed keys, and games are one TuneRulesError."""
    from simgin.studies.rule_space import TuneRulesError

    kwargs = dict(budget=3, hands=60, final=200, workers=1, seed=2)
    vary = ["knock_limit=7..10"]
    adjusted = simgin.tune_rules(["opponent", "simple"], "skill", vary, adjust_luck=True, **kwargs)
    plain = simgin.tune_rules(["opponent", "simple"], "skill", vary, **kwargs)
    for mine, theirs in zip(adjusted.final, plain.final, strict=True):
        assert mine["metrics"]["plain_win_rate"] == pytest.approx(theirs["metrics"]["win_rate"])
        assert mine["metrics"]["win_rate"] != pytest.approx(theirs["metrics"]["win_rate"])
        assert mine["score"] == pytest.approx(mine["metrics"]["win_rate"][0])
    figures = adjusted.to_json()["luck_adjusted"]
    for name in ("net_points_per_hand", "hands_won"):
        assert {"estimate", "ci", "variance_ratio", "plain"} <= set(figures[name])
        assert figures[name]["variance_ratio"] > 0
    assert "luck_adjusted" not in plain.to_json()
    with pytest.raises(TuneRulesError, match="--adjust-luck: applies to searches of hands"):
        simgin.tune_rules(["opponent", "simple"], "skill", vary, adjust_luck=True, games=20, budget=2)


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
@pytest.mark.parametrize(
    "command",
    [
        TUNE,
        TUNE_RULES,
    ],
)
def test_the_tuners_take_adjust_luck_on_the_command_line(command, monkeypatch):
    outcome = CliRunner().invoke(main, [*command, "--final", "40", "--workers", "1", "--quiet", "--adjust-luck"])
    assert outcome.exit_code == 0, outcome.output
    assert "luck-adjusted (§13)" in outcome.stdout
    data = json.loads(
        CliRunner()
        .invoke(main, [*command, "--final", "40", "--workers", "1", "--quiet", "--adjust-luck", "--json"])
        .stdout
    )
    assert {"net_points_per_hand", "hands_won", "start"} <= set(data["luck_adjusted"])
    games = [*command[: command.index("--hands")], "--games", "4"]
    from simgin.running import runner

    monkeypatch.setattr(runner, "kernels_cached", lambda mode: False)  # a cold cache: still the error line alone
    refused = CliRunner().invoke(main, [*games, "--quiet", "--adjust-luck"])
    assert refused.exit_code == 1 and refused.output.startswith("Error: --adjust-luck: applies to")
    assert refused.output.count("\n") == 1


def test_a_luck_adjusted_studys_report_says_so_and_its_rates_match_its_differences(study):
    """The report's effect table of a sweep with ``adjust_luck`` takes the luck-adjusted win rates, so the
    difference it prints is the rates' difference; the caption and the significant table name the estimator."""
    from reports.study import effect_caption, effect_table, significant_table

    _, adjusted = study
    data = json.loads(json.dumps(adjusted.result_data(), allow_nan=False))
    table = effect_table(data, "knock_limit")
    assert set(table["estimator"]) == {"luck-adjusted"}
    base, other = table.iloc[0], table.iloc[1]
    assert other["difference"] == pytest.approx(other["win_rate"] - base["win_rate"])
    pairing = data["cells"][1]["pairings"][0]
    assert other["win_rate"] == pytest.approx(pairing["win_rate_luck_adjusted"])
    assert other["win_rate"] != pytest.approx(pairing["win_rate"])
    assert "luck-adjusted" in effect_caption(table)
    significant = significant_table(data)
    if not significant.empty:
        wins = significant[significant["metric"].isin(["win_rate", "net_points_per_hand"])]
        assert set(wins["estimator"]) <= {"luck-adjusted"}


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
@pytest.mark.parametrize(
    ("command", "said"),
    [
        (["compare", "opponent", "heuristic", "--adjust-luck"], "luck-adjusted (docs/STATISTICS.md §13)"),
        ([*TUNE, "--final", "40", "--adjust-luck"], "every score is luck-adjusted net points per hand"),
        ([*TUNE_RULES, "--final", "40", "--adjust-luck"], "win_rate is luck-adjusted"),
    ],
    ids=["compare", "tune", "tune-rules"],
)
def test_the_report_of_a_luck_adjusted_run_says_which_estimator(tmp_path, command, said):
    """``simgin report`` of a compare, tune or tune-rules directory run with ``--adjust-luck`` builds, and its
    header (and for compare the test's caption, with the hands played) names the luck-adjusted estimator."""
    import html

    out = tmp_path / "run"
    played = CliRunner().invoke(main, [*command, "--workers", "1", "--quiet", "--out", str(out)])
    assert played.exit_code == 0, played.output
    built = CliRunner().invoke(main, ["report", str(out), "-o", str(out / "report.html"), "--no-png"])
    assert built.exit_code == 0, built.output
    page = html.unescape((out / "report.html").read_text())
    assert said in page
    if command[0] == "compare":
        summary = json.loads((out / "result.json").read_text())["sprt"]
        assert f"after {summary['hands']:,} hands ({summary['pairs']:,} pairs), luck-adjusted" in page
        assert "H0 net points per hand ≤ 0, H1 net points per hand ≥ 1 (Gaussian model)" in page


def test_a_tournaments_luck_adjusted_pairwise_claims_are_holm_over_the_pairings():
    """``tournament(adjust_luck=True)``: each pairing's ``p`` is Student's t of its luck-adjusted net points per
    hand against 0 over the units (recomputed from the tally's sums), ``p_holm`` Holm's over the pairings, and
    ``significant`` exactly when ``p_holm < 0.05``; the plain pairwise claims stay beside them."""
    from simgin.statistics.duplicate import student_t_p_value
    from simgin.statistics.stats import holm

    result = simgin.tournament(["opponent", "heuristic", "simple"], hands=300, seed=4, adjust_luck=True, workers=1)
    data = result.to_json()
    listed = data["luck_adjusted"]
    assert [(row["a"], row["b"]) for row in listed] == [(row["a"], row["b"]) for row in data["pairwise"]]
    for row, tally in zip(listed, result.run.tallies, strict=True):
        n = tally["luck_units"]
        mean = tally["luck_y"] / n
        variance = (tally["luck_y_sq"] - n * mean**2) / (n - 1)
        assert row["p"] == pytest.approx(student_t_p_value(mean / math.sqrt(variance / n), n - 1))
    assert [row["p_holm"] for row in listed] == pytest.approx(list(holm([row["p"] for row in listed])))
    assert [row["significant"] for row in listed] == [row["p_holm"] < 0.05 for row in listed]

"""Luck-adjusted results (issue 35): the corrections at each chance event (the deal, R8; each stock draw, R9),
the same in the kernels, in the Python path and in a brute-force reference, and unbiased."""

from __future__ import annotations

import numpy as np
import pytest
from tiers import sizes

from simgin.game import play
from simgin.game.luck import luck_of_moves, luck_value
from simgin.game.reference_engine import play_hand
from simgin.game.rules import Rules
from simgin.kernels import luck as kernel
from simgin.players.registry import resolve

PRESETS = ("standard", "oklahoma", "straight", "eaai", "modern")


def _kernel_luck(pair: tuple[str, str], rules: Rules, seeds: np.ndarray, dealers: np.ndarray):
    luck = np.zeros((len(seeds), kernel.LUCK_FIELDS))
    rows = play.play_hand_rows([resolve(spec) for spec in pair], rules, seeds, dealers, luck=luck)
    return rows, luck


@pytest.mark.parametrize("preset", PRESETS)
def test_the_kernel_corrections_are_the_move_logs(preset):
    """The kernels' corrections as compiled bots play equal those computed from the Python engine's move log of
    the same hands (``simgin.game.luck.luck_of_moves``, the path of plain-Python players and programs), and the
    rows are those of a run without the adjustment."""
    rules = Rules.preset(preset).effective("pairs", games=False)
    seeds = play.hand_seeds(35, 40)
    dealers = np.arange(40, dtype=np.int64) % 2
    pair = ("opponent", "simple")
    rows, luck = _kernel_luck(pair, rules, seeds, dealers)
    plain = play.play_hand_rows([resolve(spec) for spec in pair], rules, seeds, dealers)
    assert np.array_equal(rows, plain)
    value = luck_value().array()
    for i in range(len(seeds)):
        record = play_hand(tuple(resolve(spec).make() for spec in pair), rules, int(seeds[i]), int(dealers[i]))
        expected = luck_of_moves(record.moves, record.knock_limit, record.multiplier, value)
        assert luck[i] == pytest.approx(expected, abs=1e-9), (preset, i)
    assert np.abs(luck).sum() > 0


@pytest.mark.parametrize("hands", sizes(1, 3))
def test_the_corrections_are_the_brute_force_references(hands):
    """``luck_of_moves`` against tests/reference.py's brute force (deadwood by every arrangement, the classes
    written out) on random hands of several presets, V5's 11-card start included."""
    import reference

    value = luck_value().array()
    checked = 0
    cases = (("standard", {}), ("oklahoma", {}), ("straight", {}), ("standard", {"eleven_card_start": True}))
    for preset, settings in cases:
        rules = Rules.preset(preset).with_settings(settings).effective("pairs", games=False)
        for i in range(hands):
            record = play_hand((resolve("simple").make(), resolve("greedy").make()), rules, 900 + i, i % 2)
            got = luck_of_moves(record.moves, record.knock_limit, record.multiplier, value)
            expected = reference.luck_corrections(record.moves, record.knock_limit, record.multiplier, value)
            assert got == pytest.approx(expected, abs=1e-9), (preset, settings, i)
            checked += 1
    assert checked == 4 * hands


def test_a_draws_correction_averages_to_zero_over_the_stock():
    """The defining property (R9: the next stock card is any card of the stock, equally likely): for a fixed hand
    and stock, the drawer's corrections over every card the stock could have had on top sum to zero."""
    from simgin.kernels.melds import SUIT_DEADWOOD

    value = luck_value().array()
    rng = np.random.default_rng(5)
    for _ in range(20):
        cards = rng.permutation(52)
        hand = np.int64(sum(1 << int(c) for c in cards[:10]))
        other = np.int64(sum(1 << int(c) for c in cards[10:20]))
        stock = cards[20 + int(rng.integers(0, 20)) :].astype(np.int64)
        total = np.zeros(kernel.LUCK_FIELDS)
        for top in range(len(stock)):
            order = np.concatenate([[stock[top]], np.delete(stock, top)]).astype(np.int64)
            luck = np.zeros(kernel.LUCK_FIELDS)
            kernel.draw_luck(value, hand, other, order[0], order, 0, 1, 10, 1, SUIT_DEADWOOD, luck)
            total += luck
        assert total == pytest.approx(np.zeros(kernel.LUCK_FIELDS), abs=1e-9)


def test_the_deal_correction_is_antisymmetric():
    """Swapping the two dealt hands (exchangeable, R8) negates the deal's correction: it averages to zero."""
    from simgin.kernels.melds import SUIT_DEADWOOD

    value = luck_value().array()
    rng = np.random.default_rng(6)
    for _ in range(20):
        cards = rng.permutation(52)
        hands = np.array([sum(1 << int(c) for c in cards[:10]), sum(1 << int(c) for c in cards[10:20])], np.int64)
        first, second = np.zeros(kernel.LUCK_FIELDS), np.zeros(kernel.LUCK_FIELDS)
        kernel.deal_luck(value, hands, 0, 10, 1, SUIT_DEADWOOD, first)
        kernel.deal_luck(value, hands[::-1].copy(), 0, 10, 1, SUIT_DEADWOOD, second)
        assert first[0] == pytest.approx(-second[0]) and first[1] == pytest.approx(second[2])


def test_the_classes_of_deadwood_are_the_references():
    """``kernels.luck.bucket`` against the reference's over every deadwood and knock limit (R12, R13, V1, V9)."""
    import reference

    for limit in range(11):
        for e in range(100):
            assert kernel.bucket(e, limit) == reference.luck_bucket(e, limit), (e, limit)
    assert kernel.bucket(0, 10) == 0 and kernel.bucket(10, 10) == 1 and kernel.bucket(11, 10) == 4
    assert kernel.bucket(60, 10) == kernel.BUCKETS - 1


def _adjusted_hands(pair: tuple[str, str], preset: str, hands: int, seed: int):
    """A's (seat 0's) net points per hand and its luck corrections, no duplicate deals."""
    from simgin.running.tally import net_points

    rules = Rules.preset(preset).effective("pairs", games=False)
    seeds = play.hand_seeds(seed, hands)
    rows, luck = _kernel_luck(pair, rules, seeds, np.arange(hands, dtype=np.int64) % 2)
    return net_points(rows, np.zeros(hands, dtype=np.int64)).astype(float), luck[:, kernel.LUCK_POINTS]


@pytest.mark.slow  # calibration by seeded repetitions: .ci/run runs it with the slow tests
@pytest.mark.parametrize("preset", ["standard", "oklahoma"])
def test_the_corrections_average_to_zero_on_a_large_run(preset):
    """Unbiased: over 20,000 hands of opponent against simple the corrections' mean is within four standard
    errors of zero, so the adjusted and plain means agree; and the adjustment does reduce the variance."""
    x, c = _adjusted_hands(("opponent", "simple"), preset, 20_000, 41)
    error = c.std(ddof=1) / np.sqrt(len(c))
    assert abs(c.mean()) < 4 * error, (c.mean(), error)
    assert np.var(x) / np.var(x - c) > 1.2


@pytest.mark.slow  # calibration by seeded repetitions: .ci/run runs it with the slow tests
def test_a_bot_against_itself_is_rejected_about_five_percent_of_the_time():
    """Null calibration: simple against simple (no duplicate deals, so the hands differ), 200 seeded runs of 300
    hands; the adjusted mean's 95% interval excludes 0 in 5% of them, within binomial error (2% to 9%)."""
    rejected = 0
    for repetition in range(200):
        x, c = _adjusted_hands(("simple", "simple"), "standard", 300, 1000 + repetition)
        y = x - c
        half = 1.959964 * y.std(ddof=1) / np.sqrt(len(y))
        rejected += abs(y.mean()) > half
    assert 4 <= rejected <= 18, rejected


def test_the_summary_is_the_units_mean_and_variance_ratio():
    """``running.summary.luck_adjusted`` recomputed from per-unit values: the estimate per hand, its interval and
    the variance ratio (duplicate deals: two hands a unit)."""
    from simgin.running.summary import luck_adjusted
    from simgin.running.tally import tally_luck

    rng = np.random.default_rng(3)
    x = rng.normal(2, 10, 500).round()
    c = x * 0.6 + rng.normal(0, 2, 500)
    w = rng.integers(0, 3, 500).astype(float)
    cw = rng.normal(0, 0.3, 500)
    figures = luck_adjusted(tally_luck(x, c, w, cw), legs=2)
    points = figures["net_points_per_hand"]
    y = x - c
    assert points["estimate"] == pytest.approx(y.mean() / 2)
    assert points["plain"] == pytest.approx(x.mean() / 2)
    half = 1.959964 * y.std(ddof=1) / np.sqrt(500) / 2
    assert points["ci"] == pytest.approx([y.mean() / 2 - half, y.mean() / 2 + half], rel=1e-4)
    assert points["variance_ratio"] == pytest.approx(x.var() / y.var())
    assert figures["hands_won"]["estimate"] == pytest.approx((w - cw).mean() / 2)
    assert set(points) >= {"estimate", "ci", "variance_ratio"}


def test_match_adjust_luck_on_the_command_line_and_in_python():
    """``--adjust-luck`` (fixed name) adds ``luck_adjusted`` with the fixed keys; the plain figures are those of a
    run without it; games and tables are one Error line; ``adjust_luck=True`` in Python gives the same."""
    import json

    from click.testing import CliRunner

    import simgin
    from simgin.cli.main import main

    args = ["match", "opponent", "simple", "--hands", "400", "--seed", "3", "--workers", "1", "--quiet", "--json"]
    plain = json.loads(CliRunner().invoke(main, args).stdout)
    outcome = CliRunner().invoke(main, [*args, "--adjust-luck"])
    assert outcome.exit_code == 0, outcome.output
    adjusted = json.loads(outcome.stdout)
    assert "luck_adjusted" not in plain
    for key in ("net_points_per_hand", "win_rate", "win_rate_ci", "net_points_ci"):
        assert adjusted[key] == plain[key]
    luck = adjusted["luck_adjusted"]
    for name in ("net_points_per_hand", "hands_won"):
        assert {"estimate", "ci", "variance_ratio"} <= set(luck[name])
        assert luck[name]["ci"][0] < luck[name]["estimate"] < luck[name]["ci"][1]
    assert luck["net_points_per_hand"]["plain"] == pytest.approx(plain["net_points_per_hand"][0])
    python = simgin.match("opponent", "simple", hands=400, seed=3, workers=1, adjust_luck=True).to_json()
    assert python["luck_adjusted"] == luck
    for bad in (["--games", "4"], ["simple", "--games", "4"]):
        refused = CliRunner().invoke(main, ["match", "opponent", "simple", *bad, "--adjust-luck", "--quiet"])
        assert refused.exit_code == 1 and refused.output.startswith("Error: --adjust-luck: applies to runs of hands")
        assert refused.output.count("\n") == 1
    with pytest.raises(TypeError, match="adjust_luck='yes'"):
        simgin.match("opponent", "simple", hands=4, adjust_luck="yes")


@pytest.mark.slow
def test_the_same_seed_gives_the_same_adjusted_figures_on_one_and_two_workers():
    from simgin.running import runner

    config = runner.RunConfig(("opponent", "simple"), hands=600, seed=8, chunk_units=50, adjust_luck=True)
    one = runner.match_json(runner.run(config, workers=1))["luck_adjusted"]
    two = runner.match_json(runner.run(config, workers=2))["luck_adjusted"]
    assert one == two and one["net_points_per_hand"]["units"] == 300
    assert "adjust_luck" not in runner.RunConfig(("simple", "random"), hands=10).to_dict()  # digests kept


def test_tournament_adjust_luck_gives_each_pairing_its_figures():
    """``simgin tournament --adjust-luck``: ``luck_adjusted`` lists every pairing (A, B) with A's figures, the plain
    figure being the pairing's net points per hand; the text names each pairing; games are refused."""
    import json

    from click.testing import CliRunner

    from simgin.cli.main import main

    args = ["tournament", "simple", "greedy", "random", "--hands", "200", "--workers", "1", "--quiet"]
    outcome = CliRunner().invoke(main, [*args, "--adjust-luck", "--json"])
    assert outcome.exit_code == 0, outcome.output
    data = json.loads(outcome.stdout)
    pairs = [(row["a"], row["b"]) for row in data["luck_adjusted"]]
    assert pairs == [("simple", "greedy"), ("simple", "random"), ("greedy", "random")]
    summary = {(row["player"], row["opponent"]): row for row in data["summary"]} if "summary" in data else {}
    for row in data["luck_adjusted"]:
        points = row["net_points_per_hand"]
        assert points["ci"][0] < points["estimate"] < points["ci"][1] and points["variance_ratio"] > 0
        if summary:
            assert points["plain"] == pytest.approx(summary[(row["a"], row["b"])]["net_points_per_hand"])
    text = CliRunner().invoke(main, [*args, "--adjust-luck"]).output
    assert "luck-adjusted net points per hand" in text and "simple vs random:" in text
    refused = CliRunner().invoke(main, ["tournament", "simple", "greedy", "--games", "4", "--adjust-luck"])
    assert refused.exit_code == 1 and "--adjust-luck: applies to runs of hands" in refused.output


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_the_report_shows_both_estimators(tmp_path):
    """``simgin report`` of a match run with ``--adjust-luck``: a table with each figure plain and luck-adjusted,
    the numbers of result.json, and which estimator each row comes from."""
    import json

    import pandas as pd
    from click.testing import CliRunner

    from simgin.cli.main import main

    out = tmp_path / "run"
    played = CliRunner().invoke(
        main, ["match", "opponent", "simple", "--hands", "200", "--adjust-luck", "--workers", "1", "--quiet",
               "--out", str(out)],
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    assert CliRunner().invoke(main, ["report", str(out), "-o", str(out / "report.html"), "--no-png"]).exit_code == 0
    table = pd.read_csv(out / "report_files" / "luck_adjusted.csv")
    luck = json.loads((out / "result.json").read_text())["match"]["luck_adjusted"]
    assert list(table["estimator"]) == ["plain", "luck-adjusted"] * 2
    adjusted = table[(table["figure"] == "net_points_per_hand") & (table["estimator"] == "luck-adjusted")].iloc[0]
    assert adjusted["estimate"] == pytest.approx(luck["net_points_per_hand"]["estimate"])
    assert adjusted["variance_ratio"] == pytest.approx(luck["net_points_per_hand"]["variance_ratio"])
    assert "Luck-adjusted results" in (out / "report.html").read_text()


def test_a_program_gets_the_same_adjustment_from_its_move_log():
    """An ``exec:`` program plays in the Python engine: its hands' corrections come from the move log
    (``luck_of_moves``), and they average to zero whatever the program does, since it never sees the stock.
    Here the example program (which plays as ``simple``) against ``simple``: the figures are those of
    ``simple`` against itself in the kernels."""
    import sys
    from pathlib import Path

    import simgin

    bot = f"exec:{sys.executable} {Path(__file__).parents[1] / 'examples' / 'simple_bot.py'}"
    data = simgin.match(bot, "simple", hands=20, workers=1, duplicate=False, adjust_luck=True).to_json()
    points = data["luck_adjusted"]["net_points_per_hand"]
    assert points["plain"] == pytest.approx(data["net_points_per_hand"][0])
    assert points["estimate"] != points["plain"] and points["units"] == 20
    compiled = simgin.match("simple", "simple", hands=20, workers=1, duplicate=False, adjust_luck=True).to_json()
    assert compiled["luck_adjusted"] == data["luck_adjusted"]  # the example plays as simple: the same corrections


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_a_tournaments_report_has_each_pairings_luck_rows(tmp_path):
    """``simgin report`` of ``simgin tournament --adjust-luck --out DIR``: two rows (plain, luck-adjusted) per
    pairing and figure, the adjusted estimate that of result.json's pairing."""
    import json

    import pandas as pd
    from click.testing import CliRunner

    from simgin.cli.main import main

    out = tmp_path / "table"
    played = CliRunner().invoke(
        main, ["tournament", "simple", "greedy", "random", "--hands", "100", "--adjust-luck", "--workers", "1",
               "--quiet", "--out", str(out)],
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    assert CliRunner().invoke(main, ["report", str(out), "-o", str(out / "report.html"), "--no-png"]).exit_code == 0
    table = pd.read_csv(out / "report_files" / "luck_adjusted.csv")
    assert len(table) == 3 * 2 * 2 and set(table["estimator"]) == {"plain", "luck-adjusted"}
    first = json.loads((out / "result.json").read_text())["luck_adjusted"][0]
    row = table[(table["a"] == first["a"]) & (table["b"] == first["b"]) & (table["figure"] == "hands_won")
                & (table["estimator"] == "luck-adjusted")].iloc[0]  # fmt: skip
    assert row["estimate"] == pytest.approx(first["hands_won"]["estimate"])

"""Every statistic at its degenerate cases: a clean sweep, zero variance, all ties, one unit, no units.

docs/STATISTICS.md §7: a test whose standard error is zero has nothing to divide by, so the normal
approximation gives way to the exact sign test; a clean sweep must come out significant when it is long
enough to be, and all ties must never be.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

from simgin.cli.main import main
from simgin.statistics.ratings import rating_notes
from simgin.statistics.stats import (
    GIN_PAIR_SUPPORT,
    SMALL_SAMPLE,
    bootstrap_ratings,
    holm,
    mean_interval,
    paired_margin_analysis,
    pentanomial_elo,
    score_test,
    sign_test,
    sprt,
    wilson_interval,
)


def _binomial_two_sided(wins: int, losses: int) -> float:
    """The sign test by the definition: the probability of a split at least as uneven, under a fair coin."""
    n = wins + losses
    if n == 0:
        return 1.0
    observed = abs(wins - losses)
    return min(1.0, sum(math.comb(n, k) for k in range(n + 1) if abs(2 * k - n) >= observed) / 2**n)


@given(st.integers(0, 60), st.integers(0, 60))
def test_sign_test_is_the_binomial_tail(wins: int, losses: int) -> None:
    assert sign_test(wins, losses) == pytest.approx(_binomial_two_sided(wins, losses), rel=1e-9)


def test_sign_test_of_a_long_sweep_keeps_its_precision() -> None:
    assert 0.0 <= sign_test(2000, 0) < 1e-300
    assert sign_test(1000, 1) == pytest.approx(1002 * 2.0**-1000, rel=1e-9)
    assert sign_test(100, 0) == pytest.approx(2.0**-99, rel=1e-9)


@pytest.mark.parametrize("units", [6, 10, SMALL_SAMPLE, 200])
def test_a_clean_sweep_is_significant(units: int) -> None:
    test = score_test(GIN_PAIR_SUPPORT, [0, 0, units])
    assert test.score == 1.0
    assert test.se == 0.0
    assert test.method == "sign"
    assert test.p == pytest.approx(2.0 ** (1 - units))
    assert test.p < 0.05


def test_a_sweep_too_short_to_tell_is_not_significant() -> None:
    assert score_test(GIN_PAIR_SUPPORT, [0, 0, 5]).p == 0.0625


def test_a_lost_sweep_is_as_significant_as_a_won_one() -> None:
    assert score_test(GIN_PAIR_SUPPORT, [12, 0, 0]).p == score_test(GIN_PAIR_SUPPORT, [0, 0, 12]).p


@pytest.mark.parametrize("units", [1, 7, 500])
def test_all_ties_are_never_significant(units: int) -> None:
    test = score_test(GIN_PAIR_SUPPORT, [0, units, 0])
    assert test.score == 0.5
    assert test.p == 1.0


def test_one_unit_and_no_units() -> None:
    one = score_test(GIN_PAIR_SUPPORT, [0, 0, 1])
    assert one.p == 1.0 and one.units == 1 and math.isnan(one.se)
    none = score_test(GIN_PAIR_SUPPORT, [0, 0, 0])
    assert none.p == 1.0 and none.units == 0 and math.isnan(none.score)


def test_large_samples_use_the_normal_test() -> None:
    counts = [300, 400, 380]
    test = score_test(GIN_PAIR_SUPPORT, counts)
    a = np.repeat(GIN_PAIR_SUPPORT, counts)
    z = (a.mean() - 0.5) / math.sqrt(a.var() / a.size)
    assert test.method == "normal"
    assert test.p == pytest.approx(math.erfc(abs(z) / math.sqrt(2)))


def test_small_samples_use_the_exact_test() -> None:
    test = score_test(GIN_PAIR_SUPPORT, [2, 3, 9])
    assert test.method == "sign"
    assert test.p == pytest.approx(_binomial_two_sided(9, 2))


def test_other_statistics_at_their_degenerate_cases() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(10, 10)
    assert 0.6 < low < 1.0 and high == 1.0
    assert mean_interval([2.0, 2.0, 2.0]) == (2.0, 2.0, 2.0)
    assert holm([0.03]).tolist() == [0.03]
    assert holm([]).tolist() == []
    sweep = pentanomial_elo([0, 0, 10])
    assert sweep.elo > 400 and math.isfinite(sweep.elo) and sweep.los == 1.0
    ties = pentanomial_elo([0, 10, 0])
    assert abs(ties.elo) < 1e-6 and ties.los == pytest.approx(0.5)
    assert sprt([0, 0, 400], None, 0.0, 10.0).decision == "H1"
    assert sprt([400, 0, 0], None, 0.0, 10.0).decision == "H0"
    margins = paired_margin_analysis(np.full(10, 25.0), np.full(10, 25.0))
    assert margins.mean == 25.0 and margins.low == margins.high == 25.0
    with pytest.raises(ValueError, match="at least two deal pairs"):
        paired_margin_analysis([1.0], [1.0])


def test_bootstrap_ratings_of_a_sweeping_player_are_finite() -> None:
    rows = np.array([(0, 1, 1.0)] * 20 + [(0, 2, 1.0)] * 20 + [(1, 2, 0.5)] * 20)
    boot = bootstrap_ratings(rows, 3, games_per_pair=2, reps=50, seed=1)
    assert np.all(np.isfinite(boot.ratings))
    assert boot.ratings[0] > boot.ratings[1]
    assert boot.los[0][1] == 1.0


def test_a_clean_sweep_tournament_claims_it() -> None:
    """The issue's probe: simple wins every deal pair from random, and says so (§7)."""
    result = CliRunner().invoke(
        main, ["tournament", "simple", "random", "--games", "20", "--rules", "eaai", "--json", "--workers", "1"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    (claim,) = data["pairwise"]
    assert claim["score"] == 1.0
    assert claim["test"] == "sign"
    assert claim["p"] == pytest.approx(2.0**-9)
    assert claim["significant"] is True
    assert 0.5 < claim["low"] < 1.0 and claim["high"] == 1.0


def test_rating_notes_explain_a_rating_without_a_claim() -> None:
    rows = [{"a": "simple", "b": "heuristic", "score": 0.46, "p": 0.02, "p_holm": 0.08, "significant": False}]
    los = np.array([[0.5, 0.01], [0.99, 0.5]])
    (note,) = rating_notes(["simple", "heuristic"], los, rows)
    assert (note["above"], note["below"]) == ("heuristic", "simple")
    assert "pair score of 0.540" in note["note"] and "0.08 after Holm" in note["note"]
    assert rating_notes(["simple", "heuristic"], np.array([[0.5, 0.2], [0.8, 0.5]]), rows) == []
    assert rating_notes(["simple", "heuristic"], los, [rows[0] | {"significant": True}]) == []


def test_every_statistics_citation_has_its_section() -> None:
    """Every "STATISTICS.md §n" cited in the code, the reports and the tests is a section of docs/STATISTICS.md."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    doc = (root / "docs" / "STATISTICS.md").read_text()
    sections = set(re.findall(r"^## §(\d+) ", doc, re.M))
    assert sections == {str(n) for n in range(1, len(sections) + 1)}
    cited: set[str] = set()
    for folder in ("simgin", "reports", "strategies", "tests"):
        for path in (root / folder).rglob("*.py"):
            if path == Path(__file__).resolve():
                continue
            text = path.read_text()
            assert "STATISTICS.md" not in text.replace("docs/STATISTICS.md", ""), f"{path} cites a missing file"
            if "docs/STATISTICS.md" in text:
                cited |= set(re.findall(r"§(\d+)", text))
    assert cited, "nothing cites docs/STATISTICS.md"
    assert cited <= sections, f"cited sections missing from docs/STATISTICS.md: {sorted(cited - sections)}"


@pytest.mark.parametrize(
    ("t", "df", "p"),
    [(12.7062, 1, 0.05), (4.3027, 2, 0.05), (2.5706, 5, 0.05), (3.1693, 10, 0.01), (2.0423, 30, 0.05), (0.0, 7, 1.0)],
)
def test_student_t_p_values_match_the_tables(t: float, df: int, p: float) -> None:
    from simgin.statistics.stats import student_t_p_value

    assert student_t_p_value(t, df) == pytest.approx(p, abs=2e-5)
    assert student_t_p_value(-t, df) == student_t_p_value(t, df)


def test_paired_difference_of_means_is_the_paired_t_test() -> None:
    from simgin.statistics.stats import paired_difference, student_t_p_value

    rng = np.random.default_rng(7)
    for n in (8, 25, 400):
        x = rng.integers(0, 3, n).astype(float)
        y = x + rng.normal(0.3, 1.0, n)
        d = x - y
        t = d.mean() / (d.std(ddof=1) / math.sqrt(n))
        result = paired_difference(x, y)
        assert result.difference == pytest.approx(d.mean())
        assert result.se == pytest.approx(d.std(ddof=1) / math.sqrt(n))
        assert result.p == pytest.approx(student_t_p_value(t, n - 1))  # Student's t at every size (issue 32 item 9)
        assert result.low < result.difference < result.high


def test_paired_difference_of_rates_is_the_difference_of_pooled_rates() -> None:
    from simgin.statistics.stats import paired_difference

    wins_x, hands_x = np.array([3, 5, 2, 4]), np.array([6, 9, 5, 8])
    wins_y, hands_y = np.array([2, 4, 2, 2]), np.array([7, 8, 6, 7])
    result = paired_difference(wins_x, wins_y, hands_x, hands_y)
    assert result.difference == pytest.approx(14 / 28 - 10 / 28)
    assert result.units == 4


def test_paired_difference_degenerate_cases() -> None:
    from simgin.statistics.stats import paired_difference

    same = paired_difference([1, 0, 1, 1], [1, 0, 1, 1])
    assert same.difference == 0.0 and same.p == 1.0
    shifted = paired_difference([2.0, 2.0, 2.0], [1.0, 1.0, 1.0])
    # No spread: the exact sign test's 2^(1-n), never p = 0, and no interval (issue 32 item 8).
    assert shifted.difference == 1.0 and shifted.p == 0.25 and math.isnan(shifted.low) and math.isnan(shifted.high)
    assert paired_difference([], []).p == 1.0
    assert math.isnan(paired_difference([1.0], [0.0]).se)
    with pytest.raises(ValueError, match="paired units must match"):
        paired_difference([1, 2], [1])


@pytest.mark.slow  # calibration by seeded repetitions: .ci/run runs it with the slow tests
def test_paired_difference_holds_its_level_under_the_null() -> None:
    """Correlated pairs with no true difference: about 5% of p-values fall below 0.05 (§7)."""
    from simgin.statistics.stats import paired_difference

    rng = np.random.default_rng(11)
    rejections = 0
    reps = 1000
    for _ in range(reps):
        shared = rng.random(300) < 0.6
        x = np.where(rng.random(300) < 0.8, shared, rng.random(300) < 0.6).astype(float)
        y = np.where(rng.random(300) < 0.8, shared, rng.random(300) < 0.6).astype(float)
        rejections += paired_difference(x, y).p < 0.05
    assert 0.03 <= rejections / reps <= 0.07


def test_a_clean_sweep_pair_score_interval_does_not_collapse() -> None:
    """simple wins every deal pair from random: the pair score's interval is Wilson's, not [1, 1] (§7)."""
    from simgin.game.rules import Rules
    from simgin.running.runner import RunConfig, run
    from simgin.running.summary import pair_statistics

    result = run(RunConfig(("simple", "random"), Rules(), hands=60, seed=1), workers=1)
    paired = pair_statistics(result.tallies[0])
    assert paired["pair_score"] == 1.0
    assert paired["pair_score_high"] == 1.0
    assert paired["pair_score_low"] == pytest.approx(wilson_interval(30, 30)[0])

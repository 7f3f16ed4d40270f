"""``benchmarks.run_all --check`` catches figures stated in words that went stale (issue 32 item 21).

benchmarks/stated.py reads each figure the README and RESULTS.md state in prose and sets it against the figure
measured now. The measuring (minutes) is replaced by the figures the issue measured; the slow test plays the quick
start's tournament and checks the README's ratings against it.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
RESULTS = (ROOT / "benchmarks" / "RESULTS.md").read_text()


@pytest.fixture(scope="module")
def stated():
    return importlib.import_module("benchmarks.stated")


#: The README's figures of 2026-12-02, as issue 32 item 21 found them.
OLD_README = """first `simgin match simple simple --hands 1000` takes about 10 to 13 CPU seconds, where that
first match takes about 12, this tournament takes about 30 CPU seconds and the report 4 more. You will see `opponent`
about 200 Elo above `simple`, `heuristic` about 100 (it reads ...
`simple` vs `simple` about 140,000 hands per CPU second on one thread,
  `opponent` vs `simple` about 5,400), which fails ...
the example bot and the EAAI test player `TwinPlayer` each play about 850 to 950
hands per CPU-second"""
#: Its statement of the quick start's CPU seconds (as rewritten for today's check, with the first match's beside).
OLD_CPU = "where that\nfirst match takes about 12, this tournament takes about 30 CPU seconds and the report 4 more"


def test_about_and_ranges_say_how_far_a_figure_may_be(stated) -> None:
    assert stated.about(200, 181.3) and stated.about(100, 85.0)
    assert not stated.about(100, 75.7)  # the README's heuristic, on its own command
    assert stated.about_range(10, 13, 13.9) and stated.about_range(10, 13, 9.1)
    assert not stated.about_range(10, 13, 14.6)  # the first match on an empty cache, as the issue measured it
    assert not stated.about_range(10, 13, 8.6)


def test_the_issues_stale_figures_are_caught(stated) -> None:
    """The README's figures of 2026-12-02 against the check table recorded the same day (first match 8.7 CPU s)."""
    verdicts = {v.statement: v for v in stated.headline_statements(OLD_README, RESULTS)}
    assert not verdicts["README: first match on an empty cache, CPU s"].holds
    assert verdicts["README: simple vs simple, hands per CPU s"].holds  # 140,000 against 151,411: about
    played = {"ratings": {"simple": 0.0, "heuristic": 75.7, "opponent": 181.3}}
    verdicts = stated.quick_start_statements(OLD_README, lambda: played | QUIET)
    assert [v.holds for v in verdicts] == [True, False, True, True]
    assert "heuristic above simple" in verdicts[1].line() and verdicts[1].line().endswith("STALE")


#: The quick start's CPU seconds as ci92 measured them on a quiet 2-core AMD EPYC (2026-12-06), and as ci94 did on
#: the same kind of machine while other work slowed it (every CPU second about 1.5 times as long).
QUIET = {"first_match_cpu": 17.6, "tournament_cpu": 50.3, "report_cpu": 5.7}
BUSY = {"first_match_cpu": 27.5, "tournament_cpu": 67.6, "report_cpu": 8.5}


def test_the_quick_starts_cpu_seconds_are_held_as_multiples_of_the_first_match(stated) -> None:
    """A busy machine failed the check (ci94, ci95) though the code was that of a green run (ci92): the quick start's
    CPU seconds are held to the text as multiples of the first match timed beside them, so a machine that slows
    both passes, and a tournament or report that grew against the first match still fails."""
    text = "where that first match takes about 17, this tournament takes about 50 CPU seconds and the report 5.5 more"
    readme = OLD_README.replace(OLD_CPU, text)
    ratings = {"ratings": {"simple": 0.0, "heuristic": 130.0, "opponent": 170.0}}
    for measured in (QUIET, BUSY):
        verdicts = stated.quick_start_statements(readme, lambda measured=measured: ratings | measured)
        assert [v.holds for v in verdicts[2:]] == [True, True], [v.line() for v in verdicts]
    assert "(2.94 first matches of 17)" in verdicts[2].line() and "(2.46 first matches of 27.5)" in verdicts[2].line()
    grown = BUSY | {"tournament_cpu": 27.5 * 2.94 * 1.45, "report_cpu": 27.5 * 5.5 / 17 * 1.45}
    verdicts = stated.quick_start_statements(readme, lambda: ratings | grown)
    assert [v.holds for v in verdicts[2:]] == [False, False]
    shrunk = QUIET | {"tournament_cpu": 17.6 * 2.94 * 0.55}
    assert not stated.quick_start_statements(readme, lambda: ratings | shrunk)[2].holds


def test_the_readme_agrees_with_the_recorded_figures(stated) -> None:
    """Today's text states what RESULTS.md records (the headline check holds the records to the measurements)."""
    verdicts = stated.headline_statements(README, RESULTS)
    assert len(verdicts) == 5 and all(v.holds for v in verdicts), verdicts


def test_a_figure_written_twice_must_agree(stated) -> None:
    """RESULTS.md's tune-rules skill row said 79.8 / 64.0 where the README said 80.0 / 63.2."""
    (verdict,) = stated.twice_written(README, RESULTS)
    assert verdict.holds, verdict.line()
    row = RESULTS.split("| skill (README) |", 1)[1].split("\n", 1)[0]
    # The row's found score (the first "| NN.N% (" cell), written 0.4 points lower, must be caught.
    changed = re.sub(r"\| (\d+\.\d)% \(", lambda m: f"| {float(m.group(1)) - 0.4:.1f}% (", row, count=1)
    assert changed != row
    old = RESULTS.replace(row, changed)
    assert not stated.twice_written(README, old)[0].holds


def test_every_headline_figure_must_be_recorded(stated) -> None:
    names = ["cold_start", "suite"]
    table = '<!-- check-data {"cold_start": {"value": 8.7, "reference": 0.4}} -->'
    (verdict,) = stated.recorded_figures(table, names)
    assert not verdict.holds and "missing suite" in verdict.line()
    full = '<!-- check-data {"cold_start": {"value": 8.7}, "suite": {"value": 140.0}} -->'
    assert stated.recorded_figures(full, names)[0].holds


def test_the_readme_still_states_every_figure_the_check_reads(stated) -> None:
    """The check fails with a line naming the statement when the text changes; today's text has them all."""
    for pattern in (
        stated.COLD,
        stated.QUICK_START_CPU,
        stated.ELO,
        stated.HANDS,
        stated.PROGRAMS,
        stated.SKILL_README,
    ):
        assert stated.find(pattern, README, "README.md")
    with pytest.raises(ValueError, match=r"README\.md no longer states"):
        stated.find(stated.ELO, README.replace("Elo above", "Elo over"), "README.md")


@pytest.mark.slow
def test_the_readmes_ratings_are_those_of_its_quick_start() -> None:
    """The quick start's tournament as written (same seed, any number of workers: the same ratings)."""
    import simgin

    module = importlib.import_module("benchmarks.stated")
    result = simgin.tournament(["simple", "greedy", "heuristic", "opponent"], games=200, rules="eaai")
    ratings = {row["player"]: row["rating"] for row in result.to_json()["ratings"]}
    played = {"ratings": ratings} | QUIET  # CPU seconds: the check measures them
    verdicts = module.quick_start_statements(README, lambda: played)
    assert all(v.holds for v in verdicts[:2]), [v.line() for v in verdicts[:2]]

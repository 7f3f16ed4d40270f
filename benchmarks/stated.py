"""The figures the README and RESULTS.md state in words, checked against what simgin measures (issue 32 item 21).

``python -m benchmarks.run_all --check`` runs this after the headline figures (benchmarks/headline.py). A figure
stated in prose goes stale silently: the README said "heuristic about 100 Elo above simple" when its own command
gave 75.7, and "about 10 to 13 CPU seconds" for a first match recorded at 8.7. Each statement below is read from
the text (whitespace folded, so line breaks do not matter) and set against the figure it states; the check fails,
naming the statement, the stated and the measured or recorded figure, when they disagree. "About N" holds within
:data:`ABOUT` (15%) of N, "about A to B" between A and B widened by :data:`RANGE_SLACK` (10%) at each end.

- Figures that are the same on every machine are measured here and held to the text: the quick start's ratings
  (its tournament as written, ``--games 200 --rules eaai``, seed 0; any number of workers gives the same).
- Figures of speed that the headline check records (the first match on an empty cache, ``simple`` and
  ``opponent`` hands per CPU second, the programs') are held to RESULTS.md's recorded figures, of the same
  machine and date as the text; the headline check holds those to what it measures.
- The quick start's CPU seconds (its tournament on an empty numba cache, then its report, the least of two
  drawings) are measured here as multiples of the first match on an empty cache, timed just before them, and held
  within :data:`QUICK_START_TOLERANCE` (40%) of the multiples the text states (the tournament's and the report's
  CPU seconds over the first match's, all three stated for one machine). The first match's own figure is held to
  RESULTS.md, and through it to the reference workload, by the headline check.
- Figures written twice must agree: the README's tune-rules skill example and RESULTS.md's row for it.
- RESULTS.md's check table records every headline figure, the test suite's included (``--check --suite
  --record`` records it).

``--quick`` skips the quick start's tournament (a smoke test).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from benchmarks.harness import RESULTS, ROOT, children_cpu
from benchmarks.headline import FIRST_MATCH

README = ROOT / "README.md"
#: How far "about N" may be from the figure measured: a share of N.
ABOUT = 0.15
#: How far outside "about A to B" the figure measured may lie: a share of A below, of B above.
RANGE_SLACK = 0.10
#: The quick start's tournament (README, "Quick start").
QUICK_START = ["tournament", "simple", "greedy", "heuristic", "opponent", "--games", "200", "--rules", "eaai"]


def folded(text: str) -> str:
    """``text`` with every run of whitespace one space, so a statement may break across lines."""
    return " ".join(text.split())


def number(text: str) -> float:
    return float(text.replace(",", ""))


@dataclass(frozen=True)
class Verdict:
    statement: str
    stated: str
    measured: str
    holds: bool

    def line(self) -> str:
        return f"{self.statement}: stated {self.stated}, found {self.measured}: {'ok' if self.holds else 'STALE'}"


def about(stated: float, measured: float) -> bool:
    """Whether "about ``stated``" describes ``measured`` (:data:`ABOUT`)."""
    return abs(measured - stated) <= ABOUT * abs(stated)


def about_range(low: float, high: float, measured: float) -> bool:
    """Whether "about ``low`` to ``high``" describes ``measured`` (:data:`RANGE_SLACK`)."""
    return low * (1 - RANGE_SLACK) <= measured <= high * (1 + RANGE_SLACK)


def find(pattern: str, text: str, where: str) -> tuple[str, ...]:
    """The groups of ``pattern`` in ``text`` (folded), or a ValueError naming the statement that is gone."""
    found = re.search(pattern, folded(text))
    if found is None:
        raise ValueError(f"{where} no longer states {pattern!r}: update benchmarks/stated.py with the text")
    return found.groups()


# -- the statements --------------------------------------------------------------------------------------------------

COLD = r"first `simgin match simple simple --hands 1000` takes about ([\d.]+)(?: to ([\d.]+))? CPU seconds"
#: The quick start's CPU seconds, with the first match's on the same machine.
QUICK_START_CPU = (
    r"where that first match takes about ([\d.]+), this tournament takes about ([\d.]+) CPU seconds and the report "
    r"([\d.]+) more"
)
#: How far the quick start's CPU seconds, as multiples of the first match's, may be from the text's multiples. Not
#: compared as measured: a machine shared with other work makes every CPU second longer (ci94 and ci95, 2026-12-06:
#: the tournament 67.6 and 75.5 CPU s, the report 8.5 and 7.9, against 47-50 and 5.2-5.7 on a quiet machine, yet
#: 2.5 and 2.9 first matches and 0.31 and 0.30 of one, as on the quiet one: 2.8-2.9 and 0.30-0.33). Nor through the
#: reference workload of benchmarks/headline.py: numba compiling keeps no fixed ratio to that pure-Python work
#: across machines (2026-12-04, a 2-core AMD EPYC of family 25 model 17: the reference 3.3 times as slow as on the
#: Xeon it was recorded on, the cold first match 2.4 times, the hand loop 1.1 times). The first match compiles as
#: the tournament does.
QUICK_START_TOLERANCE = 0.40
ELO = r"`opponent` about ([\d.]+) Elo above `simple`, `heuristic` about ([\d.]+)"
HANDS = r"`simple` vs `simple` about ([\d,]+) hands per CPU second on one thread, `opponent` vs `simple` about ([\d,]+)"
PROGRAMS = r"the example bot and the EAAI test player `TwinPlayer` each play about ([\d,]+) to ([\d,]+) hands per CPU"
SKILL_README = (
    r"opponent beats simple in ([\d.]+)% of games \(95% CI ([\d.]+)-([\d.]+)\) against ([\d.]+)% "
    r"\(([\d.]+)-([\d.]+)\) under the standard switches, a paired difference of \+([\d.]+) points "
    r"\(\+([\d.]+) to \+([\d.]+), p"
)
SKILL_RESULTS = (
    r"\| skill \(README\) \|[^|]*\|[^|]*\|[^|]*\| ([\d.]+)% \(([\d.]+)-([\d.]+)\) vs ([\d.]+)% \(([\d.]+)-([\d.]+)\), "
    r"\+([\d.]+) points \(\+([\d.]+) to \+([\d.]+)\)"
)


def recorded(results: str) -> dict[str, dict]:
    """The figures recorded in RESULTS.md's check table (its JSON line), by name, or {}."""
    found = re.search(r"<!-- check-data (\{.*?\}) -->", results)
    return json.loads(found.group(1)) if found else {}


def _stated(low: float, high: float | None, value: float) -> tuple[str, bool]:
    if high is None:
        return f"about {low:,g}", about(low, value)
    return f"about {low:,g} to {high:,g}", about_range(low, high, value)


def headline_statements(readme: str, results: str) -> list[Verdict]:
    """The README's speed figures against RESULTS.md's recorded ones (the machine and date the text names)."""
    data = recorded(results)
    low, high = find(COLD, readme, "README.md")
    simple, opponent = (number(x) for x in find(HANDS, readme, "README.md"))
    programs = [number(x) for x in find(PROGRAMS, readme, "README.md")]
    statements = [
        ("README: first match on an empty cache, CPU s", "cold_start", number(low), high and number(high)),
        ("README: simple vs simple, hands per CPU s", "simple_hands", simple, None),
        ("README: opponent vs simple, hands per CPU s", "opponent_hands", opponent, None),
        ("README: exec: example bot, hands per CPU s", "exec_hands", *programs),
        ("README: eaai: TwinPlayer, hands per CPU s", "eaai_hands", *programs),
    ]
    verdicts = []
    for statement, name, low_value, high_value in statements:
        if name not in data:
            continue  # recorded_figures() names it
        value = data[name]["value"]
        shown, holds = _stated(low_value, high_value, value)
        verdicts.append(Verdict(statement, shown, f"{value:,.1f} recorded in RESULTS.md", holds))
    return verdicts


def quick_start_statements(readme: str, play: Callable[[], dict]) -> list[Verdict]:
    """The quick start's figures from ``play()`` (:func:`play_quick_start`): its ratings, and the CPU seconds of its
    tournament and its report as multiples of the first match's, within :data:`QUICK_START_TOLERANCE` of the
    text's multiples."""
    first_stated, tournament_cpu, report_cpu = (number(x) for x in find(QUICK_START_CPU, readme, "README.md"))
    opponent, heuristic = (number(x) for x in find(ELO, readme, "README.md"))
    found = play()
    ratings = found["ratings"]
    verdicts = [
        Verdict(
            f"README: {name} above simple (the quick start's tournament)",
            f"about {stated:g} Elo",
            f"{ratings[name] - ratings['simple']:.1f}",
            about(stated, ratings[name] - ratings["simple"]),
        )
        for name, stated in (("opponent", opponent), ("heuristic", heuristic))
    ]
    first = found["first_match_cpu"]
    for statement, stated, value in (
        ("README: the quick start's tournament on an empty cache, CPU s", tournament_cpu, found["tournament_cpu"]),
        ("README: its report, CPU s", report_cpu, found["report_cpu"]),
    ):
        stated_ratio, ratio = stated / first_stated, value / first
        holds = abs(ratio - stated_ratio) <= QUICK_START_TOLERANCE * stated_ratio
        verdicts.append(
            Verdict(
                statement,
                f"about {stated:g} ({stated_ratio:.2f} first matches of {first_stated:g})",
                f"{value:.1f} here ({ratio:.2f} first matches of {first:.1f})",
                holds,
            )
        )
    return verdicts


def twice_written(readme: str, results: str) -> list[Verdict]:
    """Figures written in both files: the README's tune-rules skill example and RESULTS.md's row for it."""
    said = find(SKILL_README, readme, "README.md")
    row = find(SKILL_RESULTS, results, "benchmarks/RESULTS.md")
    shown = "{}% ({}-{}) vs {}% ({}-{}), +{} points (+{} to +{})"
    return [
        Verdict("README's tune-rules skill figures in RESULTS.md", shown.format(*said), shown.format(*row), said == row)
    ]


def recorded_figures(results: str, names: list[str]) -> list[Verdict]:
    """Every headline figure has a recorded value in RESULTS.md's check table (the suite's included)."""
    data = recorded(results)
    missing = [name for name in names if name not in data]
    fix = "python -m benchmarks.run_all --check --suite --record"
    return [
        Verdict(
            "RESULTS.md's check table",
            "every headline figure",
            f"missing {', '.join(missing)} ({fix})" if missing else f"{len(data)} figures recorded",
            not missing,
        )
    ]


# -- the measuring ---------------------------------------------------------------------------------------------------


#: The report is the same work each time it is drawn again, so it is timed this many times and the least CPU
#: time counts: a machine shared with other work inflates a single reading (ci89 and ci93, 2026-12-06: 7.9 and
#: 7.6 CPU s while the reference workload ran 1.6 times as slow as usual, against 4.6-5.7 on a quiet machine).
REPORT_RUNS = 2


def play_quick_start() -> dict:
    """The first match on an empty numba cache, then the quick start as written on another: the first match's CPU
    seconds, the tournament's ratings (Elo, by player) and CPU seconds, and the CPU seconds of its report (process
    trees, as the README counts them; the least of :data:`REPORT_RUNS` drawings)."""
    simgin = [sys.executable, "-m", "simgin"]

    def cpu_of(args: list[str], env: dict[str, str]) -> tuple[float, str]:
        start = children_cpu()
        done = subprocess.run([*simgin, *args], env=env, cwd=ROOT, capture_output=True, text=True, check=True)
        return children_cpu() - start, done.stdout

    with tempfile.TemporaryDirectory(prefix="simgin-stated-") as folder:
        first_env = {**os.environ, "NUMBA_CACHE_DIR": str(Path(folder) / "first")}
        first_match_cpu, _ = cpu_of([*FIRST_MATCH, "--quiet"], first_env)
        env = {**os.environ, "NUMBA_CACHE_DIR": str(Path(folder) / "cache")}
        out = Path(folder) / "demo"
        tournament_cpu, played = cpu_of([*QUICK_START, "--out", str(out), "--json", "--quiet"], env)
        report_cpu = min(
            cpu_of(["report", str(out), "-o", str(out / "report.html")], env)[0] for _ in range(REPORT_RUNS)
        )
    ratings = {row["player"]: row["rating"] for row in json.loads(played)["ratings"]}
    return {
        "ratings": ratings,
        "first_match_cpu": first_match_cpu,
        "tournament_cpu": tournament_cpu,
        "report_cpu": report_cpu,
    }


def check(figure_names: list[str], quick: bool = False) -> int:
    """Print one line per statement; 1 when one is stale (or gone from the text), else 0. ``figure_names`` are the
    headline figures."""
    readme, results = README.read_text(), RESULTS.read_text()
    print("figures stated in words (README.md, RESULTS.md):", flush=True)
    try:
        verdicts = headline_statements(readme, results) + twice_written(readme, results)
        verdicts += recorded_figures(results, figure_names)
        if quick:
            print("  the quick start's tournament: skipped (--quick)")
        else:
            found = play_quick_start()
            verdicts += quick_start_statements(readme, lambda: found)
    except ValueError as error:
        print(f"  {error}")
        return 1
    for verdict in verdicts:
        print(f"  {verdict.line()}")
    stale = [v for v in verdicts if not v.holds]
    if stale:
        print(f"check failed: {len(stale)} stated figure(s) no longer match")
        return 1
    print(f"check passed: {len(verdicts)} stated figures match")
    return 0

"""The figures the README and RESULTS.md state in words, checked against what simgin measures (issue 32 item 21).

``python benchmarks/run_all.py --check`` runs this after the headline figures (benchmarks/headline.py). A figure
stated in prose goes stale silently: the README said "heuristic about 100 Elo above simple" when its own command
gave 75.7, and "about 10 to 13 CPU seconds" for a first match that took 14.6. Each statement below is read from
the text (whitespace folded, so line breaks do not matter), set against the figure measured now, and the check
fails, naming the statement, the stated and the measured figure, when they disagree:

- "about N" holds when the measured figure is within :data:`ABOUT` (15%) of N; "about A to B" when it lies
  between A and B widened by :data:`RANGE_SLACK` (10%) at each end. A figure that is the same on every machine
  (a rating from a fixed seed) is the measured one, within the same slack.
- The quick start's tournament is played as written (``--games 200 --rules eaai``, every core) on an empty numba
  cache: its ratings, its CPU seconds and those of its report. The cold start, ``simple`` and ``opponent`` hands
  per CPU second and the programs' are the headline check's own measurements (:data:`headline.LAST_MEASURED`).
- Figures written twice must agree: the README's tune-rules skill example and RESULTS.md's row for it.
- RESULTS.md's check table records every headline figure, the test suite's included (``--check --suite
  --record`` records it).

``--quick`` skips what needs the tournament (a smoke test).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
README = ROOT / "README.md"
RESULTS = HERE / "RESULTS.md"
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
        return f"{self.statement}: stated {self.stated}, measured {self.measured}: {'ok' if self.holds else 'STALE'}"


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

COLD = (
    r"first `simgin match simple simple --hands 1000` takes about ([\d.]+) to ([\d.]+) CPU seconds, this "
    r"tournament about ([\d.]+) CPU seconds and the report ([\d.]+) more"
)
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


def headline_statements(readme: str, measured: dict[str, tuple[float, str]]) -> list[Verdict]:
    """The README's figures that the headline check measures (those it measured this time)."""
    verdicts = []
    low, high, _, _ = (number(x) for x in find(COLD, readme, "README.md"))
    if "cold_start" in measured:
        value = measured["cold_start"][0]
        verdicts.append(
            Verdict(
                "README: first match on an empty cache",
                f"{low:g} to {high:g} CPU s",
                f"{value:.1f}",
                about_range(low, high, value),
            )
        )
    simple, opponent = (number(x) for x in find(HANDS, readme, "README.md"))
    for name, stated in (("simple_hands", simple), ("opponent_hands", opponent)):
        if name in measured:
            value = measured[name][0]
            verdicts.append(
                Verdict(
                    f"README: {name.replace('_', ' ')} per CPU second",
                    f"about {stated:,.0f}",
                    f"{value:,.0f}",
                    about(stated, value),
                )
            )
    low, high = (number(x) for x in find(PROGRAMS, readme, "README.md"))
    for name in ("exec_hands", "eaai_hands"):
        if name in measured:
            value = measured[name][0]
            verdicts.append(
                Verdict(
                    f"README: {name.replace('_', ' ')} per CPU second",
                    f"{low:,.0f} to {high:,.0f}",
                    f"{value:,.0f}",
                    about_range(low, high, value),
                )
            )
    return verdicts


def quick_start_statements(readme: str, play: Callable[[], dict]) -> list[Verdict]:
    """The quick start's figures: its tournament's ratings and CPU seconds, and its report's, from ``play()``
    (:func:`play_quick_start`)."""
    _, _, tournament_cpu, report_cpu = (number(x) for x in find(COLD, readme, "README.md"))
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
    verdicts.append(
        Verdict(
            "README: the quick start's tournament on an empty cache",
            f"about {tournament_cpu:g} CPU s",
            f"{found['tournament_cpu']:.1f}",
            about(tournament_cpu, found["tournament_cpu"]),
        )
    )
    verdicts.append(
        Verdict(
            "README: its report",
            f"about {report_cpu:g} CPU s",
            f"{found['report_cpu']:.1f}",
            about(report_cpu, found["report_cpu"]),
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
    found = re.search(r"<!-- check-data (\{.*?\}) -->", results)
    data = json.loads(found.group(1)) if found else {}
    missing = [name for name in names if name not in data]
    return [
        Verdict(
            "RESULTS.md's check table",
            f"{len(data)} figures recorded",
            f"missing {', '.join(missing)} (python benchmarks/run_all.py --check --suite --record)"
            if missing
            else "every figure",
            not missing,
        )
    ]


# -- the measuring ---------------------------------------------------------------------------------------------------


def _children_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def play_quick_start() -> dict:
    """The quick start as written, on a new empty numba cache: the tournament's ratings (Elo, by player) and CPU
    seconds, and the CPU seconds of its report (process trees, as the README counts them)."""
    simgin = [sys.executable, "-m", "simgin"]
    with tempfile.TemporaryDirectory(prefix="simgin-stated-") as folder:
        env = {**os.environ, "NUMBA_CACHE_DIR": str(Path(folder) / "cache")}
        out = Path(folder) / "demo"
        start = _children_cpu()
        played = subprocess.run(
            [*simgin, *QUICK_START, "--out", str(out), "--json", "--quiet"],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        )
        tournament_cpu = _children_cpu() - start
        start = _children_cpu()
        subprocess.run(
            [*simgin, "report", str(out), "-o", str(out / "report.html")],
            env=env,
            cwd=ROOT,
            capture_output=True,
            check=True,
        )
        report_cpu = _children_cpu() - start
    data = json.loads(played.stdout)
    ratings = {row["player"]: row["rating"] for row in data["ratings"]}
    return {"ratings": ratings, "tournament_cpu": tournament_cpu, "report_cpu": report_cpu}


def check(measured: dict[str, tuple[float, str]], figure_names: list[str], quick: bool = False) -> int:
    """Print one line per statement; 1 when one is stale (or gone from the text), else 0."""
    readme, results = README.read_text(), RESULTS.read_text()
    print("figures stated in words (README.md, RESULTS.md):", flush=True)
    try:
        verdicts = headline_statements(readme, measured) + twice_written(readme, results)
        verdicts += recorded_figures(results, figure_names)
        if quick:
            print("  the quick start's tournament: skipped (--quick)")
        else:
            start = time.perf_counter()
            verdicts += quick_start_statements(readme, play_quick_start)
            print(f"  (the quick start played in {time.perf_counter() - start:.0f} s)")
    except ValueError as error:
        print(f"  {error}")
        return 1
    for verdict in verdicts:
        print(f"  {verdict.line()}")
    stale = [v for v in verdicts if not v.holds]
    if stale:
        print(f"check failed: {len(stale)} stated figure(s) no longer match what simgin measures")
        return 1
    print(f"check passed: {len(verdicts)} stated figures match")
    return 0

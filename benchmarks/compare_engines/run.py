"""The whole comparison in one run, and its section of RESULTS.md."""

from __future__ import annotations

import dataclasses
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import benchmarks.compare_engines as package
from benchmarks import harness
from benchmarks.compare_engines import crossval
from benchmarks.compare_engines.common import (
    FIGURE_NAME,
    HEADING,
    QUICK,
    SEED,
    Sizes,
)
from benchmarks.compare_engines.figure import build_figure
from benchmarks.compare_engines.outcomes import (
    measure_outcomes,
    openspiel_scripted_tie,
    outcomes_markdown,
    rules_markdown,
)
from benchmarks.compare_engines.scaling import measure_scaling, scaling_markdown
from benchmarks.compare_engines.speed import measure_speed, speed_markdown


def header_lines(run_text: str, command: str) -> list[str]:
    return [
        f"Written by `{command}`; every figure below was measured on this machine in that one run ({run_text}).",
        "",
        f"- Measured {harness.machine()}",
        f"- open-spiel {crossval.package_version('open-spiel')}, rlcard {crossval.package_version('rlcard')} "
        "(`pip install open-spiel rlcard`, or the `compare` extra)",
        f"- Max resident memory of this run's own process: "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MB",
    ]


def main(argv: list[str] | None = None) -> None:
    parser = harness.parser(package.__doc__, quick="tiny samples (a smoke test); writes only with --output")
    parser.add_argument(
        "--output", type=Path, default=None, help="file to write the section into (with --write: RESULTS.md)"
    )
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--runs", type=int, default=None, help="timed runs per speed measurement (default 5)")
    parser.add_argument(
        "--wait-quiet", type=float, default=120.0, help="seconds to wait at most for other processes to go idle"
    )
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else Sizes()
    if args.runs is not None:
        sizes = dataclasses.replace(sizes, runs=args.runs)
    output = args.output or (harness.RESULTS if args.write and not args.quick else None)
    adapters, missing = crossval.available_adapters()
    if missing:
        raise harness.Skip(f"needs OpenSpiel and RLCard: pip install open-spiel rlcard (missing: {'; '.join(missing)})")

    waited = time.perf_counter()
    quiet = harness.wait_for_quiet(args.wait_quiet)
    print(f"machine: {quiet}", file=sys.stderr)
    start = time.perf_counter()
    phases: dict[str, float] = {}

    def timed(name: str, call: Callable[[], Any]) -> Any:
        begin = time.perf_counter()
        result = call()
        phases[name] = time.perf_counter() - begin
        return result

    cases = timed("speed", lambda: measure_speed(sizes, args.seed))
    speed_text, summary = speed_markdown(cases, sizes.runs)
    scaling = timed("cost as the work grows", lambda: measure_scaling(sizes, args.seed))
    print("cross-validating deadwood ...", file=sys.stderr)
    checks = timed(
        "cross-validation",
        lambda: crossval.cross_validate(adapters, sizes.crossval_uniform, sizes.crossval_dense, args.seed),
    )
    tallies = timed("outcome mix", lambda: measure_outcomes(sizes, args.seed))
    tie = openspiel_scripted_tie()
    elapsed = time.perf_counter() - start
    phases_text = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in phases.items())
    run_text = f"{elapsed:.0f} s: {phases_text}; before it, {start - waited:.0f} s waiting for a quiet machine, {quiet}"

    command = harness.command("compare_engines", ["--quick"] if args.quick else ["--write"])
    figure_note = f"![simgin vs OpenSpiel and RLCard: speed, cost against hands, memory]({FIGURE_NAME}.png)"
    hands_total = 2 * sizes.crossval_uniform + 2 * sizes.crossval_dense
    body = "\n".join(
        [
            *header_lines(run_text, command),
            "",
            figure_note,
            "",
            f"({FIGURE_NAME}.svg has the same figure as vector graphics.)",
            "",
            "### Speed",
            "",
            speed_text,
            "",
            "### Cost as the work grows",
            "",
            scaling_markdown(scaling, args.seed),
            "",
            "### Cross-validation of deadwood",
            "",
            f"{hands_total:,} hands per engine: {sizes.crossval_uniform:,} uniform random hands of 10 cards and "
            f"as many of 11 cards (from a shuffled deck), plus {sizes.crossval_dense:,} dense hands of each size "
            f"(cards from {crossval.DENSE_RANK_WINDOW} consecutive ranks: several overlapping melds per hand), "
            f"seed {args.seed}. The 11-card best discard of OpenSpiel and RLCard is computed exactly from their "
            "10-card function (the minimum over the 11 discards); their own 11-card functions are checked "
            "too. Every disagreement is printed by the run with the rule book's answer (the brute force of "
            "`tests/reference.py`); the first few of each check are below. Card encodings were mapped from "
            "each engine's source (see `benchmarks/compare_crossval.py`) and checked against its own card "
            "names for all 52 cards.",
            "",
            crossval.markdown(checks),
            "",
            "### Rules that differ, checked in the source and in play",
            "",
            rules_markdown(tallies, checks, tie),
            "",
            "### Outcome mix of the simple bots",
            "",
            outcomes_markdown(tallies),
        ]
    )
    if output is None:
        print(body)
        return
    figure = build_figure(summary, scaling)
    for suffix in ("png", "svg"):
        figure.savefig(output.parent / f"{FIGURE_NAME}.{suffix}", dpi=110)
    harness.write_section("compare", HEADING, body, output)
    print(f"wrote {output} and {output.parent / FIGURE_NAME}.png/.svg", file=sys.stderr)


if __name__ == "__main__":
    main()

"""Every benchmark of simgin, one after another: the suite (issue 33 item 3).

Run from the repository root::

    python -m benchmarks.run_all --quick     # every benchmark on small samples, writing nothing: a smoke
                                             # test of the whole suite (a few minutes)
    python -m benchmarks.run_all --write     # every benchmark in full, each writing its section of
                                             # RESULTS.md (hours: bench_strategies alone takes about one)
    python -m benchmarks.run_all --only bench_melds,bench_engine --write   # some of them
    python -m benchmarks.run_all --check     # a few minutes: re-measures the headline figures (cold start,
                                             # hands/s of simple, opponent, exec:, eaai:) and exits 1 if one is
                                             # > 30% worse than recorded in RESULTS.md, or if a figure the README
                                             # or RESULTS.md states in words no longer matches
                                             # (benchmarks.headline, benchmarks.stated)
    python -m benchmarks.run_all --check --suite     # ... and the test suite (several minutes)
    python -m benchmarks.run_all --check --record    # write the figures measured into RESULTS.md
    python -m benchmarks.run_all --check --only exec_hands,eaai_hands --record   # only those figures

Each benchmark is a module of this package with ``main(argv)`` and the common flags of
:func:`benchmarks.harness.parser` (``--quick``, and ``--write`` where it has a section); each also runs alone
(``python -m benchmarks.NAME``), with the command its section names. A benchmark that needs software this
machine lacks (Java for the EAAI players, OpenSpiel and RLCard for the comparison) is reported as skipped,
with what it needs. The whole run's summary (what ran, how long, what was skipped or failed) is printed and,
with ``--write``, written into the ``suite`` section of RESULTS.md.
"""

from __future__ import annotations

import argparse
import importlib
import io
import sys
import time
import traceback
from contextlib import nullcontext, redirect_stdout
from dataclasses import dataclass

from benchmarks import harness


@dataclass(frozen=True)
class Benchmark:
    """One module of the suite: what it measures, whether it writes a section, what a full run adds."""

    module: str
    what: str
    writes: bool = True
    full: tuple[str, ...] = ()


#: Every benchmark, in the order a full run takes them (the quick ones first).
SUITE = (
    Benchmark("bench_melds", "minimum-deadwood evaluations per second: a naive meld scan against the kernels"),
    Benchmark("bench_engine", "full hands and games per second of the compiled bots, one core and all; cold start"),
    Benchmark("ab_hands", "a fixed hand-loop workload for before/after timings", writes=False),
    Benchmark("bench_compile", "where numba compile time goes: the first match on an empty cache", writes=False),
    Benchmark("profile_kernels", "where compiled code spends its time: numba functions by their perf samples", False),
    Benchmark("headline", "the headline figures against RESULTS.md, and the figures stated in words"),
    Benchmark("bench_programs", "exec: and eaai: players: hands per second against simple"),
    Benchmark("bench_runner", "the runner through the CLI: a 1M-hand match, memory as the hands grow"),
    Benchmark("bench_sweep", "a 4-cell x 3-player variant sweep through the CLI, against its 3-minute goal"),
    Benchmark("null_rejection", "how often a variant study calls a true null significant"),
    Benchmark("rating_coverage", "coverage of the tournament's 95% rating intervals over seeded round robins"),
    Benchmark("bench_tune", "simgin tune at its default budget through the CLI, against its goals"),
    Benchmark("bench_analysis", "simgin analyse: its speed, and the ladder of bots ranked by loss per decision"),
    Benchmark("analysis_ladder", "the analysis ladder on common positions: every bot's choice at the same decisions"),
    Benchmark("knock_calibration", "the evaluator's knock valuations set beside the same choices played both ways"),
    Benchmark("world_calibration", "the evaluator's drawn hands for the other set beside the hands it really held"),
    Benchmark("bench_luck", "luck-adjusted results: variance ratios, their cost, and hands to separate two bots"),
    Benchmark("luck_oracle", "what limits the luck adjustment: the shipped value function against a playout oracle"),
    Benchmark("bench_env", "the RL environments: steps per second beside PettingZoo, RLCard and OpenSpiel"),
    Benchmark("compare_engines", "simgin side by side with OpenSpiel and RLCard: speed, cost, deadwood, rules"),
    Benchmark("bench_eaai_entries", "simgin's bots against EAAI entries (Java programs fetched by hand)"),
    Benchmark("bench_strategies", "strength under every preset: round robins, ratings, the robustness sweep"),
)

#: The modules of the package that are not benchmarks.
HELPERS = frozenset({"harness", "run_all", "stated"})


@dataclass
class Outcome:
    benchmark: Benchmark
    status: str  # "ran", "skipped" or "failed"
    seconds: float
    detail: str = ""


def run_one(benchmark: Benchmark, quick: bool, write: bool, quiet: bool = False) -> Outcome:
    """Run ``benchmark``'s ``main`` with the suite's flags; its output goes to stdout (or nowhere, ``quiet``)."""
    argv = ["--quick"] if quick else [*benchmark.full, *(["--write"] if write and benchmark.writes else [])]
    start = time.perf_counter()
    try:
        module = importlib.import_module(f"benchmarks.{benchmark.module}")
        with redirect_stdout(io.StringIO()) if quiet else nullcontext():
            module.main(argv)
    except harness.Skip as skip:
        return Outcome(benchmark, "skipped", time.perf_counter() - start, str(skip.code))
    except SystemExit as stop:  # a benchmark that found a problem (a failed check, a failed command)
        if stop.code in (0, None):
            return Outcome(benchmark, "ran", time.perf_counter() - start)
        return Outcome(benchmark, "failed", time.perf_counter() - start, str(stop.code))
    except Exception as error:
        traceback.print_exc()
        return Outcome(benchmark, "failed", time.perf_counter() - start, f"{type(error).__name__}: {error}")
    return Outcome(benchmark, "ran", time.perf_counter() - start)


def summary(outcomes: list[Outcome], quick: bool) -> str:
    command = harness.command("run_all", ["--quick"] if quick else ["--write"])
    lines = [
        f"Written by `{command}`; measured {harness.machine()}.",
        "",
        "| benchmark | what it measures | status | seconds |",
        "|---|---|---|---:|",
    ]
    for outcome in outcomes:
        status = outcome.status + (f": {outcome.detail}" if outcome.detail else "")
        lines.append(f"| `{outcome.benchmark.module}` | {outcome.benchmark.what} | {status} | {outcome.seconds:,.0f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="every benchmark on small samples, writing nothing")
    parser.add_argument("--write", action="store_true", help="each benchmark writes its section of RESULTS.md")
    parser.add_argument(
        "--only",
        default=None,
        help="run only these benchmarks, comma-separated (with --check: these headline figures)",
    )
    parser.add_argument("--check", action="store_true", help="the headline check (benchmarks.headline)")
    parser.add_argument("--suite", action="store_true", help="with --check: also the test suite (several minutes)")
    parser.add_argument("--record", action="store_true", help="with --check: write the figures into RESULTS.md")
    args = parser.parse_args(argv)
    if (args.suite or args.record) and not args.check:
        parser.error("--suite and --record go with --check")
    if args.check:
        from benchmarks import headline

        check_argv = ["--quick"] * args.quick + ["--suite"] * args.suite + ["--write"] * args.record
        headline.main(check_argv + (["--only", args.only] if args.only else []))
        return
    if args.quick and args.write:
        parser.error("--quick writes nothing: drop --write, or --quick for the full run")
    chosen = list(SUITE)
    if args.only:
        names = [name.strip() for name in args.only.split(",") if name.strip()]
        known = {benchmark.module: benchmark for benchmark in SUITE}
        if unknown := sorted(set(names) - set(known)):
            parser.error(f"--only: unknown benchmark {', '.join(unknown)}; choose from {', '.join(known)}")
        chosen = [known[name] for name in names]
    outcomes = []
    for benchmark in chosen:
        print(f"== {benchmark.module}: {benchmark.what}", flush=True)
        outcomes.append(run_one(benchmark, args.quick, args.write))
        outcome = outcomes[-1]
        print(f"== {benchmark.module}: {outcome.status} in {outcome.seconds:,.0f} s {outcome.detail}", flush=True)
    text = summary(outcomes, args.quick)
    print()
    print(text)
    if args.write and not args.only:
        print(f"wrote {harness.write_section('suite', 'The suite, last full run', text)}")
    if any(outcome.status == "failed" for outcome in outcomes):
        sys.exit(1)


if __name__ == "__main__":
    main()

"""Run every benchmark and rewrite benchmarks/RESULTS.md.

Run from the repository root::

    python benchmarks/run_all.py            # the full run (a few minutes), writes RESULTS.md
    python benchmarks/run_all.py --quick    # a smoke test: small samples, writes nothing
                                            # unless --output is given
    python benchmarks/run_all.py --check    # a few minutes: re-measures the headline figures
                                            # (cold start, hands/s of simple, opponent, exec:,
                                            # eaai:) and exits 1 if one is > 30% worse than
                                            # recorded in RESULTS.md (benchmarks/headline.py),
                                            # or if a figure the README or RESULTS.md states
                                            # in words no longer matches (benchmarks/stated.py)
    python benchmarks/run_all.py --check --suite    # ... and the test suite (several minutes)
    python benchmarks/run_all.py --check --record   # write the figures measured into RESULTS.md
    python benchmarks/run_all.py --check --only exec_hands,eaai_hands --record
                                            # measure and record only those figures

Each table is also produced on its own by the command written above it in RESULTS.md.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numba
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_engine  # noqa: E402  (a sibling script, found through the path set just above)
import bench_melds  # noqa: E402
import headline  # noqa: E402
import stated  # noqa: E402
import timing  # noqa: E402

DEFAULT_OUTPUT = HERE / "RESULTS.md"


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (with family and model numbers when given)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return platform.processor() or "unknown"
    fields: dict[str, str] = {}
    for line in text.splitlines():
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), value.strip())
    name = fields.get("model name", "unknown")
    if "cpu family" in fields and "model" in fields:
        name += f" (family {fields['cpu family']}, model {fields['model']})"
    return name


def core_count() -> str:
    """``nproc``: the processors this process may run on."""
    if shutil.which("nproc"):
        return subprocess.run(["nproc"], capture_output=True, text=True, check=True).stdout.strip()
    return str(len(os.sched_getaffinity(0)))


def git_revision() -> str:
    """The checked-out commit, marked when the working tree has uncommitted changes."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain"], cwd=HERE.parent, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{commit} (with uncommitted changes)" if dirty else commit


def machine_lines() -> list[str]:
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    return [
        f"- Date: {datetime.datetime.now(datetime.UTC).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- Machine: `nproc` = {core_count()} cores; CPU: {cpu_model()}; {platform.system()} {platform.release()}",
        f"- Python {platform.python_version()}, numba {numba.__version__}, numpy {np.__version__}; "
        f"numba threads: {numba.config.NUMBA_NUM_THREADS}",
        f"- simgin revision: {git_revision()}",
        f"- Load average (1, 5, 15 min) at the start: {load}",
    ]


def wait_for_quiet(limit: float, window: float = 5.0, threshold: float = 0.2) -> str:
    """Wait (up to ``limit`` seconds) for a ``window`` in which other processes use under ``threshold`` cores."""
    deadline = time.monotonic() + limit
    while True:
        busy, own = timing.cpu_seconds()
        time.sleep(window)
        busy_after, own_after = timing.cpu_seconds()
        other = max(0.0, (busy_after - busy) - (own_after - own)) / window
        if other < threshold:
            return f"quiet ({other:.2f} cores used by other processes over {window:.0f} s)"
        if time.monotonic() >= deadline:
            return f"busy ({other:.2f} cores used by other processes; gave up waiting after {limit:.0f} s)"
        print(f"waiting for a quiet machine: other processes use {other:.2f} cores ...", file=sys.stderr)


def _command(script: str, argv: list[str]) -> str:
    return " ".join(["python", f"benchmarks/{script}", *argv])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small samples and few runs (a smoke test)")
    parser.add_argument("--output", type=Path, default=None, help=f"where to write (default {DEFAULT_OUTPUT})")
    parser.add_argument(
        "--wait-quiet", type=float, default=120.0, help="seconds to wait at most for other processes to go idle"
    )
    parser.add_argument(
        "--check", action="store_true", help="re-measure the headline figures and compare them with RESULTS.md"
    )
    parser.add_argument("--suite", action="store_true", help="with --check: also the test suite (several minutes)")
    parser.add_argument("--record", action="store_true", help="with --check: write the figures into RESULTS.md")
    parser.add_argument(
        "--only",
        default=None,
        help=f"with --check: measure (and record) only these figures, comma-separated: {', '.join(headline.FIGURES)}",
    )
    args = parser.parse_args(argv)
    if (args.suite or args.record or args.only) and not args.check:
        parser.error("--suite, --record and --only go with --check")
    only = [name.strip() for name in args.only.split(",") if name.strip()] if args.only else None
    if only and (unknown := sorted(set(only) - set(headline.FIGURES))):
        parser.error(f"--only: unknown figure {', '.join(unknown)}; choose from {', '.join(headline.FIGURES)}")
    if args.check:
        machine = f"{datetime.datetime.now(datetime.UTC).strftime('%Y-%m-%d %H:%M UTC')}, `nproc` = {core_count()}"
        machine += f" cores, {cpu_model()}, load average {', '.join(f'{v:.2f}' for v in os.getloadavg())}"
        print(f"check: {machine}; simgin revision {git_revision()}", flush=True)
        status = headline.check(quick=args.quick, with_suite=args.suite, record=args.record, machine=machine, only=only)
        # The figures the README and RESULTS.md state in words, against those just measured (issue 32 item 21).
        status = max(status, stated.check(list(headline.FIGURES), headline.reference_seconds, quick=args.quick))
        sys.exit(status)
    output = args.output or (None if args.quick else DEFAULT_OUTPUT)
    extra = ["--quick"] if args.quick else []

    header = machine_lines()
    header.append(f"- Machine at the start: {wait_for_quiet(args.wait_quiet)}")
    start = time.perf_counter()
    melds_table, melds_goals = bench_melds.run(extra)
    engine_table, engine_goals = bench_engine.run(extra)
    elapsed = time.perf_counter() - start
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    header += [
        f"- Load average at the end: {load}",
        f"- numba threading layer: {numba.threading_layer()}",
    ]

    text = "\n".join(
        [
            "# simgin benchmarks",
            "",
            f"Written by `{_command('run_all.py', extra)}` (the whole run took {elapsed:.0f} s). "
            "Rates are medians of repeated runs, compile time excluded; the min-max spread is in "
            "brackets. The machine may be shared, so see the load average.",
            "",
            *header,
            "",
            "## Goals",
            "",
            *(f"- {line}" for line in melds_goals + engine_goals),
            "",
            "## Minimum deadwood: naive meld scan vs simgin",
            "",
            f"Reproduce: `{_command('bench_melds.py', extra)}`",
            "",
            melds_table,
            "",
            "## Full hands and games (compiled bots, standard rules)",
            "",
            f"Reproduce: `{_command('bench_engine.py', extra)}`",
            "",
            engine_table,
            "",
        ]
    )
    if output is None:
        print(text)
    else:
        output.write_text(text + _kept_sections(output))
        print(f"wrote {output}", file=sys.stderr)


def _kept_sections(output: Path) -> str:
    """Sections other scripts maintain between ``<!-- name:start -->`` and ``<!-- name:end -->`` markers."""
    if not output.exists():
        return ""
    old = output.read_text()
    kept = []
    for match in re.finditer(r"(?ms)^## [^\n]*\n+<!-- (\w+):start -->.*?<!-- \1:end -->\n?", old):
        kept.append(match.group(0))
    return "\n" + "\n".join(kept) if kept else ""


if __name__ == "__main__":
    main()

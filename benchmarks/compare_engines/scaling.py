"""2. Cost as the work grows: a fresh ``simgin match`` per size, its wall time and memory."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from benchmarks import bench_engine, harness
from benchmarks.compare_engines.common import (
    POLL_SECONDS,
    SCALING_REDO_UP_TO,
    SCALING_WAIT_FROM,
    SCALING_WAIT_SECONDS,
    Sizes,
)

# -- 2. cost as the work grows -----------------------------------------------------------------


def tree_memory(pid: int) -> dict[int, tuple[int, int]]:
    """``{pid: (resident bytes, peak resident bytes)}`` for a process and all its descendants, from /proc."""
    found: dict[int, tuple[int, int]] = {}
    for current in harness.process_tree(pid):
        fields: dict[str, int] = {}
        try:
            with open(f"/proc/{current}/status") as status:
                for line in status:
                    key, _, value = line.partition(":")
                    if key in ("VmRSS", "VmHWM"):
                        fields[key] = int(value.split()[0]) * 1024
        except OSError:
            continue
        if fields:
            found[current] = (fields.get("VmRSS", 0), fields.get("VmHWM", 0))
    return found


@dataclasses.dataclass
class Measured:
    """One command run: wall seconds, memory, CPU of the command and of other processes, its output."""

    seconds: float
    peak_tree_rss: int
    max_process_hwm: int
    cpu_seconds: float
    other_load: float
    stdout: str


def run_measured(command: Sequence[str], env: dict[str, str] | None = None) -> Measured:
    """Run a command, sampling the memory of its process tree every ``POLL_SECONDS``.

    Memory: the largest sum of the tree's resident memory seen, and the largest peak (VmHWM)
    of any one of its processes (exact, and unlike ``ru_maxrss`` not inflated by the fork from
    this big process before the command's exec). CPU: the command's with its workers (from
    ``wait4``), and the cores other processes used meanwhile (from /proc/stat).
    """
    with tempfile.TemporaryFile(mode="w+") as out:
        busy, own = bench_engine.cpu_seconds()
        start = time.perf_counter()
        process = subprocess.Popen(list(command), stdout=out, env=env)
        peak, hwm = 0, 0
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            memory = tree_memory(process.pid)
            peak = max(peak, sum(rss for rss, _ in memory.values()))
            hwm = max([hwm, *(high for _, high in memory.values())])
            time.sleep(POLL_SECONDS)
        seconds = time.perf_counter() - start
        busy_after, own_after = bench_engine.cpu_seconds()
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode:
            raise RuntimeError(f"{' '.join(command)} failed with exit code {process.returncode}")
        out.seek(0)
        text = out.read()
    cpu = usage.ru_utime + usage.ru_stime
    other = max(0.0, (busy_after - busy) - cpu - (own_after - own)) / seconds
    return Measured(seconds, peak, hwm, cpu, other, text)


def match_command(hands: int, workers: int, seed: int) -> list[str]:
    options = ["--hands", str(hands), "--workers", str(workers), "--seed", str(seed), "--quiet", "--json"]
    return [sys.executable, "-m", "simgin", "match", "simple", "simple", *options]


def measure_scaling(sizes: Sizes, seed: int) -> list[dict[str, Any]]:
    """``simgin match`` runs of growing size, with 1 and 2 workers, each size's workers taking turns."""
    rows = []
    results: dict[int, dict[int, dict[str, Any]]] = {}
    worker_counts = (1, 2)
    for hands in sizes.scaling:
        runs = sizes.scaling_runs if hands <= 100_000 else 1
        measured: dict[int, list[Measured]] = {workers: [] for workers in worker_counts}
        if hands >= SCALING_WAIT_FROM:
            print(f"before {hands:,} hands: {harness.wait_for_quiet(SCALING_WAIT_SECONDS)}", file=sys.stderr)
        for run in range(runs):
            for workers in worker_counts:
                env = dict(os.environ)
                if workers == 1:
                    env["NUMBA_NUM_THREADS"] = "1"
                print(
                    f"simgin match: {hands:,} hands, {workers} worker(s), run {run + 1} of {runs} ...", file=sys.stderr
                )
                result = run_measured(match_command(hands, workers, seed), env)
                if result.other_load > bench_engine.QUIET_CORES and hands <= SCALING_REDO_UP_TO:
                    print(f"  other processes used {result.other_load:.2f} cores: once more ...", file=sys.stderr)
                    result = min(result, run_measured(match_command(hands, workers, seed), env), key=_load)
                measured[workers].append(result)
        for workers in worker_counts:
            data = json.loads(measured[workers][0].stdout)
            data.pop("timing", None)
            results.setdefault(hands, {})[workers] = data
            seconds = statistics.median(m.seconds for m in measured[workers])
            rows.append(
                {
                    "hands": hands,
                    "workers": workers,
                    "runs": runs,
                    "seconds": seconds,
                    "hands_per_second": hands / seconds,
                    "peak_tree_mb": max(m.peak_tree_rss for m in measured[workers]) / 2**20,
                    "max_process_mb": max(m.max_process_hwm for m in measured[workers]) / 2**20,
                    "cpu_seconds": statistics.median(m.cpu_seconds for m in measured[workers]),
                    "other_load": statistics.mean(m.other_load for m in measured[workers]),
                    "identical": None,
                }
            )
    for row in rows:
        row["identical"] = results[row["hands"]][1] == results[row["hands"]][2]
    return rows


def _load(measured: Measured) -> float:
    return measured.other_load


def linear_fit(rows: Sequence[dict[str, Any]], workers: int) -> tuple[float, float, float]:
    """Least squares ``seconds = fixed + hands / rate`` for one worker count: (fixed, rate, worst relative error)."""
    points = [(row["hands"], row["seconds"]) for row in rows if row["workers"] == workers]
    if len(points) < 2:
        return math.nan, math.nan, math.nan
    x = np.array([p[0] for p in points], dtype=float)
    y = np.array([p[1] for p in points], dtype=float)
    weights = 1 / y  # relative errors, so the small runs count as much as the large ones
    slope, fixed = np.polyfit(x, y, 1, w=weights)
    worst = float(np.max(np.abs(fixed + slope * x - y) / y))
    return float(fixed), float(1 / slope), worst


def worst_seconds(rows: Sequence[dict[str, Any]], workers: int) -> float:
    """The largest distance, in seconds, between a measured run and the fitted line."""
    fixed, rate, _ = linear_fit(rows, workers)
    return max(abs(fixed + row["hands"] / rate - row["seconds"]) for row in rows if row["workers"] == workers)


def scaling_markdown(rows: Sequence[dict[str, Any]], seed: int) -> str:
    lines = [
        "| hands | workers | runs | wall seconds (median) | hands per second, whole command | CPU seconds "
        "| peak memory, process tree | largest process peak (VmHWM) | other load | same results as the other "
        "worker count |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        lines.append(
            f"| {row['hands']:,} | {row['workers']} | {row['runs']} | {row['seconds']:.2f} "
            f"| {row['hands_per_second']:,.0f} | {row['cpu_seconds']:.1f} | {row['peak_tree_mb']:,.0f} MB "
            f"| {row['max_process_mb']:,.0f} MB | {row['other_load']:.2f} | {'yes' if row['identical'] else 'NO'} |"
        )
    lines.append("")
    big = [row for row in rows if row["hands"] >= SCALING_WAIT_FROM]
    shared = max((row["other_load"] for row in big), default=0.0)
    if shared > bench_engine.QUIET_CORES:
        lines += [
            f"**The machine was shared during the large runs**: other processes used up to {shared:.2f} cores "
            "(*other load*), so the 2-worker runs did not have both cores to themselves and their rate is "
            "understated; what a second core adds on a quiet machine is in this file's table of full hands "
            "(`bench_engine.py`, 1 and 2 cores).",
            "",
        ]
    for workers in (1, 2):
        fixed, rate, worst = linear_fit(rows, workers)
        memory = [row["peak_tree_mb"] for row in rows if row["workers"] == workers]
        lines.append(
            f"- {workers} worker{'s' if workers > 1 else ''}: wall seconds = {fixed:.2f} + hands / {rate:,.0f} "
            f"(least squares on relative error; worst point off by {worst_seconds(rows, workers):.2f} s, "
            f"{worst:.0%}); peak memory of the process tree "
            f"{min(memory):,.0f}-{max(memory):,.0f} MB from {rows[0]['hands']:,} to {rows[-1]['hands']:,} hands."
        )
    lines += [
        "",
        f"Each run is a fresh `python -m simgin match simple simple --hands N --workers W --seed {seed} --quiet "
        "--json` with the hands and workers shown (duplicate deals, chunks of 20,000 hands); the numba cache is "
        "warm. With 1 worker the command plays in its own process with `NUMBA_NUM_THREADS=1` (one core); with 2 "
        "workers it plays in a pool of spawned processes, one numba thread each (a run of a single chunk, "
        "10,000 hands, starts only one of them). The fixed cost is the start: Python, "
        "imports, the numba cache, spawning the pool. Peak memory sums the resident memory of the command "
        f"and its workers, sampled every {POLL_SECONDS * 1000:.0f} ms; the largest process peak is each "
        "process's own high-water mark. Each chunk is reduced to sums as it finishes, so memory does not grow "
        "with the hands played. Before the runs of "
        f"{SCALING_WAIT_FROM:,} hands and more the script waits (up to {SCALING_WAIT_SECONDS:.0f} s) for a "
        f"quiet machine, and a run of up to {SCALING_REDO_UP_TO:,} hands that other processes disturbed (more "
        f"than {bench_engine.QUIET_CORES} cores) is run once more, keeping the quieter run. "
        "*Other load*: cores that other processes used during the run (0 = a quiet "
        "machine; with 2 workers on 2 cores any other load slows the run). *Same results*: the JSON summary "
        "(timings aside) of the 1-worker and 2-worker runs of a size are identical.",
    ]
    return "\n".join(lines)

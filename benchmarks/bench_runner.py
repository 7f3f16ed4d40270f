"""The runner's goals (issue 4), measured end to end through the CLI.

- Throughput: ``simgin match simple simple --hands 1000000`` on all cores, numba cache warm
  (goal: <= 15 s wall on this 2-core machine). Median of ``--runs`` runs.
- Memory: the resident memory of the whole process tree (the CLI and its workers, summed,
  sampled every 0.2 s) while it plays ``--memory-hands`` hands without a hand log (goal:
  100 million hands in < 500 MB). Also reported for smaller runs, to show it is flat.

    python -m benchmarks.bench_runner                       # 1M-hand timing, memory at 1M and 10M
    python -m benchmarks.bench_runner --memory-hands 100000000 --write

``--write`` puts the table between the ``runner`` markers of benchmarks/RESULTS.md.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import threading
import time

from benchmarks import harness

SIMGIN = [sys.executable, "-m", "simgin"]


def tree_memory_mb(root: int) -> tuple[float, float]:
    """(summed RSS, summed PSS) of ``root`` and all its descendants, in MB (from /proc).

    RSS counts the shared libraries (numba's LLVM) once per process; PSS shares them out,
    so its sum is the memory the run really holds.
    """
    rss = pss = 0
    for pid in harness.process_tree(root):
        try:
            with open(f"/proc/{pid}/smaps_rollup") as handle:
                for line in handle:
                    if line.startswith("Rss:"):
                        rss += int(line.split()[1])
                    elif line.startswith("Pss:"):
                        pss += int(line.split()[1])
        except OSError:
            pass
    return rss / 1e3, pss / 1e3


def measure(hands: int, workers: int | None = None) -> tuple[float, float, float]:
    """(wall seconds, peak summed RSS, peak summed PSS in MB) of one CLI run."""
    command = [*SIMGIN, "match", "simple", "simple", "--hands", str(hands), "--quiet", "--json"]
    if workers:
        command += ["--workers", str(workers)]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = [0.0, 0.0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            for index, value in enumerate(tree_memory_mb(process.pid)):
                peak[index] = max(peak[index], value)
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    code = process.wait()
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    if code:
        raise SystemExit(f"{' '.join(command)} failed with exit code {code}")
    return wall, peak[0], peak[1]


def main(argv: list[str] | None = None) -> None:
    parser = harness.parser(__doc__, quick="100,000-hand matches, one run, no memory ladder (a smoke test)")
    parser.add_argument("--runs", type=int, default=3, help="timed runs of the 1M-hand match (median)")
    parser.add_argument("--memory-hands", type=int, default=10_000_000, help="largest run for the memory column")
    args = parser.parse_args(argv)
    hands = 100_000 if args.quick else 1_000_000
    runs = 1 if args.quick else args.runs
    measure(20_000)  # warm the numba cache
    times = [measure(hands)[0] for _ in range(runs)]
    rows = []
    sizes = [hands] if args.quick else sorted({1_000_000, 10_000_000, args.memory_hands})
    for size in sizes:
        rows.append((size, *measure(size)))
    median = statistics.median(times)
    lines = [
        f"Measured {harness.machine()}; all cores used, numba cache warm.",
        "",
        f"Reproduce: `{harness.command('bench_runner', [f'--memory-hands {args.memory_hands:_}', '--write'])}`",
        "",
        f"- `simgin match simple simple --hands {hands} --quiet --json`: median {median:.1f} s wall over "
        f"{len(times)} runs ({', '.join(f'{t:.1f}' for t in times)} s), {hands / median:,.0f} hands/s end to end; "
        f"goal (1,000,000 hands) <= 15 s: **{'met' if median * 1_000_000 / hands <= 15 else 'not met'}**.",
        "",
        "| hands | wall (s) | hands/s | peak memory, CLI + workers: summed RSS (MB) | summed PSS (MB) |",
        "|---:|---:|---:|---:|---:|",
        *(f"| {h:,} | {w:.1f} | {h / w:,.0f} | {r:.0f} | {p:.0f} |" for h, w, r, p in rows),
        "",
        "RSS counts numba's shared libraries once per process; PSS shares them out. "
        f"Goal: 100 million hands in < 500 MB resident memory without a hand log; largest run here "
        f"{rows[-1][0]:,} hands at {rows[-1][3]:.0f} MB PSS ({rows[-1][2]:.0f} MB summed RSS): "
        f"**{'met' if rows[-1][0] >= 100_000_000 and rows[-1][3] < 500 else 'not yet measured at 100 million'}**.",
    ]
    harness.publish(args, "runner", "Runner at scale (issue 4)", lines, stream=sys.stderr)


if __name__ == "__main__":
    main()

"""Full hands and games per second with the compiled bots, on one core and on all cores.

Standard rules (``Rules()``). For each pairing (simple vs simple, random vs random):

- ``simgin.running.engine.play_hand_rows``: the kernel with its thin wrapper, seeds derived
  beforehand (the engine's own speed);
- ``simgin.running.engine.play_hands``: the public call, which also derives the hand seeds in
  Python and builds the DataFrame;
- ``simgin.running.engine.play_games``: whole games to 100 points, as games and hands per second.

One core is ``numba.set_num_threads(1)``; all cores is numba's default thread count.
Every measurement gets a warm-up call first (so compile time is excluded) and is then
repeated ``--runs`` times (default 5), all measurements taking turns; a run that other
processes disturbed is redone (see ``QUIET_CORES``). The table gives the median and the spread.

The cold start is timed in fresh subprocesses sharing a new, empty ``NUMBA_CACHE_DIR``:
the first run compiles every kernel, the second loads them from numba's cache.

Run from the repository root::

    python -m benchmarks.bench_engine            # prints a Markdown table
    python -m benchmarks.bench_engine --quick    # fewer hands, 2 runs (a smoke test)
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import numba
import numpy as np

import simgin.running.engine
from benchmarks import harness
from benchmarks.harness import QUIET_CORES, REDO_LIMIT, contended, cpu_seconds, timed_run
from simgin import Rules

SEED = 20240611
GOAL_SIMPLE_ONE_CORE = 50_000  # simple vs simple full hands per second on one core
PAIRINGS = (("simple", "simple"), ("random", "random"))
COLD_START_CODE = "import simgin.running.engine; simgin.running.engine.play_hands(('simple','simple'), hand_count=10)"
IMPORT_ONLY_CODE = "import simgin.running.engine"


def time_interleaved(
    cases: list[tuple[int, Callable[[], object]]], runs: int
) -> tuple[list[list[float]], list[float], list[int]]:
    """Seconds of ``runs`` calls of each ``(threads, call)`` case, taken in turns after a warm-up call each.

    Taking turns spreads any load from other processes over all the cases, and a run that
    other processes disturbed is redone (see ``QUIET_CORES``). Also returns, per case, the
    CPU other processes used during its kept runs, in cores, and how many runs were redone.
    """
    for threads, call in cases:
        numba.set_num_threads(threads)
        call()
    times: list[list[float]] = [[] for _ in cases]
    other = [0.0 for _ in cases]
    redone = [0 for _ in cases]
    for run in range(runs):
        print(f"  run {run + 1} of {runs} ...", file=sys.stderr)
        for i, (threads, call) in enumerate(cases):
            numba.set_num_threads(threads)
            seconds, used = timed_run(call)
            while contended(seconds, used) and redone[i] < REDO_LIMIT:
                redone[i] += 1
                time.sleep(0.5)
                seconds, used = timed_run(call)
            times[i].append(seconds)
            other[i] += used
    return times, [other[i] / sum(times[i]) for i in range(len(cases))], redone


def _spread(values: list[float]) -> tuple[float, float, float]:
    return statistics.median(values), min(values), max(values)


def _fmt(rate: tuple[float, float, float]) -> str:
    return f"{rate[0]:,.0f}/s ({rate[1]:,.0f}-{rate[2]:,.0f})"


def measure_throughput(hand_count: int, game_counts: dict[str, int], runs: int, seed: int) -> list[dict[str, object]]:
    """Hands (and games) per second for each pairing, API and thread count."""
    rules = Rules()
    all_threads = numba.config.NUMBA_NUM_THREADS
    seeds = simgin.running.engine.hand_seeds(seed, hand_count)
    dealers = np.arange(hand_count, dtype=np.int64) % 2
    rows: list[dict[str, object]] = []
    cases: list[tuple[int, Callable[[], object]]] = []
    played: dict[int, int] = {}  # case index -> hands in one play_games run
    for bots in PAIRINGS:
        game_count = game_counts[bots[0]]
        for threads in (1, all_threads):
            goal = GOAL_SIMPLE_ONE_CORE if bots == ("simple", "simple") and threads == 1 else None
            base = {"pairing": f"{bots[0]} vs {bots[1]}", "threads": "1 core" if threads == 1 else f"{threads} cores"}

            def rows_call(bots: tuple[str, str] = bots) -> None:
                simgin.running.engine.play_hand_rows(bots, rules, seeds, dealers)

            def hands_call(bots: tuple[str, str] = bots) -> None:
                simgin.running.engine.play_hands(bots, rules, hand_count, seed)

            def games_call(
                bots: tuple[str, str] = bots, game_count: int = game_count, index: int = len(cases) + 2
            ) -> None:
                _, hands = simgin.running.engine.play_games(bots, rules, game_count, seed)
                played[index] = len(hands)

            cases += [(threads, rows_call), (threads, hands_call), (threads, games_call)]
            rows += [
                {**base, "api": "`play_hand_rows` (seeds derived beforehand)", "work": hand_count, "goal": goal},
                {**base, "api": "`play_hands` (seeds + DataFrame)", "work": hand_count, "goal": goal},
                {**base, "api": "`play_games` (games to 100)", "work": None, "games": game_count, "goal": None},
            ]
    print(f"timing {len(cases)} engine cases, taking turns ...", file=sys.stderr)
    times, others, redone = time_interleaved(cases, runs)
    numba.set_num_threads(all_threads)
    for i, row in enumerate(rows):
        row["other_load"] = others[i]
        row["redone"] = redone[i]
        if row["work"] is not None:
            row["count"] = f"{row['work']:,} hands"
            row["hands"] = _spread([row["work"] / t for t in times[i]])
            row["games"] = None
        else:
            row["count"] = f"{row['games']:,} games ({played[i]:,} hands)"
            row["hands"] = _spread([played[i] / t for t in times[i]])
            row["games"] = _spread([row["games"] / t for t in times[i]])
    return rows


def _run_python(code: str, env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock seconds of ``python -c code`` in a fresh process, and the cores others used meanwhile."""
    busy, _ = cpu_seconds()
    before = os.times()
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    seconds = time.perf_counter() - start
    busy_after, _ = cpu_seconds()
    after = os.times()
    own = sum(
        getattr(after, name) - getattr(before, name) for name in ("user", "system", "children_user", "children_system")
    )
    return seconds, max(0.0, busy_after - busy - own) / seconds


def measure_cold_start() -> dict[str, tuple[float, float] | int]:
    """Fresh-process times with an empty numba cache, then with the cache it filled."""
    cache_dir = tempfile.mkdtemp(prefix="simgin-numba-cache-")
    try:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
        print("timing the cold start (empty numba cache) ...", file=sys.stderr)
        cold = _run_python(COLD_START_CODE, env)
        print("timing the start with a warm numba cache ...", file=sys.stderr)
        warm = _run_python(COLD_START_CODE, env)
        import_only = _run_python(IMPORT_ONLY_CODE, env)
        cache_files = sum(len(files) for _, _, files in os.walk(cache_dir))
    finally:
        shutil.rmtree(cache_dir, ignore_errors=True)
    return {"cold": cold, "warm": warm, "import_only": import_only, "cache_files": cache_files}


def markdown(rows: list[dict[str, object]], cold: dict[str, object] | None, runs: int, seed: int) -> str:
    """The results as Markdown tables with a short legend."""
    lines = [
        "| pairing | threads | call | work per run | hands per second (median, min-max) "
        "| games per second (median, min-max) | other load (runs redone) | goal |",
        "|---|---|---|---|---:|---:|---:|---|",
    ]
    for row in rows:
        goal = row["goal"]
        goal_text = "-"
        if goal is not None:
            verdict = "met" if row["hands"][0] >= goal else "NOT met"
            goal_text = f">= {goal:,} hands/s on one core ({verdict})"
        games_text = _fmt(row["games"]) if row["games"] is not None else "-"
        lines.append(
            f"| {row['pairing']} | {row['threads']} | {row['api']} | {row['count']} "
            f"| {_fmt(row['hands'])} | {games_text} | {row['other_load']:.2f} ({row['redone']}) | {goal_text} |"
        )
    lines += [
        "",
        f"Standard rules (`Rules()`), median of {runs} runs after a warm-up call (compile time "
        f"excluded); seed {seed}. One core is `numba.set_num_threads(1)`. The rows take turns, run "
        "by run, so load from other processes is spread over all of them; *other load* is the CPU "
        "other processes used during a row's kept runs, in cores (0 = a quiet machine); a run during "
        f"which they used more than {QUIET_CORES} cores was redone, at most {REDO_LIMIT} times per row.",
    ]
    if cold is not None:
        lines += [
            "",
            "| fresh process | wall-clock seconds | other load |",
            "|---|---:|---:|",
            f'| `python -c "{COLD_START_CODE}"`, empty numba cache (compiles everything) '
            f"| {cold['cold'][0]:.2f} | {cold['cold'][1]:.2f} |",
            f"| the same again, warm numba cache ({cold['cache_files']} cache files) "
            f"| {cold['warm'][0]:.2f} | {cold['warm'][1]:.2f} |",
            f'| `python -c "{IMPORT_ONLY_CODE}"` (imports only, for reference) '
            f"| {cold['import_only'][0]:.2f} | {cold['import_only'][1]:.2f} |",
            "",
            "Both runs share a new, empty `NUMBA_CACHE_DIR`, so the first one is truly cold and the "
            "repository's own `__pycache__` is not touched.",
        ]
    return "\n".join(lines)


def goal_lines(rows: list[dict[str, object]]) -> list[str]:
    """One line per stated goal: the goal, the measured medians, met or not."""
    simple = [row for row in rows if row["goal"] is not None]
    kernel, public = simple[0]["hands"][0], simple[1]["hands"][0]
    verdict = "met" if min(kernel, public) >= GOAL_SIMPLE_ONE_CORE else "NOT met"
    return [
        f"simple vs simple full hands on one core: goal >= {GOAL_SIMPLE_ONE_CORE:,} hands/s; measured "
        f"{kernel:,.0f}/s (`play_hand_rows`), {public:,.0f}/s (`play_hands`): **{verdict}**."
    ]


def build_parser() -> argparse.ArgumentParser:
    parser = harness.parser(__doc__, quick="10,000 hands, 500/20 games, 2 runs")
    parser.add_argument("--hands", type=int, default=100_000, help="hands per run for play_hand_rows / play_hands")
    parser.add_argument("--simple-games", type=int, default=5_000, help="simple vs simple games per run")
    parser.add_argument("--random-games", type=int, default=200, help="random vs random games per run")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per measurement")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--no-cold-start", action="store_true", help="skip the fresh-process timings")
    return parser


def run(argv: list[str] | None = None) -> tuple[str, list[str]]:
    """Measure everything; return the Markdown tables and the goal lines."""
    args = build_parser().parse_args(argv)
    if args.quick:
        args.hands, args.simple_games, args.random_games, args.runs = 10_000, 500, 20, 2
    game_counts = {"simple": args.simple_games, "random": args.random_games}
    rows = measure_throughput(args.hands, game_counts, args.runs, args.seed)
    cold = None if args.no_cold_start else measure_cold_start()
    return markdown(rows, cold, args.runs, args.seed), goal_lines(rows)


def main(argv: list[str] | None = None) -> None:
    """Measure, print, and with ``--write`` put the section into RESULTS.md (with the machine and the goals)."""
    args = build_parser().parse_args(argv)
    table, goals = run(argv)
    text = "\n".join(
        [
            f"Measured {harness.machine()}. Reproduce: `{harness.command('bench_engine', ['--write'])}`",
            "",
            *(f"- {line}" for line in goals),
            "",
            table,
        ]
    )
    print(text)
    if args.write and not args.quick:
        print(f"wrote {harness.write_section('engine', 'Full hands and games (compiled bots, standard rules)', text)}")


if __name__ == "__main__":
    main()

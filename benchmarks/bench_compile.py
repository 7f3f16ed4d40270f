"""Where numba compile time goes: the first run on an empty cache, and the test suite (issue 15).

Every figure is CPU seconds (user + system, the process and its children) next to wall
seconds: on a shared machine the wall time stretches with the load, the CPU time much less.
Compile time comes from numba's own compile events (``numba:compile``), recorded in every
Python process the measurement starts, through a ``sitecustomize`` module put on
``PYTHONPATH`` (it appends one JSON line per top-level compilation to a log).

    python -m benchmarks.bench_compile cold-start [--runs 3]
        `simgin match simple simple --hands 1000 --workers 1 --quiet` in a fresh process on an
        empty NUMBA_CACHE_DIR (a new one each run), then once more on the cache it filled.
    python -m benchmarks.bench_compile suite [PYTEST_ARGS ...]
        The test suite (`pytest -p no:cacheprovider` plus the arguments) on an empty cache:
        its wall and CPU time and the compile time summed over its processes, by kernel.
    python -m benchmarks.bench_compile kernels
        Every kernel entry point the test suite compiles (the log of `suite` lists them), one
        after the other in one fresh process on an empty cache, each timed: their total is
        the compile time a fresh clone pays once.
    python -m benchmarks.bench_compile breakdown "PYTHON CODE"
        The code in a fresh process on an empty cache: compile CPU by numba function
        (exclusive of the functions it compiled in turn), and by compiler pass.

Run from the repository root with the project installed (`pip install -e ".[test]"`).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COLD_START = ["-m", "simgin", "match", "simple", "simple", "--hands", "1000", "--workers", "1", "--quiet"]

# Loaded into every Python process of a measurement (via PYTHONPATH); logs top-level compilations.
SITECUSTOMIZE = """
import os
if os.environ.get("SIMGIN_COMPILE_LOG"):
    import json, time
    from numba.core import event

    _open = []

    class _CompileLog(event.Listener):
        def on_start(self, ev):
            _open.append(time.process_time())

        def on_end(self, ev):
            start = _open.pop()
            if _open:
                return
            function = ev.data["dispatcher"].py_func
            kinds = [getattr(a, "literal_value", None) for a in ev.data["args"][:1]]
            line = json.dumps({
                "pid": os.getpid(),
                "function": function.__module__ + "." + function.__qualname__,
                "kinds": kinds[0] if kinds and isinstance(kinds[0], int) else None,
                "cpu": time.process_time() - start,
            })
            with open(os.environ["SIMGIN_COMPILE_LOG"], "a") as log:
                log.write(line + "\\n")

    event.register("numba:compile", _CompileLog())
"""


def run_measured(command: list[str], env: dict[str, str], quiet: bool = False) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds of the command and its waited-for children, exit status)."""
    before = os.times()
    start = time.perf_counter()
    output = subprocess.DEVNULL if quiet else None
    status = subprocess.run(command, env=env, check=False, stdout=output).returncode
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, status


def compile_log(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def bot_names(kinds: int | None) -> str:
    if kinds is None:
        return "-"
    from simgin.kernels.bots import BOT_NAMES

    return "+".join(name for bot, name in enumerate(BOT_NAMES) if kinds >> bot & 1)


class Environment:
    """An empty numba cache and the compile log, for one measured run."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="simgin-compile-"))
        (self.root / "site").mkdir()
        (self.root / "site" / "sitecustomize.py").write_text(SITECUSTOMIZE)
        self.cache = self.root / "numba-cache"
        self.log = self.root / "compile.jsonl"
        path = os.pathsep.join(filter(None, [str(self.root / "site"), os.environ.get("PYTHONPATH")]))
        self.env = dict(os.environ, NUMBA_CACHE_DIR=str(self.cache), SIMGIN_COMPILE_LOG=str(self.log), PYTHONPATH=path)

    def close(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def cold_start(runs: int) -> None:
    command = [sys.executable, *COLD_START]
    print(f"command: NUMBA_CACHE_DIR=$(mktemp -d) python {' '.join(COLD_START)}")
    rows = []
    for run in range(runs):
        environment = Environment()
        try:
            cold = run_measured(command, environment.env, quiet=True)
            cold_compile = sum(entry["cpu"] for entry in compile_log(environment.log))
            environment.log.unlink(missing_ok=True)
            warm = run_measured(command, environment.env, quiet=True)
            warm_compile = sum(entry["cpu"] for entry in compile_log(environment.log))
        finally:
            environment.close()
        rows.append((cold, cold_compile, warm, warm_compile))
        print(
            f"run {run + 1}: empty cache {cold[0]:.1f} s wall, {cold[1]:.1f} s CPU ({cold_compile:.1f} s compiling); "
            f"warm cache {warm[0]:.1f} s wall, {warm[1]:.1f} s CPU ({warm_compile:.1f} s compiling)",
            flush=True,
        )
        if cold[2] or warm[2]:
            sys.exit(f"the command failed (exit {cold[2] or warm[2]})")
    median = statistics.median
    print(
        f"median of {runs}: empty cache {median(r[0][0] for r in rows):.1f} s wall, "
        f"{median(r[0][1] for r in rows):.1f} s CPU ({median(r[1] for r in rows):.1f} s compiling); "
        f"warm cache {median(r[2][0] for r in rows):.1f} s wall, {median(r[2][1] for r in rows):.1f} s CPU"
    )


def suite(pytest_args: list[str]) -> None:
    environment = Environment()
    command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *pytest_args]
    print(f"command: NUMBA_CACHE_DIR=$(mktemp -d) {' '.join(command[1:])}", flush=True)
    try:
        wall, cpu, status = run_measured(command, environment.env)
        entries = compile_log(environment.log)
    finally:
        environment.close()
    total = sum(entry["cpu"] for entry in entries)
    processes = len({entry["pid"] for entry in entries})
    print(
        f"suite: exit {status}, {wall:.1f} s wall, {cpu:.1f} s CPU; compiling {total:.1f} s CPU "
        f"({len(entries)} top-level compilations in {processes} processes)"
    )
    by_kernel: dict[tuple[str, str], list[float]] = collections.defaultdict(list)
    for entry in entries:
        by_kernel[(entry["function"], bot_names(entry["kinds"]))].append(entry["cpu"])
    print("| CPU s | compilations | kernel | bots |\n|---:|---:|---|---|")
    for (function, bots), times in sorted(by_kernel.items(), key=lambda item: -sum(item[1])):
        print(f"| {sum(times):.1f} | {len(times)} | `{function}` | {bots} |")


# Each step compiles (or loads) entry points the suite uses; zero units where playing would only cost time.
KERNEL_STEPS = {
    "two-player hands, the hand loop with simple, greedy and random": (
        "play_hand_rows(('simple', 'simple'), Rules(), np.array([1], dtype=np.uint64), np.array([0]))"
    ),
    "two-player games": "play_game_rows(('simple', 'greedy'), Rules(), np.zeros(0, dtype=np.uint64))",
    "three-player games (V11)": "play_table_rows('three', ('simple', 'random', 'greedy'), Rules(), ONE)",
    "partnership games (V12)": "play_table_rows('teams', ('simple', 'random', 'greedy', 'simple'), Rules(), ONE)",
    "heuristic and opponent (their decide)": "play_hand_rows(('heuristic', 'opponent'), Rules(), NONE, NO_DEALERS)",
    "mcts (its decide)": "play_hand_rows(('mcts', 'simple'), Rules(), NONE, NO_DEALERS)",
    "the built-in bots' decide (Python adapter)": (
        "play_hand((CompiledStrategy('simple', 1), CompiledStrategy('random', 0)), Rules(), 5, 0)"
    ),
    "meld batches (game.melds)": "deadwood_batch(np.array([7], dtype=np.int64)); best_discard_batch(np.array([7]))",
    "showdown scoring (simgin.score_showdown)": (
        "score_showdown('AS 2S 3S 7C 7D 7H TD JD QD KH', '4S 5S 8C 8D 9H 9S KC KD 2C 3D')"
    ),
}


def kernels() -> None:
    environment = Environment()
    steps = "\n".join(
        f"start = time.process_time(); {code}; print(f'{{time.process_time() - start:6.1f}}  ' + {label!r}, flush=True)"
        for label, code in KERNEL_STEPS.items()
    )
    program = f"""
import time
import numpy as np
from simgin import Rules, score_showdown
from simgin.running.engine import play_game_rows, play_hand_rows
from simgin.game.melds import best_discard_batch, deadwood_batch
from simgin.running.engine import play_table_rows
from simgin.game.reference_engine import play_hand
from simgin.strategies.compiled import CompiledStrategy

NONE, NO_DEALERS, ONE = np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int64), np.array([3], dtype=np.uint64)
begin = time.process_time()
print("CPU s  entry points")
{steps}
print(f"{{time.process_time() - begin:6.1f}}  in all")
"""
    print("command: NUMBA_CACHE_DIR=$(mktemp -d) python -m benchmarks.bench_compile kernels", flush=True)
    try:
        env = dict(environment.env)
        del env["SIMGIN_COMPILE_LOG"]
        wall, cpu, status = run_measured([sys.executable, "-c", program], env)
    finally:
        environment.close()
    print(f"fresh process: {wall:.1f} s wall, {cpu:.1f} s CPU (imports included), exit {status}")


def breakdown(code: str) -> None:
    environment = Environment()
    probe = f"""
import collections, sys, time
from numba.core import event
compiles, runs = [], []  # open frames: [start, CPU spent in nested ones]
passes, functions = collections.Counter(), collections.Counter()

def _close(frames, counter, key):
    start, nested = frames.pop()
    spent = time.process_time() - start
    counter[key] += spent - nested
    if frames:
        frames[-1][1] += spent

class Compile(event.Listener):
    def on_start(self, ev):
        compiles.append([time.process_time(), 0.0])

    def on_end(self, ev):
        function = ev.data["dispatcher"].py_func
        _close(compiles, functions, function.__module__ + "." + function.__qualname__)

class Pass(event.Listener):
    def on_start(self, ev):
        runs.append([time.process_time(), 0.0])

    def on_end(self, ev):
        _close(runs, passes, ev.data["name"].split(" [")[0])

event.register("numba:compile", Compile())
event.register("numba:run_pass", Pass())
start = time.process_time()
exec({code!r})
print(f"CPU {{time.process_time() - start:.1f}} s; compiling {{sum(functions.values()):.1f}} s")
for name, spent in functions.most_common(25):
    print(f"{{spent:6.2f}}  {{name}}")
print("by compiler pass:")
for name, spent in passes.most_common(8):
    print(f"{{spent:6.2f}}  {{name}}")
"""
    try:
        env = dict(environment.env)
        del env["SIMGIN_COMPILE_LOG"]
        subprocess.run([sys.executable, "-c", probe], env=env, check=True)
    finally:
        environment.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="with no command: one cold start (a smoke test)")
    commands = parser.add_subparsers(dest="command")
    first = commands.add_parser("cold-start", help="the first `simgin match` on an empty numba cache")
    first.add_argument("--runs", type=int, default=3)
    tests = commands.add_parser("suite", help="the test suite on an empty numba cache")
    tests.add_argument("pytest_args", nargs=argparse.REMAINDER)
    commands.add_parser("kernels", help="every kernel entry point the suite uses, on an empty cache")
    parts = commands.add_parser("breakdown", help="compile time of a snippet, by function and pass")
    parts.add_argument("code")
    args, extra = parser.parse_known_args(argv)
    if extra and args.command != "suite":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command is None:  # what the suite runs (benchmarks.run_all): the cold start
        cold_start(1 if args.quick else 3)
    elif args.command == "cold-start":
        cold_start(args.runs)
    elif args.command == "suite":
        suite([*args.pytest_args, *extra])
    elif args.command == "kernels":
        kernels()
    else:
        breakdown(args.code)


if __name__ == "__main__":
    main()

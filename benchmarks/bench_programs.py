"""Strategies in other languages (issue 13): hands per second of ``exec:`` and ``eaai:`` players.

- The example bot, ``exec:python3 examples/simple_bot.py``, against the built-in ``simple``
  (goal: >= 1,000 hands per second per core).
- An EAAI Java player against ``simple`` (goal: >= 500 hands per second per core): the test
  player ``TwinPlayer`` compiled against the stand-in framework in tests/java, and with
  ``--eaai-classpath`` a player of the real framework (``--eaai-class``, by default its own
  ``ginrummy.SimpleGinRummyPlayer``).
- With ``--eaai-framework DIR`` (the compiled public framework, tneller/gin-rummy-eaai), the
  framework's own Java harness playing SimpleGinRummyPlayer against itself, for comparison
  (``benchmarks/EaaiHarnessSpeed.java`` counts its hands).

With ``--workers`` it times whole runs instead (issue 32 item 20): ``runner.run`` of each pairing with one
chunk of ``--hands`` hands at 1 and 2 workers, and at 2 workers with the chunk played as one job (the
behaviour before chunks of slow pairings were cut into parts, ``runner.SLOW_PART_UNITS``): wall seconds of
the whole run, worker and program start-up included, medians of ``--runs`` runs taking turns.

    python -m benchmarks.bench_programs --workers --hands 6000 --runs 3 --write

Otherwise hands are played under standard rules, one worker, in this process, after a warm-up that
starts the programs (so start-up and JIT warm-up are excluded). Each run reports wall time
and the CPU time of the whole process tree (simgin, the programs and their supervisors) from
/proc: *per core* is hands per CPU-second, which holds on a shared machine, where wall time
does not. Medians of ``--runs`` runs.

    python -m benchmarks.bench_programs
    python -m benchmarks.bench_programs --eaai-classpath CLASSPATH --eaai-framework CLASSPATH --write

``--write`` puts the table between the ``programs`` markers of benchmarks/RESULTS.md.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

from benchmarks import harness

HERE = harness.HERE
ROOT = harness.ROOT
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
GOALS = {"exec": 1000, "eaai": 500}


def tree_cpu_seconds(root: int) -> float:
    """User + system CPU seconds of ``root`` and all its live descendants (from /proc)."""
    total = 0.0
    for pid in harness.process_tree(root):
        try:
            with open(f"/proc/{pid}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return total


def measure(spec: str, hands: int, runs: int, seed: int) -> dict[str, float]:
    """Median wall and tree-CPU hands per second of ``spec`` against simple (hands mode, one worker)."""
    from simgin import Rules
    from simgin.players import programs as process_strategy
    from simgin.running.engine import hand_seeds, play_hand_rows

    process_strategy.close_programs()
    warm = hand_seeds(seed + 1, 20)
    play_hand_rows((spec, "simple"), Rules(), warm, np.arange(20) % 2)  # starts the programs
    walls, cpus, own = [], [], []
    for run in range(runs):
        seeds = hand_seeds(seed + 100 + run, hands)
        dealers = np.arange(hands) % 2
        cpu, mine = tree_cpu_seconds(os.getpid()), time.process_time()
        start = time.perf_counter()
        play_hand_rows((spec, "simple"), Rules(), seeds, dealers)
        walls.append(time.perf_counter() - start)
        cpus.append(tree_cpu_seconds(os.getpid()) - cpu)
        own.append(time.process_time() - mine)
    process_strategy.close_programs()
    return {
        "wall": hands / statistics.median(walls),
        "wall_low": hands / max(walls),
        "wall_high": hands / min(walls),
        "cpu": hands / statistics.median(cpus),
        "cpu_low": hands / max(cpus),
        "cpu_high": hands / min(cpus),
        "cpu_per_hand_ms": 1000 * statistics.median(cpus) / hands,
        "simgin_share": statistics.median(own) / statistics.median(cpus),
    }


def measure_workers(spec: str, hands: int, runs: int, seed: int) -> dict[str, list[float]]:
    """Wall seconds of whole runs of ``spec`` vs simple (one chunk of ``hands`` hands): one worker, two workers
    with the chunk in parts, two workers with the chunk as one job; the three take turns, ``runs`` times."""
    from simgin.running import runner

    config = runner.RunConfig((spec, "simple"), hands=hands, seed=seed)
    assert config.chunk_count == 1
    parts = dict(runner.SLOW_PART_UNITS)
    whole = {mode: 10**12 for mode in parts}  # a part as large as the chunk: one job, as before
    cases = {"1 worker": (1, parts), "2 workers, chunk in parts": (2, parts), "2 workers, chunk whole": (2, whole)}
    times: dict[str, list[float]] = {name: [] for name in cases}
    results = {}
    runner.run(runner.RunConfig((spec, "simple"), hands=40, seed=seed), workers=1)  # warm: caches, JIT, adapters
    try:
        for _ in range(runs):
            for name, (workers, sizes) in cases.items():
                runner.SLOW_PART_UNITS.update(sizes)
                start = time.perf_counter()
                result = runner.run(config, workers=workers)
                times[name].append(time.perf_counter() - start)
                results[name] = result.tallies[0].to_dict()
    finally:
        runner.SLOW_PART_UNITS.update(parts)
    assert len({str(sorted(tally.items())) for tally in results.values()}) == 1, "the rows differ by workers"
    return times


def workers_table(specs: list[tuple[str, str, str]], hands: int, runs: int, seed: int) -> str:
    machine = harness.machine()
    """The --workers table: per pairing and case, the median wall time and hands per second of a whole run."""
    rows = []
    for _, spec, shown in specs:
        times = measure_workers(spec, hands, runs, seed)
        base = statistics.median(times["1 worker"])
        for name, seconds in times.items():
            median = statistics.median(seconds)
            rows.append(
                f"| `{shown}` vs `simple` | {name} | {median:.1f} ({min(seconds):.1f}-{max(seconds):.1f}) | "
                f"{hands / median:,.0f} | {base / median:.2f}x |"
            )
            print(rows[-1], file=sys.stderr)
    return "\n".join(
        [
            f"Measured {machine}.",
            "",
            f"Reproduce: `{harness.command('bench_programs', ['--workers', f'--hands {hands}', f'--runs {runs}'])}`",
            "",
            f"One chunk of {hands:,} hands (duplicate deals, standard rules, seed {seed}) played by `runner.run`; "
            "wall seconds of the whole run, starting the workers and the programs included (median of "
            f"{runs}, min-max). *Chunk whole* is how such a run was played before (one job per chunk, so one "
            "worker had all the work); the three cases give the same tally (checked).",
            "",
            "| pairing | workers | wall s (median, min-max) | hands/s | vs 1 worker |",
            "|---|---|---:|---:|---:|",
            *rows,
        ]
    )


def compile_test_players() -> str:
    """The stand-in framework and test players of tests/java, compiled into a temporary folder."""
    classes = tempfile.mkdtemp(prefix="simgin-bench-eaai-")
    sources = [str(path) for path in sorted((ROOT / "tests" / "java").rglob("*.java"))]
    subprocess.run(["javac", "-nowarn", "-d", classes, *sources], check=True)
    return classes


def framework_harness(framework: str, games: int) -> tuple[float, int]:
    """(hands per second, hands) of the EAAI framework's own GinRummyGame, SimpleGinRummyPlayer vs itself."""
    classes = tempfile.mkdtemp(prefix="simgin-bench-harness-")
    source = HERE / "EaaiHarnessSpeed.java"
    subprocess.run(["javac", "-nowarn", "-cp", framework, "-d", classes, str(source)], check=True)
    output = subprocess.run(
        ["java", "-XX:+UseSerialGC", "-cp", f"{classes}{os.pathsep}{framework}", "EaaiHarnessSpeed", str(games)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    hands, seconds = (float(value) for value in output.split())
    return hands / seconds, int(hands)


def main(argv: list[str] | None = None) -> None:
    parser = harness.parser(__doc__, quick="200 hands, one run (a smoke test)")
    parser.add_argument("--hands", type=int, default=2000, help="hands per run")
    parser.add_argument("--runs", type=int, default=5, help="runs per measurement (the median is reported)")
    parser.add_argument("--seed", type=int, default=20240611)
    parser.add_argument("--eaai-classpath", default=None, help="the compiled EAAI framework (and player), to time it")
    parser.add_argument("--eaai-class", default=None, help="its player (default: ginrummy.SimpleGinRummyPlayer)")
    parser.add_argument("--eaai-framework", default=None, help="the compiled EAAI framework, to time its harness")
    parser.add_argument("--harness-games", type=int, default=2000, help="games of the framework's harness")
    parser.add_argument("--workers", action="store_true", help="time whole runs at 1 and 2 workers instead")
    args = parser.parse_args(argv)
    if args.quick:
        args.hands, args.runs, args.harness_games, args.write = 200, 1, 200, False
    if shutil.which("javac") is None:
        raise harness.Skip("no javac here: the eaai: players need a Java compiler")
    os.chdir(ROOT)
    test_players = compile_test_players()
    specs = [
        ("exec", "exec:python3 examples/simple_bot.py", "exec:python3 examples/simple_bot.py"),
        ("eaai", f"eaai:{test_players}:TwinPlayer", "eaai:TESTS:TwinPlayer"),
    ]
    if args.eaai_classpath:
        player = args.eaai_class or "ginrummy.SimpleGinRummyPlayer"
        specs.append(("eaai", f"eaai:{args.eaai_classpath}:{player}", f"eaai:CLASSPATH:{player}"))
    if args.workers:
        text = workers_table(specs, args.hands, args.runs, args.seed)
        if args.write:
            harness.write_section("program-workers", "Program pairings on workers (issue 32 item 20)", text)
        else:
            print(text)
        return
    machine = harness.machine()
    rows = []
    goals = []
    for kind, spec, shown in specs:
        result = measure(spec, args.hands, args.runs, args.seed)
        met = "met" if result["cpu"] >= GOALS[kind] else "not met"
        rows.append(
            f"| `{shown}` vs `simple` | {args.hands:,} x {args.runs} | "
            f"{result['wall']:,.0f} ({result['wall_low']:,.0f}-{result['wall_high']:,.0f}) | "
            f"{result['cpu']:,.0f} ({result['cpu_low']:,.0f}-{result['cpu_high']:,.0f}) | "
            f"{result['cpu_per_hand_ms']:.2f} ({100 * result['simgin_share']:.0f}%) | "
            f">= {GOALS[kind]:,} per core: **{met}** |"
        )
        goals.append(f"{shown}: {result['cpu']:,.0f} hands per CPU-second ({met})")
        print(rows[-1], file=sys.stderr)
    framework = ""
    if args.eaai_framework:
        rate, hands = framework_harness(args.eaai_framework, args.harness_games)
        framework = (
            f"\nThe EAAI framework's own harness (`GinRummyGame`, SimpleGinRummyPlayer against itself, "
            f"{args.harness_games:,} games, {hands:,} hands, one JVM, JIT warm-up included): "
            f"{rate:,.0f} hands/s wall.\n"
        )
        print(framework.strip(), file=sys.stderr)
    command = harness.command("bench_programs", list(argv if argv is not None else sys.argv[1:]))
    for path in {args.eaai_classpath, args.eaai_framework} - {None}:
        command = command.replace(path, "CLASSPATH")
    text = "\n".join(
        [
            f"Measured {machine}.",
            "",
            f"Reproduce: `{command}`",
            "",
            "TESTS is tests/java compiled (the stand-in framework and the test players); CLASSPATH, "
            "when given, the compiled public framework (`javac -d CLASSPATH gin-rummy-eaai/ginrummy/*.java`).",
            "",
            "| pairing (standard rules, one worker) | hands | hands/s wall (median, min-max) | "
            "hands per CPU-second, all processes (median, min-max) | CPU ms per hand (simgin's share) | goal |",
            "|---|---:|---:|---:|---:|---|",
            *rows,
            framework,
            "*Per core* is hands per CPU-second of the whole process tree: simgin's process, which runs "
            "the rules (the Python reference engine, as for any plain-Python strategy), `simple` (through "
            "its adapter) and the protocol, plus the program and its supervisor, which take turns with it, "
            "so one pairing keeps about one core busy. *simgin's share* is the part of that CPU time spent "
            "in simgin's process. Wall time on a quiet machine is close to the CPU figure; on a shared "
            "machine (see the load average) the processes wait for a core and it is lower.",
        ]
    )
    if not args.write:
        print(text)
        return
    written = harness.write_section("programs", "Strategies in other languages (issue 13)", text)
    print(f"wrote {written}; {'; '.join(goals)}", file=sys.stderr)


if __name__ == "__main__":
    main()

"""Where a match's compiled code spends its time: numba functions by their share of CPU samples (Linux perf).

A sampling profiler sees numba's machine code as nameless addresses. This benchmark runs the match in a child
process under ``perf record`` on an empty numba cache (code loaded from the cache carries no function names),
and the child, once its kernels are compiled, writes ``/tmp/perf-PID.map``, the address of every compiled
function, which ``perf report`` reads to name them. The report is cut down to simgin's compiled functions;
each one's share is of the samples that fell in compiled code (compiling, Python and the runner are left out).
A function numba inlined into its caller counts as the caller.

    python -m benchmarks.profile_kernels opponent simple --rules standard --hands 40000
    python -m benchmarks.profile_kernels heuristic opponent --rules eaai --top 15
    python -m benchmarks.profile_kernels opponent heuristic --rules eaai --hands 10 --analyse players

It needs Linux ``perf`` (``linux-tools`` or ``perf`` packages) and leave to sample this user's processes
(``/proc/sys/kernel/perf_event_paranoid`` at most 2); without them it is skipped. The first run compiles the
pairing's kernels (10-60 s of CPU) before the match is timed. A measurement for optimising, so it writes no
section of RESULTS.md: entries there quote its table with the command.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks import harness

QUICK_HANDS = 2_000
#: The variable naming the file in which the profiled process writes its perf map's path.
MAP_NOTE = "SIMGIN_PROFILE_MAP_NOTE"
#: Samples per second: enough for a few percent's resolution in a run of seconds.
FREQUENCY = 999
_SEGMENT = re.compile(r"(\d+)")


def function_name(symbol: str) -> str | None:
    """``simgin.kernels.opponent.sample_hand`` for numba's mangled ``_ZN6simgin7kernels8opponent11sample_handB4v2...``
    (length-prefixed parts up to the first ``B``, numba's specialisation suffix); None for any other symbol."""
    if not symbol.startswith("_ZN"):
        return None
    rest, parts = symbol[3:], []
    while rest and rest[0].isdigit():
        digits = _SEGMENT.match(rest)
        assert digits is not None
        size = int(digits.group(1))
        start = len(digits.group(1))
        parts.append(rest[start : start + size])
        rest = rest[start + size :]
    if len(parts) < 2 or parts[0] != "simgin":
        return None
    return ".".join(parts)


def shares(report: str) -> tuple[int, list[tuple[str, float]]]:
    """The samples in simgin's compiled functions, and each function's share of them, largest first, from
    ``perf report --stdio -n`` text (``--no-children --sort symbol``: one line per symbol, its percentage and
    sample count first)."""
    totals: collections.Counter[str] = collections.Counter()
    for line in report.splitlines():
        fields = line.split()
        if len(fields) < 4 or not fields[0].endswith("%") or not fields[1].isdigit():
            continue
        name = next((n for n in map(function_name, fields[2:]) if n is not None), None)
        if name is not None:
            totals[name] += int(fields[1])
    whole = sum(totals.values())
    return whole, [(name, count / whole) for name, count in totals.most_common()]


def write_perf_map() -> int:
    """Write ``/tmp/perf-PID.map`` for every function of every compiled numba dispatcher in this process; the
    number of functions named. Uses numba's code libraries (their final LLVM module, kept for code compiled in
    this process, not for code loaded from the cache)."""
    import gc

    from numba.core.registry import CPUDispatcher

    addresses: dict[int, str] = {}
    for dispatcher in [obj for obj in gc.get_objects() if isinstance(obj, CPUDispatcher)]:
        for compiled in dispatcher.overloads.values():
            library = compiled.library
            module = getattr(library, "_final_module", None)
            if module is None:
                continue
            for function in module.functions:
                if function.is_declaration:
                    continue
                address = library.get_pointer_to_function(function.name)
                if address:
                    addresses[address] = function.name
    ordered = sorted(addresses)
    ends = [*ordered[1:], ordered[-1] + 4096] if ordered else []
    path = Path(f"/tmp/perf-{os.getpid()}.map")
    with path.open("w") as out:
        for address, following in zip(ordered, ends, strict=True):
            out.write(f"{address:x} {min(following - address, 1 << 20):x} {addresses[address]}\n")
    if note := os.environ.get(MAP_NOTE):  # where the parent finds the map, to remove it after its report
        Path(note).write_text(str(path))
    return len(addresses)


def child(players: tuple[str, str], rules: str, hands: int, playouts: str | None) -> None:
    """In the profiled process: compile on a short run, name the compiled code, then the measured run: a match,
    or with ``playouts`` an analysis of the hands (``simgin.analyse``, with those playouts)."""
    import numba

    import simgin

    def run(count: int, seed: int) -> None:
        if playouts is None:
            simgin.match(*players, rules=rules, hands=count, seed=seed, workers=1)
        else:
            simgin.analyse(*players, rules=rules, hands=count, seed=seed, workers=1, playouts=playouts)

    numba.set_num_threads(1)
    run(100 if playouts is None else 2, 1)
    if write_perf_map() == 0:
        sys.exit("profile_kernels: no compiled function to name (the numba cache was not empty)")
    run(hands, 2)


def main(argv: list[str] | None = None) -> None:
    parser = harness.parser(__doc__, quick=f"{QUICK_HANDS:,} hands of opponent against simple", write=False)
    parser.add_argument("players", nargs="*", default=["opponent", "simple"], help="two players (opponent simple)")
    parser.add_argument("--rules", default="standard", help="a rules preset (standard)")
    parser.add_argument("--hands", type=int, default=40_000, help="hands of the measured match (40,000)")
    parser.add_argument("--top", type=int, default=20, help="functions to list (20)")
    parser.add_argument(
        "--analyse", metavar="PLAYOUTS", choices=("fast", "scored", "players"),
        help="profile `simgin.analyse` of the hands with these playouts instead of a match (give fewer --hands)",
    )  # fmt: skip
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if len(args.players) != 2:
        parser.error(f"players: give two, not {len(args.players)}")
    hands = QUICK_HANDS if args.quick else args.hands
    if args.child:
        child((args.players[0], args.players[1]), args.rules, hands, args.analyse)
        return
    perf = shutil.which("perf")
    if perf is None:
        raise harness.Skip("profile_kernels needs Linux perf (not found on PATH)")
    with tempfile.TemporaryDirectory(prefix="simgin-profile-") as work:
        data = Path(work) / "perf.data"
        note = Path(work) / "map-path"
        env = {**os.environ, "NUMBA_CACHE_DIR": str(Path(work) / "numba"), "NUMBA_NUM_THREADS": "1"}
        env[MAP_NOTE] = str(note)
        analyse = ["--analyse", args.analyse] if args.analyse else []
        command = [sys.executable, "-m", "benchmarks.profile_kernels", "--child", "--rules", args.rules,
                   "--hands", str(hands), *analyse, *args.players]  # fmt: skip
        record = subprocess.run(
            [perf, "record", "-q", "-F", str(FREQUENCY), "-o", str(data), "--", *command],
            env=env, capture_output=True, text=True,
        )  # fmt: skip
        if record.returncode != 0:
            last = (record.stderr.strip().splitlines() or ["no message"])[-1]
            raise harness.Skip(f"profile_kernels: perf record failed ({last})")
        reported = subprocess.run(
            [perf, "report", "-i", str(data), "--stdio", "-n", "--no-children", "--sort", "symbol"],
            capture_output=True, text=True,
        )  # fmt: skip
        if note.exists():
            Path(note.read_text()).unlink(missing_ok=True)  # the perf map: nothing is left in /tmp
        if reported.returncode != 0:
            last = (reported.stderr.strip().splitlines() or ["no message"])[-1]
            raise harness.Skip(f"profile_kernels: perf report failed ({last})")
    samples, table = shares(reported.stdout)
    if not table:
        raise harness.Skip("profile_kernels: perf named no compiled function (no perf map read?)")
    what = f"analysed with {args.analyse} playouts" if args.analyse else "played"
    print(f"{' vs '.join(args.players)}, {args.rules} rules, {hands:,} hands {what}, numba on one thread, "
          f"{samples:,} samples in compiled code at {FREQUENCY} a second; {harness.machine()}")  # fmt: skip
    print("| compiled function | share of compiled samples |")
    print("|---|---:|")
    for name, share in table[: args.top]:
        print(f"| `{name.removeprefix('simgin.')}` | {share:.1%} |")


if __name__ == "__main__":
    main(sys.argv[1:])

"""What every benchmark shares: timing that notices other processes, the machine described one way, the
sections of RESULTS.md each benchmark writes, and the common flags (issue 33 item 3).

Timing: a timed run during which other processes used more than ``QUIET_CORES`` (plus two clock ticks of
measuring slack) counts as disturbed; the benchmarks redo such a run, up to ``REDO_LIMIT`` times per
measurement, so that on a shared machine the figures come from runs that had the cores to themselves.

Sections: each benchmark owns the text between ``<!-- name:start -->`` and ``<!-- name:end -->`` in
benchmarks/RESULTS.md (:func:`write_section`); everything outside its markers is kept as it is.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "RESULTS.md"

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
QUIET_CORES = 0.25
REDO_LIMIT = 5


# -- timing ---------------------------------------------------------------------------------------------------


def cpu_seconds() -> tuple[float, float]:
    """(busy CPU seconds of the whole machine from /proc/stat, CPU seconds of this process)."""
    try:
        with open("/proc/stat") as stat:
            ticks = [int(value) for value in stat.readline().split()[1:9]]
    except OSError:
        return 0.0, time.process_time()
    idle = ticks[3] + ticks[4]  # idle, iowait; the rest (steal included) is CPU we did not get
    return (sum(ticks) - idle) / CLOCK_TICKS, time.process_time()


def machine_busy_seconds() -> float:
    """Busy CPU seconds of the whole machine since boot (/proc/stat, idle and iowait excluded)."""
    return cpu_seconds()[0]


def children_cpu() -> float:
    """CPU seconds (user + system) of this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def process_tree(root: int) -> list[int]:
    """``root`` and every live descendant of it, from /proc (parents before their children)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def timed_run(call: Callable[[], object]) -> tuple[float, float]:
    """(wall-clock seconds of one call, CPU seconds other processes used meanwhile)."""
    busy, own = cpu_seconds()
    start = time.perf_counter()
    call()
    seconds = time.perf_counter() - start
    busy_after, own_after = cpu_seconds()
    return seconds, max(0.0, (busy_after - busy) - (own_after - own))


def contended(seconds: float, other: float) -> bool:
    """Whether a run of ``seconds`` during which other processes used ``other`` CPU seconds was disturbed."""
    return other > QUIET_CORES * seconds + 2 / CLOCK_TICKS


def wait_for_quiet(limit: float, window: float = 5.0, threshold: float = 0.2) -> str:
    """Wait (up to ``limit`` seconds) for a ``window`` in which other processes use under ``threshold`` cores."""
    deadline = time.monotonic() + limit
    while True:
        busy, own = cpu_seconds()
        time.sleep(window)
        busy_after, own_after = cpu_seconds()
        other = max(0.0, (busy_after - busy) - (own_after - own)) / window
        if other < threshold:
            return f"quiet ({other:.2f} cores used by other processes over {window:.0f} s)"
        if time.monotonic() >= deadline:
            return f"busy ({other:.2f} cores used by other processes; gave up waiting after {limit:.0f} s)"
        print(f"waiting for a quiet machine: other processes use {other:.2f} cores ...", file=sys.stderr)


@dataclass(frozen=True)
class ChildRun:
    """A command timed in a child process: its wall time, the CPU time of its process tree (the command and
    its workers), the CPU other processes used meanwhile, the load average around it, and its output."""

    wall: float
    tree_cpu: float
    other: float
    load_before: float
    load_after: float
    done: subprocess.CompletedProcess

    def line(self, goal: float, goal_text: str) -> str:
        """The measurement in one sentence, with the verdict on a wall-time ``goal`` in seconds."""
        verdict = (
            "**met**"
            if self.wall <= goal
            else f"**not met on this shared machine** (CPU time / 2 = {self.tree_cpu / 2:.0f} s)"
        )
        return (
            f"Wall time {self.wall:.0f} s; CPU time of the command and its workers {self.tree_cpu:.0f} s; other "
            f"processes used {self.other:.0f} CPU seconds meanwhile ({self.other / self.wall:.2f} cores; load "
            f"average {self.load_before:.2f} before, {self.load_after:.2f} after). {goal_text}: {verdict}."
        )


def run_child(command: list[str]) -> ChildRun:
    """Run ``command`` (its output captured) and time it as :class:`ChildRun` says; exit with its error
    when it fails."""
    load_before = os.getloadavg()[0]
    busy, cpu = machine_busy_seconds(), children_cpu()
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - started
    tree_cpu = children_cpu() - cpu
    other = max(0.0, machine_busy_seconds() - busy - tree_cpu)
    if done.returncode:
        sys.exit(f"{' '.join(command[:4])} ... failed: {done.stderr.strip()}")
    return ChildRun(wall, tree_cpu, other, load_before, os.getloadavg()[0], done)


SIMGIN = [sys.executable, "-m", "simgin"]


# -- the machine ----------------------------------------------------------------------------------------------


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (with family and model numbers when given)."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError:
        return platform.processor() or platform.machine() or "unknown"
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
    """The checked-out commit, marked when tracked files have uncommitted changes."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{commit} (with uncommitted changes)" if dirty else commit


def now() -> str:
    """The time, as every section writes it."""
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


def load_average() -> str:
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def machine() -> str:
    """The machine in one line, as every section names it: date, cores, CPU, software, revision, load."""
    import numba
    import numpy as np

    import simgin

    return (
        f"{now()}; `nproc` = {core_count()} cores, {cpu_model()}; {platform.system()} {platform.release()}; "
        f"Python {platform.python_version()}, numba {numba.__version__}, numpy {np.__version__}, "
        f"simgin {simgin.__version__} (revision {git_revision()}); load average {load_average()}"
    )


def machine_lines() -> list[str]:
    """:func:`machine` as a Markdown list, for a section's head."""
    import numba
    import numpy as np

    return [
        f"- Date: {now()}",
        f"- Machine: `nproc` = {core_count()} cores; CPU: {cpu_model()}; {platform.system()} {platform.release()}",
        f"- Python {platform.python_version()}, numba {numba.__version__}, numpy {np.__version__}; "
        f"numba threads: {numba.config.NUMBA_NUM_THREADS}",
        f"- simgin revision: {git_revision()}",
        f"- Load average (1, 5, 15 min) at the start: {load_average()}",
    ]


# -- RESULTS.md -----------------------------------------------------------------------------------------------


def markers(name: str) -> tuple[str, str]:
    return f"<!-- {name}:start -->", f"<!-- {name}:end -->"


def read_section(name: str, path: Path | None = None) -> str | None:
    """The text between ``name``'s markers in ``path`` (RESULTS.md), or None when they are missing."""
    path = path or RESULTS
    start, end = markers(name)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    found = re.search(re.escape(start) + r"\n?(.*?)\n?" + re.escape(end), text, re.S)
    return found.group(1) if found else None


def write_section(name: str, heading: str, body: str, path: Path | None = None) -> Path:
    """Put ``body`` between ``name``'s markers of ``path`` (RESULTS.md), keeping everything outside them;
    when the markers are missing, append ``## heading`` and the marked section at the end."""
    path = path or RESULTS
    start, end = markers(name)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    block = f"{start}\n{body.strip()}\n{end}"
    first, last = text.find(start), text.find(end)
    if first >= 0 and last > first:
        text = text[:first] + block + text[last + len(end) :]
    else:
        text = text.rstrip("\n") + ("\n\n" if text.strip() else "") + f"## {heading}\n\n{block}\n"
    path.write_text(text, encoding="utf-8")
    return path


def publish(args: argparse.Namespace, name: str, heading: str, lines: list[str], stream: TextIO | None = None) -> None:
    """The end of a benchmark's run: print its section (``lines``), and with ``--write`` (never with ``--quick``)
    put it between ``name``'s markers of RESULTS.md (:func:`write_section`, ``heading`` when the section is new),
    saying where on ``stream`` (standard output by default)."""
    text = "\n".join(lines)
    print(text)
    if args.write and not args.quick:
        print(f"wrote {write_section(name, heading, text)}", file=stream or sys.stdout)


# -- flags ----------------------------------------------------------------------------------------------------


def command(module: str, argv: list[str] | None = None) -> str:
    """How to run a benchmark from the repository root, as RESULTS.md writes it."""
    return " ".join(["python", "-m", f"benchmarks.{module}", *(argv or [])])


def parser(doc: str | None, *, quick: str | None = None, write: bool = True) -> argparse.ArgumentParser:
    """A benchmark's argument parser with the flags every benchmark shares: ``--quick`` (small samples, a
    smoke test that writes nothing) and ``--write`` (put the section into RESULTS.md)."""
    first = (doc or "").strip().splitlines()[0] if doc else None
    result = argparse.ArgumentParser(description=first)
    result.add_argument("--quick", action="store_true", help=quick or "small samples: a smoke test")
    if write:
        result.add_argument("--write", action="store_true", help="write the section into benchmarks/RESULTS.md")
    return result


class Skip(SystemExit):
    """A benchmark that cannot run here (software it measures against is missing); the message says what.

    Run alone, the benchmark stops with the message and exit status 1; ``benchmarks.run_all`` reports it as
    skipped and goes on."""

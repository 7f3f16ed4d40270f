"""The speed target of issue 23, measured through the CLI: a 4-cell x 3-player variant sweep of the fast bots.

``simgin sweep simple greedy heuristic --grid preset=standard,oklahoma,hollywood,straight --games 1000
--workers 2`` (every pairing in every cell, 1,000 games per pairing and cell, with its differences,
ratings and skill spreads) must finish in under 3 minutes on 2 cores.

    python benchmarks/bench_sweep.py                # print the measurement
    python benchmarks/bench_sweep.py --write        # also put it into benchmarks/RESULTS.md

As in bench_tune.py, the command runs in a child process after a tiny sweep that warms numba's cache;
its wall time, the CPU time of the process tree (the CLI and its workers) and the CPU other processes
used meanwhile are recorded, so a run on a shared machine shows as such. ``--write`` puts the result
between the ``sweep-speed`` markers of benchmarks/RESULTS.md (in a section "Variant studies").
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_tune import children_cpu, machine_busy_seconds, revision

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "RESULTS.md"
PLAYERS = ["simple", "greedy", "heuristic"]
GRID = "preset=standard,oklahoma,hollywood,straight"
WALL_GOAL = 180.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="games per pairing and cell (default 1000)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--write", action="store_true", help="write the section into benchmarks/RESULTS.md")
    args = parser.parse_args()
    out = Path(tempfile.mkdtemp(prefix="simgin-sweep-")) / "run"
    command = ["simgin", "sweep", *PLAYERS, "--grid", GRID, "--games", str(args.games)]
    command += ["--workers", str(args.workers), "--seed", "0"]
    python = [sys.executable, "-m", "simgin"]
    warm = [*python, "sweep", *PLAYERS, "--grid", GRID, "--games", "2", "--workers", "1", "--quiet"]
    subprocess.run(warm, check=True, capture_output=True)
    load_before = os.getloadavg()
    busy, cpu = machine_busy_seconds(), children_cpu()
    started = time.perf_counter()
    done = subprocess.run(
        [*python, *command[1:], "--out", str(out), "--json", "--quiet"], capture_output=True, text=True
    )
    wall = time.perf_counter() - started
    tree_cpu = children_cpu() - cpu
    other = max(0.0, machine_busy_seconds() - busy - tree_cpu)
    load_after = os.getloadavg()
    if done.returncode:
        sys.exit(f"the sweep failed: {done.stderr.strip()}")
    result = json.loads(done.stdout)
    games = sum(p["games"] for cell in result["cells"] if cell["same_game_as"] is None for p in cell["pairings"])
    spreads = ", ".join(
        f"{cell['label']} {cell['skill_spread']['spread']:.0f} ({cell['skill_spread']['low']:.0f} to "
        f"{cell['skill_spread']['high']:.0f})"
        for cell in result["cells"]
    )
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    verdict = (
        "**met**" if wall <= WALL_GOAL else f"**not met on this shared machine** (CPU time / 2 = {tree_cpu / 2:.0f} s)"
    )
    lines = [
        f"Measured {when} on `nproc` = {os.cpu_count()} cores ({platform.machine()}), Python "
        f"{platform.python_version()}, simgin revision {revision()}; numba cache warm.",
        "",
        "Reproduce: `python benchmarks/bench_sweep.py --write`, which runs",
        "",
        "```",
        shlex.join([*command, "--out", "DIR", "--json"]),
        "```",
        "",
        f"- Wall time {wall:.0f} s; CPU time of the command and its workers {tree_cpu:.0f} s; other processes used "
        f"{other:.0f} CPU seconds meanwhile ({other / wall:.2f} cores; load average {load_before[0]:.2f} before, "
        f"{load_after[0]:.2f} after). Goal < {WALL_GOAL:.0f} s on 2 cores: {verdict}.",
        f"- {games:,} games in {len(result['cells'])} cells; {result['significant']} of {result['comparisons']} "
        f"differences from {result['baseline']['label']} significant after Holm's correction; skill spread (Elo, "
        f"95% interval) per cell: {spreads}.",
    ]
    text = "\n".join(lines)
    print(text)
    if args.write:
        content = RESULTS.read_text()
        section = f"<!-- sweep-speed:start -->\n{text}\n<!-- sweep-speed:end -->"
        if "<!-- sweep-speed:start -->" in content:
            pattern = r"<!-- sweep-speed:start -->.*?<!-- sweep-speed:end -->"
            content = re.sub(pattern, lambda _: section, content, flags=re.DOTALL)
        else:
            marker = "## Optimisation log"
            content = content.replace(marker, f"## Variant studies (issue 23)\n\n{section}\n\n{marker}", 1)
        RESULTS.write_text(content)


if __name__ == "__main__":
    main()

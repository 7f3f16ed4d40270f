"""The speed target of issue 23, measured through the CLI: a 4-cell x 3-player variant sweep of the fast bots.

``simgin sweep simple greedy heuristic --grid preset=standard,oklahoma,hollywood,straight --games 1000
--workers 2`` (every pairing in every cell, 1,000 games per pairing and cell, with its differences,
ratings and skill spreads) must finish in under 3 minutes on 2 cores.

    python -m benchmarks.bench_sweep                # print the measurement
    python -m benchmarks.bench_sweep --write        # also put it into benchmarks/RESULTS.md

As in bench_tune.py, the command runs in a child process after a tiny sweep that warms numba's cache;
its wall time, the CPU time of the process tree (the CLI and its workers) and the CPU other processes
used meanwhile are recorded, so a run on a shared machine shows as such. ``--write`` puts the result
between the ``sweep-speed`` markers of benchmarks/RESULTS.md (in a section "Variant studies").
"""

from __future__ import annotations

import json
import shlex
import tempfile
from pathlib import Path

from benchmarks import harness

PLAYERS = ["simple", "greedy", "heuristic"]
GRID = "preset=standard,oklahoma,hollywood,straight"
WALL_GOAL = 180.0


def main(argv: list[str] | None = None) -> None:
    parser = harness.parser(__doc__, quick="20 games per pairing and cell, 1 worker (a smoke test)")
    parser.add_argument("--games", type=int, default=1000, help="games per pairing and cell (default 1000)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    args = parser.parse_args(argv)
    games, workers = (20, 1) if args.quick else (args.games, args.workers)
    out = Path(tempfile.mkdtemp(prefix="simgin-sweep-")) / "run"
    command = ["simgin", "sweep", *PLAYERS, "--grid", GRID, "--games", str(games)]
    command += ["--workers", str(workers), "--seed", "0"]
    warm = [*harness.SIMGIN, "sweep", *PLAYERS, "--grid", GRID, "--games", "2", "--workers", "1", "--quiet"]
    harness.run_child(warm)
    run = harness.run_child([*harness.SIMGIN, *command[1:], "--out", str(out), "--json", "--quiet"])
    result = json.loads(run.done.stdout)
    played = sum(p["games"] for cell in result["cells"] if cell["same_game_as"] is None for p in cell["pairings"])
    spreads = ", ".join(
        f"{cell['label']} {cell['skill_spread']['spread']:.0f} ({cell['skill_spread']['low']:.0f} to "
        f"{cell['skill_spread']['high']:.0f})"
        for cell in result["cells"]
    )
    lines = [
        f"Measured {harness.machine()}; numba cache warm.",
        "",
        f"Reproduce: `{harness.command('bench_sweep', ['--write'])}`, which runs",
        "",
        "```",
        shlex.join([*command, "--out", "DIR", "--json"]),
        "```",
        "",
        f"- {run.line(WALL_GOAL, f'Goal < {WALL_GOAL:.0f} s on 2 cores')}",
        f"- {played:,} games in {len(result['cells'])} cells; {result['significant']} of {result['comparisons']} "
        f"differences from {result['baseline']['label']} significant after Holm's correction; skill spread (Elo, "
        f"95% interval) per cell: {spreads}.",
    ]
    harness.publish(args, "sweep-speed", "Variant studies (issue 23)", lines)


if __name__ == "__main__":
    main()

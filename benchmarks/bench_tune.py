"""The target of issue 12, measured through the CLI: ``simgin tune`` at its default budget.

From a start that loses to ``simple`` under Hollywood scoring (the ``heuristic`` defaults
of the time, written out in full), the tune must finish in <= 10 minutes on 2 cores, beat
the start on fresh deals with p < 0.01, and beat ``simple`` with the interval above 50%.

    python -m benchmarks.bench_tune                 # print the measurement
    python -m benchmarks.bench_tune --write         # also put it into benchmarks/RESULTS.md

The command runs in a child process; its wall time, the CPU time of the process tree (the
CLI and its worker processes) and the CPU other processes used meanwhile are recorded, so a
run on a shared machine shows as such. A tiny match first makes sure numba's cache is warm.
``--write`` puts the section between the ``tune`` markers of benchmarks/RESULTS.md.
"""

from __future__ import annotations

import json
import shlex
import tempfile
from pathlib import Path

from benchmarks import harness

START = (
    "heuristic:knock=10,knock_late=0,gin_hold=10,gin_stock=0,potential=0.5,value=0,safety=2,draw_margin=0,evidence=0.6"
)
WALL_GOAL = 600.0


def main(argv: list[str] | None = None) -> None:
    parser = harness.parser(__doc__, quick="--budget 4 --games 20 --final 40 (a smoke test)")
    parser.add_argument("--seed", type=int, default=0, help="the tune's --seed (default 0)")
    parser.add_argument("--out", type=Path, default=None, help="the tune's --out directory (default: a fresh one)")
    args = parser.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="simgin-tune-")) / "run"
    command = ["simgin", "tune", "heuristic", "--against", "simple", "--rules", "hollywood", "--start", START]
    command += ["--budget", "4", "--games", "20", "--final", "40"] if args.quick else []
    command += ["--seed", str(args.seed), "--out", str(out), "--json", "--quiet"]
    harness.run_child([*harness.SIMGIN, "match", "heuristic", "simple", "--games", "2", "--rules", "hollywood"])
    run = harness.run_child([*harness.SIMGIN, *command[1:]])
    result = json.loads(run.done.stdout)
    low, high = result["score_ci"]
    start_low, start_high = result["start_score_ci"]
    lines = [
        f"Measured {harness.machine()}; numba cache warm.",
        "",
        f"Reproduce: `{harness.command('bench_tune', ['--write'])}`, which runs",
        "",
        "```",
        shlex.join([*command[:-4], "--out", "DIR", "--json"]),
        "```",
        "",
        f"- {run.line(WALL_GOAL, f'Goal <= {WALL_GOAL:.0f} s on 2 cores')}",
        f"- {result['evaluations']} evaluations, {result['games']:,} games in all; tuned spec `{result['spec']}`.",
        f"- Final measurement on fresh deals: tuned wins {100 * result['score']:.1f}% "
        f"({100 * low:.1f}-{100 * high:.1f}%) of games against simple, the start "
        f"{100 * result['start_score']:.1f}% ({100 * start_low:.1f}-{100 * start_high:.1f}%); "
        f"paired difference p = {result['p_value']:.2g}. Goals: beats the start with p < 0.01: "
        f"**{'met' if result['p_value'] < 0.01 else 'not met'}**; beats simple with the interval above 50%: "
        f"**{'met' if low > 0.5 else 'not met'}**.",
        f"- Phases (wall): search {result['timing']['search_seconds']:.0f} s, finalists replayed "
        f"{result['timing']['select_seconds']:.0f} s, final measurement {result['timing']['final_seconds']:.0f} s.",
    ]
    harness.publish(args, "tune", "Tuning (issue 12)", lines)


if __name__ == "__main__":
    main()

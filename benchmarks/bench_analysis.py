"""``simgin analyse`` (issue 34): its speed against the goal, and the ladder of bots ranked by loss per decision.

- Speed: ``simgin analyse simple greedy --hands 200 --workers 2`` through the CLI (about 4,000 decisions,
  64 worlds each), numba cache warm; goal: at most 3 minutes on 2 cores.
- The ladder: each bot against ``simple`` (``--hands`` hands, duplicate deals, seed 0), its mean points lost
  per decision with the 95% interval (hands as the units), under the standard and eaai rules. The issue
  expects random > simple ~ greedy > heuristic > opponent > mcts.

    python -m benchmarks.bench_analysis            # print the section
    python -m benchmarks.bench_analysis --write    # and put it into benchmarks/RESULTS.md
    python -m benchmarks.bench_analysis --quick    # a smoke test
"""

from __future__ import annotations

import json

from benchmarks import harness

WALL_GOAL = 180.0
LADDER = ("random", "simple", "greedy", "heuristic", "opponent", "mcts")


def ladder_rows(rules: str, hands: int, mcts_hands: int) -> list[str]:
    import simgin

    rows = []
    for bot in LADDER:
        count = mcts_hands if bot == "mcts" else hands
        if count == 0:
            continue
        result = simgin.analyse(bot, "simple", rules=rules, hands=count).to_json()
        me = result["players"][0]
        low, high = me["mean_loss_ci"]
        rows.append(
            f"| {rules} | `{bot}` | {count} | {me['decisions']:,} | {me['mean_loss']:.2f} ({low:.2f}-{high:.2f}) | "
            f"{me['accuracy']:.1f} | {me['inaccuracies']} / {me['mistakes']} / {me['blunders']} |"
        )
        print(rows[-1], flush=True)
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = harness.parser(__doc__, quick="20 hands, standard rules only, no mcts (a smoke test)")
    parser.add_argument("--hands", type=int, default=200, help="hands per bot of the ladder (default 200)")
    parser.add_argument("--mcts-hands", type=int, default=40, help="hands of mcts (slow: default 40)")
    args = parser.parse_args(argv)
    hands = 20 if args.quick else 200
    command = ["analyse", "simple", "greedy", "--hands", str(hands), "--workers", "2", "--json", "--quiet"]
    harness.run_child([*harness.SIMGIN, "analyse", "simple", "greedy", "--hands", "2", "--workers", "1", "--quiet"])
    run = harness.run_child([*harness.SIMGIN, *command])
    data = json.loads(run.done.stdout)
    decisions = sum(player["decisions"] for player in data["players"])
    lines = [
        f"Measured {harness.machine()}; numba cache warm.",
        "",
        f"Reproduce: `{harness.command('bench_analysis', ['--write'])}`",
        "",
        f"**Speed**: `simgin {' '.join(command[:-2])}` ({decisions:,} decisions, 64 worlds each): "
        f"{run.line(WALL_GOAL, f'Goal <= {WALL_GOAL:.0f} s on 2 cores')}",
        "",
        "**The ladder**: each bot against `simple`, duplicate deals, seed 0; mean points of the hand lost per "
        "decision with its 95% interval (hands as the units), accuracy, and inaccuracies / mistakes / blunders "
        "(docs/ANALYSIS.md).",
        "",
        "| rules | bot | hands | decisions | loss per decision (95% CI) | accuracy | flags |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for rules in ("standard",) if args.quick else ("standard", "eaai"):
        lines += ladder_rows(rules, 20 if args.quick else args.hands, 0 if args.quick else args.mcts_hands)
    text = "\n".join(lines)
    print(text)
    if args.write and not args.quick:
        print(f"wrote {harness.write_section('analysis', 'Decision analysis (issue 34)', text)}")


if __name__ == "__main__":
    main()

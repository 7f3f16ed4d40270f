"""``simgin analyse`` (issue 34): its speed against the goal, and the ladder of bots ranked by loss per decision.

- Speed: ``simgin analyse simple greedy --hands 200 --workers 2`` through the CLI (about 4,000 decisions,
  64 worlds each), numba cache warm; goal: at most 3 minutes on 2 cores.
- The ladder: each bot against ``simple`` (``--hands`` hands, duplicate deals, seed 0), its mean points lost
  per decision with the 95% interval (deal pairs as the units), under the standard and eaai rules. The issue
  expects random > simple ~ greedy > heuristic > opponent > mcts.
- Does the advice hold in play: the 20 costliest decisions of ``opponent`` vs ``heuristic`` (eaai), and a
  seeded sample of 40 of its decisions flagged as mistakes or blunders (the check issue 34 asks for), each
  played again both ways from its exact position; with the default (fast) playouts and with the players' own.

    python -m benchmarks.bench_analysis            # print the section
    python -m benchmarks.bench_analysis --write    # and put it into benchmarks/RESULTS.md
    python -m benchmarks.bench_analysis --quick    # a smoke test
"""

from __future__ import annotations

import json
import time

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


def advice_lines(hands: int, count: int, continuations: int, playouts: str = "fast") -> list[str]:
    """The advice-holds check: the costliest decisions of `opponent` vs `heuristic` (eaai) played both ways, valued
    with the ``playouts`` given (docs/ANALYSIS.md)."""
    import numpy as np

    import simgin
    from simgin.analysis.advice import check_costliest, check_flagged

    start = time.perf_counter()
    result = simgin.analyse("opponent", "heuristic", rules="eaai", hands=hands, playouts=playouts)
    seconds = time.perf_counter() - start
    me = result.to_json()["players"][0]
    option = "" if playouts == "fast" else f" --playouts {playouts}"
    luck_line = (
        f"**Luck and skill** (the same analysis; luck measured event by event, docs/ANALYSIS.md): `opponent` nets "
        f"{me['net_points']:+,.0f} points = skill {me['skill']:+,.0f} (per hand {me['skill_per_hand_ci'][0]:+.2f} to "
        f"{me['skill_per_hand_ci'][1]:+.2f}) + luck {me['luck']:+,.0f} (per hand {me['luck_per_hand_ci'][0]:+.2f} to "
        f"{me['luck_per_hand_ci'][1]:+.2f}); the decisions' valued losses explain {me['decisions_value']:+,.0f} of "
        "the skill (per hand {:+.2f} to {:+.2f}).".format(*me["decisions_value_per_hand_ci"])
    )
    checked = check_costliest(result, count=count, continuations=continuations)
    claimed = np.array([item["claimed"] for item in checked])
    fresh = np.array([item["fresh_claim"] for item in checked])
    realised = np.array([item["realised"] for item in checked])
    errors = np.array([item["realised_error"] for item in checked])
    half = 1.96 * realised.std(ddof=1) / np.sqrt(len(realised)) if len(realised) > 1 else float("nan")
    lines = [
        luck_line,
        "",
        f"**Does the advice hold in play?** The {len(checked)} costliest decisions of `simgin analyse opponent "
        f"heuristic --rules eaai --hands {hands}{option}` (analysed in {seconds:.0f} s), each played again from its "
        "exact position (the real hidden cards, the same players after the decision) with the recommended action "
        "and with the chosen one, in "
        f"{continuations} shuffles of the stock not yet drawn (`simgin.analysis.advice`): the evaluator claimed "
        f"a mean loss of {claimed.mean():.1f} points, {fresh.mean():.1f} when valued again in fresh worlds (four "
        "times as many, another seed: the 20 largest claims of thousands were partly picked for their noise); "
        "the recommended action did better in play by "
        f"{realised.mean():.1f} points on average ({realised.mean() - half:.1f} to {realised.mean() + half:.1f}, "
        f"95% over the decisions); better in {int((realised > 0).sum())} of {len(checked)} (by two standard "
        f"errors in {int((realised > 2 * errors).sum())}), worse by two standard errors in "
        f"{int((realised < -2 * errors).sum())}.",
        "",
        "| hand | player | kind | claimed loss | in fresh worlds | realised gain in play |",
        "|---:|---|---|---:|---:|---:|",
    ]
    for item in checked:
        lines.append(
            f"| {item['hand']} | `{item['player']}` | {item['kind']} | {item['claimed']:.1f} +/- "
            f"{item['claimed_error']:.1f} | {item['fresh_claim']:.1f} +/- {item['fresh_claim_error']:.1f} | "
            f"{item['realised']:.1f} +/- {item['realised_error']:.1f} |"
        )
    flagged = check_flagged(result, count=2 * count, continuations=continuations)
    return [*lines, "", flagged_line(flagged, continuations)]


def flagged_line(checked: list[dict], continuations: int) -> str:
    """The check of a seeded sample of the decisions flagged as mistakes or blunders (issue 34's own wording): the
    mean claim, fresh claim and realised gain with 95% intervals over the decisions, and realised minus fresh."""
    import numpy as np

    def interval(values: np.ndarray) -> str:
        mean = values.mean()
        half = 1.96 * values.std(ddof=1) / np.sqrt(len(values)) if len(values) > 1 else float("nan")
        return f"{mean:+.2f} ({mean - half:+.2f} to {mean + half:+.2f})"

    if not checked:
        return "**A sample of the flagged decisions**: none was flagged as a mistake or blunder."
    claimed, fresh, realised, errors = (
        np.array([item[key] for item in checked]) for key in ("claimed", "fresh_claim", "realised", "realised_error")
    )
    return (
        f"**A sample of the flagged decisions** (issue 34's check: {len(checked)} of the same analysis's decisions "
        "flagged as mistakes or blunders, drawn at random with seed 0, each played both ways in "
        f"{continuations} continuations; `simgin.analysis.advice.check_flagged`): claimed {interval(claimed)}, in "
        f"fresh worlds {interval(fresh)}, realised in play {interval(realised)}; realised minus the fresh claim "
        f"{interval(realised - fresh)}; better by two standard errors in {int((realised > 2 * errors).sum())}, "
        f"worse by two in {int((realised < -2 * errors).sum())}."
    )


def main(argv: list[str] | None = None) -> None:
    parser = harness.parser(__doc__, quick="20 hands, standard rules only, no mcts (a smoke test)")
    parser.add_argument("--hands", type=int, default=200, help="hands per bot of the ladder (default 200)")
    parser.add_argument("--mcts-hands", type=int, default=200, help="hands of mcts (default 200, about 45 s)")
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
        "decision with its 95% interval (deal pairs as the units), accuracy, and inaccuracies / mistakes / "
        "blunders (docs/ANALYSIS.md).",
        "",
        "| rules | bot | hands | decisions | loss per decision (95% CI) | accuracy | flags |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for rules in ("standard",) if args.quick else ("standard", "eaai"):
        lines += ladder_rows(rules, 20 if args.quick else args.hands, 0 if args.quick else args.mcts_hands)
    advice = (20, 5, 20) if args.quick else (200, 20, 100)
    lines += ["", *advice_lines(*advice)]
    lines += [
        "",
        "**The same check with the players' own playouts** (`--playouts players`: each world's hand played on by "
        "`opponent` and `heuristic` themselves, kernels/continuation.py):",
        "",
        *advice_lines(*advice, playouts="players"),
    ]
    harness.publish(args, "analysis", "Decision analysis (issue 34)", lines)


if __name__ == "__main__":
    main()

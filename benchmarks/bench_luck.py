"""Luck-adjusted results (issue 35): how much variance the adjustment removes, what it costs, and the hands a
sequential test needs with and without it.

- The variance ratio (plain variance per unit over adjusted) of A's net points per hand and of its hands won,
  duplicate deals, for ``opponent`` against ``heuristic`` and against ``simple`` under standard and eaai rules,
  and for hands under Oklahoma and straight gin: ``simgin.match(..., adjust_luck=True)``, read from its
  ``luck_adjusted``.
- The cost: hands per CPU second with and without the adjustment, one thread, ``simple`` vs ``simple`` and
  ``opponent`` vs ``heuristic`` (goal: at least a third of the plain throughput).
- The hands an SPRT needs to separate ``opponent`` from ``heuristic`` under eaai rules: over 20 seeds,
  ``simgin.compare(..., sprt="points0=0,points1=1")`` (the sequential test of A's net points per hand on
  duplicate hand pairs, docs/STATISTICS.md §13), plain and with ``adjust_luck=True``; the median hands played and
  how often each accepted H1.

``python -m benchmarks.bench_luck --write`` writes the section of RESULTS.md.
"""

from __future__ import annotations

import statistics
import time

import numpy as np

from benchmarks import harness

PAIRS = (("opponent", "heuristic"), ("opponent", "simple"))
RATIO_CELLS = (
    *((pair, preset) for preset in ("standard", "eaai") for pair in PAIRS),
    (("opponent", "heuristic"), "oklahoma"),
    (("opponent", "heuristic"), "straight"),
)
#: The hypotheses of the sequential test: A's net points per hand (H0, H1).
SPRT_POINTS = (0, 1)


def ratio_rows(hands: int) -> list[str]:
    import simgin

    rows = []
    for (a, b), preset in RATIO_CELLS:
        data = simgin.match(a, b, rules=preset, hands=hands, seed=35, adjust_luck=True).to_json()["luck_adjusted"]
        points, won = data["net_points_per_hand"], data["hands_won"]
        rows.append(
            f"| {preset} | `{a}` vs `{b}` | {hands:,} | {points['plain']:+.2f} ({points['plain_ci'][0]:+.2f} to "
            f"{points['plain_ci'][1]:+.2f}) | {points['estimate']:+.2f} ({points['ci'][0]:+.2f} to "
            f"{points['ci'][1]:+.2f}) | **{points['variance_ratio']:.2f}** | {won['variance_ratio']:.2f} |"
        )
        print(rows[-1], flush=True)
    return rows


def throughput(pair: tuple[str, str], hands: int, adjust: bool) -> float:
    """Hands per CPU second of one thread (median of 3), the kernels warm."""
    from simgin import Rules
    from simgin.game import play
    from simgin.kernels import luck as kernel
    from simgin.players.registry import resolve

    players = [resolve(spec) for spec in pair]
    seeds = play.hand_seeds(7, hands)
    dealers = np.arange(hands, dtype=np.int64) % 2
    rates = []
    for _ in range(3):
        luck = np.zeros((hands, kernel.LUCK_FIELDS)) if adjust else None
        start = time.process_time()
        play.play_hand_rows(players, Rules(), seeds, dealers, luck=luck)
        rates.append(hands / (time.process_time() - start))
    return statistics.median(rates)


def hands_to_separate(seed: int, most_hands: int) -> tuple[tuple[int, str], tuple[int, str]]:
    """(plain, adjusted): the hands ``simgin compare`` played before its SPRT decided, and the decision."""
    import simgin

    found = []
    for adjust in (False, True):
        summary = simgin.compare(
            "opponent",
            "heuristic",
            sprt=f"points0={SPRT_POINTS[0]},points1={SPRT_POINTS[1]}",
            rules="eaai",
            seed=seed,
            adjust_luck=adjust,
            workers=1,
            save=False,
        ).summary
        found.append((int(summary["hands"]), str(summary["decision"])))
    return found[0], found[1]


def main(argv: list[str] | None = None) -> None:
    parser = harness.parser(__doc__, quick="small samples (a smoke test)")
    args = parser.parse_args(argv)
    hands = 2_000 if args.quick else 40_000
    lines = [
        f"Measured {harness.machine()}; numba cache warm.",
        "",
        f"Reproduce: `{harness.command('bench_luck', ['--write'])}`",
        "",
        f"**Variance ratios** (`simgin.match(A, B, rules=..., hands={hands:,}, seed=35, adjust_luck=True)`, "
        "duplicate deals; the ratio is the plain variance per deal pair over the adjusted one, so the adjusted "
        "figure needs that many times fewer hands for the same interval; goal: at least 3 for net points):",
        "",
        "| rules | pairing | hands | net points per hand, plain (95% CI) | adjusted (95% CI) | ratio | "
        "ratio, hands won |",
        "|---|---|---:|---:|---:|---:|---:|",
        *ratio_rows(hands),
        "",
        "**Cost**, hands per CPU second of one thread (median of 3), standard rules:",
        "",
        "| pairing | plain | adjusted | share kept (goal >= 1/3) |",
        "|---|---:|---:|---:|",
    ]
    for pair in (("simple", "simple"), ("opponent", "heuristic")):
        count = (2_000 if args.quick else 40_000) if pair[0] == "simple" else (500 if args.quick else 5_000)
        throughput(pair, 100, True)  # compiled and warm
        plain, adjusted = throughput(pair, count, False), throughput(pair, count, True)
        lines.append(f"| `{pair[0]}` vs `{pair[1]}` | {plain:,.0f} | {adjusted:,.0f} | {adjusted / plain:.2f} |")
        print(lines[-1], flush=True)
    seeds = 3 if args.quick else 20
    found = [hands_to_separate(seed, 40_000) for seed in range(seeds)]
    shown = []
    for k, name in enumerate(("plain", "adjusted")):
        hands = [pair[k][0] for pair in found]
        accepted = sum(pair[k][1] == "H1" for pair in found)
        shown.append(
            f"{name}: median {statistics.median(hands):,.0f} hands (quartiles {np.percentile(hands, 25):,.0f}-"
            f"{np.percentile(hands, 75):,.0f}), H1 accepted in {accepted} of {seeds}"
        )
    lines += [
        "",
        f"**Hands an SPRT needs to separate `opponent` from `heuristic`** (eaai rules, `simgin compare opponent "
        f"heuristic --rules eaai --sprt points0={SPRT_POINTS[0]},points1={SPRT_POINTS[1]} --seed S` without and with "
        f"`--adjust-luck`, S = 0..{seeds - 1}; duplicate hand pairs, alpha = beta = 0.05): " + "; ".join(shown) + ".",
    ]
    harness.publish(args, "luck", "Luck-adjusted results (issue 35)", lines)


if __name__ == "__main__":
    main()

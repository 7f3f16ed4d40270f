"""Luck-adjusted results (issue 35): how much variance the adjustment removes, what it costs, and the hands a
sequential test needs with and without it.

- The variance ratio (plain variance per unit over adjusted) of A's net points per hand and of its hands won,
  duplicate deals, for ``opponent`` against ``heuristic`` and against ``simple`` under standard and eaai rules,
  and for hands under Oklahoma and straight gin: ``simgin.match(..., adjust_luck=True)``, read from its
  ``luck_adjusted``.
- The cost: hands per CPU second with and without the adjustment, one thread, ``simple`` vs ``simple`` and
  ``opponent`` vs ``heuristic`` (goal: at least a third of the plain throughput).
- The hands needed to separate ``opponent`` from ``heuristic`` under eaai rules: over 20 seeds, the first
  number of duplicate pairs (in steps of 100) at which the 95% interval of A's net points per hand excludes
  zero, plain and adjusted; the median of each. Repeated looks at a fixed-sample interval, not an SPRT: a
  like-for-like comparison of the two estimators, not a test with a guaranteed level.

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
STEP_PAIRS = 100


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
    from simgin.game import play
    from simgin.game.rules import Rules
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


def hands_to_separate(seed: int, most_pairs: int) -> tuple[int | None, int | None]:
    """(plain, adjusted): the duplicate pairs after which A's net points interval first excludes zero."""
    from simgin.game import play
    from simgin.game.rules import Rules
    from simgin.kernels import luck as kernel
    from simgin.players.registry import resolve
    from simgin.running.tally import net_points

    rules = Rules.preset("eaai").effective("pairs", games=False)
    seeds = play.hand_seeds(seed, most_pairs)
    dealers = np.arange(most_pairs, dtype=np.int64) % 2
    x = np.zeros(most_pairs)
    c = np.zeros(most_pairs)
    for pair, seat_a in ((("opponent", "heuristic"), 0), (("heuristic", "opponent"), 1)):
        luck = np.zeros((most_pairs, kernel.LUCK_FIELDS))
        rows = play.play_hand_rows([resolve(spec) for spec in pair], rules, seeds, dealers, luck=luck)
        x += net_points(rows, np.full(most_pairs, seat_a))
        c += luck[:, 0] * (1 if seat_a == 0 else -1)
    found: list[int | None] = []
    for values in (x, x - c):
        first = None
        for n in range(STEP_PAIRS, most_pairs + 1, STEP_PAIRS):
            part = values[:n]
            if part.mean() - 1.959964 * part.std(ddof=1) / np.sqrt(n) > 0:
                first = n
                break
        found.append(first)
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
    most = 1_000 if args.quick else 6_000
    found = [hands_to_separate(seed, most) for seed in range(seeds)]
    shown = []
    for k, name in enumerate(("plain", "adjusted")):
        values = [pair[k] if pair[k] is not None else most * 10 for pair in found]
        missed = sum(pair[k] is None for pair in found)
        median = statistics.median(values)
        text = f"more than {most * 2:,}" if median > most else f"{2 * median:,.0f}"
        shown.append(f"{name} {text} hands" + (f" ({missed} of {seeds} seeds did not separate)" if missed else ""))
    lines += [
        "",
        f"**Hands to separate `opponent` from `heuristic`** (eaai rules, duplicate deals, {seeds} seeds, the 95% "
        f"interval of net points per hand checked every {2 * STEP_PAIRS} hands, repeated looks rather than an "
        "SPRT; median): " + "; ".join(shown) + ".",
    ]
    text = "\n".join(lines)
    print(text)
    if args.write and not args.quick:
        print(f"wrote {harness.write_section('luck', 'Luck-adjusted results (issue 35)', text)}")


if __name__ == "__main__":
    main()

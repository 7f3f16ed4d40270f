"""How often a variant study calls a true null significant, per metric and family-wise (docs/STATISTICS.md §10).

A true null: two disjoint slices of one long run of ``simple`` against ``greedy`` (the same rules on other
deals), compared unit by unit exactly as a sweep compares a cell with its baseline
(:func:`simgin.studies.sweep.compare_units`, then Holm over the metrics). Each row gives, at one number of units
per cell, the share of repetitions in which each metric's raw p is below 0.05 and the share in which at least
one metric is significant after Holm. A calibrated study rejects about 5% raw and at most 5% family-wise.

    python -m benchmarks.null_rejection                     # prints the table (a few minutes)
    python -m benchmarks.null_rejection --write             # and puts it into benchmarks/RESULTS.md
    python -m benchmarks.null_rejection --reps 200 --sizes 2,40
"""

from __future__ import annotations

import os

import numpy as np

from benchmarks import harness
from simgin.running import runner
from simgin.statistics.stats import holm
from simgin.studies.sweep import compare_units, metric_names


def null_units(mode: str, units: int, seed: int) -> np.ndarray:
    """Unit records of one run: deal pairs of games (``mode='games'``) or of single hands (``'hands'``)."""
    count = {"games": 2 * units, "hands": 2 * units}[mode]
    config = runner.RunConfig(("simple", "greedy"), **{mode: count}, seed=seed, chunk_units=2000)
    return runner.run_cells([config], workers=os.cpu_count() or 1, unit_records=True)[0].units[0]


def rejection_rates(records: np.ndarray, mode: str, size: int, reps: int) -> tuple[dict[str, float], float]:
    """Per metric, the share of ``reps`` disjoint null comparisons of ``size`` units with p < 0.05; and the
    family-wise share (any metric with Holm-adjusted p < 0.05)."""
    metrics = metric_names(mode)
    raw = dict.fromkeys(metrics, 0)
    family = 0
    for r in range(reps):
        one = records[2 * size * r : 2 * size * r + size]
        other = records[2 * size * r + size : 2 * size * (r + 1)]
        p = np.array([compare_units(one, other, metric, mode)[5] for metric in metrics])
        for metric, value in zip(metrics, p, strict=True):
            raw[metric] += bool(value < 0.05)
        family += bool((holm(p) < 0.05).any())
    return {metric: count / reps for metric, count in raw.items()}, family / reps


def table(sizes: list[int], reps: int, seed: int) -> str:
    lines = []
    for mode in ("games", "hands"):
        metrics = metric_names(mode)
        records = null_units(mode, 2 * max(sizes) * reps, seed)
        lines.append(
            f"\n\n**`--{mode}`** (units: deal pairs of {'games' if mode == 'games' else 'single hands'}), "
            f"{reps:,} repetitions per row; binomial SE of a 5% rate: {100 * (0.05 * 0.95 / reps) ** 0.5:.1f} "
            "points\n"
        )
        lines.append("| units per cell | " + " | ".join(metrics) + " | any, after Holm |")
        lines.append("|---" * (len(metrics) + 2) + "|")
        for size in sizes:
            raw, family = rejection_rates(records, mode, size, reps)
            cells = " | ".join(f"{100 * raw[m]:.1f}%" for m in metrics)
            lines.append(f"| {size} | {cells} | {100 * family:.1f}% |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = harness.parser(__doc__, quick="20 repetitions at 2 and 10 units per cell (a smoke test)")
    parser.add_argument("--sizes", default="2,4,10,20,30,50,100", help="units per cell, comma-separated")
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=32)
    args = parser.parse_args(argv)
    if args.quick:
        args.sizes, args.reps = "2,10", 20
    sizes = [int(size) for size in args.sizes.split(",")]
    command = harness.command("null_rejection", [] if args.reps == 1000 else ["--reps", str(args.reps)])
    body = (
        f"Measured {harness.machine()} with `{command}`: the share of true "
        "nulls (two disjoint slices of one run of `simple` vs `greedy`, seed "
        f"{args.seed}) called significant, per metric (raw p < 0.05) and family-wise (any metric after Holm)."
        + table(sizes, args.reps, args.seed)
    )
    print(body)
    if args.write and not args.quick:
        print(f"wrote {harness.write_section('null-rejection', 'A true null, rejected how often (issue 32)', body)}")


if __name__ == "__main__":
    main()

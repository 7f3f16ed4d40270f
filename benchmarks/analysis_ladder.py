"""The analysis ladder on common positions: every bot's choice valued at the same decisions (issue 34).

``simgin analyse BOT simple`` ranks bots by their mean loss per decision, but each bot is measured in the
positions its own play reaches. Here the positions are fixed: two players play the hands (duplicate deals,
seed 0), and every bot of the ladder gives a second opinion at each of their decisions
(``simgin.analyse(..., second_opinions=[...])``, docs/ANALYSIS.md): it is asked from the same view, its answer
recorded, not played, and valued by the decision's own valuation (the default evaluator, 64 worlds, fast
playouts). The differences between bots are then paired decision by decision, and what differs is only the
choice. Intervals take the hand as the unit (ratio estimator).

    python -m benchmarks.analysis_ladder --write     # about four minutes on 2 cores
    python -m benchmarks.analysis_ladder --quick     # a smoke test
"""

from __future__ import annotations

import time

import numpy as np

import simgin
from benchmarks import harness
from simgin.analysis.summary import ratio_interval

SHADOWS = ("random", "simple", "greedy", "heuristic", "opponent", "mcts")
#: The rungs compared pairwise, each with the one below it in the order the issue expects.
STEPS = (("simple", "random"), ("greedy", "simple"), ("heuristic", "simple"), ("heuristic", "greedy"),
         ("opponent", "heuristic"), ("mcts", "opponent"))  # fmt: skip
#: (rules preset, the two players whose hands give the positions, hands)
RUNS = (
    ("standard", ("simple", "simple"), 300),
    ("standard", ("heuristic", "simple"), 300),
    ("eaai", ("simple", "simple"), 300),
)


def measure(preset: str, players: tuple[str, str], hands: int, shadows: tuple[str, ...], workers: int) -> dict:
    """Each shadow's mean loss per decision at every decision of both players, and its paired difference from
    ``simple``'s, each with its 95% interval (hands as the units)."""
    result = simgin.analyse(*players, hands=hands, rules=preset, second_opinions=shadows, workers=workers)
    frame = result.to_frame()
    losses = np.array(frame["second_opinion_losses"].tolist(), dtype=float)  # decisions x shadows
    _, unit = np.unique(frame["hand"].to_numpy(), return_inverse=True)  # each decision's hand, numbered 0..
    counts = np.bincount(unit).astype(float)
    sums = np.zeros((counts.size, losses.shape[1]))
    np.add.at(sums, unit, losses)
    simple = shadows.index("simple")
    return {
        "decisions": len(frame),
        "loss": {s: ratio_interval(sums[:, k], counts) for k, s in enumerate(shadows)},
        "against_simple": {s: ratio_interval(sums[:, k] - sums[:, simple], counts) for k, s in enumerate(shadows)},
        "steps": {
            (upper, lower): ratio_interval(sums[:, shadows.index(upper)] - sums[:, shadows.index(lower)], counts)
            for upper, lower in STEPS
            if upper in shadows and lower in shadows
        },
    }


def main(argv: list[str] | None = None) -> None:
    parser = harness.parser(__doc__, quick="10 hands of simple vs simple, standard rules (a smoke test)")
    args = parser.parse_args(argv)
    runs = (("standard", ("simple", "simple"), 10),) if args.quick else RUNS
    lines = [
        f"Measured {harness.machine()}; numba cache warm.",
        "",
        f"Reproduce: `{harness.command('analysis_ladder', ['--write'])}`",
        "",
        "**Each bot's choice at the same decisions** (both seats' decisions of the hands of the pairing named, "
        "duplicate deals, seed 0; every legal action valued once by the default evaluator, 64 worlds, fast "
        "playouts; a bot's loss is the best value minus its choice's): mean points lost per decision, 95% "
        "interval over hands, and the paired difference from `simple`'s choices at the same decisions.",
        "",
        "| rules | positions from | decisions | " + " | ".join(f"`{s}`" for s in SHADOWS) + " | seconds |",
        "|---|---|---:|" + "---:|" * len(SHADOWS) + "---:|",
    ]
    steps = [
        "",
        "**Each rung against the one below it** (the same decisions; paired difference of the mean loss per "
        "decision, 95% interval over hands: below zero where the upper bot loses less):",
        "",
        "| rules | positions from | " + " | ".join(f"`{upper}` - `{lower}`" for upper, lower in STEPS) + " |",
        "|---|---|" + "---:|" * len(STEPS),
    ]
    for preset, players, hands in runs:
        start = time.perf_counter()
        found = measure(preset, players, hands, SHADOWS, workers=2)
        steps.append(
            f"| {preset} | `{players[0]}` vs `{players[1]}` | "
            + " | ".join(f"{d:+.3f} ({low:+.3f} to {high:+.3f})" for d, (low, high) in found["steps"].values())
            + " |"
        )
        cells = []
        for shadow in SHADOWS:
            loss, (low, high) = found["loss"][shadow]
            difference, (paired_low, paired_high) = found["against_simple"][shadow]
            paired = "" if shadow == "simple" else f"; {difference:+.3f} ± {(paired_high - paired_low) / 2:.3f}"
            cells.append(f"{loss:.3f} ± {(high - low) / 2:.3f}{paired}")
        lines.append(
            f"| {preset} | `{players[0]}` vs `{players[1]}`, {hands} hands | {found['decisions']:,} | "
            + " | ".join(cells)
            + f" | {time.perf_counter() - start:.0f} |"
        )
        print(lines[-1], flush=True)
    lines += steps
    harness.publish(args, "analysis_ladder", "The analysis ladder on common positions (issue 34)", lines)


if __name__ == "__main__":
    main()

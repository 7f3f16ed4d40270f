"""The evaluator's knock valuations against play: is knocking worth what ``simgin analyse`` says it is? (issue 34)

At a knock decision (R12: knock with the 10 cards left, or play on) the evaluator values both actions by
playouts in sampled worlds (docs/ANALYSIS.md), and the playouts knock as soon as the deadwood allows. Whether
that judges a hold-out fairly is measured here: knock decisions are drawn at random (``--decisions`` of them,
those with more than two stock cards left) from ``simgin analyse A B --hands N --seed 1``, and each is played
again from its exact position both ways (``simgin.analysis.advice.play_both_ways``: the real hidden cards,
``--continuations`` shuffles of the stock not yet drawn, the same players after the decision). For each
decision, the evaluator's claimed value of knocking minus playing on is set beside the same difference
realised in play. The table gives their means with 95% intervals (decisions as the units), the mean of the
claim minus the realisation (the evaluator's bias, paired), the correlation of the two over decisions, and
how often the claim has the sign of the realisation where the realisation is clear of zero by two standard
errors.

    python -m benchmarks.knock_calibration --write     # about five minutes on 2 cores
    python -m benchmarks.knock_calibration --quick     # a smoke test
"""

from __future__ import annotations

import math
import time

import numpy as np

import simgin
from benchmarks import harness
from simgin.analysis.advice import play_both_ways
from simgin.running.runner import RunConfig, locate_hand
from simgin.statistics.intervals import mean_interval

#: (rules preset, the two players, hands analysed, knock decisions checked)
RUNS = (
    ("eaai", ("opponent", "heuristic"), 600, 200),
    ("standard", ("opponent", "simple"), 600, 200),
)
CONTINUATIONS = 40


def measure(preset: str, players: tuple[str, str], hands: int, decisions: int, continuations: int) -> np.ndarray:
    """Rows of (claimed, realised, realised standard error): knocking minus playing on, in points of the hand."""
    result = simgin.analyse(*players, rules=preset, hands=hands, seed=1)
    frame = result.to_frame()
    knocks = frame[(frame["kind"] == "knock") & (frame["stock"] > 2)]
    knocks = knocks.sample(n=min(decisions, len(knocks)), random_state=0).sort_values("hand", kind="stable")
    last = int(knocks["hand"].max()) + 1 if len(knocks) else 1
    config = RunConfig(result.players, result.rules, hands=2 * last, seed=result.seed, duplicate=result.duplicate)
    rows = []
    for _, row in knocks.iterrows():
        # Two actions: the spread is the best value minus the other's, so knock minus play on is +/- the spread.
        claimed = float(row["spread"]) if int(row["best_action"]) == 1 else -float(row["spread"])
        hand_seed, dealer, seats = locate_hand(config, int(row["hand"]))
        check = play_both_ways(seats, result.rules, hand_seed, dealer, int(row["place"]), 0, 1, continuations, 0)
        rows.append((claimed, check.gain, check.gain_error))
    return np.array(rows, dtype=float).reshape(-1, 3)


def _mean_ci(values: np.ndarray) -> str:
    if values.size < 2:
        return f"{values.mean():+.2f}" if values.size else "-"
    mean, low, high = mean_interval(values)
    return f"{mean:+.2f} ({low:+.2f} to {high:+.2f})"


def row_line(preset: str, players: tuple[str, str], hands: int, rows: np.ndarray, seconds: float) -> str:
    claimed, realised, error = rows[:, 0], rows[:, 1], rows[:, 2]
    correlation = float(np.corrcoef(claimed, realised)[0, 1]) if len(rows) > 2 else math.nan
    clear = np.abs(realised) > 2 * error
    agree = float((np.sign(claimed[clear]) == np.sign(realised[clear])).mean()) if clear.any() else math.nan
    return (
        f"| {preset} | `{players[0]}` vs `{players[1]}`, {hands} hands | {len(rows)} | {_mean_ci(claimed)} | "
        f"{_mean_ci(realised)} | {_mean_ci(claimed - realised)} | {correlation:.2f} | "
        f"{agree:.0%} of {int(clear.sum())} | {seconds:.0f} |"
    )


def main(argv: list[str] | None = None) -> None:
    parser = harness.parser(__doc__, quick="20 hands, 5 decisions, 5 continuations, standard rules (a smoke test)")
    args = parser.parse_args(argv)
    runs = (("standard", ("opponent", "simple"), 20, 5),) if args.quick else RUNS
    continuations = 5 if args.quick else CONTINUATIONS
    lines = [
        f"Measured {harness.machine()}; numba cache warm.",
        "",
        f"Reproduce: `{harness.command('knock_calibration', ['--write'])}`",
        "",
        "**Knocking minus playing on, claimed and realised** (knock decisions with more than two stock cards "
        f"left, drawn at random from `simgin analyse A B --hands N --rules R --seed 1`; each played again both "
        f"ways from its exact position in {continuations} shuffles of the stock not yet drawn, the same players "
        "after it; points of the hand, 95% intervals over decisions):",
        "",
        "| rules | positions from | decisions | claimed by the evaluator | realised in play | claimed - realised "
        "| correlation | same sign where play is clear | seconds |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for preset, players, hands, decisions in runs:
        start = time.perf_counter()
        rows = measure(preset, players, hands, decisions, continuations)
        lines.append(row_line(preset, players, hands, rows, time.perf_counter() - start))
        print(lines[-1], flush=True)
    harness.publish(args, "knock_calibration", "The evaluator's knock valuations against play (issue 34)", lines)


if __name__ == "__main__":
    main()

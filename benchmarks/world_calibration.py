"""The evaluator's worlds against the truth: does the other player hold what ``simgin analyse`` draws for it?
(issue 34)

At a knock decision (R12) the value of knocking turns on the other's deadwood: an undercut (R16) when it is
at most the knocker's after lay-offs. The evaluator draws the other's hand from the player's view (docs/
ANALYSIS.md, *How a decision is valued*); here each knock decision of ``--hands`` recorded hands (the real
other hand known from the record) is set beside the worlds drawn for it, for several settings of the tilt
towards low deadwood (``quality`` per point after 16 stock draws, the best-kept of ``tries`` hands):

- the other's true deadwood against the mean over the worlds drawn, and the probability integral transform
  (the share of worlds with less deadwood than the truth, ties half: 0.5 on average when the worlds are
  calibrated);
- the evaluator's value of knocking (the mean over its worlds) against the knock's exact value against the
  real hand (R14-R19): no playouts, so the difference is the worlds' alone.

    python -m benchmarks.world_calibration --write     # about three minutes on 2 cores
    python -m benchmarks.world_calibration --quick     # a smoke test
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from benchmarks import harness
from simgin.analysis.evaluator import Evaluator, _view_table
from simgin.analysis.recorder import Decision, RecordingStrategy
from simgin.game.reference_engine import play_hand
from simgin.game.rng import derive
from simgin.game.rules import Rules
from simgin.kernels import analysis as kernel
from simgin.kernels.mcts import sample_world
from simgin.kernels.melds import SUIT_DEADWOOD, deadwood_of_mask
from simgin.kernels.parameters import PARAMETER_CAPACITY
from simgin.players.registry import resolve
from simgin.statistics.intervals import mean_interval

#: (rules preset, the two players, hands recorded)
RUNS = (("standard", ("opponent", "simple"), 200), ("eaai", ("opponent", "heuristic"), 150))
#: (quality, tries): before this measurement, the settings tried, and the default.
SETTINGS = ((0.15, 8), (0.15, 64), (0.25, 64), (0.35, 64))
WORLDS = 64


def knock_decisions(preset: str, players: Sequence[str], hands: int) -> list[tuple[int, Decision, int]]:
    """(key, decision, the other's real hand as a mask) for every knock decision of ``hands`` hands, the other
    holding 10 cards (its hand after its last discard)."""
    rules = Rules.preset(preset)
    found = []
    for index in range(hands):
        log: list[Decision] = []
        play_hand(tuple(RecordingStrategy(resolve(p).make(), log) for p in players), rules, derive(9, index), index % 2)
        for place, decision in enumerate(log):
            if decision.kind != "knock":
                continue
            seat = decision.view.seat
            before = [d for d in log[:place] if d.view.seat != seat and d.kind == "discard"]
            if before and len(set(before[-1].view.hand) - {before[-1].chosen}) == 10:
                other = set(before[-1].view.hand) - {before[-1].chosen}
                found.append((derive(index, place), decision, sum(1 << card for card in other)))
    return found


def measure(found: list[tuple[int, Decision, int]], quality: float, tries: int) -> dict[str, np.ndarray]:
    """Per decision: the true deadwood, the worlds' mean, the PIT, the claimed and the exact knock value."""
    evaluator = Evaluator(worlds=WORLDS, seed=5, quality=quality, tries=tries)
    columns: dict[str, list[float]] = {name: [] for name in ("true", "drawn", "pit", "claimed", "exact")}
    for key, decision, other in found:
        view = decision.view
        table, hand = _view_table(view)
        setup = kernel._world_setup(view.seat, np.int64(hand), table, np.zeros(PARAMETER_CAPACITY), evaluator.evidence)
        floats, known, unseen, hands, stock, cards, weights = setup[:7]
        rng = np.array([derive(7, key)], dtype=np.uint64)
        tilt = kernel.world_quality(quality, table)
        drawn = np.empty(WORLDS)
        for w in range(WORLDS):
            sample_world(
                known, unseen, floats, tilt, rng, hands, view.seat, np.int64(hand), stock, cards, weights,
                SUIT_DEADWOOD, tries,
            )  # fmt: skip
            drawn[w] = deadwood_of_mask(hands[1 - view.seat], SUIT_DEADWOOD)
        truth = deadwood_of_mask(np.int64(other), SUIT_DEADWOOD)
        actions = np.zeros(kernel.MAX_ACTIONS, np.int64)
        out, held = np.zeros(kernel.MAX_ACTIONS), np.zeros(kernel.MAX_ACTIONS)
        kernel.values_in_world(
            kernel.KIND_KNOCK, view.seat, np.int64(hand), table, False, np.zeros(PARAMETER_CAPACITY),
            np.int64(other), np.zeros(max(view.stock_count, 1), np.int64), actions, out, held,
        )  # fmt: skip
        columns["true"].append(truth)
        columns["drawn"].append(drawn.mean())
        columns["pit"].append(float((drawn < truth).mean() + 0.5 * (drawn == truth).mean()))
        columns["claimed"].append(evaluator.value(decision, key=key).values[1])
        columns["exact"].append(out[1])
    return {name: np.array(values) for name, values in columns.items()}


def _ci(values: np.ndarray) -> str:
    mean, low, high = mean_interval(values)
    return f"{mean:+.2f} ({low:+.2f} to {high:+.2f})"


def main(argv: list[str] | None = None) -> None:
    parser = harness.parser(__doc__, quick="20 hands of standard rules, the default setting only (a smoke test)")
    args = parser.parse_args(argv)
    runs = (("standard", ("opponent", "simple"), 20),) if args.quick else RUNS
    settings = SETTINGS[-1:] if args.quick else SETTINGS
    lines = [
        f"Measured {harness.machine()}; numba cache warm.",
        "",
        f"Reproduce: `{harness.command('world_calibration', ['--write'])}`",
        "",
        "**The other's hand at knock decisions, drawn and true** (hands of the pairing named, seeds "
        f"`derive(9, i)`, the dealer alternating; {WORLDS} worlds per decision; `quality` per point after 16 stock "
        "draws, the best-kept of `tries` hands; 95% intervals over decisions; the last setting is the evaluator's "
        "default):",
        "",
        "| rules | positions from | decisions | quality, tries | true deadwood | drawn - true | PIT (0.5 when "
        "calibrated) | knock value claimed - exact | seconds |",
        "|---|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    for preset, players, hands in runs:
        found = knock_decisions(preset, players, hands)
        for quality, tries in settings:
            start = time.perf_counter()
            rows = measure(found, quality, tries)
            lines.append(
                f"| {preset} | `{players[0]}` vs `{players[1]}`, {hands} hands | {len(found):,} | {quality}, {tries} "
                f"| {rows['true'].mean():.1f} | {_ci(rows['drawn'] - rows['true'])} | {rows['pit'].mean():.3f} | "
                f"{_ci(rows['claimed'] - rows['exact'])} | {time.perf_counter() - start:.0f} |"
            )
            print(lines[-1], flush=True)
    harness.publish(args, "world_calibration", "The evaluator's worlds against the truth (issue 34)", lines)


if __name__ == "__main__":
    main()

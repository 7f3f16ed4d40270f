"""The analysis ladder on common positions: every bot's choice valued at the same decisions (issue 34).

``simgin analyse BOT simple`` ranks bots by their mean loss per decision, but each bot is measured in the
positions its own play reaches. Here the positions are fixed: two players play the hands (duplicate deals,
seed 0), and at each of their decisions every *shadow* bot is asked what it would do from the same view (it
follows the hand as if sitting in that seat: it is told the start of the hand and every decision, and its
answer is recorded, not played). The evaluator values every legal action once (``Evaluator``, 64 worlds,
fast playouts), so each shadow's loss is read off the same values: the differences between bots are paired
decision by decision, and what differs between bots is only the choice. Intervals take the hand as the unit
(ratio estimator). A bot whose answers depend on its own earlier answers (none of the built-in ones do, beyond
what the view shows) would be asked from a history it did not make.

    python -m benchmarks.analysis_ladder --write     # about ten minutes on 2 cores
    python -m benchmarks.analysis_ladder --quick     # a smoke test
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from benchmarks import harness
from simgin import Rules
from simgin.analysis.evaluator import Evaluator, IllegalAction
from simgin.analysis.recorder import Decision
from simgin.game.reference_engine import play_hand
from simgin.game.rng import SplitMix64, derive
from simgin.players.registry import resolve
from simgin.running import runner

SHADOWS = ("random", "simple", "greedy", "heuristic", "opponent", "mcts")
#: (rules preset, the two players whose hands give the positions, hands)
RUNS = (
    ("standard", ("simple", "simple"), 300),
    ("standard", ("heuristic", "simple"), 300),
    ("eaai", ("simple", "simple"), 300),
)
KINDS = {
    "take_up_card": "up_card",
    "draw_from_pile": "draw",
    "discard": "discard",
    "knock": "knock",
    "big_gin": "big_gin",
    "take_fiftieth": "fiftieth",
}


class Shadowed:
    """``inner`` plays; at each of its decisions every shadow is asked the same question from the same view
    (with a generator of its own), and the decision with every answer is appended to ``log``."""

    def __init__(self, inner, shadows: Sequence, log: list) -> None:
        self.inner, self.shadows, self.log = inner, shadows, log

    def __getattr__(self, name: str):
        return getattr(self.inner, name)

    def start_hand(self, view, rng) -> None:
        for index, shadow in enumerate(self.shadows):
            shadow.start_hand(view, SplitMix64(index + 1))
        self.inner.start_hand(view, rng)


def _asking(method: str):
    def ask(self: Shadowed, view, rng):
        answers = [
            int(getattr(shadow, method)(view, SplitMix64(derive(len(self.log), index))))
            for index, shadow in enumerate(self.shadows)
        ]
        answer = getattr(self.inner, method)(view, rng)
        self.log.append((Decision(KINDS[method], view, int(answer)), answers))
        return answer

    return ask


for _method in KINDS:
    setattr(Shadowed, _method, _asking(_method))


def losses_of_hands(preset: str, players: tuple[str, str], first: int, count: int, shadows: Sequence[str]) -> list:
    """Per hand: (decisions, the sum of each shadow's loss) over both seats' decisions of hands
    ``first`` .. ``first + count - 1`` of ``simgin match`` with these players (duplicate deals, seed 0)."""
    rules = Rules.preset(preset)
    evaluator = Evaluator()
    config = runner.RunConfig(players, rules, hands=2 * (first + count), seed=0, duplicate=True)
    hands = []
    for index in range(first, first + count):
        seed, dealer, seats = runner.locate_hand(config, index)
        log: list = []
        table = tuple(Shadowed(resolve(spec).make(), [resolve(s).make() for s in shadows], log) for spec in seats)
        play_hand(table, rules, seed, dealer, names=tuple(seats))
        sums = np.zeros(len(shadows))
        decisions = 0
        for place, (decision, answers) in enumerate(log):
            try:
                valued = evaluator.value(decision, key=derive(seed, place))
            except IllegalAction:
                continue
            values = dict(zip(valued.actions, valued.values, strict=True))
            best = max(valued.values)
            sums += [best - values[answer] for answer in answers]
            decisions += 1
        hands.append((decisions, sums))
    return hands


def ratio_interval(decisions: np.ndarray, sums: np.ndarray) -> tuple[float, float]:
    """The mean per decision (a ratio of sums over hands) and its 95% half-width by the delta method."""
    mean = sums.sum() / decisions.sum()
    residual = sums - mean * decisions
    n = len(decisions)
    se = math.sqrt(n / (n - 1) * (residual**2).sum()) / decisions.sum()
    return float(mean), 1.96 * se


def measure(preset: str, players: tuple[str, str], hands: int, shadows: Sequence[str], workers: int) -> dict:
    size = -(-hands // workers)
    with ProcessPoolExecutor(workers) as pool:
        jobs = [
            pool.submit(losses_of_hands, preset, players, f, min(size, hands - f), shadows)
            for f in range(0, hands, size)
        ]
        played = [hand for job in jobs for hand in job.result()]
    decisions = np.array([d for d, _ in played], dtype=float)
    sums = np.array([s for _, s in played])
    simple = list(shadows).index("simple")
    return {
        "decisions": int(decisions.sum()),
        "loss": {s: ratio_interval(decisions, sums[:, k]) for k, s in enumerate(shadows)},
        "against_simple": {s: ratio_interval(decisions, sums[:, k] - sums[:, simple]) for k, s in enumerate(shadows)},
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
    for preset, players, hands in runs:
        start = time.perf_counter()
        found = measure(preset, players, hands, SHADOWS, workers=2)
        cells = []
        for shadow in SHADOWS:
            loss, half = found["loss"][shadow]
            difference, difference_half = found["against_simple"][shadow]
            paired = "" if shadow == "simple" else f"; {difference:+.3f} ± {difference_half:.3f}"
            cells.append(f"{loss:.3f} ± {half:.3f}{paired}")
        lines.append(
            f"| {preset} | `{players[0]}` vs `{players[1]}`, {hands} hands | {found['decisions']:,} | "
            + " | ".join(cells)
            + f" | {time.perf_counter() - start:.0f} |"
        )
        print(lines[-1], flush=True)
    text = "\n".join(lines)
    print(text)
    if args.write and not args.quick:
        title = "The analysis ladder on common positions (issue 34)"
        print(f"wrote {harness.write_section('analysis_ladder', title, text)}")


if __name__ == "__main__":
    main()

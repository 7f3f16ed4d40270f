"""Two rule sets compared sequentially: play until the answer is known (docs/STATISTICS.md §10, the GSPRT of §1).

``simgin sweep A B --grid SWITCH=X,Y --sprt d0=0,d1=5`` plays A against B under both rule sets on the same
deals, a batch of deal pairs of each at a time (chunks interleaved across the two cells, so both have played
the same deals whenever the test looks), and after each batch runs the generalised SPRT on the per-unit
differences of A's share of games (or hands) won: H0 says the rule set changes A's win rate by ``d0``
percentage points, H1 by ``d1``. It stops as soon as one is accepted, or at the sweep's ``--games`` or
``--hands``. Batches are consumed in seed order, so the stopping point is the same on any number of workers.

The interval printed with the decision is the fixed-sample one of the units played: after an optional stop it is
only approximate (a sequential test stops more often when the estimate happens to be extreme).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from simgin.game.rules import Rules
from simgin.running import runner
from simgin.running.config import Chunk
from simgin.running.tally import UNIT_INDEX
from simgin.statistics.paired import normal_sprt, paired_comparison, paired_sprt
from simgin.statistics.sprt import parse_numbers
from simgin.studies.grid import cell_label, plan_sweep, study_grid
from simgin.studies.sweep import parse_baseline

__all__ = ["RulesSprt", "RulesSprtResult", "parse_rules_sprt", "sequential_rules_test"]


@dataclass(frozen=True)
class RulesSprt:
    """The hypotheses, in percentage points of A's win rate (the other cell minus the baseline), and error rates."""

    d0: float = 0.0
    d1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    batch_units: int = 25
    """Deal pairs (units) per cell between two looks of the test."""

    def __post_init__(self) -> None:
        if not (math.isfinite(self.d0) and math.isfinite(self.d1) and -100 < self.d0 < self.d1 < 100):
            raise ValueError(f"--sprt d0={self.d0:g},d1={self.d1:g}: need -100 < d0 < d1 < 100 (percentage points)")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise ValueError(f"--sprt {name}={value:g}: must be between 0 and 0.5")
        if self.batch_units < 1:
            raise ValueError(f"batch_units={self.batch_units}: must be at least 1")


def parse_rules_sprt(text: str) -> RulesSprt:
    """``'d0=0,d1=5'`` (optionally ``alpha=``, ``beta=``) as :class:`RulesSprt`; a bad or repeated key is an error
    naming it."""
    values = parse_numbers(text, ("d0", "d1", "alpha", "beta"), "give d0=POINTS,d1=POINTS (alpha=, beta= optional)")
    if not {"d0", "d1"} <= set(values):
        raise ValueError(f"--sprt {text!r}: give both d0 and d1 in percentage points, e.g. d0=0,d1=5")
    return RulesSprt(**values)


@dataclass(frozen=True)
class RulesSprtResult:
    """The outcome of :func:`sequential_rules_test`."""

    players: tuple[str, str]
    baseline: str
    other: str
    mode: str
    settings: RulesSprt
    decision: str
    """``'H0'``, ``'H1'`` or ``'max'`` (the --games or --hands limit came first)."""
    units: int
    llr: float
    lower: float
    upper: float
    difference: float
    """A's win rate under the other cell minus under the baseline (a share difference, 0.05 = 5 points)."""
    ci: tuple[float, float]
    trajectory: tuple[tuple[int, float], ...]
    """(units per cell, LLR) after each look."""
    estimator: str = "plain"
    """``'luck-adjusted'`` when the test ran on luck-adjusted win rates (``adjust_luck``, §13), else ``'plain'``."""
    plain: tuple[float, float, float] | None = None
    """With ``estimator='luck-adjusted'``: the plain difference with its 95% interval, beside the adjusted one."""

    def to_json(self) -> dict[str, Any]:
        from simgin.running.results import jsonable

        accepted = {
            "H0": f"the win rate changes by {self.settings.d0:g} points or less",
            "H1": f"the win rate changes by {self.settings.d1:g} points or more",
        }
        return jsonable(
            {
                "kind": "sweep-sprt",
                "players": list(self.players),
                "baseline": self.baseline,
                "cell": self.other,
                "mode": self.mode,
                "d0": self.settings.d0,
                "d1": self.settings.d1,
                "alpha": self.settings.alpha,
                "beta": self.settings.beta,
                "decision": self.decision,
                "accepted": accepted.get(self.decision),
                "units": self.units,
                "llr": self.llr,
                "lower": self.lower,
                "upper": self.upper,
                "difference": self.difference,
                "ci": list(self.ci),
                "estimator": self.estimator,
                "plain": None if self.plain is None else {"difference": self.plain[0], "ci": list(self.plain[1:])},
                "trajectory": [{"units": units, "llr": llr} for units, llr in self.trajectory],
            }
        )

    def text(self) -> str:
        a, b = self.players
        change = f"{self.other} changes {a}'s win rate against {b} by"
        verdict = {
            "H1": f"H1 accepted: {change} {_points(self.settings.d1)} points or more",
            "H0": f"H0 accepted: {change} {_points(self.settings.d0)} points or less",
            "max": f"undecided at the --{self.mode} limit",
        }[self.decision]
        unit = "deal pairs" if self.mode == "games" else "units"
        low, high = self.ci
        plain = ""
        if self.plain is not None:
            value, plain_low, plain_high = (100 * x for x in self.plain)
            plain = (
                f"\n  luck-adjusted (§13); plain: {value:+.1f} points (95% CI {plain_low:+.1f} to {plain_high:+.1f})"
            )
        return (
            f"{self.other} vs {self.baseline}, {a} vs {b}: {verdict}\n"
            f"  LLR {self.llr:.3f} (bounds {self.lower:.3f}, {self.upper:.3f}) after {self.units:,} {unit} per cell; "
            f"difference {100 * self.difference:+.1f} points (95% CI {100 * low:+.1f} to {100 * high:+.1f}, "
            "fixed-sample: approximate after a sequential stop)" + plain
        )


def _points(value: float) -> str:
    return f"{value:+g}" if value else "0"


def sequential_rules_test(
    players: Sequence[str],
    grid: Mapping[str, Sequence[Any]] | Sequence[str],
    sprt: RulesSprt | str,
    *,
    rules: Rules | str | None = None,
    settings: Mapping[str, Any] | None = None,
    baseline: str | Mapping[str, Any] | None = None,
    games: int | None = None,
    hands: int | None = None,
    seed: int = 0,
    duplicate: bool = True,
    workers: int | None = None,
    progress: Callable[[Any, int], None] | None = None,
    adjust_luck: bool = False,
    **options: Any,
) -> RulesSprtResult:
    """Play ``players`` (two) under the two cells of ``grid`` until the GSPRT on A's win rate decides (module doc).

    ``games`` or ``hands`` (per cell) is the most it plays (20,000 games by default). The other arguments are
    :func:`simgin.sweep`'s; ``options`` go to :func:`~simgin.running.runner.run_cells` (backend, scheduler,
    programs, notice). Bad input is a ValueError naming the value and what is allowed. ``adjust_luck`` (hands
    only) runs the test on the luck-adjusted win rates (docs/STATISTICS.md §13) with the normal model
    (:func:`~simgin.statistics.paired.normal_sprt`), the plain difference beside it.
    """
    test = parse_rules_sprt(sprt) if isinstance(sprt, str) else sprt
    players = tuple(players)
    if len(players) != 2:
        raise ValueError(f"a sequential test of two rule sets plays one pairing: give two players, got {len(players)}")
    base_rules, changes, parsed = study_grid(rules, settings, grid)
    if games is None and hands is None:
        games = 20_000
    base = runner.RunConfig(
        players, base_rules, hands, games, seed, duplicate, chunk_units=test.batch_units, adjust_luck=adjust_luck
    )
    cells, configs, same_as = plan_sweep(base, parsed, changes)
    if len(cells) != 2:
        raise ValueError(
            f"--sprt compares two rule sets: the grid has {len(cells)} cells; give one switch and two values"
        )
    if same_as[1] is not None:
        raise ValueError(f"{cell_label(cells[0])} and {cell_label(cells[1])} play the same game: nothing to test")
    first = parse_baseline(baseline, parsed, base_rules)
    other = 1 - first
    mode = configs[0].mode
    events, trials = ("games_won_a", "games") if mode == "games" else ("hands_won_a", "hands")

    def won(units: np.ndarray, adjusted: bool) -> np.ndarray:
        """A's wins per unit (games or hands), minus their luck corrections when ``adjusted`` (hands only, §13)."""
        x = units[:, UNIT_INDEX[events]].astype(float)
        return x - units[:, UNIT_INDEX["luck_hands_won_a"]] if adjusted else x

    shares: list[list[np.ndarray]] = [[], []]
    looks: list[tuple[int, float]] = []
    state: dict[str, Any] = {"decision": "max", "llr": 0.0}

    def collect(chunk: Chunk, records: np.ndarray) -> None:
        shares[chunk.cell_index].append(records)

    def check(cell: int, chunk: Chunk, tallies: Any) -> bool:
        done = min(len(pieces) for pieces in shares)
        if cell != 1 or done == 0:
            return False
        mine, base = (np.concatenate(shares[k][:done]) for k in (other, first))
        d = won(mine, adjust_luck) / mine[:, UNIT_INDEX[trials]] - won(base, adjust_luck) / base[:, UNIT_INDEX[trials]]
        sprt = normal_sprt if adjust_luck else paired_sprt
        result = sprt(d, test.d0 / 100.0, test.d1 / 100.0, test.alpha, test.beta)
        looks.append((int(d.size), result.llr))
        state.update(llr=result.llr, lower=result.lower, upper=result.upper, units=int(d.size))
        if result.decision != "continue":
            state["decision"] = result.decision
            return True
        return False

    runner.run_cells(
        configs,
        workers=workers,
        progress=progress,
        stop=check,
        unit_records=True,
        interleave=True,
        on_units=collect,
        kind="compare",
        **options,
    )
    done = min(len(pieces) for pieces in shares)
    mine, base = (np.concatenate(shares[k][:done]) for k in (other, first))
    compared = paired_comparison(
        won(mine, adjust_luck),
        won(base, adjust_luck),
        mine[:, UNIT_INDEX[trials]],
        base[:, UNIT_INDEX[trials]],
        share=not adjust_luck,
    )
    plain = None
    if adjust_luck:
        raw = paired_comparison(
            won(mine, False), won(base, False), mine[:, UNIT_INDEX[trials]], base[:, UNIT_INDEX[trials]], share=True
        )
        plain = (raw.difference, raw.low, raw.high)
    lower, upper = state.get("lower", math.nan), state.get("upper", math.nan)
    return RulesSprtResult(
        players,
        cell_label(cells[first]),
        cell_label(cells[other]),
        mode,
        test,
        state["decision"],
        int(mine.shape[0]),
        float(state["llr"]),
        lower,
        upper,
        compared.difference,
        (compared.low, compared.high),
        tuple(looks),
        "luck-adjusted" if adjust_luck else "plain",
        plain,
    )

"""Planning a study: how many games or hands detect a given difference, from a pilot (docs/STATISTICS.md §11).

A test of a paired difference on n units has power 1 - β for a true difference δ when
n = ((q₁₋α/2 + z₁₋β)·σ/δ)², σ the standard deviation of one unit's contribution to the difference (its
delta-method contribution, §9). simgin measures σ on a pilot run of the same players, rules and grid,
played exactly as the study would play it (duplicate deal pairs, common random numbers across cells), so
the plan holds for the variance these bots and rules really have. A study makes many comparisons; the
plan uses Holm's strictest step, α/m for the m comparisons the full study would test, so it is a little
conservative for every comparison but the smallest p.

The same formula read backwards gives what a finished study could have seen: the smallest difference it
would have detected with the given power (:func:`detectable_difference`), reported beside every
difference of a sweep.

The formulas are :mod:`simgin.statistics.power`'s.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from simgin.game.rules import Rules
from simgin.running import runner
from simgin.running.keywords import check_keywords
from simgin.running.tally import UNIT_INDEX
from simgin.statistics.power import detectable_difference, units_needed
from simgin.statistics.stats import paired_difference
from simgin.studies.sweep import _fields, compare_units, sweep

__all__ = ["PlanResult", "PlanRow", "detectable_difference", "plan", "units_needed"]

#: Metrics a plan can be made for, and the value each takes when two players are equal (a match's null).
PLANNED_METRICS = {"win_rate": 0.5, "net_points_per_hand": 0.0}
DEFAULT_PILOT_GAMES = 200


@dataclass(frozen=True)
class PlanRow:
    """One comparison of the planned study: a cell against the baseline (or, without a grid, a pairing against
    equality) on the planned metric."""

    cell: str
    pairing: tuple[str, str]
    pilot_value: float
    """The metric in the pilot (the cell's value; without a grid, the pairing's)."""
    sd: float
    """Standard deviation of one unit's contribution to the difference, measured on the pilot."""
    units: int
    """Units needed per pairing and cell."""
    count: int
    """Games or hands needed per pairing and cell (units times the games or hands a unit holds)."""


@dataclass(frozen=True)
class PlanResult:
    """The plan of a study (:func:`plan`): per comparison, the games or hands needed."""

    players: tuple[str, ...]
    metric: str
    difference: float
    power: float
    alpha: float
    comparisons: int
    """m, the number of comparisons the full study tests: each is planned at level alpha/m."""
    mode: str
    pilot_units: int
    rows: tuple[PlanRow, ...]

    @property
    def needed(self) -> int:
        """Games or hands per pairing and cell so that every comparison has the power asked for."""
        return max((row.count for row in self.rows), default=0)

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame(
            [
                {
                    "cell": r.cell,
                    "pairing": f"{r.pairing[0]} vs {r.pairing[1]}",
                    "pilot_value": r.pilot_value,
                    "sd_per_unit": r.sd,
                    "units": r.units,
                    self.mode: r.count,
                }
                for r in self.rows
            ]
        )

    def to_json(self) -> dict[str, Any]:
        from simgin.running.results import jsonable

        return jsonable(
            {
                "kind": "plan",
                "players": list(self.players),
                "metric": self.metric,
                "difference": self.difference,
                "power": self.power,
                "alpha": self.alpha,
                "comparisons": self.comparisons,
                "level": self.alpha / self.comparisons,
                "mode": self.mode,
                "pilot_units": self.pilot_units,
                "needed": self.needed,
                "rows": self.to_frame().to_dict(orient="records"),
            }
        )


def _contributions(units: np.ndarray, metric: str, mode: str) -> tuple[np.ndarray, np.ndarray]:
    """A metric's events and trials per unit, as a sweep compares them."""
    events, trials = _fields(metric, mode)
    return units[:, UNIT_INDEX[events]].astype(float), units[:, UNIT_INDEX[trials]].astype(float)


def plan(
    players: Sequence[str],
    difference: float,
    *,
    metric: str = "win_rate",
    grid: Mapping[str, Sequence[Any]] | Sequence[str] | None = None,
    rules: Rules | str | None = None,
    settings: Mapping[str, Any] | None = None,
    baseline: str | Mapping[str, Any] | None = None,
    power: float = 0.8,
    alpha: float = 0.05,
    games: int | None = None,
    hands: int | None = None,
    seed: int = 0,
    duplicate: bool = True,
    workers: int | None = None,
    **options: Any,
) -> PlanResult:
    """How many games (or hands) per pairing and cell a study needs to detect ``difference`` with ``power``.

    ``difference`` is in the metric's own unit: a share (``win_rate``) as a fraction (0.03 = 3 points), net points
    per hand in points. Without ``grid`` the study is a match or tournament of ``players`` under ``rules``, and
    the difference is the first-named player's edge over an even pairing (a win rate of 0.5 + difference);
    with ``grid`` it is a sweep, and the difference is between a cell and the baseline cell for each pairing.
    A pilot run of ``games`` (200 by default) or ``hands`` measures the spread per unit; the other arguments are
    :func:`simgin.sweep`'s. Bad input is a ValueError naming the value and what is allowed.
    """
    check_keywords(plan, options, ("backend", "scheduler", "progress", "programs", "notice"))
    if isinstance(players, str):
        raise ValueError(f"plan() takes a list of player specs, got the single string {players!r}")
    if metric not in PLANNED_METRICS:
        raise ValueError(f"metric {metric!r}: choose from {', '.join(PLANNED_METRICS)}")
    if not (isinstance(difference, int | float) and math.isfinite(difference) and difference > 0):
        raise ValueError(f"the difference to detect must be a positive number, got {difference!r}")
    if not 0.0 < power < 1.0:
        raise ValueError(f"power must lie strictly between 0 and 1, got {power!r}")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha!r}")
    if games is None and hands is None:
        games = DEFAULT_PILOT_GAMES
    players = tuple(players)
    mode = "games" if games is not None else "hands"
    rows: list[PlanRow] = []
    if grid:
        study = sweep(
            players,
            grid,
            rules=rules,
            settings=settings,
            baseline=baseline,
            games=games,
            hands=hands,
            seed=seed,
            duplicate=duplicate,
            workers=workers,
            **options,
        )
        comparisons = max(1, len(study.differences))
        base = study.cells[study.baseline]
        base_game = study.baseline if base.same_game_as is None else base.same_game_as
        for cell in study.cells:
            if cell.same_game_as is not None or cell.index == base_game:
                continue
            for k, rates in enumerate(cell.pairings):
                mine, theirs = cell.result.units[k], base.result.units[k]
                x, xn = _contributions(mine, metric, mode)
                y, yn = _contributions(theirs, metric, mode)
                sd = paired_difference(x, y, xn, yn).se * math.sqrt(len(x))
                value = compare_units(mine, theirs, metric, mode)[0]
                rows.append(
                    _row(
                        cell.label,
                        (rates.a, rates.b),
                        value,
                        sd,
                        difference,
                        alpha / comparisons,
                        power,
                        cell.result.config,
                    )
                )
        pilot_units = study.config.units
    else:
        base_rules = Rules.preset(rules) if isinstance(rules, str) else (rules or Rules())
        config = runner.RunConfig(
            players, base_rules.with_settings(dict(settings or {})), hands, games, seed, duplicate
        )
        result = runner.run_cells([config], workers=workers, unit_records=True, **options)[0]
        comparisons = len(config.pairings)
        for k, (i, j) in enumerate(config.pairings):
            x, n = _contributions(result.units[k], metric, mode)
            null = PLANNED_METRICS[metric]
            estimate = paired_difference(x - null * n, np.zeros_like(x), n)
            sd = estimate.se * math.sqrt(len(x))
            rows.append(
                _row(
                    "",
                    (players[i], players[j]),
                    float(x.sum() / n.sum()),
                    sd,
                    difference,
                    alpha / comparisons,
                    power,
                    config,
                )
            )
        pilot_units = config.units
    return PlanResult(players, metric, float(difference), power, alpha, comparisons, mode, pilot_units, tuple(rows))


def _row(
    cell: str,
    pairing: tuple[str, str],
    value: float,
    sd: float,
    difference: float,
    level: float,
    power: float,
    config: runner.RunConfig,
) -> PlanRow:
    if not sd > 0:  # the pilot showed no spread at all: too small a pilot to plan from
        raise ValueError(
            f"the pilot of {config.count} {config.mode} shows no spread in {pairing[0]} vs {pairing[1]}: "
            "give a larger pilot (--games or --hands)"
        )
    units = units_needed(sd, difference, level, power)
    per_unit = config.count / config.units
    return PlanRow(cell, pairing, value, sd, units, math.ceil(units * per_unit))

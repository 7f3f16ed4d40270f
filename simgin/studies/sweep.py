"""Variant sweeps: every combination of rule values played on the same seeds (common random numbers).

``--grid knock_limit=0..10 --grid gin_bonus=20,25`` makes 22 cells; each cell is a run with
those switches set on the base rules, and every cell plays the same deals, so differences
between cells come from the rules, not from the cards. ``preset`` is a switch too
(``--grid preset=standard,oklahoma``): such a cell starts from ``Rules.preset(name)`` instead of
the base rules, and the ``--set`` switches and the cell's other switches apply on top.

Cells whose rules differ only in switches that have no effect there (``Rules.overridden``:
``knock_limit`` under Oklahoma, say) are the same game: each distinct game is played once,
and a cell that repeats an earlier one names it (``same_game_as``) and shows its results.

:func:`sweep` is the library entry point (``simgin sweep`` is a thin layer over it): any number of
players, every pairing in every cell, a 95% interval for every rate, Bradley-Terry ratings and the
skill spread per cell with three or more players, and every cell compared with a baseline cell,
paired unit by unit over the shared deals, with Holm's correction over all comparisons
(docs/STATISTICS.md §2, §4, §9).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simgin.game.rules import Rules
from simgin.running import runner
from simgin.running.keywords import check_keywords
from simgin.running.summary import luck_adjusted, pair_statistics, player_rows
from simgin.running.tally import UNIT_INDEX, Tally
from simgin.statistics.formats import p_below, percent
from simgin.statistics.paired import holm_levels, paired_comparison, share_interval
from simgin.statistics.power import detectable_difference
from simgin.statistics.stats import holm, paired_difference
from simgin.studies.grid import (
    MAX_CELLS as MAX_CELLS,
    PRESET as PRESET,
    cell_label as cell_label,
    cell_rules as cell_rules,
    grid_cells as grid_cells,
    grid_items as grid_items,
    grid_switches as grid_switches,
    grid_text,
    parse_grid as parse_grid,
    plan_sweep as plan_sweep,
    play_distinct,
    run_sweep as run_sweep,
    same_game_notes as same_game_notes,
    study_grid,
)

# -- the study: rates with intervals, ratings, differences against a baseline ---------------------------------

#: What every pairing of every cell is measured on, and compared with the baseline on: name -> (events,
#: trials, words). Events and trials are :data:`simgin.running.tally.UNIT_FIELDS`; ``win_rate`` counts games
#: in a sweep of games and hands in a sweep of hands. Rates are pooled: Σ events / Σ trials over units.
METRICS: dict[str, tuple[str, str, str]] = {
    "win_rate": ("games_won_a", "games", "the first-named player's share of games (of hands, with --hands) won"),
    "net_points_per_hand": (
        "net_points_a",
        "hands",
        "the first-named player's hand points minus the other's, per hand",
    ),
    "first_player_win_rate": ("first_player_wins", "scored", "the non-dealer's share of scored hands (R11)"),
    "gin_rate": ("gin", "hands", "share of hands ended by gin (R13)"),
    "undercut_rate": ("undercut", "hands", "share of hands ended by an undercut (R18)"),
    "dead_rate": ("dead", "hands", "share of dead hands (R15)"),
    "knock_rate": ("knock", "hands", "share of hands won by the knocker without gin"),
    "hands_per_game": ("hands", "games", "hands per game (sweeps of games only)"),
}
#: Metrics that are shares (intervals are clipped to 0-1, differences are stated in percentage points).
RATES = ("win_rate", "first_player_win_rate", "gin_rate", "undercut_rate", "dead_rate", "knock_rate")
CONFIDENCE = 0.95
#: The opponent's name in the first-named player's results pooled over every other player.
OTHERS = "the others"
#: What the first-named player's pooled results are measured, and compared with the baseline, on.
FIRST_NAMED_METRICS = ("win_rate", "net_points_per_hand")
#: The power at which each difference's smallest detectable size is given.
DETECTABLE_POWER = 0.8
#: The metrics a sweep run with ``adjust_luck`` (issue 35) also measures luck-adjusted: metric -> the unit
#: record's luck corrections of A's events (:data:`simgin.running.tally.LUCK_UNIT_FIELDS`); B's win rate uses
#: ``luck_hands_won_b``. Their differences, p-values and Holm then use the adjusted outcomes, the plain figures
#: kept beside them (docs/STATISTICS.md §13).
LUCK_METRICS = {"net_points_per_hand": "luck_points_a", "win_rate": "luck_hands_won_a"}


def metric_names(mode: str) -> list[str]:
    """The metrics of a sweep of ``mode`` (``'games'`` or ``'hands'``)."""
    return [name for name in METRICS if mode == "games" or name != "hands_per_game"]


def _fields(metric: str, mode: str, side: str = "a") -> tuple[str, str]:
    events, trials, _ = METRICS[metric]
    if metric == "win_rate" and mode == "hands":
        events, trials = "hands_won_a", "hands"
    if side == "b" and metric == "win_rate":
        events = events.replace("_a", "_b")
    return events, trials


def _events(units: np.ndarray, metric: str, mode: str, side: str = "a", adjusted: bool = False) -> np.ndarray:
    """A metric's events per unit, from A's side or B's; ``adjusted``: minus their luck corrections
    (:data:`LUCK_METRICS`, records of a run with ``adjust_luck``)."""
    events, _ = _fields(metric, mode, side)
    x = units[:, UNIT_INDEX[events]].astype(float)
    if adjusted:
        luck = LUCK_METRICS[metric]
        if metric == "win_rate" and side == "b":
            luck = "luck_hands_won_b"
        if units.shape[1] <= UNIT_INDEX[luck]:
            raise ValueError("the run has no luck corrections (run it with adjust_luck=True)")
        x = x - units[:, UNIT_INDEX[luck]]
    if side == "b" and metric == "net_points_per_hand":
        x = -x
    return x


def unit_rate(
    units: np.ndarray, metric: str, mode: str, side: str = "a", adjusted: bool = False
) -> tuple[float, float, float]:
    """A metric of one pairing from its unit records, with its 95% interval: (value, low, high).

    The value is the pooled rate Σ events / Σ trials. A share's interval is Wilson's on the pooled counts with
    the sample size divided by the units' design effect (:func:`simgin.statistics.paired.share_interval`,
    docs/STATISTICS.md §10): the hands of one deal pair or game are not independent, the interval stays in
    [0, 1] and keeps a width for rare events. Any other metric's interval is Student's t over the units'
    delta-method contributions (§9), NaN when every unit is alike (no spread to measure). ``side='b'`` gives
    the second player's win rate and net points. ``adjusted`` (:data:`LUCK_METRICS`): the luck-adjusted figure,
    whose units are no longer counts, so a share's interval is Student's t too (§13).
    """
    _, trials = _fields(metric, mode, side)
    x = _events(units, metric, mode, side, adjusted)
    n = units[:, UNIT_INDEX[trials]].astype(float)
    if metric in RATES and not adjusted:
        return share_interval(x, n, CONFIDENCE)
    # A rate against a constant zero on the same units: paired_difference's interval is then that of the rate.
    estimate = paired_difference(x, np.zeros_like(x), n, None, CONFIDENCE)
    return estimate.difference, estimate.low, estimate.high


def compare_units(
    cell: np.ndarray,
    baseline: np.ndarray,
    metric: str,
    mode: str,
    confidence: float = CONFIDENCE,
    adjusted: bool = False,
) -> tuple[float, float, float, float, float, float, int]:
    """A cell against the baseline on one metric of one pairing, paired unit by unit (§9, §10):
    (cell value, baseline value, difference, low, high, p, units).

    Unit k of both arrays must start from the same seed (common random numbers). The difference is
    that of the pooled rates; its test and interval (at ``confidence``) come from
    :func:`simgin.statistics.paired.paired_comparison`: Student's t over units from 30 units, the exact swap
    test below, and for shares also Newcombe's score interval. The interval excludes 0 exactly when
    p < 1 - confidence. ``adjusted``: on the luck-adjusted outcomes (:data:`LUCK_METRICS`, §13).
    """
    _, trials = _fields(metric, mode)
    t = UNIT_INDEX[trials]
    x, y = _events(cell, metric, mode, adjusted=adjusted), _events(baseline, metric, mode, adjusted=adjusted)
    share = metric in RATES and not adjusted
    d = paired_comparison(x, y, cell[:, t], baseline[:, t], confidence, share=share)
    value = _ratio(x.sum(), cell[:, t].sum())
    base = _ratio(y.sum(), baseline[:, t].sum())
    return value, base, d.difference, d.low, d.high, d.p, d.units


def unit_se(cell: np.ndarray, baseline: np.ndarray, metric: str, mode: str, adjusted: bool = False) -> float:
    """The delta-method standard error over units of a cell's difference from the baseline on one metric (§9)."""
    _, trials = _fields(metric, mode)
    t = UNIT_INDEX[trials]
    x, y = _events(cell, metric, mode, adjusted=adjusted), _events(baseline, metric, mode, adjusted=adjusted)
    return paired_difference(x, y, cell[:, t], baseline[:, t]).se


def first_named_units(result: runner.RunResult) -> np.ndarray | None:
    """The first-named player's unit records against all the other players, added unit by unit (unit k is the
    same deal in every pairing, so the sum is one unit of the pooled results), or None with two players.

    The user names the player of interest (the stronger, say) first; its share of games won against the
    field is what a variant study asks about ("for whom does Oklahoma change the game?").
    """
    config = result.config
    if len(config.players) < 3:
        return None
    return np.sum([_units(result, k) for k, (i, _) in enumerate(config.pairings) if i == 0], axis=0)


def _ratio(numerator: float, denominator: float) -> float:
    return float(numerator) / float(denominator) if denominator else math.nan


@dataclass(frozen=True)
class PairingRates:
    """One pairing of one cell: its players, units and every metric with its 95% interval (``(value, low, high)``)."""

    a: str
    b: str
    units: int
    games: int
    hands: int
    rates: dict[str, tuple[float, float, float]]


@dataclass(frozen=True)
class SweepCell:
    """One cell of the grid: its switch values, rules, and the results of the game it plays."""

    index: int
    settings: dict[str, Any]
    """The cell's grid values (``preset`` included)."""
    rules: Rules
    same_game_as: int | None
    """The earlier cell whose game this one repeats (its results are that cell's), or None."""
    overridden: dict[str, str]
    result: runner.RunResult
    """Tallies and unit records of the game this cell plays."""
    pairings: tuple[PairingRates, ...]
    ratings: dict[str, Any] | None
    """With three or more players: :func:`~simgin.running.tournament_ratings.tournament_analysis` of the cell (ratings
    relative to the mean, 95% bootstrap intervals over deal pairs, ``skill_spread`` best minus worst with its
    interval)."""
    first_named: PairingRates | None = None
    """With three or more players: the first-named player against all the others together
    (:func:`first_named_units`; opponent :data:`OTHERS`, metrics :data:`FIRST_NAMED_METRICS`)."""

    @property
    def label(self) -> str:
        return cell_label(self.settings)


@dataclass(frozen=True)
class Difference:
    """One comparison of a cell with the baseline: a metric of a pairing, paired over the shared deals (§9)."""

    cell: int
    pairing: tuple[str, str]
    metric: str
    value: float
    """The metric in the cell."""
    baseline_value: float
    difference: float
    """``value - baseline_value``."""
    ci: tuple[float, float]
    """The unadjusted 95% interval (one comparison on its own)."""
    p: float
    p_holm: float
    """``p`` adjusted by Holm's procedure over every comparison of the study."""
    significant: bool
    """``p_holm < 0.05``."""
    units: int
    ci_holm: tuple[float, float] = (math.nan, math.nan)
    """The Holm-consistent interval: at the confidence ``ci_holm_confidence`` of this comparison's Holm step
    (:func:`simgin.statistics.paired.holm_levels`), so that it excludes 0 exactly when ``significant``."""
    ci_holm_confidence: float = math.nan
    detectable: float = math.nan
    """The smallest true difference this comparison would have detected with 80% power at its Holm level
    (:func:`simgin.statistics.power.detectable_difference`): what "not significant" can rule out."""
    estimator: str = "plain"
    """``'luck-adjusted'`` when the figures above are luck-adjusted (``adjust_luck``, :data:`LUCK_METRICS`), else
    ``'plain'``."""
    plain: dict[str, Any] | None = None
    """With ``estimator='luck-adjusted'``: the plain figures beside them (``value``, ``baseline_value``,
    ``difference``, ``ci``, ``p``)."""


@dataclass(frozen=True)
class SweepResult:
    """A variant study: every cell, every pairing, and the differences against the baseline cell.

    ``to_frame()`` is the table (one row per cell, pairing and player), ``to_json()`` the ``--json`` object and
    ``result_data()`` the document of ``result.json`` (docs in :func:`sweep`).
    """

    config: runner.RunConfig
    """The base run settings (players, count, seed, base rules with ``settings`` applied)."""
    grid: dict[str, list[Any]]
    settings: dict[str, Any]
    """The switches set on top of every cell (``--set``)."""
    cells: tuple[SweepCell, ...]
    baseline: int
    differences: tuple[Difference, ...]
    seconds: float
    chunks_run: int
    chunks_resumed: int

    @property
    def players(self) -> tuple[str, ...]:
        return self.config.players

    @property
    def significant(self) -> tuple[Difference, ...]:
        """The significant differences, cell by cell in grid order, and within a cell metric by metric in the
        order of :data:`METRICS` (the win rate first), every pairing of a metric together."""
        order = list(METRICS)
        return tuple(
            sorted((d for d in self.differences if d.significant), key=lambda d: (d.cell, order.index(d.metric)))
        )

    def to_frame(self) -> pd.DataFrame:
        """One row per cell, pairing and player (both sides of every pairing): the cell's switch values, ``player``
        and ``opponent`` by name, the summary columns of ``simgin match`` and every metric with ``_low``/``_high``
        (95% intervals over units; ``net_points_low``/``_high`` are those of ``net_points_per_hand``); with
        ``adjust_luck`` also ``win_rate_luck_adjusted`` and ``net_points_per_hand_luck_adjusted`` with theirs;
        ``same_game_as`` names the cell whose game a repeated cell shows."""
        mode = self.config.mode
        rows = []
        for cell in self.cells:
            label = "" if cell.same_game_as is None else self.cells[cell.same_game_as].label
            for pairing, tally in enumerate(cell.result.tallies):
                units = _units(cell.result, pairing)
                for row in player_rows(cell.result.config, pairing, tally):
                    for metric in metric_names(mode):
                        value, low, high = unit_rate(units, metric, mode, row["side"])
                        row[metric], row[f"{metric}_low"], row[f"{metric}_high"] = value, low, high
                    # One figure, one interval: match's columns for net points take the interval over units too.
                    row["net_points_low"] = row["net_points_per_hand_low"]
                    row["net_points_high"] = row["net_points_per_hand_high"]
                    if self.config.adjust_luck:
                        for metric in LUCK_METRICS:
                            value, low, high = unit_rate(units, metric, mode, row["side"], adjusted=True)
                            name = f"{metric}_luck_adjusted"
                            row[name], row[f"{name}_low"], row[f"{name}_high"] = value, low, high
                    rows.append({"cell": cell.index, **cell.settings, **_integers(row), "same_game_as": label})
        return pd.DataFrame(rows)

    def differences_frame(self) -> pd.DataFrame:
        """The differences as a table: one row per comparison, in the order of ``to_json()['differences']``."""
        return pd.DataFrame([self._difference_json(d) for d in self.differences])

    def _difference_json(self, d: Difference) -> dict[str, Any]:
        return {
            "cell": self.cells[d.cell].label,
            "cell_index": d.cell,
            "settings": self.cells[d.cell].settings,
            "baseline": self.cells[self.baseline].label,
            "pairing": f"{d.pairing[0]} vs {d.pairing[1]}",
            "a": d.pairing[0],
            "b": d.pairing[1],
            "metric": d.metric,
            "value": d.value,
            "baseline_value": d.baseline_value,
            "difference": d.difference,
            "ci": list(d.ci),
            "ci_holm": list(d.ci_holm),
            "ci_holm_confidence": d.ci_holm_confidence,
            "detectable": d.detectable,
            "p": d.p,
            "p_holm": d.p_holm,
            "significant": d.significant,
            "units": d.units,
            "estimator": d.estimator,
            "plain": d.plain,
            "text": difference_text(self, d),
        }

    def to_json(self, tallies: bool = False) -> dict[str, Any]:
        """The ``--json`` object of ``simgin sweep``, the very one the command prints (issue 32 item 17): the study
        of :meth:`result_data` without the raw tallies of every pairing (``tallies=True`` keeps them), and
        ``table``, the rows of :meth:`to_frame` (the ``cell`` column left out: each row has its ``label``)."""
        from simgin.running.results import jsonable

        frame = self.to_frame()
        rows = frame[[column for column in frame.columns if column != "cell"]].to_dict(orient="records")
        return self.result_data(tallies) | {"table": jsonable(rows)}

    def result_data(self, tallies: bool = True) -> dict[str, Any]:
        """The study as one JSON-ready dict (``result.json``, kind ``sweep``, which ``simgin report`` reads); with
        ``tallies`` (the default) the raw tallies of every pairing."""
        from simgin import __version__
        from simgin.running.results import jsonable

        mode = self.config.mode
        cells = []
        for cell in self.cells:
            pairings = []
            for k, rates in enumerate(cell.pairings):
                tally = cell.result.tallies[k]
                entry: dict[str, Any] = {"a": rates.a, "b": rates.b, "units": rates.units}
                entry |= {"games": rates.games, "hands": rates.hands}
                for metric, (value, low, high) in rates.rates.items():
                    entry[metric] = value
                    entry[f"{metric}_ci"] = [low, high]
                if self.config.duplicate:
                    entry["paired"] = _integers(pair_statistics(tally))
                if self.config.adjust_luck:
                    entry["luck_adjusted"] = luck_figures(tally, rates.rates, self.config.legs)
                if tallies:
                    entry["tally"] = {name: _count(value) for name, value in tally.to_dict().items()}
                if tally.forfeits:  # --on-illegal forfeit: where, and how to replay each
                    entry["forfeited"] = list(tally.forfeits)
                pairings.append(entry)
            data: dict[str, Any] = {
                "index": cell.index,
                "label": cell.label,
                "settings": cell.settings,
                "rules": cell.rules.to_dict(),
                "same_game_as": cell.same_game_as,
                "overridden": cell.overridden,
                "pairings": pairings,
                "summary": [
                    _integers(row)
                    for k, tally in enumerate(cell.result.tallies)
                    for row in player_rows(cell.result.config, k, tally)
                ],
            }
            if cell.first_named is not None:
                named = cell.first_named
                data["first_named"] = {"player": named.a, "against": list(self.players[1:]), "units": named.units}
                data["first_named"] |= {"games": named.games, "hands": named.hands}
                for metric, (value, low, high) in named.rates.items():
                    data["first_named"] |= {metric: value, f"{metric}_ci": [low, high]}
            if cell.ratings is not None:
                data["ratings"] = cell.ratings["ratings"]
                data["skill_spread"] = cell.ratings["skill_spread"]
                data["pairwise"] = cell.ratings["pairwise"]
            cells.append(data)
        significant = sum(d.significant for d in self.differences)
        return jsonable(
            {
                "kind": "sweep",
                "simgin_version": __version__,
                "config": self.config.to_dict(),
                "players": list(self.players),
                "grid": self.grid,
                "settings": self.settings,
                "overridden": self.config.rules.overridden(self.config.table, mode == "games"),
                "mode": mode,
                "unit": _unit_name(self.config),
                "metrics": {name: METRICS[name][2] for name in metric_names(mode)},
                "baseline": {"cell": self.baseline, "label": self.cells[self.baseline].label},
                "cells": cells,
                "comparisons": len(self.differences),
                "significant": significant,
                "differences": [self._difference_json(d) for d in self.differences],
                **({"luck_adjusted": self.luck_adjusted_rows()} if self.config.adjust_luck else {}),
                "timing": {
                    "seconds": self.seconds,
                    "chunks_run": self.chunks_run,
                    "chunks_resumed": self.chunks_resumed,
                },
            }
        )

    def luck_adjusted_rows(self) -> list[dict[str, Any]]:
        """With ``adjust_luck``: per distinct cell and pairing, its ``cell`` label, ``a``, ``b`` and A's luck-adjusted
        figures (:func:`luck_figures`), as ``tournament --adjust-luck`` lists its pairings: the JSON's and the CLI's."""
        return [
            {"cell": cell.label, "a": rates.a, "b": rates.b, **luck_figures(tally, rates.rates, self.config.legs)}
            for cell in self.cells
            if cell.same_game_as is None
            for rates, tally in zip(cell.pairings, cell.result.tallies, strict=True)
        ]

    def save(self, out: str | Path) -> None:
        """Write ``result.json``, ``sweep.csv`` (:meth:`to_frame`), ``differences.csv`` and, per distinct Oklahoma
        cell, ``oklahoma_cellNNN.csv`` (:meth:`oklahoma_breakdowns`) into ``out``, a run directory of this sweep
        (the CLI's ``--out``)."""
        from simgin.base.files import frame_writer, write_file
        from simgin.running.results import save_result

        save_result(out, self.result_data())
        write_file(out, "sweep.csv", frame_writer(self.to_frame(), "csv"))
        write_file(out, "differences.csv", frame_writer(self.differences_frame(), "csv"))
        for index, breakdown in self.oklahoma_breakdowns().items():
            write_file(out, f"oklahoma_cell{index:03d}.csv", frame_writer(breakdown, "csv"))

    def oklahoma_breakdowns(self) -> dict[int, pd.DataFrame]:
        """Per distinct Oklahoma cell (by index), every pairing's outcomes by up card, i.e. by the hand's knock
        limit, with the share of doubled spade hands: one block of rows per pairing (column ``pairing``), never
        pooled (V9; :func:`simgin.running.summary.knock_limit_breakdowns`, which the report uses too; issue 32
        item 2)."""
        from simgin.running.summary import knock_limit_breakdowns

        players = self.config.players
        breakdowns = {}
        for cell in self.cells:
            if cell.rules.oklahoma and cell.same_game_as is None:
                pairings = [
                    (players[i], players[j], tally)
                    for (i, j), tally in zip(self.config.pairings, cell.result.tallies, strict=True)
                ]
                breakdown = knock_limit_breakdowns(pairings)
                breakdown["hands"] = breakdown["hands"].astype(int)
                breakdowns[cell.index] = breakdown
        return breakdowns


def luck_figures(tally: Tally, rates: dict[str, tuple[float, float, float]], legs: int) -> dict[str, Any]:
    """A pairing's ``luck_adjusted`` figures (:func:`simgin.running.summary.luck_adjusted`: the variance ratios)
    with each estimate and interval, adjusted and plain, the sweep's own (:func:`unit_rate`): one figure, one
    interval, whichever table shows it."""
    figures = luck_adjusted(tally, legs)
    for name, metric in (("net_points_per_hand", "net_points_per_hand"), ("hands_won", "win_rate")):
        value, low, high = rates[f"{metric}_luck_adjusted"]
        plain, plain_low, plain_high = rates[metric]
        figures[name] |= {"estimate": value, "ci": [low, high], "plain": plain, "plain_ci": [plain_low, plain_high]}
    return figures


def _count(value: float) -> int | float:
    """A tally's sum as an integer, unless it is not one (the luck-adjusted sums, ``adjust_luck``)."""
    return int(value) if float(value).is_integer() else float(value)


def _unit_name(config: runner.RunConfig) -> str:
    if config.duplicate:
        return "deal pair"
    return config.mode[:-1]


def _units(result: runner.RunResult, pairing: int) -> np.ndarray:
    if result.units is None:
        raise ValueError("the run has no unit records (run_cells(..., unit_records=True))")
    return result.units[pairing]


#: Summary columns that are counts: integers in the table and the JSON.
_COUNTS = ("hands", "games", "hands_won", "games_won", "capped_hands", "capped_games", "pairs")


def _integers(row: dict[str, Any]) -> dict[str, Any]:
    """A summary row with its counts as integers (not 1200.0)."""
    out = dict(row)
    for key in _COUNTS:
        value = out.get(key)
        if isinstance(value, float) and math.isfinite(value) and value == int(value):
            out[key] = int(value)
    if isinstance(out.get("pair_counts"), list):
        out["pair_counts"] = [int(count) for count in out["pair_counts"]]
    return out


def parse_baseline(baseline: str | Mapping[str, Any] | None, grid: dict[str, list[Any]], base: Rules) -> int:
    """The index of the baseline cell: the first cell, or the one ``SWITCH=VALUE,...`` names.

    Every switch named must be a grid switch and its value one of the grid's; the values must pick
    exactly one cell (name every switch when several cells match), else a one-line ValueError that
    lists the cells.

    >>> parse_baseline("gin_bonus=25", {"gin_bonus": [20, 25]}, Rules())
    1
    """
    cells = grid_cells(grid)
    if baseline is None or baseline == "" or baseline == {}:
        return 0
    shown = "; ".join(cell_label(cell) for cell in cells[:20]) + ("; ..." if len(cells) > 20 else "")
    if isinstance(baseline, str):
        wanted: dict[str, Any] = {}
        for item in baseline.split(","):
            key, sep, value = item.partition("=")
            if not sep or not key.strip() or not value.strip():
                raise ValueError(f"bad --baseline {baseline!r}: expected SWITCH=VALUE,..., one of the cells: {shown}")
            if key.strip() in wanted:  # as --grid refuses a repeated switch (issue 32 item 27)
                raise ValueError(f"--baseline {baseline!r}: {key.strip()} is given twice; give each switch once")
            wanted[key.strip()] = value.strip()
    else:
        wanted = dict(baseline)
    for key, value in wanted.items():
        if key not in grid:
            raise ValueError(
                f"--baseline {key}={value}: {key} is not a switch of the grid ({', '.join(grid)}); the cells: {shown}"
            )
        if key != PRESET:
            try:
                wanted[key] = getattr(base.with_settings({key: value}), key)
            except (TypeError, ValueError) as error:
                raise ValueError(f"--baseline {key}={value}: {error}") from None
    matches = [i for i, cell in enumerate(cells) if all(cell[key] == value for key, value in wanted.items())]
    named = cell_label(wanted)
    if not matches:
        raise ValueError(f"--baseline {named} is not a cell of the grid; the cells: {shown}")
    if len(matches) > 1:
        missing = ", ".join(key for key in grid if key not in wanted)
        raise ValueError(f"--baseline {named} matches {len(matches)} cells: give a value for {missing} too")
    return matches[0]


def sweep(
    players: Sequence[str],
    grid: Mapping[str, Sequence[Any]] | Sequence[str],
    *,
    rules: Rules | str | None = None,
    settings: Mapping[str, Any] | None = None,
    baseline: str | Mapping[str, Any] | None = None,
    games: int | None = None,
    hands: int | None = None,
    seed: int = 0,
    duplicate: bool = True,
    workers: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    out: str | Path | None = None,
    progress: Callable[[Any, int], None] | None = None,
    hand_log: bool = False,
    reps: int = 1000,
    write_result: bool = True,
    adjust_luck: bool = False,
    **options: Any,
) -> SweepResult:
    """Play every pairing of ``players`` under every cell of ``grid`` on the same deals, and compare each cell with
    the baseline cell.

    ``grid`` maps switches to their values (``{"preset": ["standard", "oklahoma"], "gin_bonus": [20, 25]}``) or is
    a list of ``SWITCH=VALUES`` strings as ``--grid`` takes them (:func:`parse_grid`). ``rules`` (a preset name or
    :class:`Rules`, standard by default) are the base rules, with ``settings`` (``--set``) applied; a cell that
    names a ``preset`` starts from that preset instead, exactly as ``--rules PRESET`` would (so Oklahoma plays to
    150), with ``settings`` on top; the cell's other switches apply last (:func:`cell_rules`).

    Every cell plays the same seed, so unit k (a deal pair with duplicate deals, else a game or a hand) starts
    from the same seed in every cell (common random numbers); cells that are the same game (switches without
    effect there) are played once. ``games`` or ``hands`` are per pairing and cell (2,000 hands by default).

    The result has, per cell and pairing, every :data:`METRICS` entry with its 95% interval over units; with
    three or more players, per cell, Bradley-Terry ratings with bootstrap intervals (``reps`` replicates), the
    skill spread and the first-named player's results against all the others (:func:`first_named_units`);
    and the differences of every other distinct cell from the ``baseline`` cell (the first,
    or the one named by ``SWITCH=VALUE,...`` or a dict), on every metric of every pairing (and on the first-named
    player's pooled win rate and net points), paired unit by unit
    (:func:`compare_units`), with Holm's correction over all of them (docs/STATISTICS.md §4, §9).

    ``workers``, ``backend``, ``scheduler``, ``out`` (resumable run directory), ``progress``, ``hand_log`` and
    ``options`` (``programs``, ``notice``) go to :func:`~simgin.running.runner.run_cells`. With ``out``
    the directory also gets ``result.json`` (:meth:`SweepResult.result_data`), ``sweep.csv`` and
    ``differences.csv`` unless ``write_result`` is false. Ctrl-C raises :class:`simgin.running.runner.Interrupted`;
    finished chunks in ``out`` are kept and the same call resumes. Bad input is a ValueError naming the value and
    what is allowed.

    ``adjust_luck=True`` (sweeps of hands, issue 35) also removes each hand's luck of the cards
    (:mod:`simgin.game.luck`, docs/STATISTICS.md §13): every pairing gets ``luck_adjusted`` figures, and the
    differences in win rate and net points per hand (and their p-values, Holm and intervals) use the
    luck-adjusted outcomes, with the plain figures beside them (:attr:`Difference.plain`).
    """
    check_keywords(sweep, options, ("programs", "notice"))
    if isinstance(players, str):
        raise ValueError(f"sweep() takes a list of player specs, got the single string {players!r}")
    players = tuple(players)
    if len(players) < 2:
        raise ValueError(f"a sweep needs at least two players, got {len(players)}")
    if len(set(players)) != len(players):
        raise ValueError(f"players must differ, got {' '.join(players)}")
    base_rules, changes, parsed = study_grid(rules, settings, grid)
    if games is None and hands is None:
        hands = 2_000
    config = runner.RunConfig(players, base_rules, hands, games, seed, duplicate, adjust_luck=adjust_luck)
    cells, configs, same_as = plan_sweep(config, parsed, changes)
    chosen = parse_baseline(baseline, parsed, base_rules)
    start = time.perf_counter()
    results = play_distinct(
        configs,
        same_as,
        workers=workers,
        backend=backend,
        scheduler=scheduler,
        out=out,
        hand_log=hand_log,
        progress=progress,
        **options,
    )
    played = list(results.values())
    mode = config.mode
    sweep_cells = []
    for index, cell in enumerate(cells):
        first = same_as[index]
        result = results[index if first is None else first]
        pairings = []
        for k, (i, j) in enumerate(config.pairings):
            units = _units(result, k)
            tally = result.tallies[k]
            rates = {metric: unit_rate(units, metric, mode) for metric in metric_names(mode)}
            rates |= _luck_rates(units, mode, adjust_luck, LUCK_METRICS)
            pairings.append(
                PairingRates(players[i], players[j], len(units), int(tally["games"]), int(tally["hands"]), rates)
            )
        ratings = None
        first_named = None
        if len(players) >= 3:
            from simgin.running.tournament_ratings import tournament_analysis

            ratings = tournament_analysis(result, anchor=None, reps=reps, seed=seed)
            pooled = first_named_units(result)
            assert pooled is not None
            rates = {metric: unit_rate(pooled, metric, mode) for metric in FIRST_NAMED_METRICS}
            rates |= _luck_rates(pooled, mode, adjust_luck, FIRST_NAMED_METRICS)
            games_played = int(pooled[:, UNIT_INDEX["games"]].sum())
            hands_played = int(pooled[:, UNIT_INDEX["hands"]].sum())
            first_named = PairingRates(players[0], OTHERS, len(pooled), games_played, hands_played, rates)
        sweep_cells.append(
            SweepCell(
                index,
                cell,
                configs[index].rules,
                first,
                configs[index].rules.overridden(config.table, mode == "games"),
                result,
                tuple(pairings),
                ratings,
                first_named,
            )
        )
    differences = _differences(sweep_cells, chosen, config)
    outcome = SweepResult(
        config=config,
        grid=parsed,
        settings=changes,
        cells=tuple(sweep_cells),
        baseline=chosen,
        differences=differences,
        seconds=time.perf_counter() - start,
        chunks_run=played[0].chunks_run if played else 0,
        chunks_resumed=played[0].chunks_resumed if played else 0,
    )
    if out is not None and write_result:
        outcome.save(out)
    return outcome


def _luck_rates(
    units: np.ndarray, mode: str, adjust_luck: bool, metrics: Sequence[str]
) -> dict[str, tuple[float, float, float]]:
    """With ``adjust_luck``: each of ``metrics`` that :data:`LUCK_METRICS` adjusts, luck-adjusted, as
    ``METRIC_luck_adjusted`` (the value with its 95% interval, :func:`unit_rate`); else nothing."""
    if not adjust_luck:
        return {}
    return {f"{m}_luck_adjusted": unit_rate(units, m, mode, adjusted=True) for m in metrics if m in LUCK_METRICS}


def _differences(cells: list[SweepCell], baseline: int, config: runner.RunConfig) -> tuple[Difference, ...]:
    """Every distinct game other than the baseline's against it, on every metric of every pairing and, with three
    or more players, on the first-named player's pooled win rate and net points against the others; Holm over
    all of them, and each difference's Holm-consistent interval at its step's level (§4, §10)."""
    base_cell = cells[baseline]
    base_game = baseline if base_cell.same_game_as is None else base_cell.same_game_as
    rows = []
    inputs: list[tuple[np.ndarray, np.ndarray]] = []
    for cell in cells:
        if cell.same_game_as is not None or cell.index == base_game:
            continue  # a repeat is its first cell's game; the baseline's own game has no difference
        for k, rates in enumerate(cell.pairings):
            mine, theirs = _units(cell.result, k), _units(base_cell.result, k)
            for metric in metric_names(config.mode):
                adjusted = config.adjust_luck and metric in LUCK_METRICS
                value, base, difference, low, high, p, units = compare_units(
                    mine, theirs, metric, config.mode, adjusted=adjusted
                )
                rows.append((cell.index, (rates.a, rates.b), metric, value, base, difference, (low, high), p, units))
                inputs.append((mine, theirs))
        mine, theirs = first_named_units(cell.result), first_named_units(base_cell.result)
        if mine is not None and theirs is not None:
            for metric in FIRST_NAMED_METRICS:
                adjusted = config.adjust_luck and metric in LUCK_METRICS
                value, base, difference, low, high, p, units = compare_units(
                    mine, theirs, metric, config.mode, adjusted=adjusted
                )
                pairing = (config.players[0], OTHERS)
                rows.append((cell.index, pairing, metric, value, base, difference, (low, high), p, units))
                inputs.append((mine, theirs))
    adjusted = holm([row[7] for row in rows]) if rows else []
    levels = holm_levels([row[7] for row in rows]) if rows else []
    differences = []
    for (cell, pairing, metric, value, base, difference, ci, p, units), p_holm, level, data in zip(
        rows, adjusted, levels, inputs, strict=True
    ):
        confidence = 1.0 - float(level)
        adjusted = config.adjust_luck and metric in LUCK_METRICS
        _, _, _, low, high, _, _ = compare_units(*data, metric, config.mode, confidence, adjusted)
        se = unit_se(*data, metric, config.mode, adjusted)
        detectable = detectable_difference(se, float(level), DETECTABLE_POWER)
        plain = None
        if adjusted:
            plain_value, plain_base, plain_difference, plain_low, plain_high, plain_p, _ = compare_units(
                *data, metric, config.mode
            )
            plain = {
                "value": plain_value,
                "baseline_value": plain_base,
                "difference": plain_difference,
                "ci": [plain_low, plain_high],
                "p": plain_p,
            }
        differences.append(
            Difference(
                cell,
                pairing,
                metric,
                value,
                base,
                difference,
                ci,
                p,
                float(p_holm),
                bool(p_holm < 0.05),
                units,
                (low, high),
                confidence,
                detectable,
                "luck-adjusted" if adjusted else "plain",
                plain,
            )
        )
    return tuple(differences)


# -- words ------------------------------------------------------------------------------------------------------


def versus_label(result: SweepResult, cell: int) -> str:
    """How a cell reads against the baseline: ``'undercut_bonus=25 vs 0'`` (only the switches that differ)."""
    mine, theirs = result.cells[cell].settings, result.cells[result.baseline].settings
    keys = [key for key in mine if mine[key] != theirs[key]] or list(mine)
    if len(keys) == 1:
        key = keys[0]
        return f"{key}={grid_text(mine[key])} vs {grid_text(theirs[key])}"
    return (
        ", ".join(f"{key}={grid_text(mine[key])}" for key in keys)
        + " vs "
        + ", ".join(f"{key}={grid_text(theirs[key])}" for key in keys)
    )


def difference_text(result: SweepResult, d: Difference) -> str:
    """One comparison in words, e.g. ``'undercut_bonus=25 vs 0: opponent beats simple in 74.6% of games vs 62.1%
    (+12.5 points, Holm-adjusted 99.94% CI +8.1 to +16.9, p_holm < 1e-6)'``. Shares are percentages and their
    difference is in percentage points; other metrics are plain numbers. The interval is the Holm-consistent one
    (:attr:`Difference.ci_holm`), which excludes 0 exactly when the difference is called significant."""
    a, b = d.pairing
    low, high = d.ci_holm
    level = f"Holm-adjusted {100 * d.ci_holm_confidence:.4g}% CI"
    if d.estimator != "plain":
        level = f"{d.estimator}, {level}"
    if d.metric in RATES:
        change = f"{100 * d.difference:+.1f} points, " + (
            f"{level} {100 * low:+.1f} to {100 * high:+.1f}" if math.isfinite(low) else "no interval"
        )
        value, base = percent(d.value), percent(d.baseline_value)
    else:
        interval = f"{level} {low:+.2f} to {high:+.2f}" if math.isfinite(low) else "no interval"
        change = f"{d.difference:+.2f}, {interval}"
        value, base = f"{d.value:.2f}", f"{d.baseline_value:.2f}"
    unit = "games" if result.config.mode == "games" else "hands"
    said = {
        "win_rate": f"{a} beats {b} in {value} of {unit} vs {base}",
        "net_points_per_hand": f"{a} nets {d.value:+.2f} points per hand against {b} vs {d.baseline_value:+.2f}",
        "first_player_win_rate": f"in {a} vs {b}, the first player wins {value} of scored hands vs {base}",
        "gin_rate": f"in {a} vs {b}, {value} of hands end in gin vs {base}",
        "undercut_rate": f"in {a} vs {b}, {value} of hands end in an undercut vs {base}",
        "dead_rate": f"in {a} vs {b}, {value} of hands are dead vs {base}",
        "knock_rate": f"in {a} vs {b}, {value} of hands are won by a knock vs {base}",
        "hands_per_game": f"games of {a} vs {b} last {value} hands vs {base}",
    }[d.metric]
    p = "p_holm n/a" if math.isnan(d.p_holm) else p_below(d.p_holm, "p_holm")
    return f"{versus_label(result, d.cell)}: {said} ({change}, {p})"

"""Variant sweeps of three-player (V11) and partnership (V12) tables (issue 32 item 29).

The two-player sweep (:mod:`simgin.studies.sweep`) plays every pairing of its players under every cell of a
grid. A table sweep plays one table instead, three players or two partnerships, under every cell, on the
same game seeds (common random numbers): unit k is the game of seed k, played in every seating with duplicate
deals (6 seatings of three players, 8 of two partnerships), so each player meets the same deals from every
seat, in every cell. Per cell it gives each player's (team's) share of games won and points per game, and the
table's hands per game and outcome rates, each with a 95% interval over units; and every other distinct cell
against the baseline cell on each of those, paired unit by unit, with Holm's correction over all of them and
Holm-consistent intervals (docs/STATISTICS.md §4, §9, §10).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simgin.game.multiplayer import table_unit_fields
from simgin.game.rules import Rules
from simgin.running import runner
from simgin.running.keywords import check_keywords
from simgin.statistics.paired import holm_levels, paired_comparison, share_interval
from simgin.statistics.stats import holm, paired_difference
from simgin.studies.grid import play_distinct, study_grid
from simgin.studies.sweep import cell_label, parse_baseline, plan_sweep

KIND = "table-sweep"
CONFIDENCE = 0.95
TABLES = ("three", "teams")

#: The table's own figures: name -> (events, trials, whether a share, words). Fields of
#: :func:`simgin.game.multiplayer.table_unit_fields`; every one is pooled, Σ events / Σ trials over units.
TABLE_METRICS: dict[str, tuple[str, str, bool, str]] = {
    "hands_per_game": ("hands", "games", False, "hands per game"),
    "gin_rate": ("gin", "hands", True, "share of hands ended by gin (R13)"),
    "undercut_rate": ("undercut", "hands", True, "share of hands ended by an undercut (R18)"),
    "dead_rate": ("dead", "hands", True, "share of dead hands (R15)"),
    "knock_rate": ("knock", "hands", True, "share of hands won by a knock without gin"),
}


def side_metrics(table: str) -> dict[str, tuple[str, bool, str]]:
    """Per player (three) or team (partnerships): name -> (field prefix, whether a share, words)."""
    if table == "three":
        return {
            "win_rate": ("wins", True, "share of games won (V11)"),
            "net_per_game": ("net", False, "net points per game (its points minus the others', V11)"),
        }
    return {
        "win_rate": ("team_wins", True, "share of games won by the team (V12)"),
        "margin_per_game": ("team_margin", False, "the team's winning margin per game (negative when it lost, V12)"),
    }


def side_names(table: str, players: Sequence[str]) -> list[str]:
    """The players (three) or the teams, 'A + B' of the first two named and of the last two (partnerships)."""
    if table == "three":
        return list(players)
    return [f"{players[0]} + {players[1]}", f"{players[2]} + {players[3]}"]


def _column(units: np.ndarray, table: str, name: str) -> np.ndarray:
    return units[:, table_unit_fields(table).index(name)].astype(float)


def _estimate(x: np.ndarray, n: np.ndarray, share: bool) -> tuple[float, float, float]:
    if share:
        return share_interval(x, n, CONFIDENCE)
    estimate = paired_difference(x, np.zeros_like(x), n, None, CONFIDENCE)
    return estimate.difference, estimate.low, estimate.high


def cell_rows(table: str, players: Sequence[str], units: np.ndarray) -> list[dict[str, Any]]:
    """One row per player (team) and one for the table: every metric with its 95% interval over units."""
    games = _column(units, table, "games")
    rows = []
    for index, name in enumerate(side_names(table, players)):
        row: dict[str, Any] = {"side": name}
        for metric, (prefix, share, _) in side_metrics(table).items():
            value, low, high = _estimate(_column(units, table, f"{prefix}_{index}"), games, share)
            row |= {metric: value, f"{metric}_low": low, f"{metric}_high": high}
        rows.append(row)
    row = {"side": "table"}
    for metric, (events, trials, share, _) in TABLE_METRICS.items():
        value, low, high = _estimate(_column(units, table, events), _column(units, table, trials), share)
        row |= {metric: value, f"{metric}_low": low, f"{metric}_high": high}
    rows.append(row)
    return rows


@dataclass(frozen=True)
class TableSweepCell:
    index: int
    settings: dict[str, Any]
    label: str
    same_game_as: int | None
    units: int
    rows: list[dict[str, Any]]
    """:func:`cell_rows`: one per player (team), then the table's."""


@dataclass(frozen=True)
class TableDifference:
    """One cell against the baseline on one metric of one player (team) or of the table, paired over units."""

    cell: int
    side: str
    metric: str
    difference: float
    low: float
    high: float
    p: float
    p_holm: float
    ci_holm: tuple[float, float]
    ci_holm_confidence: float
    units: int
    method: str

    @property
    def significant(self) -> bool:
        return self.p_holm < 1 - CONFIDENCE


@dataclass(frozen=True)
class TableSweepResult:
    """A table sweep: its settings, every cell's figures, and every difference from the baseline."""

    table: str
    players: tuple[str, ...]
    grid: dict[str, list[Any]]
    rules: dict[str, Any]
    games: int
    seed: int
    duplicate: bool
    baseline: int
    cells: tuple[TableSweepCell, ...]
    differences: tuple[TableDifference, ...]
    seconds: float

    @property
    def significant(self) -> list[TableDifference]:
        return sorted((d for d in self.differences if d.significant), key=lambda d: d.p_holm)

    def to_frame(self) -> pd.DataFrame:
        """One row per cell and player (team), plus one per cell for the table: switches, metrics, intervals."""
        rows = []
        for cell in self.cells:
            for row in cell.rows:
                rows.append({**cell.settings, "cell": cell.label, **row, "units": cell.units})
        return pd.DataFrame(rows)

    def differences_frame(self) -> pd.DataFrame:
        rows = []
        for d in self.differences:
            row = {"cell": self.cells[d.cell].label, "baseline": self.cells[self.baseline].label}
            row |= {key: getattr(d, key) for key in ("side", "metric", "difference", "low", "high", "p", "p_holm")}
            row |= {"ci_holm_low": d.ci_holm[0], "ci_holm_high": d.ci_holm[1], "significant": d.significant}
            row |= {"units": d.units, "method": d.method}
            rows.append(row)
        return pd.DataFrame(rows)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON values (NaN as null): the settings, the cells and the differences."""
        from simgin.running.results import jsonable

        return jsonable(
            {
                "table": self.table,
                "players": list(self.players),
                "sides": side_names(self.table, self.players),
                "grid": self.grid,
                "rules": self.rules,
                "games": self.games,
                "seed": self.seed,
                "duplicate": self.duplicate,
                "unit": "game seed, every seating" if self.duplicate else "game",
                "baseline": self.cells[self.baseline].label,
                "cells": [
                    {
                        "label": c.label,
                        "settings": c.settings,
                        "same_game_as": None if c.same_game_as is None else self.cells[c.same_game_as].label,
                        "units": c.units,
                        "rows": c.rows,
                    }
                    for c in self.cells
                ],
                "differences": self.differences_frame().to_dict(orient="records"),
                "seconds": self.seconds,
            }
        )

    def result_data(self) -> dict[str, Any]:
        from simgin import __version__

        return {"kind": KIND, "simgin_version": __version__, **self.to_json()}

    def save(self, out: str | Path) -> None:
        """``result.json``, ``sweep.csv`` (cells) and ``differences.csv`` into the run directory ``out``."""
        from simgin.running.results import save_result

        path = Path(out)
        save_result(path, self.result_data())
        self.to_frame().to_csv(path / "sweep.csv", index=False)
        self.differences_frame().to_csv(path / "differences.csv", index=False)


def _comparisons(table: str) -> list[tuple[str, str, str, str, bool]]:
    """Every comparison of a cell with the baseline: (side, metric, events, trials, whether a share); the side is a
    player's (team's) index as text, or ``'table'``."""
    out = []
    for index in range(3 if table == "three" else 2):
        for metric, (prefix, share, _) in side_metrics(table).items():
            out.append((str(index), metric, f"{prefix}_{index}", "games", share))
    for metric, (events, trials, share, _) in TABLE_METRICS.items():
        out.append(("table", metric, events, trials, share))
    return out


def _compare_one(
    table: str, cell: np.ndarray, base: np.ndarray, events: str, trials: str, share: bool, confidence: float
) -> Any:
    """One metric of one cell against the baseline, paired unit by unit (§9, §10)."""
    return paired_comparison(
        _column(cell, table, events),
        _column(base, table, events),
        _column(cell, table, trials),
        _column(base, table, trials),
        confidence,
        share=share,
    )


def table_sweep(
    players: Sequence[str],
    grid: Mapping[str, Sequence[Any]] | Sequence[str],
    *,
    table: str,
    rules: Rules | str | None = None,
    settings: Mapping[str, Any] | None = None,
    games: int = 240,
    seed: int = 0,
    duplicate: bool = True,
    baseline: str | Mapping[str, Any] | None = None,
    workers: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    out: str | Path | None = None,
    progress: Callable[..., None] | None = None,
    write_result: bool = True,
    **options: Any,
) -> TableSweepResult:
    """Play one three-player (``table='three'``, V11) or partnership (``table='teams'``, V12; ``players`` the two
    partners of the first team, then the second's) table under every cell of ``grid``, on the same game seeds,
    and compare every other distinct cell with the ``baseline`` cell (module docstring).

    ``games`` per cell (a multiple of the seatings with duplicate deals: 6 or 8). Cells that are the same game
    (switches without effect at the table, ``Rules.overridden(table)``) are played once. ``options``
    (``hand_log``, ``notice``, ``programs``) go to :func:`~simgin.running.runner.run_cells`. Bad input is a
    ValueError naming the value and what is allowed.
    """
    check_keywords(table_sweep, options, ("hand_log", "notice", "programs"))
    if table not in TABLES:
        raise ValueError(f"table={table!r}: choose from {', '.join(TABLES)} (a two-player sweep is simgin.sweep)")
    players = tuple(players)
    wanted = 3 if table == "three" else 4
    if len(players) != wanted:
        raise ValueError(f"a {table} table sweep takes {wanted} players, got {len(players)}: {' '.join(players)}")
    base_rules, changes, parsed = study_grid(rules, settings, grid)
    config = runner.RunConfig(players, base_rules, None, games, seed, duplicate, table=table)
    cells, configs, same_as = plan_sweep(config, parsed, changes)
    chosen = parse_baseline(baseline, parsed, base_rules)
    start = time.perf_counter()
    results = play_distinct(
        configs, same_as, workers=workers, backend=backend, scheduler=scheduler, out=out, progress=progress, **options
    )
    units = {index: result.units[0] for index, result in results.items()}

    def of(index: int) -> np.ndarray:
        return units[index if same_as[index] is None else same_as[index]]

    sweep_cells = tuple(
        TableSweepCell(i, cell, cell_label(cell), same_as[i], int(of(i).shape[0]), cell_rows(table, players, of(i)))
        for i, cell in enumerate(cells)
    )
    names = side_names(table, players)
    raw = []
    for index in results:
        if index == chosen or same_as[chosen] == index:
            continue
        for side, metric, events, trials, share in _comparisons(table):
            c = _compare_one(table, of(index), of(chosen), events, trials, share, CONFIDENCE)
            raw.append((index, side, metric, (events, trials, share), c))
    adjusted = holm([c.p for *_, c in raw]) if raw else []
    levels = holm_levels([c.p for *_, c in raw], 1 - CONFIDENCE) if raw else []
    differences = []
    for (index, side, metric, spec, c), p_holm, level in zip(raw, adjusted, levels, strict=True):
        # The Holm-consistent interval: the test's interval at 1 - the level Holm tests it at (§4), so that it
        # excludes 0 exactly when p_holm < 0.05.
        wide = _compare_one(table, of(index), of(chosen), *spec, 1.0 - float(level))
        differences.append(
            TableDifference(
                index,
                names[int(side)] if side != "table" else "table",
                metric,
                c.difference,
                c.low,
                c.high,
                c.p,
                float(p_holm),
                (wide.low, wide.high),
                1.0 - float(level),
                c.units,
                c.method,
            )
        )
    result = TableSweepResult(
        table,
        players,
        {key: list(values) for key, values in parsed.items()},
        base_rules.to_dict(),
        games,
        seed,
        duplicate,
        chosen,
        sweep_cells,
        tuple(differences),
        time.perf_counter() - start,
    )
    if out is not None and write_result:
        result.save(out)
    return result


def difference_text(result: TableSweepResult, d: TableDifference) -> str:
    """One difference in words, with its Holm-consistent interval and adjusted p-value."""
    from simgin.statistics.formats import p_below

    words = {**{k: v[2] for k, v in side_metrics(result.table).items()}, **{k: v[3] for k, v in TABLE_METRICS.items()}}
    share = d.metric in ("win_rate",) or (d.metric in TABLE_METRICS and TABLE_METRICS[d.metric][2])
    scale, unit = (100.0, " points") if share else (1.0, "")
    who = "the table" if d.side == "table" else d.side
    return (
        f"{result.cells[d.cell].label}: {who}, {words[d.metric]}: {scale * d.difference:+.2f}{unit} "
        f"({d.ci_holm_confidence:.1%} CI {scale * d.ci_holm[0]:+.2f} to {scale * d.ci_holm[1]:+.2f}, Holm), "
        f"p_holm {p_below(d.p_holm)[2:]}"
    )

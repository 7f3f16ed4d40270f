"""The grid of a variant study: ``--grid`` parsed into switches and values (every switch a rule of RULES.md), its
cells, their labels and rules, the notes on cells that play the same game, the plan and the run of every cell on
the same deals (docs/STATISTICS.md §9). :mod:`simgin.studies.sweep` (pairs) and :mod:`simgin.studies.table_sweep`
(tables) study what it plays."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from simgin.game.rules import Rules
from simgin.running import runner
from simgin.running.summary import pair_statistics, player_rows

MAX_CELLS = 1000


#: The grid dimension that starts a cell from a named preset (``Rules.preset``) instead of the base rules.
PRESET = "preset"


def grid_switches() -> list[str]:
    """What ``--grid`` can vary: ``preset`` and every rule switch."""
    return [PRESET, *Rules().to_dict()]


def parse_grid(items: list[str] | tuple[str, ...], base: Rules) -> dict[str, list[Any]]:
    """Parse ``switch=values`` items: ``a..b`` (whole numbers, inclusive) or ``v1,v2,...``.

    Each value is checked by building the rules, so a bad one is named with what is allowed;
    ``preset`` takes preset names (``Rules.PRESETS``).

    >>> parse_grid(["knock_limit=8..10", "oklahoma=false,true"], Rules())
    {'knock_limit': [8, 9, 10], 'oklahoma': [False, True]}
    >>> parse_grid(["preset=standard,oklahoma"], Rules())
    {'preset': ['standard', 'oklahoma']}
    """
    grid: dict[str, list[Any]] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key or not text.strip():
            raise ValueError(f"bad --grid {item!r}: expected SWITCH=A..B or SWITCH=V1,V2, e.g. knock_limit=0..10")
        if key not in grid_switches():
            raise ValueError(f"unknown rule {key!r} in --grid: choose from {', '.join(grid_switches())}")
        if key in grid:
            raise ValueError(f"--grid {key} given twice")
        if ".." in text:
            low, _, high = text.partition("..")
            try:
                values_range = range(int(low), int(high) + 1)
            except ValueError:
                raise ValueError(f"bad --grid range {text!r} for {key}: expected whole numbers like 0..10") from None
            if len(values_range) > MAX_CELLS:
                raise ValueError(f"--grid range {text!r} for {key} has {len(values_range)} values; at most {MAX_CELLS}")
            raw = [str(v) for v in values_range]
            if not raw:
                raise ValueError(f"empty --grid range {text!r} for {key}")
        else:
            raw = [value.strip() for value in text.split(",") if value.strip()]
        if key == PRESET:
            for name in raw:
                Rules.preset(name)  # a ValueError naming the presets
            values: list[Any] = raw
        else:
            values = [getattr(base.with_settings({key: value}), key) for value in raw]
        if len(set(map(str, values))) != len(values):
            raise ValueError(f"--grid {key} names a value twice: {text.strip()!r}")
        grid[key] = values
    if not grid:
        raise ValueError("a sweep needs at least one --grid SWITCH=VALUES")
    cells = 1
    for values in grid.values():
        cells *= len(values)
    if cells > MAX_CELLS:
        raise ValueError(f"the grid has {cells} cells; at most {MAX_CELLS} are allowed")
    return grid


def grid_cells(grid: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """Every combination of the grid's values, first switch slowest."""
    keys = list(grid)
    return [dict(zip(keys, values, strict=True)) for values in itertools.product(*(grid[k] for k in keys))]


def cell_label(settings: dict[str, Any]) -> str:
    """``'knock_limit=5, oklahoma=true'``: a cell named by its switch values."""
    return ", ".join(
        f"{key}={str(value).lower() if isinstance(value, bool) else value}" for key, value in settings.items()
    )


def cell_rules(base: Rules, cell: Mapping[str, Any], settings: Mapping[str, Any] | None = None) -> Rules:
    """The rules of one cell: ``Rules.preset(cell['preset'])`` with ``settings`` (``--set``) on top when the
    cell names a preset, else ``base`` (which already holds them); then the cell's other switches.

    >>> cell_rules(Rules(), {"preset": "oklahoma", "gin_bonus": 25}).target  # Oklahoma plays to 150
    150
    """
    start = Rules.preset(cell[PRESET]).with_settings(dict(settings or {})) if PRESET in cell else base
    return dataclasses.replace(start, **{key: value for key, value in cell.items() if key != PRESET})


def plan_sweep(
    base: runner.RunConfig, grid: dict[str, list[Any]], settings: Mapping[str, Any] | None = None
) -> tuple[list[dict[str, Any]], list[runner.RunConfig], list[int | None]]:
    """The cells' settings, their run settings, and for each cell the earlier cell it is the
    same game as (``None`` for the first cell of each distinct game).

    Each cell's rules are :func:`cell_rules` (``settings`` are the ``--set`` switches, applied
    on top of a cell's preset). Two cells are the same game when their effective rules
    (``Rules.effective``: overridden switches back at their standard values) are equal. Cells
    whose rules are invalid together (say Oklahoma with the 11-card start) are a ValueError
    naming the cell.
    """
    cells = grid_cells(grid)
    configs = []
    for cell in cells:
        try:
            rules = cell_rules(base.rules, cell, settings)
            rules.check_table(base.table)
        except ValueError as error:
            raise ValueError(f"grid cell {cell}: {error}") from None
        configs.append(dataclasses.replace(base, rules=rules))
    first_of: dict[Rules, int] = {}
    same_as: list[int | None] = []
    for index, config in enumerate(configs):
        game = config.rules.effective(config.table, config.mode == "games")
        first = first_of.setdefault(game, index)
        same_as.append(None if first == index else first)
    return cells, configs, same_as


def same_game_notes(
    base: runner.RunConfig, grid: dict[str, list[Any]], settings: Mapping[str, Any] | None = None
) -> list[str]:
    """One line per cell that is the same game as an earlier one: which, and why (rule ids)."""
    cells, configs, same_as = plan_sweep(base, grid, settings)
    games = base.mode == "games"
    notes = []
    for index, first in enumerate(same_as):
        if first is None:
            continue
        mine = configs[index].rules.overridden(base.table, games)
        theirs = configs[first].rules.overridden(base.table, games)
        differ = [key for key in cells[index] if cells[index][key] != cells[first][key]]
        reasons = [f"{key}: {mine.get(key) or theirs.get(key)}" for key in differ if mine.get(key) or theirs.get(key)]
        why = "; ".join(reasons) or "the same rules"
        notes.append(
            f"cell {cell_label(cells[index])} is the same game as cell {cell_label(cells[first])} ({why}): "
            "played once; its rows show that cell's results"
        )
    return notes


def run_sweep(base: runner.RunConfig, grid: dict[str, list[Any]], **options: Any) -> tuple[list[dict], pd.DataFrame]:
    """Play every distinct cell once; returns the cells (settings, tallies and summary rows) and a tidy table.

    The table has one row per cell and player, with the cell's switch values as columns and
    ``same_game_as`` naming the earlier cell whose game it repeats (empty for a distinct
    game); each cell dict has ``same_game_as`` (that cell's index, or None) and
    ``overridden`` (its switches without effect). See :func:`plan_sweep`.
    """
    settings, configs, same_as = plan_sweep(base, grid)
    distinct = [index for index, first in enumerate(same_as) if first is None]
    played = runner.run_cells([configs[index] for index in distinct], kind="sweep", **options)
    results = dict(zip(distinct, played, strict=True))
    cells = []
    rows = []
    for index, cell in enumerate(settings):
        first = same_as[index]
        result = results[index if first is None else first]
        label = "" if first is None else cell_label(settings[first])
        pairings = []
        summary = []
        for pairing, tally in enumerate(result.tallies):
            a, b = (result.config.players[k] for k in result.config.pairings[pairing])
            paired = pair_statistics(tally)
            pairing_data = {"a": a, "b": b, "tally": tally.to_dict(), "paired": paired}
            if tally.forfeits:  # --on-illegal forfeit: where, and how to replay each
                pairing_data["forfeited"] = list(tally.forfeits)
            pairings.append(pairing_data)
            for row in player_rows(result.config, pairing, tally):
                summary.append(row)
                rows.append(cell | row | {"same_game_as": label})
        overridden = configs[index].rules.overridden(base.table, base.mode == "games")
        cells.append(
            {
                "settings": cell,
                "same_game_as": first,
                "overridden": overridden,
                "pairings": pairings,
                "summary": summary,
            }
        )
    return cells, pd.DataFrame(rows)


def study_grid(
    rules: Rules | str | None,
    settings: Mapping[str, Any] | None,
    grid: Mapping[str, Sequence[Any]] | Sequence[str],
) -> tuple[Rules, dict[str, Any], dict[str, list[Any]]]:
    """What a study of ``grid`` starts from: the base rules (a preset name or :class:`Rules`, standard by default)
    with ``settings`` (``--set``) applied, those settings as a dict, and the grid parsed against the base rules
    (:func:`parse_grid`; a bad switch or value is a ValueError naming it)."""
    base = Rules.preset(rules) if isinstance(rules, str) else (rules or Rules())
    changes = dict(settings or {})
    base = base.with_settings(changes)
    return base, changes, parse_grid(grid_items(grid), base)


def play_distinct(
    configs: Sequence[runner.RunConfig], same_as: Sequence[int | None], **options: Any
) -> dict[int, runner.RunResult]:
    """Play each distinct game of a plan once (the cells whose ``same_as`` is None, :func:`plan_sweep`), with unit
    records; cell index -> its run. ``options`` go to :func:`~simgin.running.runner.run_cells`."""
    distinct = [index for index, first in enumerate(same_as) if first is None]
    played = runner.run_cells([configs[index] for index in distinct], kind="sweep", unit_records=True, **options)
    return dict(zip(distinct, played, strict=True))


def grid_items(grid: Mapping[str, Sequence[Any]] | Sequence[str]) -> list[str]:
    """``--grid`` items from a grid given as a dict (``{"gin_bonus": [20, 25]}`` -> ``["gin_bonus=20,25"]``) or
    already as items, for :func:`parse_grid`."""
    if isinstance(grid, Mapping):
        return [f"{key}={','.join(grid_text(v) for v in values)}" for key, values in grid.items()]
    if isinstance(grid, str):  # iterated, a string would be its letters: "bad --grid 'k'"
        raise ValueError(
            f"grid={grid!r}: give a list of SWITCH=VALUES strings (one a switch) or a dict, e.g. [{grid!r}]"
        )
    return list(grid)


def grid_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)

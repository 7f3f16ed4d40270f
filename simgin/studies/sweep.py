"""Variant sweeps: every combination of rule values played on the same seeds (common random numbers).

``--grid knock_limit=0..10 --grid gin_bonus=20,25`` makes 22 cells; each cell is a run with
those switches set on the base rules, and every cell plays the same deals, so differences
between cells come from the rules, not from the cards.

Cells whose rules differ only in switches that have no effect there (``Rules.overridden``:
``knock_limit`` under Oklahoma, say) are the same game: each distinct game is played once,
and a cell that repeats an earlier one names it (``same_game_as``) and shows its results.
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import pandas as pd

from simgin.game.rules import Rules
from simgin.running import runner
from simgin.running.summary import pair_statistics, player_rows

MAX_CELLS = 1000


def parse_grid(items: list[str] | tuple[str, ...], base: Rules) -> dict[str, list[Any]]:
    """Parse ``switch=values`` items: ``a..b`` (whole numbers, inclusive) or ``v1,v2,...``.

    Each value is checked by building the rules, so a bad one is named with what is allowed.

    >>> parse_grid(["knock_limit=8..10", "oklahoma=false,true"], Rules())
    {'knock_limit': [8, 9, 10], 'oklahoma': [False, True]}
    """
    grid: dict[str, list[Any]] = {}
    for item in items:
        key, sep, text = item.partition("=")
        key = key.strip()
        if not sep or not key or not text.strip():
            raise ValueError(f"bad --grid {item!r}: expected SWITCH=A..B or SWITCH=V1,V2, e.g. knock_limit=0..10")
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
        values = [getattr(base.with_settings({key: value}), key) for value in raw]
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


def plan_sweep(
    base: runner.RunConfig, grid: dict[str, list[Any]]
) -> tuple[list[dict[str, Any]], list[runner.RunConfig], list[int | None]]:
    """The cells' settings, their run settings, and for each cell the earlier cell it is the
    same game as (``None`` for the first cell of each distinct game).

    Two cells are the same game when their effective rules (``Rules.effective``: overridden
    switches back at their standard values) are equal. Cells whose rules are invalid
    together (say Oklahoma with the 11-card start) are a ValueError naming the cell.
    """
    settings = grid_cells(grid)
    configs = []
    for cell in settings:
        try:
            rules = dataclasses.replace(base.rules, **cell)
        except ValueError as error:
            raise ValueError(f"grid cell {cell}: {error}") from None
        configs.append(dataclasses.replace(base, rules=rules))
    first_of: dict[Rules, int] = {}
    same_as: list[int | None] = []
    for index, config in enumerate(configs):
        game = config.rules.effective(config.table, config.mode == "games")
        first = first_of.setdefault(game, index)
        same_as.append(None if first == index else first)
    return settings, configs, same_as


def same_game_notes(base: runner.RunConfig, grid: dict[str, list[Any]]) -> list[str]:
    """One line per cell that is the same game as an earlier one: which, and why (rule ids)."""
    settings, configs, same_as = plan_sweep(base, grid)
    games = base.mode == "games"
    notes = []
    for index, first in enumerate(same_as):
        if first is None:
            continue
        mine = configs[index].rules.overridden(base.table, games)
        theirs = configs[first].rules.overridden(base.table, games)
        differ = [key for key in settings[index] if settings[index][key] != settings[first][key]]
        why = "; ".join(f"{key}: {mine.get(key) or theirs.get(key)}" for key in differ)
        notes.append(
            f"cell {cell_label(settings[index])} is the same game as cell {cell_label(settings[first])} ({why}): "
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

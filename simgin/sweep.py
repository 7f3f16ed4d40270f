"""Variant sweeps: every combination of rule values played on the same seeds (common random numbers).

``--grid knock_limit=0..10 --grid gin_bonus=20,25`` makes 22 cells; each cell is a run with
those switches set on the base rules, and every cell plays the same deals, so differences
between cells come from the rules, not from the cards.
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import pandas as pd

from simgin import runner
from simgin.rules import Rules
from simgin.summary import pair_statistics, player_rows

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


def run_sweep(base: runner.RunConfig, grid: dict[str, list[Any]], **options: Any) -> tuple[list[dict], pd.DataFrame]:
    """Play every cell; returns the cells (settings, tallies and summary rows) and a tidy table.

    The table has one row per cell and player, with the cell's switch values as columns.
    Cells whose rules are invalid together (say Oklahoma with the 11-card start) stop the
    sweep before anything is played, with the cell named.
    """
    settings = grid_cells(grid)
    configs = []
    for cell in settings:
        try:
            rules = dataclasses.replace(base.rules, **cell)
        except ValueError as error:
            raise ValueError(f"grid cell {cell}: {error}") from None
        configs.append(dataclasses.replace(base, rules=rules))
    results = runner.run_cells(configs, kind="sweep", **options)
    cells = []
    rows = []
    for cell, result in zip(settings, results, strict=True):
        pairings = []
        summary = []
        for index, tally in enumerate(result.tallies):
            a, b = (result.config.players[k] for k in result.config.pairings[index])
            paired = pair_statistics(tally)
            pairings.append({"a": a, "b": b, "tally": tally.to_dict(), "paired": paired})
            for row in player_rows(result.config, index, tally):
                summary.append(row)
                rows.append(cell | row)
        cells.append({"settings": cell, "pairings": pairings, "summary": summary})
    return cells, pd.DataFrame(rows)

"""The answer of a variant study (``simgin sweep``, issue 23 item 4), put first in its report.

A sweep asks how the rules change the game for the first-named player. This module reads the
sweep's ``result.json`` (:meth:`simgin.studies.sweep.SweepResult.result_data`: each cell's recorded
``rules``, per-pairing rates with intervals, ``first_named`` pooled rates and ``skill_spread`` with
three or more players, and the paired ``differences`` from the baseline with Holm's correction) and
gives:

- per varied switch (grid dimension, ``preset`` included), a table and a figure of the first-named
  player's win rate across the switch's values, the other switches held at the baseline's values, so
  each value's cell differs from the baseline in that switch only and its paired test against the
  baseline (``differences``) is the test of the switch; the caption is the finding in numbers;
- per pair of varied switches, heat maps of that win rate, the skill spread (three or more players),
  the first player's share of scored hands (the seat edge, R11) and hands per game (runs of games);
- a forest plot of every significant difference from the baseline with its 95% interval.

The first-named player's win rate is its pooled win rate against all the others with three or more
players (``first_named``), else its pairing's win rate. Figures are :class:`~matplotlib.figure.Figure`
objects drawn inside :func:`~simgin.reports.figure_style.report_style`, as in :mod:`simgin.reports.figures`.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from simgin.statistics.formats import p_below

from .figure_style import PALETTE, WIDTH, finite, join_phrases, percent, percent_interval, styled

#: The opponent's name of the first-named player's pooled results (``simgin.studies.sweep.OTHERS``).
OTHERS = "the others"
#: At most this many significant differences are drawn in the forest plot (the smallest p_holm first).
MAX_FOREST_ROWS = 40
#: A switch's finding lists each other value with its test up to this many values, else it sums them up.
MAX_LISTED_VALUES = 3
#: Metrics that are shares: differences in percentage points.
RATES = ("win_rate", "first_player_win_rate", "gin_rate", "undercut_rate", "dead_rate", "knock_rate")
#: The forest plot's panels: which metrics share an axis, and the axis label.
UNIT_GROUPS = (
    (RATES, "difference from the baseline (percentage points)"),
    (("net_points_per_hand",), "difference from the baseline (points per hand)"),
    (("hands_per_game",), "difference from the baseline (hands per game)"),
)
METRIC_WORDS = {
    "win_rate": "win rate",
    "net_points_per_hand": "net points per hand",
    "first_player_win_rate": "first player's share of scored hands",
    "gin_rate": "gin share",
    "undercut_rate": "undercut share",
    "dead_rate": "dead-hand share",
    "knock_rate": "knock share",
    "hands_per_game": "hands per game",
}


def is_study(result: dict[str, Any]) -> bool:
    """True for a sweep written with its differences (older sweep results have none: no study section)."""
    return result.get("kind") == "sweep" and isinstance(result.get("differences"), list) and bool(result.get("cells"))


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _label(settings: dict[str, Any]) -> str:
    return ", ".join(f"{key}={_text(value)}" for key, value in settings.items())


def _unit(result: dict[str, Any]) -> str:
    """``'games'`` or ``'hands'``: what the win rates count."""
    mode = result.get("mode") or ("games" if (result.get("config") or {}).get("games") else "hands")
    return "games" if mode == "games" else "hands"


def _baseline(result: dict[str, Any]) -> int:
    return int((result.get("baseline") or {}).get("cell", 0))


def _game(result: dict[str, Any], index: int) -> int:
    first = result["cells"][index].get("same_game_as")
    return index if first is None else int(first)


def first_named(result: dict[str, Any]) -> tuple[str, str]:
    """The first-named player and whom its win rate is against: ``('simple', 'the others')`` or ``('a', 'b')``."""
    players = list(result["players"])
    return players[0], (OTHERS if len(players) >= 3 else players[1])


def cell_win_rate(result: dict[str, Any], cell: dict[str, Any], adjusted: bool = False) -> tuple[float, float, float]:
    """The first-named player's win rate in a cell with its 95% interval: pooled against the others with three or
    more players, else its pairing's; ``adjusted``: luck-adjusted (a sweep with ``adjust_luck``, issue 35)."""
    source = cell.get("first_named") if len(result["players"]) >= 3 else None
    if not source:
        player, against = first_named(result)
        source = next(
            (p for p in cell["pairings"] if p.get("a") == player and (against == OTHERS or p.get("b") == against)),
            cell["pairings"][0],
        )
    key = "win_rate_luck_adjusted" if adjusted else "win_rate"
    low, high = source.get(f"{key}_ci") or (math.nan, math.nan)
    return float(source.get(key, math.nan)), float(low), float(high)


def _adjusted(table: pd.DataFrame) -> bool:
    """Whether an :func:`effect_table` holds luck-adjusted win rates."""
    return "estimator" in table and table["estimator"].iloc[0] == "luck-adjusted"


def luck_adjusted_study(result: dict[str, Any]) -> bool:
    """Whether the study's win-rate differences are luck-adjusted (``sweep --adjust-luck``, issue 35)."""
    return any(d.get("estimator") == "luck-adjusted" for d in result["differences"])


def win_difference(result: dict[str, Any], index: int) -> dict[str, Any] | None:
    """The paired test of the first-named player's win rate in cell ``index`` against the baseline (from
    ``differences``; a repeated cell has its first cell's), or None when there is none (the baseline's game)."""
    game = _game(result, index)
    player, against = first_named(result)
    for d in result["differences"]:
        if d.get("cell_index") == game and d["metric"] == "win_rate" and d.get("a") == player and d.get("b") == against:
            return d
    return None


def slice_cells(result: dict[str, Any], switches: list[str]) -> dict[tuple[Any, ...], int]:
    """The cells where every switch other than ``switches`` has the baseline's value: values -> cell index."""
    base = result["cells"][_baseline(result)]["settings"]
    found = {}
    for index, cell in enumerate(result["cells"]):
        settings = cell["settings"]
        if all(settings[key] == base[key] for key in settings if key not in switches):
            found[tuple(settings[key] for key in switches)] = index
    return found


def held_phrase(result: dict[str, Any], switches: list[str]) -> str:
    """``'gin_bonus at 20'``: the other switches, held at the baseline's values (empty with none)."""
    base = result["cells"][_baseline(result)]["settings"]
    return join_phrases([f"{key} at {_text(value)}" for key, value in base.items() if key not in switches])


# -- one switch at a time -----------------------------------------------------------------------------------


def effect_table(result: dict[str, Any], switch: str) -> pd.DataFrame:
    """One row per value of ``switch`` (other switches at the baseline's values): the cell, the first-named player's
    win rate with its interval, and its paired difference from the baseline with the test (Holm-adjusted)."""
    player, against = first_named(result)
    base_index = _baseline(result)
    base_game = _game(result, base_index)
    cells = slice_cells(result, [switch])
    adjusted = luck_adjusted_study(result)
    rows = []
    for value in result["grid"][switch]:
        index = cells.get((value,))
        if index is None:
            continue
        cell = result["cells"][index]
        rate, low, high = cell_win_rate(result, cell, adjusted)
        row: dict[str, Any] = {
            "switch": switch,
            "value": _text(value),
            "cell": index,
            "label": cell.get("label") or _label(cell["settings"]),
            "baseline": index == base_index,
            "same_game_as_baseline": index != base_index and _game(result, index) == base_game,
            "player": player,
            "against": against,
            "unit": _unit(result),
            "win_rate": rate,
            "win_rate_low": low,
            "win_rate_high": high,
            "estimator": "luck-adjusted" if adjusted else "plain",
        }
        d = win_difference(result, index)
        if d is not None:
            row |= {"difference": d["difference"], "difference_low": d["ci"][0], "difference_high": d["ci"][1]}
            row |= {"p": d["p"], "p_holm": d["p_holm"], "significant": bool(d["significant"])}
        else:
            same = index == base_index or row["same_game_as_baseline"]
            row |= {"difference": 0.0 if same else math.nan, "difference_low": math.nan, "difference_high": math.nan}
            row |= {"p": math.nan, "p_holm": math.nan, "significant": False}
        rows.append(row)
    return pd.DataFrame(rows)


def _p_holm(p: float) -> str:
    return p_below(p, "p_holm")


def effect_caption(table: pd.DataFrame, comparisons: int = 0, held: str = "") -> str:
    """The finding of one switch in numbers: the baseline's win rate, each other value's, its difference with
    the 95% interval and the Holm-adjusted p, and whether it is significant."""
    switch = str(table["switch"].iloc[0])
    player, against, unit = table["player"].iloc[0], table["against"].iloc[0], table["unit"].iloc[0]
    base = table[table["baseline"]]
    head = (f"With {held}, " if held else "") + f"{player}'s share of {unit} won against {against}"
    if _adjusted(table):
        head += " (luck-adjusted: each hand's luck of the cards taken out, docs/STATISTICS.md §13)"
    if base.empty:
        return head + " could not be compared: the baseline is not in this switch's slice of the grid."
    b = base.iloc[0]
    sentence = (
        f"{head} is {percent(b['win_rate'])} {percent_interval(b['win_rate_low'], b['win_rate_high'])} "
        f"under {switch}={b['value']} (the baseline)"
    )
    rest = table[~table["baseline"]]
    same = rest[rest["same_game_as_baseline"].astype(bool)]
    tested = rest[~rest["same_game_as_baseline"].astype(bool)]

    def rate(row: pd.Series) -> str:
        return f"{percent(row['win_rate'])} {percent_interval(row['win_rate_low'], row['win_rate_high'])}"

    def test(row: pd.Series) -> str:
        if not finite(row["p_holm"]):
            return "no test"
        verdict = "significant" if row["significant"] else "not significant"
        return (
            f"{100 * row['difference']:+.1f} points (95% CI {100 * row['difference_low']:+.1f} to "
            f"{100 * row['difference_high']:+.1f}, {_p_holm(row['p_holm'])}, {verdict})"
        )

    others = []
    if len(tested) <= MAX_LISTED_VALUES:
        others += [f"{rate(row)} under {switch}={row['value']}, {test(row)}" for _, row in tested.iterrows()]
    else:
        rates = tested["win_rate"].astype(float)
        high, low = tested.loc[rates.idxmax()], tested.loc[rates.idxmin()]
        others.append(
            f"{percent(low['win_rate'])} to {percent(high['win_rate'])} under the other {len(tested)} values "
            f"(lowest at {switch}={low['value']}, highest at {switch}={high['value']})"
        )
        changes = tested["difference"].astype(float).abs()
        if np.isfinite(changes.to_numpy()).any():
            largest = tested.loc[changes.idxmax()]
            significant = int(tested["significant"].astype(bool).sum())
            others[-1] += (
                f"; the largest change is at {switch}={largest['value']}, {test(largest)}; {significant} of "
                f"{len(tested)} values differ significantly from the baseline"
            )
    if not same.empty:
        values = ", ".join(str(value) for value in same["value"])
        others.append(f"the same game under {switch}={values} (the switch has no effect there)")
    if not others:
        return sentence.replace("  ", " ") + "; the grid has no other value of this switch."
    over = f" Holm's correction runs over all {comparisons} comparisons of the study." if comparisons else ""
    return (sentence + " against " + "; ".join(others) + "." + over).replace("  ", " ")


@styled
def effect_chart(table: pd.DataFrame) -> Figure:
    """The first-named player's win rate at each value of one switch with its 95% interval; the baseline's rate
    as a dashed line, significant differences from it filled and starred, the rest hollow, values that play the
    baseline's game (the switch has no effect there) grey.

    ``table``: :func:`effect_table`.
    """
    k = len(table)
    fig = Figure(figsize=(min(WIDTH, max(7.5, 1.1 * k + 4.0)), 3.6), layout="constrained")
    ax = fig.add_subplot()
    x = np.arange(k)
    rate = 100 * table["win_rate"].to_numpy(float)
    low = 100 * table["win_rate_low"].to_numpy(float)
    high = 100 * table["win_rate_high"].to_numpy(float)
    errors = np.vstack([np.nan_to_num(rate - low), np.nan_to_num(high - rate)])
    crowded = k > 8
    for i, row in enumerate(table.itertuples(index=False)):
        filled = bool(row.baseline or row.significant)
        color = PALETTE[3] if row.baseline else ("#999999" if row.same_game_as_baseline else PALETTE[0])
        ax.errorbar(
            x[i],
            rate[i],
            yerr=errors[:, i : i + 1],
            fmt="s" if row.baseline else "o",
            color=color,
            markerfacecolor=color if filled else "white",
            capsize=4,
        )
        mark = "*" if row.significant else ""
        text = f"{rate[i]:.0f}{mark}" if crowded else f"{rate[i]:.1f}%{mark}"
        ax.annotate(
            text, (x[i], rate[i]), xytext=(6, 0), textcoords="offset points", va="center", fontsize=8 if crowded else 10
        )
    base = table[table["baseline"]]
    if not base.empty:
        ax.axhline(100 * float(base["win_rate"].iloc[0]), color="#888888", linewidth=0.8, linestyle="--")
    labels = []
    for row in table.itertuples(index=False):
        note = "baseline" if row.baseline else ("same game" if row.same_game_as_baseline and not crowded else "")
        labels.append(f"{row.value}\n({note})" if note else str(row.value))
    ax.set_xticks(x, labels=labels)
    ax.set_xlim(-0.6, k - 0.4 + 0.4)
    switch, player, against = table["switch"].iloc[0], table["player"].iloc[0], table["against"].iloc[0]
    ax.set_xlabel(switch)
    adjusted = ", luck-adjusted" if _adjusted(table) else ""
    ax.set_ylabel(f"{player}'s {table['unit'].iloc[0]} won (%{adjusted})")
    ax.set_title(f"{player} vs {against} by {switch} (95% intervals; * significant vs the baseline)")
    ax.grid(axis="x", visible=False)
    return fig


# -- two switches at a time ---------------------------------------------------------------------------------


def heatmap_table(result: dict[str, Any], rows: str, columns: str) -> pd.DataFrame:
    """One row per combination of two switches' values (the others at the baseline's): the first-named player's
    win rate, the skill spread with its interval (three or more players), the first player's share of scored
    hands (all pairings pooled) and hands per game (runs of games)."""
    player, against = first_named(result)
    found = slice_cells(result, [rows, columns])
    data = []
    for (row_value, column_value), index in found.items():
        cell = result["cells"][index]
        rate, low, high = cell_win_rate(result, cell)
        tallies = [p.get("tally") or {} for p in cell["pairings"]]
        scored = sum(float(t.get("scored", 0)) for t in tallies)
        first = sum(float(t.get("first_player_wins", 0)) for t in tallies)
        games = sum(float(p.get("games") or 0) for p in cell["pairings"])
        hands = sum(float(p.get("hands") or 0) for p in cell["pairings"])
        spread = cell.get("skill_spread") or {}
        data.append(
            {
                "rows": rows,
                "columns": columns,
                "row_value": _text(row_value),
                "column_value": _text(column_value),
                "cell": index,
                "label": cell.get("label") or _label(cell["settings"]),
                "player": player,
                "against": against,
                "unit": _unit(result),
                "win_rate": rate,
                "win_rate_low": low,
                "win_rate_high": high,
                "skill_spread": spread.get("spread", math.nan),
                "skill_spread_low": spread.get("low", math.nan),
                "skill_spread_high": spread.get("high", math.nan),
                "first_player_win_rate": first / scored if scored else math.nan,
                "hands_per_game": hands / games if games and _unit(result) == "games" else math.nan,
                "pairings": len(cell["pairings"]),
            }
        )
    return pd.DataFrame(data)


#: The heat maps' panels: (column, title, scale, format, colour map).
HEATMAP_PANELS = (
    ("win_rate", "{player}'s win rate (%)", 100.0, "{:.1f}", "RdBu"),
    ("skill_spread", "skill spread (Elo, best - worst)", 1.0, "{:.0f}", "viridis"),
    ("first_player_win_rate", "first player's share of scored hands{pooled} (%)", 100.0, "{:.1f}", "PuOr"),
    ("hands_per_game", "hands per game{pooled}", 1.0, "{:.1f}", "cividis"),
)


def heatmap_panels(table: pd.DataFrame) -> list[tuple[str, str, float, str, str]]:
    """The panels a heat-map table has data for."""
    return [panel for panel in HEATMAP_PANELS if np.isfinite(table[panel[0]].to_numpy(float)).any()]


@styled
def heatmap_chart(table: pd.DataFrame) -> Figure:
    """Heat maps over two switches: one panel per metric of :data:`HEATMAP_PANELS` with data, values in the cells.

    ``table``: :func:`heatmap_table`.
    """
    rows, columns = str(table["rows"].iloc[0]), str(table["columns"].iloc[0])
    row_values = list(dict.fromkeys(table["row_value"]))
    column_values = list(dict.fromkeys(table["column_value"]))
    panels = heatmap_panels(table)
    ncols = 2 if len(panels) > 1 else 1
    nrows = math.ceil(len(panels) / ncols)
    height = max(2.6, min(0.55, 5.0 / len(row_values)) * len(row_values) + 1.8)
    fig = Figure(figsize=(WIDTH, height * nrows), layout="constrained")
    axes = np.atleast_1d(fig.subplots(nrows, ncols, squeeze=False)).ravel()
    player = table["player"].iloc[0]
    # Values are written in the cells while they fit (the caption and the CSV have them all).
    fontsize = 9 if len(column_values) <= 6 else (7 if len(column_values) <= 9 else 0)
    for ax, (column, title, scale, fmt, cmap_name) in zip(axes, panels, strict=False):
        grid = np.full((len(row_values), len(column_values)), np.nan)
        for entry in table.itertuples(index=False):
            value = getattr(entry, column)
            grid[row_values.index(entry.row_value), column_values.index(entry.column_value)] = scale * float(value)
        cmap = matplotlib.colormaps[cmap_name].with_extremes(bad="#eeeeee")
        image = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, aspect="auto")
        for i, j in itertools.product(range(len(row_values)), range(len(column_values))):
            if fontsize and np.isfinite(grid[i, j]):
                red, green, blue, _ = image.cmap(image.norm(grid[i, j]))
                color = "white" if 0.299 * red + 0.587 * green + 0.114 * blue < 0.5 else "black"
                ax.text(j, i, fmt.format(grid[i, j]), ha="center", va="center", fontsize=fontsize, color=color)
        ax.set_xticks(range(len(column_values)), labels=column_values)
        ax.set_yticks(range(len(row_values)), labels=row_values)
        ax.set_xlabel(columns)
        ax.set_ylabel(rows)
        ax.grid(False)
        ax.set_title(title.format(player=player, pooled=_pooled(table, short=True)), fontsize=10)
        fig.colorbar(image, ax=ax, shrink=0.85)
    for ax in axes[len(panels) :]:
        ax.set_visible(False)
    fig.suptitle(f"{rows} x {columns}")
    return fig


def _pooled(table: pd.DataFrame, short: bool = False) -> str:
    """``' (all 3 pairings pooled)'`` when a cell has several pairings (its first-player share and hands per game
    pool them), else empty: a figure says what it pools (issue 32 item 2)."""
    count = int(table["pairings"].max()) if "pairings" in table and len(table) else 1
    if count <= 1:
        return ""
    return ", all pairings" if short else f" (all {count} pairings pooled)"


def _extremes(table: pd.DataFrame, column: str) -> tuple[pd.Series, pd.Series] | None:
    values = table[column].astype(float)
    if not np.isfinite(values.to_numpy()).any():
        return None
    return table.loc[values.idxmax()], table.loc[values.idxmin()]


def _span(low: str, high: str, tail: str) -> str:
    """``'50.1% to 52.3% of scored hands'``, or ``'50.6% of scored hands in every cell'`` when both ends read the
    same."""
    return f"{low}{tail} in every cell" if low == high else f"{low} to {high}{tail}"


def heatmap_caption(table: pd.DataFrame, held: str = "") -> str:
    """Where the first-named player's win rate is highest and lowest over the two switches, with the range of the
    skill spread, the first player's share and hands per game."""
    rows, columns = str(table["rows"].iloc[0]), str(table["columns"].iloc[0])

    def at(row: pd.Series) -> str:
        return f"{rows}={row['row_value']}, {columns}={row['column_value']}"

    player, against, unit = table["player"].iloc[0], table["against"].iloc[0], table["unit"].iloc[0]
    high, low = _extremes(table, "win_rate") or (None, None)
    prefix = f"With {held}, " if held else ""
    if high is None or low is None:
        return prefix + f"no win rate of {player} was measured."
    if percent(high["win_rate"]) == percent(low["win_rate"]):
        parts = [f"{prefix}{player} wins {percent(high['win_rate'])} of {unit} against {against} in every cell"]
    else:
        parts = [
            f"{prefix}{player} wins the most {unit} against {against} under {at(high)}, "
            f"{percent(high['win_rate'])} {percent_interval(high['win_rate_low'], high['win_rate_high'])}, "
            f"and the fewest under {at(low)}, {percent(low['win_rate'])} "
            f"{percent_interval(low['win_rate_low'], low['win_rate_high'])}".replace("  ", " ")
        ]
    spread = _extremes(table, "skill_spread")
    if spread is not None:
        most, least = spread
        if f"{most['skill_spread']:.0f}" == f"{least['skill_spread']:.0f}":
            parts.append(f"the skill spread is {most['skill_spread']:.0f} Elo in every cell")
        else:
            parts.append(
                f"the skill spread is widest under {at(most)} ({most['skill_spread']:.0f} Elo) and narrowest under "
                f"{at(least)} ({least['skill_spread']:.0f})"
            )
    first = table["first_player_win_rate"].astype(float)
    if np.isfinite(first.to_numpy()).any():
        shares = _span(percent(first.min()), percent(first.max()), " of scored hands")
        parts.append(f"the first player wins {shares}{_pooled(table)}")
    length = table["hands_per_game"].astype(float)
    if np.isfinite(length.to_numpy()).any():
        parts.append(f"games last {_span(f'{length.min():.1f}', f'{length.max():.1f}', ' hands')}{_pooled(table)}")
    return "; ".join(parts) + "."


# -- the significant differences ----------------------------------------------------------------------------


def significant_table(result: dict[str, Any]) -> pd.DataFrame:
    """Every significant difference from the baseline (``p_holm < 0.05``), cell by cell in grid order and metric
    by metric, with its 95% interval on the plotted scale (percentage points for shares)."""
    order = list(METRIC_WORDS)
    chosen = [d for d in result["differences"] if d.get("significant")]
    chosen.sort(key=lambda d: (d["cell_index"], order.index(d["metric"]) if d["metric"] in order else 99))
    rows = []
    for d in chosen:
        scale = 100.0 if d["metric"] in RATES else 1.0
        rows.append(
            {
                "cell": d["cell_index"],
                "label": d["cell"],
                "versus": d.get("text", "").split(":", 1)[0],
                "pairing": d["pairing"],
                "metric": d["metric"],
                "difference": scale * d["difference"],
                "low": scale * d["ci"][0],
                "high": scale * d["ci"][1],
                "value": d["value"],
                "baseline_value": d["baseline_value"],
                "p_holm": d["p_holm"],
                "estimator": d.get("estimator", "plain"),
                "text": d.get("text", ""),
            }
        )
    return pd.DataFrame(rows)


@styled
def differences_chart(table: pd.DataFrame) -> Figure:
    """A forest plot: one row per significant difference (at most :data:`MAX_FOREST_ROWS`, the smallest p_holm),
    grouped by cell, the point estimate with its 95% interval and a zero line; one panel per unit.

    ``table``: :func:`significant_table`.
    """
    total = len(table)
    if total > MAX_FOREST_ROWS:
        keep = table.nsmallest(MAX_FOREST_ROWS, "p_holm", keep="first").index
        table = table.loc[sorted(keep)]
    # Up to a colour per cell, named in a legend; with more cells than colours each row names its cell.
    by_colour = table["cell"].nunique() <= len(PALETTE)
    groups = [(metrics, label, table[table["metric"].isin(metrics)]) for metrics, label in UNIT_GROUPS]
    groups = [group for group in groups if not group[2].empty]
    heights = [len(rows) + 0.8 for _, _, rows in groups]
    legend = table["cell"].nunique() if by_colour else 0
    fig = Figure(figsize=(WIDTH, max(2.4, 0.32 * sum(heights) + 0.3 * legend + 1.8)), layout="constrained")
    axes = fig.subplots(len(groups), 1, squeeze=False, height_ratios=heights).ravel()
    cell_colors: dict[int, str] = {}
    for ax, (_, label, rows) in zip(axes, groups, strict=True):
        y = np.arange(len(rows))[::-1]
        previous = None
        for yi, row in zip(y, rows.itertuples(index=False), strict=True):
            new = row.cell not in cell_colors and by_colour
            color = cell_colors.setdefault(
                row.cell, PALETTE[len(cell_colors) % len(PALETTE)] if by_colour else PALETTE[0]
            )
            ax.errorbar(
                row.difference,
                yi,
                xerr=[[row.difference - row.low], [row.high - row.difference]],
                fmt="o",
                color=color,
                capsize=3,
                label=row.versus if new else None,
            )
            if previous is not None and previous != row.cell:
                ax.axhline(yi + 0.5, color="#bbbbbb", linewidth=0.6)
            previous = row.cell
        ticks = [
            ("" if by_colour else f"{row.label} | ") + f"{row.pairing}: {METRIC_WORDS.get(row.metric, row.metric)}"
            for row in rows.itertuples()
        ]
        ax.set_yticks(y, labels=ticks, fontsize=8)
        ax.set_ylim(-0.6, len(rows) - 0.4)
        ax.axvline(0, color="#333333", linewidth=0.9)
        ax.set_xlabel(label)
        ax.grid(axis="y", visible=False)
    if by_colour:
        fig.legend(loc="outside lower center", ncol=1, title="cell (colour)")
    drawn = f"{len(table)}" if len(table) == total else f"the {len(table)} smallest p_holm of {total}"
    fig.suptitle(f"Significant differences from the baseline (95% intervals, Holm-adjusted p < 0.05): {drawn}")
    return fig


def differences_caption(table: pd.DataFrame, comparisons: int, baseline: str, shown: int = MAX_FOREST_ROWS) -> str:
    """How many comparisons differ significantly from the baseline, and the largest win-rate change in words (or
    else the one with the smallest adjusted p)."""
    sentence = (
        f"{len(table)} of {comparisons} comparisons with the baseline ({baseline}) differ significantly after "
        "Holm's correction"
    )
    if len(table) > shown:
        sentence += f" (the {shown} with the smallest p_holm are drawn)"
    if table.empty:
        return sentence + "."
    counts = table["metric"].value_counts()
    order = [metric for metric in METRIC_WORDS if metric in counts] + [m for m in counts.index if m not in METRIC_WORDS]
    sentence += " (" + ", ".join(f"{METRIC_WORDS.get(m, m)} {int(counts[m])}" for m in order) + ")"
    wins = table[table["metric"] == "win_rate"]
    if not wins.empty:
        return f"{sentence}; the largest win-rate change: {wins.loc[wins['difference'].abs().idxmax()]['text']}."
    return f"{sentence}; the one with the smallest p_holm: {table.loc[table['p_holm'].idxmin()]['text']}."


# -- the report's part ------------------------------------------------------------------------------------------


#: The rates of :func:`rates_table`, in its column order.
CELL_RATES = ("win_rate", "first_player_win_rate", "gin_rate", "undercut_rate", "dead_rate", "hands_per_game")


def rates_table(result: dict[str, Any]) -> pd.DataFrame:
    """One row per distinct cell and pairing (and the first-named player against the others, with three or more
    players): every rate of the sweep with its 95% interval (``_low``, ``_high``), the seat edge included, and the
    cell's skill spread. Cells that repeat an earlier cell's game are left out (their rows are that cell's)."""
    rows = []
    for index, cell in enumerate(result["cells"]):
        if cell.get("same_game_as") is not None:
            continue
        entries = list(cell["pairings"])
        if cell.get("first_named"):
            named = cell["first_named"]
            entries.append({"a": named["player"], "b": OTHERS, **named})
        spread = cell.get("skill_spread") or {}
        for entry in entries:
            row: dict[str, Any] = {"cell": index, "label": cell.get("label") or _label(cell["settings"])}
            row |= {
                "pairing": f"{entry['a']} vs {entry['b']}",
                "games": entry.get("games"),
                "hands": entry.get("hands"),
            }
            for metric in CELL_RATES:
                low, high = entry.get(f"{metric}_ci") or (math.nan, math.nan)
                row |= {metric: entry.get(metric, math.nan), f"{metric}_low": low, f"{metric}_high": high}
            row |= {"skill_spread": spread.get("spread", math.nan)}
            rows.append(row)
    return pd.DataFrame(rows)


def tables(result: dict[str, Any]) -> list[tuple[str, str, pd.DataFrame, dict[str, str], str]]:
    """(name, title, frame, shown columns with formats, note) of the study's tables."""
    made = []
    player, against = first_named(result)
    for switch in result["grid"]:
        shown = {"value": "text", "win_rate": "pct", "win_rate_low": "pct", "win_rate_high": "pct"}
        shown |= {"difference": "pct", "difference_low": "pct", "difference_high": "pct", "p_holm": "p"}
        shown |= {"significant": "text"}
        held = held_phrase(result, [switch])
        note = f"Other switches at the baseline's values ({held})." if held else ""
        title = f"Effect of {switch} on {player}'s win rate against {against}"
        made.append((f"effect_{switch}", title, effect_table(result, switch), shown, note))
    switches = list(result["grid"])
    for rows, columns in itertools.combinations(switches, 2):
        name = f"heatmap_{rows}_{columns}"
        made.append((name, f"{rows} x {columns}", heatmap_table(result, rows, columns), {}, ""))
    significant = significant_table(result)
    if not significant.empty:
        shown = {"text": "text", "estimator": "text"}
        made.append(("significant_differences", "Significant differences from the baseline", significant, shown, ""))
    rates = rates_table(result)
    shown = {"label": "text", "pairing": "text"}
    for metric in CELL_RATES:
        if metric == "hands_per_game":
            if rates[metric].notna().any():
                shown |= {metric: "f2", f"{metric}_low": "f2", f"{metric}_high": "f2"}
        elif metric in ("win_rate", "first_player_win_rate"):
            shown |= {metric: "pct", f"{metric}_low": "pct", f"{metric}_high": "pct"}
        else:
            shown[metric] = "pct"
    if rates["skill_spread"].notna().any():
        shown["skill_spread"] = "f1"
    note = (
        "first player win rate is the non-dealer's share of scored hands (the seat edge, R11); every interval is "
        "95% over deal pairs (over games or hands without duplicate deals); the CSV has the intervals of every rate."
    )
    made.append(("study_cells", "Every cell: rates with 95% intervals", rates, shown, note))
    return made


def figures(result: dict[str, Any], frames: dict[str, pd.DataFrame]) -> list[tuple[str, str, str, Figure, str]]:
    """(name, title, table, figure, caption) of the study's figures, in reading order: one per switch, the
    significant differences, then one heat map per pair of switches."""
    made = []
    comparisons = int(result.get("comparisons") or len(result["differences"]))
    for switch in result["grid"]:
        table = frames[f"effect_{switch}"]
        if table.empty:
            continue
        caption = effect_caption(table, comparisons, held_phrase(result, [switch]))
        made.append((f"effect_{switch}", f"Effect of {switch}", f"effect_{switch}", effect_chart(table), caption))
    significant = frames.get("significant_differences")
    baseline = (result.get("baseline") or {}).get("label") or _label(result["cells"][_baseline(result)]["settings"])
    if significant is not None and not significant.empty:
        caption = differences_caption(significant, comparisons, baseline)
        chart = differences_chart(significant)
        made.append(("differences", "Significant differences", "significant_differences", chart, caption))
    for rows, columns in itertools.combinations(list(result["grid"]), 2):
        name = f"heatmap_{rows}_{columns}"
        table = frames[name]
        if table.empty or not heatmap_panels(table):
            continue
        caption = heatmap_caption(table, held_phrase(result, [rows, columns]))
        made.append((name, f"{rows} x {columns}", name, heatmap_chart(table), caption))
    return made


def headline(result: dict[str, Any]) -> tuple[str, str]:
    """The header fact that counts the significant differences: ``('differences', '3 of 78 significant ...')``."""
    comparisons = int(result.get("comparisons") or len(result["differences"]))
    significant = sum(bool(d.get("significant")) for d in result["differences"])
    baseline = (result.get("baseline") or {}).get("label") or _label(result["cells"][_baseline(result)]["settings"])
    return (
        "differences",
        f"{significant} of {comparisons} comparisons with the baseline ({baseline}) significant "
        "after Holm's correction",
    )

"""The variant study's figures: outcomes by Oklahoma's knock limit (V3), the comparison of rule sets on shared
deals and the sweep of one switch; one function per figure and a caption function next to it, as in
:mod:`simgin.reports.figures`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from simgin.game.showdown import OUTCOMES
from simgin.statistics.formats import finite, percent

from .figure_style import (
    OUTCOME_COLORS,
    OUTCOME_LABELS,
    PALETTE,
    POINTS_SWITCHES,
    WIDTH,
    stacked_outcomes,
    styled,
)

# -- Oklahoma: outcomes by the up card's knock limit ------------------------------------------------------------


def _limit_tick(limit: int) -> str:
    names = {0: "0\nA (gin only)", 1: "1\nA", 10: "10\n10-K"}
    return names.get(limit, str(limit))


#: At most this many knock-limit figures (one per Oklahoma cell and pairing); the caption of the last one drawn says
#: how many more blocks ``knock_limits.csv`` has.
MAX_KNOCK_LIMIT_FIGURES = 6
#: At most this many reference cells (cells whose knock limit does not come from the up card) per knock-limit figure.
MAX_REFERENCES = 6


def knock_limit_blocks(table: pd.DataFrame) -> list[tuple[Any, str, str]]:
    """``(cell, label, pairing)`` of each block of ``table`` (:func:`simgin.reports.build.knock_limit_table`) whose
    knock limit comes from the up card (column ``oklahoma``) and whose hands had several limits, in table order:
    one knock-limit figure each (issue 32 item 1: a figure shows one cell and one pairing, never a pool)."""
    if table.empty:
        return []
    played = table[(table["hands"] > 0) & table["oklahoma"].astype(bool)]
    blocks = []
    for key, rows in played.groupby(["cell", "label", "pairing"], sort=False, dropna=False):
        if rows["knock_limit"].nunique() > 1:
            blocks.append((key[0], str(key[1]), str(key[2])))
    return blocks


def _block_rows(table: pd.DataFrame, block: tuple[Any, str, str]) -> pd.DataFrame:
    cell, label, pairing = block
    same_cell = table["cell"].isna() if pd.isna(cell) else table["cell"] == cell
    rows = table[same_cell & (table["label"] == label) & (table["pairing"] == pairing) & (table["hands"] > 0)]
    return rows.sort_values("knock_limit")


def knock_limit_references(table: pd.DataFrame, block: tuple[Any, str, str]) -> pd.DataFrame:
    """The reference cells of a knock-limit figure: every cell of ``table`` whose knock limit is fixed (not from the
    up card), for the figure's pairing alone, one row each with the cell's own ``cell_points_per_hand`` and
    ``cell_mean_turns`` (over all its hands), never pooled over cells."""
    pairing = block[2]
    fixed = table[~table["oklahoma"].astype(bool) & (table["pairing"] == pairing)]
    return fixed.drop_duplicates(["cell", "label"])[["cell", "label", "cell_points_per_hand", "cell_mean_turns"]]


@styled
def knock_limit_chart(table: pd.DataFrame, block: tuple[Any, str, str]) -> Figure:
    """One Oklahoma cell and pairing broken down by the up card's knock limit; every fixed-limit cell of the same
    pairing (up to :data:`MAX_REFERENCES`) as a horizontal reference line named by its cell.

    ``table``: :func:`simgin.reports.build.knock_limit_table` (one block of rows per cell and pairing with
    ``knock_limit``, ``hands``, ``share``, the outcome rates, ``mean_turns``, ``points_per_hand``,
    ``doubled_share`` and the block's ``cell_points_per_hand`` and ``cell_mean_turns``); ``block``: one of
    :func:`knock_limit_blocks`.
    """
    _, label, pairing = block
    rows = _block_rows(table, block)
    references = knock_limit_references(table, block).head(MAX_REFERENCES)
    fig = Figure(figsize=(WIDTH, 6.4), layout="constrained")
    grid = fig.add_gridspec(2, 2, height_ratios=(1.15, 1))
    mix = fig.add_subplot(grid[0, :])
    points_ax = fig.add_subplot(grid[1, 0])
    turns_ax = fig.add_subplot(grid[1, 1])
    limits = rows["knock_limit"].to_numpy(int)
    bottom = np.zeros(len(rows))
    for outcome in OUTCOMES:
        share = np.nan_to_num(100 * rows[f"{outcome}_rate"].to_numpy(float))
        if not share.sum() > 0:
            continue
        mix.bar(limits, share, bottom=bottom, color=OUTCOME_COLORS[outcome], label=OUTCOME_LABELS[outcome], width=0.7)
        bottom += share
    for x, deals in zip(limits, rows["share"].to_numpy(float), strict=True):
        mix.text(x, 101, f"{100 * deals:.0f}%", ha="center", va="bottom", fontsize=8, color="#444444")
    mix.set_ylim(0, 110)
    mix.set_xticks(limits, labels=[_limit_tick(v) for v in limits])
    mix.set_ylabel("share of hands (%)")
    mix.set_xlabel("knock limit set by the up card (points); above the bars: share of deals")
    mix.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    mix.grid(axis="x", visible=False)
    doubled = float(rows["doubled_share"].iloc[0])
    title = "outcome mix by knock limit"
    if finite(doubled) and doubled > 0:
        title += f" ({percent(doubled)} of scored hands doubled by a spade up card)"
    mix.set_title(title)
    for ax, column, unit in ((points_ax, "points_per_hand", "points per hand"), (turns_ax, "mean_turns", "turns")):
        ax.plot(limits, rows[column].to_numpy(float), "o-", color=PALETTE[0], label=label)
        for i, ref in enumerate(references.itertuples(index=False)):
            value = float(getattr(ref, f"cell_{column}"))
            if finite(value):
                ax.axhline(value, color=PALETTE[(1 + i) % len(PALETTE)], linestyle="--", label=ref.label)
        ax.set_xticks(limits)
        ax.set_xlabel("knock limit (points)")
        ax.set_ylabel(unit if unit != "turns" else "turns per hand")
        ax.set_ylim(0, ax.get_ylim()[1] * 1.08)
        ax.legend(loc="lower right", fontsize=8)
    points_ax.set_title("Points per hand")
    turns_ax.set_title("Hand length")
    against = f" against {'; '.join(references['label'])}" if not references.empty else ""
    fig.suptitle(f"{label}, {pairing}: the up card's knock limit{against}")
    return fig


def knock_limit_caption(table: pd.DataFrame, block: tuple[Any, str, str], more: int = 0) -> str:
    """The cell and pairing; gin share at the lowest and highest limit, doubled hands, and the cell's points per
    hand against each reference cell's (the same pairing, each cell alone). ``more``: blocks not drawn."""
    _, label, pairing = block
    rows = _block_rows(table, block)
    low, high = rows.iloc[0], rows.iloc[-1]
    sentence = (
        f"Under {label}, {pairing}: gin ends {percent(low['gin_rate'])} of hands at knock limit "
        f"{int(low['knock_limit'])} against {percent(high['gin_rate'])} at limit {int(high['knock_limit'])}"
    )
    doubled = float(rows["doubled_share"].iloc[0])
    if finite(doubled):
        sentence += f", {percent(doubled)} of scored hands are doubled by a spade up card"
    points = float(rows["cell_points_per_hand"].iloc[0])
    references = knock_limit_references(table, block)
    drawn = references.head(MAX_REFERENCES)
    if not drawn.empty:
        others = [f"{ref.cell_points_per_hand:.1f} under {ref.label}" for ref in drawn.itertuples(index=False)]
        sentence += f", and a hand scores {points:.1f} points against {'; '.join(others)} (the same pairing)"
        if len(references) > len(drawn):
            sentence += f"; {len(references) - len(drawn)} more fixed-limit cells are in knock_limits.csv"
    else:
        sentence += f", and a hand scores {points:.1f} points on average"
    sentence += "."
    if more:
        sentence += f" {more} more Oklahoma cell and pairing blocks are not drawn: knock_limits.csv has them all."
    return sentence


# -- variant comparison and sweeps -----------------------------------------------------------------------------


def _held_note(table: pd.DataFrame) -> str:
    """``' (other switches at the baseline's values: gin_bonus at 20)'``, or empty with one switch."""
    held = str(table["held"].iloc[0]) if "held" in table and isinstance(table["held"].iloc[0], str) else ""
    return f" (other switches at the baseline's values: {held})" if held else ""


def _cells_named(table: pd.DataFrame) -> str:
    """``'cells 0 (preset=standard), 1 (preset=oklahoma)'``: the cells a figure's rows come from."""
    if "cell" not in table or "cell_label" not in table:
        return ""
    return "cells " + "; ".join(f"{int(row.cell)} ({row.cell_label})" for row in table.itertuples(index=False))


def _pairing_head(table: pd.DataFrame) -> str:
    """``'simple vs random, one cell per value: cells 0 (...); 2 (...) (other switches at ...): '``."""
    first = table.iloc[0]
    cells = _cells_named(table)
    return f"{first['player']} vs {first['opponent']}" + (f", {cells}" if cells else "") + _held_note(table) + ": "


def axis_label(switch: str) -> str:
    """The axis label of a rule switch, with its unit: ``knock_limit (points)``."""
    return f"{switch} (points)" if switch in POINTS_SWITCHES else switch


@styled
def variant_chart(table: pd.DataFrame) -> Figure:
    """Rule variants side by side: outcome mix, hand length, points per hand and A's win rate.

    ``table``: one row per variant (value of the swept ``switch``) with ``label``, ``player``,
    ``opponent``, ``hands``, the outcome counts, ``mean_turns``, ``points_per_hand``,
    ``win_rate``, ``win_rate_low``, ``win_rate_high`` and ``doubled_share``.
    """
    k = len(table)
    fig = Figure(figsize=(WIDTH, max(4.6, 0.5 * k + 3.6)), layout="constrained")
    grid = fig.add_gridspec(2, 3)
    mix = fig.add_subplot(grid[0, :])
    stacked_outcomes(mix, table, table["label"])
    mix.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    mix.set_title("Outcome mix")
    y = np.arange(k)[::-1]
    labels = list(table["label"])
    panels = (
        ("mean_turns", "turns per hand", "Hand length"),
        ("points_per_hand", "points per hand", "Points per hand"),
    )
    for column_index, (column, unit, title) in enumerate(panels):
        ax = fig.add_subplot(grid[1, column_index])
        values = table[column].to_numpy(float)
        ax.barh(y, values, color=PALETTE[column_index + 1], height=0.6)
        for yi, value in zip(y, values, strict=True):
            ax.text(value, yi, f" {value:.1f}", va="center", fontsize=8)
        ax.set_xlim(0, max(1.0, float(np.nanmax(values)) * 1.25))
        ax.set_yticks(y, labels=labels if column_index == 0 else [""] * k)
        ax.set_xlabel(unit)
        ax.set_title(title)
        ax.grid(axis="y", visible=False)
    ax = fig.add_subplot(grid[1, 2])
    rate = table["win_rate"].to_numpy(float)
    low = np.where(np.isfinite(table["win_rate_low"].to_numpy(float)), table["win_rate_low"], rate)
    high = np.where(np.isfinite(table["win_rate_high"].to_numpy(float)), table["win_rate_high"], rate)
    ax.errorbar(100 * rate, y, xerr=[100 * (rate - low), 100 * (high - rate)], fmt="o", color=PALETTE[0], capsize=4)
    ax.axvline(50, color="#888888", linewidth=0.8, linestyle="--")
    ax.set_xlim(max(0.0, min(45.0, float(np.nanmin(100 * low)) - 5)), 101)
    ax.set_ylim(-0.6, k - 0.4)
    ax.set_yticks(y, labels=[""] * k)
    ax.set_xlabel(f"{table['player'].iloc[0]}'s win rate (%)")
    ax.set_title(f"vs {table['opponent'].iloc[0]}")
    ax.grid(axis="y", visible=False)
    switch = str(table["switch"].iloc[0])
    pairing = f"{table['player'].iloc[0]} vs {table['opponent'].iloc[0]}"
    fig.suptitle(f"Rule variants compared: {switch}, {pairing}{_held_note(table)}")
    return fig


def variant_caption(table: pd.DataFrame) -> str:
    """The pairing and the cells first, then the last variant against the first: hand length, points per hand, gin
    share and doubled hands (each the cell's own numbers, the ones the knock-limit figure and the CLI give)."""
    first, last = table.iloc[0], table.iloc[-1]
    gin_first, gin_last = float(first["gin_rate"]), float(last["gin_rate"])
    sentence = _pairing_head(table) + (
        f"{last['label']} hands last {last['mean_turns']:.1f} turns against {first['mean_turns']:.1f} "
        f"under {first['label']}, score {last['points_per_hand']:.1f} points against {first['points_per_hand']:.1f} "
        f"and end in gin {percent(gin_last)} against {percent(gin_first)} of the time"
    )
    doubled = [(row["label"], row["doubled_share"]) for _, row in table.iterrows() if finite(row["doubled_share"])]
    doubled = [(label, share) for label, share in doubled if share > 0]
    if doubled:
        label, share = doubled[-1]
        sentence += f"; {percent(share)} of {label}'s scored hands are doubled"
    return sentence + "."


SWEEP_RATES = (
    ("knock_rate", "knock"),
    ("gin_rate", "gin"),
    ("big_gin_rate", "big gin"),
    ("undercut_rate", "undercut"),
    ("dead_rate", "dead hand"),
    ("first_player_win_rate", "first player wins (of scored)"),
)


@styled
def sweep_chart(table: pd.DataFrame) -> Figure:
    """A line per metric over one swept numeric switch, for one pairing, one cell per value (the other switches at
    the baseline's values, column ``held``).

    ``table``: one row per value of ``switch`` (column ``value``) with the rates of
    :data:`SWEEP_RATES` (shares), ``win_rate`` with ``win_rate_low``/``win_rate_high``,
    ``player``, ``opponent``, ``mean_turns``, ``points_per_hand`` and ``hands_per_game``
    (NaN for runs of hands).
    """
    switch = str(table["switch"].iloc[0])
    x = table["value"].to_numpy(float)
    games = "hands_per_game" in table and np.isfinite(table["hands_per_game"].to_numpy(float)).any()
    columns = 3 if games else 2
    fig = Figure(figsize=(WIDTH, 6.4), layout="constrained")
    axes = fig.subplots(2, columns, sharex=True).ravel()
    rates = axes[0]
    for i, (column, label) in enumerate(SWEEP_RATES):
        if column not in table:
            continue
        values = table[column].to_numpy(float)
        if column == "big_gin_rate" and not np.nansum(values) > 0:
            continue
        style = "--" if column == "first_player_win_rate" else "-"
        rates.plot(x, 100 * values, marker="o", linestyle=style, color=PALETTE[i], label=label, markersize=4)
    rates.set_ylabel("share (%)")
    rates.set_ylim(0, 100)
    rates.set_title("Outcomes")
    rates.legend(fontsize=8, loc="best")
    win = axes[1]
    rate = table["win_rate"].to_numpy(float)
    win.plot(x, 100 * rate, marker="o", color=PALETTE[0], markersize=4)
    win.fill_between(
        x, 100 * table["win_rate_low"].to_numpy(float), 100 * table["win_rate_high"].to_numpy(float), alpha=0.2
    )
    win.axhline(50, color="#888888", linewidth=0.8, linestyle="--")
    win.set_ylabel(f"{table['player'].iloc[0]}'s win rate (%)")
    win.set_title(f"{table['player'].iloc[0]} vs {table['opponent'].iloc[0]} (95% interval)")
    panels = [
        ("mean_turns", "turns per hand", "Hand length"),
        ("points_per_hand", "points per hand", "Points per hand"),
    ]
    if games:
        panels.append(("hands_per_game", "hands per game", "Game length"))
    for ax, (column, unit, title), color in zip(axes[2:], panels, PALETTE[2:], strict=False):
        ax.plot(x, table[column].to_numpy(float), marker="o", color=color, markersize=4)
        ax.set_ylabel(unit)
        ax.set_title(title)
    for ax in axes[len(panels) + 2 :]:
        ax.set_visible(False)
    for ax in axes:
        if ax.get_visible():
            ax.set_xlabel(axis_label(switch))
            ax.tick_params(labelbottom=True)
    if len(x) <= 12:
        axes[0].set_xticks(x)
    pairing = f"{table['player'].iloc[0]} vs {table['opponent'].iloc[0]}"
    fig.suptitle(f"Sweep over {switch}, {pairing}{_held_note(table)}")
    return fig


def sweep_caption(table: pd.DataFrame) -> str:
    """From the lowest to the highest value: A's win rate, the outcome that moves most, and hand length."""
    switch = str(table["switch"].iloc[0])
    first, last = table.iloc[0], table.iloc[-1]
    moves = []
    for column, label in SWEEP_RATES[:5]:
        if column in table and finite(first[column]) and finite(last[column]):
            moves.append((abs(last[column] - first[column]), column, label))
    sentence = _pairing_head(table) + (
        f"from {switch} {_value_text(first['value'])} to {_value_text(last['value'])}, "
        f"{first['player']}'s win rate against {first['opponent']} goes from {percent(first['win_rate'])} "
        f"to {percent(last['win_rate'])}"
    )
    if moves:
        _, column, label = max(moves)
        sentence += f", the {label} share of hands from {percent(first[column])} to {percent(last[column])}"
    sentence += f" and mean hand length from {first['mean_turns']:.1f} to {last['mean_turns']:.1f} turns"
    return sentence + "."


def _value_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)

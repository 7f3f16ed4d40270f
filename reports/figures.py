"""The report's figures: one function per figure, each taking a tidy table and returning a ``Figure``.

Every figure is built with :class:`matplotlib.figure.Figure` (never pyplot's global state)
inside :func:`report_style`, a scoped ``rc_context`` that is restored afterwards. Each
figure function has a caption function next to it that states the figure's finding in
numbers, computed from the same table, e.g. :func:`win_rate_matrix` and
:func:`win_rate_caption`. The tables are built from a run's ``result.json`` by
:mod:`simgin.reports.build`; the columns each function needs are listed in its docstring.

Outcome names are the project's vocabulary (knock, gin, big gin, undercut, dead hand).

The figures of a match or a tournament are here; the variant study's (Oklahoma's knock limits, the variant
comparison, sweeps) are in :mod:`simgin.reports.variant_figures`, and the style they share in
:mod:`simgin.reports.figure_style`.
"""

from __future__ import annotations

import math
from typing import Any

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from simgin.statistics.formats import finite, percent, percent_interval

from .figure_style import (
    DEADWOOD_BINS,
    MIN_BIN_KNOCKS,
    OUTCOME_LABELS,
    PALETTE,
    WIDTH,
    count,
    join_phrases,
    no_grid,
    number_interval,
    ordered,
    ratios,
    shown_outcomes,
    signed,
    stacked_outcomes,
    styled,
    wilson,
)

# -- the win-rate matrix -------------------------------------------------------------------


#: Characters of the longest player name that fit under a win-rate matrix column (1.25 inches) written level.
LONG_LABEL = 14
#: A longer name (a plug-in's path) is shown in the matrix by its end, after an ellipsis; the tables keep it whole.
MAX_LABEL = 40


@styled
def win_rate_matrix(table: pd.DataFrame) -> Figure:
    """Heat map of each strategy's win rate (row) against each opponent (column), interval in each cell.

    ``table``: one row per player and opponent with ``player``, ``opponent``, ``win_rate``,
    ``win_rate_low``, ``win_rate_high`` (shares) and ``unit`` (``'games'`` or ``'hands'``).
    Players appear in the order of the table.
    """
    players = ordered([*table["player"], *table["opponent"]])
    k = len(players)
    index = {name: i for i, name in enumerate(players)}
    rate = np.full((k, k), np.nan)
    low = np.full((k, k), np.nan)
    high = np.full((k, k), np.nan)
    for row in table.itertuples(index=False):
        i, j = index[row.player], index[row.opponent]
        rate[i, j], low[i, j], high[i, j] = row.win_rate, row.win_rate_low, row.win_rate_high
    unit = str(table["unit"].iloc[0]) if "unit" in table and len(table) else "games"
    size = 1.25 * k
    labels = [name if len(name) <= MAX_LABEL else "\u2026" + name[1 - MAX_LABEL :] for name in players]
    longest = max(map(len, labels))
    beside = 0.07 * max(0, longest - 10)  # inches the row labels need beyond a short name's
    fig = Figure(figsize=(min(WIDTH, max(5.6, size + 3.2 + beside)), max(3.4, size + 1.6)), layout="constrained")
    ax = fig.add_subplot()
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="#eeeeee")
    image = ax.imshow(np.ma.masked_invalid(rate * 100), cmap=cmap, vmin=0, vmax=100)
    for i in range(k):
        for j in range(k):
            if i == j or not finite(rate[i, j]):
                continue
            text = percent(rate[i, j])
            if finite(low[i, j]) and finite(high[i, j]):
                text += f"\n{100 * low[i, j]:.1f}-{100 * high[i, j]:.1f}"
            dark = abs(rate[i, j] - 0.5) > 0.3
            ax.text(j, i, text, ha="center", va="center", fontsize=9, color="white" if dark else "black")
    ax.set_yticks(range(k), labels=labels)
    if longest > LONG_LABEL:  # a spec with parameters or a plug-in's path: slanted, not overlapping
        ax.set_xticks(range(k), labels=labels, rotation=30, ha="right", rotation_mode="anchor")
    else:
        ax.set_xticks(range(k), labels=labels)
    ax.tick_params(length=0)
    ax.set_xlabel("opponent")
    ax.set_ylabel("strategy")
    no_grid(ax)
    bar = fig.colorbar(image, ax=ax, shrink=0.85)
    bar.set_label(f"{unit} won by the row strategy (%)")
    ax.set_title(f"Win rate against each opponent ({unit}, 95% interval)")
    return fig


def win_rate_caption(table: pd.DataFrame) -> str:
    """The pairing with the widest margin, e.g. ``simple wins 99.6% (99.4-99.8%) of hands against random``."""
    table = table[table["win_rate"].notna()]
    if table.empty:
        return "No pairing was played."
    unit = str(table["unit"].iloc[0]) if "unit" in table else "games"
    best = table.loc[table["win_rate"].astype(float).idxmax()]
    sentence = (
        f"{best['player']} wins {percent(best['win_rate'])} "
        f"{percent_interval(best['win_rate_low'], best['win_rate_high'])} of {unit} against {best['opponent']}"
    ).replace("  ", " ")
    pairings = len(table) // 2
    if pairings > 1:
        closest = table.loc[(table["win_rate"].astype(float) - 0.5).abs().idxmin()]
        sentence += (
            f", the widest margin of {pairings} pairings; the closest is {closest['player']} against "
            f"{closest['opponent']} at {percent(closest['win_rate'])}"
        )
    return sentence + "."


# -- ratings --------------------------------------------------------------------------------


@styled
def ratings_chart(table: pd.DataFrame) -> Figure:
    """Ratings on the Elo scale with their bootstrap intervals and rank ranges, best at the top.

    ``table``: ``player``, ``rating``, ``low``, ``high``, ``rank_low``, ``rank_high`` and
    ``anchor`` (True for the bot rated 0; none when ratings are relative to the mean).
    """
    data = table.sort_values("rating", ascending=True).reset_index(drop=True)
    k = len(data)
    fig = Figure(figsize=(WIDTH, max(2.4, 0.55 * k + 1.4)), layout="constrained")
    ax = fig.add_subplot()
    y = np.arange(k)
    rating = data["rating"].to_numpy(float)
    low = np.where(np.isfinite(data["low"].to_numpy(float)), data["low"].to_numpy(float), rating)
    high = np.where(np.isfinite(data["high"].to_numpy(float)), data["high"].to_numpy(float), rating)
    anchor = data["anchor"].to_numpy(bool) if "anchor" in data else np.zeros(k, bool)
    ax.errorbar(
        rating[~anchor],
        y[~anchor],
        xerr=[rating[~anchor] - low[~anchor], high[~anchor] - rating[~anchor]],
        fmt="o",
        color=PALETTE[0],
        capsize=4,
        label="rating (95% bootstrap interval)",
    )
    if anchor.any():
        ax.plot(rating[anchor], y[anchor], "D", color=PALETTE[3], label="anchor (rated 0)")
    span = float(np.nanmax(high) - np.nanmin(low)) or 1.0
    for i in range(k):
        ranks = f"rank {data['rank_low'][i]:.0f}"
        if data["rank_high"][i] != data["rank_low"][i]:
            ranks += f"-{data['rank_high'][i]:.0f}"
        ax.text(high[i] + 0.02 * span, y[i], f"{rating[i]:+.0f}  {ranks}", va="center", fontsize=9)
    ax.set_xlim(float(np.nanmin(low)) - 0.08 * span, float(np.nanmax(high)) + 0.3 * span)
    ax.axvline(0, color="#888888", linewidth=0.8, linestyle="--")
    ax.set_yticks(y, labels=list(data["player"]))
    ax.set_ylim(-0.6, k - 0.4)
    anchor_name = _anchor_name(table)
    ax.set_xlabel(f"rating (Elo points, {anchor_name} = 0)")
    ax.set_title("Bradley-Terry ratings with 95% bootstrap intervals over deal pairs")
    ax.legend(loc="lower right")
    return fig


def _anchor_name(table: pd.DataFrame) -> str:
    if "anchor" in table and table["anchor"].any():
        return str(table.loc[table["anchor"].astype(bool), "player"].iloc[0])
    return "the mean of all players"


def ratings_caption(table: pd.DataFrame) -> str:
    """The best-rated bot against the anchor (or the worst, when the anchor is best)."""
    data = table.sort_values("rating", ascending=False).reset_index(drop=True)
    anchor = _anchor_name(table)
    top = data.iloc[0]
    shown = top if top["player"] != anchor else data.iloc[-1]
    ranks = f"{shown['rank_low']:.0f}" + (
        f"-{shown['rank_high']:.0f}" if shown["rank_high"] != shown["rank_low"] else ""
    )
    interval = number_interval(shown["low"], shown["high"], digits=0, signed=True)
    lead = f"{top['player']} is rated highest; " if shown["player"] != top["player"] else ""
    sweep = shown.get("sweep")
    if isinstance(sweep, str) and sweep:
        return (
            f"{lead}{shown['player']} {sweep}, so its rating of {signed(shown['rating'], 0)} Elo relative to "
            f"{anchor} is a bound set by the prior (one drawn game per pairing), not an estimate."
        )
    return (
        f"{lead}{shown['player']} is rated {signed(shown['rating'], 0)} Elo {interval} relative to {anchor}, "
        f"rank {ranks} of {len(data)} in 95% of bootstrap replicates."
    ).replace("  ", " ")


# -- outcome mix ------------------------------------------------------------------------------


@styled
def outcome_mix_chart(table: pd.DataFrame) -> Figure:
    """How hands end, one stacked bar per pairing (or variant): knock, gin, big gin, undercut, dead hand.

    ``table``: ``label``, ``hands`` and the outcome counts ``knock``, ``gin``, ``big_gin``,
    ``undercut``, ``dead`` (outcomes that never happened are left out of the legend).
    """
    fig = Figure(figsize=(WIDTH, max(1.9, 0.42 * len(table) + 1.3)), layout="constrained")
    ax = fig.add_subplot()
    stacked_outcomes(ax, table, table["label"])
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_title("How hands end: outcome mix per pairing")
    return fig


def outcome_mix_caption(table: pd.DataFrame) -> str:
    """The outcome shares of one pairing, or the range of gin and dead-hand shares over several."""
    shown = shown_outcomes(table)
    if len(table) == 1:
        row = table.iloc[0]
        nouns = {"knock": "a knock", "gin": "gin", "big_gin": "big gin", "undercut": "an undercut"}
        parts = [f"{percent(ratios(row[o], row['hands']))} in {nouns[o]}" for o in shown if o != "dead"]
        if parts:
            parts[0] = parts[0].replace(" in ", " end in ", 1)
        if "dead" in shown:
            parts.append(f"{percent(ratios(row['dead'], row['hands']))} are dead hands")
        return f"Of the {count(row['hands'])} hands of {row['label']}, {join_phrases(parts)}."
    phrases = []
    for outcome in ("gin", "undercut", "dead"):
        if outcome not in table:
            continue
        share = ratios(table[outcome], table["hands"])
        lo, hi = int(np.nanargmin(share)), int(np.nanargmax(share))
        phrases.append(
            f"{OUTCOME_LABELS[outcome]} from {percent(share[lo])} ({table['label'].iloc[lo]}) "
            f"to {percent(share[hi])} ({table['label'].iloc[hi]})"
        )
    return f"Across the {len(table)} pairings, the share of hands ending in " + join_phrases(phrases) + "."


# -- knocks and undercuts by the knocker's deadwood ---------------------------------------------


def _deadwood_frame(table: pd.DataFrame) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Players with knocks, and their (players, 11) knock and undercut counts by deadwood."""
    players = [p for p in ordered(table["player"]) if float(table.loc[table["player"] == p, "knocks"].sum()) > 0]
    knocks = np.zeros((len(players), DEADWOOD_BINS))
    undercut = np.zeros((len(players), DEADWOOD_BINS))
    for i, player in enumerate(players):
        rows = table[table["player"] == player]
        for row in rows.itertuples(index=False):
            knocks[i, int(row.deadwood)] += row.knocks
            undercut[i, int(row.deadwood)] += row.undercut
    return players, knocks, undercut


@styled
def undercut_chart(table: pd.DataFrame) -> Figure:
    """Undercut frequency per knocker strategy (left) and by the knocker's deadwood (right).

    ``table``: ``player`` (the knocker), ``deadwood`` (0-10, 10 meaning 10 or more), ``knocks``
    (scored knocks, gin included), ``undercut`` (those knocks that were undercut) and the 95% intervals
    ``reports.tables.deadwood_table`` gives (``undercut_low``/``high`` by deadwood, ``knocker_undercut_*`` over
    all, in ``interval_unit``: the deal pair with duplicate deals).
    """
    players, knocks, undercut = _deadwood_frame(table)
    bounds = _undercut_bounds(table, players)
    fig = Figure(figsize=(WIDTH, 3.8), layout="constrained")
    left, right = fig.subplots(1, 2, width_ratios=(1, 2.2))
    total_knocks = knocks.sum(axis=1)
    total_undercut = undercut.sum(axis=1)
    rate = ratios(total_undercut, total_knocks)
    low, high = bounds["knocker_undercut_low"][:, 0], bounds["knocker_undercut_high"][:, 0]
    # Horizontal bars: the knockers' names sit one per row, so any number of them stays legible.
    y = np.arange(len(players))
    colors = [PALETTE[i % len(PALETTE)] for i in range(len(players))]
    left.barh(y, 100 * rate, color=colors, height=0.6)
    left.errorbar(100 * rate, y, xerr=[100 * (rate - low), 100 * (high - rate)], fmt="none", color="black", capsize=4)
    left.set_yticks(y, labels=players)
    left.invert_yaxis()
    left.set_ylabel("knocker")
    left.set_xlabel("knocks undercut (%)")
    left.set_xlim(left=0)
    left.set_title("Per knocker")
    left.grid(axis="y", visible=False)
    bins = np.arange(1, DEADWOOD_BINS)
    for i, player in enumerate(players):
        n = knocks[i, 1:]
        if not (n >= MIN_BIN_KNOCKS).any():
            continue
        k = undercut[i, 1:]
        sparse = n < MIN_BIN_KNOCKS
        share = np.where(sparse, np.nan, 100 * ratios(k, n))
        lo, hi = bounds["undercut_low"][i, 1:], bounds["undercut_high"][i, 1:]
        right.plot(bins, share, "o-", color=colors[i], label=f"{player} ({count(total_knocks[i])} knocks)")
        right.fill_between(
            bins,
            np.where(sparse, np.nan, 100 * lo),
            np.where(sparse, np.nan, 100 * hi),
            color=colors[i],
            alpha=0.15,
            linewidth=0,
        )
    right.set_xticks(bins)
    right.set_xlim(0.5, DEADWOOD_BINS - 0.5)
    right.set_xlabel(f"knocker's deadwood at the knock (points; bins with {MIN_BIN_KNOCKS}+ knocks)")
    right.set_ylabel("knocks undercut (%)")
    right.set_ylim(bottom=0)
    right.set_title("By the knocker's deadwood")
    if right.get_lines():
        right.legend(loc="upper left")
    fig.suptitle(f"How often a knock is undercut (95% intervals, {_undercut_units(table)} as the units)")
    return fig


def _undercut_bounds(table: pd.DataFrame, players: list[str]) -> dict[str, np.ndarray]:
    """The table's interval columns as (players, 11) arrays by deadwood, in the order of ``players``; a table of
    counts alone gets Wilson's intervals over knocks."""
    if "undercut_low" not in table:
        _, knocks, undercut = _deadwood_frame(table)
        low, high = wilson(undercut, knocks)
        all_low, all_high = wilson(undercut.sum(axis=1), knocks.sum(axis=1))
        return {
            "undercut_low": low,
            "undercut_high": high,
            "knocker_undercut_low": np.repeat(all_low[:, None], DEADWOOD_BINS, axis=1),
            "knocker_undercut_high": np.repeat(all_high[:, None], DEADWOOD_BINS, axis=1),
        }
    bounds = {}
    for column in ("undercut_low", "undercut_high", "knocker_undercut_low", "knocker_undercut_high"):
        frame = table.pivot_table(index="player", columns="deadwood", values=column, aggfunc="first", dropna=False)
        bounds[column] = frame.reindex(index=players, columns=range(DEADWOOD_BINS)).to_numpy(dtype=float)
    return bounds


def _undercut_units(table: pd.DataFrame) -> str:
    """The intervals' unit, in the plural (docs/STATISTICS.md §5); 'knocks' for a result written before the
    per-unit sums."""
    units = sorted(set(table["interval_unit"])) if "interval_unit" in table else ["knock"]
    return " and ".join(f"{unit}s" for unit in units)


def undercut_caption(table: pd.DataFrame) -> str:
    """Each knocker's undercut rate with its count, and where it peaks by deadwood."""
    players, knocks, undercut = _deadwood_frame(table)
    if not players:
        return "No player knocked."
    parts = []
    for i, player in enumerate(players):
        total, cut = knocks[i].sum(), undercut[i].sum()
        rate = ratios(cut, total)
        phrase = f"{player}'s knocks are undercut {percent(rate)} of the time ({count(cut)} of {count(total)})"
        by_bin = np.where(knocks[i, 1:] >= MIN_BIN_KNOCKS, ratios(undercut[i, 1:], knocks[i, 1:]), np.nan)
        if cut > 0 and np.isfinite(by_bin).any():
            peak = int(np.nanargmax(by_bin))
            phrase += f", most often at deadwood {peak + 1} ({percent(by_bin[peak])} of {count(knocks[i, peak + 1])})"
        parts.append(phrase)
    caption = "; ".join(parts) + "."
    if "pairings" in table and (table["pairings"] > 1).any():
        caption += (
            " A knocker's interval over its pairings, which play the same deals, is the widest their correlation"
            " allows."
        )
    return caption


@styled
def knock_deadwood_chart(table: pd.DataFrame) -> Figure:
    """Histogram of the knocker's deadwood at the knock, one bar group per knocker strategy.

    ``table``: as for :func:`undercut_chart`; bars are shares of each knocker's knocks.
    """
    players, knocks, _ = _deadwood_frame(table)
    fig = Figure(figsize=(WIDTH, 3.6), layout="constrained")
    ax = fig.add_subplot()
    bins = np.arange(DEADWOOD_BINS)
    width = 0.8 / max(len(players), 1)
    for i, player in enumerate(players):
        share = 100 * ratios(knocks[i], knocks[i].sum())
        offset = (i - (len(players) - 1) / 2) * width
        ax.bar(bins + offset, share, width=width, color=PALETTE[i % len(PALETTE)], label=player)
    ax.set_xticks(bins, labels=["0\n(gin)", *[str(b) for b in bins[1:-1]], "10+"])
    ax.set_xlabel("knocker's deadwood at the knock (points)")
    ax.set_ylabel("share of the strategy's knocks (%)")
    ax.grid(axis="x", visible=False)
    ax.legend(title="knocker")
    ax.set_title("Knock deadwood: how low a hand is when its player knocks")
    return fig


def knock_deadwood_caption(table: pd.DataFrame) -> str:
    """Each knocker's mean deadwood at the knock and its share of gin knocks."""
    players, knocks, _ = _deadwood_frame(table)
    if not players:
        return "No player knocked."
    parts = []
    for i, player in enumerate(players):
        total = knocks[i].sum()
        mean = float((knocks[i] * np.arange(DEADWOOD_BINS)).sum() / total)
        parts.append(
            f"{player} knocks at a mean deadwood of {mean:.1f} points, and {percent(knocks[i, 0] / total)} "
            f"of its {count(total)} knocks are gin"
        )
    return "; ".join(parts) + "."


# -- hand length ----------------------------------------------------------------------------------


def _histogram_median(counts: np.ndarray) -> float:
    cumulative = np.cumsum(counts)
    return float(np.searchsorted(cumulative, cumulative[-1] / 2))


@styled
def hand_length_chart(table: pd.DataFrame) -> Figure:
    """Histogram of hand length in turns, one line per pairing.

    ``table``: ``label``, ``turns`` (0-60, the last bin holding 60 or more) and ``hands``;
    optionally ``mean_turns`` (the exact mean, repeated on the label's rows).
    """
    fig = Figure(figsize=(WIDTH, 3.6), layout="constrained")
    ax = fig.add_subplot()
    top = int(table.loc[table["hands"] > 0, "turns"].max()) if (table["hands"] > 0).any() else 60
    for i, label in enumerate(ordered(table["label"])):
        rows = table[table["label"] == label].sort_values("turns")
        share = 100 * ratios(rows["hands"], rows["hands"].sum())
        color = PALETTE[i % len(PALETTE)]
        ax.plot(rows["turns"], share, drawstyle="steps-mid", color=color, label=label)
        ax.fill_between(rows["turns"], share, step="mid", color=color, alpha=0.12, linewidth=0)
        if "mean_turns" in rows:
            ax.axvline(float(rows["mean_turns"].iloc[0]), color=color, linestyle="--", linewidth=1)
    ax.set_xlim(0, min(60, top + 2))
    ax.set_ylim(bottom=0)
    ax.set_xlabel("hand length (turns; dashed: mean)")
    ax.set_ylabel("share of hands (%)")
    ax.legend()
    ax.set_title("Hand length")
    return fig


def hand_length_caption(table: pd.DataFrame) -> str:
    """Mean and median hand length per pairing (the range over pairings when there are several)."""
    stats = []
    for label in ordered(table["label"]):
        rows = table[table["label"] == label].sort_values("turns")
        counts = rows["hands"].to_numpy(float)
        if counts.sum() == 0:
            continue
        mean = (
            float(rows["mean_turns"].iloc[0])
            if "mean_turns" in rows
            else float((rows["turns"] * rows["hands"]).sum() / counts.sum())
        )
        long = float(counts[rows["turns"].to_numpy() >= 40].sum() / counts.sum())
        stats.append((label, mean, _histogram_median(counts), long))
    if not stats:
        return "No hands were played."
    if len(stats) == 1:
        label, mean, median, long = stats[0]
        return (
            f"Hands of {label} last {mean:.1f} turns on average (median {median:.0f}), "
            f"and {percent(long)} last 40 turns or more."
        )
    shortest = min(stats, key=lambda s: s[1])
    longest = max(stats, key=lambda s: s[1])
    return (
        f"Mean hand length ranges from {shortest[1]:.1f} turns ({shortest[0]}) "
        f"to {longest[1]:.1f} turns ({longest[0]})."
    )


# -- points per hand ------------------------------------------------------------------------------------


@styled
def points_chart(table: pd.DataFrame) -> Figure:
    """Points won per hand (left) and net points per hand with 95% intervals (right), per player and opponent.

    ``table``: ``player``, ``opponent``, ``points_per_hand``, ``net_points_per_hand``,
    ``net_points_low`` and ``net_points_high``.
    """
    k = len(table)
    fig = Figure(figsize=(WIDTH, max(2.6, 0.42 * k + 1.5)), layout="constrained")
    left, right = fig.subplots(1, 2, sharey=True)
    y = np.arange(k)[::-1]
    labels = [f"{p} vs {o}" for p, o in zip(table["player"], table["opponent"], strict=True)]
    players = ordered([*table["player"], *table["opponent"]])
    colors = [PALETTE[players.index(p) % len(PALETTE)] for p in table["player"]]
    points = table["points_per_hand"].to_numpy(float)
    left.barh(y, points, color=colors, height=0.6)
    for yi, value in zip(y, points, strict=True):
        left.text(value, yi, f" {value:.1f}", va="center", fontsize=9)
    left.set_xlim(0, max(1.0, float(np.nanmax(points)) * 1.2))
    left.set_yticks(y, labels=labels)
    left.set_xlabel("points won per hand")
    left.set_title("Points won")
    left.grid(axis="y", visible=False)
    net = table["net_points_per_hand"].to_numpy(float)
    low = np.where(np.isfinite(table["net_points_low"].to_numpy(float)), table["net_points_low"], net)
    high = np.where(np.isfinite(table["net_points_high"].to_numpy(float)), table["net_points_high"], net)
    right.errorbar(net, y, xerr=[net - low, high - net], fmt="none", ecolor="black", capsize=4)
    right.scatter(net, y, color=colors, zorder=3)
    right.axvline(0, color="#888888", linewidth=0.8, linestyle="--")
    right.set_xlabel("net points per hand (won - lost)")
    right.set_title("Net points, 95% interval")
    right.grid(axis="y", visible=False)
    fig.suptitle("Points per hand")
    return fig


def points_caption(table: pd.DataFrame) -> str:
    """The player with the largest net points per hand, with its interval."""
    if table.empty:
        return "No hands were played."
    best = table.loc[table["net_points_per_hand"].astype(float).idxmax()]
    other = table[(table["player"] == best["opponent"]) & (table["opponent"] == best["player"])]
    them = f" against {best['opponent']}'s {float(other['points_per_hand'].iloc[0]):.1f}" if len(other) else ""
    interval = number_interval(best["net_points_low"], best["net_points_high"], signed=True)
    return (
        f"{best['player']} wins {best['points_per_hand']:.1f} points per hand{them}, "
        f"a net {signed(best['net_points_per_hand'])} {interval} points per hand."
    ).replace("  ", " ")


# -- first-player and dealer edge ---------------------------------------------------------------------------


@styled
def seat_edge_chart(table: pd.DataFrame) -> Figure:
    """The first player's (non-dealer's) share of scored hands won, and the dealer's net points per hand.

    ``table``: one row per pairing with ``label``, ``scored``, ``first_player_wins``, ``hands``,
    ``dealer_net`` (dealer's points minus the non-dealer's), ``net_sq`` (sum of squared hand
    margins), the intervals of ``reports.tables.seat_edge_intervals`` (``first_player_low`` ..., the deal pair as
    the unit) and, for runs of games, ``games``, ``first_dealer_wins`` and ``dealer_rotation``.
    """
    k = len(table)
    fig = Figure(figsize=(WIDTH, max(2.6, 0.45 * k + 1.6)), layout="constrained")
    left, right = fig.subplots(1, 2, sharey=True)
    y = np.arange(k)[::-1]
    rate = ratios(table["first_player_wins"], table["scored"])
    low, high, game_low, game_high, dealer = _seat_intervals(table)
    left.errorbar(
        100 * rate,
        y,
        xerr=[100 * (rate - low), 100 * (high - rate)],
        fmt="o",
        color=PALETTE[0],
        capsize=4,
        label="non-dealer wins the hand",
    )
    games = table["games"].to_numpy(float) if "games" in table else np.zeros(k)
    if (games > 0).any():
        game_rate = ratios(table["first_dealer_wins"], games)
        left.errorbar(
            100 * game_rate,
            y - 0.2,
            xerr=[100 * (game_rate - game_low), 100 * (game_high - game_rate)],
            fmt="s",
            color=PALETTE[1],
            capsize=4,
            label="first dealer wins the game",
        )
    left.axvline(50, color="#888888", linewidth=0.8, linestyle="--")
    left.set_ylim(-0.6, k - 0.4)
    left.set_yticks(y, labels=list(table["label"]))
    left.set_xlabel("share won (%, 95% interval)")
    left.set_title("First-player edge")
    left.legend(loc="upper center", bbox_to_anchor=(0.5, -0.28), ncol=2)
    left.grid(axis="y", visible=False)
    mean = np.array([d[0] for d in dealer])
    d_low = np.array([d[1] if finite(d[1]) else d[0] for d in dealer])
    d_high = np.array([d[2] if finite(d[2]) else d[0] for d in dealer])
    right.errorbar(mean, y, xerr=[mean - d_low, d_high - mean], fmt="o", color=PALETTE[2], capsize=4)
    right.axvline(0, color="#888888", linewidth=0.8, linestyle="--")
    right.set_xlabel("dealer's net points per hand (95% interval)")
    right.set_title("Dealer edge")
    right.grid(axis="y", visible=False)
    fig.suptitle("Seat edge: does playing first or dealing help?")
    return fig


def _seat_intervals(table: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list]:
    """Per pairing, from the table's own intervals (``reports.tables.seat_edge_intervals``): the first player's
    share's bounds, the first dealer's share of games' bounds, and (mean, low, high) of the dealer's margin per
    hand."""
    columns = ("first_player_low", "first_player_high", "first_dealer_low", "first_dealer_high")
    bounds = [table[name].to_numpy(float) for name in columns]
    means = np.atleast_1d(ratios(table["dealer_net"], table["hands"]))
    dealer = list(zip(means, table["dealer_low"], table["dealer_high"], strict=True))
    return (*bounds, dealer)


def seat_edge_caption(table: pd.DataFrame) -> str:
    """The first-player win share and dealer margin with their intervals; over several pairings the pooled shares
    alone (the pairings play the same deals, so their hands are not independent of each other)."""
    scored = float(table["scored"].sum())
    wins = float(table["first_player_wins"].sum())
    rate = ratios(wins, scored).item()
    mean = ratios(float(table["dealer_net"].sum()), float(table["hands"].sum())).item()
    if len(table) > 1:
        sentence = (
            f"Over all pairings, the non-dealer, who plays first, wins {percent(rate)} of {count(scored)} scored "
            f"hands, and the dealer nets {signed(mean, 2)} points per hand (no pooled interval: the pairings play the "
            "same deals; each pairing's is in the figure)"
        )
    else:
        low, high, _, _, dealer = _seat_intervals(table)
        unit = str(table["seat_unit"].iloc[0])
        sentence = (
            f"The non-dealer, who plays first, wins {percent(rate)} {percent_interval(low[0], high[0])} of "
            f"{count(scored)} scored hands, and the dealer nets {signed(mean, 2)} "
            f"{number_interval(dealer[0][1], dealer[0][2], 2, signed=True)} points per hand ({unit}s as the units)"
        ).replace("  ", " ")
    games = float(table["games"].sum()) if "games" in table else 0.0
    if games > 0:
        sentence += f"; the first dealer wins {percent(float(table['first_dealer_wins'].sum()) / games)} of games"
        rotation = str(table["dealer_rotation"].iloc[0]) if "dealer_rotation" in table else "alternate"
        if rotation in ("loser", "winner"):
            sentence += f" (the {rotation} of a hand deals the next, so the hand figures mix seat and strength)"
    return sentence + "."


# -- the sequential test ----------------------------------------------------------------------------------------------


@styled
def sprt_chart(result: dict[str, Any]) -> Figure:
    """The SPRT's log-likelihood ratio after each batch of game pairs, with its two stopping bounds.

    ``result``: the result dict of ``simgin compare`` (``players`` and ``sprt`` with
    ``trajectory``, ``lower``, ``upper``, ``elo0``, ``elo1`` and ``decision``).
    """
    sprt = result["sprt"]
    a, b = result["players"][:2]
    unit, h0, h1 = sprt_terms(sprt)
    games = [0.0] + [float(point[f"{unit}s"]) for point in sprt["trajectory"]]
    llr = [0.0] + [float(point["llr"]) for point in sprt["trajectory"]]
    lower, upper = float(sprt["lower"]), float(sprt["upper"])
    fig = Figure(figsize=(WIDTH, 3.8), layout="constrained")
    ax = fig.add_subplot()
    ax.plot(games, llr, marker="o", markersize=3, color=PALETTE[0], label="LLR after each batch")
    ax.axhline(upper, color=PALETTE[2], linestyle="--", label=f"upper bound {upper:.2f}: accept H1 ({h1})")
    ax.axhline(lower, color=PALETTE[3], linestyle="--", label=f"lower bound {lower:.2f}: accept H0 ({h0})")
    ax.axhline(0, color="#888888", linewidth=0.6)
    high, low = max(upper, max(llr)), min(lower, min(llr))
    top, bottom = high + 0.15 * (high - low), low - 0.15 * (high - low)
    ax.axhspan(upper, top, color=PALETTE[2], alpha=0.08)
    ax.axhspan(bottom, lower, color=PALETTE[3], alpha=0.08)
    ax.set_ylim(bottom, top)
    ax.set_xlim(0, max(games) * 1.02 or 1)
    ax.annotate(
        _decision_text(sprt),
        (games[-1], llr[-1]),
        xytext=(-8, 10 if llr[-1] >= 0 else -14),
        textcoords="offset points",
        ha="right",
        va="bottom" if llr[-1] >= 0 else "top",
        fontsize=9,
        fontweight="bold",
    )
    ax.set_xlabel(f"{unit}s played (duplicate pairs × 2)")
    ax.set_ylabel("log-likelihood ratio")
    fig.legend(loc="outside lower center", ncol=3)
    if sprt.get("points0") is not None:
        model = "Gaussian, net points per hand"
    elif sprt.get("estimator") == "luck-adjusted":
        model = "Gaussian, logistic Elo of a hand"
    else:
        model = f"{sprt.get('model', 'logistic')} Elo" + (" of a hand" if unit == "hand" else "")
    adjusted = ", luck-adjusted" if sprt.get("estimator") == "luck-adjusted" else ""
    ax.set_title(f"Sequential test (GSPRT, {model}{adjusted}): {a} vs {b}")
    return fig


def sprt_terms(sprt: dict[str, Any]) -> tuple[str, str, str]:
    """A compare's unit (``'game'`` or ``'hand'``) and its two hypotheses in words: Elo bounds, or net points per
    hand (``points0``, ``points1``)."""
    unit = str(sprt.get("unit", "game"))
    if sprt.get("points0") is not None:
        return unit, f"net points per hand ≤ {sprt['points0']:g}", f"net points per hand ≥ {sprt['points1']:g}"
    return unit, f"Elo ≤ {sprt['elo0']:g}", f"Elo ≥ {sprt['elo1']:g}"


def _decision_text(sprt: dict[str, Any]) -> str:
    decision = sprt.get("decision")
    unit, h0, h1 = sprt_terms(sprt)
    if decision == "H1":
        return f"H1 accepted ({h1})"
    if decision == "H0":
        return f"H0 accepted ({h0})"
    return f"no decision (max {unit}s)"


def sprt_caption(result: dict[str, Any]) -> str:
    """The decision, when it came, the final LLR against its bound, and the Elo estimate."""
    sprt = result["sprt"]
    a, b = result["players"][:2]
    unit, _, _ = sprt_terms(sprt)
    games, pairs = int(sprt[f"{unit}s"]), int(sprt["pairs"])
    played = f"{games:,} {unit}s ({pairs:,} pairs)"
    llr = float(sprt["llr"]) if finite(sprt.get("llr")) else math.nan
    adjusted = sprt.get("estimator") == "luck-adjusted"
    if adjusted:
        played += ", luck-adjusted (docs/STATISTICS.md §13)"
    if sprt["decision"] == "H1":
        head = f"H1 accepted after {played}: the LLR {llr:.2f} reached the upper bound {sprt['upper']:.2f}"
    elif sprt["decision"] == "H0":
        head = f"H0 accepted after {played}: the LLR {llr:.2f} reached the lower bound {sprt['lower']:.2f}"
    else:
        head = (
            f"No decision after {played}: the LLR {llr:.2f} stayed between {sprt['lower']:.2f} and {sprt['upper']:.2f}"
        )
    if sprt.get("net_points_per_hand"):
        points = sprt["net_points_per_hand"]
        interval = number_interval(*points["ci"], digits=2, signed=True)
        figure = f"{a} nets {signed(points['estimate'], 2)} points per hand {interval} against {b}"
        plain = (sprt.get("plain") or {}).get("net_points_per_hand")
        if adjusted and plain:
            figure += f" (plain {signed(plain['estimate'], 2)} {number_interval(*plain['ci'], digits=2, signed=True)})"
        return f"{head}; {figure}."
    interval = number_interval(sprt.get("elo_low"), sprt.get("elo_high"), digits=1, signed=True)
    of = " of a hand" if unit == "hand" else ""
    elo = f"{a} is {signed(sprt['elo'])} Elo{of} " + (interval or "(no finite interval: one side won every pair)")
    return f"{head}; {elo} against {b}, LOS {percent(sprt.get('los'))}."


# -- three players and partnerships (V11, V12) ------------------------------------------


@styled
def table_win_chart(table: pd.DataFrame) -> Figure:
    """Game win rate of each player (three-player game) or team (partnerships) with its 95% interval.

    ``table``: ``entry`` (player or team name), ``win_rate``, ``win_rate_low``, ``win_rate_high``
    and ``fair`` (the share each would win if all were equal: 1/3 or 1/2).
    """
    k = len(table)
    fig = Figure(figsize=(WIDTH, max(2.4, 0.7 * k + 1.4)), layout="constrained")
    ax = fig.add_subplot()
    y = np.arange(k)
    rate = 100 * table["win_rate"].to_numpy(dtype=float)
    low = 100 * table["win_rate_low"].to_numpy(dtype=float)
    high = 100 * table["win_rate_high"].to_numpy(dtype=float)
    ax.barh(y, rate, color="#0072B2", label="games won")
    ax.errorbar(rate, y, xerr=[rate - low, high - rate], fmt="none", ecolor="black", capsize=4, label="95% interval")
    fair = 100 * float(table["fair"].iloc[0])
    ax.axvline(fair, color="#D55E00", linestyle="--", label=f"equal share ({fair:.1f}%)")
    ax.set_yticks(y, labels=list(table["entry"]))
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("games won (%)")
    ax.set_title("Who wins the games")
    ax.legend(loc="lower right")
    return fig


def table_win_caption(table: pd.DataFrame) -> str:
    """The leader's win rate with its interval, against the equal share."""
    best = table.loc[table["win_rate"].astype(float).idxmax()]
    fair = float(table["fair"].iloc[0])
    return (
        f"{best['entry']} wins {percent(best['win_rate'])} "
        f"{percent_interval(best['win_rate_low'], best['win_rate_high'])} of games, against an equal share of "
        f"{percent(fair)}."
    ).replace("  ", " ")


@styled
def seat_advantage_chart(table: pd.DataFrame) -> Figure:
    """Game win rate by seat over all seatings, with 95% intervals: the seat's own edge.

    ``table``: ``seat``, ``win_rate``, ``low``, ``high`` and ``fair``.
    """
    fig = Figure(figsize=(WIDTH, 3.2), layout="constrained")
    ax = fig.add_subplot()
    x = np.arange(len(table))
    rate = 100 * table["win_rate"].to_numpy(dtype=float)
    low = 100 * table["low"].to_numpy(dtype=float)
    high = 100 * table["high"].to_numpy(dtype=float)
    ax.bar(x, rate, color="#009E73", label="games won from this seat")
    ax.errorbar(x, rate, yerr=[rate - low, high - rate], fmt="none", ecolor="black", capsize=4, label="95% interval")
    fair = 100 * float(table["fair"].iloc[0])
    ax.axhline(fair, color="#D55E00", linestyle="--", label=f"equal share ({fair:.1f}%)")
    ax.set_xticks(x, labels=[f"seat {int(s)}" for s in table["seat"]])
    ax.set_ylim(0, 100)
    ax.set_ylabel("games won (%)")
    ax.set_title("Seat advantage (every seating played on the same deals)")
    ax.legend(loc="upper right")
    return fig


def seat_advantage_caption(table: pd.DataFrame) -> str:
    """The best and worst seat's win rates."""
    best = table.loc[table["win_rate"].astype(float).idxmax()]
    worst = table.loc[table["win_rate"].astype(float).idxmin()]
    fair = percent(float(table["fair"].iloc[0]))
    if best["win_rate"] == worst["win_rate"]:
        return f"Every seat wins {percent(best['win_rate'])} of games: no seat advantage (an equal share is {fair})."
    return (
        f"Seat {int(best['seat'])} wins {percent(best['win_rate'])} {percent_interval(best['low'], best['high'])} "
        f"of games and seat {int(worst['seat'])} {percent(worst['win_rate'])} "
        f"{percent_interval(worst['low'], worst['high'])}; an equal share is {percent(float(table['fair'].iloc[0]))}."
    ).replace("  ", " ")

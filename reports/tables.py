"""The report's tidy tables, built from a run's ``result.json``: win rates, outcomes, deadwood, hand length,
points, the seat edge, Oklahoma's knock limits, duplicate pairs, a sweep's cells and groups, forfeits; each
figure of :mod:`simgin.reports.figures` and :mod:`simgin.reports.variant_figures` draws one of them, and
:func:`result_tables` gives every table a result has data for."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from simgin.analysis.summary import interval_unit
from simgin.game.rules import Rules
from simgin.game.showdown import OUTCOMES
from simgin.running.summary import knock_limit_breakdowns, mean_turns, pairing_rates, points_per_hand
from simgin.running.tally import KNOCK_BINS, TURN_BINS
from simgin.statistics.core import mean_from_sums, ratio_from_sums
from simgin.statistics.paired import share_interval_from_sums, share_interval_over_groups
from simgin.statistics.ratings import bootstrap_label

from . import (
    analysis as analysis_report,
    figure_style as S,
    study,
    table_sweep as table_sweep_report,
    tune as tune_report,
    tune_rules as tune_rules_report,
)
from .document import ReportTable


def pairing_label(a: str, b: str) -> str:
    """``'simple vs random'``."""
    return f"{a} vs {b}"


def mode_of(config: dict[str, Any]) -> str:
    return "games" if config.get("games") else "hands"


def _rules(config: dict[str, Any], settings: dict[str, Any] | None = None) -> dict[str, Any]:
    rules = dict(Rules().to_dict())
    rules.update(config.get("rules") or {})
    rules.update(settings or {})
    return rules


def cell_rules(config: dict[str, Any], cell: dict[str, Any]) -> dict[str, Any]:
    """A sweep cell's rules: those it recorded (``cell['rules']``, so a ``preset=oklahoma`` cell is Oklahoma), or for
    an older result without them the run's rules with the cell's switch values on top."""
    if isinstance(cell.get("rules"), dict):
        return _rules({"rules": cell["rules"]})
    return _rules(config, {key: value for key, value in cell["settings"].items() if key != "preset"})


def variant_name(rules: dict[str, Any]) -> str:
    """How a run's hands get their knock limit: ``'Oklahoma'`` (the up card sets it, V9), else the one limit every
    hand has, ``'knock limit 10'`` (R12, V1; ``'knock limit 0'`` under straight gin). Not ``'Standard'``: a Hollywood
    or straight-gin run is not the standard game."""
    return "Oklahoma" if rules.get("oklahoma") else f"knock limit {int(rules.get('knock_limit', 10))}"


def _tallies(pairings: list[dict[str, Any]]) -> list[tuple[str, str, dict[str, float]]]:
    return [(p["a"], p["b"], p["tally"]) for p in pairings]


def win_rate_table(summary: pd.DataFrame, mode: str, order: list[str] | None = None) -> pd.DataFrame:
    """One row per player and opponent: the win rate with its interval (from the summary rows)."""
    columns = ["player", "opponent", "win_rate", "win_rate_low", "win_rate_high", "hands", "games"]
    table = summary[columns].copy()
    table["unit"] = mode
    if order:
        rank = {name: i for i, name in enumerate(order)}
        table = table.sort_values(["player", "opponent"], key=lambda s: s.map(rank)).reset_index(drop=True)
    return table


def _count(value: Any) -> Any:
    """A tally's count (or sum of counts) as an int, so tables show ``2065``, not ``2065.0`` (issue 25)."""
    number = float(value)
    return int(number) if number.is_integer() else number


def outcome_table(tallies: list[tuple[str, str, dict[str, float]]]) -> pd.DataFrame:
    """Outcome counts and shares of all hands, one row per pairing."""
    rows = []
    for a, b, t in tallies:
        row: dict[str, Any] = {"label": pairing_label(a, b), "player": a, "opponent": b, "hands": _count(t["hands"])}
        for outcome in OUTCOMES:
            row[outcome] = _count(t[outcome])
        for outcome in OUTCOMES:
            row[f"{outcome}_rate"] = t[outcome] / t["hands"] if t["hands"] else np.nan
        rows.append(row)
    return pd.DataFrame(rows)


def deadwood_table(
    tallies: list[tuple[str, str, dict[str, float]]], players: list[str], unit: str = "deal pair"
) -> pd.DataFrame:
    """Knocks and undercut knocks (R18) by the knocker's deadwood (0-10), per knocker pooled over its pairings,
    with the undercut rate's 95% interval by deadwood (``undercut_low``/``high``) and over all of the knocker's
    knocks (``knocker_undercut_*``), named by ``interval_unit``: ``unit`` as :func:`seat_unit` names it, since the
    two hands of a deal pair deal the knocker the same cards (docs/STATISTICS.md §5). The intervals come from the
    tally's per-unit sums (``running.tally.KNOCK_UNIT_FIELDS``) by
    :func:`~simgin.statistics.paired.share_interval_over_groups`: exact for a knocker with one pairing; over
    several pairings (``pairings``), which play the same deals, the widest their correlation allows. A result
    written before those sums gives Wilson's interval over knocks, and ``interval_unit`` says ``'knock'``."""
    sides: dict[str, list[tuple[str, dict[str, float]]]] = {p: [] for p in players}
    for a, b, t in tallies:
        for side, player in (("a", a), ("b", b)):
            sides.setdefault(player, []).append((side, t))
    rows = []
    for player, played in sides.items():
        knocks = np.zeros(len(KNOCK_BINS))
        undercut = np.zeros(len(KNOCK_BINS))
        for side, t in played:
            by_bin = [t[f"knocks_{side}_dw{d}"] for d in range(S.DEADWOOD_BINS)]
            cut = [t[f"undercut_{side}_dw{d}"] for d in range(S.DEADWOOD_BINS)]
            knocks += [*by_bin, sum(by_bin)]
            undercut += [*cut, sum(cut)]
        by_units = bool(played) and all(_has_knock_sums(t, side) for side, t in played)
        if by_units:
            intervals = [
                share_interval_over_groups([_knock_group(t, side, name) for side, t in played])[1:]
                for name in KNOCK_BINS
            ]
        else:
            intervals = list(zip(*S.wilson(undercut, knocks), strict=True))
        intervals = [bounds if n > 0 else (np.nan, np.nan) for bounds, n in zip(intervals, knocks, strict=True)]
        total = knocks[-1]
        for d in range(S.DEADWOOD_BINS):
            n, k = knocks[d], undercut[d]
            rows.append(
                {
                    "player": player,
                    "deadwood": d,
                    "knocks": _count(n),
                    "undercut": _count(k),
                    "share_of_knocks": n / total if total else np.nan,
                    "undercut_rate": k / n if n else np.nan,
                    "undercut_low": max(intervals[d][0], 0.0),
                    "undercut_high": min(intervals[d][1], 1.0),
                    "knocker_undercut_rate": undercut[-1] / total if total else np.nan,
                    "knocker_undercut_low": max(intervals[-1][0], 0.0),
                    "knocker_undercut_high": min(intervals[-1][1], 1.0),
                    "interval_unit": unit if by_units else "knock",
                    "pairings": len(played),
                }
            )
    return pd.DataFrame(rows)


def _has_knock_sums(t: dict[str, float], side: str) -> bool:
    """Whether a tally has the knocks' per-unit sums: a knocker's knocks per unit square to at least the knocks, so
    sums read as 0 from a record written before them show as missing."""
    knocks = t[f"knocks_{side}"]
    return t.get("seat_units", 0.0) >= 1 and t.get(f"knock_{side}_all_k_sq", 0.0) >= knocks


def _knock_group(t: dict[str, float], side: str, name: str) -> tuple[float, float, float, float, float, float]:
    """One pairing's (undercut knocks, knocks, their sums of squares and products, units) in a deadwood bin."""
    if name == "all":
        events = sum(t[f"undercut_{side}_dw{d}"] for d in range(S.DEADWOOD_BINS))
        trials = sum(t[f"knocks_{side}_dw{d}"] for d in range(S.DEADWOOD_BINS))
    else:
        events, trials = t[f"undercut_{side}_{name}"], t[f"knocks_{side}_{name}"]
    prefix = f"knock_{side}_{name}"
    return events, trials, t[f"{prefix}_u_sq"], t[f"{prefix}_k_sq"], t[f"{prefix}_ku"], t["seat_units"]


def hand_length_table(tallies: list[tuple[str, str, dict[str, float]]]) -> pd.DataFrame:
    """Hands by length in turns (the last bin holds 60 or more), per pairing, with the exact mean."""
    rows = []
    for a, b, t in tallies:
        mean = t["turns"] / t["hands"] if t["hands"] else np.nan
        for turns in range(TURN_BINS):
            rows.append(
                {"label": pairing_label(a, b), "turns": turns, "hands": _count(t[f"turns_{turns}"]), "mean_turns": mean}
            )
    return pd.DataFrame(rows)


def points_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Points won and net points per hand with the net's interval, one row per player and opponent."""
    columns = ["player", "opponent", "points_per_hand", "net_points_per_hand", "net_points_low", "net_points_high"]
    extra = [c for c in ("game_margin", "game_margin_low", "game_margin_high") if c in summary]
    return summary[columns + extra].reset_index(drop=True)


def seat_edge_table(
    tallies: list[tuple[str, str, dict[str, float]]], rotation: str = "alternate", unit: str = "deal pair"
) -> pd.DataFrame:
    """First-player (non-dealer) wins of scored hands and the dealer's margin, per pairing, each with its 95%
    interval (:func:`seat_edge_intervals`; ``unit``: the run's, as :func:`seat_unit` names it).

    ``rotation`` is the rules' ``dealer_rotation``: in runs of games where the loser (or winner)
    of a hand deals the next, who deals depends on who is stronger.
    """
    rows = []
    for a, b, t in tallies:
        rate = t["first_player_wins"] / t["scored"] if t["scored"] else np.nan
        rows.append(
            {
                "label": pairing_label(a, b),
                "hands": _count(t["hands"]),
                "scored": _count(t["scored"]),
                "first_player_wins": _count(t["first_player_wins"]),
                "first_player_win_rate": rate,
                "dealer_net": _count(t["dealer_net"]),
                "net_sq": _count(t["net_a_sq"]),
                "dealer_points_per_hand": t["dealer_net"] / t["hands"] if t["hands"] else np.nan,
                "games": _count(t["games"]),
                "first_dealer_wins": _count(t["first_dealer_wins"]),
                "dealer_rotation": rotation,
                **seat_edge_intervals(t, unit),
            }
        )
    return pd.DataFrame(rows)


def seat_unit(config: dict[str, Any]) -> str:
    """The unit of a run's seat-edge intervals, named as the analysis names its own
    (:func:`simgin.analysis.summary.interval_unit`): the deal pair (game pair) with duplicate deals, else the hand
    (game)."""
    return interval_unit(mode_of(config), bool(config.get("duplicate", True)))


def seat_edge_intervals(t: dict[str, float], unit: str = "deal pair") -> dict[str, float | str]:
    """The 95% intervals of a pairing's seat edge with ``unit`` as the unit (``seat_unit``): the deal pair with
    duplicate deals, whose two hands share the deal and so the non-dealer's cards (docs/STATISTICS.md §3), else
    the hand (the game, for the first dealer's share of games). From the tally's per-unit sums
    (``running.tally.SEAT_UNIT_FIELDS``): the shares as every share of a study (Wilson's interval with the trials
    divided by the units' design effect, §10), the dealer's margin per hand the ratio estimator's (§4). A result
    written before those sums has only the hands, and its intervals take the hand as the unit (``seat_unit`` then
    says ``'hand'``, whatever the run's deals)."""
    units = t.get("seat_units", 0.0)
    if units < 2:
        low, high = S.wilson(t["first_player_wins"], t["scored"])
        _, d_low, d_high = mean_from_sums(t["dealer_net"], t["net_a_sq"], t["hands"])
        g_low, g_high = (value[0] for value in S.wilson(t["first_dealer_wins"], t["games"]))
        return _seat_row(low[0], high[0], d_low, d_high, g_low, g_high, "hand")
    _, fp_low, fp_high = share_interval_from_sums(
        t["first_player_wins"], t["scored"], t["seat_f_sq"], t["seat_s_sq"], t["seat_fs"], units
    )
    _, d_low, d_high = ratio_from_sums(t["dealer_net"], t["hands"], t["seat_d_sq"], t["seat_h_sq"], t["seat_dh"], units)
    per_unit = t["games"] / units  # games per unit: 2 in a pair, else 1
    wins = t["first_dealer_wins"]
    _, g_low, g_high = share_interval_from_sums(
        wins, t["games"], t["seat_g_sq"], units * per_unit**2, wins * per_unit, units
    )
    return _seat_row(fp_low, fp_high, d_low, d_high, g_low, g_high, unit)


def _seat_row(
    fp_low: float, fp_high: float, d_low: float, d_high: float, g_low: float, g_high: float, unit: str
) -> dict[str, float | str]:
    return {
        "first_player_low": max(fp_low, 0.0),
        "first_player_high": min(fp_high, 1.0),
        "dealer_low": d_low,
        "dealer_high": d_high,
        "first_dealer_low": max(g_low, 0.0),
        "first_dealer_high": min(g_high, 1.0),
        "seat_unit": unit,
    }


#: A block of the knock-limit table: the cell's index (None for a match or tournament), its label, whether the up card
#: sets its knock limit, and its pairings as ``(a, b, tally)``.
LimitBlock = tuple[int | None, str, bool, list[tuple[str, str, dict[str, float]]]]


def knock_limit_table(blocks: list[LimitBlock]) -> pd.DataFrame:
    """Outcomes, turns and points by the hand's knock limit, one block of rows per cell and pairing, never pooled
    (issue 32 item 1): :func:`simgin.running.summary.knock_limit_breakdowns`, the CLI's by-up-card table, with the
    cell's ``cell``, ``label`` and ``oklahoma`` (the up card sets the limit) in front and, per pairing, its
    ``cell_points_per_hand`` and ``cell_mean_turns`` over all its hands (the numbers the variant figures show)."""
    frames = []
    for cell, label, oklahoma, pairings in blocks:
        frame = knock_limit_breakdowns(pairings)
        if frame.empty:
            continue
        whole = {f"{a} vs {b}": (points_per_hand(t), mean_turns(t)) for a, b, t in pairings}
        frame.insert(0, "cell", cell)
        frame.insert(1, "label", label)
        frame.insert(2, "oklahoma", oklahoma)
        frame["cell_points_per_hand"] = [whole[pairing][0] for pairing in frame["pairing"]]
        frame["cell_mean_turns"] = [whole[pairing][1] for pairing in frame["pairing"]]
        frames.append(frame)
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def duplicate_table(pairings: list[dict[str, Any]]) -> pd.DataFrame:
    """The paired analysis of duplicate deals per pairing: pair score, paired margin, rho and its gain."""
    rows = []
    for p in pairings:
        paired = p.get("paired") or {}
        if not paired:
            continue
        counts = paired.get("pair_counts") or [np.nan] * 5
        rows.append(
            {
                "label": pairing_label(p["a"], p["b"]),
                "pairs": paired.get("pairs"),
                "lost_both": counts[0],
                "split": counts[2],
                "won_both": counts[4],
                "pair_score": paired.get("pair_score"),
                "pair_score_low": paired.get("pair_score_low"),
                "pair_score_high": paired.get("pair_score_high"),
                "pair_margin": paired.get("pair_margin"),
                "pair_margin_low": paired.get("pair_margin_low"),
                "pair_margin_high": paired.get("pair_margin_high"),
                "rho": paired.get("rho"),
                "variance_factor": paired.get("variance_factor"),
                "fewer_games_needed": paired.get("fewer_games_needed"),
            }
        )
    return pd.DataFrame(rows)


def group_metrics(t: dict[str, float], mode: str, recorded: dict[str, Any] | None = None) -> dict[str, float]:
    """Sweep metrics of one cell's pairing tally, seen from its first player, computed by the functions the CLI uses
    (:func:`simgin.running.summary.pairing_rates`, :func:`~simgin.running.summary.points_per_hand`). ``recorded``:
    the pairing's entry in result.json, whose win rate and 95% interval (over deal pairs) are used as recorded, so
    the figure shows the number of the CLI's cells table (issue 32 item 2); without it, a Wilson interval over
    games or hands."""
    hands, scored, games = t["hands"], t["scored"], t["games"]
    wins, trials = (t["games_won_a"], games) if mode == "games" else (t["hands_won_a"], hands)
    low, high = S.wilson(wins, trials)
    rates = pairing_rates(t)
    row = {
        "hands": hands,
        "games": games,
        "scored": scored,
        "win_rate": wins / trials if trials else np.nan,
        "win_rate_low": low[0],
        "win_rate_high": high[0],
        "first_player_win_rate": rates["first_player_win_rate"],
        "mean_turns": rates["mean_turns"],
        "points_per_hand": points_per_hand(t),
        "hands_per_game": t["game_hands"] / games if games else np.nan,
        "doubled_share": t["doubled"] / scored if scored else np.nan,
    }
    if recorded and recorded.get("win_rate_ci"):
        interval = recorded["win_rate_ci"]
        row |= {"win_rate": recorded["win_rate"], "win_rate_low": interval[0], "win_rate_high": interval[1]}
    for outcome in OUTCOMES:
        row[outcome] = t[outcome]
        row[f"{outcome}_rate"] = rates[f"{outcome}_rate"]
    return row


def value_label(switch: str, value: Any) -> str:
    """How a swept value reads in a legend: ``'Oklahoma'``, ``'knock_limit=7'``."""
    if switch == "oklahoma":
        return "Oklahoma" if value else "Standard"
    if isinstance(value, bool):
        return f"{switch}={'on' if value else 'off'}"
    return f"{switch}={value}"


def is_numeric_switch(values: list[Any]) -> bool:
    """Numbers (not booleans) with at least three values are drawn as lines; the rest as bars."""
    numeric = all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
    return numeric and len(values) >= 3


def same_game(index: int, cell: dict[str, Any]) -> int:
    """The cell whose game a sweep cell plays: itself, or the earlier cell it repeats (``same_game_as``)."""
    first = cell.get("same_game_as")
    return index if first is None else int(first)


def sweep_group_table(result: dict[str, Any], switch: str) -> pd.DataFrame:
    """Metrics per pairing and value of ``switch``, each row from exactly one cell: the cell whose other switches
    have the baseline cell's values (:func:`simgin.reports.study.slice_cells`, as the study's figures), never pooled
    over the other switches (issue 32 item 2). Columns ``cell`` and ``cell_label`` name the cell, ``pairing`` the
    pairing, ``held`` the other switches' values (empty with one switch).

    A value whose cell plays the same games as an earlier value's (the switch has no effect
    there, ``Rules.overridden``) is not a separate result: it has no row of its own, and the
    earlier value's row names it in ``same_games_as``.
    """
    mode = mode_of(result["config"])
    cells = result["cells"]
    found = study.slice_cells(result, [switch])
    held = study.held_phrase(result, [switch])
    rows: list[dict[str, Any]] = []
    for pairing_index, pairing in enumerate(cells[0]["pairings"]):
        rows_by_game: dict[int, dict[str, Any]] = {}
        for value in result["grid"][switch]:
            index = found.get((value,))
            if index is None:
                continue
            game = same_game(index, cells[index])
            if game in rows_by_game:
                earlier = rows_by_game[game]
                earlier["same_games_as"] = ", ".join(
                    filter(None, [earlier["same_games_as"], value_label(switch, value)])
                )
                continue
            played = cells[game]["pairings"][pairing_index]
            row = {
                "switch": switch,
                "value": value,
                "label": value_label(switch, value),
                "cell": index,
                "cell_label": cells[index].get("label") or _cell_label(cells[index]),
                "held": held,
                "pairing": pairing_label(pairing["a"], pairing["b"]),
                "player": pairing["a"],
                "opponent": pairing["b"],
                "same_games_as": "",
            }
            row.update(group_metrics(played["tally"], mode, played))
            rows.append(row)
            rows_by_game[game] = row
    return pd.DataFrame(rows)


def _cell_label(cell: dict[str, Any]) -> str:
    return ", ".join(f"{key}={rule_text(value)}" for key, value in cell["settings"].items())


def sweep_cells_table(result: dict[str, Any]) -> pd.DataFrame:
    """Every distinct cell's summary rows with the cell's switch values as the first columns.

    A cell that repeats an earlier cell's game (``same_game_as``) is left out: see
    :func:`repeated_cells_note`.
    """
    rows = []
    for index, cell in enumerate(result["cells"]):
        if cell.get("same_game_as") is not None:
            continue
        for row in cell["summary"]:
            rows.append({"cell": index, **cell["settings"], **row})
    return pd.DataFrame(rows)


def repeated_cells_note(result: dict[str, Any]) -> str:
    """Which cells of a sweep repeat an earlier cell's game, and so are not shown as results of their own."""
    cells = result["cells"]

    def label(cell: dict[str, Any]) -> str:
        return ", ".join(f"{key}={rule_text(value)}" for key, value in cell["settings"].items())

    pairs = [
        f"{label(cell)} is {label(cells[int(cell['same_game_as'])])}"
        for cell in cells
        if cell.get("same_game_as") is not None
    ]
    if not pairs:
        return ""
    return (
        "Not shown, since they play the same game as an earlier cell (the switches that differ have no effect "
        "there): " + "; ".join(pairs) + "."
    )


def forfeit_records(result: dict[str, Any]) -> list[dict[str, Any]]:
    """Every forfeit a result lists (``--on-illegal forfeit``): of a match, tournament or compare,
    and of each distinct cell of a sweep (with the cell's switch values)."""
    if result.get("kind") == "sweep":
        return [
            {**cell["settings"], **record}
            for cell in result.get("cells") or []
            if cell.get("same_game_as") is None
            for pairing in cell.get("pairings") or []
            for record in pairing.get("forfeited") or []
        ]
    return list(result.get("forfeited") or [])


def forfeit_table(result: dict[str, Any]) -> pd.DataFrame:
    """One row per forfeit: who, where (game and deal, or hand), the hand seed, the illegal move and
    the ``simgin replay`` command that plays the hand again."""
    return pd.DataFrame(forfeit_records(result))


def _forfeits_shown(frame: pd.DataFrame) -> dict[str, str]:
    shown = {"player": "text", "opponent": "text"}
    shown |= {c: "int" for c in ("game", "deal", "hand") if c in frame.columns}
    return shown | {"hand_seed": "text", "error": "text", "replay": "text"}


def _summary_shown(mode: str) -> dict[str, str]:
    shown = {
        "player": "text",
        "opponent": "text",
        mode: "int",
        "win_rate": "pct",
        "win_rate_low": "pct",
        "win_rate_high": "pct",
        "points_per_hand": "f2",
        "net_points_per_hand": "f2",
        "gins_per_hand": "pct",
        "undercut_when_knocking": "pct",
        "mean_knocker_deadwood": "f2",
    }
    if mode == "games":
        shown["game_margin"] = "f1"
        shown["hands_per_game"] = "f2"
    return shown


#: The note of the knock-limit table.
LIMITS_NOTE = (
    "One block per cell and pairing (the CLI's by-up-card table): rates are shares of that block's hands at each "
    "knock limit; cell_points_per_hand and cell_mean_turns are over all the block's hands."
)


def result_tables(result: dict[str, Any]) -> dict[str, ReportTable]:
    """All tables of a result, by name (the CSV file stem)."""
    kind = result["kind"]
    config = result.get("config") or {}
    mode = mode_of(config)
    tables: dict[str, ReportTable] = {}

    def add(name: str, title: str, frame: pd.DataFrame, shown: dict[str, str] | None = None, note: str = "") -> None:
        tables[name] = ReportTable(name, title, frame.reset_index(drop=True), shown or {}, note)

    if kind == "tune":
        for name, title, frame, shown, note in tune_report.tune_tables(result):
            add(name, title, frame, shown, note)
        return tables
    if kind == "tune-rules":
        for name, title, frame, shown, note in tune_rules_report.tables(result):
            add(name, title, frame, shown, note)
        return tables

    if kind == "table-sweep":
        for name, title, frame, shown, note in table_sweep_report.tables(result):
            add(name, title, frame, shown, note)
        return tables
    if kind == "analysis":
        for name, title, frame, shown, note in analysis_report.tables(result):
            add(name, title, frame, shown, note)
        return tables
    if kind == "sweep":
        if study.is_study(result):  # the study's answer first (issue 23)
            for name, title, frame, shown, note in study.tables(result):
                add(name, title, frame, shown, note)
        cells = sweep_cells_table(result)
        shown = {switch: "text" for switch in result["grid"]} | _summary_shown(mode)
        shown.pop(mode, None)
        shown.pop("win_rate_low", None)
        shown.pop("win_rate_high", None)
        add("sweep_cells", "Every cell of the sweep", cells, shown, repeated_cells_note(result))
        for switch in result["grid"]:
            add(f"sweep_{switch}", f"Metrics by {switch}", sweep_group_table(result, switch))
        blocks: list[LimitBlock] = [
            (
                index,
                cell.get("label") or _cell_label(cell),
                bool(cell_rules(config, cell).get("oklahoma")),
                _tallies(cell["pairings"]),
            )
            for index, cell in enumerate(result["cells"])
            if cell.get("same_game_as") is None
        ]
        add("knock_limits", "Outcomes by knock limit, per cell and pairing", knock_limit_table(blocks), {}, LIMITS_NOTE)
        _add_forfeits(result, add)
        return tables

    table = (config.get("table") or "pairs") if kind == "match" else "pairs"
    if table != "pairs":
        match = result["match"]
        fair = 1 / 3 if table == "three" else 1 / 2
        entries = pd.DataFrame(match["summary"])
        entries.insert(0, "entry", entries["player" if table == "three" else "team"])
        entries["fair"] = fair
        add("table_entries", "Players" if table == "three" else "Teams", entries)
        seats = pd.DataFrame(match["seat_advantage"])
        seats["fair"] = fair
        add("seat_advantage", "Win rate by seat", seats)
        return tables

    players = list(result.get("players") or [])
    order = players
    if result.get("ratings"):
        ratings = pd.DataFrame(result["ratings"])
        ratings["anchor"] = ratings["player"] == result.get("anchor")
        ratings = ratings.sort_values("rating", ascending=False).reset_index(drop=True)
        order = list(ratings["player"]) + [p for p in players if p not in set(ratings["player"])]
        anchor = result.get("anchor") or "the mean"
        over = bootstrap_label(result.get("bootstrap"))
        shown = {"player": "text", "rating": "f1", "low": "f1", "high": "f1", "rank_low": "int", "rank_high": "int"}
        note = ""
        if "sweep" in ratings and ratings["sweep"].notna().any():
            shown["sweep"] = "text"
            note = (
                "A player that won or lost everything it played has no estimated rating: the prior of one drawn game "
                "per pairing sets it, and every bootstrap replicate repeats the sweep, so its interval is a bound."
            )
        add(
            "ratings",
            f"Ratings (Elo scale, {anchor} = 0, 95% bootstrap intervals over {over})",
            ratings,
            shown,
            note,
        )
    if result.get("pairwise"):
        pairwise = pd.DataFrame(result["pairwise"])
        shown = {"a": "text", "b": "text", "score": "f3", "low": "f3", "high": "f3", "p": "p", "p_holm": "p"}
        if "significant" in pairwise:
            shown["significant"] = "text"
        add(
            "pairwise",
            "Pairwise pair scores (Holm-corrected intervals and p-values)",
            pairwise,
            shown,
            " ".join(
                ["A pair score is a's share of points over duplicate deal pairs; 0.5 means equal."]
                + [note["note"] for note in result.get("rating_notes") or [] if isinstance(note, dict)]
            ),
        )
    if result.get("los"):
        los = pd.DataFrame(result["los"], index=players, columns=players)
        los.index.name = "player"
        add("los", "Likelihood of superiority (row above column, share of bootstrap replicates)", los.reset_index())
    if result.get("sprt"):
        sprt = result["sprt"]
        add("sprt_trajectory", "SPRT trajectory", pd.DataFrame(sprt.get("trajectory") or [], columns=["games", "llr"]))
        fields = ["decision", "games", "pairs", "llr", "lower", "upper", "elo", "elo_low", "elo_high", "los"]
        fields += ["model", "elo0", "elo1", "alpha", "beta"]
        frame = pd.DataFrame([{k: sprt.get(k) for k in fields} | {"pair_counts": str(sprt.get("counts"))}])
        add(
            "sprt",
            "Sequential test",
            frame,
            {
                "decision": "text",
                "games": "int",
                "pairs": "int",
                "llr": "f3",
                "lower": "f3",
                "upper": "f3",
                "elo": "f1",
                "elo_low": "f1",
                "elo_high": "f1",
                "los": "pct",
                "pair_counts": "text",
            },
        )
    luck = luck_table(result)
    if not luck.empty:
        add(
            "luck_adjusted",
            "Luck-adjusted results (plain and adjusted, from the same hands)",
            luck,
            {
                "a": "text",
                "b": "text",
                "figure": "text",
                "estimator": "text",
                "estimate": "f3",
                "low": "f3",
                "high": "f3",
                "variance_ratio": "f2",
            },
            LUCK_NOTE,
        )
    summary = pd.DataFrame(result.get("summary") or [])
    tallies = _tallies(result.get("pairings") or [])
    if not summary.empty:
        summary_shown = _summary_shown(mode)
        if config.get("on_illegal") == "forfeit" and "forfeits" in summary:
            summary_shown["forfeits"] = "int"
        add("summary", "Summary per pairing and player", summary, summary_shown)
        add("win_rates", "Win rates", win_rate_table(summary, mode, order))
        add("points_per_hand", "Points per hand", points_table(summary))
    if tallies:
        duplicate = duplicate_table(result["pairings"])
        if not duplicate.empty:
            add(
                "duplicate",
                "Duplicate deal pairs: paired analysis",
                duplicate,
                {
                    "label": "text",
                    "pairs": "int",
                    "pair_score": "f3",
                    "pair_score_low": "f3",
                    "pair_score_high": "f3",
                    "pair_margin": "f2",
                    "pair_margin_low": "f2",
                    "pair_margin_high": "f2",
                    "rho": "f2",
                    "fewer_games_needed": "f2",
                },
                "rho is the correlation of a pair's two legs; duplicate deals need 1/(1 + rho) times "
                "fewer games than independent ones for the same precision (docs/STATISTICS.md §3).",
            )
        add("outcomes", "Outcome mix per pairing", outcome_table(tallies))
        add(
            "knocks_by_deadwood",
            "Knocks and undercuts by the knocker's deadwood",
            deadwood_table(tallies, order, seat_unit(config)),
        )
        add("hand_length", "Hand length in turns", hand_length_table(tallies))
        rotation = str(_rules(config).get("dealer_rotation", "alternate"))
        add("seat_edge", "First-player and dealer edge", seat_edge_table(tallies, rotation, seat_unit(config)))
        rules = _rules(config)
        block: LimitBlock = (None, variant_name(rules), bool(rules.get("oklahoma")), tallies)
        add("knock_limits", "Outcomes by knock limit, per pairing", knock_limit_table([block]), {}, LIMITS_NOTE)
    _add_forfeits(result, add)
    return tables


def _add_forfeits(result: dict[str, Any], add: Any) -> None:
    """The table of forfeits, when the run had ``--on-illegal forfeit`` and a player forfeited."""
    frame = forfeit_table(result)
    if frame.empty:
        return
    add(
        "forfeits",
        "Forfeits: illegal moves that lost the player the game (or the hand)",
        frame,
        _forfeits_shown(frame),
        "Under --on-illegal forfeit an illegal move loses the game in progress (in a run of hands, the hand); "
        "each replay command plays that hand again, up to the illegal move. At most 1,000 per pairing are listed; "
        "the counts in the summary are complete.",
    )


def rule_text(value: Any) -> str:
    """A switch's value as ``--set`` takes it (``true``, not ``True``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


LUCK_NOTE = (
    "Each figure is the first-named player's (a), from the same hands two ways: 'plain' is the mean result; "
    "'luck-adjusted' subtracts from each hand the luck of its deal and stock draws, valued by a function fixed in "
    "advance (unbiased; docs/STATISTICS.md §13). Intervals are 95%, the deal pair the unit; the variance ratio "
    "says how many times fewer hands the adjusted figure needs for the same interval."
)


def luck_table(result: dict) -> pd.DataFrame:
    """The luck-adjusted figures of a match (``result['match']['luck_adjusted']``) or a tournament
    (``result['luck_adjusted']``, one per pairing): one row per pairing, figure and estimator."""
    match = result.get("match") or {}
    if match.get("luck_adjusted"):
        players = match.get("players") or result.get("players") or ["A", "B"]
        entries = [{"a": players[0], "b": players[1], **match["luck_adjusted"]}]
    else:
        entries = list(result.get("luck_adjusted") or [])
    rows = []
    for entry in entries:
        for figure in ("net_points_per_hand", "hands_won"):
            block = entry.get(figure)
            if not block:
                continue
            common = {"a": entry["a"], "b": entry["b"], "figure": figure}
            rows.append(common | {"estimator": "plain", "estimate": block["plain"], "low": block["plain_ci"][0],
                                  "high": block["plain_ci"][1], "variance_ratio": 1.0})  # fmt: skip
            rows.append(common | {"estimator": "luck-adjusted", "estimate": block["estimate"], "low": block["ci"][0],
                                  "high": block["ci"][1], "variance_ratio": block["variance_ratio"]})  # fmt: skip
    return pd.DataFrame(rows, columns=["a", "b", "figure", "estimator", "estimate", "low", "high", "variance_ratio"])

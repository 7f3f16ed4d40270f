"""Build a report from a run directory: result.json -> tidy tables -> figures -> one HTML file.

:func:`build_report` reads the ``result.json`` that ``simgin match``, ``tournament``,
``compare``, ``sweep``, ``tune`` and ``tune-rules`` leave in their ``--out`` directory (see
:mod:`simgin.running.results`), turns it into tidy tables (:func:`result_tables`), draws the figures the result has data
for (:func:`report_figures`) and writes:

- the HTML file, self-contained: every figure is embedded as an SVG data URI, so it works
  offline and can be mailed as one file;
- next to it, in ``<name>_files/``, each figure as PNG and SVG and each table as CSV.

Everything is computed from the result's tallies and summary rows; nothing is replayed.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from simgin.base import files as safe_files
from simgin.game.rules import Rules
from simgin.running.results import load_result

from . import (
    analysis as analysis_report,
    figures as F,
    study,
    table_sweep as table_sweep_report,
    tune as tune_report,
    tune_rules as tune_rules_report,
    variant_figures as V,
)
from .document import Report, ReportFigure, ReportTable
from .html import render_report
from .tables import (
    deadwood_table as deadwood_table,
    is_numeric_switch,
    knock_limit_table as knock_limit_table,
    mode_of,
    outcome_table as outcome_table,
    result_tables as result_tables,
    rule_text,
)


@dataclass
class ReportFiles:
    """The paths a report build wrote."""

    html: Path
    figures: list[Path]
    tables: list[Path]

    def to_dict(self) -> dict[str, Any]:
        return {
            "html": str(self.html),
            "figures": [str(p) for p in self.figures],
            "tables": [str(p) for p in self.tables],
        }


# -- figures ---------------------------------------------------------------------------------------


def _figure(name: str, title: str, table: str | None, build: Any, caption: Any, data: Any) -> ReportFigure:
    figure = build(data)
    return ReportFigure(name, title, figure, caption(data), table)


#: The figures drawn from one table each, in reading order: (figure, title, table, chart,
#: caption, whether the table has data for it).
_TABLE_FIGURES: tuple[tuple[str, str, str, Any, Any, Any], ...] = (
    ("ratings", "Ratings", "ratings", F.ratings_chart, F.ratings_caption, lambda t: len(t) >= 2),
    (
        "win_rates",
        "Win-rate matrix",
        "win_rates",
        F.win_rate_matrix,
        F.win_rate_caption,
        lambda t: t["win_rate"].notna().any(),
    ),
    ("outcomes", "Outcome mix", "outcomes", F.outcome_mix_chart, F.outcome_mix_caption, lambda t: t["hands"].sum() > 0),
    (
        "knock_deadwood",
        "Knock deadwood",
        "knocks_by_deadwood",
        F.knock_deadwood_chart,
        F.knock_deadwood_caption,
        lambda t: t["knocks"].sum() > 0,
    ),
    (
        "undercuts",
        "Undercuts",
        "knocks_by_deadwood",
        F.undercut_chart,
        F.undercut_caption,
        lambda t: t["knocks"].sum() > 0,
    ),
    (
        "hand_length",
        "Hand length",
        "hand_length",
        F.hand_length_chart,
        F.hand_length_caption,
        lambda t: t["hands"].sum() > 0,
    ),
    (
        "points_per_hand",
        "Points per hand",
        "points_per_hand",
        F.points_chart,
        F.points_caption,
        lambda t: not t.empty and t["points_per_hand"].notna().any(),
    ),
    ("seat_edge", "Seat edge", "seat_edge", F.seat_edge_chart, F.seat_edge_caption, lambda t: t["scored"].sum() > 0),
)


def report_figures(result: dict[str, Any], tables: dict[str, ReportTable]) -> list[ReportFigure]:
    """The figures a result has data for, in reading order."""

    def frame(name: str) -> pd.DataFrame | None:
        return tables[name].frame if name in tables else None

    made: list[ReportFigure] = []
    if result["kind"] == "tune":
        return [_figure(*entry, result) for entry in tune_report.TUNE_FIGURES]
    if result["kind"] == "tune-rules":
        return [_figure(*entry, result) for entry in tune_rules_report.FIGURES]
    if result["kind"] == "table-sweep":
        return [ReportFigure(*entry) for entry in table_sweep_report.figures(result)]
    if result["kind"] == "analysis":
        return [ReportFigure(*entry) for entry in analysis_report.figures(result)]
    entries = frame("table_entries")
    if entries is not None:
        made.append(
            _figure("table_wins", "Game wins", "table_entries", F.table_win_chart, F.table_win_caption, entries)
        )
        seats = frame("seat_advantage")
        made.append(
            _figure(
                "seat_advantage",
                "Seat advantage",
                "seat_advantage",
                F.seat_advantage_chart,
                F.seat_advantage_caption,
                seats,
            )
        )
        return made
    if result.get("sprt") and result["sprt"].get("trajectory"):
        made.append(_figure("sprt", "Sequential test", "sprt_trajectory", F.sprt_chart, F.sprt_caption, result))
    for name, title, table, chart, caption, has_data in _TABLE_FIGURES:
        data = frame(table)
        if data is not None and has_data(data):
            made.append(_figure(name, title, table, chart, caption, data))
    if result["kind"] == "sweep":
        if study.is_study(result):  # the study's answer first: one figure per switch, the differences, heat maps
            frames = {name: table.frame for name, table in tables.items()}
            made = [
                ReportFigure(name, title, figure, caption, table)
                for name, title, table, figure, caption in study.figures(result, frames)
            ] + made
        for switch, values in result["grid"].items():
            group = frame(f"sweep_{switch}")
            if group is not None and not group.empty:
                made += _switch_figures(switch, values, group)
    limits = frame("knock_limits")
    if limits is not None:
        blocks = V.knock_limit_blocks(limits)
        drawn = blocks[: V.MAX_KNOCK_LIMIT_FIGURES]
        for k, block in enumerate(drawn):
            more = len(blocks) - len(drawn) if k == len(drawn) - 1 else 0
            name = "knock_limits" if len(blocks) == 1 else f"knock_limits_{k + 1}"
            chart = V.knock_limit_chart(limits, block)
            made.append(
                ReportFigure(name, "Knock limit", chart, V.knock_limit_caption(limits, block, more), "knock_limits")
            )
    return made


#: At most this many pairings get a figure per swept switch; the last caption drawn says how many are left out.
MAX_PAIRING_FIGURES = 6


def _switch_figures(switch: str, values: list[Any], group: pd.DataFrame) -> list[ReportFigure]:
    """One figure per pairing over the values of ``switch`` (:func:`sweep_group_table`): a line chart for a numeric
    switch, else the variants chart; every pairing is shown (up to :data:`MAX_PAIRING_FIGURES`, the last caption
    says how many more the table has), never the first one only (issue 32 item 2)."""
    pairings = [rows for _, rows in group.groupby("pairing", sort=False) if len(rows) >= 2]
    drawn = pairings[:MAX_PAIRING_FIGURES]
    numeric = is_numeric_switch(values)
    made = []
    for k, rows in enumerate(drawn):
        rows = rows.reset_index(drop=True)
        suffix = f"_{k + 1}" if len(pairings) > 1 else ""
        chart, caption = (V.sweep_chart, V.sweep_caption) if numeric else (V.variant_chart, V.variant_caption)
        name, title = (
            (f"sweep_{switch}", f"Sweep: {switch}") if numeric else (f"variants_{switch}", f"Variants: {switch}")
        )
        text = caption(rows)
        if k == len(drawn) - 1 and len(pairings) > len(drawn):
            text += f" {len(pairings) - len(drawn)} more pairings are not drawn: sweep_{switch}.csv has them all."
        made.append(ReportFigure(name + suffix, title, chart(rows), text, f"sweep_{switch}"))
    return made


# -- the report ------------------------------------------------------------------------------------------


def _title(result: dict[str, Any]) -> str:
    kind = result["kind"]
    players = list(result.get("players") or [])
    if kind == "tune":
        return tune_report.title(result)
    if kind == "tune-rules":
        return tune_rules_report.title(result)
    if kind == "table-sweep":
        return table_sweep_report.title(result)
    if kind == "analysis":
        return analysis_report.title(result)
    if kind == "tournament":
        return f"Tournament: {', '.join(players)}"
    if kind == "sweep":
        return f"Sweep of {', '.join(result.get('grid') or {})}: {' vs '.join(players)}"
    if kind == "compare":
        return f"Sequential test: {' vs '.join(players)}"
    table = (result.get("config") or {}).get("table", "pairs")
    if table == "three":
        return f"Three-player games (V11): {', '.join(players)}"
    if table == "teams":
        return f"Partnership games (V12): {players[0]} + {players[1]} vs {players[2]} + {players[3]}"
    return f"Match: {' vs '.join(players)}"


def _facts(result: dict[str, Any]) -> list[tuple[str, str]]:
    if result["kind"] == "tune":
        return tune_report.facts(result)
    if result["kind"] == "tune-rules":
        return tune_rules_report.facts(result)
    if result["kind"] == "table-sweep":
        return table_sweep_report.facts(result)
    if result["kind"] == "analysis":
        return analysis_report.facts(result)
    config = result.get("config") or {}
    mode = mode_of(config)
    facts: list[tuple[str, str]] = [("players", ", ".join(result.get("players") or []))]
    if result["kind"] == "compare" and result.get("sprt"):
        sprt = result["sprt"]
        unit, h0, h1 = F.sprt_terms(sprt)
        most = sprt.get("max_hands") if unit == "hand" else sprt.get("max_games")
        facts.append((f"{unit}s", f"{int(sprt[unit + 's']):,} (at most {int(most or 0):,})"))
        model = "Gaussian" if sprt.get("points0") is not None or sprt.get("estimator") == "luck-adjusted" else ""
        facts.append(("hypotheses", f"H0 {h0}, H1 {h1} ({model or sprt.get('model', '')} model)"))
        if sprt.get("estimator") == "luck-adjusted":
            facts.append(("estimator", "luck-adjusted (docs/STATISTICS.md §13), the plain figures beside"))
        facts.append(("error rates", f"alpha {sprt['alpha']:g}, beta {sprt['beta']:g}"))
    elif config.get(mode):
        per = {"sweep": "per cell"}.get(
            result["kind"], "per pairing" if config.get("table", "pairs") == "pairs" else ""
        )
        facts.append((mode, f"{int(config[mode]):,} {per}"))
    if result["kind"] == "sweep":
        for switch, values in (result.get("grid") or {}).items():
            facts.append((f"grid: {switch}", ", ".join(str(v) for v in values)))
        if study.is_study(result):
            facts.append(study.headline(result))
    table = config.get("table", "pairs")
    if table != "pairs":
        seatings = "every seating of the players" if config.get("duplicate") else "one seating"
        facts.append(("deals", f"{seatings} on each game seed"))
    else:
        facts.append(
            ("deals", "duplicate (each deal played twice, seats swapped)" if config.get("duplicate") else "single")
        )
    facts.append(("seed", str(config.get("seed", "?"))))
    if config.get("on_illegal") == "forfeit":
        count = sum(
            float(p["tally"].get(f"forfeits_{side}", 0) or 0) for p in _all_pairings(result) for side in ("a", "b")
        )
        facts.append(("illegal moves", f"forfeit the game (or the hand): {int(count):,} forfeits"))
    defaults = Rules().to_dict()
    rules = config.get("rules") or {}
    changed = [f"{k}={rule_text(v)}" for k, v in rules.items() if defaults.get(k) != v]
    facts.append(("rules", ", ".join(changed) if changed else "standard (the rule book's defaults)"))
    overridden = result.get("overridden") or {}
    if overridden:
        shown = "; ".join(f"{key}={rule_text(rules.get(key))} ({why})" for key, why in overridden.items())
        facts.append(("set without effect", shown))
    facts.append(("simgin", str(result.get("simgin_version", "?"))))
    return facts


def _all_pairings(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The pairings of a result, those of every distinct sweep cell included."""
    if result.get("kind") == "sweep":
        cells = [cell for cell in result.get("cells") or [] if cell.get("same_game_as") is None]
        return [pairing for cell in cells for pairing in cell.get("pairings") or []]
    return list(result.get("pairings") or [])


def build(result: dict[str, Any], files_dir: str = "report_files", png: bool = True) -> Report:
    """The report of a result dict: tables, drawn figures and header facts (nothing written).

    ``png``: whether the HTML links a PNG file of each figure (each figure's PNG is printed when first asked for).
    """
    tables = result_tables(result)
    figures = report_figures(result, tables)
    for figure in figures:
        figure.render()
    return Report(result["kind"], _title(result), _facts(result), figures, list(tables.values()), files_dir, png)


def write_report(directory: str | Path, output_html: str | Path | None = None, *, png: bool = True) -> ReportFiles:
    """Build the report of run directory ``directory`` and write the HTML with its figure and table files.

    ``output_html`` defaults to ``directory/report.html``; figures (SVG, and PNG unless ``png`` is False) and
    tables (CSV) go to ``<output stem>_files/`` beside it. The HTML embeds the SVG; without PNG files the report is
    written in about two thirds of the time.
    """
    if not isinstance(png, bool):
        raise TypeError(f"png={png!r}: give True or False")
    output = Path(output_html) if output_html is not None else Path(directory) / "report.html"
    _refuse_special_output(output)
    files = output.with_name(output.stem + "_files")
    root, html_name = _output_root(directory, output)
    safe_files.refuse_links(root, html_name.with_name(files.name))
    result = load_result(directory)
    try:
        report = build(result, files.name, png)
        html = render_report(report)
        for figure in report.figures if png else ():
            figure.render_png()
    except Exception as error:  # any content that the checks of load_result let through: one line naming the file
        raise ValueError(
            f"{Path(directory) / 'result.json'}: unexpected content ({type(error).__name__}: {error}); "
            "rerun the command with this simgin version"
        ) from None
    folder = html_name.with_name(files.name)
    written_figures: list[Path] = []
    for figure in report.figures:
        for suffix in (".png", ".svg") if png else (".svg",):
            data = figure.png if suffix == ".png" else figure.svg
            safe_files.write_file(root, folder / f"{figure.name}{suffix}", data)
            written_figures.append(files / f"{figure.name}{suffix}")
    written_tables: list[Path] = []
    for table in report.tables:
        safe_files.write_file(root, folder / f"{table.name}.csv", safe_files.frame_writer(table.frame, "csv"))
        written_tables.append(files / f"{table.name}.csv")
    safe_files.write_file(root, html_name, html)
    for figure in report.figures:
        figure.figure.clear()
    return ReportFiles(output, written_figures, written_tables)


def _refuse_special_output(output: Path) -> None:
    """Refuse an ``-o`` that exists and is not a regular file (a device, a FIFO, a socket, a directory), before
    anything is written: the report is written to a temporary file renamed over the target, and a rename over
    ``/dev/null`` or a FIFO would replace it with an HTML file (issue 32 item 22). A regular file or a new path is
    replaced; so is a link (the link itself, never what it points at: ``-o`` on a link to ``/dev/null`` leaves
    ``/dev/null`` alone).
    """
    try:
        mode = os.lstat(output).st_mode
    except FileNotFoundError:
        return
    except OSError:
        return  # unreadable or not a directory on the way: the write reports it with its own reason
    if stat.S_ISREG(mode) or stat.S_ISLNK(mode):
        return  # a link is replaced by the file, never written through (issue 25, D16)
    kind = (
        "a directory"
        if stat.S_ISDIR(mode)
        else "a FIFO"
        if stat.S_ISFIFO(mode)
        else "a device"
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
        else "a socket"
        if stat.S_ISSOCK(mode)
        else "not a regular file"
    )
    raise ValueError(
        f"-o {output} is {kind}; the report is written as a new file that replaces only a regular file: "
        "give a new path or a regular .html file"
    )


def _output_root(directory: str | Path, output: Path) -> tuple[Path, Path]:
    """Where a report is written: the directory it is written under (the run directory when the output lies in it,
    else the output's own folder) and the output's path below that, checked not to be one of the run's own files.

    Nothing below that directory is followed if it is a link (:mod:`~simgin.base.files`), and ``-o DIR/run.json``
    or any other file or folder a run keeps there (``chunks/``, ``result.json``...) is refused: the report would replace
    the run's records (issue 25, D16).
    """
    base = Path(directory)
    relative = safe_files.inside(output, base)
    if relative is None:  # the same place named through a link (``-o alias/run.json`` with ``alias -> DIR``)?
        real = Path(os.path.realpath(output.parent)) / output.name
        relative = safe_files.inside(real, os.path.realpath(base))
    if relative is None:
        return output.parent, Path(output.name)
    folder = relative.with_name(relative.stem + "_files")
    for own in safe_files.OUTPUT_ENTRIES:
        for path in (relative, folder):
            if path.parts[0] == own or re.fullmatch(r"oklahoma_cell\d+\.csv", path.parts[0]):
                raise ValueError(
                    f"-o {output}: {base / path.parts[0]} is one of the run's own files; "
                    f"write the report elsewhere (default: {base / 'report.html'})"
                )
    return base, relative


def build_report(directory: str | Path, output_html: str | Path | None = None) -> Path:
    """Write the report of run directory ``directory`` to ``output_html``; returns the HTML's path.

    See :func:`write_report` for the files written beside it.
    """
    return write_report(directory, output_html).html


__all__ = [
    "Report",
    "ReportFigure",
    "ReportFiles",
    "ReportTable",
    "build",
    "build_report",
    "report_figures",
    "result_tables",
    "write_report",
]

"""The report of a table sweep (``simgin sweep --table three`` or ``--team A,B --team C,D``; issue 32 item 29).

Every function takes the ``result.json`` dict of :class:`simgin.studies.table_sweep.TableSweepResult` (``kind``
``"table-sweep"``). :func:`tables` gives the cells (one row per cell and player or team, and one for the
table) and the differences from the baseline; :func:`figures` draws each player's (team's) share of games won
in every cell, with its interval, and the table's hands per game. Every figure names the cells and the
players it shows; nothing is pooled over cells.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from simgin.statistics.formats import percent

from .figure_style import PALETTE, WIDTH, styled

TABLE_NAMES = {"three": "three-player table (V11)", "teams": "partnership table (V12)"}


def cells_table(result: dict[str, Any]) -> pd.DataFrame:
    """One row per cell and side (player or team), and one per cell for the table."""
    rows = []
    for cell in result["cells"]:
        for row in cell["rows"]:
            rows.append({"cell": cell["label"], **row, "units": cell["units"], "same_game_as": cell["same_game_as"]})
    return pd.DataFrame(rows)


def differences_table(result: dict[str, Any]) -> pd.DataFrame:
    return pd.DataFrame(result["differences"])


def tables(result: dict[str, Any]) -> list[tuple[str, str, pd.DataFrame, dict[str, str], str]]:
    """(name, title, frame, shown columns with formats, note) of every table of a table-sweep report."""
    cells = cells_table(result)
    side_metric = "net_per_game" if result["table"] == "three" else "margin_per_game"
    sides = cells[cells["side"] != "table"]
    table_rows = cells[cells["side"] == "table"]
    unit = result["unit"]
    return [
        (
            "table_sweep_sides",
            "Each player's (team's) results in every cell",
            sides,
            {
                "cell": "text",
                "side": "text",
                "win_rate": "pct",
                "win_rate_low": "pct",
                "win_rate_high": "pct",
                side_metric: "f1",
                f"{side_metric}_low": "f1",
                f"{side_metric}_high": "f1",
                "units": "int",
            },
            f"95% intervals over units ({unit}).",
        ),
        (
            "table_sweep_table",
            "The table in every cell",
            table_rows,
            {
                "cell": "text",
                "hands_per_game": "f2",
                "gin_rate": "pct",
                "undercut_rate": "pct",
                "dead_rate": "pct",
                "knock_rate": "pct",
            },
            f"95% intervals over units ({unit}) are in the CSV file.",
        ),
        (
            "table_sweep_differences",
            f"Every cell against the baseline ({result['baseline']})",
            differences_table(result),
            {
                "cell": "text",
                "side": "text",
                "metric": "text",
                "difference": "f3",
                "ci_holm_low": "f3",
                "ci_holm_high": "f3",
                "p_holm": "f3",
                "significant": "text",
            },
            "Paired unit by unit over the shared game seeds; Holm's correction over every comparison, and "
            "Holm-consistent intervals (each at the level Holm tests it at), so an interval excludes 0 exactly when "
            "the difference is significant.",
        ),
    ]


@styled
def win_chart(result: dict[str, Any]) -> Figure:
    """Each side's share of games won per cell, with its 95% interval; the dashed line is a fair share."""
    cells = cells_table(result)
    sides = cells[cells["side"] != "table"]
    labels = [cell["label"] for cell in result["cells"]]
    names = list(dict.fromkeys(sides["side"]))
    fig = Figure(figsize=(WIDTH, 0.5 + 0.45 * len(labels) * len(names) / 2 + 1.5), layout="constrained")
    ax = fig.add_subplot()
    height = 0.8 / len(names)
    for k, name in enumerate(names):
        rows = sides[sides["side"] == name].set_index("cell").loc[labels]
        y = np.arange(len(labels)) + k * height
        value = 100 * rows["win_rate"].to_numpy(float)
        errors = np.vstack(
            [
                np.nan_to_num(value - 100 * rows["win_rate_low"].to_numpy(float)),
                np.nan_to_num(100 * rows["win_rate_high"].to_numpy(float) - value),
            ]
        )
        ax.barh(y, value, height=height, xerr=errors, color=PALETTE[k % len(PALETTE)], label=name, capsize=2)
    fair = 100 / len(names)
    ax.axvline(fair, color="#888888", linewidth=0.8, linestyle="--")
    ax.set_yticks(np.arange(len(labels)) + 0.4 - height / 2, labels=labels)
    ax.invert_yaxis()
    ax.set_xlabel("games won (%), 95% interval over units")
    ax.set_title(f"Games won at the {TABLE_NAMES[result['table']]}, every cell")
    ax.legend(loc="lower right", fontsize="small")
    return fig


def win_caption(result: dict[str, Any]) -> str:
    cells = cells_table(result)
    sides = cells[cells["side"] != "table"]
    best = sides.loc[sides["win_rate"].idxmax()]
    worst = sides.loc[sides["win_rate"].idxmin()]
    return (
        f"Every cell and every {'player' if result['table'] == 'three' else 'team'}, each cell on the same "
        f"{result['games']:,} games ({result['unit']}). Highest: {best['side']} under {best['cell']}, "
        f"{percent(best['win_rate'])}; lowest: {worst['side']} under {worst['cell']}, {percent(worst['win_rate'])}."
    )


def figures(result: dict[str, Any]) -> list[tuple[str, str, Figure, str, str]]:
    """(name, title, figure, caption, table) of every figure."""
    return [
        ("table_sweep_wins", "Games won, cell by cell", win_chart(result), win_caption(result), "table_sweep_sides")
    ]


def title(result: dict[str, Any]) -> str:
    sides = " vs ".join(
        result["players"]
        if result["table"] == "three"
        else [f"{a} + {b}" for a, b in (result["players"][:2], result["players"][2:])]
    )
    return f"Sweep of {', '.join(result['grid'])} at a {TABLE_NAMES[result['table']]}: {sides}"


def facts(result: dict[str, Any]) -> list[tuple[str, str]]:
    significant = sum(1 for d in result["differences"] if d["significant"])
    out = [
        ("players", ", ".join(result["players"])),
        ("table", TABLE_NAMES[result["table"]]),
        ("games", f"{result['games']:,} per cell, {result['unit']} as the unit"),
    ]
    for switch, values in result["grid"].items():
        out.append((f"grid: {switch}", ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in values)))
    out += [
        ("baseline", result["baseline"]),
        ("differences", f"{significant} of {len(result['differences'])} significant after Holm"),
        ("seed", str(result["seed"])),
        ("simgin", str(result.get("simgin_version", "?"))),
    ]
    return out

"""The report of a ``simgin tune`` directory: the search, each parameter's trace and the final comparison.

Every function takes the ``result.json`` dict that :func:`simgin.studies.tune.tune` writes
(``kind`` ``"tune"``: the contract's keys plus ``settings``, ``history``, ``generations``,
``final`` and ``difference``). :func:`tune_tables` gives the tidy tables (CSV files of
the report); each figure function has a caption function next to it that states the
figure's finding in numbers, as in :mod:`simgin.reports.figures`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from simgin.statistics.formats import finite, p_value, percent, percent_interval

from .figure_style import PALETTE, WIDTH, signed, styled
from .luck_text import search_luck_text

PHASE_COLORS = {"search": PALETTE[0], "select": PALETTE[1], "final": PALETTE[2]}
PHASE_LABELS = {"search": "search", "select": "finalists replayed", "final": "final measurement"}


def _games(result: dict[str, Any]) -> bool:
    return result.get("unit", "games") == "games"


def _score_text(value: Any, result: dict[str, Any]) -> str:
    return percent(value) if _games(result) else signed(value, 2)


def _interval_text(low: Any, high: Any, result: dict[str, Any]) -> str:
    if _games(result):
        return percent_interval(low, high)
    if not (finite(low) and finite(high)):
        return ""
    return f"({low:+.2f} to {high:+.2f})"


def _score_label(result: dict[str, Any]) -> str:
    return "games won against the pool (%)" if _games(result) else "net points per hand against the pool"


def _scale(result: dict[str, Any]) -> float:
    return 100.0 if _games(result) else 1.0


def _value(value: Any) -> str:
    value = float(value)
    return str(int(value)) if value.is_integer() else f"{value:g}"


def dimensions(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The tuned parameters with their search bounds: ``name``, ``low``, ``high``, ``integer``."""
    return list(result["settings"]["dimensions"])


# -- tables ---------------------------------------------------------------------------------------------


def evaluation_table(result: dict[str, Any]) -> pd.DataFrame:
    """One row per evaluation in play order: phase, generation, score with its interval, sample, spec, values."""
    names = [d["name"] for d in dimensions(result)]
    unit = result.get("unit", "games")
    rows = []
    for number, row in enumerate(result["history"]):
        entry: dict[str, Any] = {
            "evaluation": number,
            "phase": row["phase"],
            "generation": row["generation"],
            "score": row["score"],
            "score_low": row["score_low"],
            "score_high": row["score_high"],
            unit: 2 * row["pairs"],
            "spec": row["spec"],
        }
        entry.update({name: row["values"].get(name) for name in names})
        rows.append(entry)
    return pd.DataFrame(rows)


def generation_table(result: dict[str, Any]) -> pd.DataFrame:
    """Per search generation: sample, step size, the CMA-ES mean after it, and its candidates' scores."""
    names = [d["name"] for d in dimensions(result)]
    history = [row for row in result["history"] if row["phase"] == "search"]
    rows = []
    for generation in result["generations"]:
        scores = [row["score"] for row in history if row["generation"] == generation["generation"]]
        entry = {
            "generation": generation["generation"],
            "pairs": generation["pairs"],
            "sigma": generation["sigma"],
            "best_score": max(scores) if scores else math.nan,
            "mean_score": float(np.mean(scores)) if scores else math.nan,
        }
        entry.update({f"mean_{name}": generation["mean"].get(name) for name in names})
        rows.append(entry)
    return pd.DataFrame(rows)


def parameter_table(result: dict[str, Any]) -> pd.DataFrame:
    """Every tuned parameter: its search bounds, start value and tuned value."""
    return pd.DataFrame(
        [
            {
                "parameter": d["name"],
                "low": d["low"],
                "high": d["high"],
                "integer": d["integer"],
                "start": result["start_parameters"][d["name"]],
                "tuned": result["parameters"][d["name"]],
            }
            for d in dimensions(result)
        ]
    )


def final_table(result: dict[str, Any]) -> pd.DataFrame:
    """The final measurement: tuned and start, over the pool and against each opponent, with 95% intervals."""
    rows = []
    entries = result["final"]
    if len(entries) == 1:  # the tuned spec is the start: one measurement stands for both
        entries = [entries[0], {**entries[0], "candidate": "start"}]
    for entry in entries:
        base = {"candidate": entry["candidate"], "spec": entry["spec"], "units": 2 * entry["pairs"]}
        rows.append(
            base
            | {
                "opponent": "pool" if len(result["against"]) > 1 else result["against"][0],
                "score": entry["score"],
                "score_low": entry["score_low"],
                "score_high": entry["score_high"],
            }
        )
        if len(result["against"]) > 1:
            for opponent in entry["per_opponent"]:
                rows.append(
                    base
                    | {
                        "opponent": opponent["opponent"],
                        "score": opponent["score"],
                        "score_low": opponent["score_low"],
                        "score_high": opponent["score_high"],
                    }
                )
    return pd.DataFrame(rows)


def tune_tables(result: dict[str, Any]) -> list[tuple[str, str, pd.DataFrame, dict[str, str], str]]:
    """(name, title, frame, shown columns with formats, note) of every table of a tune report."""
    score_format = "pct" if _games(result) else "f2"
    difference = result["difference"]
    comparison = final_table(result)
    note = (
        f"Paired difference tuned - start: {_difference_text(difference, result)}, p = {p_value(result['p_value'])} "
        "(two-sided; duplicate deal pairs, batch means over chunks)."
    )
    return [
        (
            "tune_final",
            "Final measurement on fresh deals",
            comparison,
            {
                "candidate": "text",
                "opponent": "text",
                "score": score_format,
                "score_low": score_format,
                "score_high": score_format,
                "units": "int",
            },
            note,
        ),
        (
            "tune_parameters",
            "Tuned parameters",
            parameter_table(result),
            {"parameter": "text", "low": "f2", "high": "f2", "start": "f3", "tuned": "f3"},
            "",
        ),
        ("tune_generations", "Search generations", generation_table(result), {}, ""),
        ("tune_evaluations", "Every evaluation", evaluation_table(result), {}, ""),
    ]


def _difference_text(difference: dict[str, Any], result: dict[str, Any]) -> str:
    scale = _scale(result)
    unit = " percentage points" if _games(result) else " points per hand"
    low, high = difference.get("low"), difference.get("high")
    digits = 1 if _games(result) else 2
    interval = f" ({scale * low:+.{digits}f} to {scale * high:+.{digits}f})" if finite(low) and finite(high) else ""
    return f"{scale * difference['difference']:+.{digits}f}{unit}{interval}"


# -- figures -----------------------------------------------------------------------------------------------


@styled
def search_chart(result: dict[str, Any]) -> Figure:
    """Each evaluation's score with its 95% interval, in play order: the search (by generation), the
    finalists replayed on fresh deals, and the final measurement; the mean score of each generation as a line."""
    table = evaluation_table(result)
    scale = _scale(result)
    fig = Figure(figsize=(WIDTH, 4.2), layout="constrained")
    ax = fig.add_subplot()
    for phase, rows in table.groupby("phase", sort=False):
        x = rows["evaluation"].to_numpy(float)
        y = scale * rows["score"].to_numpy(float)
        low = scale * rows["score_low"].to_numpy(float)
        high = scale * rows["score_high"].to_numpy(float)
        errors = np.vstack([np.nan_to_num(y - low), np.nan_to_num(high - y)])
        ax.errorbar(
            x,
            y,
            yerr=errors,
            fmt="o",
            markersize=3.5,
            elinewidth=0.8,
            alpha=0.85,
            color=PHASE_COLORS[str(phase)],
            label=PHASE_LABELS[str(phase)],
        )
    search = table[table["phase"] == "search"]
    if not search.empty:
        grouped = search.groupby("generation")
        ax.plot(
            grouped["evaluation"].mean().to_numpy(float),
            scale * grouped["score"].mean().to_numpy(float),
            color="#333333",
            linewidth=1.2,
            label="generation mean",
        )
    if _games(result):
        ax.axhline(50, color="#888888", linewidth=0.8, linestyle="--")
    ax.set_xlabel("evaluation (play order)")
    ax.set_ylabel(_score_label(result))
    pool = ", ".join(result["against"])
    ax.set_title(f"Search: {result['strategy']} against {pool} (95% intervals)")
    fig.legend(loc="outside lower center", ncol=4)
    return fig


def search_caption(result: dict[str, Any]) -> str:
    """How the generation means moved, the best search score and where the finalists landed."""
    table = evaluation_table(result)
    search = table[table["phase"] == "search"]
    select = table[table["phase"] == "select"]
    means = search.groupby("generation")["score"].mean()
    best = search.loc[search["score"].idxmax()]
    sentence = (
        f"{_plural(len(search), 'evaluation')} in {_plural(len(means), 'generation')}: the generation mean went from "
        f"{_score_text(means.iloc[0], result)} to {_score_text(means.iloc[-1], result)}; the best search score, "
        f"{_score_text(best['score'], result)} {_interval_text(best['score_low'], best['score_high'], result)}, "
        f"came in generation {int(best['generation'])}"
    )
    if not select.empty:
        top = select.loc[select["score"].idxmax()]
        sentence += (
            f"; replayed on fresh deals, the {len(select)} finalists scored "
            f"{_score_text(select['score'].min(), result)} to {_score_text(top['score'], result)}"
        )
    return sentence.replace("  ", " ") + "."


@styled
def parameter_chart(result: dict[str, Any]) -> Figure:
    """One panel per tuned parameter: each search candidate's value by evaluation, the CMA-ES mean after each
    generation, the start (dotted) and the tuned value (dashed), inside the search bounds."""
    dims = dimensions(result)
    table = evaluation_table(result)
    search = table[table["phase"] == "search"]
    generations = pd.DataFrame(result["generations"])
    columns = 2 if len(dims) > 1 else 1
    rows = math.ceil(len(dims) / columns)
    fig = Figure(figsize=(WIDTH, 2.3 * rows + 0.6), layout="constrained")
    axes = np.atleast_1d(fig.subplots(rows, columns, sharex=True, squeeze=False)).ravel()
    ends = search.groupby("generation")["evaluation"].max()
    for ax, d in zip(axes, dims, strict=False):
        name = d["name"]
        ax.scatter(search["evaluation"], search[name], s=9, color=PALETTE[0], alpha=0.6, label="candidate")
        if not generations.empty:
            means = [m[name] for m in generations["mean"]]
            x = [ends.get(g, np.nan) for g in generations["generation"]]
            ax.plot(x, means, color="#333333", linewidth=1.2, marker=".", label="CMA-ES mean")
        ax.axhline(float(result["start_parameters"][name]), color=PALETTE[3], linestyle=":", label="start")
        ax.axhline(float(result["parameters"][name]), color=PALETTE[2], linestyle="--", label="tuned")
        span = d["high"] - d["low"]
        ax.set_ylim(d["low"] - 0.05 * span, d["high"] + 0.05 * span)
        ax.set_title(f"{name} ({_value(d['low'])}..{_value(d['high'])})", fontsize=10)
    for ax in axes[len(dims) :]:
        ax.set_visible(False)
    for ax in axes[max(len(dims) - columns, 0) : len(dims)]:
        ax.set_xlabel("evaluation")
        ax.tick_params(labelbottom=True)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=4)
    fig.suptitle(f"Parameter traces: {result['strategy']}")
    return fig


def parameter_caption(result: dict[str, Any]) -> str:
    """Start and tuned value of each parameter, and which moved most as a share of its range."""
    moves = []
    for d in dimensions(result):
        start, tuned = float(result["start_parameters"][d["name"]]), float(result["parameters"][d["name"]])
        moves.append((abs(tuned - start) / (d["high"] - d["low"]), d["name"], start, tuned))
    listed = ", ".join(f"{name} {_value(start)} → {_value(tuned)}" for _, name, start, tuned in moves)
    share, name, start, tuned = max(moves)
    if share == 0:
        return f"The tuned values equal the start ({listed}): no finalist beat the start on fresh deals."
    return f"From start to tuned: {listed}; {name} moved most, by {100 * share:.0f}% of its search range."


@styled
def final_chart(result: dict[str, Any]) -> Figure:
    """The final measurement: tuned and start with 95% intervals on the same fresh deals, over the pool and
    against each opponent."""
    table = final_table(result)
    scale = _scale(result)
    opponents = list(dict.fromkeys(table["opponent"]))
    fig = Figure(figsize=(WIDTH, 1.2 + 0.9 * len(opponents)), layout="constrained")
    ax = fig.add_subplot()
    height = 0.36
    for offset, (candidate, color) in enumerate((("tuned", PALETTE[2]), ("start", PALETTE[3]))):
        rows = table[table["candidate"] == candidate].set_index("opponent").loc[opponents]
        y = np.arange(len(opponents)) + (offset - 0.5) * height
        score = scale * rows["score"].to_numpy(float)
        low = scale * rows["score_low"].to_numpy(float)
        high = scale * rows["score_high"].to_numpy(float)
        errors = np.vstack([np.nan_to_num(score - low), np.nan_to_num(high - score)])
        ax.barh(y, score, height=height, color=color, alpha=0.85, label=candidate, xerr=errors, capsize=3)
        for yy, value, top in zip(y, rows["score"].to_numpy(float), np.fmax(high, score), strict=True):
            ax.text(top, yy, f"  {_score_text(value, result)}", va="center", fontsize=9)
    if _games(result):
        ax.axvline(50, color="#888888", linewidth=0.8, linestyle="--")
        ax.set_xlim(0, 100)
    else:
        ax.axvline(0, color="#888888", linewidth=0.8)
    ax.set_yticks(range(len(opponents)), labels=[f"against {o}" if o != "pool" else "pool mean" for o in opponents])
    ax.invert_yaxis()
    ax.set_xlabel(_score_label(result).replace(" against the pool", ""))
    units = int(table["units"].iloc[0])
    unit = "games" if _games(result) else "hands"
    ax.set_title(
        f"Final measurement: {units:,} fresh {unit} per candidate and opponent (95% intervals)\n"
        f"paired difference {_difference_text(result['difference'], result)}, p = {p_value(result['p_value'])}"
    )
    fig.legend(loc="outside lower center", ncol=2)
    return fig


def final_caption(result: dict[str, Any]) -> str:
    """Tuned against start on the fresh deals, with the paired difference and its p-value."""
    table = final_table(result)
    units = int(table["units"].iloc[0])
    unit = "games" if _games(result) else "hands"
    pool = " and ".join(result["against"])
    verb = "wins" if _games(result) else "scores"
    tail = " of games" if _games(result) else " net points per hand"
    return (
        f"On {units:,} fresh {unit} per candidate against {pool}, never used by the search, the tuned spec {verb} "
        f"{_score_text(result['score'], result)} {_interval_text(*result['score_ci'], result)}{tail} and the start "
        f"{_score_text(result['start_score'], result)} {_interval_text(*result['start_score_ci'], result)}; the paired "
        f"difference is {_difference_text(result['difference'], result)}, p = {p_value(result['p_value'])}."
    ).replace("  ", " ")


#: The figures of a tune report, in reading order: (figure, title, table, chart, caption).
TUNE_FIGURES = (
    ("tune_final", "Final comparison", "tune_final", final_chart, final_caption),
    ("tune_search", "Search", "tune_evaluations", search_chart, search_caption),
    ("tune_parameters", "Parameter traces", "tune_evaluations", parameter_chart, parameter_caption),
)


def _plural(count: int, word: str) -> str:
    return f"{count:,} {word if count == 1 else word + 's'}"


def _kept_text(result: dict[str, Any]) -> str:
    """The result spec; when the tuned candidate scored lower than the start on the final deals, says so."""
    if not result.get("kept_start"):
        return str(result["spec"])
    return (
        f"{result['spec']} (the start, kept: the tuned candidate {result.get('tuned_spec', '')} scored lower on the "
        "fresh deals of the final measurement)"
    )


def title(result: dict[str, Any]) -> str:
    return f"Tune: {result['strategy']} against {', '.join(result['against'])}"


def facts(result: dict[str, Any]) -> list[tuple[str, str]]:
    """The report's header facts of a tune."""
    settings = result["settings"]
    unit = result.get("unit", "games")
    defaults: dict[str, Any] = {}
    from simgin.game.rules import Rules

    defaults = Rules().to_dict()
    changed = [
        f"{key}={str(value).lower() if isinstance(value, bool) else value}"
        for key, value in result["rules"].items()
        if defaults.get(key) != value
    ]
    generations = len(result["generations"])
    return [
        ("strategy", result["strategy"]),
        ("against", ", ".join(result["against"])),
        ("tuned spec", _kept_text(result)),
        ("parameters", ", ".join(d["name"] for d in dimensions(result))),
        (
            "search",
            f"{_plural(result['evaluations'], 'evaluation')} in {_plural(generations, 'generation')} "
            f"of {settings['popsize']}, "
            f"{settings['count']:,} {unit} per opponent at first, growing to twice that",
        ),
        ("final", f"{settings['final']:,} fresh {unit} per candidate and opponent"),
        (
            "played",
            f"{int(result['games']):,} {unit}; {result['timing']['seconds']:.0f} s "
            f"({result['timing'].get('evaluations_resumed', 0)} evaluations read back from an earlier run)",
        ),
        ("method", str(result.get("method", ""))),
        *(
            [
                (
                    "estimator",
                    "every score is luck-adjusted net points per hand (docs/STATISTICS.md §13), plain beside: "
                    + search_luck_text(result, "tuned"),
                )
            ]
            if result.get("luck_adjusted")
            else []
        ),
        ("seed", str(settings["seed"])),
        ("rules", ", ".join(changed) if changed else "standard (the rule book's defaults)"),
        ("simgin", str(result.get("simgin_version", "?"))),
    ]

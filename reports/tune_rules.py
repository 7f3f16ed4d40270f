"""The report of a ``simgin tune-rules`` directory: the search path and the final comparison.

Every function takes the ``result.json`` dict that :func:`simgin.studies.tune_rules.tune_rules`
writes (``kind`` ``"tune-rules"``: the JSON keys plus ``settings``, ``trials`` and ``final``).
:func:`tables` gives the tidy tables (CSV files of the report); each figure function has a
caption function next to it that states the figure's finding in numbers, as
:mod:`simgin.reports.tune` does for ``simgin tune``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from simgin.statistics.formats import finite, p_value, percent

from .figure_style import PALETTE, WIDTH, styled
from .luck_text import search_luck_text


def _objective(result: dict[str, Any]) -> tuple[str, float | None]:
    name, _, target = str(result["objective"]).partition("=")
    return name, (float(target) if target else (0.5 if name == "balance" else None))


def _scale(result: dict[str, Any]) -> float:
    return 1.0 if _objective(result)[0] == "length" else 100.0


def _score_text(value: Any, result: dict[str, Any]) -> str:
    if not finite(value):
        return "n/a"
    name, target = _objective(result)
    if name == "skill":
        return percent(value)
    if name == "balance":
        return f"{100 * value:.1f} points from 50%"
    return f"{value:.2f} hands from {target:g}"


def _interval_text(ci: Any, result: dict[str, Any]) -> str:
    if not ci or not (finite(ci[0]) and finite(ci[1])):
        return ""
    scale = _scale(result)
    digits = 2 if scale == 1 else 1
    return f"(95% CI {scale * ci[0]:.{digits}f} to {scale * ci[1]:.{digits}f})"


def _score_label(result: dict[str, Any]) -> str:
    name, target = _objective(result)
    if name == "skill":
        return f"{result['players'][0]}'s share of games won (%)"
    if name == "balance":
        return "first player's hands won: points from 50%"
    return f"mean hands per game: distance from {target:g}"


def _values_text(values: dict[str, Any]) -> str:
    return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in values.items())


# -- tables ----------------------------------------------------------------------------------------------


def trial_table(result: dict[str, Any]) -> pd.DataFrame:
    """The search path: one row per trial, its switches, objective score with interval, feasibility, metrics."""
    rows = []
    for trial in result["trials"]:
        row = {"trial": trial["trial"], **trial["values"]}
        row.update({key: trial[key] for key in ("score", "score_low", "score_high", "feasible", "played")})
        row["best_so_far"] = trial["best_so_far"]
        row.update(trial["metrics"])
        rows.append(row)
    return pd.DataFrame(rows)


def final_table(result: dict[str, Any]) -> pd.DataFrame:
    """The final measurement of the found and the start rules on fresh deals, with every metric's interval."""
    rows = []
    for entry in result["final"]:
        row = {"candidate": entry["candidate"], "rules": _values_text(entry["values"])}
        row.update({key: entry[key] for key in ("score", "score_low", "score_high")})
        row["units"] = 2 * entry["pairs"]
        for name, (value, low, high) in entry["metrics"].items():
            row[name], row[f"{name}_low"], row[f"{name}_high"] = value, low, high
        rows.append(row)
    return pd.DataFrame(rows)


def keep_table(result: dict[str, Any]) -> pd.DataFrame:
    """Each --keep constraint on fresh deals, for the found and the start rules: value, 95% interval, judgement."""
    rows = []
    for text, row in (result.get("keep") or {}).items():
        for candidate in ("found", "start"):
            value, low, high = row[candidate]
            status = row.get(f"{candidate}_status") or ("met" if row[f"{candidate}_met"] else "broken")
            rows.append(
                {"constraint": text, "candidate": candidate, "value": value, "low": low, "high": high, "judged": status}
            )
    return pd.DataFrame(rows, columns=["constraint", "candidate", "value", "low", "high", "judged"])


def tables(result: dict[str, Any]) -> list[tuple[str, str, pd.DataFrame, dict[str, str], str]]:
    """(name, title, frame, shown columns with formats, note) of every table of a tune-rules report."""
    score_format = "f2" if _objective(result)[0] == "length" else "pct"
    switches = [v["name"] for v in result["settings"]["vary"]]
    note = f"{result['verdict']}."
    keep = []
    if result.get("keep"):
        keep = [
            (
                "tune_rules_keep",
                "The --keep constraints on fresh deals",
                keep_table(result),
                {"constraint": "text", "candidate": "text", "value": "f3", "low": "f3", "high": "f3", "judged": "text"},
                "A constraint is met when its whole 95% interval lies on the allowed side of the bound, broken when "
                "the whole interval lies on the other side, uncertain otherwise; the found rules replace the start "
                "only when they meet every constraint.",
            )
        ]
    effects = []
    if result.get("switch_effects"):
        frame = pd.DataFrame(result["switch_effects"])
        frame["start"] = frame["start"].map(str)
        frame["found"] = frame["found"].map(str)
        difference_format = "f2" if _objective(result)[0] == "length" else "pct"
        effects = [
            (
                "tune_rules_switch_effects",
                "Each changed switch's own effect on fresh deals (reverted alone)",
                frame,
                {
                    "switch": "text",
                    "start": "text",
                    "found": "text",
                    "difference": difference_format,
                    "low": difference_format,
                    "high": difference_format,
                    "p_holm": "f3",
                    "matters": "text",
                },
                "The found rules minus the found rules with that switch back at its start value, paired on the final "
                "measurement's deals, Holm over the switches; a switch matters when reverting it alone costs "
                "significantly. "
                + (
                    f"Simplified rules ({_values_text(result['simplified']['rules'])}): "
                    + ("adopted." if result["simplified"]["adopted"] else "not adopted: they measure worse.")
                    if result.get("simplified")
                    else ""
                ),
            )
        ]
    return [
        *keep,
        *effects,
        (
            "tune_rules_final",
            "Final measurement on fresh deals",
            final_table(result),
            {
                "candidate": "text",
                "rules": "text",
                "score": score_format,
                "score_low": score_format,
                "score_high": score_format,
                "units": "int",
            },
            note,
        ),
        (
            "tune_rules_trials",
            "The search, trial by trial (one set of deals)",
            trial_table(result),
            {"trial": "int", **{name: "text" for name in switches}, "score": score_format, "feasible": "text"},
            "",
        ),
    ]


# -- figures --------------------------------------------------------------------------------------------


@styled
def search_chart(result: dict[str, Any]) -> Figure:
    """Each trial's objective score on the search's deals with its 95% interval, infeasible trials hollow,
    and the best feasible score so far as a step line."""
    table = trial_table(result)
    scale = _scale(result)
    fig = Figure(figsize=(WIDTH, 4.0), layout="constrained")
    ax = fig.add_subplot()
    for feasible, rows in table.groupby("feasible"):
        x = rows["trial"].to_numpy(float)
        y = scale * rows["score"].to_numpy(float)
        errors = np.vstack(
            [
                np.nan_to_num(y - scale * rows["score_low"].to_numpy(float)),
                np.nan_to_num(scale * rows["score_high"].to_numpy(float) - y),
            ]
        )
        ax.errorbar(
            x,
            y,
            yerr=errors,
            fmt="o",
            markersize=4,
            elinewidth=0.8,
            color=PALETTE[0],
            markerfacecolor=PALETTE[0] if feasible else "white",
            label="trial" if feasible else "trial breaking --keep",
        )
    ax.step(table["trial"], scale * table["best_so_far"], where="post", color="#333333", label="best so far")
    ax.set_xlabel("trial")
    ax.set_ylabel(_score_label(result))
    ax.set_title(f"Search for {result['objective']}: {' vs '.join(result['players'])} (95% intervals)")
    fig.legend(loc="outside lower center", ncol=3)
    return fig


def search_caption(result: dict[str, Any]) -> str:
    """How many trials and rule sets, the start's and the best search score, and which rules scored it."""
    table = trial_table(result)
    feasible = table[table["feasible"]]
    sentence = f"{len(table)} trials, {int(table['played'].sum())} distinct rule sets, all on the same deals"
    if feasible.empty:
        return sentence + "; no trial met the --keep constraints."
    best = table.loc[table["best_so_far"].last_valid_index()]
    if result["trials"][0]["values"] == result["start_rules"]:
        sentence += f"; the start rules, trial 0, scored {_score_text(table['score'].iloc[0], result)}"
    sentence += (
        f"; the best feasible score, {_score_text(best['best_so_far'], result)}, came with "
        f"{_values_text(result['found_rules'])}"
    )
    return sentence + "."


@styled
def final_chart(result: dict[str, Any]) -> Figure:
    """The found and the start rules on the same fresh deals, with 95% intervals."""
    table = final_table(result)
    scale = _scale(result)
    fig = Figure(figsize=(WIDTH, 2.4), layout="constrained")
    ax = fig.add_subplot()
    labels = []
    for y, (_, row) in enumerate(table.iterrows()):
        score = scale * row["score"]
        low, high = scale * row["score_low"], scale * row["score_high"]
        errors = [[np.nan_to_num(score - low)], [np.nan_to_num(high - score)]]
        color = PALETTE[2] if row["candidate"] == "found" else PALETTE[3]
        ax.barh(y, score, height=0.6, color=color, alpha=0.85, xerr=errors, capsize=3)
        ax.text(max(score, high if finite(high) else score), y, f"  {_score_text(row['score'], result)}", va="center")
        labels.append(f"{row['candidate']}: {row['rules']}")
    ax.set_yticks(range(len(labels)), labels=labels)
    ax.invert_yaxis()
    ax.set_xlabel(_score_label(result))
    ax.set_title(f"Final measurement: {int(table['units'].iloc[0]):,} fresh {result['unit']} per rule set and opponent")
    return fig


def _difference_text(result: dict[str, Any]) -> str:
    """Found minus start on the same fresh deals, with its 95% interval: ``'+4.2 points (95% CI +1.0 to +7.4)'``
    (percentage points for shares, hands for a length objective); empty when the result has none."""
    d = result.get("difference") or {}
    if not finite(d.get("difference")):
        return ""
    scale = _scale(result)
    digits, unit = (2, " hands") if scale == 1 else (1, " points")
    text = f"{scale * d['difference']:+.{digits}f}{unit}"
    if finite(d.get("low")) and finite(d.get("high")):
        text += f" (95% CI {scale * d['low']:+.{digits}f} to {scale * d['high']:+.{digits}f})"
    return text


def final_caption(result: dict[str, Any]) -> str:
    """The verdict in words, with both scores, their intervals, the paired difference found - start with its
    interval and p-value (the report's first finding)."""
    found = f"{_score_text(result['found_score'], result)} {_interval_text(result['found_score_ci'], result)}"
    start = f"{_score_text(result['start_score'], result)} {_interval_text(result['start_score_ci'], result)}"
    verdict = f"{result['verdict'][0].upper()}{result['verdict'][1:]}."
    if result["found_rules"] == result["start_rules"]:
        return (
            f"The search's best rules are the start rules ({_values_text(result['start_rules'])}): on fresh deals "
            f"they score {start} (paired p = {p_value(result['p_value'])}: the same rules). {verdict}"
        ).replace("  ", " ")
    difference = _difference_text(result)
    change = f" found minus start {difference}," if difference else ""
    return (
        f"On fresh deals the found rules ({_values_text(result['found_rules'])}) score {found}, the start rules "
        f"({_values_text(result['start_rules'])}) {start};{change} paired p = {p_value(result['p_value'])}. {verdict}"
    ).replace("  ", " ")


#: The figures of a tune-rules report, in reading order: (figure, title, table, chart, caption).
FIGURES = (
    ("tune_rules_final", "Final comparison", "tune_rules_final", final_chart, final_caption),
    ("tune_rules_search", "Search path", "tune_rules_trials", search_chart, search_caption),
)


def title(result: dict[str, Any]) -> str:
    return f"Tune rules for {result['objective']}: {', '.join(result['players'])}"


def facts(result: dict[str, Any]) -> list[tuple[str, str]]:
    """The report's header facts of a tune-rules search."""
    from simgin.game.rules import Rules

    settings = result["settings"]
    unit = result.get("unit", "games")
    defaults = Rules().to_dict()
    changed = [
        f"{key}={str(value).lower() if isinstance(value, bool) else value}"
        for key, value in settings["rules"].items()
        if defaults.get(key) != value
    ]
    searched = []
    for vary in settings["vary"]:
        if vary["choices"] is None:
            searched.append(f"{vary['name']}={vary['low']}..{vary['high']}")
        else:
            shown = ",".join(str(c).lower() if isinstance(c, bool) else str(c) for c in vary["choices"])
            searched.append(f"{vary['name']}={shown}")
    return [
        ("objective", result["objective"]),
        ("players", ", ".join(result["players"])),
        ("searched", "; ".join(searched)),
        ("keep", ", ".join(settings["keep"]) or "none"),
        ("verdict", result["verdict"]),
        ("rules", _values_text(result["rules"]) + (" (the start, kept)" if result["kept_start"] else "")),
        ("search", f"{result['evaluations']} trials on the same {settings['count']:,} {unit} per opponent"),
        ("final", f"{settings['final']:,} fresh {unit} per rule set and opponent"),
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
                    "the first-named player's win_rate is luck-adjusted (docs/STATISTICS.md §13), plain_win_rate "
                    "plain: " + search_luck_text(result, "found"),
                )
            ]
            if result.get("luck_adjusted")
            else []
        ),
        ("seed", str(settings["seed"])),
        ("start rules", ", ".join(changed) if changed else "standard (the rule book's defaults)"),
        ("simgin", str(result.get("simgin_version", "?"))),
    ]

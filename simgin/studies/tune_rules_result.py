"""What a rule search found, and how sure it is: the result contract, the final measurement on fresh deals, the
keep-the-start verdict, the drop-one effects of each switch changed, the power of the final test and the text the
command prints (docs/STATISTICS.md §10)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

from simgin.statistics.formats import p_below, percent
from simgin.statistics.power import detectable_difference, power_to_detect
from simgin.studies.rule_evaluation import RuleEvaluation, objective_score, score_difference
from simgin.studies.rule_space import Keep, Objective, number_text, shown_value
from simgin.studies.search import FINAL_MEASUREMENT_KEYS, FinalMeasurement
from simgin.studies.tune_rules_settings import METHOD, TuneRulesSettings

SIGNIFICANCE = 0.05
"""The found rules replace the start only when their paired difference has a p-value below this."""


KIND = "tune-rules"


CONTRACT_KEYS = (
    "objective",
    "players",
    "rules",
    "start_rules",
    *FINAL_MEASUREMENT_KEYS,
)


EXTRA_KEYS = (
    "found_rules",
    "found_score",
    "found_score_ci",
    "difference",
    "kept_start",
    "verdict",
    "keep",
    "unit",
    "switch_effects",
    "simplified",
)


@dataclass(frozen=True)
class TuneRulesResult(FinalMeasurement):
    """What tune-rules found and how it measured it.

    ``rules`` are the varied switches' values to use: the found ones when the final measurement
    shows them better than the start, else the start's (``kept_start``). ``score`` is the
    objective of ``rules`` on the final, fresh deals with its 95% interval ``score_ci``;
    ``start_score`` the start's; ``p_value`` the two-sided p-value of the paired difference
    found - start (``difference``). ``found_*`` are the search's best whether kept or not;
    ``verdict`` says in words what happened. ``evaluations`` counts the search's trials,
    ``games`` every game (hand, with ``hands``) played, the final measurement included.
    """

    objective: str
    players: list[str]
    rules: dict[str, Any]
    start_rules: dict[str, Any]
    found_rules: dict[str, Any]
    found_score: float
    found_score_ci: list[float]
    difference: dict[str, float]
    kept_start: bool
    verdict: str
    keep: dict[str, dict[str, Any]]
    """Per ``--keep`` constraint: its value with interval for the found and the start rules, and whether met."""
    unit: str
    switch_effects: list[dict[str, Any]]
    """With two or more switches changed and the found rules better: per changed switch, the found rules with that
    switch reverted to the start, measured on the final's deals; ``difference`` = found - reverted in the
    objective's units, its interval and p-value, Holm over the switches, and whether the switch ``matters``
    (reverting it alone costs significantly, after Holm). Empty otherwise."""
    simplified: dict[str, Any] | None
    """The start rules with only the switches that matter changed, measured on the final's deals, against the start
    and against the found rules; ``adopted`` when they are significantly better than the start, not significantly
    worse than the found rules and meet every ``keep`` (then they are ``rules``). None when nothing to simplify."""
    settings: TuneRulesSettings = field(repr=False)
    trials: list[dict[str, Any]] = field(repr=False)
    """The search path: per trial its values, objective score, metrics and feasibility."""
    final: list[dict[str, Any]] = field(repr=False)
    luck_adjusted: dict[str, Any] | None = None
    """With ``adjust_luck`` (issue 35): the first-named player's luck-adjusted figures on the final deals under the
    found rules (``net_points_per_hand``, ``hands_won``: ``estimate``, ``ci``, ``variance_ratio``, ``plain``,
    ``plain_ci``; :func:`simgin.studies.rule_evaluation.luck_figures`) and under the start's (``start``)."""

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object (plain JSON values): the contract's keys, then the found rules and verdict."""
        from simgin.running.results import jsonable

        data = {key: getattr(self, key) for key in (*CONTRACT_KEYS, *EXTRA_KEYS)}
        if self.luck_adjusted is not None:
            data["luck_adjusted"] = self.luck_adjusted
        return jsonable(data)

    def to_frame(self) -> Any:
        """The search path as a DataFrame: one row per trial, the varied switches and metrics as columns."""
        import pandas as pd

        rows = []
        for trial in self.trials:
            row = {"trial": trial["trial"], **trial["values"], "score": trial["score"], "feasible": trial["feasible"]}
            row["best_so_far"] = trial["best_so_far"]
            row.update(trial["metrics"])
            rows.append(row)
        return pd.DataFrame(rows)

    def result_data(self) -> dict[str, Any]:
        """``result.json`` for ``simgin report``: the JSON keys plus the settings, the search path and the final."""
        from simgin import __version__
        from simgin.running.results import jsonable

        return jsonable(
            {
                "kind": KIND,
                "simgin_version": __version__,
                **self.to_json(),
                "settings": self.settings.to_dict(),
                "method": METHOD,
                "trials": self.trials,
                "final": self.final,
            }
        )


def evaluation_metrics(evaluation: RuleEvaluation) -> dict[str, float]:
    return {name: evaluation.point(name) for name in evaluation.sums}


def measure_final(
    evaluator: Any,
    items: Sequence[tuple[int, dict[str, Any]]],
    settings: TuneRulesSettings,
    final_seed: int,
    recorded: Mapping[str, RuleEvaluation],
    directory: Any,
    check_recorded: Callable[..., None],
) -> dict[int, RuleEvaluation]:
    """The rule sets ``items`` (index, values) measured on the final's deals, read back from ``recorded`` when
    there, else played (and saved to ``directory``)."""
    out: dict[int, RuleEvaluation] = {}
    missing = []
    for index, values in items:
        old = recorded.get(f"final-{index:04d}")
        if old is None:
            missing.append((index, values))
        else:
            check_recorded(old, values, settings.final // 2, final_seed)
            out[index] = old
    for evaluation in evaluator.evaluate("final", missing, settings.final, final_seed):
        if directory:
            directory.save(evaluation)
        out[evaluation.index] = evaluation
    return out


def switch_effect_rows(
    changed: Sequence[str],
    found: RuleEvaluation,
    measured: Mapping[str, RuleEvaluation] | Mapping[int, RuleEvaluation],
    indices: Sequence[int],
    objective: Objective,
) -> list[dict[str, Any]]:
    """Per changed switch: found minus the found rules with that switch reverted (drop-one, paired on the final's
    deals), Holm over the switches; a switch ``matters`` when reverting it alone costs significantly (§8)."""
    from simgin.statistics.stats import holm

    rows = []
    for name, index in zip(changed, indices, strict=True):
        reverted = measured[index]
        d = score_difference(found, reverted, objective)
        rows.append(
            {
                "switch": name,
                "found": found.values[name],
                "start": reverted.values[name],
                "reverted_score": objective_score(reverted, objective)[0],
                "difference": d["difference"],
                "low": d["low"],
                "high": d["high"],
                "p_value": d["p_value"],
            }
        )
    adjusted = holm([row["p_value"] for row in rows])
    for row, p_holm in zip(rows, adjusted, strict=True):
        row["p_holm"] = float(p_holm)
        row["matters"] = bool(objective.better(row["difference"]) and p_holm < SIGNIFICANCE)
    return rows


def simplified_row(
    values: Mapping[str, Any],
    simplified: RuleEvaluation,
    found: RuleEvaluation,
    start: RuleEvaluation,
    objective: Objective,
    keep: Sequence[Keep],
) -> dict[str, Any]:
    """The simplified rules against the start and the found rules on the final's deals, and whether to adopt them."""
    score = objective_score(simplified, objective)
    against_start = score_difference(simplified, start, objective)
    against_found = score_difference(simplified, found, objective)
    keep_met = all(k.status(*simplified.metric(k.metric)) == "met" for k in keep)
    better = objective.better(against_start["difference"]) and against_start["p_value"] < SIGNIFICANCE
    not_worse = not (
        not objective.better(against_found["difference"])
        and against_found["difference"] != 0
        and against_found["p_value"] < SIGNIFICANCE
    )
    return {
        "rules": dict(values),
        "score": score[0],
        "score_ci": [score[1], score[2]],
        "against_start": against_start,
        "against_found": against_found,
        "keep_met": keep_met,
        "adopted": bool(better and not_worse and keep_met),
    }


def switch_effects_text(rows: Sequence[Mapping[str, Any]], simplified: Mapping[str, Any] | None) -> str:
    """What the drop-one measurement adds to the verdict, in words."""
    if not rows:
        return ""
    matters = [row["switch"] for row in rows if row["matters"]]
    idle = [row["switch"] for row in rows if not row["matters"]]
    if not idle:
        return f"; each changed switch matters on its own ({', '.join(matters)}: reverting any one costs)"
    text = f"; reverting {', '.join(idle)} alone costs nothing significant (after Holm)"
    if not matters:
        return text + ": each may stand in for another, so every found switch is kept"
    if simplified is None:
        return text
    shown = _values_text({name: simplified["rules"][name] for name in matters})
    if simplified["adopted"]:
        return text + f", so the rules keep only {shown}, which measure as well on the same deals"
    return text + (
        f", but the rules with only {shown} changed do not measure as well as the found ones on the same deals "
        "(the switches work together): keeping every found switch"
    )


#: The power a final measurement should have for the gain the search saw (issue 32 item 12).
WANTED_POWER = 0.8


def final_power(
    settings: TuneRulesSettings,
    search: Sequence[RuleEvaluation],
    found_values: Mapping[str, Any],
    start_values: Mapping[str, Any],
    difference: Mapping[str, float],
) -> dict[str, float]:
    """How well the final measurement could see the gain the search saw (issue 32 item 12).

    ``search_difference``: the found minus the start rules' objective on the search's own deals (an optimistic
    figure: the search picked the best of many, so the true gain is likely smaller); ``power``: the chance that a
    final measurement as precise as this one (its standard error, from its 95% interval) calls that gain
    significant (:func:`simgin.statistics.power.power_to_detect`); ``final_for_80_power``: the ``final`` games (or
    hands) per rule set and opponent that would give :data:`WANTED_POWER`. NaN where the search did not play
    both rule sets or the final's interval is unknown.
    """
    objective = settings.objective
    by_key = {settings.key_of(e.values): e for e in search}
    found_search, start_search = by_key.get(settings.key_of(found_values)), by_key.get(settings.key_of(start_values))
    nan = {"search_difference": math.nan, "power": math.nan, "final_for_80_power": math.nan}
    if found_search is None or start_search is None:
        return nan
    seen = objective_score(found_search, objective)[0] - objective_score(start_search, objective)[0]
    se = (difference["high"] - difference["low"]) / (2.0 * NormalDist().inv_cdf(0.975))
    power = power_to_detect(seen, se, SIGNIFICANCE)
    if not math.isfinite(power) or seen == 0:
        return nan | {"search_difference": seen}
    needed = settings.final * (detectable_difference(se, SIGNIFICANCE, WANTED_POWER) / abs(seen)) ** 2
    return {"search_difference": seen, "power": power, "final_for_80_power": float(2 * math.ceil(needed / 2))}


def keep_verdict(
    settings: TuneRulesSettings,
    searched: bool,
    same: bool,
    found: tuple[float, float, float],
    start: tuple[float, float, float],
    difference: Mapping[str, float],
    found_final: RuleEvaluation,
    keep_report: Mapping[str, Mapping[str, Any]],
) -> tuple[bool, str]:
    """Whether to keep the start rules, and why, in words.

    The found rules replace the start only when the fresh deals show them better on the objective (the
    difference in its direction with p < :data:`SIGNIFICANCE`) and they meet every ``keep`` constraint there,
    judged with the metric's 95% interval (:meth:`Keep.status`: the whole interval on the allowed side). A
    constraint whose interval reaches across the bound is uncertain, and the start is kept, saying so: more
    ``final`` games narrow the interval. A start that breaks a constraint is still kept otherwise (no gain is
    claimed that the objective's test does not show), and the verdict says which constraint it breaks.
    """

    def decide() -> tuple[bool, str]:
        objective = settings.objective
        show = format_score
        if not searched:
            return True, (
                "no searched rule set met the --keep constraints on the search's deals: keeping the start rules"
            )
        if same and found_final.values == settings.start_values:
            return True, "the start rules scored best on the search's deals: keeping the start rules"
        if same:
            return True, (
                f"the best rules found, {_values_text(found_final.values)}, play the same game as the start rules "
                "(their switches differ only where they have no effect): keeping the start rules"
            )
        p = difference["p_value"]
        p_text = p_below(p)
        found_text = _values_text(found_final.values)
        scale, unit, digits = (1.0, " hands", 2) if objective.name == "length" else (100.0, " points", 1)
        change = f"{scale * difference['difference']:+.{digits}f}{unit}"
        if math.isfinite(difference["low"]) and math.isfinite(difference["high"]):
            change += f", 95% CI {scale * difference['low']:+.{digits}f} to {scale * difference['high']:+.{digits}f}"
        compared = (
            f"{objective.text} {show(found[0], objective)} with {found_text} vs {show(start[0], objective)} "
            f"at the start on fresh deals ({change}, {p_text})"
        )
        broken = [text for text, row in keep_report.items() if row["found_status"] == "broken"]
        if broken:
            return True, (
                f"the found rules break --keep {', '.join(broken)} on fresh deals: {compared}; keeping the start"
            )
        uncertain = [
            f"{text} ({_keep_interval(row['found'])})"
            for text, row in keep_report.items()
            if row["found_status"] == "uncertain"
        ]
        if uncertain:
            return True, (
                f"the fresh deals cannot show that the found rules meet --keep {', '.join(uncertain)}: the 95% "
                f"interval reaches across the bound (more --final games narrow it): {compared}; keeping the start rules"
            )
        significant = math.isfinite(p) and p < SIGNIFICANCE
        power = difference.get("power", math.nan)
        if not significant and math.isfinite(power) and power < WANTED_POWER:
            seen = f"{scale * difference['search_difference']:+.{digits}f}{unit}"
            return True, (
                f"inconclusive: the found rules are not significantly better on fresh deals, but the final measurement "
                f"had only {power:.0%} power to detect the {seen} the search saw (--final "
                f"{int(difference['final_for_80_power']):,} would give {WANTED_POWER:.0%}): {compared}; "
                "keeping the start rules"
            )
        if not objective.better(difference["difference"]):
            worse = "worse" if significant and difference["difference"] != 0 else "not better"
            return True, f"the found rules are {worse} on fresh deals: {compared}; keeping the start rules"
        if not significant:
            return True, (
                f"the found rules are not significantly better on fresh deals (p not below {SIGNIFICANCE}): "
                f"{compared}; keeping the start rules"
            )
        return False, f"the found rules are better: {compared}"

    kept, text = decide()
    broken = [name for name, row in keep_report.items() if row["start_status"] == "broken"]
    uncertain = [name for name, row in keep_report.items() if row["start_status"] == "uncertain"]
    if kept and broken:
        text += f" (note: the start rules break --keep {', '.join(broken)} on fresh deals)"
    if kept and uncertain:
        text += f" (note: the fresh deals cannot show that the start rules meet --keep {', '.join(uncertain)})"
    return kept, text


def _keep_interval(values: Sequence[float]) -> str:
    """A --keep metric's value and 95% interval, as the verdict quotes it."""
    value, low, high = values
    return f"{value:.4g}, 95% CI {low:.4g} to {high:.4g}"


def format_score(value: float, objective: Objective) -> str:
    """An objective's value as text: a percentage (skill), percentage points (balance) or hands (length)."""
    if value is None or not math.isfinite(value):
        return "-"
    if objective.name == "skill":
        return percent(value)
    if objective.name == "balance":
        return f"{100 * value:.1f} points from 50%"
    return f"{value:.2f} hands from {number_text(objective.target or 0)}"


def _values_text(values: Mapping[str, Any]) -> str:
    return ", ".join(f"{name}={shown_value(value)}" for name, value in values.items())

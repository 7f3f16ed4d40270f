"""Tune house rules toward a goal: search rule switches for an objective, then measure the result honestly.

``tune_rules(players, objective, vary)`` searches the rule switches named in ``vary`` (whole
numbers in a range, true/false switches, choices such as ``shutout`` and ``dealer_rotation``),
on top of a base rule set, for one of three objectives:

- ``skill``: the share of games (hands, with ``hands``) that the first-named player wins
  against the others, a drawn game counting half; maximised. It needs two players or more.
- ``balance``: how far the first player's share of scored hands is from 50% (the non-dealer,
  who plays first, R11); minimised.
- ``length=N``: how far the mean number of hands per game is from N; minimised; games only.

``keep`` adds constraints on other metrics of the same runs (:data:`METRICS`), such as
``dead_rate<=0.05``; a rule set that breaks one is infeasible.

The runs: the first-named player meets each other player (alone, it plays itself) on
duplicate deals (each deal played twice, seats swapped); every metric is pooled over those
pairings. The search is optuna's TPE sampler (optional extra ``simgin[tune-rules]``), seeded,
asked for :data:`TRIALS_PER_BATCH` trials at a time and told in trial order, so the same seed
gives the same search on any number of workers. The start rules are its first trial when
they lie in the searched space. Constraints go to TPE's ``constraints_func`` (a trial with a
positive constraint value is infeasible: TPE models feasible trials apart from infeasible ones),
not a penalty, so the objective's scale is left alone. A rule set asked twice is played once:
the search plays every trial on the same deals (common random numbers), so a repeat would
give the same numbers.

Honesty, as ``simgin tune`` (:mod:`simgin.studies.tune`): the search plays one set of deals; the
best feasible trial on them and the start rules are then both played on fresh deals that the
search never saw, with 95% intervals and the p-value of their paired difference
(:func:`simgin.statistics.stats.paired_difference` over the chunks of duplicate deal pairs, which are
independent and identically distributed, docs/STATISTICS.md §9). Unless the found rules are
better there (the difference in the objective's direction with p < 0.05, and every ``keep``
constraint met), the result says so in words and keeps the start rules.

Seeds: the search plays run seed ``SeedSequence(seed, spawn_key=(0, 0))``, the final
measurement ``(2, 0)`` (:func:`simgin.studies.tune.phase_seed`), TPE is seeded from ``(3,)``. With
``out`` every trial and final evaluation is written atomically as it finishes; a rerun replays
the recorded trials into a fresh study with the same seed, checks that it asks for the same
rules, and continues, so an interrupted search ends exactly as an uninterrupted one.

>>> parse_objective("length=8").target
8.0
>>> parse_keep("dead_rate<=0.05")
Keep(metric='dead_rate', op='<=', bound=0.05)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from simgin.game.rules import Rules
from simgin.studies.rule_evaluation import (
    ChunkPlayer,
    Evaluator,
    OptunaStudy,
    RuleEvaluation,
    TuneRulesDirectory,
    luck_figures,
    objective_score,
    score_difference,
)
from simgin.studies.rule_space import (
    METRICS,
    Keep,
    Objective,
    TuneRulesError,
    Vary,
    check_effects,
    parse_keep,
    parse_objective,
    parse_vary,
)
from simgin.studies.search import execution_workers, phase_seed, process_cpu_seconds
from simgin.studies.tune_rules_result import (
    CONTRACT_KEYS,
    SIGNIFICANCE,
    TuneRulesResult,
    evaluation_metrics,
    final_power,
    format_score,
    keep_verdict,
    measure_final,
    simplified_row,
    switch_effect_rows,
    switch_effects_text,
)
from simgin.studies.tune_rules_settings import DEFAULT_BUDGET, DEFAULT_GAMES, TuneRulesSettings, plan

TRIALS_PER_BATCH = 4
"""Trials asked of TPE before any is told: they are played together, whatever the number of workers."""


ProgressCallback = Callable[["RuleEvaluation", int, int], None]


def tune_rules(
    players: Sequence[str] | str,
    objective: str | Objective,
    vary: Sequence[str | Vary] | str,
    *,
    rules: Rules | str | None = None,
    keep: Sequence[str | Keep] | str = (),
    budget: int = DEFAULT_BUDGET,
    games: int | None = None,
    hands: int | None = None,
    final: int | None = None,
    seed: int = 0,
    workers: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    out: str | Path | None = None,
    progress: ProgressCallback | None = None,
    play_chunk: ChunkPlayer | None = None,
    notice: Callable[[str], None] | None = None,
    on_start: Callable[[], None] | None = None,
    adjust_luck: bool = False,
) -> TuneRulesResult:
    """Search the ``vary`` switches of ``rules`` for ``objective``, then measure found and start on fresh deals.

    ``players``: the first-named is the one ``skill`` is about; it meets each of the others
    (or itself when alone). ``objective``: ``'skill'``, ``'balance'`` or ``'length=N'``.
    ``vary``: ``'SWITCH=LOW..HIGH'``, ``'SWITCH=V1,V2,...'`` or a true/false or choice switch
    alone. ``keep``: constraints such as ``'dead_rate<=0.05'`` (:data:`METRICS`). ``budget``
    trials of ``games`` games (or ``hands`` hands) per opponent, all on the same deals;
    ``final`` games per rule set in the final measurement (default ten times ``games``).
    ``out``: a directory that records every evaluation; a rerun resumes. ``workers``, ``backend`` and
    ``scheduler`` say where the trials run (a local pool, or a Dask cluster: ``backend='dask'``, with a
    ``scheduler`` address for a running one); they change nothing of the result.
    ``progress(evaluation, done, total)`` is called after each evaluation, recorded ones included;
    ``notice(message)`` hears of a recorded evaluation played again (damaged or edited); ``on_start()`` is
    called once every input is checked, before anything is played (the CLI's compile notice).
    ``play_chunk(config, chunk)``, a hook for tests and other simulators, replaces
    :func:`simgin.running.runner.run_chunk`: it returns an object with ``tally`` and ``seconds`` and must
    be picklable for more than one worker. Bad input raises :class:`TuneRulesError` (a ValueError)
    with a one-line message. See the module docstring for the method. ``adjust_luck`` (with ``hands``) judges the
    first-named player's ``win_rate`` luck-adjusted (docs/STATISTICS.md §13), the plain one beside it as
    ``plain_win_rate``.
    """
    if isinstance(players, str):
        players = [players]
    if isinstance(vary, str):
        vary = [vary]
    if isinstance(keep, str):
        keep = [keep]
    settings = plan(
        players,
        objective,
        vary,
        rules=rules,
        keep=keep,
        budget=budget,
        games=games,
        hands=hands,
        final=final,
        seed=seed,
        adjust_luck=adjust_luck,
    )
    workers = execution_workers(workers, backend, scheduler, TuneRulesError)
    study = OptunaStudy(settings)
    directory = TuneRulesDirectory(out, settings, notice) if out is not None else None
    recorded = directory.recorded() if directory else {}
    if on_start:
        on_start()
    started, cpu_started = time.perf_counter(), process_cpu_seconds()
    objective_ = settings.objective
    expected = settings.budget + 2
    history: list[RuleEvaluation] = []
    timing: dict[str, float] = {}

    def constraint_values(evaluation: RuleEvaluation) -> list[float]:
        return [k.violation(evaluation.point(k.metric)) for k in settings.keep]

    def feasible(evaluation: RuleEvaluation) -> bool:
        return all(k.met(evaluation.point(k.metric)) for k in settings.keep)

    def note(evaluation: RuleEvaluation) -> None:
        history.append(evaluation)
        if progress:
            progress(evaluation, len(history), max(expected, len(history)))

    def check_recorded(old: RuleEvaluation, values: Mapping[str, Any], pairs: int, seed_of_phase: int) -> None:
        if old.values != dict(values) or old.seed != seed_of_phase or old.pairs != pairs:
            raise TuneRulesError(
                f"{directory.path if directory else ''}: the recorded evaluation {old.key} played {old.values} "
                f"but the search now asks for {dict(values)}; the directory was written by another simgin or "
                "optuna version: use another --out directory"
            )

    with Evaluator(settings, workers, backend, play_chunk, scheduler) as evaluator:
        clock = time.perf_counter()
        search_seed = phase_seed(settings.seed, "search")
        search_pairs = settings.count // 2
        played: dict[str, RuleEvaluation] = {}
        search: list[RuleEvaluation] = []
        for first in range(0, settings.budget, TRIALS_PER_BATCH):
            batch = [study.ask() for _ in range(min(TRIALS_PER_BATCH, settings.budget - first))]
            done: dict[int, RuleEvaluation] = {}
            missing: list[tuple[int, dict[str, Any]]] = []
            for trial in batch:
                values = dict(trial.params)
                old = recorded.get(f"search-{trial.number:04d}")
                if old is not None:
                    check_recorded(old, values, search_pairs, search_seed)
                    done[trial.number] = old
                    played.setdefault(settings.key_of(values), old)
                    continue
                key = settings.key_of(values)
                if key not in played and all(settings.key_of(v) != key for _, v in missing):
                    missing.append((trial.number, values))
            fresh: dict[int, RuleEvaluation] = {}
            for evaluation in evaluator.evaluate("search", missing, settings.count, search_seed):
                if directory:
                    directory.save(evaluation)  # as each one finishes: Ctrl-C loses no finished evaluation
                fresh[evaluation.index] = evaluation
            for trial in batch:
                values = dict(trial.params)
                evaluation = done.get(trial.number)
                if evaluation is None:
                    evaluation = fresh.get(trial.number)
                    if evaluation is not None:
                        played[settings.key_of(values)] = evaluation
                    else:
                        source = played[settings.key_of(values)]
                        evaluation = RuleEvaluation(
                            **(source.to_dict() | {"index": trial.number, "values": values, "played": False})
                        )
                        evaluation.seconds = 0.0
                        if directory:
                            directory.save(evaluation)
                search.append(evaluation)
                note(evaluation)
                study.tell(trial, objective_score(evaluation, objective_)[0], constraint_values(evaluation))
        timing["search_seconds"] = time.perf_counter() - clock

        start_values = settings.start_values
        ranked = [e for e in search if feasible(e) and math.isfinite(objective_score(e, objective_)[0])]
        sign = -1.0 if objective_.direction == "maximize" else 1.0
        best = min(ranked, key=lambda e: sign * objective_score(e, objective_)[0]) if ranked else None
        found_values = dict(best.values) if best is not None else dict(start_values)
        same = settings.key_of(found_values) == settings.key_of(start_values)

        clock = time.perf_counter()
        final_seed = phase_seed(settings.seed, "final")
        chosen = [(0, found_values)] if same else [(0, found_values), (1, dict(start_values))]
        finals = measure_final(evaluator, chosen, settings, final_seed, recorded, directory, check_recorded)
        for index, _ in chosen:
            note(finals[index])
        timing["final_seconds"] = time.perf_counter() - clock

    found_final = finals[0]
    # Rules that play the same game as the start's are measured once; the start keeps its own values.
    start_final = finals[1] if not same else RuleEvaluation(**(finals[0].to_dict() | {"values": dict(start_values)}))
    found_score = objective_score(found_final, objective_)
    start_score = objective_score(start_final, objective_)
    if same:
        difference = {
            "difference": 0.0,
            "low": 0.0,
            "high": 0.0,
            "p_value": 1.0,
            "chunks": len(found_final.sizes[objective_.metric]),
        }
    else:
        difference = score_difference(found_final, start_final, objective_)
        difference.update(final_power(settings, search, found_values, start_values, difference))
    keep_report = {}
    for k in settings.keep:
        found_status, start_status = k.status(*found_final.metric(k.metric)), k.status(*start_final.metric(k.metric))
        keep_report[k.text] = {
            "found": list(found_final.metric(k.metric)),
            "start": list(start_final.metric(k.metric)),
            "found_met": found_status == "met",
            "start_met": start_status == "met",
            "found_status": found_status,
            "start_status": start_status,
        }
    kept_start, verdict = keep_verdict(
        settings, best is not None, same, found_score, start_score, difference, found_final, keep_report
    )
    chosen_score = start_score if kept_start else found_score
    chosen_rules = dict(start_values) if kept_start else dict(found_final.values)
    switch_effects: list[dict[str, Any]] = []
    simplified: dict[str, Any] | None = None
    changed = [name for name in start_values if found_final.values.get(name) != start_values[name]]
    if not kept_start and len(changed) >= 2:
        # Which switch did it (issue 32 item 7): each changed switch reverted alone, on the final's deals.
        clock = time.perf_counter()
        variants = [(2 + i, dict(found_final.values) | {name: start_values[name]}) for i, name in enumerate(changed)]
        with Evaluator(settings, workers, backend, play_chunk, scheduler) as evaluator:
            measured = measure_final(evaluator, variants, settings, final_seed, recorded, directory, check_recorded)
            for evaluation in measured.values():
                note(evaluation)
            switch_effects = switch_effect_rows(changed, found_final, measured, [i for i, _ in variants], objective_)
            matters = [row["switch"] for row in switch_effects if row["matters"]]
            if 0 < len(matters) < len(changed):
                values = dict(start_values) | {name: found_final.values[name] for name in matters}
                index = 2 + len(changed)
                simple = measure_final(
                    evaluator, [(index, values)], settings, final_seed, recorded, directory, check_recorded
                )[index]
                note(simple)
                simplified = simplified_row(values, simple, found_final, start_final, objective_, settings.keep)
        timing["switch_effects_seconds"] = time.perf_counter() - clock
        verdict += switch_effects_text(switch_effects, simplified)
        if simplified is not None and simplified["adopted"]:
            chosen_rules = dict(simplified["rules"])
            chosen_score = (simplified["score"], *simplified["score_ci"])
    trials = []
    best_so_far = math.nan
    for evaluation in search:
        value = objective_score(evaluation, objective_)
        ok = feasible(evaluation)
        if ok and math.isfinite(value[0]) and (not math.isfinite(best_so_far) or sign * value[0] < sign * best_so_far):
            best_so_far = value[0]
        trials.append(
            {
                "trial": evaluation.index,
                "values": evaluation.values,
                "score": value[0],
                "score_low": value[1],
                "score_high": value[2],
                "feasible": ok,
                "played": evaluation.played,
                "best_so_far": best_so_far,
                "metrics": evaluation_metrics(evaluation),
            }
        )
    final_rows = []
    for label, evaluation, score in (("found", found_final, found_score), ("start", start_final, start_score)):
        final_rows.append(
            {
                "candidate": label,
                "values": evaluation.values,
                "score": score[0],
                "score_low": score[1],
                "score_high": score[2],
                "pairs": evaluation.pairs,
                "seed": evaluation.seed,
                "metrics": {name: list(evaluation.metric(name)) for name in evaluation.sums},
            }
        )
    units = sum(2 * e.pairs * len(settings.opponents) for e in history if e.played)
    result = TuneRulesResult(
        objective=objective_.text,
        players=list(settings.players),
        rules=chosen_rules,
        start_rules=dict(start_values),
        score=chosen_score[0],
        score_ci=[chosen_score[1], chosen_score[2]],
        start_score=start_score[0],
        start_score_ci=[start_score[1], start_score[2]],
        p_value=difference["p_value"],
        evaluations=len(search),
        games=units,
        timing={
            "seconds": time.perf_counter() - started,
            "cpu_seconds": process_cpu_seconds() - cpu_started,
            **timing,
            "worker_seconds": sum(e.seconds for e in history),
            "evaluations_resumed": sum(1 for e in history if e.key in recorded),
            "rule_sets_played": sum(1 for e in search if e.played),
        },
        found_rules=dict(found_final.values),
        found_score=found_score[0],
        found_score_ci=[found_score[1], found_score[2]],
        difference=difference,
        kept_start=kept_start,
        verdict=verdict,
        keep=keep_report,
        unit=settings.mode,
        switch_effects=switch_effects,
        simplified=simplified,
        settings=settings,
        trials=trials,
        final=final_rows,
        luck_adjusted=(
            luck_figures(found_final) | {"start": luck_figures(start_final)} if settings.adjust_luck else None
        ),
    )
    if directory:
        from simgin.running.results import save_result

        save_result(directory.path, result.result_data())
    return result


__all__ = [
    "CONTRACT_KEYS",
    "DEFAULT_BUDGET",
    "DEFAULT_GAMES",
    "METRICS",
    "SIGNIFICANCE",
    "Keep",
    "Objective",
    "RuleEvaluation",
    "TuneRulesDirectory",
    "TuneRulesError",
    "TuneRulesResult",
    "TuneRulesSettings",
    "Vary",
    "check_effects",
    "format_score",
    "objective_score",
    "parse_keep",
    "parse_objective",
    "parse_vary",
    "plan",
    "score_difference",
    "tune_rules",
]

"""Tune a strategy's parameters to a rule set and an opponent pool, then measure the result honestly.

The search is CMA-ES from the ``cma`` package (optional extra ``simgin[tune]``), driven by
ask and tell over the strategy's :class:`~simgin.game.strategy.Parameter` declarations; the
objective is the share of games won against the pool (with ``hands``: net points per
hand), played with duplicate deals by the runner's chunks. The objective is noisy, so:

- **common random numbers**: every candidate of a generation plays the same deals against
  every opponent, so CMA-ES, which only ranks the candidates of a generation, ranks them
  by their play rather than by their cards; each generation has new deals;
- **growing samples**: the games per evaluation grow linearly from ``games`` in the first
  generation to twice that in the last, when the candidates are close together;
- **selection by re-evaluation**: the finalists (the start, the final distribution mean
  and the three best-scoring candidates) are played again, on fresh deals and with four
  times the first generation's sample, and the best of them is the tuned candidate.

Then the tuned candidate and the start are both played on fresh deals that no earlier
phase used (their seeds come from their own ``SeedSequence`` branch), and their scores
with 95% intervals and the p-value of their paired difference are reported.

Seeds: generation ``g`` of the search plays the runner's chunks of run seed
``SeedSequence(seed, spawn_key=(0, g))``, the selection ``(1, 0)``, the final measurement
``(2, 0)``; the optimiser draws its normal samples from ``(3,)``. Every evaluation is
reduced to per-chunk sums consumed in job order, so the tuned spec is the same on any
number of workers and on either backend. The unit of the statistics is the duplicate deal
pair; intervals are batch means over chunks of pairs (chunks are independent and
identically distributed), which also pairs the candidates of one phase chunk by chunk
(docs/STATISTICS.md §3, §4).

With ``out`` every evaluation is written atomically as it finishes; a rerun replays the
recorded evaluations into a fresh optimiser with the same seed, checks that it asks for the
same candidates, and continues, so an interrupted tune ends exactly as an uninterrupted one.

>>> Dimension("evidence", 0.01, 1.0, False).snap(0.123456)
0.123
>>> format_value(7.0), format_value(0.35)
('7', '0.35')
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from simgin.game.rules import Rules
from simgin.running import runner
from simgin.running.tally import Tally
from simgin.studies.search import (
    EVALUATIONS_DIR,
    OPTIMISER_BRANCH,
    SearchDirectory,
    batch_mean,
    execution_workers,
    phase_seed,
    process_cpu_seconds,
    quiet_warnings,
)
from simgin.studies.tune_evaluation import Evaluation, Evaluator, TuneDirectory, paired_difference
from simgin.studies.tune_result import CONTRACT_KEYS, TuneResult
from simgin.studies.tune_settings import (
    DEFAULT_BUDGET,
    DEFAULT_GAMES,
    MIN_GENERATIONS,
    Dimension,
    TuneBudgetWarning,
    TuneError,
    TuneSettings,
    budget_warning,
    format_value,
    parse_bound,
    plan,
)

"""Candidate evaluations of the search: 16 generations of 8 for a strategy with 5 tunable parameters."""


"""Games per opponent in an evaluation of the first generation (the last plays twice as many)."""


"""The last generation's sample divided by the first's (linear in between)."""


"""The selection round plays this many times the first generation's sample per finalist."""


"""The final measurement plays this many times the first generation's sample per candidate, by default."""


TOP_FINALISTS = 3
"""Best-scoring search candidates that join the start and the distribution mean in the selection round."""


"""Best-scoring search candidates that join the start and the distribution mean in the selection round."""


SIGMA0 = 0.3
"""CMA-ES's initial step size as a share of each parameter's range."""


"""CMA-ES's initial step size as a share of each parameter's range."""


"""Chunks per evaluation at most: the batches of the batch-means intervals."""


ProgressCallback = Callable[["Evaluation", int, int], None]


class _Optimiser:
    """CMA-ES (``cma.CMAEvolutionStrategy``) over the dimensions in their own units, scaled by their ranges.

    Its normal samples come from a generator seeded by the tune's seed, never from numpy's
    global state, and anything it would print is swallowed (``--json`` prints one object).
    ``cma`` does not support a single dimension (its bound handling fails in 1-D), so a
    one-parameter search carries an inert second coordinate that nothing reads.
    """

    def __init__(self, settings: TuneSettings) -> None:
        try:
            import cma
        except ImportError:
            raise TuneError("simgin tune needs the optional extra: pip install 'simgin[tune]'") from None
        self.dimensions = settings.dimensions
        sequence = np.random.SeedSequence(settings.seed, spawn_key=(OPTIMISER_BRANCH,))
        generator = np.random.Generator(np.random.PCG64(sequence))
        start = [settings.start_values[d.name] for d in self.dimensions]
        lows = [d.low for d in self.dimensions]
        highs = [d.high for d in self.dimensions]
        stds = [d.high - d.low for d in self.dimensions]
        if len(self.dimensions) == 1:
            start, lows, highs, stds = [*start, 0.0], [*lows, -1.0], [*highs, 1.0], [*stds, 2.0]
        options = {
            "bounds": [lows, highs],
            "CMA_stds": stds,
            "integer_variables": [i for i, d in enumerate(self.dimensions) if d.integer],
            "popsize": settings.popsize,
            "randn": lambda rows, columns: generator.standard_normal((rows, columns)),
            "seed": math.nan,
            "verbose": -9,
            "verb_log": 0,
            "verb_disp": 0,
        }
        with quiet_warnings():
            self.es = cma.CMAEvolutionStrategy(start, SIGMA0, options)

    def ask(self, number: int) -> list[np.ndarray]:
        with quiet_warnings():
            return [np.asarray(x, dtype=float) for x in self.es.ask(number)]

    def tell(self, solutions: list[np.ndarray], scores: Sequence[float]) -> None:
        with quiet_warnings():
            self.es.tell(solutions, [-float(score) for score in scores])

    def values(self, solution: Sequence[float]) -> dict[str, float]:
        return {d.name: d.snap(x) for d, x in zip(self.dimensions, solution[: len(self.dimensions)], strict=True)}

    @property
    def mean(self) -> dict[str, float]:
        """The distribution mean (in the bounds), snapped: CMA-ES's estimate of the optimum."""
        return self.values(self.es.result.xfavorite)

    @property
    def sigma(self) -> float:
        return float(self.es.sigma)


def tune(
    strategy: str,
    against: Sequence[str] | str,
    *,
    rules: Rules | str | None = None,
    params: Sequence[str] | None = None,
    bounds: Mapping[str, tuple[float, float]] | None = None,
    start: str | None = None,
    budget: int = DEFAULT_BUDGET,
    games: int | None = None,
    hands: int | None = None,
    final: int | None = None,
    popsize: int | None = None,
    seed: int = 0,
    workers: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    out: str | Path | None = None,
    progress: ProgressCallback | None = None,
    on_illegal: str = "stop",
    notice: Callable[[str], None] | None = None,
    adjust_luck: bool = False,
    on_start: Callable[[], None] | None = None,
) -> TuneResult:
    """Tune ``strategy``'s parameters against the ``against`` pool (see the module docstring).

    ``budget`` candidate evaluations of ``games`` games (or ``hands`` hands) per opponent in
    the first generation; ``final`` games per candidate in the final measurement (default
    ten times ``games``). ``progress(evaluation, done, total)`` is called after each
    evaluation, recorded ones included; ``notice(message)`` hears of a recorded evaluation played again
    (damaged or edited; default: the ``simgin`` logger). ``on_illegal`` (``'stop'`` or ``'forfeit'``) is what an
    illegal move does (:attr:`simgin.running.runner.RunConfig.on_illegal`); a final measurement's
    tallies count the forfeits. ``adjust_luck`` (with ``hands``) ranks, selects and measures candidates by their
    luck-adjusted net points per hand (docs/STATISTICS.md §13) and adds the plain figures beside
    (:attr:`TuneResult.luck_adjusted`). ``on_start()`` is called once every input is checked, before anything is
    played (the CLI's compile notice, as in :func:`simgin.studies.tune_rules.tune_rules`). Bad input raises
    :class:`TuneError` (a ValueError).
    """
    if on_illegal not in runner.ON_ILLEGAL:
        raise TuneError(f"on_illegal={on_illegal!r}: choose from {', '.join(runner.ON_ILLEGAL)}")
    if isinstance(against, str):
        against = [against]
    settings = plan(
        strategy,
        against,
        rules=rules,
        params=params,
        bounds=bounds,
        start=start,
        budget=budget,
        games=games,
        hands=hands,
        final=final,
        popsize=popsize,
        seed=seed,
        on_illegal=on_illegal,
        adjust_luck=adjust_luck,
    )
    workers = execution_workers(workers, backend, scheduler, TuneError)
    optimiser = _Optimiser(settings)
    directory = TuneDirectory(out, settings, notice) if out is not None else None
    recorded = directory.recorded() if directory else {}
    if (small := budget_warning(settings)) is not None:  # after every input check: a refused run only errs
        warnings.warn(small, TuneBudgetWarning, stacklevel=2)
    if on_start:
        on_start()
    started, cpu_started = time.perf_counter(), process_cpu_seconds()
    history: list[Evaluation] = []
    generations: list[dict[str, Any]] = []
    expected = settings.budget + TOP_FINALISTS + 2 + 2
    phase_times: dict[str, float] = {}

    with Evaluator(settings, workers, backend, scheduler) as evaluator:

        def play(phase: str, generation: int, candidates: list[dict[str, float]], pairs: int) -> list[Evaluation]:
            seed_of_phase = phase_seed(settings.seed, phase, generation)
            done: list[Evaluation | None] = [None] * len(candidates)
            missing = []
            for index, values in enumerate(candidates):
                spec = settings.spec(values)
                old = recorded.get(f"{phase}-g{generation:03d}-{index:03d}")
                if old is None:
                    missing.append((index, values))
                    continue
                if old.spec != spec or old.seed != seed_of_phase or old.pairs != pairs:
                    raise TuneError(
                        f"{directory.path if directory else ''}: the recorded evaluation {old.key} played {old.spec!r} "
                        f"but the tune now asks for {spec!r}; the directory was written by another simgin or cma "
                        "version: use another --out directory"
                    )
                done[index] = old
            fresh = evaluator.evaluate(phase, generation, missing, pairs, seed_of_phase)
            for index, evaluation in enumerate(done):
                if evaluation is None:
                    evaluation = next(fresh)
                    if directory:
                        directory.save(evaluation)
                    done[index] = evaluation
                history.append(evaluation)
                if progress:
                    progress(evaluation, len(history), max(expected, len(history)))
            return [evaluation for evaluation in done if evaluation is not None]

        clock = time.perf_counter()
        search: list[Evaluation] = []
        for generation in range(settings.generations):
            size = min(settings.popsize, settings.budget - generation * settings.popsize)
            solutions = optimiser.ask(size)
            candidates = [optimiser.values(solution) for solution in solutions]
            evaluations = play("search", generation, candidates, settings.search_pairs(generation))
            search.extend(evaluations)
            if size == settings.popsize:
                optimiser.tell(solutions, [evaluation.score for evaluation in evaluations])
            generations.append(
                {
                    "generation": generation,
                    "pairs": settings.search_pairs(generation),
                    "seed": phase_seed(settings.seed, "search", generation),
                    "sigma": optimiser.sigma,
                    "mean": optimiser.mean,
                    "told": size == settings.popsize,
                }
            )
        phase_times["search_seconds"] = time.perf_counter() - clock

        clock = time.perf_counter()
        start_values = {d.name: settings.start_values[d.name] for d in settings.dimensions}
        finalists = [start_values, optimiser.mean]
        for evaluation in sorted(search, key=lambda e: -e.score):
            if len(finalists) >= TOP_FINALISTS + 2:
                break
            finalists.append(evaluation.values)
        unique: dict[str, dict[str, float]] = {}
        for values in finalists:
            unique.setdefault(settings.spec(values), values)
        selection = play("select", 0, list(unique.values()), settings.select_pairs)
        best = max(selection, key=lambda e: e.score)  # the first of equals: the start before any other
        phase_times["select_seconds"] = time.perf_counter() - clock

        clock = time.perf_counter()
        chosen = [best.values] if best.spec == settings.spec(start_values) else [best.values, start_values]
        final_evaluations = play("final", 0, chosen, settings.final_pairs)
        phase_times["final_seconds"] = time.perf_counter() - clock
    tuned_final = final_evaluations[0]
    start_final = final_evaluations[-1]
    difference = paired_difference(tuned_final, start_final)
    units = sum(2 * e.pairs * len(settings.against) for e in history)
    kept_start = tuned_final is not start_final and tuned_final.score < start_final.score
    kept = start_final if kept_start else tuned_final
    result = TuneResult(
        strategy=settings.strategy,
        rules=settings.rules.to_dict(),
        against=list(settings.against),
        spec=kept.spec,
        parameters=settings.all_values(kept.values),
        start_parameters=settings.all_values({}),
        score=tuned_final.score,
        score_ci=[tuned_final.score_low, tuned_final.score_high],
        start_score=start_final.score,
        start_score_ci=[start_final.score_low, start_final.score_high],
        p_value=difference["p_value"],
        evaluations=len(search),
        games=units,
        timing={
            "seconds": time.perf_counter() - started,
            "cpu_seconds": process_cpu_seconds() - cpu_started,
            **phase_times,
            "worker_seconds": sum(e.seconds for e in history),
            "evaluations_resumed": sum(1 for e in history if e.key in recorded),
        },
        kept_start=kept_start,
        tuned_spec=tuned_final.spec,
        tuned_parameters=settings.all_values(tuned_final.values),
        settings=settings,
        history=history,
        generations=generations,
        difference=difference,
        luck_adjusted=final_luck(tuned_final, start_final) if settings.adjust_luck else None,
    )
    if directory:
        from simgin.running.results import save_result

        try:
            save_result(directory.path, result.result_data())
        except OSError as error:
            raise TuneError(
                f"cannot write {directory.path / 'result.json'}: {error.strerror or error}; finished evaluations "
                "are kept, rerun the same command where the directory is writable to write it"
            ) from None
    return result


def final_luck(tuned: Evaluation, start: Evaluation) -> dict[str, Any]:
    """The luck-adjusted figures of the final measurement (issue 35), for the tuned candidate and (``start``) the
    start: net points per hand as the tune measures them (the score and its batch-means interval, the plain
    figure beside it by the same method) with the variance ratio per deal pair, and the share of hands won; each
    pooled over the opponents, who play as many deals each."""
    from simgin.running.summary import luck_adjusted

    def pooled(evaluation: Evaluation) -> dict[str, Any]:
        total = Tally.zero()
        for entry in evaluation.opponents:
            total = total + Tally.from_dict(entry["tally"])
        figures = luck_adjusted(total, 2)
        plain = np.mean([entry["plain_batch_sums"] for entry in evaluation.opponents], axis=0)
        mean, low, high = batch_mean(plain, evaluation.batch_pairs)
        figures["net_points_per_hand"] |= {
            "estimate": evaluation.score,
            "ci": [evaluation.score_low, evaluation.score_high],
            "plain": mean,
            "plain_ci": [low, high],
        }
        return figures

    return pooled(tuned) | {"start": pooled(start)}


__all__ = [
    "CONTRACT_KEYS",
    "DEFAULT_BUDGET",
    "DEFAULT_GAMES",
    "EVALUATIONS_DIR",
    "MIN_GENERATIONS",
    "Dimension",
    "Evaluation",
    "SearchDirectory",
    "TuneBudgetWarning",
    "TuneDirectory",
    "TuneError",
    "TuneResult",
    "TuneSettings",
    "batch_mean",
    "budget_warning",
    "format_value",
    "paired_difference",
    "parse_bound",
    "phase_seed",
    "plan",
    "tune",
]

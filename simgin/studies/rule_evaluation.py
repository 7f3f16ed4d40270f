"""Evaluating a rule set for ``simgin tune-rules``: its games on the search deals reduced to the objective and the
constraints, each evaluation kept in the search directory (resumable), and the optuna study that proposes the
next rule sets."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simgin.base import files
from simgin.running import runner
from simgin.running.summary import LUCK_FIGURES
from simgin.running.tally import Tally
from simgin.statistics.stats import paired_difference
from simgin.studies.rule_space import METRICS, Objective, TuneRulesError, luck_adjusted_win_share
from simgin.studies.search import (
    OPTIMISER_BRANCH,
    ChunkPool,
    SearchDirectory,
    batch_mean,
    opened_record,
    quiet_warnings,
    sealed_record,
)
from simgin.studies.tune_rules_settings import TuneRulesSettings

SETTINGS_FILE = "tune-rules.json"


ChunkPlayer = Callable[[runner.RunConfig, runner.Chunk], Any]
"""Plays one chunk and returns an object with ``tally`` (a :class:`~simgin.running.tally.Tally`) and ``seconds``."""


@dataclass
class RuleEvaluation:
    """One rule set played against the opponents on one phase's deals, reduced to per-chunk metric sums."""

    phase: str
    """'search' or 'final'."""
    index: int
    """The trial number (search), or 0 for the found and 1 for the start rules (final)."""
    values: dict[str, Any]
    """The varied switches' values."""
    seed: int
    pairs: int
    """Duplicate deal pairs per opponent."""
    sums: dict[str, list[float]]
    """Per metric, per chunk: the numerator summed over the opponents."""
    sizes: dict[str, list[float]]
    """Per metric, per chunk: the denominator summed over the opponents."""
    played: bool = True
    """False for a search trial that repeats an earlier one's rules (its numbers are copied, nothing played)."""
    seconds: float = 0.0

    @property
    def key(self) -> str:
        return f"{self.phase}-{self.index:04d}"

    def metric(self, name: str) -> tuple[float, float, float]:
        """The pooled rate with its batch-means 95% interval (NaN when nothing was counted)."""
        sizes = self.sizes[name]
        if sum(sizes) <= 0:
            return math.nan, math.nan, math.nan
        return batch_mean(self.sums[name], sizes)

    def point(self, name: str) -> float:
        return self.metric(name)[0]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleEvaluation:
        return cls(**data)


def objective_score(evaluation: RuleEvaluation, objective: Objective) -> tuple[float, float, float]:
    """The objective's value with a 95% interval: the metric's interval mapped through ``|x - target|``
    (the range of the distance over the interval, 0 when the target lies inside)."""
    rate, low, high = evaluation.metric(objective.metric)
    if objective.target is None:
        return rate, low, high
    value = abs(rate - objective.target)
    if not (math.isfinite(low) and math.isfinite(high)):
        return value, math.nan, math.nan
    ends = [abs(low - objective.target), abs(high - objective.target)]
    inside = low <= objective.target <= high
    return value, 0.0 if inside else min(ends), max(ends)


def score_difference(found: RuleEvaluation, start: RuleEvaluation, objective: Objective) -> dict[str, float]:
    """The paired difference found - start of the objective on the same chunks (docs/STATISTICS.md §9).

    ``|R - t|`` is the rate of ``s(x - t·n)`` over ``n`` with ``s`` the side of the target the rate
    lies on, so :func:`simgin.statistics.stats.paired_difference` of those per-chunk sums gives the difference
    of the distances with its delta-method interval and p-value.
    """
    if found.seed != start.seed or found.sizes.keys() != start.sizes.keys():
        raise ValueError("a paired difference needs two evaluations on the same deals")
    name = objective.metric
    x, xn = np.asarray(found.sums[name]), np.asarray(found.sizes[name])
    y, yn = np.asarray(start.sums[name]), np.asarray(start.sizes[name])
    if objective.target is not None:
        target = objective.target
        x_side = 1.0 if found.point(name) >= target else -1.0
        y_side = 1.0 if start.point(name) >= target else -1.0
        x, y = x_side * (x - target * xn), y_side * (y - target * yn)
    d = paired_difference(x, y, xn, yn)
    return {"difference": d.difference, "low": d.low, "high": d.high, "p_value": d.p, "chunks": d.units}


#: With ``adjust_luck`` the plain win rate is kept beside the luck-adjusted ``win_rate`` under this name.
PLAIN_WIN_RATE = "plain_win_rate"


def _luck_metrics() -> dict[str, tuple[str, Callable[[Tally, str], tuple[float, float]], bool]]:
    """With ``adjust_luck``, the first-named player's figures of ``luck_adjusted`` (issue 35) as metrics over the
    hands, adjusted under their name and plain as ``plain_NAME`` (the tally's sums of
    :data:`simgin.running.summary.LUCK_FIGURES`)."""
    metrics = {}
    for name, (plain, adjusted) in LUCK_FIGURES.items():
        for key, total in ((name, f"luck_{adjusted}"), (f"plain_{name}", f"luck_{plain}")):
            meaning = (
                f"the first-named player's {name.replace('_', ' ')}, {'plain' if key != name else 'luck-adjusted'}"
            )
            metrics[key] = (meaning, lambda t, mode, total=total: (t[total], t["hands"]), False)
    return metrics


def _reduce(tallies: Sequence[Tally], mode: str, adjust_luck: bool = False) -> dict[str, tuple[float, float]]:
    """Each metric's numerator and denominator summed over the opponents' tallies; with ``adjust_luck``,
    ``win_rate`` is luck-adjusted (:func:`~simgin.studies.rule_space.luck_adjusted_win_share`) and the plain one is
    :data:`PLAIN_WIN_RATE`."""
    metrics = dict(METRICS)
    if adjust_luck:
        meaning = "the first-named player's share of hands won, plain (beside the luck-adjusted win_rate)"
        metrics[PLAIN_WIN_RATE] = (meaning, METRICS["win_rate"][1], False)
        metrics["win_rate"] = (METRICS["win_rate"][0], luck_adjusted_win_share, False)
        metrics |= _luck_metrics()
    out = {}
    for name, (_, function, needs_games) in metrics.items():
        if needs_games and mode != "games":
            continue
        numerator = denominator = 0.0
        for t in tallies:
            a, b = function(t, mode)
            numerator += a
            denominator += b
        out[name] = (numerator, denominator)
    return out


def luck_figures(evaluation: RuleEvaluation) -> dict[str, dict[str, Any]]:
    """The ``luck_adjusted`` figures of an evaluation of a search with ``adjust_luck`` (issue 35): per
    :data:`simgin.running.summary.LUCK_FIGURES` name, the ``estimate`` with its batch-means 95% ``ci``, the
    ``plain`` figure and ``plain_ci`` by the same method, and the ``variance_ratio`` of the batches (plain over
    adjusted)."""
    figures = {}
    for name in LUCK_FIGURES:
        estimate, low, high = evaluation.metric(name)
        plain, plain_low, plain_high = evaluation.metric(f"plain_{name}")
        spreads = []
        for key, mean in ((f"plain_{name}", plain), (name, estimate)):
            sums, sizes = np.asarray(evaluation.sums[key]), np.asarray(evaluation.sizes[key])
            spreads.append(float(((sums - mean * sizes) ** 2).sum()))
        figures[name] = {
            "estimate": estimate,
            "ci": [low, high],
            "variance_ratio": spreads[0] / spreads[1] if spreads[1] > 0 else math.nan,
            "plain": plain,
            "plain_ci": [plain_low, plain_high],
        }
    return figures


class Evaluator(ChunkPool):
    """Plays rule sets on an open runner backend: one job per (rule set, opponent, chunk), consumed in job order."""

    def __init__(
        self,
        settings: TuneRulesSettings,
        workers: int,
        backend: str,
        play_chunk: ChunkPlayer | None,
        scheduler: str | None = None,
    ) -> None:
        super().__init__(settings.mode, workers, backend, scheduler, play_chunk)
        self.settings = settings

    def evaluate(
        self, phase: str, candidates: Sequence[tuple[int, dict[str, Any]]], count: int, seed: int
    ) -> Iterator[RuleEvaluation]:
        settings = self.settings
        jobs: list[tuple[runner.RunConfig, runner.Chunk]] = []
        plans = []
        for _, values in candidates:
            chunk_lists = []
            for opponent in settings.opponents:
                config = settings.config(values, opponent, count, seed)
                chunks = runner.plan_chunks(config)
                chunk_lists.append(chunks)
                jobs.extend((config, chunk) for chunk in chunks)
            plans.append(chunk_lists)
        results = self.results(jobs)
        for (index, values), chunk_lists in zip(candidates, plans, strict=True):
            chunk_count = len(chunk_lists[0])
            per_chunk: list[list[Tally]] = [[] for _ in range(chunk_count)]
            seconds = 0.0
            for _ in settings.opponents:
                for c in range(chunk_count):
                    result = next(results)
                    seconds += float(result.seconds)
                    per_chunk[c].append(result.tally)
            reduced = [_reduce(tallies, settings.mode, settings.adjust_luck) for tallies in per_chunk]
            names = list(reduced[0])
            yield RuleEvaluation(
                phase=phase,
                index=index,
                values=dict(values),
                seed=seed,
                pairs=count // 2,
                sums={name: [float(r[name][0]) for r in reduced] for name in names},
                sizes={name: [float(r[name][1]) for r in reduced] for name in names},
                seconds=seconds,
            )


#: The JSON type of each field of :class:`RuleEvaluation` (a test checks that every field is here).
_EVALUATION_FIELDS: dict[str, type | tuple[type, ...]] = {
    "phase": str,
    "index": int,
    "values": dict,
    "seed": int,
    "pairs": int,
    "sums": dict,
    "sizes": dict,
    "played": bool,
    "seconds": (int, float),
}


def evaluation_from_record(record: Any, path: Path) -> RuleEvaluation:
    """The evaluation in a record read from ``path``, its checksum and every field checked
    (:func:`~simgin.studies.search.opened_record`); anything else is a :class:`~simgin.base.files.DamagedFile`."""
    fix = "it is played again"
    data = opened_record(record, path, _EVALUATION_FIELDS)
    if data["phase"] not in ("search", "final") or data["index"] < 0 or data["pairs"] < 1:
        raise files.DamagedFile(path, f"{path} is damaged (phase, index or pairs out of range); {fix}")
    for name in ("sums", "sizes"):
        for metric, values in data[name].items():
            if not isinstance(values, list) or not all(files.is_finite(value) for value in values):
                raise files.DamagedFile(path, f"{path} is damaged ({name}[{metric!r}] is not finite numbers); {fix}")
    if set(data["sums"]) != set(data["sizes"]):
        raise files.DamagedFile(path, f"{path} is damaged (sums and sizes name different metrics); {fix}")
    return RuleEvaluation.from_dict(data)


def evaluation_record(evaluation: RuleEvaluation) -> dict[str, Any]:
    """What :meth:`TuneRulesDirectory.save` writes: the evaluation, its format and its checksum."""
    return sealed_record(evaluation.to_dict())


class TuneRulesDirectory(SearchDirectory):
    """A tune-rules search's ``--out`` directory (:class:`~simgin.studies.tune.SearchDirectory`):
    ``tune-rules.json`` (settings), ``evaluations/*.json``, ``result.json`` at the end."""

    settings_file = SETTINGS_FILE
    holds = "a tune-rules search"
    error = TuneRulesError

    def __init__(
        self, path: str | Path, settings: TuneRulesSettings, notice: Callable[[str], None] | None = None
    ) -> None:
        super().__init__(path, settings.to_dict(), notice or (lambda message: None))

    def parse(self, record: Any, path: Path) -> RuleEvaluation:
        return evaluation_from_record(record, path)

    def record(self, evaluation: RuleEvaluation) -> dict[str, Any]:
        return evaluation_record(evaluation)


def _constraints(trial: Any) -> Sequence[float]:
    return trial.user_attrs.get("constraints", [0.0])


class OptunaStudy:
    """An optuna study with a seeded TPE sampler over the varied switches, asked and told in trial order."""

    def __init__(self, settings: TuneRulesSettings) -> None:
        try:
            import optuna
        except ImportError:
            raise TuneRulesError(
                "simgin tune-rules needs the optional extra: pip install 'simgin[tune-rules]'"
            ) from None
        self.optuna = optuna
        optuna.logging.set_verbosity(optuna.logging.WARNING)
        sequence = np.random.SeedSequence(settings.seed, spawn_key=(OPTIMISER_BRANCH,))
        seed = int(sequence.generate_state(1, dtype=np.uint32)[0])
        with quiet_warnings():
            sampler = optuna.samplers.TPESampler(seed=seed, constraints_func=_constraints if settings.keep else None)
            self.study = optuna.create_study(direction=settings.objective.direction, sampler=sampler)
        distributions = optuna.distributions
        self.distributions = {
            v.name: distributions.IntDistribution(v.low, v.high)
            if v.choices is None
            else distributions.CategoricalDistribution(list(v.choices))
            for v in settings.varied
        }
        start = settings.start_values
        if all(v.contains(start[v.name]) for v in settings.varied):
            self.study.enqueue_trial(start)

    def ask(self) -> Any:
        with quiet_warnings():
            return self.study.ask(self.distributions)

    def tell(self, trial: Any, value: float, constraints: Sequence[float]) -> None:
        trial.set_user_attr("constraints", [float(c) for c in constraints] or [0.0])
        with quiet_warnings():
            if math.isfinite(value):
                self.study.tell(trial, value)
            else:
                self.study.tell(trial, state=self.optuna.trial.TrialState.FAIL)

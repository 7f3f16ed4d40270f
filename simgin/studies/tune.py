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

import contextlib
import io
import json
import math
import os
import re
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from simgin.base import files
from simgin.game.rules import Rules
from simgin.players.registry import Player, did_you_mean, lookup, resolve, split_spec
from simgin.running import runner
from simgin.running.tally import Tally
from simgin.statistics.stats import z_value

DEFAULT_BUDGET = 128
"""Candidate evaluations of the search: 16 generations of 8 for a strategy with 5 tunable parameters."""
DEFAULT_GAMES = 400
"""Games per opponent in an evaluation of the first generation (the last plays twice as many)."""
GROWTH = 2.0
"""The last generation's sample divided by the first's (linear in between)."""
SELECT_FACTOR = 4
"""The selection round plays this many times the first generation's sample per finalist."""
FINAL_FACTOR = 10
"""The final measurement plays this many times the first generation's sample per candidate, by default."""
TOP_FINALISTS = 3
"""Best-scoring search candidates that join the start and the distribution mean in the selection round."""
SIGMA0 = 0.3
"""CMA-ES's initial step size as a share of each parameter's range."""
BATCHES = 40
"""Chunks per evaluation at most: the batches of the batch-means intervals."""
PHASES = ("search", "select", "final")
_OPTIMISER_BRANCH = 3
METHOD = "cma-es, common random numbers per generation, samples x2, re-evaluated finalists (simgin tune v1)"
SETTINGS_FILE = "tune.json"
EVALUATIONS_DIR = "evaluations"

ProgressCallback = Callable[["Evaluation", int, int], None]


class TuneError(ValueError):
    """Bad input or a tune directory that does not match: a one-line message naming the bad value."""


# -- the search space ----------------------------------------------------------------------


@dataclass(frozen=True)
class Dimension:
    """One tuned parameter: its search bounds and whether it takes whole numbers only."""

    name: str
    low: float
    high: float
    integer: bool = False

    @property
    def decimals(self) -> int:
        """Digits kept after the point: a thousandth of the range, rounded to a power of ten."""
        return max(0, 3 - round(math.log10(self.high - self.low)))

    def snap(self, value: float) -> float:
        """The nearest value inside the bounds on the dimension's grid (whole numbers, or a thousandth of the
        range): what is evaluated is exactly what the printed spec says."""
        value = min(max(float(value), self.low), self.high)
        if self.integer:
            return float(min(max(round(value), math.ceil(self.low)), math.floor(self.high)))
        snapped = float(f"{value:.{self.decimals}f}")
        return min(max(snapped, self.low), self.high)


def format_value(value: float, integer: bool = False) -> str:
    """A parameter value as a spec writes it: whole numbers without a point, others as Python's shortest repr."""
    value = float(value)
    if integer or value.is_integer():
        return str(round(value))
    return repr(value)


def parse_bound(text: str) -> tuple[str, float, float]:
    """``'potential=0..3'`` -> ``('potential', 0.0, 3.0)``, or a one-line error.

    >>> parse_bound("potential=0..2.5")
    ('potential', 0.0, 2.5)
    """
    name, sep, rest = text.partition("=")
    low_text, dots, high_text = rest.partition("..")
    if not sep or not dots or not name.strip():
        raise TuneError(f"bad --bound {text!r}: expected NAME=LOW..HIGH, e.g. potential=0..3")
    try:
        low, high = float(low_text), float(high_text)
    except ValueError:
        raise TuneError(f"bad --bound {text!r}: LOW and HIGH must be numbers, e.g. potential=0..3") from None
    if not (math.isfinite(low) and math.isfinite(high)):
        raise TuneError(f"bad --bound {text!r}: LOW and HIGH must be finite")
    return name.strip(), low, high


# -- settings ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class TuneSettings:
    """Everything that determines a tune's result (workers and backend do not)."""

    strategy: str
    """The strategy's name or ``module:Class`` / ``file.py:Class`` target, without parameters."""
    start: tuple[tuple[str, float], ...]
    """Every declared parameter with its start value, in declaration order."""
    integers: tuple[str, ...]
    """The parameters declared whole-numbered (written without a point in specs)."""
    dimensions: tuple[Dimension, ...]
    against: tuple[str, ...]
    rules: Rules
    mode: str
    """``'games'`` (share of games won) or ``'hands'`` (net points per hand)."""
    count: int
    """Games (or hands) per opponent in an evaluation of the first generation."""
    final: int
    """Games (or hands) per opponent and candidate in the final measurement."""
    budget: int
    popsize: int
    seed: int
    on_illegal: str = "stop"
    """What an illegal move does in every evaluation (:attr:`simgin.running.runner.RunConfig.on_illegal`)."""

    @property
    def generations(self) -> int:
        return math.ceil(self.budget / self.popsize)

    def search_pairs(self, generation: int) -> int:
        """Duplicate deal pairs per opponent in an evaluation of ``generation`` (growing linearly)."""
        share = generation / (self.generations - 1) if self.generations > 1 else 0.0
        return max(1, round(self.count // 2 * (1 + (GROWTH - 1) * share)))

    @property
    def select_pairs(self) -> int:
        return SELECT_FACTOR * (self.count // 2)

    @property
    def final_pairs(self) -> int:
        return self.final // 2

    @property
    def start_values(self) -> dict[str, float]:
        return dict(self.start)

    def spec(self, values: Mapping[str, float]) -> str:
        """The full spec of a candidate: every parameter written out, tuned ones from ``values``."""
        merged = self.start_values | dict(values)
        text = ",".join(f"{name}={format_value(merged[name], name in self.integers)}" for name, _ in self.start)
        return f"{self.strategy}:{text}"

    def all_values(self, values: Mapping[str, float]) -> dict[str, float | int]:
        """Every parameter's value of a candidate (whole-numbered ones as int)."""
        merged = self.start_values | dict(values)
        return {name: int(merged[name]) if name in self.integers else float(merged[name]) for name, _ in self.start}

    def config(self, spec: str, opponent: str, pairs: int, seed: int) -> runner.RunConfig:
        """The runner settings of one candidate against one opponent: duplicate deals, at most BATCHES chunks."""
        count = 2 * pairs
        return runner.RunConfig(
            (spec, opponent),
            self.rules,
            hands=count if self.mode == "hands" else None,
            games=count if self.mode == "games" else None,
            seed=seed,
            duplicate=True,
            chunk_units=math.ceil(pairs / BATCHES),
            on_illegal=self.on_illegal,
        )

    def to_dict(self) -> dict[str, Any]:
        """The settings as plain JSON (what a tune directory records and a rerun must match)."""
        data = {
            "strategy": self.strategy,
            "start": dict(self.start),
            "integers": list(self.integers),
            "dimensions": [asdict(dimension) for dimension in self.dimensions],
            "against": list(self.against),
            "rules": self.rules.to_dict(),
            "mode": self.mode,
            "count": self.count,
            "final": self.final,
            "budget": self.budget,
            "popsize": self.popsize,
            "seed": self.seed,
            "method": METHOD,
        }
        if self.on_illegal != "stop":  # a tune of 'stop' keeps the settings it had before the option
            data["on_illegal"] = self.on_illegal
        return json.loads(json.dumps(data))


#: Below these a tune warns that its budget is too small (issue 32 item 19): CMA-ES moves its mean and adapts its
#: step size once per generation, so fewer than five generations leave the search near its start, and it needs
#: several samples per parameter to learn which directions pay (its covariance learns at a rate of about 2/n²).
MIN_GENERATIONS = 5
MIN_EVALUATIONS_PER_PARAMETER = 5


class TuneBudgetWarning(UserWarning):
    """The budget is too small for the number of parameters tuned (:func:`budget_warning`)."""


def budget_warning(settings: TuneSettings) -> str | None:
    """Why ``settings``' budget is too small for a search to move far from its start, or None.

    Too small: fewer than :data:`MIN_GENERATIONS` generations, or fewer than :data:`MIN_EVALUATIONS_PER_PARAMETER`
    evaluations per tuned parameter. The run still goes ahead: a tune never claims a gain its final
    measurement does not show, so a small budget most likely returns the start.
    """
    count = len(settings.dimensions)
    enough = max(MIN_GENERATIONS * settings.popsize, MIN_EVALUATIONS_PER_PARAMETER * count)
    if settings.budget >= enough:
        return None
    return (
        f"--budget {settings.budget} is small for {count} parameter(s): {settings.generations} generation(s) of "
        f"{settings.popsize}; CMA-ES needs at least {MIN_GENERATIONS} generations and {MIN_EVALUATIONS_PER_PARAMETER} "
        f"evaluations per parameter to move far from the start, here --budget {enough} or more "
        "(or fewer parameters with --params), so the start will most likely be kept"
    )


def default_popsize(dimensions: int) -> int:
    """CMA-ES's default population size, 4 + floor(3 ln n)."""
    return 4 + math.floor(3 * math.log(max(dimensions, 1)))


def _same_strategy(a: Player, b: Player) -> bool:
    if a.info.factory is not None or b.info.factory is not None:
        return a.info.factory is b.info.factory
    return a.info.name == b.info.name


def plan(
    strategy: str,
    against: Sequence[str],
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
    on_illegal: str = "stop",
) -> TuneSettings:
    """Check a tune's input and fix its settings, or raise a one-line :class:`TuneError`.

    Tunable by default: every numeric parameter with a lower and an upper bound (declared,
    or given in ``bounds``, which may also narrow declared ones), but for the ones that buy
    strength with time (``Parameter.cost``: samples, playouts), which only ``params`` selects.
    A parameter without both bounds cannot be searched and is refused when ``params`` names it.
    """
    if isinstance(rules, str):  # a preset name, as every run function takes (issue 32 item 17)
        try:
            rules = Rules.preset(rules)
        except ValueError as error:
            raise TuneError(str(error)) from None
    target, given = split_spec(strategy)
    if given:
        raise TuneError(
            f"STRATEGY {strategy!r} carries parameters: name the strategy alone and give the start with --start"
        )
    info = lookup(target)
    declared = {parameter.name: parameter for parameter in info.parameters}
    if not declared:
        raise TuneError(f"strategy {info.name!r} declares no Parameters, so it has nothing to tune")
    base = resolve(target)
    if start is not None:
        started = resolve(start)
        if not _same_strategy(started, base):
            raise TuneError(f"--start {start!r} is a spec of strategy {started.info.name!r}, not of {info.name!r}")
    else:
        started = base
    start_values = {name: float(started.values[name]) for name in declared}
    bounds = dict(bounds or {})
    for name, (low, high) in bounds.items():
        if name not in declared:
            raise TuneError(
                f"--bound {name}: strategy {info.name!r} has no such parameter{did_you_mean(name, declared)}: "
                f"choose from {', '.join(declared)}"
            )
        parameter = declared[name]
        for value in (low, high):
            try:
                parameter.check(value)
            except ValueError as error:
                raise TuneError(f"--bound {name}={low:g}..{high:g}: {error} (the declared bounds)") from None
        if not low < high:
            raise TuneError(f"--bound {name}={low:g}..{high:g}: LOW must be below HIGH")

    def box(name: str) -> tuple[float | None, float | None]:
        parameter = declared[name]
        return bounds.get(name, (parameter.low, parameter.high))

    if params is None:
        names = [
            name
            for name in declared
            if not declared[name].cost and None not in box(name) and box(name)[0] < box(name)[1]  # type: ignore[operator]
        ]
        if not names:
            raise TuneError(
                f"strategy {info.name!r} has no parameter with both bounds to tune: "
                "give some with --bound NAME=LOW..HIGH"
            )
    else:
        names = list(params)
        if not names:
            raise TuneError("--params is empty: name at least one parameter")
        for name in names:
            if name not in declared:
                raise TuneError(
                    f"unknown parameter {name!r}{did_you_mean(name, declared)} of strategy {info.name!r}: "
                    f"choose from {', '.join(declared)}"
                )
            if names.count(name) > 1:
                raise TuneError(f"--params names {name!r} twice")
            low, high = box(name)
            if low is None or high is None:
                missing = "bounds" if low is None and high is None else ("lower" if low is None else "upper") + " bound"
                raise TuneError(
                    f"parameter {name!r} of strategy {info.name!r} has no {missing}, so it cannot be tuned: "
                    f"give both with --bound {name}=LOW..HIGH"
                )
            if not low < high:
                raise TuneError(
                    f"parameter {name!r} of strategy {info.name!r} has one allowed value, {low:g}: nothing to tune"
                )
        names = [name for name in declared if name in names]  # declaration order
        stray = sorted(set(bounds) - set(names))
        if stray:
            raise TuneError(f"--bound {stray[0]}: the parameter is not in --params")
    dimensions = []
    for name in names:
        low, high = box(name)
        assert low is not None and high is not None
        dimension = Dimension(name, float(low), float(high), declared[name].integer)
        if not dimension.low <= start_values[name] <= dimension.high:
            raise TuneError(
                f"the start value {name}={format_value(start_values[name])} lies outside the search bounds "
                f"{dimension.low:g}..{dimension.high:g}: change --start or --bound"
            )
        dimensions.append(dimension)
    against = tuple(against)
    if not against:
        raise TuneError("give at least one opponent with --against SPEC")
    for opponent in against:
        resolve(opponent)
    if isinstance(budget, bool) or budget < 1:
        raise TuneError(f"--budget {budget}: must be at least 1 candidate evaluation")
    if games is not None and hands is not None:
        raise TuneError("give --games or --hands, not both")
    mode = "hands" if hands is not None else "games"
    count = hands if hands is not None else (games if games is not None else DEFAULT_GAMES)
    for label, value in ((f"--{mode}", count), ("--final", final)):
        if value is not None and (value < 2 or value % 2):
            raise TuneError(f"{label} {value}: must be an even number >= 2 (duplicate deals come in pairs)")
    popsize = default_popsize(len(dimensions)) if popsize is None else popsize
    if popsize < 2:
        raise TuneError(f"--popsize {popsize}: must be at least 2")
    if seed < 0:
        raise TuneError(f"--seed {seed}: must be >= 0")
    return TuneSettings(
        strategy=target,
        start=tuple((name, start_values[name]) for name in declared),
        integers=tuple(name for name, parameter in declared.items() if parameter.integer),
        dimensions=tuple(dimensions),
        against=against,
        rules=rules or Rules(),
        mode=mode,
        count=count,
        final=final if final is not None else FINAL_FACTOR * count,
        budget=budget,
        popsize=popsize,
        seed=seed,
        on_illegal=on_illegal,
    )


def phase_seed(seed: int, phase: str, generation: int = 0) -> int:
    """The run seed of one phase (and search generation): its own branch of ``SeedSequence(seed)``."""
    sequence = np.random.SeedSequence(seed, spawn_key=(PHASES.index(phase), generation))
    return int(sequence.generate_state(1, dtype=np.uint64)[0])


# -- evaluations ------------------------------------------------------------------------------


@dataclass
class Evaluation:
    """One candidate played against the pool on one phase's deals, reduced to what the tune needs."""

    phase: str
    generation: int
    index: int
    """Position of the candidate in its generation (search) or phase."""
    values: dict[str, float]
    """The tuned parameters' values."""
    spec: str
    seed: int
    """The run seed of the phase (chunk seeds are its SeedSequence children)."""
    pairs: int
    """Duplicate deal pairs per opponent."""
    chunk_units: int
    score: float
    score_low: float
    score_high: float
    batch_sums: list[float]
    """Per chunk: the candidate's score summed over the chunk's pairs, averaged over the opponents."""
    batch_pairs: list[int]
    opponents: list[dict[str, Any]]
    """Per opponent: ``opponent``, ``score``, ``score_low``, ``score_high`` (and the ``tally`` in the final phase)."""
    seconds: float = 0.0
    """Worker seconds spent on its chunks."""

    @property
    def key(self) -> str:
        return f"{self.phase}-g{self.generation:03d}-{self.index:03d}"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Evaluation:
        return cls(**data)

    def to_record(self) -> dict[str, Any]:
        """What ``evaluations/<key>.json`` holds: the fields, the record format and a checksum of both, so that a
        record edited by hand, or damaged, is noticed and played again (issue 25, D3)."""
        record = {"format": EVALUATION_FORMAT, **self.to_dict()}
        return record | {"check": files.checksum(record)}

    @classmethod
    def from_record(cls, record: Any, path: Path) -> Evaluation:
        """The evaluation in a record read from ``path``, every field checked; anything else is a
        :class:`~simgin.base.files.DamagedFile` saying what is wrong (issue 25, D3, D4)."""
        fix = "it is played again"
        files.check_fields(record, path, {"format": int, "check": str}, fix, "evaluation")
        if record["format"] != EVALUATION_FORMAT:
            raise files.DamagedFile(path, f"{path} was written by another simgin version; {fix}")
        if record["check"] != files.checksum(record):
            raise files.DamagedFile(path, f"{path} was edited or is damaged (it does not match its checksum); {fix}")
        data = {key: value for key, value in record.items() if key not in ("format", "check")}
        if set(data) != {item.name for item in fields(cls)}:
            raise files.DamagedFile(path, f"{path} is damaged (not the fields of an evaluation record); {fix}")
        files.check_fields(data, path, _EVALUATION_FIELDS, fix, "evaluation")
        problem = _evaluation_problem(data)
        if problem:
            raise files.DamagedFile(path, f"{path} is damaged ({problem}); {fix}")
        return cls.from_dict(data)


#: Version of an evaluation record's layout (``format``); another version is played again.
EVALUATION_FORMAT = 1
#: The JSON type of each field of :class:`Evaluation` (a test checks that every field is here).
_EVALUATION_FIELDS: dict[str, type | tuple[type, ...]] = {
    "phase": str,
    "generation": int,
    "index": int,
    "values": dict,
    "spec": str,
    "seed": int,
    "pairs": int,
    "chunk_units": int,
    "score": float,
    "score_low": float,
    "score_high": float,
    "batch_sums": list,
    "batch_pairs": list,
    "opponents": list,
    "seconds": float,
}
_KEY = re.compile(r"(search|select|final)-g\d{3,}-\d{3,}")


def _evaluation_problem(data: dict[str, Any]) -> str | None:
    """What is wrong inside an evaluation record whose fields have the right types, or None."""
    if data["phase"] not in PHASES:
        return f"phase {data['phase']!r} is not one of {', '.join(PHASES)}"
    if min(data["generation"], data["index"], data["seed"]) < 0 or min(data["pairs"], data["chunk_units"]) < 1:
        return "a negative count or seed"
    if not all(isinstance(name, str) and files.is_number(value) for name, value in data["values"].items()):
        return "'values' holds a value that is not a number"
    sums, sizes = data["batch_sums"], data["batch_pairs"]
    if not sums or len(sums) != len(sizes) or not all(files.is_finite(x) for x in sums):
        return "'batch_sums' is not one number per batch"
    if not all(isinstance(x, int) and not isinstance(x, bool) and 0 < x <= 2**53 for x in sizes):
        return "'batch_pairs' holds a value that is not a positive count"
    opponent = {"opponent": str, "score": float, "score_low": float, "score_high": float}
    for entry in data["opponents"]:
        if not isinstance(entry, dict) or any(
            name not in entry or not (isinstance(entry[name], str) if kind is str else files.is_number(entry[name]))
            for name, kind in opponent.items()
        ):
            return "'opponents' holds an entry that is not an opponent's score"
        if "tally" in entry and not (
            isinstance(entry["tally"], dict) and all(files.is_finite(x) for x in entry["tally"].values())
        ):
            return "an opponent's 'tally' is not a tally"
    return None


def pair_score_sum(t: Tally, mode: str) -> float:
    """A's results summed over a tally's duplicate pairs: pair scores (a game won 1, drawn 1/2) in games mode,
    net points per hand of each pair in hands mode; divided by the pairs it is the evaluation's score."""
    if mode == "games":
        return sum(k / 4 * t[f"pair_score_{k}"] for k in range(5))
    return (t["pair_x1"] + t["pair_x2"]) / 2


def batch_mean(sums: Sequence[float], sizes: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean per pair with a batch-means interval: chunks are independent, so the ratio estimator's variance is
    C/(C-1) * sum((S_c - m n_c)^2) / N^2 over the C chunks (NaN bounds with one chunk).

    >>> batch_mean([3.0, 1.0], [4, 4])
    (0.5, 0.01..., 0.98...)
    """
    s = np.asarray(sums, dtype=float)
    n = np.asarray(sizes, dtype=float)
    total = float(n.sum())
    mean = float(s.sum()) / total
    if s.size < 2:
        return mean, math.nan, math.nan
    se = math.sqrt(s.size / (s.size - 1) * float(((s - mean * n) ** 2).sum())) / total
    half = z_value(confidence) * se
    return mean, mean - half, mean + half


def paired_difference(a: Evaluation, b: Evaluation, confidence: float = 0.95) -> dict[str, float]:
    """Difference of two evaluations on the same deals (a - b), paired chunk by chunk, with its interval and
    the two-sided p-value of 'no difference'."""
    if a.batch_pairs != b.batch_pairs or a.seed != b.seed:
        raise ValueError("a paired difference needs two evaluations on the same deals")
    sums = np.asarray(a.batch_sums) - np.asarray(b.batch_sums)
    mean, low, high = batch_mean(sums, a.batch_pairs, confidence)
    half = high - mean
    if not math.isfinite(half):
        p_value = math.nan
    elif half == 0:
        p_value = 1.0 if mean == 0 else 0.0
    else:
        # 2(1 - Phi(|z|)) as erfc(|z|/sqrt 2), which keeps its precision far into the tail.
        p_value = math.erfc(abs(mean) / (half / z_value(confidence)) / math.sqrt(2))
    return {"difference": mean, "low": low, "high": high, "p_value": p_value}


class _Evaluator:
    """Plays candidates on an open runner backend: one job per (candidate, opponent, chunk), results in job order."""

    def __init__(self, settings: TuneSettings, workers: int, backend: str, scheduler: str | None) -> None:
        self.settings = settings
        self.workers = workers
        self.backend_name = backend
        self.scheduler = scheduler
        self.compile_first = workers > 1 and scheduler is None and not runner.kernels_cached(settings.mode)

    def __enter__(self) -> _Evaluator:
        self._context = runner.backend_for(self.workers, self.backend_name, self.scheduler)
        self.backend = self._context.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._context.__exit__(*exc)

    def evaluate(
        self, phase: str, generation: int, candidates: Sequence[tuple[int, dict[str, float]]], pairs: int, seed: int
    ) -> Iterator[Evaluation]:
        """Evaluate ``(index, values)`` candidates on the deals of ``seed``, each as its last chunk comes in."""
        settings = self.settings
        jobs: list[tuple[runner.RunConfig, runner.Chunk]] = []
        for _, values in candidates:
            spec = settings.spec(values)
            for opponent in settings.against:
                config = settings.config(spec, opponent, pairs, seed)
                jobs.extend((config, chunk) for chunk in runner.plan_chunks(config))
        futures: list[Any] = []
        if jobs and self.compile_first:
            # The first job alone compiles the kernels into numba's cache; the other workers then load it.
            first = self.backend.submit(runner.run_chunk, *jobs[0], False)
            runner.wait_result(self.backend, first)
            futures.append(first)
            self.compile_first = False
        futures.extend(
            self.backend.submit(runner.run_chunk, config, chunk, False) for config, chunk in jobs[len(futures) :]
        )
        results = iter(futures)
        opponents = settings.against
        for index, values in candidates:
            spec = settings.spec(values)
            chunk_count = len(runner.plan_chunks(settings.config(spec, opponents[0], pairs, seed)))
            sums = np.zeros((len(opponents), chunk_count))
            sizes = np.zeros(chunk_count, dtype=np.int64)
            per_opponent = []
            seconds = 0.0
            for o, opponent in enumerate(opponents):
                total = Tally.zero()
                for c in range(chunk_count):
                    result = runner.wait_result(self.backend, next(results))
                    seconds += result.seconds
                    sums[o, c] = pair_score_sum(result.tally, settings.mode)
                    sizes[c] = result.chunk.unit_count
                    total = total + result.tally
                mean, low, high = batch_mean(sums[o], sizes)
                entry: dict[str, Any] = {"opponent": opponent, "score": mean, "score_low": low, "score_high": high}
                if phase == "final":
                    entry["tally"] = total.to_dict()
                per_opponent.append(entry)
            batch_sums = sums.mean(axis=0)
            mean, low, high = batch_mean(batch_sums, sizes)
            yield Evaluation(
                phase=phase,
                generation=generation,
                index=index,
                values=dict(values),
                spec=spec,
                seed=seed,
                pairs=pairs,
                chunk_units=math.ceil(pairs / BATCHES),
                score=mean,
                score_low=low,
                score_high=high,
                batch_sums=[float(x) for x in batch_sums],
                batch_pairs=[int(x) for x in sizes],
                opponents=per_opponent,
                seconds=seconds,
            )


# -- the output directory -----------------------------------------------------------------------


class SearchDirectory:
    """A search's ``--out`` directory: its settings file, ``evaluations/*.json``, ``result.json`` at the end.

    Shared by ``simgin tune`` (:class:`TuneDirectory`) and ``simgin tune-rules``
    (:class:`simgin.studies.tune_rules.TuneRulesDirectory`). As a run's directory
    (:class:`~simgin.running.runner.RunDirectory`), nothing in it is trusted: a new one must be new or empty
    (:func:`~simgin.base.files.new_directory_problem`), the settings file must be readable and the same
    settings, and every file is written by :func:`simgin.base.files.write_file`, never through a link planted
    in it. An evaluation record that is damaged, edited (checksum) or of wrong types is reported (``notice``) and
    played again.
    """

    settings_file: ClassVar[str]
    holds: ClassVar[str]
    """What the directory holds, in refusals: ``'a tune'``."""
    error: ClassVar[type[ValueError]]
    record_key: ClassVar[re.Pattern[str] | None] = None
    """The names of evaluation records (others in the folder are ignored); None: every ``*.json``."""

    def __init__(self, path: str | Path, wanted: dict[str, Any], notice: Callable[[str], None]) -> None:
        self.path = Path(path)
        self.notice = notice
        settings_path = self.path / self.settings_file
        if os.path.lexists(settings_path):
            try:
                recorded = files.read_json(settings_path, "use another --out directory")
            except files.DamagedFile as error:
                raise self.error(str(error)) from None
            if not isinstance(recorded, dict):
                raise self.error(f"{settings_path} is damaged (not a JSON object); use another --out directory")
            if recorded != wanted:
                changed = runner.show_differences(runner.setting_differences(recorded, wanted))
                raise self.error(
                    f"{self.path} holds {self.holds} with other settings ({changed}); "
                    "use another --out directory or rerun with the recorded settings"
                )
        else:
            problem = files.new_directory_problem(self.path, self.settings_file)
            if problem:
                raise self.error(problem)
            try:
                files.write_file(self.path, self.settings_file, json.dumps(wanted, indent=1, sort_keys=True))
            except OSError as error:
                raise self.error(f"cannot write the --out directory {self.path}: {error.strerror or error}") from None
        try:
            files.make_directory(self.path, EVALUATIONS_DIR)
        except OSError as error:
            raise self.error(f"cannot write the --out directory {self.path}: {error.strerror or error}") from None

    def parse(self, record: Any, path: Path) -> Any:
        """The evaluation in a record read from ``path``, checked, else a :class:`~simgin.base.files.DamagedFile`."""
        raise NotImplementedError

    def record(self, evaluation: Any) -> dict[str, Any]:
        """What :meth:`save` writes for ``evaluation``: its fields, format and checksum."""
        raise NotImplementedError

    def recorded(self) -> dict[str, Any]:
        """The evaluations already written and checked, by key; any other is reported and played again."""
        found = {}
        for file in sorted((self.path / EVALUATIONS_DIR).glob("*.json")):
            if self.record_key is not None and not self.record_key.fullmatch(file.stem):
                continue
            try:
                evaluation = self.parse(files.read_json(file, "it is played again"), file)
                if evaluation.key != file.stem:
                    raise files.DamagedFile(file, f"{file} holds evaluation {evaluation.key}; it is played again")
            except files.DamagedFile as error:
                self.notice(str(error))
                continue
            found[evaluation.key] = evaluation
        return found

    def save(self, evaluation: Any) -> None:
        """Write an evaluation's record (:meth:`record`) atomically, as it finishes."""
        try:
            files.write_file(self.path, f"{EVALUATIONS_DIR}/{evaluation.key}.json", json.dumps(self.record(evaluation)))
        except OSError as error:
            raise self.error(
                f"cannot write evaluation {evaluation.key} into {self.path}: {error.strerror or error}; "
                "finished evaluations are kept, rerun the same command to resume"
            ) from None


class TuneDirectory(SearchDirectory):
    """A tune's ``--out`` directory (:class:`SearchDirectory`): ``tune.json``, ``evaluations/*.json``."""

    settings_file = SETTINGS_FILE
    holds = "a tune"
    error = TuneError
    record_key = _KEY

    def __init__(self, path: str | Path, settings: TuneSettings, notice: Callable[[str], None] | None = None) -> None:
        super().__init__(path, settings.to_dict(), notice or runner.log_notice)

    def parse(self, record: Any, path: Path) -> Evaluation:
        return Evaluation.from_record(record, path)

    def record(self, evaluation: Evaluation) -> dict[str, Any]:
        return evaluation.to_record()


# -- the optimiser ------------------------------------------------------------------------------------


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
        sequence = np.random.SeedSequence(settings.seed, spawn_key=(_OPTIMISER_BRANCH,))
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
        with _quiet():
            self.es = cma.CMAEvolutionStrategy(start, SIGMA0, options)

    def ask(self, number: int) -> list[np.ndarray]:
        with _quiet():
            return [np.asarray(x, dtype=float) for x in self.es.ask(number)]

    def tell(self, solutions: list[np.ndarray], scores: Sequence[float]) -> None:
        with _quiet():
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


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


# -- the result -----------------------------------------------------------------------------------------

CONTRACT_KEYS = (
    "strategy",
    "rules",
    "against",
    "spec",
    "parameters",
    "start_parameters",
    "score",
    "score_ci",
    "start_score",
    "start_score_ci",
    "p_value",
    "evaluations",
    "games",
    "timing",
    "kept_start",
    "tuned_spec",
    "tuned_parameters",
)


@dataclass(frozen=True)
class TuneResult:
    """What a tune found and how it measured it; :meth:`to_dict` is the ``--json`` object.

    ``score`` (the tuned candidate, ``tuned_spec``) and ``start_score`` are measured on the
    final, fresh deals: the share of games won against the pool (a drawn game counts half),
    or with ``hands`` the net points per hand; ``p_value`` is the two-sided p-value of their
    paired difference. ``spec`` and ``parameters`` are the result to use: the tuned
    candidate, or the start when the final measurement scored the tuned candidate lower
    than the start (``kept_start``; a tune never claims a gain its final measurement does
    not show, issue 25). ``evaluations`` counts the search's candidate evaluations;
    ``games`` every game (hand, with ``hands``) played, the selection and the final
    measurement included.
    """

    strategy: str
    rules: dict[str, Any]
    against: list[str]
    spec: str
    parameters: dict[str, float | int]
    start_parameters: dict[str, float | int]
    score: float
    score_ci: list[float]
    start_score: float
    start_score_ci: list[float]
    p_value: float
    evaluations: int
    games: int
    timing: dict[str, float]
    kept_start: bool
    """The tuned candidate scored lower than the start on the final deals: ``spec`` is the start."""
    tuned_spec: str
    """The candidate the search and the selection chose, measured as ``score``."""
    tuned_parameters: dict[str, float | int]
    settings: TuneSettings = field(repr=False)
    history: list[Evaluation] = field(repr=False)
    """Every evaluation in play order: the search, then the selection round, then the final measurement."""
    generations: list[dict[str, Any]] = field(repr=False)
    """Per search generation: its sample, seed, CMA-ES step size and distribution mean after it."""
    difference: dict[str, float] = field(repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` object: exactly the contract's keys."""
        from simgin.running.results import jsonable

        return jsonable({key: getattr(self, key) for key in CONTRACT_KEYS})

    def to_json(self) -> dict[str, Any]:
        """The ``simgin tune --json`` object (:meth:`to_dict`), as every result of a command has it."""
        return self.to_dict()

    def to_frame(self) -> Any:
        """The search path: one row per evaluation (phase, generation, spec, the parameters, score with interval)."""
        import pandas as pd

        rows = [
            {key: value for key, value in _history_row(e).items() if key not in ("values", "per_opponent")} | e.values
            for e in self.history
        ]
        return pd.DataFrame(rows)

    def result_data(self) -> dict[str, Any]:
        """``result.json`` for ``simgin report``: the contract's keys plus the settings and the whole history."""
        from simgin import __version__
        from simgin.running.results import jsonable

        final = {e.index: e for e in self.history if e.phase == "final"}
        return jsonable(
            {
                "kind": "tune",
                "simgin_version": __version__,
                **self.to_dict(),
                "settings": self.settings.to_dict(),
                "method": METHOD,
                "unit": self.settings.mode,
                "difference": self.difference,
                "generations": self.generations,
                "history": [_history_row(e) for e in self.history],
                "final": [
                    {"candidate": "tuned" if index == 0 else "start", **_history_row(e), "opponents": e.opponents}
                    for index, e in sorted(final.items())
                ],
            }
        )


def _history_row(evaluation: Evaluation) -> dict[str, Any]:
    return {
        "phase": evaluation.phase,
        "generation": evaluation.generation,
        "index": evaluation.index,
        "spec": evaluation.spec,
        "values": evaluation.values,
        "score": evaluation.score,
        "score_low": evaluation.score_low,
        "score_high": evaluation.score_high,
        "pairs": evaluation.pairs,
        "seed": evaluation.seed,
        "chunk_units": evaluation.chunk_units,
        "per_opponent": [{k: v for k, v in o.items() if k != "tally"} for o in evaluation.opponents],
    }


def _cpu_seconds() -> float:
    """CPU seconds of this process and of its finished child processes (the local pool's workers)."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


# -- the tune ---------------------------------------------------------------------------------------------


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
) -> TuneResult:
    """Tune ``strategy``'s parameters against the ``against`` pool (see the module docstring).

    ``budget`` candidate evaluations of ``games`` games (or ``hands`` hands) per opponent in
    the first generation; ``final`` games per candidate in the final measurement (default
    ten times ``games``). ``progress(evaluation, done, total)`` is called after each
    evaluation, recorded ones included; ``notice(message)`` hears of a recorded evaluation played again
    (damaged or edited; default: the ``simgin`` logger). ``on_illegal`` (``'stop'`` or ``'forfeit'``) is what an
    illegal move does (:attr:`simgin.running.runner.RunConfig.on_illegal`); a final measurement's
    tallies count the forfeits. Bad input raises :class:`TuneError` (a ValueError).
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
    )
    if workers is not None and workers < 1:
        raise TuneError(f"--workers {workers}: must be at least 1")
    workers = workers or os.cpu_count() or 1
    if backend not in runner.BACKENDS:
        raise TuneError(f"--backend {backend!r}: choose from {', '.join(runner.BACKENDS)}")
    if scheduler and backend != "dask":
        raise TuneError("--scheduler needs --backend dask")
    optimiser = _Optimiser(settings)
    directory = TuneDirectory(out, settings, notice) if out is not None else None
    recorded = directory.recorded() if directory else {}
    if (small := budget_warning(settings)) is not None:  # after every input check: a refused run only errs
        warnings.warn(small, TuneBudgetWarning, stacklevel=2)
    started, cpu_started = time.perf_counter(), _cpu_seconds()
    history: list[Evaluation] = []
    generations: list[dict[str, Any]] = []
    expected = settings.budget + TOP_FINALISTS + 2 + 2
    phase_times: dict[str, float] = {}

    with _Evaluator(settings, workers, backend, scheduler) as evaluator:

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
            "cpu_seconds": _cpu_seconds() - cpu_started,
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


__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_GAMES",
    "Dimension",
    "Evaluation",
    "SearchDirectory",
    "TuneDirectory",
    "TuneError",
    "TuneResult",
    "TuneSettings",
    "batch_mean",
    "format_value",
    "paired_difference",
    "parse_bound",
    "phase_seed",
    "plan",
    "tune",
]

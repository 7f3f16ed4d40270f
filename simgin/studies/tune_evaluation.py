"""Evaluating a parameter set for ``simgin tune``: its duplicate games against every opponent on the phase's
deals, batch means and paired differences, each evaluation kept in the tune's directory (resumable)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simgin.base import files
from simgin.running import runner
from simgin.running.tally import Tally
from simgin.statistics.stats import z_value
from simgin.studies.search import PHASES, ChunkPool, SearchDirectory, batch_mean, opened_record, sealed_record
from simgin.studies.tune_settings import BATCHES, TuneError, TuneSettings

SETTINGS_FILE = "tune.json"


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
        """What ``evaluations/<key>.json`` holds (:func:`~simgin.studies.search.sealed_record`)."""
        return sealed_record(self.to_dict())

    @classmethod
    def from_record(cls, record: Any, path: Path) -> Evaluation:
        """The evaluation in a record read from ``path``, every field checked; anything else is a
        :class:`~simgin.base.files.DamagedFile` saying what is wrong (issue 25, D3, D4)."""
        fix = "it is played again"
        data = opened_record(record, path, _EVALUATION_FIELDS)
        problem = _evaluation_problem(data)
        if problem:
            raise files.DamagedFile(path, f"{path} is damaged ({problem}); {fix}")
        return cls.from_dict(data)


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


def pair_score_sum(t: Tally, mode: str, adjust_luck: bool = False) -> float:
    """A's results summed over a tally's duplicate pairs: pair scores (a game won 1, drawn 1/2) in games mode,
    net points per hand of each pair in hands mode, luck-adjusted with ``adjust_luck`` (docs/STATISTICS.md §13);
    divided by the pairs it is the evaluation's score."""
    if mode == "games":
        return sum(k / 4 * t[f"pair_score_{k}"] for k in range(5))
    if adjust_luck:
        return t["luck_y"] / 2
    return (t["pair_x1"] + t["pair_x2"]) / 2


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


class Evaluator(ChunkPool):
    """Plays candidates on an open runner backend: one job per (candidate, opponent, chunk), results in job order."""

    def __init__(self, settings: TuneSettings, workers: int, backend: str, scheduler: str | None) -> None:
        super().__init__(settings.mode, workers, backend, scheduler)
        self.settings = settings

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
        results = self.results(jobs)
        opponents = settings.against
        for index, values in candidates:
            spec = settings.spec(values)
            chunk_count = len(runner.plan_chunks(settings.config(spec, opponents[0], pairs, seed)))
            sums = np.zeros((len(opponents), chunk_count))
            plain = np.zeros((len(opponents), chunk_count))
            sizes = np.zeros(chunk_count, dtype=np.int64)
            per_opponent = []
            seconds = 0.0
            for o, opponent in enumerate(opponents):
                total = Tally.zero()
                for c in range(chunk_count):
                    result = next(results)
                    seconds += result.seconds
                    sums[o, c] = pair_score_sum(result.tally, settings.mode, settings.adjust_luck)
                    plain[o, c] = pair_score_sum(result.tally, settings.mode)
                    sizes[c] = result.chunk.unit_count
                    total = total + result.tally
                mean, low, high = batch_mean(sums[o], sizes)
                entry: dict[str, Any] = {"opponent": opponent, "score": mean, "score_low": low, "score_high": high}
                if phase == "final":
                    entry["tally"] = total.to_dict()
                    if settings.adjust_luck:  # the plain figures beside the adjusted (issue 35)
                        entry["plain_batch_sums"] = [float(x) for x in plain[o]]
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

"""The skeleton that ``simgin tune`` and ``simgin tune-rules`` share: the search directory (settings, one
checked record per evaluation, resumable), the seeds of each phase (search, select, final), the batch means that
give an evaluation its interval, the CPU time of a search and the optimisers' warnings kept quiet. Only the
optimiser (CMA-ES, optuna TPE) and the search space differ between the two."""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import re
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from simgin.base import files
from simgin.running import runner
from simgin.statistics.stats import z_value

PHASES = ("search", "select", "final")


OPTIMISER_BRANCH = 3


EVALUATIONS_DIR = "evaluations"


def phase_seed(seed: int, phase: str, generation: int = 0) -> int:
    """The run seed of one phase (and search generation): its own branch of ``SeedSequence(seed)``."""
    sequence = np.random.SeedSequence(seed, spawn_key=(PHASES.index(phase), generation))
    return int(sequence.generate_state(1, dtype=np.uint64)[0])


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


@contextlib.contextmanager
def quiet_warnings() -> Iterator[None]:
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def process_cpu_seconds() -> float:
    """CPU seconds of this process and of its finished child processes (the local pool's workers)."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def execution_workers(workers: int | None, backend: str, scheduler: str | None, error: type[ValueError]) -> int:
    """The workers a search plays on: its ``--workers``, ``--backend`` and ``--scheduler`` checked as every
    command checks them (``error`` is the search's own ValueError), ``workers`` or every core when None."""
    if backend not in runner.BACKENDS:
        raise error(f"--backend {backend!r}: choose from {', '.join(runner.BACKENDS)}")
    if scheduler and backend != "dask":
        raise error("--scheduler needs --backend dask")
    if workers is not None:
        try:
            runner.check_workers(workers, backend, scheduler)
        except ValueError as problem:
            raise error(f"--workers {workers}: {str(problem).partition(': ')[2]}") from None
    return workers or os.cpu_count() or 1


#: Version of an evaluation record's layout (``format``); a record of another version is played again.
EVALUATION_FORMAT = 1


def sealed_record(fields_: dict[str, Any]) -> dict[str, Any]:
    """What ``evaluations/<key>.json`` holds: an evaluation's fields, the record format and a checksum of both, so
    that a record edited by hand, or damaged, is noticed and played again (issue 25, D3)."""
    record = {"format": EVALUATION_FORMAT, **fields_}
    return record | {"check": files.checksum(record)}


def opened_record(record: Any, path: Path, field_types: dict[str, type | tuple[type, ...]]) -> dict[str, Any]:
    """The fields of a :func:`sealed_record` read from ``path``: its format, checksum, field names and their JSON
    types checked (``field_types``); anything else is a :class:`~simgin.base.files.DamagedFile` saying what is
    wrong (issue 25, D3, D4: a received or edited directory is never believed)."""
    fix = "it is played again"
    files.check_fields(record, path, {"format": int, "check": str}, fix, "evaluation")
    if record["format"] != EVALUATION_FORMAT:
        raise files.DamagedFile(path, f"{path} was written by another simgin version; {fix}")
    if record["check"] != files.checksum(record):
        raise files.DamagedFile(path, f"{path} was edited or is damaged (it does not match its checksum); {fix}")
    data = {key: value for key, value in record.items() if key not in ("format", "check")}
    if set(data) != set(field_types):
        raise files.DamagedFile(path, f"{path} is damaged (not the fields of an evaluation record); {fix}")
    files.check_fields(data, path, field_types, fix, "evaluation")
    return data


@dataclass(frozen=True, kw_only=True)
class FinalMeasurement:
    """What both searches' results say of their final measurement on fresh deals (issue 25), in this order in their
    JSON: the result's score (the tuned candidate, or the rules to use) and the start's, with their 95% intervals,
    the p-value of the paired difference, the search's size and timing. Keyword-only, so that each result's own
    fields keep their positions."""

    score: float
    score_ci: list[float]
    start_score: float
    start_score_ci: list[float]
    p_value: float
    evaluations: int
    """The search's evaluations (candidates, or rule sets tried)."""
    games: int
    """Every game (hand, with ``hands``) played, the final measurement included."""
    timing: dict[str, float]


#: The JSON keys of :class:`FinalMeasurement`, in order.
FINAL_MEASUREMENT_KEYS = tuple(field.name for field in fields(FinalMeasurement))


def play_whole_chunk(config: runner.RunConfig, chunk: runner.Chunk) -> runner.ChunkResult:
    """One chunk of an evaluation, played without unit records (a search needs only its tally)."""
    return runner.run_chunk(config, chunk, False)


class ChunkPool:
    """The runner backend a search plays its evaluations on (``tune``'s candidates, ``tune-rules``' rule sets):
    opened once for the whole search, each batch of ``(config, chunk)`` jobs submitted together and its results
    given back in job order. With several local workers and kernels not yet in numba's cache, the very first
    job is played alone, so that it compiles them and the other workers load them from the cache."""

    def __init__(
        self,
        mode: str,
        workers: int,
        backend: str,
        scheduler: str | None = None,
        play_chunk: Callable[[runner.RunConfig, runner.Chunk], Any] | None = None,
    ) -> None:
        self.workers = workers
        self.backend_name = backend
        self.scheduler = scheduler
        self.play_chunk = play_chunk or play_whole_chunk
        self.compile_first = (
            workers > 1 and scheduler is None and play_chunk is None and not runner.kernels_cached(mode)
        )

    def __enter__(self) -> ChunkPool:
        self._context = runner.backend_for(self.workers, self.backend_name, self.scheduler)
        self.backend = self._context.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._context.__exit__(*exc)

    def results(self, jobs: Sequence[tuple[runner.RunConfig, runner.Chunk]]) -> Iterator[Any]:
        """The result of every job, in the order of ``jobs`` (all submitted before the first is awaited)."""
        futures: list[Any] = []
        if jobs and self.compile_first:
            first = self.backend.submit(self.play_chunk, *jobs[0])
            runner.wait_result(self.backend, first)
            futures.append(first)
            self.compile_first = False
        futures.extend(self.backend.submit(self.play_chunk, *job) for job in jobs[len(futures) :])
        for future in futures:
            yield runner.wait_result(self.backend, future)

"""Matches and round robins at scale: chunks, seeds, workers, Dask, resume and hand logs.

Work is cut into chunks of units; a unit is a hand (``--hands``) or a game (``--games``),
and with duplicate deals a unit is a *pair*: one hand or game seed played twice with
the seats swapped. Chunk ``i`` has the seed drawn from ``SeedSequence(seed).spawn`` child
``i``, and unit ``j`` of a chunk has the seed ``derive(chunk_seed, j)`` (docs/ENGINE.md),
so results do not depend on the number of workers or the backend. Every pairing of a
tournament plays the same seeds (common random numbers).

Each chunk is reduced to a :class:`~simgin.running.tally.Tally` (sums only), so memory stays flat
however many hands are played; chunks are planned lazily, so a long run costs no memory
up front. With an output directory, each finished chunk is written atomically as it
completes, carrying what identifies it (the digest of its run's settings, its seed, index,
pairing and cell, a format version and a checksum); rerunning the same command resumes,
and a chunk that does not belong, or a directory whose settings cannot be read, is
refused rather than trusted (:class:`RunDirectory`).

Workers of the local pool die with the main process (:func:`simgin.base.guard.die_with_parent`)
and are ended when a run stops early; waits on workers poll, so Ctrl-C always ends them,
and a Dask cluster without workers is reported (``notice``) instead of waited on silently.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import math
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import CancelledError
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from simgin.base import guard
from simgin.game.multiplayer import (
    Sums,
    summarize_table,
)
from simgin.game.rng import derive
from simgin.game.rules import Rules, as_rules
from simgin.players import programs as process_strategy
from simgin.players.programs import ProgramSettings
from simgin.players.registry import absolute_spec
from simgin.running import hand_log as hand_log_format
from simgin.running.backends import (
    BACKENDS as BACKENDS,
    CONNECT_TIMEOUT as CONNECT_TIMEOUT,
    MAIN_GUARD_MESSAGE as MAIN_GUARD_MESSAGE,
    MAX_REMOTE_WORKERS as MAX_REMOTE_WORKERS,
    WAIT_NOTICE_SECONDS as WAIT_NOTICE_SECONDS,
    backend_for as backend_for,
    check_workers as check_workers,
    max_local_workers as max_local_workers,
    probe_scheduler as probe_scheduler,
    refuse_while_a_worker_starts as refuse_while_a_worker_starts,
    scheduler_address as scheduler_address,
)
from simgin.running.chunks import (
    SLOW_PART_UNITS as SLOW_PART_UNITS,
    ChunkResult as ChunkResult,
    chunk_parts as chunk_parts,
    merge_parts as merge_parts,
    replay_command as replay_command,
    run_chunk as run_chunk,
)

# A run's settings and chunks live in config, its pieces in chunks, backends, kernel_cache and run_directory;
# runner is where callers find them with the run itself.
from simgin.running.config import (
    GAMES_PER_CHUNK as GAMES_PER_CHUNK,
    HANDS_PER_CHUNK as HANDS_PER_CHUNK,
    MAX_GAMES as MAX_GAMES,
    MAX_HANDS as MAX_HANDS,
    MAX_SEED as MAX_SEED,
    ON_ILLEGAL as ON_ILLEGAL,
    Chunk as Chunk,
    RunConfig as RunConfig,
    chunk_seed as chunk_seed,
    iter_chunks as iter_chunks,
    make_chunk as make_chunk,
    plan_chunks as plan_chunks,
    unit_seeds as unit_seeds,
)
from simgin.running.errors import RunError as RunError, log_notice
from simgin.running.kernel_cache import (
    compile_kernels as compile_kernels,
    compile_searching_bots,
    kernel_for as kernel_for,
    kernels_cached as kernels_cached,
    searching_decides,
)
from simgin.running.keywords import RUN_OPTIONS, check_keywords, keywords_of
from simgin.running.results import jsonable
from simgin.running.run_directory import (
    RUN_FORMAT as RUN_FORMAT,
    SETTINGS_FILE as SETTINGS_FILE,
    RunDirectory as RunDirectory,
    setting_differences as setting_differences,
    show_differences as show_differences,
)
from simgin.running.summary import (
    luck_adjusted,
    overridden_rules,
    pair_statistics,
    pairing_rates,
    player_rows,
    summarize,
)
from simgin.running.tally import Tally, unit_layout
from simgin.statistics.stats import ratio

if TYPE_CHECKING:
    import pandas as pd

#: Seconds between looks at a run's workers while waiting for a chunk.
POLL_SECONDS = 0.5
#: The hand log's columns (:mod:`simgin.running.hand_log`).
HAND_LOG_SCHEMA = hand_log_format.SCHEMA


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run; ``results`` hold what was finished (per cell; ``chunks_run`` and
    ``chunks_resumed`` say how much), so that a caller can show a partial result."""

    def __init__(self, results: list[RunResult]) -> None:
        super().__init__()
        self.results = results


def compile_and_run_chunk(config: RunConfig, chunk: Chunk, *options: Any, **keywords: Any) -> ChunkResult:
    """:func:`run_chunk` (with its other arguments as given) after :func:`compile_kernels`: the first job of a run
    on a cold cache."""
    compile_kernels(config)
    return run_chunk(config, chunk, *options, **keywords)


def execute(
    jobs: Iterable[tuple[RunConfig, Chunk]],
    workers: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    hand_log: bool = False,
    compile_first: bool = False,
    programs: ProgramSettings | None = None,
    notice: Callable[[str], None] | None = None,
    unit_records: bool = False,
    kept: bool = True,
) -> Iterator[ChunkResult]:
    """Run (config, chunk) jobs and yield their results in job order.

    At most ``2 * workers`` jobs are in flight, so a caller that stops early (a sequential
    test that has decided) wastes little work; closing the generator cancels the rest and
    ends the local workers. With ``compile_first`` the first job runs alone, and its worker
    first compiles every kernel the run plays (:func:`compile_kernels`) and writes numba's
    cache, which the other workers then load instead of each compiling the same code; meanwhile a second worker
    compiles the searching bots' ``decide`` (:func:`compile_searching_bots`), which the first then loads.
    Waits poll (every :data:`POLL_SECONDS`), so Ctrl-C ends them, and ``notice`` hears
    when a Dask cluster has had no worker for a while. A chunk whose pairing has a strategy that is not
    compiled is played in parts when there are several workers (:func:`chunk_parts`), each a job, and
    yielded whole (:func:`merge_parts`).
    ``programs`` and ``unit_records`` go to :func:`run_chunk`. ``kept``: finished chunks are kept in an
    ``--out`` directory (a lost worker's error then says a rerun resumes).
    """
    notice = notice or log_notice

    def pieces() -> Iterator[tuple[RunConfig, Chunk, tuple[int, int] | None, bool]]:
        for config, chunk in jobs:
            parts = chunk_parts(config, chunk, workers)
            for index, part in enumerate(parts):
                yield config, chunk, part, index == len(parts) - 1

    with backend_for(workers, backend, scheduler) as runner_backend:
        pending: deque[tuple[Any, bool]] = deque()
        queue = pieces()
        ahead = 2 * max(workers, 1)
        in_flight = 1 if compile_first else ahead
        finished: list[ChunkResult] = []
        bots_compiling = None  # a second worker's job on a cold run
        try:
            while True:
                while len(pending) < in_flight:
                    job = next(queue, None)
                    if job is None:
                        break
                    config, chunk, part, last = job
                    compiles = compile_first and in_flight == 1
                    function = compile_and_run_chunk if compiles else run_chunk
                    if programs is not None:
                        function = functools.partial(function, programs=programs)
                    if unit_records:
                        function = functools.partial(function, unit_records=True)
                    if part is not None:
                        function = functools.partial(function, part=part)
                    try:
                        pending.append((runner_backend.submit(function, config, chunk, hand_log), last))
                        if compiles and workers > 1 and searching_decides(config.players):
                            bots_compiling = runner_backend.submit(compile_searching_bots, config.players)
                    except Exception as error:  # a broken pool, a Dask client whose scheduler is gone
                        failure = _backend_failure(runner_backend, error, kept)
                        if failure is None:
                            raise
                        raise failure from None
                if not pending:
                    return
                future, last = pending.popleft()
                finished.append(wait_result(runner_backend, future, notice, kept))
                if bots_compiling is not None:
                    wait_result(runner_backend, bots_compiling, notice, kept)
                    bots_compiling = None
                in_flight = ahead
                if last:  # a chunk is complete: played whole, or its last part
                    result = finished[0] if len(finished) == 1 else merge_parts(finished)
                    finished = []
                    yield result
        finally:
            waiting = [future for future, _ in pending]
            if bots_compiling is not None:
                waiting.append(bots_compiling)
            for future in waiting:
                with contextlib.suppress(Exception):  # a client whose scheduler is gone may refuse
                    future.cancel()


def wait_result(
    runner_backend: Any, future: Any, notice: Callable[[str], None] | None = None, kept: bool = True
) -> Any:
    """The result of a chunk submitted to ``runner_backend`` (waits poll, so Ctrl-C ends them); a lost worker or
    cluster is a one-line :class:`RunError` (the chunk's own errors are raised as they are)."""
    notice = notice or log_notice
    poll = getattr(runner_backend, "poll", None)
    try:
        while poll is not None and not poll(future, POLL_SECONDS, notice):
            pass
        return future.result()
    except (CancelledError, asyncio.CancelledError, Exception) as error:
        failure = _backend_failure(runner_backend, error, kept)
        if failure is None:
            raise  # the chunk's own error (a RunError, a bad spec), as it was raised
        raise failure from None


def _backend_failure(runner_backend: Any, error: BaseException, kept: bool = True) -> RunError | None:
    """The one-line error for a chunk that the backend lost (a worker process died, a script without a main
    guard, a Dask cluster that lost it: :func:`_cluster_lost`); None for the chunk's own error."""
    if isinstance(error, BrokenProcessPool):
        missing = getattr(runner_backend, "main_guard_missing", None)
        if missing is not None and missing():
            return RunError(MAIN_GUARD_MESSAGE)
        return RunError("a worker process died (killed, or out of memory?)" + _resume_hint(kept))
    if not _cluster_lost(error):
        return None
    cancelled = isinstance(error, (CancelledError, asyncio.CancelledError))
    what = "its chunks were cancelled" if cancelled else guard.describe(error)
    return RunError(
        f"the Dask cluster lost a chunk ({what}: a strategy that kills its worker, or a scheduler gone?)"
        + _resume_hint(kept)
    )


def _resume_hint(kept: bool) -> str:
    """The end of a lost-chunk error: the resume hint when the run keeps its chunks in ``--out``, else what a run
    without ``--out`` has: nothing kept (issue 32 item 26)."""
    if kept:
        return "; finished chunks in --out are kept, rerun the same command to resume"
    return "; the run keeps no chunks without --out"


def _cluster_lost(error: BaseException) -> bool:
    """Whether waiting for a chunk failed because of the cluster rather than the chunk: a cancellation of any
    kind (Dask cancels every future when its scheduler is gone: ``FuturesCancelledError``), or an error
    raised by Dask, its networking or the futures machinery (``KilledWorker``, ``CommClosedError``)."""
    if isinstance(error, (CancelledError, asyncio.CancelledError)):
        return True
    return type(error).__module__.startswith(("distributed", "tornado", "concurrent", "asyncio"))


# -- results ---------------------------------------------------------------------------


@dataclass
class RunResult:
    """Tallies by pairing plus timings; ``summary`` is one row per pairing and player."""

    config: RunConfig
    tallies: list[Tally]
    seconds: float
    chunks_run: int
    chunks_resumed: int
    hands_run: int = 0
    """Hands played in this call, all cells together: resumed chunks excluded (the throughput's base, D17)."""
    units: list[np.ndarray] | None = None
    """With ``unit_records``: per pairing, the unit records of every chunk finished, in unit order."""

    @property
    def summary(self) -> pd.DataFrame:
        if self.config.table != "pairs":
            return summarize_table(self.config.table, self.config.players, self.tallies[0])
        return summarize(self.config, self.tallies)

    def forfeits_by_player(self) -> dict[str, int]:
        """Under ``on_illegal='forfeit'``: the hands (in games mode, the games) each player lost by an illegal
        move, summed over its pairings; every player is listed, with 0 when it made none (R23 is kept: an
        illegal move is never played)."""
        counts = dict.fromkeys(self.config.players, 0)
        if self.config.table != "pairs":
            return counts
        for (i, j), tally in zip(self.config.pairings, self.tallies, strict=True):
            counts[self.config.players[i]] += int(tally["forfeits_a"])
            counts[self.config.players[j]] += int(tally["forfeits_b"])
        return counts

    def forfeit_records(self) -> list[dict[str, Any]]:
        """Every forfeit listed, pairing by pairing: where (hand, or game and deal), the error, and the
        ``simgin replay`` command that plays that hand again."""
        return [record for tally in self.tallies for record in getattr(tally, "forfeits", [])]

    def pairing_tally(self, a: str, b: str) -> Tally:
        """The tally of the pairing of players ``a`` and ``b`` (seen from ``a``)."""
        for index, (i, j) in enumerate(self.config.pairings):
            if (self.config.players[i], self.config.players[j]) == (a, b):
                return self.tallies[index]
        raise KeyError(f"no pairing {a} vs {b}")


ProgressCallback = Callable[[ChunkResult, int], None]
StopCallback = Callable[[int, Chunk, list[list[Tally]]], bool]


def run_cells(
    configs: Sequence[RunConfig],
    workers: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    out: str | Path | None = None,
    hand_log: bool = False,
    progress: ProgressCallback | None = None,
    stop: StopCallback | None = None,
    kind: str = "run",
    programs: ProgramSettings | None = None,
    notice: Callable[[str], None] | None = None,
    unit_records: bool = False,
    interleave: bool = False,
    on_units: Callable[[Chunk, np.ndarray], None] | None = None,
) -> list[RunResult]:
    """Play several runs (the cells of a sweep) as one job list, resuming from ``out``.

    Chunks are consumed in play order, finished ones read back from ``out``; after each,
    ``stop(cell, chunk, tallies)`` may end the runs early (a sequential test), and the
    chunks after it are not played. Play order is run by run, or with ``interleave`` chunk index by chunk
    index across the runs (chunk 0 of every run, then chunk 1, ...), so that a test between runs can stop
    early; it changes no result. With ``unit_records``, ``on_units(chunk, records)`` hears each chunk's unit
    records (played or resumed) before ``stop`` is asked. ``programs`` sets how ``exec:`` and ``eaai:`` strategies
    run (:class:`~simgin.players.programs.ProgramSettings`); with ``out`` their stderr is kept
    in ``out/stderr``, and they are ended when the run ends. ``notice`` hears what the run
    cannot stop for (a hand log played again, a Dask cluster without workers); by default
    the ``simgin`` logger. With ``unit_records`` (two-player runs) every chunk also returns, and
    its record in ``out`` keeps, one record per unit (:data:`simgin.running.tally.UNIT_FIELDS`); each
    result's ``units`` holds them per pairing.
    Ctrl-C raises :class:`Interrupted`, which holds the results of the chunks finished.
    """
    refuse_while_a_worker_starts()
    if hand_log and out is None:
        raise ValueError("a hand log needs an output directory (--out DIR)")
    if hand_log and any(config.table != "pairs" for config in configs):
        raise ValueError("the hand log is written for two-player runs only")
    if hand_log:
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise RunError("the hand log writes Parquet and needs pyarrow: pip install 'simgin[parquet]'") from None
    if backend not in BACKENDS:
        raise ValueError(f"backend={backend!r}: choose from {', '.join(BACKENDS)}")
    if workers is None and backend == "local" and scheduler is None:
        workers = default_local_workers(configs)
    workers = check_workers(workers or os.cpu_count() or 1, backend, scheduler)
    notice = notice or log_notice
    with guard.counting_interrupts():
        start = time.perf_counter()
        directory = RunDirectory(Path(out), configs, hand_log, kind, notice, unit_records) if out is not None else None
        finished = directory.finished() if directory else {}
        # Workers get strategy files by absolute path: a remote worker's working directory is its own.
        shipped = [dataclasses.replace(c, players=tuple(absolute_spec(p) for p in c.players)) for c in configs]
        todo = (
            (shipped[chunk.cell_index], chunk) for _, chunk in _plan(configs, interleave) if chunk.key not in finished
        )
        tallies = [[config.tally_type().zero() for _ in config.pairings] for config in configs]
        counts = {"ran": 0, "resumed": 0, "hands": 0}
        units: list[list[list[np.ndarray]]] = [[[] for _ in config.pairings] for config in configs]

        def results_so_far() -> list[RunResult]:
            seconds = time.perf_counter() - start
            return [
                RunResult(
                    config,
                    tallies[cell],
                    seconds,
                    counts["ran"],
                    counts["resumed"],
                    hands_run=int(counts["hands"]),
                    units=[_stack_units(pieces, config) for pieces in units[cell]] if unit_records else None,
                )
                for cell, config in enumerate(configs)
            ]

        # Workers on this machine share its numba cache; a remote cluster's cache is its own.
        first = next((config for config, chunk in _plan(configs) if chunk.key not in finished), None)
        compile_first = (
            first is not None
            and workers > 1
            and scheduler is None
            and not kernels_cached(first.mode, first.table, players=first.players)
        )
        if out is not None:
            stderr_dir = str(Path(out).resolve() / "stderr")
            programs = dataclasses.replace(programs or ProgramSettings(), stderr_dir=stderr_dir)
        results = execute(
            todo,
            workers,
            backend,
            scheduler,
            hand_log,
            compile_first=compile_first,
            notice=notice,
            programs=programs,
            unit_records=unit_records,
            kept=out is not None,
        )
        try:
            for config, chunk in _plan(configs, interleave):
                if chunk.key in finished:
                    tally = finished[chunk.key]
                    chunk_units = directory.units.get(chunk.key) if directory else None
                    counts["resumed"] += 1
                else:
                    result = next(results)
                    _name_forfeits(result.tally, shipped[chunk.cell_index].players, config.players)
                    if directory:
                        directory.save(result)
                    tally = result.tally
                    chunk_units = result.units
                    counts["ran"] += 1
                    counts["hands"] += tally["hands"]
                    if progress:
                        progress(result, chunk.unit_count * config.legs)
                if unit_records and chunk_units is not None:
                    units[chunk.cell_index][chunk.pairing_index].append(chunk_units)
                    if on_units:
                        on_units(chunk, chunk_units)
                cell_tallies = tallies[chunk.cell_index]
                cell_tallies[chunk.pairing_index] = cell_tallies[chunk.pairing_index] + tally
                if stop and stop(chunk.cell_index, chunk, tallies):
                    break
            else:
                # Every chunk is in: let the generator end by itself, so that the pool shuts down as after
                # a normal end (its workers end their programs and remove their temporary stderr files)
                # instead of being stopped as after an early end. (Not started: nothing to end, no backend.)
                if counts["ran"]:
                    next(results, None)
        except KeyboardInterrupt:
            results.close()
            raise Interrupted(results_so_far()) from None
        finally:
            results.close()
            process_strategy.close_programs()  # those this process started (one local worker)
    return results_so_far()


def _name_forfeits(tally: Tally | Sums, shipped: Sequence[str], players: Sequence[str]) -> None:
    """Name the players of forfeit records by their specs as given (a worker saw strategy files by
    absolute path, which stays in the error and the replay command, which work from anywhere)."""
    names = dict(zip(shipped, players, strict=True))
    for record in getattr(tally, "forfeits", ()):
        for key in ("player", "opponent"):
            record[key] = names.get(record[key], record[key])


def _stack_units(pieces: list[np.ndarray], config: RunConfig) -> np.ndarray:
    """Chunks' unit records as one (units, fields) array."""
    if not pieces:
        width, dtype = unit_layout(config.adjust_luck)
        return np.zeros((0, width), dtype=dtype)
    return np.concatenate(pieces)


def default_local_workers(configs: Sequence[RunConfig]) -> int:
    """``--workers``' default on this machine: every core, or 1 when the runs are a single job (one chunk,
    played whole), which worker processes would only slow down by their start (about a second each, to load
    the compiled kernels). Results are the same on any number of workers."""
    cores = os.cpu_count() or 1
    jobs = 0
    for config, chunk in _plan(configs):
        jobs += len(chunk_parts(config, chunk, cores))
        if jobs > 1:
            return cores
    return 1


def _plan(configs: Sequence[RunConfig], interleave: bool = False) -> Iterator[tuple[RunConfig, Chunk]]:
    """Every (config, chunk) of the runs in play order, one at a time: run by run, or with ``interleave`` chunk
    index by chunk index across the runs (each run's own chunks keep their order)."""
    if not interleave:
        for cell, config in enumerate(configs):
            for chunk in iter_chunks(config, cell):
                yield config, chunk
        return
    streams = [iter(iter_chunks(config, cell)) for cell, config in enumerate(configs)]
    pending = [next(stream, None) for stream in streams]
    while any(chunk is not None for chunk in pending):
        index = min(chunk.chunk_index for chunk in pending if chunk is not None)
        for cell, config in enumerate(configs):
            while pending[cell] is not None and pending[cell].chunk_index == index:
                yield config, pending[cell]
                pending[cell] = next(streams[cell], None)


def run(config: RunConfig, **options: Any) -> RunResult:
    """Play one run; ``options`` are those of :func:`run_cells` (workers, backend, scheduler, out, ...)."""
    return run_cells([config], **options)[0]


def run_match(a: str, b: str, **settings: Any) -> RunResult:
    """Play ``a`` against ``b`` (``a`` may equal ``b``); the keyword arguments are those of :func:`run_tournament`."""
    check_keywords(run_match, settings, (*keywords_of(run_tournament)[1:], *RUN_OPTIONS))  # [1:]: not players
    return _run_players((a, b), **settings)


def run_tournament(
    players: Sequence[str],
    *,
    rules: Rules | str | None = None,
    hands: int | None = None,
    games: int | None = None,
    seed: int = 0,
    duplicate: bool = True,
    on_illegal: str = "stop",
    adjust_luck: bool = False,
    **options: Any,
) -> RunResult:
    """Round robin: every pair of ``players`` plays ``hands`` or ``games`` on the same seeds.

    ``adjust_luck`` also tallies the luck-adjusted results (:attr:`RunConfig.adjust_luck`, issue 35).
    ``on_illegal`` is ``'stop'`` or ``'forfeit'`` (:attr:`RunConfig.on_illegal`); with
    ``'forfeit'`` the result's tallies count the forfeits (``forfeits_a``, ``forfeits_b``) and
    list them (``Tally.forfeits``, each with its hand seed and ``simgin replay`` command).
    ``options`` go to :func:`run_cells` (workers, backend, scheduler, out, hand_log, progress).

    >>> result = run_tournament(["simple", "random"], hands=200, seed=1, workers=1)
    >>> result.summary[["player", "opponent", "hands"]].to_dict(orient="records")[0]
    {'player': 'simple', 'opponent': 'random', 'hands': 200}
    """
    check_keywords(run_tournament, options, RUN_OPTIONS)
    if isinstance(players, str):
        raise ValueError(f"run_tournament() takes a list of player specs, got the single string {players!r}")
    if len(set(players)) != len(players):
        raise ValueError(f"players must differ, got {list(players)}")
    return _run_players(
        tuple(players),
        rules=rules,
        hands=hands,
        games=games,
        seed=seed,
        duplicate=duplicate,
        on_illegal=on_illegal,
        adjust_luck=adjust_luck,
        **options,
    )


def _run_players(
    players: tuple[str, ...],
    *,
    rules: Rules | str | None = None,
    hands: int | None = None,
    games: int | None = None,
    seed: int = 0,
    duplicate: bool = True,
    on_illegal: str = "stop",
    adjust_luck: bool = False,
    **options: Any,
) -> RunResult:
    rules = as_rules(rules)  # a preset name, as every run function takes; a wrong type named (issue 32 item 27)
    config = RunConfig(players, rules, hands, games, seed, duplicate, on_illegal=on_illegal, adjust_luck=adjust_luck)
    return run(config, **options)


def locate_hand(config: RunConfig, hand_index: int) -> tuple[int, int, tuple[str, str]]:
    """Where hand ``hand_index`` of a hands run (first pairing) comes from: (hand seed, dealer, players).

    Hands are numbered in play order: with duplicate deals, hands 2j and 2j + 1 are the
    two legs of unit j (the second with the seats swapped).
    """
    if config.mode != "hands":
        raise ValueError("locate_hand needs a run of hands")
    legs = 2 if config.duplicate else 1
    if not 0 <= hand_index < config.units * legs:
        raise ValueError(f"hand {hand_index}: this run has hands 0-{config.units * legs - 1}")
    unit, leg = divmod(hand_index, legs)
    chunk_index, j = divmod(unit, config.units_per_chunk)
    a, b = config.players[0], config.players[1]
    players = (b, a) if leg else (a, b)
    return derive(chunk_seed(config.seed, chunk_index), j), j % 2, players


def match_json(result: RunResult) -> dict[str, Any]:
    """The JSON object of ``simgin match --json`` (the first pairing); timings under ``timing``."""
    config = result.config
    t = result.tallies[0]
    rows = player_rows(config, 0, t)
    hands = t["hands"]
    data: dict[str, Any] = {
        "players": list(config.players[:2]),
        "hands": int(hands),
        "games": int(t["games"]),
        "mode": config.mode,
        "seed": config.seed,
        "duplicate": config.duplicate,
        "win_rate": [row["win_rate"] for row in rows],
        "win_rate_ci": [[row["win_rate_low"], row["win_rate_high"]] for row in rows],
        "points_per_hand": [row["points_per_hand"] for row in rows],
        "net_points_per_hand": [row["net_points_per_hand"] for row in rows],
        "net_points_ci": [[row["net_points_low"], row["net_points_high"]] for row in rows],
    }
    data.update(pairing_rates(t))
    data.update(
        {
            "forfeits": [int(t["forfeits_a"]), int(t["forfeits_b"])],
            "forfeited": list(t.forfeits),
            "on_illegal": config.on_illegal,
            "capped_hands": int(t["capped"]),
            "rules": config.rules.to_dict(),
            "overridden": overridden_rules(config),
        }
    )
    if config.mode == "games":
        data["game_margin"] = [row["game_margin"] for row in rows]
        data["hands_per_game"] = rows[0]["hands_per_game"]
        data["capped_games"] = int(t["games_capped"])
    if config.duplicate:
        data["paired"] = pair_statistics(t)
    if config.adjust_luck:
        data["luck_adjusted"] = luck_adjusted(t, config.legs)
    # D17: the rate counts only the hands played now; a run read back whole played none (null).
    data["timing"] = {
        "seconds": result.seconds,
        "hands_per_second": ratio(result.hands_run, result.seconds) if result.chunks_run else math.nan,
        "chunks_run": result.chunks_run,
        "chunks_resumed": result.chunks_resumed,
        "hands_run": result.hands_run,
    }
    return jsonable(data)

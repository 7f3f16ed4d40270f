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
import json
import logging
import math
import os
import re
import secrets
import shlex
import signal
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor, ThreadPoolExecutor, wait as wait_futures
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import numpy as np

from simgin.base import files, guard
from simgin.game.multiplayer import (
    Sums,
    seatings,
    summarize_table,
    table_unit_fields,
    table_unit_records,
    tally_table,
)
from simgin.game.rng import derive
from simgin.game.rules import Rules, as_rules
from simgin.kernels import engine as _k
from simgin.players import programs as process_strategy
from simgin.players.programs import ProgramSettings
from simgin.players.registry import absolute_spec
from simgin.running import engine, hand_log as hand_log_format

# A run's settings and chunks live in config; runner is where callers find them with the run itself.
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
from simgin.running.engine import play_table_rows
from simgin.running.keywords import RUN_OPTIONS, check_keywords, keywords_of
from simgin.running.results import jsonable
from simgin.running.summary import overridden_rules, pair_statistics, pairing_rates, player_rows, summarize
from simgin.running.tally import (
    MAX_FORFEITS_KEPT,
    UNIT_DTYPE,
    UNIT_FIELDS,
    Tally,
    game_margin,
    net_points,
    tally_games,
    tally_hands,
    tally_pairs,
    unit_records,
)
from simgin.statistics.stats import ratio

if TYPE_CHECKING:
    import pandas as pd

BACKENDS = ("local", "dask")
SETTINGS_FILE = "run.json"
#: Version of the run directory's layout (``run.json`` and chunk records); another version is refused.
RUN_FORMAT = 2
#: Most in-flight workers for a remote Dask cluster (the cluster's own size is its business).
MAX_REMOTE_WORKERS = 4096
#: Seconds allowed to reach a Dask scheduler and hear it answer as one.
CONNECT_TIMEOUT = 5.0
#: Seconds between looks at a run's workers while waiting for a chunk.
POLL_SECONDS = 0.5
#: Seconds without any Dask worker before "waiting for workers" is reported.
WAIT_NOTICE_SECONDS = 10.0
#: The hand log's columns (:mod:`simgin.running.hand_log`).
HAND_LOG_SCHEMA = hand_log_format.SCHEMA


class RunError(RuntimeError):
    """A run stopped: the message says which strategy, chunk seed and hand, and how to replay it."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run; ``results`` hold what was finished (per cell; ``chunks_run`` and
    ``chunks_resumed`` say how much), so that a caller can show a partial result."""

    def __init__(self, results: list[RunResult]) -> None:
        super().__init__()
        self.results = results


def max_local_workers() -> int:
    """Most worker processes on this machine: 4 per core (each takes 150-250 MB)."""
    return 4 * max(os.cpu_count() or 1, 1)


def check_workers(workers: int, backend: str = "local", scheduler: str | None = None) -> int:
    """``workers`` if it is allowed for this backend, else a one-line ValueError with the allowed range."""
    if scheduler:
        most, where = MAX_REMOTE_WORKERS, "with a Dask scheduler"
    else:
        most, where = max_local_workers(), f"on this machine ({os.cpu_count() or 1} cores, at most 4 per core)"
    if not 1 <= workers <= most:
        raise ValueError(f"workers={workers}: must be between 1 and {most} {where}")
    return workers


@dataclass
class ChunkResult:
    """What a worker sends back: the chunk, its tally and, on request, its hand rows and its unit records."""

    chunk: Chunk
    tally: Tally | Sums
    hand_log: pd.DataFrame | None = None
    seconds: float = 0.0
    units: np.ndarray | None = None
    """On request, one row of :data:`~simgin.running.tally.UNIT_FIELDS` per unit of the chunk (two-player runs)."""


#: Units of a chunk played as one job when a pairing has a strategy that is not compiled (a program or a
#: plain-Python strategy, hundreds of hands a second against a compiled bot's tens of thousands) and there
#: are several workers: a chunk of 20,000 hands is then cut into parts of this many units, so that every
#: worker has work. Parts change which process plays a unit, never its seed or dealer (issue 32 item 20).
SLOW_PART_UNITS = {"hands": 250, "games": 25}


def run_chunk(
    config: RunConfig,
    chunk: Chunk,
    hand_log: bool = False,
    programs: ProgramSettings | None = None,
    unit_records: bool = False,
    part: tuple[int, int] | None = None,
) -> ChunkResult:
    """Play one chunk and reduce it to a tally (pure: the same chunk always gives the same result).

    ``programs`` sets how ``exec:`` and ``eaai:`` strategies run here (time limit, stderr folder).
    With ``unit_records`` (two-player runs) the result also carries one record per unit
    (:func:`simgin.running.tally.unit_records`), for comparisons paired unit by unit across runs.
    ``part`` = (first, stop) plays only the chunk's units first to stop - 1 (two-player runs), each with the
    seed and dealer it has in the whole chunk; :func:`merge_parts` adds the parts up to the chunk's result.
    """
    process_strategy.configure(programs)
    start = time.perf_counter()
    if config.table != "pairs":
        sums, records = _table_chunk(config, chunk, unit_records)
        return ChunkResult(chunk, sums, None, time.perf_counter() - start, records)
    a_index, b_index = config.pairings[chunk.pairing_index]
    players = (config.players[a_index], config.players[b_index])
    first, stop = part if part is not None else (0, chunk.unit_count)
    if not 0 <= first < stop <= chunk.unit_count:
        raise ValueError(f"part={part}: the chunk has units 0-{chunk.unit_count - 1}")
    unit_count = stop - first
    seeds = np.array([derive(chunk.seed, j) for j in range(first, stop)], dtype=np.uint64)
    legs = [(players, 0)]
    if config.duplicate:
        legs.append(((players[1], players[0]), 1))
    tally = Tally.zero()
    leg_scores: list[np.ndarray] = []
    leg_results: list[np.ndarray] = []
    logs: list[pd.DataFrame] = []
    forfeits: list[dict[str, Any]] = []
    records = np.zeros((unit_count, len(UNIT_FIELDS)), dtype=UNIT_DTYPE) if unit_records else None
    for leg_players, seat_a_value in legs:
        found: list[engine.HandForfeit] | None = [] if config.on_illegal == "forfeit" else None
        try:
            if config.mode == "hands":
                dealers = np.arange(first, stop, dtype=np.int64) % 2
                rows = engine.play_hand_rows(leg_players, config.rules, seeds, dealers, forfeits=found)
                unit_of_row = np.arange(unit_count)
                seat_a = np.full(rows.shape[0], seat_a_value)
                leg_scores.append(_leg_score(rows[:, _k.H_WINNER], seat_a_value))
                leg_results.append(net_points(rows, seat_a))
            else:
                games, game_rows, counts = engine.play_game_rows(leg_players, config.rules, seeds, forfeits=found)
                rows, unit_of_row = engine.game_hands(game_rows, counts)
                seat_a = np.full(rows.shape[0], seat_a_value)
                game_seat_a = np.full(games.shape[0], seat_a_value)
                tally = tally + tally_games(games, game_seat_a)
                leg_scores.append(_leg_score(games[:, _k.G_WINNER], seat_a_value))
                leg_results.append(game_margin(games, game_seat_a))
        except engine.IllegalDecision as error:
            unit = "game" if config.mode == "games" else "hand"
            forfeit = f", or rerun with --on-illegal forfeit to let it lose that {unit} and play on"
            # A program that cannot start or shake hands fails whatever the hand: a replay cannot help.
            started = not isinstance(error.__cause__, process_strategy.ProgramStartError)
            raise RunError(
                f"{error} (pairing {players[0]} vs {players[1]}, leg {seat_a_value + 1}, chunk {chunk.chunk_index} "
                f"with chunk seed {chunk.seed})"
                + (f"; replay it with '{_stopped_replay(leg_players, config, error)}'" if started else "")
                + (forfeit if isinstance(error, engine.IllegalMove) else "")
            ) from None
        tally = tally + tally_hands(rows, seat_a)
        for found_forfeit in found or ():
            found_forfeit = dataclasses.replace(found_forfeit, unit=found_forfeit.unit + first)
            forfeits.append(_forfeit_record(config, chunk, leg_players, seat_a_value, found_forfeit))
        if records is not None:
            in_games = config.mode == "games"
            played = games if in_games else None
            records += _unit_records(rows, unit_of_row, seat_a, unit_count, played, seat_a_value)
        if hand_log:
            units = unit_of_row + first + chunk.chunk_index * config.units_per_chunk
            hand_seeds = hand_log_format.hand_seeds(seeds, unit_of_row, games=config.mode == "games")
            logs.append(
                hand_log_format.frame(
                    rows, chunk.pairing_index, chunk.chunk_index, units, seat_a_value, seat_a, hand_seeds
                )
            )
    if config.duplicate:
        tally = tally + tally_pairs(leg_scores[0], leg_scores[1], leg_results[0], leg_results[1])
    log = None
    if hand_log:
        import pandas as pd

        log = pd.concat(logs, ignore_index=True)
    tally.forfeits = sorted(forfeits, key=lambda record: (record["unit"], record["leg"]))[:MAX_FORFEITS_KEPT]
    return ChunkResult(chunk, tally, log, time.perf_counter() - start, records)


def merge_parts(parts: Sequence[ChunkResult]) -> ChunkResult:
    """The result of a whole chunk from the results of its parts (:func:`run_chunk` with ``part``), given in
    unit order: the same tally, hand log and unit records as the chunk played in one piece (the tally's sums
    are of integers, so exact in any order; the hand log is put back in the chunk's order, leg by leg)."""
    tally = parts[0].tally
    for result in parts[1:]:
        tally = tally + result.tally
    log = None
    if parts[0].hand_log is not None:
        import pandas as pd

        log = pd.concat([result.hand_log for result in parts], ignore_index=True)
        log = log.sort_values(["leg", "unit"], kind="stable", ignore_index=True)
    units = None
    if parts[0].units is not None:
        units = np.concatenate([result.units for result in parts])
    return ChunkResult(parts[0].chunk, tally, log, sum(result.seconds for result in parts), units)


def chunk_parts(config: RunConfig, chunk: Chunk, workers: int) -> list[tuple[int, int] | None]:
    """How a chunk is played: whole (``[None]``), or, with several workers and a pairing that has a strategy
    that is not compiled, in parts of :data:`SLOW_PART_UNITS` units, so that every worker has work."""
    if workers <= 1 or config.table != "pairs" or _pairing_compiled(config, chunk.pairing_index):
        return [None]
    size = SLOW_PART_UNITS[config.mode]
    if chunk.unit_count <= size:
        return [None]
    return [(first, min(first + size, chunk.unit_count)) for first in range(0, chunk.unit_count, size)]


def _pairing_compiled(config: RunConfig, pairing_index: int) -> bool:
    """Whether both strategies of a pairing are compiled bots (a spec that does not resolve counts as compiled:
    the run reports it)."""
    from simgin.players.registry import resolve

    for player_index in config.pairings[pairing_index]:
        try:
            if not resolve(config.players[player_index]).compiled:
                return False
        except ValueError:
            continue
    return True


def _unit_records(
    rows: np.ndarray, unit_of_row: np.ndarray, seat_a: np.ndarray, units: int, games: np.ndarray | None, leg: int
) -> np.ndarray:
    """One leg's unit records; ``leg`` is A's seat in every game of the leg."""
    game_seat_a = None if games is None else np.full(games.shape[0], leg)
    return unit_records(rows, unit_of_row, seat_a, units, games, game_seat_a)


def _forfeit_record(
    config: RunConfig, chunk: Chunk, players: tuple[str, str], leg: int, forfeit: engine.HandForfeit
) -> dict[str, Any]:
    """What a forfeit leaves in the results: who, where (pairing, leg, chunk, unit; the game and its
    deal, or the hand), the hand seed, dealer and scores, the error, and the ``simgin replay`` command
    that plays that hand again (it stops at the illegal move with the same error)."""
    unit = chunk.chunk_index * config.units_per_chunk + forfeit.unit
    number = unit * config.legs + leg
    record: dict[str, Any] = {
        "player": players[forfeit.seat],
        "opponent": players[1 - forfeit.seat],
        "seat": forfeit.seat,
        "pairing": chunk.pairing_index,
        "leg": leg + 1,
        "chunk": chunk.chunk_index,
        "unit": unit,
    }
    if config.mode == "games":
        record |= {"game": number, "deal": forfeit.deal, "scores": list(forfeit.scores)}
    else:
        record["hand"] = number
    record |= {
        "hand_seed": forfeit.hand_seed,
        "dealer": forfeit.dealer,
        "decision": forfeit.decision,
        "error": forfeit.error,
        "replay": replay_command(players, config.rules, forfeit, games=config.mode == "games"),
    }
    return record


def _stopped_replay(players: tuple[str, str], config: RunConfig, error: engine.IllegalDecision) -> str:
    """The ``simgin replay`` command of the hand a run stopped at, as a forfeit lists it (its seats, hand seed,
    dealer and game scores), when the engine named the hand on the error; else just ``simgin replay``. Without
    the dealer ``--hand-seed`` alone replays another hand (issue 32 item 16)."""
    if getattr(error, "dealer", None) is None or getattr(error, "hand_seed", None) is None:
        return "simgin replay"
    return replay_command(players, config.rules, error, games=config.mode == "games")  # type: ignore[arg-type]


def replay_command(players: tuple[str, str], rules: Rules, forfeit: engine.HandForfeit, games: bool) -> str:
    """The ``simgin replay`` command line that plays a forfeited hand again, move for move: its seats,
    hand seed and dealer, the game scores it was dealt at (``--scores``, a hand of a game), and every
    rule switch away from the standard game (``--set``)."""
    words = ["simgin", "replay", players[0], players[1], "--hand-seed", str(forfeit.hand_seed)]
    words += ["--dealer", str(forfeit.dealer)]
    if games:
        words += ["--scores", f"{forfeit.scores[0]},{forfeit.scores[1]}"]
    wanted = rules.to_dict()

    def changes(preset: str) -> dict[str, Any]:
        base = Rules.preset(preset).to_dict()
        return {name: value for name, value in wanted.items() if value != base[name]}

    preset = min(Rules.PRESETS, key=lambda name: (len(changes(name)), name != "standard"))
    if preset != "standard":
        words += ["--rules", preset]
    for name, value in changes(preset).items():
        shown = ("true" if value else "false") if isinstance(value, bool) else str(value)
        words += ["--set", f"{name}={shown}"]
    return shlex.join(words)


def _leg_score(winner: np.ndarray, seat_a: int) -> np.ndarray:
    """A's score per hand or game of one leg: 1 for a win, 0.5 for a dead hand or undecided game, 0 for a loss."""
    return np.where(winner == seat_a, 1.0, np.where(winner < 0, 0.5, 0.0))


def _table_chunk(config: RunConfig, chunk: Chunk, unit_records: bool = False) -> tuple[Sums, np.ndarray | None]:
    """A chunk of three-player or partnership games, every seating over the same game seeds; with ``unit_records``
    also one record per game seed, every seating summed (:func:`simgin.game.multiplayer.table_unit_records`)."""
    seeds = unit_seeds(chunk)
    total = Sums.zero()
    records = (
        np.zeros((chunk.unit_count, len(table_unit_fields(config.table))), dtype=np.int64) if unit_records else None
    )
    for seating in seatings(config.table) if config.duplicate else (tuple(range(len(config.players))),):
        bots = tuple(config.players[player] for player in seating)
        try:
            games, rows, hand_players, counts = play_table_rows(config.table, bots, config.rules, seeds)
        except engine.IllegalDecision as error:
            raise RunError(f"{error} (chunk {chunk.chunk_index} with chunk seed {chunk.seed})") from None
        total = total + tally_table(config.table, seating, games, rows, hand_players, counts)
        if records is not None:
            records += table_unit_records(config.table, seating, games, rows, counts)
    return total, records


# -- executing chunks --------------------------------------------------------------------


def _worker_init(parent_pid: int | None = None) -> None:
    """Set up a pool worker: it dies with the main process ``parent_pid``, ignores Ctrl-C and SIGHUP (the
    main process handles them and ends the workers), writes to stderr what strategies print to stdout
    (which is for results), and runs its kernels on one thread: the pool is the parallelism."""
    import numba

    if parent_pid is not None:
        guard.die_with_parent(parent_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # a hang-up reaches the main process, which ends the workers
    signal.signal(signal.SIGTERM, _worker_terminated)
    os.dup2(2, 1)
    numba.set_num_threads(1)


def _worker_terminated(signum: int, frame: Any) -> None:
    """SIGTERM in a pool worker (the main process ends the pool early: Ctrl-C, an error, a decided sequential
    test): end the programs it started, their temporary stderr files with them, then die of the signal."""
    with contextlib.suppress(Exception):
        process_strategy.close_programs(grace=0.0)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


class _Deferred:
    """Work run in this process when its result is first asked for (one local worker)."""

    def __init__(self, function: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.function = function
        self.args = args

    def result(self) -> Any:
        return self.function(*self.args)

    def cancel(self) -> bool:
        return True


class _InlineBackend:
    """One worker: chunks run in this process, in order."""

    def __enter__(self) -> _InlineBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def submit(self, function: Callable[..., Any], *args: Any) -> _Deferred:
        return _Deferred(function, args)


#: Exit code of a spawned worker that was asked to start a run while it imported the main script.
MAIN_GUARD_EXIT = 87
#: Environment variable naming the file such a worker creates before it exits (set by the local pool).
MAIN_GUARD_MARK = "SIMGIN_MAIN_GUARD_MARK"
MAIN_GUARD_MESSAGE = (
    "the worker processes could not start: your script calls simgin at its top level, and each worker "
    "process (spawned) imports the script again, which would start the run again; put the code that runs "
    "simgin under 'if __name__ == \"__main__\":' (or use workers=1)"
)


def _refuse_while_a_worker_starts() -> None:
    """End this process at once (exit code :data:`MAIN_GUARD_EXIT`) if it is a spawned worker still importing
    the main script: that script starts runs at import, without an ``if __name__ == "__main__":`` guard. The
    run would start again in every worker, and multiprocessing cannot start processes from there anyway; the
    main process sees the exit code and says what to do (:data:`MAIN_GUARD_MESSAGE`)."""
    import multiprocessing

    if getattr(multiprocessing.current_process(), "_inheriting", False):
        mark = os.environ.get(MAIN_GUARD_MARK)
        if mark:  # the exit code alone can be missed when the pool breaks before the main process reads it
            with contextlib.suppress(OSError):
                os.close(os.open(mark, os.O_CREAT | os.O_WRONLY | os.O_NOFOLLOW, 0o600))
        os._exit(MAIN_GUARD_EXIT)


class _PoolBackend:
    """A process pool on this machine (spawned processes, one kernel thread each)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.processes: dict[int, Any] = {}
        """Every worker process started, by pid, so that their exit codes can be read after they died."""

    def __enter__(self) -> _PoolBackend:
        context = get_context("spawn")
        # A path nobody can guess, made only by a worker that finds the main guard missing: a run killed
        # (SIGKILL) leaves nothing in the temporary directory (issue 32 item 25).
        self.mark = os.path.join(tempfile.gettempdir(), f"simgin-pool-{secrets.token_hex(16)}")
        self.previous_mark = os.environ.get(MAIN_GUARD_MARK)
        os.environ[MAIN_GUARD_MARK] = self.mark  # inherited by the spawned workers
        self.pool = ProcessPoolExecutor(
            max_workers=self.workers, mp_context=context, initializer=_worker_init, initargs=(os.getpid(),)
        )
        return self

    def main_guard_missing(self) -> bool:
        """Whether a worker ended because the main script starts runs without a ``__main__`` guard."""
        return os.path.exists(self.mark) or MAIN_GUARD_EXIT in self.worker_exit_codes()

    def _forget_mark(self) -> None:
        if self.previous_mark is None:
            os.environ.pop(MAIN_GUARD_MARK, None)
        else:
            os.environ[MAIN_GUARD_MARK] = self.previous_mark
        with contextlib.suppress(OSError):
            os.unlink(self.mark)

    def __exit__(self, *exc: object) -> None:
        self._forget_mark()
        if exc[0] is None:
            self.pool.shutdown(wait=True)
            return
        # Stopped early (Ctrl-C, an error, a sequential test that has decided): chunks still
        # running are not wanted, and one may never end (a strategy stuck in a decision).
        processes = list((getattr(self.pool, "_processes", None) or {}).values())
        self.pool.shutdown(wait=False, cancel_futures=True)
        guard.stop_processes(processes, grace=2.0)

    def submit(self, function: Callable[..., Any], *args: Any) -> Future:
        future = self.pool.submit(function, *args)
        self.processes.update(getattr(self.pool, "_processes", None) or {})
        return future

    def worker_exit_codes(self) -> list[int | None]:
        """The exit codes of the worker processes (None for one still running). The pool starts workers as
        work comes, so the ones it holds now are added to those seen at each submission."""
        self.processes.update(getattr(self.pool, "_processes", None) or {})
        for process in self.processes.values():
            with contextlib.suppress(Exception):
                process.join(1.0)
        return [process.exitcode for process in self.processes.values()]

    def poll(self, future: Future, timeout: float, notice: Callable[[str], None]) -> bool:
        """Wait up to ``timeout`` seconds for ``future``; whether it is done."""
        return bool(wait_futures([future], timeout=timeout).done)


class _DaskBackend:
    """An existing Dask cluster (``scheduler``) or a LocalCluster started for the run."""

    def __init__(self, workers: int, scheduler: str | None) -> None:
        self.workers = workers
        self.scheduler = scheduler

    def __enter__(self) -> _DaskBackend:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise RunError("the dask backend needs the optional extra: pip install 'simgin[dask]'") from None
        self.cluster = None
        self.idle_since: float | None = None
        self.reported = False
        if self.scheduler:
            address = scheduler_address(self.scheduler)
            probe_scheduler(address)
            try:
                self.client = Client(address, timeout=f"{CONNECT_TIMEOUT:g}s")
            except Exception as error:
                raise RunError(
                    f"cannot connect to the Dask scheduler {self.scheduler!r}: {guard.describe(error)}"
                ) from None
        else:
            self.cluster = LocalCluster(
                n_workers=self.workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address="127.0.0.1:0",
                host="127.0.0.1",
            )
            self.client = Client(self.cluster)
        # The client logs an ERROR when it loses its scheduler; the run's own one-line error says so instead.
        self.client_log = logging.getLogger("distributed.client")
        self.client_log_level = self.client_log.level
        self.client_log.setLevel(logging.CRITICAL)
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            if self.cluster is None:  # an existing cluster's workers outlive the run; its programs do not
                with contextlib.suppress(Exception):
                    self.client.run(process_strategy.close_programs)
            # After a failure (a scheduler gone, say) closing may fail too; that error says nothing new.
            with contextlib.suppress(*(() if exc[0] is None else (Exception,))):
                self.client.close()
            if self.cluster is not None:
                self.cluster.close()
        finally:
            self.client_log.setLevel(self.client_log_level)

    def submit(self, function: Callable[..., Any], *args: Any) -> Any:
        return self.client.submit(function, *args, pure=False, retries=3)

    def poll(self, future: Any, timeout: float, notice: Callable[[str], None]) -> bool:
        """Wait up to ``timeout`` seconds for ``future``; while the cluster has no worker for
        :data:`WAIT_NOTICE_SECONDS`, say so once (again after workers came and went)."""
        from dask.distributed import wait

        try:
            wait([future], timeout=timeout)
            return True
        except TimeoutError:
            pass
        try:
            workers = len(self.client.nthreads())
        except Exception:  # the scheduler is unreachable for now; the client reconnects or fails the future
            workers = 0
        now = time.monotonic()
        if workers:
            self.idle_since, self.reported = None, False
        elif self.idle_since is None:
            self.idle_since = now
        elif not self.reported and now - self.idle_since >= WAIT_NOTICE_SECONDS:
            address = self.client.scheduler.address
            notice(
                f"waiting for workers: the Dask scheduler {address} has none "
                f"(start one with 'dask worker {address}'; Ctrl-C stops, finished chunks in --out are kept)"
            )
            self.reported = True
        return False


def scheduler_address(text: str) -> str:
    """A Dask scheduler address as ``tcp://HOST:PORT`` (``HOST:PORT`` alone means tcp), or a one-line RunError."""
    address = text.strip()
    if "://" not in address:
        address = "tcp://" + address
    try:
        parts = urlsplit(address)
        port = parts.port
    except ValueError:
        port = None
        parts = None
    if parts is None or parts.scheme not in ("tcp", "tls") or not parts.hostname or port is None:
        raise RunError(
            f"--scheduler {text!r}: expected a Dask scheduler address tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786"
        )
    if parts.scheme == "tls":
        from dask.distributed import Security

        security = Security()
        if not (security.tls_ca_file and security.tls_client_cert):
            raise RunError(
                f"--scheduler {text!r}: a tls:// scheduler needs Dask's TLS settings (distributed.comm.tls.ca-file, "
                "distributed.comm.tls.client.cert and .key in the Dask configuration); or use tcp://HOST:PORT"
            )
    return address


def probe_scheduler(address: str, timeout: float | None = None) -> dict[str, Any]:
    """Ask ``address`` who it is, within ``timeout`` seconds all told (:data:`CONNECT_TIMEOUT`); a RunError
    unless a Dask scheduler answers.

    The Dask client's own timeout covers the TCP connection only: a server that accepts and
    then says nothing (a dashboard's HTTP port) would keep it waiting for ever. Dask's
    ``connect`` also retries a refused connection until its timeout, so one plain TCP
    connection comes first: a port nobody listens on is reported at once, as such.
    """
    from urllib.parse import urlsplit

    from distributed.comm import connect

    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    parts = urlsplit(address)

    async def identity() -> Any:
        _, writer = await asyncio.open_connection(parts.hostname, parts.port)
        writer.close()
        comm = await connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    try:
        answer = _run_coroutine(lambda: asyncio.wait_for(identity(), timeout))
    except TimeoutError:
        raise RunError(
            f"no Dask scheduler answered at {address} within {timeout:g} s (is it the scheduler's port, "
            "usually 8786, and not its dashboard's?)"
        ) from None
    except MemoryError:
        answer = None  # a server that is not Dask sent bytes that read as a huge frame length
    except Exception as error:
        raise RunError(f"cannot reach a Dask scheduler at {address}: {guard.describe(error)}") from None
    if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
        kind = answer.get("type") if isinstance(answer, dict) else None
        what = f"a Dask {kind}" if kind else "not a Dask scheduler"
        raise RunError(
            f"{address} is {what}; give the address of a Dask scheduler (tcp://HOST:PORT, usually port 8786)"
        )
    return answer


def _run_coroutine(make: Callable[[], Any]) -> Any:
    """Run the coroutine ``make()`` to its end: here, or in a thread when this one runs an event loop (Jupyter)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result()


def backend_for(workers: int, backend: str = "local", scheduler: str | None = None):
    """The execution backend: inline (1 local worker), a process pool, or Dask."""
    _refuse_while_a_worker_starts()
    if backend not in BACKENDS:
        raise ValueError(f"backend={backend!r}: choose from {', '.join(BACKENDS)}")
    if backend == "dask":
        return _DaskBackend(workers, scheduler)
    if scheduler:
        raise ValueError("--scheduler needs --backend dask")
    return _InlineBackend() if workers <= 1 else _PoolBackend(workers)


def compile_kernels(config: RunConfig) -> None:
    """Compile (or load from numba's cache) every kernel ``config`` plays, without playing: the
    engine's entry point and the ``decide`` of each searching bot, passed to it with no units."""
    nothing = np.zeros(0, dtype=np.uint64)
    if config.table != "pairs":
        play_table_rows(config.table, config.players, config.rules, nothing)
        return
    for a, b in config.pairings:
        pair = (config.players[a], config.players[b])
        if config.mode == "hands":
            engine.play_hand_rows(pair, config.rules, nothing, np.zeros(0, dtype=np.int64))
        else:
            engine.play_game_rows(pair, config.rules, nothing)


def compile_and_run_chunk(
    config: RunConfig,
    chunk: Chunk,
    hand_log: bool = False,
    programs: ProgramSettings | None = None,
    unit_records: bool = False,
    part: tuple[int, int] | None = None,
) -> ChunkResult:
    """:func:`run_chunk` after :func:`compile_kernels`: the first job of a run on a cold cache."""
    compile_kernels(config)
    return run_chunk(config, chunk, hand_log, programs, unit_records, part)


def kernel_for(mode: str, table: str = "pairs") -> Any:
    """The numba entry point that plays the chunks of a run: two-player hands or games, or
    three-player or partnership games (what the first run compiles)."""
    if table == "pairs":
        from simgin.kernels import engine as kernels

        return kernels.play_hands_batch if mode == "hands" else kernels.play_games_batch
    from simgin.kernels import multiplayer as table_kernels

    return table_kernels.play_three_games_batch if table == "three" else table_kernels.play_team_games_batch


def kernels_cached(mode: str, table: str = "pairs", players: Sequence[str] = ()) -> bool:
    """Whether numba's on-disk cache holds the kernel of such a run, and the ``decide`` of each
    searching bot among ``players`` (``kernels.bots``), compiled from today's sources."""
    from simgin.kernels import is_cached
    from simgin.kernels.bots import LAST_BUILT_IN, POLICIES
    from simgin.players.registry import resolve

    searching = set()
    for spec in players:
        try:
            player = resolve(spec)
        except ValueError:
            continue  # the run itself reports a bad spec
        if player.compiled and player.info.bot_id > LAST_BUILT_IN:
            searching.add(POLICIES[player.info.bot_id])
    return is_cached(kernel_for(mode, table)) and all(is_cached(decide) for decide in searching)


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
    cache, which the other workers then load instead of each compiling the same code.
    Waits poll (every :data:`POLL_SECONDS`), so Ctrl-C ends them, and ``notice`` hears
    when a Dask cluster has had no worker for a while. A chunk whose pairing has a strategy that is not
    compiled is played in parts when there are several workers (:func:`chunk_parts`), each a job, and
    yielded whole (:func:`merge_parts`).
    ``programs`` and ``unit_records`` go to :func:`run_chunk`. ``kept``: finished chunks are kept in an
    ``--out`` directory (a lost worker's error then says a rerun resumes).
    """
    notice = notice or _log_notice

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
        try:
            while True:
                while len(pending) < in_flight:
                    job = next(queue, None)
                    if job is None:
                        break
                    config, chunk, part, last = job
                    function = compile_and_run_chunk if compile_first and in_flight == 1 else run_chunk
                    if programs is not None:
                        function = functools.partial(function, programs=programs)
                    if unit_records:
                        function = functools.partial(function, unit_records=True)
                    if part is not None:
                        function = functools.partial(function, part=part)
                    try:
                        pending.append((runner_backend.submit(function, config, chunk, hand_log), last))
                    except Exception as error:  # a broken pool, a Dask client whose scheduler is gone
                        failure = _backend_failure(runner_backend, error, kept)
                        if failure is None:
                            raise
                        raise failure from None
                if not pending:
                    return
                future, last = pending.popleft()
                finished.append(wait_result(runner_backend, future, notice, kept))
                in_flight = ahead
                if last:  # a chunk is complete: played whole, or its last part
                    result = finished[0] if len(finished) == 1 else merge_parts(finished)
                    finished = []
                    yield result
        finally:
            for future, _ in pending:
                with contextlib.suppress(Exception):  # a client whose scheduler is gone may refuse
                    future.cancel()


def wait_result(
    runner_backend: Any, future: Any, notice: Callable[[str], None] | None = None, kept: bool = True
) -> Any:
    """The result of a chunk submitted to ``runner_backend`` (waits poll, so Ctrl-C ends them); a lost worker or
    cluster is a one-line :class:`RunError` (the chunk's own errors are raised as they are)."""
    notice = notice or _log_notice
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


def _log_notice(message: str) -> None:
    """Where notices go without a ``notice`` callback: the ``simgin`` logger (stderr by default)."""
    logging.getLogger("simgin").warning(message)


# -- the output directory ----------------------------------------------------------------


class RunDirectory:
    """An output directory: ``run.json`` (the settings), ``chunks/*.json`` and ``hands/*.parquet``.

    Nothing in it is trusted without a check. A new directory must be empty (or not exist);
    an existing one must hold a readable ``run.json`` of this :data:`RUN_FORMAT` with the
    same settings, else it is refused. Each chunk record carries the digest of its run's
    settings (:meth:`RunConfig.digest`), the chunk itself (seed, index, pairing, cell), the
    format, the rows of its hand log, and a checksum of all that; a record that fails any
    check is refused with its file named. A chunk whose hand log is missing or short is
    played again. Every file is read and written by :mod:`simgin.base.files`: never through a link
    planted in the directory, and never outside it.
    """

    def __init__(
        self,
        path: Path,
        configs: Sequence[RunConfig],
        hand_log: bool,
        kind: str = "run",
        notice: Callable[[str], None] | None = None,
        unit_records: bool = False,
    ) -> None:
        self.path = Path(path)
        self.unit_records = unit_records
        self.units: dict[str, np.ndarray] = {}
        """Unit records of the chunks read back (with ``unit_records``), by chunk key."""
        self.configs = list(configs)
        self.digests = [config.digest() for config in self.configs]
        # A run that stopped on an illegal move resumes under --on-illegal forfeit: every chunk it
        # finished had no illegal move, so it is the same chunk under either setting (not the reverse).
        self.stopped_digests = [dataclasses.replace(config, on_illegal="stop").digest() for config in self.configs]
        self.hand_log = hand_log
        self.notice = notice or _log_notice
        self.tally_type = self.configs[0].tally_type()
        settings = {
            "format": RUN_FORMAT,
            "kind": kind,
            "runs": [config.to_dict() for config in self.configs],
            "hand_log": hand_log,
        }
        settings_path = self.path / SETTINGS_FILE
        try:
            if os.path.lexists(settings_path):
                self._check_settings(_read_json(settings_path, _REFUSED), settings)
            else:
                self._check_new()
                files.write_file(self.path, SETTINGS_FILE, json.dumps(settings, indent=2, sort_keys=True))
            files.make_directory(self.path, "chunks")
            for folder in ("hands", "stderr"):  # refused at once if a link; made only when a run writes into it
                if (folder == "hands" and hand_log) or os.path.lexists(self.path / folder):
                    files.make_directory(self.path, folder)
        except files.UnsafePath as error:
            raise RunError(str(error)) from None
        except OSError as error:
            raise RunError(f"cannot use {self.path} as the output directory: {_os_problem(error)}") from None

    def _check_settings(self, recorded: Any, settings: dict[str, Any]) -> None:
        where = self.path / SETTINGS_FILE
        if not isinstance(recorded, dict):
            raise RunError(f"{where} is damaged (not a JSON object); {_REFUSED}")
        if not {"kind", "runs"} <= recorded.keys() or not isinstance(recorded.get("runs"), list):
            # Every simgin version's run.json names its kind and its runs: unrelated JSON is not "another version"
            # (issue 32 item 26).
            raise RunError(f"{where} is not a simgin run record (it has no 'kind' and 'runs'); {_REFUSED}")
        if recorded.get("format") != RUN_FORMAT:
            raise RunError(
                f"{where} was written by another simgin version (run directory format "
                f"{recorded.get('format', 1)}, this one uses {RUN_FORMAT}); use a fresh --out directory"
            )
        if recorded != settings and self._resumes_stopped_run(recorded, settings):
            self.notice(f"{self.path} holds a run with --on-illegal stop: resuming its chunks with forfeit")
            files.write_file(self.path, SETTINGS_FILE, json.dumps(settings, indent=2, sort_keys=True))
            return
        if recorded != settings:
            raise RunError(
                f"{self.path} holds a run with other settings ({_difference(recorded, settings)}); "
                "use another --out directory or rerun with the recorded settings"
            )

    @staticmethod
    def _resumes_stopped_run(recorded: dict[str, Any], settings: dict[str, Any]) -> bool:
        """Whether ``settings`` (under ``--on-illegal forfeit``) are ``recorded`` (``stop``) but for that."""
        runs = settings.get("runs", [])
        if not runs or any(run.get("on_illegal") != "forfeit" for run in runs):
            return False
        stopped = [{key: value for key, value in run.items() if key != "on_illegal"} for run in runs]
        return recorded == settings | {"runs": stopped}

    def _check_new(self) -> None:
        """A directory without ``run.json`` is used only if it is empty: it may be another run whose settings
        are lost (never resumed on trust), or not simgin's at all (never written into)."""
        problem = files.new_directory_problem(self.path, SETTINGS_FILE)
        if problem:
            raise RunError(problem)

    def finished(self) -> dict[str, Tally]:
        """Tallies of the chunks already written and checked, by chunk key (files of other keys are ignored)."""
        done = {}
        for file in sorted((self.path / "chunks").glob("*.json")):
            chunk = self._planned(file.stem)
            if chunk is None:
                continue
            tally = self._load(file, chunk)
            if tally is not None:
                done[file.stem] = tally
        return done

    def _planned(self, key: str) -> Chunk | None:
        """The chunk of this run that has file name ``key``, if there is one."""
        match = re.fullmatch(r"s(\d+)-p(\d+)-c(\d+)", key)
        if match is None:
            return None
        cell, pairing, index = (int(group) for group in match.groups())
        if cell >= len(self.configs):
            return None
        config = self.configs[cell]
        if pairing >= len(config.pairings) or index >= config.chunk_count:
            return None
        chunk = make_chunk(config, pairing, index, cell)
        return chunk if chunk.key == key else None

    def _load(self, file: Path, chunk: Chunk) -> Tally | None:
        """The checked tally of a chunk file, None when its hand log must be written again, or a RunError."""
        fix = "delete it to recompute that chunk, or use a fresh --out directory"
        record = _read_json(file, fix)
        if not isinstance(record, dict):
            raise RunError(f"{file} is damaged (not a JSON object); {fix}")
        if "format" not in record:
            older = {"chunk", "tally"} <= record.keys()
            what = "was written by an older simgin version" if older else "is damaged (not a chunk record)"
            raise RunError(f"{file} {what}; {fix}")
        if record["format"] != RUN_FORMAT:
            raise RunError(f"{file} was written by another simgin version (format {record['format']}); {fix}")
        if record.get("check") != _checksum(record):
            raise RunError(f"{file} is damaged (its content does not match its checksum); {fix}")
        if record.get("settings") not in (self.digests[chunk.cell_index], self.stopped_digests[chunk.cell_index]):
            raise RunError(f"{file} belongs to a run with other settings; {fix}")
        if record.get("chunk") != asdict(chunk):
            raise RunError(f"{file} belongs to another chunk or seed ({record.get('chunk')}); {fix}")
        counts = record.get("tally")
        if not isinstance(counts, dict) or not all(files.is_finite(v) for v in counts.values()):
            raise RunError(f"{file} is damaged (its tally is not an object of finite numbers); {fix}")
        try:
            tally = self.tally_type.from_dict(counts)
            if "forfeits" in record:
                tally.forfeits = _checked_forfeits(record["forfeits"])
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise RunError(f"{file} is damaged (bad tally: {guard.describe(error)}); {fix}") from None
        if self.hand_log:
            problem = hand_log_format.problem(self.path / "hands" / f"{chunk.key}.parquet", record.get("hand_log_rows"))
            if problem:
                self.notice(f"{problem}; playing chunk {chunk.key} again")
                return None
        if self.unit_records:
            if "units" not in record:
                self.notice(f"{file} has no unit records; playing chunk {chunk.key} again")
                return None
            config = self.configs[chunk.cell_index]
            width, dtype = (
                (len(UNIT_FIELDS), UNIT_DTYPE)
                if config.table == "pairs"
                else (len(table_unit_fields(config.table)), np.int64)
            )
            try:
                units = np.array(record["units"], dtype=dtype).reshape(chunk.unit_count, width)
            except (TypeError, ValueError, OverflowError) as error:
                raise RunError(f"{file} is damaged (bad unit records: {guard.describe(error)}); {fix}") from None
            self.units[chunk.key] = units
        return tally

    def save(self, result: ChunkResult) -> None:
        """Write a finished chunk atomically: the hand log first, then the record that marks it done."""
        chunk = result.chunk
        record: dict[str, Any] = {
            "format": RUN_FORMAT,
            "settings": self.digests[chunk.cell_index],
            "chunk": asdict(chunk),
            "players": [
                self.configs[chunk.cell_index].players[i]
                for i in self.configs[chunk.cell_index].pairings[chunk.pairing_index]
            ],
            "seconds": result.seconds,
            "tally": result.tally.to_dict(),
        }
        if getattr(result.tally, "forfeits", None):
            record["forfeits"] = result.tally.forfeits
        if result.units is not None:
            record["units"] = result.units.tolist()
        try:
            if self.hand_log and result.hand_log is not None:
                files.write_file(
                    self.path, f"hands/{chunk.key}.parquet", files.frame_writer(result.hand_log, "parquet")
                )
                record["hand_log_rows"] = len(result.hand_log)
            record["check"] = _checksum(record)
            files.write_file(self.path, f"chunks/{chunk.key}.json", json.dumps(record))
        except files.UnsafePath as error:
            raise RunError(str(error)) from None
        except OSError as error:
            raise RunError(f"cannot write chunk {chunk.key} into {self.path}: {_os_problem(error)}") from None


def _checked_forfeits(value: Any) -> list[dict[str, Any]]:
    """A chunk record's forfeit list (dicts, at most :data:`MAX_FORFEITS_KEPT`), or a TypeError."""
    if not isinstance(value, list) or len(value) > MAX_FORFEITS_KEPT or not all(isinstance(x, dict) for x in value):
        raise TypeError(f"forfeits must be a list of at most {MAX_FORFEITS_KEPT} records")
    return value


_REFUSED = (
    "the directory's settings cannot be established, so nothing in it is resumed: "
    "use a fresh --out directory (or delete this one)"
)


def _read_json(path: Path, fix: str) -> Any:
    """The JSON in ``path`` read by the checked reader (:func:`~simgin.base.files.read_json`), or a RunError that
    names the file, says what is wrong and what to do (``fix``)."""
    try:
        return files.read_json(path, fix)
    except files.DamagedFile as error:
        raise RunError(str(error)) from None


#: SHA-256 of a chunk record without its ``check`` field.
_checksum = files.checksum


def _os_problem(error: OSError) -> str:
    """An OSError on one line: ``'Permission denied: /sys/x'``."""
    reason = error.strerror or type(error).__name__
    return f"{reason}: {error.filename}" if error.filename else reason


def _difference(recorded: dict[str, Any], settings: dict[str, Any]) -> str:
    """The settings that differ, each with the recorded value next to the new one, e.g.
    ``'seed: recorded 1, now 2; hands: recorded 400, now 800'`` (issue 25)."""
    changed = setting_differences(
        {key: recorded.get(key) for key in ("kind", "hand_log")}, {key: settings[key] for key in ("kind", "hand_log")}
    )
    old_runs, new_runs = recorded.get("runs", []), settings["runs"]
    # A run's settings leave on_illegal out when it is "stop" (so older directories keep their digest): name it.
    if isinstance(old_runs, list):
        old_runs = [
            run | {"on_illegal": run.get("on_illegal", "stop")} if isinstance(run, dict) else run for run in old_runs
        ]
    new_runs = [run | {"on_illegal": run.get("on_illegal", "stop")} for run in new_runs]
    if not isinstance(old_runs, list) or not all(isinstance(old, dict) for old in old_runs):
        changed.append("runs: the recorded settings are damaged")
    elif len(old_runs) != len(new_runs):
        count = len(old_runs) if isinstance(old_runs, list) else "?"
        changed.append(f"number of runs: recorded {count}, now {len(new_runs)}")
    else:  # a difference of every cell (a sweep's seed) is named once, one of some cells with the cell
        cells = [setting_differences(old, new) for old, new in zip(old_runs, new_runs, strict=True)]
        common = [line for line in cells[0] if all(line in lines for lines in cells)] if cells else []
        changed += common
        for index, lines in enumerate(cells):
            changed += [f" of cell {index}: ".join(line.split(": ", 1)) for line in lines if line not in common]
    return show_differences(changed)


def setting_differences(recorded: Any, wanted: Any, path: str = "") -> list[str]:
    """``'NAME: recorded OLD, now NEW'`` for each setting that differs, nested settings named
    with dots after the plain ones (``'seed: recorded 1, now 2; rules.gin_bonus: recorded 25, now 30'``);
    values as JSON."""
    if isinstance(recorded, dict) and isinstance(wanted, dict):
        lines: list[str] = []
        keys = [*wanted, *(key for key in recorded if key not in wanted)]
        for key in sorted(keys, key=lambda key: isinstance(wanted.get(key), dict)):  # plain values first
            name = f"{path}.{key}" if path else str(key)
            lines += setting_differences(recorded.get(key, _MISSING), wanted.get(key, _MISSING), name)
        return lines
    if recorded == wanted:
        return []
    return [f"{path or 'settings'}: recorded {_shown_setting(recorded)}, now {_shown_setting(wanted)}"]


def show_differences(lines: list[str], most: int = 6) -> str:
    """At most ``most`` differences joined with ``'; '``, then how many more there are."""
    if not lines:
        return "unknown"
    more = f"; and {len(lines) - most} more" if len(lines) > most else ""
    return "; ".join(lines[:most]) + more


_MISSING = object()


def _shown_setting(value: Any) -> str:
    if value is _MISSING:
        return "nothing"
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


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
    _refuse_while_a_worker_starts()
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
    workers = check_workers(workers or os.cpu_count() or 1, backend, scheduler)
    notice = notice or _log_notice
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
                    units=[_stack_units(pieces) for pieces in units[cell]] if unit_records else None,
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


def _stack_units(pieces: list[np.ndarray]) -> np.ndarray:
    """Chunks' unit records as one (units, fields) array."""
    if not pieces:
        return np.zeros((0, len(UNIT_FIELDS)), dtype=UNIT_DTYPE)
    return np.concatenate(pieces)


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
    **options: Any,
) -> RunResult:
    """Round robin: every pair of ``players`` plays ``hands`` or ``games`` on the same seeds.

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
    **options: Any,
) -> RunResult:
    rules = as_rules(rules)  # a preset name, as every run function takes; a wrong type named (issue 32 item 27)
    config = RunConfig(players, rules, hands, games, seed, duplicate, on_illegal=on_illegal)
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
    # D17: the rate counts only the hands played now; a run read back whole played none (null).
    data["timing"] = {
        "seconds": result.seconds,
        "hands_per_second": ratio(result.hands_run, result.seconds) if result.chunks_run else math.nan,
        "chunks_run": result.chunks_run,
        "chunks_resumed": result.chunks_resumed,
        "hands_run": result.hands_run,
    }
    return jsonable(data)

"""Matches and round robins at scale: chunks, seeds, workers, Dask, resume and hand logs.

Work is cut into chunks of units; a unit is a hand (``--hands``) or a game (``--games``),
and with duplicate deals a unit is a *pair*: one hand or game seed played twice with
the seats swapped. Chunk ``i`` has the seed drawn from ``SeedSequence(seed).spawn`` child
``i``, and unit ``j`` of a chunk has the seed ``derive(chunk_seed, j)`` (docs/ENGINE.md),
so results do not depend on the number of workers or the backend. Every pairing of a
tournament plays the same seeds (common random numbers).

Each chunk is reduced to a :class:`~simgin.tally.Tally` (sums only), so memory stays flat
however many hands are played; chunks are planned lazily, so a long run costs no memory
up front. With an output directory, each finished chunk is written atomically as it
completes, carrying what identifies it (the digest of its run's settings, its seed, index,
pairing and cell, a format version and a checksum); rerunning the same command resumes,
and a chunk that does not belong, or a directory whose settings cannot be read, is
refused rather than trusted (:class:`RunDirectory`).

Workers of the local pool die with the main process (:func:`simgin.guard.die_with_parent`)
and are ended when a run stops early; waits on workers poll, so Ctrl-C always ends them,
and a Dask cluster without workers is reported (``notice``) instead of waited on silently.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import hashlib
import itertools
import json
import logging
import math
import os
import re
import signal
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import CancelledError, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import numpy as np

from simgin import engine, guard, process_strategy
from simgin.kernels import engine as _k
from simgin.multiplayer import TABLES, Sums, play_table_rows, seatings, summarize_table, tally_table
from simgin.process_strategy import ProgramSettings
from simgin.registry import absolute_spec
from simgin.rng import derive
from simgin.rules import Rules
from simgin.tally import Tally, game_margin, net_points, tally_games, tally_hands, tally_pairs

if TYPE_CHECKING:
    import pandas as pd

#: Units per chunk: part of a run's settings, since chunk boundaries fix the seeds.
HANDS_PER_CHUNK = 20_000
GAMES_PER_CHUNK = 1_000
BACKENDS = ("local", "dask")
SETTINGS_FILE = "run.json"
#: Version of the run directory's layout (``run.json`` and chunk records); another version is refused.
RUN_FORMAT = 2
#: Most hands, or games, per pairing: every count in a tally stays exact (float64 sums, below 2**53).
MAX_HANDS = 10**12
MAX_GAMES = 10**11
#: Seeds are 64-bit.
MAX_SEED = 2**64 - 1
#: Most in-flight workers for a remote Dask cluster (the cluster's own size is its business).
MAX_REMOTE_WORKERS = 4096
#: Seconds allowed to reach a Dask scheduler and hear it answer as one.
CONNECT_TIMEOUT = 5.0
#: Seconds between looks at a run's workers while waiting for a chunk.
POLL_SECONDS = 0.5
#: Seconds without any Dask worker before "waiting for workers" is reported.
WAIT_NOTICE_SECONDS = 10.0
HAND_LOG_SCHEMA = {"pairing": "int64", "chunk": "int64", "unit": "int64", "leg": "int64", "seat_a": "int64"} | {
    name: "int64" for name in _k.HAND_FIELDS
}


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


@dataclass(frozen=True)
class RunConfig:
    """Everything that determines a run's results (workers and backend do not)."""

    players: tuple[str, ...]
    rules: Rules = field(default_factory=Rules)
    hands: int | None = None
    games: int | None = None
    seed: int = 0
    duplicate: bool = True
    chunk_units: int | None = None
    table: str = "pairs"
    """'pairs' (two-player matches, a round robin for more players), 'three' (V11) or 'teams' (V12)."""

    def __post_init__(self) -> None:
        if self.table not in TABLES:
            raise ValueError(f"table={self.table!r}: choose from {', '.join(TABLES)}")
        self.rules.check_table(self.table)
        needed = {"pairs": None, "three": 3, "teams": 4}[self.table]
        if len(self.players) < 2 or (needed is not None and len(self.players) != needed):
            wanted = f"exactly {needed}" if needed else "at least two"
            raise ValueError(f"need {wanted} players for a {self.table} table, got {len(self.players)}")
        if (self.hands is None) == (self.games is None):
            raise ValueError("give exactly one of hands or games")
        count = self.count
        if count < 1:
            raise ValueError(f"{self.mode}={count}: must be at least 1")
        most = MAX_HANDS if self.mode == "hands" else MAX_GAMES
        if count > most:
            raise ValueError(f"{self.mode}={count}: must be between 1 and {most:,} per pairing")
        if self.table != "pairs" and self.mode != "games":
            raise ValueError(f"a {self.table} table plays whole games: give games, not hands")
        if self.duplicate and count % self.legs:
            need = "even" if self.legs == 2 else f"a multiple of {self.legs}"
            raise ValueError(
                f"{self.mode}={count}: must be {need} with duplicate deals "
                f"(each deal is played in {self.legs} seatings)"
            )
        if not 0 <= self.seed <= MAX_SEED:
            raise ValueError(f"seed={self.seed}: must be between 0 and {MAX_SEED} (a 64-bit seed)")
        if self.chunk_units is not None and not 1 <= self.chunk_units <= MAX_HANDS:
            raise ValueError(f"chunk_units={self.chunk_units}: must be between 1 and {MAX_HANDS:,}")

    @property
    def mode(self) -> str:
        return "hands" if self.hands is not None else "games"

    @property
    def count(self) -> int:
        """Hands or games per pairing."""
        return int(self.hands if self.hands is not None else self.games)  # type: ignore[arg-type]

    @property
    def legs(self) -> int:
        """How many times each deal is played: once, or once per seating with duplicate deals."""
        if not self.duplicate:
            return 1
        return 2 if self.table == "pairs" else len(seatings(self.table))

    @property
    def units(self) -> int:
        """Units per pairing: deals (or duplicate sets of deals, one per seating)."""
        return self.count // self.legs

    @property
    def units_per_chunk(self) -> int:
        if self.chunk_units is not None:
            return self.chunk_units
        per_chunk = HANDS_PER_CHUNK if self.mode == "hands" else GAMES_PER_CHUNK
        return max(per_chunk // self.legs, 1)

    @property
    def chunk_count(self) -> int:
        return math.ceil(self.units / self.units_per_chunk)

    @property
    def pairings(self) -> list[tuple[int, ...]]:
        """Every pair of players once (round robin), in order; a three or teams table is one 'pairing' of all."""
        if self.table != "pairs":
            return [tuple(range(len(self.players)))]
        return list(itertools.combinations(range(len(self.players)), 2))

    def tally_type(self) -> type:
        """What a chunk of this run sums into: a :class:`Tally` (two players) or :class:`Sums` (tables)."""
        return Tally if self.table == "pairs" else Sums

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["players"] = list(self.players)
        data["rules"] = self.rules.to_dict()
        data["units_per_chunk"] = self.units_per_chunk
        return data

    def digest(self) -> str:
        """A short hash of :meth:`to_dict`: the identity of the run that every chunk record carries."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:32]


def chunk_seed(seed: int, chunk_index: int) -> int:
    """The seed of chunk ``chunk_index``: child ``chunk_index`` of ``SeedSequence(seed)``."""
    child = np.random.SeedSequence(seed, spawn_key=(chunk_index,))
    return int(child.generate_state(1, dtype=np.uint64)[0])


@dataclass(frozen=True)
class Chunk:
    """One piece of work: a range of units of one pairing."""

    pairing_index: int
    chunk_index: int
    seed: int
    unit_count: int
    cell_index: int = 0
    """Which run of a sweep (grid cell) the chunk belongs to; 0 for a single run."""

    @property
    def key(self) -> str:
        return f"s{self.cell_index:03d}-p{self.pairing_index:03d}-c{self.chunk_index:06d}"


def make_chunk(config: RunConfig, pairing_index: int, chunk_index: int, cell_index: int = 0) -> Chunk:
    """Chunk ``chunk_index`` of pairing ``pairing_index``: its seed and its number of units."""
    per_chunk = config.units_per_chunk
    units = min(per_chunk, config.units - chunk_index * per_chunk)
    return Chunk(pairing_index, chunk_index, chunk_seed(config.seed, chunk_index), units, cell_index)


def iter_chunks(config: RunConfig, cell_index: int = 0) -> Iterator[Chunk]:
    """The chunks of a run in play order, one at a time: chunk by chunk, every pairing on the same seeds."""
    pairings = len(config.pairings)
    for chunk_index in range(config.chunk_count):
        first = make_chunk(config, 0, chunk_index, cell_index)
        for pairing_index in range(pairings):
            yield dataclasses.replace(first, pairing_index=pairing_index)


def plan_chunks(config: RunConfig, cell_index: int = 0) -> list[Chunk]:
    """All chunks of a run in play order (:func:`iter_chunks` as a list)."""
    return list(iter_chunks(config, cell_index))


def unit_seeds(chunk: Chunk) -> np.ndarray:
    """Unit ``j`` of a chunk has seed ``derive(chunk.seed, j)``."""
    return np.array([derive(chunk.seed, j) for j in range(chunk.unit_count)], dtype=np.uint64)


@dataclass
class ChunkResult:
    """What a worker sends back: the chunk, its tally and, on request, its hand rows."""

    chunk: Chunk
    tally: Tally | Sums
    hand_log: pd.DataFrame | None = None
    seconds: float = 0.0


def run_chunk(
    config: RunConfig, chunk: Chunk, hand_log: bool = False, programs: ProgramSettings | None = None
) -> ChunkResult:
    """Play one chunk and reduce it to a tally (pure: the same chunk always gives the same result).

    ``programs`` sets how ``exec:`` and ``eaai:`` strategies run here (time limit, stderr folder).
    """
    process_strategy.configure(programs)
    start = time.perf_counter()
    if config.table != "pairs":
        return ChunkResult(chunk, _table_chunk(config, chunk), None, time.perf_counter() - start)
    a_index, b_index = config.pairings[chunk.pairing_index]
    players = (config.players[a_index], config.players[b_index])
    seeds = unit_seeds(chunk)
    legs = [(players, 0)]
    if config.duplicate:
        legs.append(((players[1], players[0]), 1))
    tally = Tally.zero()
    leg_scores: list[np.ndarray] = []
    leg_results: list[np.ndarray] = []
    logs: list[pd.DataFrame] = []
    for leg_players, seat_a_value in legs:
        try:
            if config.mode == "hands":
                dealers = np.arange(chunk.unit_count, dtype=np.int64) % 2
                rows = engine.play_hand_rows(leg_players, config.rules, seeds, dealers)
                unit_of_row = np.arange(chunk.unit_count)
                seat_a = np.full(rows.shape[0], seat_a_value)
                leg_scores.append(_leg_score(rows[:, _k.H_WINNER], seat_a_value))
                leg_results.append(net_points(rows, seat_a))
            else:
                games, game_rows, counts = engine.play_game_rows(leg_players, config.rules, seeds)
                rows, unit_of_row = engine.game_hands(game_rows, counts)
                seat_a = np.full(rows.shape[0], seat_a_value)
                game_seat_a = np.full(games.shape[0], seat_a_value)
                tally = tally + tally_games(games, game_seat_a)
                leg_scores.append(_leg_score(games[:, _k.G_WINNER], seat_a_value))
                leg_results.append(game_margin(games, game_seat_a))
        except engine.IllegalDecision as error:
            # A program that cannot start or shake hands fails whatever the hand: a replay cannot help.
            started = not isinstance(error.__cause__, process_strategy.ProgramStartError)
            raise RunError(
                f"{error} (pairing {players[0]} vs {players[1]}, leg {seat_a_value + 1}, chunk {chunk.chunk_index} "
                f"with chunk seed {chunk.seed})" + ("; replay it with 'simgin replay'" if started else "")
            ) from None
        tally = tally + tally_hands(rows, seat_a)
        if hand_log:
            units = unit_of_row + chunk.chunk_index * config.units_per_chunk
            logs.append(_hand_log_frame(rows, chunk, units, seat_a_value, seat_a))
    if config.duplicate:
        tally = tally + tally_pairs(leg_scores[0], leg_scores[1], leg_results[0], leg_results[1])
    log = None
    if hand_log:
        import pandas as pd

        log = pd.concat(logs, ignore_index=True)
    return ChunkResult(chunk, tally, log, time.perf_counter() - start)


def _leg_score(winner: np.ndarray, seat_a: int) -> np.ndarray:
    """A's score per hand or game of one leg: 1 for a win, 0.5 for a dead hand or undecided game, 0 for a loss."""
    return np.where(winner == seat_a, 1.0, np.where(winner < 0, 0.5, 0.0))


def _hand_log_frame(rows: np.ndarray, chunk: Chunk, units: np.ndarray, leg: int, seat_a: np.ndarray) -> pd.DataFrame:
    """Hand rows with the columns of :data:`HAND_LOG_SCHEMA`."""
    import pandas as pd

    frame = pd.DataFrame(rows, columns=list(_k.HAND_FIELDS))
    for name, values in (("seat_a", seat_a), ("leg", leg), ("unit", units), ("chunk", chunk.chunk_index)):
        frame.insert(0, name, values)
    frame.insert(0, "pairing", chunk.pairing_index)
    return frame.astype("int64")


def _table_chunk(config: RunConfig, chunk: Chunk) -> Sums:
    """A chunk of three-player or partnership games, every seating over the same game seeds."""
    seeds = unit_seeds(chunk)
    total = Sums.zero()
    for seating in seatings(config.table) if config.duplicate else (tuple(range(len(config.players))),):
        bots = tuple(config.players[player] for player in seating)
        try:
            games, rows, hand_players, counts = play_table_rows(config.table, bots, config.rules, seeds)
        except engine.IllegalDecision as error:
            raise RunError(f"{error} (chunk {chunk.chunk_index} with chunk seed {chunk.seed})") from None
        total = total + tally_table(config.table, seating, games, rows, hand_players, counts)
    return total


# -- executing chunks --------------------------------------------------------------------


def _worker_init(parent_pid: int | None = None) -> None:
    """Set up a pool worker: it dies with the main process ``parent_pid``, ignores Ctrl-C (the main
    process handles it and ends the workers), writes to stderr what strategies print to stdout
    (which is for results), and runs its kernels on one thread: the pool is the parallelism."""
    import numba

    if parent_pid is not None:
        guard.die_with_parent(parent_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
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
        os._exit(MAIN_GUARD_EXIT)


class _PoolBackend:
    """A process pool on this machine (spawned processes, one kernel thread each)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.processes: dict[int, Any] = {}
        """Every worker process started, by pid, so that their exit codes can be read after they died."""

    def __enter__(self) -> _PoolBackend:
        context = get_context("spawn")
        self.pool = ProcessPoolExecutor(
            max_workers=self.workers, mp_context=context, initializer=_worker_init, initargs=(os.getpid(),)
        )
        return self

    def __exit__(self, *exc: object) -> None:
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
        """The exit codes of the worker processes (None for one still running)."""
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
    config: RunConfig, chunk: Chunk, hand_log: bool = False, programs: ProgramSettings | None = None
) -> ChunkResult:
    """:func:`run_chunk` after :func:`compile_kernels`: the first job of a run on a cold cache."""
    compile_kernels(config)
    return run_chunk(config, chunk, hand_log, programs)


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
    from simgin.registry import resolve

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
) -> Iterator[ChunkResult]:
    """Run (config, chunk) jobs and yield their results in job order.

    At most ``2 * workers`` jobs are in flight, so a caller that stops early (a sequential
    test that has decided) wastes little work; closing the generator cancels the rest and
    ends the local workers. With ``compile_first`` the first job runs alone, and its worker
    first compiles every kernel the run plays (:func:`compile_kernels`) and writes numba's
    cache, which the other workers then load instead of each compiling the same code.
    Waits poll (every :data:`POLL_SECONDS`), so Ctrl-C ends them, and ``notice`` hears
    when a Dask cluster has had no worker for a while.
    ``programs`` goes to :func:`run_chunk`.
    """
    notice = notice or _log_notice
    with backend_for(workers, backend, scheduler) as runner_backend:
        pending: deque[Any] = deque()
        queue = iter(jobs)
        ahead = 2 * max(workers, 1)
        in_flight = 1 if compile_first else ahead
        try:
            while True:
                while len(pending) < in_flight:
                    job = next(queue, None)
                    if job is None:
                        break
                    function = compile_and_run_chunk if compile_first and in_flight == 1 else run_chunk
                    if programs is not None:
                        function = functools.partial(function, programs=programs)
                    try:
                        pending.append(runner_backend.submit(function, job[0], job[1], hand_log))
                    except Exception as error:  # a broken pool, a Dask client whose scheduler is gone
                        failure = _backend_failure(runner_backend, error)
                        if failure is None:
                            raise
                        raise failure from None
                if not pending:
                    return
                result = wait_result(runner_backend, pending.popleft(), notice)
                yield result
                in_flight = ahead
        finally:
            for future in pending:
                with contextlib.suppress(Exception):  # a client whose scheduler is gone may refuse
                    future.cancel()


def wait_result(runner_backend: Any, future: Any, notice: Callable[[str], None] | None = None) -> Any:
    """The result of a chunk submitted to ``runner_backend`` (waits poll, so Ctrl-C ends them); a lost worker or
    cluster is a one-line :class:`RunError` (the chunk's own errors are raised as they are)."""
    notice = notice or _log_notice
    poll = getattr(runner_backend, "poll", None)
    try:
        while poll is not None and not poll(future, POLL_SECONDS, notice):
            pass
        return future.result()
    except (CancelledError, asyncio.CancelledError, Exception) as error:
        failure = _backend_failure(runner_backend, error)
        if failure is None:
            raise  # the chunk's own error (a RunError, a bad spec), as it was raised
        raise failure from None


def _backend_failure(runner_backend: Any, error: BaseException) -> RunError | None:
    """The one-line error for a chunk that the backend lost (a worker process died, a script without a main
    guard, a Dask cluster that lost it: :func:`_cluster_lost`); None for the chunk's own error."""
    if isinstance(error, BrokenProcessPool):
        if MAIN_GUARD_EXIT in getattr(runner_backend, "worker_exit_codes", list)():
            return RunError(MAIN_GUARD_MESSAGE)
        return RunError(
            "a worker process died (killed, or out of memory?); finished chunks in --out are kept, "
            "rerun the same command to resume"
        )
    if not _cluster_lost(error):
        return None
    cancelled = isinstance(error, (CancelledError, asyncio.CancelledError))
    what = "its chunks were cancelled" if cancelled else guard.describe(error)
    return RunError(
        f"the Dask cluster lost a chunk ({what}: a strategy that kills its worker, "
        "or a scheduler gone?); finished chunks in --out are kept, rerun the same command to resume"
    )


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
    played again.
    """

    def __init__(
        self,
        path: Path,
        configs: Sequence[RunConfig],
        hand_log: bool,
        kind: str = "run",
        notice: Callable[[str], None] | None = None,
    ) -> None:
        self.path = Path(path)
        self.configs = list(configs)
        self.digests = [config.digest() for config in self.configs]
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
            if settings_path.exists():
                self._check_settings(_read_json(settings_path, _REFUSED), settings)
            else:
                self._check_new()
                self.path.mkdir(parents=True, exist_ok=True)
                _write_atomic(settings_path, json.dumps(settings, indent=2, sort_keys=True))
            (self.path / "chunks").mkdir(exist_ok=True)
            if hand_log:
                (self.path / "hands").mkdir(exist_ok=True)
        except OSError as error:
            raise RunError(f"cannot use {self.path} as the output directory: {_os_problem(error)}") from None

    def _check_settings(self, recorded: Any, settings: dict[str, Any]) -> None:
        where = self.path / SETTINGS_FILE
        if not isinstance(recorded, dict):
            raise RunError(f"{where} is damaged (not a JSON object); {_REFUSED}")
        if recorded.get("format") != RUN_FORMAT:
            raise RunError(
                f"{where} was written by another simgin version (run directory format "
                f"{recorded.get('format', 1)}, this one uses {RUN_FORMAT}); use a fresh --out directory"
            )
        if recorded != settings:
            raise RunError(
                f"{self.path} holds a run with other settings ({_difference(recorded, settings)}); "
                "use another --out directory or rerun with the recorded settings"
            )

    def _check_new(self) -> None:
        """A directory without ``run.json`` is used only if it is empty: it may be another run whose settings
        are lost (never resumed on trust), or not simgin's at all (never written into)."""
        if not self.path.exists():
            return
        if not self.path.is_dir():
            raise RunError(f"--out {self.path} is a file, not a directory")
        entries = sorted(entry.name for entry in itertools.islice(self.path.iterdir(), 50))
        if not entries:
            return
        ours = [name for name in entries if name in ("chunks", "hands", "result.json") or name.startswith("run.json")]
        if ours:
            raise RunError(
                f"{self.path} has simgin output ({', '.join(ours)}) but no {SETTINGS_FILE}: its settings cannot be "
                "established, so nothing in it is resumed; use a fresh --out directory (or delete this one)"
            )
        raise RunError(
            f"{self.path} is not empty and not a simgin run directory (no {SETTINGS_FILE}); "
            "give a new or empty --out directory"
        )

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
        if record.get("settings") != self.digests[chunk.cell_index]:
            raise RunError(f"{file} belongs to a run with other settings; {fix}")
        if record.get("chunk") != asdict(chunk):
            raise RunError(f"{file} belongs to another chunk or seed ({record.get('chunk')}); {fix}")
        try:
            tally = self.tally_type.from_dict(record["tally"])
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise RunError(f"{file} is damaged (bad tally: {guard.describe(error)}); {fix}") from None
        if self.hand_log:
            problem = _hand_log_problem(self.path / "hands" / f"{chunk.key}.parquet", record.get("hand_log_rows"))
            if problem:
                self.notice(f"{problem}; playing chunk {chunk.key} again")
                return None
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
        try:
            if self.hand_log and result.hand_log is not None:
                target = self.path / "hands" / f"{chunk.key}.parquet"
                partial = target.with_name(target.name + ".partial")
                result.hand_log.to_parquet(partial, index=False)
                os.replace(partial, target)
                record["hand_log_rows"] = len(result.hand_log)
            record["check"] = _checksum(record)
            _write_atomic(self.path / "chunks" / f"{chunk.key}.json", json.dumps(record))
        except OSError as error:
            raise RunError(f"cannot write chunk {chunk.key} into {self.path}: {_os_problem(error)}") from None


_REFUSED = (
    "the directory's settings cannot be established, so nothing in it is resumed: "
    "use a fresh --out directory (or delete this one)"
)


def _read_json(path: Path, fix: str) -> Any:
    """The JSON in ``path``, or a RunError that names the file, says what is wrong and what to do (``fix``)."""
    try:
        return json.loads(path.read_text())
    except UnicodeDecodeError:
        raise RunError(f"{path} is damaged (not text); {fix}") from None
    except json.JSONDecodeError as error:
        what = "empty" if not error.doc.strip() else f"not JSON: {error.msg}, line {error.lineno} column {error.colno}"
        raise RunError(f"{path} is damaged ({what}); {fix}") from None
    except OSError as error:
        raise RunError(f"cannot read {path}: {_os_problem(error)}") from None


def _checksum(record: dict[str, Any]) -> str:
    """SHA-256 of a chunk record without its ``check`` field."""
    content = {key: value for key, value in record.items() if key != "check"}
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


def _hand_log_problem(path: Path, rows: Any) -> str | None:
    """Why the hand log ``path`` is not the ``rows`` rows its chunk record says, or None if it is."""
    if not path.is_file():
        return f"hand log {path} is missing"
    try:
        import pyarrow.parquet as pq

        found = pq.read_metadata(path).num_rows
    except Exception as error:
        return f"hand log {path} is damaged ({guard.describe(error)})"
    if found != rows:
        return f"hand log {path} has {found} rows, its chunk record says {rows}"
    return None


def _os_problem(error: OSError) -> str:
    """An OSError on one line: ``'Permission denied: /sys/x'``."""
    reason = error.strerror or type(error).__name__
    return f"{reason}: {error.filename}" if error.filename else reason


def _difference(recorded: dict[str, Any], settings: dict[str, Any]) -> str:
    """Names of the settings that differ, e.g. ``'seed, hands'``."""
    changed: list[str] = []
    if recorded.get("kind") != settings["kind"]:
        changed.append("kind")
    if recorded.get("hand_log") != settings["hand_log"]:
        changed.append("hand_log")
    old_runs, new_runs = recorded.get("runs", []), settings["runs"]
    if len(old_runs) != len(new_runs):
        changed.append("number of runs")
    for old, new in zip(old_runs, new_runs, strict=False):
        changed.extend(
            key for key in sorted(new.keys() | old.keys()) if old.get(key) != new.get(key) and key not in changed
        )
    return ", ".join(changed) or "unknown"


def _write_atomic(path: Path, text: str) -> None:
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text)
    os.replace(partial, path)


# -- results ---------------------------------------------------------------------------


@dataclass
class RunResult:
    """Tallies by pairing plus timings; ``summary`` is one row per pairing and player."""

    config: RunConfig
    tallies: list[Tally]
    seconds: float
    chunks_run: int
    chunks_resumed: int

    @property
    def summary(self) -> pd.DataFrame:
        if self.config.table != "pairs":
            return summarize_table(self.config.table, self.config.players, self.tallies[0])
        from simgin.summary import summarize

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
) -> list[RunResult]:
    """Play several runs (the cells of a sweep) as one job list, resuming from ``out``.

    Chunks are consumed in play order, finished ones read back from ``out``; after each,
    ``stop(cell, chunk, tallies)`` may end the runs early (a sequential test), and the
    chunks after it are not played. ``programs`` sets how ``exec:`` and ``eaai:`` strategies
    run (:class:`~simgin.process_strategy.ProgramSettings`); with ``out`` their stderr is kept
    in ``out/stderr``, and they are ended when the run ends. ``notice`` hears what the run
    cannot stop for (a hand log played again, a Dask cluster without workers); by default
    the ``simgin`` logger.
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
        directory = RunDirectory(Path(out), configs, hand_log, kind, notice) if out is not None else None
        finished = directory.finished() if directory else {}
        # Workers get strategy files by absolute path: a remote worker's working directory is its own.
        shipped = [dataclasses.replace(c, players=tuple(absolute_spec(p) for p in c.players)) for c in configs]
        todo = ((shipped[chunk.cell_index], chunk) for _, chunk in _plan(configs) if chunk.key not in finished)
        tallies = [[config.tally_type().zero() for _ in config.pairings] for config in configs]
        counts = {"ran": 0, "resumed": 0}

        def results_so_far() -> list[RunResult]:
            seconds = time.perf_counter() - start
            return [
                RunResult(config, tallies[cell], seconds, counts["ran"], counts["resumed"])
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
            todo, workers, backend, scheduler, hand_log, compile_first=compile_first, notice=notice, programs=programs
        )
        try:
            for config, chunk in _plan(configs):
                if chunk.key in finished:
                    tally = finished[chunk.key]
                    counts["resumed"] += 1
                else:
                    result = next(results)
                    if directory:
                        directory.save(result)
                    tally = result.tally
                    counts["ran"] += 1
                    if progress:
                        progress(result, chunk.unit_count * (2 if config.duplicate else 1))
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


def _plan(configs: Sequence[RunConfig]) -> Iterator[tuple[RunConfig, Chunk]]:
    """Every (config, chunk) of the runs in play order, one at a time."""
    for cell, config in enumerate(configs):
        for chunk in iter_chunks(config, cell):
            yield config, chunk


def run(config: RunConfig, **options: Any) -> RunResult:
    """Play one run; ``options`` are those of :func:`run_cells` (workers, backend, scheduler, out, ...)."""
    return run_cells([config], **options)[0]


def run_match(a: str, b: str, **settings: Any) -> RunResult:
    """Play ``a`` against ``b`` (``a`` may equal ``b``); the keyword arguments are those of :func:`run_tournament`."""
    return _run_players((a, b), **settings)


def run_tournament(
    players: Sequence[str],
    *,
    rules: Rules | None = None,
    hands: int | None = None,
    games: int | None = None,
    seed: int = 0,
    duplicate: bool = True,
    **options: Any,
) -> RunResult:
    """Round robin: every pair of ``players`` plays ``hands`` or ``games`` on the same seeds.

    ``options`` go to :func:`run_cells` (workers, backend, scheduler, out, hand_log, progress).

    >>> result = run_tournament(["simple", "random"], hands=200, seed=1, workers=1)
    >>> result.summary[["player", "opponent", "hands"]].to_dict(orient="records")[0]
    {'player': 'simple', 'opponent': 'random', 'hands': 200.0}
    """
    if len(set(players)) != len(players):
        raise ValueError(f"players must differ, got {list(players)}")
    return _run_players(
        tuple(players), rules=rules, hands=hands, games=games, seed=seed, duplicate=duplicate, **options
    )


def _run_players(
    players: tuple[str, ...],
    *,
    rules: Rules | None = None,
    hands: int | None = None,
    games: int | None = None,
    seed: int = 0,
    duplicate: bool = True,
    **options: Any,
) -> RunResult:
    config = RunConfig(players, rules or Rules(), hands, games, seed, duplicate)
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

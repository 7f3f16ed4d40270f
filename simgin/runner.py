"""Matches and round robins at scale: chunks, seeds, workers, Dask, resume and hand logs.

Work is cut into chunks of units; a unit is a hand (``--hands``) or a game (``--games``),
and with duplicate deals a unit is a *pair*: one hand or game seed played twice with
the seats swapped. Chunk ``i`` has the seed drawn from ``SeedSequence(seed).spawn`` child
``i``, and unit ``j`` of a chunk has the seed ``derive(chunk_seed, j)`` (docs/ENGINE.md),
so results do not depend on the number of workers or the backend. Every pairing of a
tournament plays the same seeds (common random numbers).

Each chunk is reduced to a :class:`~simgin.tally.Tally` (sums only), so memory stays flat
however many hands are played. With an output directory, each finished chunk is written
atomically as it completes; rerunning the same command resumes.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from simgin import engine
from simgin.kernels import engine as _k
from simgin.multiplayer import TABLES, Sums, play_table_rows, seatings, summarize_table, tally_table
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
HAND_LOG_SCHEMA = {"pairing": "int64", "chunk": "int64", "unit": "int64", "leg": "int64", "seat_a": "int64"} | {
    name: "int64" for name in _k.HAND_FIELDS
}


class RunError(RuntimeError):
    """A run stopped: the message says which strategy, chunk seed and hand, and how to replay it."""


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
        needed = {"pairs": None, "three": 3, "teams": 4}[self.table]
        if len(self.players) < 2 or (needed is not None and len(self.players) != needed):
            wanted = f"exactly {needed}" if needed else "at least two"
            raise ValueError(f"need {wanted} players for a {self.table} table, got {len(self.players)}")
        if (self.hands is None) == (self.games is None):
            raise ValueError("give exactly one of hands or games")
        count = self.count
        if count < 1:
            raise ValueError(f"{self.mode}={count}: must be at least 1")
        if self.table != "pairs" and self.mode != "games":
            raise ValueError(f"a {self.table} table plays whole games: give games, not hands")
        if self.duplicate and count % self.legs:
            need = "even" if self.legs == 2 else f"a multiple of {self.legs}"
            raise ValueError(
                f"{self.mode}={count}: must be {need} with duplicate deals "
                f"(each deal is played in {self.legs} seatings)"
            )
        if self.seed < 0:
            raise ValueError(f"seed={self.seed}: must be >= 0")
        if self.chunk_units is not None and self.chunk_units < 1:
            raise ValueError(f"chunk_units={self.chunk_units}: must be at least 1")

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


def plan_chunks(config: RunConfig, cell_index: int = 0) -> list[Chunk]:
    """All chunks of a run in play order: chunk by chunk, every pairing on the same seeds."""
    chunks = []
    per_chunk = config.units_per_chunk
    for chunk_index in range(config.chunk_count):
        units = min(per_chunk, config.units - chunk_index * per_chunk)
        seed = chunk_seed(config.seed, chunk_index)
        for pairing_index in range(len(config.pairings)):
            chunks.append(Chunk(pairing_index, chunk_index, seed, units, cell_index))
    return chunks


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


def run_chunk(config: RunConfig, chunk: Chunk, hand_log: bool = False) -> ChunkResult:
    """Play one chunk and reduce it to a tally (pure: the same chunk always gives the same result)."""
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
            raise RunError(
                f"{error} (pairing {players[0]} vs {players[1]}, leg {seat_a_value + 1}, chunk {chunk.chunk_index} "
                f"with chunk seed {chunk.seed}); replay it with 'simgin replay'"
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


def _worker_init() -> None:
    """Each worker process runs its kernels on one thread: the pool is the parallelism."""
    import numba

    numba.set_num_threads(1)


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


class _PoolBackend:
    """A process pool on this machine (spawned processes, one kernel thread each)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def __enter__(self) -> _PoolBackend:
        context = get_context("spawn")
        self.pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=context, initializer=_worker_init)
        return self

    def __exit__(self, *exc: object) -> None:
        self.pool.shutdown(wait=exc[0] is None, cancel_futures=True)

    def submit(self, function: Callable[..., Any], *args: Any) -> Future:
        return self.pool.submit(function, *args)


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
        if self.scheduler:
            try:
                self.client = Client(self.scheduler, timeout="5s")
            except (OSError, TimeoutError) as error:
                raise RunError(f"cannot reach the Dask scheduler {self.scheduler!r}: {error}") from None
        else:
            self.cluster = LocalCluster(
                n_workers=self.workers, threads_per_worker=1, processes=True, dashboard_address=None
            )
            self.client = Client(self.cluster)
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()

    def submit(self, function: Callable[..., Any], *args: Any) -> Any:
        return self.client.submit(function, *args, pure=False, retries=3)


def backend_for(workers: int, backend: str = "local", scheduler: str | None = None):
    """The execution backend: inline (1 local worker), a process pool, or Dask."""
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


def compile_and_run_chunk(config: RunConfig, chunk: Chunk, hand_log: bool = False) -> ChunkResult:
    """:func:`run_chunk` after :func:`compile_kernels`: the first job of a run on a cold cache."""
    compile_kernels(config)
    return run_chunk(config, chunk, hand_log)


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
    jobs: Sequence[tuple[RunConfig, Chunk]],
    workers: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    hand_log: bool = False,
    compile_first: bool = False,
) -> Iterator[ChunkResult]:
    """Run (config, chunk) jobs and yield their results in job order.

    At most ``2 * workers`` jobs are in flight, so a caller that stops early (a sequential
    test that has decided) wastes little work; closing the generator cancels the rest.
    With ``compile_first`` the first job runs alone, and its worker first compiles every
    kernel the run plays (:func:`compile_kernels`) and writes numba's cache, which the other
    workers then load instead of each compiling the same code.
    """
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
                    pending.append(runner_backend.submit(function, job[0], job[1], hand_log))
                if not pending:
                    return
                yield pending.popleft().result()
                in_flight = ahead
        finally:
            for future in pending:
                future.cancel()


# -- the output directory ----------------------------------------------------------------


class RunDirectory:
    """An output directory: ``run.json`` (the settings), ``chunks/*.json`` and ``hands/*.parquet``."""

    def __init__(self, path: Path, configs: Sequence[RunConfig], hand_log: bool, kind: str = "run") -> None:
        self.path = Path(path)
        self.hand_log = hand_log
        self.tally_type = configs[0].tally_type()
        settings = {"kind": kind, "runs": [config.to_dict() for config in configs], "hand_log": hand_log}
        settings_path = self.path / SETTINGS_FILE
        if settings_path.exists():
            recorded = json.loads(settings_path.read_text())
            if recorded != settings:
                raise RunError(
                    f"{self.path} holds a run with other settings ({_difference(recorded, settings)}); "
                    "use another --out directory or rerun with the recorded settings"
                )
        else:
            self.path.mkdir(parents=True, exist_ok=True)
            _write_atomic(settings_path, json.dumps(settings, indent=2, sort_keys=True))
        (self.path / "chunks").mkdir(exist_ok=True)
        if hand_log:
            (self.path / "hands").mkdir(exist_ok=True)

    def finished(self) -> dict[str, Tally]:
        """Tallies of the chunks already written, by chunk key."""
        done = {}
        for file in sorted((self.path / "chunks").glob("*.json")):
            data = json.loads(file.read_text())
            done[file.stem] = self.tally_type.from_dict(data["tally"])
        return done

    def save(self, result: ChunkResult) -> None:
        """Write a finished chunk atomically: the hand log first, then the tally that marks it done."""
        key = result.chunk.key
        if self.hand_log and result.hand_log is not None:
            target = self.path / "hands" / f"{key}.parquet"
            partial = target.with_name(target.name + ".partial")
            result.hand_log.to_parquet(partial, index=False)
            os.replace(partial, target)
        record = {"chunk": asdict(result.chunk), "seconds": result.seconds, "tally": result.tally.to_dict()}
        _write_atomic(self.path / "chunks" / f"{key}.json", json.dumps(record))


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
) -> list[RunResult]:
    """Play several runs (the cells of a sweep) as one job list, resuming from ``out``.

    Chunks are consumed in play order, finished ones read back from ``out``; after each,
    ``stop(cell, chunk, tallies)`` may end the runs early (a sequential test), and the
    chunks after it are not played.
    """
    if hand_log and out is None:
        raise ValueError("a hand log needs an output directory (--out DIR)")
    if hand_log and any(config.table != "pairs" for config in configs):
        raise ValueError("the hand log is written for two-player runs only")
    if hand_log:
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise RunError("the hand log writes Parquet and needs pyarrow: pip install 'simgin[parquet]'") from None
    workers = workers or os.cpu_count() or 1
    if workers < 1:
        raise ValueError(f"workers={workers}: must be at least 1")
    start = time.perf_counter()
    jobs = [(config, chunk) for cell, config in enumerate(configs) for chunk in plan_chunks(config, cell)]
    directory = RunDirectory(Path(out), configs, hand_log, kind) if out is not None else None
    finished = directory.finished() if directory else {}
    todo = [(config, chunk) for config, chunk in jobs if chunk.key not in finished]
    tallies = [[config.tally_type().zero() for _ in config.pairings] for config in configs]
    ran = resumed = 0
    # Workers on this machine share its numba cache; a remote cluster's cache is its own.
    first = todo[0][0] if todo else None
    compile_first = (
        first is not None
        and workers > 1
        and scheduler is None
        and not kernels_cached(first.mode, first.table, players=first.players)
    )
    results = execute(todo, workers, backend, scheduler, hand_log, compile_first=compile_first)
    try:
        for config, chunk in jobs:
            if chunk.key in finished:
                tally = finished[chunk.key]
                resumed += 1
            else:
                result = next(results)
                if directory:
                    directory.save(result)
                tally = result.tally
                ran += 1
                if progress:
                    progress(result, chunk.unit_count * (2 if config.duplicate else 1))
            cell_tallies = tallies[chunk.cell_index]
            cell_tallies[chunk.pairing_index] = cell_tallies[chunk.pairing_index] + tally
            if stop and stop(chunk.cell_index, chunk, tallies):
                break
    finally:
        results.close()
    seconds = time.perf_counter() - start
    return [RunResult(config, tallies[cell], seconds, ran, resumed) for cell, config in enumerate(configs)]


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

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
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simgin import engine
from simgin.kernels import engine as _k
from simgin.rng import derive
from simgin.rules import Rules
from simgin.tally import Tally, game_margin, net_points, tally_games, tally_hands, tally_pairs

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

    def __post_init__(self) -> None:
        if len(self.players) < 2:
            raise ValueError(f"need at least two players, got {len(self.players)}")
        if (self.hands is None) == (self.games is None):
            raise ValueError("give exactly one of hands or games")
        count = self.count
        if count < 1:
            raise ValueError(f"{self.mode}={count}: must be at least 1")
        if self.duplicate and count % 2:
            raise ValueError(f"{self.mode}={count}: must be even with duplicate deals (each deal is played twice)")
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
    def units(self) -> int:
        """Units per pairing: deals (or duplicate pairs of deals)."""
        return self.count // 2 if self.duplicate else self.count

    @property
    def units_per_chunk(self) -> int:
        if self.chunk_units is not None:
            return self.chunk_units
        per_chunk = HANDS_PER_CHUNK if self.mode == "hands" else GAMES_PER_CHUNK
        return per_chunk // 2 if self.duplicate else per_chunk

    @property
    def chunk_count(self) -> int:
        return math.ceil(self.units / self.units_per_chunk)

    @property
    def pairings(self) -> list[tuple[int, int]]:
        """Every pair of players once (round robin), in order."""
        return list(itertools.combinations(range(len(self.players)), 2))

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

    @property
    def key(self) -> str:
        return f"p{self.pairing_index:03d}-c{self.chunk_index:06d}"


def plan_chunks(config: RunConfig) -> list[Chunk]:
    """All chunks of a run, pairing by pairing."""
    chunks = []
    per_chunk = config.units_per_chunk
    for pairing_index in range(len(config.pairings)):
        for chunk_index in range(config.chunk_count):
            units = min(per_chunk, config.units - chunk_index * per_chunk)
            chunks.append(Chunk(pairing_index, chunk_index, chunk_seed(config.seed, chunk_index), units))
    return chunks


def unit_seeds(chunk: Chunk) -> np.ndarray:
    """Unit ``j`` of a chunk has seed ``derive(chunk.seed, j)``."""
    return np.array([derive(chunk.seed, j) for j in range(chunk.unit_count)], dtype=np.uint64)


@dataclass
class ChunkResult:
    """What a worker sends back: the chunk, its tally and, on request, its hand rows."""

    chunk: Chunk
    tally: Tally
    hand_log: pd.DataFrame | None = None
    seconds: float = 0.0


def run_chunk(config: RunConfig, chunk: Chunk, hand_log: bool = False) -> ChunkResult:
    """Play one chunk and reduce it to a tally (pure: the same chunk always gives the same result)."""
    start = time.perf_counter()
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
                net = net_points(rows, seat_a)
                winner = rows[:, _k.H_WINNER]
                leg_scores.append(np.where(winner == seat_a_value, 1.0, np.where(winner < 0, 0.5, 0.0)))
                leg_results.append(net)
            else:
                games, game_rows, counts = engine.play_game_rows(leg_players, config.rules, seeds)
                unit_of_row = np.repeat(np.arange(chunk.unit_count), counts)
                within = np.concatenate([np.arange(c) for c in counts])
                rows = game_rows[unit_of_row, within]
                seat_a = np.full(rows.shape[0], seat_a_value)
                game_seat_a = np.full(games.shape[0], seat_a_value)
                tally = tally + tally_games(games, game_seat_a)
                winner = games[:, _k.G_WINNER]
                leg_scores.append(np.where(winner == seat_a_value, 1.0, np.where(winner < 0, 0.5, 0.0)))
                leg_results.append(game_margin(games, game_seat_a))
        except engine.IllegalDecision as error:
            raise RunError(
                f"{error} (pairing {players[0]} vs {players[1]}, leg {seat_a_value + 1}, chunk {chunk.chunk_index} "
                f"with chunk seed {chunk.seed}); replay it with 'simgin replay'"
            ) from None
        tally = tally + tally_hands(rows, seat_a)
        if hand_log:
            frame = pd.DataFrame(rows, columns=list(_k.HAND_FIELDS))
            frame.insert(0, "seat_a", seat_a)
            frame.insert(0, "leg", seat_a_value)
            frame.insert(0, "unit", unit_of_row + chunk.chunk_index * config.units_per_chunk)
            frame.insert(0, "chunk", chunk.chunk_index)
            frame.insert(0, "pairing", chunk.pairing_index)
            logs.append(frame.astype("int64"))
    if config.duplicate:
        tally = tally + tally_pairs(leg_scores[0], leg_scores[1], leg_results[0], leg_results[1])
    log = pd.concat(logs, ignore_index=True) if hand_log else None
    return ChunkResult(chunk, tally, log, time.perf_counter() - start)


# -- executing chunks --------------------------------------------------------------------


def _worker_init() -> None:
    """Each worker process runs its kernels on one thread: the pool is the parallelism."""
    import numba

    numba.set_num_threads(1)


def _execute_local(config: RunConfig, chunks: Sequence[Chunk], workers: int, hand_log: bool) -> Iterator[ChunkResult]:
    if workers <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield run_chunk(config, chunk, hand_log)
        return
    context = get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_worker_init) as pool:
        pending: set[Future] = set()
        queue = list(chunks)
        try:
            while queue or pending:
                while queue and len(pending) < 2 * workers:
                    pending.add(pool.submit(run_chunk, config, queue.pop(0), hand_log))
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        except BaseException:
            for future in pending:
                future.cancel()
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def _execute_dask(
    config: RunConfig, chunks: Sequence[Chunk], workers: int, hand_log: bool, scheduler: str | None
) -> Iterator[ChunkResult]:
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise RunError("the dask backend needs the optional extra: pip install 'simgin[dask]'") from None
    cluster = None
    if scheduler:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError) as error:
            raise RunError(f"cannot reach the Dask scheduler {scheduler!r}: {error}") from None
    else:
        cluster = LocalCluster(n_workers=max(workers, 1), threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    try:
        futures = [client.submit(run_chunk, config, chunk, hand_log, pure=True, retries=3) for chunk in chunks]
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def execute(
    config: RunConfig,
    chunks: Sequence[Chunk],
    workers: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    hand_log: bool = False,
) -> Iterator[ChunkResult]:
    """Run chunks on the chosen backend, yielding results as they finish (in any order)."""
    if backend not in BACKENDS:
        raise ValueError(f"backend={backend!r}: choose from {', '.join(BACKENDS)}")
    if backend == "dask":
        return _execute_dask(config, chunks, workers, hand_log, scheduler)
    if scheduler:
        raise ValueError("--scheduler needs --backend dask")
    return _execute_local(config, chunks, workers, hand_log)


# -- the output directory ----------------------------------------------------------------


class RunDirectory:
    """An output directory: ``run.json`` (the settings), ``chunks/*.json`` and ``hands/*.parquet``."""

    def __init__(self, path: Path, config: RunConfig, hand_log: bool) -> None:
        self.path = Path(path)
        self.config = config
        self.hand_log = hand_log
        settings = config.to_dict() | {"hand_log": hand_log}
        settings_path = self.path / SETTINGS_FILE
        if settings_path.exists():
            recorded = json.loads(settings_path.read_text())
            if recorded != settings:
                changed = sorted(k for k in settings.keys() | recorded.keys() if settings.get(k) != recorded.get(k))
                raise RunError(
                    f"{self.path} holds a run with other settings ({', '.join(changed)} differ); "
                    "use another --out directory or rerun with the recorded settings"
                )
        else:
            (self.path / "chunks").mkdir(parents=True, exist_ok=True)
            _write_atomic(settings_path, json.dumps(settings, indent=2, sort_keys=True))
        (self.path / "chunks").mkdir(exist_ok=True)
        if hand_log:
            (self.path / "hands").mkdir(exist_ok=True)

    def finished(self) -> dict[str, Tally]:
        """Tallies of the chunks already written, by chunk key."""
        done = {}
        for file in sorted((self.path / "chunks").glob("*.json")):
            data = json.loads(file.read_text())
            done[file.stem] = Tally.from_dict(data["tally"])
        return done

    def save(self, result: ChunkResult) -> None:
        """Write a finished chunk atomically: the hand log first, then the tally that marks it done."""
        key = result.chunk.key
        if self.hand_log and result.hand_log is not None:
            target = self.path / "hands" / f"{key}.parquet"
            partial = target.with_suffix(".parquet.partial")
            result.hand_log.to_parquet(partial, index=False)
            os.replace(partial, target)
        record = {"chunk": asdict(result.chunk), "seconds": result.seconds, "tally": result.tally.to_dict()}
        _write_atomic(self.path / "chunks" / f"{key}.json", json.dumps(record))


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
        from simgin.summary import summarize

        return summarize(self.config, self.tallies)

    def pairing_tally(self, a: str, b: str) -> Tally:
        """The tally of the pairing of players ``a`` and ``b`` (seen from ``a``)."""
        for index, (i, j) in enumerate(self.config.pairings):
            if (self.config.players[i], self.config.players[j]) == (a, b):
                return self.tallies[index]
        raise KeyError(f"no pairing {a} vs {b}")


ProgressCallback = Callable[[ChunkResult, int], None]


def run(
    config: RunConfig,
    workers: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    out: str | Path | None = None,
    hand_log: bool = False,
    progress: ProgressCallback | None = None,
) -> RunResult:
    """Play a run, resuming from ``out`` if it holds finished chunks of the same settings."""
    if hand_log and out is None:
        raise ValueError("a hand log needs an output directory (--out DIR)")
    if hand_log:
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise RunError("the hand log writes Parquet and needs pyarrow: pip install 'simgin[parquet]'") from None
    workers = workers or os.cpu_count() or 1
    start = time.perf_counter()
    chunks = plan_chunks(config)
    directory = RunDirectory(Path(out), config, hand_log) if out is not None else None
    finished = directory.finished() if directory else {}
    todo = [chunk for chunk in chunks if chunk.key not in finished]
    tallies = [Tally.zero() for _ in config.pairings]
    for chunk in chunks:
        if chunk.key in finished:
            tallies[chunk.pairing_index] = tallies[chunk.pairing_index] + finished[chunk.key]
    for result in execute(config, todo, workers, backend, scheduler, hand_log):
        if directory:
            directory.save(result)
        tallies[result.chunk.pairing_index] = tallies[result.chunk.pairing_index] + result.tally
        if progress:
            progress(result, result.chunk.unit_count * (2 if config.duplicate else 1))
    return RunResult(config, tallies, time.perf_counter() - start, len(todo), len(chunks) - len(todo))


def run_match(
    a: str,
    b: str,
    *,
    rules: Rules | None = None,
    hands: int | None = None,
    games: int | None = None,
    seed: int = 0,
    duplicate: bool = True,
    **options: Any,
) -> RunResult:
    """Play ``a`` against ``b``; ``options`` go to :func:`run` (workers, backend, scheduler, out, hand_log)."""
    config = RunConfig((a, b), rules or Rules(), hands, games, seed, duplicate)
    return run(config, **options)


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
    """Round robin: every pair of ``players`` plays ``hands`` or ``games`` on the same seeds."""
    if len(set(players)) != len(players):
        raise ValueError(f"players must differ, got {list(players)}")
    config = RunConfig(tuple(players), rules or Rules(), hands, games, seed, duplicate)
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

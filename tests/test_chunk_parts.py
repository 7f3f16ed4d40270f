"""Chunks of slow pairings played in parts (issue 32 item 20).

A run with a program or a plain-Python strategy and ``--workers 2`` played its one chunk of 20,000 hands on
one worker, slower than a single worker. Such a chunk is now cut into parts, one job each, and the parts add
up to exactly the chunk played whole: the same seeds and dealers, the same tally, forfeits, hand log and unit
records. The strategy here is a plain-Python one that makes illegal moves (so forfeits are cut too).
"""

from __future__ import annotations

import functools
from pathlib import Path

import pandas as pd
import pytest

from simgin.running import backends, runner

BOT = '''
from simgin.strategies.simple import SimpleStrategy


class Rediscard(SimpleStrategy):
    """simple, but a king just taken from the pile goes straight back on it (illegal, R10)."""

    name = "rediscard"

    def discard(self, view, rng):
        if view.drawn_from_pile and view.drawn_card % 13 == 12:
            return view.drawn_card
        return super().discard(view, rng)
'''


@pytest.fixture
def bot(tmp_path: Path) -> str:
    path = tmp_path / "rediscard.py"
    path.write_text(BOT)
    return f"{path}:Rediscard"


@pytest.mark.parametrize("mode", ["hands", "games"])
def test_the_parts_of_a_chunk_add_up_to_the_chunk(bot, mode, monkeypatch):
    count = {"hands": {"hands": 120}, "games": {"games": 16}}[mode]
    config = runner.RunConfig((bot, "simple"), seed=7, on_illegal="forfeit", **count)
    chunk = runner.plan_chunks(config)[0]
    monkeypatch.setitem(runner.SLOW_PART_UNITS, mode, 7)  # parts of 7 units: uneven, the last one short
    parts = runner.chunk_parts(config, chunk, workers=2)
    assert len(parts) == -(-chunk.unit_count // 7) and parts[0] == (0, 7) and parts[-1][1] == chunk.unit_count
    whole = runner.run_chunk(config, chunk, hand_log=True, unit_records=True)
    pieces = [runner.run_chunk(config, chunk, hand_log=True, unit_records=True, part=part) for part in parts]
    merged = runner.merge_parts(pieces)
    assert whole.tally["forfeits_a"] > 0, "the bot forfeits some hands, so forfeits are cut into parts too"
    assert merged.tally.to_dict() == whole.tally.to_dict()
    assert merged.tally.forfeits == whole.tally.forfeits
    pd.testing.assert_frame_equal(merged.hand_log, whole.hand_log)
    assert (merged.units == whole.units).all() and merged.units.shape == whole.units.shape


def test_a_compiled_pairing_or_one_worker_plays_chunks_whole(bot):
    slow = runner.RunConfig((bot, "simple"), hands=2000)
    fast = runner.RunConfig(("heuristic", "simple"), hands=2000)
    assert runner.chunk_parts(fast, runner.plan_chunks(fast)[0], workers=2) == [None]
    assert runner.chunk_parts(slow, runner.plan_chunks(slow)[0], workers=1) == [None]
    assert len(runner.chunk_parts(slow, runner.plan_chunks(slow)[0], workers=2)) == 4
    with pytest.raises(ValueError, match="part=\\(5, 5\\)"):
        runner.run_chunk(slow, runner.plan_chunks(slow)[0], part=(5, 5))


def test_a_searching_bot_is_played_in_parts_like_a_program(monkeypatch):
    """``mcts`` searches at every decision (a few hands a second): its chunks are cut into parts for the workers
    too (a 1,000-hand run at --workers 2 played on one core before), and the parts add up to the chunk."""
    config = runner.RunConfig(("mcts:budget=20", "simple"), hands=40, seed=4)
    chunk = runner.plan_chunks(config)[0]
    monkeypatch.setitem(runner.SLOW_PART_UNITS, "hands", 8)
    assert runner.chunk_parts(config, chunk, workers=1) == [None]
    parts = runner.chunk_parts(config, chunk, workers=2)
    assert parts == [(0, 8), (8, 16), (16, 20)]
    whole = runner.run_chunk(config, chunk, unit_records=True)
    merged = runner.merge_parts([runner.run_chunk(config, chunk, unit_records=True, part=part) for part in parts])
    assert merged.tally.to_dict() == whole.tally.to_dict()
    assert (merged.units == whole.units).all()


def test_one_chunk_of_a_slow_pairing_gives_every_worker_work(bot, monkeypatch):
    """The jobs a run with one chunk submits at --workers 2: several parts (before: one job, one busy worker);
    the result is that of one worker."""
    config = runner.RunConfig((bot, "simple"), hands=200, seed=3, on_illegal="forfeit")
    assert config.chunk_count == 1
    monkeypatch.setitem(runner.SLOW_PART_UNITS, "hands", 30)
    submitted: list[tuple[int, int] | None] = []

    class Recording(backends._InlineBackend):
        def submit(self, function, *args):
            keywords = function.keywords if isinstance(function, functools.partial) else {}
            submitted.append(keywords.get("part"))
            return super().submit(function, *args)

    monkeypatch.setattr(runner, "backend_for", lambda workers, backend="local", scheduler=None: Recording())
    two = runner.run(config, workers=2)
    assert submitted == [(0, 30), (30, 60), (60, 90), (90, 100)]
    monkeypatch.undo()
    one = runner.run(config, workers=1)
    assert two.tallies[0].to_dict() == one.tallies[0].to_dict()
    assert two.tallies[0].forfeits == one.tallies[0].forfeits
    assert two.chunks_run == one.chunks_run == 1


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_parts_on_a_real_pool_give_the_same_run_and_hand_log(bot, tmp_path, monkeypatch):
    config = runner.RunConfig((bot, "simple"), hands=160, seed=5, chunk_units=40, on_illegal="forfeit")
    monkeypatch.setitem(runner.SLOW_PART_UNITS, "hands", 15)
    two = runner.run(config, workers=2, out=tmp_path / "two", hand_log=True)
    one = runner.run(config, workers=1, out=tmp_path / "one", hand_log=True)
    assert two.tallies[0].to_dict() == one.tallies[0].to_dict()
    names = sorted(path.name for path in (tmp_path / "one" / "hands").iterdir())
    assert len(names) == config.chunk_count
    for name in names:
        pd.testing.assert_frame_equal(
            pd.read_parquet(tmp_path / "two" / "hands" / name), pd.read_parquet(tmp_path / "one" / "hands" / name)
        )


def test_the_default_workers_are_every_core_unless_the_run_is_a_single_job(bot, monkeypatch):
    """``--workers``' default: a run that is one job (one chunk played whole) plays in this process, since a
    pool would only add its workers' start; two chunks, two cells, or a program player's chunk cut into parts
    for the workers take every core."""
    monkeypatch.setattr(runner.os, "cpu_count", lambda: 2)

    def config(hands: int, players: tuple[str, str] = ("simple", "random")) -> runner.RunConfig:
        return runner.RunConfig(players, hands=hands, seed=3, chunk_units=150)

    assert runner.default_local_workers([config(300)]) == 1  # 150 pairs: one chunk
    assert runner.default_local_workers([config(302)]) == 2  # 151 pairs: two chunks
    assert runner.default_local_workers([config(300), config(300)]) == 2  # two cells
    monkeypatch.setitem(runner.SLOW_PART_UNITS, "hands", 100)
    assert runner.default_local_workers([config(300, (bot, "simple"))]) == 2  # one chunk in two parts
    assert runner.default_local_workers([config(200, (bot, "simple"))]) == 1  # 100 pairs: one part
    started = []
    real = runner.backend_for
    monkeypatch.setattr(runner, "backend_for", lambda workers, *rest: started.append(workers) or real(1, *rest))
    one, two = runner.run(config(300)), runner.run(config(300), workers=2)
    assert started == [1, 2]
    assert [t.to_dict() for t in one.tallies] == [t.to_dict() for t in two.tallies]

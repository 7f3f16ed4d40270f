"""The tournament runner: seeds, chunks, workers, backends, resume and the match JSON (issue 4)."""

from __future__ import annotations

import json
import math
import os
import signal

import numpy as np
import pandas as pd
import pytest

from simgin import Rules
from simgin.game.rng import derive
from simgin.kernels import engine as k
from simgin.running import runner
from simgin.running.engine import play_hand_rows
from simgin.running.runner import match_json
from simgin.running.tally import TALLY_FIELDS, tally_hands

SMALL = {"chunk_units": 150}


def small_config(**changes) -> runner.RunConfig:
    settings = {"players": ("simple", "random"), "hands": 1200, "seed": 11} | SMALL | changes
    return runner.RunConfig(**settings)


def test_chunk_seeds_come_from_seed_sequence_spawn():
    """Chunk i's seed is child i of SeedSequence(seed).spawn, whatever the number of chunks."""
    children = np.random.SeedSequence(5).spawn(3)
    expected = [int(child.generate_state(1, dtype=np.uint64)[0]) for child in children]
    assert [runner.chunk_seed(5, i) for i in range(3)] == expected
    assert runner.chunk_seed(5, 0) != runner.chunk_seed(6, 0)


def test_plan_covers_every_unit_once():
    config = small_config(hands=1000, chunk_units=150)  # 500 duplicate pairs
    chunks = runner.plan_chunks(config)
    assert [c.unit_count for c in chunks] == [150, 150, 150, 50]
    assert len({c.seed for c in chunks}) == 4


def test_tally_counts_agree_with_rows():
    """A tally's outcome counts are those of the hand rows it was made from."""
    seeds = np.array([derive(3, i) for i in range(500)], dtype=np.uint64)
    rows = play_hand_rows(("simple", "random"), Rules(), seeds, np.arange(500) % 2)
    t = tally_hands(rows, np.zeros(500, dtype=np.int64))
    kinds = rows[:, k.H_KIND]
    assert t["hands"] == 500
    assert t["gin"] == np.sum(kinds == 2)
    assert t["dead"] == np.sum(kinds == 0)
    assert t["knock"] + t["gin"] + t["big_gin"] + t["undercut"] + t["dead"] == 500
    assert t["hands_won_a"] == np.sum((kinds != 0) & (rows[:, k.H_WINNER] == 0))
    assert t["draws"] == rows[:, k.H_DRAWS].sum()


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_same_results_on_one_and_two_workers():
    """Reproducible: 1 worker and 2 worker processes give the same tallies to the last digit."""
    config = small_config()
    one = runner.run(config, workers=1)
    two = runner.run(config, workers=2)
    assert one.tallies[0].to_dict() == two.tallies[0].to_dict()
    pd.testing.assert_frame_equal(one.summary, two.summary)


def test_duplicate_legs_swap_seats_on_the_same_deals():
    """Leg 2 of a pair is the same deal with the seats swapped: a bot against itself splits every pair."""
    result = runner.run(small_config(players=("simple", "simple")), workers=1)
    t = result.tallies[0]
    assert t["pairs"] == 600
    assert t["pair_score_2"] == 600
    assert t["hands_won_a"] == t["hands_won_b"]


def test_games_mode_win_rate_is_share_of_games():
    config = small_config(hands=None, games=40, chunk_units=7)
    result = runner.run(config, workers=1)
    data = match_json(result)
    t = result.tallies[0]
    assert data["games"] == 40
    assert data["win_rate"][0] == t["games_won_a"] / 40
    assert data["hands"] == t["hands"] > 40


def test_match_json_contract():
    """The fixed keys of 'simgin match --json' (issue 4), rates summing to 1, timings kept apart."""
    data = match_json(runner.run(small_config(), workers=1))
    for key in ("hands", "games", "players", "win_rate", "points_per_hand", "win_rate_ci", "mean_draws"):
        assert key in data
    assert data["players"] == ["simple", "random"]
    assert data["hands"] == 1200
    rates = [data[f"{kind}_rate"] for kind in ("knock", "gin", "big_gin", "undercut", "dead")]
    assert math.isclose(sum(rates), 1.0)
    assert len(data["win_rate_ci"]) == 2
    for (low, high), rate in zip(data["win_rate_ci"], data["win_rate"], strict=True):
        assert 0 <= low <= rate <= high <= 1
    assert data["win_rate"][0] > 0.9
    assert "seconds" in data["timing"]
    assert "seconds" not in data
    json.dumps(data, allow_nan=False)


def test_resume_after_interruption_gives_the_same_result(tmp_path):
    """Ctrl-C after some chunks leaves a consistent directory; the rerun finishes only the rest."""
    config = small_config()
    full = runner.run(config, workers=1)
    seen = []

    def interrupt(result, units):
        seen.append(result.chunk.key)
        if len(seen) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        runner.run(config, workers=1, out=tmp_path, progress=interrupt)
    assert len(list((tmp_path / "chunks").glob("*.json"))) == 3
    assert not list(tmp_path.rglob("*.partial"))
    resumed = runner.run(config, workers=1, out=tmp_path)
    assert resumed.chunks_resumed == 3
    assert resumed.chunks_run == config.chunk_count - 3
    assert resumed.tallies[0].to_dict() == full.tallies[0].to_dict()


def test_other_settings_in_the_same_directory_are_refused(tmp_path):
    runner.run(small_config(), workers=1, out=tmp_path)
    with pytest.raises(runner.RunError, match="seed"):
        runner.run(small_config(seed=12), workers=1, out=tmp_path)


def test_hand_log_parquet_schema(tmp_path):
    config = small_config(hands=600)
    runner.run(config, workers=1, out=tmp_path, hand_log=True)
    files = sorted((tmp_path / "hands").glob("*.parquet"))
    assert len(files) == config.chunk_count
    log = pd.concat(pd.read_parquet(f) for f in files)
    assert list(log.columns) == list(runner.HAND_LOG_SCHEMA)
    assert len(log) == 600
    assert set(log["leg"]) == {0, 1}
    assert (log.groupby("unit").size() == 2).all()


def test_tournament_pairs_everyone_on_the_same_deals():
    result = runner.run(runner.RunConfig(("simple", "random", "simple"), hands=300, seed=2, **SMALL), workers=1)
    assert result.config.pairings == [(0, 1), (0, 2), (1, 2)]
    summary = result.summary
    assert len(summary) == 6
    first = summary[(summary.pairing == 0) & (summary.player == "simple")].iloc[0]
    last = summary[(summary.pairing == 2) & (summary.player == "simple")].iloc[0]
    assert first.win_rate == pytest.approx(last.win_rate)


def test_locate_hand_matches_the_run():
    """'simgin replay --seed S --hand K' finds the deal hand K was played on."""
    config = small_config(hands=400)
    seed, dealer, players = runner.locate_hand(config, 301)
    unit = 150
    assert players == ("random", "simple")
    assert seed == derive(runner.chunk_seed(11, 1), unit - 150)
    assert dealer == (unit - 150) % 2
    with pytest.raises(ValueError, match="hands 0-399"):
        runner.locate_hand(config, 400)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"hands": 0}, "hands=0: must be between 1 and 1,000,000,000,000 per pairing"),
        ({"hands": 7}, "even"),
        ({"games": 4}, "exactly one"),
        ({"players": ("simple",)}, "two players"),
    ],
)
def test_bad_settings(changes, message):
    with pytest.raises(ValueError, match=message):
        small_config(**changes)


def test_tally_fields_are_documented():
    assert all(TALLY_FIELDS.values())


@pytest.mark.slow  # a fault run on a Dask cluster (README); the test below covers Dask by default
def test_dask_local_cluster_gives_the_same_result_even_when_a_worker_dies():
    """A real LocalCluster on loopback; one worker is killed mid-run and the result does not change."""
    from dask.distributed import Client, LocalCluster

    config = small_config(hands=2400)
    expected = runner.run(config, workers=1)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            pids = list(client.run(os.getpid).values())
        killed = []

        def kill_one(result, units):
            if not killed:
                os.kill(pids[0], signal.SIGKILL)
                killed.append(pids[0])

        result = runner.run(config, backend="dask", scheduler=cluster.scheduler_address, progress=kill_one)
    assert killed
    assert result.tallies[0].to_dict() == expected.tallies[0].to_dict()


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_dask_backend_without_a_scheduler_starts_a_local_cluster():
    """--backend dask alone starts a LocalCluster on this machine; the results are those of the process pool."""
    config = small_config(hands=600)
    expected = runner.run(config, workers=1)
    result = runner.run(config, workers=2, backend="dask")
    assert result.tallies[0].to_dict() == expected.tallies[0].to_dict()


CRASHING_BOT = '''
HANDS = []


class Crasher:
    """Plays its first card and knocks when it can, and fails at its 26th hand."""

    name = "crasher"

    def start_hand(self, view, rng):
        HANDS.append(view.seat)

    def take_up_card(self, view, rng):
        return False

    def draw_from_pile(self, view, rng):
        return False

    def discard(self, view, rng):
        if len(HANDS) == 26:
            raise RuntimeError("boom")
        return view.hand[0] if view.hand[0] != view.drawn_card or not view.drawn_from_pile else view.hand[1]

    def knock(self, view, rng):
        return True

    def big_gin(self, view, rng):
        return True

    def take_fiftieth(self, view, rng):
        return True
'''


def test_a_failing_strategy_stops_the_run_naming_it_and_keeps_finished_chunks(tmp_path):
    """Issue 4: the error names the strategy, the chunk seed and the hand; earlier chunks stay on disk."""
    bot = tmp_path / "crasher.py"
    bot.write_text(CRASHING_BOT)
    spec = f"{bot}:Crasher"
    config = runner.RunConfig((spec, "simple"), hands=60, seed=3, chunk_units=5)
    with pytest.raises(runner.RunError) as caught:
        runner.run(config, workers=1, out=tmp_path / "out")
    message = str(caught.value)
    assert spec in message
    assert "RuntimeError: boom" in message
    assert f"chunk seed {runner.chunk_seed(3, 2)}" in message
    assert "hand seed" in message
    assert len(list((tmp_path / "out" / "chunks").glob("*.json"))) == 2


class _RecordingBackend:
    """A stand-in pool that logs when jobs are submitted and when their results are asked for."""

    def __init__(self, log: list[str]) -> None:
        self.log = log

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def submit(self, function, config, chunk=None, hand_log=False):
        name = "bots" if chunk is None else chunk.chunk_index  # the searching bots' compile takes the config alone
        self.log.append(f"submit {name}")
        log = self.log

        class _Result:
            def result(self):
                log.append(f"result {name}")
                return name

            def cancel(self):
                return True

        return _Result()


@pytest.mark.parametrize("players", [("simple", "opponent"), ("simple", "greedy")])
@pytest.mark.parametrize("compile_first", [False, True])
def test_compile_first_runs_the_first_chunk_alone(monkeypatch, compile_first, players):
    """On a cold cache the first chunk compiles alone, so that the other workers load numba's cache (issue 4), while a
    second worker compiles the searching bots' ``decide`` (when there is one), which the first then loads."""
    config = runner.RunConfig(players, hands=400, seed=1, chunk_units=50, duplicate=False)
    jobs = [(config, chunk) for chunk in runner.plan_chunks(config)]
    log: list[str] = []
    monkeypatch.setattr(runner, "backend_for", lambda *args: _RecordingBackend(log))
    results = list(runner.execute(jobs, workers=2, compile_first=compile_first))
    assert results == list(range(len(jobs)))  # in order either way
    if compile_first:
        searching = players[1] == "opponent"
        expected = ["submit 0", "submit bots", "result 0", "result bots"] if searching else ["submit 0", "result 0"]
        assert log[: len(expected) + 1] == [*expected, "submit 1"]
        assert log.count("submit bots") == searching
    else:
        assert log[:4] == ["submit 0", "submit 1", "submit 2", "submit 3"]


@pytest.mark.parametrize(
    ("cached", "workers", "scheduler", "expected"),
    [(False, 2, None, True), (True, 2, None, False), (False, 1, None, False), (False, 2, "tcp://host:1", False)],
)
def test_runs_compile_first_only_on_a_cold_cache_shared_by_local_workers(
    monkeypatch, cached, workers, scheduler, expected
):
    seen = {}

    def fake_execute(todo, workers, backend, scheduler, hand_log, compile_first, **options):
        seen["compile_first"] = compile_first
        yield from ()

    monkeypatch.setattr(runner, "kernels_cached", lambda mode, table, players=(): cached)
    monkeypatch.setattr(runner, "execute", fake_execute)
    config = runner.RunConfig(("simple", "simple"), hands=100, seed=1)
    with pytest.raises(StopIteration):  # the fake plays nothing
        runner.run(config, workers=workers, scheduler=scheduler, backend="dask" if scheduler else "local")
    assert seen["compile_first"] is expected


def test_game_hands_flattens_each_games_deals_in_play_order():
    """Row j of game i's buffer is hand j of that game; only the first counts[i] rows are hands."""
    from simgin.running.engine import game_hands

    rng = np.random.default_rng(3)
    counts = rng.integers(1, 6, size=20)
    buffer = rng.integers(0, 1000, size=(20, 6, 3))
    hands, game = game_hands(buffer, counts)
    expected = [(i, buffer[i, j]) for i in range(20) for j in range(counts[i])]
    assert game.tolist() == [i for i, _ in expected]
    assert hands.tolist() == [row.tolist() for _, row in expected]
    empty, no_games = game_hands(buffer[:0], np.zeros(0, dtype=np.int64))
    assert empty.shape == (0, 3) and no_games.size == 0


def test_a_dask_run_quiets_the_clients_loggers_and_restores_them(monkeypatch):
    """Issue 25 D7: a scheduler lost mid-run is the run's one `Error:` line. The client's own loggers, its ERROR
    and its batched link's INFO traceback when the link closes mid-send, are quiet during the run and as they were
    after it."""
    import logging

    import dask.distributed

    from simgin.running import backends

    class FakeClient:
        def __init__(self, *args, **kwargs):
            pass

        def close(self):
            pass

    monkeypatch.setattr(dask.distributed, "Client", FakeClient)
    monkeypatch.setattr(dask.distributed, "LocalCluster", lambda **kwargs: FakeClient())
    assert "distributed.batched" in backends.CLIENT_LOGGERS and "distributed.client" in backends.CLIENT_LOGGERS
    loggers = [logging.getLogger(name) for name in backends.CLIENT_LOGGERS]
    before = [log.level for log in loggers]
    loggers[1].setLevel(logging.INFO)
    try:
        with backends._DaskBackend(1, None):
            assert all(log.level == logging.CRITICAL for log in loggers)
        assert loggers[1].level == logging.INFO and loggers[0].level == before[0]
    finally:  # the next test in this worker sees the levels it would have seen without this one
        for log, level in zip(loggers, before, strict=True):
            log.setLevel(level)

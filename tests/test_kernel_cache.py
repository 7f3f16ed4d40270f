"""Numba's on-disk cache: invalidated by an edit of any kernel file; a pairing compiles only what it plays.

The searching bots (heuristic, opponent, mcts) reach the hand loop as first-class functions
(``kernels.bots``), so ``simple`` vs ``simple`` on an empty cache compiles none of their code,
and a second fresh process loads everything from the cache (issue 15).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import pytest
from click.testing import CliRunner

import simgin.kernels as kernels
from simgin import Rules
from simgin.cli.main import main
from simgin.kernels import bots, engine as k, heuristic, mcts, opponent
from simgin.running.engine import play_hand_rows


def test_cached_kernels_are_stamped_with_all_kernel_sources():
    # play_hand compiles the bots it plays (bots.py, heuristic.py, mcts.py ...) into itself.
    for dispatcher in (k.play_hand, k.play_hands_batch, k.play_games_batch, *bots.POLICIES):
        locator = dispatcher._cache._impl.locator
        assert isinstance(locator, kernels.KernelSourcesStamp)
        assert locator.get_source_stamp() == kernels.sources_stamp()


def test_the_stamp_changes_when_any_kernel_file_changes(tmp_path, monkeypatch):
    (tmp_path / "engine.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "bots.py").write_text("y = 1\n", encoding="utf-8")
    monkeypatch.setattr(kernels, "KERNELS_DIR", tmp_path)
    before = kernels.sources_stamp()
    assert kernels.sources_stamp() == before
    (tmp_path / "bots.py").write_text("y = 22\n", encoding="utf-8")
    assert kernels.sources_stamp() != before


# Run in a fresh process: play a pairing (hands, games and the Python adapter's decisions) and
# print the kernel functions this process compiled, as numba's compile events report them.
PLAY_AND_LIST_COMPILED = """
import json, sys
import numpy as np
from numba.core import event

compiled = set()


class Listener(event.Listener):
    def on_start(self, ev):
        pass

    def on_end(self, ev):
        function = ev.data["dispatcher"].py_func
        compiled.add(function.__module__ + "." + function.__qualname__)


event.register("numba:compile", Listener())
from simgin import Rules
from simgin.running.engine import play_hand_rows
from simgin.kernels import bots, engine, is_cached
from simgin.game.reference_engine import play_hand
from simgin.strategies.compiled import CompiledStrategy

players = tuple(sys.argv[1].split(","))
cached_before = is_cached(engine.play_hands_batch)
play_hand_rows(players, Rules(), np.array([1, 2], dtype=np.uint64), np.array([0, 1]))
play_hand(tuple(CompiledStrategy(name, bots.BOT_NAMES.index(name)) for name in players), Rules(), 5, 0)
print(json.dumps({
    "compiled": sorted(name for name in compiled if name.startswith("simgin.")),
    "cached_before": cached_before,
    "cached_after": is_cached(engine.play_hands_batch),
    "searching_cached": [is_cached(decide) for decide in set(bots.POLICIES[bots.LAST_BUILT_IN + 1 :])],
}))
"""


def _play_in_fresh_process(players: str, cache: str | None = None) -> dict:
    """Run PLAY_AND_LIST_COMPILED in a fresh process, on numba cache folder ``cache`` (None: this process's)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": cache} if cache else dict(os.environ)
    command = [sys.executable, "-c", PLAY_AND_LIST_COMPILED, players]
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True, timeout=600)
    return json.loads(out.stdout.splitlines()[-1])


@pytest.mark.slow
def test_a_pairing_compiles_only_the_bots_it_plays_and_a_fresh_process_loads_them_from_the_cache(tmp_path):
    """On an empty cache (a fresh process compiles the whole hand loop, 10-25 s of CPU: hence
    ``slow``; the default run checks the second half against the suite's own cache below)."""
    cache = str(tmp_path / "numba-cache")
    first = _play_in_fresh_process("simple,simple", cache)
    compiled = first["compiled"]
    # It compiled what it plays: the hand loop with the built-in bots, and their decide for the adapter ...
    for name in ("engine.play_hands_batch", "engine.play_hand", "bots.built_in_decide", "melds.discard_deadwoods"):
        assert f"simgin.kernels.{name}" in compiled, compiled
    # ... and nothing of the searching bots: no heuristic, opponent or mcts code, not their decide.
    searching = {module.__name__ for module in (heuristic, opponent, mcts)}
    assert not [name for name in compiled if name.rsplit(".", 1)[0] in searching], compiled
    assert not [name for name in compiled if "_estimating_decide" in name], compiled
    assert (first["cached_before"], first["cached_after"], first["searching_cached"]) == (False, True, [False, False])
    # A second fresh process finds every kernel it plays in numba's cache and compiles nothing.
    second = _play_in_fresh_process("simple,simple", cache)
    assert second["compiled"] == [] and second["cached_before"]


def test_a_fresh_process_loads_what_this_one_compiled_from_the_cache():
    """Once this process has played simple vs simple (compiling or loading its kernels, and
    saving them to numba's cache), a fresh process on the same cache compiles nothing."""
    play_hand_rows(("simple", "simple"), Rules(), np.array([1, 2], dtype=np.uint64), np.array([0, 1]))
    from simgin.strategies.compiled import CompiledStrategy

    from simgin.game.reference_engine import play_hand

    play_hand(tuple(CompiledStrategy("simple", bots.BOT_NAMES.index("simple")) for _ in range(2)), Rules(), 5, 0)
    fresh = _play_in_fresh_process("simple,simple")
    assert fresh["compiled"] == [] and fresh["cached_before"], fresh


def test_the_batch_kernels_are_serial_loops_without_parfor():
    """The two-player batches are ``nogil`` loops split over threads by ``run_rows``, not numba
    ``prange`` loops, whose parfor lowering cost 2-6 s on every first run (issue 25)."""
    for dispatcher in (k.play_hands_batch, k.play_games_batch):
        assert not dispatcher.targetoptions.get("parallel"), dispatcher
        assert dispatcher.targetoptions.get("nogil"), dispatcher


def test_rows_do_not_depend_on_how_a_batch_is_split_over_threads(monkeypatch):
    """The same seeds give the same rows on one thread and split over many (any number of workers)."""
    from simgin.running.engine import hand_seeds, play_game_rows

    seeds = hand_seeds(3, 300)
    dealers = np.arange(300) % 2
    whole = play_hand_rows(("simple", "greedy"), Rules(), seeds, dealers)
    games_whole = play_game_rows(("greedy", "simple"), Rules(), seeds[:80])
    monkeypatch.setattr(kernels, "ROWS_PER_THREAD", 1)
    monkeypatch.setattr(kernels.numba, "get_num_threads", lambda: 7)
    assert (play_hand_rows(("simple", "greedy"), Rules(), seeds, dealers) == whole).all()
    for split, one in zip(play_game_rows(("greedy", "simple"), Rules(), seeds[:80]), games_whole, strict=True):
        assert (split == one).all()


# Run in a fresh process on an empty cache: play a pairing and count how often each kernel
# function of the searching bots compiled.
COUNT_COMPILES = """
import collections, json, sys
import numpy as np
from numba.core import event

counts = collections.Counter()


class Listener(event.Listener):
    def on_start(self, ev):
        pass

    def on_end(self, ev):
        function = ev.data["dispatcher"].py_func
        counts[function.__module__ + "." + function.__qualname__] += 1


event.register("numba:compile", Listener())
from simgin import Rules
from simgin.running.engine import play_hand_rows

play_hand_rows(tuple(sys.argv[1].split(",")), Rules(), np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int64))
print(json.dumps(counts))
"""


@pytest.mark.slow
@pytest.mark.parametrize("players", ["heuristic,opponent", "mcts,simple"])
def test_the_searching_bots_compile_each_function_once(tmp_path, players):
    """A constant argument (``-1``, ``True``, a phase) makes numba compile a function once more
    for it: the searching bots pass typed values, so each of their functions compiles once
    (issue 25: ``play_out`` compiled 3 times, ``best_discard`` 3, ``estimate`` and
    ``showdown_value`` twice each)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    command = [sys.executable, "-c", COUNT_COMPILES, players]
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True, timeout=900)
    counts = json.loads(out.stdout.splitlines()[-1])
    searching = tuple(f"simgin.kernels.{name}." for name in ("heuristic", "opponent", "mcts", "knock", "payoff"))
    again = {name: count for name, count in counts.items() if name.startswith(searching) and count > 1}
    assert not again, again


def test_is_cached_reads_numba_index_for_the_current_sources():
    """After a kernel has run it is in the cache; a fresh cache folder holds nothing (issue 4's notice)."""
    play_hand_rows(("simple", "simple"), Rules(), np.array([1], dtype=np.uint64), np.array([0]))
    assert kernels.is_cached(k.play_hands_batch)
    code = "import simgin.kernels as s; from simgin.kernels import engine; print(s.is_cached(engine.play_hands_batch))"
    with tempfile.TemporaryDirectory() as empty:
        env = {**os.environ, "NUMBA_CACHE_DIR": empty}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_cli_announces_compilation_only_when_the_kernel_is_not_cached(monkeypatch):
    args = ["match", "simple", "random", "--hands", "20", "--workers", "1", "--quiet"]
    for cached, announced in ((False, True), (True, False)):
        monkeypatch.setattr(kernels, "is_cached", lambda dispatcher, cached=cached: cached)
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        assert ("compiling kernels, first run only" in result.stderr) is announced


def test_is_cached_on_unreadable_index_and_unknown_numba_internals():
    """A corrupt index means numba compiles anew (False); numba objects without these attributes: no claim (True)."""
    from types import SimpleNamespace

    def corrupt():
        raise EOFError("truncated index")

    broken = SimpleNamespace(_cache=SimpleNamespace(_cache_file=SimpleNamespace(_load_index=corrupt)))
    assert kernels.is_cached(broken) is False
    assert kernels.is_cached(SimpleNamespace()) is True


def test_a_second_worker_compiles_each_searching_bots_decide_once():
    """``compile_searching_bots``: the ``decide`` of every searching bot a run plays, each once (heuristic and
    opponent share one), none for the built-in bots or a spec that does not resolve (the run reports it)."""
    from simgin.running import kernel_cache

    players = ("simple", "opponent", "heuristic:knock=5", "mcts", "heuristic", "random", "no-such-bot")
    decides = kernel_cache.searching_decides(players)
    assert decides == [bots.POLICIES[bots.BOT_OPPONENT], bots.POLICIES[bots.BOT_MCTS]]
    assert bots.POLICIES[bots.BOT_HEURISTIC] is bots.POLICIES[bots.BOT_OPPONENT]
    assert kernel_cache.searching_decides(("simple", "greedy", "random")) == []
    kernel_cache.compile_searching_bots(("simple", "heuristic"))
    assert bots.POLICIES[bots.BOT_HEURISTIC].signatures


def test_compile_kernels_readies_what_a_run_plays_without_playing():
    """The first job of a run on a cold cache compiles the engine and each searching bot it plays (issue 15)."""
    from simgin.running import runner

    for config in (
        runner.RunConfig(("simple", "heuristic"), games=2, seed=1),
        runner.RunConfig(("simple", "greedy"), hands=2, seed=1),
        runner.RunConfig(("simple", "greedy", "random"), games=6, seed=1, table="three"),
    ):
        runner.compile_kernels(config)  # plays nothing, so it needs no seeds and returns at once
    assert k.play_games_batch.signatures and k.play_hands_batch.signatures
    assert bots.POLICIES[bots.BOT_HEURISTIC].signatures


@pytest.mark.slow  # a run on an empty cache: compiles the hand loop and a searching bot (30 s or more)
def test_a_cold_run_on_two_workers_compiling_the_bots_beside_the_engine_plays_the_same_games(tmp_path):
    """On a cold cache the first chunk's worker compiles the engine while a second compiles the searching bots'
    ``decide`` (``runner.execute``): the games are those of a warm run on one worker."""
    import simgin

    command = [sys.executable, "-m", "simgin", "match", "simple", "heuristic", "--games", "6", "--seed", "3"]
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    cold = subprocess.run([*command, "--workers", "2", "--json"], env=env, capture_output=True, text=True, timeout=900)
    assert cold.returncode == 0, cold.stderr
    played, warm = json.loads(cold.stdout), simgin.match("simple", "heuristic", games=6, seed=3, workers=1).to_json()
    played.pop("timing"), warm.pop("timing")
    assert played == warm and played["games"] == 6

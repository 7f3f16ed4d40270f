"""Numba's on-disk cache is invalidated by an edit of any kernel file (``simgin.kernels``)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

import numpy as np
from click.testing import CliRunner

import simgin.kernels as kernels
from simgin import Rules
from simgin.cli import main
from simgin.engine import play_hand_rows
from simgin.kernels import bots
from simgin.kernels import engine as k


def test_cached_kernels_are_stamped_with_all_kernel_sources():
    # play_hand compiles the bots of bots.py, heuristic.py and mcts.py into itself.
    for dispatcher in (k.play_hand, k.play_hands_batch, k.play_games_batch, bots.decide):
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

"""Numba's on-disk cache is invalidated by an edit of any kernel file (``simgin.kernels``)."""

from __future__ import annotations

import simgin.kernels as kernels
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

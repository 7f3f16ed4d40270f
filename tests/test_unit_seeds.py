"""The seeds of a run's units, derived all at once (``simgin.game.rng.derive_range``) and one by one (``derive``).

Every hand and game a run plays is dealt from its unit's seed, ``derive(chunk_seed, j)`` (docs/ENGINE.md); the
runner now derives a chunk's seeds as one uint64 array. A single seed that differed would deal other cards, so
the array must be the plain-Python twin's, value for value, at the edges of 64 bits too.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from simgin.game.play import hand_seeds
from simgin.game.rng import MASK64, derive, derive_range, mix64
from simgin.running.config import RunConfig, plan_chunks, unit_seeds


@given(
    seed=st.integers(0, MASK64),
    first=st.integers(0, 2**40),
    count=st.integers(0, 40),
)
@settings(max_examples=300, deadline=None)
def test_the_array_is_derive_value_for_value(seed: int, first: int, count: int) -> None:
    found = derive_range(seed, first, first + count)
    assert found.dtype == np.uint64 and found.shape == (count,)
    assert [int(x) for x in found] == [derive(seed, j) for j in range(first, first + count)]


@pytest.mark.parametrize("seed", [0, 1, 2**63, MASK64, 0x9E3779B97F4A7C15])
def test_edge_seeds_and_indices(seed: int) -> None:
    """Seeds whose additions and products wrap round 2**64, the largest indices a run can reach among them."""
    for first in (0, 2**32 - 3, 2**62, MASK64 - 5):
        expected = [derive(seed, j) for j in range(first, first + 5)]
        assert [int(x) for x in derive_range(seed, first, first + 5)] == expected
    assert int(derive_range(seed, 0, 1)[0]) == mix64(seed ^ mix64(0))


def test_the_runners_seeds_are_those_docs_engine_md_names() -> None:
    """The chunks' unit seeds and the engine's hand seeds, as the runner and ``play_hand_rows`` take them."""
    config = RunConfig(("simple", "random"), hands=2_500, seed=11)
    for chunk in plan_chunks(config):
        seeds = unit_seeds(chunk)
        assert [int(x) for x in seeds] == [derive(chunk.seed, j) for j in range(chunk.unit_count)]
    assert [int(x) for x in hand_seeds(5, 300)] == [derive(5, i) for i in range(300)]


def test_a_range_that_runs_backwards_is_refused() -> None:
    with pytest.raises(ValueError, match="first=5, stop=3"):
        derive_range(1, 5, 3)
    assert derive_range(1, 4, 4).shape == (0,)

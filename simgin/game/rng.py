"""SplitMix64 in plain Python: the twin of ``simgin.kernels.rng``, draw for draw.

Python strategies receive a :class:`SplitMix64`; the reference engine shuffles with it, so
the plain-Python and numba engines deal the same cards and make the same random choices.

>>> rng = SplitMix64(42)
>>> all(0 <= rng.randint(10) < 10 for _ in range(100))
True
>>> shuffled_deck(SplitMix64(7)) == shuffled_deck(SplitMix64(7))
True
"""

from __future__ import annotations

import numpy as np

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def _finalize(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def mix64(x: int) -> int:
    """One SplitMix64 output for state ``x``."""
    return _finalize((x + GOLDEN) & MASK64)


def derive(seed: int, index: int) -> int:
    """A child seed: ``mix64(seed ^ mix64(index))``."""
    return mix64((seed & MASK64) ^ mix64(index & MASK64))


def derive_range(seed: int, first: int, stop: int) -> np.ndarray:
    """``[derive(seed, j) for j in range(first, stop)]`` as a uint64 array, computed at once.

    The runner derives a seed for every unit of a chunk (docs/ENGINE.md); one Python call per unit made a
    million-hand ``simple`` self-play match take 5% more CPU time (benchmarks/RESULTS.md).

    >>> [int(x) for x in derive_range(7, 3, 5)] == [derive(7, 3), derive(7, 4)]
    True
    """
    if not 0 <= first <= stop:
        raise ValueError(f"derive_range needs 0 <= first <= stop, got first={first}, stop={stop}")
    index = np.arange(first, stop, dtype=np.uint64)
    return mix64_array(np.uint64(seed & MASK64) ^ mix64_array(index))


def mix64_array(x: np.ndarray) -> np.ndarray:
    """:func:`mix64` of every element of a uint64 array (uint64 arithmetic wraps, as ``& MASK64`` does)."""
    with np.errstate(over="ignore"):
        z = x + np.uint64(GOLDEN)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


class SplitMix64:
    """A tiny seeded generator, identical to the kernels' one."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next_u64(self) -> int:
        self.state = (self.state + GOLDEN) & MASK64
        return _finalize(self.state)

    def randint(self, n: int) -> int:
        """Uniform int in ``[0, n)``."""
        if not 1 <= n < 1 << 32:
            raise ValueError(f"randint needs 1 <= n < 2**32, got {n}")
        return ((self.next_u64() >> 32) * n) >> 32

    def random(self) -> float:
        """Uniform float in ``[0, 1)`` from the top 53 bits."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def choice(self, items: list):
        """One of ``items``, uniformly (one ``randint`` draw)."""
        return items[self.randint(len(items))]


def shuffled_deck(rng: SplitMix64) -> list[int]:
    """0..51 shuffled by Fisher-Yates: for i = 51..1 swap i with ``randint(i + 1)``."""
    deck = list(range(52))
    for i in range(51, 0, -1):
        j = rng.randint(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck

"""SplitMix64 inside the kernels (its plain-Python twin is ``simgin.game.rng``).

numba code does not see numpy's global seed, so every random draw in a hand comes from
an explicit uint64 state held in a one-element array, derived from the run's seed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MUL1 = np.uint64(0xBF58476D1CE4E5B9)
MUL2 = np.uint64(0x94D049BB133111EB)
S30 = np.uint64(30)
S27 = np.uint64(27)
S31 = np.uint64(31)
S32 = np.uint64(32)


@njit(cache=True, inline="always")
def mix64(x):
    """One SplitMix64 output for state ``x`` (the state is advanced by GOLDEN first)."""
    z = np.uint64(x) + GOLDEN
    z = (z ^ (z >> S30)) * MUL1
    z = (z ^ (z >> S27)) * MUL2
    return z ^ (z >> S31)


@njit(cache=True, inline="always")
def derive(seed, index):
    """A child seed: ``mix64(seed ^ mix64(index))``."""
    return mix64(np.uint64(seed) ^ mix64(np.uint64(index)))


@njit(cache=True, inline="always")
def next_u64(state):
    """Advance ``state[0]`` and return the next 64-bit output."""
    state[0] = state[0] + GOLDEN
    z = state[0]
    z = (z ^ (z >> S30)) * MUL1
    z = (z ^ (z >> S27)) * MUL2
    return z ^ (z >> S31)


@njit(cache=True, inline="always")
def randint(state, n):
    """Uniform int in ``[0, n)`` for ``1 <= n < 2**32``: ``((next >> 32) * n) >> 32``."""
    return np.int64(((next_u64(state) >> S32) * np.uint64(n)) >> S32)


@njit(cache=True)
def shuffled_deck(state, deck):
    """Fill ``deck`` with 0..51 and Fisher-Yates shuffle it: for i = 51..1 swap i with randint(i + 1)."""
    for i in range(52):
        deck[i] = i
    for i in range(51, 0, -1):
        j = randint(state, i + 1)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp


@njit(cache=True, inline="always")
def uniform(state):
    """Uniform float in ``[0, 1)`` from the top 53 bits (the twin of ``SplitMix64.random``)."""
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)

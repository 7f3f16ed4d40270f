"""A fixed workload for before/after timings of the hand loop: 200,000 hands of ``simple`` vs ``simple``.

The kernels are warmed on 100 hands first (loaded from numba's cache), then the whole batch is played on
one numba thread. Time the whole process from outside, taking turns with another revision's interpreter
(medians of several runs each)::

    /usr/bin/time -v .venv/bin/python benchmarks/ab_hands.py
    /usr/bin/time -v OLD/.venv/bin/python benchmarks/ab_hands.py
"""

from __future__ import annotations

import numba
import numpy as np

try:
    from simgin.running.engine import hand_seeds, play_hand_rows
except ImportError:  # a revision before the package was regrouped (issue 26)
    from simgin.engine import hand_seeds, play_hand_rows  # type: ignore[no-redef]
from simgin import Rules

HANDS = 200_000

if __name__ == "__main__":
    numba.set_num_threads(1)
    seeds = hand_seeds(1, HANDS)
    dealers = np.arange(seeds.size, dtype=np.int64) % 2
    play_hand_rows(("simple", "simple"), Rules(), seeds[:100], dealers[:100])
    play_hand_rows(("simple", "simple"), Rules(), seeds, dealers)

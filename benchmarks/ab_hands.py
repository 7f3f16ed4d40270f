"""A fixed workload for before/after timings of the hand loop: 200,000 hands of ``simple`` vs ``simple``.

The kernels are warmed on 100 hands first (loaded from numba's cache), then the whole batch is played on
one numba thread. Time the whole process from outside, taking turns with another revision's interpreter
(medians of several runs each; ``farm-bench`` does this)::

    /usr/bin/time -v .venv/bin/python -m benchmarks.ab_hands
    /usr/bin/time -v OLD/.venv/bin/python -m benchmarks.ab_hands

Run by ``benchmarks.run_all`` too, where it prints its own CPU seconds.
"""

from __future__ import annotations

import time

import numba
import numpy as np

from benchmarks import harness
from simgin import Rules

try:
    from simgin.running.engine import hand_seeds, play_hand_rows
except ImportError:  # a revision before the package was regrouped (issue 26)
    from simgin.engine import hand_seeds, play_hand_rows  # type: ignore[no-redef]

HANDS = 200_000


def main(argv: list[str] | None = None) -> None:
    args = harness.parser(__doc__, quick="20,000 hands", write=False).parse_args(argv)
    hands = 20_000 if args.quick else HANDS
    numba.set_num_threads(1)
    seeds = hand_seeds(1, hands)
    dealers = np.arange(seeds.size, dtype=np.int64) % 2
    play_hand_rows(("simple", "simple"), Rules(), seeds[:100], dealers[:100])
    start = time.process_time()
    play_hand_rows(("simple", "simple"), Rules(), seeds, dealers)
    seconds = time.process_time() - start
    print(f"{hands:,} hands of simple vs simple on one thread: {seconds:.2f} CPU s ({hands / seconds:,.0f} per CPU s)")


if __name__ == "__main__":
    main()

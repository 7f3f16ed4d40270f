"""A fixed workload for before/after timings of the hand loop: 200,000 hands of ``simple`` vs ``simple``.

The kernels are warmed on 100 hands first (loaded from numba's cache), then the whole batch is played on
one numba thread. Time the whole process from outside, taking turns with another revision's interpreter
(medians of several runs each; ``farm-bench`` does this)::

    /usr/bin/time -v .venv/bin/python -m benchmarks.ab_hands
    /usr/bin/time -v OLD/.venv/bin/python -m benchmarks.ab_hands

``--pair A,B`` times another pairing, A playing the even hands from seat 0 and the odd ones from seat 1 (the
strength table's *speed*, hands per CPU second of the hand loop alone); ``--rules`` a preset; ``--hands`` the
count (for example ``--pair opponent,simple --rules eaai --hands 12000``; a bot may carry its parameters,
``--pair mcts:opponent_play=1,budget=500,simple``).

Run by ``benchmarks.run_all`` too, where it prints its own CPU seconds.
"""

from __future__ import annotations

import time

import numba
import numpy as np

from benchmarks import harness
from simgin import Rules
from simgin.players.registry import split_specs

try:
    from simgin.running.engine import hand_seeds, play_hand_rows
except ImportError:  # a revision before the package was regrouped (issue 26)
    from simgin.engine import hand_seeds, play_hand_rows  # type: ignore[no-redef]

HANDS = 200_000


def main(argv: list[str] | None = None) -> None:
    parser = harness.parser(__doc__, quick="20,000 hands", write=False)
    parser.add_argument("--pair", default="simple,simple", metavar="A,B", help="the two bots (simple,simple)")
    parser.add_argument("--rules", default="standard", help="a rules preset (standard)")
    parser.add_argument("--hands", type=int, default=None, help=f"hands to play ({HANDS:,})")
    args = parser.parse_args(argv)
    pair = split_specs(args.pair)  # a bot's own parameters may follow it: mcts:budget=500,width=2,simple
    if len(pair) != 2 or not all(pair):
        parser.error(f"--pair {args.pair!r}: give two bots as A,B, e.g. opponent,simple")
    try:
        rules = Rules.preset(args.rules)
    except ValueError as error:  # names the preset and the presets there are
        parser.error(f"--rules: {error}")
    a, b = pair
    hands = args.hands or (20_000 if args.quick else HANDS)
    numba.set_num_threads(1)
    seeds = hand_seeds(1, hands)
    dealers = np.arange(seeds.size, dtype=np.int64) % 2
    play_hand_rows((a, b), rules, seeds[:2], dealers[:2])
    play_hand_rows((b, a), rules, seeds[:2], dealers[:2])
    start = time.process_time()
    if a == b:
        play_hand_rows((a, b), rules, seeds, dealers)
    else:  # A from both seats, as the strength table times a bot
        play_hand_rows((a, b), rules, seeds[0::2], dealers[0::2])
        play_hand_rows((b, a), rules, seeds[1::2], dealers[1::2])
    seconds = time.process_time() - start
    print(
        f"{hands:,} hands of {a} vs {b} ({args.rules}) on one thread: {seconds:.2f} CPU s "
        f"({hands / seconds:,.0f} per CPU s)"
    )


if __name__ == "__main__":
    main()

"""Minimum-deadwood evaluations per second: a naive meld scan ("before") against simgin's kernels.

Every hand is a random 10-card (or 11-card) hand mask drawn from one seed and generated
before any timing. Each measurement is repeated (``--runs``, default 7) after a warm-up
call that compiles or loads every kernel, so compile time is excluded; the naive and
simgin runs take turns, and a run that other processes disturbed is redone (see
``QUIET_CORES``). The table gives the median rate, the spread, and the ratio of the medians.

- One core: a serial ``@njit`` loop over the array calling
  ``simgin.kernels.melds.deadwood_of_mask`` (10 cards), ``best_discard_of_mask`` or
  ``discard_deadwoods`` (11 cards), and the same loop around the naive kernel below.
- All cores: ``simgin.game.melds.deadwood_batch`` / ``best_discard_batch`` (the batch split over
  numba's threads, input checks included) and a ``prange`` loop around the naive kernel.

The naive kernel is the usual first implementation: scan all 329 melds (65 sets, 4-card
sets included, and 264 runs of 3 to 13 cards) for those contained in the hand, then a
depth-first search for the heaviest set of disjoint melds. Before any timing, both
kernels are run on the whole sample and must agree on every hand (and, for 11 cards, on
every discard).

Run from the repository root::

    python -m benchmarks.bench_melds            # prints a Markdown table
    python -m benchmarks.bench_melds --quick    # smaller sample, 3 runs (a smoke test)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

import numba
import numpy as np
from numba import njit, prange

import simgin.game.melds
from benchmarks import harness
from benchmarks.harness import QUIET_CORES, REDO_LIMIT, contended, timed_run
from simgin.kernels.melds import SUIT_DEADWOOD, best_discard_of_mask, deadwood_of_mask, discard_deadwoods

SEED = 20240611
GOAL_ONE_CORE = 10_000_000  # 10-card deadwood evaluations per second on one core
CHECKED_DISCARDS = 20_000  # 11-card hands on which every discard (not only the best) is compared
MAX_DEPTH = 8  # 11 cards hold at most 3 disjoint melds; a little room to spare


# ---------------------------------------------------------------------------------------
# The naive "before" kernel.
# ---------------------------------------------------------------------------------------


def _build_naive_melds() -> tuple[np.ndarray, np.ndarray]:
    """All 329 melds as card masks, with the total card value of each (R2-R4)."""
    masks: list[int] = []
    for rank in range(13):
        suits_of_rank = [suit * 13 + rank for suit in range(4)]
        for left_out in range(4):  # the four 3-card sets
            masks.append(sum(1 << card for i, card in enumerate(suits_of_rank) if i != left_out))
        masks.append(sum(1 << card for card in suits_of_rank))  # the 4-card set
    for suit in range(4):
        for length in range(3, 14):
            for start in range(14 - length):
                masks.append(sum(1 << (suit * 13 + rank) for rank in range(start, start + length)))
    values = [sum(min(card % 13 + 1, 10) for card in range(52) if mask >> card & 1) for mask in masks]
    return np.array(masks, dtype=np.int64), np.array(values, dtype=np.int64)


NAIVE_MELD_MASKS, NAIVE_MELD_VALUES = _build_naive_melds()
assert NAIVE_MELD_MASKS.shape == (329,), NAIVE_MELD_MASKS.shape
CARD_VALUES = np.array([min(card % 13 + 1, 10) for card in range(52)], dtype=np.int64)


@njit(cache=True)
def naive_deadwood(hand, meld_masks, meld_values, card_values):
    """Minimum deadwood by scanning every meld, then a depth-first max-weight packing."""
    found = np.empty(meld_masks.shape[0], np.int64)
    found_values = np.empty(meld_masks.shape[0], np.int64)
    count = 0
    for i in range(meld_masks.shape[0]):
        if meld_masks[i] & hand == meld_masks[i]:
            found[count] = meld_masks[i]
            found_values[count] = meld_values[i]
            count += 1
    total = 0
    for card in range(52):
        if (hand >> card) & 1:
            total += card_values[card]
    # Depth-first search over disjoint meld choices, with an explicit stack:
    # used[d] / melded[d] describe the node at depth d, following[d] its next candidate.
    used = np.zeros(MAX_DEPTH, np.int64)
    melded = np.zeros(MAX_DEPTH, np.int64)
    following = np.zeros(MAX_DEPTH, np.int64)
    best = 0
    depth = 0
    while depth >= 0:
        i = following[depth]
        while i < count and found[i] & used[depth]:
            i += 1
        if i >= count:
            if melded[depth] > best:
                best = melded[depth]
            depth -= 1
            continue
        following[depth] = i + 1
        depth += 1
        used[depth] = used[depth - 1] | found[i]
        melded[depth] = melded[depth - 1] + found_values[i]
        following[depth] = i + 1
    return total - best


@njit(cache=True)
def naive_discard_deadwoods(hand, meld_masks, meld_values, card_values, out):
    """``out[card]`` = naive minimum deadwood of ``hand`` without ``card``; returns the best card."""
    best = 1 << 30
    best_card = -1
    for card in range(52):
        if (hand >> card) & 1:
            out[card] = naive_deadwood(hand & ~(1 << card), meld_masks, meld_values, card_values)
            if out[card] < best:
                best = out[card]
                best_card = card
    return best_card


# ---------------------------------------------------------------------------------------
# Loops to time: serial (one core) and prange (all cores).
# ---------------------------------------------------------------------------------------


@njit(cache=True)
def naive_serial(hands, meld_masks, meld_values, card_values, out):
    for i in range(hands.shape[0]):
        out[i] = naive_deadwood(hands[i], meld_masks, meld_values, card_values)


@njit(cache=True, parallel=True)
def naive_parallel(hands, meld_masks, meld_values, card_values, out):
    for i in prange(hands.shape[0]):
        out[i] = naive_deadwood(hands[i], meld_masks, meld_values, card_values)


@njit(cache=True)
def naive_best_discard_serial(hands, meld_masks, meld_values, card_values, cards_out, deadwood_out):
    scratch = np.empty(52, np.int64)
    for i in range(hands.shape[0]):
        card = naive_discard_deadwoods(hands[i], meld_masks, meld_values, card_values, scratch)
        cards_out[i] = card
        deadwood_out[i] = scratch[card]


@njit(cache=True, parallel=True)
def naive_best_discard_parallel(hands, meld_masks, meld_values, card_values, cards_out, deadwood_out):
    for i in prange(hands.shape[0]):
        scratch = np.empty(52, np.int64)
        card = naive_discard_deadwoods(hands[i], meld_masks, meld_values, card_values, scratch)
        cards_out[i] = card
        deadwood_out[i] = scratch[card]


@njit(cache=True)
def simgin_serial(hands, suit_deadwood, out):
    for i in range(hands.shape[0]):
        out[i] = deadwood_of_mask(hands[i], suit_deadwood)


@njit(cache=True)
def simgin_best_discard_serial(hands, suit_deadwood, cards_out, deadwood_out):
    for i in range(hands.shape[0]):
        card, left = best_discard_of_mask(hands[i], suit_deadwood)
        cards_out[i] = card
        deadwood_out[i] = left


@njit(cache=True)
def simgin_discard_deadwoods_serial(hands, suit_deadwood, deadwood_out):
    scratch = np.empty(52, np.int64)
    for i in range(hands.shape[0]):
        deadwood_out[i] = discard_deadwoods(hands[i], suit_deadwood, scratch)


# ---------------------------------------------------------------------------------------
# Sample, checks, timing.
# ---------------------------------------------------------------------------------------


def random_hands(seed: int, hand_count: int, card_count: int, chunk: int = 100_000) -> np.ndarray:
    """``hand_count`` random hand masks of ``card_count`` distinct cards, from one seed."""
    rng = np.random.default_rng(np.random.SeedSequence(seed))
    parts = []
    bits = np.int64(1) << np.arange(52, dtype=np.int64)
    for start in range(0, hand_count, chunk):
        size = min(chunk, hand_count - start)
        cards = rng.random((size, 52)).argpartition(card_count, axis=1)[:, :card_count]
        parts.append(np.bitwise_or.reduce(bits[cards], axis=1))
    return np.concatenate(parts)


def has_three_of_a_rank(hands: np.ndarray) -> np.ndarray:
    """Whether each hand holds 3 or more cards of some rank (the kernels' slow path)."""
    suits = [(hands >> (13 * suit)) & 0x1FFF for suit in range(4)]
    m0, m1, m2, m3 = suits
    return ((m0 & m1 & m2) | (m0 & m1 & m3) | (m0 & m2 & m3) | (m1 & m2 & m3)) != 0


def check_agreement(hands10: np.ndarray, hands11: np.ndarray) -> None:
    """Naive and simgin kernels must give identical results on the whole sample."""
    naive = np.empty(hands10.shape[0], np.int64)
    naive_serial(hands10, NAIVE_MELD_MASKS, NAIVE_MELD_VALUES, CARD_VALUES, naive)
    fast = np.empty(hands10.shape[0], np.int64)
    simgin_serial(hands10, SUIT_DEADWOOD, fast)
    assert np.array_equal(naive, fast), "10-card deadwood differs between naive and simgin"
    assert np.array_equal(simgin.game.melds.deadwood_batch(hands10), fast), (
        "deadwood_batch differs from the serial loop"
    )

    naive_cards = np.empty(hands11.shape[0], np.int64)
    naive_left = np.empty(hands11.shape[0], np.int64)
    naive_best_discard_serial(hands11, NAIVE_MELD_MASKS, NAIVE_MELD_VALUES, CARD_VALUES, naive_cards, naive_left)
    cards = np.empty(hands11.shape[0], np.int64)
    left = np.empty(hands11.shape[0], np.int64)
    simgin_best_discard_serial(hands11, SUIT_DEADWOOD, cards, left)
    assert np.array_equal(naive_left, left), "11-card best-discard deadwood differs between naive and simgin"
    assert np.array_equal(naive_cards, cards), "11-card best discard card differs between naive and simgin"
    batch_cards, batch_left = simgin.game.melds.best_discard_batch(hands11)
    assert np.array_equal(batch_cards, cards) and np.array_equal(batch_left, left), "best_discard_batch differs"
    # Every discard, not only the best one, on a slice of the sample.
    naive_out = np.zeros(52, np.int64)
    fast_out = np.zeros(52, np.int64)
    for hand in hands11[:CHECKED_DISCARDS]:
        naive_discard_deadwoods(hand, NAIVE_MELD_MASKS, NAIVE_MELD_VALUES, CARD_VALUES, naive_out)
        discard_deadwoods(hand, SUIT_DEADWOOD, fast_out)
        assert np.array_equal(naive_out, fast_out), f"discard deadwoods differ for hand mask {int(hand)}"


def time_interleaved(calls: list[Callable[[], object]], runs: int) -> tuple[list[list[float]], list[float], int]:
    """Seconds of ``runs`` calls of each function, taken in turns after one warm-up call each.

    Taking turns spreads any load from other processes over all the calls, and a run that
    other processes disturbed is redone (see ``QUIET_CORES``). Also returns, per function,
    the CPU other processes used during its kept runs, in cores, and how many runs were redone.
    """
    for call in calls:
        call()
    times: list[list[float]] = [[] for _ in calls]
    other = [0.0 for _ in calls]
    redone = 0
    for _ in range(runs):
        for i, call in enumerate(calls):
            seconds, used = timed_run(call)
            while contended(seconds, used) and redone < REDO_LIMIT:
                redone += 1
                time.sleep(0.5)
                seconds, used = timed_run(call)
            times[i].append(seconds)
            other[i] += used
    return times, [other[i] / sum(times[i]) for i in range(len(calls))], redone


def _rate(count: int, times: list[float]) -> tuple[float, float, float]:
    """(median, lowest, highest) rate in items per second."""
    rates = [count / t for t in times]
    return statistics.median(rates), min(rates), max(rates)


def _millions(rate: float) -> str:
    return f"{rate / 1e6:.2f} M"


def measure(hand_count: int, hand11_count: int, runs: int, seed: int) -> list[dict[str, object]]:
    """Run every measurement; one dict per table row."""
    hands10 = random_hands(seed, hand_count, 10)
    hands11 = random_hands(seed + 1, hand11_count, 11)
    print(f"checking naive == simgin on {hand_count:,} + {hand11_count:,} hands ...", file=sys.stderr)
    check_agreement(hands10, hands11)

    n10 = np.empty(hand_count, np.int64)
    slow = has_three_of_a_rank(hands10)
    table_hands = np.ascontiguousarray(hands10[~slow])
    set_hands = np.ascontiguousarray(hands10[slow])
    c11 = np.empty(hand11_count, np.int64)
    d11 = np.empty(hand11_count, np.int64)
    naive_args = (NAIVE_MELD_MASKS, NAIVE_MELD_VALUES, CARD_VALUES)
    threads = numba.get_num_threads()
    cases = [
        (
            "10-card deadwood, 1 core",
            "serial @njit loop: `deadwood_of_mask`",
            hand_count,
            lambda: naive_serial(hands10, *naive_args, n10),
            lambda: simgin_serial(hands10, SUIT_DEADWOOD, n10),
            GOAL_ONE_CORE,
        ),
        (
            "10-card deadwood, 1 core, only hands without 3 of a rank",
            "same loop (table path)",
            table_hands.shape[0],
            lambda: naive_serial(table_hands, *naive_args, n10),
            lambda: simgin_serial(table_hands, SUIT_DEADWOOD, n10),
            None,
        ),
        (
            "10-card deadwood, 1 core, only hands with 3+ of a rank",
            "same loop (set-choice path)",
            set_hands.shape[0],
            lambda: naive_serial(set_hands, *naive_args, n10),
            lambda: simgin_serial(set_hands, SUIT_DEADWOOD, n10),
            None,
        ),
        (
            f"10-card deadwood, {threads} cores",
            "`simgin.game.melds.deadwood_batch` (threads, input checks included)",
            hand_count,
            lambda: naive_parallel(hands10, *naive_args, n10),
            lambda: simgin.game.melds.deadwood_batch(hands10),
            None,
        ),
        (
            "11-card best discard, 1 core",
            "serial @njit loop: `best_discard_of_mask`",
            hand11_count,
            lambda: naive_best_discard_serial(hands11, *naive_args, c11, d11),
            lambda: simgin_best_discard_serial(hands11, SUIT_DEADWOOD, c11, d11),
            None,
        ),
        (
            "11-card all discards, 1 core",
            "serial @njit loop: `discard_deadwoods`",
            hand11_count,
            lambda: naive_best_discard_serial(hands11, *naive_args, c11, d11),
            lambda: simgin_discard_deadwoods_serial(hands11, SUIT_DEADWOOD, d11),
            None,
        ),
        (
            f"11-card best discard, {threads} cores",
            "`simgin.game.melds.best_discard_batch` (threads, input checks included)",
            hand11_count,
            lambda: naive_best_discard_parallel(hands11, *naive_args, c11, d11),
            lambda: simgin.game.melds.best_discard_batch(hands11),
            None,
        ),
    ]
    rows = []
    for name, how, count, naive_call, simgin_call, goal in cases:
        print(f"timing {name} ...", file=sys.stderr)
        (naive_times, fast_times), others, redone = time_interleaved([naive_call, simgin_call], runs)
        naive_rate = _rate(count, naive_times)
        fast_rate = _rate(count, fast_times)
        rows.append(
            {
                "name": name,
                "how": how,
                "count": count,
                "naive": naive_rate,
                "simgin": fast_rate,
                "ratio": fast_rate[0] / naive_rate[0],
                "goal": goal,
                "other_load": max(others),
                "redone": redone,
            }
        )
    rows.append({"slow_path_share": float(slow.mean()), "checked_discards": min(hand11_count, CHECKED_DISCARDS)})
    return rows


def markdown(rows: list[dict[str, object]], runs: int, seed: int) -> str:
    """The results as a Markdown table with a short legend."""
    share = rows[-1]["slow_path_share"]
    checked = rows[-1]["checked_discards"]
    lines = [
        "| measurement | hands | naive scan (median, min-max) | simgin (median, min-max) | simgin / naive "
        "| other load (runs redone) | goal |",
        "|---|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows[:-1]:
        naive, fast, goal = row["naive"], row["simgin"], row["goal"]
        goal_text = "-"
        if goal is not None:
            verdict = "met" if fast[0] >= goal else "NOT met"
            goal_text = f">= {goal / 1e6:.0f} M/s ({verdict}; a naive scan manages about 3 M/s)"
        lines.append(
            f"| {row['name']}: {row['how']} | {row['count']:,} "
            f"| {_millions(naive[0])}/s ({_millions(naive[1])}-{_millions(naive[2])}) "
            f"| {_millions(fast[0])}/s ({_millions(fast[1])}-{_millions(fast[2])}) "
            f"| {row['ratio']:.1f}x | {row['other_load']:.2f} ({row['redone']}) | {goal_text} |"
        )
    lines += [
        "",
        f"Rates are evaluations (hands) per second, median of {runs} runs after a warm-up call "
        "(compile time excluded); naive and simgin runs take turns. *Other load* is the CPU other "
        "processes used during the kept runs, in cores (0 = a quiet machine); a run during which "
        f"they used more than {QUIET_CORES} cores was redone, at most {REDO_LIMIT} times per row. "
        "An 11-card evaluation is one whole discard decision: simgin searches once; the naive "
        "kernel evaluates the 11 ten-card hands. Random hands from "
        f"`np.random.SeedSequence({seed})`; {share:.1%} of the 10-card hands hold 3 or more cards "
        "of a rank (simgin's set-choice path, the rest are four table lookups). Naive and simgin "
        "were checked equal on the sample before timing (deadwood, best discard card, and every "
        f"discard on {checked:,} eleven-card hands).",
    ]
    return "\n".join(lines)


def goal_lines(rows: list[dict[str, object]]) -> list[str]:
    """One line per stated goal: the goal, the measured median, met or not."""
    row = rows[0]
    fast, naive = row["simgin"][0], row["naive"][0]
    verdict = "met" if fast >= GOAL_ONE_CORE else "NOT met"
    return [
        f"10-card minimum-deadwood evaluations on one core: goal >= {GOAL_ONE_CORE / 1e6:.0f} M/s "
        f"(a naive scan manages about 3 M/s); measured {_millions(fast)}/s, naive scan here "
        f"{_millions(naive)}/s, ratio {row['ratio']:.1f}x: **{verdict}**."
    ]


def build_parser() -> argparse.ArgumentParser:
    parser = harness.parser(__doc__, quick="100,000 / 10,000 hands and 3 runs")
    parser.add_argument("--hands", type=int, default=1_000_000, help="10-card hands in the sample")
    parser.add_argument("--hands11", type=int, default=100_000, help="11-card hands in the sample")
    parser.add_argument("--runs", type=int, default=7, help="timed runs per measurement")
    parser.add_argument("--seed", type=int, default=SEED)
    return parser


def run(argv: list[str] | None = None) -> tuple[str, list[str]]:
    """Measure everything; return the Markdown table and the goal lines."""
    args = build_parser().parse_args(argv)
    if args.quick:
        args.hands, args.hands11, args.runs = 100_000, 10_000, 3
    rows = measure(args.hands, args.hands11, args.runs, args.seed)
    return markdown(rows, args.runs, args.seed), goal_lines(rows)


def main(argv: list[str] | None = None) -> None:
    """Measure, print, and with ``--write`` put the section into RESULTS.md (with the machine and the goals)."""
    args = build_parser().parse_args(argv)
    table, goals = run(argv)
    text = "\n".join(
        [
            f"Measured {harness.machine()}. Reproduce: `{harness.command('bench_melds', ['--write'])}`",
            "",
            *(f"- {line}" for line in goals),
            "",
            table,
        ]
    )
    print(text)
    if args.write and not args.quick:
        print(f"wrote {harness.write_section('melds', 'Minimum deadwood: naive meld scan vs simgin', text)}")


if __name__ == "__main__":
    main()

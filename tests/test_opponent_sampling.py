"""The opponent hands the bots draw (``kernels.opponent.sample_hand`` and ``sample_likely_hand``) against a
plain-Python reference: the same cards from the same generator, on random and hand-picked weights.

The kernel keeps its running sums of weights between draws and finds a draw below the lowest card drawn so far by
counting the sums at or below its target (by a binary search until 2026-12-07, evening); the reference scans from
the first card at every draw, as the kernel did before (benchmarks/RESULTS.md, *Optimisation log*, 2026-12-07).
Both must draw the same cards and use the generator alike, or every row of ``opponent`` and ``mcts`` would change.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simgin.game.rng import SplitMix64
from simgin.kernels import opponent as kernel
from simgin.kernels.melds import SUIT_DEADWOOD, deadwood_of_mask
from tests.reference import deadwood

FULL_DECK = (1 << 52) - 1


def reference_sample_hand(known: int, unseen: int, weights: list[float], rng: SplitMix64) -> int:
    """``known`` plus ``10 - known`` unseen cards, each the first card (ascending) whose running sum of the
    weights left passes ``uniform * total``; the last card with weight left when rounding passes none."""
    cards = [c for c in range(52) if unseen >> c & 1]
    left = [weights[c] for c in cards]
    total = 0.0
    for w in left:
        total += w
    hand = known
    for _ in range(10 - bin(known).count("1")):
        target = rng.random() * total
        pick = -1
        running = 0.0
        for i, w in enumerate(left):
            if w > 0.0:
                pick = i
                running += w
                if running > target:
                    break
        if pick < 0:
            break
        hand |= 1 << cards[pick]
        total -= left[pick]
        left[pick] = 0.0
    return hand


def reference_sample_likely_hand(
    known: int, unseen: int, weights: list[float], quality: float, rng: SplitMix64, tries: int
) -> int:
    """``tries`` hands of :func:`reference_sample_hand`, one kept with chance in proportion to
    ``exp(-quality * (deadwood - least))`` (R6: deadwood by the brute-force reference)."""
    if quality <= 0.0:
        return reference_sample_hand(known, unseen, weights, rng)
    hands = [reference_sample_hand(known, unseen, weights, rng) for _ in range(tries)]
    scores = [float(deadwood([c for c in range(52) if hand >> c & 1])) for hand in hands]
    best = min(scores)
    chances = [math.exp(-quality * (score - best)) for score in scores]
    total = 0.0
    for chance in chances:
        total += chance
    target = rng.random() * total
    for hand, chance in zip(hands, chances, strict=True):
        target -= chance
        if target < 0.0:
            return hand
    return hands[-1]


def _case(seed: int) -> tuple[int, int, np.ndarray]:
    """A position as the bots meet it: 10 cards in hand, 1-30 in the pile, 0-3 known opponent cards, the rest
    unseen, with belief weights that are spread, equal, or partly zero (cards ruled out)."""
    rs = np.random.default_rng(seed)
    deck = rs.permutation(52)
    pile = int(rs.integers(1, 31))
    known_count = int(rs.integers(0, 4))
    known = sum(1 << int(c) for c in deck[10 + pile : 10 + pile + known_count])
    seen = sum(1 << int(c) for c in deck[: 10 + pile])
    unseen = FULL_DECK & ~(seen | known)
    style = seed % 4
    if style == 0:
        weights = rs.lognormal(0.0, 0.8, 52)
    elif style == 1:
        weights = np.ones(52)  # the deal's belief: every running sum is a whole number, ties everywhere
    elif style == 2:
        weights = rs.choice([0.25, 0.5, 1.0, 2.0, 4.0], 52)
    else:
        weights = rs.lognormal(0.0, 0.8, 52)
        weights[rs.integers(0, 52, 12)] = 0.0
    return known, unseen, weights


def _floats(weights: np.ndarray) -> np.ndarray:
    floats = np.zeros(kernel.F_WEIGHT + 52)
    floats[kernel.F_WEIGHT : kernel.F_WEIGHT + 52] = weights
    return floats


def _scratch() -> tuple[np.ndarray, np.ndarray]:
    return np.empty(52, np.int64), np.empty(kernel.SAMPLE_WEIGHT_SLOTS)


@pytest.mark.parametrize("seed", range(400))
def test_sample_hand_draws_the_reference_cards(seed: int) -> None:
    known, unseen, weights = _case(seed)
    state = np.array([seed * 7919 + 1], np.uint64)
    rng = SplitMix64(seed * 7919 + 1)
    cards, scratch = _scratch()
    for _ in range(5):  # one scratch array for several hands, as the bots use it
        drawn = kernel.sample_hand(np.int64(known), np.int64(unseen), _floats(weights), state, cards, scratch)
        assert drawn == reference_sample_hand(known, unseen, list(weights), rng)
        assert int(state[0]) == rng.state  # the generator moved alike
        assert bin(drawn).count("1") == 10 or not (weights[[c for c in range(52) if unseen >> c & 1]] > 0).all()
        assert drawn & known == known and drawn & ~(known | unseen) == 0


@pytest.mark.parametrize("seed", range(150))
def test_sample_likely_hand_keeps_the_reference_hand(seed: int) -> None:
    """Both forms: ``sample_likely_hand`` and ``sample_likely_hand_scored`` (the knock valuation's, which also
    gives the hand's least deadwood, R6, from the tilt's own search) draw the reference hand and move the
    generator alike, at every quality (0: no tilt)."""
    known, unseen, weights = _case(seed)
    quality = (0.0, 0.15, 0.35, 1.0)[seed % 4]
    tries = (1, 8, 17)[seed % 3]
    state = np.array([seed + 99], np.uint64)
    scored_state = state.copy()
    rng = SplitMix64(seed + 99)
    cards, scratch = _scratch()
    for _ in range(3):
        args = (np.int64(known), np.int64(unseen), _floats(weights), quality)
        drawn = kernel.sample_likely_hand(*args, state, cards, scratch, SUIT_DEADWOOD, np.int64(tries))
        scored, deadwood = kernel.sample_likely_hand_scored(
            *args, scored_state, cards, scratch, SUIT_DEADWOOD, np.int64(tries)
        )
        assert drawn == reference_sample_likely_hand(known, unseen, list(weights), quality, rng, tries)
        assert int(state[0]) == rng.state
        assert (scored, int(scored_state[0])) == (drawn, rng.state)
        assert deadwood == deadwood_of_mask(np.int64(drawn), SUIT_DEADWOOD)


def test_hand_picked_weights() -> None:
    """One heavy card drawn first every time; a single card with weight left; no weight left at all."""
    unseen = FULL_DECK & ~((1 << 20) - 1)  # cards 20-51 unseen
    weights = np.full(52, 1e-9)
    weights[51] = 1e9
    state = np.array([5], np.uint64)
    cards, scratch = _scratch()
    hand = kernel.sample_hand(np.int64(0), np.int64(unseen), _floats(weights), state, cards, scratch)
    assert hand >> 51 & 1 and hand == reference_sample_hand(0, unseen, list(weights), SplitMix64(5))
    only = np.zeros(52)
    only[30] = 1.0
    hand = kernel.sample_hand(np.int64(0), np.int64(unseen), _floats(only), np.array([5], np.uint64), cards, scratch)
    assert hand == 1 << 30  # one card with weight: it alone is drawn, then nothing is left to draw
    nothing = kernel.sample_hand(
        np.int64(1 << 3), np.int64(unseen), _floats(np.zeros(52)), np.array([5], np.uint64), cards, scratch
    )
    assert nothing == 1 << 3


def test_the_tilt_prefers_low_deadwood() -> None:
    """``quality`` tilts the kept hand towards low deadwood (R6): over many draws the kept hands' mean deadwood
    falls as quality rises."""
    known, unseen, weights = _case(1)
    cards, scratch = _scratch()
    means = []
    for quality in (0.0, 0.35, 2.0):
        state = np.array([17], np.uint64)
        total = 0
        for _ in range(400):
            hand = kernel.sample_likely_hand(
                np.int64(known), np.int64(unseen), _floats(weights), quality, state, cards, scratch, SUIT_DEADWOOD,
                kernel.QUALITY_TRIES,
            )  # fmt: skip
            total += deadwood_of_mask(np.int64(hand), SUIT_DEADWOOD)
        means.append(total / 400)
    assert means[0] > means[1] > means[2]

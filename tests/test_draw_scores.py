"""``opponent``'s draw (R9, R11) values a stock card by the best discard score after each unseen card
(``kernels.heuristic.pile_card_scores``). The potentials of the cards already held are computed once per
draw and reused for every unseen card that cannot change them; these tests hold that shortcut to the plain
computation, score for score and card for card.
"""

from __future__ import annotations

import numpy as np

from simgin.kernels import heuristic
from simgin.kernels.melds import SUIT_DEADWOOD
from simgin.players.registry import resolve


def potential_reference(hand: int, card: int, live: np.ndarray) -> float:
    """Plain Python: the live cards that would put ``card`` into a meld (R3, R4) it is not in yet."""
    rank, suit = card % 13, card // 13

    def held(r: int, s: int) -> bool:
        return 0 <= r < 13 and bool(hand >> (13 * s + r) & 1)

    def in_run(extra: int) -> bool:  # three consecutive ranks of the suit through card, with ``extra`` added
        have = {r for r in range(13) if held(r, suit) or r == extra}
        return any(all(r in have for r in range(low, low + 3)) for low in range(rank - 2, rank + 1))

    mates = sum(held(rank, s) for s in range(4) if s != suit)
    total = 0.0
    if mates == 1:
        total += sum(live[13 * s + rank] for s in range(4) if s != suit and not held(rank, s))
    if mates < 2 and not in_run(-1):
        for r in range(max(0, rank - 2), min(13, rank + 3)):
            if r != rank and not held(r, suit) and in_run(r):
                total += live[13 * suit + r]
    return total


def test_a_card_changes_the_potential_of_a_held_card_only_near_it():
    # The shortcut's premise: a card of another rank, not within two ranks in the same suit, leaves the
    # potential of a held card as it was (a run through it is three consecutive ranks, R4).
    rng = np.random.default_rng(3)
    checked = near = 0
    for _ in range(400):
        cards = rng.permutation(52)
        hand = int(sum(1 << int(c) for c in cards[:10]))
        live = rng.random(52)
        for card in (int(c) for c in cards[:10]):
            assert heuristic.potential(hand, card, live) == potential_reference(hand, card, live)
            for drawn in (int(c) for c in cards[10:]):
                after = heuristic.potential(hand | 1 << drawn, card, live)
                if heuristic._near(card, drawn):
                    near += after != heuristic.potential(hand, card, live)
                else:
                    assert after == heuristic.potential(hand, card, live)
                    checked += 1
    assert checked > 50_000 and near > 1_000  # both kinds of card were met, and near ones do change it


def test_the_best_discard_after_a_drawn_card_is_the_plain_best_discard():
    params = resolve("opponent").make().params
    rng = np.random.default_rng(8)
    work = np.empty(52, np.int64)
    for trial in range(2_000):
        cards = rng.permutation(52)
        hand = int(sum(1 << int(c) for c in cards[:10]))
        live, risk = rng.random(52), rng.random(52)
        live[rng.random(52) < 0.3] = 0.0
        stage, knock_limit = float(rng.random()), int(rng.choice([0, 5, 10]))
        kept = np.full(52, np.nan)
        for c in cards[:10]:
            kept[c] = heuristic.potential(hand, int(c), live)
        for drawn in (int(c) for c in cards[10:20]):
            held = hand | 1 << drawn
            plain = heuristic.best_discard(params, held, -1, -1, live, risk, work, SUIT_DEADWOOD, stage, knock_limit)
            short = heuristic._best_discard(
                params, held, -1, -1, live, risk, work, SUIT_DEADWOOD, stage, knock_limit, np.int64(drawn), kept, 0, 0.0
            )
            assert short == plain, (trial, drawn)


def test_the_stock_side_of_the_draw_is_the_plain_sum_of_best_discards():
    """``heuristic.stock_card_scores`` finds each drawn hand's deadwood after each discard from the hand before the
    draw (one suit changes; R3-R6): its sums equal the plain sum over unseen cards of ``live`` times
    ``best_discard``'s score, to the last bit, on random hands and on hands rich in sets (where it searches whole)."""
    params = resolve("opponent").make().params
    rng = np.random.default_rng(21)
    work = np.empty(52, np.int64)
    searched_whole = 0
    for trial in range(1_500):
        if trial % 3 == 0:  # two or three cards of each of a few ranks: sets after the draw
            ranks = rng.choice(13, 4, replace=False)
            pool = [13 * s + int(r) for r in ranks for s in range(4)]
            chosen = list(rng.choice(pool, 8, replace=False))
            rest = [c for c in rng.permutation(52) if c not in chosen]
            cards = np.array(chosen + rest[:2] + rest[2:])
        else:
            cards = rng.permutation(52)
        hand = int(sum(1 << int(c) for c in cards[:10]))
        unseen = int(sum(1 << int(c) for c in cards[10 + int(rng.integers(1, 20)) :]))
        live, risk = rng.random(52), rng.random(52)
        live[rng.random(52) < 0.3] = 0.0
        stage, knock_limit = float(rng.random()), int(rng.choice([0, 5, 10]))
        expected = weight = 0.0
        for c in range(52):
            if unseen >> c & 1 and live[c] > 0.0:
                held = hand | 1 << c
                _, score = heuristic.best_discard(
                    params, held, -1, -1, live, risk, work, SUIT_DEADWOOD, stage, knock_limit
                )
                expected += live[c] * score
                weight += live[c]
                searched_whole += bool(heuristic.has_three_of_a_rank(held))
        fast = heuristic.stock_card_scores(params, hand, unseen, live, risk, work, SUIT_DEADWOOD, stage, knock_limit)
        assert fast == (expected, weight), trial
    assert searched_whole > 1_000  # the whole search was met too

"""Gin outs (R13): the unseen cards that would give a hand gin after one draw and a discard.

``kernels.knock.gin_outs`` counts them (the knock decision's model reads the count, and ``opponent``'s discard
score since issue 37's ``gin_outs`` weight); it only tries the cards that complete a meld of three with two of
the hand's cards (``kernels.knock.completing_cards``) and checks each by the least deadwood after a discard. These
tests hold it to the obvious count, every unseen card with every discard, and to the plain-Python reference, and
hold ``opponent``'s discard with gin outs to a reference choice.
"""

from __future__ import annotations

import numpy as np
import pytest

from simgin.game.cards import parse_cards
from simgin.kernels import heuristic as kh, knock, parameters as pm
from simgin.kernels.melds import SUIT_DEADWOOD, deadwood_of_mask, discard_deadwoods
from simgin.players.registry import resolve
from tests import reference

FULL = (1 << 52) - 1


def _mask(cards) -> int:
    return sum(1 << int(card) for card in cards)


def _outs_every_card(hand: int, unseen: int, live: np.ndarray) -> float:
    """The obvious count: every unseen card, every discard after it (``melds.discard_deadwoods``)."""
    work = np.empty(52, np.int64)
    return sum(
        live[c]
        for c in range(52)
        if (unseen >> c) & 1
        and live[c] > 0.0
        and discard_deadwoods(np.int64(hand | (1 << c)), SUIT_DEADWOOD, work) == 0
    )


def _near_gin_hand(rng: np.random.Generator) -> int:
    """Ten cards, most of them in melds of three (runs or sets), the rest drawn at random."""
    hand = 0
    while bin(hand).count("1") < 7 + int(rng.integers(0, 2)):
        if rng.random() < 0.5:
            suit, rank = int(rng.integers(0, 4)), int(rng.integers(0, 11))
            hand |= sum(1 << (13 * suit + rank + k) for k in range(3))
        else:
            rank = int(rng.integers(0, 13))
            hand |= sum(1 << (13 * int(suit) + rank) for suit in rng.choice(4, 3, replace=False))
    for card in rng.permutation(52):
        if bin(hand).count("1") >= 10:
            break
        hand |= 1 << int(card)
    return hand


def _hands(count: int, seed: int):
    """(hand, unseen, live) triples: random and near-gin ten-card hands that are not gin, some cards seen."""
    rng = np.random.default_rng(seed)
    found = 0
    while found < count:
        hand = _near_gin_hand(rng) if found % 2 else _mask(rng.choice(52, 10, replace=False))
        if bin(hand).count("1") != 10 or deadwood_of_mask(np.int64(hand), SUIT_DEADWOOD) == 0:
            continue  # gin already: its "outs" would be every card (drawn and thrown back)
        seen = _mask(c for c in rng.choice(52, 12, replace=False) if not hand >> int(c) & 1)
        live = rng.random(52)
        live[rng.random(52) < 0.2] = 0.0
        yield hand, FULL & ~hand & ~seen, live
        found += 1


def test_gin_outs_counts_what_every_card_and_every_discard_count():
    """R13: over 4,000 random and near-gin hands, the filtered count is the obvious one, to the last bit."""
    with_outs = 0
    for hand, unseen, live in _hands(4000, seed=37):
        fast = knock.gin_outs(np.int64(hand), np.int64(unseen), live, SUIT_DEADWOOD)
        assert fast == _outs_every_card(hand, unseen, live), [c for c in range(52) if hand >> c & 1]
        with_outs += fast > 0
    assert with_outs > 1000  # the near-gin half gives the count something to count


def test_every_card_that_gives_gin_completes_a_meld_with_two_held_cards():
    """R3, R4, R13: a card that gives a (non-gin) hand gin lies in a meld of the gin hand, so it is among the
    completing cards; and each completing card does make a meld of three with two held cards (the reference)."""
    work = np.empty(52, np.int64)
    for hand, _, _ in _hands(1500, seed=38):
        completing = int(knock.completing_cards(np.int64(hand)))
        held = [c for c in range(52) if hand >> c & 1]
        for card in range(52):
            if hand >> card & 1:
                assert not completing >> card & 1
                continue
            if discard_deadwoods(np.int64(hand | (1 << card)), SUIT_DEADWOOD, work) == 0:
                assert completing >> card & 1, (held, card)
            if completing >> card & 1:
                assert any(reference.is_meld({card, a, b}) for a in held for b in held if a < b), (held, card)


@pytest.mark.parametrize(
    ("hand", "outs"),
    [
        ("2C 3C 4C KS KH KD 9H TH JH 5S", ["AC", "5C", "KC", "8H", "QH"]),  # one loose card: the melds' ends
        # 5D: three fives; AC (A-4C) and KC (four kings) each let the 5C join the fives: 3 + 3 + 4, the JD thrown
        ("2C 3C 4C 5C KS KH KD 5S 5H JD", ["5D", "AC", "KC"]),
        ("AC 2C 3C 4C 5C 6C 7C 8C 9C KS", ["TC"]),  # a long run: only its end, as the KS is thrown
        ("AC AD 4S 7H 9C JD QH KS 3D 6H", []),  # far from gin
    ],
)
def test_hand_picked_gin_outs_against_the_reference(hand, outs):
    """R13 on hands read by eye, each count also checked by the plain-Python reference (``tests/reference.py``)."""
    cards = parse_cards(hand)
    mask = _mask(cards)
    live = np.ones(52)
    unseen = FULL & ~mask
    expected = {
        c for c in range(52) if not mask >> c & 1 and min(reference.best_discard_deadwoods([*cards, c]).values()) == 0
    }
    assert expected == set(parse_cards(" ".join(outs)))
    assert knock.gin_outs(np.int64(mask), np.int64(unseen), live, SUIT_DEADWOOD) == len(outs)


def _reference_choice(params, weight, hand, live, risk, share, knock_limit, unseen):
    """``discard_for_outs`` written plainly: every legal discard's score (``discard_score``), less ``weight`` per
    gin out of the hand kept (the obvious count) where it keeps at most OUTS_DEADWOOD, the lowest (ties to the
    higher rank, then the higher card)."""
    work = np.empty(52, np.int64)
    discard_deadwoods(np.int64(hand), SUIT_DEADWOOD, work)
    weights = kh.discard_weights(params, share, knock_limit)
    best, best_score = -1, 0.0
    for card in range(52):
        if not hand >> card & 1:
            continue
        left = int(work[card])
        score = kh.discard_score(params, np.int64(hand), card, left, live, risk, *weights, knock_limit)
        if 0 < left <= kh.OUTS_DEADWOOD:
            score -= weight * _outs_every_card(hand & ~(1 << card), unseen, live)
        if best < 0 or score < best_score or (score == best_score and card % 13 >= best % 13):
            best, best_score = card, score
    return best


def test_the_discard_with_gin_outs_is_the_reference_choice():
    """``opponent``'s discard with its gin outs weight is the plain choice on 1,500 eleven-card hands (random and
    near gin), at its default weight and a larger one, early and late in the hand, with and without a knock; and
    the weight changes some choices (it is not idle)."""
    rng = np.random.default_rng(39)
    params = resolve("opponent").vector()
    changed = 0
    for index, (ten, unseen, live) in enumerate(_hands(1500, seed=40)):
        drawn = int(rng.choice([c for c in range(52) if unseen >> c & 1]))
        hand, unseen = ten | (1 << drawn), unseen & ~(1 << drawn)
        risk = rng.random(52) * 0.3
        share, knock_limit = (1.0, 10) if index % 3 == 0 else (0.3, 10) if index % 3 == 1 else (0.5, 0)
        work = np.empty(52, np.int64)
        plain, _ = kh.best_discard(params, np.int64(hand), -1, -1, live, risk, work, SUIT_DEADWOOD, share, knock_limit)
        for weight in (params[pm.GIN_OUTS], 20.0):
            chosen = kh.discard_for_outs(
                params, np.int64(hand), -1, -1, live, risk, work, SUIT_DEADWOOD, share, knock_limit, np.int64(unseen),
                weight,
            )  # fmt: skip
            assert chosen == _reference_choice(params, weight, hand, live, risk, share, knock_limit, unseen)
            changed += chosen != plain
    assert changed > 40  # 62 of 3,000 choices with these seeds


def test_gin_outs_defaults_and_bounds():
    """``opponent`` plays its gated weight (issue 37, benchmarks/RESULTS.md *Strength gates*); ``heuristic`` and
    ``mcts`` keep 0 (their play is as before); the bounds are checked."""
    assert resolve("opponent").vector()[pm.GIN_OUTS] == 6.0
    assert resolve("heuristic").vector()[pm.GIN_OUTS] == 0.0
    assert resolve("mcts").vector()[pm.GIN_OUTS] == 0.0
    assert resolve("opponent:gin_outs=0").vector()[pm.GIN_OUTS] == 0.0
    with pytest.raises(ValueError, match="gin_outs"):
        resolve("opponent:gin_outs=50").vector()


def test_opponent_plays_its_gin_outs_except_under_hollywood_scoring():
    """The term changes ``opponent``'s games where a knock or only gin ends the hand (standard, eaai, straight), and
    not at all under Hollywood scoring (V14), where it was gated a loss: there every game is the one
    ``opponent:gin_outs=0`` plays. (Hands played one by one have no Hollywood scoring, R20-R23: the term is on.)"""
    from simgin.game.rules import Rules
    from simgin.running.engine import play_game_rows

    seeds = np.arange(1, 41, dtype=np.uint64) * np.uint64(7919)
    for preset, alike in (("hollywood", True), ("standard", False), ("eaai", False), ("straight", False)):
        rules = Rules.preset(preset)
        default = play_game_rows(("opponent", "simple"), rules, seeds)
        without = play_game_rows(("opponent:gin_outs=0", "simple"), rules, seeds)
        same = all(np.array_equal(a, b) for a, b in zip(default, without, strict=True))
        assert same == alike, preset


def _shed_every_completing_card(hand: int, unseen: int, live: np.ndarray, least_after) -> tuple[float, float]:
    """(gin outs, expected shed) the plain way: each unseen card that makes a meld of three with two held cards
    (R3, R4, the reference's ``is_meld``), in card order, by ``least_after`` (the least deadwood after it and a
    discard)."""
    held = [c for c in range(52) if hand >> c & 1]
    now = reference.deadwood(held)
    outs = shed = 0.0
    for card in range(52):
        if not (unseen >> card & 1) or live[card] <= 0.0:
            continue
        if not any(reference.is_meld({card, a, b}) for a in held for b in held if a < b):
            continue
        after = least_after([*held, card])
        if after == 0:
            outs += live[card]
        if after < now:
            shed += live[card] * (now - after)
    return outs, shed


def test_draw_outs_counts_the_gin_outs_and_the_deadwood_shed_as_the_reference_does():
    """``kernels.knock.draw_outs`` (issue 37's look one draw ahead): its gin outs are ``gin_outs`` to the last bit,
    and the deadwood it expects the hand to shed with its next draw is the plain sum over the completing cards,
    each by its least deadwood after a discard: on 2,000 hands by the compiled search (``discard_deadwoods``), on
    150 by the brute-force reference (R6)."""
    work = np.empty(52, np.int64)

    def compiled(cards):
        return int(discard_deadwoods(np.int64(_mask(cards)), SUIT_DEADWOOD, work))

    def brute(cards):
        return min(reference.best_discard_deadwoods(cards).values())

    shedding = 0
    for index, (hand, unseen, live) in enumerate(_hands(2000, seed=41)):
        deadwood = int(deadwood_of_mask(np.int64(hand), SUIT_DEADWOOD))
        outs, shed = knock.draw_outs(np.int64(hand), np.int64(deadwood), np.int64(unseen), live, SUIT_DEADWOOD)
        assert outs == knock.gin_outs(np.int64(hand), np.int64(unseen), live, SUIT_DEADWOOD)
        least_after = brute if index < 150 else compiled
        assert (outs, shed) == _shed_every_completing_card(hand, unseen, live, least_after), hand
        shedding += shed > 0
    assert shedding > 1500  # most hands have some card that melds


def test_hand_picked_draw_outs():
    """A hand read by eye: 2-4C and three kings melded, 9H TH 5S 8D loose (32 deadwood). The completing cards are
    AC and 5C (a run of four), KC (four kings), each letting the TH go (22 left, 10 shed), and 8H and JH (a run
    with 9H TH), letting the 8D go (5 left, 27 shed): 84 in all with every card sure to arrive, no gin out; at half
    the chance for the hearts, 57."""
    cards = parse_cards("2C 3C 4C KS KH KD 9H TH 5S 8D")
    mask = np.int64(_mask(cards))
    unseen = np.int64(FULL & ~_mask(cards))
    live = np.ones(52)
    assert knock.draw_outs(mask, np.int64(32), unseen, live, SUIT_DEADWOOD) == (0.0, 84.0)
    for card in parse_cards("8H JH"):
        live[card] = 0.5
    assert knock.draw_outs(mask, np.int64(32), unseen, live, SUIT_DEADWOOD) == (0.0, 57.0)

"""Differential tests of the meld/deadwood kernels against the brute-force reference (R3-R6).

The public API (``simgin.deadwood``, ``best_discard``, ``discard_deadwoods``, ``meld_arrangement``,
``deadwood_batch``, ``simgin.game.melds.best_discard_batch``) is compared with ``tests/reference.py``
on hand-worked tricky hands and on seeded random hands, half of them uniform and half drawn
from small blocks of the deck so that sets and runs overlap a lot.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest
import reference
from hypothesis import given, settings, strategies as st
from tiers import sizes

import simgin
from simgin.game.cards import cards_to_mask, parse_cards
from simgin.game.melds import best_discard_batch

RANDOM_SEED = 20_240_611
HANDS_PER_KIND = 5_000  # uniform and clustered, 10 and 11 cards: 4 x 5,000 = 20,000 hands


def value(card: int) -> int:
    return min(card % 13 + 1, 10)


def random_hands(rng: np.random.Generator, count: int, size: int) -> list[list[int]]:
    """``count`` uniform random hands of ``size`` distinct cards."""
    keys = rng.random((count, 52))
    return np.argsort(keys, axis=1)[:, :size].tolist()


def clustered_hands(rng: np.random.Generator, count: int, size: int) -> list[list[int]]:
    """Hands drawn from a small block of the deck (a few adjacent ranks in a few suits): many melds."""
    hands = []
    for _ in range(count):
        suit_count = int(rng.integers(2, 5))
        width = max(int(rng.integers(3, 8)), -(-(size + 1) // suit_count))
        low = int(rng.integers(0, 13 - width + 1))
        suits = rng.permutation(4)[:suit_count]
        block = [int(suit) * 13 + rank for suit in suits for rank in range(low, low + width)]
        hands.append([int(card) for card in rng.permutation(block)[:size]])
    return hands


def sample(size: int, kind: str, seed_offset: int) -> list[list[int]]:
    rng = np.random.default_rng([RANDOM_SEED, size, seed_offset])
    make = random_hands if kind == "uniform" else clustered_hands
    return make(rng, HANDS_PER_KIND, size)


# --- (1) tricky hands worked out by hand ---------------------------------------------------

TRICKY = [
    # 7-7-7 with 5-6-7-8H, plus 2S3S4S and KD: run 5H-8H leaves 7C 7D KD = 24;
    # the set 7C7D7H leaves 5H 6H 8H KD = 29. Best 24.
    ("7C 7D 7H 5H 6H 8H 2S 3S 4S KD", 24),
    # 7C7D7H7S, 5S-9S, 5C 6C: run 5S-9S + set 7C7D7H leaves 5C 6C = 11; run 5C6C7C + 5S-9S leaves
    # 7D 7H = 14; 4-set leaves 5S 6S 8S 9S 5C 6C = 39. Best 11.
    ("7C 7D 7H 7S 5S 6S 8S 9S 5C 6C", 11),
    # A set overlapping three runs: 8C 8D 8H as a set leaves 6C 7C 9D TD 9H TH 2S = 53; the runs
    # 6-7-8C, 8-9-TD, 8-9-TH leave only 2S = 2.
    ("8C 8D 8H 6C 7C 9D TD 9H TH 2S", 2),
    # A-2-3 is a run (R4): AC2C3C and JD QD KD melded; 5S 9H 4D 8C = 26.
    ("AC 2C 3C KD QD JD 5S 9H 4D 8C", 26),
    # Q-K-A is not a run: only A-2-3H; QH KH (20) plus 9S 8C (17); 5C5D5S a set. 37.
    ("QH KH AH 2H 3H 5C 5D 5S 9S 8C", 37),
    # K-A-2 is not a run: KS AS 2S all loose (13); 4C4D4H and 9C TC JC melded; 6D (6). 19.
    ("KS AS 2S 4C 4D 4H 9C TC JC 6D", 19),
    # All one suit: only T-J-Q-K melds; A 2 4 5 7 8 loose = 27.
    ("AS 2S 4S 5S 7S 8S TS JS KS QS", 27),
    # All one suit, one run A-T: gin.
    ("AH 2H 3H 4H 5H 6H 7H 8H 9H TH", 0),
    # Three adjacent ranks in all four suits (11 of the 12): 5s and 6s as 4-sets, 7C7D7H: gin.
    ("5C 6C 7C 5D 6D 7D 5H 6H 7H 5S 6S", 0),
    # Three runs (or three sets) over 5-6-7 in C D H; KS loose: 10.
    ("5C 6C 7C 5D 6D 7D 5H 6H 7H KS", 10),
    # Two long runs over the same ranks: 3-7C and 3-7D, gin.
    ("3C 4C 5C 6C 7C 3D 4D 5D 6D 7D", 0),
    # Same plus 5H: a set 5C5D5H would break both runs (3-4 and 6-7 loose twice: 40); keep 5H loose: 5.
    ("3C 4C 5C 6C 7C 3D 4D 5D 6D 7D 5H", 5),
    # Four 6s with runs through three of them: 4-5-6C, 6-7-8D, 5-6-7H leave 6S = 6;
    # the 4-set leaves 4C 5C 7D 8D 5H 7H = 36.
    ("6C 6D 6H 6S 4C 5C 7D 8D 5H 7H", 6),
    # Gin: A-2-3S, 7C7D7H, 9-T-J-QD.
    ("AS 2S 3S 7C 7D 7H 9D TD JD QD", 0),
    # 11-card gin: A-4S, 7C7D7H, 9D-QD.
    ("AS 2S 3S 4S 7C 7D 7H 9D TD JD QD", 0),
    # 11 cards: K, Q, J sets (4 + 3 + 3) leave TC = 10; T-K clubs would leave four pairs.
    ("KC KD KH KS QC QD QH JC JD JH TC", 10),
    # 11 cards, the documented example: AS2S3S, 7C7D7H, TD JD QD; KH KC = 20.
    ("AS 2S 3S 7C 7D 7H TD JD QD KH KC", 20),
    # No melds at all: 1+2+3+5+7+9+10+10+10+10 = 67.
    ("AC 2D 3H 5S 7C 9D TH JS QC KD", 67),
    # Small hands are accepted too.
    ("", 0),
    ("KS", 10),
    ("QS KS AS", 21),
    ("JS QS KS", 0),
]


@pytest.mark.parametrize(("text", "expected"), TRICKY, ids=[text or "empty" for text, _ in TRICKY])
def test_r3_r6_tricky_hands(text: str, expected: int) -> None:
    hand = parse_cards(text)
    assert reference.deadwood(hand) == expected
    assert simgin.deadwood(hand) == expected
    assert simgin.deadwood(text) == expected


@pytest.mark.parametrize("text", [text for text, _ in TRICKY if len(text.split()) == 11])
def test_tricky_eleven_card_discards(text: str) -> None:
    hand = parse_cards(text)
    expected = reference.best_discard_deadwoods(hand)
    assert simgin.discard_deadwoods(hand) == expected
    card, left = simgin.best_discard(hand)
    assert left == min(expected.values())
    assert expected[card] == left


def test_documented_best_discard() -> None:
    # AS2S3S, 7C7D7H, TD JD QD melded; discarding KC (lower than KH) leaves KH = 10.
    assert simgin.best_discard("AS 2S 3S 7C 7D 7H TD JD QD KH KC") == (parse_cards("KC")[0], 10)


# --- (2) seeded random hands ----------------------------------------------------------------


@pytest.mark.parametrize("kind", ["uniform", "clustered"])
def test_random_ten_card_deadwood(kind: str) -> None:
    mismatches = []
    for hand in sample(10, kind, 0):
        expected, got = reference.deadwood(hand), simgin.deadwood(hand)
        if expected != got:
            mismatches.append((simgin.format_cards(hand), expected, got))
    assert not mismatches, mismatches[:5]


@pytest.mark.slow  # exhaustive: thousands of brute-force discard searches (.ci/run runs it)
@pytest.mark.parametrize("kind", ["uniform", "clustered"])
def test_random_eleven_card_discards(kind: str) -> None:
    mismatches = []
    for hand in sample(11, kind, 1):
        expected = reference.best_discard_deadwoods(hand)
        best = min(expected.values())
        card, left = simgin.best_discard(hand)
        got = simgin.discard_deadwoods(hand)
        full = simgin.deadwood(hand)
        if left != best or expected.get(card) != best or got != expected or full != reference.deadwood(hand):
            mismatches.append((simgin.format_cards(hand), expected, (card, left), got))
    assert not mismatches, mismatches[:3]


@pytest.mark.parametrize("kind", ["uniform", "clustered"])
def test_the_least_deadwood_after_a_discard_is_the_brute_forces(kind: str) -> None:
    """``kernels.melds.least_deadwood_after_discard`` (the luck kernel's best-discard search, R6): the minimum of
    the brute force's deadwood over every discard, on random and clustered hands of 1 to 12 cards and the tricky
    eleven-card hands; and the same as the kernel's own ``discard_deadwoods`` on many more."""
    from simgin.kernels import melds as kernel

    def least(hand: list[int]) -> int:
        return int(kernel.least_deadwood_after_discard(cards_to_mask(hand), kernel.SUIT_DEADWOOD, kernel.SUIT_DROP))

    hands = [parse_cards(text) for text, _ in TRICKY if len(text.split()) == 11]
    rng = np.random.default_rng([RANDOM_SEED, 99])
    make = random_hands if kind == "uniform" else clustered_hands
    for size in (1, 2, 4, 10, 11, 12):
        hands += make(rng, 40, size)
    mismatches = [
        (hand, least(hand)) for hand in hands if least(hand) != min(reference.best_discard_deadwoods(hand).values())
    ]
    assert not mismatches, mismatches[:3]
    out = np.empty(52, np.int64)
    for hand in make(rng, 3000, 11):
        mask = cards_to_mask(hand)
        assert least(hand) == kernel.discard_deadwoods(mask, kernel.SUIT_DEADWOOD, out), hand


@pytest.mark.parametrize("count", sizes(300, 1500))
@pytest.mark.parametrize("kind", ["uniform", "clustered"])
def test_the_least_deadwood_discard_is_the_brute_forces_card(kind: str, count: int) -> None:
    """``kernels.melds.least_deadwood_discard`` (R6, with sets, R3, and a card that may not be discarded, R10),
    which the fast playouts discard by (``kernels.mcts.policy_discard``): the card of least deadwood by the
    brute force, ties to the higher rank, then the higher card, and what it leaves."""
    from simgin.kernels import mcts, melds as kernel

    def plain(hand: list[int], banned: int) -> tuple[int, int]:
        left = {card: dw for card, dw in reference.best_discard_deadwoods(hand).items() if card != banned}
        least = min(left.values())
        card = max((c for c, dw in left.items() if dw == least), key=lambda c: (c % 13, c))
        return card, least

    rng = np.random.default_rng([RANDOM_SEED, 77])
    make = random_hands if kind == "uniform" else clustered_hands
    hands = [parse_cards(text) for text, _ in TRICKY if len(text.split()) == 11] + make(rng, count, 11)
    with_sets = 0
    for hand in hands:
        mask = cards_to_mask(hand)
        with_sets += bool(kernel.has_three_of_a_rank(mask))
        for banned in (-1, hand[int(rng.integers(len(hand)))], next(c for c in range(52) if c not in hand)):
            expected = plain(hand, banned)
            found = kernel.least_deadwood_discard(mask, banned, kernel.SUIT_DEADWOOD, kernel.SUIT_DROP,
                                                  kernel.SUIT_DROP_RANK)  # fmt: skip
            assert tuple(found) == expected, (hand, banned)
            assert tuple(mcts.policy_discard(mask, banned, kernel.SUIT_DEADWOOD)) == expected, (hand, banned)
    assert with_sets > count // 15  # hands where sets are possible were met


# --- (3) meld_arrangement -------------------------------------------------------------------


def check_arrangement(hand: list[int]) -> None:
    melds, loose = simgin.meld_arrangement(hand)
    melded = [card for meld in melds for card in meld]
    assert len(melded) == len(set(melded)), "melds overlap"
    for meld in melds:
        assert reference.is_meld(meld), simgin.format_cards(meld)
    assert sorted(melded + list(loose)) == sorted(hand)
    assert sum(value(card) for card in loose) == simgin.deadwood(hand) == reference.deadwood(hand)


@pytest.mark.parametrize("text", [text for text, _ in TRICKY])
def test_r5_meld_arrangement_tricky(text: str) -> None:
    check_arrangement(parse_cards(text))


@pytest.mark.parametrize("count", sizes(200, 1_000))
def test_r5_meld_arrangement_random(count: int) -> None:
    rng = np.random.default_rng([RANDOM_SEED, 3])
    for size in (10, 11):
        for hand in random_hands(rng, count, size) + clustered_hands(rng, count, size):
            check_arrangement(hand)


def test_meld_arrangement_documented_example() -> None:
    melds, loose = simgin.meld_arrangement("7C 7D 7H 5H 6H 8H 9C 2D 3D 4D")
    assert [simgin.format_cards(meld) for meld in melds] == ["2D 3D 4D", "5H 6H 7H 8H"]
    assert simgin.format_cards(loose) == "7C 9C 7D"


# --- (4) batch forms ------------------------------------------------------------------------


def masks_of(hands: list[list[int]]) -> np.ndarray:
    return np.array([cards_to_mask(hand) for hand in hands], dtype=np.int64)


def test_deadwood_batch_equals_scalar() -> None:
    rng = np.random.default_rng([RANDOM_SEED, 4])
    hands = random_hands(rng, 1_000, 10) + clustered_hands(rng, 1_000, 11) + [[], [5], parse_cards("QS KS AS")]
    got = simgin.deadwood_batch(masks_of(hands))
    assert got.dtype == np.int64 and got.shape == (len(hands),)
    assert got.tolist() == [simgin.deadwood(hand) for hand in hands]
    assert simgin.deadwood_batch(np.zeros(0, dtype=np.int64)).shape == (0,)


def test_best_discard_batch_equals_scalar() -> None:
    rng = np.random.default_rng([RANDOM_SEED, 5])
    hands = random_hands(rng, 1_000, 11) + clustered_hands(rng, 1_000, 11) + [[7]]
    cards, left = best_discard_batch(masks_of(hands))
    assert [(int(c), int(d)) for c, d in zip(cards, left, strict=True)] == [simgin.best_discard(h) for h in hands]


def test_best_discard_batch_empty_hand() -> None:
    # An empty hand has no discard (card -1, as documented) and nothing left: deadwood 0, not a sentinel.
    empty_cards, empty_left = best_discard_batch(np.zeros(1, dtype=np.int64))
    assert (int(empty_cards[0]), int(empty_left[0])) == (-1, 0)


@pytest.mark.parametrize(
    "masks",
    [
        np.zeros((2, 2), dtype=np.int64),  # not 1-d
        np.array([-1], dtype=np.int64),  # negative
        np.array([1 << 52], dtype=np.int64),  # bit 52 is not a card
        np.array([(1 << 12) - 1], dtype=np.int64),  # 12 cards
        np.array([cards_to_mask(range(0, 52, 4))], dtype=np.int64),  # 13 cards
    ],
)
def test_bad_batch_input(masks: np.ndarray) -> None:
    with pytest.raises(ValueError):
        simgin.deadwood_batch(masks)
    with pytest.raises(ValueError):
        best_discard_batch(masks)


# --- (5) digest -----------------------------------------------------------------------------

DIGEST_SEED = 5_000
# Produced once from the reference with:
#   hands = digest_hands(); values = [reference.deadwood(h) for h in hands]
#   hashlib.sha256(np.asarray(values, dtype="<i8").tobytes()).hexdigest()
DEADWOOD_DIGEST = "d5e12c14b82a4737535fc1ef88aef73dea39982700b720a34282964e0984fdae"


def digest_hands() -> list[list[int]]:
    """5,000 hands (2,500 of 10 cards, 2,500 clustered of 11), from PCG64 doubles and argsort only."""
    rng = np.random.default_rng(DIGEST_SEED)
    return random_hands(rng, 2_500, 10) + clustered_hands(rng, 2_500, 11)


def deadwood_digest(values: list[int] | np.ndarray) -> str:
    return hashlib.sha256(np.asarray(values, dtype="<i8").tobytes()).hexdigest()


def test_deadwood_digest() -> None:
    hands = digest_hands()
    assert len(hands) == 5_000
    assert deadwood_digest(simgin.deadwood_batch(masks_of(hands))) == DEADWOOD_DIGEST


# --- (6) properties -------------------------------------------------------------------------

hands_st = st.lists(st.integers(0, 51), unique=True, max_size=11)
small_hands_st = st.lists(st.integers(0, 51), unique=True, max_size=10)


@given(hands_st)
def test_r6_deadwood_bounds_and_reference(hand: list[int]) -> None:
    dw = simgin.deadwood(hand)
    assert 0 <= dw <= sum(value(card) for card in hand)
    assert dw == reference.deadwood(hand)


@given(hands_st)
def test_r6_gin_iff_full_arrangement(hand: list[int]) -> None:
    full = any(frozenset().union(*arr) == frozenset(hand) for arr in reference.all_arrangements(hand))
    assert (simgin.deadwood(hand) == 0) == full


@given(hands_st, st.permutations(range(4)), st.randoms(use_true_random=False))
def test_r3_r4_deadwood_ignores_order_and_suit_names(hand: list[int], suits: list[int], rnd) -> None:
    shuffled = list(hand)
    rnd.shuffle(shuffled)
    renamed = [suits[card // 13] * 13 + card % 13 for card in hand]
    dw = simgin.deadwood(hand)
    assert simgin.deadwood(shuffled) == dw
    assert simgin.deadwood(renamed) == dw


@given(small_hands_st, st.integers(0, 51))
def test_r6_adding_a_card_costs_at_most_its_value(hand: list[int], card: int) -> None:
    if card in hand:
        return
    assert simgin.deadwood([*hand, card]) <= simgin.deadwood(hand) + value(card)


@given(st.lists(st.integers(0, 51), unique=True, min_size=1, max_size=11))
def test_r6_discards_agree_and_shed_deadwood(hand: list[int]) -> None:
    left = simgin.discard_deadwoods(hand)
    assert set(left) == set(hand)
    for card, dw in left.items():
        assert dw == simgin.deadwood([c for c in hand if c != card])
    card, best = simgin.best_discard(hand)
    assert best == min(left.values()) and left[card] == best
    assert card == min(c for c, dw in left.items() if dw == best)  # ties go to the lowest card
    dw = simgin.deadwood(hand)
    if dw > 0:  # dropping a loose card of a best arrangement always helps
        assert best < dw


@settings(max_examples=50)
@given(st.lists(st.integers(0, 51), unique=True, min_size=12, max_size=20))
def test_too_many_cards_raise(hand: list[int]) -> None:
    for function in (simgin.deadwood, simgin.best_discard, simgin.discard_deadwoods, simgin.meld_arrangement):
        with pytest.raises(ValueError):
            function(hand)


@settings(max_examples=50)
@given(st.lists(st.integers(0, 51), unique=True, min_size=1, max_size=10), st.data())
def test_repeated_cards_raise(hand: list[int], data: st.DataObject) -> None:
    repeated = [*hand, data.draw(st.sampled_from(hand))]
    for function in (simgin.deadwood, simgin.best_discard, simgin.discard_deadwoods, simgin.meld_arrangement):
        with pytest.raises(ValueError):
            function(repeated)


@pytest.mark.parametrize("bad", [[52], [-1], [0, 64], "AS XS 3S", "AS AS 2S"])
def test_bad_cards_raise(bad: object) -> None:
    with pytest.raises(ValueError):
        simgin.deadwood(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        simgin.meld_arrangement(bad)  # type: ignore[arg-type]


def reference_set_choices(hand: list[int]) -> set[frozenset[int]]:
    """Every way to lay disjoint sets (R3) out of ``hand``, from the reference's meld list: at most
    one set per rank, since two sets of one rank would need six cards of it."""
    by_rank: dict[int, list[frozenset[int]]] = {}
    for meld in reference.all_melds(hand):
        if reference.is_set(meld):
            by_rank.setdefault(next(iter(meld)) % 13, []).append(meld)
    choices = {frozenset()}
    for options in by_rank.values():
        choices = {choice | option for choice in choices for option in [frozenset(), *options]}
    return choices


@settings(deadline=None)  # the first example may compile the kernel
@given(st.lists(st.integers(0, 51), unique=True, max_size=11))
def test_r3_set_choices_are_every_set_layout_once(hand: list[int]) -> None:
    """The meld and showdown kernels search ``set_choices``: it must hold each layout of sets exactly once,
    the empty one first (callers keep the first of equal choices, so the order is part of the contract)."""
    from simgin.kernels.melds import set_choices

    masks = [int(m) for m in set_choices(cards_to_mask(hand))]
    layouts = [frozenset(c for c in range(52) if (m >> c) & 1) for m in masks]
    assert masks[0] == 0
    assert len(set(layouts)) == len(layouts)
    assert set(layouts) == reference_set_choices(hand)


@pytest.mark.parametrize(
    ("text", "count"),
    [("2C 3C 4C 5D 6D", 1), ("7C 7D 7H 9S", 2), ("7C 7D 7H 7S KC KD KH", 12), ("AC AD AH AS 2C 2D 2H 2S 3C 3D 3H", 72)],
)
def test_r3_set_choice_counts(text: str, count: int) -> None:
    """No set rank: one choice; a 3-card rank doubles the choices, a 4-card rank multiplies them by six."""
    from simgin.kernels.melds import set_choices

    assert len(set_choices(cards_to_mask(parse_cards(text)))) == count


def test_bit_index_names_the_rank_of_every_single_bit():
    """``melds._bit_index`` (a lookup by the remainder modulo 37) gives k for 2**k, for every rank and beyond."""
    from simgin.kernels.melds import _bit_index

    assert [_bit_index(np.int64(1) << np.int64(k)) for k in range(36)] == list(range(36))


def test_single_set_is_set_choices_when_the_choices_are_few():
    """``melds.single_set`` stands in for :func:`set_choices` (R3) in the hot kernels when a hand has no rank of three
    (0: only the choice of no set) or exactly one rank of exactly three (that set, listed after no set); for any
    other hand it says -1, and the kernels ask ``set_choices``. Random and clustered hands of 10 and 11 cards."""
    from simgin.kernels.melds import set_choices, single_set

    rng = np.random.default_rng(37)
    seen = {0: 0, "one": 0, -1: 0}
    for trial in range(6_000):
        size = 10 + trial % 2
        pool = (
            rng.permutation(52)
            if trial % 3
            else [13 * s + r for r in rng.choice(13, 4, replace=False) for s in range(4)]
        )
        hand = int(sum(1 << int(c) for c in rng.choice(pool, size, replace=False)))
        only, choices = int(single_set(np.int64(hand))), list(set_choices(np.int64(hand)))
        if only == -1:
            assert len(choices) > 2
            seen[-1] += 1
        elif only == 0:
            assert choices == [0]
            seen[0] += 1
        else:
            assert choices == [0, only] and bin(only).count("1") == 3
            seen["one"] += 1
    assert min(seen.values()) > 200  # every case met

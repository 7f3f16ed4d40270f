"""The simgin side of the OpenSpiel/RLCard comparison (the package benchmarks.compare_engines).

CI installs only ``.[test]``, so these tests drive the cross-validation with stub "other
engines" written here: the exact 11-card reduction over a 10-card function, the card
encodings, the disagreement printer with the rule book's answer, and the RESULTS.md section
writer. The last tests run the real engines when ``pyspiel`` and ``rlcard`` import.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
import reference

import simgin
from benchmarks.compare_engines import common, crossval, others, outcomes, scaling
from simgin.game.cards import format_cards, parse_card, parse_cards

ACE_OF_SPADES = parse_card("AS")


def test_encodings_keep_each_card() -> None:
    # simgin suits C D H S; OpenSpiel's order is s c d h, RLCard's S H D C; ranks are the same.
    assert [crossval.to_openspiel(parse_card(name)) for name in ("AS", "AC", "AD", "AH", "KH")] == [0, 13, 26, 39, 51]
    assert [crossval.to_rlcard(parse_card(name)) for name in ("AS", "AH", "AD", "AC", "KC")] == [0, 13, 26, 39, 51]
    for card in range(52):
        assert crossval.from_openspiel(crossval.to_openspiel(card)) == card
        assert crossval.from_rlcard(crossval.to_rlcard(card)) == card
        assert crossval.to_openspiel(card) % 13 == crossval.to_rlcard(card) % 13 == card % 13
    assert sorted(crossval.to_openspiel(card) for card in range(52)) == list(range(52))
    assert sorted(crossval.to_rlcard(card) for card in range(52)) == list(range(52))


def test_hand_samples_hold_distinct_cards() -> None:
    for hands in (crossval.uniform_hands(500, 11, 1), crossval.dense_hands(500, 11, 1)):
        assert hands.shape == (500, 11)
        assert all(len(set(hand)) == 11 for hand in hands.tolist())
        assert hands.min() >= 0 and hands.max() < 52
    dense = crossval.dense_hands(500, 10, 2)
    spans = [max(card % 13 for card in hand) - min(card % 13 for card in hand) for hand in dense.tolist()]
    assert max(spans) < crossval.DENSE_RANK_WINDOW
    masks = crossval.hand_masks(dense)
    assert [int(mask).bit_count() for mask in masks] == [10] * 500


def test_eleven_card_reduction_is_exact_against_the_rule_book() -> None:
    # The stub "engine" is the brute force itself: min over the 11 discards of its 10-card answer
    # must be simgin's one-search best discard, ties going to the lowest card in both.
    hands = crossval.uniform_hands(300, 11, 7).tolist()
    for hand in hands:
        assert crossval.best_discard_from_ten(hand, reference.deadwood) == simgin.best_discard(hand)


def test_eleven_card_reduction_breaks_ties_towards_the_lowest_card() -> None:
    # AS-5S, three 7s, three kings: throwing AS or 5S both leave gin; the lower card, AS, is chosen.
    hand = parse_cards("AS 2S 3S 4S 5S 7D 7H 7S KC KD KH")
    calls: list[int] = []

    def counting(cards: Sequence[int]) -> int:
        calls.append(len(cards))
        return simgin.deadwood(cards)

    card, left = crossval.best_discard_from_ten(hand, counting)
    assert calls == [10] * 11
    assert (card, left) == simgin.best_discard(hand) == (ACE_OF_SPADES, 0)
    assert simgin.discard_deadwoods(hand)[parse_card("5S")] == 0


def _stub(name: str, bug: bool) -> crossval.EngineAdapter:
    """An "engine" on simgin cards: simgin's deadwood, one point low whenever it holds the AS if ``bug``."""

    def ten_card_deadwood(cards: Sequence[int]) -> int:
        return simgin.deadwood(cards) - (1 if bug and ACE_OF_SPADES in cards else 0)

    return crossval.EngineAdapter(name=name, version="0", ten_card_deadwood=ten_card_deadwood)


def test_cross_validation_of_an_exact_engine_finds_nothing() -> None:
    printed: list[str] = []
    results = crossval.cross_validate([_stub("Exact", bug=False)], 300, 100, seed=3, echo=printed.append)
    assert [(r.check, r.sample) for r in results] == [
        (crossval.CHECK_TEN, "uniform"),
        (crossval.CHECK_ELEVEN, "uniform"),
        (crossval.CHECK_TEN, "dense"),
        (crossval.CHECK_ELEVEN, "dense"),
    ]
    assert all(not r.disagreements for r in results)
    assert not any(line.startswith("DISAGREEMENT") for line in printed)


def test_cross_validation_prints_every_disagreement_with_the_rule_book() -> None:
    printed: list[str] = []
    results = crossval.cross_validate([_stub("Buggy", bug=True)], 300, 100, seed=3, echo=printed.append)
    ten = results[0]
    holding = [hand for hand in crossval.uniform_hands(300, 10, 3).tolist() if ACE_OF_SPADES in hand]
    assert holding and [list(found.hand) for found in ten.disagreements] == holding
    blocks = [line for line in printed if line.startswith("DISAGREEMENT")]
    assert len(blocks) == sum(len(r.disagreements) for r in results)
    for result in results:
        for found in result.disagreements:
            assert found.engine_wrong and not found.simgin_wrong
            text = crossval.format_disagreement(found)
            assert f"hand: {format_cards(list(found.hand))}" in text
            assert f"rule book (brute force, tests/reference.py): {crossval.describe_answer(found.rule_book)}" in text
            assert "verdict: Buggy disagrees with the rule book" in text
            assert text in printed
    table = crossval.markdown(results)
    assert f"| Buggy | {crossval.CHECK_TEN} | uniform | 300 | {len(holding)} | {len(holding)} | 0 |" in table


def test_disagreement_printer_on_a_known_hand() -> None:
    # Two best meld groups of equal value: sets 5-7-T leave 6D 6H (throw a 6: deadwood 6),
    # the two 5-6-7 runs and the tens leave 5C 7C (throw 7C: deadwood 5). The rule book says 5.
    hand = parse_cards("TH 7C 5C 5D 6D 7D TD 5H TC 7H 6H")
    assert crossval.rule_book_eleven_deadwood(hand) == simgin.best_discard(hand)[1] == 5
    found = crossval.Disagreement(
        "Stub", "11-card check", "dense", 0, tuple(hand), 5, 6, 5, "", crossval.rule_book_detail(hand)
    )
    text = crossval.format_disagreement(found)
    assert "hand: TH 7C 5C 5D 6D 7D TD 5H TC 7H 6H" in text
    assert "simgin: deadwood 5; Stub: deadwood 6" in text
    assert "rule book (brute force, tests/reference.py): deadwood 5; e.g. discard 7C:" in text
    assert "[TC TD TH] [5D 6D 7D] [5H 6H 7H] | 5C (5)" in text  # melds in card order (clubs first)
    assert "verdict: Stub disagrees with the rule book" in text
    assert not found.changes_knock  # 5 and 6 are both within the knock limit


def test_going_out_answers() -> None:
    gin = parse_cards("AS 2S 3S 7C 7D 7H TD JD QD KD 5H")
    assert crossval.going_out_of(simgin.discard_deadwoods(gin)) == crossval.GoingOut(True)
    knock = parse_cards("AS 2S 3S 7C 7D 7H TD JD QD 4H 9C")
    answer = crossval.going_out_of(simgin.discard_deadwoods(knock))
    assert answer == crossval.rule_book_going_out(knock)
    assert answer == crossval.GoingOut(False, tuple(sorted(parse_cards("9C 4H"))))
    assert crossval.describe_answer(answer) == "knock after discarding any of 9C 4H"


def test_linear_fit_recovers_the_cost_line() -> None:
    rows = [{"workers": 1, "hands": n, "seconds": 0.8 + n / 100_000} for n in (10_000, 100_000, 1_000_000)]
    fixed, rate, worst = scaling.linear_fit(rows, 1)
    assert fixed == pytest.approx(0.8) and rate == pytest.approx(100_000) and worst < 1e-9


def test_simgin_outcome_tally_adds_up() -> None:
    tally = others.simgin_tally(common.OPENSPIEL_CLOSEST, 400, seed=5)
    assert tally.hands == sum(tally.kinds.values()) == 400
    assert tally.ties == tally.ties_scored_zero  # no undercut on a tie under OpenSpiel's rules
    merged = tally.merge(others.OutcomeTally(**vars(tally)))
    assert merged.hands == 800 and merged.kinds["knock"] == 2 * tally.kinds["knock"]
    rule_book = others.simgin_tally(simgin.Rules(), 400, seed=5)
    assert rule_book.ties_scored_zero == 0  # a tie is an undercut (R18), which scores the bonus


def test_real_engines_agree_on_a_few_hundred_hands() -> None:
    pytest.importorskip("pyspiel")
    pytest.importorskip("rlcard")
    adapters, missing = crossval.available_adapters()
    assert not missing
    for adapter in adapters:
        assert crossval.check_encoding(adapter) == []
    results = crossval.cross_validate(adapters, 300, 100, seed=11, echo=lambda line: None)
    for result in results:
        assert result.simgin_wrong == 0
        if result.check in (crossval.CHECK_TEN, crossval.CHECK_ELEVEN):
            assert not result.disagreements, crossval.format_disagreement(result.disagreements[0])


def test_openspiel_scores_a_tie_zero_and_allows_throwing_back_the_up_card() -> None:
    pytest.importorskip("pyspiel")
    tie = outcomes.openspiel_scripted_tie()
    assert tie.rediscard_legal
    assert tie.deadwood == (5, 5) and tie.returns == (0.0, 0.0)
    assert tie.rule_book == "undercut, defender scores 10"
    assert tie.without_tie_rule == "knock, knocker scores 0"


def test_random_samples_do_not_depend_on_numpy_global_state() -> None:
    np.random.seed(0)
    first = crossval.uniform_hands(5, 10, 9)
    np.random.seed(1)
    assert (crossval.uniform_hands(5, 10, 9) == first).all()

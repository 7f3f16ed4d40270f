"""Hand-checked tests of the brute-force reference itself, so the differential tests can trust it."""

from __future__ import annotations

import pytest
from reference import (
    all_arrangements,
    all_melds,
    best_discard_deadwoods,
    deadwood,
    defender_deadwood_after_layoffs,
    is_meld,
    is_valid_layoff,
    min_arrangements,
    showdown,
)

from simgin.game.cards import parse_cards


def cards(text: str) -> list[int]:
    return parse_cards(text)


def meld_set(text: str) -> set[frozenset[int]]:
    return {frozenset(cards(part)) for part in text.split("|")}


def test_r3_four_of_a_kind_gives_four_threes_and_one_four() -> None:
    assert set(all_melds(cards("7C 7D 7H 7S"))) == meld_set("7C 7D 7H|7C 7D 7S|7C 7H 7S|7D 7H 7S|7C 7D 7H 7S")


def test_r4_runs_of_every_length_ace_low() -> None:
    assert set(all_melds(cards("AS 2S 3S 4S"))) == meld_set("AS 2S 3S|2S 3S 4S|AS 2S 3S 4S")


@pytest.mark.parametrize("text", ["QS KS AS", "KS AS 2S", "QH KH AH 2H", "AS 2D 3S", "7C 8C TC"])
def test_r4_no_wrap_and_no_gaps(text: str) -> None:
    assert all_melds(cards(text)) == []


def test_r4_jqk_is_a_run() -> None:
    assert all_melds(cards("JS QS KS AS")) == [frozenset(cards("JS QS KS"))]


def test_r5_arrangements_are_disjoint() -> None:
    # Melds: set 7C7D7H, runs 5-6-7H, 6-7-8H, 5-6-7-8H; all share 7H, so no two fit together:
    # the arrangements are the empty one and the four single melds.
    hand = cards("7C 7D 7H 5H 6H 8H")
    arrangements = all_arrangements(hand)
    assert len(arrangements) == 5
    assert () in arrangements
    # Set: 5H 6H 8H left = 19; long run: 7C 7D left = 14.
    assert deadwood(hand) == 14


def test_r5_six_card_run_arrangements() -> None:
    # Runs in A..6 of spades: 4 from the ace, 3 from the 2, 2 from the 3, 1 from the 4 = 10 melds;
    # the only disjoint pair is A23 + 456; plus the empty arrangement: 12.
    hand = cards("AS 2S 3S 4S 5S 6S")
    assert len(all_melds(hand)) == 10
    assert len(all_arrangements(hand)) == 12
    assert deadwood(hand) == 0
    assert len(min_arrangements(hand)) == 2  # the whole run, or A23 + 456


def test_r6_deadwood_examples() -> None:
    assert deadwood(cards("AS 2S 3S 7C 7D 7H TD JD QD KH")) == 10  # KH left
    assert deadwood(cards("QS KS AS")) == 21
    assert deadwood([]) == 0
    # 7-7-7 with 5-6-7-8-9H: 7H in the run 5H-9H leaves 7C 7D (14); in the set it leaves
    # 5H 6H and 8H 9H, no run without 7H (28). Best 14.
    assert deadwood(cards("7C 7D 7H 5H 6H 8H 9H")) == 14


def test_best_discard_deadwoods() -> None:
    # Melds AS2S3S, 7C7D7H, TD JD QD; KH KC loose. Dropping a K leaves the other (10).
    # AS: 2S 3S + KH KC = 25; 2S: 4 + 20 = 24; 3S: 3 + 20 = 23; a 7: 14 + 20 = 34;
    # a diamond: two tens + 20 = 40.
    got = best_discard_deadwoods(cards("AS 2S 3S 7C 7D 7H TD JD QD KH KC"))
    expected = dict(
        zip(cards("AS 2S 3S 7C 7D 7H TD JD QD KH KC"), [25, 24, 23, 34, 34, 34, 40, 40, 40, 10, 10], strict=True)
    )
    assert got == expected


def test_r14_layoff_validity() -> None:
    run = frozenset(cards("5H 6H 7H"))
    three = frozenset(cards("KC KD KS"))
    four = frozenset(cards("9C 9D 9H 9S"))
    top = frozenset(cards("JS QS KS"))
    assert is_valid_layoff(cards("8H"), (run,))
    assert is_valid_layoff(cards("8H 9H"), (run,))  # chain upward
    assert is_valid_layoff(cards("4H 3H 8H"), (run,))  # chain downward and both ends
    assert not is_valid_layoff(cards("9H"), (run,))  # gap at 8H
    assert not is_valid_layoff(cards("8S"), (run,))  # wrong suit
    assert is_valid_layoff(cards("KH"), (three,))
    assert not is_valid_layoff(cards("KH"), (four, run))
    assert not is_valid_layoff(cards("AS"), (top,))  # no wrap past the king (R4)
    assert is_valid_layoff(cards("TS"), (top,))
    assert is_meld(run) and is_meld(four) and not is_meld(frozenset(cards("QS KS AS")))


def test_r14_layoff_beats_own_meld() -> None:
    # Knocker shows 5-6-7H. Defender 8C 8D 8H 8S 9H: keeping the four 8s leaves 9H (9) which
    # cannot go on 5-6-7H without 8H; laying off 8H and 9H and keeping 8C 8D 8S leaves 0.
    left, laid = defender_deadwood_after_layoffs(cards("8C 8D 8H 8S 9H"), (frozenset(cards("5H 6H 7H")),))
    assert left == 0
    assert laid == frozenset(cards("8H 9H"))


def test_r17_plain_knock_with_layoff() -> None:
    # Knocker: AS2S3S, 7C7D7H, 9D TD JD, 2C loose: kd = 2. Defender: KC KD KH set, 4S 5S laid off
    # on A-2-3S, left 8C 8H 9S QH QS = 8+8+9+10+10 = 45. Knocker wins 45 - 2 = 43.
    result = showdown(cards("AS 2S 3S 7C 7D 7H 9D TD JD 2C"), cards("4S 5S KC KD KH 8C 8H 9S QH QS"))
    assert result["winner"] == "knocker"
    assert result["kind"] == "knock"
    assert (result["knocker_deadwood"], result["defender_deadwood"], result["points"]) == (2, 45, 43)
    assert result["layoff"] == frozenset(cards("4S 5S"))


def test_r19_gin_has_no_layoff() -> None:
    # Gin: defender keeps KC KD KH; 4S 5S may not be laid off: 4+5+8+8+9+10+10 = 54; 20 + 54 = 74.
    result = showdown(cards("AS 2S 3S 7C 7D 7H 9D TD JD QD"), cards("4S 5S KC KD KH 8C 8H 9S QH QS"))
    assert (result["kind"], result["winner"]) == ("gin", "knocker")
    assert (result["defender_deadwood"], result["points"]) == (54, 74)


def test_r18_undercut_and_tie() -> None:
    # Knocker kd = 9 (9C loose). Defender melds 4C5C6C, 8S8H8D, KC KD KH; AH loose: dd = 1.
    # Undercut: 9 - 1 + 10 = 18.
    result = showdown(cards("AS 2S 3S 7C 7D 7H 9D TD JD 9C"), cards("4C 5C 6C 8S 8H 8D KC KD KH AH"))
    assert (result["winner"], result["kind"], result["points"]) == ("defender", "undercut", 18)
    # Knocker 2C loose (kd 2); defender 2D loose (dd 2): a tie is an undercut worth 10, or 0 to the knocker.
    knocker, defender = cards("AS 2S 3S 7C 7D 7H 9D TD JD 2C"), cards("4C 5C 6C 8S 8H 8D KC KD KH 2D")
    assert showdown(knocker, defender)["points"] == 10
    assert showdown(knocker, defender)["winner"] == "defender"
    tie = showdown(knocker, defender, undercut_on_tie=False)
    assert (tie["winner"], tie["kind"], tie["points"]) == ("knocker", "knock", 0)


def test_r14_knocker_shows_the_arrangement_saving_least() -> None:
    # Knocker 3C 3D 3H 2H 4H + 9C-KC: showing set 3C3D3H leaves 2H 4H (6); showing run 2-3-4H leaves
    # 3C 3D (6). Defender (no melds, 70 points) could lay off 3S on the set (saves 3) or 5H 6H on the run
    # (saves 11). The knocker shows the set: dd = 67, points 67 - 6 = 61.
    knocker = cards("3C 3D 3H 2H 4H 9C TC JC QC KC")
    defender = cards("3S 5H 6H KD QS JD 9D 8S 2D 7S")
    assert deadwood(defender) == 70
    assert len(min_arrangements(knocker)) == 2
    result = showdown(knocker, defender)
    assert (result["knocker_deadwood"], result["defender_deadwood"], result["points"]) == (6, 67, 61)
    assert result["layoff"] == frozenset(cards("3S"))


def test_v13_big_gin_and_multiplier() -> None:
    # 11 melded cards with big gin: 31 + defender's 54, doubled.
    result = showdown(
        cards("AS 2S 3S 7C 7D 7H 9D TD JD QD KD"), cards("4S 5S KC KH KS 8C 8H 9S QH QS"), big_gin=True, multiplier=2
    )
    assert (result["kind"], result["points"]) == ("big_gin", 2 * (31 + 54))
    with pytest.raises(ValueError):
        showdown(cards("AS 2S 3S 7C 7D 7H 9D TD JD QD KD"), cards("4S 5S KC KH KS 8C 8H 9S QH QS"))

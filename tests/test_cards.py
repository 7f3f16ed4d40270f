"""Card encoding, parsing and formatting (R1, R2): ``card = suit * 13 + rank``, rank 0 = ace, suits C D H S."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

import simgin
from simgin.game.cards import CARD_VALUES, card_value


def test_r1_parse_documented_example() -> None:
    # AS = 3*13+0, 2S = 3*13+1, TH = 2*13+9, TD = 13+9, QC = 11.
    assert simgin.parse_cards("AS 2s 10h TD qc") == [39, 40, 35, 22, 11]


def test_r1_format_documented_example() -> None:
    assert simgin.format_cards([39, 40, 35, 22, 11]) == "AS 2S TH TD QC"


def test_r1_every_card_has_a_unique_two_letter_name() -> None:
    names = simgin.format_cards(range(52)).split()
    assert len(set(names)) == 52
    assert names[0] == "AC" and names[12] == "KC" and names[13] == "AD" and names[51] == "KS"


@pytest.mark.parametrize(
    "text",
    ["7c 7d 7h", "7C,7D,7H", "7C, 7D ,7H", "  7c\t7D\n7h  ", "7c,,7d  7h"],
)
def test_separators_and_case(text: str) -> None:
    assert simgin.parse_cards(text) == [6, 19, 32]


@pytest.mark.parametrize("text", ["10s", "TS", "ts", "10S", "tS"])
def test_ten_as_10_or_t(text: str) -> None:
    assert simgin.parse_cards(text) == [48]


def test_empty_string_is_no_cards() -> None:
    assert simgin.parse_cards("") == []
    assert simgin.format_cards([]) == ""


@pytest.mark.parametrize("bad", ["XS", "1S", "11H", "AX", "A", "QSS", "10", "0C"])
def test_bad_token_is_named(bad: str) -> None:
    with pytest.raises(ValueError, match=bad):
        simgin.parse_cards(f"AS {bad} KD")


def test_repeated_card_is_named() -> None:
    with pytest.raises(ValueError, match="repeated") as info:
        simgin.parse_cards("AS 7h KD 7H")
    assert "7H" in str(info.value).upper()


def test_repeated_card_spelled_differently() -> None:
    with pytest.raises(ValueError, match="repeated"):
        simgin.parse_cards("10h th")


@pytest.mark.parametrize("bad", [52, -1, 64])
def test_format_rejects_non_cards(bad: object) -> None:
    with pytest.raises(ValueError):
        simgin.format_cards([bad])  # type: ignore[list-item]


def test_r2_card_values() -> None:
    # Ace 1, 2-9 face value, T J Q K 10, the same in every suit.
    assert [card_value(card) for card in range(13)] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    assert list(CARD_VALUES) == [min(card % 13 + 1, 10) for card in range(52)]
    assert not CARD_VALUES.flags.writeable


hands = st.lists(st.integers(0, 51), unique=True, max_size=52)


@given(hands)
def test_round_trip_format_then_parse(cards: list[int]) -> None:
    assert simgin.parse_cards(simgin.format_cards(cards)) == cards


@given(hands, st.data())
def test_round_trip_any_spelling(cards: list[int], data: st.DataObject) -> None:
    # Each card spelled with random case, T or 10, joined by random separators, still parses back.
    tokens = []
    for name in simgin.format_cards(cards).split():
        if name[0] == "T" and data.draw(st.booleans()):
            name = "10" + name[1]
        tokens.append("".join(ch.lower() if data.draw(st.booleans()) else ch for ch in name))
    separators = [data.draw(st.sampled_from([" ", ",", ", ", "\t", "  ,"])) for _ in tokens]
    text = "".join(sep + token for sep, token in zip(separators, tokens, strict=True))
    assert simgin.parse_cards(text) == cards

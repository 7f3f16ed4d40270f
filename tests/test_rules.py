"""simgin.Rules: the rule switches, presets, validation and per-hand Oklahoma values (R12-R23, V1-V14)."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

import simgin
from simgin import Rules
from simgin.game.cards import parse_card

PRESET_NAMES = ("standard", "oklahoma", "eaai", "modern", "straight", "hollywood")


def test_r12_r18_r19_r20_r21_r22_defaults_are_the_rule_book() -> None:
    rules = Rules()
    assert rules.knock_limit == 10  # R12
    assert rules.gin_bonus == 20  # R19
    assert rules.undercut_bonus == 10  # R18
    assert rules.undercut_on_tie is True  # R18: equal counts are an undercut
    assert rules.target == 100  # R20
    assert rules.game_bonus == 100  # R21
    assert rules.shutout == "bonus" and rules.shutout_bonus == 200  # R21
    assert rules.box_bonus == 20  # R22
    # No variant is on by default.
    assert not any(
        [
            rules.big_gin,
            rules.oklahoma,
            rules.hollywood,
            rules.eleven_card_start,
            rules.rediscard_taken_card,
            rules.fiftieth_card_action,
        ]
    )


def test_standard_preset_equals_defaults() -> None:
    assert Rules.preset("standard") == Rules()


def test_eaai_preset() -> None:
    rules = Rules.preset("eaai")
    assert rules.gin_bonus == 25  # V2
    assert rules.undercut_bonus == 25  # V3
    assert rules.undercut_on_tie is True  # R18
    assert rules.knock_limit == 10
    assert rules.target == 100
    assert rules.box_bonus == 0
    assert rules.game_bonus == 0
    # No shutout bonus: either no shutout rule, or a shutout "bonus" of nothing.
    assert rules.shutout == "none" or (rules.shutout == "bonus" and rules.shutout_bonus == 0)
    assert rules.dealer_rotation == "alternate"  # V10
    assert rules.big_gin is False  # V13
    assert rules.rediscard_taken_card is False  # V6


def test_modern_preset() -> None:
    rules = Rules.preset("modern")
    assert (rules.gin_bonus, rules.undercut_bonus, rules.box_bonus) == (25, 25, 25)  # V2, V3, V4
    assert rules.big_gin is True and rules.big_gin_bonus == 31  # V13
    assert rules.shutout == "double"  # V8


def test_v1_straight_preset() -> None:
    assert Rules.preset("straight").knock_limit == 0
    assert dataclasses.replace(Rules.preset("straight"), knock_limit=10) == Rules()


def test_v9_oklahoma_preset() -> None:
    rules = Rules.preset("oklahoma")
    assert rules.oklahoma is True
    assert rules.target == 150


def test_v14_hollywood_preset() -> None:
    rules = Rules.preset("hollywood")
    assert rules.hollywood is True
    assert dataclasses.replace(rules, hollywood=False) == Rules()


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_presets_are_rules_and_distinct(name: str) -> None:
    rules = Rules.preset(name)
    assert isinstance(rules, Rules)
    others = [Rules.preset(other) for other in PRESET_NAMES if other != name]
    assert rules not in others


def test_unknown_preset_lists_the_presets() -> None:
    with pytest.raises(ValueError, match="klondike") as info:
        Rules.preset("klondike")
    for name in PRESET_NAMES:
        assert name in str(info.value)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("knock_limit", 11),  # V1: 0-10
        ("knock_limit", -1),
        ("gin_bonus", -5),
        ("undercut_bonus", -1),
        ("box_bonus", 2.5),
        ("target", 0),
        ("big_gin_bonus", "31"),
        ("undercut_on_tie", "yes"),
        ("big_gin", 1),
        ("oklahoma", None),
        ("dealer_rotation", "random"),
        ("shutout", "triple"),
    ],
)
def test_invalid_value_names_the_field(field: str, value: object) -> None:
    with pytest.raises(ValueError, match=re.escape(field)):
        Rules(**{field: value})


def test_v5_v9_oklahoma_needs_an_up_card() -> None:
    with pytest.raises(ValueError, match="eleven_card_start"):
        Rules(oklahoma=True, eleven_card_start=True)


def test_replace_works_and_validates() -> None:
    rules = dataclasses.replace(Rules(), gin_bonus=25)
    assert rules.gin_bonus == 25 and rules.undercut_bonus == 10
    with pytest.raises(ValueError, match="knock_limit"):
        dataclasses.replace(Rules(), knock_limit=12)


def test_rules_are_frozen_and_hashable() -> None:
    rules = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.knock_limit = 5  # type: ignore[misc]
    assert hash(rules) == hash(Rules())


def test_with_settings_converts_strings() -> None:
    rules = Rules().with_settings(
        {"knock_limit": "7", "big_gin": "true", "undercut_on_tie": "off", "dealer_rotation": "winner", "gin_bonus": 25}
    )
    assert rules.knock_limit == 7
    assert rules.big_gin is True
    assert rules.undercut_on_tie is False
    assert rules.dealer_rotation == "winner"
    assert rules.gin_bonus == 25
    assert Rules().with_settings({}) == Rules()


def test_with_settings_rejects_unknown_keys_and_bad_strings() -> None:
    with pytest.raises(ValueError, match="knock_limt"):
        Rules().with_settings({"knock_limt": "7"})
    with pytest.raises(ValueError, match="big_gin"):
        Rules().with_settings({"big_gin": "maybe"})
    with pytest.raises(ValueError, match="knock_limit"):
        Rules().with_settings({"knock_limit": "seven"})
    with pytest.raises(ValueError, match="knock_limit"):
        Rules().with_settings({"knock_limit": "11"})


def test_every_field_cites_a_rule_id() -> None:
    rows = Rules.describe()
    assert {row["name"] for row in rows} == {f.name for f in dataclasses.fields(Rules)}
    for row in rows:
        assert re.search(r"\b[RV]\d+\b", row["doc"]), row["name"]


def test_to_dict_round_trips() -> None:
    rules = Rules.preset("modern")
    assert Rules(**rules.to_dict()) == rules


@pytest.mark.parametrize(
    ("up", "limit", "multiplier"),
    [
        ("3H", 3, 1),  # V9: the up card's value is the knock limit
        ("7C", 7, 1),
        ("TD", 10, 1),
        ("KH", 10, 1),  # face cards count 10
        ("AD", 1, 1),
        ("3S", 3, 2),  # a spade doubles the hand
        ("QS", 10, 2),
        ("AS", 1, 2),
    ],
)
def test_v9_oklahoma_hand_limit_and_multiplier(up: str, limit: int, multiplier: int) -> None:
    rules = Rules.preset("oklahoma")
    card = parse_card(up)
    assert rules.hand_knock_limit(card) == limit
    assert rules.hand_multiplier(card) == multiplier


def test_v9_oklahoma_ace_gin_only() -> None:
    rules = dataclasses.replace(Rules.preset("oklahoma"), oklahoma_ace_gin_only=True)
    assert rules.hand_knock_limit(parse_card("AH")) == 0
    assert rules.hand_knock_limit(parse_card("2H")) == 2


def test_v9_spade_doubling_can_be_switched_off() -> None:
    rules = dataclasses.replace(Rules.preset("oklahoma"), oklahoma_spade_double=False)
    assert rules.hand_multiplier(parse_card("5S")) == 1


def test_v9_oklahoma_without_up_card_is_an_error() -> None:
    with pytest.raises(ValueError, match="up card"):
        Rules.preset("oklahoma").hand_knock_limit(None)


def test_r12_v1_without_oklahoma_the_up_card_does_not_matter() -> None:
    rules = dataclasses.replace(Rules(), knock_limit=7)
    for up in (None, parse_card("3S"), parse_card("KH")):
        assert rules.hand_knock_limit(up) == 7
        assert rules.hand_multiplier(up) == 1


def test_rules_is_exported() -> None:
    assert simgin.Rules is Rules


@pytest.mark.parametrize("field", ["gin_bonus", "undercut_bonus", "box_bonus", "target", "team_target"])
def test_points_switches_are_bounded(field: str) -> None:
    """A points switch above MAX_POINTS is refused by name (a 64-bit total once overflowed silently)."""
    from simgin.game.rules import MAX_POINTS

    assert getattr(Rules(**{field: MAX_POINTS}), field) == MAX_POINTS
    with pytest.raises(ValueError, match=rf"rules\.{field}=9223372036854775807: must be at most 10,000"):
        Rules().with_settings({field: "9223372036854775807"})
    with pytest.raises(ValueError, match=rf"rules\.{field}={MAX_POINTS + 1}"):
        Rules(**{field: MAX_POINTS + 1})


@pytest.mark.parametrize("shutout", ["bonus", "double"])
def test_largest_points_switches_score_without_overflow(shutout: str) -> None:
    """R19-R22 at MAX_POINTS, with doubling (V8, V9): every game ends with sane, positive totals."""
    from simgin.game.rules import MAX_POINTS
    from simgin.running.engine import play_games

    big = dict.fromkeys(("gin_bonus", "undercut_bonus", "box_bonus", "game_bonus", "shutout_bonus"), MAX_POINTS)
    rules = Rules.preset("oklahoma").with_settings(big | {"shutout": shutout, "oklahoma_extra_boxes": True})
    games, hands = play_games(["simple", "simple"], rules, game_count=5, seed=3)
    assert (hands["points"] >= 0).all()
    winners = games["winner"].to_numpy()
    totals = games[["total_0", "total_1"]].to_numpy()
    assert (totals >= 0).all() and totals.max() < 2**40
    # The game winner has the larger total, and a total includes the game bonus (R21).
    assert (totals[np.arange(len(games)), winners] > totals[np.arange(len(games)), 1 - winners]).all()
    assert (totals.max(axis=1) >= MAX_POINTS).all()


def _hand_packed(rules: Rules) -> np.ndarray:
    """The array as ``Rules.to_array`` packed it slot by slot before the slots were declared once (the reference)."""
    from simgin.game.rules import DEALER_ROTATIONS, SHUTOUT_RULES

    return np.array(
        [
            rules.knock_limit,
            rules.gin_bonus,
            rules.undercut_bonus,
            rules.undercut_on_tie,
            rules.box_bonus,
            rules.game_bonus,
            SHUTOUT_RULES.index(rules.shutout),
            rules.shutout_bonus,
            rules.target,
            rules.rediscard_taken_card,
            rules.fiftieth_card_action,
            rules.eleven_card_start,
            DEALER_ROTATIONS.index(rules.dealer_rotation),
            rules.big_gin,
            rules.big_gin_bonus,
            rules.oklahoma,
            rules.oklahoma_spade_double,
            rules.oklahoma_ace_gin_only,
            rules.oklahoma_extra_boxes,
            rules.hollywood,
        ],
        dtype=np.int64,
    )


#: The index constants as the kernels read them before they were derived from ``rule_index.SLOTS``.
_HAND_INDEX = {
    "KNOCK_LIMIT": 0,
    "GIN_BONUS": 1,
    "UNDERCUT_BONUS": 2,
    "UNDERCUT_ON_TIE": 3,
    "BOX_BONUS": 4,
    "GAME_BONUS": 5,
    "SHUTOUT": 6,
    "SHUTOUT_BONUS": 7,
    "TARGET": 8,
    "REDISCARD": 9,
    "FIFTIETH": 10,
    "ELEVEN_START": 11,
    "DEALER_ROTATION": 12,
    "BIG_GIN": 13,
    "BIG_GIN_BONUS": 14,
    "OKLAHOMA": 15,
    "OK_SPADE_DOUBLE": 16,
    "OK_ACE_GIN_ONLY": 17,
    "OK_EXTRA_BOXES": 18,
    "HOLLYWOOD": 19,
    "RULE_COUNT": 20,
}


def _random_rules(rng: np.random.Generator) -> Rules:
    values = {}
    for f in dataclasses.fields(Rules):
        if f.type == "bool":
            values[f.name] = bool(rng.integers(2))
        elif f.type == "int":
            values[f.name] = int(rng.integers(0, 11)) if f.name == "knock_limit" else int(rng.integers(1, 500))
        else:
            choices = f.metadata["choices"]
            values[f.name] = choices[int(rng.integers(len(choices)))]
    if values["oklahoma"]:
        values["eleven_card_start"] = False
    return Rules(**values)


def test_the_kernel_array_is_packed_as_before() -> None:
    """``to_array`` derived from ``rule_index.SLOTS`` gives the bytes of the old hand-packed array."""
    rng = np.random.default_rng(26)
    samples = [Rules.preset(name) for name in Rules.PRESETS] + [_random_rules(rng) for _ in range(200)]
    for rules in samples:
        packed = rules.to_array()
        assert packed.dtype == np.int64
        assert packed.tobytes() == _hand_packed(rules).tobytes(), rules


def test_the_rule_index_constants_are_plain_ints_at_their_old_positions() -> None:
    from simgin.kernels import rule_index as ri

    for name, index in _HAND_INDEX.items():
        assert type(getattr(ri, name)) is int, name
        assert getattr(ri, name) == index, name
    assert [constant for constant, _ in ri.SLOTS] == [name for name in _HAND_INDEX if name != "RULE_COUNT"]


def test_every_rules_field_has_a_slot_or_a_reason() -> None:
    """A new switch must be packed (in field order, at the end) or say why the kernels do not need it."""
    from simgin.kernels import rule_index as ri

    slotted = [field for _, field in ri.SLOTS]
    names = [f.name for f in dataclasses.fields(Rules)]
    assert sorted(slotted + list(ri.NOT_PACKED)) == sorted(names)
    assert slotted == [name for name in names if name not in ri.NOT_PACKED]
    assert all(ri.NOT_PACKED.values())


def test_v12_team_target_reaches_the_partnership_kernel_through_the_target_slot() -> None:
    """team_target has no slot: the partnership table plays to it, and a two-player game does not see it."""
    from simgin.running.engine import play_table_rows

    seeds = np.arange(1, 4, dtype=np.uint64)
    players = ("simple", "greedy", "simple", "greedy")
    low = play_table_rows("teams", players, Rules(team_target=10), seeds)
    high = play_table_rows("teams", players, Rules(team_target=300), seeds)
    assert low[3].sum() < high[3].sum()
    assert (Rules(team_target=10).to_array() == Rules().to_array()).all()

"""The commands that show rather than run (deadwood, showdown, rules, strategies, replay) as functions (issue 26):
each function's ``to_json()`` is the command's ``--json`` object, and its result says what it claims."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

import simgin
from simgin.cli.main import main
from simgin.game.rules import Rules
from simgin.kernels.bots import BOT_NAMES
from simgin.running.engine import play_hand_rows


def command_json(*args: str) -> Any:
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    ("command", "call"),
    [
        (
            ["deadwood", "AS 2S 3S 7C 7D 7H TD JD QD KH KC"],
            lambda: simgin.describe_deadwood("AS 2S 3S 7C 7D 7H TD JD QD KH KC"),
        ),
        (["deadwood", "QS KS AS"], lambda: simgin.describe_deadwood([11 + 39, 12 + 39, 39])),
        (
            ["showdown", "--knocker", "AS 2S 3S 7C 7D 7H TD JD QD KH", "--defender", "4S 5S 8C 8D 9H 9S KC KD 2C 3D"],
            lambda: simgin.describe_showdown("AS 2S 3S 7C 7D 7H TD JD QD KH", "4S 5S 8C 8D 9H 9S KC KD 2C 3D"),
        ),
        (
            [
                "showdown",
                "--knocker",
                "AS 2S 3S 7C 7D 7H TD JD QD 4C",
                "--defender",
                "4S 6S 8C 8D 9H 9S KC KH 2C 3D",
                "--rules",
                "oklahoma",
                "--up-card",
                "5S",
                "--set",
                "gin_bonus=30",
            ],
            lambda: simgin.describe_showdown(
                "AS 2S 3S 7C 7D 7H TD JD QD 4C",
                "4S 6S 8C 8D 9H 9S KC KH 2C 3D",
                Rules.preset("oklahoma").with_settings({"gin_bonus": 30}),
                up_card="5S",
            ),
        ),
        (["rules"], lambda: simgin.describe_rules()),
        (["rules", "eaai"], lambda: simgin.describe_rules("eaai")),
        (
            ["rules", "oklahoma", "--set", "knock_limit=5", "--set", "big_gin=true", "--table", "teams"],
            lambda: simgin.describe_rules("oklahoma", settings=["knock_limit=5", "big_gin=true"], table="teams"),
        ),
        (["rules", "--table", "three"], lambda: simgin.describe_rules(table="three")),
        (["strategies"], lambda: simgin.describe_strategies()),
        (
            ["strategies", "heuristic:knock=7,safety=0.5"],
            lambda: simgin.describe_strategies("heuristic:knock=7,safety=0.5"),
        ),
        (
            ["strategies", "opponent", "--rules", "straight"],
            lambda: simgin.describe_strategies("opponent", rules="straight"),
        ),
        (
            ["strategies", "mcts", "--rules", "oklahoma", "--set", "gin_bonus=30"],
            lambda: simgin.describe_strategies("mcts", rules=Rules.preset("oklahoma").with_settings({"gin_bonus": 30})),
        ),
        (
            ["replay", "simple", "random", "--seed", "7", "--hand", "3"],
            lambda: simgin.replay("simple", "random", seed=7, hand=3),
        ),
        (
            [
                "replay",
                "greedy",
                "simple",
                "--hand-seed",
                "12345",
                "--dealer",
                "1",
                "--scores",
                "35,80",
                "--rules",
                "eaai",
            ],
            lambda: simgin.replay("greedy", "simple", hand_seed=12345, dealer=1, scores=(35, 80), rules="eaai"),
        ),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else "",
)
def test_the_function_gives_the_commands_json(command, call) -> None:
    result = call()
    assert result.to_json() == command_json(*command)
    assert len(result.to_frame()) > 0


def test_deadwood_frame_adds_up_and_the_discard_is_the_best() -> None:
    hand = simgin.describe_deadwood("AS 2S 3S 7C 7D 7H TD JD QD KH KC")
    frame = hand.to_frame()
    assert frame.loc[frame["group"] == "deadwood", "points"].item() == hand.deadwood == simgin.deadwood(hand.cards)
    card, left = hand.best_discard
    assert left == min(simgin.discard_deadwoods(hand.cards).values()) == simgin.discard_deadwoods(hand.cards)[card]
    assert sorted([*[c for meld in hand.melds for c in meld], *hand.deadwood_cards]) == sorted(hand.cards)
    assert simgin.describe_deadwood("AS 2S 3S").best_discard is None  # only an 11-card hand discards


def test_showdown_frame_gives_the_points_to_the_winner() -> None:
    scored = simgin.describe_showdown("AS 2S 3S 7C 7D 7H TD JD QD KH", "4S 5S 8C 8D 9H 9S KC KD 2C 3D", "eaai")
    frame = scored.to_frame()
    assert frame.loc["knocker", "points"] == scored.result.points == 39 and frame.loc["defender", "points"] == 0
    with pytest.raises(ValueError, match="Oklahoma rules need an up card"):
        simgin.describe_showdown("AS 2S 3S 7C 7D 7H TD JD QD KH", "4S 5S 8C 8D 9H 9S KC KD 2C 3D", "oklahoma")


def test_rules_listing_marks_what_differs_and_what_is_overridden() -> None:
    overview = simgin.describe_rules().to_frame()
    for name in Rules.PRESETS:
        assert overview[name].to_dict() == Rules.preset(name).to_dict()
    listing = simgin.describe_rules("oklahoma", settings={"knock_limit": 5, "big_gin": True})
    frame = listing.to_frame()
    assert frame.loc["knock_limit", "value"] == 5 and frame.loc["knock_limit", "overridden"].startswith("V9")
    assert frame.loc["oklahoma", "changed"] and not frame.loc["gin_bonus", "changed"]
    assert frame["overridden"].notna().sum() == 1
    # A mapping and the --set texts are one rule set, recorded as the command records it.
    assert listing.to_json() == simgin.describe_rules("oklahoma", settings=["knock_limit=5", "big_gin=true"]).to_json()


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: simgin.describe_rules("nonesuch"), "unknown rules preset 'nonesuch'"),
        (lambda: simgin.describe_rules(settings=["knock_limit"]), "expected KEY=VALUE"),
        (lambda: simgin.describe_rules(settings="knock_limit=5"), "not one text"),
        (lambda: simgin.describe_rules(table="four"), "table='four'"),
        (lambda: simgin.describe_rules("hollywood", table="three"), "Hollywood scoring"),
        (lambda: simgin.describe_strategies("greddy"), "did you mean 'greedy'"),
        (lambda: simgin.describe_strategies(rules="eaai"), "rules go with a spec"),
        (lambda: simgin.replay("simple", "random", seed=1), "give seed and hand, or hand_seed"),
        (lambda: simgin.replay("simple", "random", hand_seed=3, seed=1), "without seed"),
        (lambda: simgin.replay("simple", "random", seed=1, hand=3, scores=(1, 2)), "scores go with hand_seed"),
    ],
)
def test_bad_input_is_a_value_error_naming_it(call, message) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_strategies_listing_is_the_ladder_then_the_values_of_a_spec() -> None:
    listing = simgin.describe_strategies()
    assert list(listing.to_frame().index[: len(BOT_NAMES)]) == list(BOT_NAMES)
    frame = simgin.describe_strategies("heuristic:knock=7").to_frame()
    assert frame.loc["knock", "value"] == 7 and frame.loc["knock", "default"] != 7
    assert list(frame.index[frame["given"]]) == ["knock"]


def test_replay_is_the_hand_the_match_played() -> None:
    """Hand 2j and 2j+1 are one deal with the seats swapped, and the replayed hand's record is the row the
    compiled engine plays for that seed and dealer (the run's own hand)."""
    first = simgin.replay("simple", "greedy", seed=11, hand=4)
    second = simgin.replay("simple", "greedy", seed=11, hand=5)
    assert first.hand_seed == second.hand_seed and first.players == second.players[::-1]
    (row,) = play_hand_rows(first.players, Rules(), np.array([first.hand_seed]), np.array([first.dealer]))
    assert tuple(int(value) for value in row[: len(first.record.row())]) == first.record.row()
    data = first.to_json()
    assert data["moves"][-1]["move"] == "score" and data["moves"][-1]["points"] == data["hand"]["points"]
    assert first.text().splitlines() == [first.text().splitlines()[0], *(move["text"] for move in data["moves"])]
    frame = first.to_frame()
    assert set(frame.loc[frame["seat"].isin([0, 1]), "player"]) <= set(first.players)

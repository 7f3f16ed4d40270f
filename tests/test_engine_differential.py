"""The numba engine against the plain-Python reference engine (docs/ENGINE.md, R7-R23, V1-V14).

Both engines receive the same hand seeds, dealers and bots, so every hand record must be
identical, field by field. The bots that exist in both forms (``random``, ``simple``,
``greedy``: compiled, and a plain-Python twin that draws the same random numbers in the
same order) play identical hands in both. Every compiled bot also plays identical hands
through its Python adapter (``simgin/players/compiled.py``), which rebuilds the public table
from the ``PlayerView``: so the numba engine shows the bots exactly what a player sees.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from simgin.strategies.greedy import GreedyStrategy
from simgin.strategies.random import RandomStrategy
from simgin.strategies.simple import SimpleStrategy

from simgin import Rules
from simgin.game import reference_engine as ref
from simgin.kernels.engine import GAME_FIELDS, HAND_FIELDS
from simgin.players.registry import resolve
from simgin.running.engine import hand_seeds, play_game_rows, play_games, play_hand_rows

TWINS = {"random": RandomStrategy, "simple": SimpleStrategy, "greedy": GreedyStrategy}

# Rule sets that exercise every switch of the hand engine.
RULE_SETS = {
    "standard": Rules(),
    "eaai": Rules.preset("eaai"),
    "oklahoma": Rules.preset("oklahoma"),
    "oklahoma_ace_gin_extra": dataclasses.replace(
        Rules.preset("oklahoma"), oklahoma_ace_gin_only=True, oklahoma_extra_boxes=True
    ),
    "modern_big_gin": Rules.preset("modern"),
    "straight": Rules.preset("straight"),
    "eleven_card_start": dataclasses.replace(Rules(), eleven_card_start=True),
    "eleven_big_gin_fiftieth": dataclasses.replace(
        Rules(), eleven_card_start=True, big_gin=True, fiftieth_card_action=True
    ),
    "rediscard_fiftieth": dataclasses.replace(Rules(), rediscard_taken_card=True, fiftieth_card_action=True),
    "tie_not_undercut_knock7": dataclasses.replace(Rules(), undercut_on_tie=False, knock_limit=7),
}
PAIRINGS = [
    ("simple", "simple"),
    ("random", "simple"),
    ("simple", "random"),
    ("random", "random"),
    ("greedy", "simple"),
    ("random", "greedy"),
]
#: Compiled bots without a twin, against the numba engine through their adapter; mcts with
#: a small budget to stay quick (its search draws from the seat's generator all the same).
ADAPTED = {"heuristic": ("heuristic", 40), "opponent": ("opponent", 40), "mcts": ("mcts:budget=40", 12)}


def _reference_rows(bots, rules, seeds, dealers):
    rows = []
    for seed, dealer in zip(seeds, dealers, strict=True):
        players = (TWINS[bots[0]](), TWINS[bots[1]]())
        record = ref.play_hand(players, rules, int(seed), int(dealer))
        rows.append([int(getattr(record, name)) for name in HAND_FIELDS])
    return np.array(rows, dtype=np.int64)


@pytest.mark.parametrize("rules_name", list(RULE_SETS))
def test_hand_records_identical(rules_name):
    """A strategy in both forms plays identical hands in both: >= 3,000 hands in all, 60 hands
    per pairing per rule set, every field equal."""
    rules = RULE_SETS[rules_name]
    for pairing_index, bots in enumerate(PAIRINGS):
        seeds = hand_seeds(1000 * pairing_index + len(rules_name), 60)
        dealers = np.arange(60, dtype=np.int64) % 2
        fast = play_hand_rows(bots, rules, seeds, dealers)
        slow = _reference_rows(bots, rules, seeds, dealers)
        for i in range(len(seeds)):
            assert fast[i].tolist() == slow[i].tolist(), f"{rules_name} {bots} hand seed {int(seeds[i])}: " + ", ".join(
                f"{name} numba={a} python={b}"
                for name, a, b in zip(HAND_FIELDS, fast[i], slow[i], strict=True)
                if a != b
            )


GAME_RULE_SETS = [
    "standard",
    "eaai",
    "oklahoma_ace_gin_extra",
    "modern_big_gin",
    "hollywood",
    "eleven_big_gin_fiftieth",
]


@pytest.mark.parametrize("rules_name", GAME_RULE_SETS)
def test_game_records_identical(rules_name):
    """Whole games (R20-R23, V8-V10, V14): the same game seeds give the same game and hand records."""
    rules = Rules.preset("hollywood") if rules_name == "hollywood" else RULE_SETS[rules_name]
    bots = ("simple", "simple")
    games, hands = play_games(bots, rules, game_count=25, seed=77)
    for i, seed in enumerate(games["game_seed"]):
        record = ref.play_game((SimpleStrategy(), SimpleStrategy()), rules, int(seed))
        fast_game = games.iloc[i]
        expected = {
            "first_dealer": record.first_dealer,
            "winner": record.winner,
            "margin": record.margin,
            "score_0": record.scores[0],
            "score_1": record.scores[1],
            "boxes_0": record.boxes[0],
            "boxes_1": record.boxes[1],
            "total_0": record.totals[0],
            "total_1": record.totals[1],
            "hands": record.hands,
            "dead_hands": record.dead_hands,
            "shutout": int(record.shutout),
            "capped": int(record.capped),
        }
        assert {name: int(fast_game[name]) for name in GAME_FIELDS} == expected, f"game seed {int(seed)}"
        fast_hands = hands[hands["game"] == i]
        assert len(fast_hands) == len(record.hand_records)
        for (_, row), slow in zip(fast_hands.iterrows(), record.hand_records, strict=True):
            for name in HAND_FIELDS:
                fast_value = row[name] if name != "kind" else _kind_code(row[name])
                assert int(fast_value) == int(getattr(slow, name)), f"game seed {int(seed)} field {name}"


def _kind_code(kind: str) -> int:
    from simgin.game.showdown import KIND_CODES, Kind

    return KIND_CODES[Kind(kind)]


def _adapter_rows(specs, rules, seeds, dealers):
    """The hands through the reference engine, as independent hands: play_hand_rows plays them
    with the game's switches at their standard values, which the rules-aware bots read."""
    players = (resolve(specs[0]), resolve(specs[1]))
    hand_rules = rules.effective("pairs", games=False)
    rows = []
    for seed, dealer in zip(seeds, dealers, strict=True):
        record = ref.play_hand((players[0].make(), players[1].make()), hand_rules, int(seed), int(dealer))
        rows.append([int(getattr(record, name)) for name in HAND_FIELDS])
    return np.array(rows, dtype=np.int64)


@pytest.mark.parametrize("bot", list(ADAPTED))
@pytest.mark.parametrize(
    "rules_name", ["standard", "eaai", "oklahoma", "modern_big_gin", "eleven_card_start", "rediscard_fiftieth"]
)
def test_compiled_bots_play_the_same_hands_through_their_adapter(bot, rules_name):
    """The numba engine's public table equals the one the adapter builds from a ``PlayerView``."""
    spec, hand_count = ADAPTED[bot]
    rules = RULE_SETS[rules_name]
    for k, specs in enumerate([(spec, "simple"), ("random", spec)]):
        seeds = hand_seeds(500 + 10 * k + len(rules_name), hand_count)
        dealers = np.arange(hand_count, dtype=np.int64) % 2
        fast = play_hand_rows(specs, rules, seeds, dealers)
        slow = _adapter_rows(specs, rules, seeds, dealers)
        for i in range(hand_count):
            assert fast[i].tolist() == slow[i].tolist(), f"{rules_name} {specs} hand seed {int(seeds[i])}"


def test_game_rows_are_the_same_in_both_engines_for_a_mixed_pairing():
    """``play_game_rows`` runs two compiled bots in numba; with a plain-Python twin in a seat the
    reference engine plays, with identical rows (game scores reach the bots in both)."""
    rules = RULE_SETS["eaai"]
    seeds = hand_seeds(91, 12)
    numba_games, numba_hands, numba_counts = play_game_rows(("opponent", "greedy"), rules, seeds)
    python_games, python_hands, python_counts = play_game_rows(
        ("opponent", "simgin.strategies.greedy:GreedyStrategy"), rules, seeds
    )
    assert np.array_equal(numba_games, python_games)
    assert np.array_equal(numba_counts, python_counts)
    for i, count in enumerate(numba_counts):
        assert np.array_equal(numba_hands[i, :count], python_hands[i, :count])

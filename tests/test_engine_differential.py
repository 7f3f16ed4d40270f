"""The numba engine against the plain-Python reference engine (docs/ENGINE.md, R7-R23, V1-V14).

Both engines receive the same hand seeds, dealers and bots (the compiled bots and their
plain-Python twins draw the same random numbers in the same order), so every hand record
must be identical, field by field.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from simgin.strategies.random import RandomStrategy
from simgin.strategies.simple import SimpleStrategy

from simgin import Rules
from simgin import reference_engine as ref
from simgin.engine import hand_seeds, play_games, play_hand_rows
from simgin.kernels.engine import GAME_FIELDS, HAND_FIELDS

TWINS = {"random": RandomStrategy, "simple": SimpleStrategy}

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
    "rediscard_fiftieth": dataclasses.replace(Rules(), rediscard_taken_card=True, fiftieth_card_action=True),
    "tie_not_undercut_knock7": dataclasses.replace(Rules(), undercut_on_tie=False, knock_limit=7),
}
PAIRINGS = [("simple", "simple"), ("random", "simple"), ("simple", "random"), ("random", "random")]


def _reference_rows(bots, rules, seeds, dealers):
    rows = []
    for seed, dealer in zip(seeds, dealers, strict=True):
        players = (TWINS[bots[0]](), TWINS[bots[1]]())
        record = ref.play_hand(players, rules, int(seed), int(dealer))
        rows.append([int(getattr(record, name)) for name in HAND_FIELDS])
    return np.array(rows, dtype=np.int64)


@pytest.mark.parametrize("rules_name", list(RULE_SETS))
def test_hand_records_identical(rules_name):
    """>= 2,000 hands in all: 60 hands per pairing per rule set, every field equal."""
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


@pytest.mark.parametrize("rules_name", ["standard", "eaai", "oklahoma_ace_gin_extra", "modern_big_gin", "hollywood"])
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
    from simgin.showdown import KIND_CODES, Kind

    return KIND_CODES[Kind(kind)]

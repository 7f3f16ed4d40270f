"""``mcts:opponent_play=1`` discards and knocks as ``opponent`` under big undercut bonuses (issue 37).

In a hand a knock can end (R12) under an undercut bonus above 10 (R19, V2: the eaai and modern presets) the
bot's discard and knock are the ``opponent`` bot's, with its default parameters (the companion vector,
``kernels.parameters.COMPANION``), and only the draws are searched; elsewhere, and with ``opponent_play=0``,
it searches every decision as before (``opponent_play=0``, the default, searches everywhere).
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from simgin.game import reference_engine as ref
from simgin.game.play import hand_seeds
from simgin.game.rules import Rules
from simgin.kernels import mcts, parameters as pm
from simgin.players.registry import resolve
from simgin.running.engine import play_hand_rows

EAAI = Rules.preset("eaai")


class Mirror:
    """Plays as ``mcts`` and, at each of its discards and knocks, asks ``opponent`` the same question from the same
    memory and the same generator state; both are told every decision, so their memories of the hand agree."""

    def __init__(self, spec: str = "mcts:opponent_play=1") -> None:
        self.mcts = resolve(spec).make()
        self.opponent = resolve("opponent").make()
        self.name = spec
        self.same: dict[str, int] = {"discard": 0, "knock": 0}
        self.differ: dict[str, int] = {"discard": 0, "knock": 0}

    def _both(self, method: str, view, rng):
        theirs = getattr(self.opponent, method)(view, copy.deepcopy(rng))
        mine = getattr(self.mcts, method)(view, rng)
        if method in self.same:
            (self.same if mine == theirs else self.differ)[method] += 1
        return mine

    def start_hand(self, view, rng):
        self.opponent.start_hand(view, copy.deepcopy(rng))
        self.mcts.start_hand(view, rng)

    def take_up_card(self, view, rng):
        return self._both("take_up_card", view, rng)

    def draw_from_pile(self, view, rng):
        return self._both("draw_from_pile", view, rng)

    def discard(self, view, rng):
        return self._both("discard", view, rng)

    def knock(self, view, rng):
        return self._both("knock", view, rng)

    def big_gin(self, view, rng):
        return self._both("big_gin", view, rng)

    def take_fiftieth(self, view, rng):
        return self._both("take_fiftieth", view, rng)


def _play(mirror: Mirror, rules: Rules, hands: int, seed: int) -> None:
    for i in range(hands):
        ref.play_hand((mirror, resolve("simple").make()), rules, seed + i, i % 2)


@pytest.mark.parametrize("preset", ["eaai", "modern"])
def test_under_a_big_undercut_bonus_every_discard_and_knock_is_opponents(preset):
    mirror = Mirror()
    _play(mirror, Rules.preset(preset), 8, 100)
    assert mirror.differ == {"discard": 0, "knock": 0}
    assert mirror.same["discard"] > 30 and mirror.same["knock"] > 3


def test_elsewhere_and_switched_off_it_searches():
    """Under standard rules (undercut bonus 10) and under eaai by default (``opponent_play=0``) the search picks
    other discards than ``opponent`` often enough to show: it was not asked."""
    for rules, spec in ((Rules.preset("standard"), "mcts:opponent_play=1"), (EAAI, "mcts")):
        mirror = Mirror(spec)
        _play(mirror, rules, 6, 200)
        assert mirror.differ["discard"] > 0, spec


def test_the_switch_reads_the_rules_of_the_hand():
    on = resolve("mcts:opponent_play=1").vector()
    off = resolve("mcts").vector()
    cases = [
        (EAAI, 10, True),  # undercut bonus 25
        (Rules.preset("modern"), 10, True),
        (EAAI, 0, False),  # a hand only gin can end (V9's spade up card, or straight gin): no knock to make
        (Rules.preset("standard"), 10, False),  # undercut bonus 10
        (Rules(undercut_bonus=11), 10, True),
        (Rules(undercut_bonus=10), 10, False),
    ]
    for rules, knock_limit, expected in cases:
        array = rules.to_array()
        assert mcts.plays_as_opponent(on, array, knock_limit) is expected, (rules, knock_limit)
        assert not mcts.plays_as_opponent(off, array, knock_limit)


def test_rows_elsewhere_are_the_rows_of_the_search():
    """Where the switch does not apply, ``mcts:opponent_play=1`` plays exactly as ``mcts`` (the default)."""
    seeds = hand_seeds(11, 8)
    dealers = np.arange(8) % 2
    for preset in ("standard", "oklahoma", "hollywood"):
        rules = Rules.preset(preset)
        assert np.array_equal(
            play_hand_rows(("mcts:opponent_play=1", "simple"), rules, seeds, dealers),
            play_hand_rows(("mcts", "simple"), rules, seeds, dealers),
        ), preset
    assert resolve("mcts").vector()[pm.OPPONENT_PLAY] == 0.0

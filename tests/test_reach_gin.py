"""``reach_gin`` (issue 37, found by ``simgin analyse``): a discard that leaves gin (R13) scores that many points
less in the discard score of ``heuristic`` and ``opponent``. 0 by default: the bots play as before until a gated
change sets it."""

from __future__ import annotations

from simgin.analysis.recorder import RecordingStrategy
from simgin.game.cards import format_card
from simgin.game.reference_engine import play_hand
from simgin.game.rng import SplitMix64
from simgin.game.rules import Rules
from simgin.players.registry import resolve
from simgin.running.runner import RunConfig, locate_hand


def _missed_gin():
    """Hand 106 of ``simgin analyse opponent heuristic --rules eaai --seed 0`` as it was played before
    ``heuristic``'s gated draw margin (``draw_margin=0`` plays as it did then): opponent holds 2C 7H-QH AS-4S and
    discards AS (2 deadwood left) where 2C leaves gin; its decision's view."""
    rules = Rules.preset("eaai")
    pairing = ("opponent", "heuristic:draw_margin=0")
    seed, dealer, players = locate_hand(RunConfig(pairing, rules, hands=400, seed=0), 106)
    log = []
    play_hand(tuple(RecordingStrategy(resolve(p).make(), log) for p in players), rules.effective("pairs", games=False),
              seed, dealer)  # fmt: skip
    seat = players.index("opponent")
    return [d for d in log if d.kind == "discard" and d.view.seat == seat][-1]


def test_reach_gin_makes_opponent_discard_into_gin():
    decision = _missed_gin()
    assert sorted(format_card(c) for c in decision.view.hand) == sorted(
        ["2C", "7H", "8H", "9H", "TH", "JH", "QH", "AS", "2S", "3S", "4S"]
    )
    assert format_card(decision.chosen) == "AS"  # the default plays as before
    fixed = resolve("opponent:reach_gin=20").make()
    assert format_card(fixed.discard(decision.view, SplitMix64(1))) == "2C"


def test_reach_gin_is_zero_by_default_and_bounded():
    import pytest

    from simgin.kernels import parameters as pm

    for bot in ("heuristic", "opponent"):
        assert resolve(bot).vector()[pm.REACH_GIN] == 0.0
        assert resolve(f"{bot}:reach_gin=20").vector()[pm.REACH_GIN] == 20.0
    with pytest.raises(ValueError, match="reach_gin"):
        resolve("opponent:reach_gin=-1").vector()

"""``reach_gin`` (issue 37, found by ``simgin analyse``): a discard that leaves gin (R13) scores that many points
less in the discard score of ``heuristic`` and ``opponent``. ``opponent`` sets 60 by default (gated: gin counted at 60
points, in its discards and in the draw that reads their scores), ``heuristic`` 0."""

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
    ``heuristic``'s gated draw margin and ``opponent``'s gin outs term and discard network (``draw_margin=0``,
    ``gin_outs=0`` and ``discard_network=0`` play as they did then): opponent holds 2C 7H-QH AS-4S and
    discards AS (2 deadwood left) where 2C leaves gin; its decision's view."""
    rules = Rules.preset("eaai")
    pairing = ("opponent:reach_gin=0,gin_outs=0,discard_network=0", "heuristic:draw_margin=0")
    seed, dealer, players = locate_hand(RunConfig(pairing, rules, hands=400, seed=0), 106)
    log = []
    play_hand(tuple(RecordingStrategy(resolve(p).make(), log) for p in players), rules.effective("pairs", games=False),
              seed, dealer)  # fmt: skip
    seat = players.index("opponent:reach_gin=0,gin_outs=0,discard_network=0")
    return [d for d in log if d.kind == "discard" and d.view.seat == seat][-1]


def test_reach_gin_makes_opponent_discard_into_gin():
    decision = _missed_gin()
    assert sorted(format_card(c) for c in decision.view.hand) == sorted(
        ["2C", "7H", "8H", "9H", "TH", "JH", "QH", "AS", "2S", "3S", "4S"]
    )
    assert format_card(decision.chosen) == "AS"  # reach_gin=0, the play of before, discards out of gin
    for spec in ("opponent:reach_gin=20", "opponent"):  # the gated default goes gin
        assert format_card(resolve(spec).make().discard(decision.view, SplitMix64(1))) == "2C", spec


def test_reach_gin_defaults_and_bounds():
    import pytest

    from simgin.kernels import parameters as pm

    assert resolve("heuristic").vector()[pm.REACH_GIN] == 0.0
    assert resolve("opponent").vector()[pm.REACH_GIN] == 60.0
    for bot in ("heuristic", "opponent"):
        assert resolve(f"{bot}:reach_gin=20").vector()[pm.REACH_GIN] == 20.0
    with pytest.raises(ValueError, match="reach_gin"):
        resolve("opponent:reach_gin=-1").vector()


def _gin_outs_draw():
    """Hand 6 of ``simgin analyse opponent heuristic --rules eaai`` (seed 0), ``opponent``'s draw with 7 stock
    cards left: it holds 2C 8C 8D AH 8H AS 2S 3S 4S 8S (the eights, AS-4S, 3 deadwood) and 2H lies on the pile."""
    rules = Rules.preset("eaai")
    played = "opponent:gin_outs=0,discard_network=0"  # as opponent played before its gin outs term and network
    seed, dealer, players = locate_hand(RunConfig((played, "heuristic"), rules, hands=400, seed=0), 6)
    log = []
    # The play of before, following the hand from the same seat:
    before = [resolve("opponent:reach_gin=0,discard_network=0").make()]
    recorded = tuple(RecordingStrategy(resolve(p).make(), log, advisers=before if p == played else ()) for p in players)
    play_hand(recorded, rules.effective("pairs", games=False), seed, dealer)
    seat = players.index(played)
    return next(d for d in log if d.kind == "draw" and d.view.seat == seat and d.view.stock_count == 7)


def test_reach_gin_values_the_gin_outs_of_a_stock_draw():
    """What ``reach_gin`` changes in play is mostly the draw (issue 37): ``opponent`` compares the best discard
    score after the pile card with the expected one after a stock card, so at 60 each unseen card that would
    give gin weighs 60 points in the stock's side. Here 2H lowers the deadwood (2C 2H 2S) but the stock's gin
    cards are worth more: the gated default draws blind, ``reach_gin=0`` (the play of before) takes 2H."""
    decision = _gin_outs_draw()
    view = decision.view
    assert sorted(format_card(c) for c in view.hand) == sorted(
        ["2C", "8C", "8D", "AH", "8H", "AS", "2S", "3S", "4S", "8S"]
    )
    assert format_card(view.pile[-1]) == "2H"
    assert decision.chosen == 0  # the gated default draws from the stock ...
    assert decision.second_opinions == (1,)  # ... where reach_gin=0, in the same seat all hand, took the pile card

"""The plain-Python reference engine fuzzed: many seeded hands and games of the bots under every preset and
variant (R1-R23, V1-V14). Every hand's move log is replayed (52 cards conserved at every step, every draw from a
stock or pile top, the record's counts and points as the rule book scores them), every kind of ending the rules
allow shows up, and whole games add up to their totals. The engine's hand-built cases are in
tests/test_reference_engine.py."""

from __future__ import annotations

import dataclasses

import pytest
from simgin.strategies.random import RandomStrategy
from simgin.strategies.simple import SimpleStrategy

from simgin.game import reference_engine as engine
from simgin.game.cards import CARD_COUNT
from simgin.game.melds import deadwood
from simgin.game.reference_engine import (
    Deal,
    Discard,
    Draw,
    FiftiethOffer,
    HandRecord,
    Outcome,
    Score,
    Scoreboard,
    play_game,
    play_hand,
)
from simgin.game.rng import derive
from simgin.game.rules import Rules

STANDARD = Rules()
OKLAHOMA = Rules.preset("oklahoma")


CONFIGS = {name: Rules.preset(name) for name in Rules.PRESETS} | {
    "V5 eleven-card start": dataclasses.replace(STANDARD, eleven_card_start=True),
    "V6 re-discard": dataclasses.replace(STANDARD, rediscard_taken_card=True),
    "V7 fiftieth card": dataclasses.replace(STANDARD, fiftieth_card_action=True),
    "V13 big gin": dataclasses.replace(STANDARD, big_gin=True),
    "V5-V7 V13 knock 5": Rules(
        eleven_card_start=True, rediscard_taken_card=True, fiftieth_card_action=True, big_gin=True, knock_limit=5
    ),
    "oklahoma all": dataclasses.replace(OKLAHOMA, oklahoma_ace_gin_only=True, oklahoma_extra_boxes=True),
}


class GinHunter(SimpleStrategy):
    """``simple`` that knocks only with gin: its hands often reach the end of the stock with
    little deadwood, which exercises the 50th card (V7) and big gin (V13)."""

    name = "gin-hunter"

    def knock(self, view, rng):
        return deadwood(view.hand) == 0


BOTS = {"random": RandomStrategy, "simple": SimpleStrategy, "gin-hunter": GinHunter}
PAIRINGS = [("random", "random"), ("simple", "simple"), ("random", "simple"), ("gin-hunter", "gin-hunter")]
HANDS_PER_PAIRING = 250


def replay_and_check(record: HandRecord, rules: Rules) -> None:
    """Replay the move log: every draw comes from the stock top or the pile top, every
    discard was held, the 52 cards are conserved at every step, and the record agrees."""
    deal = record.moves[0]
    assert isinstance(deal, Deal)
    hands = [list(deal.hands[0]), list(deal.hands[1])]
    pile = [deal.up_card] if deal.up_card >= 0 else []
    stock = list(deal.stock)
    draws, takes = 0, [0, 0]
    for move in record.moves[1:]:
        if isinstance(move, Draw):
            source = stock if move.source == "stock" else pile
            assert source[0 if move.source == "stock" else -1] == move.card
            source.remove(move.card)
            hands[move.seat].append(move.card)
            draws += 1
            takes[move.seat] += move.source == "pile"
        elif isinstance(move, Discard):
            hands[move.seat].remove(move.card)
            pile.append(move.card)
        assert sorted(hands[0] + hands[1] + pile + stock) == list(range(CARD_COUNT))
        assert len(stock) >= 2
    assert (draws, takes[0], takes[1]) == (record.draws, record.pile_takes_0, record.pile_takes_1)
    last = record.moves[-1]
    assert last == Score(Outcome(record.kind), record.winner, record.points)
    assert 1 <= record.turns <= engine.MAX_TURNS
    assert record.capped == (record.turns == engine.MAX_TURNS and record.kind == Outcome.DEAD)
    assert (record.up_card == -1) == rules.eleven_card_start
    up = record.up_card if record.up_card >= 0 else None
    assert (record.knock_limit, record.multiplier) == (rules.hand_knock_limit(up), rules.hand_multiplier(up))
    if record.kind == Outcome.DEAD:
        assert record.row()[2:8] == (-1, 0, -1, 0, 0, 0)
        assert record.fiftieth == 0
        return
    knocker, defender = record.knocker, 1 - record.knocker
    kd, dd, mult = record.knocker_deadwood, record.defender_deadwood, record.multiplier
    assert kd == deadwood(hands[knocker]) <= record.knock_limit
    assert 0 <= dd <= deadwood(hands[defender]) and record.layoff_points >= 0
    assert record.points >= 0
    offers = [i for i, move in enumerate(record.moves) if isinstance(move, FiftiethOffer)]
    for i in offers:
        # V7: only the 50th card itself, drawn from the stock and discarded at once, is offered.
        drawn, thrown = record.moves[i - 2 : i]
        assert drawn == Draw(thrown.seat, "stock", thrown.card) and record.moves[i].card == thrown.card
        assert record.moves[0].stock.index(thrown.card) == 52 - 21 - 3
    if record.fiftieth:
        assert rules.fiftieth_card_action and len(stock) == 2
        assert any(record.moves[i].taken for i in offers)
    if record.kind == Outcome.BIG_GIN:
        assert rules.big_gin and len(hands[knocker]) == 11 and kd == 0
        assert record.points == (rules.big_gin_bonus + dd) * mult and record.winner == knocker
    elif record.kind == Outcome.GIN:
        assert kd == 0 and dd == deadwood(hands[defender]) and record.layoff_points == 0
        assert record.points == (rules.gin_bonus + dd) * mult and record.winner == knocker
    elif record.kind == Outcome.UNDERCUT:
        assert dd < kd or (dd == kd and rules.undercut_on_tie)
        assert record.points == (kd - dd + rules.undercut_bonus) * mult and record.winner == defender
    else:
        assert record.kind == Outcome.KNOCK and record.winner == knocker
        assert record.points == (dd - kd) * mult and (dd > kd or (dd == kd and not rules.undercut_on_tie))


# The quick tier (tests/tiers.py) fuzzes the first hands of the standard rules and of the rule set that reaches
# every kind of ending (big gin and the 50th card included); the slow tier every preset and variant in full.
QUICK_CONFIGS = ("standard", "V5-V7 V13 knock 5")
QUICK_HANDS = 100
EVERY_CONFIG = [pytest.param(name, QUICK_HANDS, id=f"{name}-{QUICK_HANDS}") for name in QUICK_CONFIGS] + [
    pytest.param(name, HANDS_PER_PAIRING, marks=pytest.mark.slow, id=name) for name in CONFIGS
]


@pytest.mark.parametrize(("config", "hands"), EVERY_CONFIG)
def test_fuzz_hands_end_conserve_cards_and_score_consistently(config, hands):
    rules = CONFIGS[config]
    kinds, fiftieth_count = set(), 0
    for pairing_index, (first, second) in enumerate(PAIRINGS):
        for i in range(hands):
            seed = derive(len(config) * 1000 + pairing_index, i)
            record = play_hand((BOTS[first](), BOTS[second]()), rules, seed, dealer=i % 2, scores=(i, 2 * i))
            replay_and_check(record, rules)
            kinds.add(record.kind)
            fiftieth_count += record.fiftieth
    # Every kind the rules allow shows up (big gin only with V13); the 50th card with V7.
    expected = {Outcome.DEAD, Outcome.GIN} | ({Outcome.BIG_GIN} if rules.big_gin else set())
    if rules.knock_limit > 0 or rules.oklahoma:
        expected |= {Outcome.KNOCK, Outcome.UNDERCUT}
    assert kinds == expected
    assert (fiftieth_count > 0) == rules.fiftieth_card_action


@pytest.mark.parametrize("config", list(CONFIGS))
def test_fuzz_game_totals_add_up(config):
    rules = CONFIGS[config]
    pairings = [("simple", "simple")] * 3 + [("random", "simple"), ("gin-hunter", "simple")]
    for game_index, pairing in enumerate(pairings):
        game = play_game((BOTS[pairing[0]](), BOTS[pairing[1]]()), rules, game_seed=game_index + 10 * len(config))
        records = game.hand_records
        assert game.hands == len(records) and game.dead_hands == sum(r.kind == Outcome.DEAD for r in records)
        assert not game.capped and game.winner in (0, 1)
        for record in records:
            assert record.points >= 0 and (record.kind != Outcome.DEAD or record.points == 0)
        board = Scoreboard(rules, game.first_dealer)
        if rules.hollywood:
            assert game.margin == abs(game.totals[0] - game.totals[1])
            assert game.totals[game.winner] > game.totals[1 - game.winner]
            continue
        won = [sum(r.points for r in records if r.winner == seat) for seat in (0, 1)]
        assert tuple(won) == game.scores
        assert game.boxes == tuple(sum(board.boxes_won(r) for r in records if r.winner == seat) for seat in (0, 1))
        winner, loser = game.winner, 1 - game.winner
        assert game.scores[winner] >= rules.target > game.scores[loser]
        assert records[-1].winner == winner
        shutout = game.scores[loser] == 0
        bonus = rules.shutout_bonus if shutout and rules.shutout == "bonus" else rules.game_bonus
        total = game.scores[winner] + rules.box_bonus * game.boxes[winner] + bonus
        if shutout and rules.shutout == "double":
            total *= 2
        assert game.totals[winner] == total and game.shutout == shutout
        assert game.totals[loser] == game.scores[loser] + rules.box_bonus * game.boxes[loser]
        assert game.margin == game.totals[winner] - game.totals[loser]

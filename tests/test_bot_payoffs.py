"""The rules-aware bots decide from the payoffs in force (issue 11): scripted knock situations.

Each situation is a ``PlayerView`` met in a real hand of ``opponent`` against ``simple``,
written out card by card. A decision is asked with five seeds of the seat's generator, and
every seed must agree. The value of knocking now is an average over drawn opponent hands,
so the bots are asked with 200 of them (``knock_samples=200``, 8 or 16 by default): the
decisions then show the payoff's effect, not the noise of a small sample.
"""

from __future__ import annotations

import dataclasses

import pytest

from simgin.game.cards import parse_cards
from simgin.game.melds import deadwood
from simgin.game.reference_engine import play_hand
from simgin.game.rng import SplitMix64
from simgin.game.rules import Rules
from simgin.game.strategy import PlayerView
from simgin.kernels import payoff
from simgin.players.registry import resolve
from simgin.running.engine import hand_seeds

SEEDS = range(5)


def situation(hand: str, pile: str, took: str, passed: str, discards: str, **fields) -> PlayerView:
    """A knock decision of seat 1 (the dealer): its 10 cards after the discard, and the public table."""
    cards = parse_cards(hand)
    assert len(cards) == 10
    values = {
        "seat": 1,
        "dealer": 1,
        "hand": tuple(sorted(cards)),
        "pile": tuple(parse_cards(pile)),
        "opponent_took": tuple(parse_cards(took)),
        "opponent_passed": tuple(parse_cards(passed)),
        "opponent_discards": tuple(parse_cards(discards)),
        "knock_limit": 10,
        "scores": (0, 0),
        "rules": Rules(),
        "drawn_card": -1,
        "drawn_from_pile": False,
    }
    values.update(fields)
    return PlayerView(**values)


def knocks(spec: str, view: PlayerView, rules: Rules, scores: tuple[int, int] = (0, 0)) -> list[bool]:
    """The bot's knock decision in ``view`` under ``rules`` and game ``scores`` (by seat), one per seed."""
    view = dataclasses.replace(view, rules=rules, scores=scores)
    answers = []
    for seed in SEEDS:
        bot = resolve(spec).make()
        bot.start_hand(view, SplitMix64(seed))
        answers.append(bot.knock(view, SplitMix64(seed)))
    return answers


# Deadwood 9 (AC, AD 2D, 5H) with two runs, early in the hand (29 stock cards); the opponent
# took the up card JH and then TH from the pile, and threw TD, 8S and 8C.
EARLY_NINE = situation(
    "AC 6C 7C 8C AD 2D 9D TD JD 5H",
    pile="8S 8H 7S",
    took="JH TH",
    passed="",
    discards="TD 8S 8C",
    stock_count=29,
    up_card=parse_cards("JH")[0],
    turn=5,
)
# Deadwood 3 (7C 3H) with KD KH KS and 4S 5S 6S 7S, early (28 stock cards).
EARLY_THREE = situation(
    "7C KD 3H 7H KH 4S 5S 6S 7S KS",
    pile="JS 9D QD 5H",
    took="",
    passed="5S",
    discards="KH QD",
    stock_count=28,
    up_card=parse_cards("5S")[0],
    turn=4,
)
# Deadwood 7 (4C 2D AH) with four queens and three sixes, mid-hand (20 stock cards); the
# opponent passed the up card TD, took 8H and threw seven cards.
MID_SEVEN = situation(
    "4C QC 2D 6D QD AH 6H QH 6S QS",
    pile="TD KD TC JC JS TH JD JH KH 8D 8S 7C",
    took="8H",
    passed="TD",
    discards="KD JC TH QC KH 8D 6S",
    stock_count=20,
    up_card=parse_cards("TD")[0],
    turn=12,
)


def test_the_situations_are_what_their_comments_say():
    assert [deadwood(view.hand) for view in (EARLY_NINE, EARLY_THREE, MID_SEVEN)] == [9, 3, 7]


@pytest.mark.parametrize("spec", ["opponent:knock_samples=200", "heuristic:knock_samples=200"])
def test_a_larger_undercut_bonus_makes_it_play_on_where_it_knocks_in_the_standard_game(spec):
    # R17, R18, V3: knocking with 9 early is worth the opponent's deadwood less 9; playing on
    # is worth mostly undercuts of the opponent's knock, which a bonus of 50 makes the better.
    assert all(knocks(spec, EARLY_NINE, Rules()))
    assert not any(knocks(spec, EARLY_NINE, Rules(undercut_bonus=50)))


def test_a_smaller_gin_bonus_makes_it_hold_out_for_gin_less():
    # R19, V2: with 3 deadwood early, a gin bonus of 60 is worth holding out for; none is not.
    spec = "opponent:knock_samples=200"
    assert all(knocks(spec, EARLY_THREE, Rules(gin_bonus=0, undercut_bonus=25)))
    assert not any(knocks(spec, EARLY_THREE, Rules(gin_bonus=60, undercut_bonus=25)))


def test_over_many_hands_it_knocks_more_often_the_smaller_the_gin_bonus():
    # R19, V2: the knock decisions (without gin) of 120 seeded hands against simple, asked again
    # under gin bonuses 0, 25 and 60 (undercut bonus 25): the knocks fall as the bonus grows.
    views = []

    class Recorder:
        name = "recorder"

        def __init__(self):
            self.inner = resolve("opponent").make()

        def __getattr__(self, decision):
            ask = getattr(self.inner, decision)
            if decision != "knock":
                return ask

            def knock(view, rng):
                if deadwood(view.hand) > 0:
                    views.append(view)
                return ask(view, rng)

            return knock

    for i, seed in enumerate(hand_seeds(8, 120)):
        players = (Recorder(), resolve("simple").make())
        play_hand(players if i % 2 == 0 else players[::-1], Rules(), int(seed), dealer=i % 2)
    assert len(views) > 60

    def count(gin_bonus: int) -> int:
        rules = Rules(gin_bonus=gin_bonus, undercut_bonus=25)
        total = 0
        for view in views:
            view = dataclasses.replace(view, rules=rules)
            bot = resolve("opponent").make()
            bot.start_hand(view, SplitMix64(1))
            total += bot.knock(view, SplitMix64(1))
        return total

    counts = [count(bonus) for bonus in (0, 25, 60)]
    assert counts[0] > counts[1] > counts[2], counts


@pytest.mark.parametrize("spec", ["opponent:knock_samples=200", "mcts:budget=400"])
def test_one_win_from_the_target_it_takes_the_sure_hand_win(spec):
    # R20: under the eaai bonuses (undercut 25) it plays on with 7 for an undercut, but at 95 of
    # 100 a knock that wins the hand wins the game, and that is worth more than any bigger win.
    eaai = Rules.preset("eaai")
    assert not any(knocks(spec, MID_SEVEN, eaai, scores=(0, 0)))
    assert all(knocks(spec, MID_SEVEN, eaai, scores=(0, 95)))


def test_the_value_of_a_hand_result_follows_the_game():
    rules = Rules()
    # R20: far from the target a point is worth about a point; a win that reaches the target
    # is worth the whole game, and nothing more for a bigger one.
    assert payoff.result_value(rules.to_array(), 0, 0, 20) == pytest.approx(20, rel=0.1)
    assert payoff.result_value(rules.to_array(), 0, 0, 20) == pytest.approx(
        -payoff.result_value(rules.to_array(), 0, 0, -20), rel=0.1
    )
    near = [payoff.result_value(rules.to_array(), 90, 50, points) for points in (10, 30, 60)]
    assert near[0] == pytest.approx(near[1]) == pytest.approx(near[2])
    assert payoff.result_value(rules.to_array(), 90, 50, 5) < near[0]
    # A loss that ends the game costs more than the same loss earlier.
    assert payoff.result_value(rules.to_array(), 0, 90, -15) < payoff.result_value(rules.to_array(), 0, 0, -15)
    # V14: Hollywood's totals decide, boxes included: linear, with the box bonus of the hand.
    hollywood = Rules.preset("hollywood").to_array()
    assert payoff.result_value(hollywood, 90, 0, 30) == 30 + Rules().box_bonus
    assert payoff.result_value(hollywood, 0, 90, -30) == -30 - Rules().box_bonus


def test_the_chance_of_winning_a_game_is_a_proper_race():
    rules = Rules().to_array()
    assert payoff.win_chance(rules, 0, 0) == pytest.approx(0.5)
    assert payoff.win_chance(rules, 100, 40) == 1.0 and payoff.win_chance(rules, 40, 100) == 0.0
    chances = [payoff.win_chance(rules, mine, 50) for mine in range(0, 100, 10)]
    assert chances == sorted(chances) and chances[0] < 0.5 < chances[-1]
    assert payoff.win_chance(rules, 70, 30) == pytest.approx(1 - payoff.win_chance(rules, 30, 70))

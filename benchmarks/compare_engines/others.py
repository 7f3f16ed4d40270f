"""Hands played in the other engines (OpenSpiel, RLCard) and simgin's tally of the same pairing."""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Sequence
from typing import Any

import numpy as np

import simgin
import simgin.running.engine
from benchmarks.compare_engines.common import KINDS, SEED
from simgin import Rules

# -- playing hands in the other engines ------------------------------------------------------


@dataclasses.dataclass
class OutcomeTally:
    """Sums over hands of one engine and pairing: outcomes, hand length, and rule evidence."""

    hands: int = 0
    kinds: dict[str, int] = dataclasses.field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    capped: int = 0
    ties: int = 0  # knocks where both deadwoods were equal (gin excluded)
    ties_scored_zero: int = 0
    draws: int = 0
    turns: int = 0
    pile_takes: int = 0
    points: float = 0.0  # to the winner, over hands that were not dead
    rediscards: int = 0  # the card just taken from the pile thrown back in the same turn
    deal_11_10_no_up_card: int = 0
    payoffs_as_documented: int = 0
    knocker_payoffs: dict[str, int] = dataclasses.field(default_factory=dict)

    def add(self, kind: str, draws: int, turns: int, pile_takes: int, points: float = 0.0, **flags: int) -> None:
        self.hands += 1
        self.kinds[kind] += 1
        self.draws += draws
        self.turns += turns
        self.pile_takes += pile_takes
        self.points += points
        for name, value in flags.items():
            setattr(self, name, getattr(self, name) + int(value))

    def merge(self, other: OutcomeTally) -> OutcomeTally:
        merged = OutcomeTally()
        for item in dataclasses.fields(self):
            mine, theirs = getattr(self, item.name), getattr(other, item.name)
            if isinstance(mine, dict):
                setattr(merged, item.name, {key: mine.get(key, 0) + theirs.get(key, 0) for key in {*mine, *theirs}})
            else:
                setattr(merged, item.name, mine + theirs)
        return merged

    def rate(self, kind: str) -> float:
        return self.kinds[kind] / self.hands if self.hands else math.nan


def openspiel_bots(pairing: str, seed: int = SEED) -> tuple[Any, list[Any]]:
    """OpenSpiel's game with default parameters and two bots: 'random' (uniform) or 'simple'."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    if pairing == "simple":
        return game, [pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), seat) for seat in range(2)]
    return game, [pyspiel.make_uniform_random_bot(seat, seed + seat) for seat in range(2)]


def openspiel_hand(game: Any, bots: Sequence[Any], rng: random.Random, tally: OutcomeTally) -> None:
    """Play one OpenSpiel hand, chance sampled from ``rng``, and add its outcome to ``tally``."""
    import pyspiel

    gin_rummy = pyspiel.gin_rummy
    phase_draws = (gin_rummy.Phase.FIRST_UPCARD, gin_rummy.Phase.DRAW)
    state = game.new_initial_state()
    for bot in bots:
        bot.restart()
    draws = turns = pile_takes = rediscards = 0
    taken = None
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        phase = state.current_phase()
        action = bots[state.current_player()].step(state)
        if phase in phase_draws and action == gin_rummy.DRAW_UPCARD_ACTION:
            taken = state.upcard()
            draws += 1
            pile_takes += 1
        elif phase in phase_draws and action == gin_rummy.DRAW_STOCK_ACTION:
            taken = None
            draws += 1
        elif phase == gin_rummy.Phase.DISCARD:
            turns += 1
            rediscards += action == taken
        elif phase == gin_rummy.Phase.KNOCK and action < 52:  # the knocker's discard
            rediscards += action == taken
            taken = None
        elif phase == gin_rummy.Phase.WALL and action == gin_rummy.KNOCK_ACTION:  # takes the up card to knock
            draws += 1
            pile_takes += 1
            turns += 1
            taken = None
        state.apply_action(action)
    knocked = list(state.knocked())
    returns = state.returns()
    if not any(knocked):
        tally.add("dead", draws, turns, pile_takes, rediscards=rediscards, capped=state.stock_size() > 2)
        return
    knocker = knocked.index(True)
    deadwood = list(state.deadwood())
    knocker_deadwood, defender_deadwood = deadwood[knocker], deadwood[1 - knocker]
    tie = knocker_deadwood == defender_deadwood and knocker_deadwood > 0
    if knocker_deadwood == 0:
        kind = "gin"
    elif returns[knocker] < 0:
        kind = "undercut"
    else:
        kind = "knock"
    tally.add(
        kind,
        draws,
        turns,
        pile_takes,
        abs(returns[knocker]),
        rediscards=rediscards,
        ties=tie,
        ties_scored_zero=tie and returns[knocker] == 0,
    )


def rlcard_env(pairing: str, seed: int) -> tuple[Any, list[Any]]:
    """RLCard's gin-rummy environment (default settings) and two agents: 'random' or 'simple' (novice)."""
    import rlcard
    from rlcard.agents import RandomAgent
    from rlcard.models.gin_rummy_rule_models import GinRummyNoviceRuleAgent

    env = rlcard.make("gin-rummy", config={"seed": seed})
    if pairing == "simple":
        return env, [GinRummyNoviceRuleAgent(), GinRummyNoviceRuleAgent()]
    return env, [RandomAgent(num_actions=env.num_actions), RandomAgent(num_actions=env.num_actions)]


def rlcard_hand(env: Any, agents: Sequence[Any], tally: OutcomeTally) -> None:
    """Play one RLCard hand through ``env.reset``/``env.step`` and add its outcome to ``tally``."""
    from rlcard.games.gin_rummy.utils import action_event as events

    state, player = env.reset()
    game = env.game
    dealer = game.round.dealer_id
    players = game.round.players
    deal = (len(players[1 - dealer].hand), len(players[dealer].hand), len(game.round.dealer.discard_pile))
    while not env.is_over():
        state, player = env.step(agents[player].step(state))
    actions = game.actions
    pile_takes = sum(isinstance(action, events.PickUpDiscardAction) for action in actions)
    draws = pile_takes + sum(isinstance(action, events.DrawCardAction) for action in actions)
    turns = sum(isinstance(action, events.DiscardAction | events.KnockAction | events.GinAction) for action in actions)
    moves = game.round.move_sheet
    deadwood = [moves[-2].deadwood_count, moves[-1].deadwood_count]  # ScoreNorthMove (player 0), ScoreSouthMove (1)
    payoffs = [float(value) for value in env.get_payoffs()]
    going_out, who = game.round.going_out_action, game.round.going_out_player_id
    flags = {"deal_11_10_no_up_card": deal == (11, 10, 0)}
    if isinstance(going_out, events.GinAction | events.KnockAction):
        gin = isinstance(going_out, events.GinAction)
        other = 1 - who
        documented = payoffs[who] == (1.0 if gin else 0.2) and math.isclose(payoffs[other], -deadwood[other] / 100)
        # RLCard has no lay-off and no undercut; "undercut" here is the rule book's R18 on the
        # deadwoods RLCard records (the defender's count equal to or below the knocker's).
        undercut = deadwood[other] <= deadwood[who]
        kind = "gin" if gin else "undercut" if undercut else "knock"
        flags["ties"] = not gin and deadwood[other] == deadwood[who]
        key = f"{kind} {payoffs[who]:g}"
        tally.knocker_payoffs[key] = tally.knocker_payoffs.get(key, 0) + 1
    else:
        kind = "dead"
        documented = all(math.isclose(payoffs[seat], -deadwood[seat] / 100) for seat in range(2))
        flags["capped"] = len(game.round.dealer.stock_pile) > game.settings.stockpile_dead_card_count
    flags["payoffs_as_documented"] = documented
    tally.add(kind, draws, turns, pile_takes, **flags)


def play_other(engine: str, pairing: str, hand_count: int, seed: int) -> dict[str, Any]:
    """Play ``hand_count`` hands of another engine; the :class:`OutcomeTally` as a dict.

    Runs in a worker process for the outcome mix; a plain dict crosses the process boundary
    whatever module name the worker gave this script.
    """
    tally = OutcomeTally()
    if engine == "OpenSpiel":
        game, bots = openspiel_bots(pairing, seed)
        rng = random.Random(seed)
        for _ in range(hand_count):
            openspiel_hand(game, bots, rng, tally)
    else:
        env, agents = rlcard_env(pairing, seed)
        np.random.seed(seed % 2**32)  # RLCard's agents draw from numpy's global generator
        for _ in range(hand_count):
            rlcard_hand(env, agents, tally)
    return dataclasses.asdict(tally)


def simgin_tally(
    rules: Rules, hand_count: int, seed: int, bots: tuple[str, str] = ("simple", "simple")
) -> OutcomeTally:
    """simgin's hands as an :class:`OutcomeTally` (one ``play_hands`` call)."""
    frame = simgin.running.engine.play_hands(bots, rules, hand_count, seed)
    tally = OutcomeTally(hands=len(frame))
    kinds = frame["kind"].astype(str)
    for kind in KINDS:
        tally.kinds[kind] = int((kinds == kind).sum())
    tally.kinds["gin"] += int((kinds == "big_gin").sum())
    scored = kinds != "dead"
    tie = scored & (kinds != "gin") & (frame["knocker_deadwood"] == frame["defender_deadwood"])
    tally.capped = int(frame["capped"].sum())
    tally.ties = int(tie.sum())
    tally.ties_scored_zero = int((tie & (frame["points"] == 0)).sum())
    tally.draws = int(frame["draws"].sum())
    tally.turns = int(frame["turns"].sum())
    tally.pile_takes = int((frame["pile_takes_0"] + frame["pile_takes_1"]).sum())
    tally.points = float(frame.loc[scored, "points"].sum())
    return tally

"""The players' own playouts of ``simgin analyse`` (``kernels.continuation``, issue 34; docs/ANALYSIS.md).

The kernel sets up the hand of a decision in one world and lets the two compiled bots play it on. Played in
the true world (the other's real hand, the real stock order) by bots that remember nothing and draw no random
numbers (``greedy``), that is the hand itself: the value of the action taken is the points the hand gave.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import simgin
from simgin.analysis.evaluator import Evaluator
from simgin.env.table import seat_policies
from simgin.game.rules import Rules
from simgin.kernels import analysis as ka, bots, continuation, env, view
from simgin.kernels.melds import SUIT_DEADWOOD
from simgin.kernels.parameters import PARAMETER_CAPACITY
from simgin.kernels.showdown import SUIT_VALUE

GREEDY = np.array([bots.BOT_GREEDY, bots.BOT_GREEDY], dtype=np.int64)
PARAMS = np.zeros((2, PARAMETER_CAPACITY))

#: Analysis kind and action of each env phase and action (``kernels.analysis`` numbers them).
KIND_OF_PHASE = {
    env.PHASE_UP_CARD: ka.KIND_UP_CARD,
    env.PHASE_DRAW: ka.KIND_DRAW,
    env.PHASE_DISCARD: ka.KIND_DISCARD,
    env.PHASE_KNOCK: ka.KIND_KNOCK,
    env.PHASE_FIFTIETH: ka.KIND_FIFTIETH,
}
ACTION_OF = {env.TAKE: 1, env.PASS: 0, env.DRAW_STOCK: 0, env.KNOCK: 1, env.PLAY_ON: 0}


def _decisions_of_a_hand(rules: Rules, hand_seed: int, dealer: int):
    """Play one hand with ``greedy`` in both seats through ``kernels.env``; return, for each decision, what the
    continuation needs (the kind, the seat, its hand, its view, the true world and the action taken), and the
    hand's points for each seat."""
    policies = seat_policies(GREEDY)
    array = rules.to_array()
    state = np.zeros(env.TABLE_SIZE, dtype=np.int64)
    fields = np.zeros(env.FIELD_COUNT, dtype=np.int64)
    env.deal(state, fields, hand_seed, dealer, 0, 0, array, GREEDY, PARAMS, SUIT_DEADWOOD, SUIT_VALUE, policies)
    decisions = []
    while fields[env.F_PHASE] != env.PHASE_OVER:
        seat = int(fields[env.F_PLAYER])
        phase = int(fields[env.F_PHASE])
        action = int(env._bot_action(state, fields, array, SUIT_DEADWOOD, policies))
        if phase == env.PHASE_DISCARD and env._may_go_big_gin(fields, array, SUIT_DEADWOOD):
            kind, taken = ka.KIND_BIG_GIN, int(action == env.BIG_GIN)  # V13: big gin, or the bot's own discard
        else:
            kind, taken = KIND_OF_PHASE[phase], action if action < 52 else ACTION_OF[action]
        nxt = int(fields[env.F_STOCK_NEXT])
        hands = int(fields[env.F_HANDS + seat]), int(fields[env.F_HANDS + 1 - seat])
        stock = fields[env.F_DECK + nxt : env.F_DECK + 52].copy()
        decisions.append((kind, seat, hands[0], state[: view.TABLE_SIZE].copy(), hands[1], stock, taken))
        assert env.is_legal(fields, state, array, SUIT_DEADWOOD, action)
        env.apply(state, fields, action, array, SUIT_DEADWOOD, SUIT_VALUE)
    return decisions, (env.hand_reward(fields, 0), env.hand_reward(fields, 1))


@pytest.mark.parametrize(
    ("rules", "hands"),
    [
        (Rules(), 30),
        (Rules.preset("oklahoma"), 30),
        (Rules.preset("straight"), 30),
        (Rules(fiftieth_card_action=True, knock_limit=5), 30),
        (Rules(fiftieth_card_action=True, knock_limit=0), 40),  # hand 35 reaches the 50th card
        (Rules(rediscard_taken_card=True), 30),
        (Rules(big_gin=True, knock_limit=0), 30),
    ],
    ids=["standard", "oklahoma", "straight", "V7 knock 5", "V7 straight", "V6", "V13 straight"],
)
def test_played_on_in_the_true_world_the_action_taken_is_worth_what_the_hand_gave(rules, hands):
    """R8-R19, V6, V7, V9, V13: from every decision of 30 or more hands, the continuation of the action taken, in
    the real world, finishes the hand as it was played: the same points for the player (and every action is
    legal). The 50th card (V7) is offered only where the other could knock with it, rarely with a bot that
    knocks as soon as it may: under straight gin, hand 35 reaches it."""
    policies = seat_policies(GREEDY)
    kinds = set()
    for hand_seed in range(hands):
        decisions, points = _decisions_of_a_hand(rules, 1000 + hand_seed, hand_seed % 2)
        for kind, seat, hand, table, other, stock, taken in decisions:
            actions = np.zeros(ka.MAX_ACTIONS, dtype=np.int64)
            out = np.full(ka.MAX_ACTIONS, -999.0)
            count = continuation.continuation_in_world(
                kind, seat, np.int64(hand), table, False, np.int64(other), stock, np.uint64(5), GREEDY, PARAMS,
                policies, actions, out,
            )  # fmt: skip
            listed = list(actions[:count])
            assert taken in listed
            assert not np.isnan(out[:count]).any()
            assert out[listed.index(taken)] == points[seat], (kind, seat, taken)
            kinds.add(kind)
    assert {ka.KIND_UP_CARD, ka.KIND_DRAW, ka.KIND_DISCARD} <= kinds
    if rules.knock_limit > 0:
        assert ka.KIND_KNOCK in kinds
    if rules.big_gin:
        assert ka.KIND_BIG_GIN in kinds
    if rules.fiftieth_card_action and rules.knock_limit == 0:
        assert ka.KIND_FIFTIETH in kinds


def test_the_players_playouts_need_compiled_players():
    """A plain-Python strategy or a program cannot be played inside the kernel: one ValueError naming it, from
    the Python API and as one Error line from the CLI."""
    from click.testing import CliRunner

    from simgin.cli.main import main

    with pytest.raises(ValueError, match=re.escape("'exec:python bot.py' is not one")):
        Evaluator(policy="players").seated(("simple", "exec:python bot.py"))
    outcome = CliRunner().invoke(
        main, ["analyse", "exec:python bot.py", "simple", "--hands", "2", "--playouts", "players", "--quiet"]
    )
    assert outcome.exit_code == 1
    assert outcome.output.startswith("Error: ") and outcome.output.count("\n") == 1, outcome.output


def test_the_players_playouts_are_played_by_the_player_in_each_seat():
    """The value of a decision depends on who plays the hand on: the same first decision of a hand (R11), valued
    for ``greedy`` with ``greedy`` in the other seat and with ``random`` there, is worth more against ``random``
    (which throws its melds away), and the analysis seats each bot where it sits (duplicate deals swap them)."""
    from simgin.analysis.recorder import RecordingStrategy
    from simgin.game.reference_engine import play_hand
    from simgin.players.registry import resolve

    log: list = []
    seats = (RecordingStrategy(resolve("greedy").make(), log), resolve("greedy").make())
    play_hand(seats, Rules(), 17, 1)
    first = log[0]
    assert first.view.seat == 0
    evaluator = Evaluator(policy="players", worlds=64)
    against_greedy = evaluator.seated(("greedy", "greedy")).value(first, key=3)
    against_random = evaluator.seated(("greedy", "random")).value(first, key=3)
    assert min(against_random.values) > max(against_greedy.values) + 2
    assert evaluator.seated(("random", "greedy")).seats[0][0] == bots.BOT_RANDOM
    result = simgin.analyse("greedy", "random", hands=4, worlds=8, workers=1, playouts="players")
    for item in result.to_json()["players"]:
        assert item["net_points"] == pytest.approx(item["skill"] + item["luck"])

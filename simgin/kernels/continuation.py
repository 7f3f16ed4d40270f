"""Every legal action of one decision valued by the players' own play after it: the ``players`` playouts of
``simgin analyse`` (issue 34; docs/ANALYSIS.md, *Playouts by the players themselves*).

:mod:`simgin.kernels.analysis` finishes each world's hand with a fast policy for both seats, which values a
decision as if both players then played that policy. Here the hand is finished by the two compiled bots that
play it (``kernels.bots``), moved by the hand kernel of the environments (``kernels.env``: the same rules, in
the same order, as the engine), so that a decision's value is what it is worth to *these* players: the
advice check of docs/ANALYSIS.md plays the same players on after a decision, and this valuation predicts it.

The worlds are those of ``kernels.analysis`` (the other's hand and the stock order drawn from the deciding
player's view, with the same evidence and tilt), so a valuation still reads the view only. In each world both
bots start from the view as a fresh seat would (``DECISION_START``, then the pile, takes, passes and discards
that the table shows: ``opponent`` rebuilds its estimate from them), with generators of the world's own, the
same for every action (common random numbers).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgin.kernels import bots, env, rule_index as ri, view as v
from simgin.kernels.analysis import (
    KIND_DISCARD,
    KIND_DRAW,
    KIND_FIFTIETH,
    KIND_KNOCK,
    KIND_UP_CARD,
    _value,
    _world_setup,
    legal_actions,
    world_quality,
)
from simgin.kernels.decisions import FLOAT_MEMORY, I_RNG, S_FLOATS, slot
from simgin.kernels.engine import HAND_FIELD_COUNT, start_record
from simgin.kernels.knock import hand_multiplier
from simgin.kernels.mcts import sample_world
from simgin.kernels.melds import SUIT_DEADWOOD
from simgin.kernels.parameters import PARAMETER_CAPACITY
from simgin.kernels.rng import derive
from simgin.kernels.showdown import SUIT_VALUE


@njit(cache=True)
def _set_position(kind, seat, hand, table, opponent_hand, stock, world_seed, bot_ids, bot_params, policies, state,
                  fields):  # fmt: skip
    """The hand of the decision in one world, in the arrays of ``kernels.env``: ``seat`` holding ``hand`` and to
    answer a ``kind`` decision, the other holding ``opponent_hand``, ``stock`` the stock from its top, both
    compiled bots told of the hand afresh (their generators from ``world_seed``)."""
    rules = table[v.T_RULES : v.T_RULES + ri.RULE_COUNT]
    state[:] = 0
    state[: v.TABLE_SIZE] = table
    fields[:] = 0
    other = 1 - seat
    fields[env.F_HANDS + seat] = hand
    fields[env.F_HANDS + other] = opponent_hand
    count = table[v.T_STOCK_COUNT]
    fields[env.F_STOCK_NEXT] = 52 - count
    for i in range(count):
        fields[env.F_DECK + 52 - count + i] = stock[i]
    fields[env.F_PLAYER] = seat
    fields[env.F_DRAWN] = table[v.T_DRAWN]
    fields[env.F_FROM_PILE] = table[v.T_FROM_PILE]
    fields[env.F_FIFTIETH] = table[v.T_FIFTIETH]
    fields[env.F_TURNS] = table[v.T_TURN]
    fields[env.F_LAST_DISCARD] = v.pile_top(table) if table[v.T_PILE_COUNT] > 0 else -1
    fields[env.F_ERROR_SEAT] = -1
    start_record(
        fields[env.F_RECORD : env.F_RECORD + HAND_FIELD_COUNT], table[v.T_DEALER], table[v.T_UP_CARD],
        table[v.T_KNOCK_LIMIT], hand_multiplier(rules, table),
    )  # fmt: skip
    if kind == KIND_UP_CARD:
        fields[env.F_PHASE] = env.PHASE_UP_CARD
    elif kind == KIND_DRAW:
        fields[env.F_PHASE] = env.PHASE_DRAW
    elif kind == KIND_KNOCK:
        fields[env.F_PHASE] = env.PHASE_KNOCK
    elif kind == KIND_FIFTIETH:
        fields[env.F_PHASE] = env.PHASE_FIFTIETH
    else:
        fields[env.F_PHASE] = env.PHASE_DISCARD
    floats = state[S_FLOATS:].view(np.float64)
    for s in range(2):
        fields[env.F_BOTS + s] = bot_ids[s]
        state[slot(s, I_RNG)] = np.int64(derive(world_seed, np.uint64(1 + s)))
        for i in range(PARAMETER_CAPACITY):
            floats[s * FLOAT_MEMORY + i] = bot_params[s, i]
        bots.start_hand(bot_ids[s], s, fields[env.F_HANDS + s], state, SUIT_DEADWOOD, policies)


@njit(cache=True)
def _env_action(kind, action, seat, state, fields, rules, policies):
    """The ``kernels.env`` action of the analysis action ``action`` of a ``kind`` decision (``kernels.analysis``
    numbers them). Declining big gin (V13) is the player's own discard, asked of its bot."""
    if kind == KIND_DISCARD:
        return action
    if kind in (KIND_UP_CARD, KIND_FIFTIETH):
        return env.TAKE if action == 1 else env.PASS
    if kind == KIND_DRAW:
        return env.TAKE if action == 1 else env.DRAW_STOCK
    if kind == KIND_KNOCK:
        return env.KNOCK if action == 1 else env.PLAY_ON
    if action == 1:  # big gin (V13)
        return env.BIG_GIN
    bot = fields[env.F_BOTS + seat]
    return bots.discard(bot, seat, fields[env.F_HANDS + seat], state, SUIT_DEADWOOD, policies)


@njit(cache=True)
def _played_on(kind, seat, hand, table, game_value, opponent_hand, stock, action, world_seed, bot_ids, bot_params,
               policies, state, fields):  # fmt: skip
    """The value for ``seat`` of ``action`` in one world, the hand finished by both players' bots: its points
    (R16-R19, V9's doubling included) or, with ``game_value``, what they are worth in the game
    (``kernels.payoff.result_value``). NaN where ``action`` is not legal there or a bot breaks a rule (the tests
    check that neither happens)."""
    rules = table[v.T_RULES : v.T_RULES + ri.RULE_COUNT]
    _set_position(kind, seat, hand, table, opponent_hand, stock, world_seed, bot_ids, bot_params, policies, state,
                  fields)  # fmt: skip
    move = _env_action(kind, action, seat, state, fields, rules, policies)
    if not env.is_legal(fields, state, rules, SUIT_DEADWOOD, move):
        return np.nan
    env.apply(state, fields, move, rules, SUIT_DEADWOOD, SUIT_VALUE)
    if env.play_bots(state, fields, rules, SUIT_DEADWOOD, SUIT_VALUE, policies) != env.OK:
        return np.nan
    points = env.hand_reward(fields, seat)
    return _value(points, game_value, rules, table[v.T_SCORE + seat], table[v.T_SCORE + 1 - seat], 1)


@njit(cache=True)
def continuation_values(
    kind, seat, hand, table, worlds, rng, game_value, evidence, quality, tries, bot_ids, bot_params, policies,
    actions, values,
):  # fmt: skip
    """``values[w, a]``: the value for ``seat`` of its legal action ``actions[a]`` in world ``w``, the hand then
    played on by the compiled bots ``bot_ids`` (parameter vectors ``bot_params``, by seat; ``policies`` their
    ``decide``, ``kernels.bots.seat_policies``); returns the number of actions. The worlds are drawn as
    ``kernels.analysis.action_values`` draws them (``evidence``, ``quality``, ``tries``, the generator state
    ``rng``)."""
    count = legal_actions(kind, hand, table, actions)
    params = np.zeros(PARAMETER_CAPACITY)
    floats, known, unseen, hands, stock, cards, weights, _, _, _, _, _, _ = _world_setup(
        seat, hand, table, params, evidence
    )
    tilt = world_quality(quality, table)
    state = np.zeros(env.TABLE_SIZE, np.int64)
    fields = np.zeros(env.FIELD_COUNT, np.int64)
    base = rng[0]
    for w in range(worlds):
        sample_world(known, unseen, floats, tilt, rng, hands, seat, hand, stock, cards, weights, SUIT_DEADWOOD, tries)
        world_seed = derive(base, np.uint64(w))
        for a in range(count):
            values[w, a] = _played_on(
                kind, seat, hand, table, game_value, hands[1 - seat], stock, actions[a], world_seed, bot_ids,
                bot_params, policies, state, fields,
            )  # fmt: skip
    return count


@njit(cache=True)
def continuation_in_world(
    kind, seat, hand, table, game_value, opponent_hand, stock, world_seed, bot_ids, bot_params, policies, actions,
    out,
):  # fmt: skip
    """The value of every legal action (into ``out``; the actions into ``actions``) in one given world: the other's
    hand ``opponent_hand`` and the stock order ``stock`` (from its top), the bots' generators from ``world_seed``;
    the count. For the tests: :func:`continuation_values` draws its worlds instead."""
    count = legal_actions(kind, hand, table, actions)
    state = np.zeros(env.TABLE_SIZE, np.int64)
    fields = np.zeros(env.FIELD_COUNT, np.int64)
    for a in range(count):
        out[a] = _played_on(
            kind, seat, hand, table, game_value, opponent_hand, stock, actions[a], world_seed, bot_ids, bot_params,
            policies, state, fields,
        )  # fmt: skip
    return count

"""One hand of Gin Rummy moved one decision at a time: the kernel under ``simgin.env`` (issue 36).

:func:`simgin.kernels.engine.play_hand` plays a whole hand in one call and asks both seats' compiled bots
its questions. A learning agent needs the hand to stop at each of its own decisions, so this module keeps
a hand's state in two int64 arrays and moves it by one *action* at a time, in exactly the order of
``play_hand`` (docs/ENGINE.md: the deal R8 and V5, the up card R11, turns R9 and R10, big gin V13, the
knock R12 and R13, the end of the stock R15 and the 50th card V7, the showdown R14-R19 by
``kernels.showdown``). A test holds hands stepped here equal, row for row, to ``simgin.play_hands``.

Per table:

- ``table``: the bots' state of :mod:`simgin.kernels.decisions` (the public view of ``kernels.view``, then
  each seat's memory), so a compiled bot seated here plays exactly as in the engine;
- ``fields``: the rest of the hand (``F_*``): the phase, the player to move, both hands as 64-bit masks,
  the deck, the counts and the hand's record (``kernels.engine.H_*`` columns).

A seat whose bot id is :data:`AGENT` (-1) waits for an action; a seat with a compiled bot's id is played
here, between the agent's actions (the single-agent and batched environments' opponent), by the same
dispatch as the engine (``kernels.bots``). Lay-offs and the defender's melds are the engine's: optimal
(R14, ``kernels.showdown``).

The actions (one ``Discrete(ACTION_COUNT)`` space; which are legal depends on the phase):

====================  ==========================================================================
0-51                  discard that card (R9, R10, V6; after the 50th card V7: only discards that
                      leave the knock limit, and the knock follows)
``DRAW_STOCK`` 52     draw the stock's top card (R9)
``TAKE`` 53           take the pile's top card: the up card on the first turn (R11), the pile card on
                      a normal turn (R9), the 50th card (V7)
``PASS`` 54           decline the up card (R11) or the 50th card (V7)
``KNOCK`` 55          knock after the discard (R12); with deadwood 0 this is gin (R13)
``PLAY_ON`` 56        do not knock
``BIG_GIN`` 57        lay down all 11 cards melded instead of discarding (V13)
====================  ==========================================================================

The observation (:func:`observe`, ``OBSERVATION_SIZE`` float32, docs/ENV.md lists every feature) holds what
the player at the table knows: its hand, the pile, what the opponent took, passed and discarded, the
stock size, the scores and the rules in force; never the opponent's hand or the stock order.
"""

from __future__ import annotations

import numpy as np
from numba import njit, typed

from simgin.kernels import bots, rule_index as ri, view
from simgin.kernels.decisions import FLOAT_MEMORY, I_RNG, POLICY, S_FLOATS, STATE_SIZE, slot
from simgin.kernels.engine import (
    H_CAPPED,
    H_DEALER,
    H_DRAWS,
    H_FIFTIETH,
    H_KIND,
    H_KNOCK_LIMIT,
    H_MULTIPLIER,
    H_PILE_TAKES_0,
    H_PILE_TAKES_1,
    H_POINTS,
    H_TURNS,
    H_UP_CARD,
    H_WINNER,
    HAND_FIELD_COUNT,
    MAX_TURNS,
    hand_knock_limit,
    hand_multiplier,
    record_showdown,
    start_record,
)
from simgin.kernels.melds import best_discard_of_mask, deadwood_of_mask, discard_deadwoods
from simgin.kernels.rng import derive, shuffled_deck
from simgin.kernels.showdown import KIND_DEAD

#: A seat played by actions from outside (an agent, or a Python strategy), not by a compiled bot.
AGENT = -1

# The actions.
DRAW_STOCK = 52
TAKE = 53
PASS = 54
KNOCK = 55
PLAY_ON = 56
BIG_GIN = 57
ACTION_COUNT = 58

# The phases: which question the player to move answers.
PHASE_UP_CARD = 0
PHASE_DRAW = 1
PHASE_DISCARD = 2
PHASE_KNOCK = 3
PHASE_FIFTIETH = 4
PHASE_OVER = 5
PHASE_COUNT = 6

# Errors of step().
OK = 0
ILLEGAL = 1
"""The action is not legal in this phase (the state is unchanged)."""
BOT_ILLEGAL = 2
"""A compiled bot seated here answered with an illegal action (``F_ERROR_SEAT`` says which seat)."""

# The fields of a hand beside the bots' state.
F_PHASE = 0
F_PLAYER = 1
F_DRAWN = 2
F_FROM_PILE = 3
F_FIFTIETH = 4
F_TURNS = 5
F_DRAWS = 6
F_TAKES = 7  # two slots, by seat
F_STOCK_NEXT = 9
F_HANDS = 10  # two slots, by seat: 64-bit masks
F_LAST_DISCARD = 12
F_BOTS = 13  # two slots, by seat: a compiled bot's id, or AGENT
F_HAND_SEED = 15
F_ERROR_SEAT = 16
F_DECK = 20  # 52 slots
F_RECORD = F_DECK + 52  # HAND_FIELD_COUNT slots: the hand's row, complete once the phase is PHASE_OVER
FIELD_COUNT = F_RECORD + HAND_FIELD_COUNT
# What the deal fixes is read where the record holds it (kernels.engine.start_record), not kept twice.
F_DEALER = F_RECORD + H_DEALER
F_UP_CARD = F_RECORD + H_UP_CARD
F_KNOCK_LIMIT = F_RECORD + H_KNOCK_LIMIT
F_MULTIPLIER = F_RECORD + H_MULTIPLIER

TABLE_SIZE = STATE_SIZE
"""Slots of a table's bots' state (``kernels.decisions.STATE_SIZE``)."""

#: Where each feature block of the observation starts (docs/ENV.md); each card block has 52 slots.
O_HAND = 0
O_PILE_TOP = 52
O_PILE_BELOW = 104
O_OPPONENT_HOLDS = 156
O_OPPONENT_DISCARDED = 208
O_OPPONENT_PASSED = 260
O_DRAWN = 312
O_PHASE = 364  # PHASE_COUNT slots, one-hot
O_FROM_PILE = O_PHASE + PHASE_COUNT
O_MUST_KNOCK = O_FROM_PILE + 1
O_DEALER = O_MUST_KNOCK + 1
O_STOCK = O_DEALER + 1
O_KNOCK_LIMIT = O_STOCK + 1
O_DEADWOOD = O_KNOCK_LIMIT + 1
O_TURN = O_DEADWOOD + 1
O_SCORES = O_TURN + 1  # two slots: own, opponent's
O_RULES = O_SCORES + 2
RULE_FEATURES = 11
OBSERVATION_SIZE = O_RULES + RULE_FEATURES


@njit(cache=True)
def deal(
    table, fields, hand_seed, dealer, score_0, score_1, rules, bot_ids, bot_params, suit_deadwood, suit_value, policies
):
    """Deal hand ``hand_seed`` (R8, V5) with ``dealer`` dealing, as ``kernels.engine.play_hand`` deals it.

    ``score_0``/``score_1`` are the game points shown to the players; ``bot_ids[seat]`` is a compiled bot's id
    or :data:`AGENT`, ``bot_params[seat]`` its parameter vector. The compiled seats are told of the new hand; call
    :func:`play_bots` next (after telling any other players of it) to play them up to the first :data:`AGENT`
    decision.
    """
    table[:] = 0
    fields[:] = 0
    deck = fields[F_DECK : F_DECK + 52]
    rng = np.empty(1, np.uint64)
    rng[0] = derive(hand_seed, 0)
    shuffled_deck(rng, deck)
    floats = table[S_FLOATS:].view(np.float64)
    for seat in range(2):
        table[slot(seat, I_RNG)] = np.int64(derive(hand_seed, 1 + seat))
        for i in range(bot_params.shape[1]):
            floats[seat * FLOAT_MEMORY + i] = bot_params[seat, i]
        fields[F_BOTS + seat] = bot_ids[seat]
    non_dealer = 1 - dealer
    eleven = rules[ri.ELEVEN_START] != 0
    dealt = 21 if eleven else 20
    hands = np.zeros(2, np.int64)
    for i in range(dealt):
        seat = non_dealer if i % 2 == 0 else dealer
        hands[seat] |= 1 << deck[i]
    fields[F_HANDS] = hands[0]
    fields[F_HANDS + 1] = hands[1]
    up_card = -1 if eleven else deck[20]
    fields[F_STOCK_NEXT] = 21
    knock_limit = hand_knock_limit(rules, up_card)
    multiplier = hand_multiplier(rules, up_card)
    fields[F_HAND_SEED] = np.int64(hand_seed)
    fields[F_DRAWN] = -1
    fields[F_LAST_DISCARD] = -1
    fields[F_ERROR_SEAT] = -1
    start_record(fields[F_RECORD : F_RECORD + HAND_FIELD_COUNT], dealer, up_card, knock_limit, multiplier)
    view.reset(table, rules, dealer, up_card, knock_limit, np.int64(31), score_0, score_1)
    for seat in range(2):
        if bot_ids[seat] != AGENT:
            bots.start_hand(bot_ids[seat], seat, hands[seat], table, suit_deadwood, policies)
    # The non-dealer moves first: offered the up card (R11), or with V5's 11 cards it only discards.
    fields[F_PLAYER] = non_dealer
    fields[F_PHASE] = PHASE_DISCARD if eleven else PHASE_UP_CARD
    view.set_decision(table, non_dealer, 0, 31, -1, 0, 0)


@njit(cache=True)
def _stock_count(fields):
    return 52 - fields[F_STOCK_NEXT]


@njit(cache=True)
def _may_go_big_gin(fields, rules, suit_deadwood):
    """V13: big gin is on, a card was drawn this turn (not V5's dealt 11) and all 11 cards are melded."""
    hand = fields[F_HANDS + fields[F_PLAYER]]
    return rules[ri.BIG_GIN] != 0 and fields[F_DRAWN] >= 0 and deadwood_of_mask(hand, suit_deadwood) == 0


@njit(cache=True)
def legal_actions(fields, table, rules, suit_deadwood, mask):
    """Write 1 into ``mask[action]`` for each legal action of the player to move, 0 elsewhere; returns how many.

    Nothing is legal once the hand is over.
    """
    mask[:] = 0
    phase = fields[F_PHASE]
    if phase in (PHASE_UP_CARD, PHASE_FIFTIETH):
        mask[TAKE] = 1
        mask[PASS] = 1
        return 2
    if phase == PHASE_DRAW:
        mask[DRAW_STOCK] = 1
        count = 1
        if table[view.T_PILE_COUNT] > 0:
            mask[TAKE] = 1
            count += 1
        return count
    if phase == PHASE_KNOCK:
        mask[KNOCK] = 1
        mask[PLAY_ON] = 1
        return 2
    if phase != PHASE_DISCARD:
        return 0
    hand = fields[F_HANDS + fields[F_PLAYER]]
    drawn = fields[F_DRAWN]
    fiftieth = fields[F_FIFTIETH] != 0
    banned = -1
    if fields[F_FROM_PILE] and not fiftieth and rules[ri.REDISCARD] == 0:
        banned = drawn  # R10: not the card just taken from the pile (V6 allows it)
    count = 0
    if fiftieth:  # V7: the discard must leave a knocking hand
        left = np.empty(52, np.int64)
        discard_deadwoods(hand, suit_deadwood, left)
        for card in range(52):
            if (hand >> card) & 1 and left[card] <= fields[F_KNOCK_LIMIT]:
                mask[card] = 1
                count += 1
    else:
        for card in range(52):
            if (hand >> card) & 1 and card != banned:
                mask[card] = 1
                count += 1
    if _may_go_big_gin(fields, rules, suit_deadwood):
        mask[BIG_GIN] = 1
        count += 1
    return count


@njit(cache=True)
def is_legal(fields, table, rules, suit_deadwood, action):
    """Whether ``action`` is legal for the player to move (see :func:`legal_actions`)."""
    if action < 0 or action >= ACTION_COUNT:
        return False
    mask = np.empty(ACTION_COUNT, np.int8)
    legal_actions(fields, table, rules, suit_deadwood, mask)
    return mask[action] == 1


@njit(cache=True)
def _draw(table, fields, player, from_pile):
    """R9, R11: ``player`` draws the pile's top card or the stock's, and decides its discard next.

    Callers pass typed constants (``np.bool_``, ``np.int64``) here and to :func:`_dead` and :func:`_show_down`: a
    literal would make numba compile the function once for each value."""
    if from_pile:
        card = view.take_from_pile(table, player)
        fields[F_TAKES + player] += 1
    else:
        card = fields[F_DECK + fields[F_STOCK_NEXT]]
        fields[F_STOCK_NEXT] += 1
    fields[F_HANDS + player] |= 1 << card
    fields[F_DRAWS] += 1
    fields[F_DRAWN] = card
    fields[F_FROM_PILE] = 1 if from_pile else 0
    fields[F_PLAYER] = player
    fields[F_PHASE] = PHASE_DISCARD
    turns, stock = fields[F_TURNS], _stock_count(fields)
    view.set_decision(table, player, turns, stock, card, fields[F_FROM_PILE], fields[F_FIFTIETH])


@njit(cache=True)
def _show_down(fields, rules, big, suit_deadwood, suit_value):
    """R14-R19, V9, V13: the player to move knocks (or goes gin, or big gin): score the hand and end it."""
    player = fields[F_PLAYER]
    fields[F_TURNS] += 1
    record = fields[F_RECORD : F_RECORD + HAND_FIELD_COUNT]
    record_showdown(
        record, rules, player, fields[F_HANDS + player], fields[F_HANDS + 1 - player], big, fields[F_MULTIPLIER],
        suit_deadwood, suit_value,
    )  # fmt: skip
    _end(fields)


@njit(cache=True)
def _dead(fields, capped):
    """R15: no score (the same dealer deals again, V10)."""
    record = fields[F_RECORD : F_RECORD + HAND_FIELD_COUNT]
    record[H_KIND] = KIND_DEAD
    record[H_WINNER] = -1
    record[H_POINTS] = 0
    record[H_CAPPED] = capped
    _end(fields)


@njit(cache=True)
def _end(fields):
    record = fields[F_RECORD : F_RECORD + HAND_FIELD_COUNT]
    record[H_TURNS] = fields[F_TURNS]
    record[H_DRAWS] = fields[F_DRAWS]
    record[H_PILE_TAKES_0] = fields[F_TAKES]
    record[H_PILE_TAKES_1] = fields[F_TAKES + 1]
    fields[F_PHASE] = PHASE_OVER


@njit(cache=True)
def _turn_over(table, fields, rules, suit_deadwood):
    """Step 5 of a turn (docs/ENGINE.md): the end of the stock (R15, V7), the turn cap, or the next player's draw."""
    player = fields[F_PLAYER]
    card = fields[F_LAST_DISCARD]
    fields[F_TURNS] += 1
    turns = fields[F_TURNS]
    if _stock_count(fields) <= 2:
        # The stock just fell to two cards, so this turn drew the 50th card from the stock; V7 offers it
        # only if that same card was discarded, and only to a player who could then knock.
        other = 1 - player
        if rules[ri.FIFTIETH] and card == fields[F_DRAWN] and not fields[F_FROM_PILE]:
            _, best = best_discard_of_mask(fields[F_HANDS + other] | (1 << card), suit_deadwood)
            if best <= fields[F_KNOCK_LIMIT]:
                fields[F_PLAYER] = other
                fields[F_PHASE] = PHASE_FIFTIETH
                view.set_decision(table, other, turns, _stock_count(fields), -1, 0, 0)
                return
        _dead(fields, np.int64(0))
        return
    if turns >= MAX_TURNS:
        _dead(fields, np.int64(1))
        return
    player = 1 - player
    fields[F_PLAYER] = player
    fields[F_PHASE] = PHASE_DRAW
    view.set_decision(table, player, turns, _stock_count(fields), -1, 0, 0)


@njit(cache=True)
def apply(table, fields, action, rules, suit_deadwood, suit_value):
    """Play a legal ``action`` for the player to move (check it with :func:`is_legal` first)."""
    phase = fields[F_PHASE]
    player = fields[F_PLAYER]
    if phase == PHASE_UP_CARD:
        if action == TAKE:
            _draw(table, fields, player, np.bool_(True))
            return
        view.pass_up_card(table, player, fields[F_UP_CARD])
        if player != fields[F_DEALER]:  # the non-dealer passed: the dealer is offered the up card
            fields[F_PLAYER] = 1 - player
            view.set_decision(table, 1 - player, 0, _stock_count(fields), -1, 0, 0)
        else:  # both passed: the non-dealer draws from the stock (R11)
            _draw(table, fields, 1 - player, np.bool_(False))
        return
    if phase == PHASE_DRAW:
        _draw(table, fields, player, action == TAKE)
        return
    if phase == PHASE_FIFTIETH:
        if action == PASS:
            _dead(fields, np.int64(0))
            return
        fields[F_FIFTIETH] = 1
        fields[F_RECORD + H_FIFTIETH] = 1
        _draw(table, fields, player, np.bool_(True))
        return
    if phase == PHASE_KNOCK:
        if action == KNOCK:
            _show_down(fields, rules, np.bool_(False), suit_deadwood, suit_value)
        else:
            _turn_over(table, fields, rules, suit_deadwood)
        return
    # PHASE_DISCARD
    if action == BIG_GIN:
        _show_down(fields, rules, np.bool_(True), suit_deadwood, suit_value)
        return
    hand = fields[F_HANDS + player] & ~(1 << action)
    fields[F_HANDS + player] = hand
    fields[F_LAST_DISCARD] = action
    view.discard(table, player, action)
    if fields[F_FIFTIETH]:  # V7: the knock is forced
        _show_down(fields, rules, np.bool_(False), suit_deadwood, suit_value)
    elif deadwood_of_mask(hand, suit_deadwood) <= fields[F_KNOCK_LIMIT]:
        fields[F_PHASE] = PHASE_KNOCK
    else:
        _turn_over(table, fields, rules, suit_deadwood)


@njit(cache=True)
def _bot_action(table, fields, rules, suit_deadwood, policies):
    """The action the compiled bot of the player to move chooses, asked as ``kernels.engine.play_hand`` asks."""
    seat = fields[F_PLAYER]
    bot = fields[F_BOTS + seat]
    hand = fields[F_HANDS + seat]
    phase = fields[F_PHASE]
    if phase == PHASE_UP_CARD:
        return TAKE if bots.take_up_card(bot, seat, hand, table, suit_deadwood, policies) else PASS
    if phase == PHASE_DRAW:
        return TAKE if bots.draw_from_pile(bot, seat, hand, table, suit_deadwood, policies) else DRAW_STOCK
    if phase == PHASE_KNOCK:
        return KNOCK if bots.knock(bot, seat, hand, table, suit_deadwood, policies) else PLAY_ON
    if phase == PHASE_FIFTIETH:
        return TAKE if bots.take_fiftieth(bot, seat, hand, table, suit_deadwood, policies) else PASS
    if _may_go_big_gin(fields, rules, suit_deadwood) and bots.big_gin(bot, seat, hand, table, suit_deadwood, policies):
        return BIG_GIN
    return bots.discard(bot, seat, hand, table, suit_deadwood, policies)


@njit(cache=True)
def play_bots(table, fields, rules, suit_deadwood, suit_value, policies):
    """Play the compiled seats until an :data:`AGENT` seat is to move or the hand is over."""
    while fields[F_PHASE] != PHASE_OVER and fields[F_BOTS + fields[F_PLAYER]] != AGENT:
        action = _bot_action(table, fields, rules, suit_deadwood, policies)
        if not is_legal(fields, table, rules, suit_deadwood, action):
            fields[F_ERROR_SEAT] = fields[F_PLAYER]
            return BOT_ILLEGAL
        apply(table, fields, action, rules, suit_deadwood, suit_value)
    return OK


@njit(cache=True)
def step(table, fields, action, rules, suit_deadwood, suit_value, policies):
    """Play ``action`` for the player to move, then the compiled seats up to the next :data:`AGENT` decision.

    Returns :data:`OK`, :data:`ILLEGAL` (the action is not legal: nothing changed) or :data:`BOT_ILLEGAL`.
    """
    if fields[F_PHASE] == PHASE_OVER or not is_legal(fields, table, rules, suit_deadwood, action):
        return ILLEGAL
    apply(table, fields, action, rules, suit_deadwood, suit_value)
    return play_bots(table, fields, rules, suit_deadwood, suit_value, policies)


@njit(cache=True)
def policy_list(policies):
    """The two seats' ``decide`` functions (a tuple, ``kernels.bots.seat_policies``) in a typed list, which the
    table's kernels take: filled here, in compiled code cached on disk, because numba compiles a typed list's
    ``append`` called from Python anew in every process, once per bot (about 3 CPU s)."""
    filled = typed.List.empty_list(POLICY)
    for seat in range(2):
        filled.append(policies[seat])
    return filled


@njit(cache=True)
def hand_reward(fields, seat):
    """``seat``'s points from the hand once it is over (R16-R19: the winner's points, negative for the loser,
    0 for a dead hand), 0 while it is played."""
    if fields[F_PHASE] != PHASE_OVER:
        return 0
    winner = fields[F_RECORD + H_WINNER]
    if winner < 0:
        return 0
    points = fields[F_RECORD + H_POINTS]
    return points if winner == seat else -points


#: The largest value of any feature: scores and bonuses are scaled to about 1 and capped here, so the observation
#: space is bounded (docs/ENV.md).
FEATURE_CAP = 10.0


@njit(cache=True, inline="always")
def _capped(x):
    return min(max(x, 0.0), FEATURE_CAP)


@njit(cache=True)
def observe(table, fields, seat, rules, suit_deadwood, out):
    """What ``seat`` knows, as the float32 features of docs/ENV.md, written into ``out`` (``OBSERVATION_SIZE``).

    Read from ``seat``'s hand and the public table only (``kernels.view``): never the other hand or the stock.
    """
    out[:] = 0.0
    hand = fields[F_HANDS + seat]
    other = 1 - seat
    for card in range(52):
        if (hand >> card) & 1:
            out[O_HAND + card] = 1.0
    count = table[view.T_PILE_COUNT]
    for i in range(count):
        card = table[view.T_PILE + i]
        if i == count - 1:
            out[O_PILE_TOP + card] = 1.0
        else:
            out[O_PILE_BELOW + card] = 1.0
    known = view.known_opponent_cards(table, seat, hand)
    for card in range(52):
        if (known >> card) & 1:
            out[O_OPPONENT_HOLDS + card] = 1.0
    for i in range(table[view.T_DISCARD_COUNT + other]):
        out[O_OPPONENT_DISCARDED + table[view.T_DISCARDS + other * view.LIST_CAPACITY + i]] = 1.0
    for i in range(table[view.T_PASSED_COUNT + other]):
        out[O_OPPONENT_PASSED + table[view.T_PASSED + 2 * other + i]] = 1.0
    phase = fields[F_PHASE]
    to_move = fields[F_PLAYER] == seat and phase != PHASE_OVER
    if to_move and fields[F_DRAWN] >= 0 and phase in (PHASE_DISCARD, PHASE_KNOCK):
        if phase == PHASE_DISCARD:
            out[O_DRAWN + fields[F_DRAWN]] = 1.0
        out[O_FROM_PILE] = float(fields[F_FROM_PILE])
    out[O_PHASE + phase] = 1.0
    out[O_MUST_KNOCK] = 1.0 if fields[F_FIFTIETH] != 0 and to_move else 0.0
    out[O_DEALER] = 1.0 if fields[F_DEALER] == seat else 0.0
    out[O_STOCK] = _stock_count(fields) / 31.0
    out[O_KNOCK_LIMIT] = fields[F_KNOCK_LIMIT] / 10.0
    out[O_DEADWOOD] = min(deadwood_of_mask(hand, suit_deadwood), 100) / 100.0
    out[O_TURN] = min(fields[F_TURNS], 100) / 100.0
    target = max(rules[ri.TARGET], 1)
    out[O_SCORES] = _capped(table[view.T_SCORE + seat] / target)
    out[O_SCORES + 1] = _capped(table[view.T_SCORE + other] / target)
    out[O_RULES + 0] = _capped(rules[ri.GIN_BONUS] / 50.0)
    out[O_RULES + 1] = _capped(rules[ri.UNDERCUT_BONUS] / 50.0)
    out[O_RULES + 2] = float(rules[ri.UNDERCUT_ON_TIE])
    out[O_RULES + 3] = float(rules[ri.BIG_GIN])
    out[O_RULES + 4] = _capped(rules[ri.BIG_GIN_BONUS] / 50.0)
    out[O_RULES + 5] = float(rules[ri.REDISCARD])
    out[O_RULES + 6] = float(rules[ri.FIFTIETH])
    out[O_RULES + 7] = float(rules[ri.OKLAHOMA])
    out[O_RULES + 8] = float(fields[F_MULTIPLIER]) / 2.0
    out[O_RULES + 9] = float(rules[ri.ELEVEN_START])
    out[O_RULES + 10] = _capped(target / 500.0)


@njit(cache=True)
def _deal_next(tables, fields, i, seed, next_hand, rules, bot_ids, bot_params, suit_deadwood, suit_value, policies):
    """Deal table ``i`` its next hand (hand ``h`` of the batch: seed ``derive(seed, h)``, dealer ``h % 2``, as
    ``simgin.play_hands``), and play the compiled seats to the first agent decision; a hand they finish alone
    is dealt anew. Returns how many such hands there were, or -1 when a compiled seat broke a rule."""
    alone = 0
    while True:
        h = next_hand[i]
        next_hand[i] = h + tables.shape[0]
        table, hand = tables[i], fields[i]
        deal(
            table, hand, derive(seed, h), h % 2, np.int64(0), np.int64(0), rules, bot_ids, bot_params, suit_deadwood,
            suit_value, policies,
        )  # fmt: skip
        if play_bots(table, hand, rules, suit_deadwood, suit_value, policies) != OK:
            return -1
        if hand[F_PHASE] != PHASE_OVER:
            return alone
        alone += 1


@njit(cache=True)
def _report(tables, fields, i, rules, suit_deadwood, observations, masks, to_move):
    seat = fields[i, F_PLAYER]
    to_move[i] = seat
    observe(tables[i], fields[i], seat, rules, suit_deadwood, observations[i])
    legal_actions(fields[i], tables[i], rules, suit_deadwood, masks[i])


@njit(cache=True, nogil=True)
def reset_batch(
    tables, fields, seed, next_hand, rules, bot_ids, bot_params, suit_deadwood, suit_value, policies, observations,
    masks, to_move, alone,
):  # fmt: skip
    """Deal every table its first hand (table i: hand i of the batch) and report what the player to move sees;
    ``alone[i]`` counts table i's hands the compiled seats finished without an agent move. Returns -1, or the
    first table whose compiled seat made an illegal move."""
    for i in range(tables.shape[0]):
        next_hand[i] = i
        alone[i] = _deal_next(tables, fields, i, seed, next_hand, rules, bot_ids, bot_params, suit_deadwood,
                              suit_value, policies)  # fmt: skip
        if alone[i] < 0:
            return i
        _report(tables, fields, i, rules, suit_deadwood, observations, masks, to_move)
    return -1


@njit(cache=True, nogil=True)
def step_batch(
    tables, fields, actions, seed, next_hand, rules, bot_ids, bot_params, suit_deadwood, suit_value, policies,
    observations, masks, to_move, rewards, dones, rows, alone,
):  # fmt: skip
    """One action per table for its player to move, then its compiled seats; a finished hand's rewards (by seat,
    :func:`hand_reward`), ``dones[i]`` and its row (``rows[i]``) are reported and the table is dealt its next hand
    (``observations``, ``masks`` and ``to_move`` then describe the new hand).

    Every action is checked before any is played: returns -1, or the first table whose action is not legal
    (nothing changed), or ``-2 - i`` when table i's compiled seat made an illegal move.
    """
    n = tables.shape[0]
    for i in range(n):
        if fields[i, F_PHASE] == PHASE_OVER or not is_legal(fields[i], tables[i], rules, suit_deadwood, actions[i]):
            return i
    for i in range(n):
        table, hand = tables[i], fields[i]
        apply(table, hand, actions[i], rules, suit_deadwood, suit_value)
        if play_bots(table, hand, rules, suit_deadwood, suit_value, policies) != OK:
            return -2 - i
        rewards[i, 0] = 0.0
        rewards[i, 1] = 0.0
        dones[i] = False
        if hand[F_PHASE] == PHASE_OVER:
            rewards[i, 0] = hand_reward(hand, np.int64(0))
            rewards[i, 1] = hand_reward(hand, np.int64(1))
            dones[i] = True
            rows[i, :] = hand[F_RECORD : F_RECORD + HAND_FIELD_COUNT]
            skipped = _deal_next(tables, fields, i, seed, next_hand, rules, bot_ids, bot_params, suit_deadwood,
                                 suit_value, policies)  # fmt: skip
            if skipped < 0:
                return -2 - i
            alone[i] += skipped
        _report(tables, fields, i, rules, suit_deadwood, observations, masks, to_move)
    return -1

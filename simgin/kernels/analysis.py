"""Every legal action of one decision valued by playouts in sampled worlds: the evaluator of ``simgin analyse``
(issue 34; docs/ANALYSIS.md).

A *world* is what the deciding player cannot see, drawn from what it can: the other player's hand (the cards
it is known to hold, from the pile, R9, plus cards drawn uniformly from those the player has not seen) and
the order of the stock (the remaining unseen cards, shuffled). The table a decision is valued from holds
only the player's view (``kernels.view``: its hand, the pile, what the other took, passed and discarded),
so a valuation cannot read hidden cards. Every action of a decision is played out in the *same* worlds
(common random numbers), so the difference between two actions, the loss of a decision, has a far smaller
Monte-Carlo error than either value.

A playout finishes the hand with the fast policy of ``kernels.mcts.play_out`` for both seats: take the pile
card when it fits a meld, discard to the least deadwood, knock as soon as the deadwood is at most the
hand's knock limit (R12). Its value for the player is the hand's points (R17-R19, V9's doubling included:
positive when it wins them, negative when the other does, 0 for a dead hand, R15), or with ``game_value``
what those points are worth in the game (``kernels.payoff.result_value``, as the bots' payoff). One decision
is not left to the playouts: after a discard that leaves a hand that may knock, the player's own knock or play
on is the better of the two over the worlds (:func:`_decide_knocks`), as the player decides it, not a knock
made in every world because the deadwood allows it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgin.kernels import parameters as pm, rule_index as ri, view as v
from simgin.kernels.heuristic import FULL_STOCK
from simgin.kernels.knock import hand_multiplier
from simgin.kernels.mcts import (
    C_GONE,
    C_KNOWS,
    PHASE_AFTER_DISCARD,
    PHASE_DISCARD,
    PHASE_DRAW,
    _playout_buffers,
    draw_start,
    play_out,
    playout_context,
    playout_scratch,
    policy_discard,
    sample_world,
    showdown_value,
)
from simgin.kernels.melds import SUIT_DEADWOOD, deadwood_of_mask
from simgin.kernels.opponent import probabilities, reset_beliefs, stateless_weights
from simgin.kernels.payoff import result_value
from simgin.kernels.showdown import SUIT_VALUE

KIND_UP_CARD = 0
"""Take or pass the up card on the first turn (R11): action 1 takes it, 0 passes."""
KIND_DRAW = 1
"""Draw the pile's top card or the stock's (R9): action 1 takes the pile card, 0 draws from the stock."""
KIND_DISCARD = 2
"""Which of the 11 cards to discard (R9, R10, V6): the action is the card."""
KIND_KNOCK = 3
"""Knock (or go gin) with the 10 cards left, or play on (R12, R13): action 1 knocks, 0 plays on."""
KIND_BIG_GIN = 4
"""Go big gin with the 11 cards held after a draw, all melded (V13): action 1 goes big gin, 0 discards (the
least deadwood) and plays on."""
KIND_FIFTIETH = 5
"""Take the 50th card the other just discarded, to knock (V7): action 1 takes it and knocks with the discard
that leaves the least deadwood (or goes big gin when the 11 cards are all melded and the rules allow it), 0
lets the hand die (R15)."""
KIND_NAMES = ("up_card", "draw", "discard", "knock", "big_gin", "fiftieth")

MAX_ACTIONS = 11
#: Float and int memory of the world sampler's estimate (``kernels.opponent``: one weight per card).
BELIEF_FLOATS = 64
BELIEF_INTS = 8


@njit(cache=True)
def _value(points, game_value, rules, mine, theirs, multiplier):
    if game_value:
        return result_value(rules, mine, theirs, multiplier * points)
    return np.float64(multiplier * points)


@njit(cache=True)
def _banned(table, rules):
    """The card a discard may not be: the pile card just taken, unless the rules let it go back (R10, V6) or it
    is the 50th card taken to knock (V7: it may be the knock discard)."""
    if table[v.T_FROM_PILE] != 0 and rules[ri.REDISCARD] == 0 and table[v.T_FIFTIETH] == 0:
        return table[v.T_DRAWN]
    return np.int64(-1)


@njit(cache=True)
def legal_actions(kind, hand, table, actions):
    """Write the legal actions of a decision of kind ``kind`` into ``actions``; return how many.

    A discard may be any card held but the pile card just taken, unless the rules let it go back (R10, V6);
    after taking the 50th card (V7) only a discard that leaves a hand that may knock."""
    if kind != KIND_DISCARD:
        actions[0] = 0
        actions[1] = 1
        return 2
    rules = table[v.T_RULES : v.T_RULES + ri.RULE_COUNT]
    banned = _banned(table, rules)
    fiftieth = table[v.T_FIFTIETH] != 0
    count = 0
    for card in range(52):
        if (hand >> card) & 1 and card != banned:
            if fiftieth and deadwood_of_mask(hand & ~(1 << card), SUIT_DEADWOOD) > table[v.T_KNOCK_LIMIT]:
                continue
            actions[count] = card
            count += 1
    return count


@njit(cache=True)
def _world_values(
    kind, seat, hand, table, game_value, params, opponent_hand, stock, actions, count, hands, context, case,
    scratch, levels, work, result, out, held,
):  # fmt: skip
    """``out[a]``: the value of action ``actions[a]`` in the world of ``opponent_hand`` and ``stock``.

    A discard that leaves a hand that may knock (R12) is followed by the player's own knock decision, made with
    what it knew when it discarded: ``out[a]`` is then the value of knocking and ``held[a]`` that of playing on
    (:func:`_decide_knocks` keeps the better of the two over the worlds). ``held[a]`` is NaN for every other
    action; with the 50th card taken (V7) the knock is forced, so there is no playing on."""
    rules = table[v.T_RULES : v.T_RULES + ri.RULE_COUNT]
    stock_count = table[v.T_STOCK_COUNT]
    mine = table[v.T_SCORE + seat]
    theirs = table[v.T_SCORE + 1 - seat]
    multiplier = hand_multiplier(rules, table)
    top = v.pile_top(table)
    dealer = table[v.T_DEALER]
    other = 1 - seat
    levels[other] = holding_level(table, other, opponent_hand)
    for a in range(count):
        hands[seat] = hand
        hands[other] = opponent_hand
        case[:] = context
        held[a] = np.nan
        if kind <= KIND_DRAW:  # the up card (R11) or a normal draw (R9)
            player, drawn, from_pile = draw_start(
                kind == KIND_UP_CARD, actions[a], seat, dealer, top, opponent_hand, stock
            )
            hands[player] |= 1 << drawn
            if from_pile:
                case[C_KNOWS + 1 - player] |= 1 << drawn  # the other player now knows the card
            points = play_out(
                seat, player, np.int64(PHASE_DISCARD), hands, -1 if from_pile else top, drawn, from_pile,
                stock, 0 if from_pile else 1, levels, rules, SUIT_DEADWOOD, SUIT_VALUE, work, result, params,
                case, scratch,
            )  # fmt: skip
        elif kind == KIND_DISCARD:
            card = actions[a]
            hands[seat] = hand & ~(1 << card)
            case[C_GONE] |= 1 << card  # the discard joins the pile
            if table[v.T_FIFTIETH] == 0 and deadwood_of_mask(hands[seat], SUIT_DEADWOOD) <= table[v.T_KNOCK_LIMIT]:
                if stock_count > 2:  # play on: the other draws next (R9); else the hand is dead (R15)
                    playing_on = play_out(
                        seat, other, np.int64(PHASE_DRAW), hands, card, np.int64(-1), np.bool_(False), stock,
                        np.int64(0), levels, rules, SUIT_DEADWOOD, SUIT_VALUE, work, result, params, case, scratch,
                    )  # fmt: skip
                else:
                    playing_on = 0
                held[a] = _value(playing_on, game_value, rules, mine, theirs, multiplier)
                hands[seat] = hand & ~(1 << card)
                hands[other] = opponent_hand
            points = play_out(
                seat, seat, np.int64(PHASE_AFTER_DISCARD), hands, card, np.int64(-1), np.bool_(False), stock,
                np.int64(0), levels, rules, SUIT_DEADWOOD, SUIT_VALUE, work, result, params, case, scratch,
            )  # fmt: skip
        elif kind == KIND_BIG_GIN:
            if actions[a] == 1:
                points = showdown_value(seat, seat, hands, np.bool_(True), rules, SUIT_DEADWOOD, SUIT_VALUE, result)
            else:
                card, _ = policy_discard(hand, _banned(table, rules), SUIT_DEADWOOD)
                hands[seat] = hand & ~(1 << card)
                case[C_GONE] |= 1 << card
                if table[v.T_FIFTIETH] != 0:  # V7: the knock after the 50th-card take is forced
                    points = showdown_value(
                        seat, seat, hands, np.bool_(False), rules, SUIT_DEADWOOD, SUIT_VALUE, result
                    )
                else:
                    points = play_out(
                        seat, seat, np.int64(PHASE_AFTER_DISCARD), hands, card, np.int64(-1), np.bool_(False),
                        stock, np.int64(0), levels, rules, SUIT_DEADWOOD, SUIT_VALUE, work, result, params, case,
                        scratch,
                    )  # fmt: skip
        elif kind == KIND_FIFTIETH:
            if actions[a] == 1:
                with_card = hand | (1 << top)
                if rules[ri.BIG_GIN] != 0 and deadwood_of_mask(with_card, SUIT_DEADWOOD) == 0:
                    hands[seat] = with_card
                    points = showdown_value(seat, seat, hands, np.bool_(True), rules, SUIT_DEADWOOD, SUIT_VALUE, result)
                else:
                    card, _ = policy_discard(with_card, np.int64(-1), SUIT_DEADWOOD)
                    hands[seat] = with_card & ~(1 << card)
                    points = showdown_value(
                        seat, seat, hands, np.bool_(False), rules, SUIT_DEADWOOD, SUIT_VALUE, result
                    )
            else:
                points = 0  # V7, R15: declined, the hand is dead
        elif actions[a] == 1:
            points = showdown_value(seat, seat, hands, np.bool_(False), rules, SUIT_DEADWOOD, SUIT_VALUE, result)
        elif stock_count > 2:
            points = play_out(
                seat, other, np.int64(PHASE_DRAW), hands, top, np.int64(-1), np.bool_(False), stock, np.int64(0),
                levels, rules, SUIT_DEADWOOD, SUIT_VALUE, work, result, params, case, scratch,
            )  # fmt: skip
        else:
            points = 0  # R15: the hand is dead when only two stock cards are left and nobody knocked
        out[a] = _value(points, game_value, rules, mine, theirs, multiplier)


@njit(cache=True)
def _decide_knocks(values, held, worlds, count):
    """For each discard followed by the player's own knock decision (``held[:, a]`` not NaN), keep the better of
    knocking (``values[:, a]``) and playing on (``held[:, a]``) by their means over the worlds: the player
    decides with what it knows, the same in every world (R12). The per-world values of the option kept stay
    paired with the other actions' (common random numbers)."""
    for a in range(count):
        if np.isnan(held[0, a]):
            continue
        knocking = 0.0
        playing_on = 0.0
        for w in range(worlds):
            knocking += values[w, a]
            playing_on += held[w, a]
        if playing_on > knocking:
            for w in range(worlds):
                values[w, a] = held[w, a]


@njit(cache=True)
def holding_level(table, other, opponent_hand):
    """The knock level of the other player in a world's playouts: the hand's knock limit (R12), but below the
    deadwood of ``opponent_hand`` when that hand could have knocked after the other's last discard and did not
    (knocking is optional): in that world the other is holding out, so its playouts knock only once it has
    improved (gin stays gin, R13). Without this, a world whose hand the other declined to knock with has it
    knock at once into a likely undercut, and playing on is overvalued."""
    limit = table[v.T_KNOCK_LIMIT]
    if table[v.T_DISCARD_COUNT + other] == 0:  # no discard yet: no knock was declined
        return limit
    held = deadwood_of_mask(opponent_hand, SUIT_DEADWOOD)
    if held > limit:
        return limit
    return max(held - 1, 0)


@njit(cache=True)
def _knock_levels(table):
    """The playouts knock as soon as the deadwood is at most the hand's knock limit, both seats (R12)."""
    levels = np.empty(2, np.int64)
    levels[0] = table[v.T_KNOCK_LIMIT]
    levels[1] = table[v.T_KNOCK_LIMIT]
    return levels


QUALITY_RAMP = 16.0
"""Stock cards drawn by the time the other's hand is tilted by the full ``quality`` (:func:`world_quality`)."""


@njit(cache=True)
def world_quality(quality, table):
    """The tilt of the other's drawn hand towards low deadwood at this point of the hand: ``quality`` per point
    once ``QUALITY_RAMP`` stock cards have been drawn (R8: ``FULL_STOCK``, 31, at the first draw), in proportion
    before that, and never below a sixth of it. A player keeps what melds and throws the rest away, so its hand
    improves with every card it sees (docs/ANALYSIS.md measures how much)."""
    drawn = max(FULL_STOCK - table[v.T_STOCK_COUNT], 0)
    return quality * min(max(drawn / QUALITY_RAMP, 1.0 / 6.0), 1.0)


@njit(cache=True)
def _world_setup(seat, hand, table, params, evidence):
    """What drawing worlds from a view and playing them out needs (:func:`action_values`,
    :func:`stock_draw_values`): the belief weights and the known and unseen cards of the view, the playouts'
    buffers, context, scratch and knock levels."""
    floats = np.zeros(BELIEF_FLOATS)
    estimate = np.zeros(pm.PARAMETER_CAPACITY)
    estimate[pm.EVIDENCE] = evidence
    stateless_weights(estimate, seat, table, floats)
    p = np.empty(52)
    known, unseen = probabilities(seat, hand, table, floats, p)
    hands, stock, cards, weights, work, result = _playout_buffers(max(table[v.T_STOCK_COUNT], 1))
    context = playout_context(params, seat, hand, table, known)
    case = context.copy()
    scratch = playout_scratch()
    levels = _knock_levels(table)
    return floats, known, unseen, hands, stock, cards, weights, work, result, context, case, scratch, levels


@njit(cache=True)
def action_values(
    kind, seat, hand, table, worlds, rng, game_value, params, evidence, quality, tries, actions, values
):  # fmt: skip
    """``values[w, a]``: the value for ``seat`` of its legal action ``actions[a]`` in world ``w`` (``worlds`` of
    them, drawn with the generator state ``rng``); returns the number of actions. ``params`` is the playouts'
    parameter vector (``kernels.mcts.play_out``): zeros for the fast policy (least deadwood), or a vector
    whose ``playout_policy`` is 1 for ``opponent``'s discard score with its weights.

    ``hand`` is the player's hand as a mask (11 cards for a discard or big gin, 10 otherwise) and ``table`` its view
    (``kernels.view``); ``kind`` is one of the ``KIND_*`` decisions. The other's unknown cards are drawn with
    weights from what it did (``kernels.opponent.stateless_weights``: cards related to those it took count
    ``1 / evidence``, to those it passed or discarded ``evidence``) and tilted towards low deadwood by
    :func:`world_quality` of ``quality`` per point (the best-kept of ``tries`` hands drawn); ``evidence`` 1
    and ``quality`` 0 draw them uniformly."""
    count = legal_actions(kind, hand, table, actions)
    floats, known, unseen, hands, stock, cards, weights, work, result, context, case, scratch, levels = _world_setup(
        seat, hand, table, params, evidence
    )
    held = np.empty((worlds, MAX_ACTIONS))
    tilt = world_quality(quality, table)
    for w in range(worlds):
        sample_world(known, unseen, floats, tilt, rng, hands, seat, hand, stock, cards, weights, SUIT_DEADWOOD, tries)
        _world_values(
            kind, seat, hand, table, game_value, params, hands[1 - seat], stock, actions, count, hands, context,
            case, scratch, levels, work, result, values[w], held[w],
        )  # fmt: skip
    _decide_knocks(values, held, worlds, count)
    return count


@njit(cache=True)
def values_in_world(kind, seat, hand, table, game_value, params, opponent_hand, stock, actions, out, held):
    """The value of every legal action (into ``out``; the actions into ``actions``) in one given world: the
    other's hand ``opponent_hand`` and the stock order ``stock``; the count. ``held`` gets the value of playing
    on after a discard that leaves a hand that may knock (``out`` has knocking's; NaN for other actions:
    :func:`_world_values`). For the differential test against the plain-Python reference
    (tests/reference.py); :func:`action_values` draws its worlds instead and keeps the better option."""
    count = legal_actions(kind, hand, table, actions)
    ints = np.zeros(BELIEF_INTS, np.int64)
    floats = np.zeros(BELIEF_FLOATS)
    reset_beliefs(ints, floats)
    p = np.empty(52)
    known, _ = probabilities(seat, hand, table, floats, p)
    hands, _, _, _, work, result = _playout_buffers(1)
    context = playout_context(params, seat, hand, table, known)
    _world_values(
        kind, seat, hand, table, game_value, params, opponent_hand, stock, actions, count, hands, context,
        context.copy(), playout_scratch(), _knock_levels(table), work, result, out, held,
    )  # fmt: skip
    return count


@njit(cache=True)
def place_drawn(card, opponent_hand, stock, world_stock):
    """The world of a stock draw that gave ``card`` (R9), from a world sampled before it: ``world_stock`` is
    ``stock`` with ``card`` on top, and the other's hand is returned without it (the card came from the stock). If
    the sampled hand held ``card``, the sampled stock's top card takes its place there; else ``card`` swaps places
    with the stock's top card."""
    world_stock[:] = stock
    if (opponent_hand >> card) & 1:
        opponent = (opponent_hand & ~(np.int64(1) << card)) | (np.int64(1) << stock[0])
        world_stock[0] = card
        return opponent
    for i in range(stock.shape[0]):
        if stock[i] == card:
            world_stock[i] = stock[0]
            world_stock[0] = card
            break
    return opponent_hand


@njit(cache=True)
def stock_draw_values(
    seat, hand, table, worlds, rng, game_value, params, evidence, quality, tries, candidates, values
):  # fmt: skip
    """``values[w, i]``: the value for ``seat`` of drawing ``candidates[i]`` from the stock (R9) in world ``w``:
    the luck of a stock draw (docs/ANALYSIS.md). ``hand`` (10 cards) and ``table`` are the drawer's view just
    before the draw; the worlds are drawn from it as :func:`action_values` draws them, and each is shared by every
    candidate (common random numbers), the candidate put on the stock's top by :func:`place_drawn`. The hand is
    then played out as after any stock draw (:func:`_world_values`, a draw's action 0)."""
    floats, known, unseen, hands, stock, cards, weights, work, result, context, case, scratch, levels = _world_setup(
        seat, hand, table, params, evidence
    )
    actions = np.zeros(MAX_ACTIONS, np.int64)  # action 0 of a draw: from the stock
    world_stock = np.empty_like(stock)
    out = np.zeros(MAX_ACTIONS)
    held = np.empty(MAX_ACTIONS)
    tilt = world_quality(quality, table)
    for w in range(worlds):
        sample_world(known, unseen, floats, tilt, rng, hands, seat, hand, stock, cards, weights, SUIT_DEADWOOD, tries)
        sampled = hands[1 - seat]
        for i in range(candidates.shape[0]):
            opponent = place_drawn(candidates[i], sampled, stock, world_stock)
            # Typed constants: literals would make numba compile _world_values a second time.
            _world_values(
                np.int64(KIND_DRAW), seat, hand, table, game_value, params, opponent, world_stock, actions, np.int64(1),
                hands, context, case, scratch, levels, work, result, out, held,
            )  # fmt: skip
            values[w, i] = out[0]


@njit(cache=True)
def stock_draw_values_in_world(seat, hand, table, game_value, params, opponent_hand, stock, candidates, out):
    """``out[i]``: the value for ``seat`` of drawing ``candidates[i]`` in one given world (the other's hand
    ``opponent_hand``, the stock ``stock`` before the draw), as :func:`stock_draw_values` values it in each of its
    worlds: a draw's stock action (:func:`values_in_world`) in the world :func:`place_drawn` makes. For the
    differential test against the plain-Python reference (tests/reference.py)."""
    actions = np.zeros(MAX_ACTIONS, np.int64)
    world_stock = np.empty_like(stock)
    value = np.zeros(MAX_ACTIONS)
    held = np.empty(MAX_ACTIONS)
    for i in range(candidates.shape[0]):
        opponent = place_drawn(candidates[i], opponent_hand, stock, world_stock)
        values_in_world(
            np.int64(KIND_DRAW), seat, hand, table, game_value, params, opponent, world_stock, actions, value, held
        )
        out[i] = value[0]  # action 0 of a draw: from the stock

"""The hand and game kernels: docs/ENGINE.md in numba (R7-R23, V1-V10, V13, V14).

A hand is played from its seed, its dealer and the two seats' bots (ids and parameter
vectors, ``kernels.bots``), and written into one int64 row (the ``H_*`` columns); a game
into one row of ``G_*`` columns. The bots see their own hand and the public table of
``kernels.view``, nothing else. The plain-Python twin is ``simgin.game.reference_engine``; a
differential test holds them equal.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgin.kernels import bots, luck as _luck, rule_index as ri, view
from simgin.kernels.melds import best_discard_of_mask, deadwood_of_mask
from simgin.kernels.rng import derive, randint, shuffled_deck
from simgin.kernels.showdown import KIND_BIG_GIN, KIND_DEAD, KIND_GIN, KIND_UNDERCUT, score_hand

# Two bots that always take the pile card never shrink the stock, so only a cap ends such
# a hand; 500 turns is far beyond any real hand (the stock allows 30 stock draws).
MAX_TURNS = 500
# Two bots that never knock deal dead hands forever; 1000 deals is far beyond any real game.
MAX_HANDS_PER_GAME = 1000

# Hand record columns (docs/ENGINE.md, "The hand record").
H_DEALER = 0
H_KIND = 1
H_WINNER = 2
H_POINTS = 3
H_KNOCKER = 4
H_KNOCKER_DEADWOOD = 5
H_DEFENDER_DEADWOOD = 6
H_LAYOFF_POINTS = 7
H_TURNS = 8
H_DRAWS = 9
H_UP_CARD = 10
H_KNOCK_LIMIT = 11
H_MULTIPLIER = 12
H_PILE_TAKES_0 = 13
H_PILE_TAKES_1 = 14
H_FIFTIETH = 15
H_CAPPED = 16
HAND_FIELDS = (
    "dealer",
    "kind",
    "winner",
    "points",
    "knocker",
    "knocker_deadwood",
    "defender_deadwood",
    "layoff_points",
    "turns",
    "draws",
    "up_card",
    "knock_limit",
    "multiplier",
    "pile_takes_0",
    "pile_takes_1",
    "fiftieth",
    "capped",
)
HAND_FIELD_COUNT = len(HAND_FIELDS)

# Game record columns.
G_FIRST_DEALER = 0
G_WINNER = 1
G_MARGIN = 2
G_SCORE_0 = 3
G_SCORE_1 = 4
G_BOXES_0 = 5
G_BOXES_1 = 6
G_TOTAL_0 = 7
G_TOTAL_1 = 8
G_HANDS = 9
G_DEAD_HANDS = 10
G_SHUTOUT = 11
G_CAPPED = 12
GAME_FIELDS = (
    "first_dealer",
    "winner",
    "margin",
    "score_0",
    "score_1",
    "boxes_0",
    "boxes_1",
    "total_0",
    "total_1",
    "hands",
    "dead_hands",
    "shutout",
    "capped",
)
GAME_FIELD_COUNT = len(GAME_FIELDS)

# Errors a hand can stop with (an illegal decision); the Python layer names the bot and hand.
ERROR_NONE = 0
ERROR_DISCARD_NOT_HELD = 1
ERROR_REDISCARD = 2
ERROR_FIFTIETH_OVER_LIMIT = 3
DECISION_DISCARD = 1


@njit(cache=True)
def hand_knock_limit(rules, up_card):
    """The hand's knock limit: fixed, or the Oklahoma up card's value (V1, V9)."""
    if not rules[ri.OKLAHOMA]:
        return rules[ri.KNOCK_LIMIT]
    rank = up_card % 13
    if rank == 0 and rules[ri.OK_ACE_GIN_ONLY]:
        return 0
    return min(rank + 1, 10)


@njit(cache=True)
def hand_multiplier(rules, up_card):
    """2 for an Oklahoma spade up card with spade doubling (V9), else 1."""
    if rules[ri.OKLAHOMA] and rules[ri.OK_SPADE_DOUBLE] and up_card >= 39:
        return 2
    return 1


@njit(cache=True, inline="always")
def start_record(record, dealer, up_card, knock_limit, multiplier):
    """A new hand's record: what the deal fixes (R8, V1, V9), no winner or knocker yet (the rest is zero)."""
    record[H_DEALER] = dealer
    record[H_UP_CARD] = up_card
    record[H_KNOCK_LIMIT] = knock_limit
    record[H_MULTIPLIER] = multiplier
    record[H_WINNER] = -1
    record[H_KNOCKER] = -1


@njit(cache=True, inline="always")
def record_showdown(record, rules, knocker_seat, knocker, defender, big, multiplier, suit_deadwood, suit_value):
    """Score the knock (or gin, or big gin when ``big``) into ``record``."""
    result = np.zeros(3, np.int64)
    kind, defender_won, points, kd, dd, laid = score_hand(
        knocker,
        defender,
        bool(big),  # not the constant the caller passes, which numba would compile score_hand for each time
        rules[ri.GIN_BONUS],
        rules[ri.UNDERCUT_BONUS],
        rules[ri.UNDERCUT_ON_TIE],
        rules[ri.BIG_GIN_BONUS],
        multiplier,
        suit_deadwood,
        suit_value,
        result,
    )
    record[H_KIND] = kind
    record[H_WINNER] = 1 - knocker_seat if defender_won else knocker_seat
    record[H_POINTS] = points
    record[H_KNOCKER] = knocker_seat
    record[H_KNOCKER_DEADWOOD] = kd
    record[H_DEFENDER_DEADWOOD] = dd
    record[H_LAYOFF_POINTS] = laid


@njit(cache=True)
def play_hand(
    hand_seed, dealer, scores, rules, bot_ids, bot_params, suit_deadwood, suit_value, record, policies, value, luck
):
    """Play one hand (docs/ENGINE.md) into ``record``; return an ``ERROR_*`` code (0 = fine).

    ``luck`` receives the hand's luck corrections (``kernels.luck``, issue 35) at the deal and at each stock
    draw, by the value function ``value``, when it has room for them; an empty ``luck`` costs nothing.

    ``scores`` are the game points by seat before the hand (shown to the bots);
    ``bot_params[seat]`` is the parameter vector of ``bot_ids[seat]``, and ``policies[seat]``
    its ``decide`` function when it is not built into the hand loop (``kernels.bots``). The bots see only
    their own hand, the public table (``kernels.view``) and their own memory, all in one
    ``state`` array (``kernels.bots``). On an error,
    ``record[H_WINNER]`` holds the seat at fault and ``record[H_KIND]`` the decision, and
    the rest of the record is not meaningful.
    """
    for i in range(HAND_FIELD_COUNT):
        record[i] = 0
    deck = np.empty(52, np.int64)
    state = np.empty(1, np.uint64)
    state[0] = derive(hand_seed, 0)
    shuffled_deck(state, deck)
    # The public table, then each seat's private memory: its generator and its parameters.
    state = np.empty(bots.STATE_SIZE, np.int64)
    floats = state[bots.S_FLOATS :].view(np.float64)
    for seat in range(2):
        state[bots.slot(seat, bots.I_RNG)] = np.int64(derive(hand_seed, 1 + seat))
        for i in range(bot_params.shape[1]):
            floats[seat * bots.FLOAT_MEMORY + i] = bot_params[seat, i]
    hands = np.zeros(2, np.int64)
    takes = np.zeros(2, np.int64)
    non_dealer = 1 - dealer
    eleven = rules[ri.ELEVEN_START] != 0
    rediscard = rules[ri.REDISCARD] != 0
    dealt = 21 if eleven else 20
    for i in range(dealt):
        seat = non_dealer if i % 2 == 0 else dealer
        hands[seat] |= 1 << deck[i]
    up_card = -1 if eleven else deck[20]
    stock_next = np.int64(21)  # typed: a literal 21 would make numba compile draw_luck a second time
    knock_limit = hand_knock_limit(rules, up_card)
    multiplier = hand_multiplier(rules, up_card)
    view.reset(state, rules, dealer, up_card, knock_limit, 52 - stock_next, scores[0], scores[1])
    start_record(record, dealer, up_card, knock_limit, multiplier)
    adjust = luck.shape[0] >= _luck.LUCK_FIELDS
    if adjust:
        luck[:] = 0.0
        if not eleven:
            _luck.deal_luck(value, hands, dealer, knock_limit, multiplier, suit_deadwood, luck)
    for seat in range(2):
        bots.start_hand(bot_ids[seat], seat, hands[seat], state, suit_deadwood, policies)
    draws = 0
    turns = 0

    # First turn (R11, V5): who plays it, and what was drawn.
    player = non_dealer
    drawn = -1
    from_pile = False
    if not eleven:
        for offer in range(2):
            seat = non_dealer if offer == 0 else dealer
            view.set_decision(state, seat, 0, 52 - stock_next, -1, 0, 0)
            if bots.take_up_card(bot_ids[seat], seat, hands[seat], state, suit_deadwood, policies):
                player = seat
                from_pile = True
                break
            view.pass_up_card(state, seat, up_card)
        if from_pile:
            drawn = view.take_from_pile(state, player)
            takes[player] += 1
        else:
            drawn = _stock_card(
                deck, stock_next, player, hands, adjust, value, knock_limit, multiplier, suit_deadwood, luck
            )
            stock_next += 1
        hands[player] |= 1 << drawn
        draws += 1

    fiftieth = False
    while True:
        hand = hands[player]
        view.set_decision(state, player, turns, 52 - stock_next, drawn, from_pile, fiftieth)
        # Step 2: big gin (V13), only after a draw: not on the V5 non-dealer's dealt 11 cards.
        if (
            rules[ri.BIG_GIN]
            and drawn >= 0
            and deadwood_of_mask(hand, suit_deadwood) == 0
            and bots.big_gin(bot_ids[player], player, hand, state, suit_deadwood, policies)
        ):
            turns += 1
            record_showdown(record, rules, player, hand, hands[1 - player], True, multiplier, suit_deadwood, suit_value)
            break
        # Step 3: discard (R9, R10, V6; V7 after the fiftieth-card take).
        card = bots.discard(bot_ids[player], player, hand, state, suit_deadwood, policies)
        if card < 0 or card > 51 or not (hand >> card) & 1:
            record[H_WINNER] = player
            record[H_KIND] = DECISION_DISCARD
            return ERROR_DISCARD_NOT_HELD
        if card == drawn and from_pile and not rediscard and not fiftieth:
            record[H_WINNER] = player
            record[H_KIND] = DECISION_DISCARD
            return ERROR_REDISCARD
        hand &= ~(1 << card)
        hands[player] = hand
        view.discard(state, player, card)
        # Step 4: knock (R12, R13); forced after the V7 take.
        left = deadwood_of_mask(hand, suit_deadwood)
        if fiftieth and left > knock_limit:
            record[H_WINNER] = player
            record[H_KIND] = DECISION_DISCARD
            return ERROR_FIFTIETH_OVER_LIMIT
        if fiftieth or (
            left <= knock_limit and bots.knock(bot_ids[player], player, hand, state, suit_deadwood, policies)
        ):
            turns += 1
            record_showdown(
                record, rules, player, hand, hands[1 - player], False, multiplier, suit_deadwood, suit_value
            )
            break
        turns += 1
        # Step 5: end of stock (R15, V7). The stock just fell to two cards, so this turn drew
        # the 50th card from the stock; V7 offers it only if that same card was discarded.
        if 52 - stock_next <= 2:
            other = 1 - player
            if rules[ri.FIFTIETH] and card == drawn and not from_pile:
                _, best = best_discard_of_mask(hands[other] | (1 << card), suit_deadwood)
                if best <= knock_limit:
                    view.set_decision(state, other, turns, 52 - stock_next, -1, 0, 0)
                    if bots.take_fiftieth(bot_ids[other], other, hands[other], state, suit_deadwood, policies):
                        view.take_from_pile(state, other)
                        takes[other] += 1
                        draws += 1
                        hands[other] |= 1 << card
                        drawn = card
                        from_pile = True
                        player = other
                        fiftieth = True
                        record[H_FIFTIETH] = 1
                        continue
            record[H_KIND] = KIND_DEAD
            break
        if turns >= MAX_TURNS:
            record[H_KIND] = KIND_DEAD
            record[H_CAPPED] = 1
            break
        # A normal turn (R9): draw from the pile or the stock.
        player = 1 - player
        view.set_decision(state, player, turns, 52 - stock_next, -1, 0, 0)
        if bots.draw_from_pile(bot_ids[player], player, hands[player], state, suit_deadwood, policies):
            drawn = view.take_from_pile(state, player)
            takes[player] += 1
            from_pile = True
        else:
            drawn = _stock_card(
                deck, stock_next, player, hands, adjust, value, knock_limit, multiplier, suit_deadwood, luck
            )
            stock_next += 1
            from_pile = False
        hands[player] |= 1 << drawn
        draws += 1

    record[H_TURNS] = turns
    record[H_DRAWS] = draws
    record[H_PILE_TAKES_0] = takes[0]
    record[H_PILE_TAKES_1] = takes[1]
    return ERROR_NONE


@njit(cache=True, inline="always")
def _stock_card(deck, stock_next, player, hands, adjust, value, knock_limit, multiplier, suit_deadwood, luck):
    """The stock's top card, drawn by ``player`` (R9), with the draw's luck when luck is measured."""
    drawn = deck[stock_next]
    if adjust:
        _luck.draw_luck(
            value, hands[player], hands[1 - player], drawn, deck, stock_next, player, knock_limit, multiplier,
            suit_deadwood, luck,
        )  # fmt: skip
    return drawn


@njit(cache=True)
def first_dealer(game_seed, players):
    """The game's first dealer (R7): ``randint(players)`` of a generator seeded with ``derive(game_seed, 0)``."""
    state = np.empty(1, np.uint64)
    state[0] = derive(game_seed, 0)
    return randint(state, players)


@njit(cache=True)
def boxes_won(rules, record):
    """Boxes for the winner of a hand: one (R22), plus Oklahoma's extra boxes (V9, Oklahoma only)."""
    boxes = 1
    if rules[ri.OKLAHOMA] and rules[ri.OK_EXTRA_BOXES]:
        if record[H_KIND] == KIND_UNDERCUT:
            boxes += record[H_MULTIPLIER]
        elif record[H_KIND] == KIND_GIN or record[H_KIND] == KIND_BIG_GIN:
            boxes += 2 * record[H_MULTIPLIER]
    return boxes


@njit(cache=True)
def winner_total(rules, total, loser_score):
    """The game winner's total after the game bonus: 100, or on a shutout 200 or the total doubled (R21, V8)."""
    shutout = loser_score == 0
    bonus = rules[ri.GAME_BONUS]
    if shutout and rules[ri.SHUTOUT] == 0:
        bonus = rules[ri.SHUTOUT_BONUS]
    total += bonus
    if shutout and rules[ri.SHUTOUT] == 1:
        total *= 2
    return total


@njit(cache=True)
def _game_totals(rules, score, boxes, winner, totals):
    """Final totals of one game with box, game and shutout bonuses (R21-R23, V8); returns the shutout flag."""
    for seat in range(2):
        totals[seat] = score[seat] + rules[ri.BOX_BONUS] * boxes[seat]
    totals[winner] = winner_total(rules, totals[winner], score[1 - winner])
    return score[1 - winner] == 0


@njit(cache=True)
def play_game(game_seed, rules, bot_ids, bot_params, suit_deadwood, suit_value, game, hand_rows, error, policies):
    """Play one game (docs/ENGINE.md) into ``game``; hand rows go into ``hand_rows`` while it has room.

    Returns the number of deals played. ``error`` receives an ``ERROR_*`` code, the hand
    seed of the failing hand and the seat at fault.
    """
    for i in range(GAME_FIELD_COUNT):
        game[i] = 0
    dealer = first_dealer(game_seed, np.int64(2))
    game[G_FIRST_DEALER] = dealer
    game[G_WINNER] = -1
    hollywood = rules[ri.HOLLYWOOD] != 0
    column_count = 3 if hollywood else 1
    scores = np.zeros((3, 2), np.int64)
    boxes = np.zeros((3, 2), np.int64)
    totals = np.zeros((3, 2), np.int64)
    is_open = np.zeros(3, np.bool_)
    for g in range(column_count):
        is_open[g] = True
    # V14: whether each seat has entered a win in each game (a 0-point win counts: it carries a box).
    entered = np.zeros((3, 2), np.bool_)
    record = np.zeros(HAND_FIELD_COUNT, np.int64)
    hand_scores = np.zeros(2, np.int64)
    no_value = np.zeros((1, 1, 1, 1))
    no_luck = np.zeros(0)
    target = rules[ri.TARGET]
    deals = 0
    dead = 0
    shutout = False
    target_winner = -1
    while True:
        if deals >= MAX_HANDS_PER_GAME:
            game[G_CAPPED] = 1
            break
        hand_seed = derive(game_seed, 1 + deals)
        for seat in range(2):
            hand_scores[seat] = scores[:, seat].sum()
        code = play_hand(
            hand_seed, dealer, hand_scores, rules, bot_ids, bot_params, suit_deadwood, suit_value, record, policies,
            no_value, no_luck,
        )  # fmt: skip
        if code != ERROR_NONE:
            error[0] = code
            error[1] = np.int64(hand_seed)
            error[2] = record[H_WINNER]
            return deals
        if deals < hand_rows.shape[0]:
            hand_rows[deals, :] = record
        deals += 1
        if record[H_KIND] == KIND_DEAD:
            dead += 1
            continue
        winner = record[H_WINNER]
        points = record[H_POINTS]
        won_boxes = boxes_won(rules, record)
        # V14: the win enters every open game the winner has entered, and the first open game
        # it has not (with one game: that game).
        first_new = -1
        for g in range(column_count):
            if is_open[g] and not entered[g, winner]:
                first_new = g
                break
        for g in range(column_count):
            if not is_open[g] or not (entered[g, winner] or g == first_new):
                continue
            entered[g, winner] = True
            scores[g, winner] += points
            boxes[g, winner] += won_boxes
            if scores[g, winner] >= target:
                is_open[g] = False
                target_winner = winner
                if _game_totals(rules, scores[g], boxes[g], winner, totals[g]):
                    shutout = True
        if rules[ri.DEALER_ROTATION] == 0:
            dealer = 1 - winner
        elif rules[ri.DEALER_ROTATION] == 1:
            dealer = winner
        else:
            dealer = 1 - dealer
        still_open = False
        for g in range(column_count):
            still_open = still_open or is_open[g]
        if not still_open:
            break
    for g in range(column_count):
        if is_open[g]:
            for seat in range(2):
                totals[g, seat] = scores[g, seat] + rules[ri.BOX_BONUS] * boxes[g, seat]
    for seat in range(2):
        game[G_SCORE_0 + seat] = scores[:, seat].sum()
        game[G_BOXES_0 + seat] = boxes[:, seat].sum()
        game[G_TOTAL_0 + seat] = totals[:, seat].sum()
    if game[G_CAPPED]:
        game[G_WINNER] = -1
        game[G_MARGIN] = 0
    elif not hollywood:
        # R23: the margin is the winner's total minus the loser's; box bonuses can make it negative.
        game[G_WINNER] = target_winner
        game[G_MARGIN] = game[G_TOTAL_0 + target_winner] - game[G_TOTAL_1 - target_winner]
    elif game[G_TOTAL_0] != game[G_TOTAL_1]:
        winner = 0 if game[G_TOTAL_0] > game[G_TOTAL_1] else 1
        game[G_WINNER] = winner
        game[G_MARGIN] = game[G_TOTAL_0 + winner] - game[G_TOTAL_1 - winner]
    game[G_HANDS] = deals
    game[G_DEAD_HANDS] = dead
    game[G_SHUTOUT] = shutout
    return deals


@njit(cache=True, nogil=True)
def play_hands_batch(
    hand_seeds, dealers, rules, bot_ids, bot_params, suit_deadwood, suit_value, rows, errors, policies, value, luck
):
    """Play independent hands (game scores 0); row i and ``errors[i]`` belong to hand i only, and ``luck[i]``
    its luck corrections when ``luck`` has a row per hand (``kernels.luck``; shape (0, 0): none).

    A serial ``nogil`` loop that ``kernels.run_rows`` splits over threads by rows. Not a
    ``prange`` loop (issue 25): numba's parfor lowering cost 2-6 s of compile time on every
    first run (a third of the cold ``simgin match``) for hands about 5% faster. Each hand
    depends on its own seed only, so the rows are the same however the batch is split.
    """
    no_luck = np.zeros(0)
    adjust = luck.shape[0] == hand_seeds.shape[0]
    for i in range(hand_seeds.shape[0]):
        scores = np.zeros(2, np.int64)
        errors[i] = play_hand(
            hand_seeds[i], dealers[i], scores, rules, bot_ids, bot_params, suit_deadwood, suit_value, rows[i], policies,
            value, luck[i] if adjust else no_luck,
        )  # fmt: skip


@njit(cache=True, nogil=True)
def play_games_batch(
    game_seeds, rules, bot_ids, bot_params, suit_deadwood, suit_value, games, hand_rows, hand_counts, errors, policies
):
    """Play independent games; game i writes its own rows only (a serial ``nogil`` loop that
    ``kernels.run_rows`` splits over threads, as :func:`play_hands_batch`).

    ``hand_rows[i]`` holds up to ``hand_rows.shape[1]`` hands of game i and
    ``hand_counts[i]`` how many deals it had; ``errors[i]`` = (code, hand seed, seat).
    """
    for i in range(game_seeds.shape[0]):
        hand_counts[i] = play_game(
            game_seeds[i], rules, bot_ids, bot_params, suit_deadwood, suit_value, games[i], hand_rows[i], errors[i],
            policies,
        )  # fmt: skip

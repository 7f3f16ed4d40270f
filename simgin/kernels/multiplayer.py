"""Three-player (V11) and four-player partnership (V12) games, built on the two-player hand kernel.

Every hand is a two-player hand of ``kernels.engine.play_hand``; these kernels decide who
plays whom, who deals, and how the hands score. The choices the rule book leaves open
are documented in ``simgin.game.multiplayer``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgin.kernels import rule_index as ri
from simgin.kernels.engine import (
    ERROR_NONE,
    H_KIND,
    H_POINTS,
    H_WINNER,
    HAND_FIELD_COUNT,
    MAX_HANDS_PER_GAME,
    boxes_won,
    first_dealer,
    play_hand,
    winner_total,
)
from simgin.kernels.rng import derive
from simgin.kernels.showdown import KIND_DEAD

# Three-player game record (V11), per player i in 0..2 where a field ends in _i.
THREE_FIELDS = (
    "first_dealer",
    "winner",
    "hands",
    "dead_hands",
    "capped",
    "shutouts",
    *(f"score_{i}" for i in range(3)),
    *(f"boxes_{i}" for i in range(3)),
    *(f"net_{i}" for i in range(3)),
    *(f"hands_won_{i}" for i in range(3)),
    *(f"sat_out_{i}" for i in range(3)),
    *(f"first_to_play_{i}" for i in range(3)),
)
T_FIRST_DEALER = 0
T_WINNER = 1
T_HANDS = 2
T_DEAD = 3
T_CAPPED = 4
T_SHUTOUTS = 5
T_SCORE = 6
T_BOXES = 9
T_NET = 12
T_WON = 15
T_SAT_OUT = 18
T_FIRST = 21
THREE_FIELD_COUNT = len(THREE_FIELDS)

# Four-player partnership record (V12): teams 0 = players (0, 1) and 1 = players (2, 3).
TEAM_FIELDS = (
    "winner",
    "margin",
    "rounds",
    "dead_tables",
    "capped",
    "shutout",
    "team_score_0",
    "team_score_1",
    "team_boxes_0",
    "team_boxes_1",
    "team_total_0",
    "team_total_1",
    *(f"hands_won_{i}" for i in range(4)),
    *(f"points_{i}" for i in range(4)),
    *(f"dealt_{i}" for i in range(4)),
)
M_WINNER = 0
M_MARGIN = 1
M_ROUNDS = 2
M_DEAD = 3
M_CAPPED = 4
M_SHUTOUT = 5
M_SCORE = 6
M_BOXES = 8
M_TOTAL = 10
M_WON = 12
M_POINTS = 16
M_DEALT = 20
TEAM_FIELD_COUNT = len(TEAM_FIELDS)


@njit(cache=True, inline="always")
def _seat_players(first, second, bot_ids, bot_params, pair, pair_params):
    """Put player ``first`` in seat 0 and ``second`` in seat 1 of a two-player hand."""
    pair[0] = bot_ids[first]
    pair[1] = bot_ids[second]
    pair_params[0] = bot_params[first]
    pair_params[1] = bot_params[second]


@njit(cache=True, inline="always")
def _table_buffers(bot_params):
    """What a hand at a table of three or four needs: its record, the empty luck corrections (none at these
    tables, ``kernels.luck``), and the two players' bot ids and parameter vectors (filled by ``_seat_players``)."""
    record = np.zeros(HAND_FIELD_COUNT, np.int64)
    no_value = np.zeros((1, 1, 1, 1))
    no_luck = np.zeros(0)
    pair = np.empty(2, np.int64)
    pair_params = np.empty((2, bot_params.shape[1]), np.float64)
    return record, no_value, no_luck, pair, pair_params


@njit(cache=True, inline="always")
def _log_hand(hand_rows, hand_players, index, record, first, second, extra):
    """Row ``index`` of the hand log, while it has room: the record and (seat-0 player, seat-1 player, ``extra``)."""
    if index < hand_rows.shape[0]:
        hand_rows[index, :] = record
        hand_players[index, 0] = first
        hand_players[index, 1] = second
        hand_players[index, 2] = extra


@njit(cache=True)
def play_three_game(
    game_seed, rules, bot_ids, bot_params, suit_deadwood, suit_value, game, hand_rows, hand_players, error, policies
):
    """A three-player game (V11); returns the number of deals. ``bot_ids`` has one bot per player 0-2,
    ``bot_params`` its parameter vector and ``policies`` its ``decide`` (``kernels.bots``); each hand
    shows its two players their scores.

    ``hand_players[k]`` = (player in seat 0, player in seat 1, the dealer who sat out).
    """
    for i in range(THREE_FIELD_COUNT):
        game[i] = 0
    dealer = first_dealer(game_seed, np.int64(3))
    game[T_FIRST_DEALER] = dealer
    game[T_WINNER] = -1
    record, no_value, no_luck, pair, pair_params = _table_buffers(bot_params)
    pair_scores = np.empty(2, np.int64)
    scores = np.zeros(3, np.int64)
    boxes = np.zeros(3, np.int64)
    deals = 0
    winner_of_game = -1
    while True:
        if deals >= MAX_HANDS_PER_GAME:
            game[T_CAPPED] = 1
            break
        first = (dealer + 1) % 3
        second = (dealer + 2) % 3
        _seat_players(first, second, bot_ids, bot_params, pair, pair_params)
        pair_scores[0] = scores[first]
        pair_scores[1] = scores[second]
        # The dealer sits out; the player after the dealer plays first (the two-player
        # non-dealer, seat 0) and the other takes the two-player dealer's place (seat 1).
        hand_seed = derive(game_seed, 1 + deals)
        seated = (policies[first], policies[second])
        # np.int64(1), not the constant 1, for which numba would compile the hand loop a second time.
        code = play_hand(
            hand_seed, np.int64(1), pair_scores, rules, pair, pair_params, suit_deadwood, suit_value, record, seated,
            no_value, no_luck,
        )  # fmt: skip
        if code != ERROR_NONE:
            error[0] = code
            error[1] = np.int64(hand_seed)
            return deals
        _log_hand(hand_rows, hand_players, deals, record, first, second, dealer)
        deals += 1
        game[T_SAT_OUT + dealer] += 1
        game[T_FIRST + first] += 1
        if record[H_KIND] == KIND_DEAD:
            game[T_DEAD] += 1
            continue
        winner = first if record[H_WINNER] == 0 else second
        loser = second if winner == first else first
        scores[winner] += record[H_POINTS]
        boxes[winner] += boxes_won(rules, record)
        game[T_WON + winner] += 1
        if scores[winner] >= rules[ri.TARGET]:
            winner_of_game = winner
            break
        # V11: the loser deals next; the winner plays the previous dealer.
        dealer = loser
    totals = np.zeros(3, np.int64)
    for i in range(3):
        totals[i] = scores[i] + rules[ri.BOX_BONUS] * boxes[i]
    net = np.zeros(3, np.int64)
    for i in range(3):
        for j in range(i + 1, 3):
            if winner_of_game == i:
                margin = winner_total(rules, totals[i], scores[j]) - totals[j]
                if scores[j] == 0:
                    game[T_SHUTOUTS] += 1
            elif winner_of_game == j:
                margin = totals[i] - winner_total(rules, totals[j], scores[i])
                if scores[i] == 0:
                    game[T_SHUTOUTS] += 1
            else:
                margin = totals[i] - totals[j]
            net[i] += margin
            net[j] -= margin
    game[T_WINNER] = winner_of_game
    game[T_HANDS] = deals
    for i in range(3):
        game[T_SCORE + i] = scores[i]
        game[T_BOXES + i] = boxes[i]
        game[T_NET + i] = net[i] if winner_of_game >= 0 else 0
    return deals


@njit(cache=True)
def play_team_game(
    game_seed,
    rules,
    bot_ids,
    bot_params,
    team_target,
    suit_deadwood,
    suit_value,
    game,
    hand_rows,
    hand_players,
    error,
    policies,
):
    """A partnership game (V12): players 0 and 1 against 2 and 3; returns the number of tables played.

    ``bot_params[p]`` is player p's parameter vector; each hand shows its players their teams' scores.

    In round r the tables are (0 vs 2, 1 vs 3) when r is even and (0 vs 3, 1 vs 2) when odd;
    ``hand_players[k]`` = (player in seat 0, player in seat 1, round).
    """
    for i in range(TEAM_FIELD_COUNT):
        game[i] = 0
    game[M_WINNER] = -1
    record, no_value, no_luck, pair, pair_params = _table_buffers(bot_params)
    team_scores = np.zeros(2, np.int64)
    team_boxes = np.zeros(2, np.int64)
    rounds = 0
    tables = 0
    winner_team = -1
    while True:
        if rounds >= MAX_HANDS_PER_GAME:
            game[M_CAPPED] = 1
            break
        swing = 0
        for table in range(2):
            a_player = table
            b_player = 2 + (table if rounds % 2 == 0 else 1 - table)
            _seat_players(a_player, b_player, bot_ids, bot_params, pair, pair_params)
            # Deals alternate in pairs of rounds, so each player deals to each opponent equally often.
            dealer_seat = (rounds // 2) % 2
            hand_seed = derive(game_seed, 1 + 2 * rounds + table)
            seated = (policies[a_player], policies[b_player])
            code = play_hand(
                hand_seed, dealer_seat, team_scores, rules, pair, pair_params, suit_deadwood, suit_value, record,
                seated, no_value, no_luck,
            )  # fmt: skip
            if code != ERROR_NONE:
                error[0] = code
                error[1] = np.int64(hand_seed)
                return tables
            _log_hand(hand_rows, hand_players, tables, record, a_player, b_player, rounds)
            tables += 1
            game[M_DEALT + (a_player if dealer_seat == 0 else b_player)] += 1
            if record[H_KIND] == KIND_DEAD:
                game[M_DEAD] += 1
                continue
            winner = a_player if record[H_WINNER] == 0 else b_player
            game[M_WON + winner] += 1
            game[M_POINTS + winner] += record[H_POINTS]
            # V9 extra boxes: an undercut or gin earns the winner's team its extra boxes, beside the round box.
            team_boxes[0 if winner < 2 else 1] += boxes_won(rules, record) - 1
            swing += record[H_POINTS] if winner < 2 else -record[H_POINTS]
        rounds += 1
        # V12: a team that won both tables scores the total, a split scores the difference.
        if swing != 0:
            team = 0 if swing > 0 else 1
            team_scores[team] += abs(swing)
            team_boxes[team] += 1
            if team_scores[team] >= team_target:
                winner_team = team
                break
    for team in range(2):
        game[M_SCORE + team] = team_scores[team]
        game[M_BOXES + team] = team_boxes[team]
        game[M_TOTAL + team] = team_scores[team] + rules[ri.BOX_BONUS] * team_boxes[team]
    if winner_team >= 0:
        loser_team = 1 - winner_team
        game[M_WINNER] = winner_team
        game[M_SHUTOUT] = team_scores[loser_team] == 0
        margin = winner_total(rules, game[M_TOTAL + winner_team], team_scores[loser_team]) - game[M_TOTAL + loser_team]
        game[M_MARGIN] = margin
        game[M_TOTAL + winner_team] = game[M_TOTAL + loser_team] + margin
    game[M_ROUNDS] = rounds
    return tables


@njit(cache=True, nogil=True)
def play_three_games_batch(
    game_seeds, rules, bot_ids, bot_params, suit_deadwood, suit_value, games, hand_rows, hand_players, counts, errors,
    policies,
):  # fmt: skip
    """Independent three-player games; game i writes only its own rows."""
    for i in range(game_seeds.shape[0]):
        counts[i] = play_three_game(
            game_seeds[i], rules, bot_ids, bot_params, suit_deadwood, suit_value, games[i], hand_rows[i],
            hand_players[i], errors[i], policies,
        )  # fmt: skip


@njit(cache=True, nogil=True)
def play_team_games_batch(
    game_seeds, rules, bot_ids, bot_params, team_target, suit_deadwood, suit_value, games, hand_rows, hand_players,
    counts, errors, policies,
):  # fmt: skip
    """Independent partnership games; game i writes only its own rows."""
    for i in range(game_seeds.shape[0]):
        counts[i] = play_team_game(
            game_seeds[i], rules, bot_ids, bot_params, team_target, suit_deadwood, suit_value, games[i], hand_rows[i],
            hand_players[i], errors[i], policies,
        )  # fmt: skip

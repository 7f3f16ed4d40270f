"""Information-set Monte Carlo search for the ``mcts`` bot (see ``strategies/mcts.py``).

At a decision the bot samples *worlds* consistent with what it sees: an opponent hand
(its known cards plus unseen cards drawn by the weights of ``kernels.opponent``, tilted
towards low deadwood) and a stock order (the other unseen cards, shuffled). Every
candidate action is played out in the same worlds (common random numbers), both seats then
following a fast policy: draw the pile's top card when it completes a meld, discard by the
``playout_policy`` (0: the card leaving the least deadwood; 1: the ``opponent`` bot's learned
discard score, :func:`scored_discard`, each seat judging the other's hand from what it has seen
in the playout), knock at a seat's playout level (``playout_knock`` for the searching player,
``opponent_knock`` for the other). The action with the best mean value is
chosen, each playout valued by what its result is worth in the game being played
(``kernels.payoff.result_value``: the hand's points for or against the player, with the
Oklahoma multiplier, bent by the scores and the target). ``budget`` is the most playouts
per decision, shared by the candidates: the actions are raced (:func:`_apart`), a candidate
dropping out once the leader's paired lead over it is settled.

The bot's ``decide`` (at the end) is here too, in the bot's own kernel module, and ``kernels.bots``
registers it with one line: the way to add a compiled bot (docs/ADDING_A_BOT.md).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgin.kernels import (
    decisions as d,
    heuristic as _heuristic,
    knock as _knock,
    opponent as _opponent,
    parameters as pm,
    rule_index as ri,
    view as v,
)
from simgin.kernels.decisions import I_RNG, seat_rows
from simgin.kernels.discard_network import HIGH_UNDERCUT
from simgin.kernels.melds import (
    SUIT_DROP,
    SUIT_DROP_RANK,
    card_fits_meld,
    deadwood_of_mask,
    discard_deadwoods,
    least_deadwood_discard,
)
from simgin.kernels.opponent import FULL_DECK, HAND_SIZE, popcount
from simgin.kernels.payoff import result_value
from simgin.kernels.rng import randint
from simgin.kernels.showdown import SUIT_VALUE, score_hand

#: A playout that has not ended after this many turns counts as a dead hand: the fast policy
#: takes only meld-completing pile cards, so hands end by the stock long before this.
PLAYOUT_TURN_CAP = 80
PHASE_DRAW = 0
PHASE_DISCARD = 1
PHASE_AFTER_DISCARD = 2
MAX_CANDIDATES = 11
#: Discard policies of the playouts (the ``playout_policy`` parameter).
PLAYOUT_LEAST_DEADWOOD = 0
PLAYOUT_SCORED = 1
#: Slots of a playout's context (:func:`playout_context`): the discard policy, the hand's knock limit, the cards
#: out of play for both seats (the pile, and what the playout discards), and by seat the cards that seat knows
#: its opponent holds (taken from the pile and not discarded since).
C_POLICY = 0
C_KNOCK_LIMIT = 1
C_GONE = 2
C_KNOWS = 3
CONTEXT_SIZE = 5


@njit(cache=True)
def policy_discard(hand, banned, suit_deadwood):
    """(card, deadwood left): the least deadwood, ties to the higher rank, then the higher card
    (:func:`~simgin.kernels.melds.least_deadwood_discard`)."""
    return least_deadwood_discard(hand, banned, suit_deadwood, SUIT_DROP, SUIT_DROP_RANK)


@njit(cache=True)
def scored_discard(params, hand, banned, gone, known, stage, knock_limit, work, p, live, risk, suit_deadwood):
    """(card, deadwood left): the ``opponent`` bot's discard (``kernels.heuristic.best_discard``, its learned
    weights in ``params``) for a player who knows only that the other holds ``known`` and not ``gone``.

    The other's remaining cards are spread evenly over the cards this player cannot place, which
    sets each card's chance to still arrive (``live``) and each discard's danger (``risk``): a
    cheap, fair estimate for playouts (R9, R10, V6). ``p``, ``live`` and ``risk`` are scratch.
    """
    unknown = FULL_DECK & ~(hand | gone | known)
    count = popcount(unknown)
    share = min(1.0, (HAND_SIZE - popcount(known)) / count) if count > 0 else 0.0
    for c in range(52):
        if (known >> c) & 1:
            p[c] = 1.0
            live[c] = 0.0
        elif (unknown >> c) & 1:
            p[c] = share
            live[c] = 1.0 - share
        else:
            p[c] = 0.0
            live[c] = 0.0
    for c in range(52):
        if (hand >> c) & 1:
            risk[c] = _heuristic.danger(c, p)
    card, _ = _heuristic.best_discard(
        params, hand, banned, np.int64(-1), live, risk, work, suit_deadwood, stage, knock_limit
    )
    return card, work[card]


@njit(cache=True)
def playout_context(params, seat, hand, table, known):
    """The context of ``seat``'s playouts (``C_*`` slots): its ``playout_policy``, the knock limit, the pile
    as the cards gone, and what each seat knows of the other's hand (``known``: the opponent's known cards)."""
    context = np.zeros(CONTEXT_SIZE, np.int64)
    context[C_POLICY] = int(params[pm.PLAYOUT_POLICY])
    context[C_KNOCK_LIMIT] = table[v.T_KNOCK_LIMIT]
    context[C_GONE] = v.pile_mask(table)
    context[C_KNOWS + seat] = known
    context[C_KNOWS + 1 - seat] = v.known_opponent_cards(table, 1 - seat, np.int64(0)) & hand
    return context


@njit(cache=True)
def playout_scratch():
    """The work space of :func:`play_out`'s scored discards: the chances, live cards and dangers, 52 each."""
    return np.empty((3, 52))


@njit(cache=True)
def showdown_value(me, knocker, hands, big, rules, suit_deadwood, suit_value, result):
    """``me``'s points when ``knocker`` ends the hand (R14-R19, V13), negative when the other side scores."""
    _, defender_won, points, _, _, _ = score_hand(
        hands[knocker],
        hands[1 - knocker],
        big,
        rules[ri.GIN_BONUS],
        rules[ri.UNDERCUT_BONUS],
        rules[ri.UNDERCUT_ON_TIE],
        rules[ri.BIG_GIN_BONUS],
        np.int64(1),  # typed: a literal 1 would make numba compile score_hand a second time
        suit_deadwood,
        suit_value,
        result,
    )
    winner = 1 - knocker if defender_won else knocker
    return points if winner == me else -points


# Callers pass typed values (np.int64(-1), np.bool_(False), np.int64(PHASE_DRAW)), not constants:
# numba compiles a function once more for each constant argument, and play_out, showdown_value
# (with score_hand), estimate and choose_discard were compiled two or three times each, 2.7 s of
# the mcts decide's compile time (issue 25).
@njit(cache=True)
def play_out(
    me, player, phase, hands, top, drawn, from_pile, stock, stock_next, levels, rules, sd, sv, work, result, params,
    context, scratch,
):  # fmt: skip
    """Finish a hand from ``phase`` with the fast policy for both seats; ``me``'s points (0 if dead).

    Seat s knocks as soon as its deadwood is at most ``levels[s]`` (already capped by the
    hand's knock limit). PHASE_DRAW: ``player`` starts a normal turn with ``top`` on the pile. PHASE_DISCARD:
    ``player`` holds 11 cards after drawing ``drawn``. PHASE_AFTER_DISCARD: ``player``
    has just discarded ``top`` (already among the ``context``'s cards gone) and may knock.
    ``context`` (:func:`playout_context`) picks the discard policy; ``params`` are its weights and
    ``scratch`` (:func:`playout_scratch`) its work space.
    """
    rediscard = rules[ri.REDISCARD] != 0
    big_gin = rules[ri.BIG_GIN] != 0
    stock_count = stock.shape[0]
    scored = context[C_POLICY] == PLAYOUT_SCORED
    knock_limit = context[C_KNOCK_LIMIT]
    gone = context[C_GONE]
    # What each seat knows the other holds, as two ints: an array here cost an allocation per playout.
    knows_0 = context[C_KNOWS]
    knows_1 = context[C_KNOWS + 1]
    turns = 0
    while True:
        if phase == PHASE_DRAW:
            if top >= 0 and card_fits_meld(hands[player], top):
                drawn = top
                from_pile = True
                if player == 0:
                    knows_1 |= 1 << drawn
                else:
                    knows_0 |= 1 << drawn
            else:
                drawn = stock[stock_next]
                stock_next += 1
                from_pile = False
            hands[player] |= 1 << drawn
            phase = PHASE_DISCARD
        if phase == PHASE_DISCARD:
            if big_gin and deadwood_of_mask(hands[player], sd) == 0:
                return showdown_value(me, player, hands, np.bool_(True), rules, sd, sv, result)
            banned = drawn if from_pile and not rediscard else -1
            if scored:
                stage = _heuristic.stage_at(stock_count - stock_next)
                known = knows_0 if player == 0 else knows_1
                card, left = scored_discard(
                    params, hands[player], banned, gone, known, stage, knock_limit, work, scratch[0], scratch[1],
                    scratch[2], sd,
                )  # fmt: skip
            else:
                card, left = policy_discard(hands[player], banned, sd)
            hands[player] &= ~(1 << card)
            gone |= 1 << card
            if player == 0:
                knows_1 &= ~(1 << card)
            else:
                knows_0 &= ~(1 << card)
            top = card
            turns += 1
        else:
            left = deadwood_of_mask(hands[player], sd)
        if left <= levels[player]:
            return showdown_value(me, player, hands, np.bool_(False), rules, sd, sv, result)
        if stock_count - stock_next <= 2 or turns >= PLAYOUT_TURN_CAP:
            return 0
        player = 1 - player
        phase = PHASE_DRAW


@njit(cache=True)
def sample_world(known, unseen, floats, quality, rng, hands, me, my_hand, stock, cards, weights, sd, tries):
    """One world: the opponent's hand into ``hands[1 - me]`` (the best-kept of ``tries`` drawn, by ``quality``:
    ``kernels.opponent.sample_likely_hand``) and the stock order into ``stock``."""
    other = _opponent.sample_likely_hand(known, unseen, floats, quality, rng, cards, weights, sd, tries)
    hands[me] = my_hand
    hands[1 - me] = other
    rest = unseen & ~other
    count = 0
    for c in range(52):
        if (rest >> c) & 1 and count < stock.shape[0]:
            stock[count] = c
            count += 1
    for i in range(count - 1, 0, -1):
        j = randint(rng, i + 1)
        tmp = stock[i]
        stock[i] = stock[j]
        stock[j] = tmp


@njit(cache=True)
def _prepare(params, seat, hand, table, ints, floats):
    """Update the opponent estimate; return (known, unseen, stock count)."""
    _opponent.update_beliefs(params, seat, table, ints, floats)
    p = np.empty(52)
    known, unseen = _opponent.probabilities(seat, hand, table, floats, p)
    return known, unseen, table[v.T_STOCK_COUNT]


@njit(cache=True)
def _game(seat, table, rules):
    """(the seat's score, the opponent's score, the hand's multiplier): what a playout's points are worth."""
    return table[v.T_SCORE + seat], table[v.T_SCORE + 1 - seat], _knock.hand_multiplier(rules, table)


@njit(cache=True)
def _world_count(params, actions):
    return max(1, int(params[pm.BUDGET]) // actions)


#: Racing (issue 37): a decision's worlds stop early once one action's lead over another is ``race`` standard
#: errors of their paired differences in the same worlds (the ``race`` parameter; 0: never), looked at every
#: ``RACE_LOOK`` worlds from ``RACE_FIRST`` on; ``budget`` stays the most a decision plays. Most draws and knocks
#: are clear long before the budget.
RACE_FIRST = 96
RACE_LOOK = 32


@njit(cache=True)
def _settled(race, n, difference, z):
    """Add the ``n``-th paired difference of two actions to ``race`` (its sum and sum of squares); whether, at a
    look, their mean is ``z`` standard errors from 0 (the better action is then known)."""
    race[0] += difference
    race[1] += difference * difference
    return _apart(race[0], race[1], n, z)


@njit(cache=True)
def _apart(total, squares, n, z):
    """Whether ``n`` paired differences summing to ``total`` (squares ``squares``) are ``z`` standard errors from 0
    at a look (never for ``z`` 0)."""
    if z <= 0.0 or n < RACE_FIRST or (n - RACE_FIRST) % RACE_LOOK != 0:
        return False
    mean = total / n
    variance = max(0.0, (squares - n * mean * mean) / (n - 1))
    return mean * mean * n > z * z * variance


@njit(cache=True)
def _levels(params, seat, knock_limit):
    """Playout knock levels by seat: ``playout_knock`` for the searching player, ``opponent_knock`` for the other."""
    levels = np.empty(2, np.int64)
    levels[seat] = min(knock_limit, int(params[pm.PLAYOUT_KNOCK]))
    levels[1 - seat] = min(knock_limit, int(params[pm.OPPONENT_KNOCK]))
    return levels


@njit(cache=True)
def _playout_buffers(stock_count):
    """Scratch arrays of a decision's playouts: (hands, stock, cards, weights, work, result)."""
    return (
        np.empty(2, np.int64),
        np.empty(stock_count, np.int64),
        np.empty(52, np.int64),
        np.empty(_opponent.SAMPLE_WEIGHT_SLOTS),
        np.empty(52, np.int64),
        np.empty(3, np.int64),
    )


@njit(cache=True)
def draw_start(first_turn, take, seat, dealer, top, opponent_hand, stock):
    """After ``seat`` takes the pile's top card (``take``) or not: (who then holds 11 cards, the card drawn,
    whether it came from the pile). On the first turn (R11) a pass leaves the up card to the other player,
    who takes it in a playout when it fits a meld; when both pass, the non-dealer draws from the stock."""
    other = 1 - seat
    if take == 1:
        return seat, top, True
    if not first_turn:
        return seat, stock[0], False
    if seat != dealer and card_fits_meld(opponent_hand, top):
        return other, top, True
    return (seat if seat != dealer else other), stock[0], False


@njit(cache=True)
def draw_values(
    first_turn, seat, hand, table, rules, known, unseen, floats, quality, levels, worlds, rng, sd, sv, totals, params,
    context, race,
):  # fmt: skip
    """Add to ``totals`` the value of passing the pile's top card (0) and of taking it (1), summed over at most
    ``worlds`` sampled worlds shared by both (``first_turn``: the up card, R11; else a normal turn, R9); with
    ``race`` above 0, the worlds stop once the two are ``race`` standard errors apart at a look (:func:`_settled`).

    Passing on the first turn leaves the offer to the other player; each playout's result is valued in
    the game (``kernels.payoff.result_value``); ``params`` and ``context`` are the playouts' (:func:`play_out`).
    Also the draw teacher of ``simgin/tools/train_discard.py`` (``race`` 0: every world).
    """
    case = context.copy()
    scratch = playout_scratch()
    top = v.pile_top(table)
    dealer = table[v.T_DEALER]
    other = 1 - seat
    hands, stock, cards, weights, work, result = _playout_buffers(table[v.T_STOCK_COUNT])
    mine, theirs, multiplier = _game(seat, table, rules)
    values = np.zeros(2)
    apart = np.zeros(2)
    for n in range(1, worlds + 1):
        sample_world(
            known, unseen, floats, quality, rng, hands, seat, hand, stock, cards, weights, sd,
            _opponent.QUALITY_TRIES,
        )  # fmt: skip
        opponent_hand = hands[other]
        for take in range(2):
            hands[seat] = hand
            hands[other] = opponent_hand
            player, drawn, from_pile = draw_start(first_turn, take, seat, dealer, top, opponent_hand, stock)
            hands[player] |= 1 << drawn
            pile_top = -1 if from_pile else top
            stock_next = 0 if from_pile else 1
            case[:] = context
            if from_pile:
                case[C_KNOWS + 1 - player] |= 1 << drawn
            points = play_out(
                seat, player, np.int64(PHASE_DISCARD), hands, pile_top, drawn, from_pile, stock, stock_next, levels,
                rules, sd, sv, work, result, params, case, scratch,
            )  # fmt: skip
            values[take] = result_value(rules, mine, theirs, multiplier * points)
            totals[take] += values[take]
        if _settled(apart, n, values[1] - values[0], race):
            break


@njit(cache=True)
def choose_draw(first_turn, params, seat, hand, table, rules, ints, floats, rng, sd, sv):
    """Take the pile's top card (``first_turn``: the up card, R11; else a normal turn, R9), or not:
    the better mean playout (:func:`draw_values`)."""
    known, unseen, _ = _prepare(params, seat, hand, table, ints, floats)
    levels = _levels(params, seat, table[v.T_KNOCK_LIMIT])
    totals = np.zeros(2)
    context = playout_context(params, seat, hand, table, known)
    draw_values(
        first_turn, seat, hand, table, rules, known, unseen, floats, params[pm.HAND_QUALITY], levels,
        _world_count(params, np.int64(2)), rng, sd, sv, totals, params, context, params[pm.RACE],
    )  # fmt: skip
    return totals[1] > totals[0]


@njit(cache=True)
def choose_discard(params, seat, hand, table, rules, ints, floats, rng, sd, sv):
    """The discard with the best mean playout among the ``width`` best by the ``opponent`` bot's score
    (``kernels.heuristic.discard_score``, with this bot's weights and its estimate of the opponent)."""
    if table[v.T_FIFTIETH] != 0:
        return _heuristic.choose_discard(np.bool_(True), params, seat, hand, table, rules, ints, floats, sd)
    p = np.empty(52)
    live = np.empty(52)
    risk = np.empty(52)
    work = np.empty(52, np.int64)
    known, unseen = _heuristic.estimate(np.bool_(True), params, seat, hand, table, ints, floats, p, live, risk)
    banned = -1
    if table[v.T_FROM_PILE] != 0 and rules[ri.REDISCARD] == 0:
        banned = table[v.T_DRAWN]
    # The candidates: the ``width`` legal discards with the best ``opponent`` scores, best first.
    discard_deadwoods(hand, sd, work)
    candidates = np.empty(MAX_CANDIDATES, np.int64)
    scores = np.empty(MAX_CANDIDATES)
    count = 0
    knock_limit = table[v.T_KNOCK_LIMIT]
    weight_potential, weight_safety, gin_only = _heuristic.discard_weights(params, _heuristic.stage(table), knock_limit)
    for c in range(52):
        if not (hand >> c) & 1 or c == banned:
            continue
        score = _heuristic.discard_score(
            params, hand, c, work[c], live, risk, weight_potential, weight_safety, gin_only, knock_limit
        )
        # Insertion sort: lower score first, ties to the higher rank, then the higher card (as best_discard).
        i = count
        while i > 0 and (scores[i - 1] > score or (scores[i - 1] == score and candidates[i - 1] % 13 <= c % 13)):
            scores[i] = scores[i - 1]
            candidates[i] = candidates[i - 1]
            i -= 1
        scores[i] = score
        candidates[i] = c
        count += 1
    count = min(count, max(1, int(params[pm.WIDTH])))
    if count == 1:
        return candidates[0]
    stock_count = table[v.T_STOCK_COUNT]
    levels = _levels(params, seat, table[v.T_KNOCK_LIMIT])
    other = 1 - seat
    hands, stock, cards, weights, _, result = _playout_buffers(stock_count)
    mine, theirs, multiplier = _game(seat, table, rules)
    context = playout_context(params, seat, hand, table, known)
    scratch = playout_scratch()
    gone = context[C_GONE]
    totals = np.zeros(count)
    # Racing: a candidate drops out once the leader's paired lead over it is settled (:func:`_apart`).
    alive = np.ones(count, np.bool_)
    values = np.zeros(count)
    lead = np.zeros((count, count))
    squares = np.zeros((count, count))
    left = count
    z = params[pm.RACE]
    for n in range(1, _world_count(params, count) + 1):
        sample_world(
            known, unseen, floats, params[pm.HAND_QUALITY], rng, hands, seat, hand, stock, cards, weights, sd,
            _opponent.QUALITY_TRIES,
        )  # fmt: skip
        opponent_hand = hands[other]
        for i in range(count):
            if not alive[i]:
                continue
            hands[seat] = hand & ~(1 << candidates[i])
            hands[other] = opponent_hand
            context[C_GONE] = gone | (1 << candidates[i])
            points = play_out(
                seat, seat, np.int64(PHASE_AFTER_DISCARD), hands, candidates[i], np.int64(-1), np.bool_(False), stock,
                np.int64(0), levels, rules, sd, sv, work, result, params, context, scratch,
            )  # fmt: skip
            values[i] = result_value(rules, mine, theirs, multiplier * points)
            totals[i] += values[i]
        for i in range(count):
            for j in range(count):
                if alive[i] and alive[j] and i != j:
                    lead[i, j] += values[i] - values[j]
                    squares[i, j] += (values[i] - values[j]) ** 2
        best = _leader(totals, scores, alive)
        for j in range(count):
            if alive[j] and j != best and lead[best, j] > 0 and _apart(lead[best, j], squares[best, j], n, z):
                alive[j] = False
                left -= 1
        if left == 1:
            break
    return candidates[_leader(totals, scores, alive)]


@njit(cache=True)
def _leader(totals, scores, alive):
    """The candidate still racing with the best total, ties to the better ``opponent`` score."""
    best = -1
    for i in range(totals.shape[0]):
        if alive[i] and (
            best < 0 or totals[i] > totals[best] or (totals[i] == totals[best] and scores[i] < scores[best])
        ):
            best = i
    return best


@njit(cache=True)
def choose_knock(params, seat, hand, table, rules, ints, floats, rng, sd, sv):
    """Gin always; otherwise knock when the mean showdown beats the mean playout of waiting."""
    known, unseen, stock_count = _prepare(params, seat, hand, table, ints, floats)
    if deadwood_of_mask(hand, sd) == 0:
        return True
    top = v.pile_top(table)
    levels = _levels(params, seat, table[v.T_KNOCK_LIMIT])
    other = 1 - seat
    hands, stock, cards, weights, work, result = _playout_buffers(stock_count)
    mine, theirs, multiplier = _game(seat, table, rules)
    context = playout_context(params, seat, hand, table, known)
    scratch = playout_scratch()
    now = 0.0
    wait = 0.0
    race = np.zeros(2)
    for n in range(1, _world_count(params, np.int64(2)) + 1):
        sample_world(
            known, unseen, floats, params[pm.HAND_QUALITY], rng, hands, seat, hand, stock, cards, weights, sd,
            _opponent.QUALITY_TRIES,
        )  # fmt: skip
        opponent_hand = hands[other]
        points = showdown_value(seat, seat, hands, np.bool_(False), rules, sd, sv, result)
        knocking = result_value(rules, mine, theirs, multiplier * points)
        now += knocking
        waiting = 0.0
        hands[seat] = hand
        hands[other] = opponent_hand
        if stock_count > 2:
            points = play_out(
                seat, other, np.int64(PHASE_DRAW), hands, top, np.int64(-1), np.bool_(False), stock, np.int64(0),
                levels, rules, sd, sv, work, result, params, context, scratch,
            )  # fmt: skip
            waiting = result_value(rules, mine, theirs, multiplier * points)
            wait += waiting
        if _settled(race, n, knocking - waiting, params[pm.RACE]):
            break
    return now >= wait


@njit(cache=True)
def plays_as_opponent(params, rules, knock_limit):
    """Whether ``mcts`` discards and knocks as the ``opponent`` bot (its companion vector,
    ``kernels.parameters.COMPANION``) instead of searching: with ``opponent_play`` on, in a hand a knock can end
    (R12) under an undercut bonus above 10 (R19, V2; the eaai and modern presets), where ``opponent``'s second
    discard network plays (``kernels.heuristic.network_of``). There the playouts, which knock at once for the
    opponent, misjudge discards and knocks (benchmarks/RESULTS.md, *mcts plays by opponent*)."""
    return params[pm.OPPONENT_PLAY] != 0.0 and _heuristic.network_of(rules, knock_limit) == HIGH_UNDERCUT


@njit(cache=True)
def decide(decision, bot, seat, hand, state, suit_deadwood):
    """mcts's ``decide`` (``kernels.decisions.POLICY``, registered in ``kernels.bots.BOTS``): its searches for the
    draw, the discard and the knock, the last two as ``opponent`` where :func:`plays_as_opponent`; opponent's rule
    for the fiftieth card."""
    params, memory, own, rules, rng = seat_rows(seat, state)
    answer = np.int64(1)  # big gin: always
    if decision == d.DECISION_START:
        _opponent.reset_beliefs(own, memory)
    elif decision in (d.DECISION_TAKE_UP_CARD, d.DECISION_DRAW_FROM_PILE):
        first_turn = decision == d.DECISION_TAKE_UP_CARD
        answer = choose_draw(first_turn, params, seat, hand, state, rules, own, memory, rng, suit_deadwood, SUIT_VALUE)
    elif decision in (d.DECISION_DISCARD, d.DECISION_KNOCK) and plays_as_opponent(
        params, rules, state[v.T_KNOCK_LIMIT]
    ):
        companion = params[pm.COMPANION :]
        if decision == d.DECISION_DISCARD:
            answer = _heuristic.choose_discard(
                np.bool_(True), companion, seat, hand, state, rules, own, memory, suit_deadwood
            )
        else:
            answer = _heuristic.knocks(
                np.bool_(True), companion, seat, hand, state, rules, own, memory, suit_deadwood, SUIT_VALUE, rng
            )
    elif decision == d.DECISION_DISCARD:
        answer = choose_discard(params, seat, hand, state, rules, own, memory, rng, suit_deadwood, SUIT_VALUE)
    elif decision == d.DECISION_KNOCK:
        answer = choose_knock(params, seat, hand, state, rules, own, memory, rng, suit_deadwood, SUIT_VALUE)
    elif decision == d.DECISION_TAKE_FIFTIETH:
        answer = _heuristic.takes_fiftieth(
            params, seat, hand, state, rules, own, memory, rng, suit_deadwood, SUIT_VALUE
        )
    own[I_RNG] = np.int64(rng[0])
    return np.int64(answer)

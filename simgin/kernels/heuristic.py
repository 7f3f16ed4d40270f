"""The policy of the ``heuristic`` and ``opponent`` bots (``strategies/heuristic.py``, ``strategies/opponent.py``).

Both score a discard by the deadwood it leaves, plus the meld potential it throws away
(live cards that would still complete a meld with it), plus its danger (the chance that it
completes a meld of the opponent), minus a little for its value; the potential and danger
weights move linearly from their early to their late values as the stock runs down, and
shrink in a hand that only gin can end (straight gin, an Oklahoma ace with gin only). Both
knock when knocking now is worth at least playing on, valued in the rules in force and the
game as it stands (``kernels.knock``).

They differ in what they know and how much they think. ``heuristic`` judges the opponent
from its takes, passes and discards as listed (``kernels.opponent.stateless_weights``),
values a knock over few drawn opponent hands, and takes the pile's top card when it lowers
its deadwood. ``opponent`` keeps the running Bayesian estimate of ``kernels.opponent``,
values a knock over more hands tilted towards well-kept ones, and takes the pile's top card
when the best score after it beats the expected best score after a stock card.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgin.kernels import (
    discard_network as _network,
    knock as _knock,
    opponent as _opponent,
    parameters as pm,
    rule_index as ri,
    view as v,
)
from simgin.kernels.melds import (
    deadwood_of_mask,
    discard_deadwoods,
    has_three_of_a_rank,
    run_cards,
    same_rank_count,
    suit_mask,
)

FULL_STOCK = 31  # cards in the stock after a standard deal (R8)


@njit(cache=True)
def potential(hand, card, live):
    """Live cards that would put ``card`` into a meld it is not in yet, each counted by ``live``.

    ``live[c]`` is the chance that card ``c`` may still reach the player (0 for seen cards).
    """
    rank = card % 13
    suit = card // 13
    mates = same_rank_count(hand, card)
    total = 0.0
    if mates == 1:
        for s in range(4):
            if s != suit and not (hand >> (13 * s + rank)) & 1:
                total += live[13 * s + rank]
    m = suit_mask(hand, suit)
    if mates < 2 and not (run_cards(m) >> rank) & 1:
        for r in range(max(0, rank - 2), min(13, rank + 3)):
            if r != rank and not (m >> r) & 1 and (run_cards(m | (1 << r)) >> rank) & 1:
                total += live[13 * suit + r]
    return total


@njit(cache=True, inline="always")
def _near(card, other):
    """Whether ``other`` is of ``card``'s rank or within two ranks of it in its suit: the cards whose presence
    can change :func:`potential` of ``card``."""
    rank, other_rank = card % 13, other % 13
    return rank == other_rank or (card // 13 == other // 13 and abs(rank - other_rank) <= 2)


@njit(cache=True)
def danger(card, p):
    """The chance that ``card`` completes or extends a meld of an opponent holding each card c with chance p[c]."""
    rank = card % 13
    suit = card // 13
    # The three rank-mates' chances, as scalars: an array here cost an allocation per call.
    q0 = q1 = q2 = 0.0
    i = 0
    for s in range(4):
        if s != suit:
            if i == 0:
                q0 = p[13 * s + rank]
            elif i == 1:
                q1 = p[13 * s + rank]
            else:
                q2 = p[13 * s + rank]
            i += 1
    in_set = q0 * q1 + q0 * q2 + q1 * q2 - 2.0 * q0 * q1 * q2
    no_run = 1.0
    base = 13 * suit
    if rank >= 2:
        no_run *= 1.0 - p[base + rank - 2] * p[base + rank - 1]
    if 1 <= rank <= 11:
        no_run *= 1.0 - p[base + rank - 1] * p[base + rank + 1]
    if rank <= 10:
        no_run *= 1.0 - p[base + rank + 1] * p[base + rank + 2]
    return 1.0 - (1.0 - in_set) * no_run


@njit(cache=True)
def estimate(model, params, seat, hand, table, ints, floats, p, live, risk):
    """Fill ``p`` (opponent holds c), ``live`` (c may still reach the player) and ``risk`` (danger of discarding c).

    Returns (known opponent cards, unseen cards) as masks.
    """
    if model:
        _opponent.update_beliefs(params, seat, table, ints, floats)
    else:
        _opponent.stateless_weights(params, seat, table, floats)
    known, unseen = _opponent.probabilities(seat, hand, table, floats, p)
    for c in range(52):
        live[c] = 1.0 - p[c] if (unseen >> c) & 1 else 0.0
    for c in range(52):
        risk[c] = danger(c, p)
    return known, unseen


@njit(cache=True, inline="always")
def discard_weights(params, stage, knock_limit):
    """(potential weight, safety weight, gin only) of a discard score at ``stage`` (:func:`stage`) under
    ``knock_limit``: the early and late weights mixed by stage; in a hand only gin can end (knock limit
    0: V1, V9) the ``gin_`` ones, scaled by ``gin_only``."""
    gin_only = knock_limit == 0
    if gin_only:
        late_potential, early_potential = params[pm.GIN_POTENTIAL_LATE], params[pm.GIN_POTENTIAL]
        late_safety, early_safety = params[pm.GIN_SAFETY_LATE], params[pm.GIN_SAFETY]
    else:
        late_potential, early_potential = params[pm.POTENTIAL_LATE], params[pm.POTENTIAL]
        late_safety, early_safety = params[pm.SAFETY_LATE], params[pm.SAFETY]
    weight_potential = late_potential + (early_potential - late_potential) * stage
    weight_safety = late_safety + (early_safety - late_safety) * stage
    if gin_only:
        weight_potential *= params[pm.GIN_ONLY]
        weight_safety *= params[pm.GIN_ONLY]
    return weight_potential, weight_safety, gin_only


@njit(cache=True)
def discard_score(params, hand, card, left, live, risk, weight_potential, weight_safety, gin_only, knock_limit):
    """The score of discarding ``card`` from ``hand``, leaving ``left`` deadwood (lower is better): the
    deadwood, plus the weighted potential thrown away and danger, minus ``value`` per card point and
    ``reach`` when the hand may then knock (R12); a hand only gin can end has neither of those. A discard
    that leaves gin (R13) scores ``reach_gin`` less, in every hand."""
    return score_of_potential(
        params, card, left, potential(hand, card, live), risk, weight_potential, weight_safety, gin_only, knock_limit
    )


@njit(cache=True, inline="always")
def score_of_potential(
    params, card, left, potential_card, risk, weight_potential, weight_safety, gin_only, knock_limit
):
    """:func:`discard_score` with the card's :func:`potential` already known (``network_discard`` also feeds it to
    the network)."""
    score = left + weight_potential * potential_card + weight_safety * risk[card]
    if left == 0:
        score -= params[pm.REACH_GIN]
    if not gin_only:
        score -= params[pm.VALUE] * min(card % 13 + 1, 10)
        if left <= knock_limit:
            score -= params[pm.REACH]
    return score


@njit(cache=True)
def best_discard(params, hand, banned, limit, live, risk, work, suit_deadwood, stage=1.0, knock_limit=10):
    """(card, score) of the best discard of ``hand`` (lowest score; ties to the higher rank, then card).

    ``banned`` may not be discarded (-1: none); with ``limit`` >= 0 only discards leaving at
    most ``limit`` deadwood are allowed (V7). ``stage`` (1 early, 0 late, :func:`stage`) moves
    the potential and safety weights from their early to their late values. A hand only gin
    can end (``knock_limit`` 0: V1, V9) has weights of its own, the ``gin_`` ones scaled by
    ``gin_only``, and no ``value`` term; in any other hand, a discard that leaves at most
    ``knock_limit`` deadwood, so that the bot may knock (R12), scores ``reach`` points less, and one that
    leaves gin (R13) ``reach_gin`` less (:func:`discard_score`).
    """
    return _best_discard(
        params, hand, banned, limit, live, risk, work, suit_deadwood, stage, knock_limit, -1, live, 0, 0.0
    )  # fmt: skip


@njit(cache=True, inline="always")
def _best_discard(
    params, hand, banned, limit, live, risk, work, suit_deadwood, stage, knock_limit, drawn, kept, unseen, outs_weight
):  # fmt: skip
    """:func:`best_discard`; with ``drawn`` >= 0, ``hand`` is a hand before the draw plus the card ``drawn``, and
    ``kept[c]`` is the :func:`potential` of each card ``c`` in that hand before the draw: the same as after it,
    unless ``drawn`` is of ``c``'s rank or within two ranks of it in its suit (a run through ``c`` is three
    consecutive ranks, R4), so only those are computed again (:func:`pile_card_scores` draws every unseen card).
    With ``outs_weight`` not 0, :func:`discard_for_outs`: each discard that keeps a hand near gin also scores
    ``outs_weight`` less per gin out among the ``unseen`` cards."""
    discard_deadwoods(hand, suit_deadwood, work)
    best = -1
    best_score = 0.0
    weight_potential, weight_safety, gin_only = discard_weights(params, stage, knock_limit)
    for c in range(52):
        if not (hand >> c) & 1 or c == banned or (limit >= 0 and work[c] > limit):
            continue
        left = work[c]
        potential_c = potential(hand, c, live) if drawn < 0 or _near(c, drawn) else kept[c]
        # discard_score written out: called here once per card, it made ``opponent`` play 20-25% fewer hands per
        # second, even inlined (tests/test_mcts_playouts.py checks that the two agree).
        score = left + weight_potential * potential_c + weight_safety * risk[c]
        if left == 0:
            score -= params[pm.REACH_GIN]
        if not gin_only:
            score -= params[pm.VALUE] * min(c % 13 + 1, 10)
            if left <= knock_limit:
                score -= params[pm.REACH]
        if outs_weight != 0.0 and 0 < left <= OUTS_DEADWOOD:
            score -= outs_weight * _knock.gin_outs(hand & ~(1 << c), unseen, live, suit_deadwood)
        if best < 0 or score < best_score or (score == best_score and c % 13 >= best % 13):
            best = c
            best_score = score
    return best, best_score


@njit(cache=True)
def choose_discard(model, params, seat, hand, table, rules, ints, floats, suit_deadwood):
    """The discard with the best score among the legal ones (R9, R10, V6, V7)."""
    p = np.empty(52)
    live = np.empty(52)
    risk = np.empty(52)
    work = np.empty(52, np.int64)
    _, unseen = estimate(model, params, seat, hand, table, ints, floats, p, live, risk)
    fiftieth = table[v.T_FIFTIETH] != 0
    banned = -1
    if table[v.T_FROM_PILE] != 0 and not fiftieth and rules[ri.REDISCARD] == 0:
        banned = table[v.T_DRAWN]
    limit = table[v.T_KNOCK_LIMIT] if fiftieth else -1
    share = stage(table)
    knock_limit = table[v.T_KNOCK_LIMIT]
    outs_weight = gin_outs_weight(params, rules)
    regime = network_of(rules, knock_limit)
    if model and params[pm.DISCARD_NETWORK] != 0.0 and regime >= 0:
        return network_discard(
            params, hand, banned, limit, live, risk, work, suit_deadwood, share, knock_limit, unseen, outs_weight,
            regime,
        )  # fmt: skip
    if outs_weight == 0.0:
        card, _ = best_discard(params, hand, banned, limit, live, risk, work, suit_deadwood, share, knock_limit)
    else:
        card = discard_for_outs(
            params, hand, banned, limit, live, risk, work, suit_deadwood, share, knock_limit, unseen, outs_weight
        )
    return card


@njit(cache=True, inline="always")
def network_of(rules, knock_limit):
    """Which network corrects ``opponent``'s discard (``kernels.discard_network``): none (-1) in a hand only gin can
    end (it keeps its own ``gin_`` weights, V1, V9); else ``LOW_UNDERCUT`` with an undercut bonus of at most
    :data:`NETWORK_UNDERCUT_BONUS` (R19), ``HIGH_UNDERCUT`` with a larger one (V2). The first network's teacher's
    playouts knock as soon as they may, which misjudges a hand under a rule that punishes a knock into an
    undercut: head to head under the standard rules with the bonus B, in points per hand, it gained +0.68 at 0,
    +0.51 at 10, +0.17 at 15, then lost, -0.43 at 20, -0.95 at 25, -1.23 at 30 (benchmarks/RESULTS.md, *A discard
    network*); 10 is the largest bonus of the presets it was gated under. The second network was fitted where
    the bonus is larger, to a teacher in which the players play the hand on themselves: head to head +0.56
    points per hand under eaai and +0.53 under modern, gated at +9.5 and +8.2 Elo (*A second discard network*)."""
    if knock_limit <= 0:
        return -1
    if rules[ri.UNDERCUT_BONUS] <= NETWORK_UNDERCUT_BONUS:
        return _network.LOW_UNDERCUT
    return _network.HIGH_UNDERCUT


#: The largest undercut bonus (R19, V2) under which ``opponent``'s discard takes the first network's correction
#: (``discard_network.LOW_UNDERCUT``); above it, the second's.
NETWORK_UNDERCUT_BONUS = 10


@njit(cache=True)
def network_discard(
    params, hand, banned, limit, live, risk, work, suit_deadwood, share, knock_limit, unseen, outs, regime
):
    """:func:`best_discard` with each score corrected by ``discard_network`` times the term of network ``regime``
    (``kernels.discard_network.correction``), and, with ``outs`` not 0, :func:`discard_for_outs`'s term for the
    gin outs of a hand kept near gin (the network's ``gin_outs`` input is 0 where that term is not counted).

    Under ``HIGH_UNDERCUT`` (an undercut bonus above :data:`NETWORK_UNDERCUT_BONUS`, V2), a hand kept near gin,
    where its gin outs are counted, also scores ``improve`` points less per point of deadwood it is expected to
    shed with its next draw (``kernels.knock.draw_outs``: the cards that complete a meld with two held cards, each
    by its chance to arrive): a look one draw ahead, where a knock risks a large undercut and most hands race to
    gin. Head to head under the standard rules and Oklahoma it gained nothing and under straight gin it lost
    (benchmarks/RESULTS.md, *A look one draw ahead*), so elsewhere it is 0."""
    discard_deadwoods(hand, suit_deadwood, work)
    best = -1
    best_score = 0.0
    weight_potential, weight_safety, gin_only = discard_weights(params, share, knock_limit)
    scale = params[pm.DISCARD_NETWORK]
    improve = params[pm.IMPROVE] if regime == _network.HIGH_UNDERCUT else 0.0
    inputs = np.empty(_network.INPUT_COUNT)
    for c in range(52):
        if not (hand >> c) & 1 or c == banned or (limit >= 0 and work[c] > limit):
            continue
        left = work[c]
        potential_c = potential(hand, c, live)
        score = score_of_potential(
            params, c, left, potential_c, risk, weight_potential, weight_safety, gin_only, knock_limit
        )  # fmt: skip
        gin_outs = 0.0
        if outs != 0.0 and 0 < left <= OUTS_DEADWOOD:
            gin_outs, shed = _knock.draw_outs(hand & ~(1 << c), left, unseen, live, suit_deadwood)
            score -= improve * shed  # 0 outside HIGH_UNDERCUT: the score as it was, to the last bit
            score -= outs * gin_outs
        inputs[0] = left
        inputs[1] = potential_c
        inputs[2] = risk[c]
        inputs[3] = share
        inputs[4] = min(c % 13 + 1, 10)
        inputs[5] = 1.0 if left <= knock_limit else 0.0
        inputs[6] = 1.0 if left == 0 else 0.0
        inputs[7] = gin_outs
        inputs[8] = knock_limit / 10.0
        score += scale * _network.correction(inputs, regime)
        if best < 0 or score < best_score or (score == best_score and c % 13 >= best % 13):
            best = c
            best_score = score
    return best


@njit(cache=True, inline="always")
def gin_outs_weight(params, rules):
    """Points off a discard per gin out of the hand kept (``gin_outs``), but none under Hollywood scoring (V14),
    where a hand's win counts in up to three games at once, so keeping ways to gin at the cost of deadwood wins
    fewer of them: gated at -9 and -12 Elo there (weights 4 and 6) and a gain under every other preset
    (benchmarks/RESULTS.md, *Strength gates*)."""
    return 0.0 if rules[ri.HOLLYWOOD] else params[pm.GIN_OUTS]


#: The most deadwood a kept hand may have and still be one card from gin (three loose cards, R13): the gin outs of
#: :func:`discard_for_outs` are counted only at or below it.
OUTS_DEADWOOD = 20


@njit(cache=True)
def discard_for_outs(params, hand, banned, limit, live, risk, work, suit_deadwood, share, knock_limit, unseen, weight):
    """:func:`best_discard` when each discard also scores ``weight`` points less per card that would then give gin
    (R13), each counted by its chance to arrive (``kernels.knock.gin_outs``), where the hand kept is near gin (at
    most :data:`OUTS_DEADWOOD` deadwood): the discard that keeps the most ways to gin."""
    card, _ = _best_discard(
        params, hand, banned, limit, live, risk, work, suit_deadwood, share, knock_limit, -1, live, unseen, weight
    )  # fmt: skip
    return card


@njit(cache=True)
def takes_pile_card(model, params, seat, hand, table, rules, ints, floats, suit_deadwood):
    """Whether to take the pile's top card (R9, R11) instead of a stock card.

    ``heuristic`` (``model`` false) takes it when some discard afterwards leaves less
    deadwood than the hand has now, by more than ``draw_margin`` (``gin_draw_margin`` in a hand
    only gin can end, as for ``opponent``), and always when it makes gin (R13): a positive margin
    must not pass up gin (``simgin analyse`` found those passes among the costliest decisions).
    ``opponent`` takes it when
    the best score after it beats, by more than ``draw_margin`` (``gin_draw_margin`` in a hand
    only gin can end, whose scores have weights of their own), the expected best score after
    a stock card, each unseen card weighted by the chance it is not in the opponent's hand.
    """
    margin = params[pm.GIN_DRAW_MARGIN] if table[v.T_KNOCK_LIMIT] == 0 else params[pm.DRAW_MARGIN]
    if not model:
        after, now = deadwood_draw_scores(hand, v.pile_top(table), suit_deadwood)
        if after == 0 < now:  # the card makes gin (R13): no margin holds against it
            return True
        return after + margin < now
    taken, expected, weight = pile_card_scores(params, seat, hand, table, ints, floats, suit_deadwood)
    if weight <= 0.0:
        return False
    return taken + margin < expected / weight


@njit(cache=True)
def deadwood_draw_scores(hand, top, suit_deadwood):
    """``heuristic``'s two sides of the draw (R9, R11), before its margin: (the least deadwood a discard
    leaves after taking the pile's top card ``top``, the deadwood of ``hand`` now). Also the draw scores
    of ``simgin/tools/train_discard.py --bot heuristic``."""
    work = np.empty(52, np.int64)
    return discard_deadwoods(hand | (1 << top), suit_deadwood, work), deadwood_of_mask(hand, suit_deadwood)


@njit(cache=True)
def pile_card_scores(params, seat, hand, table, ints, floats, suit_deadwood):
    """``opponent``'s two sides of the draw (R9, R11), before its margin: (the best discard score after
    taking the pile's top card, the sum over unseen cards of their chance to arrive times the best score
    after drawing them, the sum of those chances). Also the draw scores of ``simgin/tools/train_discard.py``."""
    work = np.empty(52, np.int64)
    p = np.empty(52)
    live = np.empty(52)
    risk = np.empty(52)
    _, unseen = estimate(np.bool_(True), params, seat, hand, table, ints, floats, p, live, risk)
    top = v.pile_top(table)
    share = stage(table)
    knock_limit = table[v.T_KNOCK_LIMIT]
    # A typed -1, not the constant: numba compiles best_discard again for each constant argument (issue 25).
    none = np.int64(-1)
    _, taken = best_discard(params, hand | (1 << top), top, none, live, risk, work, suit_deadwood, share, knock_limit)
    expected, weight = stock_card_scores(params, hand, unseen, live, risk, work, suit_deadwood, share, knock_limit)
    return taken, expected, weight


@njit(cache=True)
def stock_card_scores(params, hand, unseen, live, risk, work, suit_deadwood, share, knock_limit):
    """The stock side of ``opponent``'s draw (R9): (the sum over unseen cards of their chance to arrive, ``live``,
    times the best discard score after drawing them, the sum of those chances).

    Each unseen card is one more card in one suit, so the hand's deadwood after each discard is found from the hand
    before the draw: a discard from another suit changes the deadwood as it did before the card came, plus what
    the card did to its own suit (runs only, R4: the suits meet only in sets, R3). A hand that then holds three
    of a rank is searched whole (``melds.discard_deadwoods``). The held cards' potentials are computed once and
    again only near the card (:func:`_best_discard`). The scores are those of :func:`best_discard`, to the last
    bit (tests/test_draw_scores.py)."""
    kept = np.empty(52)
    removed = np.empty(52, np.int64)  # what taking each held card out does to its suit's run-only deadwood
    suit_left = np.empty(4, np.int64)
    held_cards = np.empty(53, np.int64)  # the hand's cards, then the card drawn (a minimum: any order gives it)
    held_count = 0
    base = 0
    for suit in range(4):
        m = suit_mask(hand, suit)
        suit_left[suit] = suit_deadwood[m]
        base += suit_left[suit]
    for c in range(52):
        if (hand >> c) & 1:
            kept[c] = potential(hand, c, live)
            m = suit_mask(hand, c // 13)
            removed[c] = suit_deadwood[m ^ (1 << (c % 13))] - suit_deadwood[m]
            held_cards[held_count] = c
            held_count += 1
    none = np.int64(-1)
    weight_potential, weight_safety, gin_only = discard_weights(params, share, knock_limit)
    expected = 0.0
    weight = 0.0
    for c in range(52):
        if not (unseen >> c) & 1 or live[c] <= 0.0:
            continue
        held = hand | (1 << c)
        if has_three_of_a_rank(held):
            _, best_score = _best_discard(
                params, held, none, none, live, risk, work, suit_deadwood, share, knock_limit, np.int64(c), kept, 0, 0.0
            )  # fmt: skip
        else:
            suit = c // 13
            m = suit_mask(held, suit)
            with_card = base - suit_left[suit] + suit_deadwood[m]
            best_score = np.inf
            held_cards[held_count] = c
            for k in range(held_count + 1):
                x = held_cards[k]
                if x // 13 == suit:
                    left = with_card - suit_deadwood[m] + suit_deadwood[m ^ (1 << (x % 13))]
                else:
                    left = with_card + removed[x]
                potential_x = potential(held, x, live) if _near(x, c) else kept[x]
                # discard_score written out, in its order of operations, as in _best_discard
                score = left + weight_potential * potential_x + weight_safety * risk[x]
                if left == 0:
                    score -= params[pm.REACH_GIN]
                if not gin_only:
                    score -= params[pm.VALUE] * min(x % 13 + 1, 10)
                    if left <= knock_limit:
                        score -= params[pm.REACH]
                best_score = min(best_score, score)
        expected += live[c] * best_score
        weight += live[c]
    return expected, weight


@njit(cache=True)
def stage(table):
    """How much of the hand is still to come: 1 with a full stock, 0 with two cards left (R15)."""
    return stage_at(table[v.T_STOCK_COUNT])


@njit(cache=True, inline="always")
def stage_at(stock_count):
    """:func:`stage` with ``stock_count`` cards in the stock (also a playout's, ``kernels.mcts.play_out``)."""
    return min(1.0, max(0.0, (stock_count - 2) / (FULL_STOCK - 3)))


@njit(cache=True)
def knock_threshold(params, stock_count):
    """The highest deadwood to knock with: ``knock`` with a full stock, ``knock_late`` when it is empty."""
    return params[pm.KNOCK_LATE] + (params[pm.KNOCK] - params[pm.KNOCK_LATE]) * stage_at(stock_count)


@njit(cache=True)
def knocks(model, params, seat, hand, table, rules, ints, floats, suit_deadwood, suit_value, rng):
    """Gin always (R13). Otherwise, within the fixed limits (``knock``/``knock_late`` by stock,
    the ``gin_hold`` hold-out), knock when knocking now is worth at least playing on, both
    valued in the rules in force and the game as it stands (``kernels.knock``)."""
    dw = deadwood_of_mask(hand, suit_deadwood)
    if dw == 0:
        return True
    stock = table[v.T_STOCK_COUNT]
    if dw > knock_threshold(params, stock):
        return False
    if dw <= params[pm.GIN_HOLD] and stock > params[pm.GIN_STOCK]:
        return False
    p = np.empty(52)
    live = np.empty(52)
    risk = np.empty(52)
    known, unseen = estimate(model, params, seat, hand, table, ints, floats, p, live, risk)
    mine = table[v.T_SCORE + seat]
    theirs = table[v.T_SCORE + 1 - seat]
    multiplier = _knock.hand_multiplier(rules, table)
    samples = max(1, int(params[pm.KNOCK_SAMPLES]))
    now, opponent_deadwood = _knock.knocking_value(
        rules,
        hand,
        known,
        unseen,
        floats,
        samples,
        params[pm.HAND_QUALITY],
        mine,
        theirs,
        multiplier,
        rng,
        suit_deadwood,
        suit_value,
    )
    if stock <= 2:
        return now > 0.0  # playing on ends the hand dead (R15)
    outs = _knock.gin_outs(hand, unseen, live, suit_deadwood)
    x = np.empty(_knock.FEATURE_COUNT)
    _knock.features(dw, stock, table[v.T_KNOCK_LIMIT], outs, opponent_deadwood, _opponent.popcount(known), x)
    return now + params[pm.KNOCK_BIAS] >= _knock.playing_on_value(rules, mine, theirs, multiplier, x)


@njit(cache=True)
def takes_fiftieth(params, seat, hand, table, rules, ints, floats, rng, suit_deadwood, suit_value):
    """V7: take the last discard when the forced knock after the best discard is worth more than
    the dead hand (nothing), valued over ``risk_samples`` drawn opponent hands as :func:`knocks` does."""
    p = np.empty(52)
    live = np.empty(52)
    risk = np.empty(52)
    work = np.empty(52, np.int64)
    known, unseen = estimate(np.bool_(True), params, seat, hand, table, ints, floats, p, live, risk)
    held = hand | (1 << v.pile_top(table))
    discard_deadwoods(held, suit_deadwood, work)
    best = -1
    for c in range(52):
        if (held >> c) & 1 and (best < 0 or work[c] < work[best]):
            best = c
    value, _ = _knock.knocking_value(
        rules,
        held & ~(1 << best),
        known,
        unseen,
        floats,
        max(1, int(params[pm.RISK_SAMPLES])),
        params[pm.HAND_QUALITY],
        table[v.T_SCORE + seat],
        table[v.T_SCORE + 1 - seat],
        _knock.hand_multiplier(rules, table),
        rng,
        suit_deadwood,
        suit_value,
    )
    return value > 0.0

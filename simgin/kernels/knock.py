"""The knock decision of the ``heuristic`` and ``opponent`` bots: knock now or play on, in points now.

Used by ``strategies/heuristic.py`` and ``strategies/opponent.py`` (through
``kernels/heuristic.py``). Both sides of the decision are valued in the rules in force and
the game as it stands (``kernels/payoff.py``):

- **Knocking now** (R12-R19, V9, V13) is scored exactly against opponent hands drawn from
  the bot's estimate (lay-offs included), with the real gin and undercut bonuses,
  ``undercut_on_tie`` and the Oklahoma spade multiplier, and each result is valued by
  :func:`simgin.kernels.payoff.result_value`.
- **Playing on** is valued by a model of how the hand then ends when the bot holds on for
  gin and the opponent knocks at its first chance: the bot goes gin, undercuts the
  opponent's knock, loses to it, loses to the opponent's gin, or the hand dies. The chance
  of each (a multinomial logit) and the points apart from the bonuses (linear models) are
  functions of the bot's deadwood, the stock, the knock limit, its gin outs, the estimated
  opponent deadwood and the cards it knows the opponent holds. The bonuses of the rules in
  force are added to those points, so one model serves every rule set: a larger undercut
  bonus makes playing on worth more, a smaller gin bonus less.

The model's coefficients were fitted on Monte Carlo playouts (``simgin/tools/fit_knock_model.py``
writes them): at knock decisions met in games of ``mcts`` against ``simple`` under the standard
and Oklahoma rules, 300 sampled worlds each were played out both ways.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgin.kernels import opponent as _opponent, rule_index as ri, view as v
from simgin.kernels.melds import SUIT_DROP, least_deadwood_after_discard
from simgin.kernels.payoff import result_value
from simgin.kernels.showdown import defender_left_over, knocker_layouts

FEATURE_COUNT = 10
OUTCOME_GIN = 0
OUTCOME_UNDERCUT = 1
OUTCOME_OPPONENT_KNOCK = 2
OUTCOME_OPPONENT_GIN = 3
#: Multinomial logit of the four ways a played-on hand ends, against a dead hand (rows: features).
OUTCOME_WEIGHTS = np.array(
    [
        [-0.0667, 0.6037, -0.0095, 0.4738],
        [-0.7584, 0.3326, 1.4889, -0.0168],
        [0.4752, 0.8883, 1.0644, 0.6525],
        [-0.374, 1.4274, 1.0402, -0.0466],
        [1.1932, 0.3037, 0.2204, 0.635],
        [2.2436, 0.2459, -0.6439, -0.3319],
        [-0.3947, -0.1162, -0.0855, 0.1914],
        [0.5648, 0.5568, 0.8627, 0.1858],
        [0.2948, 0.592, 0.68, 0.3307],
        [0.3844, 1.0947, -0.4486, -0.0298],
    ]
)
#: The opponent's deadwood when the bot goes gin (R19, before the gin bonus).
GIN_DEADWOOD = np.array([3.1542, 1.9807, -1.468, 4.2229, -0.0287, 11.3255, -0.7305, -0.3554, 1.1136, 2.2422])
#: The margin of an undercut of the opponent's knock (R18, before the undercut bonus).
UNDERCUT_MARGIN = np.array([-0.8161, -0.3355, -0.6935, 2.5371, 0.1108, 1.2786, 0.0123, 1.0257, -0.003, 2.8726])
#: The points lost when the opponent knocks and wins (R17).
KNOCK_LOSS = np.array([0.4874, 1.8889, 2.8469, 0.8279, 0.2796, -0.8894, -0.1406, -1.4898, -0.3135, -1.061])
#: The bot's deadwood when the opponent goes gin (R19, before the gin bonus).
OPPONENT_GIN_DEADWOOD = np.array([0.0365, 7.0475, 2.6199, 3.431, 0.1399, -1.6079, -0.0506, -5.2194, -0.1048, -3.6165])


@njit(cache=True)
def features(deadwood, stock_count, knock_limit, gin_outs, opponent_deadwood, known_count, out):
    """The model's inputs, scaled to about 0-1 (``out`` has :data:`FEATURE_COUNT` slots)."""
    stage = stock_count / 31.0
    out[0] = 1.0
    out[1] = deadwood / 10.0
    out[2] = stage
    out[3] = knock_limit / 10.0
    out[4] = gin_outs
    out[5] = opponent_deadwood / 30.0
    out[6] = known_count / 3.0
    out[7] = deadwood / 10.0 * stage
    out[8] = gin_outs * stage
    out[9] = (knock_limit - deadwood) / 10.0


@njit(cache=True)
def _dot(weights, x):
    total = 0.0
    for i in range(FEATURE_COUNT):
        total += weights[i] * x[i]
    return total


@njit(cache=True)
def playing_on_value(rules, mine, theirs, multiplier, x):
    """The value in points now of holding on for gin instead of knocking (R17-R19, V2, V3, V9)."""
    logits = np.zeros(5)
    for k in range(4):
        for i in range(FEATURE_COUNT):
            logits[k] += OUTCOME_WEIGHTS[i, k] * x[i]
    top = logits.max()
    total = 0.0
    for k in range(5):
        logits[k] = np.exp(logits[k] - top)
        total += logits[k]
    gin = max(0.0, _dot(GIN_DEADWOOD, x))
    margin = max(0.0, _dot(UNDERCUT_MARGIN, x))
    loss = max(0.0, _dot(KNOCK_LOSS, x))
    exposed = max(0.0, _dot(OPPONENT_GIN_DEADWOOD, x))
    value = logits[OUTCOME_GIN] * result_value(rules, mine, theirs, multiplier * (rules[ri.GIN_BONUS] + int(gin + 0.5)))
    undercut = rules[ri.UNDERCUT_BONUS] + int(margin + 0.5)
    value += logits[OUTCOME_UNDERCUT] * result_value(rules, mine, theirs, multiplier * undercut)
    value += logits[OUTCOME_OPPONENT_KNOCK] * result_value(rules, mine, theirs, -multiplier * max(1, int(loss + 0.5)))
    value += logits[OUTCOME_OPPONENT_GIN] * result_value(
        rules, mine, theirs, -multiplier * (rules[ri.GIN_BONUS] + int(exposed + 0.5))
    )
    return value / total


@njit(cache=True)
def completing_cards(hand):
    """The cards that would form a meld of three with two cards of ``hand`` (R3, R4): the other suits of a rank it
    holds twice or more, and in each suit the cards with two held neighbours in a row (``c-2, c-1``, ``c-1, c+1``
    or ``c+1, c+2``). A card that gives a hand gin is in a meld of the gin hand, so it is always one of these."""
    completing = 0
    for rank in range(13):
        held = 0
        for suit in range(4):
            held += (hand >> (13 * suit + rank)) & 1
        if held >= 2:
            for suit in range(4):
                completing |= np.int64(1) << (13 * suit + rank)
    for suit in range(4):
        m = (hand >> (13 * suit)) & 0x1FFF
        runs = ((m << 1) & (m << 2)) | ((m << 1) & (m >> 1)) | ((m >> 1) & (m >> 2))
        completing |= (runs & 0x1FFF) << (13 * suit)
    return completing & ~hand


@njit(cache=True)
def gin_outs(hand, unseen, live, suit_deadwood):
    """How many unseen cards would give ``hand`` (10 cards, not gin) a gin after a discard (R13), each by its chance
    to arrive: the first value of :func:`draw_outs`, with nothing to shed below 0."""
    outs, _ = draw_outs(hand, np.int64(0), unseen, live, suit_deadwood)
    return outs


@njit(cache=True)
def draw_outs(hand, deadwood, unseen, live, suit_deadwood):
    """(:func:`gin_outs` of ``hand``, the deadwood it is expected to shed with its next draw): over the unseen cards
    that complete a meld with two of its cards, each by its chance to arrive, the cards that then give gin, and
    the points by which its least deadwood after the draw and a discard (R6) falls below ``deadwood``, the hand's
    deadwood now.

    Only the cards that complete a meld with two of the hand's cards (:func:`completing_cards`, R3, R4) can give
    gin or shed deadwood by melding, and each is checked by the least deadwood after a discard
    (``melds.least_deadwood_after_discard``): the same gin outs as checking every unseen card with every discard
    (tests/test_gin_outs.py), several times faster."""
    outs = 0.0
    shed = 0.0
    candidates = unseen & completing_cards(hand)
    for c in range(52):
        if not (candidates >> c) & 1 or live[c] <= 0.0:
            continue
        after = least_deadwood_after_discard(hand | (np.int64(1) << c), suit_deadwood, SUIT_DROP)
        if after == 0:
            outs += live[c]
        if after < deadwood:
            shed += live[c] * (deadwood - after)
    return outs, shed


@njit(cache=True)
def hand_multiplier(rules, table):
    """2 when the hand's Oklahoma up card is a spade and spades double (V9), else 1."""
    if rules[ri.OKLAHOMA] and rules[ri.OK_SPADE_DOUBLE] and table[v.T_UP_CARD] >= 39:
        return 2
    return 1


@njit(cache=True)
def knocking_value(rules, hand, known, unseen, floats, samples, quality, mine, theirs, multiplier, rng, sd, sv):
    """(value in points now, mean opponent deadwood) of knocking ``hand`` now, over ``samples`` drawn opponent hands.

    The hands are drawn from the bot's estimate, tilted towards low deadwood by ``quality``
    (``kernels.opponent.sample_likely_hand``); each knock is scored exactly (R14-R19).
    """
    cards = np.empty(52, np.int64)
    weights = np.empty(_opponent.SAMPLE_WEIGHT_SLOTS, np.float64)
    result = np.empty(3, np.int64)
    knocker_deadwood, count, shown_sets, runs, fourths = knocker_layouts(hand, sd)
    total = 0.0
    deadwood = 0.0
    for _ in range(samples):
        other, other_deadwood = _opponent.sample_likely_hand_scored(
            known, unseen, floats, quality, rng, cards, weights, sd, _opponent.QUALITY_TRIES
        )
        deadwood += other_deadwood
        left_over = other_deadwood  # on gin the defender lays nothing off (R19)
        if knocker_deadwood > 0:
            left_over = defender_left_over(other, count, shown_sets, runs, fourths, sv, result)
        points = _opponent.knock_points(knocker_deadwood, left_over, rules)
        total += result_value(rules, mine, theirs, multiplier * points)
    return total / samples, deadwood / samples

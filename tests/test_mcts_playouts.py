"""``mcts``'s playouts follow the fast policy (issue 24): the ``opponent`` bot's learned discard score.

In a playout each player discards by ``kernels.heuristic.best_discard`` with the bot's weights
(R9, R10, V6), judging the other's hand only from what it has seen: the cards the other took
from the pile and kept are certain, its other cards are spread evenly over the cards the player
cannot place (``kernels.mcts.scored_discard``). ``playout_policy=0`` keeps the least-deadwood
playouts, and ``strategies.mcts.FROZEN_SPEC`` plays exactly as the bot did before the change.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest
from simgin.strategies import mcts as mcts_strategy, opponent

from simgin.game.cards import parse_cards
from simgin.game.rules import Rules
from simgin.kernels import heuristic, mcts, parameters as pm, view as v
from simgin.kernels.melds import SUIT_DEADWOOD
from simgin.players.registry import resolve

ROOT = Path(__file__).resolve().parent.parent


def mask(text: str) -> int:
    return sum(1 << c for c in parse_cards(text))


def danger_reference(card: int, p: list[float]) -> float:
    """Plain Python: the chance that ``card`` completes a set (two of its three rank-mates held) or a run
    (both neighbours on one side, or one on each side, in its suit), the holdings independent."""
    rank, suit = card % 13, card // 13
    mates = [p[13 * s + rank] for s in range(4) if s != suit]
    in_set = 0.0
    for held in range(8):  # every holding of the three rank-mates
        chance = 1.0
        for i in range(3):
            chance *= mates[i] if held >> i & 1 else 1 - mates[i]
        in_set += chance if bin(held).count("1") >= 2 else 0.0
    no_run = 1.0
    for low, high in ((-2, -1), (-1, 1), (1, 2)):
        if rank + low >= 0 and rank + high <= 12:
            no_run *= 1 - p[13 * suit + rank + low] * p[13 * suit + rank + high]
    return 1 - (1 - in_set) * no_run


def scored_discard_reference(params, hand, banned, gone, known, stage, knock_limit):
    """Plain Python: the estimate a playout's player forms (R9), then the bot's own discard score on it."""
    unknown = [c for c in range(52) if not (hand | gone | known) >> c & 1]
    share = min(1.0, (10 - bin(known).count("1")) / len(unknown)) if unknown else 0.0
    p = [1.0 if known >> c & 1 else share if c in unknown else 0.0 for c in range(52)]
    live = np.array([1 - share if c in unknown else 0.0 for c in range(52)])
    risk = np.array([danger_reference(c, p) for c in range(52)])
    work = np.empty(52, np.int64)
    card, _ = heuristic.best_discard(params, hand, banned, -1, live, risk, work, SUIT_DEADWOOD, stage, knock_limit)
    return card, work[card], p, live


def random_position(rng: np.random.Generator):
    cards = rng.permutation(52)
    hand = int(sum(1 << int(c) for c in cards[:11]))
    known = int(sum(1 << int(c) for c in cards[11 : 11 + rng.integers(0, 4)]))
    gone = int(sum(1 << int(c) for c in cards[15 : 15 + rng.integers(0, 20)]))
    return hand, known, gone


def test_the_scored_playout_discard_is_the_bots_score_on_an_even_estimate():
    params = resolve(mcts_strategy.LEARNED_SPEC).make().params
    rng = np.random.default_rng(24)
    p, live, risk = np.empty(52), np.empty(52), np.empty(52)
    work = np.empty(52, np.int64)
    for trial in range(300):
        hand, known, gone = random_position(rng)
        stage = float(rng.random())
        knock_limit = int(rng.choice([0, 5, 10]))
        banned = int(rng.choice([c for c in range(52) if hand >> c & 1])) if trial % 3 == 0 else -1
        card, left = mcts.scored_discard(
            params, np.int64(hand), np.int64(banned), np.int64(gone), np.int64(known), stage, np.int64(knock_limit),
            work, p, live, risk, SUIT_DEADWOOD,
        )  # fmt: skip
        want_card, want_left, want_p, want_live = scored_discard_reference(
            params, hand, banned, gone, known, stage, knock_limit
        )
        assert (card, left) == (want_card, want_left), trial
        assert p == pytest.approx(want_p) and live == pytest.approx(want_live)
        assert card != banned and hand >> card & 1


def test_a_card_the_other_took_makes_its_neighbours_dangerous_in_a_playout():
    # R9: the other player took the kings of hearts and clubs from the pile and kept them.
    # Holding two loose ten-pointers, the king of spades (which would complete their set) is
    # the card the playout keeps; not knowing that, it throws the king, the card fewer runs of
    # theirs could use.
    params = resolve(mcts_strategy.LEARNED_SPEC).make().params
    hand = mask("2C 3C 4C 5D 6D 7D 9H 10H JH KS QC")
    work, p, live, risk = np.empty(52, np.int64), np.empty(52), np.empty(52), np.empty(52)

    def discard(known: int) -> int:
        card, _ = mcts.scored_discard(
            params, np.int64(hand), np.int64(-1), np.int64(0), np.int64(known), 1.0, np.int64(10),
            work, p, live, risk, SUIT_DEADWOOD,
        )  # fmt: skip
        return card

    assert discard(0) == parse_cards("KS")[0]
    assert discard(mask("KH KC")) == parse_cards("QC")[0]


def test_the_playout_context_is_what_the_seat_has_seen():
    # The pile is gone for both; the seat knows the opponent's kept pile cards (``known``), and
    # the opponent knows the cards this seat took from the pile and still holds (R9).
    rules = Rules()
    table = np.zeros(v.T_DISCARDS + 2 * v.LIST_CAPACITY + 8, np.int64)
    v.reset(table, rules.to_array(), 0, parse_cards("KD")[0], 10, 31, 0, 0)
    seat = 1
    hand = mask("2C 3C 4C 5D 6D 7D 9H 10H JH 7S")
    table[v.T_SEAT] = seat
    # Seat 1 took the up card (KD) then discarded it; then took the 7S, which it holds.
    v.take_from_pile(table, seat)
    v.discard(table, seat, parse_cards("KD")[0])
    v.discard(table, 0, parse_cards("7S")[0])
    v.take_from_pile(table, seat)
    params = resolve(mcts_strategy.LEARNED_SPEC).make().params
    known = mask("9C")
    context = mcts.playout_context(params, seat, np.int64(hand), table, np.int64(known))
    assert context[mcts.C_POLICY] == mcts.PLAYOUT_SCORED
    assert context[mcts.C_KNOCK_LIMIT] == 10
    assert context[mcts.C_GONE] == mask("KD")
    assert context[mcts.C_KNOWS + seat] == known
    assert context[mcts.C_KNOWS + 1 - seat] == mask("7S")


def test_the_frozen_spec_keeps_least_deadwood_playouts_and_the_learned_one_the_opponent_weights():
    params = resolve(mcts_strategy.FROZEN_SPEC).make().params
    assert params[pm.PLAYOUT_POLICY] == mcts.PLAYOUT_LEAST_DEADWOOD
    learned = resolve(mcts_strategy.LEARNED_SPEC).make().params
    assert learned[pm.PLAYOUT_POLICY] == mcts.PLAYOUT_SCORED
    # The learned playouts and candidates use the opponent bot's learned weights.
    for name, value in opponent.discard_weights().items():
        if name in mcts_strategy.FROZEN:
            assert learned[pm.NAMES.index(name)] == pytest.approx(value), name
    default = resolve("mcts").make().params
    for name, value in mcts_strategy.DEFAULTS.items():
        assert default[pm.NAMES.index(name)] == pytest.approx(value), name


def _row_hashes():
    return importlib.import_module("simgin.tools.row_hashes")


#: Rows of ``mcts`` before issue 24's playout policy (revision 8f04393), from ``simgin/tools/row_hashes.py``.
BEFORE = {
    ("mcts", "simple", "oklahoma"): "cf1b1e9e5ca4d42b03dd250595be5d3e088d1445f8757d8a155a923250763d9f",
    ("opponent", "mcts", "modern"): "a2c8d471ce0641fbe41078136cd1339e04d68b768c203d20a36dcd02783176a5",
}


@pytest.mark.slow
@pytest.mark.parametrize(("a", "b", "preset"), list(BEFORE))
def test_the_frozen_spec_plays_as_the_bot_did_before(a, b, preset):
    rows = _row_hashes()
    # opponent, the other seat of one case, as it played then too (issue 37's gin_outs and discard networks came
    # later).
    then = "opponent:gin_outs=0,discard_network=0"
    play = {"mcts": mcts_strategy.FROZEN_SPEC, "opponent": then}
    assert rows.run_case("pairs", (a, b), preset, 4, 1, play) == BEFORE[(a, b, preset)]
    play = {"mcts": mcts_strategy.LEARNED_SPEC, "opponent": then}
    assert rows.run_case("pairs", (a, b), preset, 4, 1, play) != BEFORE[(a, b, preset)]


def test_the_best_discard_is_the_lowest_discard_score():
    # kernels.heuristic.best_discard writes discard_score out for speed; the two must agree (R9, R10, R12, V1).
    params = resolve(mcts_strategy.LEARNED_SPEC).make().params
    rng = np.random.default_rng(11)
    work = np.empty(52, np.int64)
    for trial in range(300):
        hand, _, _ = random_position(rng)
        live, risk = rng.random(52), rng.random(52)
        stage, knock_limit = float(rng.random()), int(rng.choice([0, 3, 10]))
        card, score = heuristic.best_discard(params, hand, -1, -1, live, risk, work, SUIT_DEADWOOD, stage, knock_limit)
        weights = heuristic.discard_weights(params, stage, knock_limit)
        scores = {
            c: heuristic.discard_score(params, hand, c, work[c], live, risk, *weights, knock_limit)
            for c in range(52)
            if hand >> c & 1
        }
        assert score == min(scores.values()), trial
        best = [c for c, s in scores.items() if s == score]
        assert card == max(best, key=lambda c: (c % 13, c)), trial

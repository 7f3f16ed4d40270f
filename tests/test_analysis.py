"""Decision analysis (issue 34): every decision recorded, every legal action valued from the player's view
only, the loss of a decision with its error, and the ladder of bots ranked by it."""

from __future__ import annotations

import numpy as np
import pytest

from simgin.analysis.evaluator import Evaluator
from simgin.analysis.hands import analyse_hand, analyse_hands, stage_of
from simgin.analysis.recorder import Decision, RecordingStrategy
from simgin.game.reference_engine import play_hand
from simgin.game.rng import SplitMix64, derive, shuffled_deck
from simgin.game.rules import Rules
from simgin.players.registry import resolve

EVALUATOR = Evaluator(worlds=32, seed=5)


def recorded_hand(deck: list[int], players=("simple", "simple"), dealer: int = 1) -> tuple[list[Decision], object]:
    log: list[Decision] = []
    seats = tuple(RecordingStrategy(resolve(spec).make(), log) for spec in players)
    record = play_hand(seats, Rules(), 11, dealer, deck=deck)
    return log, record


def test_recording_changes_nothing_of_the_hand():
    """The wrapper answers as the player does (R9-R13): the hand's row is the unwrapped one's."""
    deck = shuffled_deck(SplitMix64(derive(3, 0)))
    _, wrapped = recorded_hand(deck, ("heuristic", "simple"))
    plain = play_hand((resolve("heuristic").make(), resolve("simple").make()), Rules(), 11, 1, deck=deck)
    assert wrapped.row() == plain.row()


def test_the_valuation_reads_no_hidden_card():
    """Two deals that differ only in what the non-dealer cannot see (the dealer's hand and the stock order)
    give its first decision, the up-card offer (R11), the same view and the same valuation."""
    deck = shuffled_deck(SplitMix64(derive(8, 0)))
    hidden = [deck[i] for i in range(1, 20, 2)] + deck[21:]
    other = list(np.random.default_rng(1).permutation(hidden))
    swapped = list(deck)
    for i, position in enumerate([*range(1, 20, 2), *range(21, 52)]):
        swapped[position] = int(other[i])
    assert sorted(swapped) == list(range(52)) and swapped[1:20:2] != deck[1:20:2]
    first, _ = recorded_hand(deck)
    second, _ = recorded_hand(swapped)
    assert first[0].kind == "up_card" and first[0].view == second[0].view
    assert EVALUATOR.value(first[0], key=7) == EVALUATOR.value(second[0], key=7)


def test_a_valuation_lists_the_legal_actions_and_its_loss_is_best_minus_chosen():
    deck = shuffled_deck(SplitMix64(derive(21, 0)))
    log, _ = recorded_hand(deck, ("random", "simple"))
    kinds = {decision.kind for decision in log}
    assert {"up_card", "draw", "discard"} <= kinds
    for place, decision in enumerate(log):
        valued = EVALUATOR.value(decision, key=place)
        best = valued.values[valued.actions.index(valued.best)]
        chosen = valued.values[valued.actions.index(valued.chosen)]
        assert valued.loss == pytest.approx(best - chosen) and valued.loss >= 0
        assert best == max(valued.values)
        assert (valued.loss_error == 0) == (valued.best == valued.chosen)
        if decision.kind == "discard":
            view = decision.view
            banned = {view.drawn_card} if view.drawn_from_pile and not view.rules.rediscard_taken_card else set()
            assert set(valued.actions) == set(view.hand) - banned  # R10: not the pile card just taken
        else:
            assert valued.actions == (0, 1)


def test_an_illegal_answer_is_not_valued():
    deck = shuffled_deck(SplitMix64(derive(21, 0)))
    log, _ = recorded_hand(deck)
    discard = next(decision for decision in log if decision.kind == "discard")
    outside = next(card for card in range(52) if card not in discard.view.hand)
    with pytest.raises(ValueError, match="is not a legal action here"):
        EVALUATOR.value(Decision("discard", discard.view, outside))


def test_the_evaluator_refuses_too_few_worlds():
    with pytest.raises(ValueError, match="worlds=1: must be between 2 and 100,000"):
        Evaluator(worlds=1)


def test_the_same_seed_gives_the_same_rows_and_a_hand_alone_gives_its_rows():
    hands, frame = analyse_hands(("simple", "greedy"), hands=4, seed=3, evaluator=EVALUATOR)
    _, same = analyse_hands(("simple", "greedy"), hands=4, seed=3, evaluator=EVALUATOR)
    assert frame.equals(same)
    alone = analyse_hand(("simple", "greedy"), Rules(), 2, hands[2].seed, hands[2].dealer, EVALUATOR)
    assert alone.rows == hands[2].rows
    assert all(sum(hand.net_points) == 0 for hand in hands)


def test_random_loses_more_per_decision_than_simple():
    """The ladder's first rung: random play gives away more points per decision than simple's (issue 34)."""
    _, frame = analyse_hands(("simple", "random"), hands=16, seed=4, evaluator=EVALUATOR)
    loss = frame.groupby("player")["loss"].agg(["mean", "sem"])
    gap = loss.loc["random", "mean"] - loss.loc["simple", "mean"]
    assert gap > 3 * np.hypot(loss.loc["random", "sem"], loss.loc["simple", "sem"]), loss


def test_stages_split_the_stock_in_thirds():
    rules = Rules()
    assert [stage_of(count, rules) for count in (31, 21, 20, 11, 10, 2)] == [
        "early", "early", "middle", "middle", "late", "late",
    ]  # fmt: skip

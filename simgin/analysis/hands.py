"""Hands played with every decision recorded and valued: one row per decision (issue 34).

Hand ``i`` is dealt from ``derive(seed, i)`` (the hand seeds of every simgin run, docs/ENGINE.md) with
dealers alternating, and played by the reference engine (R8-R19), which hosts every kind of player; each
decision of both players is valued by an :class:`~simgin.analysis.evaluator.Evaluator` whose worlds are
keyed by the hand's seed and the decision's place in the hand, so a row is the same however the hands are
split among workers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from simgin.analysis.evaluator import Evaluator
from simgin.analysis.recorder import Decision, RecordingStrategy
from simgin.game.cards import format_cards
from simgin.game.play import hand_seeds
from simgin.game.reference_engine import play_hand
from simgin.game.rng import derive
from simgin.game.rules import Rules
from simgin.players.registry import resolve

STAGES = ("early", "middle", "late")
"""The stage of a hand by the stock left: more than two thirds of the cards the stock starts with, more than
one third, or the rest."""

COLUMNS = (
    "hand",
    "player",
    "seat",
    "kind",
    "stage",
    "stock",
    "hand_cards",
    "pile_top",
    "chosen",
    "best",
    "loss",
    "loss_error",
)


def stage_of(stock_count: int, rules: Rules) -> str:
    """``'early'``, ``'middle'`` or ``'late'``: where in the stock a decision falls (31 cards at the first
    draw of a standard hand, R8; 30 with the 11-card start, V5)."""
    start = 30 if rules.eleven_card_start else 31
    share = stock_count / start
    return STAGES[0] if share > 2 / 3 else STAGES[1] if share > 1 / 3 else STAGES[2]


@dataclass(frozen=True)
class AnalysedHand:
    """One hand: its seed and dealer, each player's net points (won minus lost, R17-R19), and every
    decision's row."""

    index: int
    seed: int
    dealer: int
    net_points: tuple[int, int]
    rows: tuple[dict, ...]


def analyse_hand(
    players: Sequence[str], rules: Rules, index: int, seed: int, dealer: int, evaluator: Evaluator
) -> AnalysedHand:
    """Play hand ``index`` (seed ``seed``) between ``players`` (seat order) and value every decision in it."""
    log: list[Decision] = []
    seats = tuple(RecordingStrategy(resolve(spec).make(), log) for spec in players)
    record = play_hand(seats, rules, seed, dealer, names=tuple(players))  # type: ignore[arg-type]
    net = [0, 0]
    if record.winner >= 0:
        net[record.winner] = record.points
        net[1 - record.winner] = -record.points
    rows = []
    for place, decision in enumerate(log):
        valued = evaluator.value(decision, key=derive(seed, place))
        view = decision.view
        rows.append(
            {
                "hand": index,
                "player": players[view.seat],
                "seat": view.seat,
                "kind": decision.kind,
                "stage": stage_of(view.stock_count, rules),
                "stock": view.stock_count,
                "hand_cards": format_cards(view.hand),
                "pile_top": format_cards(view.pile[-1:]),
                "chosen": valued.action_text(valued.chosen),
                "best": valued.action_text(valued.best),
                "loss": valued.loss,
                "loss_error": valued.loss_error,
            }
        )
    return AnalysedHand(index, seed, dealer, (net[0], net[1]), tuple(rows))


def analyse_hands(
    players: Sequence[str],
    rules: Rules | None = None,
    hands: int = 100,
    seed: int = 0,
    evaluator: Evaluator | None = None,
) -> tuple[list[AnalysedHand], pd.DataFrame]:
    """Play ``hands`` hands of ``players`` (two specs, seat order; dealers alternate) and value every decision:
    the hands, and one row per decision (:data:`COLUMNS`)."""
    if len(players) != 2:
        raise ValueError(f"analysis plays two players, got {len(players)}")
    rules = rules or Rules()
    evaluator = evaluator or Evaluator()
    played = [
        analyse_hand(players, rules, i, int(hand_seed), i % 2, evaluator)
        for i, hand_seed in enumerate(hand_seeds(seed, hands))
    ]
    frame = pd.DataFrame([row for hand in played for row in hand.rows], columns=list(COLUMNS))
    return played, frame

"""The luck of a hand, event by event, measured by the decisions' evaluator (issue 34; docs/ANALYSIS.md).

The chance events of a hand are the deal (with the up card, R8, V9) and each card drawn from the stock (R9):

- **The deal.** The value of the dealt position for the player who decides first (the non-dealer, R11): the
  value of its first decision's best action, from its view. It counts for that player and against the other
  (a hand's points are zero-sum). Its mean over deals is the value of that seat (the first player's edge), which
  the duplicate deal cancels: in the pair's other hand the other player holds those cards in that seat.
- **A stock draw.** The value of drawing the card drawn minus the mean value over every card the stock held,
  each valued from the drawer's view just before the draw (:meth:`Evaluator.draw_luck`). Every card of the stock
  was equally likely to be on top, so this averages to zero over draws, whatever the players do. It counts for
  the drawer and against the other.

A player's luck in a hand is the sum of these; its skill is the rest of its result, ``net - luck``: what its
own and the other's decisions made of the cards, measured as the result with the luck taken out (so that
``net == skill + luck`` exactly, and skill estimates the expected result without the luck).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from simgin.analysis.evaluator import Evaluator
from simgin.analysis.recorder import Decision
from simgin.game.moves import STOCK, Deal, Draw
from simgin.game.rng import derive

#: Added to a draw's number to key its worlds apart from the decisions' (which use their place in the hand).
DRAW_KEY = 1 << 20


def hand_luck(
    moves: Sequence[Any], log: Sequence[Decision], rows: Sequence[dict], evaluator: Evaluator, hand_seed: int
) -> tuple[float, float]:
    """The luck of each seat in one hand (seat order, zero-sum): the deal's, from the value of the first decision
    (``rows``: the hand's valued decisions, place 0 the first), and each stock draw's, valued from the drawer's
    view (``log``: the hand's decisions) with worlds keyed by ``hand_seed`` and the draw's number."""
    luck = [0.0, 0.0]
    first = next((row for row in rows if row["place"] == 0), None)
    if first is not None:
        luck[first["seat"]] += first["best_value"]
        luck[1 - first["seat"]] -= first["best_value"]
    if not moves or not isinstance(moves[0], Deal):
        return luck[0], luck[1]
    stock = list(moves[0].stock)
    number = 0
    for move in moves[1:]:
        if not (isinstance(move, Draw) and move.source == STOCK):
            continue
        before, stock = stock, stock[1:]
        view = _view_before(log, move.seat, move.card)
        if view is None:  # the drawer made no legal decision after it (a forfeit, R23): not valued
            continue
        value, _ = evaluator.draw_luck(view, move.card, before, key=derive(hand_seed, DRAW_KEY + number))
        number += 1
        luck[move.seat] += value
        luck[1 - move.seat] -= value
    return luck[0], luck[1]


def _view_before(log: Sequence[Decision], seat: int, card: int) -> Any:
    """The drawer's view just before it drew ``card`` from the stock: the view of its decision right after the
    draw (the discard, or big gin under V13), without the card, with the card back in the stock."""
    for decision in log:
        view = decision.view
        if view.seat == seat and view.drawn_card == card and not view.drawn_from_pile:
            return dataclasses.replace(
                view,
                hand=tuple(c for c in view.hand if c != card),
                stock_count=view.stock_count + 1,
                drawn_card=-1,
                fiftieth_card=False,
            )
    return None

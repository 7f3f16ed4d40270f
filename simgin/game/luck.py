"""The value function of the luck adjustment, and a hand's luck corrections from its move log (issue 35).

The corrections are those of ``simgin.kernels.luck`` (its docstring has the method): at the deal (R8) and at
each card drawn from the stock (R9), the value after the event minus its mean over every outcome the event
could have had. They depend only on the cards (the deal, the stock's order, the hands before each draw), never
on how a player decides, so they apply to every kind of player: the kernels compute them as compiled bots play
(``kernels.engine.play_hand``), and :func:`luck_of_moves` from a hand's move log as the Python engine plays
plain-Python strategies and programs.

The value function is fixed before any run it judges: ``luck_value.json`` beside this module, fitted once by
``python -m simgin.tools.fit_luck_value`` on hands of its own seeds (its command, seed and fit are in the file).
A value function fitted to the hands it adjusts could fake a smaller variance; one fixed in advance cannot bias
the result, only make the adjustment less useful.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simgin.game.melds import best_discard, deadwood
from simgin.kernels import luck as _k

VALUE_FILE = Path(__file__).with_name("luck_value.json")


@dataclass(frozen=True)
class LuckValue:
    """The shipped value function: ``table[stage, target, my class, the other's class]`` (``kernels.luck``) and
    how it was made (``training``: the command, seed, hands and fit)."""

    table: np.ndarray
    training: dict[str, Any]

    def array(self) -> np.ndarray:
        """The table as the kernels take it (C-contiguous float64)."""
        return np.ascontiguousarray(self.table, dtype=np.float64)


@functools.cache
def luck_value(path: Path | None = None) -> LuckValue:
    """The value function in ``path`` (default: the shipped ``luck_value.json``)."""
    data = json.loads((path or VALUE_FILE).read_text())
    table = np.asarray(data["table"], dtype=np.float64)
    expected = (_k.STAGES, _k.TARGETS, _k.BUCKETS, _k.BUCKETS)
    if table.shape != expected:
        raise ValueError(f"{path or VALUE_FILE}: a table of shape {table.shape}, expected {expected}")
    return LuckValue(table, data.get("training", {}))


def luck_of_moves(moves: Sequence[Any], knock_limit: int, multiplier: int, table: np.ndarray) -> np.ndarray:
    """A hand's corrections (``kernels.luck.LUCK_*``: seat 0's net points, seat 0's and seat 1's hands won) from
    its move log (``HandRecord.moves``: the deal, then each draw), in plain Python: what the kernels compute as
    they play. No deal correction with V5's 11-card start (a dealt hand of 11 cards)."""
    from simgin.game.moves import STOCK, Deal, Discard, Draw

    def bucket(e: int) -> int:
        return int(_k.bucket(e, knock_limit))

    luck = np.zeros(_k.LUCK_FIELDS)
    deal = moves[0]
    if not isinstance(deal, Deal):
        raise ValueError("a move log starts with the deal")
    hands = [set(deal.hands[0]), set(deal.hands[1])]
    stock = list(deal.stock)
    if len(hands[0]) == len(hands[1]) == 10:
        b0, b1 = (bucket(deadwood(sorted(hands[seat]))) for seat in (0, 1))
        points = table[_k.STAGE_DEAL, _k.TARGET_POINTS, b0, b1] - table[_k.STAGE_DEAL, _k.TARGET_POINTS, b1, b0]
        win = table[_k.STAGE_DEAL, _k.TARGET_WIN, b0, b1] - table[_k.STAGE_DEAL, _k.TARGET_WIN, b1, b0]
        luck += (multiplier * points, win, -win)
    for move in moves[1:]:
        if isinstance(move, Draw) and move.source == STOCK:
            seat, drawn = move.seat, move.card
            if stock[0] != drawn:
                raise ValueError(f"the stock's next card is {stock[0]}, the log draws {drawn}")
            stage = int(_k.draw_stage(len(stock) - 1))
            theirs = bucket(deadwood(sorted(hands[1 - seat])))
            values = {
                card: table[stage, :, bucket(best_discard(sorted(hands[seat] | {card}))[1]), theirs] for card in stock
            }
            mine = values[drawn] - sum(values.values()) / len(stock)
            luck[_k.LUCK_POINTS] += multiplier * mine[_k.TARGET_POINTS] * (1 if seat == 0 else -1)
            luck[_k.LUCK_WIN_0 + seat] += mine[_k.TARGET_WIN]
            luck[_k.LUCK_WIN_0 + 1 - seat] += mine[_k.TARGET_LOSS]
            stock.pop(0)
            hands[seat].add(drawn)
        elif isinstance(move, Draw):
            hands[move.seat].add(move.card)
        elif isinstance(move, Discard):
            hands[move.seat].discard(move.card)
    return luck

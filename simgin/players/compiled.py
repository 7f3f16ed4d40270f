"""Compiled bots in the plain-Python protocol: the adapter behind mixed matches.

:class:`CompiledStrategy` implements :class:`simgin.game.strategy.Strategy` by calling the very
numba decision functions that the numba hand loop calls (``simgin.kernels.bots.decide``).
It rebuilds the public table from the :class:`~simgin.game.strategy.PlayerView` it is given, so
it can see nothing more than the view, and it lends the kernel the seat's generator
(``rng.state``) for the call and takes it back after, so the random draws are the same as in
the numba engine. A compiled bot therefore plays the same hands in both engines.

>>> from simgin.game.reference_engine import play_hand
>>> from simgin.game.rules import Rules
>>> players = (CompiledStrategy("simple", 1), CompiledStrategy("simple", 1))
>>> play_hand(players, Rules(), hand_seed=7, dealer=0).kind in range(5)
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simgin.game.cards import cards_to_mask
from simgin.game.rng import MASK64, SplitMix64
from simgin.game.strategy import Parameter, PlayerView
from simgin.kernels import bots as _bots, parameters as _slots, view as _view
from simgin.kernels.melds import SUIT_DEADWOOD
from simgin.kernels.parameters import PARAMETER_CAPACITY

_SIGN = 1 << 63


def fill_table(table: np.ndarray, view: PlayerView) -> None:
    """Write the public table (``kernels.view``) a compiled bot sees for ``view`` into ``table``.

    The player's own lists stay empty: a ``PlayerView`` does not list them.
    """
    table[: _view.TABLE_SIZE] = 0
    other = 1 - view.seat
    table[_view.T_SEAT] = view.seat
    table[_view.T_DEALER] = view.dealer
    table[_view.T_UP_CARD] = view.up_card
    table[_view.T_KNOCK_LIMIT] = view.knock_limit
    table[_view.T_STOCK_COUNT] = view.stock_count
    table[_view.T_TURN] = view.turn
    table[_view.T_SCORE] = view.scores[0]
    table[_view.T_SCORE + 1] = view.scores[1]
    table[_view.T_DRAWN] = view.drawn_card
    table[_view.T_FROM_PILE] = int(view.drawn_from_pile)
    table[_view.T_FIFTIETH] = int(view.fiftieth_card)
    rules = view.rules.to_array()
    table[_view.T_RULES : _view.T_RULES + rules.size] = rules
    table[_view.T_PILE_COUNT] = len(view.pile)
    table[_view.T_PILE : _view.T_PILE + len(view.pile)] = view.pile
    room = _view.LIST_CAPACITY
    lists = (
        (_view.T_TOOK + other * room, _view.T_TOOK_COUNT + other, view.opponent_took, room),
        (_view.T_PASSED + 2 * other, _view.T_PASSED_COUNT + other, view.opponent_passed, 2),
        (_view.T_DISCARDS + other * room, _view.T_DISCARD_COUNT + other, view.opponent_discards, room),
    )
    for start, count_slot, cards, capacity in lists:
        if len(cards) > capacity:
            raise ValueError(f"a view lists {len(cards)} cards where the table has room for {capacity}")
        table[count_slot] = len(cards)
        table[start : start + len(cards)] = cards


def parameter_vector(parameters: Sequence[Parameter], values: dict[str, float]) -> np.ndarray:
    """The float64 vector of a compiled bot: each parameter in its slot (``kernels.parameters``),
    ``values`` overriding the defaults; a name not in ``parameters`` is a ValueError."""
    known = {parameter.name: parameter for parameter in parameters}
    vector = np.zeros(PARAMETER_CAPACITY, dtype=np.float64)
    for name in values:
        if name not in known:
            raise ValueError(f"unknown parameter {name!r}: choose from {', '.join(known) or '(none)'}")
    for parameter in parameters:
        vector[_slots.NAMES.index(parameter.name)] = parameter.check(
            float(values.get(parameter.name, parameter.default))
        )
    return vector


def _to_int64(state: int) -> int:
    """A uint64 generator state as the int64 with the same bits."""
    return state - (1 << 64) if state & _SIGN else state


class CompiledStrategy:
    """A compiled bot (``kernels.bots`` id ``bot_id``, parameter vector ``params``) as a Python strategy.

    ``name`` appears in error messages (the registry passes the spec, e.g.
    ``'heuristic:knock=7'``).
    """

    def __init__(self, name: str, bot_id: int, params: Sequence[float] | np.ndarray = ()) -> None:
        if not 0 <= bot_id < len(_bots.BOT_NAMES):
            raise ValueError(f"bot_id={bot_id}: choose 0-{len(_bots.BOT_NAMES) - 1} ({', '.join(_bots.BOT_NAMES)})")
        vector = np.zeros(PARAMETER_CAPACITY, dtype=np.float64)
        values = np.asarray(params, dtype=np.float64)
        vector[: values.size] = values
        self.name = name
        self.bot_id = bot_id
        self.params = vector
        # The kernels' state array (kernels.bots): the table, rebuilt for each decision, then
        # the seats' memory rows, of which only this player's is used and kept between decisions.
        self._state = np.zeros(_bots.STATE_SIZE, dtype=np.int64)
        self._floats = self._state[_bots.S_FLOATS :].view(np.float64)

    def _ask(self, decision: int, view: PlayerView, rng: SplitMix64) -> int:
        seat = view.seat
        fill_table(self._state, view)
        self._state[_bots.S_INTS + seat * _bots.INT_MEMORY + _bots.I_RNG] = _to_int64(rng.state)
        answer = _bots.decide(decision, self.bot_id, seat, cards_to_mask(view.hand), self._state, SUIT_DEADWOOD)
        rng.state = int(self._state[_bots.S_INTS + seat * _bots.INT_MEMORY + _bots.I_RNG]) & MASK64
        return int(answer)

    def start_hand(self, view: PlayerView, rng: SplitMix64) -> None:
        start = view.seat * _bots.FLOAT_MEMORY
        self._floats[start : start + PARAMETER_CAPACITY] = self.params
        self._ask(_bots.DECISION_START, view, rng)

    def take_up_card(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._ask(_bots.DECISION_TAKE_UP_CARD, view, rng) == 1

    def draw_from_pile(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._ask(_bots.DECISION_DRAW_FROM_PILE, view, rng) == 1

    def discard(self, view: PlayerView, rng: SplitMix64) -> int:
        return self._ask(_bots.DECISION_DISCARD, view, rng)

    def knock(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._ask(_bots.DECISION_KNOCK, view, rng) == 1

    def big_gin(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._ask(_bots.DECISION_BIG_GIN, view, rng) == 1

    def take_fiftieth(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._ask(_bots.DECISION_TAKE_FIFTIETH, view, rng) == 1

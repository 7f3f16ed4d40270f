"""What a compiled bot's ``decide`` needs: the decision codes, its signature and the layout of ``state``.

A bot's ``decide(decision, bot, seat, hand, state, suit_deadwood)`` (:data:`POLICY`) answers one
``DECISION_*`` question with an int64: 0 or 1, or the card to discard. ``state`` is one int64 array:
first the public table of ``kernels.view`` (the rules included, at ``view.T_RULES``), then each seat's
private memory for the hand: an int row of :data:`INT_MEMORY` slots (slot :data:`I_RNG` holds the
seat's SplitMix64 state as int64 bits, read through :func:`randint_at`; :func:`slot` gives a slot's
position) and a float row of :data:`FLOAT_MEMORY` slots kept as int64 bits (the bot's parameter
vector, slots in ``kernels.parameters``, then its memory from :data:`F_MEMORY`). A bot reads the
table and its own rows only.

This module sits below ``kernels.bots``, which registers the bots: a bot's kernel module (its
``decide``, e.g. ``kernels/mcts.py``) imports what it needs from here, never ``bots.py``, so that
the import graph has no circle (docs/ADDING_A_BOT.md). ``bots.py`` keeps these names too.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types

from simgin.kernels import view as v
from simgin.kernels.parameters import PARAMETER_CAPACITY
from simgin.kernels.rng import GOLDEN, MUL1, MUL2, S27, S30, S31, S32
from simgin.kernels.rule_index import REDISCARD as _REDISCARD, RULE_COUNT

#: The questions a bot answers, in the ``decision`` argument of its ``decide``.
DECISION_START = 0
DECISION_TAKE_UP_CARD = 1
DECISION_DRAW_FROM_PILE = 2
DECISION_DISCARD = 3
DECISION_KNOCK = 4
DECISION_BIG_GIN = 5
DECISION_TAKE_FIFTIETH = 6

#: Slot of a seat's int row holding its generator; the bot's memory follows.
I_RNG = 0
#: Slots of a seat's int row.
INT_MEMORY = 128
#: A seat's float row: the parameter vector, then the searching bots' memory from ``F_MEMORY``.
F_MEMORY = PARAMETER_CAPACITY
FLOAT_MEMORY = PARAMETER_CAPACITY + 64
#: Where the rows start in ``state``, and its size.
S_INTS = v.TABLE_SIZE
S_FLOATS = S_INTS + 2 * INT_MEMORY
STATE_SIZE = S_FLOATS + 2 * FLOAT_MEMORY
#: Where the ``rediscard_taken_card`` switch (V6) is in ``state``.
REDISCARD = v.T_RULES + _REDISCARD

#: The signature of a bot's ``decide``: (decision, bot, seat, hand, state, suit_deadwood) -> answer.
_STATE = types.Array(types.int64, 1, "C")
_TABLE = types.Array(types.int64, 1, "C", readonly=True)
POLICY = types.FunctionType(types.int64(types.int64, types.int64, types.int64, types.int64, _STATE, _TABLE))


@njit(cache=True, inline="always")
def slot(seat, index):
    """Position in ``state`` of slot ``index`` of ``seat``'s int row."""
    return S_INTS + seat * INT_MEMORY + index


@njit(cache=True, inline="always")
def seat_rows(seat, state):
    """What a searching bot's ``decide`` works with: (parameters, float memory, int row, rules, generator).

    The parameters and the memory are ``seat``'s float row read as float64, the rules the table's copy
    (``view.T_RULES``); the int row holds the generator at :data:`I_RNG`, copied into the one-slot ``generator``
    (``kernels.rng``'s form), which the bot writes back with ``own[I_RNG] = np.int64(generator[0])`` when it has
    decided.
    """
    row = state[S_FLOATS + seat * FLOAT_MEMORY : S_FLOATS + (seat + 1) * FLOAT_MEMORY].view(np.float64)
    own = state[slot(seat, 0) : slot(seat, INT_MEMORY)]
    generator = np.empty(1, np.uint64)
    generator[0] = np.uint64(own[I_RNG])
    return row[:PARAMETER_CAPACITY], row[F_MEMORY:], own, state[v.T_RULES : v.T_RULES + RULE_COUNT], generator


@njit(cache=True, inline="always")
def randint_at(state, seat, n):
    """``randint(n)`` of ``seat``'s SplitMix64 generator, kept in its int row (``kernels.rng``)."""
    at = slot(seat, I_RNG)
    current = np.uint64(state[at]) + GOLDEN
    state[at] = np.int64(current)
    z = (current ^ (current >> S30)) * MUL1
    z = (z ^ (z >> S27)) * MUL2
    z = z ^ (z >> S31)
    return np.int64(((z >> S32) * np.uint64(n)) >> S32)

"""Many tables stepped at once in compiled code, for training loops that want arrays (issue 36, docs/ENV.md).

Each of the ``tables`` tables plays independent hands; one call of :meth:`BatchedEnv.step` plays one action on
every table (then its compiled opponent, if any) inside one numba loop (:func:`simgin.kernels.env.step_batch`),
and hands back the observations and action masks of the players to move as ``(tables, ...)`` arrays. A table
whose hand ends reports the hand's rewards, ``dones[i]`` and the hand's row, and is dealt its next hand at once
(so the observation returned beside ``dones[i]`` is already the new hand's).

Deals follow ``simgin.play_hands``: after ``reset(seed=s)`` table i plays hands ``i``, ``i + tables``,
``i + 2 * tables``, ... of seed ``s`` (hand h: seed ``derive(s, h)``, dealer ``h % 2``), so the rows of a
batch are the rows ``simgin.play_hands`` gives for the same players, whatever the number of tables.

>>> from simgin.env import batched_env
>>> env = batched_env(tables=4, opponent="simple")
>>> observations, masks = env.reset(seed=0)
>>> observations.shape, masks.shape
((4, 390), (4, 58))
>>> import numpy as np
>>> actions = np.array([np.flatnonzero(mask)[0] for mask in masks])
>>> observations, masks, rewards, dones, rows = env.step(actions)
>>> rewards.shape, dones.dtype
((4,), dtype('bool'))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simgin.env.options import EnvOptions
from simgin.env.table import ACTION_COUNT, OBSERVATION_SIZE, IllegalAction, PlayerFailed, Table, action_name
from simgin.game.rules import whole_number
from simgin.kernels import env as _k
from simgin.kernels.engine import HAND_FIELD_COUNT
from simgin.kernels.melds import SUIT_DEADWOOD
from simgin.kernels.showdown import SUIT_VALUE
from simgin.players.registry import Player, resolve


class BatchedEnv:
    """``tables`` tables of two-player Gin Rummy under ``rules``, stepped together.

    With an ``opponent`` (a compiled simgin bot: ``'simple'``, ``'heuristic'``, ``'opponent:knock=8'``, ...) the
    agent plays seat 0 of every table (the deal alternates, so it deals every other hand); rewards are the agent's,
    shape ``(tables,)``. With ``opponent=None`` both seats are the agent's (self-play): the observation is the
    player to move's (:attr:`to_move` says which seat), rewards have shape ``(tables, 2)``, by seat.

    ``reward="points"`` gives a hand's points to its winner and against its loser (R16-R19); ``"win"`` +1/-1.
    Episodes are hands (a game's scores would need each table's score sheets; use the single-agent environment
    for games). Hands the opponent finishes before the agent moves are dealt again at once and counted in
    :attr:`hands_without_a_move`. An action that is not legal on some table raises :class:`IllegalAction`
    naming the table, and no table moves.
    """

    def __init__(
        self, tables: int = 256, opponent: str | Player | None = "simple", rules: Any = None, reward: str = "points"
    ) -> None:
        self.tables = whole_number(tables, "tables", 1)
        self.options = EnvOptions.make(rules, "hand", reward)
        self.opponent = None if opponent is None else opponent if isinstance(opponent, Player) else resolve(opponent)
        if self.opponent is not None and not self.opponent.compiled:
            raise ValueError(
                f"opponent={self.opponent.spec!r} is not a compiled bot: the batched environment plays its opponent "
                "in compiled code (random, simple, greedy, heuristic, opponent, mcts); play others with "
                "simgin.env.single_agent_env"
            )
        self._table = Table(self.options.rules, (None, self.opponent))  # the seats' ids, parameters and policies
        self._rules = self._table._rules_array
        n = self.tables
        self.state = np.zeros((n, _k.TABLE_SIZE), dtype=np.int64)
        self.fields = np.zeros((n, _k.FIELD_COUNT), dtype=np.int64)
        self.fields[:, _k.F_PHASE] = _k.PHASE_OVER
        self.next_hand = np.zeros(n, dtype=np.int64)
        self.observations = np.zeros((n, OBSERVATION_SIZE), dtype=np.float32)
        self.masks = np.zeros((n, ACTION_COUNT), dtype=np.int8)
        self.to_move = np.zeros(n, dtype=np.int64)
        self._rewards = np.zeros((n, 2), dtype=np.float32)
        self.dones = np.zeros(n, dtype=bool)
        self.rows = np.zeros((n, HAND_FIELD_COUNT), dtype=np.int64)
        self.alone = np.zeros(n, dtype=np.int64)
        self.seed: int | None = None

    @property
    def hands_without_a_move(self) -> int:
        """Hands since ``reset`` that the opponent finished before the agent moved (dealt anew, not reported)."""
        return int(self.alone.sum())

    def _shared(self) -> tuple:
        table = self._table
        return (self._rules, table.bot_ids, table.bot_params, SUIT_DEADWOOD, SUIT_VALUE, table.policies)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Deal every table its first hand; returns (observations, masks) of the players to move."""
        if seed is None:
            seed = int(np.random.SeedSequence().entropy) % 2**63
        self.seed = whole_number(seed, "seed")
        bad = _k.reset_batch(
            self.state, self.fields, np.uint64(self.seed), self.next_hand, *self._shared(), self.observations,
            self.masks, self.to_move, self.alone,
        )  # fmt: skip
        if bad >= 0:
            raise PlayerFailed(f"the opponent {self.opponent.spec!r} made an illegal move at table {bad}")
        return self.observations, self.masks

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Play ``actions[i]`` at table i; returns (observations, masks, rewards, dones, rows).

        ``rows[i]`` is the finished hand's row (columns ``kernels.engine.HAND_FIELDS``) where ``dones[i]``. The
        arrays are the environment's own, overwritten by the next step: copy what you keep.
        """
        if self.seed is None:
            raise ValueError("call reset() before step()")
        actions = np.ascontiguousarray(actions, dtype=np.int64)
        if actions.shape != (self.tables,):
            raise ValueError(f"actions must have shape ({self.tables},), one per table, got {actions.shape}")
        bad = _k.step_batch(
            self.state, self.fields, actions, np.uint64(self.seed), self.next_hand, *self._shared(),
            self.observations, self.masks, self.to_move, self._rewards, self.dones, self.rows, self.alone,
        )  # fmt: skip
        if bad >= 0:
            action = int(actions[bad])
            what = action_name(action) if 0 <= action < ACTION_COUNT else "no action"
            raise IllegalAction(f"table {bad}: action {action} ({what}) is not legal; no table moved")
        if bad < -1:
            raise PlayerFailed(f"the opponent {self.opponent.spec!r} made an illegal move at table {-2 - bad}")
        rewards = self._rewards if self.opponent is None else self._rewards[:, 0]
        if self.options.reward == "win":
            rewards = np.sign(rewards)
        return self.observations, self.masks, rewards, self.dones, self.rows

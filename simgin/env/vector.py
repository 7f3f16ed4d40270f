"""The batched environment as a Gymnasium ``VectorEnv``, for training libraries that take one (issue 36).

>>> from simgin.env import vector_env
>>> envs = vector_env(num_envs=4, opponent="simple")
>>> observations, infos = envs.reset(seed=0)
>>> observations["observation"].shape, envs.action_space
((4, 390), MultiDiscrete([58 58 58 58]))
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from simgin.env.aec import observation_space
from simgin.env.batched import BatchedEnv
from simgin.env.table import ACTION_COUNT


class GinRummyVectorEnv(VectorEnv):
    """``num_envs`` tables of :class:`simgin.env.batched.BatchedEnv` (the agent at seat 0 against a compiled
    ``opponent``) behind Gymnasium's vector API.

    Autoreset is Gymnasium's *same-step* mode (``metadata["autoreset_mode"]``): the observation returned beside
    ``terminations[i]`` is already the first of table i's next hand, and the finished hand's row (columns
    ``kernels.engine.HAND_FIELDS``) is in ``infos["hand"][i]`` (``infos["_hand"][i]`` says where). Episodes are
    hands; nothing is ever truncated. :meth:`action_masks` gives the legal actions of every table as booleans.
    """

    metadata: ClassVar[dict[str, Any]] = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int = 256, opponent: Any = "simple", rules: Any = None, reward: str = "points"):
        if opponent is None:
            raise ValueError("opponent=None (self-play) has two agents: use simgin.env.batched_env for it")
        self.batch = BatchedEnv(tables=num_envs, opponent=opponent, rules=rules, reward=reward)
        self.num_envs = self.batch.tables
        self.single_observation_space = observation_space()
        self.single_action_space = spaces.Discrete(ACTION_COUNT)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def _observations(self) -> dict[str, np.ndarray]:
        return {"observation": self.batch.observations.copy(), "action_mask": self.batch.masks.copy()}

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if isinstance(seed, list):  # one seed for the whole batch: hand h of table i is hand i + h * num_envs
            seed = seed[0] if seed else None
        self.batch.reset(seed)
        return self._observations(), {}

    def step(self, actions: np.ndarray) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict]:
        _, _, rewards, dones, rows = self.batch.step(actions)
        infos = {"hand": rows.copy(), "_hand": dones.copy()}
        truncations = np.zeros(self.num_envs, dtype=bool)
        return self._observations(), rewards.astype(np.float64), dones.copy(), truncations, infos

    def action_masks(self) -> np.ndarray:
        return self.batch.masks.astype(bool)

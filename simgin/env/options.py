"""The options every ``simgin.env`` environment shares, checked once: the rules, the episode, the reward, seeds.

An episode is one hand (``episode="hand"``, the default) or one game to the target (``"game"``, R20-R23, V8-V10,
V14). The reward is in points (``reward="points"``: a hand's points to its winner and against its loser,
R16-R19; a game's margin with every bonus, R23) or ``"win"`` (+1 for the winner, -1 for the loser, 0 for a dead
hand or an undecided game).

Seeds follow simgin's runs, so an environment replays the deals of ``simgin.play_hands``/``play_games``:
after ``reset(seed=s)`` episode k (counting from 0, one per reset) is hand ``derive(s, k)`` dealt by seat
``k % 2``, or game ``derive(s, k)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from simgin.game.rng import derive
from simgin.game.rules import Rules, as_rules

EPISODES = ("hand", "game")
REWARDS = ("points", "win")


@dataclass(frozen=True)
class EnvOptions:
    """The checked options of an environment (see the module docstring)."""

    rules: Rules
    episode: str = "hand"
    reward: str = "points"

    @classmethod
    def make(cls, rules: Any = None, episode: Any = "hand", reward: Any = "points") -> EnvOptions:
        if episode not in EPISODES:
            raise ValueError(f"episode={episode!r}: choose 'hand' or 'game'")
        if reward not in REWARDS:
            raise ValueError(f"reward={reward!r}: choose 'points' or 'win'")
        return cls(as_rules(rules), episode, reward)

    @property
    def games(self) -> bool:
        return self.episode == "game"


class Seeds:
    """The deal of each episode: episode k after ``reset(seed=s)`` is hand (or game) ``derive(s, k)``, the hand
    dealt by seat ``k % 2``; a first reset without a seed draws ``s`` from the operating system."""

    def __init__(self) -> None:
        self.seed: int | None = None
        self.episode = 0

    def next(self, seed: int | None) -> tuple[int, int]:
        """(hand or game seed, dealer) of the next episode."""
        if seed is not None:
            if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise ValueError(f"seed={seed!r}: give a whole number 0 or more, or None")
            self.seed, self.episode = int(seed), 0
        elif self.seed is None:
            self.seed, self.episode = int(np.random.SeedSequence().entropy) % 2**63, 0
        k = self.episode
        self.episode += 1
        return int(derive(self.seed, k)), k % 2

"""Gin Rummy as a Gymnasium environment: one agent against any simgin player (issue 36, docs/ENV.md).

>>> from simgin.env import single_agent_env
>>> env = single_agent_env(opponent="simple", rules="straight")
>>> observation, info = env.reset(seed=3)
>>> observation["observation"].shape, int(observation["action_mask"].sum()) > 0
((390,), True)
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from simgin.env.aec import observation_space, render_table
from simgin.env.options import EnvOptions, Seeds
from simgin.env.table import ACTION_COUNT, Game, IllegalAction, Table, episode_reward
from simgin.players.registry import Player, resolve


class GinRummySingleEnv(gymnasium.Env):
    """The agent plays seat ``seat`` (0 or 1) against ``opponent``, any simgin player spec: a compiled bot
    (``'simple'``, ``'opponent:knock=8'``) plays inside the kernel between the agent's actions, a Python
    strategy or an ``exec:``/``eaai:`` program through its view of the table.

    Options as :class:`simgin.env.aec.GinRummyEnv` (``rules``, ``episode``, ``reward``, ``render_mode``). The
    observation is a dict of ``observation`` and ``action_mask`` (docs/ENV.md); :meth:`action_masks` gives the
    mask alone, as sb3-contrib's MaskablePPO asks. An action the mask does not allow ends the episode as lost
    with reward ``illegal_reward`` (-1 by default) and ``info["illegal_action"]`` saying what was wrong, the way
    PettingZoo's ``TerminateIllegalWrapper`` ends it, so Gymnasium's checker and unmasked learners can run; with
    ``illegal="raise"`` it raises :class:`simgin.env.IllegalAction` instead. Either way the table is unchanged.
    The reward comes when the episode ends.

    A hand the opponent ends before the agent has a move (it takes the up card and knocks at once) is not an
    episode, for there is nothing to learn from it: ``reset`` deals the next one and reports the agent's rewards
    of such hands in ``info["hands_without_a_move"]``, so that a tally of rewards can include them. (To measure
    a trained policy, play it as a simgin strategy with ``simgin match``, docs/ENV.md.)
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"]}

    def __init__(
        self,
        opponent: str | Player = "simple",
        rules: Any = None,
        episode: str = "hand",
        reward: str = "points",
        seat: int = 0,
        illegal: str = "lose",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if seat not in (0, 1) or isinstance(seat, bool):
            raise ValueError(f"seat={seat!r}: the agent plays seat 0 or 1")
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal={illegal!r}: choose 'lose' (the episode ends with illegal_reward) or 'raise'")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode={render_mode!r}: choose None, 'ansi' or 'human'")
        self.options = EnvOptions.make(rules, episode, reward)
        self.opponent = opponent if isinstance(opponent, Player) else resolve(opponent)
        self.seat = seat
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self._lost_by_illegal = False
        self.render_mode = render_mode
        seats: list[Player | None] = [None, None]
        seats[1 - seat] = self.opponent
        self.table = Table(self.options.rules, seats, games=self.options.games)
        self.game: Game | None = None
        self.observation_space = observation_space()
        self.action_space = spaces.Discrete(ACTION_COUNT)
        self._seeds = Seeds()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        super().reset(seed=seed)
        options = dict(options or {})
        self._lost_by_illegal = False
        deal_seed, dealer = self._seeds.next(seed)
        skipped: list[float] = []
        if self.options.games:
            self.game = Game(self.table, int(options.get("game_seed", deal_seed)))
            self.game.start()
            self._next_hands()
        else:
            self.table.deal(int(options.get("hand_seed", deal_seed)), int(options.get("dealer", dealer)))
            while self.table.over:  # the opponent ended the hand before the agent had a move
                skipped.append(self._reward())
                deal_seed, dealer = self._seeds.next(None)
                self.table.deal(deal_seed, dealer)
        info = self._info()
        if skipped:
            info["hands_without_a_move"] = skipped
        return self._observation(), info

    def _next_hands(self) -> None:
        """Deal the game's next hands while they end before the agent has a move (the opponent may knock first)."""
        while self.game is not None and self.table.over and not self.game.finished:
            self.game.next_hand()

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict]:
        if self.table.over or self._lost_by_illegal:
            raise gymnasium.error.ResetNeeded("the episode is over: call reset()")
        try:
            self.table.step(action)
        except IllegalAction as error:
            if self.illegal == "raise":
                raise
            self._lost_by_illegal = True
            info = {**self._info(), "illegal_action": str(error)}
            return self._observation(), self.illegal_reward, True, False, info
        self._next_hands()
        reward = self._reward() if self.table.over else 0.0
        if self.render_mode == "human":
            print(self.render())
        return self._observation(), reward, self.table.over, False, self._info()

    def _reward(self) -> float:
        """The agent's reward for the finished episode (``reward``: points or win, R16-R23)."""
        return float(episode_reward(self.table, self.game, self.seat, self.options.reward == "win"))

    def _observation(self) -> dict[str, np.ndarray]:
        mask = self.table.legal_mask() if not self.table.over and self.table.to_move == self.seat else None
        if mask is None:
            mask = np.zeros(ACTION_COUNT, dtype=np.int8)
        return {"observation": self.table.observation(self.seat), "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"phase": self.table.phase}
        if self.table.over:
            info["hand"] = self.table.row().tolist()
        return info

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (what MaskablePPO reads)."""
        return self._observation()["action_mask"].astype(bool)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_table(self.table)

"""Two-player Gin Rummy as a PettingZoo AEC environment, under any simgin rule set (issue 36, docs/ENV.md).

>>> from simgin.env import aec_env
>>> env = aec_env("oklahoma")
>>> env.reset(seed=1)
>>> observation, reward, termination, truncation, info = env.last()
>>> sorted(observation), int(observation["action_mask"].sum()), env.agent_selection
(['action_mask', 'observation'], 2, 'player_1')
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from simgin.env.options import EnvOptions, Seeds
from simgin.env.table import ACTION_COUNT, OBSERVATION_SIZE, Game, Table, action_name, episode_reward
from simgin.game.cards import format_cards
from simgin.kernels.env import FEATURE_CAP

AGENTS = ("player_0", "player_1")
"""Agent ``player_s`` plays seat ``s``."""


def observation_space() -> spaces.Dict:
    """``observation``: the float32 features of docs/ENV.md; ``action_mask``: 1 for each legal action."""
    return spaces.Dict(
        {
            "observation": spaces.Box(low=0.0, high=FEATURE_CAP, shape=(OBSERVATION_SIZE,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(ACTION_COUNT,), dtype=np.int8),
        }
    )


def render_table(table: Table) -> str:
    """The table as text: both hands, the pile's top, the stock, who is to move (for ``render``; it shows
    everything, so it is for people watching, never for an agent)."""
    lines = []
    for seat in (0, 1):
        view = table.view(seat)
        marker = "*" if seat == table.to_move and not table.over else " "
        lines.append(f"{marker} player_{seat}: {format_cards(view.hand)}")
    view = table.view(0)
    top = format_cards(view.pile[-1:]) if view.pile else "-"
    lines.append(f"  pile top {top}, stock {view.stock_count}, knock limit {view.knock_limit}, phase {table.phase}")
    if table.over:
        record = table.record()
        lines.append(f"  over: {record.kind.name.lower()}, winner seat {record.winner}, {record.points} points")
    return "\n".join(lines)


class GinRummyEnv(AECEnv):
    """Two agents, ``player_0`` and ``player_1`` (seats 0 and 1), play hands or games of Gin Rummy.

    Options (:mod:`simgin.env.options`): ``rules`` (a :class:`simgin.Rules`, a preset name or None), ``episode``
    (``"hand"`` or ``"game"``), ``reward`` (``"points"`` or ``"win"``), ``render_mode`` (``"ansi"`` or
    ``"human"``). Every decision of the rule book is an action (:mod:`simgin.kernels.env`); the observation of
    each agent holds only what its player may know (docs/ENV.md). The reward comes at the end of the episode.
    An action the mask does not allow raises :class:`simgin.env.IllegalAction` and changes nothing.

    ``reset(options={"hand_seed": h, "dealer": d})`` (hand episodes) or ``{"game_seed": g}`` (game episodes)
    plays one given deal; other keys are ignored, as PettingZoo's API test requires.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "simgin_gin_rummy_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self, rules: Any = None, episode: str = "hand", reward: str = "points", render_mode: str | None = None
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode={render_mode!r}: choose None, 'ansi' or 'human'")
        self.options = EnvOptions.make(rules, episode, reward)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        self._observation_space = observation_space()
        self._action_space = spaces.Discrete(ACTION_COUNT)
        self.observation_spaces = dict.fromkeys(AGENTS, self._observation_space)
        self.action_spaces = dict.fromkeys(AGENTS, self._action_space)
        self.table = Table(self.options.rules, (None, None), games=self.options.games)
        self.game: Game | None = None
        self._seeds = Seeds()
        self._started = False

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        options = dict(options or {})
        deal_seed, dealer = self._seeds.next(seed)
        if self.options.games:
            self.game = Game(self.table, int(options.pop("game_seed", deal_seed)))
            self.game.start()
        else:
            self.table.deal(int(options.pop("hand_seed", deal_seed)), int(options.pop("dealer", dealer)))
        self._started = True
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[self.table.to_move]
        self._end_if_over()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._started:
            raise ValueError("call reset() before observe()")
        seat = AGENTS.index(agent)
        mask = np.zeros(ACTION_COUNT, dtype=np.int8)
        if not self.table.over and self.table.to_move == seat:
            mask = self.table.legal_mask()
        return {"observation": self.table.observation(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        if not self._started:
            raise ValueError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.table.step(action)
        self._cumulative_rewards[agent] = 0
        self._end_if_over()
        if self.render_mode == "human":
            print(self.render())

    def _end_if_over(self) -> None:
        """After a move: deal the game's next hand, or end the episode with its rewards."""
        self.rewards = dict.fromkeys(AGENTS, 0)
        while self.game is not None and self.table.over and not self.game.finished:
            self.game.next_hand()
        if self.table.over:
            win = self.options.reward == "win"
            for seat, agent in enumerate(AGENTS):
                self.rewards[agent] = episode_reward(self.table, self.game, seat, win)
            self.terminations = dict.fromkeys(AGENTS, True)
            self.infos = {agent: {"hand": self.table.row().tolist()} for agent in AGENTS}
            self._accumulate_rewards()
        else:
            self.agent_selection = AGENTS[self.table.to_move]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_table(self.table)

    def close(self) -> None:
        pass

    def action_name(self, action: int) -> str:
        """What ``action`` does, in words (``'discard 7H'``, ``'knock'``)."""
        return action_name(action)

"""A recorded decision valued: every legal action's expected points from the player's view, the loss of the
action chosen, and the Monte-Carlo error of both (issue 34; docs/ANALYSIS.md).

The valuation reads the decision's :class:`~simgin.game.strategy.PlayerView` only (its hand, the pile, what the
other player took, passed and discarded), written into the table a compiled bot sees
(:func:`simgin.players.compiled.fill_table`); the worlds of ``kernels.analysis`` are drawn from it with the
evaluator's own seed, so the same decision gets the same valuation wherever and whenever it is valued.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from simgin.analysis.recorder import Decision
from simgin.game.cards import format_card
from simgin.game.rng import derive
from simgin.game.strategy import PlayerView
from simgin.kernels import analysis as kernel, continuation, view as table_layout
from simgin.kernels.parameters import PARAMETER_CAPACITY
from simgin.players.compiled import fill_table
from simgin.players.registry import resolve

DEFAULT_WORLDS = 64
"""Worlds per decision: every action of the decision is played out once in each (docs/ANALYSIS.md)."""
DEFAULT_LUCK_WORLDS = 16
"""Worlds per stock draw when its luck is valued: every card the stock held is played out once in each."""
DEFAULT_EVIDENCE = 0.6
"""The weight of the other's actions on its drawn hand: ``heuristic``'s ``evidence`` default."""
DEFAULT_QUALITY = 0.35
"""The tilt of its drawn hand to low deadwood, per point, once 16 stock cards are drawn (less before:
``kernels.analysis.world_quality``): fitted so that the other's drawn deadwood matches what good players hold
(docs/ANALYSIS.md, *The other's hand*)."""
DEFAULT_TRIES = 64
"""Hands drawn for the other per world, one kept by its deadwood (``kernels.opponent.sample_likely_hand``)."""

KINDS = {name: index for index, name in enumerate(kernel.KIND_NAMES)}
POLICIES = ("fast", "scored", "players")


class IllegalAction(ValueError):
    """A recorded answer that is no legal action of its decision (the engine stopped or forfeited on it)."""


@dataclass(frozen=True)
class Evaluator:
    """How decisions are valued: ``worlds`` sampled worlds per decision, drawn from ``seed`` (the evaluator's
    own, apart from the seed of the hands), valued in hand points or, with ``game_value``, in what they
    are worth in the game (R20)."""

    worlds: int = DEFAULT_WORLDS
    seed: int = 0
    game_value: bool = False
    policy: str = "fast"
    """The playouts' policy: ``'fast'`` (take a pile card that fits a meld, discard to the least deadwood) or
    ``'scored'`` (discards by ``opponent``'s learned score, as ``mcts``'s ``playout_policy=1``), or ``'players'``
    (the two compiled bots that play the hand play it on: ``kernels.continuation``; :meth:`seated` tells the
    evaluator which bot sits where). The luck of stock draws is valued with the fast playouts in every case."""
    evidence: float = DEFAULT_EVIDENCE
    """How much the other's takes, passes and discards weight the cards drawn for its hand
    (``kernels.opponent.stateless_weights``: related to a take 1/evidence, to a pass or discard evidence);
    1 draws them uniformly."""
    quality: float = DEFAULT_QUALITY
    """Tilt of the other's drawn hand towards low deadwood, per point (0: none), reached after 16 stock draws
    (``kernels.analysis.world_quality``): a player that has played a while holds a better hand than a random
    one."""
    tries: int = DEFAULT_TRIES
    """Hands drawn for the other in each world, the one kept picked by the tilt: the more, the further the
    tilt can reach."""
    luck_worlds: int = DEFAULT_LUCK_WORLDS
    """Worlds per stock draw for its luck (:meth:`draw_luck`)."""
    seats: tuple[tuple[int, tuple[float, ...]], ...] = ()
    """With ``policy='players'``: each seat's compiled bot, its id (``kernels.bots``) and parameter vector."""

    def __post_init__(self) -> None:
        if not 2 <= self.worlds <= 100_000:
            raise ValueError(f"worlds={self.worlds}: must be between 2 and 100,000")
        if not 2 <= self.luck_worlds <= 100_000:
            raise ValueError(f"luck_worlds={self.luck_worlds}: must be between 2 and 100,000")
        if not 1 <= self.tries <= 4096:
            raise ValueError(f"tries={self.tries}: must be between 1 and 4,096")
        if self.policy not in POLICIES:
            raise ValueError(f"policy={self.policy!r}: choose from {', '.join(POLICIES)}")

    def seated(self, specs: Sequence[str]) -> Evaluator:
        """This evaluator for a hand whose seats are played by ``specs`` (in seat order): with ``'players'``
        playouts, the seats' compiled bots; unchanged for the other policies. A player that is not a compiled bot
        (a plain-Python strategy, an ``exec:`` or ``eaai:`` program) cannot be played inside the playouts: a
        one-line ValueError."""
        if self.policy != "players":
            return self
        seats = []
        for spec in specs:
            player = resolve(spec)
            if not player.compiled:
                raise ValueError(
                    f"playouts='players' plays the hand on with the players' compiled bots; {spec!r} is not one "
                    "(use 'fast' or 'scored' playouts for it)"
                )
            seats.append((int(player.bot_id), tuple(float(x) for x in player.vector())))
        return replace(self, seats=tuple(seats))

    def playout_parameters(self) -> np.ndarray:
        """The parameter vector of the playouts (``kernels.mcts.play_out``)."""
        if self.policy in ("fast", "players"):
            return np.zeros(PARAMETER_CAPACITY)
        from simgin.strategies.mcts import LEARNED_SPEC

        return np.asarray(resolve(LEARNED_SPEC).make().params, dtype=np.float64)

    def value(self, decision: Decision, key: int = 0) -> Valuation:
        """Value every legal action of ``decision``; ``key`` (for example the hand seed and the decision's
        place in the hand) picks its worlds, so that two decisions never share them by accident."""
        actions, values = self._world_values(decision, key)
        return Valuation.of(decision, actions, values)

    def difference(self, decision: Decision, first: int, second: int, key: int = 0) -> tuple[float, float]:
        """The value of action ``first`` minus that of ``second`` at ``decision`` over the worlds of ``key``, with
        the standard error of that paired difference."""
        actions, values = self._world_values(decision, key)
        listed = [int(action) for action in actions]
        per_world = values[:, listed.index(first)] - values[:, listed.index(second)]
        return float(per_world.mean()), float(per_world.std(ddof=1) / math.sqrt(self.worlds))

    def _world_values(self, decision: Decision, key: int) -> tuple[np.ndarray, np.ndarray]:
        """The legal actions of ``decision`` and their values, one row per world (``kernels.analysis``)."""
        view = decision.view
        table, hand = _view_table(view)
        actions = np.zeros(kernel.MAX_ACTIONS, dtype=np.int64)
        values = np.zeros((self.worlds, kernel.MAX_ACTIONS))
        rng = np.array([derive(self.seed, key)], dtype=np.uint64)
        if self.policy == "players":
            if len(self.seats) != 2:
                raise ValueError("playouts='players' needs the seats' bots: Evaluator.seated(specs)")
            ids = np.array([bot for bot, _ in self.seats], dtype=np.int64)
            params = np.array([vector for _, vector in self.seats], dtype=np.float64)
            count = continuation.continuation_values(
                KINDS[decision.kind], view.seat, np.int64(hand), table, self.worlds, rng, self.game_value,
                self.evidence, self.quality, self.tries, ids, params, _policies(tuple(ids.tolist())), actions,
                values,
            )  # fmt: skip
            return actions[:count], values[:, :count]
        count = kernel.action_values(
            KINDS[decision.kind], view.seat, np.int64(hand), table, self.worlds, rng, self.game_value,
            self.playout_parameters(), self.evidence, self.quality, self.tries, actions, values,
        )  # fmt: skip
        return actions[:count], values[:, :count]

    def kernels_cached(self, players: Sequence[str]) -> bool:
        """Whether numba's on-disk cache holds every kernel an analysis of ``players`` (and second opinions) with
        this evaluator runs: its playouts' (``kernels.analysis`` or ``kernels.continuation``), the luck's, and
        the ``decide`` of each searching bot among ``players``."""
        from simgin.kernels import is_cached
        from simgin.running.kernel_cache import searching_decides

        playouts = continuation.continuation_values if self.policy == "players" else kernel.action_values
        kernels = (playouts, kernel.stock_draw_values, *searching_decides(players))
        return all(is_cached(function) for function in kernels)

    def draw_luck(self, view: PlayerView, drawn: int, stock: Sequence[int], key: int = 0) -> tuple[float, float]:
        """The luck of a stock draw (R9) for the drawer, with its Monte-Carlo standard error: the value of
        drawing ``drawn`` minus the mean value over every card of ``stock`` (the stock before the draw, ``drawn``
        on top), each valued from ``view``, the drawer's view just before the draw, in the same worlds
        (``kernels.analysis.stock_draw_values``). Each card of the stock is equally likely to be on top, so the
        luck averages to zero over draws (docs/ANALYSIS.md)."""
        table, hand = _view_table(view)
        candidates = np.array(stock, dtype=np.int64)
        values = np.zeros((self.luck_worlds, candidates.size))
        rng = np.array([derive(self.seed, key)], dtype=np.uint64)
        kernel.stock_draw_values(
            view.seat, np.int64(hand), table, self.luck_worlds, rng, self.game_value, self.playout_parameters(),
            self.evidence, self.quality, self.tries, candidates, values,
        )  # fmt: skip
        index = list(stock).index(drawn)
        per_world = values[:, index] - values.mean(axis=1)
        return float(per_world.mean()), float(per_world.std(ddof=1) / math.sqrt(self.luck_worlds))


@functools.cache
def _policies(bot_ids: tuple[int, ...]) -> Any:
    """The seats' ``decide`` functions for ``kernels.continuation`` (``simgin.env.table.seat_policies``), made
    once per pairing of bots."""
    from simgin.env.table import seat_policies

    return seat_policies(np.array(bot_ids, dtype=np.int64))


def _view_table(view: PlayerView) -> tuple[np.ndarray, int]:
    """The table a compiled bot sees for ``view`` (``kernels.view``, the kernels' input) and its hand as a mask."""
    table = np.zeros(table_layout.TABLE_SIZE, dtype=np.int64)
    fill_table(table, view)
    hand = 0
    for card in view.hand:
        hand |= 1 << card
    return table, hand


@dataclass(frozen=True)
class Valuation:
    """The actions of a decision with their mean values and standard errors, the action chosen and the best,
    and the loss: the best action's value minus the chosen one's, with the standard error of that paired
    difference over the worlds (both actions were played out in the same worlds)."""

    kind: str
    actions: tuple[int, ...]
    values: tuple[float, ...]
    errors: tuple[float, ...]
    chosen: int
    best: int
    loss: float
    loss_error: float

    @staticmethod
    def of(decision: Decision, actions: np.ndarray, values: np.ndarray) -> Valuation:
        worlds = values.shape[0]
        means = values.mean(axis=0)
        errors = values.std(axis=0, ddof=1) / math.sqrt(worlds)
        best = int(np.argmax(means))
        listed = [int(action) for action in actions]
        if decision.chosen not in listed:  # an illegal answer: the engine stops or forfeits, nothing to value
            raise IllegalAction(f"{decision.kind} {decision.chosen} is not a legal action here: {listed}")
        chosen = listed.index(decision.chosen)
        difference = values[:, best] - values[:, chosen]
        loss_error = float(difference.std(ddof=1) / math.sqrt(worlds)) if best != chosen else 0.0
        return Valuation(
            kind=decision.kind,
            actions=tuple(listed),
            values=tuple(float(x) for x in means),
            errors=tuple(float(x) for x in errors),
            chosen=decision.chosen,
            best=listed[best],
            loss=float(means[best] - means[chosen]),
            loss_error=loss_error,
        )

    def action_text(self, action: int) -> str:
        """An action as a reader says it: the card of a discard, else take/pass, pile/stock, knock/play on,
        big gin/discard, take and knock/let the hand die."""
        if self.kind == "discard":
            return format_card(action)
        words = {
            "up_card": ("pass", "take"),
            "draw": ("stock", "pile"),
            "knock": ("play on", "knock"),
            "big_gin": ("discard", "big gin"),
            "fiftieth": ("let the hand die", "take and knock"),
        }
        return words[self.kind][action]

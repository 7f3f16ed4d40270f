"""A policy trained on ``simgin.env`` played as an ordinary simgin strategy (issue 36, docs/ENV.md).

The spec ``policy:weights=FILE.npz`` (a plug-in of simgin itself, entry point ``policy``) loads a small network
saved by :func:`save_policy` and plays it in ``simgin match``, ``compare``, ``sweep``, ``tournament`` and
``analyse`` like any other player. At each decision it builds, from its :class:`~simgin.game.strategy.PlayerView`
alone, exactly the observation and action mask the environments give (:func:`observation_of_view`; a test holds
them equal), and plays the legal action of highest score. A Python caller can wrap any function of
(observation, mask) instead: ``PolicyStrategy(act=my_function)``.

The network: ``layers`` pairs of (weight ``(inputs, outputs)``, bias ``(outputs,)``), ReLU between them, the
last layer giving one score per action (``ACTION_COUNT``); the first takes ``OBSERVATION_SIZE`` inputs.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from simgin.env.table import ACTION_COUNT, BIG_GIN, DRAW_STOCK, KNOCK, OBSERVATION_SIZE, TAKE
from simgin.game.rng import SplitMix64
from simgin.game.strategy import PlayerView
from simgin.kernels import env as _k
from simgin.kernels.melds import SUIT_DEADWOOD
from simgin.players.compiled import fill_table

#: A policy's action for an observation and its mask of legal actions.
Act = Callable[[np.ndarray, np.ndarray], int]


def observation_of_view(view: PlayerView, phase: str) -> tuple[np.ndarray, np.ndarray]:
    """(observation, action mask) of the player of ``view`` at a ``phase`` decision (``'up_card'``, ``'draw'``,
    ``'discard'``, ``'knock'``, ``'fiftieth'``), as the environments give them (docs/ENV.md)."""
    phases = {"up_card": _k.PHASE_UP_CARD, "draw": _k.PHASE_DRAW, "discard": _k.PHASE_DISCARD}
    phases.update({"knock": _k.PHASE_KNOCK, "fiftieth": _k.PHASE_FIFTIETH})
    if phase not in phases:
        raise ValueError(f"phase={phase!r}: choose from {', '.join(phases)}")
    table = np.zeros(_k.TABLE_SIZE, dtype=np.int64)
    fill_table(table, view)
    fields = np.zeros(_k.FIELD_COUNT, dtype=np.int64)
    hand = 0
    for card in view.hand:
        hand |= 1 << card
    fields[_k.F_HANDS + view.seat] = np.int64(np.uint64(hand))
    fields[_k.F_PLAYER] = view.seat
    fields[_k.F_PHASE] = phases[phase]
    fields[_k.F_DRAWN] = view.drawn_card
    fields[_k.F_FROM_PILE] = int(view.drawn_from_pile)
    fields[_k.F_FIFTIETH] = int(view.fiftieth_card)
    fields[_k.F_DEALER] = view.dealer
    fields[_k.F_TURNS] = view.turn
    fields[_k.F_STOCK_NEXT] = 52 - view.stock_count
    fields[_k.F_KNOCK_LIMIT] = view.knock_limit
    fields[_k.F_MULTIPLIER] = view.rules.hand_multiplier(view.up_card if view.up_card >= 0 else None)
    rules = view.rules.to_array()
    observation = np.empty(OBSERVATION_SIZE, dtype=np.float32)
    _k.observe(table, fields, view.seat, rules, SUIT_DEADWOOD, observation)
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    _k.legal_actions(fields, table, rules, SUIT_DEADWOOD, mask)
    return observation, mask


def save_policy(path: str | Path, layers: Sequence[tuple[np.ndarray, np.ndarray]]) -> Path:
    """Save a network (pairs of weight and bias, see the module docstring) for ``policy:weights=PATH``."""
    arrays = {}
    for i, (weight, bias) in enumerate(layers):
        arrays[f"weight_{i}"] = np.asarray(weight, dtype=np.float32)
        arrays[f"bias_{i}"] = np.asarray(bias, dtype=np.float32)
    _check_layers([(arrays[f"weight_{i}"], arrays[f"bias_{i}"]) for i in range(len(layers))], str(path))
    path = Path(path)
    with path.open("wb") as file:
        np.savez(file, **arrays)
    return path


def load_policy(path: str | Path) -> list[tuple[np.ndarray, np.ndarray]]:
    """The network saved at ``path`` by :func:`save_policy`; a one-line ValueError if it is not one.

    Read once per file version: a run makes a fresh player for every hand, and each would read the file again.
    """
    try:
        stat = os.stat(path)
    except OSError as error:
        raise ValueError(
            f"weights={str(path)!r} is not a policy saved by simgin.env.policy.save_policy: {error}"
        ) from None
    return _load_policy(os.path.realpath(path), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=8)
def _load_policy(path: str, mtime_ns: int, size: int) -> list[tuple[np.ndarray, np.ndarray]]:
    try:
        with np.load(path) as saved:
            count = sum(1 for name in saved.files if name.startswith("weight_"))
            layers = [(saved[f"weight_{i}"], saved[f"bias_{i}"]) for i in range(count)]
    except (OSError, ValueError, KeyError) as error:
        raise ValueError(
            f"weights={str(path)!r} is not a policy saved by simgin.env.policy.save_policy: {error}"
        ) from None
    _check_layers(layers, str(path))
    for weight, bias in layers:  # shared by every player made from the file: never to be changed
        weight.setflags(write=False)
        bias.setflags(write=False)
    return layers


def _check_layers(layers: Sequence[tuple[np.ndarray, np.ndarray]], where: str) -> None:
    if not layers:
        raise ValueError(f"{where}: a policy needs at least one layer")
    inputs = OBSERVATION_SIZE
    for i, (weight, bias) in enumerate(layers):
        if weight.ndim != 2 or weight.shape[0] != inputs or bias.shape != (weight.shape[1],):
            raise ValueError(
                f"{where}: layer {i} has weight {weight.shape} and bias {bias.shape}; it needs ({inputs}, n) and (n,)"
            )
        inputs = weight.shape[1]
    if inputs != ACTION_COUNT:
        raise ValueError(f"{where}: the last layer gives {inputs} scores; it must give one per action, {ACTION_COUNT}")


def network_scores(layers: Sequence[tuple[np.ndarray, np.ndarray]], observations: np.ndarray) -> np.ndarray:
    """The network's action scores for one observation or a batch of them (ReLU between layers)."""
    x = observations
    for i, (weight, bias) in enumerate(layers):
        x = x @ weight + bias
        if i < len(layers) - 1:
            x = np.maximum(x, 0.0)
    return x


def best_legal(scores: np.ndarray, mask: np.ndarray) -> int:
    """The legal action of highest score (the lowest such action on a tie)."""
    return int(np.argmax(np.where(mask.astype(bool), scores, -np.inf)))


class PolicyStrategy:
    """A trained policy as a simgin strategy: ``policy:weights=FILE.npz``, or ``PolicyStrategy(act=function)``.

    It sees only its view (what the player at the table sees) and answers each question of the rule book by the
    legal action of the highest score; it draws no random numbers, so it plays the same on every replay.
    """

    name = "policy"
    description = "a network trained on simgin.env, played from its saved weights: policy:weights=FILE.npz"

    def __init__(self, weights: str = "", act: Act | None = None) -> None:
        if act is None:
            if not weights:
                raise ValueError("a policy needs its weights: policy:weights=FILE.npz (saved by save_policy)")
            layers = load_policy(weights)

            def act(observation: np.ndarray, mask: np.ndarray) -> int:
                return best_legal(network_scores(layers, observation), mask)

        self.act = act

    def _choose(self, view: PlayerView, phase: str, allowed: Callable[[np.ndarray], np.ndarray] | None = None) -> int:
        observation, mask = observation_of_view(view, phase)
        if allowed is not None:
            mask = allowed(mask)
        action = int(self.act(observation, mask))
        if not (0 <= action < ACTION_COUNT and mask[action]):
            raise ValueError(f"the policy chose action {action}, which is not legal at this {phase!r} decision")
        return action

    def start_hand(self, view: PlayerView, rng: SplitMix64) -> None:
        pass

    def take_up_card(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._choose(view, "up_card") == TAKE

    def draw_from_pile(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._choose(view, "draw") != DRAW_STOCK

    def big_gin(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._choose(view, "discard") == BIG_GIN

    def discard(self, view: PlayerView, rng: SplitMix64) -> int:
        """The best discard; when big gin was legal and declined (:meth:`big_gin`), the same choice without it."""

        def discards_only(mask: np.ndarray) -> np.ndarray:
            mask = mask.copy()
            mask[BIG_GIN] = 0
            return mask

        return self._choose(view, "discard", discards_only)

    def knock(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._choose(view, "knock") == KNOCK

    def take_fiftieth(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._choose(view, "fiftieth") == TAKE

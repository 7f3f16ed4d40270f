"""The kernels a run plays: compiled (or loaded from numba's on-disk cache) before the chunks, and whether the
cache already holds them (a cold first run compiles once, in its first worker)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from simgin.running import engine
from simgin.running.config import RunConfig


def compile_kernels(config: RunConfig) -> None:
    """Compile (or load from numba's cache) every kernel ``config`` plays, without playing: the
    engine's entry point and the ``decide`` of each searching bot, passed to it with no units."""
    nothing = np.zeros(0, dtype=np.uint64)
    if config.table != "pairs":
        engine.play_table_rows(config.table, config.players, config.rules, nothing)
        return
    for a, b in config.pairings:
        pair = (config.players[a], config.players[b])
        if config.mode == "hands":
            engine.play_hand_rows(pair, config.rules, nothing, np.zeros(0, dtype=np.int64))
        else:
            engine.play_game_rows(pair, config.rules, nothing)


def kernel_for(mode: str, table: str = "pairs") -> Any:
    """The numba entry point that plays the chunks of a run: two-player hands or games, or
    three-player or partnership games (what the first run compiles)."""
    if table == "pairs":
        from simgin.kernels import engine as kernels

        return kernels.play_hands_batch if mode == "hands" else kernels.play_games_batch
    from simgin.kernels import multiplayer as table_kernels

    return table_kernels.play_three_games_batch if table == "three" else table_kernels.play_team_games_batch


def kernels_cached(mode: str, table: str = "pairs", players: Sequence[str] = ()) -> bool:
    """Whether numba's on-disk cache holds the kernel of such a run, and the ``decide`` of each
    searching bot among ``players`` (``kernels.bots``), compiled from today's sources."""
    from simgin.kernels import is_cached

    return is_cached(kernel_for(mode, table)) and all(is_cached(decide) for decide in searching_decides(players))


def searching_decides(players: Sequence[str]) -> list[Any]:
    """The ``decide`` of each searching bot among ``players`` (heuristic, opponent, mcts: ``kernels.bots``), each
    once; specs that do not resolve are left to the run, which reports them."""
    from simgin.kernels.bots import LAST_BUILT_IN, POLICIES
    from simgin.players.registry import resolve

    decides: list[Any] = []
    for spec in players:
        try:
            player = resolve(spec)
        except ValueError:
            continue
        if player.compiled and player.info.bot_id > LAST_BUILT_IN and POLICIES[player.info.bot_id] not in decides:
            decides.append(POLICIES[player.info.bot_id])
    return decides


def compile_searching_bots(players: Sequence[str]) -> None:
    """Compile (or load) the ``decide`` of each searching bot among ``players``, alone, typed as the engine passes
    it (``kernels.bots.POLICY``): what a second worker does on a cold run while the first compiles the engine's
    kernel (:func:`compile_kernels`), which then loads them from the cache instead of compiling them after it."""
    from simgin.kernels.bots import POLICY

    for decide in searching_decides(players):
        decide.compile(POLICY.signature.args)

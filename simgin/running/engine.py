"""Play hands, games and tables between strategies named by spec: the typed API over both engines.

``players`` are strategy specs (see :mod:`simgin.players.registry`): ``'simple'``, ``'heuristic:knock=7'``,
``'mypkg.bots:MyBot'``, ``'bots/my.py:MyBot'``, ``'exec:...'``. This module resolves the names and hands the
resolved players to the engine (:mod:`simgin.game.play`, :mod:`simgin.game.multiplayer`): when both are compiled
bots the hands run in the numba kernels, in parallel; otherwise the plain-Python reference engine plays them.
Either way the rows have the columns of docs/ENGINE.md's hand and game records (``kernels.engine.HAND_FIELDS`` /
``GAME_FIELDS``), and the same seeds always give the same rows. Results are also offered as pandas DataFrames.

>>> hands = play_hands(("simple", "simple"), hand_count=200, seed=1)
>>> len(hands), set(hands["kind"]) <= {"dead", "knock", "gin", "big_gin", "undercut"}
(200, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from simgin.game import multiplayer, play
from simgin.game.play import (
    COMPILED_BOTS,
    MAX_HANDS_PER_GAME,
    MAX_TURNS,
    HandForfeit,
    IllegalDecision,
    IllegalMove,
    game_hands,
    hand_seeds,
)
from simgin.game.rules import Rules, as_rules, whole_number
from simgin.game.showdown import KINDS_BY_CODE
from simgin.kernels import engine as _k
from simgin.players.registry import Player, resolve

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "COMPILED_BOTS",
    "MAX_HANDS_PER_GAME",
    "MAX_TURNS",
    "HandForfeit",
    "IllegalDecision",
    "IllegalMove",
    "bot_ids",
    "compiled_bots",
    "game_hands",
    "hand_seeds",
    "play_game_rows",
    "play_games",
    "play_hand_rows",
    "play_hands",
    "play_table_rows",
    "resolve_players",
]


def resolve_players(players: Sequence[str]) -> tuple[Player, Player]:
    """The two strategies of a pairing, resolved (a one-line ValueError for a bad spec)."""
    if isinstance(players, str) or len(players) != 2:
        raise ValueError(f"players must be two strategy specs, e.g. ('simple', 'greedy'), got {players!r}")
    return resolve(players[0]), resolve(players[1])


def compiled_bots(players: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Kernel ids and parameter vectors of compiled strategy specs, for kernels that seat them directly.

    A plain-Python strategy is a ValueError: it cannot sit in a numba kernel.
    """
    return play.compiled_arrays([resolve(player) for player in players])


def bot_ids(players: Sequence[str]) -> np.ndarray:
    """Kernel ids of compiled strategy specs (see :func:`compiled_bots` for their parameters)."""
    return compiled_bots(players)[0]


def play_hand_rows(
    players: Sequence[str],
    rules: Rules,
    seeds: np.ndarray,
    dealers: np.ndarray,
    forfeits: list[HandForfeit] | None = None,
    luck: np.ndarray | None = None,
) -> np.ndarray:
    """Raw hand rows for explicit hand seeds and dealers: :func:`simgin.game.play.play_hand_rows` of the
    resolved specs (a one-line ValueError for a bad spec), with each hand's luck corrections into ``luck``."""
    return play.play_hand_rows(resolve_players(players), rules, seeds, dealers, forfeits, luck)


def play_game_rows(
    players: Sequence[str],
    rules: Rules,
    seeds: np.ndarray,
    hand_capacity: int = 64,
    forfeits: list[HandForfeit] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Raw game rows for explicit game seeds: :func:`simgin.game.play.play_game_rows` of the resolved specs."""
    return play.play_game_rows(resolve_players(players), rules, seeds, hand_capacity, forfeits)


def play_table_rows(table: str, bots: Sequence[str], rules: Rules, seeds: np.ndarray, hand_capacity: int = 64):
    """Raw rows of three-player or partnership games, seat by seat (``bots[s]`` plays seat s), compiled bots named
    by spec: :func:`simgin.game.multiplayer.play_table_rows` of the resolved specs."""
    return multiplayer.play_table_rows(table, tuple(resolve(bot) for bot in bots), rules, seeds, hand_capacity)


def _with_kinds(frame: pd.DataFrame) -> pd.DataFrame:
    import pandas as pd

    frame["kind"] = pd.Categorical(
        [str(KINDS_BY_CODE[int(code)]) for code in frame["kind"]],
        categories=[str(kind) for kind in KINDS_BY_CODE.values()],
    )
    return frame


def play_hands(
    players: Sequence[str], rules: Rules | str | None = None, hand_count: int = 1000, seed: int = 0
) -> pd.DataFrame:
    """Play ``hand_count`` independent hands; hand i has seed ``derive(seed, i)`` and dealer ``i % 2``."""
    import pandas as pd

    rules = as_rules(rules)  # issue 32 item 27: checked arguments, a preset name taken
    hand_count = whole_number(hand_count, "hand_count", 1)
    seed = whole_number(seed, "seed")
    seeds = hand_seeds(seed, hand_count)
    dealers = np.arange(hand_count, dtype=np.int64) % 2
    rows = play_hand_rows(players, rules, seeds, dealers)
    frame = pd.DataFrame(rows, columns=list(_k.HAND_FIELDS))
    frame.insert(0, "hand_seed", seeds)
    return _with_kinds(frame)


def play_games(
    players: Sequence[str], rules: Rules | str | None = None, game_count: int = 100, seed: int = 0
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play ``game_count`` games (game i has seed ``derive(seed, i)``): (games, hands) DataFrames."""
    import pandas as pd

    rules = as_rules(rules)  # issue 32 item 27: checked arguments, a preset name taken
    game_count = whole_number(game_count, "game_count", 1)
    seed = whole_number(seed, "seed")
    seeds = hand_seeds(seed, game_count)
    games, rows, counts = play_game_rows(players, rules, seeds)
    game_frame = pd.DataFrame(games, columns=list(_k.GAME_FIELDS))
    game_frame.insert(0, "game_seed", seeds)
    hands, game = game_hands(rows, counts)
    hand_frame = pd.DataFrame(hands, columns=list(_k.HAND_FIELDS))
    hand_frame.insert(0, "game", game)
    return game_frame, _with_kinds(hand_frame)

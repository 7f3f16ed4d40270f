"""Play hands and games with the compiled bots: the typed API over ``simgin.kernels.engine``.

Results are pandas DataFrames with the columns of docs/ENGINE.md's hand and game records.

>>> hands = play_hands(("simple", "simple"), hand_count=200, seed=1)
>>> len(hands), set(hands["kind"]) <= {"dead", "knock", "gin", "big_gin", "undercut"}
(200, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from simgin.kernels import bots as _bots
from simgin.kernels import engine as _k
from simgin.kernels.melds import SUIT_DEADWOOD
from simgin.kernels.showdown import SUIT_VALUE
from simgin.rng import derive
from simgin.rules import Rules
from simgin.showdown import KINDS_BY_CODE

if TYPE_CHECKING:
    import pandas as pd

COMPILED_BOTS = _bots.BOT_NAMES
MAX_TURNS = _k.MAX_TURNS
MAX_HANDS_PER_GAME = _k.MAX_HANDS_PER_GAME
_ERRORS = {
    _k.ERROR_DISCARD_NOT_HELD: "discarded a card it does not hold",
    _k.ERROR_REDISCARD: "discarded the card just taken from the pile (R10)",
    _k.ERROR_FIFTIETH_OVER_LIMIT: "took the 50th card but its discard leaves more than the knock limit (V7)",
}


class IllegalDecision(ValueError):
    """A strategy broke a rule; the message names the strategy, the decision and the hand."""


def bot_ids(bots: tuple[str, str]) -> np.ndarray:
    """Kernel ids of two compiled bots, by name."""
    ids = []
    for name in bots:
        if name not in COMPILED_BOTS:
            raise ValueError(f"unknown compiled strategy {name!r}: choose from {', '.join(COMPILED_BOTS)}")
        ids.append(COMPILED_BOTS.index(name))
    return np.array(ids, dtype=np.int64)


def hand_seeds(seed: int, hand_count: int) -> np.ndarray:
    """The hand seeds of a batch: hand i uses ``derive(seed, i)`` (see docs/ENGINE.md)."""
    return np.array([derive(seed, i) for i in range(hand_count)], dtype=np.uint64)


def _with_kinds(frame: pd.DataFrame) -> pd.DataFrame:
    import pandas as pd

    frame["kind"] = pd.Categorical(
        [str(KINDS_BY_CODE[int(code)]) for code in frame["kind"]],
        categories=[str(kind) for kind in KINDS_BY_CODE.values()],
    )
    return frame


def play_hand_rows(bots: tuple[str, str], rules: Rules, seeds: np.ndarray, dealers: np.ndarray) -> np.ndarray:
    """Raw hand rows (int64, columns ``kernels.engine.HAND_FIELDS``) for explicit seeds and dealers."""
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    dealers = np.ascontiguousarray(dealers, dtype=np.int64)
    rows = np.zeros((seeds.shape[0], _k.HAND_FIELD_COUNT), dtype=np.int64)
    errors = np.zeros(seeds.shape[0], dtype=np.int64)
    _k.play_hands_batch(seeds, dealers, rules.to_array(), bot_ids(bots), SUIT_DEADWOOD, SUIT_VALUE, rows, errors)
    bad = np.flatnonzero(errors)
    if bad.size:
        i = int(bad[0])
        seat = int(rows[i, _k.H_WINNER])
        raise IllegalDecision(
            f"strategy {bots[seat]!r} (seat {seat}) {_ERRORS[int(errors[i])]} at the discard decision "
            f"in hand seed {int(seeds[i])} with dealer {int(dealers[i])}"
        )
    return rows


def play_hands(
    bots: tuple[str, str], rules: Rules | None = None, hand_count: int = 1000, seed: int = 0
) -> pd.DataFrame:
    """Play ``hand_count`` independent hands; hand i has seed ``derive(seed, i)`` and dealer ``i % 2``."""
    import pandas as pd

    if hand_count < 1:
        raise ValueError(f"hand_count={hand_count}: must be at least 1")
    seeds = hand_seeds(seed, hand_count)
    dealers = np.arange(hand_count, dtype=np.int64) % 2
    rows = play_hand_rows(bots, rules or Rules(), seeds, dealers)
    frame = pd.DataFrame(rows, columns=list(_k.HAND_FIELDS))
    frame.insert(0, "hand_seed", seeds)
    return _with_kinds(frame)


def play_game_rows(
    bots: tuple[str, str], rules: Rules, seeds: np.ndarray, hand_capacity: int = 64
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Raw game rows (columns ``kernels.engine.GAME_FIELDS``) for explicit game seeds.

    Returns (games, hand rows of shape (games, capacity, fields), deals per game); the
    capacity grows until every game's deals fit.
    """
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    game_count = seeds.shape[0]
    while True:
        games = np.zeros((game_count, _k.GAME_FIELD_COUNT), dtype=np.int64)
        rows = np.zeros((game_count, hand_capacity, _k.HAND_FIELD_COUNT), dtype=np.int64)
        counts = np.zeros(game_count, dtype=np.int64)
        errors = np.zeros((game_count, 2), dtype=np.int64)
        _k.play_games_batch(
            seeds, rules.to_array(), bot_ids(bots), SUIT_DEADWOOD, SUIT_VALUE, games, rows, counts, errors
        )
        bad = np.flatnonzero(errors[:, 0])
        if bad.size:
            i = int(bad[0])
            raise IllegalDecision(
                f"a strategy of {bots} {_ERRORS[int(errors[i, 0])]} in game seed {int(seeds[i])}, "
                f"hand seed {int(np.uint64(errors[i, 1]))}"
            )
        if counts.max() <= hand_capacity:
            return games, rows, counts
        hand_capacity = int(counts.max())


def play_games(
    bots: tuple[str, str], rules: Rules | None = None, game_count: int = 100, seed: int = 0
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play ``game_count`` games (game i has seed ``derive(seed, i)``): (games, hands) DataFrames."""
    import pandas as pd

    if game_count < 1:
        raise ValueError(f"game_count={game_count}: must be at least 1")
    seeds = hand_seeds(seed, game_count)
    games, rows, counts = play_game_rows(bots, rules or Rules(), seeds)
    game_frame = pd.DataFrame(games, columns=list(_k.GAME_FIELDS))
    game_frame.insert(0, "game_seed", seeds)
    index = np.repeat(np.arange(game_count), counts)
    hand_index = np.concatenate([np.arange(c) for c in counts])
    hand_frame = pd.DataFrame(rows[index, hand_index], columns=list(_k.HAND_FIELDS))
    hand_frame.insert(0, "game", index)
    return game_frame, _with_kinds(hand_frame)

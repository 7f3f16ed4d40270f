"""The hand log (``--hand-log``): one Parquet file of hand rows per chunk, ``DIR/hands/CHUNK.parquet``.

Its columns (:data:`SCHEMA`): where the hand was played (``pairing chunk unit leg seat_a``), its ``hand_seed``,
then the hand record of docs/ENGINE.md, with ``kind`` written as its name (``dead``, ``knock``, ``gin``,
``big_gin``, ``undercut``, ``forfeit``: the outcome vocabulary of :class:`simgin.game.showdown.Kind`). With the
row's players (``pairing``, and ``leg`` 2 swaps the seats) and ``dealer``, the hand seed plays the hand again:
``simgin replay A B --hand-seed H --dealer D`` (a hand of a game was dealt at the game's scores then, which
``--scores`` gives; its first hand at 0,0).

Logs written before issue 32 (format 1) have ``kind`` as its kernel code and no ``hand_seed``:
:func:`read_hand_log` (``simgin.read_hand_log``) still reads them (the kind named, ``hand_seed`` missing), and a
run resumed into such a directory plays their chunks again (:func:`problem`), so one directory holds one format.
The rows are the same in both formats.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from simgin.base import guard
from simgin.game.rng import mix64_array
from simgin.game.showdown import KINDS_BY_CODE
from simgin.kernels import engine as _k

if TYPE_CHECKING:
    import pandas as pd

#: The columns of a hand log and their types (issue 32 item 17 added ``hand_seed`` and named ``kind``).
SCHEMA: dict[str, str] = {
    "pairing": "int64",
    "chunk": "int64",
    "unit": "int64",
    "leg": "int64",
    "seat_a": "int64",
    "hand_seed": "uint64",
} | {name: ("string" if name == "kind" else "int64") for name in _k.HAND_FIELDS}
#: The names of the kinds, by kernel code (``kind`` in the log).
KIND_NAMES = {code: str(kind) for code, kind in KINDS_BY_CODE.items()}


def hand_seeds(unit_seeds: np.ndarray, unit_of_row: np.ndarray, games: bool) -> np.ndarray:
    """The hand seed of every row: the unit's seed for independent hands; for the hands of a game, the
    engine's ``derive(game_seed, 1 + deal)`` (docs/ENGINE.md), ``deal`` counting the game's hands from 0
    (rows are in play order, game by game)."""
    seeds = np.asarray(unit_seeds, dtype=np.uint64)[unit_of_row]
    if not games:
        return seeds
    first = np.searchsorted(unit_of_row, unit_of_row, side="left")
    deal = (np.arange(unit_of_row.shape[0]) - first + 1).astype(np.uint64)
    return mix64_array(seeds ^ mix64_array(deal))


def frame(
    rows: np.ndarray, pairing: int, chunk: int, units: np.ndarray, leg: int, seat_a: np.ndarray, seeds: np.ndarray
) -> pd.DataFrame:
    """One leg's hand rows as a hand log (:data:`SCHEMA`): ``units`` the run's unit of each row, ``seeds`` its hand
    seed (:func:`hand_seeds`)."""
    import pandas as pd

    table = pd.DataFrame(rows, columns=list(_k.HAND_FIELDS)).astype("int64")
    table["kind"] = table["kind"].map(KIND_NAMES).astype("string")
    table.insert(0, "hand_seed", np.asarray(seeds, dtype=np.uint64))
    for name, values in (("seat_a", seat_a), ("leg", leg), ("unit", units), ("chunk", chunk), ("pairing", pairing)):
        table.insert(0, name, np.broadcast_to(np.asarray(values, dtype=np.int64), len(table)))
    return table


def read_hand_log(path: str | Path) -> pd.DataFrame:
    """A hand log, or every log of a run directory (``DIR/hands/*.parquet``, in chunk order), in this format:
    ``kind`` by name, also in logs of format 1 (whose ``hand_seed`` is then missing)."""
    import pandas as pd

    if not isinstance(path, str | os.PathLike):  # issue 32 item 27
        raise TypeError(f"path={path!r}: give the path of a hand log or a run directory, not a {type(path).__name__}")
    path = Path(path)
    paths = sorted((path / "hands").glob("*.parquet")) if path.is_dir() else [path]
    if not paths:
        raise ValueError(f"{path} holds no hand log (a run with --hand-log writes {path}/hands/*.parquet)")
    tables = []
    for one in paths:
        table = pd.read_parquet(one)
        if pd.api.types.is_integer_dtype(table["kind"]):  # format 1
            table["kind"] = table["kind"].map(KIND_NAMES).astype("string")
        tables.append(table)
    return pd.concat(tables, ignore_index=True)


def problem(path: Path, rows: Any) -> str | None:
    """Why the hand log ``path`` is not the ``rows`` rows of this format its chunk record says, or None if it is."""
    if not path.is_file():
        return f"hand log {path} is missing"
    try:
        import pyarrow.parquet as pq

        found = pq.read_metadata(path).num_rows
        names = pq.read_schema(path).names
    except Exception as error:
        return f"hand log {path} is damaged ({guard.describe(error)})"
    if found != rows:
        return f"hand log {path} has {found} rows, its chunk record says {rows}"
    if names != list(SCHEMA):
        return f"hand log {path} is of an older format (no hand seed, kind as a number)"
    return None

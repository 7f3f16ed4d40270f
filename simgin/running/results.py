"""The result file every run command leaves in its ``--out`` directory: ``result.json``.

It is what ``simgin report`` reads. Its keys:

- ``kind``: ``"match"``, ``"tournament"``, ``"compare"``, ``"sweep"`` or ``"tune"``;
- ``simgin_version``, ``config`` (the run's settings, ``RunConfig.to_dict``; for a sweep the
  base settings) and ``players``;
- ``pairings``: one entry per pairing, ``{"a": name, "b": name, "tally": {field: sum}}``
  with the fields of :data:`simgin.running.tally.TALLY_FIELDS`, seen from ``a``;
- ``summary``: the rows of :func:`simgin.running.summary.summarize` (one per pairing and player);
- ``overridden``: the switches set but without effect in the run (``Rules.overridden``), with why;
- per kind: ``ratings`` and ``pairwise`` (tournament), ``sprt`` (compare), ``cells`` (sweep:
  one entry per grid cell with its ``settings`` (``preset`` included), full ``rules``, its own
  ``pairings`` (each with every metric and its ``_ci``) and ``summary``, its ``overridden`` and
  ``same_game_as``: the index of the earlier cell whose game it repeats; with three or more
  players also ``ratings``, ``skill_spread``, ``pairwise`` and ``first_named``: the first-named
  player's results against all the others). A sweep also has ``baseline``,
  ``metrics`` and ``differences``: one item per comparison of a cell with the baseline, with
  ``cell``, ``pairing``, ``metric``, ``difference``, ``ci``, ``p``, ``p_holm`` and ``significant``
  (:meth:`simgin.studies.sweep.SweepResult.result_data`).

A tune (``kind`` ``"tune"``) writes its own keys instead: those of its ``--json`` object
plus ``settings``, ``history``, ``generations``, ``final`` and ``difference``
(:meth:`simgin.studies.tune.TuneResult.result_data`).
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from simgin.running import files

RESULT_FILE = "result.json"
KINDS = ("match", "tournament", "compare", "sweep", "tune", "tune-rules")
#: The settings files that mark a simgin output directory: a run's (:mod:`simgin.running.runner`) or a
#: tune's (:mod:`simgin.studies.tune`).
SETTINGS_FILES = files.SETTINGS_FILES


def jsonable(value: Any) -> Any:
    """NaN and infinities become null, numpy numbers plain numbers: strict JSON."""
    if isinstance(value, dict):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(item) for item in value]
    if hasattr(value, "item") and not isinstance(value, str):
        return jsonable(value.item())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def save_result(out: str | Path, data: dict[str, Any]) -> Path:
    """Write ``result.json`` atomically into ``out``.

    An existing ``result.json`` is replaced only in a simgin output directory (one with the
    settings file of a run or a tune, :data:`SETTINGS_FILES`), never in a directory that is
    not simgin's.
    """
    if data.get("kind") not in KINDS:
        raise ValueError(f"result kind {data.get('kind')!r}: choose from {', '.join(KINDS)}")
    path = Path(out) / RESULT_FILE
    if path.exists() and not any((Path(out) / name).is_file() for name in SETTINGS_FILES):
        marker = " or ".join(SETTINGS_FILES)
        raise ValueError(f"{out} is not a simgin run directory (no {marker}): its {RESULT_FILE} is left as it is")
    return files.write_file(out, RESULT_FILE, json.dumps(jsonable(data), indent=1, allow_nan=False))


def load_result(directory: str | Path) -> dict[str, Any]:
    """Read ``result.json`` from a run directory, with a clear error if it is not one."""
    path = Path(directory) / RESULT_FILE
    if not os.path.lexists(path) or path.is_dir():  # a link, a FIFO...: refused by the reader, saying what it is
        raise ValueError(
            f"{directory}: no {RESULT_FILE}; give the --out directory of a finished "
            "'simgin match', 'tournament', 'compare', 'sweep', 'tune' or 'tune-rules'"
        )
    fix = "rerun the command that wrote it, with the same --out, to write it again"
    data = files.read_json(path, fix)  # a DamagedFile (a ValueError) naming the file
    if not isinstance(data, dict):
        raise files.DamagedFile(path, f"{path} is damaged (a JSON {type(data).__name__}, not an object); {fix}")
    if data.get("kind") not in KINDS:
        raise files.DamagedFile(path, f"{path}: unknown result kind {data.get('kind')!r}")
    check_result(data, path, fix)
    return data


def check_result(data: dict[str, Any], path: Path, fix: str) -> None:
    """The fields of a result that a report reads have the types :func:`save_result` writes, else a
    :class:`~simgin.running.files.DamagedFile` naming the file and the field (issue 25, D6)."""
    if data["kind"] == "tune":
        files.check_fields(data, path, {"settings": dict, "history": list, "generations": list}, fix, "result")
        for index, row in enumerate(data["history"]):
            files.check_fields(row, path, {"phase": str, "score": (float, type(None))}, fix, f"history[{index}]")
        return
    if data["kind"] == "tune-rules":
        fields = {"objective": str, "players": list, "rules": dict, "start_rules": dict, "settings": dict}
        files.check_fields(data, path, fields | {"final": list, "trials": list}, fix, "result")
        return
    fields: dict[str, type | tuple[type, ...]] = {"config": dict, "players": list}
    fields |= {"overridden": dict} if "overridden" in data else {}
    fields |= {"cells": list, "grid": dict} if data["kind"] == "sweep" else {"pairings": list, "summary": list}
    files.check_fields(data, path, fields, fix, "result")
    if not all(isinstance(name, str) for name in data["players"]):
        raise files.DamagedFile(path, f"{path} is damaged ('players' holds a value that is not a name); {fix}")
    for cell_index, cell in enumerate(data["cells"] if data["kind"] == "sweep" else [data]):
        where = f"cells[{cell_index}]" if data["kind"] == "sweep" else "result"
        if where != "result":
            cell_fields = {"settings": dict, "pairings": list, "summary": list}
            optional = {"overridden": dict} if isinstance(cell, dict) and "overridden" in cell else {}
            files.check_fields(cell, path, cell_fields | optional, fix, where)
        for index, pairing in enumerate(cell["pairings"]):
            files.check_fields(pairing, path, {"tally": dict}, fix, f"pairing {index}")
            bad = [key for key, value in pairing["tally"].items() if not files.is_finite(value)]
            if bad:
                problem = f"tally field {bad[0]!r} is not a finite number"
                raise files.DamagedFile(path, f"{path} is damaged ({problem}); {fix}")
        for index, row in enumerate(cell["summary"]):
            files.check_fields(row, path, {}, fix, f"summary row {index}")

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
import re
from pathlib import Path
from typing import Any

from simgin.base import files
from simgin.base.strict_json import jsonable

RESULT_FILE = "result.json"
KINDS = ("match", "tournament", "compare", "sweep", "table-sweep", "tune", "tune-rules", "analysis")
#: The settings files that mark a simgin output directory: a run's (:mod:`simgin.running.runner`) or a
#: tune's (:mod:`simgin.studies.tune`).
SETTINGS_FILES = files.SETTINGS_FILES


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
    content = jsonable(data)
    content["check"] = files.checksum(content)  # issue 32 item 24: an edited result is told from a written one
    return files.write_file(out, RESULT_FILE, json.dumps(content, indent=1, allow_nan=False))


def load_result(directory: str | Path) -> dict[str, Any]:
    """Read ``result.json`` from a run directory, with a clear error if it is not one."""
    path = Path(directory) / RESULT_FILE
    if not os.path.lexists(path) or path.is_dir():  # a link, a FIFO...: refused by the reader, saying what it is
        raise ValueError(
            f"{directory}: no {RESULT_FILE}; give the --out directory of a finished "
            "'simgin match', 'tournament', 'compare', 'sweep', 'tune', 'tune-rules' or 'analyse'"
        )
    fix = "rerun the command that wrote it, with the same --out, to write it again"
    data = files.read_json(path, fix)  # a DamagedFile (a ValueError) naming the file
    if not isinstance(data, dict):
        raise files.DamagedFile(path, f"{path} is damaged (a JSON {type(data).__name__}, not an object); {fix}")
    if data.get("kind") not in KINDS:
        raise files.DamagedFile(path, f"{path}: unknown result kind {data.get('kind')!r}")
    check_result(data, path, fix)
    check_values(data, path, fix)
    return data


#: Summary fields that are shares of something, in [0, 1] (or null: not defined in the run).
_SHARES = re.compile(r".*(rate|rate_low|rate_high|_share|undercut_when_knocking)")
#: Summary and tally fields that count something: whole numbers, not negative.
_COUNTS = ("hands", "games", "hands_won", "games_won", "capped_hands", "capped_games")
_TALLY_COUNTS = ("hands", "games", "hands_won_a", "hands_won_b", "games_won_a", "games_won_b", "dead", "scored")


def check_values(data: dict[str, Any], path: Path, fix: str) -> None:
    """A result is believed only as written (issue 32 item 24): its checksum matches (``check``, as the
    chunks', :func:`simgin.base.files.checksum`: a win rate edited to 1.7 no longer matches), it holds no
    NaN or infinity (strict JSON is written), and its counts and shares are in range (win rates in [0, 1], no
    more wins than games, no negative counts). Else a :class:`~simgin.base.files.DamagedFile`, one line."""

    def damaged(problem: str) -> files.DamagedFile:
        return files.DamagedFile(path, f"{path} is damaged ({problem}); {fix}")

    if "check" not in data:
        raise damaged("it has no checksum: edited, or written by a simgin before issue 32")
    if data["check"] != files.checksum(data):
        raise damaged("edited? its content does not match its checksum")
    bad = _not_finite(data, "result")
    if bad:
        raise damaged(f"{bad} is not a finite number")
    cells = data.get("cells") if data["kind"] in ("sweep", "table-sweep") else [data]
    rows_key = "rows" if data["kind"] == "table-sweep" else "summary"
    for cell in cells if isinstance(cells, list) else []:
        for index, row in enumerate(cell.get(rows_key, []) if isinstance(cell, dict) else []):
            problem = _row_problem(row) if isinstance(row, dict) else None
            if problem:
                raise damaged(f"summary row {index}: {problem}")
        for index, pairing in enumerate(cell.get("pairings", []) if isinstance(cell, dict) else []):
            tally = pairing.get("tally") if isinstance(pairing, dict) else None
            problem = _tally_problem(tally) if isinstance(tally, dict) else None
            if problem:
                raise damaged(f"pairing {index}: {problem}")


def _not_finite(value: Any, where: str) -> str | None:
    """Where ``value`` holds a NaN or infinity (a float strict JSON cannot hold), or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return where
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        found = _not_finite(item, f"{where}[{key!r}]" if isinstance(key, str) else f"{where}[{key}]")
        if found:
            return found
    return None


def _count_problem(fields: dict[str, Any], names: tuple[str, ...]) -> str | None:
    for name in names:
        value = fields.get(name)
        if value is not None and (not files.is_number(value) or value < 0 or value != int(value)):
            return f"{name} {value!r} is not a count (a whole number, 0 or more)"
    return None


def _row_problem(row: dict[str, Any]) -> str | None:
    problem = _count_problem(row, _COUNTS)
    if problem:
        return problem
    for name, value in row.items():
        if _SHARES.fullmatch(name) and value is not None and not (files.is_number(value) and 0 <= value <= 1):
            return f"{name} {value!r} is not a share in [0, 1]"
    for won, played in (("hands_won", "hands"), ("games_won", "games")):
        if files.is_number(row.get(won)) and files.is_number(row.get(played)) and row[won] > row[played]:
            return f"{won} {row[won]!r} is more than {played} {row[played]!r}"
    return None


def _tally_problem(tally: dict[str, Any]) -> str | None:
    problem = _count_problem(tally, _TALLY_COUNTS)
    if problem:
        return problem
    for unit in ("hands", "games"):
        won = [tally.get(f"{unit}_won_{side}") for side in "ab"]
        if all(files.is_number(value) for value in [*won, tally.get(unit)]) and sum(won) > tally[unit]:
            return f"{unit}_won_a + {unit}_won_b ({sum(won)!r}) is more than {unit} {tally[unit]!r}"
    return None


def check_result(data: dict[str, Any], path: Path, fix: str) -> None:
    """The fields of a result that a report reads have the types :func:`save_result` writes, else a
    :class:`~simgin.base.files.DamagedFile` naming the file and the field (issue 25, D6)."""
    if data["kind"] == "tune":
        files.check_fields(data, path, {"settings": dict, "history": list, "generations": list}, fix, "result")
        for index, row in enumerate(data["history"]):
            files.check_fields(row, path, {"phase": str, "score": (float, type(None))}, fix, f"history[{index}]")
        return
    if data["kind"] == "analysis":
        fields = {"players": list, "costliest": list, "hands": int, "evaluator": dict, "duplicate": bool}
        files.check_fields(data, path, fields, fix, "result")
        for index, player in enumerate(data["players"]):
            files.check_fields(player, path, {"player": str, "by_kind": dict, "mean_loss_ci": list}, fix,
                               f"players[{index}]")  # fmt: skip
        return
    if data["kind"] == "tune-rules":
        fields = {"objective": str, "players": list, "rules": dict, "start_rules": dict, "settings": dict}
        files.check_fields(data, path, fields | {"final": list, "trials": list}, fix, "result")
        return
    if data["kind"] == "table-sweep":
        fields = {"table": str, "players": list, "grid": dict, "cells": list, "differences": list, "baseline": str}
        files.check_fields(data, path, fields | {"games": int, "seed": int, "unit": str}, fix, "result")
        for index, cell in enumerate(data["cells"]):
            files.check_fields(cell, path, {"label": str, "rows": list, "units": int}, fix, f"cells[{index}]")
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

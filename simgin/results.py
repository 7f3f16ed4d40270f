"""The result file every run command leaves in its ``--out`` directory: ``result.json``.

It is what ``simgin report`` reads. Its keys:

- ``kind``: ``"match"``, ``"tournament"``, ``"compare"``, ``"sweep"`` or ``"tune"``;
- ``simgin_version``, ``config`` (the run's settings, ``RunConfig.to_dict``; for a sweep the
  base settings) and ``players``;
- ``pairings``: one entry per pairing, ``{"a": name, "b": name, "tally": {field: sum}}``
  with the fields of :data:`simgin.tally.TALLY_FIELDS`, seen from ``a``;
- ``summary``: the rows of :func:`simgin.summary.summarize` (one per pairing and player);
- ``overridden``: the switches set but without effect in the run (``Rules.overridden``), with why;
- per kind: ``ratings`` and ``pairwise`` (tournament), ``sprt`` (compare), ``cells`` (sweep:
  one entry per grid cell with its ``settings``, its own ``pairings`` and ``summary``, its
  ``overridden`` and ``same_game_as``: the index of the earlier cell whose game it repeats).

A tune (``kind`` ``"tune"``) writes its own keys instead: those of its ``--json`` object
plus ``settings``, ``history``, ``generations``, ``final`` and ``difference``
(:meth:`simgin.tuning.TuneResult.result_data`).
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

RESULT_FILE = "result.json"
KINDS = ("match", "tournament", "compare", "sweep", "tune", "tune-rules")
#: The settings files that mark a simgin output directory: a run's (``simgin.runner``), a tune's (``simgin.tuning``)
#: or a tune-rules search's (``simgin.studies.tune_rules``).
SETTINGS_FILES = ("run.json", "tune.json", "tune-rules.json")


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
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(jsonable(data), indent=1, allow_nan=False))
    os.replace(partial, path)
    return path


def load_result(directory: str | Path) -> dict[str, Any]:
    """Read ``result.json`` from a run directory, with a clear error if it is not one."""
    path = Path(directory) / RESULT_FILE
    if not path.is_file():
        raise ValueError(
            f"{directory}: no {RESULT_FILE}; give the --out directory of a finished "
            "'simgin match', 'tournament', 'compare', 'sweep', 'tune' or 'tune-rules'"
        )
    fix = "rerun the command that wrote it, with the same --out, to write it again"
    try:
        data = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        reason = getattr(error, "msg", None) or "not text"
        raise ValueError(f"{path} is damaged (not JSON: {reason}); {fix}") from None
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror or error}") from None
    if not isinstance(data, dict):
        raise ValueError(f"{path} is damaged (a JSON {type(data).__name__}, not an object); {fix}")
    if data.get("kind") not in KINDS:
        raise ValueError(f"{path}: unknown result kind {data.get('kind')!r}")
    return data

"""A run's output directory: its settings file and one checked chunk record per finished chunk, written
atomically, so that rerunning the same command resumes and anything that does not belong is refused."""

from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from simgin.base import files, guard
from simgin.game.multiplayer import (
    table_unit_fields,
)
from simgin.running import hand_log as hand_log_format
from simgin.running.chunks import ChunkResult
from simgin.running.config import (
    Chunk,
    RunConfig,
    make_chunk,
)
from simgin.running.errors import RunError, log_notice
from simgin.running.tally import MAX_FORFEITS_KEPT, UNIT_SUM_MARKERS, Tally, unit_layout

SETTINGS_FILE = "run.json"
#: Version of the run directory's layout (``run.json`` and chunk records); another version is refused.
RUN_FORMAT = 2


class RunDirectory:
    """An output directory: ``run.json`` (the settings), ``chunks/*.json`` and ``hands/*.parquet``.

    Nothing in it is trusted without a check. A new directory must be empty (or not exist);
    an existing one must hold a readable ``run.json`` of this :data:`RUN_FORMAT` with the
    same settings, else it is refused. Each chunk record carries the digest of its run's
    settings (:meth:`RunConfig.digest`), the chunk itself (seed, index, pairing, cell), the
    format, the rows of its hand log, and a checksum of all that; a record that fails any
    check is refused with its file named. A chunk whose hand log is missing or short is
    played again. Every file is read and written by :mod:`simgin.base.files`: never through a link
    planted in the directory, and never outside it.
    """

    def __init__(
        self,
        path: Path,
        configs: Sequence[RunConfig],
        hand_log: bool,
        kind: str = "run",
        notice: Callable[[str], None] | None = None,
        unit_records: bool = False,
    ) -> None:
        self.path = Path(path)
        self.unit_records = unit_records
        self.units: dict[str, np.ndarray] = {}
        """Unit records of the chunks read back (with ``unit_records``), by chunk key."""
        self.configs = list(configs)
        self.digests = [config.digest() for config in self.configs]
        # A run that stopped on an illegal move resumes under --on-illegal forfeit: every chunk it
        # finished had no illegal move, so it is the same chunk under either setting (not the reverse).
        self.stopped_digests = [dataclasses.replace(config, on_illegal="stop").digest() for config in self.configs]
        self.hand_log = hand_log
        self.notice = notice or log_notice
        self.tally_type = self.configs[0].tally_type()
        settings = {
            "format": RUN_FORMAT,
            "kind": kind,
            "runs": [config.to_dict() for config in self.configs],
            "hand_log": hand_log,
        }
        settings_path = self.path / SETTINGS_FILE
        try:
            if os.path.lexists(settings_path):
                self._check_settings(_read_json(settings_path, _REFUSED), settings)
            else:
                self._check_new()
                files.write_file(self.path, SETTINGS_FILE, json.dumps(settings, indent=2, sort_keys=True))
            files.make_directory(self.path, "chunks")
            for folder in ("hands", "stderr"):  # refused at once if a link; made only when a run writes into it
                if (folder == "hands" and hand_log) or os.path.lexists(self.path / folder):
                    files.make_directory(self.path, folder)
        except files.UnsafePath as error:
            raise RunError(str(error)) from None
        except OSError as error:
            raise RunError(f"cannot use {self.path} as the output directory: {_os_problem(error)}") from None

    def _check_settings(self, recorded: Any, settings: dict[str, Any]) -> None:
        where = self.path / SETTINGS_FILE
        if not isinstance(recorded, dict):
            raise RunError(f"{where} is damaged (not a JSON object); {_REFUSED}")
        if not {"kind", "runs"} <= recorded.keys() or not isinstance(recorded.get("runs"), list):
            # Every simgin version's run.json names its kind and its runs: unrelated JSON is not "another version"
            # (issue 32 item 26).
            raise RunError(f"{where} is not a simgin run record (it has no 'kind' and 'runs'); {_REFUSED}")
        if recorded.get("format") != RUN_FORMAT:
            raise RunError(
                f"{where} was written by another simgin version (run directory format "
                f"{recorded.get('format', 1)}, this one uses {RUN_FORMAT}); use a fresh --out directory"
            )
        if recorded != settings and self._resumes_stopped_run(recorded, settings):
            self.notice(f"{self.path} holds a run with --on-illegal stop: resuming its chunks with forfeit")
            files.write_file(self.path, SETTINGS_FILE, json.dumps(settings, indent=2, sort_keys=True))
            return
        if recorded != settings:
            raise RunError(
                f"{self.path} holds a run with other settings ({_difference(recorded, settings)}); "
                "use another --out directory or rerun with the recorded settings"
            )

    @staticmethod
    def _resumes_stopped_run(recorded: dict[str, Any], settings: dict[str, Any]) -> bool:
        """Whether ``settings`` (under ``--on-illegal forfeit``) are ``recorded`` (``stop``) but for that."""
        runs = settings.get("runs", [])
        if not runs or any(run.get("on_illegal") != "forfeit" for run in runs):
            return False
        stopped = [{key: value for key, value in run.items() if key != "on_illegal"} for run in runs]
        return recorded == settings | {"runs": stopped}

    def _check_new(self) -> None:
        """A directory without ``run.json`` is used only if it is empty: it may be another run whose settings
        are lost (never resumed on trust), or not simgin's at all (never written into)."""
        problem = files.new_directory_problem(self.path, SETTINGS_FILE)
        if problem:
            raise RunError(problem)

    def finished(self) -> dict[str, Tally]:
        """Tallies of the chunks already written and checked, by chunk key (files of other keys are ignored)."""
        done = {}
        for file in sorted((self.path / "chunks").glob("*.json")):
            chunk = self._planned(file.stem)
            if chunk is None:
                continue
            tally = self._load(file, chunk)
            if tally is not None:
                done[file.stem] = tally
        return done

    def _planned(self, key: str) -> Chunk | None:
        """The chunk of this run that has file name ``key``, if there is one."""
        match = re.fullmatch(r"s(\d+)-p(\d+)-c(\d+)", key)
        if match is None:
            return None
        cell, pairing, index = (int(group) for group in match.groups())
        if cell >= len(self.configs):
            return None
        config = self.configs[cell]
        if pairing >= len(config.pairings) or index >= config.chunk_count:
            return None
        chunk = make_chunk(config, pairing, index, cell)
        return chunk if chunk.key == key else None

    def _load(self, file: Path, chunk: Chunk) -> Tally | None:
        """The checked tally of a chunk file, None when its hand log must be written again, or a RunError."""
        fix = "delete it to recompute that chunk, or use a fresh --out directory"
        record = _read_json(file, fix)
        if not isinstance(record, dict):
            raise RunError(f"{file} is damaged (not a JSON object); {fix}")
        if "format" not in record:
            older = {"chunk", "tally"} <= record.keys()
            what = "was written by an older simgin version" if older else "is damaged (not a chunk record)"
            raise RunError(f"{file} {what}; {fix}")
        if record["format"] != RUN_FORMAT:
            raise RunError(f"{file} was written by another simgin version (format {record['format']}); {fix}")
        if record.get("check") != _checksum(record):
            raise RunError(f"{file} is damaged (its content does not match its checksum); {fix}")
        if record.get("settings") not in (self.digests[chunk.cell_index], self.stopped_digests[chunk.cell_index]):
            raise RunError(f"{file} belongs to a run with other settings; {fix}")
        if record.get("chunk") != asdict(chunk):
            raise RunError(f"{file} belongs to another chunk or seed ({record.get('chunk')}); {fix}")
        counts = record.get("tally")
        if not isinstance(counts, dict) or not all(files.is_finite(v) for v in counts.values()):
            raise RunError(f"{file} is damaged (its tally is not an object of finite numbers); {fix}")
        if self.tally_type is Tally and not all(marker in counts for marker in UNIT_SUM_MARKERS):
            # Written before the per-unit sums of the seat edge, the undercut rates or the net points (2026-12):
            # beside newer chunks it would mislead.
            self.notice(f"{file} has no per-unit sums for its intervals; playing chunk {chunk.key} again")
            return None
        try:
            tally = self.tally_type.from_dict(counts)
            if "forfeits" in record:
                tally.forfeits = _checked_forfeits(record["forfeits"])
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise RunError(f"{file} is damaged (bad tally: {guard.describe(error)}); {fix}") from None
        if self.hand_log:
            problem = hand_log_format.problem(self.path / "hands" / f"{chunk.key}.parquet", record.get("hand_log_rows"))
            if problem:
                self.notice(f"{problem}; playing chunk {chunk.key} again")
                return None
        if self.unit_records:
            if "units" not in record:
                self.notice(f"{file} has no unit records; playing chunk {chunk.key} again")
                return None
            config = self.configs[chunk.cell_index]
            width, dtype = (
                unit_layout(config.adjust_luck)
                if config.table == "pairs"
                else (len(table_unit_fields(config.table)), np.int64)
            )
            rows = record["units"]
            if isinstance(rows, list) and rows and isinstance(rows[0], list) and len(rows[0]) != width:
                # Written by a version whose unit records had other fields (adjust_luck added three in 2026-12).
                self.notice(f"{file} has unit records of another layout; playing chunk {chunk.key} again")
                return None
            try:
                units = np.array(rows, dtype=dtype).reshape(chunk.unit_count, width)
            except (TypeError, ValueError, OverflowError) as error:
                raise RunError(f"{file} is damaged (bad unit records: {guard.describe(error)}); {fix}") from None
            self.units[chunk.key] = units
        return tally

    def save(self, result: ChunkResult) -> None:
        """Write a finished chunk atomically: the hand log first, then the record that marks it done."""
        chunk = result.chunk
        record: dict[str, Any] = {
            "format": RUN_FORMAT,
            "settings": self.digests[chunk.cell_index],
            "chunk": asdict(chunk),
            "players": [
                self.configs[chunk.cell_index].players[i]
                for i in self.configs[chunk.cell_index].pairings[chunk.pairing_index]
            ],
            "seconds": result.seconds,
            "tally": result.tally.to_dict(),
        }
        if getattr(result.tally, "forfeits", None):
            record["forfeits"] = result.tally.forfeits
        if result.units is not None:
            record["units"] = result.units.tolist()
        try:
            if self.hand_log and result.hand_log is not None:
                files.write_file(
                    self.path, f"hands/{chunk.key}.parquet", files.frame_writer(result.hand_log, "parquet")
                )
                record["hand_log_rows"] = len(result.hand_log)
            record["check"] = _checksum(record)
            files.write_file(self.path, f"chunks/{chunk.key}.json", json.dumps(record))
        except files.UnsafePath as error:
            raise RunError(str(error)) from None
        except OSError as error:
            raise RunError(f"cannot write chunk {chunk.key} into {self.path}: {_os_problem(error)}") from None


def _checked_forfeits(value: Any) -> list[dict[str, Any]]:
    """A chunk record's forfeit list (dicts, at most :data:`MAX_FORFEITS_KEPT`), or a TypeError."""
    if not isinstance(value, list) or len(value) > MAX_FORFEITS_KEPT or not all(isinstance(x, dict) for x in value):
        raise TypeError(f"forfeits must be a list of at most {MAX_FORFEITS_KEPT} records")
    return value


_REFUSED = (
    "the directory's settings cannot be established, so nothing in it is resumed: "
    "use a fresh --out directory (or delete this one)"
)


def _read_json(path: Path, fix: str) -> Any:
    """The JSON in ``path`` read by the checked reader (:func:`~simgin.base.files.read_json`), or a RunError that
    names the file, says what is wrong and what to do (``fix``)."""
    try:
        return files.read_json(path, fix)
    except files.DamagedFile as error:
        raise RunError(str(error)) from None


#: SHA-256 of a chunk record without its ``check`` field.
_checksum = files.checksum


def _os_problem(error: OSError) -> str:
    """An OSError on one line: ``'Permission denied: /sys/x'``."""
    reason = error.strerror or type(error).__name__
    return f"{reason}: {error.filename}" if error.filename else reason


def _difference(recorded: dict[str, Any], settings: dict[str, Any]) -> str:
    """The settings that differ, each with the recorded value next to the new one, e.g.
    ``'seed: recorded 1, now 2; hands: recorded 400, now 800'`` (issue 25)."""
    changed = setting_differences(
        {key: recorded.get(key) for key in ("kind", "hand_log")}, {key: settings[key] for key in ("kind", "hand_log")}
    )
    old_runs, new_runs = recorded.get("runs", []), settings["runs"]
    # A run's settings leave on_illegal out when it is "stop" (so older directories keep their digest): name it.
    if isinstance(old_runs, list):
        old_runs = [
            run | {"on_illegal": run.get("on_illegal", "stop")} if isinstance(run, dict) else run for run in old_runs
        ]
    new_runs = [run | {"on_illegal": run.get("on_illegal", "stop")} for run in new_runs]
    if not isinstance(old_runs, list) or not all(isinstance(old, dict) for old in old_runs):
        changed.append("runs: the recorded settings are damaged")
    elif len(old_runs) != len(new_runs):
        count = len(old_runs) if isinstance(old_runs, list) else "?"
        changed.append(f"number of runs: recorded {count}, now {len(new_runs)}")
    else:  # a difference of every cell (a sweep's seed) is named once, one of some cells with the cell
        cells = [setting_differences(old, new) for old, new in zip(old_runs, new_runs, strict=True)]
        common = [line for line in cells[0] if all(line in lines for lines in cells)] if cells else []
        changed += common
        for index, lines in enumerate(cells):
            changed += [f" of cell {index}: ".join(line.split(": ", 1)) for line in lines if line not in common]
    return show_differences(changed)


def setting_differences(recorded: Any, wanted: Any, path: str = "") -> list[str]:
    """``'NAME: recorded OLD, now NEW'`` for each setting that differs, nested settings named
    with dots after the plain ones (``'seed: recorded 1, now 2; rules.gin_bonus: recorded 25, now 30'``);
    values as JSON."""
    if isinstance(recorded, dict) and isinstance(wanted, dict):
        lines: list[str] = []
        keys = [*wanted, *(key for key in recorded if key not in wanted)]
        for key in sorted(keys, key=lambda key: isinstance(wanted.get(key), dict)):  # plain values first
            name = f"{path}.{key}" if path else str(key)
            lines += setting_differences(recorded.get(key, _MISSING), wanted.get(key, _MISSING), name)
        return lines
    if recorded == wanted:
        return []
    return [f"{path or 'settings'}: recorded {_shown_setting(recorded)}, now {_shown_setting(wanted)}"]


def show_differences(lines: list[str], most: int = 6) -> str:
    """At most ``most`` differences joined with ``'; '``, then how many more there are."""
    if not lines:
        return "unknown"
    more = f"; and {len(lines) - most} more" if len(lines) > most else ""
    return "; ".join(lines[:most]) + more


_MISSING = object()


def _shown_setting(value: Any) -> str:
    if value is _MISSING:
        return "nothing"
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 60 else text[:57] + "..."

"""Link-safe writing and checked reading of the files in a run directory.

A run, tune or report directory may have been received from someone else, so nothing in it
is trusted (README, "Failures and resuming"; issue 25, D1-D6, D15, D16):

- **writing** (:func:`write_file`, :func:`make_directory`): every file simgin writes goes
  through one writer. It walks from the directory the user named down to the file one
  component at a time, opening each subdirectory with ``O_NOFOLLOW`` relative to its
  parent, so a subdirectory that is a link (``report_files -> /elsewhere``, ``chunks ->
  ~``) is refused with one line, and nothing is ever written outside the named directory.
  The content goes to a temporary file of an unpredictable name, created with
  ``O_CREAT | O_EXCL | O_NOFOLLOW`` (so a planted link in its place is never followed),
  which then replaces the target with ``rename(2)``: a target that is itself a link is
  replaced, never written through, and a reader never sees half a file.
- **reading** (:func:`read_json`): every record read back (``run.json``, ``result.json``,
  chunk records, ``tune.json``, tune evaluations) is read by one reader that takes only a
  regular file of bounded size, parses strict UTF-8 JSON without recursing without limit
  and bounds its nesting (:data:`MAX_DEPTH`), and turns any damage into one
  :class:`DamagedFile` line that names the file and what to do. Callers then check the
  fields they use (:func:`check_fields`) and the record's :func:`checksum`.
- **new output directories** (:func:`new_directory_problem`): the one rule every command
  with ``--out`` applies before writing into a directory that holds no settings file of its
  own: it must be new or empty, never another command's output nor somebody else's files.

POSIX only, as simgin is: it needs ``O_NOFOLLOW`` and the ``dir_fd`` arguments of :mod:`os`.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import itertools
import json
import math
import os
import secrets
import stat
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

#: Largest record read back: a sweep's result.json of thousands of cells stays far below it.
MAX_RECORD_BYTES = 256 * 2**20
#: Deepest nesting of lists and objects accepted in a record (simgin's own records nest at most about 8 deep).
MAX_DEPTH = 64
#: Entries that mark simgin output in a directory: the settings files, the result and their folders.
SETTINGS_FILES = ("run.json", "tune.json", "tune-rules.json", "analysis.json")
OUTPUT_ENTRIES = (
    "run.json", "tune.json", "result.json", "chunks", "hands", "evaluations", "stderr", "sweep.csv", "parts",
    "decisions.parquet",
)  # fmt: skip

_DIRECTORY_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
_CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


class UnsafePath(ValueError):
    """A write that would leave the directory named or go through a link planted in it: refused, one line."""


class DamagedFile(ValueError):
    """A record that cannot be believed (unreadable, not JSON, too deep, wrong fields): one line naming ``path``."""

    def __init__(self, path: str | Path, message: str) -> None:
        super().__init__(message)
        self.path = Path(path)


# -- writing ------------------------------------------------------------------------------------


def _parts(relative: str | Path) -> list[str]:
    """The components of a relative path inside a directory; anything that could climb out is a ValueError."""
    parts = Path(relative).parts
    if not parts or Path(relative).is_absolute() or any(part in ("", ".", "..") for part in parts):
        raise ValueError(f"{relative!s}: not a plain path inside the directory")
    return list(parts)


def _link_problem(root: Path, name: str, where: Path, parent_fd: int) -> UnsafePath:
    """The one-line refusal for ``where`` (entry ``name`` of ``parent_fd``), a link or not a directory."""
    try:
        info = os.lstat(name, dir_fd=parent_fd)
    except OSError:
        info = None
    if info is not None and stat.S_ISLNK(info.st_mode):
        try:
            target = os.readlink(name, dir_fd=parent_fd)
        except OSError:
            target = "?"
        return UnsafePath(
            f"{where} is a link (to {target}): simgin never writes through a link inside the directory it "
            f"writes to ({root}); remove the link or use another directory"
        )
    return UnsafePath(f"{where} is not a directory: cannot write into it")


def _open_directory(root: Path, parts: Sequence[str], create: bool) -> int:
    """A descriptor of ``root/parts``, each part opened without following links (and made if ``create``)."""
    root.mkdir(parents=True, exist_ok=True)
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | getattr(os, "O_CLOEXEC", 0))
    where = root
    try:
        for name in parts:
            where = where / name
            if create:
                with contextlib.suppress(FileExistsError):
                    os.mkdir(name, dir_fd=fd)
            try:
                child = os.open(name, _DIRECTORY_FLAGS, dir_fd=fd)
            except OSError as error:
                if not isinstance(error, NotADirectoryError) and error.errno != errno.ELOOP:
                    raise
                raise _link_problem(root, name, where, fd) from None
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


def refuse_links(root: str | Path, relative: str | Path) -> None:
    """Raise :class:`UnsafePath` now if an existing folder on the way from ``root`` to ``root/relative`` (that one
    included) is a link, as :func:`write_file` would later: a check before long work, which writes nothing."""
    root = Path(root)
    where = root
    for name in _parts(relative):
        where = where / name
        if where.is_symlink():
            raise UnsafePath(
                f"{where} is a link (to {os.readlink(where)}): simgin never writes through a link inside the "
                f"directory it writes to ({root}); remove the link or use another directory"
            )
        if not where.is_dir():
            return


def make_directory(root: str | Path, relative: str | Path) -> Path:
    """Make ``root/relative`` (and the folders above it, up to ``root``), refusing any that is a link.

    ``root`` is the directory the user named: it may itself be reached through links, but
    nothing below it is. Returns the path of the directory.
    """
    root = Path(root)
    os.close(_open_directory(root, _parts(relative), create=True))
    return root.joinpath(relative)


def write_file(root: str | Path, relative: str | Path, content: bytes | str | Callable[[IO[bytes]], None]) -> Path:
    """Write ``root/relative`` atomically, without following any link below ``root``; returns its path.

    ``content`` is bytes, text (written as UTF-8), or a function that writes into the open
    binary file it is given (parquet, CSV or figure writers). Folders between ``root`` and
    the file are made as needed. A link at the target is replaced by the file, never written
    through; a folder below ``root`` that is a link is refused (:class:`UnsafePath`).
    OSErrors (a full disk, a directory in the file's place) propagate with the target's path
    as their file name, and leave no temporary file behind.
    """
    root = Path(root)
    *folders, name = _parts(relative)
    try:
        _write(root, folders, name, content)
    except OSError as error:
        if error.filename is not None and Path(str(error.filename)).name.startswith(name + "."):
            raise OSError(error.errno, error.strerror, str(root.joinpath(relative))) from None
        raise
    return root.joinpath(relative)


def _write(root: Path, folders: Sequence[str], name: str, content: Any) -> None:
    """:func:`write_file`'s work: the temporary file in the folder opened link-safely, then the rename."""
    directory_fd = _open_directory(root, folders, create=True)
    try:
        temporary = f"{name}.{secrets.token_hex(6)}.partial"
        fd = os.open(temporary, _CREATE_FLAGS, 0o666, dir_fd=directory_fd)
        try:
            with os.fdopen(fd, "wb") as handle:
                if isinstance(content, str):
                    handle.write(content.encode("utf-8"))
                elif isinstance(content, bytes | bytearray | memoryview):
                    handle.write(content)
                else:
                    content(handle)
            _refuse_special_target(root, folders, name, directory_fd)
            os.replace(temporary, name, src_dir_fd=directory_fd, dst_dir_fd=directory_fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=directory_fd)
            raise
    finally:
        os.close(directory_fd)


def _refuse_special_target(root: Path, folders: Sequence[str], name: str, directory_fd: int) -> None:
    """Raise :class:`UnsafePath` when ``name`` exists and is neither a regular file nor a link: the rename would
    replace a device, a FIFO or a socket (``/dev/null`` as root) with a file (issue 32 item 22)."""
    try:
        mode = os.stat(name, dir_fd=directory_fd, follow_symlinks=False).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISREG(mode) or stat.S_ISLNK(mode) or stat.S_ISDIR(mode):
        return  # a directory makes the rename fail with its own OSError
    raise UnsafePath(
        f"{root.joinpath(*folders, name)} exists and is not a regular file; simgin replaces only a regular file "
        "or writes a new one: give another path"
    )


def inside(path: str | Path, directory: str | Path) -> Path | None:
    """``path`` relative to ``directory`` when it lies inside it (compared as absolute, normalised paths), else None."""
    absolute = Path(os.path.normpath(os.path.abspath(path)))
    base = Path(os.path.normpath(os.path.abspath(directory)))
    try:
        relative = absolute.relative_to(base)
    except ValueError:
        return None
    return relative if relative.parts else None


# -- new output directories ----------------------------------------------------------------------


def new_directory_problem(path: str | Path, settings_file: str) -> str | None:
    """Why ``path``, which holds no ``settings_file``, may not become a new output directory, or None.

    The rule of every ``--out``: a directory that does not exist, or an empty one, is used;
    one with simgin output but not this command's settings file is another run whose settings
    are lost or another command's output (never resumed on trust, never mixed); one with
    anything else is not simgin's at all (never written into).
    """
    path = Path(path)
    if not path.exists():
        return None
    if not path.is_dir():
        return f"--out {path} is a file, not a directory"
    entries = sorted(entry.name for entry in itertools.islice(path.iterdir(), 50))
    if not entries:
        return None
    others = [name for name in SETTINGS_FILES if name != settings_file and name in entries]
    if others:
        return (
            f"{path} holds the output of another simgin command ({others[0]}); "
            "give this one its own --out directory (a new or empty one)"
        )
    ours = [name for name in entries if name in OUTPUT_ENTRIES or name.startswith(settings_file)]
    if ours:
        return (
            f"{path} has simgin output ({', '.join(ours)}) but no {settings_file}: its settings cannot be "
            "established, so nothing in it is resumed; use a fresh --out directory (or delete this one)"
        )
    return (
        f"{path} is not empty and not a simgin run directory (no {settings_file}); give a new or empty --out directory"
    )


# -- reading ------------------------------------------------------------------------------------


def _depth(value: Any) -> int:
    """Deepest nesting of lists and dicts in ``value``, found without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            if level > MAX_DEPTH:
                return level
            stack.extend((child, level + 1) for child in item)
    return deepest


def read_bytes(path: str | Path, fix: str, limit: int = MAX_RECORD_BYTES) -> bytes:
    """The content of the regular file ``path`` (at most ``limit`` bytes), or a :class:`DamagedFile` line.

    A FIFO, a device (``/dev/zero``) or a directory in a record's place is refused at once,
    never waited on or read without end; so is a link (records are read, as they are written,
    never through a link planted in the directory).
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        if error.errno == errno.ELOOP:
            try:
                target = os.readlink(path)
            except OSError:
                target = "?"
            raise DamagedFile(
                path, f"{path} is a link (to {target}): records are not read through links; {fix}"
            ) from None
        raise DamagedFile(path, f"cannot read {path}: {error.strerror or type(error).__name__}") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise DamagedFile(path, f"{path} is damaged (not a regular file); {fix}")
        if info.st_size > limit:
            raise DamagedFile(path, f"{path} is damaged (larger than {limit // 2**20} MB); {fix}")
        try:
            data = handle.read(limit + 1)
        except OSError as error:
            raise DamagedFile(path, f"cannot read {path}: {error.strerror or type(error).__name__}") from None
    if len(data) > limit:
        raise DamagedFile(path, f"{path} is damaged (larger than {limit // 2**20} MB); {fix}")
    return data


def read_json(path: str | Path, fix: str) -> Any:
    """The JSON value in ``path``, or a :class:`DamagedFile` whose one line names the file, what is wrong and ``fix``.

    Empty files, bytes that are not UTF-8, JSON errors, numbers too long to convert and
    nesting deeper than :data:`MAX_DEPTH` (which would otherwise end in a RecursionError,
    here or in whatever walks the value later) are all damage.
    """
    data = read_bytes(path, fix)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise DamagedFile(path, f"{path} is damaged (not text); {fix}") from None
    if not text.strip():
        raise DamagedFile(path, f"{path} is damaged (empty); {fix}")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        what = f"not JSON: {error.msg}, line {error.lineno} column {error.colno}"
        raise DamagedFile(path, f"{path} is damaged ({what}); {fix}") from None
    except RecursionError:
        raise DamagedFile(path, f"{path} is damaged (nested deeper than {MAX_DEPTH} levels); {fix}") from None
    except ValueError as error:  # e.g. an integer of more than 4300 digits
        reason = str(error).split(":")[0]
        raise DamagedFile(path, f"{path} is damaged (not JSON simgin writes: {reason}); {fix}") from None
    if _depth(value) > MAX_DEPTH:
        raise DamagedFile(path, f"{path} is damaged (nested deeper than {MAX_DEPTH} levels); {fix}")
    return value


def _type_name(kinds: type | tuple[type, ...]) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true or false", int: "an integer"}
    names |= {float: "a number", type(None): "null"}
    kinds = kinds if isinstance(kinds, tuple) else (kinds,)
    return " or ".join(dict.fromkeys(names.get(kind, kind.__name__) for kind in kinds))


def is_number(value: Any) -> bool:
    """A JSON number as simgin writes them: a float, or an int of at most 64 bits (not a bool); an integer of
    hundreds of digits would overflow where it is used as a float."""
    if isinstance(value, bool):
        return False
    return isinstance(value, float) or (isinstance(value, int) and abs(value) <= 2**64)


def is_finite(value: Any) -> bool:
    """:func:`is_number`, and neither NaN nor infinite."""
    return is_number(value) and math.isfinite(value)


def check_fields(
    record: Any, path: str | Path, fields: Mapping[str, type | tuple[type, ...]], fix: str, what: str = "record"
) -> dict[str, Any]:
    """``record`` if it is an object whose ``fields`` have the types given, else a :class:`DamagedFile` naming the
    first field that is missing or of another type. ``float`` admits integers; ``int`` and ``float`` never admit
    booleans (JSON ``true`` is not a count)."""
    if not isinstance(record, dict):
        raise DamagedFile(path, f"{path} is damaged (a JSON {_json_type(record)}, not a {what} object); {fix}")
    for name, kinds in fields.items():
        if name not in record:
            raise DamagedFile(path, f"{path} is damaged (no {name!r} field); {fix}")
        value = record[name]
        allowed = kinds if isinstance(kinds, tuple) else (kinds,)
        if float in allowed:
            allowed = (*allowed, int)
        good = isinstance(value, allowed) and not (isinstance(value, bool) and bool not in allowed)
        if good and isinstance(value, int) and not is_number(value) and not isinstance(value, bool):
            raise DamagedFile(path, f"{path} is damaged ({name!r} is a number larger than 64 bits); {fix}")
        if not good:
            raise DamagedFile(
                path, f"{path} is damaged ({name!r} is a {_json_type(value)}, not {_type_name(kinds)}); {fix}"
            )
    return record


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    return {dict: "object", list: "list", str: "string", int: "number", float: "number"}.get(type(value), "null")


def checksum(record: Mapping[str, Any]) -> str:
    """SHA-256 of a record without its ``check`` field (the keys sorted): written into the record as ``check``, so
    that a record edited by hand, or damaged, no longer matches it."""
    content = {key: value for key, value in record.items() if key != "check"}
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


def frame_writer(frame: Any, fmt: str) -> Callable[[IO[bytes]], None]:
    """A :func:`write_file` content function writing a pandas DataFrame as ``'csv'`` or ``'parquet'`` (no index)."""

    def write(handle: IO[bytes]) -> None:
        if fmt == "parquet":
            frame.to_parquet(handle, index=False)
        else:
            text = io.TextIOWrapper(handle, encoding="utf-8", newline="")
            frame.to_csv(text, index=False)
            text.flush()
            text.detach()

    return write


__all__ = [
    "DamagedFile",
    "UnsafePath",
    "check_fields",
    "checksum",
    "frame_writer",
    "inside",
    "is_finite",
    "is_number",
    "make_directory",
    "new_directory_problem",
    "read_bytes",
    "read_json",
    "refuse_links",
    "write_file",
]

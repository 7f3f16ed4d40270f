"""All numba code of simgin, and nothing else: plain arrays and ints in, plain arrays and ints out.

Hands are int64 masks with bit ``card`` set (cards 0-51, so bit 63 is never used).

Numba's on-disk cache (``cache=True``) checks only the source file of the cached function
itself, yet a kernel compiles the kernels it calls into itself (``engine.play_hand``
holds the bots of ``bots.py``, ``heuristic.py``, ``mcts.py``, ...). So that an edit of any
kernel file invalidates every cached kernel, the cache stamp of the functions in this
package is a hash of all its source files (:class:`KernelSourcesStamp`, registered below
before any kernel is defined).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import pickle
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numba
import numpy as np
from numba import typeof
from numba.core import caching, types

KERNELS_DIR = Path(__file__).resolve().parent


@functools.lru_cache(maxsize=8)
def _sources_hash(stamps: tuple[tuple[str, int, int], ...]) -> bytes:
    digest = hashlib.sha256()
    for name, _, _ in stamps:
        digest.update(name.encode())
        digest.update((KERNELS_DIR / name).read_bytes())
    return digest.digest()


def sources_stamp() -> bytes:
    """A hash of every ``.py`` file of this package (recomputed when a file's time or size changes)."""
    stamps = []
    for path in sorted(KERNELS_DIR.glob("*.py")):
        stat = path.stat()
        stamps.append((path.name, stat.st_mtime_ns, stat.st_size))
    return _sources_hash(tuple(stamps))


class KernelSourcesStamp:
    """Locator mix-in: stamp a kernel's cache with all kernel sources, and serve only this package."""

    def get_source_stamp(self) -> bytes:
        return sources_stamp()

    @classmethod
    def from_function(cls, py_func, py_file):  # type: ignore[no-untyped-def]
        if Path(py_file).resolve().parent != KERNELS_DIR:
            return None
        return super().from_function(py_func, py_file)  # type: ignore[misc]


class _UserDirLocator(KernelSourcesStamp, caching.UserProvidedCacheLocator):
    """``NUMBA_CACHE_DIR`` set: cache there."""


class _InTreeLocator(KernelSourcesStamp, caching.InTreeCacheLocator):
    """Otherwise: the package's ``__pycache__``."""


class _UserWideLocator(KernelSourcesStamp, caching.UserWideCacheLocator):
    """The package's folder not writable (an installed copy): numba's cache folder in the user's home."""


for _locator in (_UserWideLocator, _InTreeLocator, _UserDirLocator):
    if _locator not in caching.CacheImpl._locator_classes:
        caching.CacheImpl._locator_classes.insert(0, _locator)


def specialized(dispatcher, kinds: int, *args):  # type: ignore[no-untyped-def]
    """``dispatcher`` compiled for ``kinds`` (a mask of bot ids, ``kernels.bots``) as a compile-time
    constant and for the types of ``args``: a callable taking ``(kinds, *args)``.

    Each entry point that plays bots takes ``kinds`` first and passes it down to the bots'
    dispatch functions, which compile the bots in the mask and no other (``kernels.bots``).
    The specialisation is loaded from numba's on-disk cache when it is there and compiled
    (and cached) otherwise, once per process.
    """
    argtypes = tuple(typeof(arg) for arg in args)
    key = (dispatcher, kinds, argtypes)
    entry = _SPECIALIZED.get(key)
    if entry is None:
        entry = dispatcher.compile((types.literal(kinds), *argtypes))
        _SPECIALIZED[key] = entry
    return entry


_SPECIALIZED: dict = {}


def run_kernel(dispatcher, kinds: int, *args, rows: tuple = ()) -> None:  # type: ignore[no-untyped-def]
    """Call ``dispatcher(kinds, *args)`` through its specialisation for ``kinds`` (:func:`specialized`),
    the batch split over threads by :func:`run_rows`."""
    kernel = specialized(dispatcher, kinds, *args)
    run_rows(functools.partial(kernel, kinds), args, rows)


#: Fewest rows (hands or games) per thread: below this a batch runs in one thread.
ROWS_PER_THREAD = 64


def run_rows(kernel, args: tuple, rows: tuple = ()) -> None:  # type: ignore[no-untyped-def]
    """Run ``kernel(*args)``, a batch kernel compiled with ``nogil=True`` whose arguments ``rows``
    (given again, as the same objects) are arrays with one row per hand or game, each row
    written by its own iteration only: cut into ``numba.get_num_threads()`` slices of rows,
    run in threads at once.

    The batch kernels are serial loops, not numba ``prange`` loops: the processes of the
    runner are its parallelism, and compiling a ``prange`` loop costs seconds for each set of
    bots (issue 15). Slices of C-contiguous arrays are C-contiguous, so every slice runs the
    same compiled code, and the rows are those of one call.
    """
    per_row = {id(array) for array in rows}
    count = len(rows[0]) if rows else 0
    threads = min(numba.get_num_threads(), count // ROWS_PER_THREAD)
    if threads <= 1:
        kernel(*args)
        return
    bounds = np.linspace(0, count, threads + 1).astype(np.int64)
    parts = [[arg[low:high] if id(arg) in per_row else arg for arg in args] for low, high in itertools.pairwise(bounds)]
    with ThreadPoolExecutor(max_workers=threads) as pool:
        for done in [pool.submit(kernel, *part) for part in parts]:
            done.result()


def is_cached(dispatcher, kinds: int | None = None) -> bool:  # type: ignore[no-untyped-def]
    """Whether numba's on-disk cache holds ``dispatcher`` compiled from today's kernel sources
    (with ``kinds``: specialised for that mask of bots, see :func:`specialized`).

    Reads the cache index the way numba does (a stale stamp counts as no cache). This uses
    numba's private cache objects; if they ever change, the answer is True, so that nobody
    is told about a compilation that may not happen.
    """
    try:
        load_index = dispatcher._cache._cache_file._load_index
    except AttributeError:
        return True
    try:
        index = load_index()
    except (OSError, EOFError, ValueError, pickle.UnpicklingError):
        return False  # an unreadable index: numba compiles anew
    if kinds is None:
        return bool(index)
    wanted = types.literal(kinds)
    try:
        return any(key[0][0] == wanted for key in index)
    except (TypeError, IndexError):
        return True

"""All numba code of simgin, and nothing else: plain arrays and ints in, plain arrays and ints out.

Hands are int64 masks with bit ``card`` set (cards 0-51, so bit 63 is never used).

Numba's on-disk cache (``cache=True``) checks only the source file of the cached function
itself, yet a kernel compiles the kernels it calls into itself (``engine.play_hand`` holds
the built-in bots of ``bots.py``, the melds and showdown kernels, ...). So that an edit of
any kernel file invalidates every cached kernel, the cache stamp of the functions in this
package is a hash of all its source files (:class:`KernelSourcesStamp`, registered below
before any kernel is defined).

What compiles when (docs/ENGINE.md, "How the kernels compile"): one hand loop for every
pairing, with the built-in bots inside; the searching bots' ``decide`` functions passed in
as first-class functions (``kernels.bots``), each compiled only when its bot plays. Entry
points are called through :func:`run_kernel`, which types those arguments and splits a
batch over threads (:func:`run_rows`).
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
from numba.core.registry import CPUDispatcher as Dispatcher

KERNELS_DIR = Path(__file__).resolve().parent


@functools.lru_cache(maxsize=8)
def _sources_hash(stamps: tuple[tuple[str, int, int], ...]) -> bytes:
    digest = hashlib.sha256()
    for name, _, _ in stamps:
        digest.update(name.encode())
        digest.update((KERNELS_DIR / name).read_bytes())
    return digest.digest()


def sources_stamp() -> bytes:
    """A hash of every ``.py`` file of this package and of its data files (``.json``: the discard network's
    weights, compiled in as constants), recomputed when a file's time or size changes."""
    stamps = []
    for path in sorted([*KERNELS_DIR.glob("*.py"), *KERNELS_DIR.glob("*.json")]):
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


def _argument_type(argument):  # type: ignore[no-untyped-def]
    """numba's type of a kernel argument; a tuple of bots' ``decide`` functions is a tuple of ``POLICY``."""
    if isinstance(argument, tuple) and argument and all(isinstance(item, Dispatcher) for item in argument):
        from simgin.kernels.bots import POLICY

        return types.UniTuple(POLICY, len(argument))
    return typeof(argument)


def compiled_for(dispatcher, *args):  # type: ignore[no-untyped-def]
    """``dispatcher`` compiled for the types of ``args`` (from numba's cache when it is there).

    The bots' ``decide`` functions among the arguments are typed as first-class functions
    (``kernels.bots.POLICY``), not as the functions themselves: numba would otherwise compile
    the kernel once for every bot passed, and could not cache it.
    """
    argtypes = tuple(_argument_type(argument) for argument in args)
    key = (dispatcher, argtypes)
    entry = _COMPILED.get(key)
    if entry is None:
        entry = _COMPILED[key] = dispatcher.compile(argtypes)
    return entry


_COMPILED: dict = {}


def run_kernel(dispatcher, *args, rows: tuple = ()) -> None:  # type: ignore[no-untyped-def]
    """Call ``dispatcher(*args)`` compiled by :func:`compiled_for`; with ``rows``, split by :func:`run_rows`."""
    run_rows(compiled_for(dispatcher, *args), args, rows)


#: Fewest rows (hands or games) per thread: below this a batch runs in one thread.
ROWS_PER_THREAD = 64


def run_rows(kernel, args: tuple, rows: tuple = ()) -> None:  # type: ignore[no-untyped-def]
    """Run ``kernel(*args)``, a batch kernel compiled with ``nogil=True`` whose arguments ``rows``
    (given again, as the same objects) are arrays with one row per game, each row written by
    its own iteration only: cut into ``numba.get_num_threads()`` slices of rows, run in
    threads at once.

    Every batch kernel (two-player hands and games, three-player and partnership games) is a
    serial loop run so, not a numba ``prange`` loop: a ``prange`` loop costs 2-6 seconds more
    to compile for each (issues 15 and 25), paid on every first run, for hands about 5%
    faster. Slices of C-contiguous arrays are C-contiguous, so every slice runs the same
    compiled code, and the rows are those of one call.
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


def is_cached(dispatcher) -> bool:  # type: ignore[no-untyped-def]
    """Whether numba's on-disk cache holds ``dispatcher`` compiled from today's kernel sources.

    Reads the cache index the way numba does (a stale stamp counts as no cache). This uses
    numba's private cache objects; if they ever change, the answer is True, so that nobody
    is told about a compilation that may not happen.
    """
    try:
        load_index = dispatcher._cache._cache_file._load_index
    except AttributeError:
        return True
    try:
        return bool(load_index())
    except (OSError, EOFError, ValueError, pickle.UnpicklingError):
        return False  # an unreadable index: numba compiles anew

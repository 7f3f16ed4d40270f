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
import pickle
from pathlib import Path

from numba.core import caching

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

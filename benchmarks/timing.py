"""Timing that notices other processes: the machinery shared by the benchmark scripts.

A timed run during which other processes used more than ``QUIET_CORES`` (plus two clock
ticks of measuring slack) counts as disturbed; the scripts redo such a run, up to
``REDO_LIMIT`` times per measurement, so that on a shared machine the figures come from
runs that had the cores to themselves.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
QUIET_CORES = 0.25
REDO_LIMIT = 5


def cpu_seconds() -> tuple[float, float]:
    """(busy CPU seconds of the whole machine from /proc/stat, CPU seconds of this process)."""
    try:
        with open("/proc/stat") as stat:
            ticks = [int(value) for value in stat.readline().split()[1:9]]
    except OSError:
        return 0.0, time.process_time()
    idle = ticks[3] + ticks[4]  # idle, iowait; the rest (steal included) is CPU we did not get
    return (sum(ticks) - idle) / CLOCK_TICKS, time.process_time()


def timed_run(call: Callable[[], object]) -> tuple[float, float]:
    """(wall-clock seconds of one call, CPU seconds other processes used meanwhile)."""
    busy, own = cpu_seconds()
    start = time.perf_counter()
    call()
    seconds = time.perf_counter() - start
    busy_after, own_after = cpu_seconds()
    return seconds, max(0.0, (busy_after - busy) - (own_after - own))


def contended(seconds: float, other: float) -> bool:
    """Whether a run of ``seconds`` during which other processes used ``other`` CPU seconds was disturbed."""
    return other > QUIET_CORES * seconds + 2 / CLOCK_TICKS

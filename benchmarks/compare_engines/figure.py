"""The figure ``benchmarks/compare.png`` (and ``.svg``): speed, cost against hands, memory."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numba
import numpy as np

from benchmarks.compare_engines.scaling import linear_fit

# -- the figure --------------------------------------------------------------------------------


def build_figure(summary: Sequence[dict[str, Any]], scaling: Sequence[dict[str, Any]]) -> Any:
    """Speed by engine (log scale), cost against hands (log-log, with the fitted line), peak memory."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(15, 4.6), layout="constrained")
    speed, cost, memory = figure.subplots(1, 3)
    engines = [
        ("simgin_1", "simgin, 1 core", "#1f77b4"),
        ("simgin_all", f"simgin, {numba.config.NUMBA_NUM_THREADS} cores", "#aec7e8"),
        ("openspiel", "OpenSpiel, 1 core", "#ff7f0e"),
        ("rlcard", "RLCard, 1 core", "#2ca02c"),
    ]
    short = {
        "random vs random hands": "hands,\nrandom vs random",
        "simple bot vs simple bot hands": "hands,\nsimple vs simple",
        "10-card minimum-deadwood evaluations": "10-card\nmin deadwood",
        "11-card best-discard evaluations": "11-card\nbest discard",
    }
    labels = [short.get(row["measure"], row["measure"]) for row in summary]
    width = 0.8 / len(engines)
    for offset, (key, label, color) in enumerate(engines):
        values = [row[key] for row in summary]
        positions = [i + (offset - (len(engines) - 1) / 2) * width for i in range(len(summary))]
        speed.bar(positions, [v if not math.isnan(v) else 0 for v in values], width, label=label, color=color)
    speed.set_yscale("log")
    speed.set_xticks(range(len(summary)), labels, fontsize=8)
    speed.set_ylabel("per second (log scale)")
    speed.set_title("Speed, same machine, same run")
    speed.legend(fontsize=7)
    for workers, color in ((1, "#1f77b4"), (2, "#d62728")):
        points = [row for row in scaling if row["workers"] == workers]
        x = np.array([row["hands"] for row in points], dtype=float)
        cost.loglog(
            x,
            [row["seconds"] for row in points],
            "o",
            color=color,
            label=f"{workers} worker{'s' if workers > 1 else ''}, measured",
        )
        fixed, rate, _ = linear_fit(scaling, workers)
        if not math.isnan(rate):
            line = np.geomspace(x.min(), x.max(), 50)
            fit = f"{fixed:.1f} s + hands / {rate:,.0f}"
            cost.loglog(line, fixed + line / rate, "-", color=color, alpha=0.6, label=fit)
        label = "1 worker" if workers == 1 else f"{workers} workers (a run of one chunk starts one process)"
        memory.semilogx(x, [row["peak_tree_mb"] for row in points], "o-", color=color, label=label)
    cost.set_xlabel("hands (simgin match simple simple)")
    cost.set_ylabel("wall-clock seconds")
    cost.set_title("Cost grows linearly with the hands")
    cost.legend(fontsize=7)
    memory.set_xlabel("hands")
    memory.set_ylabel("peak resident memory, process tree (MB)")
    memory.set_ylim(bottom=0)
    memory.set_title("Memory stays flat")
    memory.legend(fontsize=7)
    return figure

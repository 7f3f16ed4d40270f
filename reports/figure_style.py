"""The report's look, shared by every figure: the scoped matplotlib style, the palette and outcome colours, and
the number formats and small helpers that captions and charts use.

Every figure is built with :class:`matplotlib.figure.Figure` (never pyplot's global state) inside
:func:`report_style`, a scoped ``rc_context`` that is restored afterwards (:func:`styled` wraps a figure function in
it).

>>> percent(0.6124), percent_interval(0.598, 0.626)
('61.2%', '(59.8-62.6%)')
>>> signed(49.056), number_interval(-1.2, 0.91, signed=True)
('+49.1', '(-1.2 to +0.9)')
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import matplotlib
import numpy as np
import pandas as pd
from cycler import cycler
from matplotlib.axes import Axes

from simgin.game.showdown import OUTCOMES
from simgin.statistics.formats import finite as finite, percent as percent, percent_interval as percent_interval

F = TypeVar("F", bound=Callable[..., Any])

#: Okabe-Ito colours: distinguishable with the common forms of colour blindness.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000")
OUTCOME_LABELS = {"knock": "knock", "gin": "gin", "big_gin": "big gin", "undercut": "undercut", "dead": "dead hand"}
OUTCOME_COLORS = {"knock": "#0072B2", "gin": "#009E73", "big_gin": "#56B4E9", "undercut": "#D55E00", "dead": "#999999"}
POINTS_SWITCHES = frozenset(
    {
        "knock_limit",
        "gin_bonus",
        "undercut_bonus",
        "box_bonus",
        "game_bonus",
        "shutout_bonus",
        "target",
        "big_gin_bonus",
    }
)
DEADWOOD_BINS = 11
MIN_BIN_KNOCKS = 20  # a caption names the deadwood with the most undercuts only among bins with this many knocks
WIDTH = 9.0  # inches: about 860 px in a page at 96 px per inch

#: The report's matplotlib settings, applied only inside :func:`report_style`.
STYLE: dict[str, Any] = {
    "font.family": "DejaVu Sans",
    "font.size": 10.0,
    "axes.titlesize": 11.0,
    "axes.titleweight": "bold",
    "axes.labelsize": 10.0,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.axisbelow": True,
    "axes.prop_cycle": cycler(color=list(PALETTE)),
    "grid.alpha": 0.35,
    "grid.linewidth": 0.6,
    "legend.frameon": False,
    "legend.fontsize": 9.0,
    "figure.titlesize": 12.0,
    "figure.titleweight": "bold",
    "figure.dpi": 100,
    "savefig.dpi": 150,
    "savefig.facecolor": "white",
    "svg.fonttype": "path",  # text as outlines: the SVG looks the same without the font installed
    "svg.hashsalt": "simgin-report",  # stable ids, so the same result gives the same SVG
}


@contextlib.contextmanager
def report_style() -> Iterator[None]:
    """Apply :data:`STYLE` for the duration of a ``with`` block; matplotlib's settings are restored after."""
    with matplotlib.rc_context(STYLE):
        yield


def styled(function: F) -> F:
    """Run a figure function inside :func:`report_style`."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with report_style():
            return function(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


# -- number formats for captions --------------------------------------------------------


def signed(value: float, digits: int = 1) -> str:
    """A number with its sign: ``+49.1``, ``-0.2``."""
    return f"{value:+.{digits}f}" if finite(value) else "n/a"


def number_interval(low: float, high: float, digits: int = 1, signed: bool = False) -> str:
    """An interval of numbers: ``(48.5 to 49.6)``; with ``signed=True`` ``(+48.5 to +49.6)``."""
    if not (finite(low) and finite(high)):
        return ""
    spec = f"+.{digits}f" if signed else f".{digits}f"
    return f"({low:{spec}} to {high:{spec}})"


def count(value: float) -> str:
    """A whole count with thousands separators: ``3985`` -> ``'3,985'``."""
    return f"{value:,.0f}" if finite(value) else "n/a"


def join_phrases(phrases: Sequence[str]) -> str:
    """``['a', 'b', 'c']`` -> ``'a, b and c'``."""
    phrases = [p for p in phrases if p]
    if len(phrases) <= 1:
        return "".join(phrases)
    return ", ".join(phrases[:-1]) + " and " + phrases[-1]


def wilson(wins: Any, n: Any) -> tuple[np.ndarray, np.ndarray]:
    """Wilson 95% intervals (arrays) for ``wins`` of ``n``; NaN where ``n`` is 0."""
    from simgin.statistics.stats import wilson_interval

    wins = np.asarray(wins, dtype=float)
    n = np.asarray(n, dtype=float)
    low, high = wilson_interval(np.minimum(wins, n), n)
    low = np.where(n > 0, low, np.nan)
    high = np.where(n > 0, high, np.nan)
    return np.atleast_1d(low), np.atleast_1d(high)


def ratios(numerator: Any, denominator: Any) -> np.ndarray:
    numerator = np.asarray(numerator, dtype=float)
    denominator = np.asarray(denominator, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, numerator / denominator, np.nan)


def ordered(values: Sequence[Any]) -> list[Any]:
    """Distinct values in order of first appearance."""
    return list(dict.fromkeys(values))


def no_grid(ax: Axes) -> None:
    ax.grid(False)
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(False)


def shown_outcomes(table: pd.DataFrame) -> list[str]:
    """The outcomes that happened in ``table``'s hands, in the project's order."""
    return [name for name in OUTCOMES if name in table and float(table[name].sum()) > 0]


def stacked_outcomes(ax: Axes, table: pd.DataFrame, labels: Sequence[str]) -> None:
    """Horizontal 100% bars of the outcome shares, one per row of ``table``, first row at the top."""
    y = np.arange(len(table))[::-1]
    left = np.zeros(len(table))
    hands = table["hands"].to_numpy(float)
    for outcome in shown_outcomes(table):
        share = 100 * ratios(table[outcome].to_numpy(float), hands)
        share = np.nan_to_num(share)
        bars = ax.barh(y, share, left=left, color=OUTCOME_COLORS[outcome], label=OUTCOME_LABELS[outcome], height=0.7)
        for bar, value in zip(bars, share, strict=True):
            if value >= 7:
                ax.text(
                    bar.get_x() + bar.get_width() / 2,
                    bar.get_y() + bar.get_height() / 2,
                    f"{value:.1f}%",
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="white" if outcome != "dead" else "black",
                )
        left += share
    ax.set_yticks(y, labels=list(labels))
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of hands (%)")
    ax.grid(axis="y", visible=False)

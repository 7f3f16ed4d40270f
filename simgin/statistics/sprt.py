"""The settings of the sequential test of A against B on duplicate game pairs (docs/STATISTICS.md §1, §6).

Games are played in batches of duplicate pairs (each game seed twice, seats swapped), in
seed order; after each batch the pentanomial GSPRT updates its log-likelihood ratio and the
test stops as soon as it accepts H0 (``elo <= elo0``) or H1 (``elo >= elo1``), or at
``max_games``. The playing is :func:`simgin.running.matches.run_sprt` (``running/``); here are
the hypotheses and error rates, their parsing, and the pair counts the test reads.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from simgin.statistics.stats import GIN_PAIR_SUPPORT, PENTANOMIAL_SUPPORT

MODELS = ("logistic", "normalized")


@dataclass(frozen=True)
class SprtSettings:
    """The hypotheses and error rates: H0 says the Elo difference is ``elo0``, H1 ``elo1``; or, with ``points0``
    and ``points1`` (hands only), that A's net points per hand are ``points0``, or ``points1``."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    model: Literal["logistic", "normalized"] = "logistic"
    max_games: int = 20_000
    batch_pairs: int = 25
    max_hands: int | None = None
    """Play duplicate *hand* pairs, at most this many hands, instead of games (each hand scores 1, 1/2 when dead,
    0): the Elo is then that of a hand, not of a game. Luck-adjusted tests (``adjust_luck``) play hands."""

    points0: float | None = None
    points1: float | None = None

    @property
    def on_points(self) -> bool:
        """Whether the hypotheses are in net points per hand (``points0``, ``points1``) rather than Elo."""
        return self.points0 is not None

    def __post_init__(self) -> None:
        if (self.points0 is None) != (self.points1 is None):
            raise ValueError("give both points0 and points1 (net points per hand), e.g. points0=0,points1=1")
        points = (self.points0, self.points1)
        if None not in points and not (all(map(math.isfinite, points)) and self.points0 < self.points1):  # type: ignore[operator]
            raise ValueError(f"points0={self.points0}, points1={self.points1}: need finite points0 < points1")
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0={self.elo0}, elo1={self.elo1}: need elo0 < elo1")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise ValueError(f"{name}={value}: must be between 0 and 0.5")
        if self.model not in MODELS:
            raise ValueError(f"model={self.model!r}: choose from {', '.join(MODELS)}")
        if self.max_games < 2 or self.max_games % 2:
            raise ValueError(f"max_games={self.max_games}: must be an even number >= 2 (games come in pairs)")
        if self.batch_pairs < 1:
            raise ValueError(f"batch_pairs={self.batch_pairs}: must be at least 1")
        if self.max_hands is not None and (self.max_hands < 2 or self.max_hands % 2):
            raise ValueError(f"max_hands={self.max_hands}: must be an even number >= 2 (hands come in pairs)")


def parse_numbers(text: str, allowed: Sequence[str], usage: str, unit: str = "") -> dict[str, float]:
    """``'key=NUMBER,...'`` of an ``--sprt`` option as a dict, each key one of ``allowed``; a bad item (``usage``
    says what is expected), a repeated key or a value that is not a finite number is a ValueError naming
    ``--sprt``, the key and the value (issue 32 item 27). ``unit`` names what the numbers are, in the message."""
    values: dict[str, float] = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or key not in allowed:
            raise ValueError(f"--sprt {text!r}: bad item {item!r}; {usage}")
        if key in values:
            raise ValueError(f"--sprt {text!r}: {key} is given twice; give each key once")
        try:
            number = float(value)
        except ValueError:
            raise ValueError(f"--sprt {text!r}: {key}={value.strip()!r} is not a number") from None
        if not math.isfinite(number):
            raise ValueError(f"--sprt {text!r}: {key}={value.strip()} must be a finite number{unit}")
        values[key] = number
    return values


def parse_sprt(text: str) -> dict[str, float]:
    """Parse ``'elo0=0,elo1=10'`` into ``{'elo0': 0.0, 'elo1': 10.0}`` (or ``'points0=0,points1=1'``, net points
    per hand); a bad, repeated or non-finite value is a ValueError naming ``--sprt``, the key and the value (issue
    32 item 27)."""
    values = parse_numbers(
        text,
        ("elo0", "elo1", "points0", "points1"),
        "expected elo0=NUMBER,elo1=NUMBER (or points0=,points1= in net points per hand)",
        " of Elo (or net points per hand), e.g. elo1=10",
    )
    if set(values) not in ({"points0", "points1"}, {"elo0", "elo1"}):
        raise ValueError(
            f"--sprt {text!r}: give both elo0 and elo1, e.g. elo0=0,elo1=10, or both points0 and points1 (net "
            "points per hand), e.g. points0=0,points1=1"
        )
    low, high = ("points0", "points1") if "points0" in values else ("elo0", "elo1")
    if not values[low] < values[high]:
        example = f"{low}=0,{high}={1 if low == 'points0' else 10}"
        raise ValueError(f"--sprt {text!r}: {low} must be below {high} (H0 below H1), e.g. {example}")
    return values


def pair_counts(t: Mapping[str, float]) -> tuple[np.ndarray, tuple[float, ...]]:
    """Pair counts and their support, from a pairing's tally (``pair_score_0`` ... ``pair_score_4``): [LL, split,
    WW] on (0, .5, 1), or all five quarter-scores when a pair had a drawn (capped) game."""
    counts = np.array([t[f"pair_score_{k}"] for k in range(5)])
    if counts[1] == 0 and counts[3] == 0:
        return counts[[0, 2, 4]], GIN_PAIR_SUPPORT
    return counts, PENTANOMIAL_SUPPORT

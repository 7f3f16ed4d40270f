"""The settings of the sequential test of A against B on duplicate game pairs (docs/STATISTICS.md §1, §6).

Games are played in batches of duplicate pairs (each game seed twice, seats swapped), in
seed order; after each batch the pentanomial GSPRT updates its log-likelihood ratio and the
test stops as soon as it accepts H0 (``elo <= elo0``) or H1 (``elo >= elo1``), or at
``max_games``. The playing is :func:`simgin.running.matches.run_sprt` (``running/``); here are
the hypotheses and error rates, their parsing, and the pair counts the test reads.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

import numpy as np

from simgin.statistics.stats import GIN_PAIR_SUPPORT, PENTANOMIAL_SUPPORT

MODELS = ("logistic", "normalized")


@dataclass(frozen=True)
class SprtSettings:
    """The hypotheses and error rates: H0 says the Elo difference is ``elo0``, H1 ``elo1``."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    model: Literal["logistic", "normalized"] = "logistic"
    max_games: int = 20_000
    batch_pairs: int = 25

    def __post_init__(self) -> None:
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


def parse_sprt(text: str) -> dict[str, float]:
    """Parse ``'elo0=0,elo1=10'`` into ``{'elo0': 0.0, 'elo1': 10.0}``; a bad, repeated or non-finite value is a
    ValueError naming ``--sprt``, the key and the value (issue 32 item 27)."""
    values: dict[str, float] = {}
    for item in text.split(","):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or key not in ("elo0", "elo1"):
            raise ValueError(f"bad --sprt item {item!r}: expected elo0=NUMBER,elo1=NUMBER")
        if key in values:
            raise ValueError(f"--sprt {text!r}: {key} is given twice; give each of elo0 and elo1 once")
        try:
            number = float(value)
        except ValueError:
            raise ValueError(f"bad --sprt value {value!r} for {key}: expected a number") from None
        if not math.isfinite(number):
            raise ValueError(f"--sprt {text!r}: {key}={value.strip()} must be a finite number of Elo, e.g. elo1=10")
        values[key] = number
    if set(values) != {"elo0", "elo1"}:
        raise ValueError(f"--sprt {text!r}: give both elo0 and elo1, e.g. elo0=0,elo1=10")
    return values


def pair_counts(t: Mapping[str, float]) -> tuple[np.ndarray, tuple[float, ...]]:
    """Pair counts and their support, from a pairing's tally (``pair_score_0`` ... ``pair_score_4``): [LL, split,
    WW] on (0, .5, 1), or all five quarter-scores when a pair had a drawn (capped) game."""
    counts = np.array([t[f"pair_score_{k}"] for k in range(5)])
    if counts[1] == 0 and counts[3] == 0:
        return counts[[0, 2, 4]], GIN_PAIR_SUPPORT
    return counts, PENTANOMIAL_SUPPORT

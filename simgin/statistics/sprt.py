"""A sequential probability ratio test of A against B on duplicate game pairs (docs/STATISTICS.md §1, §6).

Games are played in batches of duplicate pairs (each game seed twice, seats swapped), in
seed order; after each batch the pentanomial GSPRT updates its log-likelihood ratio and the
test stops as soon as it accepts H0 (``elo <= elo0``) or H1 (``elo >= elo1``), or at
``max_games``. Batches are consumed in order, so the stopping point and every number
reported are the same on any number of workers and on either backend.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from simgin.game.rules import Rules
from simgin.running import runner
from simgin.running.tally import Tally
from simgin.statistics.stats import GIN_PAIR_SUPPORT, PENTANOMIAL_SUPPORT, pentanomial_elo, sprt

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


def pair_counts(t: Tally) -> tuple[np.ndarray, tuple[float, ...]]:
    """Pair counts and their support: [LL, split, WW] on (0, .5, 1), or all five quarter-scores when a
    pair had a drawn (capped) game."""
    counts = np.array([t[f"pair_score_{k}"] for k in range(5)])
    if counts[1] == 0 and counts[3] == 0:
        return counts[[0, 2, 4]], GIN_PAIR_SUPPORT
    return counts, PENTANOMIAL_SUPPORT


def run_sprt(
    a: str,
    b: str,
    settings: SprtSettings,
    rules: Rules | None = None,
    seed: int = 0,
    on_illegal: str = "stop",
    **options: Any,
) -> tuple[runner.RunResult, dict[str, Any]]:
    """Play duplicate game pairs of ``a`` vs ``b`` until the SPRT decides; ``options`` go to ``run_cells``.

    ``on_illegal='forfeit'`` makes an illegal move lose its game (a lost game in the pair
    counts); the summary's ``forfeits`` counts them by player, ``forfeited`` lists them.
    """
    config = runner.RunConfig(
        (a, b),
        rules or Rules(),
        games=settings.max_games,
        seed=seed,
        duplicate=True,
        chunk_units=settings.batch_pairs,
        on_illegal=on_illegal,
    )
    trajectory: list[dict[str, float]] = []
    state: dict[str, Any] = {"decision": "max games"}

    def check(cell: int, chunk: runner.Chunk, tallies: list[list[Tally]]) -> bool:
        counts, support = pair_counts(tallies[0][0])
        test = sprt(counts, support, settings.elo0, settings.elo1, settings.alpha, settings.beta, settings.model)
        state.update(llr=test.llr, lower=test.lower, upper=test.upper)
        trajectory.append({"games": int(2 * counts.sum()), "llr": test.llr})
        if test.decision != "continue":
            state["decision"] = test.decision
            return True
        return False

    result = runner.run_cells([config], stop=check, kind="compare", **options)[0]
    counts, support = pair_counts(result.tallies[0])
    elo = pentanomial_elo(counts, support)
    summary = {
        "model": settings.model,
        "elo0": settings.elo0,
        "elo1": settings.elo1,
        "alpha": settings.alpha,
        "beta": settings.beta,
        "max_games": settings.max_games,
        "decision": state["decision"],
        "accepted": {"H0": f"elo <= {settings.elo0:g}", "H1": f"elo >= {settings.elo1:g}"}.get(state["decision"]),
        "games": int(2 * counts.sum()),
        "pairs": int(counts.sum()),
        "llr": state.get("llr"),
        "lower": state.get("lower"),
        "upper": state.get("upper"),
        "elo": elo.elo,
        "elo_low": elo.elo - elo.error,
        "elo_high": elo.elo + elo.error,
        "los": elo.los,
        "counts": [int(count) for count in counts],
        "forfeits": [int(result.tallies[0]["forfeits_a"]), int(result.tallies[0]["forfeits_b"])],
        "forfeited": list(result.tallies[0].forfeits),
        "support": list(support),
        "trajectory": trajectory,
    }
    return result, summary

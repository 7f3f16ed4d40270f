"""Ratings and pairwise claims for a tournament (STATISTICS.md §2, §4).

Bradley-Terry ratings on the Elo scale, fitted by MM, with a cluster bootstrap over deal
pairs (the duplicate pair is the unit); pairwise pair scores with p-values adjusted by
Holm and intervals widened for the number of comparisons.

The bootstrap resamples pairs within each pairing. Every pairing plays the same deals, so
results of different pairings are positively correlated; resampling them independently
treats them as independent, which makes the rating intervals somewhat conservative for
differences between bots that met the same opponents.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from simgin.stats import bootstrap_ratings, corrected_confidence, holm, two_sided_p_value, z_value
from simgin.tally import Tally

if TYPE_CHECKING:
    from simgin.runner import RunResult

DEFAULT_ANCHOR = "simple"


def unit_outcomes(t: Tally, duplicate: bool, mode: str) -> tuple[np.ndarray, np.ndarray, int]:
    """(points of A per unit, how many units scored so, games per unit) for one pairing.

    A unit is a duplicate pair (2 games, A scoring 0, 0.5, 1, 1.5 or 2) or, without
    duplicate deals, one game or hand (A scoring 0, 0.5 for a draw or dead hand, or 1).
    """
    if duplicate:
        return np.arange(5) / 2, np.array([t[f"pair_score_{k}"] for k in range(5)]), 2
    if mode == "games":
        won, lost = t["games_won_a"], t["games_won_b"]
        total = t["games"]
    else:
        won, lost = t["hands_won_a"], t["hands_won_b"]
        total = t["hands"]
    return np.array([0.0, 0.5, 1.0]), np.array([lost, total - won - lost, won]), 1


def tournament_analysis(
    result: RunResult, anchor: str | None = DEFAULT_ANCHOR, reps: int = 1000, seed: int = 0, confidence: float = 0.95
) -> dict[str, Any]:
    """Ratings with bootstrap intervals and rank intervals, the LOS matrix, and Holm-adjusted pairwise claims."""
    config = result.config
    players = list(config.players)
    rows = []
    pairwise = []
    games_per_unit = 1
    scored = np.zeros(len(players))
    played = np.zeros(len(players))
    for (i, j), t in zip(config.pairings, result.tallies, strict=True):
        points, counts, games_per_unit = unit_outcomes(t, config.duplicate, config.mode)
        for value, count in zip(points, counts, strict=True):
            rows.extend([(i, j, value)] * int(count))
        n = counts.sum()
        scored[i] += (points * counts).sum()
        scored[j] += games_per_unit * n - (points * counts).sum()
        played[i] += games_per_unit * n
        played[j] += games_per_unit * n
        score = float((points * counts).sum() / (games_per_unit * n)) if n else math.nan
        variance = float((((points / games_per_unit) - score) ** 2 * counts).sum() / n) if n else math.nan
        error = math.sqrt(variance / n) if n > 1 else math.nan
        z = (score - 0.5) / error if error and error > 0 else 0.0
        pairwise.append(
            {"a": players[i], "b": players[j], "units": int(n), "score": score, "se": error, "p": two_sided_p_value(z)}
        )
    comparisons = len(pairwise)
    adjusted = holm([row["p"] for row in pairwise]) if pairwise else []
    wide = z_value(corrected_confidence(confidence, max(comparisons, 1)))
    for row, p_holm in zip(pairwise, adjusted, strict=True):
        row["p_holm"] = float(p_holm)
        row["confidence"] = corrected_confidence(confidence, comparisons)
        row["low"] = row["score"] - wide * row["se"]
        row["high"] = row["score"] + wide * row["se"]
        row["significant"] = bool(p_holm < 1 - confidence)
    anchor_index = players.index(anchor) if anchor in players else None
    boot = bootstrap_ratings(
        np.array(rows, dtype=np.float64),
        len(players),
        games_per_pair=games_per_unit,
        reps=reps,
        seed=seed,
        anchor=anchor_index,
        confidence=confidence,
    )
    ratings = [
        {
            "player": name,
            "rating": float(boot.ratings[k]),
            "low": float(boot.low[k]),
            "high": float(boot.high[k]),
            "rank_low": int(boot.rank_low[k]),
            "rank_high": int(boot.rank_high[k]),
            "sweep": _sweep(scored[k], played[k], config.mode[:-1]),
        }
        for k, name in enumerate(players)
    ]
    return {
        "anchor": players[anchor_index] if anchor_index is not None else None,
        "ratings": ratings,
        "los": boot.los.tolist(),
        "pairwise": pairwise,
        "bootstrap": {"reps": reps, "seed": seed, "unit": "deal pair" if config.duplicate else config.mode[:-1]},
    }


def _sweep(scored: float, played: float, unit: str) -> str | None:
    """``'won every game'`` or ``'lost every game'`` (or hand) when a player did, else None.

    Such a player's rating is not estimated by the data: the fit is pulled to a finite value
    only by the prior draw between every two players, and every bootstrap replicate repeats
    the sweep, so the interval collapses onto that value. It is a bound, to be read as such.
    """
    if played > 0 and scored == played:
        return f"won every {unit}"
    if played > 0 and scored == 0:
        return f"lost every {unit}"
    return None

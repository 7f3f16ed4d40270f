"""A finished round robin's ratings and pairwise claims (docs/STATISTICS.md §2, §4, §7).

Bradley-Terry ratings on the Elo scale, fitted by MM, with a cluster bootstrap over deal
pairs (the duplicate pair is the unit); pairwise pair scores with p-values adjusted by
Holm and intervals widened for the number of comparisons.

Every pairing plays the same deals, so the results of different pairings are correlated deal by
deal. When the run kept its unit records (``RunResult.units``: tournaments and sweeps do), the
bootstrap resamples whole deals, the same deals in every pairing; otherwise it resamples the
deal pairs within each pairing, which treats the pairings as independent and makes the
intervals too narrow when they are not (issue 32 item 10), and the result says which it did.

This module reads runs (``running/``, docs/ARCHITECTURE.md); the statistics it uses are pure
(:mod:`simgin.statistics.stats`, :mod:`simgin.statistics.ratings`, whose names it also offers, so that the old
path ``simgin.ratings`` keeps every name it had).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from simgin.running.tally import UNIT_INDEX, Tally
from simgin.statistics.ratings import DEFAULT_ANCHOR, bootstrap_label, rating_notes
from simgin.statistics.stats import (
    bootstrap_ratings,
    corrected_confidence,
    holm,
    rating_spread,
    score_test,
    wilson_interval,
    z_value,
)

if TYPE_CHECKING:
    from simgin.running.runner import RunResult

__all__ = [
    "DEFAULT_ANCHOR",
    "bootstrap_label",
    "rating_notes",
    "tournament_analysis",
    "unit_outcomes",
    "unit_scores",
]


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


def unit_scores(records: np.ndarray, mode: str) -> np.ndarray:
    """A's points per unit from unit records (:data:`simgin.running.tally.UNIT_FIELDS`): the games (or hands) it
    won plus half of those nobody won (an undecided game, a dead hand), as :func:`unit_outcomes` counts them."""
    prefix = "games" if mode == "games" else "hands"
    played = records[:, UNIT_INDEX[prefix]].astype(float)
    won = records[:, UNIT_INDEX[f"{prefix}_won_a"]].astype(float)
    lost = records[:, UNIT_INDEX[f"{prefix}_won_b"]].astype(float)
    return won + 0.5 * (played - won - lost)


def tournament_analysis(
    result: RunResult, anchor: str | None = DEFAULT_ANCHOR, reps: int = 1000, seed: int = 0, confidence: float = 0.95
) -> dict[str, Any]:
    """Ratings with bootstrap intervals and rank intervals, the LOS matrix, Holm-adjusted pairwise claims,
    and the skill spread (best minus worst rating, with its bootstrap interval:
    :func:`~simgin.statistics.stats.rating_spread`). With the run's unit records the bootstrap resamples
    whole deals across every pairing (docs/STATISTICS.md §2); ``bootstrap.joint`` says whether it did."""
    config = result.config
    players = list(config.players)
    rows = []
    joint = result.units is not None and len(config.pairings) > 1
    deals: list[np.ndarray] = []
    pairwise = []
    games_per_unit = 1
    scored = np.zeros(len(players))
    played = np.zeros(len(players))
    for (i, j), t in zip(config.pairings, result.tallies, strict=True):
        points, counts, games_per_unit = unit_outcomes(t, config.duplicate, config.mode)
        if joint:
            scores = unit_scores(result.units[len(deals)], config.mode)
            rows.extend((i, j, value) for value in scores.tolist())
            deals.append(np.arange(scores.size))
        else:
            for value, count in zip(points, counts, strict=True):
                rows.extend([(i, j, value)] * int(count))
        n = counts.sum()
        scored[i] += (points * counts).sum()
        scored[j] += games_per_unit * n - (points * counts).sum()
        played[i] += games_per_unit * n
        played[j] += games_per_unit * n
        test = score_test(points / games_per_unit, counts)
        pairwise.append(
            {
                "a": players[i],
                "b": players[j],
                "units": int(n),
                "score": test.score,
                "se": test.se,
                "p": test.p,
                "test": test.method,
            }
        )
    comparisons = len(pairwise)
    adjusted = holm([row["p"] for row in pairwise]) if pairwise else []
    wide = z_value(corrected_confidence(confidence, max(comparisons, 1)))
    for row, p_holm in zip(pairwise, adjusted, strict=True):
        row["p_holm"] = float(p_holm)
        row["confidence"] = corrected_confidence(confidence, comparisons)
        if row["test"] == "normal":
            row["low"] = row["score"] - wide * row["se"]
            row["high"] = row["score"] + wide * row["se"]
        else:
            low, high = wilson_interval(row["score"] * row["units"], row["units"], row["confidence"])
            row["low"], row["high"] = float(low), float(high)
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
        deals=np.concatenate(deals) if joint else None,
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
    spread = rating_spread(boot.ratings, boot.replicates, confidence)
    return {
        "anchor": players[anchor_index] if anchor_index is not None else None,
        "ratings": ratings,
        "skill_spread": {
            "spread": spread.spread,
            "low": spread.low,
            "high": spread.high,
            "best": players[spread.best],
            "worst": players[spread.worst],
        },
        "los": boot.los.tolist(),
        "pairwise": pairwise,
        "rating_notes": rating_notes(players, boot.los, pairwise, confidence),
        "bootstrap": {
            "reps": reps,
            "seed": seed,
            "unit": "deal pair" if config.duplicate else config.mode[:-1],
            "joint": joint,
            "resampling": (
                "whole deals, the same in every pairing" if joint else "within each pairing (no unit records kept)"
            ),
        },
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

"""What a tournament's ratings and claims say, in words (docs/STATISTICS.md §2, §7).

The ratings themselves (Bradley-Terry with the cluster bootstrap) are :func:`simgin.statistics.stats.bootstrap_ratings`;
:func:`simgin.running.tournament_ratings.tournament_analysis` fits them to a finished run. Here: the anchor by
default, the label of the bootstrap's resampling, and the notes that explain a rating that separates two players
whose own match is not a significant claim.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simgin.statistics.formats import p_value

DEFAULT_ANCHOR = "simple"


def bootstrap_label(bootstrap: dict[str, Any] | None) -> str:
    """What the rating intervals resample, in words for titles (the ``bootstrap`` entry of an analysis)."""
    if not bootstrap:
        return "deal pairs"
    unit = f"{bootstrap.get('unit', 'deal pair')}s"
    if bootstrap.get("joint"):
        return f"{unit}, the same {unit} in every pairing"
    if "joint" in bootstrap:
        return f"{unit}, within each pairing"
    return unit


def rating_notes(
    players: list[str], los: np.ndarray, pairwise: list[dict[str, Any]], confidence: float = 0.95
) -> list[dict[str, Any]]:
    """Where the ratings separate two players but their pairwise claim is not significant, and why (§7).

    The two answer different questions with different tests. A rating pools every game of the round
    robin (the players' games against third players too) and its bootstrap interval is not corrected
    for the number of players; a pairwise claim uses only the two players' own games, and its p-value is
    corrected by Holm's procedure for every pairing. So a player can be rated clearly above another
    while their own match, alone and after the correction, is not conclusive. Each note says so in
    words, with the numbers, so that a reader does not see a contradiction.

    >>> rows = [{"a": "simple", "b": "heuristic", "score": 0.46, "p": 0.02, "p_holm": 0.08, "significant": False}]
    >>> note = rating_notes(["simple", "heuristic"], np.array([[0.5, 0.01], [0.99, 0.5]]), rows)[0]
    >>> note["above"], note["below"]
    ('heuristic', 'simple')
    """
    comparisons = len(pairwise)
    notes = []
    for row in pairwise:
        if row.get("significant"):
            continue
        i, j = players.index(row["a"]), players.index(row["b"])
        for above, below, share in ((i, j, float(los[i][j])), (j, i, float(los[j][i]))):
            if share < 1 - (1 - confidence) / 2:
                continue
            score = row["score"] if above == i else 1 - row["score"]
            text = (
                f"{players[above]} is rated above {players[below]} (in {share:.1%} of bootstrap replicates), yet "
                f"'{players[above]} beats {players[below]}' is not a significant claim: their own games give a pair "
                f"score of {score:.3f}, p {p_value(row['p'])}, {p_value(row['p_holm'])} after Holm's correction over "
                f"{comparisons} pairings. The rating pools every game, against every opponent, with no correction "
                "for the number of players; the claim uses only their own games and is corrected "
                "(docs/STATISTICS.md §7)."
            )
            notes.append(
                {
                    "above": players[above],
                    "below": players[below],
                    "los": share,
                    "p": row["p"],
                    "p_holm": row["p_holm"],
                    "note": text,
                }
            )
    return notes

"""Statistics for comparing Gin Rummy strategies: pure functions on counts and numpy arrays.

Everything here follows ``docs/STATISTICS.md`` (cited as §n) and uses numpy and the standard library only
(``statistics.NormalDist`` for the normal cdf and its inverse; roots are found by bisection).

The statistical unit is the duplicate **deal pair**: one deal (or one game's deal stream) played twice with
the seats swapped (§3). A gin game has no draws, so a pair of games ends LL, split or WW, and its pair score
lies on the support ``(0, 0.5, 1)`` (:data:`GIN_PAIR_SUPPORT`). Chess testers use the pentanomial support
``(0, 0.25, 0.5, 0.75, 1)``; every function takes the support as a parameter, and when it is ``None`` the
counts are taken to lie on evenly spaced scores from 0 to 1 (three counts: gin pairs; five: chess pairs).

>>> elo, error, los = pentanomial_elo([120, 260, 140])  # [LL, split, WW] deal pairs
>>> round(elo, 1), round(error, 1), round(los, 3)
(13.4, 21.1, 0.893)
>>> sprt([120, 260, 140], None, 0.0, 10.0).decision
'continue'
>>> wilson_interval(55, 100)
(0.45244..., 0.64385...)

The functions live by topic (§ of docs/STATISTICS.md): :mod:`~simgin.statistics.core` (the shared small pieces),
:mod:`~simgin.statistics.intervals` (§4), :mod:`~simgin.statistics.elo` (§1, the GSPRT),
:mod:`~simgin.statistics.duplicate` (§3, §5) and :mod:`~simgin.statistics.bradley_terry` (§2); this module is
where callers find them all.
"""

from __future__ import annotations

from simgin.statistics.bradley_terry import (
    BootstrapRatings as BootstrapRatings,
    RatingSpread as RatingSpread,
    bootstrap_ratings as bootstrap_ratings,
    bradley_terry as bradley_terry,
    pair_tables as pair_tables,
    rating_spread as rating_spread,
)
from simgin.statistics.core import (
    Z95 as Z95,
    count as count,
    mean_from_sums as mean_from_sums,
    ratio as ratio,
    two_sided_p_value as two_sided_p_value,
    z_value as z_value,
)
from simgin.statistics.duplicate import (
    PairedDifference as PairedDifference,
    PairedMargins as PairedMargins,
    paired_difference as paired_difference,
    paired_margin_analysis as paired_margin_analysis,
    planning_hands as planning_hands,
    student_t_p_value as student_t_p_value,
)
from simgin.statistics.elo import (
    GIN_PAIR_SUPPORT as GIN_PAIR_SUPPORT,
    NELO_PER_T as NELO_PER_T,
    PENTANOMIAL_SUPPORT as PENTANOMIAL_SUPPORT,
    ZERO_COUNT as ZERO_COUNT,
    EloEstimate as EloEstimate,
    NormalizedElo as NormalizedElo,
    ScoreMoments as ScoreMoments,
    SprtResult as SprtResult,
    _distribution as _distribution,
    _mle_mean as _mle_mean,
    _mle_t_value as _mle_t_value,
    elo_from_score as elo_from_score,
    llr_gaussian as llr_gaussian,
    llr_logistic as llr_logistic,
    llr_normalized as llr_normalized,
    normalized_elo as normalized_elo,
    pentanomial_elo as pentanomial_elo,
    score_from_elo as score_from_elo,
    score_moments as score_moments,
    sprt as sprt,
    sprt_bounds as sprt_bounds,
    sprt_decision as sprt_decision,
)
from simgin.statistics.intervals import (
    SMALL_SAMPLE as SMALL_SAMPLE,
    ScoreTest as ScoreTest,
    benjamini_hochberg as benjamini_hochberg,
    corrected_confidence as corrected_confidence,
    holm as holm,
    mean_interval as mean_interval,
    score_test as score_test,
    sign_test as sign_test,
    wilson_interval as wilson_interval,
)

__all__ = [
    "GIN_PAIR_SUPPORT",
    "NELO_PER_T",
    "PENTANOMIAL_SUPPORT",
    "SMALL_SAMPLE",
    "Z95",
    "ZERO_COUNT",
    "BootstrapRatings",
    "EloEstimate",
    "NormalizedElo",
    "PairedDifference",
    "PairedMargins",
    "RatingSpread",
    "ScoreMoments",
    "ScoreTest",
    "SprtResult",
    "benjamini_hochberg",
    "bootstrap_ratings",
    "bradley_terry",
    "corrected_confidence",
    "count",
    "elo_from_score",
    "holm",
    "llr_gaussian",
    "llr_logistic",
    "llr_normalized",
    "mean_from_sums",
    "mean_interval",
    "normalized_elo",
    "pair_tables",
    "paired_difference",
    "paired_margin_analysis",
    "pentanomial_elo",
    "planning_hands",
    "rating_spread",
    "ratio",
    "score_from_elo",
    "score_moments",
    "score_test",
    "sign_test",
    "sprt",
    "sprt_bounds",
    "sprt_decision",
    "student_t_p_value",
    "two_sided_p_value",
    "wilson_interval",
    "z_value",
]

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
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Literal, NamedTuple, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

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

GIN_PAIR_SUPPORT: tuple[float, ...] = (0.0, 0.5, 1.0)
"""Pair scores of a gin deal pair: both games lost, one each, both won (§1)."""

PENTANOMIAL_SUPPORT: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)
"""Pair scores of a chess game pair with draws: LL, LD, WL+DD, WD, WW (§1)."""

NELO_PER_T = 800.0 / math.log(10.0)
"""Normalized Elo per unit of t-value, 800/ln 10 = 347.436 (§1)."""

ZERO_COUNT = 1e-3
"""A zero count is replaced by this before any likelihood is computed (fishtest ``regularize``, §1)."""

_NORMAL = NormalDist()
_ROOT_TOLERANCE = 1e-13  # bisection stops when the bracket is this narrow (the brief asks for 1e-9 or better)
_NORMALIZED_PASSES = 100  # the fixed-point iteration of §1 converges in a handful of passes; this is a safety cap
_NORMALIZED_TOLERANCE = 1e-12  # stop when max |change of q| is below this (fishtest: 1e-9)

Decision = Literal["H0", "H1", "continue"]


# --------------------------------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------------------------------


def z_value(confidence: float = 0.95) -> float:
    """The two-sided normal quantile z = Φ⁻¹(1 - α/2) for a confidence level 1 - α.

    >>> round(z_value(0.95), 5)
    1.95996
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence}")
    return _NORMAL.inv_cdf(0.5 + confidence / 2.0)


def two_sided_p_value(z: float) -> float:
    """The two-sided normal p-value 2(1 - Φ(|z|)) of a z statistic, for :func:`holm` and friends (§4).

    Computed as ``erfc(|z| / √2)``, which keeps its precision in the far tail (``1 - Φ`` rounds to 0
    beyond |z| ≈ 8.3); it underflows to 0 only beyond |z| ≈ 38.

    >>> round(two_sided_p_value(1.959964), 4)
    0.05
    >>> f"{two_sided_p_value(10.0):.3g}"
    '1.52e-23'
    """
    return math.erfc(abs(z) / math.sqrt(2.0))


def _scalar_or_array(value: NDArray[np.float64]) -> float | NDArray[np.float64]:
    return float(value) if value.ndim == 0 else value


Z95 = 1.959963984540054
"""The two-sided 95% normal quantile, z_value(0.95)."""


def count(value: float) -> int | float:
    """A count or a sum of counts as an int (tallies keep them as exact floats), so that text and
    JSON show ``2065``, not ``2065.0``; a value that is not whole (a shared win) stays a float."""
    return int(value) if float(value).is_integer() else float(value)


def ratio(numerator: float, denominator: float) -> float:
    """``numerator / denominator``, NaN for an empty denominator (a rate of nothing is not 0)."""
    return numerator / denominator if denominator else math.nan


def mean_from_sums(total: float, total_sq: float, n: float) -> tuple[float, float, float]:
    """Mean with a normal 95% interval from a sum and a sum of squares (§4): streamed tallies keep no values."""
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = total / n
    if n < 2:
        return mean, math.nan, math.nan
    variance = max(total_sq - n * mean * mean, 0.0) / (n - 1)
    half = Z95 * math.sqrt(variance / n)
    return mean, mean - half, mean + half


# --------------------------------------------------------------------------------------------------------------------
# §4: intervals for win rates and means
# --------------------------------------------------------------------------------------------------------------------


@overload
def wilson_interval(wins: float, n: float, confidence: float = 0.95) -> tuple[float, float]: ...
@overload
def wilson_interval(
    wins: ArrayLike, n: ArrayLike, confidence: float = 0.95
) -> tuple[float | NDArray[np.float64], float | NDArray[np.float64]]: ...
def wilson_interval(
    wins: ArrayLike, n: ArrayLike, confidence: float = 0.95
) -> tuple[float | NDArray[np.float64], float | NDArray[np.float64]]:
    """Wilson score interval for ``wins`` successes in ``n`` independent games (§4).

    Unlike the Wald interval it behaves at 0 and n wins and for small n: with z = Φ⁻¹(1 - α/2),
    centre = (p̂ + z²/2n)/(1 + z²/n) and half-width = z/(1 + z²/n)·sqrt(p̂(1 - p̂)/n + z²/4n²). The low end
    is exactly 0 at 0 wins and the high end exactly 1 at n wins; n = 0 gives the uninformative [0, 1] (the
    formula's limit). Scalars give floats; arrays broadcast and give arrays. Use it for independent games
    only: a duplicate win rate takes its interval from the pair scores (:func:`pentanomial_elo`, §4).

    >>> low, high = wilson_interval(0, 10)
    >>> low, round(high, 4)
    (0.0, 0.2775)
    >>> low, high = wilson_interval([7, 10], [10, 10])
    >>> low.round(4).tolist(), high.round(4).tolist()
    ([0.3968, 0.7225], [0.8922, 1.0])
    """
    k = np.asarray(wins, dtype=float)
    n_arr = np.asarray(n, dtype=float)
    if np.any(n_arr < 0) or np.any(k < 0) or np.any(k > n_arr) or not np.all(np.isfinite(k)):
        raise ValueError(f"need 0 <= wins <= n, got wins={wins!r}, n={n!r}")
    z = z_value(confidence)
    z2 = z * z
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n_arr
        denominator = 1.0 + z2 / n_arr
        centre = (p + z2 / (2.0 * n_arr)) / denominator
        half = z / denominator * np.sqrt(p * (1.0 - p) / n_arr + z2 / (4.0 * n_arr * n_arr))
        low = np.clip(centre - half, 0.0, 1.0)
        high = np.clip(centre + half, 0.0, 1.0)
    empty = n_arr == 0
    low = np.where(empty | (k == 0), 0.0, low)
    high = np.where(empty | (k == n_arr), 1.0, high)
    return _scalar_or_array(low), _scalar_or_array(high)


def mean_interval(values: ArrayLike, confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean with a normal-approximation interval ``mean ± z·s/√n``, s the sample sd (§4, §5).

    For points per hand, or for duplicate data the per-pair statistic d_j (never single games of a pair,
    which are correlated, §3). Needs at least two values; NaNs are an error rather than silently dropped.

    >>> mean_interval([1.0, 2.0, 3.0, 4.0])
    (2.5, 1.234..., 3.765...)
    """
    x = np.asarray(values, dtype=float).ravel()
    if x.size < 2:
        raise ValueError(f"need at least two values for an interval, got {x.size}")
    if not np.all(np.isfinite(x)):
        raise ValueError("values contain NaN or infinity")
    mean = float(x.mean())
    half = z_value(confidence) * float(x.std(ddof=1)) / math.sqrt(x.size)
    return mean, mean - half, mean + half


def corrected_confidence(confidence: float, comparisons: int) -> float:
    """The per-interval confidence level 1 - α/m that makes m intervals hold simultaneously (§4).

    This is the Bonferroni level, which is also the first (strictest) step of Holm's procedure: use it for
    "intervals corrected for the number of comparisons", and :func:`holm` for the matching p-values.

    >>> corrected_confidence(0.95, 10)
    0.995
    >>> round(z_value(corrected_confidence(0.95, 10)), 3)
    2.807
    """
    if comparisons < 1:
        raise ValueError(f"comparisons must be at least 1, got {comparisons}")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence}")
    return 1.0 - (1.0 - confidence) / comparisons


def _pvalue_array(pvalues: ArrayLike) -> NDArray[np.float64]:
    p = np.asarray(pvalues, dtype=float)
    if p.ndim != 1:
        raise ValueError(f"p-values must be one-dimensional, got shape {p.shape}")
    if np.any(~np.isfinite(p)) or np.any(p < 0) or np.any(p > 1):
        raise ValueError("p-values must lie in [0, 1]")
    return p


def holm(pvalues: ArrayLike) -> NDArray[np.float64]:
    """Holm step-down adjusted p-values, in the input order (family-wise error control, §4).

    With p sorted ascending, adjusted p_(i) = max over l <= i of min(1, (m - l + 1)·p_(l)). Rejecting the
    hypotheses whose adjusted p is at most α is exactly Holm's procedure.

    >>> holm([0.01, 0.04, 0.03, 0.005]).tolist()
    [0.03, 0.06, 0.06, 0.02]
    """
    p = _pvalue_array(pvalues)
    m = p.size
    order = np.argsort(p, kind="stable")
    steps = (m - np.arange(m)) * p[order]
    adjusted_sorted = np.minimum(1.0, np.maximum.accumulate(steps)) if m else steps
    adjusted = np.empty(m)
    adjusted[order] = adjusted_sorted
    return adjusted


def benjamini_hochberg(pvalues: ArrayLike) -> NDArray[np.float64]:
    """Benjamini-Hochberg adjusted p-values (q-values), in the input order (false discovery rate, §4).

    With p sorted ascending, q_(i) = min over l >= i of min(1, m·p_(l)/l).

    >>> benjamini_hochberg([0.01, 0.04, 0.03, 0.005]).tolist()
    [0.02, 0.04, 0.04, 0.02]
    """
    p = _pvalue_array(pvalues)
    m = p.size
    order = np.argsort(p, kind="stable")
    steps = m * p[order] / np.arange(1, m + 1)
    adjusted_sorted = np.minimum(1.0, np.minimum.accumulate(steps[::-1])[::-1]) if m else steps
    adjusted = np.empty(m)
    adjusted[order] = adjusted_sorted
    return adjusted


SMALL_SAMPLE = 30
"""Below this many units a score test is the exact sign test rather than the normal approximation (§7)."""


def sign_test(wins: int, losses: int) -> float:
    """Exact two-sided sign test of "each unit is as likely won as lost": 2·P(X <= min(w, l)), X ~ Bin(w + l, 1/2) (§7).

    Ties (units scored exactly 1/2) carry no sign and are left out. No units with a sign give p = 1. The sum is
    taken in log space, so a sweep of any length keeps its precision.

    >>> sign_test(10, 0)  # a clean sweep of ten units: 2/1024
    0.001953125
    >>> sign_test(0, 0), sign_test(5, 5)
    (1.0, 1.0)
    """
    if wins < 0 or losses < 0:
        raise ValueError(f"wins and losses must be non-negative, got {wins} and {losses}")
    n = wins + losses
    if n == 0:
        return 1.0
    fewer = min(wins, losses)
    log_terms = [
        math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) - n * math.log(2.0) for k in range(fewer + 1)
    ]
    top = max(log_terms)
    tail = math.exp(top) * sum(math.exp(term - top) for term in log_terms)
    return min(1.0, 2.0 * tail)


class ScoreTest(NamedTuple):
    """A test of "the mean unit score is 1/2" (§7)."""

    units: int
    """Number of units (deal pairs, or games or hands without duplicate deals)."""
    score: float
    """Mean unit score in [0, 1] (NaN without units)."""
    se: float
    """Standard error of the mean score, sqrt(σ²/n) with the per-unit variance σ² (NaN with fewer than two units)."""
    p: float
    """Two-sided p-value of H0: score = 1/2."""
    method: Literal["normal", "sign"]
    """``'normal'``: z = (score - 1/2)/se; ``'sign'``: the exact sign test, used for few units or zero variance."""


def score_test(scores: ArrayLike, counts: ArrayLike) -> ScoreTest:
    """Two-sided test that the mean of unit ``scores`` (weighted by ``counts``) is 1/2 (§7).

    The normal test z = (mean - 1/2)/SE is used with at least :data:`SMALL_SAMPLE` units and a positive variance.
    With fewer units, or when every unit scored the same (a clean sweep, or all ties), the normal test has no
    standard error to divide by, and the exact :func:`sign_test` on the units above and below 1/2 is used instead:
    a clean sweep of n units has p = 2^(1-n), all ties have p = 1.

    >>> score_test([0.0, 0.5, 1.0], [0, 0, 10]).p  # ten deal pairs, both games won in each
    0.001953125
    >>> round(score_test([0.0, 0.5, 1.0], [300, 400, 380]).p, 4)
    0.0021
    """
    a = np.asarray(scores, dtype=float).ravel()
    n = np.asarray(counts, dtype=float).ravel()
    if a.shape != n.shape:
        raise ValueError(f"scores has {a.size} values but there are {n.size} counts")
    if np.any(n < 0) or not np.all(np.isfinite(n)) or not np.all(np.isfinite(a)):
        raise ValueError("counts must be non-negative and finite, and scores finite")
    units = float(n.sum())
    if units == 0:
        return ScoreTest(0, math.nan, math.nan, 1.0, "sign")
    mean = float((a * n).sum() / units)
    variance = float(((a - mean) ** 2 * n).sum() / units)
    se = math.sqrt(variance / units) if units > 1 else math.nan
    if units < SMALL_SAMPLE or not variance > 0.0:
        wins = round(float(n[a > 0.5].sum()))
        losses = round(float(n[a < 0.5].sum()))
        return ScoreTest(round(units), mean, se, sign_test(wins, losses), "sign")
    return ScoreTest(round(units), mean, se, two_sided_p_value((mean - 0.5) / se), "normal")


# --------------------------------------------------------------------------------------------------------------------
# §1: Elo, pair-score distributions and the GSPRT
# --------------------------------------------------------------------------------------------------------------------


@overload
def elo_from_score(score: float) -> float: ...
@overload
def elo_from_score(score: ArrayLike) -> float | NDArray[np.float64]: ...
def elo_from_score(score: ArrayLike) -> float | NDArray[np.float64]:
    """Logistic Elo difference of an expected score: Elo(x) = -400 log10(1/x - 1) (§1, §5).

    A score of 0 or 1 maps to -inf or +inf.

    >>> round(elo_from_score(0.75), 2)
    190.85
    >>> elo_from_score([0.0, 0.5, 1.0]).tolist()
    [-inf, 0.0, inf]
    """
    s = np.asarray(score, dtype=float)
    with np.errstate(divide="ignore"):
        elo = -400.0 * np.log10(1.0 / s - 1.0)
    return _scalar_or_array(elo + 0.0)  # + 0.0 turns -0.0 into 0.0


@overload
def score_from_elo(elo: float) -> float: ...
@overload
def score_from_elo(elo: ArrayLike) -> float | NDArray[np.float64]: ...
def score_from_elo(elo: ArrayLike) -> float | NDArray[np.float64]:
    """Expected score of an Elo difference: 1/(1 + 10^(-elo/400)), the inverse of :func:`elo_from_score` (§1).

    >>> round(score_from_elo(400.0), 4)
    0.9091
    """
    e = np.asarray(elo, dtype=float)
    return _scalar_or_array(1.0 / (1.0 + 10.0 ** (-e / 400.0)))


class ScoreMoments(NamedTuple):
    """Sample size and moments of a pair-score (or game-score) distribution."""

    count: float
    """N, the number of pairs (after zero counts were regularised)."""
    mean: float
    """μ, the mean score."""
    variance: float
    """σ² = Σ p̂_i (a_i - μ)², the per-sample variance (no ddof correction, as fishtest)."""


def _distribution(
    counts: ArrayLike, support: ArrayLike | None
) -> tuple[float, NDArray[np.float64], NDArray[np.float64]]:
    """(N, p̂, a): regularised counts as frequencies on their support (§1 "Data")."""
    n = np.asarray(counts, dtype=float)
    if n.ndim != 1 or n.size < 2:
        raise ValueError(f"counts must be a 1-D list of at least two counts, got {counts!r}")
    if np.any(n < 0) or not np.all(np.isfinite(n)):
        raise ValueError(f"counts must be non-negative and finite, got {counts!r}")
    a = np.linspace(0.0, 1.0, n.size) if support is None else np.asarray(support, dtype=float)
    if a.shape != n.shape:
        raise ValueError(f"support has {a.size} points but there are {n.size} counts")
    if np.any(np.diff(a) <= 0):
        raise ValueError(f"support must be strictly increasing, got {a.tolist()}")
    n = np.where(n == 0, ZERO_COUNT, n)
    total = float(n.sum())
    return total, n / total, a


def score_moments(counts: ArrayLike, support: ArrayLike | None = None) -> ScoreMoments:
    """N, mean and variance of the pair scores, after replacing zero counts by 1e-3 (§1).

    >>> score_moments([1, 2, 1])
    ScoreMoments(count=4.0, mean=0.5, variance=0.125)
    """
    total, p, a = _distribution(counts, support)
    mean = float(p @ a)
    return ScoreMoments(total, mean, float(p @ (a - mean) ** 2))


class EloEstimate(NamedTuple):
    """Logistic Elo difference with its error and likelihood of superiority."""

    elo: float
    """Elo(μ) of the mean pair score μ."""
    error: float
    """Half-width of the interval [Elo(μ - z·SE), Elo(μ + z·SE)] (95% by default)."""
    los: float
    """Likelihood of superiority Φ((μ - 0.5)/SE), the chance that the true difference is positive."""


def pentanomial_elo(counts: ArrayLike, support: ArrayLike | None = None, confidence: float = 0.95) -> EloEstimate:
    """Elo difference ± error and LOS from pair counts, as fastchess ``EloPentanomial`` / fishtest ``get_elo`` (§1).

    μ is the mean pair score, SE = sqrt(σ²_pair/N), Elo = Elo(μ), error = [Elo(μ + z SE) - Elo(μ - z SE)]/2 and
    LOS = Φ((μ - 0.5)/SE). For gin, ``counts`` are [LL, split, WW] deal pairs on :data:`GIN_PAIR_SUPPORT`.
    Zero counts are regularised to 1e-3 so that all-won samples give a large finite Elo.

    >>> [round(x, 4) for x in pentanomial_elo([10789, 19328, 33806, 19402, 10543])]
    [-0.7736, 1.2776, 0.1177]
    """
    total, mean, variance = score_moments(counts, support)
    se = math.sqrt(variance / total)
    z = z_value(confidence)
    high = elo_from_score(min(mean + z * se, 1.0))
    low = elo_from_score(max(mean - z * se, 0.0))
    los = _NORMAL.cdf((mean - 0.5) / se) if se > 0 else float(mean > 0.5) + 0.5 * float(mean == 0.5)
    return EloEstimate(elo_from_score(mean), (high - low) / 2.0, los)


class NormalizedElo(NamedTuple):
    """Normalized Elo with its error (interval nelo ± error)."""

    nelo: float
    """nElo = (μ - 0.5)/σ_game · 800/ln 10."""
    error: float
    """Half-width of its interval (95% by default)."""


def normalized_elo(
    counts: ArrayLike, support: ArrayLike | None = None, pairs: bool = True, confidence: float = 0.95
) -> NormalizedElo:
    """Normalized Elo (nElo) ± error: the t-value (μ - 0.5)/σ_game on the Elo-like 800/ln 10 scale (§1).

    σ_game = sqrt(2·Var(pair score)) when the counts are pairs (``pairs=True``, the gin and chess-pentanomial
    case) and sqrt(Var) for single games. The interval maps μ ± z·SE through the same σ_game, so
    error = z·SE/σ_game · 800/ln 10. nElo measures how easy a difference is to detect, not how large it is.

    >>> [round(x, 3) for x in normalized_elo([10789, 19328, 33806, 19402, 10543])]
    [-0.952, 1.572]
    """
    total, mean, variance = score_moments(counts, support)
    sigma_game = math.sqrt(2.0 * variance if pairs else variance)
    se = math.sqrt(variance / total)
    return NormalizedElo((mean - 0.5) / sigma_game * NELO_PER_T, z_value(confidence) * se / sigma_game * NELO_PER_T)


def _secular_root(p: Sequence[float], phi: Sequence[float]) -> float:
    """The θ with Σ p_i φ_i/(1 + θ φ_i) = 0 on (-1/max φ, -1/min φ), by bisection (§1 step 1/3).

    The left side is strictly decreasing in θ and runs from +inf to -inf across the bracket, so the root is
    unique; bisection halves the bracket until it is narrower than 1e-13 (relative) or floats run out.
    """
    high_phi, low_phi = max(phi), min(phi)
    if not (high_phi > 0.0 > low_phi):
        raise ValueError("no maximum-likelihood distribution: the hypothesised mean lies outside the support")
    lo, hi = -1.0 / high_phi, -1.0 / low_phi
    terms = list(zip(p, phi, strict=True))
    while hi - lo > _ROOT_TOLERANCE * max(1.0, abs(lo), abs(hi)):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        value = sum(pi * fi / (1.0 + mid * fi) for pi, fi in terms)
        if value > 0.0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def _mle_mean(p: NDArray[np.float64], a: NDArray[np.float64], score: float) -> NDArray[np.float64]:
    """Maximum-likelihood distribution on support ``a`` with mean ``score`` (van den Bergh Prop. 1.1, §1)."""
    phi = a - score
    theta = _secular_root(p.tolist(), phi.tolist())
    return p / (1.0 + theta * phi)


def _mle_t_value(p: NDArray[np.float64], a: NDArray[np.float64], t: float) -> NDArray[np.float64]:
    """Maximum-likelihood distribution on ``a`` with t-value (μ - 0.5)/σ = t, by the §1 fixed-point iteration."""
    q = np.full(a.size, 1.0 / a.size)
    for _ in range(_NORMALIZED_PASSES):
        mean = float(q @ a)
        sigma = math.sqrt(float(q @ (a - mean) ** 2))
        phi = a - 0.5 - t * sigma * (1.0 + ((mean - a) / sigma) ** 2) / 2.0
        theta = _secular_root(p.tolist(), phi.tolist())
        q_next = p / (1.0 + theta * phi)
        change = float(np.max(np.abs(q_next - q)))
        q = q_next
        if change < _NORMALIZED_TOLERANCE:
            break
    return q


def _llr(total: float, p: NDArray[np.float64], q0: NDArray[np.float64], q1: NDArray[np.float64]) -> float:
    """LLR = N · Σ p̂_i ln(q1_i/q0_i) (§1 step 3)."""
    return float(total * np.sum(p * np.log(q1 / q0)))


def llr_logistic(counts: ArrayLike, support: ArrayLike | None, elo0: float, elo1: float) -> float:
    """Generalised log-likelihood ratio of H1: Elo = elo1 against H0: Elo = elo0, logistic Elo model (§1).

    Under H_k the expected score is s_k = 1/(1 + 10^(-elo_k/400)); the maximum-likelihood distribution
    with that mean is p_k,i = p̂_i/(1 + θ_k(a_i - s_k)), θ_k the root of Σ p̂_i (a_i - s_k)/(1 + θ(a_i - s_k)),
    and LLR = N Σ p̂_i ln(p_1,i/p_0,i). Zero counts become 1e-3. Pass the single-game (L, D, W) counts with
    ``support=None`` for the (pair-blind) trinomial model.

    >>> round(llr_logistic([10789, 19328, 33806, 19402, 10543], None, -3.0, 1.0), 5)
    2.13107
    """
    total, p, a = _distribution(counts, support)
    q0 = _mle_mean(p, a, score_from_elo(elo0))
    q1 = _mle_mean(p, a, score_from_elo(elo1))
    return _llr(total, p, q0, q1)


def llr_normalized(
    counts: ArrayLike, support: ArrayLike | None, nelo0: float, nelo1: float, pairs: bool = True
) -> float:
    """Generalised log-likelihood ratio with bounds in normalized Elo (fishtest's and fastchess's default, §1).

    H_k fixes the t-value t_k = nelo_k/(800/ln 10), times √2 when the counts are pairs (``pairs=True``: gin
    deal pairs, chess pentanomial). The maximum-likelihood distribution under H_k comes from iterating, from
    the uniform q: φ_i = a_i - 0.5 - t_k σ(1 + ((μ - a_i)/σ)²)/2 with μ, σ of q, θ the root of
    Σ p̂_i φ_i/(1 + θ φ_i), q_i = p̂_i/(1 + θ φ_i), until q stops changing. LLR = N Σ p̂_i ln(q1_i/q0_i).

    >>> round(llr_normalized([39, 2226, 31451, 2412, 40], None, 0.764, 3.439), 5)
    2.16294
    """
    total, p, a = _distribution(counts, support)
    scale = math.sqrt(2.0) if pairs else 1.0
    q0 = _mle_t_value(p, a, nelo0 * scale / NELO_PER_T)
    q1 = _mle_t_value(p, a, nelo1 * scale / NELO_PER_T)
    return _llr(total, p, q0, q1)


def llr_gaussian(x_mean: float, var: float, n: float, s0: float, s1: float) -> float:
    """Gaussian approximation of the LLR: N (s1 - s0)(2x̄ - s0 - s1)/(2σ²) (fishtest ``LLR_alt2``, §1).

    Works for any per-sample statistic with hypothesised means s0 and s1, in particular continuous points
    margins per deal pair (§5): x̄ is their mean, ``var`` the per-sample variance and ``n`` the number of
    samples. Its drift per sample is (s - (s0 + s1)/2)(s1 - s0)/σ².

    >>> llr_gaussian(1.0, 400.0, 1000, 0.0, 2.0)
    0.0
    """
    if var <= 0:
        raise ValueError(f"variance must be positive, got {var}")
    return n * (s1 - s0) * (2.0 * x_mean - s0 - s1) / (2.0 * var)


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's LLR bounds (ln(β/(1-α)), ln((1-β)/α)) for type-I error α and type-II error β (§1).

    >>> [round(b, 3) for b in sprt_bounds(0.05, 0.05)]
    [-2.944, 2.944]
    """
    if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0) or alpha + beta >= 1.0:
        raise ValueError(f"need 0 < alpha, beta < 1 and alpha + beta < 1, got alpha={alpha}, beta={beta}")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def sprt_decision(llr: float, alpha: float = 0.05, beta: float = 0.05) -> Decision:
    """'H1' when the LLR reaches the upper bound, 'H0' when it reaches the lower one, else 'continue' (§1).

    >>> sprt_decision(3.0), sprt_decision(-3.0), sprt_decision(0.5)
    ('H1', 'H0', 'continue')
    """
    lower, upper = sprt_bounds(alpha, beta)
    if llr >= upper:
        return "H1"
    if llr <= lower:
        return "H0"
    return "continue"


class SprtResult(NamedTuple):
    """The state of a sequential probability ratio test after the pairs seen so far."""

    llr: float
    lower: float
    upper: float
    decision: Decision


def sprt(
    counts: ArrayLike,
    support: ArrayLike | None,
    elo0: float,
    elo1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
    model: Literal["normalized", "logistic"] = "normalized",
    pairs: bool = True,
) -> SprtResult:
    """One SPRT check on the pair counts so far: LLR, bounds and decision (§1, §6).

    ``model="normalized"`` (the default, as fishtest and fastchess) reads elo0/elo1 as normalized Elo;
    ``model="logistic"`` reads them as logistic Elo. Call it after every pair or every batch of pairs and
    stop at the first decision other than 'continue'.

    >>> result = sprt([10789, 19328, 33806, 19402, 10543], None, 0.0, 2.0)
    >>> round(result.llr, 5), result.decision
    (-6.07043, 'H0')
    """
    if model == "normalized":
        llr = llr_normalized(counts, support, elo0, elo1, pairs=pairs)
    elif model == "logistic":
        llr = llr_logistic(counts, support, elo0, elo1)
    else:
        raise ValueError(f"unknown SPRT model {model!r}; choose 'normalized' or 'logistic'")
    lower, upper = sprt_bounds(alpha, beta)
    return SprtResult(llr, lower, upper, sprt_decision(llr, alpha, beta))


# --------------------------------------------------------------------------------------------------------------------
# §3, §5: duplicate deals and planning
# --------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PairedMargins:
    """Paired analysis of duplicate deals: A's margins in the two seatings of each deal pair (§3, §5)."""

    pair_count: int
    """N, the number of deal pairs."""
    mean: float
    """Mean of d_j = (m0_j + m1_j)/2, A's average margin per game over a pair."""
    low: float
    """Low end of the interval for ``mean`` (mean ± z·sd(d)/√N)."""
    high: float
    """High end of the interval for ``mean``."""
    game_sd: float
    """σ, the sd of a single game's margin within a seat, pooled over the two seats: sqrt((s0² + s1²)/2)."""
    rho: float
    """ρ = corr(m0, m1) between the two games of a pair (negative when the cards decide; NaN if a seat is constant)."""
    variance_factor: float
    """Var(d̄) achieved by duplicate divided by Var(d̄) of as many independent games: 1 + ρ for equal seat sds."""
    games_ratio: float
    """1/variance_factor: how many times fewer games duplicate needs for the same precision (inf when noise-free)."""
    seat_edge: float
    """Mean of (m0 - m1)/2: how much better seat 0 does than seat 1, with the players' strength cancelled (§5)."""
    seat_edge_low: float
    """Low end of the interval for ``seat_edge``."""
    seat_edge_high: float
    """High end of the interval for ``seat_edge``."""

    @property
    def one_plus_rho(self) -> float:
        """1 + ρ, the variance factor the notes report as a diagnostic (§3)."""
        return 1.0 + self.rho


def paired_margin_analysis(
    margin_a_seat0: ArrayLike, margin_a_seat1: ArrayLike, confidence: float = 0.95
) -> PairedMargins:
    """Paired analysis of duplicate deals with the variance reduction the duplicate format achieved (§3, §5).

    ``margin_a_seat0[j]`` and ``margin_a_seat1[j]`` are player A's points margins in the two games of deal
    pair j (A in seat 0, then in seat 1). The unit is the pair: d_j = (m0_j + m1_j)/2, interval
    d̄ ± z·sd(d)/√N. Var(d̄) = σ²(1 + ρ)/(2N) against σ²/(2N) for independent games, so the hands needed fall
    by 1/(1 + ρ); ``variance_factor`` is the achieved ratio Var(d)/((s0² + s1²)/4), which is 1 + ρ when the
    two seats have the same spread.

    >>> result = paired_margin_analysis([10, -5, 20, 0], [-8, 7, -15, 2])
    >>> result.mean, round(result.rho, 3), round(result.games_ratio, 2)
    (1.375, -0.996, 98.04)
    """
    m0 = np.asarray(margin_a_seat0, dtype=float).ravel()
    m1 = np.asarray(margin_a_seat1, dtype=float).ravel()
    if m0.shape != m1.shape:
        raise ValueError(f"the two seatings must have as many pairs, got {m0.size} and {m1.size}")
    if m0.size < 2:
        raise ValueError(f"need at least two deal pairs, got {m0.size}")
    if not (np.all(np.isfinite(m0)) and np.all(np.isfinite(m1))):
        raise ValueError("margins contain NaN or infinity")
    mean, low, high = mean_interval((m0 + m1) / 2.0, confidence)
    edge, edge_low, edge_high = mean_interval((m0 - m1) / 2.0, confidence)
    var0, var1 = float(m0.var(ddof=1)), float(m1.var(ddof=1))
    covariance = float(np.cov(m0, m1, ddof=1)[0, 1])
    rho = covariance / math.sqrt(var0 * var1) if var0 > 0 and var1 > 0 else math.nan
    independent = (var0 + var1) / 4.0
    paired = float(((m0 + m1) / 2.0).var(ddof=1))  # = (var0 + var1 + 2 cov)/4, but exactly 0 when d is constant
    variance_factor = paired / independent if independent > 0 else math.nan
    games_ratio = 1.0 / variance_factor if variance_factor > 0 else (math.inf if variance_factor == 0 else math.nan)
    return PairedMargins(
        pair_count=int(m0.size),
        mean=mean,
        low=low,
        high=high,
        game_sd=math.sqrt((var0 + var1) / 2.0),
        rho=rho,
        variance_factor=variance_factor,
        games_ratio=games_ratio,
        seat_edge=edge,
        seat_edge_low=edge_low,
        seat_edge_high=edge_high,
    )


def planning_hands(sigma: float, delta: float, rho: float = 0.0, alpha: float = 0.05, power: float = 0.8) -> int:
    """Hands needed to detect a mean margin ``delta``: (z_{1-α/2} + z_{power})² σ² (1 + ρ)/δ² (§5).

    σ is the sd of one hand's margin and ρ the correlation within duplicate pairs (0 for independent hands);
    the deal pairs needed are half the hands. Rounded up.

    >>> planning_hands(19.0, 1.0), planning_hands(19.0, 1.0, rho=-0.79)
    (2834, 596)
    """
    if sigma < 0 or delta == 0:
        raise ValueError(f"need sigma >= 0 and delta != 0, got sigma={sigma}, delta={delta}")
    if not -1.0 <= rho <= 1.0:
        raise ValueError(f"rho must lie in [-1, 1], got {rho}")
    if not 0.0 < power < 1.0:
        raise ValueError(f"power must be strictly between 0 and 1, got {power}")
    z = z_value(1.0 - alpha) + _NORMAL.inv_cdf(power)
    return math.ceil(round(z * z * sigma * sigma * (1.0 + rho) / (delta * delta), 9))


def _incomplete_beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularised incomplete beta function, by the modified Lentz method."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    result = d
    for m in range(1, 500):
        for numerator in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + numerator * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + numerator / c
            c = c if abs(c) > tiny else tiny
            result *= c * d
        if abs(c * d - 1.0) < 1e-15:
            break
    return result


def _regularized_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularised incomplete beta function, for 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _incomplete_beta_fraction(a, b, x) / a
    return 1.0 - math.exp(log_front) * _incomplete_beta_fraction(b, a, 1.0 - x) / b


def student_t_p_value(t: float, df: float) -> float:
    """Two-sided p-value of Student's t with ``df`` degrees of freedom: I_{df/(df+t²)}(df/2, 1/2) (§4).

    For large ``df`` it tends to :func:`two_sided_p_value`.

    >>> round(student_t_p_value(2.228139, 10), 4)  # the 97.5% quantile of t with 10 degrees of freedom
    0.05
    >>> student_t_p_value(0.0, 3)
    1.0
    """
    if not df > 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    if math.isinf(t):
        return 0.0
    return min(1.0, _regularized_beta(df / 2.0, 0.5, df / (df + t * t)))


class PairedDifference(NamedTuple):
    """A difference between two rule sets (or strategies) measured on the same units (§9)."""

    difference: float
    """Ratio of sums of x minus ratio of sums of y: the difference of the two overall rates."""
    low: float
    high: float
    """The interval ``difference ± q·se``, q Student's quantile with n - 1 degrees of freedom (NaN with no spread)."""
    se: float
    """Standard error of the difference, from the per-unit linearisation of both ratios."""
    p: float
    """Two-sided p-value of "no difference"."""
    units: int
    """Number of paired units (deal pairs or games) both sides played."""


def paired_difference(
    x: ArrayLike,
    y: ArrayLike,
    x_per: ArrayLike | None = None,
    y_per: ArrayLike | None = None,
    confidence: float = 0.95,
) -> PairedDifference:
    """The difference of two rates measured on the same units, with its interval and p-value (§9).

    Unit k (a deal pair, or a game, played under both rule sets from the same seed) contributes ``x[k]``
    events out of ``x_per[k]`` trials on one side and ``y[k]`` out of ``y_per[k]`` on the other (the
    ``*_per`` default to 1: a mean per unit). The estimate is Σx/Σx_per - Σy/Σy_per, the difference of the
    rates as the tables print them. Its variance comes from the units: each unit's linearised
    contribution z_k = (x_k - R_x·x_per_k)/mean(x_per) - (y_k - R_y·y_per_k)/mean(y_per) (the delta
    method for a ratio of sums), so the correlation that the shared deals create is used, not ignored.
    The p-value and interval use Student's t with n - 1 degrees of freedom at every size (the normal
    test rejected a true null too often at 30-50 units, issue 32 item 9). When every unit contributes the
    same z (no spread), a zero difference has p = 1 and a non-zero one the exact sign test's 2^(1-n)
    (every unit on the same side, §7), never 0; the interval is then NaN: there is no spread to measure it
    from. :func:`simgin.statistics.paired.paired_comparison` adds the swap test for few units (§10).

    >>> d = paired_difference([1, 0, 1, 1, 0, 1], [0, 0, 1, 0, 0, 1])
    >>> round(d.difference, 4), d.units
    (0.3333, 6)
    """
    xs = np.asarray(x, dtype=float).ravel()
    ys = np.asarray(y, dtype=float).ravel()
    xn = np.ones_like(xs) if x_per is None else np.asarray(x_per, dtype=float).ravel()
    yn = np.ones_like(ys) if y_per is None else np.asarray(y_per, dtype=float).ravel()
    if not xs.size == ys.size == xn.size == yn.size:
        raise ValueError(f"paired units must match: {xs.size}, {ys.size}, {xn.size} and {yn.size} values")
    if not all(np.all(np.isfinite(v)) for v in (xs, ys, xn, yn)):
        raise ValueError("paired values must be finite")
    n = xs.size
    if n == 0 or xn.sum() <= 0 or yn.sum() <= 0:
        return PairedDifference(math.nan, math.nan, math.nan, math.nan, 1.0, n)
    rate_x, rate_y = xs.sum() / xn.sum(), ys.sum() / yn.sum()
    difference = float(rate_x - rate_y)
    if n < 2:
        return PairedDifference(difference, math.nan, math.nan, math.nan, 1.0, n)
    z = (xs - rate_x * xn) / xn.mean() - (ys - rate_y * yn) / yn.mean()
    se = float(z.std(ddof=1) / math.sqrt(n))
    if not se > 1e-12 * max(1.0, abs(difference)):
        p = 1.0 if abs(difference) < 1e-12 else min(1.0, 2.0 ** (1 - n))
        return PairedDifference(difference, math.nan, math.nan, 0.0, p, n)
    statistic = difference / se
    p = student_t_p_value(statistic, n - 1)
    quantile = _t_quantile(confidence, n - 1)
    return PairedDifference(difference, difference - quantile * se, difference + quantile * se, se, p, n)


def _t_quantile(confidence: float, df: float) -> float:
    """The two-sided quantile of Student's t: the q with p-value 1 - confidence, by bisection."""
    alpha = 1.0 - confidence
    low, high = 0.0, 1.0
    while student_t_p_value(high, df) > alpha:
        high *= 2.0
    while high - low > 1e-10 * high:
        middle = (low + high) / 2.0
        if student_t_p_value(middle, df) > alpha:
            low = middle
        else:
            high = middle
    return (low + high) / 2.0


# --------------------------------------------------------------------------------------------------------------------
# §2: Bradley-Terry ratings and the cluster bootstrap
# --------------------------------------------------------------------------------------------------------------------

_BT_TOLERANCE = 1e-6  # stop when no rating moves by more than this many Elo in one MM pass (§2)
_BT_MAX_ITERATIONS = 200_000  # MM converges linearly; this cap is far beyond what priors >= 0.1 draws need


def _bt_mm(wins: NDArray[np.float64], games: NDArray[np.float64], tolerance: float) -> NDArray[np.float64]:
    """MM fit of Bradley-Terry strengths for a stack (..., k, k) of tables; returns Elo ratings with mean 0.

    γ_i ← S_i / Σ_j n_ij/(γ_i + γ_j) (Hunter 2004), all players at once, re-centred on the geometric mean.
    """
    scores = wins.sum(axis=-1)
    log_gamma = np.zeros(scores.shape)
    to_elo = 400.0 / math.log(10.0)
    for _ in range(_BT_MAX_ITERATIONS):
        gamma = np.exp(log_gamma)
        denominator = (games / (gamma[..., :, None] + gamma[..., None, :])).sum(axis=-1)
        new = np.log(scores / denominator)
        new -= new.mean(axis=-1, keepdims=True)
        change = float(np.max(np.abs(new - log_gamma))) * to_elo
        log_gamma = new
        if change < tolerance:
            return log_gamma * to_elo
    raise RuntimeError("Bradley-Terry MM did not converge; add a prior (prior_draws > 0)")


def _check_tables(wins: ArrayLike, games: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    w = np.array(wins, dtype=float)
    n = np.array(games, dtype=float)
    if w.ndim != 2 or w.shape[0] != w.shape[1] or n.shape != w.shape:
        raise ValueError(f"wins and games must be square tables of one shape, got {w.shape} and {n.shape}")
    np.fill_diagonal(w, 0.0)
    np.fill_diagonal(n, 0.0)
    if np.any(w < 0) or np.any(n < 0) or not (np.all(np.isfinite(w)) and np.all(np.isfinite(n))):
        raise ValueError("wins and games must be non-negative and finite")
    if not np.allclose(n, n.T) or not np.allclose(w + w.T, n):
        raise ValueError("need games symmetric and wins[i, j] + wins[j, i] == games[i, j] (a draw counts half)")
    return w, n


def _connected(games: NDArray[np.float64]) -> bool:
    k = games.shape[0]
    seen = {0}
    frontier = [0]
    while frontier:
        i = frontier.pop()
        for j in np.flatnonzero(games[i] > 0).tolist():
            if j not in seen:
                seen.add(j)
                frontier.append(j)
    return len(seen) == k


def _anchor(ratings: NDArray[np.float64], anchor: int | None) -> NDArray[np.float64]:
    if anchor is None:
        return ratings
    return ratings - ratings[..., anchor : anchor + 1]


def bradley_terry(
    wins: ArrayLike,
    games: ArrayLike,
    anchor: int | None = None,
    prior_draws: float = 1.0,
    tolerance: float = _BT_TOLERANCE,
) -> NDArray[np.float64]:
    """Bradley-Terry ratings on the Elo scale, fitted by the MM algorithm (§2).

    ``wins[i, j]`` is the points player i scored against j (a draw counts half) and ``games[i, j]`` the games
    they played, so P(i beats j) = 1/(1 + 10^(-(R_i - R_j)/400)). A prior of ``prior_draws`` virtual draws
    between every two players (BayesElo style; about one per pair) keeps players with all wins or all losses
    finite and the fit unique; with ``prior_draws=0`` such data is an error. The ratings have mean 0, or the
    ``anchor`` player (an index) is 0. Iterates until no rating moves by more than ``tolerance`` Elo.

    >>> ratings = bradley_terry([[0, 30], [10, 0]], [[0, 40], [40, 0]], prior_draws=0)
    >>> ratings.round(2).tolist()  # 30 of 40 is a 3:1 strength ratio, 400 log10(3) = 190.85 apart
    [95.42, -95.42]
    >>> bradley_terry([[0, 30], [10, 0]], [[0, 40], [40, 0]], anchor=1).round(1).tolist()
    [185.2, 0.0]
    """
    w, n = _check_tables(wins, games)
    k = w.shape[0]
    if k < 2:
        raise ValueError("need at least two players")
    if prior_draws < 0:
        raise ValueError(f"prior_draws must be >= 0, got {prior_draws}")
    if anchor is not None and not 0 <= anchor < k:
        raise ValueError(f"anchor must be a player index in 0..{k - 1}, got {anchor}")
    off_diagonal = 1.0 - np.eye(k)
    w = w + prior_draws / 2.0 * off_diagonal
    n = n + prior_draws * off_diagonal
    if prior_draws == 0:
        scores, played = w.sum(axis=1), n.sum(axis=1)
        if np.any(scores <= 0) or np.any(scores >= played) or not _connected(n):
            raise ValueError(
                "ratings diverge or are not unique without a prior (a player won or lost every game, "
                "or the players do not form one connected pool); use prior_draws > 0"
            )
    return _anchor(_bt_mm(w, n, tolerance), anchor)


def pair_tables(
    pair_results: ArrayLike, player_count: int | None = None, games_per_pair: int = 2
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """(wins, games) tables for :func:`bradley_terry` from one row per deal pair (§2).

    Each row of ``pair_results`` is ``(player_a, player_b, points_a)``: the two player indices and the games
    A won in that pair (0 to ``games_per_pair``; a draw counts half).

    >>> wins, games = pair_tables([(0, 1, 2), (0, 1, 1), (1, 2, 0)])
    >>> wins.tolist()
    [[0.0, 3.0, 0.0], [1.0, 0.0, 0.0], [0.0, 2.0, 0.0]]
    """
    a, b, points, k = _pair_columns(pair_results, player_count, games_per_pair)
    wins = np.zeros((k, k))
    games = np.zeros((k, k))
    np.add.at(wins, (a, b), points)
    np.add.at(wins, (b, a), games_per_pair - points)
    np.add.at(games, (a, b), games_per_pair)
    np.add.at(games, (b, a), games_per_pair)
    return wins, games


def _pair_columns(
    pair_results: ArrayLike, player_count: int | None, games_per_pair: int
) -> tuple[NDArray[np.intp], NDArray[np.intp], NDArray[np.float64], int]:
    rows = np.asarray(pair_results, dtype=float)
    if rows.ndim != 2 or rows.shape[1] != 3 or rows.shape[0] == 0:
        raise ValueError(f"pair_results must be rows of (player_a, player_b, points_a), got shape {rows.shape}")
    a = rows[:, 0].astype(np.intp)
    b = rows[:, 1].astype(np.intp)
    points = rows[:, 2]
    if np.any(a != rows[:, 0]) or np.any(b != rows[:, 1]) or np.any(a < 0) or np.any(b < 0) or np.any(a == b):
        raise ValueError("player indices must be distinct non-negative integers in each row")
    if np.any(points < 0) or np.any(points > games_per_pair):
        raise ValueError(f"points_a must lie in [0, {games_per_pair}]")
    k = int(max(a.max(), b.max())) + 1 if player_count is None else player_count
    if max(a.max(), b.max()) >= k:
        raise ValueError(f"a player index is >= player_count={k}")
    return a, b, points, k


@dataclass(frozen=True)
class BootstrapRatings:
    """Ratings with cluster-bootstrap intervals (§2)."""

    ratings: NDArray[np.float64]
    """The Bradley-Terry fit of the full data (Elo scale, anchored as asked)."""
    low: NDArray[np.float64]
    """Per player, the lower percentile of the replicate ratings (2.5% for 95%)."""
    high: NDArray[np.float64]
    """Per player, the upper percentile of the replicate ratings."""
    replicates: NDArray[np.float64]
    """(reps, k) ratings of every bootstrap replicate."""
    los: NDArray[np.float64]
    """(k, k): the share of replicates with R_i > R_j (CFS/LOS matrix; ties count half, diagonal 0.5)."""
    rank_low: NDArray[np.float64]
    """Per player, the best rank (1 = top) in the middle ``confidence`` share of replicates."""
    rank_high: NDArray[np.float64]
    """Per player, the worst rank in the middle ``confidence`` share of replicates."""


def bootstrap_ratings(
    pair_results: ArrayLike,
    player_count: int | None = None,
    *,
    games_per_pair: int = 2,
    reps: int = 1000,
    seed: int = 0,
    anchor: int | None = None,
    prior_draws: float = 1.0,
    confidence: float = 0.95,
    deals: ArrayLike | None = None,
) -> BootstrapRatings:
    """Bradley-Terry ratings with a cluster bootstrap over deals (§2, §4).

    Without ``deals``, each replicate resamples, within every matchup, as many deal pairs as it has, with
    replacement, and refits: the pair is the unit, so the correlation of mirrored games is respected. Since only
    A's points per pair enter the fit, a matchup's resample is drawn as multinomial counts over its distinct pair
    outcomes, which has exactly the distribution of resampling the rows.

    With ``deals`` (one deal id per row: the unit's index, the same id for the same deal in every pairing) the
    deal is the cluster across pairings: each replicate draws the deals once, with replacement, and every
    pairing uses the same drawn deals. In a round robin every pairing plays the same deals, so the pairings'
    results are correlated deal by deal (a deal that suits one bot suits it against everyone); resampling each
    pairing on its own treats them as independent, and the intervals come out too narrow (issue 32 item 10:
    86-93% coverage of a nominal 95%; measured in tests/test_rating_bootstrap.py). The resample is drawn as
    multinomial counts over the distinct joint outcomes of a deal (its points in every pairing), which again has
    exactly the distribution of resampling the deals.

    Seeded with ``numpy.random.default_rng(seed)``, so equal seeds give equal results. Rows are
    ``(player_a, player_b, points_a)`` as in :func:`pair_tables`.

    >>> rows = [(0, 1, 2), (0, 1, 1), (0, 1, 2), (0, 1, 0), (0, 1, 2), (0, 1, 1)]
    >>> result = bootstrap_ratings(rows, reps=200, seed=1)
    >>> bool(result.low[0] < result.ratings[0] < result.high[0]), result.replicates.shape
    (True, (200, 2))
    """
    if reps < 1:
        raise ValueError(f"reps must be at least 1, got {reps}")
    a, b, points, k = _pair_columns(pair_results, player_count, games_per_pair)
    wins, games = pair_tables(pair_results, k, games_per_pair)
    ratings = bradley_terry(wins, games, anchor=anchor, prior_draws=prior_draws)

    # Orient every row as (lower index, higher index) so each matchup is one stratum.
    swap = a > b
    first = np.where(swap, b, a)
    second = np.where(swap, a, b)
    points_first = np.where(swap, games_per_pair - points, points)
    rng = np.random.default_rng(seed)
    if deals is None:
        replicate_wins = np.zeros((reps, k, k))
        replicate_games = np.broadcast_to(games, (reps, k, k))
        for i, j in sorted(set(zip(first.tolist(), second.tolist(), strict=True))):
            in_matchup = (first == i) & (second == j)
            values, counts = np.unique(points_first[in_matchup], return_counts=True)
            draws = rng.multinomial(int(counts.sum()), counts / counts.sum(), size=reps)
            total = draws @ values
            replicate_wins[:, i, j] = total
            replicate_wins[:, j, i] = games[i, j] - total
    else:
        replicate_wins, replicate_games = _joint_replicates(
            first, second, points_first, deals, k, games_per_pair, reps, rng
        )
    off_diagonal = 1.0 - np.eye(k)
    replicate_wins += prior_draws / 2.0 * off_diagonal
    replicate_games = replicate_games + prior_draws * off_diagonal
    if prior_draws == 0:
        scores = replicate_wins.sum(axis=-1)
        if np.any(scores <= 0) or np.any(scores >= replicate_games.sum(axis=-1)):
            raise ValueError("a bootstrap replicate has a player with all wins or all losses; use prior_draws > 0")
    replicates = _anchor(_bt_mm(replicate_wins, replicate_games, _BT_TOLERANCE), anchor)

    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(replicates, [tail, 100.0 - tail], axis=0)
    greater = (replicates[:, :, None] > replicates[:, None, :]).mean(axis=0)
    ties = (replicates[:, :, None] == replicates[:, None, :]).mean(axis=0)
    ranks = 1 + (replicates[:, None, :] > replicates[:, :, None]).sum(axis=-1)
    rank_low, rank_high = np.percentile(ranks, [tail, 100.0 - tail], axis=0, method="nearest")
    return BootstrapRatings(
        ratings=ratings,
        low=low,
        high=high,
        replicates=replicates,
        los=greater + 0.5 * ties,
        rank_low=rank_low.astype(float),
        rank_high=rank_high.astype(float),
    )


def _joint_replicates(
    first: NDArray[np.intp],
    second: NDArray[np.intp],
    points_first: NDArray[np.float64],
    deals: ArrayLike,
    k: int,
    games_per_pair: int,
    reps: int,
    rng: np.random.Generator,
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """(wins, games) tables of ``reps`` replicates that resample whole deals, the same deals in every pairing."""
    deal = np.asarray(deals)
    if deal.shape != first.shape:
        raise ValueError(f"deals must give one deal id per row: {deal.shape[0] if deal.ndim else 0} for {first.size}")
    if deal.dtype.kind not in "iu" and not (deal.dtype.kind == "f" and np.all(deal == np.round(deal))):
        raise ValueError("deals must be whole numbers (the unit index of each row)")
    matchups, matchup = np.unique(np.stack([first, second]), axis=1, return_inverse=True)
    matchup = matchup.ravel()
    _, deal_index = np.unique(deal, return_inverse=True)
    deal_index = deal_index.ravel()
    count = int(deal_index.max()) + 1
    score = np.zeros((matchups.shape[1], count))
    present = np.zeros((matchups.shape[1], count))
    np.add.at(score, (matchup, deal_index), points_first)
    np.add.at(present, (matchup, deal_index), 1.0)
    # A deal is its points and games in every matchup; deals alike are one outcome, drawn by their share.
    outcomes, weights = np.unique(np.vstack([score, present]), axis=1, return_counts=True)
    draws = rng.multinomial(count, weights / count, size=reps).astype(float)
    half = score.shape[0]
    wins_by_matchup = draws @ outcomes[:half].T
    games_by_matchup = games_per_pair * (draws @ outcomes[half:].T)
    replicate_wins = np.zeros((reps, k, k))
    replicate_games = np.zeros((reps, k, k))
    for index, (i, j) in enumerate(matchups.T.tolist()):
        replicate_wins[:, i, j] = wins_by_matchup[:, index]
        replicate_wins[:, j, i] = games_by_matchup[:, index] - wins_by_matchup[:, index]
        replicate_games[:, i, j] = replicate_games[:, j, i] = games_by_matchup[:, index]
    return replicate_wins, replicate_games


class RatingSpread(NamedTuple):
    """The skill spread of a pool of players: the best rating minus the worst, with its interval (§2)."""

    spread: float
    """Best minus worst rating of the full fit (Elo)."""
    low: float
    high: float
    """Percentiles of the per-replicate spread (2.5% and 97.5% for 95%)."""
    best: int
    worst: int
    """Indices of the best and the worst player of the full fit."""


def rating_spread(ratings: ArrayLike, replicates: ArrayLike, confidence: float = 0.95) -> RatingSpread:
    """How far apart the best and the worst player are, with a percentile bootstrap interval (§2).

    The spread of each bootstrap replicate (:attr:`BootstrapRatings.replicates`) is its highest rating
    minus its lowest, whoever holds them there; the interval is the middle ``confidence`` share of those
    spreads (the percentile bootstrap: Efron and Tibshirani, *An Introduction to the Bootstrap*, 1993,
    ch. 13). A spread is at least 0, and when the players are close its replicates, maxima of noisy
    differences, sit above the true spread: read a lower bound near 0 as "no measurable spread".

    >>> round(rating_spread([100.0, -20.0, -80.0], [[90, -10, -80], [120, -30, -90], [95, -25, -70]]).spread, 1)
    180.0
    """
    fitted = np.asarray(ratings, dtype=float).ravel()
    samples = np.asarray(replicates, dtype=float)
    if fitted.size < 2 or samples.ndim != 2 or samples.shape[1] != fitted.size or samples.shape[0] < 1:
        raise ValueError(
            f"need ratings of at least two players and replicates of shape (reps, {fitted.size}), "
            f"got {fitted.size} ratings and shape {samples.shape}"
        )
    spreads = samples.max(axis=1) - samples.min(axis=1)
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(spreads, [tail, 100.0 - tail])
    best, worst = int(np.argmax(fitted)), int(np.argmin(fitted))
    return RatingSpread(float(fitted[best] - fitted[worst]), float(low), float(high), best, worst)

"""Intervals for win rates and means, and the tests and corrections a family of them needs (docs/STATISTICS.md
§4): Wilson and t intervals, Bonferroni-corrected confidence, Holm and Benjamini-Hochberg, the sign test and the
score test."""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Literal, NamedTuple, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

from simgin.statistics.core import SMALL_SAMPLE, scalar_or_array, two_sided_p_value, z_value

_NORMAL = NormalDist()


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
    return scalar_or_array(low), scalar_or_array(high)


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


#: Below :data:`~simgin.statistics.core.SMALL_SAMPLE` units a score test is the exact sign test rather than the
#: normal approximation (§7), as a mean's interval uses Student's t (§4).


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

"""Paired comparisons of two rule sets on shared deals, honest at every sample size (docs/STATISTICS.md §9, §10).

A variant study plays unit k (a deal pair or a game) from the same seed under both rule sets, so a
difference between them is paired unit by unit. :func:`paired_comparison` gives that difference with a
p-value and an interval that agree with each other, whatever the number of units:

- from :data:`PERMUTATION_BELOW` units on, Student's t on the units' delta-method contributions
  (:func:`simgin.statistics.stats.paired_difference`; the normal test rejected a true null too often at
  30-50 units, issue 32);
- below it, the exact **swap test**: under "the rule sets make no difference" the two sides of a unit are
  exchangeable, so every way of swapping them is as likely as the one observed. The p-value is the share of
  swap patterns whose difference is at least as large (all 2^n patterns up to :data:`EXACT_UP_TO` units,
  a seeded sample above), so two units can never give p = 0; the interval inverts the same distribution;
- for shares (win, gin, dead-hand rates...), also Newcombe's hybrid score interval on Wilson intervals of
  each side's rate, with its sample size divided by the design effect of the units, which covers rare
  events (no dead hand in either cell gives an interval around 0, not [0, 0]). The share's test is the
  stricter of the two and its interval their hull, so the interval excludes 0 exactly when the test rejects.

:func:`holm_levels` gives each hypothesis of a family the level its Holm step tests it at, so that intervals
at those levels agree with Holm's decisions (§4).

>>> c = paired_comparison([3, 3], [1, 1])  # two units, the same difference in both: no p of 0
>>> c.difference, c.p, c.method
(2.0, 0.5, 'swap')
>>> holm_levels([0.001, 0.04, 0.03]).round(4).tolist()  # the first step passes, the second does not
[0.0167, 0.025, 0.025]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache
from statistics import NormalDist
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

from simgin.statistics.duplicate import paired_arrays, paired_difference
from simgin.statistics.elo import (
    SprtResult,
    _distribution,
    _llr,
    _mle_mean,
    llr_gaussian,
    sprt_bounds,
    sprt_decision,
)

__all__ = [
    "EXACT_UP_TO",
    "PERMUTATION_BELOW",
    "PairedComparison",
    "holm_levels",
    "normal_sprt",
    "paired_comparison",
    "paired_sprt",
    "share_interval",
    "share_interval_from_sums",
    "share_interval_over_groups",
]

PERMUTATION_BELOW = 30
"""Below this many units the swap test replaces Student's t (§10)."""
EXACT_UP_TO = 14
"""Up to this many units every one of the 2^n swap patterns is enumerated; above, :data:`SWAP_SAMPLES` are drawn."""
SWAP_SAMPLES = 19_999
"""Random swap patterns drawn (with the observed one: 20,000) when there are too many to enumerate."""
SWAP_SEED = 20261203
"""The swap sample's seed: a comparison of the same data gives the same p-value every time."""
MIN_DESIGN_EFFECT = 0.05
"""The smallest design effect a share's interval uses: hands of a duplicate pair can be negatively correlated
(effect below 1), but never so much that the pooled counts say twenty times what they hold."""
_BISECTION_STEPS = 60


class PairedComparison(NamedTuple):
    """A difference between two sides measured on the same units, with a p-value and an interval that agree."""

    difference: float
    """Σx/Σx_per - Σy/Σy_per: the difference of the pooled rates the tables print."""
    low: float
    high: float
    """The interval at the requested confidence; it excludes 0 exactly when ``p < 1 - confidence``. NaN when it
    cannot be measured (fewer than two units)."""
    p: float
    """Two-sided p-value of "no difference"."""
    units: int
    method: str
    """``'t'`` (Student's t over units), ``'swap'`` (the exact or sampled swap test), either with ``'+score'``
    when a share's Newcombe score interval was combined with it."""
    confidence: float


@lru_cache(maxsize=64)
def _swap_patterns(n: int) -> NDArray[np.bool_]:
    """Which units are swapped, one row per pattern; the first row swaps none (the data as observed)."""
    if n <= EXACT_UP_TO:
        codes = np.arange(2**n, dtype=np.int64)
        patterns = ((codes[:, None] >> np.arange(n)) & 1).astype(bool)
    else:
        drawn = np.random.default_rng(SWAP_SEED).random((SWAP_SAMPLES, n)) < 0.5
        patterns = np.vstack([np.zeros((1, n), dtype=bool), drawn])
    patterns.setflags(write=False)
    return patterns


def _swap_differences(xs: NDArray, ys: NDArray, xn: NDArray, yn: NDArray) -> NDArray[np.float64]:
    """The difference of pooled rates under every swap pattern of :func:`_swap_patterns` (the first: observed)."""
    swap = _swap_patterns(xs.size)
    sum_x = np.where(swap, ys, xs).sum(axis=1)
    sum_y = np.where(swap, xs, ys).sum(axis=1)
    per_x = np.where(swap, yn, xn).sum(axis=1)
    per_y = np.where(swap, xn, yn).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return sum_x / per_x - sum_y / per_y


def _swap_test(difference: float, distribution: NDArray[np.float64], confidence: float) -> tuple[float, float, float]:
    """(p, low, high) of the swap test: p the share of patterns at least as far from 0 as the observed one, the
    interval ``difference ± c`` with c the critical distance, so that it excludes 0 exactly when p < 1 - confidence."""
    size = np.abs(distribution[np.isfinite(distribution)])
    total = size.size
    tolerance = 1e-12 * max(1.0, abs(difference))
    p = float(np.count_nonzero(size >= abs(difference) - tolerance)) / total
    allowed = max(0, math.ceil((1.0 - confidence) * total - 1e-9) - 1)
    critical = float(np.sort(size)[::-1][min(allowed, total - 1)])
    if abs(difference) <= critical + tolerance:  # not rejected: the interval reaches 0, rounding aside
        critical = max(critical, abs(difference))
    return p, difference - critical, difference + critical


def share_interval(events: ArrayLike, trials: ArrayLike, confidence: float = 0.95) -> tuple[float, float, float]:
    """A pooled share Σevents/Σtrials over units with its interval: (share, low, high) (§9, §10).

    Wilson's score interval on the pooled counts, with the number of trials divided by the design effect of
    the units (the delta-method variance of the share over the binomial one: hands of one deal pair are not
    independent). Wilson's interval stays inside [0, 1] and keeps a width when no unit had an event, which
    is where a normal interval over units fails (a rare dead hand, issue 32 item 11). With fewer than two
    units or a share of 0 or 1 the design effect cannot be measured and the plain counts are used; below
    :data:`PERMUTATION_BELOW` units it is taken as at least 1.

    >>> share, low, high = share_interval([0, 0, 0, 0], [5, 6, 4, 5])
    >>> share, low, round(high, 3)
    (0.0, 0.0, 0.161)
    """
    side = _Side(np.asarray(events, dtype=float).ravel(), np.asarray(trials, dtype=float).ravel())
    if not side.total > 0:
        return math.nan, 0.0, 1.0
    low, high = side.interval(_z(confidence))
    return side.share, low, high


def share_interval_from_sums(
    events: float,
    trials: float,
    events_sq: float,
    trials_sq: float,
    cross: float,
    units: float,
    confidence: float = 0.95,
) -> tuple[float, float, float]:
    """:func:`share_interval` from sums over the units instead of the units themselves (a streamed tally keeps no
    units): ``events`` and ``trials`` summed over ``units`` units, with the sums of their squares and of their
    products. The same share, design effect and Wilson interval, to rounding.

    >>> from_sums = share_interval_from_sums(3.0, 8.0, 5.0, 32.0, 12.0, 2)  # units of 1 in 4 and 2 in 4
    >>> all(abs(a - b) < 1e-12 for a, b in zip(from_sums, share_interval([1, 2], [4, 4])))
    True
    """
    if not trials > 0:
        return math.nan, 0.0, 1.0
    share = events / trials
    residual_sq = max(events_sq - 2.0 * share * cross + share * share * trials_sq, 0.0)
    effect = _effect_of_sums(residual_sq, trials, units, share)
    low, high = _wilson_bounds(share, trials / effect, _z(confidence))
    return share, low, high


def share_interval_over_groups(
    groups: Sequence[tuple[float, float, float, float, float, float]], confidence: float = 0.95
) -> tuple[float, float, float]:
    """A share pooled over groups of units that may be correlated with one another, from each group's sums as
    :func:`share_interval_from_sums` takes them (events, trials, events², trials², events x trials, units).

    The groups of a tournament are a player's pairings, which play the same deals, so their units are not
    independent and nothing in the sums says how alike they are. The variance of a sum is at most the square of
    the sum of its parts' standard deviations (equality when they move as one), so the interval is Wilson's with
    the trials divided by that bound's design effect: at least 95%, exact for one group (equal to
    :func:`share_interval_from_sums`) and for copies of one group. A group of fewer than two units counts its
    binomial variance.

    >>> one = (3.0, 8.0, 5.0, 32.0, 12.0, 2)
    >>> all(abs(a - b) < 1e-12 for a, b in zip(share_interval_over_groups([one]), share_interval_from_sums(*one)))
    True
    >>> u, k = np.arange(40) % 3, np.full(40, 2.0)  # 40 units of 2 trials
    >>> many = (u.sum(), k.sum(), (u * u).sum(), (k * k).sum(), (u * k).sum(), 40)
    >>> all(abs(a - b) < 1e-12 for a, b in zip(share_interval_over_groups([many] * 2), share_interval_from_sums(*many)))
    True
    """
    events = sum(group[0] for group in groups)
    trials = sum(group[1] for group in groups)
    if not trials > 0:
        return math.nan, 0.0, 1.0
    share = events / trials
    binomial = share * (1.0 - share) / trials
    spread = 0.0  # the bound on the pooled share's standard deviation
    for _, group_trials, events_sq, trials_sq, cross, units in groups:
        if units < 2:
            spread += math.sqrt(share * (1.0 - share) * group_trials) / trials
            continue
        residual_sq = max(events_sq - 2.0 * share * cross + share * share * trials_sq, 0.0)
        spread += math.sqrt(units / (units - 1) * residual_sq) / trials
    fewest = min(group[5] for group in groups)
    effect = 1.0
    if binomial > 0 and fewest >= 2:
        effect = max(spread * spread / binomial, 1.0 if fewest < PERMUTATION_BELOW else MIN_DESIGN_EFFECT)
    low, high = _wilson_bounds(share, trials / effect, _z(confidence))
    return share, low, high


def _z(confidence: float) -> float:
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


class _Side:
    """One side's pooled share, its effective sample size (trials over the design effect) and its Wilson interval
    at any z, in plain floats: the score test's bisection evaluates it many times."""

    def __init__(self, x: NDArray, n: NDArray) -> None:
        self.total = float(n.sum())
        self.share = float(x.sum()) / self.total if self.total > 0 else math.nan
        self.effective = self.total / _design_effect(x, n, self.share) if self.total > 0 else 0.0
        self.contributions = (x - self.share * n) / n.mean() if self.total > 0 else np.zeros_like(x)

    def interval(self, z: float) -> tuple[float, float]:
        return _wilson_bounds(self.share, self.effective, z)


def _wilson_bounds(p: float, n: float, z: float) -> tuple[float, float]:
    """Wilson's score interval of a share ``p`` of ``n`` (effective) trials, inside [0, 1] and around ``p``."""
    z2 = z * z
    denominator = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denominator
    half = z / denominator * math.sqrt(max(p * (1.0 - p) / n + z2 / (4.0 * n * n), 0.0))
    low = 0.0 if p <= 0.0 else min(max(centre - half, 0.0), p)
    high = 1.0 if p >= 1.0 else max(min(centre + half, 1.0), p)
    return low, high


def _design_effect(x: NDArray, n: NDArray, share: float) -> float:
    return _effect_of_sums(float(((x - share * n) ** 2).sum()), float(n.sum()), x.size, share)


def _effect_of_sums(residual_sq: float, trials: float, units: float, share: float) -> float:
    """The design effect of a pooled ``share`` of ``trials`` over ``units`` units whose residuals (events minus
    share times trials) square to ``residual_sq``: the delta-method variance of the share over the binomial one."""
    binomial = share * (1.0 - share) / trials
    if units < 2 or not binomial > 0:
        return 1.0
    effect = units / (units - 1) * residual_sq / trials**2 / binomial
    # Below PERMUTATION_BELOW units the spread is too poorly known to shrink the interval (two deal pairs split
    # alike are no evidence of precision): the design effect is then at least 1.
    return float(max(effect, 1.0 if units < PERMUTATION_BELOW else MIN_DESIGN_EFFECT))


def _score_interval(one: _Side, other: _Side, rho: float, z: float) -> tuple[float, float]:
    """Newcombe's hybrid score interval for the difference of two paired shares (method 10 of Newcombe 1998,
    with the correlation of the two estimates over units in place of the phi coefficient)."""
    p1, p2 = one.share, other.share
    l1, u1 = one.interval(z)
    l2, u2 = other.interval(z)
    difference = p1 - p2
    below = (p1 - l1) ** 2 - 2.0 * rho * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2
    above = (u1 - p1) ** 2 - 2.0 * rho * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2
    return difference - math.sqrt(max(below, 0.0)), difference + math.sqrt(max(above, 0.0))


def _score_p(one: _Side, other: _Side, rho: float) -> float:
    """The smallest α at which the score interval at 1 - α excludes 0 (its p-value), by bisection on z."""
    if one.share == other.share:
        return 1.0

    def excludes(z: float) -> bool:
        low, high = _score_interval(one, other, rho, z)
        return low > 0.0 or high < 0.0

    low, high = 0.0, 8.0  # z; excluded at z = 0 always (a non-zero difference), and p(8) is about 1e-15
    if excludes(high):
        return 2.0 * NormalDist().cdf(-high)
    for _ in range(_BISECTION_STEPS):
        middle = (low + high) / 2.0
        if excludes(middle):
            low = middle
        else:
            high = middle
    return min(1.0, 2.0 * NormalDist().cdf(-low))


def paired_comparison(
    x: ArrayLike,
    y: ArrayLike,
    x_per: ArrayLike | None = None,
    y_per: ArrayLike | None = None,
    confidence: float = 0.95,
    share: bool = False,
) -> PairedComparison:
    """The difference Σx/Σx_per - Σy/Σy_per of two sides measured on the same units, tested honestly (§10).

    Unit k contributes ``x[k]`` events in ``x_per[k]`` trials on one side and ``y[k]`` in ``y_per[k]`` on the
    other (trials default to 1: a mean per unit). From :data:`PERMUTATION_BELOW` units the test and interval
    are Student's t over the units' delta-method contributions; below, the swap test (module docstring).
    ``share=True`` (a rate between 0 and 1) adds Newcombe's score interval with design-effect sizes: the
    p-value is the larger of the two tests', the interval the hull of both. In every case the interval
    excludes 0 exactly when ``p < 1 - confidence``.

    >>> c = paired_comparison([1, 0, 1, 1, 0, 1], [0, 0, 1, 0, 0, 1])
    >>> round(c.difference, 4), round(c.p, 3), c.method
    (0.3333, 0.5, 'swap')
    """
    xs, ys, xn, yn = paired_arrays(x, y, x_per, y_per)
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence}")
    units = xs.size
    if units == 0 or xn.sum() <= 0 or yn.sum() <= 0:
        return PairedComparison(math.nan, math.nan, math.nan, 1.0, units, "none", confidence)
    difference = float(xs.sum() / xn.sum() - ys.sum() / yn.sum())
    if units < 2:
        return PairedComparison(difference, math.nan, math.nan, 1.0, units, "none", confidence)
    if units < PERMUTATION_BELOW:
        p, low, high = _swap_test(difference, _swap_differences(xs, ys, xn, yn), confidence)
        method = "swap"
    else:
        t = paired_difference(xs, ys, xn, yn, confidence)
        p, low, high, method = t.p, t.low, t.high, "t"
        if t.se == 0.0:  # no spread over 30 or more units: the exact swap test has the answer (p = 2^(1-n) or so)
            p, low, high = _swap_test(difference, _swap_differences(xs, ys, xn, yn), confidence)
            method = "swap"
    if share:
        one, other = _Side(xs, xn), _Side(ys, yn)
        zx, zy = one.contributions, other.contributions
        rho = 0.0
        if zx.std() > 0 and zy.std() > 0:
            rho = float(np.clip(np.corrcoef(zx, zy)[0, 1], -1.0, 1.0))
        score_low, score_high = _score_interval(one, other, rho, _z(confidence))
        p = max(p, _score_p(one, other, rho))
        low, high = min(low, score_low), max(high, score_high)
        method += "+score"
    return PairedComparison(difference, float(low), float(high), float(p), units, method, confidence)


def holm_levels(pvalues: ArrayLike, alpha: float = 0.05) -> NDArray[np.float64]:
    """The level α/k at which Holm's step-down procedure tests each hypothesis, in the input order (§4).

    Sorted ascending, the hypothesis at step l (from 0) is tested at α/(m - l) while every earlier one was
    rejected; from the first one not rejected on, every hypothesis is judged at that step's level. An
    interval at confidence 1 - level (from the test that gave the p-value) therefore excludes 0 exactly when
    Holm's adjusted p-value is below α: the intervals agree with the decisions. They are the Holm-consistent
    intervals of the family, wider than unadjusted 95% intervals and at most as wide as Bonferroni's.

    >>> holm_levels([0.2, 0.01]).tolist()
    [0.05, 0.025]
    """
    p = np.asarray(pvalues, dtype=float).ravel()
    m = p.size
    levels = np.empty(m)
    if m == 0:
        return levels
    order = np.argsort(p, kind="stable")
    sorted_levels = alpha / (m - np.arange(m))
    passed = (m - np.arange(m)) * p[order] < alpha
    stop = m if passed.all() else int(np.argmin(passed))
    if stop < m:
        sorted_levels[stop:] = alpha / (m - stop)
    levels[order] = sorted_levels
    return levels


#: The support of a unit's difference of shares between two rule sets: quarter points from -1 to 1 (a deal pair
#: of games or hands scores 0, 1/2 or 1 on each side, a quarter with a drawn game).
DIFFERENCE_SUPPORT = tuple(k / 4.0 for k in range(-4, 5))


def paired_sprt(differences: ArrayLike, s0: float, s1: float, alpha: float = 0.05, beta: float = 0.05) -> SprtResult:
    """The generalised SPRT of H0: mean = ``s0`` against H1: mean = ``s1`` for per-unit differences of a share
    between two rule sets (§10, the GSPRT of §1 on the support :data:`DIFFERENCE_SUPPORT`).

    Each unit's difference is counted on the support (quarter points); under each hypothesis the maximum-likelihood
    distribution with that mean is found as in §1, and LLR = N·Σ p̂ᵢ ln(q₁ᵢ/q₀ᵢ). Wald's bounds decide.

    >>> paired_sprt([0.5] * 40 + [0.0] * 40, 0.0, 0.1).decision
    'H1'
    """
    d = np.asarray(differences, dtype=float).ravel()
    if not -1.0 < s0 < s1 < 1.0:
        raise ValueError(f"need -1 < s0 < s1 < 1 (shares' differences), got s0={s0}, s1={s1}")
    lower, upper = sprt_bounds(alpha, beta)
    if d.size == 0:
        return SprtResult(0.0, lower, upper, "continue")
    steps = np.rint(d * 4.0).astype(int) + 4
    if np.any(np.abs(d * 4.0 - np.rint(d * 4.0)) > 1e-9) or np.any((steps < 0) | (steps > 8)):
        raise ValueError("unit differences must be quarter points between -1 and 1")
    counts = np.bincount(steps, minlength=9)
    total, p_hat, support = _distribution(counts, DIFFERENCE_SUPPORT)
    llr = _llr(total, p_hat, _mle_mean(p_hat, support, s0), _mle_mean(p_hat, support, s1))
    return SprtResult(llr, lower, upper, sprt_decision(llr, alpha, beta))


#: The fewest units before :func:`normal_sprt` may decide: the normal model needs a measured spread (§10).
NORMAL_SPRT_MIN_UNITS = 30


def normal_sprt(values: ArrayLike, s0: float, s1: float, alpha: float = 0.05, beta: float = 0.05) -> SprtResult:
    """The generalised SPRT of H0: mean = ``s0`` against H1: mean = ``s1`` for per-unit values that are not
    counts (luck-adjusted outcomes, docs/STATISTICS.md §13): the Gaussian LLR of §1
    (:func:`~simgin.statistics.elo.llr_gaussian`) with the units' measured variance. Wald's bounds decide, and
    not before :data:`NORMAL_SPRT_MIN_UNITS` units (a spread measured on a few units can be zero).

    >>> normal_sprt([0.1, 0.0, 0.2] * 20, 0.0, 0.1).decision
    'H1'
    >>> normal_sprt([0.1, 0.0, 0.2] * 5, 0.0, 0.1).decision
    'continue'
    """
    x = np.asarray(values, dtype=float).ravel()
    if not (math.isfinite(s0) and math.isfinite(s1) and s0 < s1):
        raise ValueError(f"need finite s0 < s1, got s0={s0}, s1={s1}")
    lower, upper = sprt_bounds(alpha, beta)
    variance = float(x.var()) if x.size else 0.0
    if x.size < NORMAL_SPRT_MIN_UNITS or variance <= 0.0:
        return SprtResult(0.0, lower, upper, "continue")
    llr = llr_gaussian(float(x.mean()), variance, x.size, s0, s1)
    return SprtResult(llr, lower, upper, sprt_decision(llr, alpha, beta))

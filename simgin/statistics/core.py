"""The small pieces every statistic shares (docs/STATISTICS.md): the normal quantile and two-sided p-value,
Student's t (its p-value and quantile, for few units), finite ratios and means from running sums, counts shown as
integers when they are whole."""

from __future__ import annotations

import math
from functools import lru_cache
from statistics import NormalDist

import numpy as np
from numpy.typing import NDArray

_NORMAL = NormalDist()


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


def scalar_or_array(value: NDArray[np.float64]) -> float | NDArray[np.float64]:
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


def variance_from_sums(total: float, total_sq: float, n: float) -> float:
    """The sample variance (n - 1 in the denominator) from a sum and a sum of squares; NaN below two values."""
    if n < 2:
        return math.nan
    mean = total / n
    return max(total_sq - n * mean * mean, 0.0) / (n - 1)


SMALL_SAMPLE = 30
"""Below this many units a mean's interval and test use Student's t with n - 1 degrees of freedom, not the
normal quantile (§4): with 10 units the normal 95% interval covers about 92%."""


def quantile_95(n: float) -> float:
    """The two-sided 95% quantile for a mean over ``n`` units: Student's t with n - 1 degrees of freedom below
    :data:`SMALL_SAMPLE` units, else the normal's.

    >>> round(quantile_95(10), 4), quantile_95(30) == Z95
    (2.2622, True)
    """
    return _t_quantile_95(int(n) - 1) if n < SMALL_SAMPLE else Z95


@lru_cache(maxsize=SMALL_SAMPLE)
def _t_quantile_95(df: int) -> float:
    return t_quantile(0.95, df)


def mean_from_sums(total: float, total_sq: float, n: float) -> tuple[float, float, float]:
    """Mean with a 95% interval from a sum and a sum of squares over ``n`` units (§4; Student's t below
    :data:`SMALL_SAMPLE` units): streamed tallies keep no values."""
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = total / n
    if n < 2:
        return mean, math.nan, math.nan
    half = quantile_95(n) * math.sqrt(variance_from_sums(total, total_sq, n) / n)
    return mean, mean - half, mean + half


def ratio_from_sums(x: float, y: float, x_sq: float, y_sq: float, xy: float, n: float) -> tuple[float, float, float]:
    """``x / y`` with a 95% interval, where ``x`` and ``y`` are sums over ``n`` independent units and
    ``x_sq``, ``y_sq``, ``xy`` the sums of their squares and products: the ratio estimator's (delta method), as
    for a share of hands whose unit is the deal pair (docs/STATISTICS.md §3), with Student's t below
    :data:`SMALL_SAMPLE` units. NaN bounds below two units.

    >>> [round(value, 3) for value in ratio_from_sums(3.0, 6.0, 5.0, 18.0, 9.0, 2)]  # units (1, 3) and (2, 3)
    [0.5, -1.618, 2.618]
    """
    if y == 0:
        return math.nan, math.nan, math.nan
    estimate = x / y
    if n < 2:
        return estimate, math.nan, math.nan
    residual_sq = max(x_sq - 2.0 * estimate * xy + estimate * estimate * y_sq, 0.0)
    half = quantile_95(n) * math.sqrt(n / (n - 1) * residual_sq) / abs(y)
    return estimate, estimate - half, estimate + half


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


def t_quantile(confidence: float, df: float) -> float:
    """The two-sided quantile of Student's t: the q with p-value 1 - confidence, by bisection.

    >>> round(t_quantile(0.95, 10), 4)
    2.2281
    """
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

"""The small pieces every statistic shares (docs/STATISTICS.md): the normal quantile and two-sided p-value,
finite ratios and means from running sums, counts shown as integers when they are whole."""

from __future__ import annotations

import math
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


def mean_from_sums(total: float, total_sq: float, n: float) -> tuple[float, float, float]:
    """Mean with a normal 95% interval from a sum and a sum of squares (§4): streamed tallies keep no values."""
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = total / n
    if n < 2:
        return mean, math.nan, math.nan
    half = Z95 * math.sqrt(variance_from_sums(total, total_sq, n) / n)
    return mean, mean - half, mean + half


def ratio_from_sums(x: float, y: float, x_sq: float, y_sq: float, xy: float, n: float) -> tuple[float, float, float]:
    """``x / y`` with a normal 95% interval, where ``x`` and ``y`` are sums over ``n`` independent units and
    ``x_sq``, ``y_sq``, ``xy`` the sums of their squares and products: the ratio estimator's (delta method), as
    for a share of hands whose unit is the deal pair (docs/STATISTICS.md §3). NaN bounds below two units.

    >>> [round(value, 3) for value in ratio_from_sums(3.0, 6.0, 5.0, 18.0, 9.0, 2)]  # units (1, 3) and (2, 3)
    [0.5, 0.173, 0.827]
    """
    if y == 0:
        return math.nan, math.nan, math.nan
    estimate = x / y
    if n < 2:
        return estimate, math.nan, math.nan
    residual_sq = max(x_sq - 2.0 * estimate * xy + estimate * estimate * y_sq, 0.0)
    half = Z95 * math.sqrt(n / (n - 1) * residual_sq) / abs(y)
    return estimate, estimate - half, estimate + half

"""Power and sample size of a two-sided test of a mean difference (docs/STATISTICS.md §5, §11).

>>> units_needed(sd=0.5, difference=0.05, alpha=0.05, power=0.8)
785
>>> round(detectable_difference(se=0.5 / 785 ** 0.5, alpha=0.05, power=0.8), 4)
0.05
"""

from __future__ import annotations

import math
from statistics import NormalDist

__all__ = ["detectable_difference", "power_to_detect", "units_needed"]


def _z(tail: float) -> float:
    return NormalDist().inv_cdf(1.0 - tail)


def units_needed(sd: float, difference: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Units (deal pairs, games or hands) for a two-sided test at level ``alpha`` to detect ``difference`` with
    ``power``, when one unit's contribution has standard deviation ``sd`` (normal approximation, §5)."""
    if not difference > 0:
        raise ValueError(f"the difference to detect must be positive, got {difference}")
    if not 0.0 < power < 1.0:
        raise ValueError(f"power must lie strictly between 0 and 1, got {power}")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha}")
    return max(2, math.ceil(((_z(alpha / 2.0) + _z(1.0 - power)) * sd / difference) ** 2))


def detectable_difference(se: float, alpha: float = 0.05, power: float = 0.8) -> float:
    """The smallest true difference a two-sided test at level ``alpha`` detects with ``power``, given the standard
    error ``se`` of the estimate: (q₁₋α/2 + z₁₋β)·se (§11). NaN when the standard error is unknown."""
    if not math.isfinite(se):
        return math.nan
    return (_z(alpha / 2.0) + _z(1.0 - power)) * se


def power_to_detect(difference: float, se: float, alpha: float = 0.05) -> float:
    """The power of a two-sided test at level ``alpha`` against a true ``difference``, when the estimate has
    standard error ``se``: Φ(|d|/se - q₁₋α/2) + Φ(-|d|/se - q₁₋α/2) (normal approximation, §11). NaN when either
    is unknown.

    >>> round(power_to_detect(0.05, 0.5 / 785 ** 0.5), 3)
    0.8
    """
    if not (math.isfinite(difference) and math.isfinite(se)) or se <= 0:
        return math.nan
    shift = abs(difference) / se
    z = _z(alpha / 2.0)
    normal = NormalDist()
    return normal.cdf(shift - z) + normal.cdf(-shift - z)

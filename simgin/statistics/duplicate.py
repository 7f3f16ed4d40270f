"""Duplicate deals and planning (docs/STATISTICS.md §3, §5): paired margins of seat-swapped deals, the hands
a difference needs, Student's t on the pairs' contributions."""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from simgin.statistics.core import student_t_p_value, t_quantile, z_value
from simgin.statistics.intervals import mean_interval

_NORMAL = NormalDist()


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


def paired_arrays(
    x: ArrayLike, y: ArrayLike, x_per: ArrayLike | None, y_per: ArrayLike | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The events and trials of paired units as flat float arrays (the trials default to 1 per unit), or a
    one-line ValueError when their sizes differ or a value is not finite."""
    xs = np.asarray(x, dtype=float).ravel()
    ys = np.asarray(y, dtype=float).ravel()
    xn = np.ones_like(xs) if x_per is None else np.asarray(x_per, dtype=float).ravel()
    yn = np.ones_like(ys) if y_per is None else np.asarray(y_per, dtype=float).ravel()
    if not xs.size == ys.size == xn.size == yn.size:
        raise ValueError(f"paired units must match: {xs.size}, {ys.size}, {xn.size} and {yn.size} values")
    if not all(np.all(np.isfinite(v)) for v in (xs, ys, xn, yn)):
        raise ValueError("paired values must be finite")
    return xs, ys, xn, yn


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
    xs, ys, xn, yn = paired_arrays(x, y, x_per, y_per)
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
    quantile = t_quantile(confidence, n - 1)
    return PairedDifference(difference, difference - quantile * se, difference + quantile * se, se, p, n)

"""Elo, pair-score distributions and the GSPRT (docs/STATISTICS.md §1): the duplicate deal pair's score on its
support (gin pairs: LL, split, WW), its Elo with an interval, normalized Elo, and the sequential probability
ratio test with its log-likelihood ratios."""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Literal, NamedTuple, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

from simgin.statistics.core import scalar_or_array, z_value

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
    return scalar_or_array(elo + 0.0)  # + 0.0 turns -0.0 into 0.0


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
    return scalar_or_array(1.0 / (1.0 + 10.0 ** (-e / 400.0)))


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

"""Bradley-Terry ratings and the cluster bootstrap (docs/STATISTICS.md §2): ratings from pairwise win tables by
minorisation-maximisation, their intervals by resampling deal pairs (within pairings, or the same deals jointly
across every pairing), and the spread of the ratings."""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike, NDArray

_NORMAL = NormalDist()


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

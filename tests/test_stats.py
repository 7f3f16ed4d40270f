"""simgin.statistics.stats against the test vectors and worked examples of docs/STATISTICS.md, and simulations."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from simgin.statistics import stats
from simgin.statistics.stats import (
    GIN_PAIR_SUPPORT,
    PENTANOMIAL_SUPPORT,
    benjamini_hochberg,
    bootstrap_ratings,
    bradley_terry,
    corrected_confidence,
    elo_from_score,
    holm,
    llr_gaussian,
    llr_logistic,
    llr_normalized,
    mean_interval,
    normalized_elo,
    pair_tables,
    paired_margin_analysis,
    pentanomial_elo,
    planning_hands,
    score_from_elo,
    score_moments,
    sprt,
    sprt_bounds,
    sprt_decision,
    wilson_interval,
)

# §1 test vectors (checked against fishtest; docs/STATISTICS.md §1).
PENTANOMIAL = [10789, 19328, 33806, 19402, 10543]
TRINOMIAL = [65804, 56553, 65388]  # L, D, W single games
BALANCED = [39, 2226, 31451, 2412, 40]


# --------------------------------------------------------------------------------------------------------------------
# §1: the GSPRT test vectors
# --------------------------------------------------------------------------------------------------------------------


def test_llr_logistic_pentanomial_vector() -> None:
    assert round(llr_logistic(PENTANOMIAL, PENTANOMIAL_SUPPORT, -3.0, 1.0), 5) == 2.13107
    # support=None means evenly spaced scores: the same pentanomial support.
    assert llr_logistic(PENTANOMIAL, None, -3.0, 1.0) == llr_logistic(PENTANOMIAL, PENTANOMIAL_SUPPORT, -3.0, 1.0)


def test_llr_logistic_trinomial_vector() -> None:
    assert round(llr_logistic(TRINOMIAL, GIN_PAIR_SUPPORT, -3.0, 1.0), 5) == 2.04904


def test_llr_normalized_pentanomial_vector() -> None:
    assert round(llr_normalized(PENTANOMIAL, PENTANOMIAL_SUPPORT, 0.0, 2.0, pairs=True), 5) == -6.07043


def test_llr_normalized_balanced_openings_vector() -> None:
    assert round(llr_normalized(BALANCED, PENTANOMIAL_SUPPORT, 0.764, 3.439, pairs=True), 5) == 2.16294


def test_llr_gaussian_shortcut_vector() -> None:
    moments = score_moments(PENTANOMIAL)
    llr = llr_gaussian(moments.mean, moments.variance, moments.count, score_from_elo(-3.0), score_from_elo(1.0))
    assert round(llr, 5) == 2.13124


def test_pentanomial_elo_vector() -> None:
    elo, error, los = pentanomial_elo(PENTANOMIAL, PENTANOMIAL_SUPPORT)
    assert (round(elo, 2), round(error, 2), round(100 * los, 1)) == (-0.77, 1.28, 11.8)


def test_pentanomial_elo_gin_pairs_by_hand() -> None:
    # 100 pairs [LL, split, WW] = [20, 50, 30]: mu = 0.55, var = .2*.55² + .5*.05² + .3*.45² = 0.1225, SE = 0.035.
    elo, error, los = pentanomial_elo([20, 50, 30], GIN_PAIR_SUPPORT)
    assert elo == pytest.approx(-400 * math.log10(1 / 0.55 - 1))
    z = 1.959963984540054
    expected_error = (elo_from_score(0.55 + z * 0.035) - elo_from_score(0.55 - z * 0.035)) / 2
    assert error == pytest.approx(expected_error)
    assert los == pytest.approx(0.5 * (1 + math.erf(0.05 / 0.035 / math.sqrt(2))))


def test_normalized_elo_matches_its_definition() -> None:
    total, mean, variance = score_moments(PENTANOMIAL)
    nelo, error = normalized_elo(PENTANOMIAL, pairs=True)
    assert nelo == pytest.approx((mean - 0.5) / math.sqrt(2 * variance) * 800 / math.log(10))
    # For pairs the error depends on N only: z * 347.436 / sqrt(2N).
    assert error == pytest.approx(1.959964 * 347.4355855 / math.sqrt(2 * total), rel=1e-6)
    single_nelo, _ = normalized_elo(PENTANOMIAL, pairs=False)
    assert single_nelo == pytest.approx(nelo * math.sqrt(2))


def test_zero_counts_are_regularised() -> None:
    # All pairs won: finite, very large Elo and a positive LLR rather than a crash or infinity.
    elo, _, los = pentanomial_elo([0, 0, 50])
    assert 1000 < elo < math.inf and los > 0.999
    assert math.isfinite(llr_logistic([0, 0, 50], None, 0.0, 10.0)) and llr_logistic([0, 0, 50], None, 0.0, 10.0) > 0
    assert math.isfinite(llr_normalized([0, 3, 50], None, 0.0, 5.0))


def test_llr_is_antisymmetric_and_zero_for_equal_hypotheses() -> None:
    counts = [130, 240, 150]
    assert llr_logistic(counts, None, 0.0, 0.0) == pytest.approx(0.0, abs=1e-12)
    assert llr_logistic(counts, None, 0.0, 10.0) == pytest.approx(-llr_logistic(counts, None, 10.0, 0.0))
    assert llr_normalized(counts, None, 0.0, 5.0) == pytest.approx(-llr_normalized(counts, None, 5.0, 0.0))


def test_logistic_mle_has_the_hypothesised_mean() -> None:
    # The root finder must hit the constraint: the fitted distribution's mean is s_k to far below 1e-9.
    _, p, a = stats._distribution(PENTANOMIAL, None)
    q = stats._mle_mean(p, a, score_from_elo(5.0))
    assert q.sum() == pytest.approx(1.0, abs=1e-12)
    assert abs(q @ a - score_from_elo(5.0)) < 1e-12


def test_normalized_mle_has_the_hypothesised_t_value() -> None:
    _, p, a = stats._distribution(PENTANOMIAL, None)
    t = 2.0 * math.sqrt(2) / stats.NELO_PER_T
    q = stats._mle_t_value(p, a, t)
    mean = q @ a
    sigma = math.sqrt(q @ (a - mean) ** 2)
    assert abs((mean - 0.5) / sigma - t) < 1e-9


def test_sprt_bounds_and_decision() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    assert (lower, upper) == (pytest.approx(-math.log(19)), pytest.approx(math.log(19)))
    lower, upper = sprt_bounds(0.05, 0.10)
    assert (lower, upper) == (pytest.approx(math.log(0.10 / 0.95)), pytest.approx(math.log(0.90 / 0.05)))
    assert sprt_decision(2.95) == "H1"
    assert sprt_decision(-2.95) == "H0"
    assert sprt_decision(2.94) == "continue"
    with pytest.raises(ValueError):
        sprt_bounds(0.0, 0.05)
    result = sprt(PENTANOMIAL, None, 0.0, 2.0)
    assert result.decision == "H0" and round(result.llr, 5) == -6.07043
    assert sprt(PENTANOMIAL, None, -3.0, 1.0, model="logistic").decision == "continue"
    with pytest.raises(ValueError, match="unknown SPRT model"):
        sprt(PENTANOMIAL, None, 0.0, 2.0, model="bayes")  # type: ignore[arg-type]


def test_bad_counts_are_rejected() -> None:
    with pytest.raises(ValueError, match="support has"):
        llr_logistic([1, 2, 3], PENTANOMIAL_SUPPORT, 0.0, 1.0)
    with pytest.raises(ValueError, match="non-negative"):
        pentanomial_elo([1, -2, 3])
    with pytest.raises(ValueError, match="increasing"):
        pentanomial_elo([1, 2, 3], [0.0, 1.0, 0.5])


# --------------------------------------------------------------------------------------------------------------------
# §1: simulated SPRT on gin deal pairs (logistic model)
# --------------------------------------------------------------------------------------------------------------------

BATCH_PAIRS = 50  # the SPRT is checked after every batch of deal pairs, as fishtest checks every worker batch
MAX_PAIRS = 100_000


def _run_sprt(
    probabilities: list[float], seed: int, elo0: float, elo1: float, model: str = "logistic"
) -> tuple[str, int]:
    """Play simulated gin deal pairs [LL, split, WW] until the SPRT decides; return (decision, pairs)."""
    rng = np.random.default_rng(seed)
    counts = np.zeros(3, dtype=np.int64)
    while counts.sum() < MAX_PAIRS:
        counts += rng.multinomial(BATCH_PAIRS, probabilities)
        result = sprt(counts, GIN_PAIR_SUPPORT, elo0, elo1, model=model)  # type: ignore[arg-type]
        if result.decision != "continue":
            return result.decision, int(counts.sum())
    return "continue", int(counts.sum())


@pytest.mark.slow  # calibration by seeded repetitions: .ci/run runs it with the slow tests
@pytest.mark.parametrize("model", ["logistic", "normalized"])
def test_sprt_with_no_true_difference_accepts_h0_about_1_minus_alpha(model: str) -> None:
    # Equal players, mirrored games negatively correlated (many splits): the truth is elo0 = 0, bounds [0, 10]
    # in logistic Elo or in normalized Elo. Wald's bounds make the error at most about alpha (batches overshoot).
    runs = 200
    alpha = 0.05
    decisions = [_run_sprt([0.2, 0.6, 0.2], seed, 0.0, 10.0, model)[0] for seed in range(runs)]
    accepted_h0 = decisions.count("H0")
    accepted_h1 = decisions.count("H1")
    tolerance = 3 * math.sqrt(runs * alpha * (1 - alpha))  # three binomial sds, about 9 runs
    assert accepted_h0 >= runs * (1 - alpha) - tolerance
    assert accepted_h1 <= runs * alpha + tolerance
    assert accepted_h0 + accepted_h1 == runs  # every run stopped


@pytest.mark.parametrize("model", ["logistic", "normalized"])
def test_sprt_accepts_h1_quickly_for_a_clearly_stronger_side(model: str) -> None:
    # Pair score 0.65 (about +107 Elo) against bounds [0, 10]: H1 within a few hundred pairs.
    results = [_run_sprt([0.1, 0.5, 0.4], 1000 + seed, 0.0, 10.0, model) for seed in range(20)]
    assert all(decision == "H1" for decision, _ in results)
    assert max(pairs for _, pairs in results) <= 1000
    assert np.median([pairs for _, pairs in results]) <= 300


# --------------------------------------------------------------------------------------------------------------------
# §4: Wilson, mean intervals and multiple comparisons
# --------------------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("wins", "n", "low", "high"),
    [
        # Newcombe (1998), Stat. Med. 17:857, Table I, method 3 (Wilson score), 95%.
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        # By hand: z² = 3.8415, centre = (0.7 + 0.19207)/1.38415 = 0.64449,
        # half = 1.95996/1.38415 · sqrt(0.021 + 0.0096) = 0.24772.
        (7, 10, 0.3968, 0.8922),
    ],
)
def test_wilson_matches_published_and_hand_values(wins: int, n: int, low: float, high: float) -> None:
    got_low, got_high = wilson_interval(wins, n)
    assert (round(got_low, 4), round(got_high, 4)) == (low, high)


def test_wilson_edges_and_vectorisation() -> None:
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == 1.0
    low, _ = wilson_interval(10, 10)
    assert round(low, 4) == 0.7225  # mirror image of 0 of 10
    assert wilson_interval(0, 0) == (0.0, 1.0)
    lows, highs = wilson_interval(np.array([0, 7, 10]), 10)
    assert isinstance(lows, np.ndarray) and lows.shape == (3,)
    assert lows.round(4).tolist() == [0.0, 0.3968, 0.7225]
    assert highs.round(4).tolist() == [0.2775, 0.8922, 1.0]
    # A 90% interval is narrower than a 95% one.
    assert wilson_interval(554, 1000, 0.90)[1] < wilson_interval(554, 1000)[1]
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


@settings(max_examples=200, deadline=None)
@given(n=st.integers(min_value=1, max_value=100_000), data=st.data(), confidence=st.floats(0.5, 0.999))
def test_wilson_contains_the_rate_and_lies_in_unit_interval(n: int, data: st.DataObject, confidence: float) -> None:
    wins = data.draw(st.integers(min_value=0, max_value=n))
    low, high = wilson_interval(wins, n, confidence)
    assert 0.0 <= low <= wins / n <= high <= 1.0
    assert low < high


def test_mean_interval_by_hand() -> None:
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])
    # sd = sqrt(5/3) = 1.29099, se = 0.645497, z·se = 1.26517.
    assert mean == 2.5
    assert (round(low, 4), round(high, 4)) == (1.2348, 3.7652)
    with pytest.raises(ValueError):
        mean_interval([1.0])


def test_holm_hand_worked() -> None:
    # Sorted 0.005, 0.01, 0.03, 0.04 -> 4·0.005 = 0.02, 3·0.01 = 0.03, 2·0.03 = 0.06, max(0.06, 1·0.04) = 0.06.
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # 5·0.01, 4·0.02, 3·0.03, then the running maximum 0.09 twice.
    assert holm([0.01, 0.02, 0.03, 0.04, 0.05]) == pytest.approx([0.05, 0.08, 0.09, 0.09, 0.09])
    assert holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])  # capped at 1
    assert holm([]).size == 0


def test_benjamini_hochberg_hand_worked() -> None:
    # m·p/l: 0.02, 0.02, 0.04, 0.04; running minimum from the top leaves them.
    assert benjamini_hochberg([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    # 5·p/l = 0.05 for every l.
    assert benjamini_hochberg([0.01, 0.02, 0.03, 0.04, 0.05]) == pytest.approx([0.05] * 5)
    # 2·0.5/1 = 1.0 but the larger p gives 2·0.6/2 = 0.6, and the step-up takes the minimum.
    assert benjamini_hochberg([0.5, 0.6]) == pytest.approx([0.6, 0.6])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(min_value=0.0, max_value=1.0), min_size=1, max_size=30))
def test_adjusted_p_values_are_ordered_and_bounded(pvalues: list[float]) -> None:
    p = np.array(pvalues)
    adjusted_holm = holm(p)
    adjusted_bh = benjamini_hochberg(p)
    assert np.all(adjusted_holm >= p - 1e-15) and np.all(adjusted_holm <= 1.0)
    assert np.all(adjusted_bh >= p - 1e-15) and np.all(adjusted_bh <= adjusted_holm + 1e-12)
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(adjusted_holm[order]) >= 0)
    assert np.all(np.diff(adjusted_bh[order]) >= -1e-15)


def test_corrected_confidence() -> None:
    assert corrected_confidence(0.95, 1) == pytest.approx(0.95)
    assert corrected_confidence(0.95, 10) == pytest.approx(0.995)
    # Corrected intervals are wider.
    assert wilson_interval(60, 100, corrected_confidence(0.95, 6))[0] < wilson_interval(60, 100)[0]


# --------------------------------------------------------------------------------------------------------------------
# §3, §5: duplicate deals and planning
# --------------------------------------------------------------------------------------------------------------------


def test_paired_analysis_recovers_rho_on_simulated_pairs() -> None:
    rng = np.random.default_rng(5)
    sigma, rho, pairs = 20.0, -0.7, 20_000
    covariance = sigma**2 * np.array([[1.0, rho], [rho, 1.0]])
    # A is 1 point per game better; seat 0 is worth +2 points to whoever sits there.
    margins = rng.multivariate_normal([1.0 + 2.0, 1.0 - 2.0], covariance, size=pairs)
    result = paired_margin_analysis(margins[:, 0], margins[:, 1])
    assert result.pair_count == pairs
    assert abs(result.rho - rho) < 0.02
    assert abs(result.one_plus_rho - 0.3) < 0.02
    assert abs(result.variance_factor - 0.3) < 0.02
    assert abs(result.games_ratio - 1 / 0.3) < 0.25
    assert abs(result.game_sd - sigma) < 0.5
    assert result.low < 1.0 < result.high
    # SE of the pair mean: sigma·sqrt((1 + rho)/2)/sqrt(N) = 0.0775, so the 95% half-width is about 0.152.
    assert (result.high - result.low) / 2 == pytest.approx(1.96 * sigma * math.sqrt(0.15 / pairs), rel=0.05)
    assert result.seat_edge_low < 2.0 < result.seat_edge_high


def test_paired_analysis_of_deterministic_self_play_has_no_noise() -> None:
    # The same bot in both seats: the mirrored game is the exact negative, rho = -1 (§3).
    margins = np.random.default_rng(2).normal(0.0, 20.0, size=500)
    result = paired_margin_analysis(margins, -margins)
    assert result.rho == pytest.approx(-1.0)
    assert result.mean == 0.0 and result.low == 0.0 and result.high == 0.0
    assert result.variance_factor == 0.0 and result.games_ratio == math.inf


def test_planning_hands_reproduces_the_notes() -> None:
    # (1.95996 + 0.84162)² = 7.84888; times 19² = 2833.4 and 23² = 4152.1 (§5: "about 2,800-4,200").
    assert planning_hands(19.0, 1.0) == 2834
    assert planning_hands(23.0, 1.0) == 4153
    # With 1 + rho = 0.21-0.32 (§5: "about 600-1,350").
    assert planning_hands(19.0, 1.0, rho=-0.79) == 596
    assert planning_hands(23.0, 1.0, rho=-0.68) == 1329
    assert planning_hands(19.0, 2.0) == math.ceil(7.848879 * 361 / 4)


# --------------------------------------------------------------------------------------------------------------------
# §2: Bradley-Terry and the bootstrap
# --------------------------------------------------------------------------------------------------------------------


def test_bradley_terry_two_players_by_hand() -> None:
    wins = [[0, 30], [10, 0]]
    games = [[0, 40], [40, 0]]
    # No prior: 30 of 40 means gamma_A/gamma_B = 3, 400 log10 3 = 190.85 apart, centred on 0.
    ratings = bradley_terry(wins, games, prior_draws=0)
    assert ratings == pytest.approx([200 * math.log10(3), -200 * math.log10(3)], abs=1e-4)
    # One virtual draw: 30.5 of 41.
    ratings = bradley_terry(wins, games, prior_draws=1.0, anchor=1)
    assert ratings == pytest.approx([400 * math.log10(30.5 / 10.5), 0.0], abs=1e-4)


def test_bradley_terry_prior_keeps_unbeaten_players_finite() -> None:
    wins = [[0, 10, 10], [0, 0, 5], [0, 5, 0]]
    games = [[0, 10, 10], [10, 0, 10], [10, 10, 0]]
    with pytest.raises(ValueError, match="prior"):
        bradley_terry(wins, games, prior_draws=0)
    ratings = bradley_terry(wins, games)
    assert np.all(np.isfinite(ratings)) and ratings[0] > 300
    assert ratings.sum() == pytest.approx(0.0, abs=1e-9)
    assert ratings[1] == pytest.approx(ratings[2])


def test_bradley_terry_fit_is_the_likelihood_maximum() -> None:
    # At the MLE each player's expected score equals the actual one (with the prior included).
    rng = np.random.default_rng(11)
    games = rng.integers(5, 60, size=(4, 4)).astype(float)
    games = np.triu(games, 1) + np.triu(games, 1).T
    wins = np.triu(rng.binomial(games.astype(int), 0.6).astype(float), 1)
    wins = wins + np.triu(games - wins, 1).T
    ratings = bradley_terry(wins, games, prior_draws=1.0, tolerance=1e-9)
    expected = score_from_elo(ratings[:, None] - ratings[None, :])
    prior = 1.0 - np.eye(4)
    actual = (wins + prior / 2).sum(axis=1)
    model = ((games + prior) * expected * (1 - np.eye(4))).sum(axis=1)
    assert model == pytest.approx(actual, abs=1e-6)


def _round_robin(true_ratings: np.ndarray, pairs_per_matchup: int, seed: int) -> np.ndarray:
    """Rows (a, b, games A won of 2) for every matchup, games drawn from the Elo model."""
    rng = np.random.default_rng(seed)
    rows = []
    k = true_ratings.size
    for i in range(k):
        for j in range(i + 1, k):
            p = score_from_elo(true_ratings[i] - true_ratings[j])
            points = rng.binomial(2, p, size=pairs_per_matchup)
            rows.append(np.column_stack([np.full(pairs_per_matchup, i), np.full(pairs_per_matchup, j), points]))
    return np.vstack(rows).astype(float)


def test_bradley_terry_recovers_known_ratings_from_a_round_robin() -> None:
    true_ratings = np.array([-150.0, -50.0, 0.0, 80.0, 120.0])
    wins, games = pair_tables(_round_robin(true_ratings, 2000, seed=7))
    assert games[0, 1] == 4000
    ratings = bradley_terry(wins, games)
    assert np.max(np.abs(ratings - true_ratings)) < 15.0
    anchored = bradley_terry(wins, games, anchor=2)
    assert anchored[2] == 0.0
    assert anchored - anchored.mean() == pytest.approx(ratings, abs=1e-4)


def test_pair_tables_orientation_does_not_matter() -> None:
    rows = np.array([(0, 1, 2), (1, 0, 0), (0, 1, 1), (2, 1, 1)], dtype=float)
    flipped = np.array([(0, 1, 2), (0, 1, 2), (0, 1, 1), (1, 2, 1)], dtype=float)
    for left, right in zip(pair_tables(rows), pair_tables(flipped), strict=True):
        assert np.array_equal(left, right)
    first = bootstrap_ratings(rows, reps=50, seed=4)
    second = bootstrap_ratings(flipped, reps=50, seed=4)
    assert np.array_equal(first.replicates, second.replicates)


def test_bootstrap_is_reproducible_with_a_seed() -> None:
    rows = _round_robin(np.array([-60.0, 0.0, 60.0]), 300, seed=3)
    first = bootstrap_ratings(rows, reps=300, seed=42)
    again = bootstrap_ratings(rows, reps=300, seed=42)
    other = bootstrap_ratings(rows, reps=300, seed=43)
    assert np.array_equal(first.replicates, again.replicates)
    assert np.array_equal(first.low, again.low) and np.array_equal(first.high, again.high)
    assert not np.array_equal(first.replicates, other.replicates)
    assert np.all(first.low < first.ratings) and np.all(first.ratings < first.high)
    assert first.los[2, 0] > 0.99 and first.los[0, 2] < 0.01
    assert first.los + first.los.T == pytest.approx(np.ones((3, 3)))
    assert first.rank_low[2] == 1 and first.rank_high[0] == 3


def test_bootstrap_interval_agrees_with_the_pentanomial_interval() -> None:
    # Two players: R0 - R1 is the Elo of the mean pair score, so the bootstrap interval of the difference
    # must match §1's pair-based Elo ± error.
    rng = np.random.default_rng(9)
    outcomes = rng.choice(3, size=3000, p=[0.15, 0.55, 0.30])  # games won by player 0 in each pair
    rows = np.column_stack([np.zeros(3000), np.ones(3000), outcomes]).astype(float)
    result = bootstrap_ratings(rows, reps=2000, seed=1, prior_draws=0.0)
    difference = result.replicates[:, 0] - result.replicates[:, 1]
    low, high = np.percentile(difference, [2.5, 97.5])
    elo, error, _ = pentanomial_elo(np.bincount(outcomes, minlength=3), GIN_PAIR_SUPPORT)
    assert result.ratings[0] - result.ratings[1] == pytest.approx(elo, abs=1e-4)
    assert (high - low) / 2 == pytest.approx(error, rel=0.1)
    # Treating the 6000 games as independent would give a wider interval here (splits are common, rho < 0).
    p = (outcomes.sum()) / 6000
    naive = (
        elo_from_score(p + 1.96 * math.sqrt(p * (1 - p) / 6000))
        - elo_from_score(p - 1.96 * math.sqrt(p * (1 - p) / 6000))
    ) / 2
    assert (high - low) / 2 < 0.95 * naive


# --------------------------------------------------------------------------------------------------------------------
# Elo conversions
# --------------------------------------------------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(st.floats(min_value=-2000, max_value=2000))
def test_elo_and_score_are_inverse(elo: float) -> None:
    assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo, abs=1e-6)


def test_elo_fixed_points() -> None:
    assert elo_from_score(0.5) == 0.0
    assert round(elo_from_score(0.76), 2) == 200.24  # 400 log10(0.76/0.24)
    assert score_from_elo(0.0) == 0.5
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf

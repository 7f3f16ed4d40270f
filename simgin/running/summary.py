"""From tallies to the numbers people read: the summary table and the match JSON.

Rates of outcomes (knock, gin, big gin, undercut, dead) are shares of all hands played and
sum to 1 with ``forfeit_rate`` (hands ended by an illegal move under ``--on-illegal forfeit``,
0 otherwise); ``knock`` counts knocks the knocker won without gin (a tie scored as a knock
under ``undercut_on_tie=False`` included). Each player's row also counts the hands (or, in a
run of games, the games) it forfeited, ``forfeits``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from simgin.game.showdown import OUTCOMES
from simgin.running.tally import Tally
from simgin.statistics.core import ratio_from_sums, variance_from_sums
from simgin.statistics.stats import SMALL_SAMPLE, count, mean_from_sums, ratio, wilson_interval

if TYPE_CHECKING:
    import pandas as pd

    from simgin.running.config import RunConfig

#: A pairing's sums: a run's :class:`Tally`, or its ``to_dict()`` as result.json keeps it (both read by name).
Counts = Tally | Mapping[str, float]


def pair_share_interval(t: Counts, wins: float, trials: float) -> tuple[float, float]:
    """A 95% interval for a share of ``wins`` in ``trials`` played on duplicate deal pairs, with the deal pair as
    the unit (docs/STATISTICS.md §3, §10): Wilson's interval with the trials divided by the design effect, the
    variance of the mean pair score over what independent trials would give. Below 30 pairs the effect is at
    least 1 (the spread is too poorly known to narrow the interval), and a share of 0 or 1, or pairs without
    spread, use the plain counts. Inside [0, 1] always."""
    n = t["pairs"]
    if not trials > 0:
        return 0.0, 1.0
    share = wins / trials
    effect = 1.0
    if n > 1 and 0.0 < share < 1.0:
        counts = [t[f"pair_score_{k}"] for k in range(5)]
        score = sum(k / 4 * c for k, c in enumerate(counts)) / n
        variance = max(sum((k / 4) ** 2 * c for k, c in enumerate(counts)) / n - score * score, 0.0) * n / (n - 1)
        if variance > 0:
            effect = (variance / n) / (share * (1.0 - share) / trials)
        effect = max(effect, 1.0 if n < SMALL_SAMPLE else 0.05)
    low, high = wilson_interval(share * trials / effect, trials / effect)
    return float(low), float(high)


def pair_score_interval(t: Counts) -> tuple[float, float, float]:
    """A's mean pair score (each duplicate deal pair scores its share of the pair's games won: 0, 1/2 or 1, in
    quarters with a drawn game) and its 95% interval, the deal pair as the unit (docs/STATISTICS.md §3), from the
    pair counts alone (``pairs``, ``pair_score_0`` ... ``pair_score_4``): runs of the same pairing on other seeds
    pool by adding their counts (``benchmarks/bench_eaai_entries.py --seeds``)."""
    n = t["pairs"]
    counts = [t[f"pair_score_{k}"] for k in range(5)]
    score = sum(k / 4 * c for k, c in enumerate(counts)) / n
    score_sq = sum((k / 4) ** 2 * c for k, c in enumerate(counts)) / n
    variance = max(score_sq - score * score, 0.0)
    if n < SMALL_SAMPLE or not variance > 0:
        # Few pairs, or all alike (a clean sweep): the normal interval would collapse onto the score (§7).
        low, high = wilson_interval(score * n, n)
    else:
        # A share stays in [0, 1]: Wilson's interval on the pairs' games, sized by the pairs' own spread
        # (a normal interval once gave 0.995 (0.985-1.005), issue 32 item 28).
        low, high = pair_share_interval(t, score * 2 * n, 2 * n)
    return score, float(low), float(high)


def pair_statistics(t: Tally) -> dict[str, float]:
    """Duplicate-pair statistics from A's view: pair score, paired margin and the correlation of legs.

    ``rho`` is the correlation between A's results in the two legs of a pair; the variance
    of a pair's mean is (1 + rho) / 2 of two independent games', so duplicate deals need
    ``1 / (1 + rho)`` times fewer games for the same precision (docs/STATISTICS.md §3, §5).
    """
    n = t["pairs"]
    if n == 0:
        return {}
    counts = [t[f"pair_score_{k}"] for k in range(5)]
    score, low, high = pair_score_interval(t)
    half_low, half_high = score - low, high - score
    mean1, mean2 = t["pair_x1"] / n, t["pair_x2"] / n
    var1 = t["pair_x1_sq"] / n - mean1 * mean1
    var2 = t["pair_x2_sq"] / n - mean2 * mean2
    cov = t["pair_x1x2"] / n - mean1 * mean2
    rho = cov / math.sqrt(var1 * var2) if var1 > 0 and var2 > 0 else math.nan
    pair_sum = t["pair_x1"] + t["pair_x2"]
    pair_sum_sq = t["pair_x1_sq"] + t["pair_x2_sq"] + 2 * t["pair_x1x2"]
    margin, low, high = mean_from_sums(pair_sum / 2, pair_sum_sq / 4, n)
    return {
        "pairs": count(n),
        "pair_counts": [count(c) for c in counts],
        "pair_score": score,
        "pair_score_low": score - half_low,
        "pair_score_high": score + half_high,
        "pair_margin": margin,
        "pair_margin_low": low,
        "pair_margin_high": high,
        "rho": rho,
        "variance_factor": 1 + rho,
        "fewer_games_needed": 1 / (1 + rho) if rho > -1 else math.nan,
    }


#: The luck-adjusted figures of a run (``luck_adjusted`` in the JSON, issue 35): name -> the tally's plain and
#: adjusted sums (``running.tally.LUCK_TALLY_FIELDS``): A's net points per hand, and A's share of the hands
#: played that it won.
LUCK_FIGURES = {"net_points_per_hand": ("x", "y"), "hands_won": ("w", "v")}


def _pair_mean(t: Counts, sign: int) -> tuple[float, float, float]:
    """A's (``sign`` 1) or B's (-1) mean result per leg of the duplicate pairs (``pair_x1``, ``pair_x2``: A's net
    points of a hand, or margin of a game, in each leg) with the 95% interval of that mean over the pairs."""
    pair_sum = t["pair_x1"] + t["pair_x2"]
    pair_sq = t["pair_x1_sq"] + t["pair_x2_sq"] + 2 * t["pair_x1x2"]
    mean, low, high = (sign * x / 2 for x in mean_from_sums(pair_sum, pair_sq, t["pairs"]))
    return (mean, low, high) if sign > 0 else (mean, high, low)


def luck_adjusted(t: Counts, legs: int) -> dict[str, dict[str, Any]]:
    """The first-named player's luck-adjusted figures (docs/STATISTICS.md, *Luck-adjusted results*): for each of
    :data:`LUCK_FIGURES`, the ``estimate`` with its 95% ``ci`` (normal, the unit as the sample: a deal pair with
    duplicate deals, else a hand), the ``plain`` figure with its ``plain_ci``, and the ``variance_ratio``, the plain
    variance per unit over the adjusted one, measured on the run itself (how many times fewer hands the adjusted
    figure needs for the same interval). The plain share of hands won takes the interval the run's table gives it
    (:func:`pair_share_interval` on duplicate deals, else Wilson's), so that one figure has one interval."""
    n = t["luck_units"]
    figures: dict[str, dict[str, Any]] = {}
    for name, (plain, adjusted) in LUCK_FIGURES.items():
        mean, low, high = mean_from_sums(t[f"luck_{adjusted}"], t[f"luck_{adjusted}_sq"], n)
        plain_mean, plain_low, plain_high = mean_from_sums(t[f"luck_{plain}"], t[f"luck_{plain}_sq"], n)
        variances = [variance_from_sums(t[f"luck_{key}"], t[f"luck_{key}_sq"], n) for key in (plain, adjusted)]
        figures[name] = {
            "estimate": mean / legs,
            "ci": [low / legs, high / legs],
            "variance_ratio": variances[0] / variances[1] if variances[1] > 0 else math.nan,
            "plain": plain_mean / legs,
            "plain_ci": [plain_low / legs, plain_high / legs],
            "units": count(n),
        }
    won, hands = t["luck_w"], t["hands"]
    if hands > 0:
        interval = pair_share_interval(t, won, hands) if legs == 2 and t["pairs"] > 0 else wilson_interval(won, hands)
        figures["hands_won"]["plain_ci"] = [float(interval[0]), float(interval[1])]
    return figures


def points_per_hand(t: Counts) -> float:
    """Points scored per hand played, by either player (both players' points over all hands): how much a hand is
    worth under a pairing's rules. The one definition the CLI, the report's variant figures and its knock-limit
    figure all use (issue 32 item 2)."""
    return ratio(t["points_a"] + t["points_b"], t["hands"])


def mean_turns(t: Counts) -> float:
    """Turns per hand played (hand length), for a pairing's tally."""
    return ratio(t["turns"], t["hands"])


def pairing_rates(t: Counts) -> dict[str, float]:
    """What a pairing's hands looked like, the same for both players: the outcome shares of all
    hands (summing to 1), hand length, the knocker's deadwood and the first-player and dealer edge."""
    hands = t["hands"]
    rates = {f"{outcome}_rate": ratio(t[outcome], hands) for outcome in OUTCOMES}
    rates["forfeit_rate"] = ratio(t["forfeit"], hands)
    rates.update(
        {
            "mean_turns": mean_turns(t),
            "mean_draws": ratio(t["draws"], hands),
            "mean_knocker_deadwood": ratio(t["knocker_deadwood"], t["scored"]),
            "first_player_win_rate": ratio(t["first_player_wins"], t["scored"]),
            "dealer_points_per_hand": ratio(t["dealer_net"], hands),
        }
    )
    return rates


def player_rows(config: RunConfig, pairing_index: int, t: Tally) -> list[dict[str, Any]]:
    """Two summary rows (A's and B's) for one pairing."""
    a_index, b_index = config.pairings[pairing_index]
    names = (config.players[a_index], config.players[b_index])
    hands = t["hands"]
    rows = []
    for side, other in (("a", "b"), ("b", "a")):
        me = names[0] if side == "a" else names[1]
        them = names[1] if side == "a" else names[0]
        hands_won = t[f"hands_won_{side}"]
        games_won = t[f"games_won_{side}"]
        if config.mode == "games":
            wins, trials = games_won, t["games"]
        else:
            wins, trials = hands_won, hands
        if config.duplicate and t["pairs"] > 0:
            low, high = pair_share_interval(t, wins, trials)  # the deal pair is the unit (§3, issue 32 item 3)
        else:
            low, high = wilson_interval(wins, trials)
        sign = 1 if side == "a" else -1
        net_total = sign * (t["points_a"] - t["points_b"])
        net, net_low, net_high = mean_from_sums(net_total, t["net_a_sq"], hands)
        margin, margin_low, margin_high = mean_from_sums(sign * t["margin_a"], t["margin_a_sq"], t["games"])
        if config.duplicate and t["pairs"] > 0:
            # The deal pair is the unit (§3, issue 32 items 3 and 5): A's results of its two legs (hands' net
            # points, or games' margins) are correlated, so their interval is that of the pair's mean.
            paired = _pair_mean(t, sign)
            if config.mode == "hands":
                net, net_low, net_high = paired
            else:
                margin, margin_low, margin_high = paired
        if config.mode == "games" and t["seat_units"] >= 2 and t["unit_net_sq"] > 0:
            # In games the unit is the game (pair): its hands share a game and, with duplicate deals, the deals of
            # the other leg, so net points per hand take the ratio estimator over the units (§4).
            net, net_low, net_high = ratio_from_sums(
                net_total, hands, t["unit_net_sq"], t["seat_h_sq"], sign * t["unit_net_h"], t["seat_units"]
            )
        row: dict[str, Any] = {
            "pairing": pairing_index,
            "side": side,
            "player": me,
            "opponent": them,
            "hands": count(hands),
            "games": count(t["games"]),
            "hands_won": count(hands_won),
            "games_won": count(games_won),
            "win_rate": ratio(wins, trials),
            "win_rate_low": float(low),
            "win_rate_high": float(high),
            "hand_win_rate": ratio(hands_won, hands),
            "game_win_rate": ratio(games_won, t["games"]),
            "points_per_hand": ratio(t[f"points_{side}"], hands),
            "net_points_per_hand": net,
            "net_points_low": net_low,
            "net_points_high": net_high,
            "game_margin": margin,
            "game_margin_low": margin_low,
            "game_margin_high": margin_high,
            "knocks_per_hand": ratio(t[f"knocks_{side}"], hands),
            "gins_per_hand": ratio(t[f"gins_{side}"], hands),
            "undercuts_made_per_hand": ratio(t[f"undercuts_{side}"], hands),
            "undercut_when_knocking": ratio(t[f"undercuts_{other}"], t[f"knocks_{side}"]),
            "dealt_share": ratio(t["dealt_a"] if side == "a" else hands - t["dealt_a"], hands),
            "forfeits": t[f"forfeits_{side}"],
        }
        row.update(pairing_rates(t))
        row.update(
            {
                "hands_per_game": ratio(t["game_hands"], t["games"]),
                "capped_hands": count(t["capped"]),
                "capped_games": count(t["games_capped"]),
            }
        )
        rows.append(row)
    return rows


def summarize(config: RunConfig, tallies: list[Tally]) -> pd.DataFrame:
    """One row per pairing and player (both players of every pairing)."""
    import pandas as pd

    rows = [row for index, t in enumerate(tallies) for row in player_rows(config, index, t)]
    return pd.DataFrame(rows)


def overridden_rules(config: RunConfig) -> dict[str, str]:
    """The run's switches that are set but have no effect at its table and unit (``Rules.overridden``)."""
    return config.rules.overridden(config.table, config.mode == "games")


def knock_limit_breakdown(t: Counts) -> pd.DataFrame:
    """Outcomes by the hand's knock limit: under Oklahoma the up card sets it (V9), so this is the
    breakdown by up card (ace 1, or 0 when an ace means gin only; face cards 10).

    One row per knock limit that occurred: its share of hands, the outcome rates, the mean
    hand length in turns and the points per hand; ``doubled_share`` (a column repeated on
    every row) is the share of scored hands doubled by a spade up card.
    """
    import pandas as pd

    rows = []
    hands = t["hands"]
    for limit in range(11):
        at_limit = t[f"limit{limit}_hands"]
        if not at_limit:
            continue
        row: dict[str, Any] = {"knock_limit": limit, "hands": count(at_limit), "share": ratio(at_limit, hands)}
        for outcome in OUTCOMES:
            row[f"{outcome}_rate"] = ratio(t[f"limit{limit}_{outcome}"], at_limit)
        row["mean_turns"] = ratio(t[f"limit{limit}_turns"], at_limit)
        row["points_per_hand"] = ratio(t[f"limit{limit}_points"], at_limit)
        rows.append(row)
    frame = pd.DataFrame(rows)
    frame["doubled_share"] = ratio(t["doubled"], t["scored"])
    return frame


def knock_limit_breakdowns(pairings: Sequence[tuple[str, str, Counts]]) -> pd.DataFrame:
    """:func:`knock_limit_breakdown` of every pairing, one block of rows per pairing (column ``pairing``,
    ``'a vs b'``), never pooled over pairings: the by-up-card table of the CLI and of the report are both this
    (issue 32 items 1, 2). ``pairings``: ``(a, b, tally)`` per pairing (a run's tallies or result.json's)."""
    import pandas as pd

    blocks = [knock_limit_breakdown(t).assign(pairing=f"{a} vs {b}") for a, b, t in pairings]
    if not blocks:
        return pd.DataFrame()
    frame = pd.concat(blocks, ignore_index=True)
    return frame[["pairing", *(column for column in frame.columns if column != "pairing")]]

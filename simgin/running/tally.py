"""Streaming tallies of hands and games: the sums every summary statistic is built from.

A :class:`Tally` holds only counts and sums (no per-hand rows), so a run of any length
aggregates in constant memory: each chunk of hands is reduced to a tally, and tallies
add up. Everything is seen from the pairing's first player, "A" (seat 0 in the first leg
of a duplicate pair); "B" is the other. Field meanings are in ``TALLY_FIELDS``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simgin.game.showdown import KIND_FORFEIT, OUTCOMES
from simgin.kernels import engine as _k
from simgin.kernels.showdown import KIND_BIG_GIN, KIND_DEAD, KIND_GIN, KIND_KNOCK, KIND_UNDERCUT

#: name -> meaning; every field is a float64 sum (exact for integers below 2**53).
TALLY_FIELDS: dict[str, str] = {
    "hands": "hands played (dead hands included)",
    "dead": "dead hands (R15), capped ones included",
    "capped": "hands ended by the turn cap",
    "knock": "hands won by the knocker without gin",
    "gin": "gin hands (R13)",
    "big_gin": "big gin hands (V13)",
    "undercut": "undercut hands (R18)",
    "turns": "sum of turns per hand",
    "draws": "sum of cards drawn per hand by both players",
    "knocker_deadwood": "sum of the knocker's deadwood over knocked hands",
    "layoff_points": "sum of points laid off",
    "hands_won_a": "hands won by A",
    "hands_won_b": "hands won by B",
    "points_a": "hand points won by A",
    "points_b": "hand points won by B",
    "net_a_sq": "sum over hands of (A's points - B's points) squared",
    "knocks_a": "hands A ended by knocking (gin included)",
    "knocks_b": "hands B ended by knocking (gin included)",
    "gins_a": "gins and big gins by A",
    "gins_b": "gins and big gins by B",
    "undercuts_a": "hands A won by undercutting B",
    "undercuts_b": "hands B won by undercutting A",
    "dealt_a": "hands A dealt",
    "first_player_wins": "scored hands won by the non-dealer, who plays first (R11)",
    "scored": "hands scored at a showdown (a winner; forfeited hands not included)",
    "dealer_net": "sum of the dealer's points minus the non-dealer's",
    "games": "games played",
    "games_won_a": "games won by A",
    "games_won_b": "games won by B",
    "games_capped": "games ended by the deal cap, undecided",
    "shutouts": "games with a shutout",
    "margin_a": "sum of A's game margin (R23; negative when A lost)",
    "margin_a_sq": "sum of A's game margin squared",
    "game_hands": "deals in games",
    "first_dealer_a": "games in which A dealt first",
    "first_dealer_wins": "games won by the player who dealt first",
    "pairs": "duplicate pairs (one deal or game seed played twice, seats swapped)",
    "pair_score_0": "pairs A lost both legs of",
    "pair_score_1": "pairs with A's legs scoring 1/2 in total (a loss and a draw)",
    "pair_score_2": "pairs A split (or drew both)",
    "pair_score_3": "pairs with A's legs scoring 3/2 in total",
    "pair_score_4": "pairs A won both legs of",
    "pair_x1": "sum of A's result in leg 1 (net hand points, or game margin)",
    "pair_x2": "sum of A's result in leg 2",
    "pair_x1_sq": "sum of leg-1 results squared",
    "pair_x2_sq": "sum of leg-2 results squared",
    "pair_x1x2": "sum of leg-1 times leg-2 results",
}
#: Histograms, one field per bin: knocks and undercuts by the knocker's deadwood (0-10)
#: per knocker, hand length in turns (the last bin holds TURN_BINS - 1 turns or more), and
#: outcomes by the hand's knock limit (0-10; under Oklahoma it comes from the up card, V9).
DEADWOOD_BINS = 11
TURN_BINS = 61
for _side in ("a", "b"):
    for _dw in range(DEADWOOD_BINS):
        TALLY_FIELDS[f"knocks_{_side}_dw{_dw}"] = f"knocks by {_side.upper()} with deadwood {_dw}"
        TALLY_FIELDS[f"undercut_{_side}_dw{_dw}"] = f"knocks by {_side.upper()} with deadwood {_dw} that were undercut"
for _turns in range(TURN_BINS):
    TALLY_FIELDS[f"turns_{_turns}"] = f"hands of {_turns} turns" + (" or more" if _turns == TURN_BINS - 1 else "")
for _limit in range(11):
    for _what in ("hands", *OUTCOMES, "turns", "points"):
        TALLY_FIELDS[f"limit{_limit}_{_what}"] = f"{_what} (a sum for turns, points) at knock limit {_limit}"
TALLY_FIELDS["doubled"] = "hands scored double (Oklahoma spade up card, V9)"
#: ``--on-illegal forfeit`` (added last: records written before them read them as 0).
FORFEIT_FIELDS = {
    "forfeit": "hands ended by an illegal move under --on-illegal forfeit (won by the other player, 0 points)",
    "forfeits_a": "hands (in a game: games) A lost by an illegal move",
    "forfeits_b": "hands (in a game: games) B lost by an illegal move",
}
TALLY_FIELDS.update(FORFEIT_FIELDS)
#: Luck-adjusted results (``adjust_luck``, issue 35; added after the forfeit fields: older records read them as 0).
#: Sums over units (a deal pair with duplicate deals, else a hand), both legs summed, from A's view: x is A's net
#: points, y = x minus A's luck corrections in points; w is A's hands won, v = w minus its corrections.
LUCK_TALLY_FIELDS = {
    "luck_units": "units with luck corrections (adjust_luck)",
    "luck_x": "sum over units of A's net points",
    "luck_x_sq": "sum over units of A's net points squared",
    "luck_y": "sum over units of A's luck-adjusted net points",
    "luck_y_sq": "sum over units of A's luck-adjusted net points squared",
    "luck_w": "sum over units of A's hands won",
    "luck_w_sq": "sum over units of A's hands won squared",
    "luck_v": "sum over units of A's luck-adjusted hands won",
    "luck_v_sq": "sum over units of A's luck-adjusted hands won squared",
    "luck_b_won": "sum over units of B's luck corrections in hands won (B's adjusted wins: hands_won_b minus it)",
}
TALLY_FIELDS.update(LUCK_TALLY_FIELDS)
#: The seat edge per unit (a deal pair with duplicate deals, else a hand or a game; added after the luck fields:
#: older records read them as 0): with f a unit's scored hands won by the non-dealer (R11), s its scored hands, d
#: the dealer's net points, h its hands and g its games won by the game's first dealer (R7), these second moments
#: give the seat edge's intervals with the unit as the unit (the two hands of a deal pair share its cards).
SEAT_UNIT_FIELDS = {
    "seat_units": "units (deal pairs with duplicate deals, else hands or games) in the seat-edge sums",
    "seat_f_sq": "sum over units of the non-dealer's scored hands won, squared",
    "seat_s_sq": "sum over units of scored hands, squared",
    "seat_fs": "sum over units of the non-dealer's scored hands won times the scored hands",
    "seat_d_sq": "sum over units of the dealer's net points, squared",
    "seat_h_sq": "sum over units of hands, squared",
    "seat_dh": "sum over units of the dealer's net points times the hands",
    "seat_g_sq": "sum over units of games won by the first dealer, squared",
}
TALLY_FIELDS.update(SEAT_UNIT_FIELDS)
#: The undercut rate per unit (added after the seat-edge fields, over the same units; older records read them as
#: 0): with k a unit's knocks by a side's player (A or B) with the knocker's deadwood in a bin (``dw0``-``dw10``,
#: or ``all`` bins) and u those of them undercut (R18), these second moments give the undercut rates' intervals
#: with the unit as the unit (the two hands of a deal pair deal the knocker the same cards).
KNOCK_BINS = (*(f"dw{_dw}" for _dw in range(DEADWOOD_BINS)), "all")
_MOMENTS = (("k_sq", "knocks squared"), ("u_sq", "undercut knocks squared"), ("ku", "knocks times undercut"))
KNOCK_UNIT_FIELDS = {
    f"knock_{_side}_{_bin}_{_moment}": f"sum over units of {_what}, knocks by {_side.upper()} in bin {_bin}"
    for _side in ("a", "b")
    for _bin in KNOCK_BINS
    for _moment, _what in _MOMENTS
}
TALLY_FIELDS.update(KNOCK_UNIT_FIELDS)
#: A's net points per unit (added after the knock fields, over the same units; older records read them as 0): with
#: x a unit's net points of A and h its hands (``seat_h_sq``), the net points per hand's interval with the unit as
#: the unit in runs of games, whose hands share a game and, with duplicate deals, the deals of the other leg.
NET_UNIT_FIELDS = {
    "unit_net_sq": "sum over units of A's net points, squared",
    "unit_net_h": "sum over units of A's net points times the hands",
}
TALLY_FIELDS.update(NET_UNIT_FIELDS)
FIELD_INDEX = {name: i for i, name in enumerate(TALLY_FIELDS)}
#: Fields that records written before them lack, read as 0.
_ADDED_LATER = {**FORFEIT_FIELDS, **LUCK_TALLY_FIELDS, **SEAT_UNIT_FIELDS, **KNOCK_UNIT_FIELDS, **NET_UNIT_FIELDS}
#: One field of each family of per-unit sums: a chunk record without one of them was written before it.
UNIT_SUM_MARKERS = ("seat_units", "knock_a_all_k_sq", "unit_net_sq")
#: Most forfeit records (:attr:`Tally.forfeits`) a tally keeps, the first in play order; the
#: counts stay exact beyond it.
MAX_FORFEITS_KEPT = 1000


@dataclass
class Tally:
    """Sums over hands and games of one pairing (A vs B); ``+`` merges two tallies.

    ``forfeits`` lists where illegal moves forfeited hands or games (``--on-illegal forfeit``),
    one dict each in play order, at most :data:`MAX_FORFEITS_KEPT`; it is not part of
    :meth:`to_dict` (the sums), the runner keeps it with each chunk.
    """

    values: np.ndarray
    forfeits: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def zero(cls) -> Tally:
        return cls(np.zeros(len(TALLY_FIELDS), dtype=np.float64))

    def __getitem__(self, name: str) -> float:
        return float(self.values[FIELD_INDEX[name]])

    def add(self, name: str, amount: float) -> None:
        self.values[FIELD_INDEX[name]] += amount

    def __add__(self, other: Tally) -> Tally:
        forfeits = self.forfeits + other.forfeits[: max(MAX_FORFEITS_KEPT - len(self.forfeits), 0)]
        return Tally(self.values + other.values, forfeits)

    def to_dict(self) -> dict[str, int | float]:
        """The sums by name; whole ones (all of them: sums of integers) as ints, as JSON shows counts."""
        return {
            name: int(value) if value.is_integer() else float(value)
            for name, value in zip(TALLY_FIELDS, self.values.tolist(), strict=True)
        }

    @classmethod
    def from_dict(cls, data: dict[str, float]) -> Tally:
        """The tally of :meth:`to_dict`; the fields of :data:`_ADDED_LATER` a record written before them lacks are 0."""
        return cls(
            np.array(
                [float(data[name] if name in data or name not in _ADDED_LATER else 0.0) for name in TALLY_FIELDS],
                dtype=np.float64,
            )
        )


def seat_unit_sums(rows: np.ndarray, unit_of_row: np.ndarray, units: int) -> np.ndarray:
    """Per unit of a leg (``unit_of_row[i]``: row i's unit, of ``units``): the non-dealer's scored hands won, the
    scored hands, the dealer's net points and the hands, as :func:`tally_hands` counts them (4 x ``units``); a
    duplicate deal's two legs are summed into its pair before :func:`tally_seat_units`."""
    kind = rows[:, _k.H_KIND]
    winner = rows[:, _k.H_WINNER]
    dealer = rows[:, _k.H_DEALER]
    points = rows[:, _k.H_POINTS]
    scored = (kind != KIND_DEAD) & (kind != KIND_FORFEIT)
    dealer_net = np.where(winner == dealer, points, 0) - np.where(winner == 1 - dealer, points, 0)
    per_unit = np.zeros((4, units))
    for index, values in enumerate((scored & (winner == 1 - dealer), scored, dealer_net, np.ones(rows.shape[0]))):
        per_unit[index] = np.bincount(unit_of_row, weights=values.astype(np.float64), minlength=units)
    return per_unit


def tally_seat_units(
    per_unit: np.ndarray, first_dealer_wins: np.ndarray | None = None, net_a: np.ndarray | None = None
) -> Tally:
    """The :data:`SEAT_UNIT_FIELDS` of units whose :func:`seat_unit_sums` (both legs summed) are ``per_unit``;
    ``first_dealer_wins``: per unit, games won by the first dealer (runs of games); ``net_a``: per unit, A's net
    points (:data:`NET_UNIT_FIELDS`)."""
    t = Tally.zero()
    f, s, d, h = per_unit
    if net_a is not None:
        t.add("unit_net_sq", (net_a * net_a).sum())
        t.add("unit_net_h", (net_a * h).sum())
    t.add("seat_units", per_unit.shape[1])
    t.add("seat_f_sq", (f * f).sum())
    t.add("seat_s_sq", (s * s).sum())
    t.add("seat_fs", (f * s).sum())
    t.add("seat_d_sq", (d * d).sum())
    t.add("seat_h_sq", (h * h).sum())
    t.add("seat_dh", (d * h).sum())
    if first_dealer_wins is not None:
        t.add("seat_g_sq", (first_dealer_wins.astype(np.float64) ** 2).sum())
    return t


def knock_unit_sums(rows: np.ndarray, seat_a: np.ndarray, unit_of_row: np.ndarray, units: int) -> np.ndarray:
    """Per unit of a leg: the knocks and undercut knocks (R18) by A and by B (``seat_a[i]``: A's seat in row i),
    by the knocker's deadwood as :func:`tally_hands` bins it and over all bins (2 sides x 12 bins x 2 x
    ``units``); a duplicate deal's two legs are summed into its pair before :func:`tally_knock_units`."""
    kind = rows[:, _k.H_KIND]
    knocker = rows[:, _k.H_KNOCKER]
    scored = (kind != KIND_DEAD) & (kind != KIND_FORFEIT)
    deadwood = np.clip(rows[:, _k.H_KNOCKER_DEADWOOD], 0, DEADWOOD_BINS - 1)
    cell = unit_of_row * DEADWOOD_BINS + deadwood
    per_unit = np.zeros((2, len(KNOCK_BINS), 2, units))
    for side, seat in enumerate((seat_a, 1 - seat_a)):
        knocked = scored & (knocker == seat)
        for index, counted in enumerate((knocked, knocked & (kind == KIND_UNDERCUT))):
            by_bin = np.bincount(cell[counted], minlength=units * DEADWOOD_BINS).reshape(units, DEADWOOD_BINS)
            per_unit[side, :DEADWOOD_BINS, index] = by_bin.T
            per_unit[side, DEADWOOD_BINS, index] = by_bin.sum(axis=1)
    return per_unit


def tally_knock_units(per_unit: np.ndarray) -> Tally:
    """The :data:`KNOCK_UNIT_FIELDS` of units whose :func:`knock_unit_sums` (both legs summed) are ``per_unit``."""
    t = Tally.zero()
    for side_index, side in enumerate(("a", "b")):
        for bin_index, name in enumerate(KNOCK_BINS):
            k, u = per_unit[side_index, bin_index]
            t.add(f"knock_{side}_{name}_k_sq", (k * k).sum())
            t.add(f"knock_{side}_{name}_u_sq", (u * u).sum())
            t.add(f"knock_{side}_{name}_ku", (k * u).sum())
    return t


def tally_hands(rows: np.ndarray, seat_a: np.ndarray, net_a: np.ndarray | None = None) -> Tally:
    """Reduce hand rows (``kernels.engine.HAND_FIELDS`` columns) to a tally; ``seat_a[i]`` is A's seat in row i.
    ``net_a``: :func:`net_points` of the rows, where the caller has it already."""
    t = Tally.zero()
    if rows.shape[0] == 0:
        return t
    kind = rows[:, _k.H_KIND]
    winner = rows[:, _k.H_WINNER]
    knocker = rows[:, _k.H_KNOCKER]
    points = rows[:, _k.H_POINTS]
    dealer = rows[:, _k.H_DEALER]
    seat_b = 1 - seat_a
    forfeit = kind == KIND_FORFEIT
    scored = (kind != KIND_DEAD) & ~forfeit
    a_won = (scored | forfeit) & (winner == seat_a)
    b_won = (scored | forfeit) & (winner == seat_b)
    net_a = net_points(rows, seat_a) if net_a is None else net_a
    gin_kinds = (kind == KIND_GIN) | (kind == KIND_BIG_GIN)
    t.add("hands", rows.shape[0])
    t.add("dead", np.sum(kind == KIND_DEAD))
    t.add("capped", np.sum(rows[:, _k.H_CAPPED]))
    t.add("knock", np.sum(kind == KIND_KNOCK))
    t.add("gin", np.sum(kind == KIND_GIN))
    t.add("big_gin", np.sum(kind == KIND_BIG_GIN))
    t.add("undercut", np.sum(kind == KIND_UNDERCUT))
    t.add("turns", np.sum(rows[:, _k.H_TURNS]))
    t.add("draws", np.sum(rows[:, _k.H_DRAWS]))
    t.add("knocker_deadwood", np.sum(np.where(scored, rows[:, _k.H_KNOCKER_DEADWOOD], 0)))
    t.add("layoff_points", np.sum(rows[:, _k.H_LAYOFF_POINTS]))
    t.add("hands_won_a", np.sum(a_won))
    t.add("hands_won_b", np.sum(b_won))
    t.add("points_a", np.sum(np.where(a_won, points, 0)))
    t.add("points_b", np.sum(np.where(b_won, points, 0)))
    t.add("net_a_sq", np.sum(net_a.astype(np.float64) ** 2))
    t.add("knocks_a", np.sum(scored & (knocker == seat_a)))
    t.add("knocks_b", np.sum(scored & (knocker == seat_b)))
    t.add("gins_a", np.sum(gin_kinds & (knocker == seat_a)))
    t.add("gins_b", np.sum(gin_kinds & (knocker == seat_b)))
    t.add("undercuts_a", np.sum((kind == KIND_UNDERCUT) & (winner == seat_a)))
    t.add("undercuts_b", np.sum((kind == KIND_UNDERCUT) & (winner == seat_b)))
    t.add("dealt_a", np.sum(dealer == seat_a))
    t.add("first_player_wins", np.sum(scored & (winner == 1 - dealer)))
    t.add("scored", np.sum(scored))
    t.add("dealer_net", np.sum(np.where(winner == dealer, points, 0) - np.where(winner == 1 - dealer, points, 0)))
    deadwood = np.clip(rows[:, _k.H_KNOCKER_DEADWOOD], 0, DEADWOOD_BINS - 1)
    for side, seat in (("a", seat_a), ("b", seat_b)):
        knocked = scored & (knocker == seat)
        _add_bins(t, f"knocks_{side}_dw", np.bincount(deadwood[knocked], minlength=DEADWOOD_BINS))
        undercut = knocked & (kind == KIND_UNDERCUT)
        _add_bins(t, f"undercut_{side}_dw", np.bincount(deadwood[undercut], minlength=DEADWOOD_BINS))
    turns = np.clip(rows[:, _k.H_TURNS], 0, TURN_BINS - 1)
    _add_bins(t, "turns_", np.bincount(turns, minlength=TURN_BINS))
    limit = rows[:, _k.H_KNOCK_LIMIT]
    _add_limit(t, limit, "hands", 1)
    _add_limit(t, limit, "knock", kind == KIND_KNOCK)
    _add_limit(t, limit, "gin", kind == KIND_GIN)
    _add_limit(t, limit, "big_gin", kind == KIND_BIG_GIN)
    _add_limit(t, limit, "undercut", kind == KIND_UNDERCUT)
    _add_limit(t, limit, "dead", kind == KIND_DEAD)
    _add_limit(t, limit, "turns", rows[:, _k.H_TURNS])
    _add_limit(t, limit, "points", points)
    t.add("doubled", np.sum(scored & (rows[:, _k.H_MULTIPLIER] > 1)))
    t.add("forfeit", np.sum(forfeit))
    t.add("forfeits_a", np.sum(forfeit & (winner == seat_b)))
    t.add("forfeits_b", np.sum(forfeit & (winner == seat_a)))
    return t


def _add_bins(t: Tally, prefix: str, counts: np.ndarray) -> None:
    for index, count in enumerate(counts):
        t.add(f"{prefix}{index}", count)


def _add_limit(t: Tally, limit: np.ndarray, name: str, values: np.ndarray | int) -> None:
    weights = np.broadcast_to(np.asarray(values, dtype=np.float64), limit.shape)
    for value, total in enumerate(np.bincount(limit, weights=weights, minlength=11)):
        t.add(f"limit{value}_{name}", total)


def histogram(t: Tally, prefix: str, bins: int) -> np.ndarray:
    """The bins of a histogram field family, e.g. ``histogram(t, "turns_", TURN_BINS)``."""
    return np.array([t[f"{prefix}{index}"] for index in range(bins)])


def net_points(rows: np.ndarray, seat_a: np.ndarray) -> np.ndarray:
    """A's hand points minus B's, per hand row."""
    winner = rows[:, _k.H_WINNER]
    points = rows[:, _k.H_POINTS]
    return np.where(winner == seat_a, points, 0) - np.where(winner == 1 - seat_a, points, 0)


def tally_games(games: np.ndarray, seat_a: np.ndarray) -> Tally:
    """Reduce game rows (``kernels.engine.GAME_FIELDS``) to the game fields of a tally."""
    t = Tally.zero()
    if games.shape[0] == 0:
        return t
    winner = games[:, _k.G_WINNER]
    margin_a = game_margin(games, seat_a)
    first = games[:, _k.G_FIRST_DEALER]
    t.add("games", games.shape[0])
    t.add("games_won_a", np.sum(winner == seat_a))
    t.add("games_won_b", np.sum(winner == 1 - seat_a))
    t.add("games_capped", np.sum(games[:, _k.G_CAPPED]))
    t.add("shutouts", np.sum(games[:, _k.G_SHUTOUT]))
    t.add("margin_a", np.sum(margin_a))
    t.add("margin_a_sq", np.sum(margin_a.astype(np.float64) ** 2))
    t.add("game_hands", np.sum(games[:, _k.G_HANDS]))
    t.add("first_dealer_a", np.sum(first == seat_a))
    t.add("first_dealer_wins", np.sum(winner == first))
    return t


def game_margin(games: np.ndarray, seat_a: np.ndarray) -> np.ndarray:
    """A's signed game margin: the winner's margin, negated when B won, 0 when undecided."""
    winner = games[:, _k.G_WINNER]
    margin = games[:, _k.G_MARGIN]
    return np.where(winner == seat_a, margin, np.where(winner == 1 - seat_a, -margin, 0))


def tally_pairs(score_1: np.ndarray, score_2: np.ndarray, x1: np.ndarray, x2: np.ndarray) -> Tally:
    """Duplicate pairs: A's score in each leg (1 win, 0.5 draw or dead, 0 loss) and A's result x per leg."""
    t = Tally.zero()
    quarters = np.rint((score_1 + score_2) * 2).astype(np.int64)
    t.add("pairs", score_1.shape[0])
    for k in range(5):
        t.add(f"pair_score_{k}", np.sum(quarters == k))
    x1 = x1.astype(np.float64)
    x2 = x2.astype(np.float64)
    t.add("pair_x1", x1.sum())
    t.add("pair_x2", x2.sum())
    t.add("pair_x1_sq", (x1**2).sum())
    t.add("pair_x2_sq", (x2**2).sum())
    t.add("pair_x1x2", (x1 * x2).sum())
    return t


#: The per-unit record of a two-player chunk (``runner.run_chunk(..., unit_records=True)``): one int32 row per
#: unit (a deal pair with duplicate deals, else one hand or game), both legs summed, seen from A. Paired
#: comparisons of rule sets use them: unit k starts from the same seed in every cell (docs/STATISTICS.md §9).
UNIT_FIELDS: dict[str, str] = {
    "games": "games played (0 when hands are played one by one)",
    "games_won_a": "games won by A",
    "games_won_b": "games won by B",
    "hands": "hands played (dead hands included)",
    "hands_won_a": "hands won by A",
    "hands_won_b": "hands won by B",
    "net_points_a": "A's hand points minus B's",
    "scored": "hands with a winner",
    "first_player_wins": "scored hands won by the non-dealer, who plays first (R11)",
    "knock": "hands won by the knocker without gin",
    "gin": "gin hands (R13)",
    "big_gin": "big gin hands (V13)",
    "undercut": "undercut hands (R18)",
    "dead": "dead hands (R15)",
}
#: With ``adjust_luck`` (issue 35) a unit's record gains A's luck corrections, after :data:`UNIT_FIELDS`, and is
#: float64: a unit's luck-adjusted result is its plain one minus its correction, for the paired comparisons of
#: rule sets (``simgin sweep --adjust-luck``) and the tuners' rankings.
LUCK_UNIT_FIELDS: dict[str, str] = {
    "luck_points_a": "A's luck corrections in points (``net_points_a`` minus them is luck-adjusted)",
    "luck_hands_won_a": "A's luck corrections in hands won (``hands_won_a`` minus them is luck-adjusted)",
    "luck_hands_won_b": "B's luck corrections in hands won (``hands_won_b`` minus them is luck-adjusted)",
}
UNIT_INDEX = {name: i for i, name in enumerate([*UNIT_FIELDS, *LUCK_UNIT_FIELDS])}
#: A unit's counts are small (one deal pair or game): 32 bits keep 14 fields at 56 bytes a unit, 56 MB a million.
UNIT_DTYPE = np.int32


def unit_layout(adjust_luck: bool) -> tuple[int, type]:
    """The width and dtype of a two-player run's unit records: :data:`UNIT_FIELDS` as :data:`UNIT_DTYPE`, or with
    ``adjust_luck`` also :data:`LUCK_UNIT_FIELDS`, as float64."""
    if adjust_luck:
        return len(UNIT_FIELDS) + len(LUCK_UNIT_FIELDS), np.float64
    return len(UNIT_FIELDS), UNIT_DTYPE


def unit_records(
    rows: np.ndarray,
    unit_of_row: np.ndarray,
    seat_a: np.ndarray,
    units: int,
    games: np.ndarray | None = None,
    game_seat_a: np.ndarray | None = None,
) -> np.ndarray:
    """The :data:`UNIT_FIELDS` of one leg, per unit: hand rows summed by ``unit_of_row`` and, when hands were
    played in games, the game rows (one per unit). Adding the legs' records gives the unit's record; the sum
    over units equals the matching fields of :func:`tally_hands` plus :func:`tally_games`."""
    records = np.zeros((units, len(UNIT_FIELDS)), dtype=UNIT_DTYPE)
    kind = rows[:, _k.H_KIND]
    winner = rows[:, _k.H_WINNER]
    scored = kind != KIND_DEAD

    def add(name: str, values: np.ndarray | int) -> None:
        weights = np.broadcast_to(np.asarray(values, dtype=np.int64), unit_of_row.shape)
        records[:, UNIT_INDEX[name]] += np.bincount(unit_of_row, weights=weights, minlength=units).astype(UNIT_DTYPE)

    add("hands", 1)
    add("hands_won_a", scored & (winner == seat_a))
    add("hands_won_b", scored & (winner == 1 - seat_a))
    add("net_points_a", net_points(rows, seat_a))
    add("scored", scored)
    add("first_player_wins", scored & (winner == 1 - rows[:, _k.H_DEALER]))
    add("knock", kind == KIND_KNOCK)
    add("gin", kind == KIND_GIN)
    add("big_gin", kind == KIND_BIG_GIN)
    add("undercut", kind == KIND_UNDERCUT)
    add("dead", ~scored)
    if games is not None and game_seat_a is not None:
        winner = games[:, _k.G_WINNER]
        records[:, UNIT_INDEX["games"]] += 1
        records[:, UNIT_INDEX["games_won_a"]] += winner == game_seat_a
        records[:, UNIT_INDEX["games_won_b"]] += winner == 1 - game_seat_a
    return records


def tally_luck(
    x: np.ndarray,
    luck_points: np.ndarray,
    w: np.ndarray,
    luck_wins: np.ndarray,
    luck_wins_b: np.ndarray | None = None,
) -> Tally:
    """The :data:`LUCK_TALLY_FIELDS` of a chunk's units: A's net points ``x`` and hands won ``w`` per unit, and A's luck
    corrections of each (``simgin.game.luck``), both legs summed; ``luck_wins_b``: B's corrections of its wins."""
    t = Tally.zero()
    if luck_wins_b is not None:
        t.add("luck_b_won", np.asarray(luck_wins_b, dtype=np.float64).sum())
    x, w = x.astype(np.float64), w.astype(np.float64)
    y, v = x - luck_points, w - luck_wins
    t.add("luck_units", x.shape[0])
    for name, values in (("x", x), ("y", y), ("w", w), ("v", v)):
        t.add(f"luck_{name}", values.sum())
        t.add(f"luck_{name}_sq", (values**2).sum())
    return t

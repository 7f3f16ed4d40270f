"""Three players (V11) and two partnerships of two (V12), on top of the two-player hand engine.

What the rule book leaves open, and what simgin does:

- **Three players (V11).** The first dealer is drawn at random; the dealer sits out, the
  player after the dealer plays first (as the non-dealer of R11) and the other plays
  second. The loser of a hand deals the next, played between the winner and the previous
  dealer; a dead hand is redealt by the same dealer to the same two players. Each player
  keeps a running score to ``target``; box bonuses (R22, V9 extra boxes) go to the winner of
  each hand; ``dealer_rotation`` does not apply. At the end every pair of players settles
  as a two-player game would (R21-R23, V8): the game winner takes the game bonus (the
  shutout bonus, or double, against a player who scored nothing) from each loser, and the
  two losers settle their totals' difference. A player's ``net`` is the sum of its settlements, so the nets sum to 0.
- **Partnerships (V12).** Players 0 and 1 play players 2 and 3; in each round both
  tables play at once, 0 vs 2 and 1 vs 3 in even rounds, 0 vs 3 and 1 vs 2 in odd ones
  (opponents alternate). The team with the larger sum of points won in the round scores
  the difference (so a team winning both tables scores the total) and wins a box; a dead
  table counts 0 and is not replayed. Under Oklahoma with ``oklahoma_extra_boxes`` (V9),
  each undercut or gin by a player earns that player's team its extra boxes beside the
  round box. The first team to ``rules.team_target`` (125) wins, with the game bonus and
  shutout as in R21 and V8 (``rules.target`` does not apply). At each table the team-0
  player deals in rounds 0-1, 4-5, ... and the team-1 player in rounds 2-3, 6-7, ..., so
  everyone deals to each opponent equally often; ``dealer_rotation`` does not apply.
- **Not at these tables.** Hollywood scoring (V14) is two-player scoring: three-player
  and partnership games refuse ``hollywood`` (``Rules.check_table``); the switches a
  table does not use are listed by ``Rules.overridden(table)``.
- **Seatings.** With ``duplicate`` on, every game seed is played once per seating: all 6
  orders of three players, or the 8 seatings of two partnerships (which team sits first,
  and the order within each team), so every player meets the same deals from every seat.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from simgin.game import play
from simgin.game.rules import TABLES as RULES_TABLES, Rules
from simgin.game.strategy import Seat
from simgin.kernels import engine as _ke, multiplayer as _k, rule_index as ri, run_kernel
from simgin.kernels.bots import seat_policies
from simgin.kernels.melds import SUIT_DEADWOOD
from simgin.kernels.showdown import KIND_DEAD, SUIT_VALUE
from simgin.statistics.stats import count, mean_from_sums, ratio, wilson_interval

if TYPE_CHECKING:
    import pandas as pd

TABLES = RULES_TABLES
THREE_SEATINGS = tuple(itertools.permutations(range(3)))
TEAM_SEATINGS = tuple(
    (*first, *second)
    for first_team, second_team in (((0, 1), (2, 3)), ((2, 3), (0, 1)))
    for first in itertools.permutations(first_team)
    for second in itertools.permutations(second_team)
)


def seatings(table: str) -> tuple[tuple[int, ...], ...]:
    """The seatings of a table: ``seating[s]`` is the player index sitting at seat s."""
    return THREE_SEATINGS if table == "three" else TEAM_SEATINGS


@dataclass
class Sums:
    """Named running sums for multi-player tables; ``+`` merges."""

    values: dict[str, float]

    @classmethod
    def zero(cls) -> Sums:
        return cls({})

    def add(self, name: str, amount: float) -> None:
        self.values[name] = self.values.get(name, 0.0) + float(amount)

    def __getitem__(self, name: str) -> float:
        return self.values.get(name, 0.0)

    def __add__(self, other: Sums) -> Sums:
        merged = dict(self.values)
        for name, value in other.values.items():
            merged[name] = merged.get(name, 0.0) + value
        return Sums(merged)

    def to_dict(self) -> dict[str, int | float]:
        """The sums by name, whole ones as ints (counts show as ``25``, not ``25.0``)."""
        return {name: count(value) for name, value in sorted(self.values.items())}

    @classmethod
    def from_dict(cls, data: dict[str, float]) -> Sums:
        return cls({name: float(value) for name, value in data.items()})


def play_table_rows(table: str, bots: Sequence[Seat], rules: Rules, seeds: np.ndarray, hand_capacity: int = 64):
    """Raw rows of three-player or partnership games, seat by seat (``bots[s]`` plays seat s): compiled bots,
    resolved (:class:`~simgin.game.strategy.Seat`; :func:`simgin.running.engine.play_table_rows` takes specs).

    Returns (games, hand rows, hand players, deals per game), as ``kernels.multiplayer``
    writes them; the capacity grows until every game's hands fit. Rules a table cannot
    play (Hollywood, V14) are a ValueError (:meth:`Rules.check_table`).
    """
    rules.check_table(table)
    ids, params = play.compiled_arrays(bots)
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    count = seeds.shape[0]
    fields = _k.THREE_FIELD_COUNT if table == "three" else _k.TEAM_FIELD_COUNT
    while True:
        games = np.zeros((count, fields), dtype=np.int64)
        rows = np.zeros((count, hand_capacity, _ke.HAND_FIELD_COUNT), dtype=np.int64)
        players = np.zeros((count, hand_capacity, 3), dtype=np.int64)
        counts = np.zeros(count, dtype=np.int64)
        errors = np.zeros((count, 2), dtype=np.int64)
        per_game = (games, rows, players, counts, errors)
        decide = seat_policies(ids)
        if table == "three":
            shared = (rules.to_array(), ids, params, SUIT_DEADWOOD, SUIT_VALUE)
            run_kernel(_k.play_three_games_batch, seeds, *shared, *per_game, decide, rows=(seeds, *per_game))
        else:
            # V12: the race at a partnership table is to team_target, and the bots that weigh
            # the game (heuristic, opponent, mcts) are shown their team's score, so they read it there.
            team_rules = rules.to_array()
            team_rules[ri.TARGET] = rules.team_target
            shared = (team_rules, ids, params, rules.team_target, SUIT_DEADWOOD, SUIT_VALUE)
            run_kernel(_k.play_team_games_batch, seeds, *shared, *per_game, decide, rows=(seeds, *per_game))
        bad = np.flatnonzero(errors[:, 0])
        if bad.size:
            i = int(bad[0])
            specs = tuple(bot.spec for bot in bots)
            raise play.IllegalDecision(
                f"a strategy of {specs} made an illegal decision in game seed {int(seeds[i])}, "
                f"hand seed {int(np.uint64(errors[i, 1]))}"
            )
        if count == 0 or counts.max() <= hand_capacity:
            return games, rows, players, counts
        hand_capacity = int(counts.max())


def tally_table(table: str, seating: tuple[int, ...], games: np.ndarray, rows, hand_players, counts) -> Sums:
    """Sum one seating's games by player index (``seating[s]`` = player at seat s) and by seat."""
    t = Sums.zero()
    t.add("games", games.shape[0])
    t.add("capped", games[:, _k.T_CAPPED if table == "three" else _k.M_CAPPED].sum())
    hands, _ = play.game_hands(rows, counts)
    kinds = hands[:, _ke.H_KIND]
    t.add("hands", hands.shape[0])
    for kind, name in enumerate(("dead", "knock", "gin", "big_gin", "undercut")):
        t.add(name, np.sum(kinds == kind))
    t.add("turns", hands[:, _ke.H_TURNS].sum())
    if table == "three":
        for seat, player in enumerate(seating):
            won = games[:, _k.T_WINNER] == seat
            t.add(f"wins_{player}", won.sum())
            t.add(f"seat_wins_{seat}", won.sum())
            for name, column in (("net", _k.T_NET), ("score", _k.T_SCORE), ("hands_won", _k.T_WON)):
                t.add(f"{name}_{player}", games[:, column + seat].sum())
            t.add(f"net_sq_{player}", (games[:, _k.T_NET + seat].astype(np.float64) ** 2).sum())
            t.add(f"sat_out_{player}", games[:, _k.T_SAT_OUT + seat].sum())
            t.add(f"first_dealer_{player}", (games[:, _k.T_FIRST_DEALER] == seat).sum())
            t.add(f"first_to_play_{player}", games[:, _k.T_FIRST + seat].sum())
            t.add(f"seat_first_dealer_wins_{seat}", (won & (games[:, _k.T_FIRST_DEALER] == seat)).sum())
        t.add("shutouts", games[:, _k.T_SHUTOUTS].sum())
    else:
        for team in range(2):
            team_won = games[:, _k.M_WINNER] == team
            t.add(f"seat_team_wins_{team}", team_won.sum())
            members = [seating[s] for s in (2 * team, 2 * team + 1)]
            label = _team_label(members)
            t.add(f"team_wins_{label}", team_won.sum())
            margin = np.where(
                team_won, games[:, _k.M_MARGIN], np.where(games[:, _k.M_WINNER] >= 0, -games[:, _k.M_MARGIN], 0)
            )
            t.add(f"team_margin_{label}", margin.sum())
            t.add(f"team_margin_sq_{label}", (margin.astype(np.float64) ** 2).sum())
        for seat, player in enumerate(seating):
            t.add(f"hands_won_{player}", games[:, _k.M_WON + seat].sum())
            t.add(f"points_{player}", games[:, _k.M_POINTS + seat].sum())
            t.add(f"dealt_{player}", games[:, _k.M_DEALT + seat].sum())
        t.add("rounds", games[:, _k.M_ROUNDS].sum())
        t.add("shutouts", games[:, _k.M_SHUTOUT].sum())
        t.add("dead_tables", (kinds == KIND_DEAD).sum())
    return t


#: What a table game's unit record counts (one unit: a game seed, played in every seating with duplicate deals).
TABLE_KINDS = ("dead", "knock", "gin", "big_gin", "undercut")


def table_unit_fields(table: str) -> tuple[str, ...]:
    """The columns of a table's unit records (:func:`table_unit_records`): the games and hands of the unit, its
    hands by outcome, then per player (three: ``wins_P``, ``net_P``) or per team (partnerships, team 0 = the first
    two players named: ``team_wins_T``, ``team_margin_T``)."""
    common = ("games", "hands", *TABLE_KINDS)
    if table == "three":
        return (*common, *(f"{name}_{p}" for p in range(3) for name in ("wins", "net")))
    return (*common, *(f"team_{name}_{k}" for k in range(2) for name in ("wins", "margin")))


def table_unit_records(
    table: str, seating: tuple[int, ...], games: np.ndarray, rows: np.ndarray, counts: np.ndarray
) -> np.ndarray:
    """One seating's games as unit records, one row per game (the game of seed k is unit k); adding the seatings'
    records gives each unit's record, and summing the units gives the matching sums of :func:`tally_table`."""
    fields = {name: i for i, name in enumerate(table_unit_fields(table))}
    records = np.zeros((games.shape[0], len(fields)), dtype=np.int64)
    hands, game = play.game_hands(rows, counts)
    records[:, fields["games"]] = 1
    records[:, fields["hands"]] = counts
    for kind, name in enumerate(TABLE_KINDS):
        records[:, fields[name]] = np.bincount(game, weights=hands[:, _ke.H_KIND] == kind, minlength=games.shape[0])
    if table == "three":
        for seat, player in enumerate(seating):
            records[:, fields[f"wins_{player}"]] = games[:, _k.T_WINNER] == seat
            records[:, fields[f"net_{player}"]] = games[:, _k.T_NET + seat]
    else:
        for team in range(2):
            won = games[:, _k.M_WINNER] == team
            margin = np.where(
                won, games[:, _k.M_MARGIN], np.where(games[:, _k.M_WINNER] >= 0, -games[:, _k.M_MARGIN], 0)
            )
            label = 0 if min(seating[2 * team], seating[2 * team + 1]) == 0 else 1
            records[:, fields[f"team_wins_{label}"]] = won
            records[:, fields[f"team_margin_{label}"]] = margin
    return records


def _team_label(members: list[int]) -> str:
    return "".join(str(m) for m in sorted(members))


def summarize_table(table: str, players: tuple[str, ...], t: Sums) -> pd.DataFrame:
    """One row per player (three) or per team (teams): win rate with a Wilson interval, points, seats."""
    import pandas as pd

    games = t["games"]
    rows: list[dict[str, Any]] = []
    if table == "three":
        for player, name in enumerate(players):
            wins = t[f"wins_{player}"]
            low, high = wilson_interval(wins, games)
            net, net_low, net_high = mean_from_sums(t[f"net_{player}"], t[f"net_sq_{player}"], games)
            rows.append(
                {
                    "player": name,
                    "games": count(games),
                    "wins": count(wins),
                    "win_rate": ratio(wins, games),
                    "win_rate_low": float(low),
                    "win_rate_high": float(high),
                    "points_per_hand": ratio(t[f"score_{player}"], t["hands"]),
                    "net_per_game": net,
                    "net_low": net_low,
                    "net_high": net_high,
                    "hands_won_share": ratio(t[f"hands_won_{player}"], t["hands"] - t["dead"]),
                    "sat_out_share": ratio(t[f"sat_out_{player}"], t["hands"]),
                    "first_to_play_share": ratio(t[f"first_to_play_{player}"], t["hands"]),
                    "first_dealer_share": ratio(t[f"first_dealer_{player}"], games),
                }
            )
    else:
        labels = sorted({name[len("team_wins_") :] for name in t.values if name.startswith("team_wins_")})
        for label in labels:
            members = [int(ch) for ch in label]
            wins = t[f"team_wins_{label}"]
            low, high = wilson_interval(wins, games)
            margin, margin_low, margin_high = mean_from_sums(
                t[f"team_margin_{label}"], t[f"team_margin_sq_{label}"], games
            )
            rows.append(
                {
                    "team": " + ".join(players[m] for m in members),
                    "games": count(games),
                    "wins": count(wins),
                    "win_rate": ratio(wins, games),
                    "win_rate_low": float(low),
                    "win_rate_high": float(high),
                    "margin_per_game": margin,
                    "margin_low": margin_low,
                    "margin_high": margin_high,
                    "points_per_hand": ratio(sum(t[f"points_{m}"] for m in members), t["hands"]),
                    "hands_won_share": ratio(sum(t[f"hands_won_{m}"] for m in members), t["hands"] - t["dead"]),
                    "dealt_share": ratio(sum(t[f"dealt_{m}"] for m in members), t["hands"]),
                }
            )
    return pd.DataFrame(rows)


def seat_advantage(table: str, t: Sums) -> pd.DataFrame:
    """Win rate by seat over all seatings: with every seating played equally, any spread is the seat's edge.

    Three players: the seat's game win rate (seat 0 is the first listed position). Teams:
    the win rate of the team sitting first (team seat 0) and second.
    """
    import pandas as pd

    games = t["games"]
    rows = []
    prefix, seats = ("seat_wins_", 3) if table == "three" else ("seat_team_wins_", 2)
    for seat in range(seats):
        wins = t[f"{prefix}{seat}"]
        low, high = wilson_interval(wins, games)
        rows.append(
            {"seat": seat, "wins": count(wins), "win_rate": ratio(wins, games), "low": float(low), "high": float(high)}
        )
    return pd.DataFrame(rows)


def table_json(result: Any) -> dict[str, Any]:
    """The JSON of a three-player or partnership match: per player or team, in the order given."""
    from simgin.base.strict_json import jsonable

    config = result.config
    t = result.tallies[0]
    summary = summarize_table(config.table, config.players, t)
    names = summary["player" if config.table == "three" else "team"].tolist()
    data = {
        "table": config.table,
        "players": list(config.players),
        "entries": names,
        "games": int(t["games"]),
        "hands": int(t["hands"]),
        "seed": config.seed,
        "duplicate": config.duplicate,
        "seatings": config.legs,
        "win_rate": summary["win_rate"].tolist(),
        "win_rate_ci": summary[["win_rate_low", "win_rate_high"]].values.tolist(),
        "points_per_hand": summary["points_per_hand"].tolist(),
        "seat_advantage": seat_advantage(config.table, t).to_dict(orient="records"),
        "summary": summary.to_dict(orient="records"),
        "rules": config.rules.to_dict(),
        "overridden": config.rules.overridden(config.table, config.mode == "games"),
        "timing": {"seconds": result.seconds, "chunks_run": result.chunks_run, "chunks_resumed": result.chunks_resumed},
    }
    for name in ("dead", "knock", "gin", "big_gin", "undercut"):
        data[f"{name}_rate"] = ratio(t[name], t["hands"])
    return jsonable(data)

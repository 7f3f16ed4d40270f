"""Whole games recomputed from their hand records by a scorer written here from the rule book.

The scorer below reads only the hand rows (dealer, kind, winner, points, multiplier) and
the rules, and works out what RULES.md says the game must be: who deals each hand (R7
first dealer from the record, V10 rotation, R15 a dead hand redealt by the same dealer),
the boxes (R22, V9 extra boxes under Oklahoma), when each game ends (R20), the game bonus
and the shutout (R21 bonus, V8 double, or none), Hollywood's three games (V14: a win enters
every open game its winner has entered and the first open game it has not), the totals
and the margin (R23). It shares no code with ``Scoreboard`` or the kernels' helpers, and
is held against both engines' games under a dozen rule sets; three-player (V11) and
partnership (V12) games are recomputed the same way from their hand rows and seatings.
"""

from __future__ import annotations

import dataclasses
import functools
from collections import Counter

import numpy as np
import pytest
from simgin.strategies.greedy import GreedyStrategy
from simgin.strategies.random import RandomStrategy
from simgin.strategies.simple import SimpleStrategy

from simgin import Rules
from simgin.game import reference_engine as ref
from simgin.game.rng import derive
from simgin.kernels import engine as ke, multiplayer as km
from simgin.running.engine import play_games, play_table_rows

DEAD, KNOCK, GIN, BIG_GIN, UNDERCUT = 0, 1, 2, 3, 4
KIND_NAMES = {"dead": DEAD, "knock": KNOCK, "gin": GIN, "big_gin": BIG_GIN, "undercut": UNDERCUT}

RULE_SETS = {
    "standard": Rules(),
    "eaai alternate, no bonuses": Rules.preset("eaai"),
    "oklahoma extra boxes, ace gin only": Rules(
        oklahoma=True, target=150, oklahoma_extra_boxes=True, oklahoma_ace_gin_only=True
    ),
    "modern: double shutout, big gin, box 25": Rules.preset("modern"),
    "straight gin, winner deals": Rules(knock_limit=0, dealer_rotation="winner"),
    "target 40, shutout bonus 300": Rules(target=40, shutout_bonus=300),
    "target 30, no shutout bonus": Rules(target=30, shutout="none", game_bonus=50),
    "V5 V7 V13, alternate": Rules(
        eleven_card_start=True, fiftieth_card_action=True, big_gin=True, dealer_rotation="alternate"
    ),
    "hollywood": Rules.preset("hollywood"),
    "hollywood, tie not undercut, knock 5, target 60": Rules(
        hollywood=True, undercut_on_tie=False, knock_limit=5, target=60
    ),
    "hollywood oklahoma extra boxes, double, winner deals": Rules(
        hollywood=True, oklahoma=True, oklahoma_extra_boxes=True, shutout="double", dealer_rotation="winner"
    ),
    "hollywood target 40, extra boxes without oklahoma": Rules(hollywood=True, target=40, oklahoma_extra_boxes=True),
}
PAIRINGS = (("simple", "simple"), ("random", "simple"), ("greedy", "random"))
TWINS = {"random": RandomStrategy, "simple": SimpleStrategy, "greedy": GreedyStrategy}
NUMBA_GAMES = 40
REFERENCE_GAMES = 4


def hand_boxes(rules: Rules, kind: int, multiplier: int) -> int:
    """R22: one box per hand won; V9 (an Oklahoma sub-variant): an undercut 1 extra, a gin 2, times the multiplier."""
    extra = 0
    if rules.oklahoma and rules.oklahoma_extra_boxes:
        extra = {UNDERCUT: 1, GIN: 2, BIG_GIN: 2}.get(kind, 0)
    return 1 + extra * multiplier


def with_game_bonus(rules: Rules, total: int, loser_score: int) -> int:
    """R21, V8: the game winner's total with the game bonus, after a shutout raised or doubled."""
    if loser_score == 0 and rules.shutout == "bonus":
        return total + rules.shutout_bonus
    if loser_score == 0 and rules.shutout == "double":
        return 2 * (total + rules.game_bonus)
    return total + rules.game_bonus


def score_game(rules: Rules, first_dealer: int, hands: list[dict[str, int]], seen: Counter) -> dict[str, int]:
    """The game record RULES.md gives for these hands (asserting who dealt each one); ``seen``
    counts the cases met, so a test can show that it met them."""
    count = 3 if rules.hollywood else 1
    score = [[0, 0] for _ in range(count)]
    boxes = [[0, 0] for _ in range(count)]
    entered = [[False, False] for _ in range(count)]
    closed_by = [-1] * count
    dealer = first_dealer
    for index, hand in enumerate(hands):
        assert -1 in closed_by, "a hand was dealt after the game ended"
        assert hand["dealer"] == dealer, f"hand {index}: dealt by {hand['dealer']}, V10 says {dealer}"
        seen["hands"] += 1
        if hand["kind"] == DEAD:
            seen["dead hand redealt"] += 1
            continue  # R15: no score, the same dealer deals again
        winner, points = hand["winner"], hand["points"]
        won = hand_boxes(rules, hand["kind"], hand["multiplier"])
        seen["extra boxes"] += won > 1
        seen["zero-point win"] += points == 0
        open_games = [g for g in range(count) if closed_by[g] < 0]
        new = [g for g in open_games if not entered[g][winner]][:1]
        for g in open_games:
            if not (entered[g][winner] or g in new):
                continue
            if g in new and any(closed_by[h] >= 0 and not entered[h][winner] for h in range(g)):
                seen["first score in a later game after a shutout"] += 1
            entered[g][winner] = True
            score[g][winner] += points
            boxes[g][winner] += won
            if score[g][winner] >= rules.target:
                closed_by[g] = winner
        if rules.dealer_rotation == "loser":
            dealer = 1 - winner
        elif rules.dealer_rotation == "winner":
            dealer = winner
        else:
            dealer = 1 - dealer
    assert -1 not in closed_by, "the game record ends before every game closed"
    totals = [0, 0]
    shutout = False
    for g in range(count):
        game_totals = [score[g][seat] + rules.box_bonus * boxes[g][seat] for seat in (0, 1)]
        winner, loser = closed_by[g], 1 - closed_by[g]
        game_totals[winner] = with_game_bonus(rules, game_totals[winner], score[g][loser])
        if score[g][loser] == 0:
            shutout = True
            seen[f"shutout {rules.shutout}"] += 1
        totals = [totals[0] + game_totals[0], totals[1] + game_totals[1]]
    winner = closed_by[0]
    if count == 3:  # V14: the higher summed total wins the session; none on a tie
        winner = -1 if totals[0] == totals[1] else int(totals[1] > totals[0])
    return {
        "first_dealer": first_dealer,
        "winner": winner,
        "margin": totals[winner] - totals[1 - winner] if winner >= 0 else 0,
        "score_0": sum(s[0] for s in score),
        "score_1": sum(s[1] for s in score),
        "boxes_0": sum(b[0] for b in boxes),
        "boxes_1": sum(b[1] for b in boxes),
        "total_0": totals[0],
        "total_1": totals[1],
        "hands": len(hands),
        "dead_hands": sum(hand["kind"] == DEAD for hand in hands),
        "shutout": int(shutout),
        "capped": 0,
    }


@functools.cache
def numba_cases(name: str) -> Counter:
    """Score every numba game of rule set ``name`` (``play_games``) and hold it to the record; the cases met."""
    rules = RULE_SETS[name]
    seen: Counter = Counter()
    for k, pairing in enumerate(PAIRINGS):
        games, hands = play_games(pairing, rules, game_count=NUMBA_GAMES, seed=100 + k)
        by_game = hands.groupby("game", observed=True)
        for i, game in enumerate(games.to_dict(orient="records")):
            rows = [{**row, "kind": KIND_NAMES[str(row["kind"])]} for row in by_game.get_group(i).to_dict("records")]
            expected = score_game(rules, int(game["first_dealer"]), rows, seen)
            assert {key: int(game[key]) for key in expected} == expected, f"{name} {pairing} game {i}"
    return seen


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_numba_games_are_what_the_rule_book_scores(name):
    assert numba_cases(name)["hands"] >= len(PAIRINGS) * NUMBA_GAMES


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_reference_games_are_what_the_rule_book_scores(name):
    rules = RULE_SETS[name]
    for k, pairing in enumerate(PAIRINGS):
        for i in range(REFERENCE_GAMES):
            record = ref.play_game((TWINS[pairing[0]](), TWINS[pairing[1]]()), rules, derive(200 + k, i))
            rows = [{f: int(getattr(hand, f)) for f in ke.HAND_FIELDS} for hand in record.hand_records]
            expected = score_game(rules, record.first_dealer, rows, Counter())
            got = dict(zip(ke.GAME_FIELDS, ref_game_row(record), strict=True))
            assert got == expected, f"{name} {pairing} game seed {derive(200 + k, i)}"


def ref_game_row(record: ref.GameRecord) -> list[int]:
    return [
        record.first_dealer, record.winner, record.margin, *record.scores, *record.boxes, *record.totals,
        record.hands, record.dead_hands, int(record.shutout), int(record.capped),
    ]  # fmt: skip


def test_the_numba_games_met_every_case():
    """Every case the scorer handles occurred in the numba games above (so none is checked vacuously)."""
    seen = sum((numba_cases(name) for name in RULE_SETS), Counter())
    for case in (
        "dead hand redealt",
        "extra boxes",
        "zero-point win",
        "first score in a later game after a shutout",
        "shutout bonus",
        "shutout double",
        "shutout none",
    ):
        assert seen[case] > 0, f"no game had: {case}"


def test_the_scorer_knows_the_v14_rule():
    """The scorer itself on the hand-worked case of tests/test_reference_engine.py (V14)."""
    wins = [(0, 40), (0, 40), (1, 30), (0, 40), (0, 25), (1, 50), (1, 50)]
    hands = []
    dealer = 0
    for winner, points in wins:
        hands.append({"dealer": dealer, "kind": KNOCK, "winner": winner, "points": points, "multiplier": 1})
        dealer = 1 - winner
    game = score_game(Rules.preset("hollywood"), 0, hands, Counter())
    assert (game["total_0"], game["total_1"], game["margin"], game["winner"]) == (750, 290, 460, 0)


# -- three players (V11) and partnerships (V12) ---------------------------------------------------

TABLE_RULES = {
    "standard": Rules(),
    "oklahoma extra boxes": Rules(oklahoma=True, target=150, oklahoma_extra_boxes=True, team_target=200),
    "double shutout, target 50, team 60": Rules(shutout="double", target=50, team_target=60, box_bonus=25),
    "eaai": Rules.preset("eaai"),
}
SEEDS = np.array([derive(7, i) for i in range(30)], dtype=np.uint64)


def score_three(rules: Rules, first_dealer: int, rows: np.ndarray, players: np.ndarray) -> dict[str, list[int] | int]:
    """V11 scored from its hands: scores, boxes, the winner and every pair's settlement (R21-R23, V8)."""
    score, boxes, won = [0, 0, 0], [0, 0, 0], [0, 0, 0]
    sat, first_to_play, dead = [0, 0, 0], [0, 0, 0], 0
    dealer = first_dealer
    for row, (first, second, sat_out) in zip(rows, players, strict=True):
        assert max(score) < rules.target, "a hand was dealt after the game ended"
        assert sat_out == dealer and first == (dealer + 1) % 3 and second == (dealer + 2) % 3
        sat[sat_out] += 1
        first_to_play[first] += 1
        if row[ke.H_KIND] == DEAD:
            dead += 1
            continue
        winner = first if row[ke.H_WINNER] == 0 else second
        score[winner] += int(row[ke.H_POINTS])
        boxes[winner] += hand_boxes(rules, int(row[ke.H_KIND]), int(row[ke.H_MULTIPLIER]))
        won[winner] += 1
        dealer = second if winner == first else first
    champion = max(range(3), key=lambda p: score[p])
    assert score[champion] >= rules.target
    total = [score[p] + rules.box_bonus * boxes[p] for p in range(3)]
    net, shutouts = [0, 0, 0], 0
    for p in range(3):
        for q in range(p + 1, 3):
            if champion in (p, q):
                loser = q if champion == p else p
                margin = with_game_bonus(rules, total[champion], score[loser]) - total[loser]
                shutouts += score[loser] == 0
                margin = margin if champion == p else -margin
            else:
                margin = total[p] - total[q]
            net[p] += margin
            net[q] -= margin
    return {
        "winner": champion,
        "score": score,
        "boxes": boxes,
        "net": net,
        "won": won,
        "shutouts": shutouts,
        "sat_out": sat,
        "first_to_play": first_to_play,
        "hands": len(rows),
        "dead": dead,
    }


@pytest.mark.parametrize("name", list(TABLE_RULES))
def test_three_player_games_are_what_the_rule_book_scores(name):
    rules = TABLE_RULES[name]
    games, rows, players, counts = play_table_rows("three", ("simple", "random", "greedy"), rules, SEEDS)
    for g in range(len(SEEDS)):
        n = counts[g]
        expected = score_three(rules, int(games[g, km.T_FIRST_DEALER]), rows[g, :n], players[g, :n])
        got = {
            "winner": int(games[g, km.T_WINNER]),
            "score": games[g, km.T_SCORE : km.T_SCORE + 3].tolist(),
            "boxes": games[g, km.T_BOXES : km.T_BOXES + 3].tolist(),
            "net": games[g, km.T_NET : km.T_NET + 3].tolist(),
            "won": games[g, km.T_WON : km.T_WON + 3].tolist(),
            "shutouts": int(games[g, km.T_SHUTOUTS]),
            "sat_out": games[g, km.T_SAT_OUT : km.T_SAT_OUT + 3].tolist(),
            "first_to_play": games[g, km.T_FIRST : km.T_FIRST + 3].tolist(),
            "hands": int(games[g, km.T_HANDS]),
            "dead": int(games[g, km.T_DEAD]),
        }
        assert got == expected, f"{name} game {g}"


def score_teams(rules: Rules, rows: np.ndarray, players: np.ndarray, seen: Counter) -> dict[str, list[int] | int]:
    """V12 scored from its tables: the round's point difference and box to the team ahead, V9's extra
    boxes to the team of each player who undercut or went gin, first to team_target (R21-R23, V8)."""
    team_score, team_boxes = [0, 0], [0, 0]
    won, points = [0, 0, 0, 0], [0, 0, 0, 0]
    assert len(rows) % 2 == 0
    dealt, dead = [0, 0, 0, 0], 0
    for k in range(0, len(rows), 2):
        assert max(team_score) < rules.team_target, "a round was played after the game ended"
        swing = 0
        for table, (row, (a, b, round_index)) in enumerate(zip(rows[k : k + 2], players[k : k + 2], strict=True)):
            # V12: opponents alternate, 0-2 and 1-3 in even rounds, 0-3 and 1-2 in odd ones.
            pairs = ((0, 2), (1, 3), (0, 3), (1, 2))
            assert round_index == k // 2 and (a, b) == pairs[2 * (round_index % 2) + table]
            assert row[ke.H_DEALER] == (round_index // 2) % 2
            dealt[a if row[ke.H_DEALER] == 0 else b] += 1
            if row[ke.H_KIND] == DEAD:
                dead += 1
                continue
            player = a if row[ke.H_WINNER] == 0 else b
            team = 0 if player < 2 else 1
            won[player] += 1
            points[player] += int(row[ke.H_POINTS])
            swing += int(row[ke.H_POINTS]) * (1 if team == 0 else -1)
            extra = hand_boxes(rules, int(row[ke.H_KIND]), int(row[ke.H_MULTIPLIER])) - 1
            team_boxes[team] += extra
            seen["team extra boxes"] += extra > 0
        if swing:
            ahead = 0 if swing > 0 else 1
            team_score[ahead] += abs(swing)
            team_boxes[ahead] += 1
    champion = 0 if team_score[0] >= rules.team_target else 1
    assert team_score[champion] >= rules.team_target > team_score[1 - champion]
    total = [team_score[t] + rules.box_bonus * team_boxes[t] for t in (0, 1)]
    loser = 1 - champion
    margin = with_game_bonus(rules, total[champion], team_score[loser]) - total[loser]
    return {
        "winner": champion,
        "margin": margin,
        "score": team_score,
        "boxes": team_boxes,
        "shutout": int(team_score[loser] == 0),
        "won": won,
        "points": points,
        "dealt": dealt,
        "rounds": len(rows) // 2,
        "dead": dead,
    }


@pytest.mark.parametrize("name", list(TABLE_RULES))
def test_partnership_games_are_what_the_rule_book_scores(name):
    rules = TABLE_RULES[name]
    games, rows, players, counts = play_table_rows("teams", ("simple", "random", "greedy", "simple"), rules, SEEDS)
    seen: Counter = Counter()
    for g in range(len(SEEDS)):
        n = counts[g]
        expected = score_teams(rules, rows[g, :n], players[g, :n], seen)
        got = {
            "winner": int(games[g, km.M_WINNER]),
            "margin": int(games[g, km.M_MARGIN]),
            "score": games[g, km.M_SCORE : km.M_SCORE + 2].tolist(),
            "boxes": games[g, km.M_BOXES : km.M_BOXES + 2].tolist(),
            "shutout": int(games[g, km.M_SHUTOUT]),
            "won": games[g, km.M_WON : km.M_WON + 4].tolist(),
            "points": games[g, km.M_POINTS : km.M_POINTS + 4].tolist(),
            "dealt": games[g, km.M_DEALT : km.M_DEALT + 4].tolist(),
            "rounds": int(games[g, km.M_ROUNDS]),
            "dead": int(games[g, km.M_DEAD]),
        }
        assert got == expected, f"{name} game {g}"
    assert (seen["team extra boxes"] > 0) == (rules.oklahoma and rules.oklahoma_extra_boxes)


def test_partnership_extra_boxes_need_oklahoma():
    """V9's extra boxes are an Oklahoma sub-variant: without oklahoma they change nothing."""
    plain = play_table_rows("teams", ("simple",) * 4, Rules(), SEEDS[:10])
    extra = play_table_rows(
        "teams", ("simple",) * 4, dataclasses.replace(Rules(), oklahoma_extra_boxes=True), SEEDS[:10]
    )
    for a, b in zip(plain, extra, strict=True):
        assert np.array_equal(a, b)

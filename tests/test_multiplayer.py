"""Three players (V11) and partnerships (V12): rotation, team scoring, seatings and self-play balance."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from simgin import Rules
from simgin.cli.main import main
from simgin.game.multiplayer import TEAM_SEATINGS, THREE_SEATINGS
from simgin.game.rng import derive
from simgin.kernels import engine as ke, multiplayer as km
from simgin.running import runner
from simgin.running.engine import play_table_rows

SEEDS = np.array([derive(99, i) for i in range(40)], dtype=np.uint64)


def test_v11_loser_deals_next_to_the_winner_and_the_previous_dealer():
    """V11: the dealer sits out; the loser deals next, played by the winner and the previous dealer."""
    _, rows, players, counts = play_table_rows("three", ("simple", "random", "simple"), Rules(), SEEDS)
    checked = 0
    for g in range(len(SEEDS)):
        for k in range(counts[g] - 1):
            first, second, dealer = players[g, k]
            assert {first, second, dealer} == {0, 1, 2}
            assert first == (dealer + 1) % 3
            row = rows[g, k]
            nxt = players[g, k + 1]
            if row[ke.H_KIND] == 0:
                assert nxt.tolist() == [first, second, dealer]  # a dead hand is redealt by the same dealer
                continue
            winner = first if row[ke.H_WINNER] == 0 else second
            loser = second if winner == first else first
            assert nxt[2] == loser
            assert {nxt[0], nxt[1]} == {winner, dealer}
            checked += 1
    assert checked > 100


def test_v11_scores_add_up_and_nets_balance():
    rules = Rules()
    games, rows, players, counts = play_table_rows("three", ("simple", "simple", "simple"), rules, SEEDS)
    for g in range(len(SEEDS)):
        scores = np.zeros(3, dtype=np.int64)
        for k in range(counts[g]):
            row = rows[g, k]
            if row[ke.H_KIND] != 0:
                scores[players[g, k, 0] if row[ke.H_WINNER] == 0 else players[g, k, 1]] += row[ke.H_POINTS]
        assert scores.tolist() == games[g, km.T_SCORE : km.T_SCORE + 3].tolist()
        winner = games[g, km.T_WINNER]
        assert scores[winner] >= rules.target
        assert all(scores[i] < rules.target for i in range(3) if i != winner)
        assert games[g, km.T_NET : km.T_NET + 3].sum() == 0
        assert games[g, km.T_NET + winner] > 0


def test_winner_total_follows_r21_and_v8():
    """The game winner's total plus the game bonus: 200 against a shutout, or the total doubled under V8.

    Two-player games and every pairwise settlement of three- and four-player games use it (R23).
    """
    standard = Rules().to_array()
    assert ke.winner_total(standard, 140, 20) == 140 + 100
    assert ke.winner_total(standard, 140, 0) == 140 + 200
    double = Rules.preset("modern").to_array()
    assert ke.winner_total(double, 140, 20) == 140 + 100
    assert ke.winner_total(double, 140, 0) == 2 * (140 + 100)
    assert ke.winner_total(Rules.preset("eaai").to_array(), 110, 90) - 90 == 20


def test_v12_opponents_alternate_and_team_scores_follow_the_rule():
    """V12: both players of a team winning score the total; a split scores the difference; first to 125."""
    rules = Rules()
    games, rows, players, counts = play_table_rows("teams", ("simple", "random", "simple", "simple"), rules, SEEDS)
    for g in range(len(SEEDS)):
        team = np.zeros(2, dtype=np.int64)
        for k in range(0, counts[g], 2):
            r = players[g, k, 2]
            expected = [(0, 2), (1, 3)] if r % 2 == 0 else [(0, 3), (1, 2)]
            assert [tuple(players[g, k + t, :2]) for t in range(2)] == expected
            swing = 0
            for t in range(2):
                row = rows[g, k + t]
                if row[ke.H_KIND] != 0:
                    winner = players[g, k + t, row[ke.H_WINNER]]
                    swing += row[ke.H_POINTS] if winner < 2 else -row[ke.H_POINTS]
            if swing:
                team[0 if swing > 0 else 1] += abs(swing)
        assert team.tolist() == games[g, km.M_SCORE : km.M_SCORE + 2].tolist()
        winner = games[g, km.M_WINNER]
        assert team[winner] >= rules.team_target > team[1 - winner]


def test_seatings_cover_every_order():
    assert len(set(THREE_SEATINGS)) == 6
    assert len(set(TEAM_SEATINGS)) == 8
    for seating in TEAM_SEATINGS:
        assert {seating[0], seating[1]} in ({0, 1}, {2, 3})


@pytest.mark.parametrize(
    ("table", "players", "share"), [("three", ("simple",) * 3, 1 / 3), ("teams", ("simple",) * 4, 1 / 2)]
)
def test_a_bot_against_copies_of_itself_wins_its_share(table, players, share):
    """Self-play over every seating: each player (or team) wins 1/3 (V11) or 1/2 (V12) within the interval."""
    games = 48
    result = runner.run(runner.RunConfig(players, Rules(), games=games, seed=5, table=table), workers=1)
    summary = result.summary
    assert summary["games"].iloc[0] == games
    for row in summary.itertuples():
        assert row.win_rate_low <= share <= row.win_rate_high


@pytest.mark.slow
def test_table_results_do_not_depend_on_workers():
    config = runner.RunConfig(("simple", "random", "simple"), Rules(), games=36, seed=2, table="three", chunk_units=2)
    one = runner.run(config, workers=1)
    two = runner.run(config, workers=2)
    assert one.tallies[0].to_dict() == two.tallies[0].to_dict()


@pytest.mark.parametrize(
    ("table", "players", "games"),
    [
        ("three", ("simple", "random", "greedy"), 36),
        ("teams", ("simple", "random", "greedy", "simple"), 48),
        ("pairs", ("simple", "random"), 40),
    ],
)
def test_progress_counts_every_seating(table: str, players: tuple[str, ...], games: int) -> None:
    """Issue 26: a three-player deal is played in 6 seatings and a partnership deal in 8; progress counts them all."""
    config = runner.RunConfig(players, Rules(), games=games, seed=4, table=table, chunk_units=2)
    reported: list[int] = []
    runner.run(config, workers=1, progress=lambda result, units: reported.append(units))
    assert sum(reported) == config.count * len(config.pairings)
    assert len(reported) == config.chunk_count * len(config.pairings)


def test_cli_three_and_team_matches():
    three = CliRunner().invoke(
        main, ["match", "simple", "simple", "random", "--games", "12", "--workers", "1", "--json"]
    )
    assert three.exit_code == 0, three.output
    data = json.loads(three.stdout)
    assert data["table"] == "three"
    assert data["games"] == 12
    assert len(data["win_rate"]) == 3
    assert sum(data["win_rate"]) == pytest.approx(1)
    assert data["seatings"] == 6
    teams = CliRunner().invoke(
        main,
        ["match", "--team", "simple,simple", "--team", "simple,random", "--games", "16", "--workers", "1", "--json"],
    )
    assert teams.exit_code == 0, teams.output
    data = json.loads(teams.stdout)
    assert data["entries"] == ["simple + simple", "simple + random"]
    assert len(data["seat_advantage"]) == 2
    # A member's own parameters are comma-separated too (registry.split_specs): two members, not three.
    tuned = CliRunner().invoke(
        main,
        ["match", "--team", "heuristic:knock=7,knock_late=5,simple", "--team", "simple,random", "--games", "8",
         "--workers", "1", "--json"],
    )  # fmt: skip
    assert tuned.exit_code == 0, tuned.output
    assert json.loads(tuned.stdout)["entries"][0] == "heuristic:knock=7,knock_late=5 + simple"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["match", "--team", "simple", "--team", "a,b"], "two strategies"),
        (["match", "--team", "a,b"], "exactly two --team"),
        (["match", "simple", "simple", "random", "--games", "7"], "multiple of 6"),
        (["match", "simple", "simple", "random", "--hands", "60"], "--games"),
        (["match", "a", "b", "c", "d"], "two or three"),
    ],
)
def test_cli_table_errors(args, message):
    result = CliRunner().invoke(main, args)
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output


def test_report_of_a_three_player_match(tmp_path):
    """The report shows each player's game wins and the seat advantage, with captions in numbers."""
    from simgin.reports import write_report

    args = ["match", "simple", "simple", "random", "--games", "12", "--workers", "1", "--out", str(tmp_path)]
    assert CliRunner().invoke(main, args).exit_code == 0
    files = write_report(tmp_path, png=False)
    html = (tmp_path / "report.html").read_text()
    assert "Three-player games (V11)" in html
    assert "Who wins the games" in html or "Game wins" in html
    assert "an equal share" in html
    assert [name.rsplit(".", 1)[1] for name in files.to_dict()["figures"]] == ["svg", "svg"]  # two figures, no PNG

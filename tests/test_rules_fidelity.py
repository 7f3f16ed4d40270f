"""Issue 14, rules fidelity: each reproduction of the issue, worked by hand, in both engines.

- V14: a Hollywood win is never lost while a game is open (the issue's game, row 10).
- V13 with V5: the 11-card starter's dealt hand does not qualify for big gin.
- V7: only the 50th card itself, discarded by the player who drew it, is offered.
- Switches a table does not use, or another switch overrides, are refused or reported:
  ``Rules.overridden``, the run commands' warnings and JSON, ``simgin rules``, sweeps.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from click.testing import CliRunner
from simgin.strategies.heuristic import FROZEN_SPEC
from simgin.strategies.simple import SimpleStrategy

from simgin import Rules
from simgin.cli.main import main
from simgin.game import reference_engine as ref
from simgin.game.melds import deadwood, discard_deadwoods
from simgin.game.rng import derive
from simgin.kernels import engine as ke
from simgin.players.registry import resolve
from simgin.running import runner
from simgin.running.engine import hand_seeds, play_games, play_hand_rows, play_table_rows
from simgin.running.results import load_result


def run(*args: str):
    return CliRunner().invoke(main, list(args))


# -- V14 ---------------------------------------------------------------------------------------


def test_V14_the_issues_hollywood_game_loses_no_win():
    # play_games(("simple", "simple"), hollywood, game_count=11, seed=2024), game 10. Seat 0
    # wins hands 0-4 (9, 16, 39, 4, 49), then seat 1 hands 5-8 (9, 16, 11, 11), then seat 0
    # hand 9 by an undercut (10):
    #   h0 g1 9            h3 g1 68, g2 59, g3 43
    #   h1 g1 25, g2 16    h4 g1 117 closes, g2 108 closes (both shutouts), g3 92
    #   h2 g1 64, g2 55, g3 39
    # Seat 1 has entered no open game, so h5 is its first score in game 3 (it went nowhere
    # before the fix): g3 92-9, then 92-25, 92-36, 92-47; h9: g3 102-47 closes.
    # Game 1: 117 + 5 boxes x 20 + 200 = 417 vs 0. Game 2: 108 + 4 x 20 + 200 = 388 vs 0.
    # Game 3: 102 + 4 x 20 + 100 = 282 vs 47 + 4 x 20 = 127. Totals 1087 vs 127, margin 960.
    games, hands = play_games(("simple", "simple"), Rules.preset("hollywood"), game_count=11, seed=2024)
    shown = hands[hands["game"] == 10]
    assert list(zip(shown["winner"], shown["points"], strict=True)) == [
        (0, 9), (0, 16), (0, 39), (0, 4), (0, 49), (1, 9), (1, 16), (1, 11), (1, 11), (0, 10),
    ]  # fmt: skip
    expected = {"winner": 0, "margin": 960, "score_0": 327, "score_1": 47, "boxes_0": 13, "boxes_1": 4}
    expected |= {"total_0": 1087, "total_1": 127, "hands": 10, "shutout": 1}
    game = games.iloc[10]
    assert {key: int(game[key]) for key in expected} == expected
    seed = int(hand_seeds(2024, 11)[10])
    assert int(games["game_seed"].iloc[10]) == seed
    record = ref.play_game((SimpleStrategy(), SimpleStrategy()), Rules.preset("hollywood"), seed)
    assert (record.winner, record.margin, record.scores, record.boxes, record.totals) == (
        0, 960, (327, 47), (13, 4), (1087, 127),
    )  # fmt: skip


# -- V13 with V5 -------------------------------------------------------------------------------

#: Hand seeds whose deal gives the non-dealer 11 cards that all meld (found by searching
#: derive(0, i); the test checks it).
ALL_MELDED_DEALS = [derive(0, i) for i in (198758, 547015, 1023547)]
ELEVEN_BIG_GIN = Rules(eleven_card_start=True, big_gin=True)


@pytest.mark.parametrize("bots", [("simple", "simple"), ("greedy", "random"), ("heuristic", "opponent")])
def test_V13_V5_no_big_gin_on_the_dealt_eleven_cards_in_either_engine(bots):
    """V13: big gin only after a draw. Each of these deals gives the V5 non-dealer 11 melded
    cards: it is not offered big gin, it discards and goes gin (R13) on the first turn."""
    seeds = np.array(ALL_MELDED_DEALS * 2, dtype=np.uint64)
    dealers = np.array([0] * 3 + [1] * 3, dtype=np.int64)
    fast = play_hand_rows(bots, ELEVEN_BIG_GIN, seeds, dealers)
    for row, seed, dealer in zip(fast, seeds, dealers, strict=True):
        players = (resolve(bots[0]).make(), resolve(bots[1]).make())
        record = ref.play_hand(players, ELEVEN_BIG_GIN, int(seed), int(dealer))
        assert deadwood(record.moves[0].hands[1 - dealer]) == 0 and len(record.moves[0].hands[1 - dealer]) == 11
        assert list(row) == list(record.row())
        assert record.moves[1] == ref.Discard(1 - dealer, record.moves[1].card)  # no big gin question first
        assert not (record.kind == ref.Outcome.BIG_GIN and record.draws == 0)
        if bots[0] == "simple":  # simple knocks at once: gin by discarding, no draw
            assert (record.kind, record.winner, record.draws, record.turns) == (ref.Outcome.GIN, 1 - dealer, 0, 1)


# -- V7 ----------------------------------------------------------------------------------------

FIFTIETH = Rules(fiftieth_card_action=True)


def test_V7_offers_only_the_50th_card_in_both_engines():
    """heuristic bots held to gin (gin_hold=10: no knock but gin) often reach the end of the stock
    with little deadwood: over these hands the 50th card is taken, kept, or thrown and declined.
    The numba rows equal the reference engine's (which plays the compiled bots through their
    adapter); every offer in the move logs is of the 50th card just drawn from the stock and
    thrown; and some hands end dead with the 50th card kept, although the other player could
    have knocked with the card thrown instead (the old rule offered it)."""
    seeds = hand_seeds(1414, 150)
    dealers = np.arange(150, dtype=np.int64) % 2
    bots = (f"{FROZEN_SPEC},gin_hold=10",) * 2  # the discard weights of issue 11 (heuristic's frozen ones)
    fast = play_hand_rows(bots, FIFTIETH, seeds, dealers)
    taken = kept_but_knockable = 0
    for row, seed, dealer in zip(fast, seeds, dealers, strict=True):
        record = ref.play_hand((resolve(bots[0]).make(), resolve(bots[1]).make()), FIFTIETH, int(seed), int(dealer))
        assert list(row) == list(record.row()), f"hand seed {int(seed)}"
        moves = record.moves
        stock = moves[0].stock
        for i, move in enumerate(moves):
            if isinstance(move, ref.FiftiethOffer):
                drawn, thrown = moves[i - 2 : i]
                assert drawn == ref.Draw(thrown.seat, "stock", move.card) == ref.Draw(thrown.seat, "stock", stock[28])
                taken += move.taken
        last_draw = [m for m in moves if isinstance(m, ref.Draw) and m.source == "stock"][-1:]
        if record.kind == ref.Outcome.DEAD and last_draw and last_draw[0].card == stock[28]:
            thrown = [m for m in moves if isinstance(m, ref.Discard)][-1]
            if thrown.card != stock[28]:
                # The 50th card was kept; before the fix the other player was offered the throw.
                other = 1 - thrown.seat
                held = _held_before_end(record, other)
                if min(discard_deadwoods([*held, thrown.card]).values()) <= record.knock_limit:
                    kept_but_knockable += 1
    assert taken > 0 and kept_but_knockable > 0


def _held_before_end(record: ref.HandRecord, seat: int) -> list[int]:
    """``seat``'s cards at the end of the hand, replayed from the move log."""
    hand = list(record.moves[0].hands[seat])
    for move in record.moves[1:]:
        if isinstance(move, ref.Draw) and move.seat == seat:
            hand.append(move.card)
        elif isinstance(move, ref.Discard) and move.seat == seat:
            hand.remove(move.card)
    return hand


# -- tables -------------------------------------------------------------------------------------

SEEDS = np.array([derive(3, i) for i in range(6)], dtype=np.uint64)


@pytest.mark.parametrize("table", ["three", "teams"])
def test_V14_hollywood_is_refused_at_three_and_four_player_tables(table):
    players = ("simple",) * (3 if table == "three" else 4)
    with pytest.raises(ValueError, match=r"hollywood=True: Hollywood scoring \(V14\) is two-player scoring"):
        play_table_rows(table, players, Rules.preset("hollywood"), SEEDS)
    with pytest.raises(ValueError, match="V14"):
        runner.RunConfig(players, Rules.preset("hollywood"), games=48, table=table)
    args = (
        ["simple", "simple", "random"] if table == "three" else ["--team", "simple,simple", "--team", "simple,random"]
    )
    result = run("match", *args, "--games", "6", "--seed", "3", "--workers", "1", "--rules", "hollywood", "--json")
    assert result.exit_code == 1
    assert result.output.startswith("Error: rules.hollywood=True") and result.output.count("\n") == 1


def test_V9_V12_extra_boxes_go_to_the_team_of_each_undercut_or_gin():
    """The issue's partnership reproduction: with extra boxes the teams' boxes and margins change."""
    plain = Rules.preset("oklahoma")
    extra = dataclasses.replace(plain, oklahoma_extra_boxes=True)
    players = ("simple", "simple", "simple", "random")
    games, rows, _, counts = play_table_rows("teams", players, plain, SEEDS)
    games_x, rows_x, _, counts_x = play_table_rows("teams", players, extra, SEEDS)
    assert np.array_equal(rows, rows_x) and np.array_equal(counts, counts_x)  # the same hands
    for g in range(len(SEEDS)):
        hands = rows[g, : counts[g]]
        undercuts = (hands[:, ke.H_KIND] == 4) * hands[:, ke.H_MULTIPLIER]
        gins = np.isin(hands[:, ke.H_KIND], (2, 3)) * 2 * hands[:, ke.H_MULTIPLIER]
        extra_boxes = int((undercuts + gins).sum())
        got = int(games_x[g, 8] + games_x[g, 9] - games[g, 8] - games[g, 9])  # team_boxes_0 + team_boxes_1
        assert got == extra_boxes
    assert not np.array_equal(games, games_x)
    args = ["match", "--team", "simple,simple", "--team", "simple,random", "--games", "8", "--seed", "3"]
    args += ["--workers", "1", "--rules", "oklahoma", "--json"]
    margins = [
        json.loads(run(*args, *more).stdout)["summary"][0]["margin_per_game"]
        for more in ((), ("--set", "oklahoma_extra_boxes=true"))
    ]
    assert margins[0] != margins[1]


# -- overridden switches -------------------------------------------------------------------------


def test_overridden_names_each_switch_without_effect_with_its_rule():
    assert Rules().overridden() == {}
    oklahoma = Rules.preset("oklahoma")
    assert set(oklahoma.with_settings({"knock_limit": 5}).overridden()) == {"knock_limit"}
    assert "V9" in oklahoma.with_settings({"knock_limit": 5}).overridden()["knock_limit"]
    assert set(Rules(big_gin_bonus=50).overridden()) == {"big_gin_bonus"}
    assert set(Rules(big_gin=True, big_gin_bonus=50).overridden()) == set()
    assert set(Rules(shutout="double", shutout_bonus=300).overridden()) == {"shutout_bonus"}
    subs = {"oklahoma_spade_double": False, "oklahoma_ace_gin_only": True, "oklahoma_extra_boxes": True}
    assert set(Rules(**subs).overridden()) == set(subs)
    assert Rules(oklahoma=True, **subs).overridden() == {}
    straight = Rules(knock_limit=0, undercut_bonus=25, undercut_on_tie=False)
    assert set(straight.overridden()) == {"undercut_bonus", "undercut_on_tie"}
    assert Rules(oklahoma=True, undercut_bonus=25).overridden() == {}
    assert set(Rules(dealer_rotation="winner", team_target=60).overridden("three")) == {
        "dealer_rotation",
        "team_target",
    }
    assert set(Rules(dealer_rotation="winner", target=150).overridden("teams")) == {"dealer_rotation", "target"}
    assert set(Rules(team_target=60).overridden("pairs")) == {"team_target"}
    eaai = Rules.preset("eaai")
    assert set(eaai.overridden(games=False)) == {"box_bonus", "game_bonus", "shutout", "dealer_rotation"}
    assert eaai.overridden() == {}
    with pytest.raises(ValueError, match="V14"):
        Rules.preset("hollywood").overridden("teams")


def test_effective_rules_reset_exactly_the_overridden_switches():
    rules = Rules(oklahoma=True, knock_limit=4, target=150, big_gin_bonus=40, dealer_rotation="winner")
    assert rules.effective("teams") == Rules(oklahoma=True)
    assert rules.effective("pairs") == Rules(oklahoma=True, target=150, dealer_rotation="winner")


def test_run_commands_warn_on_stderr_and_carry_the_overridden_switches():
    base = ["--games", "2", "--seed", "1", "--workers", "1", "--quiet"]
    match = run("match", "simple", "random", *base, "--rules", "oklahoma", "--set", "knock_limit=5", "--json")
    assert match.exit_code == 0, match.output
    assert match.stderr.splitlines() == [
        "Warning: knock_limit=5 has no effect here: V9: under Oklahoma the up card sets the knock limit of each hand"
    ]
    assert json.loads(match.stdout)["overridden"] == {
        "knock_limit": "V9: under Oklahoma the up card sets the knock limit of each hand"
    }
    teams = run("match", "--team", "simple,simple", "--team", "simple,random", "--games", "8", "--seed", "1",
                "--workers", "1", "--rules", "oklahoma", "--json")  # fmt: skip
    assert teams.exit_code == 0, teams.output
    assert teams.stderr.startswith("Warning: target=150 has no effect here: V12")
    assert set(json.loads(teams.stdout)["overridden"]) == {"target"}
    hands = run("match", "simple", "random", "--hands", "20", "--workers", "1", "--quiet", "--rules", "eaai")
    warned = [line.split("=")[0] for line in hands.stderr.splitlines()]
    assert warned == ["Warning: box_bonus", "Warning: game_bonus", "Warning: shutout", "Warning: dealer_rotation"]
    plain = run("match", "simple", "random", *base, "--json")
    assert plain.stderr == "" and json.loads(plain.stdout)["overridden"] == {}
    # The issue's showdown: under Oklahoma the 9D up card sets the limit, whatever knock_limit says.
    knocker, defender = "AS 2S 3S 7C 7D 7H TD JD QD 4C", "4S 6S 8C 8D 9H 9S KC KH 2C 3D"
    showdown = run("showdown", "--knocker", knocker, "--defender", defender, "--rules", "oklahoma",
                   "--up-card", "9D", "--set", "knock_limit=5")  # fmt: skip
    assert showdown.exit_code == 0 and "(knock limit 9)" in showdown.stdout
    assert showdown.stderr.startswith("Warning: knock_limit=5 has no effect here: V9")


def test_simgin_rules_marks_overridden_switches():
    text = run("rules", "oklahoma", "--set", "knock_limit=5")
    assert text.exit_code == 0
    lines = text.output.splitlines()
    assert any(line.startswith("! knock_limit ") for line in lines)
    assert any(line.startswith("* oklahoma ") for line in lines)
    assert "  knock_limit=5: V9: under Oklahoma the up card sets the knock limit of each hand" in lines
    data = json.loads(run("rules", "oklahoma", "--table", "teams", "--json").stdout)
    assert data["table"] == "teams" and set(data["overridden"]) == {"target"}
    refused = run("rules", "hollywood", "--table", "three")
    assert refused.exit_code == 1 and refused.output.startswith("Error: rules.hollywood=True")


# -- sweeps --------------------------------------------------------------------------------------


def test_sweep_plays_each_distinct_game_once_and_names_the_repeats(tmp_path):
    args = ["sweep", "simple", "random", "--grid", "knock_limit=5,10", "--grid", "oklahoma=false,true"]
    result = run(*args, "--games", "4", "--workers", "1", "--quiet", "--json", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        "Note: cell knock_limit=10, oklahoma=true is the same game as cell knock_limit=5, oklahoma=true "
        "(knock_limit: V9: under Oklahoma the up card sets the knock limit of each hand): "
        "played once; its rows show that cell's results"
    ]
    table = json.loads(result.stdout)["table"]
    same = [(row["knock_limit"], row["oklahoma"], row["same_game_as"]) for row in table if row["player"] == "simple"]
    assert same == [(5, False, ""), (5, True, ""), (10, False, ""), (10, True, "knock_limit=5, oklahoma=true")]
    assert table[3]["win_rate"] == table[7]["win_rate"]
    # Three distinct games were played: three cells' chunks in the run directory.
    assert sorted({path.name[:4] for path in (tmp_path / "chunks").glob("*.json")}) == ["s000", "s001", "s002"]
    saved = load_result(tmp_path)
    assert [cell["same_game_as"] for cell in saved["cells"]] == [None, None, None, 1]
    assert saved["cells"][1]["overridden"] == {
        "knock_limit": "V9: under Oklahoma the up card sets the knock limit of each hand"
    }
    assert "same_game_as" in (tmp_path / "sweep.csv").read_text().splitlines()[0]


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_a_sweep_report_does_not_show_repeats_as_results(tmp_path):
    from simgin.reports.build import result_tables

    args = ["sweep", "simple", "random", "--grid", "knock_limit=5,7,10", "--set", "oklahoma=true"]
    result = run(*args, "--games", "4", "--workers", "1", "--quiet", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert len(result.stderr.splitlines()) == 2
    saved = load_result(tmp_path)
    tables = result_tables(saved)
    cells = tables["sweep_cells"]
    assert cells.frame["knock_limit"].unique().tolist() == [5]
    assert "knock_limit=7 is knock_limit=5" in cells.note and "knock_limit=10 is knock_limit=5" in cells.note
    group = tables["sweep_knock_limit"].frame
    assert group["value"].tolist() == [5] and group["same_games_as"].tolist() == ["knock_limit=7, knock_limit=10"]
    report = run("report", str(tmp_path), "--json", "--no-png")
    assert report.exit_code == 0, report.output
    figures = json.loads(report.stdout)["figures"]
    assert not any("sweep_knock_limit" in name for name in figures)


@pytest.mark.parametrize("table", [(), ("--table", "three")])
def test_a_sweep_names_ten_repeated_cells_and_counts_the_rest(table):
    """The notes on cells that repeat a game stop at ten, then one line counts the others, for pairings and tables
    alike (issue 33: one planning step for both)."""
    players = ("simple", "greedy", "random") if table else ("simple", "random")
    grid = "big_gin_bonus=" + ",".join(str(value) for value in range(1, 13))  # V13: big_gin is off, so one game
    result = run("sweep", *players, *table, "--grid", grid, "--games", "6", "--workers", "1", "--quiet")
    assert result.exit_code == 0, result.output
    notes = result.stderr.splitlines()
    assert len(notes) == 11 and all("is the same game as cell big_gin_bonus=1" in note for note in notes[:10])
    assert notes[10] == "Note: ... and 1 more cell that repeats a game (see same_game_as)"

"""``--on-illegal stop|forfeit`` (issue 25, "Hosting real entries").

An EAAI entry re-discarded the pile card it had just taken (R10) after about 1,500 hands, and
simgin stopped the whole run. Under ``forfeit`` the offender loses the game in progress (the
hand in a run of hands), play goes on, and each forfeit is counted per player and kept with its
hand seed, so that ``simgin replay`` plays the hand again up to the illegal move.

The offender here re-discards a king it has just taken from the pile: a Python strategy (a
subclass of ``simple``) in a file, and the same policy as an ``exec:`` program
(tests/programs/rediscard_bot.py). It depends on the deal alone, so a run gives the same
forfeits on any number of workers.
"""

from __future__ import annotations

import dataclasses
import json
import shlex
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from simgin.cli.main import main
from simgin.game import play, reference_engine as ref
from simgin.game.rules import Rules
from simgin.players.registry import resolve
from simgin.running import engine, runner
from simgin.running.tally import Tally

PROGRAMS = Path(__file__).resolve().parent / "programs"
EXEC_REDISCARD = f"exec:{sys.executable} {PROGRAMS / 'rediscard_bot.py'}"

BOT = '''
from simgin.strategies.simple import SimpleStrategy


class Rediscard(SimpleStrategy):
    """simple, but a king just taken from the pile goes straight back on it (illegal, R10)."""

    name = "rediscard"

    def discard(self, view, rng):
        if view.drawn_from_pile and view.drawn_card % 13 == 12:
            return view.drawn_card
        return super().discard(view, rng)
'''


@pytest.fixture
def bot(tmp_path: Path) -> str:
    path = tmp_path / "rediscard.py"
    path.write_text(BOT)
    return f"{path}:Rediscard"


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def forfeits_of(result: runner.RunResult) -> list[dict]:
    return [record for tally in result.tallies for record in tally.forfeits]


# -- stop: today's behaviour, the default ------------------------------------------------------


def test_stop_is_the_default_and_ends_the_run_with_one_line(bot):
    result = invoke("match", bot, "simple", "--hands", "40", "--workers", "1", "--quiet")
    assert result.exit_code == 1
    lines = [line for line in result.output.strip().splitlines() if not line.startswith("compiling kernels")]
    assert len(lines) == 1 and lines[0].startswith("Error: strategy "), result.output
    assert "made an illegal 'discard' decision" in lines[0] and "(R10)" in lines[0] and "hand seed" in lines[0]
    assert lines[0].endswith("or rerun with --on-illegal forfeit to let it lose that hand and play on")
    with pytest.raises(runner.RunError, match="illegal 'discard'"):
        runner.run_match(bot, "simple", hands=40, workers=1)


def test_a_bad_value_is_a_one_line_click_error(bot):
    for command in (
        ("match", bot, "simple"),
        ("tournament", bot, "simple"),
        ("compare", bot, "simple"),
        ("sweep", bot, "simple", "--grid", "gin_bonus=20,25"),
        ("tune", "heuristic", "--against", "simple"),
    ):
        result = invoke(*command, "--on-illegal", "maybe")
        assert result.exit_code == 1, (command, result.output)
        errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
        assert len(errors) == 1 and "'maybe' is not one of 'stop', 'forfeit'" in errors[0], result.output
    with pytest.raises(ValueError, match="on_illegal='maybe': choose from stop, forfeit"):
        runner.RunConfig(("simple", "random"), hands=10, on_illegal="maybe")


def test_every_command_that_plays_takes_the_option():
    for command in ("match", "tournament", "compare", "sweep", "tune"):
        result = invoke(command, "--help")
        assert "--on-illegal [stop|forfeit]" in result.output, command


# -- forfeit: the hand, in a run of hands ------------------------------------------------------


def test_a_forfeited_hand_goes_to_the_opponent_for_no_points(bot):
    seeds = engine.hand_seeds(1, 60)
    dealers = np.arange(60, dtype=np.int64) % 2
    with pytest.raises(engine.IllegalMove):
        engine.play_hand_rows((bot, "simple"), Rules(), seeds, dealers)
    found: list[engine.HandForfeit] = []
    rows = engine.play_hand_rows((bot, "simple"), Rules(), seeds, dealers, forfeits=found)
    assert found and all(f.seat == 0 and f.decision == "discard" for f in found)
    for forfeit in found:
        row = rows[forfeit.unit]
        assert row[engine._k.H_KIND] == ref.Outcome.FORFEIT
        assert (row[engine._k.H_WINNER], row[engine._k.H_POINTS], row[engine._k.H_KNOCKER]) == (1, 0, -1)
        assert forfeit.hand_seed == seeds[forfeit.unit] and forfeit.dealer == dealers[forfeit.unit]
        assert "was just taken from the pile and may not be discarded (R10)" in forfeit.error
    others = [i for i in range(60) if i not in {f.unit for f in found}]
    assert (rows[others] == engine.play_hand_rows(("simple", "simple"), Rules(), seeds[others], dealers[others])).all()


def test_forfeit_completes_a_run_of_hands_and_counts_each_forfeit(bot):
    result = runner.run_match(bot, "simple", hands=200, seed=3, workers=1, on_illegal="forfeit")
    t = result.tallies[0]
    records = forfeits_of(result)
    assert t["hands"] == 200 and t["forfeits_a"] == len(records) > 0 and t["forfeits_b"] == 0
    assert t["forfeit"] == len(records)
    assert t["hands_won_a"] + t["hands_won_b"] + t["dead"] == t["hands"]  # a forfeit is a hand won
    summary = result.summary
    assert summary["forfeits"].tolist() == [len(records), 0]
    rates = summary.iloc[0]
    assert sum(rates[f"{k}_rate"] for k in ("knock", "gin", "big_gin", "undercut", "dead", "forfeit")) == pytest.approx(
        1
    )
    hands = sorted(record["hand"] for record in records)
    assert hands == [record["hand"] for record in records], "listed in play order"
    # The library sums them by player (issue 33: Python callers get what the CLI prints).
    assert result.forfeits_by_player() == {bot: len(records), "simple": 0}
    assert result.forfeit_records() == records
    for record in records:
        assert record["player"] == bot and record["opponent"] == "simple" and record["decision"] == "discard"
        hand_seed, dealer, players = runner.locate_hand(result.config, record["hand"])
        assert (record["hand_seed"], record["dealer"]) == (hand_seed, dealer)
        assert players[record["seat"]] == bot


def test_a_strategy_cannot_forfeit_for_its_opponent(tmp_path):
    """A plug-in that raises IllegalMove naming the other seat is a strategy that failed (it stops the
    run), not a forfeit of its opponent; one whose error is flagged ``illegal_move`` forfeits itself."""
    path = tmp_path / "cheat.py"
    path.write_text(
        "from simgin.game.reference_engine import IllegalMove\n"
        "from simgin.strategies.simple import SimpleStrategy\n\n"
        "class Blame(SimpleStrategy):\n"
        "    def discard(self, view, rng):\n"
        "        raise IllegalMove('the opponent cheated', seat=1 - view.seat, decision='discard')\n\n"
        "class Flagged(Exception):\n"
        "    illegal_move = True\n\n"
        "class Quits(SimpleStrategy):\n"
        "    def discard(self, view, rng):\n"
        "        raise Flagged('I give up')\n"
    )
    with pytest.raises(runner.RunError, match=r"failed at its 'discard' decision.*the opponent cheated"):
        runner.run_match(f"{path}:Blame", "simple", hands=4, workers=1, on_illegal="forfeit")
    result = runner.run_match(f"{path}:Quits", "simple", hands=4, workers=1, on_illegal="forfeit")
    assert result.tallies[0]["forfeits_a"] == 4 and result.tallies[0]["forfeits_b"] == 0


# -- forfeit: the game --------------------------------------------------------------------------


def test_a_forfeited_game_goes_to_the_opponent_at_the_target(bot):
    """Scoreboard.forfeit: the opponent's score is raised to the target and the game is scored as
    usual from there (game bonus, boxes); the game ends with the forfeited hand."""
    strategies = (resolve(bot).make(), resolve("simple").make())
    rules = Rules()
    games = [ref.play_game(strategies, rules, int(seed), forfeit=True) for seed in engine.hand_seeds(5, 30)]
    forfeited = [game for game in games if game.hand_records[-1].kind == ref.Outcome.FORFEIT]
    assert forfeited, "the seeds have a forfeit"
    for game in forfeited:
        assert game.winner == 1 and game.scores[1] == max(rules.target, game.scores[1])
        assert sum(record.kind == ref.Outcome.FORFEIT for record in game.hand_records) == 1
        shutout = game.scores[0] == 0
        bonus = rules.shutout_bonus if shutout and rules.shutout == "bonus" else rules.game_bonus
        total = game.scores[1] + rules.box_bonus * game.boxes[1] + bonus
        assert game.totals[1] == (2 * total if shutout and rules.shutout == "double" else total)
        assert game.shutout == shutout
        assert game.margin == game.totals[1] - game.totals[0]
        with pytest.raises(ref.IllegalMove):
            ref.play_game(strategies, rules, game_seed_of(games, game))


def game_seed_of(games: list[ref.GameRecord], game: ref.GameRecord) -> int:
    return int(engine.hand_seeds(5, 30)[games.index(game)])


def test_a_hollywood_session_goes_to_the_opponent_whatever_its_totals():
    board = ref.Scoreboard(Rules.preset("hollywood"), first_dealer=0)
    board.sheets[0].scores = [150, 0]
    board.sheets[0].winner = 0
    board.sheets[0].boxes = [6, 0]
    board.forfeit(0)
    record = board.game_record()
    assert record.winner == 1 and all(not sheet.open for sheet in board.sheets)
    assert [sheet.scores[1] for sheet in board.sheets[1:]] == [100, 100]


def test_forfeit_completes_a_run_of_games_and_the_text_says_so(bot):
    result = invoke(
        "match",
        bot,
        "simple",
        "--games",
        "20",
        "--workers",
        "1",
        "--quiet",
        "--on-illegal",
        "forfeit",
        "--rules",
        "eaai",
    )
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if "forfeits (illegal moves" in line)
    assert line.endswith(f"games lost: {bot} 9, simple 0"), line
    outcomes = next(line for line in result.output.splitlines() if line.startswith("  outcomes: "))
    assert ", forfeit " in outcomes
    assert "replay: simgin replay" in result.output and "--rules eaai" in result.output


# -- JSON, replay, report ------------------------------------------------------------------------


@pytest.mark.parametrize("unit, count", [("--hands", "60"), ("--games", "12")])
def test_the_json_lists_each_forfeit_and_replay_plays_it_again(bot, unit, count):
    result = invoke(
        "match", bot, "simple", unit, count, "--workers", "1", "--quiet", "--json", "--on-illegal", "forfeit"
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["on_illegal"] == "forfeit"
    assert data["forfeits"] == [len(data["forfeited"]), 0] and data["forfeited"]
    for record in data["forfeited"][:3]:
        words = shlex.split(record["replay"])
        assert words[:2] == ["simgin", "replay"] and str(record["hand_seed"]) in words
        assert ("--scores" in words) == (unit == "--games")
        replayed = invoke(*words[1:])
        assert replayed.exit_code == 1
        lines = [line for line in replayed.output.strip().splitlines() if not line.startswith("compiling kernels")]
        # The card was taken from the pile: drawn, or the up card taken (one line, issue 32 item 16).
        assert lines[0].startswith(f"hand seed {record['hand_seed']}")
        assert "from the pile" in lines[-2] or "takes the up card" in lines[-2], lines
        assert lines[-1] == f"Error: {record['error']}", "the same illegal move, the same message"


def test_replay_scores_need_a_hand_seed_and_two_numbers():
    for args in (("--seed", "1", "--hand", "2", "--scores", "1,2"), ("--hand-seed", "5", "--scores", "1")):
        result = invoke("replay", "simple", "simple", *args)
        assert result.exit_code == 1 and result.output.count("Error:") == 1 and "--scores" in result.output
    shown = invoke("replay", "simple", "simple", "--hand-seed", "5", "--scores", "35,80")
    assert shown.exit_code == 0 and "scores" in shown.output


@pytest.fixture
def tournament_dir(bot, tmp_path) -> Path:
    out = tmp_path / "run"
    result = invoke(
        "tournament", bot, "simple", "--hands", "40", "--workers", "1", "--quiet", "--out", str(out),
        "--on-illegal", "forfeit",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "forfeits" in result.output.splitlines()[0], "a column of the tournament table"
    assert "forfeits (illegal moves, --on-illegal forfeit), hands lost" in result.output
    return out


def test_the_report_tables_list_the_forfeits(bot, tournament_dir):
    from simgin.reports.build import _facts, result_tables

    saved = json.loads((tournament_dir / "result.json").read_text())
    assert saved["forfeited"] and {r["player"] for r in saved["forfeited"]} == {bot}
    tables = result_tables(saved)
    forfeits = tables["forfeits"]
    assert len(forfeits.frame) == len(saved["forfeited"]) and {"hand_seed", "replay"} <= set(forfeits.shown)
    assert tables["summary"].shown["forfeits"] == "int"
    assert ("illegal moves", f"forfeit the game (or the hand): {len(saved['forfeited'])} forfeits") in _facts(saved)


@pytest.mark.slow
def test_the_html_report_shows_the_forfeits(tournament_dir):
    from simgin.reports.build import build_report

    html = build_report(tournament_dir).read_text()
    assert "Forfeits: illegal moves that lost the player" in html and "simgin replay" in html
    assert (tournament_dir / "report_files" / "forfeits.csv").is_file()


# -- determinism, workers and resume ----------------------------------------------------------------


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
@pytest.mark.parametrize("mode", ["hands", "games"])
def test_the_same_seed_gives_the_same_forfeits_on_one_and_two_workers(bot, mode):
    counts = {"hands": 120, "games": 16}
    config = runner.RunConfig((bot, "simple"), seed=9, chunk_units=10, on_illegal="forfeit", **{mode: counts[mode]})
    one = runner.run(config, workers=1)
    two = runner.run(config, workers=2)
    assert (one.tallies[0].values == two.tallies[0].values).all()
    assert forfeits_of(one) == forfeits_of(two) and forfeits_of(one)


def test_resume_keeps_the_forfeits(bot, tmp_path):
    config = runner.RunConfig((bot, "simple"), hands=120, seed=4, chunk_units=10, on_illegal="forfeit")
    whole = runner.run(config, workers=1, out=tmp_path / "a")
    chunks = sorted((tmp_path / "a" / "chunks").glob("*.json"))
    with_forfeits = [file for file in chunks if "forfeits" in json.loads(file.read_text())]
    assert with_forfeits and len(with_forfeits) < len(chunks)
    for file in chunks[::2]:
        file.unlink()
    resumed = runner.run(config, workers=1, out=tmp_path / "a")
    assert resumed.chunks_resumed == len(chunks) - len(chunks[::2])
    assert (resumed.tallies[0].values == whole.tallies[0].values).all()
    assert forfeits_of(resumed) == forfeits_of(whole)


def test_a_run_that_stopped_on_an_illegal_move_resumes_with_forfeit(bot, tmp_path):
    """The issue's story: the run stops after some chunks; rerun with --on-illegal forfeit into the
    same --out, it keeps those chunks (they had no illegal move) and finishes. Not the reverse."""
    out = tmp_path / "run"
    stop = runner.RunConfig((bot, "simple"), hands=120, seed=4, chunk_units=5)  # the first forfeit: unit 5
    with pytest.raises(runner.RunError, match="illegal 'discard'"):
        runner.run(stop, workers=1, out=out)
    kept = len(list((out / "chunks").glob("*.json")))
    assert kept >= 1
    forfeit = dataclasses.replace(stop, on_illegal="forfeit")
    notices: list[str] = []
    resumed = runner.run(forfeit, workers=1, out=out, notice=notices.append)
    assert resumed.chunks_resumed == kept and any("--on-illegal stop" in notice for notice in notices)
    fresh = runner.run(forfeit, workers=1)
    assert (resumed.tallies[0].values == fresh.tallies[0].values).all()
    assert forfeits_of(resumed) == forfeits_of(fresh)
    with pytest.raises(runner.RunError, match=r'other settings \(on_illegal: recorded "forfeit", now "stop"\)'):
        runner.run(stop, workers=1, out=out)


def test_stop_keeps_the_settings_digest_of_runs_before_the_option():
    stop = runner.RunConfig(("simple", "random"), hands=10)
    forfeit = runner.RunConfig(("simple", "random"), hands=10, on_illegal="forfeit")
    assert "on_illegal" not in stop.to_dict() and forfeit.to_dict()["on_illegal"] == "forfeit"
    assert stop.digest() != forfeit.digest()
    older = {name: value for name, value in Tally.zero().to_dict().items() if not name.startswith("forfeit")}
    assert Tally.from_dict(older)["forfeits_a"] == 0, "a chunk written before the option still reads"


# -- programs, the kernels, compare and tune ------------------------------------------------------------


def test_an_exec_program_forfeits_where_its_python_twin_does(bot):
    twin = runner.run_match(bot, "simple", hands=60, seed=2, workers=1, on_illegal="forfeit")
    program = runner.run_match(EXEC_REDISCARD, "simple", hands=60, seed=2, workers=1, on_illegal="forfeit")
    assert (program.tallies[0].values == twin.tallies[0].values).all()
    assert [r["hand_seed"] for r in forfeits_of(program)] == [r["hand_seed"] for r in forfeits_of(twin)]
    assert all(r["player"] == EXEC_REDISCARD for r in forfeits_of(program))
    with pytest.raises(runner.RunError, match="made an illegal 'discard' decision"):
        runner.run_match(EXEC_REDISCARD, "simple", hands=60, seed=2, workers=1)


def test_a_kernel_error_under_forfeit_is_played_again_in_the_python_engine(monkeypatch):
    """Compiled bots make no illegal moves; were one reported, the hand is played again move for
    move in the Python engine (which forfeits it if it is illegal there too)."""
    seeds = engine.hand_seeds(3, 8)
    dealers = np.arange(8, dtype=np.int64) % 2
    expected = engine.play_hand_rows(("simple", "greedy"), Rules(), seeds, dealers)
    real = play.run_kernel

    def flag_hand_3(kernel, *args, **options):
        real(kernel, *args, **options)
        _, _, rows, errors, *_ = options["rows"]  # the per-hand arrays: seeds, dealers, rows, errors (, luck)
        errors[3] = engine._k.ERROR_REDISCARD
        rows[3] = 0

    monkeypatch.setattr(play, "run_kernel", flag_hand_3)
    with pytest.raises(engine.IllegalDecision, match="R10"):
        engine.play_hand_rows(("simple", "greedy"), Rules(), seeds, dealers)
    found: list[engine.HandForfeit] = []
    assert (engine.play_hand_rows(("simple", "greedy"), Rules(), seeds, dealers, forfeits=found) == expected).all()
    assert found == []


def test_a_kernel_error_in_a_game_under_forfeit_is_played_again_in_the_python_engine(monkeypatch):
    seeds = engine.hand_seeds(3, 6)
    expected = engine.play_game_rows(("simple", "greedy"), Rules(), seeds)
    real = play.run_kernel

    def flag_game_2(kernel, *args, **options):
        real(kernel, *args, **options)
        games, rows, counts, errors = args[-5:-1]
        errors[2] = (engine._k.ERROR_REDISCARD, 0, 0)
        games[2], rows[2], counts[2] = 0, 0, 1

    monkeypatch.setattr(play, "run_kernel", flag_game_2)
    with pytest.raises(engine.IllegalDecision, match="R10"):
        engine.play_game_rows(("simple", "greedy"), Rules(), seeds)
    found: list[engine.HandForfeit] = []
    again = engine.play_game_rows(("simple", "greedy"), Rules(), seeds, forfeits=found)
    for mine, theirs in zip(again, expected, strict=True):
        assert (mine == theirs).all()
    assert found == []


def test_compare_and_tune_take_the_setting(bot):
    from simgin.running.matches import run_sprt
    from simgin.statistics.sprt import SprtSettings
    from simgin.studies import tune as tuning

    settings = SprtSettings(elo0=0, elo1=10, max_games=24, batch_pairs=6)
    _, summary = run_sprt(bot, "simple", settings, seed=1, workers=1, on_illegal="forfeit")
    assert summary["forfeits"][0] == len(summary["forfeited"]) > 0 and summary["forfeits"][1] == 0
    plan = tuning.plan("heuristic", ["simple"], games=8, on_illegal="forfeit")
    assert plan.config("heuristic", "simple", 4, 1).on_illegal == "forfeit"
    assert (
        plan.to_dict()["on_illegal"] == "forfeit" and "on_illegal" not in tuning.plan("heuristic", ["simple"]).to_dict()
    )


def test_tune_counts_the_forfeits_of_its_final_measurement(bot):
    args = ("tune", "heuristic", "--against", bot, "--params", "knock", "--budget", "2", "--popsize", "2")
    result = invoke(*args, "--games", "4", "--final", "8", "--quiet", "--workers", "1", "--on-illegal", "forfeit")
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if "forfeits (illegal moves)" in line)
    assert line.startswith("  forfeits (illegal moves) in the final measurement: heuristic 0, the pool ")
    assert int(line.rsplit(" ", 1)[1]) > 0


def test_a_match_and_a_tournament_count_forfeits_by_player(bot):
    """``MatchResult.forfeits()`` and ``TournamentResult.forfeits()``: each player's forfeits over every pairing
    (R23: an illegal move is never played; under forfeit its player loses the hand)."""
    import simgin

    match = simgin.match(bot, "simple", hands=40, seed=3, workers=1, on_illegal="forfeit")
    assert match.forfeits() == {bot: int(match.run.tallies[0]["forfeits_a"]), "simple": 0}
    assert match.forfeits()[bot] > 0
    table = simgin.tournament([bot, "simple", "random"], hands=40, seed=3, workers=1, on_illegal="forfeit")
    counts = table.forfeits()
    assert set(counts) == {bot, "simple", "random"} and counts["simple"] == counts["random"] == 0
    assert counts[bot] == sum(int(t["forfeits_a"]) for t in table.run.tallies)  # bot is named first: side a

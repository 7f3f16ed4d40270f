"""``simgin match``, ``simgin tournament`` and ``simgin replay`` through click's CliRunner (issue 4)."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from simgin.cli.main import main


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def test_match_json_has_the_fixed_keys():
    result = invoke("match", "simple", "random", "--hands", "400", "--seed", "3", "--workers", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["players"] == ["simple", "random"]
    assert data["hands"] == 400
    assert data["games"] == 0
    for key in ("win_rate", "points_per_hand", "win_rate_ci", "knock_rate", "gin_rate", "big_gin_rate"):
        assert key in data
    assert sum(data[f"{k}_rate"] for k in ("knock", "gin", "big_gin", "undercut", "dead")) == pytest.approx(1)
    assert data["mean_draws"] > 2
    assert "timing" in data


def test_match_games_text_output():
    result = invoke("match", "simple", "random", "--games", "10", "--rules", "eaai", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "simple vs random" in result.output
    assert "of games" in result.output


def test_same_seed_same_numbers_on_one_and_two_workers():
    outputs = []
    for workers in ("1", "2"):
        result = invoke("match", "simple", "random", "--hands", "2000", "--seed", "9", "--workers", workers, "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        data.pop("timing")
        outputs.append(data)
    assert outputs[0] == outputs[1]


def test_tournament_json_rows_per_pair_and_player():
    result = invoke("tournament", "simple", "random", "--hands", "200", "--workers", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [(row["player"], row["opponent"]) for row in data["summary"]] == [("simple", "random"), ("random", "simple")]


def test_out_directory_resumes(tmp_path):
    args = ("match", "simple", "random", "--hands", "400", "--workers", "1", "--out", str(tmp_path), "--json")
    first = json.loads(invoke(*args).stdout)
    second = json.loads(invoke(*args).stdout)
    assert second["timing"]["chunks_resumed"] == 1
    assert second["timing"]["chunks_run"] == 0
    assert {k: v for k, v in first.items() if k != "timing"} == {k: v for k, v in second.items() if k != "timing"}
    other = invoke("match", "simple", "random", "--hands", "400", "--seed", "5", "--out", str(tmp_path))
    assert other.exit_code != 0
    # Issue 25: the refusal shows the recorded value next to the new one.
    assert other.output == (
        f"Error: {tmp_path} holds a run with other settings (seed: recorded 0, now 5); "
        "use another --out directory or rerun with the recorded settings\n"
    )
    sweep = ("sweep", "simple", "random", "--grid", "knock_limit=8,10", "--hands", "40", "--workers", "1", "--quiet")
    invoke(*sweep, "--out", str(tmp_path / "sweep"))
    again = invoke(*sweep[:4], "knock_limit=8,9", *sweep[5:], "--seed", "3", "--out", str(tmp_path / "sweep"))
    assert "(seed: recorded 0, now 3; rules.knock_limit of cell 1: recorded 10, now 9)" in again.output
    rules = invoke("match", "simple", "greedy", "--hands", "400", "--set", "gin_bonus=30", "--out", str(tmp_path))
    assert (
        '(players: recorded ["simple", "random"], now ["simple", "greedy"]; rules.gin_bonus: recorded 20, now 30)'
        in rules.output
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("match", "simple", "greddy", "--hands", "10"), "greddy"),
        (("match", "simple", "random", "--hands", "0"), "--hands"),
        (("match", "simple", "random", "--hands", "10", "--games", "10"), "not both"),
        (("match", "simple", "random", "--hands", "9"), "even"),
        (("match", "simple", "random", "--rules", "nope"), "nope"),
        (("match", "simple", "random", "--hands", "10", "--workers", "0"), "--workers"),
        (("match", "simple", "random", "--hands", "10", "--scheduler", "tcp://127.0.0.1:1"), "--backend dask"),
        (
            ("match", "simple", "random", "--hands", "10", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:1"),
            "cannot reach",
        ),
        (("tournament", "simple"), "at least two"),
    ],
)
def test_bad_options_get_one_line_errors(args, message):
    result = invoke(*args)
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output
    assert len([line for line in result.output.splitlines() if line.startswith("Error")]) == 1


def test_replay_prints_each_move_once_and_the_defenders_melds_without_unasked_warnings():
    # Issue 25: taking the up card was printed twice ("takes the up card JH", then "draws JH
    # from the pile"), the defender's melds were missing, and --rules eaai warned four times
    # about --hands, which a replay is never given.
    result = invoke("replay", "simple", "simple", "--hand-seed", "52", "--rules", "eaai")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert result.stdout.splitlines() == [
        "hand seed 52, seat 0: simple, seat 1: simple, dealer: seat 0",
        "deal by seat 0: seat 0 7S 7C 6H 5S 2D 3C 7D 8H 7H 3D; seat 1 AC 6D 5H 2H 8S TH 4S 4H QH QD; up card JH",
        "seat 1 takes the up card JH",
        "seat 1 discards QD",
        "seat 0 draws 2S from the stock",
        "seat 0 discards 5S",
        "seat 0 knocks with deadwood 10: [7C 7D 7S] [6H 7H 8H]",
        "seat 1 melds [TH JH QH], lays off 4H 5H (9 points), deadwood 21",
        "knock: seat 0 scores 11",
    ]
    # A pile draw on a normal turn is still printed; a hand switch set without effect still warns.
    drawn = invoke("replay", "simple", "random", "--seed", "7", "--hand", "3", "--rules", "oklahoma",
                   "--set", "knock_limit=5")  # fmt: skip
    assert "seat 0 draws JD from the pile" in drawn.stdout.splitlines()
    assert drawn.stderr.splitlines() == [
        "Warning: knock_limit=5 has no effect here: V9: under Oklahoma the up card sets the knock limit of each hand"
    ]
    # A game switch the user named is told why it does nothing, without naming --hands.
    named = invoke("replay", "simple", "simple", "--hand-seed", "52", "--rules", "eaai", "--set", "target=200")
    assert named.stderr.splitlines() == [
        "Warning: target=200 has no effect here: a replay plays one hand, not a game (R20-R23)"
    ]


def _floats_that_are_counts(data, path=""):
    """Paths of whole-number floats under count keys (hands, games, wins, pairs, units, ranks, tallies)."""
    counts = ("hands", "games", "hands_won", "games_won", "wins", "pairs", "pair_counts", "units", "rank_low",
              "rank_high", "capped_hands", "capped_games")  # fmt: skip
    found = []
    if isinstance(data, dict):
        for key, value in data.items():
            inside = f"{path}.{key}"
            if isinstance(value, float) and (key in counts or ".tally." in inside + "."):
                found.append(inside)
            found += _floats_that_are_counts(value, inside)
    elif isinstance(data, list):
        for index, value in enumerate(data):
            if isinstance(value, float) and path.endswith(".pair_counts"):
                found.append(f"{path}[{index}]")
            found += _floats_that_are_counts(value, f"{path}[{index}]")
    return found


@pytest.mark.slow  # plays every command once (about 8 s of CPU): .ci/run runs it with the slow tests
def test_counts_print_as_integers_in_text_and_json(tmp_path):
    # Issue 25: "hands 2065.000 games 200.000" in the tournament table; "games": 1200.0 in the sweep's JSON.
    base = ["--games", "20", "--seed", "2", "--workers", "1", "--quiet"]
    text = invoke("tournament", "simple", "random", *base)
    assert text.exit_code == 0, text.output
    header, first = text.stdout.splitlines()[:2]
    assert header.split()[-2:] == ["hands", "games"]
    assert first.split()[-1] == "20" and first.split()[-2].isdigit()
    data = json.loads(invoke("tournament", "simple", "random", *base, "--json", "--out", str(tmp_path / "t")).stdout)
    assert _floats_that_are_counts(data) == []
    assert isinstance(data["summary"][0]["hands"], int) and isinstance(data["ratings"][0]["rank_low"], int)
    assert _floats_that_are_counts(json.loads((tmp_path / "t" / "result.json").read_text())) == []
    sweep = invoke("sweep", "simple", "random", "--grid", "knock_limit=8,10", *base, "--out", str(tmp_path / "s"))
    assert sweep.exit_code == 0, sweep.output
    recorded = json.loads((tmp_path / "s" / "result.json").read_text())
    assert _floats_that_are_counts(recorded) == [] and recorded["cells"][0]["summary"][0]["games"] == 20
    match = json.loads(invoke("match", "simple", "random", "--hands", "40", "--workers", "1", "--json").stdout)
    assert _floats_that_are_counts(match) == [] and match["paired"]["pairs"] == 20
    three = json.loads(invoke("match", "simple", "random", "greedy", "--games", "6", "--workers", "1", "--json").stdout)
    assert _floats_that_are_counts(three) == []
    compare = invoke("compare", "simple", "random", "--max-games", "20", "--batch", "5", "--workers", "1", "--json")
    sprt = json.loads(compare.stdout)["sprt"]
    assert all(isinstance(count, int) for count in sprt["counts"]) and isinstance(sprt["games"], int)
    assert all(isinstance(step["games"], int) for step in sprt.get("trajectory", []))


def test_exec_players_are_labelled_by_their_handshake_name_and_columns_align():
    # Issue 25: an exec: spec (a whole command line) misaligned the player columns; the program's
    # handshake NAME ("simgin 1 simple-example") labels it, and widths follow the labels.
    import sys
    from pathlib import Path

    bot = f"exec:{sys.executable} {Path(__file__).parents[1] / 'examples' / 'simple_bot.py'}"
    result = invoke("match", bot, "random", "--hands", "20", "--workers", "1", "--quiet")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("simple-example vs random: 20 hands")
    rows = [line for line in lines if " wins " in line and " of hands " in line]
    assert [row.split()[0] for row in rows] == ["simple-example", "random"]
    assert rows[0].index(" wins ") == rows[1].index(" wins ")
    assert bot not in result.stdout
    assert json.loads(invoke("match", bot, "random", "--hands", "20", "--workers", "1", "--json").stdout)[
        "players"
    ] == [bot, "random"]  # JSON keeps the specs
    table = invoke("tournament", bot, "random", "simple", "--hands", "20", "--workers", "1", "--quiet")
    assert table.exit_code == 0, table.output
    assert bot not in table.stdout and "simple-example" in table.stdout
    header, *body = table.stdout.split("\n\n")[0].splitlines()
    assert len({len(line) for line in [header, *body]}) == 1  # one width for every row of the table
    ratings = [line for line in table.stdout.splitlines() if "rank " in line]
    assert len({line.index("(") for line in ratings}) == 1
    # The labels come from the library (issue 33): a Python caller gets the ones the CLI prints.
    import simgin

    played = simgin.match(bot, "random", hands=4, workers=1)
    assert played.labels() == {bot: "simple-example", "random": "random"}
    assert played.labels(ask=False) == {bot: bot, "random": "random"}  # no program started


def test_strategy_typos_get_did_you_mean_in_every_command():
    # Issue 25: option typos got "Did you mean", strategy typos did not.
    match = invoke("match", "simpel", "random", "--hands", "10")
    assert match.exit_code == 1
    assert match.output.startswith("Error: unknown strategy 'simpel' (did you mean 'simple'?): choose from ")
    tournament = invoke("tournament", "simple", "opponnent", "--hands", "10")
    assert "unknown strategy 'opponnent' (did you mean 'opponent'?)" in tournament.output
    parameter = invoke("match", "heuristic:knok_late=3", "random", "--hands", "10")
    assert "unknown parameter 'knok_late' (did you mean 'knock_late'?)" in parameter.output
    tune = invoke("tune", "heuristic", "--against", "simple", "--params", "knok", "--quiet")
    assert "unknown parameter 'knok' (did you mean 'knock'?) of strategy 'heuristic'" in tune.output


def test_throughput_counts_only_the_hands_played_now(tmp_path):
    # D17: a fully resumed run printed about 165,000 hands/s for 0 chunks played.
    from simgin.running import runner

    args = ("match", "simple", "random", "--hands", "400", "--workers", "1", "--quiet", "--out", str(tmp_path))
    first = invoke(*args)
    assert first.exit_code == 0, first.output
    assert re.search(r"^  [\d.]+ s, [\d,]+ hands/s \(400 hands played now\)$", first.stdout, re.MULTILINE)
    again = invoke(*args)
    assert again.stdout.splitlines()[-1].endswith(
        "s; its one chunk was already done (read back from --out), nothing was played"
    )
    assert "hands/s" not in again.stdout
    timing = json.loads(invoke(*args, "--json").stdout)["timing"]
    assert timing["hands_per_second"] is None and timing["hands_run"] == 0 and timing["chunks_resumed"] == 1
    # Half read back, half played: the rate is of the played half.
    config = runner.RunConfig(("simple", "random"), hands=2000, seed=4, chunk_units=500)
    out = tmp_path / "half"
    whole = runner.run(config, workers=1, out=out)
    for chunk in sorted((out / "chunks").glob("*.json"))[:1]:
        chunk.unlink()
    half = runner.run(config, workers=1, out=out)
    assert (half.chunks_run, half.chunks_resumed) == (1, 1)
    assert half.hands_run == 1000 and whole.hands_run == 2000

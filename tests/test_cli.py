"""The click command line: exit codes, text and JSON output, one-line user errors, help."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import simgin
from simgin.cli.main import main
from simgin.game.rules import Rules

HAND = "AS 2S 3S 7C 7D 7H TD JD QD KH"
# The knocker's melds A-2-3 of spades, three 7s and T-J-Q of diamonds, KH loose (deadwood 10).
DEFENDER = "4S 5S 8C 8D 9H 9S KC KD 2C 3D"
# The defender lays off 4S then 5S (chained on A-2-3 of spades) and KD (on T-J-Q of diamonds).
GIN = "AS 2S 3S 7C 7D 7H TD JD QD KD"
GIN_DEFENDER = "4S 5S 8C 8D 9H 9S KC KH 2C 3D"  # deadwood 68, no lay-off after gin


def run(*args: str) -> click.testing.Result:
    return CliRunner().invoke(main, list(args))


def run_json(*args: str) -> dict:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def all_commands() -> dict[str, click.Command]:
    with click.Context(main) as ctx:
        return {name: main.get_command(ctx, name) for name in main.list_commands(ctx)}


def help_examples(command_help: str) -> list[list[str]]:
    """The example command lines of a help text (lines starting 'simgin ', with '\\' continuations)."""
    examples: list[list[str]] = []
    lines = iter(command_help.splitlines())
    for line in lines:
        text = line.strip()
        if not text.startswith("simgin "):
            continue
        while text.endswith("\\"):
            text = text[:-1] + " " + next(lines).strip()
        examples.append(shlex.split(text)[1:])
    return examples


# --- the root group ---------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_root_help_lists_commands(flag):
    result = run(flag)
    assert result.exit_code == 0
    assert "Gin Rummy tournament simulator" in result.output
    for name in ("deadwood", "showdown", "rules"):
        assert f"  {name}" in result.output


def test_version():
    result = run("--version")
    assert result.exit_code == 0
    assert result.output.strip() == f"simgin {simgin.__version__}"


def test_subcommands_accept_short_help_flag():
    result = run("deadwood", "-h")
    assert result.exit_code == 0
    assert result.output.startswith("Usage: ")


def test_every_command_has_help_text_and_a_runnable_example():
    commands = all_commands()
    assert {"deadwood", "showdown", "rules"} <= set(commands)
    for name, command in commands.items():
        assert command.help and len(command.help.split()) >= 10, f"{name} has no real help text"
        assert command.get_short_help_str().strip(), name
        result = run(name, "--help")
        assert result.exit_code == 0, name
        examples = help_examples(result.output)
        assert examples, f"the help of {name!r} has no example starting with 'simgin '"
        assert any(example[0] == name for example in examples), name


@pytest.mark.parametrize("name", ["", "deadwood", "showdown", "rules"])
def test_help_examples_run_as_written(name):
    result = run(*([name] if name else []), "--help")
    examples = help_examples(result.output)
    assert examples
    for example in examples:
        outcome = run(*example)
        assert outcome.exit_code == 0, f"{shlex.join(['simgin', *example])}: {outcome.output}"
        assert outcome.output.strip()


# --- deadwood -----------------------------------------------------------------------------


def test_deadwood_text():
    result = run("deadwood", HAND)
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0] == "deadwood: 10"
    assert lines[1] == "melds: [7C 7D 7H] [TD JD QD] [AS 2S 3S]"
    assert lines[2] == "deadwood cards: KH"
    assert "best discard" not in result.output  # only for 11 cards


def test_deadwood_accepts_any_card_spelling():
    result = run("deadwood", "as, 2s,3S 7c 7d 7h 10d jd qd kh")
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "deadwood: 10"


def test_deadwood_no_melds():
    result = run("deadwood", "QS KS AS")  # Q-K-A is not a run (R4)
    assert result.exit_code == 0
    assert result.output.splitlines()[:3] == ["deadwood: 21", "melds: (none)", "deadwood cards: AS QS KS"]


def test_deadwood_eleven_cards_shows_best_discard():
    result = run("deadwood", HAND + " KC")
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "deadwood: 20"
    assert "best discard: KC (leaves deadwood 10)" in result.output


def test_deadwood_json_shape():
    data = run_json("deadwood", HAND)
    assert data == {
        "cards": HAND.split(),
        "deadwood": 10,
        "melds": [["7C", "7D", "7H"], ["TD", "JD", "QD"], ["AS", "2S", "3S"]],
        "deadwood_cards": ["KH"],
        "best_discard": None,
    }


def test_deadwood_json_eleven_cards():
    data = run_json("deadwood", HAND + " KC")
    assert data["deadwood"] == 20
    assert data["deadwood_cards"] == ["KC", "KH"]
    assert data["best_discard"] == {"card": "KC", "deadwood": 10}
    assert data["deadwood"] == simgin.deadwood(HAND + " KC")


# --- showdown -----------------------------------------------------------------------------


def test_showdown_knock_text():
    result = run("showdown", "--knocker", HAND, "--defender", DEFENDER)
    assert result.exit_code == 0, result.output
    # Defender 4S 5S KD laid off (19); left 8C 8D 9H 9S KC 2C 3D = 49; 49 - 10 = 39 (R14, R17).
    assert "lays off KD 4S 5S (19 points), deadwood 49" in result.output
    assert "melds [7C 7D 7H] [TD JD QD] [AS 2S 3S], deadwood 10" in result.output
    assert result.output.splitlines()[-1] == "result: knock, knocker scores 39 (knock limit 10)"


def test_showdown_json_shape():
    data = run_json("showdown", "--knocker", HAND, "--defender", DEFENDER)
    assert set(data) == {
        "winner",
        "points",
        "kind",
        "knocker_deadwood",
        "defender_deadwood",
        "layoffs",
        "layoff_points",
        "knocker_melds",
        "defender_melds",
        "multiplier",
        "knock_limit",
        "knocker",
        "defender",
        "up_card",
        "rules",
    }
    assert (data["winner"], data["kind"], data["points"]) == ("knocker", "knock", 39)
    assert (data["knocker_deadwood"], data["defender_deadwood"]) == (10, 49)
    assert data["layoffs"] == ["KD", "4S", "5S"]  # ascending card order (suit * 13 + rank)
    assert data["layoff_points"] == 19
    assert data["knocker_melds"] == [["7C", "7D", "7H"], ["TD", "JD", "QD"], ["AS", "2S", "3S"]]
    assert data["defender_melds"] == []
    assert (data["multiplier"], data["knock_limit"], data["up_card"]) == (1, 10, None)
    assert data["knocker"] == HAND.split()
    assert data["defender"] == DEFENDER.split()
    assert data["rules"] == Rules().to_dict()


def test_showdown_json_matches_library():
    data = run_json("showdown", "--knocker", HAND, "--defender", DEFENDER, "--rules", "modern")
    expected = simgin.score_showdown(HAND, DEFENDER, Rules.preset("modern"))
    assert data["points"] == expected.points
    assert data["kind"] == str(expected.kind)
    assert data["defender_deadwood"] == expected.defender_deadwood


def test_showdown_gin_with_set_gin_bonus_r19_v2():
    data = run_json("showdown", "--knocker", GIN, "--defender", GIN_DEFENDER)
    assert (data["kind"], data["points"], data["layoffs"]) == ("gin", 20 + 68, [])
    data = run_json("showdown", "--knocker", GIN, "--defender", GIN_DEFENDER, "--set", "gin_bonus=25")
    assert (data["kind"], data["points"]) == ("gin", 25 + 68)
    assert data["rules"]["gin_bonus"] == 25


def test_showdown_undercut_r18_and_preset_bonus_v3():
    knocker = "AS 2S 3S 7C 7D 7H TD JD QD 9C"  # deadwood 9
    defender = "2H 3H 4H 6C 6D 6S 8C 8H 8S 4C"  # deadwood 4
    result = run("showdown", "--knocker", knocker, "--defender", defender)
    assert result.exit_code == 0
    assert result.output.splitlines()[-1] == "result: undercut, defender scores 15 (knock limit 10)"
    data = run_json("showdown", "--knocker", knocker, "--defender", defender, "--rules", "eaai")
    assert (data["winner"], data["kind"], data["points"]) == ("defender", "undercut", 9 - 4 + 25)


def test_showdown_repeated_set_options_all_apply():
    data = run_json(
        "showdown", "--knocker", GIN, "--defender", GIN_DEFENDER, "--set", "gin_bonus=30", "--set", "knock_limit=0"
    )
    assert data["points"] == 30 + 68
    assert data["rules"]["knock_limit"] == 0


def test_showdown_oklahoma_spade_up_card_doubles_v9():
    knocker = "AS 2S 3S 7C 7D 7H TD JD QD 4C"  # deadwood 4, within the 5S limit
    defender = "4S 6S 8C 8D 9H 9S KC KH 2C 3D"  # lays off 4S, keeps 65
    args = ["showdown", "--knocker", knocker, "--defender", defender, "--rules", "oklahoma", "--up-card", "5s"]
    data = run_json(*args)
    assert (data["knock_limit"], data["multiplier"], data["up_card"]) == (5, 2, "5S")
    assert data["points"] == (65 - 4) * 2
    result = run(*args)
    assert "scores 122, doubled by the up card 5S (knock limit 5)" in result.output


# --- rules --------------------------------------------------------------------------------


def test_rules_lists_every_preset_and_switch():
    result = run("rules")
    assert result.exit_code == 0
    for name in Rules.PRESETS:
        assert f"\n  {name} " in result.output
    for row in Rules.describe():
        line = next(line for line in result.output.splitlines() if line.startswith(row["name"] + " "))
        assert row["type"] in line.split()
        assert row["doc"] in line
    assert "knock_limit=0" in result.output  # what the straight preset changes


def test_rules_json_shape():
    data = run_json("rules")
    assert set(data) == {"presets", "switches"}
    assert list(data["presets"]) == list(Rules.PRESETS)
    assert data["presets"]["oklahoma"]["target"] == 150
    assert data["presets"]["standard"] == Rules().to_dict()
    assert [row["name"] for row in data["switches"]] == [row["name"] for row in Rules.describe()]
    assert set(data["switches"][0]) == {"name", "type", "default", "doc"}
    assert data["switches"][0] == {
        "name": "knock_limit",
        "type": "int",
        "default": 10,
        "doc": Rules.describe()[0]["doc"],
    }


def test_rules_preset_marks_changed_switches():
    result = run("rules", "eaai")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].startswith("Rules: eaai")
    assert any(line.startswith("* gin_bonus") and " 25 " in line for line in lines)
    assert any(line.startswith("  knock_limit") and " 10 " in line for line in lines)


def test_rules_preset_json_with_set():
    data = run_json("rules", "eaai", "--set", "knock_limit=7")
    assert data["preset"] == "eaai"
    assert data["settings"] == ["knock_limit=7"]
    assert data["rules"] == {**Rules.preset("eaai").to_dict(), "knock_limit": 7}
    assert data["changed"]["knock_limit"] == 7
    assert data["changed"]["gin_bonus"] == 25
    assert "target" not in data["changed"]


# --- user errors: one line, non-zero exit, no traceback -------------------------------


ERRORS = {
    "bad card": (["deadwood", "AS 2S XS"], "'XS'"),
    "repeated card": (["deadwood", "AS 2S AS"], "repeated card 'AS'"),
    "too many cards": (["deadwood", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"], "got 12"),
    "no cards": (["deadwood", ""], "got 0"),
    "bad knocker card": (["showdown", "--knocker", "AS 2S 3S 7C 7D 7H TD JD QD 1H", "--defender", DEFENDER], "'1H'"),
    "repeated defender card": (["showdown", "--knocker", HAND, "--defender", "4S 4S 8C 8D 9H 9S KC KD 2C 3D"], "'4S'"),
    "knocker card count": (["showdown", "--knocker", "AS 2S 3S 7C 7D 7H", "--defender", DEFENDER], "got 6"),
    "defender card count": (["showdown", "--knocker", HAND, "--defender", "4S 5S 8C"], "got 3"),
    "knocker over the limit": (
        ["showdown", "--knocker", "AS 2S 3S 7C 7D 7H TD JD KH QC", "--defender", DEFENDER],
        "over the knock limit",
    ),
    "straight knocker over the limit": (
        ["showdown", "--knocker", HAND, "--defender", DEFENDER, "--rules", "straight"],
        "over the knock limit 0",
    ),
    "overlapping hands": (
        ["showdown", "--knocker", HAND, "--defender", "AS 5S 8C 8D 9H 9S KC KD 2C 3D"],
        "overlapping hands: AS",
    ),
    "bad up card": (["showdown", "--knocker", HAND, "--defender", DEFENDER, "--up-card", "ZZ"], "'ZZ'"),
    "two up cards": (["showdown", "--knocker", HAND, "--defender", DEFENDER, "--up-card", "5S 6S"], "got 2"),
    "oklahoma without up card": (
        ["showdown", "--knocker", HAND, "--defender", DEFENDER, "--rules", "oklahoma"],
        "--up-card",
    ),
    "unknown preset in showdown": (
        ["showdown", "--knocker", HAND, "--defender", DEFENDER, "--rules", "nope"],
        "'nope'",
    ),
    "unknown preset in rules": (["rules", "greedy"], "'greedy'"),
    "set without =": (["showdown", "--knocker", HAND, "--defender", DEFENDER, "--set", "gin_bonus"], "KEY=VALUE"),
    "set unknown rule": (["rules", "--set", "gin_bonsu=25"], "'gin_bonsu'"),
    "set bad int": (["rules", "--set", "gin_bonus=lots"], "gin_bonus"),
    "set out of range": (["rules", "--set", "knock_limit=11"], "0-10"),
    "set bad bool": (["rules", "--set", "big_gin=maybe"], "true or false"),
    "set bad choice": (["rules", "--set", "dealer_rotation=random"], "loser"),
}


@pytest.mark.parametrize("case", list(ERRORS))
def test_user_error_is_one_line_without_traceback(case):
    args, expected = ERRORS[case]
    result = run(*args)
    assert result.exit_code != 0
    assert isinstance(result.exception, SystemExit)  # click handled it: no uncaught exception
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    assert expected in lines[0]
    assert "Traceback" not in result.output


def test_unknown_preset_error_lists_the_choices():
    result = run("rules", "greedy")
    for name in Rules.PRESETS:
        assert name in result.stderr


def test_bad_card_error_says_what_is_allowed():
    result = run("deadwood", "AS 2S XS")
    assert "--" not in result.stderr.split(":")[0]
    assert "followed by a suit (C D H S)" in result.stderr


# --- installed entry points ------------------------------------------------------------


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_python_dash_m_and_console_script():
    module = subprocess.run(
        [sys.executable, "-m", "simgin", "--help"], capture_output=True, text=True, timeout=300, check=False
    )
    assert module.returncode == 0, module.stderr
    assert module.stdout.startswith("Usage: simgin ")
    assert "deadwood" in module.stdout
    script = Path(sys.executable).with_name("simgin")
    assert script.exists(), f"console script missing at {script}: is the project installed (pip install -e .)?"
    found = subprocess.run([str(script), "deadwood", HAND], capture_output=True, text=True, timeout=300, check=False)
    assert found.returncode == 0, found.stderr
    assert found.stdout.splitlines()[0] == "deadwood: 10"
    failed = subprocess.run(
        [str(script), "deadwood", "AS XX"], capture_output=True, text=True, timeout=300, check=False
    )
    assert failed.returncode == 1
    assert failed.stderr.strip().splitlines() == [failed.stderr.strip()]
    assert "Traceback" not in failed.stderr


def test_command_modules_import_the_shared_options_not_the_root_group():
    """cli -> cli_runner/cli_tune/cli_report -> cli_options: no import circle back to cli."""
    code = "import sys, simgin.cli.run, simgin.cli.tune, simgin.cli.report; print('simgin.cli.main' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"

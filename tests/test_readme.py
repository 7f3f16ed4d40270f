"""The README stays true to the code: rules table, presets, commands, examples, links."""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from tiers import SLOW

from simgin.cli.main import main
from simgin.game.rules import Rules

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
TEST_COMMAND = 'python -m venv .venv && .venv/bin/pip install -e ".[test]" && .venv/bin/pytest'


def section(title: str) -> str:
    """The text of a '## title' section, up to the next '## ' heading."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", README, re.MULTILINE | re.DOTALL)
    assert match, f"README.md has no '## {title}' section"
    return match.group(1)


def code_blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", text, re.MULTILINE | re.DOTALL)


def table_rows(text: str, first_header: str) -> dict[str, list[str]]:
    """The rows of the markdown table whose first header cell is ``first_header``, keyed by
    their first cell without backticks."""
    match = re.search(rf"^\| {first_header} \|.*?(?=^[^|]|\Z)", text, re.MULTILINE | re.DOTALL)
    assert match, f"no table headed '{first_header}'"
    rows = {}
    for line in match.group(0).splitlines():
        if line.startswith("| `"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            rows[cells[0].strip("`")] = cells
    return rows


def shown(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def console_examples() -> list[tuple[str, list[str]]]:
    """(command line, expected output lines) for each '$ simgin' line of the Commands section."""
    examples = []
    for block in code_blocks(section("Commands"), "console"):
        for chunk in re.split(r"^(?=\$ )", block, flags=re.MULTILINE):
            if chunk.strip():
                command, *output = chunk.rstrip("\n").split("\n")
                examples.append((command.removeprefix("$ "), output))
    return examples


def test_every_rules_field_is_in_the_switch_table_with_its_type_and_default():
    rows = table_rows(section("Rules"), "switch")
    assert len(rows) == len(Rules.describe()), "README lists switches that Rules does not have"
    for row in Rules.describe():
        assert row["name"] in rows, f"README rules table lacks {row['name']}"
        cells = rows[row["name"]]
        assert cells[1] == row["type"], row["name"]
        assert cells[2] == f"`{shown(row['default'])}`", row["name"]
        assert cells[3].split(":")[0] == row["doc"].split(":")[0], f"rule ids differ for {row['name']}"


def test_every_preset_is_in_the_preset_table_with_its_changes():
    rows = table_rows(section("Rules"), "preset")
    assert set(rows) == set(Rules.PRESETS)
    for name, overrides in Rules.PRESETS.items():
        assert name in rows, f"README preset table lacks {name}"
        for key, value in overrides.items():
            assert f"`{key}={shown(value)}`" in rows[name][1], f"preset {name}: {key}={value} not in README"


def test_readme_states_the_test_command_and_ci_runs_both_commands_as_written():
    """.ci/run takes the first bash block of each of the two sections and runs it as it stands (issue 15)."""
    assert code_blocks(section("Running the tests"), "bash")[0].strip() == TEST_COMMAND
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for heading, variable in (("## Quick start", "quick_start"), ("## Running the tests", "tests")):
        assert f'{variable}="$(readme_command "{heading}")"' in ci
        assert f'bash -euo pipefail -c "${variable}"' in ci
    exported = [word for line in ci.splitlines() if line.startswith("export ") for word in line.split()[1:]]
    assert "SIMGIN_REQUIRE_BROWSER=1" in exported
    assert "missing+=(chromium)" in ci and 'apt-get install -y -qq "${missing[@]}"' in ci
    assert ".venv/bin/pytest -p no:cacheprovider -m slow" in ci  # the exhaustive runs pytest leaves out


def test_quick_start_plays_the_fast_ladder_and_writes_the_report():
    commands = code_blocks(section("Quick start"), "bash")
    assert commands
    steps = [step.strip() for step in commands[0].strip().split("&&")]
    assert steps[:2] == ["python -m venv .venv", ".venv/bin/pip install -e ."]
    tournament, report = (shlex.split(step.removeprefix(".venv/bin/simgin ")) for step in steps[2:])
    assert tournament[:5] == ["tournament", "simple", "greedy", "heuristic", "opponent"]
    out = tournament[tournament.index("--out") + 1]
    assert report == ["report", out, "-o", f"{out}/report.html"]
    with click.Context(main) as ctx:
        assert {tournament[0], report[0]} <= set(main.list_commands(ctx))


def test_every_command_is_documented():
    text = section("Commands")
    with click.Context(main) as ctx:
        for name in main.list_commands(ctx):
            assert f"`simgin {name}" in text, f"README does not document 'simgin {name}'"


def test_card_format_is_documented():
    text = section("Cards")
    for phrase in ("suit * 13 + rank", "0-51", "AS 2s 10h TD qc"):
        assert phrase in text


#: Examples whose commands run a search or a study (a second or more each): the long tier (tests/tiers.py).
LONG_EXAMPLES = ("tune", "tune-rules", "sweep")


@pytest.mark.parametrize(
    "command, output",
    [
        pytest.param(command, output, id=command, marks=SLOW if command.split()[1] in LONG_EXAMPLES else ())
        for command, output in console_examples()
    ],
)
def test_command_examples_run_and_print_what_the_readme_shows(command, output):
    args = shlex.split(command)
    assert args[0] == "simgin"
    result = CliRunner().invoke(main, args[1:])
    assert result.exit_code == 0, result.output
    if output:
        assert result.output.rstrip("\n").split("\n") == output


def test_python_examples_pass_as_doctests():
    blocks = code_blocks(section("Python API"), "pycon")
    assert blocks
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(blocks), {}, "README.md", str(ROOT / "README.md"), 0)
    assert len(test.examples) >= 8
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_relative_links_point_to_files():
    for target in re.findall(r"\]\((?!https?:)([^)#]+)\)", README):
        assert (ROOT / target).exists(), f"README links to missing {target}"


def test_what_applies_where_lists_every_switch_that_can_be_overridden():
    """Every switch ``Rules.overridden`` can report, at any table or with independent hands, is in the table."""
    text = section("Rules").split("### What applies where", 1)[1]
    match = re.search(r"^\| set \|.*?(?=^[^|]|\Z)", text, re.MULTILINE | re.DOTALL)
    assert match, "no table headed 'set'"
    listed = set()
    for line in match.group(0).splitlines()[2:]:
        listed |= set(re.findall(r"`([a-z_]+)`", line.split("|")[1]))
    away = Rules(
        knock_limit=0, undercut_bonus=25, undercut_on_tie=False, big_gin_bonus=50, shutout="double",
        shutout_bonus=300, oklahoma_spade_double=False, oklahoma_ace_gin_only=True, oklahoma_extra_boxes=True,
        target=150, team_target=60, dealer_rotation="winner", box_bonus=30, game_bonus=150,
    )  # fmt: skip
    possible = set()
    for rules in (away, Rules(oklahoma=True, knock_limit=5), Rules(hollywood=True)):
        for table in ("pairs", "three", "teams"):
            for games in (True, False):
                if not (rules.hollywood and table != "pairs"):
                    possible |= set(rules.overridden(table, games))
    assert listed == possible

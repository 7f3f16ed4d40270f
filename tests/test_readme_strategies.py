"""The README's Strategies section: the ladder it lists, and the custom strategy it shows runs."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from simgin.cli.main import main
from simgin.game.rules import Rules
from simgin.players.registry import BUILTIN_NAMES, resolve
from simgin.running.engine import hand_seeds, play_game_rows, play_hand_rows

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def strategies_section() -> str:
    match = re.search(r"^## Strategies\n(.*?)(?=^## |\Z)", README, re.MULTILINE | re.DOTALL)
    assert match, "README.md has no '## Strategies' section"
    return match.group(1)


@pytest.fixture
def my_bot(tmp_path, monkeypatch):
    code = re.findall(r"^```python\n(.*?)^```", strategies_section(), re.MULTILINE | re.DOTALL)
    assert len(code) == 1
    (tmp_path / "my_bot.py").write_text(code[0], encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return code[0]


def test_the_ladder_table_lists_every_builtin():
    """The ladder table, not the strength table that bench_strategies.py writes between its markers."""
    text = re.sub(r"<!-- strength-table:start -->.*?<!-- strength-table:end -->", "", strategies_section(), flags=re.S)
    rows = re.findall(r"^\| `(\w+)` \|", text, re.MULTILINE)
    assert rows == list(BUILTIN_NAMES)


def test_the_custom_strategy_is_complete_and_about_thirty_lines(my_bot):
    assert 25 <= len([line for line in my_bot.splitlines() if line.strip()]) <= 40
    player = resolve("my_bot.py:Cautious:most=5")
    assert not player.compiled and player.make().most == 5


@pytest.mark.parametrize(
    "rules",
    [Rules.preset("eaai"), dataclasses.replace(Rules(), fiftieth_card_action=True, rediscard_taken_card=True)],
)
def test_the_custom_strategy_plays_legally_against_the_builtins(my_bot, rules):
    seeds = hand_seeds(8, 60)
    dealers = np.arange(60, dtype=np.int64) % 2
    for other in ("simple", "heuristic", "mcts:budget=20"):
        rows = play_hand_rows(("my_bot.py:Cautious", other), rules, seeds[:20], dealers[:20])
        assert rows.shape[0] == 20
    games, _, _ = play_game_rows(("simple", "my_bot.py:Cautious"), rules, seeds[:4])
    assert set(games[:, 1]) <= {0, 1}


def test_the_custom_strategy_runs_in_a_match(my_bot):
    commands = re.findall(r"^\$ simgin (match .*)$", strategies_section(), re.MULTILINE)
    assert commands
    args = commands[0].split()
    args[args.index("--games") + 1] = "6"
    result = CliRunner().invoke(main, [*args, "--workers", "1", "--quiet"])
    assert result.exit_code == 0, result.output

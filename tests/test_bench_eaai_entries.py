"""``benchmarks.bench_eaai_entries`` measures and tabulates bots against EAAI Java players.

Only the project's own Java test player plays here (tests/java: the stand-in ``ginrummy`` package and
``TwinPlayer``), never third-party code.
"""

from __future__ import annotations

import importlib
import os

import pytest

import simgin
from simgin.players import programs


@pytest.fixture(scope="module")
def bench():
    return importlib.import_module("benchmarks.bench_eaai_entries")


@pytest.fixture(scope="module", autouse=True)
def _no_programs_left():
    """The Java players this module starts end with it (another module checks that no JVM outlives a run)."""
    yield
    programs.close_programs()


def test_an_entry_is_a_name_and_an_eaai_spec(bench):
    assert bench.parse_entry("twin=eaai:a:b:pkg.Player") == ("twin", "eaai:a:b:pkg.Player")
    assert bench.entry_class("eaai:a:b:pkg.Player") == "pkg.Player"
    for bad in ("eaai:a:Player", "twin=simple", "=eaai:a:Player", "twin=eaai:Player"):
        with pytest.raises(ValueError, match="NAME=eaai:CLASSPATH:CLASS"):
            bench.parse_entry(bad)


def test_the_table_gives_games_the_match_interval_and_points(bench):
    row = bench.Row(
        "opponent",
        "twin",
        200,
        120,
        1500,
        2.5,
        1.0,
        4.0,
        60.0,
        bot_forfeits=0,
        entry_forfeits=3,
        win_low=0.531,
        win_high=0.669,
    )
    text = bench.table([row], {"twin": "TwinPlayer"})
    assert text.startswith(f"### {bench.HEADING}\n")
    assert "bot wins (95%, deal pairs)" in text
    assert "| `opponent` | twin (`TwinPlayer`) | 200 | 1500 | 60.0% (53.1%-66.9%) |" in text
    assert "| +2.50 (+1.00 to +4.00) | 0/3 | 60 |" in text


@pytest.mark.slow
def test_a_bot_plays_the_java_test_player_under_eaai_rules(bench, classpath):
    spec = f"eaai:{classpath}:TwinPlayer"
    row = bench.measure("greedy", "twin", spec, games=4, seed=5, workers=1)
    assert row.bot == "greedy" and row.entry == "twin"
    assert row.games == 4 and row.games % 2 == 0, "duplicate deals: each game seed is played from both seats"
    assert 0 <= row.wins <= row.games and row.hands >= row.games
    assert row.net_low <= row.net_points <= row.net_high
    assert row.bot_forfeits == row.entry_forfeits == 0, "neither side makes an illegal move"
    # Issue 32 item 3: the interval is the match's own, with the deal pair as the unit, not Wilson over games.
    summary = simgin.match("greedy", spec, rules="eaai", games=4, seed=5, duplicate=True, workers=1).to_frame()
    assert row.interval() == tuple(summary.loc[summary["side"] == "a", ["win_rate_low", "win_rate_high"]].iloc[0])
    text = bench.table([row], {"twin": bench.entry_class(spec)})
    assert "| `greedy` | twin (`TwinPlayer`) | 4 |" in text
    assert classpath not in text, "the table names the entry by its class, not by local paths"


def test_the_header_gives_the_command_and_the_machine(bench):
    text = bench.header(["--entry", "x=eaai:c:P", "--games", "8"], workers=1, on_illegal="forfeit")
    assert "python -m benchmarks.bench_eaai_entries --entry x=eaai:c:P --games 8" in text
    assert "an illegal move: forfeit" in text
    assert f"{os.cpu_count()} cores" in text and "UTC" in text


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_an_illegal_move_of_the_entry_forfeits_its_game(bench, classpath):
    spec = f"eaai:{classpath}:BadPlayers$NotHeld"
    row = bench.measure("simple", "bad", spec, games=2, seed=1, workers=1)
    assert row.games == 2 and row.entry_forfeits >= 1 and row.bot_forfeits == 0
    assert row.wins >= row.entry_forfeits, "a game the entry forfeits is a game the bot wins"

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
        seeds="24",
    )
    text = bench.table([row], {"twin": "TwinPlayer"})
    assert text.startswith(f"### {bench.HEADING}\n")
    assert "bot wins (95%, deal pairs)" in text
    assert "| `opponent` | twin (`TwinPlayer`) | 24 | 200 | 1500 | 60.0% (53.1%-66.9%) |" in text
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
    assert "| `greedy` | twin (`TwinPlayer`) | 5 | 4 |" in text, "the seed, then the games"
    assert sum(row.pair_counts) == 2, "four games: two deal pairs, counted by the bot's score in each"
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


def test_seeds_are_one_a_list_or_a_range(bench):
    assert bench.parse_seeds("24") == [24]
    assert bench.parse_seeds("24,25,27") == [24, 25, 27]
    assert bench.parse_seeds("24-29") == [24, 25, 26, 27, 28, 29]
    assert bench.parse_seeds("20,24-26") == [20, 24, 25, 26]
    assert bench.seeds_label([24, 25, 26, 27, 28, 29]) == "24-29"
    assert bench.seeds_label([24, 26]) == "24,26" and bench.seeds_label([7]) == "7"
    for bad, says in (("x", "give seeds as"), ("29-24", "rising range"), ("24,24", "appears twice"), ("", "give")):
        with pytest.raises(ValueError, match=says):
            bench.parse_seeds(bad)


def _row(bench, seed, counts, hands, net, half, bot="opponent"):
    """A measured row of ``counts`` deal pairs by the bot's score (0, 1/4, 1/2, 3/4, 1), two games each."""
    pairs = sum(counts)
    wins = counts[1] * 0.5 + counts[2] + counts[3] * 1.5 + 2 * counts[4]
    return bench.Row(bot, "twin", 2 * pairs, int(wins), hands, net, net - half, net + half, 10.0, win_low=0.4,
                     win_high=0.6, seeds=str(seed), pair_counts=tuple(counts))  # fmt: skip


def test_seeds_pool_by_their_deal_pairs(bench):
    """The pooled win rate's interval is the pair score's over every seed's deal pairs (issue 32 item 3: the pair
    is the unit), narrower than each seed's alone; the points per hand are weighted by hands."""
    from simgin.running.summary import pair_score_interval

    first = _row(bench, 24, (18, 0, 50, 0, 32), 1000, 2.0, 2.0)
    second = _row(bench, 25, (25, 0, 45, 0, 30), 1100, 1.0, 2.2)
    both = bench.pooled([first, second])
    assert (both.games, both.wins, both.hands) == (400, first.wins + second.wins, 2100)
    assert both.pair_counts == (43, 0, 95, 0, 62) and both.seeds == "24-25"
    score, low, high = pair_score_interval(
        {"pairs": 200, **{f"pair_score_{k}": c for k, c in enumerate(both.pair_counts)}}
    )
    assert score == pytest.approx(both.win_rate) and (both.win_low, both.win_high) == (low, high)
    for alone in (first, second):
        _, alone_low, alone_high = pair_score_interval(
            {"pairs": 100, **{f"pair_score_{k}": c for k, c in enumerate(alone.pair_counts)}}
        )
        assert high - low < alone_high - alone_low
    assert both.net_points == pytest.approx((2.0 * 1000 + 1.0 * 1100) / 2100)
    assert both.net_high - both.net_points == pytest.approx(
        ((1000 / 2100 * 2.0) ** 2 + (1100 / 2100 * 2.2) ** 2) ** 0.5
    )
    with pytest.raises(ValueError, match="one bot against one entry"):
        bench.pooled([first, _row(bench, 26, (1, 0, 1, 0, 1), 10, 0.0, 1.0, bot="simple")])
    with pytest.raises(ValueError, match="five pair counts"):
        bench.pooled([bench.Row("opponent", "twin", 2, 1, 3, 0.0, -1.0, 1.0, 1.0, seeds="1")])


def test_one_seed_pooled_is_its_match(bench):
    """Pooling a single measured seed gives back the match's own interval, to the last bit: the pooled row reads
    the same pair counts with the same function as the match summary."""
    row = bench.measure("greedy", "simple", "simple", games=60, seed=3, workers=1)
    assert sum(row.pair_counts) == row.games // 2 == 30
    alone = bench.pooled([row])
    assert (alone.win_low, alone.win_high) == row.interval()
    assert (alone.games, alone.wins, alone.hands, alone.net_points) == (row.games, row.wins, row.hands, row.net_points)


def test_out_keeps_each_seed_and_a_rerun_resumes(bench, tmp_path, monkeypatch):
    """With ``--out`` a seed's row is written as it finishes and read back on a rerun, not played again."""
    played = []

    def fake_measure(bot, name, spec, games, seed, workers=None, on_illegal="forfeit"):
        played.append(seed)
        return _row(bench, seed, (1, 0, 2, 0, 1), 20, 0.5, 1.0, bot=bot)

    monkeypatch.setattr(bench, "measure", fake_measure)
    first = bench.measured_piece(tmp_path, "mcts:budget=10,width=2", "twin", "eaai:x:P", 8, 24, 1, "forfeit")
    again = bench.measured_piece(tmp_path, "mcts:budget=10,width=2", "twin", "eaai:x:P", 8, 24, 1, "forfeit")
    assert played == [24] and again == first
    assert [p.name for p in tmp_path.iterdir()] == [
        bench.piece_path(tmp_path, "mcts:budget=10,width=2", "twin", 24, 8).name
    ]
    bench.measured_piece(tmp_path, "mcts:budget=10,width=2", "twin", "eaai:x:P", 8, 25, 1, "forfeit")
    assert played == [24, 25], "another seed is another piece"


def test_bad_seeds_are_a_one_line_error_before_anything_plays(bench, capsys):
    import shutil

    if shutil.which("javac") is None:
        pytest.skip("the benchmark stops earlier without Java")
    with pytest.raises(SystemExit) as done:
        bench.main(["--entry", "x=eaai:nowhere:Player", "--seeds", "29-24"])
    assert done.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert "--seeds '29-24'" in error and "rising range" in error

"""``benchmarks.bench_strategies`` writes only between its markers and computes honest intervals."""

from __future__ import annotations

import importlib

import pytest


@pytest.fixture(scope="module")
def bench():
    return importlib.import_module("benchmarks.bench_strategies")


def test_markers_are_appended_once_and_the_rest_of_the_file_is_kept(bench, tmp_path, monkeypatch):
    results = tmp_path / "RESULTS.md"
    results.write_text("# Benchmarks\n\nother script's table\n<!-- compare:start -->\nx\n<!-- compare:end -->\n")
    monkeypatch.setattr(bench, "RESULTS", results)
    bench.write_results("first table")
    text = results.read_text()
    assert text.startswith("# Benchmarks\n\nother script's table\n<!-- compare:start -->\nx\n<!-- compare:end -->\n")
    assert text.endswith(f"{bench.HEADING}\n\n{bench.START}\nfirst table\n{bench.END}\n")
    results.write_text(text + "\n## Later section\n\nkept\n")
    bench.write_results("second table")
    text = results.read_text()
    assert text.count(bench.HEADING) == 1 and "first table" not in text
    assert f"{bench.START}\nsecond table\n{bench.END}\n\n## Later section\n\nkept\n" in text


def test_wilson_interval(bench):
    low, high = bench.wilson(70, 100)
    assert 0.60 < low < 0.61 and 0.78 < high < 0.79  # 95% Wilson interval of 70/100
    assert bench.wilson(0, 50)[0] == pytest.approx(0.0, abs=1e-12)


def test_a_duel_counts_both_seats(bench):
    result = bench.duel("greedy", "random", bench.Rules.preset("eaai"), 4, seed=3)
    assert result.games == 8 and result.wins == 8, "greedy beats random from both seats"
    assert result.hands > 0 and result.net_points > 0 and 0 <= result.gins + result.undercuts <= result.hands
    assert result.pair_scores == (0, 0, 0, 0, 4), "every deal won from both seats"


def test_a_duels_interval_takes_the_deal_pair_as_its_unit(bench):
    """Issue 32 item 3: the strength table's interval is the match's, not Wilson's over single games. Deals that A
    wins or loses from both seats spread the pair scores (a wider interval than Wilson's); deals it wins from one
    seat only narrow them."""
    together = bench.Duel("a", "b", 400, 240, 0, 2000, 0, 0, 0, 1.0, pair_scores=(60, 0, 0, 0, 140))
    split = bench.Duel("a", "b", 400, 240, 0, 2000, 0, 0, 0, 1.0, pair_scores=(0, 0, 160, 0, 40))
    wilson = bench.wilson(240, 400)
    assert together.interval()[1] - together.interval()[0] > 1.2 * (wilson[1] - wilson[0])
    assert split.interval()[1] - split.interval()[0] < 0.8 * (wilson[1] - wilson[0])
    for duel in (together, split):
        low, high = duel.interval()
        assert low < duel.win_rate < high
    real = bench.duel("simple", "greedy", bench.Rules(), 40, seed=1)
    assert sum(real.pair_scores) == 40, "one pair score per deal"
    assert sum(k * c for k, c in enumerate(real.pair_scores)) == 2 * real.wins + real.draws, "halves of games"
    assert real.interval() != pytest.approx(bench.wilson(real.wins, real.games))


def test_ratings_are_anchored_on_simple_and_follow_the_results(bench):
    names = ("random", "simple", "opponent")
    duel = bench.Duel
    results = {
        ("random", "simple"): duel("random", "simple", 100, 0, 0, 500, -900, 0, 0, 1.0),
        ("opponent", "simple"): duel("opponent", "simple", 100, 65, 2, 500, 700, 10, 30, 1.0),
        ("opponent", "random"): duel("opponent", "random", 100, 100, 0, 400, 2000, 5, 0, 1.0),
    }
    elo = bench.ratings(results, names)
    assert elo[1] == 0.0 and elo[0] < 0.0 < elo[2]
    # 66 of 100 against simple (a capped game counts half) is about +115 Elo apart; the prior pulls it in a little.
    assert 90 < elo[2] < 130


def test_the_gates_summary_lists_each_change_with_every_presets_decision(bench):
    results = "\n".join(
        [
            "# RESULTS",
            bench.GATES_START,
            "| 2026-12-02 | change A | standard | **H1** (elo >= 10) | 2,900 | +20 (+6 to +34) | 3.09 | `cmd` |",
            "| 2026-12-02 | change A | straight | same play (200 hands hash alike) | | | | |",
            "| 2026-12-02 | change B: rejected | standard | **H0** (elo <= 0) | 1,150 | -12 | -2.99 | `cmd` |",
            bench.GATES_END,
        ]
    )
    lines = bench.gates_summary(results)
    assert lines[-2] == "- change A: standard H1 (elo >= 10), 2,900 games; straight same play (200 hands hash alike)"
    assert lines[-1] == "- change B: rejected: standard H0 (elo <= 0), 1,150 games"
    assert bench.gates_summary("# no gates yet") == ["Strength gates: none recorded."]


def _fake_args(bench, tmp_path, only=None, games=20):
    import argparse

    return argparse.Namespace(
        games=games, search_games=2, sweep_games=4, speed_hands=200, timing_hands=1, seed=1,
        mcts_round_robin=False, pieces=str(tmp_path / "pieces"), only=only,
    )  # fmt: skip


def test_a_run_in_pieces_plays_each_piece_once_and_reports_only_when_all_are_there(bench, tmp_path, monkeypatch):
    """A piece kept with the same settings and revision is used, not played again; one kept with other settings, or
    damaged, is played again; ``--only`` plays only the pieces it names."""
    played = []

    def fake_piece(name, args):
        played.append(name)
        rate = {(bot, name): 0.5 + 0.01 * args.games for bot in ("random", "greedy", "heuristic", "opponent", "mcts")}
        return bench.Piece(
            [f"### {name} ({args.games})"], [(f"{name}: a target", True)], rate if name != "robustness" else {}
        )

    monkeypatch.setattr(bench, "play_piece", fake_piece)
    first = bench.play_pieces(_fake_args(bench, tmp_path, only=("standard", "robustness")))
    assert played == ["standard", "robustness"] and set(first) == {"standard", "robustness"}
    played.clear()
    every = bench.play_pieces(_fake_args(bench, tmp_path))
    assert played == ["oklahoma", "eaai", "modern", "straight", "hollywood"], "the kept pieces are not played again"
    assert every["standard"].against_simple == first["standard"].against_simple
    assert every["standard"].checks == [("standard: a target", True)]
    report, table = bench.build_report(_fake_args(bench, tmp_path), every)
    assert report.index("### standard (20)") < report.index("### hollywood (20)") < report.index("Targets of issue 24")
    assert "(7 of 7 met)" in report and "| `opponent` | 70.0% |" in table
    played.clear()
    (tmp_path / "pieces" / "eaai.json").write_text("{not json")
    bench.play_pieces(_fake_args(bench, tmp_path, games=30, only=("standard",)))
    assert played == ["standard"], "other settings: only the piece named is played again"
    played.clear()
    bench.play_pieces(_fake_args(bench, tmp_path))
    assert played == ["standard", "eaai"], "the piece kept with other settings and the damaged one are played again"


def test_only_needs_a_pieces_directory_and_known_names(bench, capsys):
    with pytest.raises(SystemExit):
        bench.main(["--quick", "--only", "standard"])
    assert "--only takes --pieces DIR" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        bench.main(["--quick", "--pieces", "x", "--only", "standard,texas"])
    assert "'standard,texas': name pieces of standard, oklahoma" in capsys.readouterr().err

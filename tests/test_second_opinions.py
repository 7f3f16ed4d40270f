"""Second opinions in ``simgin analyse`` (issue 34): other bots asked every decision of a player from the same
view, their answers valued by the same valuations and never played (docs/ANALYSIS.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import simgin
from simgin.analysis.hands import COLUMNS
from simgin.analysis.recorder import RecordingStrategy
from simgin.cli.main import main
from simgin.game.reference_engine import play_hand
from simgin.game.rng import derive
from simgin.game.rules import Rules
from simgin.players.registry import resolve

RAISES = '''
from simgin.strategies.simple import SimpleStrategy


class Stubborn(SimpleStrategy):
    """simple, but it has no opinion on discards: it raises."""

    name = "stubborn"

    def discard(self, view, rng):
        raise RuntimeError("no opinion")
'''


@pytest.fixture(scope="module")
def advised():
    return simgin.analyse(
        "heuristic", "simple", hands=16, workers=1, second_opinions=["random", "heuristic", "opponent"]
    )


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_advisers_change_nothing_of_the_play_or_its_valuation(advised):
    plain = simgin.analyse("heuristic", "simple", hands=16, workers=1)
    assert advised.to_frame()[list(COLUMNS)].equals(plain.to_frame()[list(COLUMNS)])
    assert advised.net_frame().equals(plain.net_frame())
    with_opinions, without = advised.to_json(), plain.to_json()
    for mine, theirs in zip(with_opinions["players"], without["players"], strict=True):
        assert {k: v for k, v in mine.items() if k != "second_opinions"} == theirs
    assert with_opinions["second_opinions"] == ["random", "heuristic", "opponent"]
    assert "second_opinions" not in without and "second_opinions" not in without["players"][0]


@pytest.mark.slow  # the analysis with three advisers (the module fixture, 2 s): the long tier (tests/tiers.py)
def test_each_opinion_is_read_off_the_decisions_own_valuation(advised):
    frame = advised.to_frame()
    for _, row in frame.iterrows():
        for answer, loss in zip(row["second_opinions"], row["second_opinion_losses"], strict=True):
            assert loss is not None and loss >= -1e-12  # every built-in bot answers legally
            if answer == row["chosen"]:
                assert loss == pytest.approx(row["loss"])  # the same action, the same valuation
            if answer == row["best"]:
                assert loss == pytest.approx(0.0)


@pytest.mark.slow  # the analysis with three advisers (the module fixture, 2 s): the long tier (tests/tiers.py)
def test_the_summary_is_paired_with_the_players_own_decisions(advised):
    frame = advised.to_frame()
    for side, player in enumerate(advised.to_json()["players"]):
        mine = frame[frame["side"] == side]
        by_name = {opinion["adviser"]: opinion for opinion in player["second_opinions"]}
        for index, spec in enumerate(advised.second_opinions):
            losses = mine["second_opinion_losses"].map(lambda values, i=index: values[i])
            opinion = by_name[spec]
            assert opinion["decisions"] == len(mine)
            assert opinion["mean_loss"] == pytest.approx(losses.mean())
            assert opinion["difference"] == pytest.approx(losses.mean() - mine["loss"].mean())
            low, high = opinion["difference_ci"]
            assert low <= opinion["difference"] <= high
        if side == 0:  # heuristic asked its own decisions from the same views: it mostly answers as it did (its
            # knock samples draw from a generator of their own), and loses what it lost, within the interval
            assert by_name["heuristic"]["agreement"] >= 0.9
            low, high = by_name["heuristic"]["difference_ci"]
            assert low <= 0 <= high
        for spec, opinion in by_name.items():  # per kind: the same figures over that kind's decisions
            index = advised.second_opinions.index(spec)
            for kind, block in opinion["by_kind"].items():
                rows = mine[mine["kind"] == kind]
                losses = rows["second_opinion_losses"].map(lambda values, i=index: values[i])
                assert block["decisions"] == len(rows)
                assert block["difference"] == pytest.approx(losses.mean() - rows["loss"].mean())
            assert sum(block["decisions"] for block in opinion["by_kind"].values()) == opinion["decisions"]
        # random discards any card: it loses more than either player, by an interval clear of zero
        assert by_name["random"]["difference_ci"][0] > 0 and by_name["random"]["agreement"] < 0.6


def test_an_adviser_that_raises_gives_no_opinion_and_the_hand_goes_on(tmp_path):
    path = tmp_path / "stubborn.py"
    path.write_text(RAISES)
    result = simgin.analyse("simple", "greedy", hands=4, workers=1, second_opinions=[f"{path}:Stubborn"])
    frame = result.to_frame()
    discards = frame["kind"] == "discard"
    assert frame.loc[discards, "second_opinions"].map(lambda v: v == [None]).all()
    assert frame.loc[~discards, "second_opinion_losses"].map(lambda v: v[0] is not None).all()
    (opinion,) = result.to_json()["players"][0]["second_opinions"]
    assert opinion["decisions"] == int((~discards & (frame["side"] == 0)).sum())


@pytest.mark.slow
def test_the_same_opinions_on_one_and_two_workers(advised):
    two = simgin.analyse(
        "heuristic", "simple", hands=16, workers=2, second_opinions=["random", "heuristic", "opponent"]
    )
    assert two.to_frame().equals(advised.to_frame())
    first, second = two.to_json(), advised.to_json()
    first.pop("timing"), second.pop("timing")
    assert first == second


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_the_cli_prints_each_opinion_and_writes_it(tmp_path):
    out = tmp_path / "advised"
    args = ["analyse", "simple", "greedy", "--hands", "6", "--workers", "1", "--second-opinion", "opponent"]
    shown = CliRunner().invoke(main, [*args, "--out", str(out)])
    assert shown.exit_code == 0, shown.output
    assert "opponent at simple's" in shown.output and "opponent at greedy's" in shown.output
    saved = json.loads((out / "result.json").read_text())
    assert [o["adviser"] for o in saved["players"][1]["second_opinions"]] == ["opponent"]
    import pandas as pd

    written = pd.read_parquet(out / "decisions.parquet")
    assert list(written.columns[-2:]) == ["second_opinions", "second_opinion_losses"]
    from simgin.reports.build import write_report

    written_report = write_report(out, png=False)
    page = written_report.html.read_text()
    assert "Second opinions" in page and "agreement" in page
    (path,) = [path for path in written_report.tables if path.name == "analysis_second_opinions.csv"]
    table = pd.read_csv(path)
    assert table["adviser"].tolist() == ["opponent", "opponent"]
    assert table["difference"].tolist() == pytest.approx(
        [p["second_opinions"][0]["difference"] for p in saved["players"]]
    )
    again = CliRunner().invoke(main, [*args[:-1], "random", "--out", str(out)])
    assert again.exit_code == 1 and "other settings (second_opinions)" in again.output


@pytest.mark.parametrize(
    ("opinions", "message"),
    [
        (["nosuchbot"], "unknown strategy 'nosuchbot'"),
        ("opponent", "second_opinions takes a list of player specs"),
    ],
)
def test_a_bad_adviser_is_a_one_line_error(opinions, message):
    with pytest.raises(ValueError, match=message):
        simgin.analyse("simple", "greedy", hands=2, workers=1, second_opinions=opinions)
    if isinstance(opinions, list):
        shown = CliRunner().invoke(main, ["analyse", "simple", "greedy", "--second-opinion", opinions[0]])
        assert shown.exit_code == 1 and shown.output.count("\n") == 1 and message in shown.output


class Spy:
    """An adviser that writes down every view it is shown, and answers as ``simple``."""

    def __init__(self) -> None:
        self.inner = resolve("simple").make()
        self.views: list = []

    def __getattr__(self, name):
        method = getattr(self.inner, name)

        def asked(view, rng):
            self.views.append(view)
            return method(view, rng)

        return asked


def test_an_adviser_is_shown_exactly_the_views_the_player_is_shown():
    """An adviser sees what the seat's player sees, the ``PlayerView`` of each decision (which holds no hidden
    card: tests/test_strategy_information.py), and nothing else; each seat's advisers follow that seat only."""
    rules = Rules()
    log: list = []
    spies = (Spy(), Spy())
    seats = tuple(
        RecordingStrategy(resolve(s).make(), log, advisers=[spy])
        for s, spy in zip(("greedy", "simple"), spies, strict=True)
    )
    play_hand(seats, rules, derive(5, 1), 0)
    for seat, spy in enumerate(spies):
        decided = [decision.view for decision in log if decision.view.seat == seat]
        assert all(view.seat == seat for view in spy.views)
        assert all(a is b for a, b in zip(decided, spy.views[1:], strict=True))  # after the start of the hand
        assert len(decided) > 5


class Listener(Spy):
    """A :class:`Spy` that also listens for the end of each hand."""

    def __init__(self) -> None:
        super().__init__()
        self.ended: list = []

    def end_hand(self, view, rng) -> None:
        self.ended.append(view.ending)


def test_advisers_that_listen_are_told_the_end_of_each_hand_and_the_player_only_if_it_listens():
    """A listening adviser hears every hand's end of a game (R20) beside a player that does not listen
    (``simple`` has no ``end_hand``, and is not given one); a listening player still hears it with one."""
    from simgin.game.reference_engine import play_game

    deaf, listening = Listener(), Listener()
    seats = (
        RecordingStrategy(resolve("simple").make(), [], [], advisers=[deaf]),
        RecordingStrategy(listening, [], [], advisers=[Listener()]),
    )
    assert not hasattr(resolve("simple").make(), "end_hand")
    game = play_game(seats, Rules(), 7)
    assert len(game.hand_records) > 1
    assert len(deaf.ended) == len(listening.ended) == len(seats[1].advisers[0].ended) == len(game.hand_records)
    assert not callable(getattr(RecordingStrategy(resolve("simple").make(), []), "end_hand", None))


def test_the_help_example_is_listed_and_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    shown = CliRunner().invoke(main, ["analyse", "--help"]).output
    assert "simgin analyse heuristic simple --hands 10 --second-opinion opponent --quiet" in shown
    assert "--second-opinion" in shown and Path(tmp_path).is_dir()

"""Decision analysis (issue 34): every decision recorded, every legal action valued from the player's view
only, the loss of a decision with its error, and the ladder of bots ranked by it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from simgin.analysis.analyse import analyse_part
from simgin.analysis.evaluator import Evaluator
from simgin.analysis.hands import COLUMNS, analyse_hand, stage_of
from simgin.analysis.recorder import Decision, RecordingStrategy
from simgin.game.reference_engine import play_hand
from simgin.game.rng import SplitMix64, derive, shuffled_deck
from simgin.game.rules import Rules
from simgin.players.registry import resolve

EVALUATOR = Evaluator(worlds=32, seed=5)


def analyse_hands(players, hands: int, seed: int, evaluator: Evaluator):
    """Hands 0 to ``hands - 1`` of ``simgin match A B --seed seed``, valued: (the hands, one row per decision)."""
    import pandas as pd

    played = analyse_part(tuple(players), Rules(), seed, True, 0, hands, evaluator, False)
    return played, pd.DataFrame([row for hand in played for row in hand.rows], columns=list(COLUMNS))


def recorded_hand(deck: list[int], players=("simple", "simple"), dealer: int = 1) -> tuple[list[Decision], object]:
    log: list[Decision] = []
    seats = tuple(RecordingStrategy(resolve(spec).make(), log) for spec in players)
    record = play_hand(seats, Rules(), 11, dealer, deck=deck)
    return log, record


def test_recording_changes_nothing_of_the_hand():
    """The wrapper answers as the player does (R9-R13): the hand's row is the unwrapped one's."""
    deck = shuffled_deck(SplitMix64(derive(3, 0)))
    _, wrapped = recorded_hand(deck, ("heuristic", "simple"))
    plain = play_hand((resolve("heuristic").make(), resolve("simple").make()), Rules(), 11, 1, deck=deck)
    assert wrapped.row() == plain.row()


def test_the_valuation_reads_no_hidden_card():
    """Two deals that differ only in what the non-dealer cannot see (the dealer's hand and the stock order)
    give its first decision, the up-card offer (R11), the same view and the same valuation."""
    deck = shuffled_deck(SplitMix64(derive(8, 0)))
    hidden = [deck[i] for i in range(1, 20, 2)] + deck[21:]
    other = list(np.random.default_rng(1).permutation(hidden))
    swapped = list(deck)
    for i, position in enumerate([*range(1, 20, 2), *range(21, 52)]):
        swapped[position] = int(other[i])
    assert sorted(swapped) == list(range(52)) and swapped[1:20:2] != deck[1:20:2]
    first, _ = recorded_hand(deck)
    second, _ = recorded_hand(swapped)
    assert first[0].kind == "up_card" and first[0].view == second[0].view
    assert EVALUATOR.value(first[0], key=7) == EVALUATOR.value(second[0], key=7)


def test_a_valuation_lists_the_legal_actions_and_its_loss_is_best_minus_chosen():
    deck = shuffled_deck(SplitMix64(derive(21, 0)))
    log, _ = recorded_hand(deck, ("random", "simple"))
    kinds = {decision.kind for decision in log}
    assert {"up_card", "draw", "discard"} <= kinds
    for place, decision in enumerate(log):
        valued = EVALUATOR.value(decision, key=place)
        best = valued.values[valued.actions.index(valued.best)]
        chosen = valued.values[valued.actions.index(valued.chosen)]
        assert valued.loss == pytest.approx(best - chosen) and valued.loss >= 0
        assert best == max(valued.values)
        assert (valued.loss_error == 0) == (valued.best == valued.chosen)
        if decision.kind == "discard":
            view = decision.view
            banned = {view.drawn_card} if view.drawn_from_pile and not view.rules.rediscard_taken_card else set()
            assert set(valued.actions) == set(view.hand) - banned  # R10: not the pile card just taken
        else:
            assert valued.actions == (0, 1)


def test_an_illegal_answer_is_not_valued():
    deck = shuffled_deck(SplitMix64(derive(21, 0)))
    log, _ = recorded_hand(deck)
    discard = next(decision for decision in log if decision.kind == "discard")
    outside = next(card for card in range(52) if card not in discard.view.hand)
    with pytest.raises(ValueError, match="is not a legal action here"):
        EVALUATOR.value(Decision("discard", discard.view, outside))


def test_the_evaluator_refuses_too_few_worlds():
    with pytest.raises(ValueError, match="worlds=1: must be between 2 and 100,000"):
        Evaluator(worlds=1)


def test_the_same_seed_gives_the_same_rows_and_a_hand_alone_gives_its_rows():
    hands, frame = analyse_hands(("simple", "greedy"), hands=4, seed=3, evaluator=EVALUATOR)
    _, same = analyse_hands(("simple", "greedy"), hands=4, seed=3, evaluator=EVALUATOR)
    assert frame.equals(same)
    replay = hands[2].rows[0]["replay"]
    alone = analyse_hand(hands[2].players, Rules(), 2, hands[2].seed, hands[2].dealer, EVALUATOR, replay=replay)
    assert alone.rows == hands[2].rows
    assert all(sum(hand.net_points) == 0 for hand in hands)


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_random_loses_more_per_decision_than_simple():
    """The ladder's first rung: random play gives away more points per decision than simple's (issue 34)."""
    _, frame = analyse_hands(("simple", "random"), hands=16, seed=4, evaluator=EVALUATOR)
    loss = frame.groupby("player")["loss"].agg(["mean", "sem"])
    gap = loss.loc["random", "mean"] - loss.loc["simple", "mean"]
    assert gap > 3 * np.hypot(loss.loc["random", "sem"], loss.loc["simple", "sem"]), loss


def test_stages_split_the_stock_in_thirds():
    rules = Rules()
    assert [stage_of(count, rules) for count in (31, 21, 20, 11, 10, 2)] == [
        "early", "early", "middle", "middle", "late", "late",
    ]  # fmt: skip


# -- simgin analyse and simgin.analyse ---------------------------------------------------------------------------

PLAYER_KEYS = {
    "player", "decisions", "mean_loss", "mean_loss_ci", "accuracy", "inaccuracies", "mistakes", "blunders",
    "net_points", "skill", "luck", "by_kind",
}  # fmt: skip
COSTLY_KEYS = {"player", "hand", "kind", "chosen", "best", "loss", "loss_error", "replay"}


def _invoke(*args: str):
    from click.testing import CliRunner

    from simgin.cli.main import main

    return CliRunner().invoke(main, ["analyse", *args])


def without_timing(data: dict) -> dict:
    return {key: value for key, value in data.items() if key != "timing"}


def test_the_json_has_its_fixed_keys_and_net_points_are_skill_plus_luck():
    outcome = _invoke("simple", "random", "--hands", "6", "--worlds", "8", "--workers", "1", "--json")
    assert outcome.exit_code == 0, outcome.output
    import json

    data = json.loads(outcome.stdout)
    assert [player["player"] for player in data["players"]] == ["simple", "random"]
    for player in data["players"]:
        assert set(player) >= PLAYER_KEYS
        assert player["net_points"] == pytest.approx(player["skill"] + player["luck"])
        assert 0 <= player["accuracy"] <= 100
        for block in player["by_kind"].values():
            assert {"decisions", "mean_loss", "mean_loss_ci"} <= set(block)
        assert sum(block["decisions"] for block in player["by_kind"].values()) == player["decisions"]
    first, second = data["players"]
    assert first["net_points"] == -second["net_points"] and first["skill"] == pytest.approx(-second["skill"])
    assert data["costliest"] and all(set(item) >= COSTLY_KEYS for item in data["costliest"])
    losses = [item["loss"] for item in data["costliest"]]
    assert losses == sorted(losses, reverse=True)
    assert data["costliest"][0]["replay"].startswith("simgin replay simple random --seed 0 --hand ")


@pytest.mark.slow
def test_the_same_seed_gives_the_same_analysis_on_one_and_two_workers(tmp_path):
    import json

    import simgin

    one = simgin.analyse("greedy", "simple", hands=12, worlds=8, workers=1)
    two = simgin.analyse("greedy", "simple", hands=12, worlds=8, workers=2, out=tmp_path / "run")
    assert without_timing(one.to_json()) == without_timing(two.to_json())
    assert one.to_frame().equals(two.to_frame())
    saved = json.loads((tmp_path / "run" / "result.json").read_text())
    assert saved["kind"] == "analysis" and saved["players"] == json.loads(json.dumps(two.to_json()["players"]))
    import pandas as pd

    rows = pd.read_parquet(tmp_path / "run" / "decisions.parquet")
    assert len(rows) == sum(player["decisions"] for player in saved["players"])


def test_a_cold_cache_compiles_in_one_worker_first_and_changes_nothing(monkeypatch):
    """On a local pool with a cold numba cache, hand 0 is analysed once in one worker (and dropped) before the
    parts, so that the other workers load the kernels instead of compiling them too; the result is the same. With
    the kernels cached there is no such first step."""
    import simgin
    from simgin.analysis import analyse as module
    from simgin.analysis.evaluator import Evaluator

    submitted = []
    real_part = module.analyse_part

    def counting_part(*args):
        submitted.append((args[4], args[5]))
        return real_part(*args)

    monkeypatch.setattr(module, "analyse_part", counting_part)
    warm = simgin.analyse("greedy", "simple", hands=20, worlds=8, workers=1)
    assert Evaluator(worlds=8).kernels_cached(("greedy", "simple")), "this run left them cached"
    monkeypatch.setattr(module.runner, "backend_for", lambda workers, backend, scheduler: _InlinePool())
    submitted.clear()
    cached = simgin.analyse("greedy", "simple", hands=20, worlds=8, workers=2)
    assert submitted == [(0, 10), (10, 10)], "two parts, nothing first"
    monkeypatch.setattr(Evaluator, "kernels_cached", lambda self, players: False)
    submitted.clear()
    cold = simgin.analyse("greedy", "simple", hands=20, worlds=8, workers=2)
    assert submitted == [(0, 1), (0, 10), (10, 10)], "hand 0 alone first, then the parts"
    assert without_timing(cold.to_json()) == without_timing(cached.to_json()) == without_timing(warm.to_json())
    assert cold.to_frame().equals(warm.to_frame())


class _InlinePool:
    """A pool that runs each job at once in this process (the workers' jobs, without processes)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def submit(self, function, *args):
        from concurrent.futures import Future

        future = Future()
        future.set_result(function(*args))
        return future


def test_a_replayed_hand_is_the_analysed_one():
    """Each costly decision names the 'simgin replay' that shows its hand: the same deal and seats."""
    import json
    import shlex

    from click.testing import CliRunner

    from simgin.cli.main import main

    data = json.loads(_invoke("simple", "greedy", "--hands", "4", "--worlds", "8", "--workers", "1", "--json").stdout)
    item = data["costliest"][0]
    words = shlex.split(item["replay"])[1:]
    shown = json.loads(CliRunner().invoke(main, [*words, "--json"]).stdout)
    seat_of = {name: seat for seat, name in enumerate(shown["players"])}
    assert item["player"] in seat_of


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hands", "0"], "hands=0: must be between 1 and 1,000,000"),
        (["--games", "4", "--hands", "4"], "give --hands or --games, not both"),
        (["--games", "0"], "games=0: must be between 1 and 1,000,000"),
        (["--worlds", "1"], "worlds=1: must be between 2 and 100,000"),
        (["--seed", "-1"], "seed=-1: must be between 0 and"),
        (["--workers", "0"], "--workers 0: must be between 1 and"),
    ],
)
def test_bad_input_is_a_one_line_error(args, message):
    outcome = _invoke("simple", "random", *args, "--quiet")
    assert outcome.exit_code == 1, outcome.output
    assert outcome.output.startswith("Error: ") and outcome.output.count("\n") == 1, outcome.output
    assert message in outcome.output


NEVER_TAKES = '''
from simgin.players.registry import resolve


class NeverTakes:
    """opponent, but it never takes the up card (R11): a bot made worse at one kind of decision."""

    def __init__(self):
        self.inner = resolve("opponent").make()
        self.name = "never-takes"

    def start_hand(self, view, rng):
        self.inner.start_hand(view, rng)

    def draw_from_pile(self, view, rng):
        return self.inner.draw_from_pile(view, rng)

    def discard(self, view, rng):
        return self.inner.discard(view, rng)

    def knock(self, view, rng):
        return self.inner.knock(view, rng)

    def big_gin(self, view, rng):
        return self.inner.big_gin(view, rng)

    def take_fiftieth(self, view, rng):
        return self.inner.take_fiftieth(view, rng)

    def take_up_card(self, view, rng):
        self.inner.take_up_card(view, rng)  # keeps the inner bot's memory as it would be
        return False
'''


@pytest.mark.slow  # a statistical effect over hundreds of analysed hands: .ci/run runs it with the slow tests
def test_a_bot_made_worse_at_one_kind_of_decision_loses_there(tmp_path):
    """Issue 34: an intentionally bad variant shows its loss concentrated in that kind of decision."""
    import simgin

    path = tmp_path / "never_takes.py"
    path.write_text(NEVER_TAKES)
    bad = simgin.analyse(f"{path}:NeverTakes", "simple", hands=60, worlds=32, workers=1).to_json()["players"][0]
    good = simgin.analyse("opponent", "simple", hands=60, worlds=32, workers=1).to_json()["players"][0]
    assert bad["by_kind"]["up_card"]["mean_loss"] > 1.5 * good["by_kind"]["up_card"]["mean_loss"]
    for kind in ("draw", "discard"):  # the rest of its play is opponent's
        assert bad["by_kind"][kind]["mean_loss"] < bad["by_kind"]["up_card"]["mean_loss"]


@pytest.mark.slow  # calibration by seeded repetitions: .ci/run runs it with the slow tests
def test_luck_averages_to_zero_when_a_bot_meets_itself():
    """With the same bot on both sides skill and net points average zero, so luck does: its 95% interval per
    hand covers 0 (a statistical check: the luck of 80 hands of simple against simple, dealt one by one). On
    duplicate deals the two hands of a pair are played alike, so each pair's luck cancels exactly and the interval
    over deal pairs is 0 itself."""
    import simgin

    single = simgin.analyse("simple", "simple", hands=80, worlds=16, workers=1, duplicate=False).to_json()
    low, high = single["players"][0]["luck_per_hand_ci"]
    assert low < 0 < high
    assert single["players"][0]["luck"] == pytest.approx(-single["players"][1]["luck"])
    paired = simgin.analyse("simple", "simple", hands=80, worlds=16, workers=1).to_json()
    assert paired["players"][0]["luck_per_hand_ci"] == pytest.approx([0.0, 0.0], abs=1e-9)


@pytest.mark.slow  # calibration by seeded repetitions: .ci/run runs it with the slow tests
def test_the_luck_of_stock_draws_averages_to_zero_and_the_deals_cancels_in_a_pair():
    """Luck measured event by event (simgin.analysis.luck): over the stock draws of 60 hands of a stronger bot
    against a weaker one (opponent against random, whose decisions differ most), each draw's luck, the value of
    the card drawn minus its mean over the stock, averages to zero within four standard errors (every card of the
    stock was equally likely on top, whatever the players do); the deal's luck of a duplicate pair cancels
    exactly (the same first decision, valued the same, counts for A in one hand and against it in the other); and
    net = skill + luck per hand."""
    from simgin.analysis import luck as luck_module
    from simgin.game.moves import STOCK, Draw

    evaluator = Evaluator(worlds=8, luck_worlds=8, seed=3)
    draws = []
    hands, frame = analyse_hands(("opponent", "random"), hands=60, seed=12, evaluator=evaluator)
    for hand in hands[:60]:
        log: list[Decision] = []
        seats = tuple(RecordingStrategy(resolve(spec).make(), log) for spec in hand.players)
        record = play_hand(seats, Rules(), hand.seed, hand.dealer)
        stock = list(record.moves[0].stock)
        for number, move in enumerate(m for m in record.moves if isinstance(m, Draw) and m.source == STOCK):
            before, stock = stock, stock[1:]
            view = luck_module._view_before(log, move.seat, move.card)
            if view is not None and number < 4:
                draws.append(evaluator.draw_luck(view, move.card, before, key=derive(hand.seed, number))[0])
    draws = np.array(draws)
    assert draws.size > 150
    assert abs(draws.mean()) < 4 * draws.std(ddof=1) / np.sqrt(draws.size), (draws.mean(), draws.std())
    assert draws.std() > 1  # the draws do differ in value
    for first, second in zip(hands[0::2], hands[1::2], strict=True):
        deal = [
            float(frame[(frame["hand"] == h.index) & (frame["place"] == 0)]["best_value"].iloc[0])
            for h in (first, second)
        ]
        assert deal[0] == deal[1]
    for hand in hands:
        assert sum(hand.luck) == pytest.approx(0.0, abs=1e-9)


def test_playing_a_decision_as_it_was_changes_nothing():
    """Forced to the action it chose, the hand is the hand: no gain in any future of the stock."""
    from simgin.analysis.advice import play_both_ways

    hands, frame = analyse_hands(("simple", "greedy"), hands=2, seed=6, evaluator=EVALUATOR)
    row = frame.iloc[3]
    hand = hands[int(row["hand"])]
    check = play_both_ways(
        hand.players, Rules(), hand.seed, hand.dealer, int(row["place"]), int(row["chosen_action"]),
        int(row["chosen_action"]), continuations=5,
    )  # fmt: skip
    assert check.gain == 0 and check.gain_error == 0


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_the_report_draws_the_analysis(tmp_path):
    """``simgin report DIR`` of an analysis: loss by kind and along the hand with intervals, skill and luck, and
    the costliest decisions as a table with their cards and as a figure of their positions drawn as cards."""
    from simgin.reports.analysis import cards_drawn

    import simgin

    simgin.analyse("simple", "random", hands=6, worlds=8, workers=1, out=tmp_path / "run")
    written = simgin.report(tmp_path / "run", tmp_path / "report.html")
    html = written.html.read_text()
    assert html.count("<figure ") == 4
    for name in (
        "Loss by kind of decision",
        "Loss along the hand",
        "Skill and luck",
        "The costliest decisions",
        "The costliest positions",
    ):
        assert name in html, name
    files = {path.name for path in (tmp_path / "report_files").iterdir()}
    assert {"analysis_kinds.png", "analysis_players.csv", "analysis_costliest.csv"} <= files
    assert cards_drawn("AS TD 2H") == "A\u2660 10\u2666 2\u2665"


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_games_are_valued_in_the_game_and_replay_hand_by_hand():
    """``--games``: each hand of a game is worth what it is in the game (R20, the bots' payoff), for the net
    points as for the evaluator; the identity holds, the workers change nothing, and each costly decision names
    the replay of its hand of the game (seed, dealer, scores)."""
    import json
    import shlex

    from click.testing import CliRunner

    import simgin
    from simgin.cli.main import main

    one = simgin.analyse("greedy", "simple", games=2, worlds=8, workers=1)
    two = simgin.analyse("greedy", "simple", games=2, worlds=8, workers=2)
    data = one.to_json()
    assert without_timing(data) == without_timing(two.to_json())
    assert data["mode"] == "games" and data["games"] == 2 and data["hands"] >= 2
    assert data["evaluator"]["value"] == "game"
    for player in data["players"]:
        assert player["net_points"] == pytest.approx(player["skill"] + player["luck"])
    item = data["costliest"][0]
    words = shlex.split(item["replay"])[1:]
    assert "--hand-seed" in words and "--scores" in words
    shown = CliRunner().invoke(main, [*words, "--json"])
    assert shown.exit_code == 0, shown.output
    assert item["player"] in json.loads(shown.stdout)["players"]


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_a_match_directory_is_analysed_with_its_own_settings(tmp_path):
    """``simgin analyse DIR``: the match's hands dealt again from their seeds: the same net points as the match
    printed, and the same analysis as naming the players with the match's settings."""
    import json

    from click.testing import CliRunner

    import simgin
    from simgin.cli.main import main

    out = tmp_path / "played"
    played = CliRunner().invoke(
        main, ["match", "simple", "greedy", "--hands", "12", "--seed", "3", "--rules", "eaai", "--out", str(out),
               "--quiet", "--json"],
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    match = json.loads(played.stdout)
    outcome = _invoke(str(out), "--worlds", "8", "--workers", "1", "--json")
    assert outcome.exit_code == 0, outcome.output
    data = json.loads(outcome.stdout)
    for k, player in enumerate(data["players"]):
        assert player["net_points"] == pytest.approx(match["net_points_per_hand"][k] * match["hands"])
    named = simgin.analyse("simple", "greedy", hands=12, seed=3, rules="eaai", worlds=8, workers=1).to_json()
    assert without_timing(named) == without_timing(data)
    for option in (["--hands", "50"], ["--games", "2"], ["--seed", "4"], ["--rules", "standard"],
                   ["--set", "knock_limit=5"], ["--no-duplicate"]):  # fmt: skip
        refused = _invoke(str(out), *option, "--quiet")
        assert refused.exit_code == 1 and refused.output.count("\n") == 1, (option, refused.output)
        assert option[0] in refused.output.split(":")[1] and "has its own players, rules" in refused.output


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_a_directory_that_cannot_be_played_again_is_one_error_line(tmp_path):
    import sys

    from click.testing import CliRunner

    from simgin.cli.main import main

    table = tmp_path / "table"
    CliRunner().invoke(
        main, ["tournament", "simple", "greedy", "random", "--hands", "4", "--out", str(table), "--quiet"]
    )
    outcome = _invoke(str(table), "--quiet")
    assert outcome.exit_code == 1 and outcome.output.count("\n") == 1
    assert "a tournament's directory; analyse takes a match's" in outcome.output
    program = tmp_path / "program"
    bot = f"exec:{sys.executable} {Path(__file__).parents[1] / 'examples' / 'simple_bot.py'}"
    made = CliRunner().invoke(
        main, ["match", bot, "simple", "--hands", "4", "--workers", "1", "--out", str(program), "--quiet"]
    )
    assert made.exit_code == 0, made.output
    outcome = _invoke(str(program), "--quiet")
    assert outcome.exit_code == 1 and outcome.output.count("\n") == 1
    assert "is a program, which need not play a hand the same way twice" in outcome.output
    assert _invoke("a", "b", "c").output.startswith("Error: give two players (A B) or a match's directory")


@pytest.mark.slow  # runs each example command as written: .ci/run runs it with the slow tests
def test_the_help_examples_run_as_written(tmp_path, monkeypatch):
    import shlex

    from click.testing import CliRunner

    from simgin.cli.main import main

    monkeypatch.chdir(tmp_path)
    shown = CliRunner().invoke(main, ["analyse", "--help"]).output
    examples = [line.strip() for line in shown.splitlines() if line.strip().startswith("simgin ")]
    assert len(examples) >= 4 and any(example.startswith("simgin analyse played") for example in examples)
    for example in examples:
        outcome = CliRunner().invoke(main, shlex.split(example)[1:])
        assert outcome.exit_code == 0, f"{example}: {outcome.output}"
        assert outcome.output.strip()


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_an_interrupted_analysis_resumes_from_its_out_directory(tmp_path, monkeypatch):
    """``--out``: each finished part is kept as it finishes; after a crash (or Ctrl-C) the same command plays only
    the rest and gives the analysis an uninterrupted run gives; other settings in the same directory are
    refused."""
    import simgin
    from simgin.analysis import analyse as module

    whole = simgin.analyse("simple", "greedy", hands=30, worlds=8, workers=1)
    out = tmp_path / "run"
    real = module.analyse_part
    calls = []
    crash = [True]

    def interrupted(*args, **kwargs):
        calls.append(args[4])
        if len(calls) == 2 and crash:
            crash.clear()
            raise RuntimeError("the machine went down")
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "analyse_part", interrupted)
    with pytest.raises(RuntimeError, match="the machine went down"):
        simgin.analyse("simple", "greedy", hands=30, worlds=8, workers=1, out=out)
    assert module.finished_parts(out) == 1
    calls.clear()
    resumed = simgin.analyse("simple", "greedy", hands=30, worlds=8, workers=1, out=out)
    assert calls == [10, 20]  # the first part was read back, not played
    assert without_timing(resumed.to_json()) == without_timing(whole.to_json())
    with pytest.raises(ValueError, match=r"holds an analysis with other settings \(worlds\)"):
        simgin.analyse("simple", "greedy", hands=30, worlds=16, workers=1, out=out)
    stranger = tmp_path / "stranger"
    stranger.mkdir()
    (stranger / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="is not empty and not a simgin run directory"):
        simgin.analyse("simple", "greedy", hands=4, worlds=8, workers=1, out=stranger)


def test_ctrl_c_says_what_is_kept(tmp_path, monkeypatch):
    from simgin.analysis import analyse as module

    def pressed(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(module, "analyse", pressed)
    outcome = _invoke("simple", "greedy", "--hands", "4", "--quiet")
    assert outcome.exit_code == 1
    assert outcome.output == "Error: interrupted; run with --out DIR to keep finished hands and resume\n"
    parts = tmp_path / "run" / "parts"
    parts.mkdir(parents=True)
    (parts / "part-000000000.json").write_text("{}")
    outcome = _invoke("simple", "greedy", "--hands", "4", "--quiet", "--out", str(tmp_path / "run"))
    assert "1 finished part is kept in" in outcome.output and "rerun the same command to resume" in outcome.output


def test_a_program_is_analysed_decision_by_decision():
    """Every kind of player: an ``exec:`` program's decisions are forwarded by its host, so they are recorded
    and valued like a built-in's."""
    import sys

    import simgin

    bot = f"exec:{sys.executable} {Path(__file__).parents[1] / 'examples' / 'simple_bot.py'}"
    data = simgin.analyse(bot, "simple", hands=4, worlds=8, workers=1).to_json()
    program, built_in = data["players"]
    assert built_in["player"] == "simple" and built_in["decisions"] > 20
    assert program["player"] == bot and program["decisions"] > 20
    assert set(program["by_kind"]) >= {"up_card", "draw", "discard"}
    assert program["net_points"] == pytest.approx(program["skill"] + program["luck"])


@settings(max_examples=12, deadline=None)
@given(deal=st.integers(0, 2**32 - 1), shuffle=st.integers(0, 2**32 - 1), place=st.integers(0, 3))
def test_no_valuation_reads_a_hidden_card(deal, shuffle, place):
    """A property over random deals: the non-dealer's early decisions (before the stock is touched) are valued
    the same however the cards it cannot see (the dealer's hand, the stock order) are arranged, as long as
    what it has seen is the same (whether the dealer takes the up card, and its discard, R11, depend on the
    dealer's hidden hand)."""
    deck = shuffled_deck(SplitMix64(derive(deal, 0)))
    positions = [*range(1, 20, 2), *range(21, 52)]
    hidden = [deck[i] for i in positions]
    other = list(np.random.default_rng(shuffle).permutation(hidden))
    swapped = list(deck)
    for i, position in enumerate(positions):
        swapped[position] = int(other[i])
    first, _ = recorded_hand(deck)
    second, _ = recorded_hand(swapped)
    mine = [d for d in first if d.view.seat == 0 and d.view.stock_count == 31]  # seat 0: the non-dealer
    theirs = [d for d in second if d.view.seat == 0 and d.view.stock_count == 31]
    assert mine[0].view == theirs[0].view  # the up-card decision (R11) sees only its own hand and the up card
    compared = 0
    for a, b in list(zip(mine, theirs, strict=False))[: place + 1]:
        if a.view != b.view:
            break
        assert EVALUATOR.value(a, key=place) == EVALUATOR.value(b, key=place)
        compared += 1
    assert compared >= 1


def test_a_program_that_cannot_start_is_one_error_line():
    outcome = _invoke("exec:/nonexistent/bot", "simple", "--hands", "2", "--workers", "1", "--quiet")
    assert outcome.exit_code == 1, outcome.output
    assert outcome.output.startswith("Error: ") and outcome.output.count("\n") == 1, outcome.output
    assert "Traceback" not in outcome.output


def test_the_costliest_positions_are_drawn_as_cards():
    """The report's figure of the costliest positions draws each card of the hand, the pile's top and the other's
    known cards as a card face (rank and suit symbol, red for hearts and diamonds), outlining the discard chosen
    in red and the best in green."""
    from matplotlib.colors import to_hex

    from reports.analysis import positions_chart

    item = {
        "hand": 3, "player": "simple", "kind": "discard", "stage": "early", "chosen": "KD", "best": "2C",
        "loss": 5.0, "loss_error": 0.5, "hand_cards": "2C 3C 4C KD 5H 6H 7H 8S 9S TS JS", "pile_top": "QD",
        "known": "AH AS",
    }  # fmt: skip
    figure = positions_chart({"costliest": [item, {**item, "kind": "draw", "chosen": "pile", "best": "stock"}]})
    ax = figure.axes[0]
    assert len(ax.patches) == 2 * (11 + 1 + 2)
    edges = [to_hex(patch.get_edgecolor()) for patch in ax.patches[:11]]
    assert (
        edges.count("#2e8b57") == 1 and edges[0] == "#2e8b57" and edges.count("#c0392b") == 1 and edges[3] == "#c0392b"
    )
    assert all(to_hex(patch.get_edgecolor()) == "#777777" for patch in ax.patches[14:])  # a draw outlines nothing
    faces = {text.get_text(): to_hex(text.get_color()) for text in ax.texts}
    assert faces["K\u2666"] == "#c0392b" and faces["10\u2660"] == "#1a1a1a"

"""simgin tune (issue 12): the search, resume, the fresh-seed confirmation, bad input and the report."""

from __future__ import annotations

import json
import math
import shlex
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from simgin.strategies.heuristic import FROZEN_SPEC

import simgin
from simgin.base.files import checksum
from simgin.cli.main import main
from simgin.game.rules import Rules
from simgin.players.registry import resolve
from simgin.running import runner
from simgin.running.results import load_result
from simgin.running.summary import pair_statistics
from simgin.running.tally import Tally
from simgin.studies.tune import (
    CONTRACT_KEYS,
    Dimension,
    Evaluation,
    TuneError,
    batch_mean,
    format_value,
    paired_difference,
    parse_bound,
    phase_seed,
    plan,
    tune,
)

HOLLYWOOD = Rules.preset("hollywood")
START = (
    "heuristic:knock=10,knock_late=0,gin_hold=10,gin_stock=0,potential=0.5,value=0,safety=2,draw_margin=0,evidence=0.6"
)
TINY = {"params": ["knock", "knock_late", "gin_hold"], "budget": 4, "popsize": 2, "games": 8, "final": 20, "seed": 3}

PLUGIN = '''
"""Plug-ins with Parameters for the tune tests; they run in the reference engine."""

from simgin.game.melds import deadwood, discard_deadwoods
from simgin.strategies.heuristic import PARAMETERS, HeuristicStrategy
from simgin.strategies.simple import SimpleStrategy
from simgin.game.strategy import Parameter


class PyHeuristic(HeuristicStrategy):
    """The compiled heuristic bot's policy, played as a plain-Python strategy."""

    parameters = PARAMETERS


class Patient(SimpleStrategy):
    """simple, but it knocks only with deadwood at most `most` and takes a pile card that cuts deadwood by more
    than `cut`."""

    parameters = (
        Parameter("most", 10, "highest deadwood it knocks with", 0, 10, integer=True),
        Parameter("cut", 0.0, "deadwood a pile card must cut to be taken", 0),
    )

    def __init__(self, most=10, cut=0.0):
        super().__init__()
        self.most = most
        self.cut = cut

    def take_up_card(self, view, rng):
        return self.draw_from_pile(view, rng)

    def draw_from_pile(self, view, rng):
        with_top = discard_deadwoods([*view.hand, view.pile[-1]])
        return min(with_top.values()) < deadwood(view.hand) - self.cut

    def knock(self, view, rng):
        return deadwood(view.hand) <= self.most


class Free(SimpleStrategy):
    """simple with a parameter that declares no bounds at all."""

    parameters = (Parameter("slack", 0.0, "a number nothing bounds"),)

    def __init__(self, slack=0.0):
        super().__init__()
        self.slack = slack
'''


@pytest.fixture(scope="module")
def plugin(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("plugins") / "tunable_bots.py"
    path.write_text(PLUGIN)
    return path


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A tuned heuristic on a tiny budget, with its output directory."""
    out = tmp_path_factory.mktemp("tune") / "run"
    return tune("heuristic", ["simple"], workers=1, out=out, **TINY), out


def without_timing(result) -> dict:
    data = result.to_dict()
    data.pop("timing")
    return data


def unit_seeds(result, evaluation: Evaluation) -> set[int]:
    """Every deal (hand or game) seed an evaluation played, through the runner's own chunk plan."""
    seeds = set()
    for opponent in result.against:
        config = result.settings.config(evaluation.spec, opponent, evaluation.pairs, evaluation.seed)
        for chunk in runner.plan_chunks(config):
            seeds.update(int(seed) for seed in runner.unit_seeds(chunk))
    return seeds


# -- the search on a tiny budget ------------------------------------------------------------------------


def test_tiny_tune_returns_the_contract_and_a_spec_inside_the_bounds(tiny):
    result, _ = tiny
    data = result.to_dict()
    assert tuple(data) == CONTRACT_KEYS
    assert data["strategy"] == "heuristic" and data["against"] == ["simple"]
    assert data["rules"] == Rules().to_dict()
    assert data["evaluations"] == 4
    assert [e.phase for e in result.history].count("search") == 4
    player = resolve(data["spec"])
    assert player.info.name == "heuristic"
    assert player.values == pytest.approx(data["parameters"])
    assert set(player.given) == set(player.values)  # the spec writes every parameter out
    for name in ("potential", "value", "safety", "draw_margin", "evidence", "gin_stock"):
        assert data["parameters"][name] == data["start_parameters"][name]  # not tuned
    declared = {p.name: p for p in player.info.parameters}
    for name in TINY["params"]:
        assert declared[name].low <= data["parameters"][name] <= declared[name].high
    assert data["score_ci"][0] <= data["score"] <= data["score_ci"][1]
    assert data["start_score_ci"][0] <= data["start_score"] <= data["start_score_ci"][1]
    assert 0 <= data["p_value"] <= 1
    played = sum(2 * e.pairs for e in result.history)
    assert data["games"] == played
    assert {"seconds", "cpu_seconds"} <= set(data["timing"])


def test_every_search_candidate_lies_inside_its_bounds_and_on_its_grid(tiny):
    result, _ = tiny
    for evaluation in result.history:
        for dimension in result.settings.dimensions:
            value = evaluation.values[dimension.name]
            assert dimension.low <= value <= dimension.high
            assert dimension.snap(value) == value


def test_the_score_is_the_pair_score_of_the_runner_tallies(tiny):
    """Games mode: the share of games won (pair score), as the match summary computes it from the tally."""
    result, _ = tiny
    for evaluation in (e for e in result.history if e.phase == "final"):
        tally = Tally.from_dict(evaluation.opponents[0]["tally"])
        assert evaluation.score == pytest.approx(pair_statistics(tally)["pair_score"])
        assert evaluation.score == pytest.approx(tally["games_won_a"] / tally["games"])


def test_final_seeds_are_fresh_and_disjoint_from_the_search_and_the_selection(tiny):
    result, _ = tiny
    by_phase: dict[str, set[int]] = {"search": set(), "select": set(), "final": set()}
    for evaluation in result.history:
        by_phase[evaluation.phase] |= unit_seeds(result, evaluation)
    assert by_phase["final"].isdisjoint(by_phase["search"])
    assert by_phase["final"].isdisjoint(by_phase["select"])
    assert by_phase["select"].isdisjoint(by_phase["search"])
    assert all(by_phase.values())
    seed = result.settings.seed
    run_seeds = [phase_seed(seed, "search", g) for g in range(result.settings.generations)]
    run_seeds += [phase_seed(seed, "select"), phase_seed(seed, "final")]
    assert len(set(run_seeds)) == len(run_seeds)


def test_candidates_of_a_generation_play_the_same_deals_and_generations_new_ones(tiny):
    """Common random numbers within a generation (same run seed and sample); each generation has new deals."""
    result, _ = tiny
    search = [e for e in result.history if e.phase == "search"]
    for generation in range(result.settings.generations):
        members = [e for e in search if e.generation == generation]
        assert len({(e.seed, e.pairs) for e in members}) == 1
        assert members[0].seed == phase_seed(result.settings.seed, "search", generation)
    first, second = (unit_seeds(result, e) for e in search[:: result.settings.popsize][:2])
    assert first.isdisjoint(second)
    final = [e for e in result.history if e.phase == "final"]
    if len(final) == 2:
        assert final[0].seed == final[1].seed and final[0].batch_pairs == final[1].batch_pairs


def test_samples_grow_to_twice_the_first_generation():
    settings = plan("heuristic", ["simple"], budget=40, popsize=4, games=100)
    pairs = [settings.search_pairs(g) for g in range(settings.generations)]
    assert pairs[0] == 50 and pairs[-1] == 100
    assert pairs == sorted(pairs)
    assert settings.select_pairs == 200 and settings.final == 1000


def test_a_budget_that_is_not_a_multiple_of_the_population_ends_with_a_partial_generation():
    result = tune("heuristic", ["simple"], params=["knock"], budget=3, popsize=2, games=4, final=8, workers=1)
    assert result.evaluations == 3
    assert [e.generation for e in result.history if e.phase == "search"] == [0, 0, 1]
    assert [g["told"] for g in result.generations] == [True, False]


def test_the_same_spec_on_the_same_deals_scores_the_same():
    """Common random numbers: a candidate's score depends on its parameters and the phase's deals only."""
    settings = plan("heuristic", ["simple"], params=["knock"], games=8, budget=2, popsize=2)
    from simgin.studies.tune import Evaluator as _Evaluator

    with _Evaluator(settings, 1, "local", None) as evaluator:
        values = {"knock": 7.0}
        twins = list(evaluator.evaluate("search", 0, [(0, values), (1, values), (2, {"knock": 3.0})], 4, 11))
    assert twins[0].batch_sums == twins[1].batch_sums
    assert twins[0].spec != twins[2].spec


def test_python_api_is_simgin_tune(tiny):
    result, _ = tiny
    assert simgin.tune is tune
    assert isinstance(result.spec, str) and result.spec == result.to_dict()["spec"]


# -- determinism: workers, backends, plug-ins ------------------------------------------------------


@pytest.mark.slow
def test_same_tuned_spec_on_two_workers(tiny):
    result, _ = tiny
    pooled = tune("heuristic", ["simple"], workers=2, **TINY)
    assert without_timing(pooled) == without_timing(result)
    assert [e.batch_sums for e in pooled.history] == [e.batch_sums for e in result.history]


@pytest.mark.slow  # starts a Dask cluster (README: left out by default); tests/test_runner.py covers Dask fast
def test_same_tuned_spec_on_dask(tiny):
    result, _ = tiny
    dask = tune("heuristic", ["simple"], workers=1, backend="dask", **TINY)
    assert without_timing(dask) == without_timing(result)


def test_a_python_plugin_gives_the_same_tune_as_the_compiled_bot_it_wraps(plugin):
    """The plug-in runs in the reference engine, the built-in in the numba kernels: same seeds, same results."""
    settings = {"params": ["knock", "gin_hold"], "budget": 2, "popsize": 2, "hands": 6, "final": 8, "seed": 5}
    compiled = tune("heuristic", ["simple"], workers=1, **settings)
    python = tune(f"{plugin}:PyHeuristic", ["simple"], workers=1, **settings)
    assert python.spec == f"{plugin}:PyHeuristic:" + compiled.spec.split(":", 1)[1]
    assert python.parameters == compiled.parameters
    assert [e.batch_sums for e in python.history] == [e.batch_sums for e in compiled.history]
    assert (python.score, python.start_score, python.p_value) == (
        compiled.score,
        compiled.start_score,
        compiled.p_value,
    )


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_a_plugin_with_an_integer_and_an_unbounded_parameter(plugin):
    spec = f"{plugin}:Patient"
    settings = plan(spec, ["simple"], hands=4)
    assert [d.name for d in settings.dimensions] == ["most"]  # cut has no upper bound: not tuned by default
    assert settings.dimensions[0].integer
    with pytest.raises(TuneError, match=r"'cut' .* no upper bound.*--bound cut=LOW\.\.HIGH"):
        plan(spec, ["simple"], params=["cut"], hands=4)
    result = tune(spec, ["simple"], bounds={"cut": (0, 6)}, budget=2, popsize=2, hands=4, final=4, seed=2, workers=2)
    assert [d.name for d in result.settings.dimensions] == ["most", "cut"]
    for evaluation in result.history:
        assert float(evaluation.values["most"]).is_integer()
        assert f"most={int(evaluation.values['most'])}," in evaluation.spec
    assert isinstance(result.parameters["most"], int)
    assert resolve(result.spec).values == pytest.approx(result.parameters)


def test_a_parameter_without_bounds_is_refused_until_bounds_are_given(plugin):
    with pytest.raises(
        TuneError, match=r"'slack' of strategy .* has no bounds, so it cannot be tuned: .*--bound slack="
    ):
        plan(f"{plugin}:Free", ["simple"], params=["slack"], hands=4)
    assert [d.name for d in plan(f"{plugin}:Free", ["simple"], bounds={"slack": (-1, 1)}, hands=4).dimensions] == [
        "slack"
    ]


def test_one_parameter_tunes_through_many_generations():
    """cma fails on a single dimension (its bound handling indexes a 0-d array after a few
    generations); the optimiser pads the search with an inert coordinate."""
    result = tune("heuristic", ["simple"], params=["draw_margin"], budget=48, hands=2, final=4, seed=0, workers=1)
    assert sum(e.phase == "search" for e in result.history) == 48
    assert set(result.parameters) >= {"draw_margin"}
    assert -5 <= result.parameters["draw_margin"] <= 5
    assert len({e.values["draw_margin"] for e in result.history}) > 10


# -- resume -----------------------------------------------------------------------------------------------


class Interrupt:
    """A progress callback that presses Ctrl-C after ``after`` evaluations."""

    def __init__(self, after: int) -> None:
        self.after = after

    def __call__(self, evaluation, done, total) -> None:
        if done >= self.after:
            raise KeyboardInterrupt


@pytest.mark.parametrize("after", [3, 6])  # mid-generation in the search; in the selection round
def test_an_interrupted_tune_resumes_to_the_same_result(tiny, tmp_path, after):
    result, _ = tiny
    out = tmp_path / "resumed"
    with pytest.raises(KeyboardInterrupt):
        tune("heuristic", ["simple"], workers=1, out=out, progress=Interrupt(after), **TINY)
    written = sorted(p.name for p in (out / "evaluations").glob("*.json"))
    assert len(written) == after
    assert not (out / "result.json").exists()
    resumed = tune("heuristic", ["simple"], workers=1, out=out, **TINY)
    assert without_timing(resumed) == without_timing(result)
    assert resumed.timing["evaluations_resumed"] == after
    assert [e.batch_sums for e in resumed.history] == [e.batch_sums for e in result.history]


def test_a_finished_tune_reruns_from_its_records_without_playing(tiny):
    result, out = tiny
    again = tune("heuristic", ["simple"], workers=1, out=out, **TINY)
    assert without_timing(again) == without_timing(result)
    assert again.timing["evaluations_resumed"] == len(result.history)
    assert again.timing["worker_seconds"] == pytest.approx(result.timing["worker_seconds"])


def test_a_rerun_with_other_settings_is_refused(tiny):
    _, out = tiny
    # Issue 25: each refused setting is shown with its recorded value next to the new one.
    expected = r"holds a tune with other settings \(budget: recorded 4, now 6; seed: recorded 3, now 4\)"
    with pytest.raises(TuneError, match=expected):
        tune("heuristic", ["simple"], workers=1, out=out, **(TINY | {"seed": 4, "budget": 6}))
    outcome = CliRunner().invoke(
        main, ["tune", "heuristic", "--against", "greedy", "--budget", "4", "--out", str(out), "--quiet"]
    )
    assert outcome.exit_code == 1
    assert outcome.output.startswith("Error: ") and outcome.output.count("\n") == 1
    assert "other settings" in outcome.output and 'against: recorded ["simple"], now ["greedy"]' in outcome.output


def test_a_record_that_the_search_no_longer_asks_for_is_refused(tiny, tmp_path):
    _, out = tiny
    copy = tmp_path / "copy"
    (copy / "evaluations").mkdir(parents=True)
    (copy / "tune.json").write_text((out / "tune.json").read_text())
    record = json.loads((out / "evaluations" / "search-g000-001.json").read_text())
    record["spec"] = record["spec"].replace("heuristic:knock=", "heuristic:knock=1")
    record["check"] = checksum(record)  # a record of another version, not an edited one
    (copy / "evaluations" / "search-g000-001.json").write_text(json.dumps(record))
    with pytest.raises(TuneError, match="recorded evaluation search-g000-001 played"):
        tune("heuristic", ["simple"], workers=1, out=copy, **TINY)


def test_a_damaged_record_is_played_again_with_a_notice(tiny, tmp_path):
    """Issue 25, D3/D4: a damaged record is not believed: it is named in a notice and its evaluation played again."""
    result, out = tiny
    copy = tmp_path / "damaged"
    (copy / "evaluations").mkdir(parents=True)
    (copy / "tune.json").write_text((out / "tune.json").read_text())
    (copy / "evaluations" / "search-g000-000.json").write_text('{"phase": "search"}')
    notices: list[str] = []
    again = tune("heuristic", ["simple"], workers=1, out=copy, notice=notices.append, **TINY)
    assert len(notices) == 1 and "search-g000-000.json is damaged (no 'format' field); it is played again" in notices[0]
    assert without_timing(again) == without_timing(result)


def test_the_output_directory_of_another_command_is_refused(tmp_path):
    outcome = CliRunner().invoke(main, ["match", "simple", "random", "--hands", "20", "--out", str(tmp_path)])
    assert outcome.exit_code == 0
    with pytest.raises(TuneError, match="another simgin command"):
        tune("heuristic", ["simple"], workers=1, out=tmp_path, **TINY)


# -- the command line ---------------------------------------------------------------------------------------


def test_cli_json_prints_one_object_with_the_contract_keys(tiny):
    result, _ = tiny
    args = ["tune", "heuristic", "--against", "simple", "--params", "knock,knock_late,gin_hold", "--json"]
    args += ["--budget", "4", "--popsize", "2", "--games", "8", "--final", "20", "--seed", "3", "--workers", "1"]
    outcome = CliRunner().invoke(main, args)
    assert outcome.exit_code == 0, outcome.output
    data = json.loads(outcome.stdout)
    assert tuple(data) == CONTRACT_KEYS
    data.pop("timing")
    assert data == without_timing(result)


def test_cli_text_ends_with_the_tuned_spec(tiny):
    result, _ = tiny
    args = ["tune", "heuristic", "--against", "simple", "--params", "knock,knock_late,gin_hold", "--quiet"]
    args += ["--budget", "4", "--popsize", "2", "--games", "8", "--final", "20", "--seed", "3", "--workers", "1"]
    outcome = CliRunner().invoke(main, args)
    assert outcome.exit_code == 0, outcome.output
    lines = outcome.output.strip().splitlines()
    assert lines[-1] == result.spec
    assert any(line.strip().startswith("tuned wins") for line in lines)
    assert any("paired difference" in line and "p = " in line for line in lines)


def test_cli_rules_and_hands_reach_the_tune():
    """--rules and --set choose the rules; --hands scores net points per hand (printed with a sign)."""
    args = ["tune", "heuristic", "--against", "simple", "--rules", "eaai", "--set", "gin_bonus=30", "--params", "knock"]
    args += ["--budget", "2", "--popsize", "2", "--hands", "8", "--final", "8", "--workers", "1", "--quiet"]
    data = json.loads(CliRunner().invoke(main, [*args, "--json"]).stdout)
    assert data["rules"] == Rules.preset("eaai").with_settings({"gin_bonus": "30"}).to_dict()
    text = CliRunner().invoke(main, args).output
    assert "net points per hand" in text and f"  tuned {data['score']:+.2f}" in text


def test_the_tuned_spec_is_accepted_as_is_by_match_tournament_compare_and_sweep(tiny):
    spec = tiny[0].spec
    for args in (
        ["match", spec, "simple", "--games", "2", "--workers", "1", "--quiet"],
        ["tournament", spec, "simple", "random", "--games", "2", "--workers", "1", "--quiet"],
        ["compare", spec, "simple", "--max-games", "4", "--batch", "1", "--workers", "1", "--quiet"],
        ["sweep", spec, "simple", "--grid", "knock_limit=9..10", "--games", "2", "--workers", "1", "--quiet"],
    ):
        outcome = CliRunner().invoke(main, args)
        assert outcome.exit_code == 0, f"{shlex.join(args)}: {outcome.output}"
        assert spec in outcome.output or "heuristic" in outcome.output


@pytest.mark.slow  # runs each example command as written: .ci/run runs it with the slow tests
def test_help_examples_run_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    help_text = CliRunner().invoke(main, ["tune", "--help"]).output
    examples = [shlex.split(line.strip())[1:] for line in help_text.splitlines() if line.strip().startswith("simgin ")]
    assert examples and examples[0][0] == "tune"
    for example in examples:
        outcome = CliRunner().invoke(main, example)
        assert outcome.exit_code == 0, f"{shlex.join(example)}: {outcome.output}"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--params", "knock,bogus"], "unknown parameter 'bogus' of strategy 'heuristic': choose from knock, "),
        (["--params", "knock,knock"], "--params names 'knock' twice"),
        (["--bound", "knock=0..11"], "--bound knock=0..11: must be between 0 and 10, got 11"),
        (["--bound", "knock=5..2"], "LOW must be below HIGH"),
        (["--bound", "knock=a..b"], "LOW and HIGH must be numbers"),
        (["--bound", "knock"], "expected NAME=LOW..HIGH"),
        (["--bound", "bogus=0..1"], "--bound bogus: strategy 'heuristic' has no such parameter"),
        (["--bound", "knock=0..5"], "the start value knock=10 lies outside the search bounds 0..5"),
        (["--params", "knock", "--bound", "evidence=0.1..0.9"], "--bound evidence: the parameter is not in --params"),
        (["--start", "opponent:knock=3"], "--start 'opponent:knock=3' is a spec of strategy 'opponent', not of"),
        (["--start", "heuristic:knock=12"], "parameter knock=12 of strategy 'heuristic': must be between 0 and 10"),
        (["--budget", "0"], "--budget 0: must be at least 1"),
        (["--games", "7"], "--games 7: must be an even number >= 2"),
        (["--final", "0"], "--final 0: must be an even number >= 2"),
        (["--games", "8", "--hands", "8"], "give --games or --hands, not both"),
        (["--popsize", "1"], "--popsize 1: must be at least 2"),
        (["--against", "nobody"], "unknown strategy 'nobody'"),
        (["--workers", "0"], "--workers 0: must be between 1 and"),
        (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs --backend dask"),
    ],
)
def test_bad_input_is_a_one_line_error(args, message):
    outcome = CliRunner().invoke(main, ["tune", "heuristic", "--against", "simple", *args, "--quiet"])
    assert outcome.exit_code == 1, outcome.output
    assert outcome.output.startswith("Error: ")
    assert outcome.output.count("\n") == 1, outcome.output
    assert message in outcome.output
    assert "Traceback" not in outcome.output


@pytest.mark.parametrize(
    ("strategy", "message"),
    [
        ("simple", "strategy 'simple' declares no Parameters, so it has nothing to tune"),
        ("heuristic:knock=7", "carries parameters: name the strategy alone and give the start with --start"),
        ("nobody", "unknown strategy 'nobody'"),
    ],
)
def test_a_strategy_that_cannot_be_tuned_is_a_one_line_error(strategy, message):
    outcome = CliRunner().invoke(main, ["tune", strategy, "--against", "simple"])
    assert outcome.exit_code == 1
    assert outcome.output.startswith("Error: ") and outcome.output.count("\n") == 1
    assert message in outcome.output


def test_ctrl_c_says_where_the_evaluations_are_kept(monkeypatch, tmp_path):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("simgin.studies.tune.tune", interrupted)
    outcome = CliRunner().invoke(main, ["tune", "heuristic", "--against", "simple", "--out", str(tmp_path)])
    assert outcome.exit_code == 1
    # Issue 25: nothing finished is nothing kept; otherwise the count of what is kept.
    assert outcome.output == f"Error: interrupted before any evaluation was finished: nothing is kept in {tmp_path}\n"
    (tmp_path / "evaluations").mkdir()
    (tmp_path / "evaluations" / "search-g000-000.json").write_text("{}")
    outcome = CliRunner().invoke(main, ["tune", "heuristic", "--against", "simple", "--out", str(tmp_path)])
    assert outcome.output == (
        f"Error: interrupted; 1 finished evaluation is kept in {tmp_path}, rerun the same command to resume\n"
    )


# -- the report ---------------------------------------------------------------------------------------------


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_report_draws_the_search_the_traces_and_the_final_comparison(tiny, tmp_path):
    from simgin.reports.build import write_report

    result, out = tiny
    data = load_result(out)
    assert data["kind"] == "tune" and data["spec"] == result.spec
    files = write_report(out, tmp_path / "report.html")
    names = {path.name for path in files.figures}
    assert names == {
        f"{name}.{suffix}" for name in ("tune_final", "tune_search", "tune_parameters") for suffix in ("png", "svg")
    }
    assert {path.name for path in files.tables} >= {"tune_evaluations.csv", "tune_final.csv", "tune_parameters.csv"}
    html = files.html.read_text()
    assert f"{100 * result.score:.1f}%" in html  # the final caption states the tuned score
    assert result.spec in html
    evaluations = (files.tables[0].parent / "tune_evaluations.csv").read_text().splitlines()
    assert len(evaluations) == 1 + len(result.history)


def test_report_captions_state_the_numbers(tiny):
    from simgin.reports import tune as tune_report

    result, out = tiny
    data = load_result(out)
    caption = tune_report.final_caption(data)
    assert f"{100 * result.score:.1f}%" in caption and f"{100 * result.start_score:.1f}%" in caption
    assert "p = " in caption and f"{2 * result.settings.final_pairs:,} fresh games" in caption
    search = tune_report.search_caption(data)
    assert f"{result.evaluations} evaluations in {result.settings.generations} generations" in search
    traces = tune_report.parameter_caption(data)
    for dimension in result.settings.dimensions:
        assert f"{dimension.name} {format_value(result.start_parameters[dimension.name])} → " in traces


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_report_of_a_hands_tune_against_two_opponents(tmp_path):
    from simgin.reports.build import write_report

    out = tmp_path / "hands"
    result = tune(
        "heuristic",
        ["simple", "greedy"],
        params=["knock"],
        budget=2,
        popsize=2,
        hands=8,
        final=8,
        workers=1,
        out=out,
    )
    final = next(e for e in result.history if e.phase == "final")
    tallies = [Tally.from_dict(o["tally"]) for o in final.opponents]
    net = [(t["pair_x1"] + t["pair_x2"]) / (2 * t["pairs"]) for t in tallies]
    assert final.score == pytest.approx(np.mean(net))  # net points per hand, averaged over the pool
    files = write_report(out, png=False)
    assert "net points per hand" in files.html.read_text()
    final_rows = (files.html.parent / "report_files" / "tune_final.csv").read_text()
    assert "pool" in final_rows and "greedy" in final_rows and "simple" in final_rows


# -- pieces ------------------------------------------------------------------------------------------------


def test_dimension_snaps_to_its_grid_and_bounds():
    assert Dimension("k", 0, 10, integer=True).snap(7.6) == 8.0
    assert Dimension("k", -1, 10, integer=True).snap(-3) == -1.0
    assert Dimension("e", 0.01, 1).snap(0.98765) == 0.988
    assert Dimension("s", 0, 31).snap(12.3456) == 12.35
    assert Dimension("e", 0.01, 1).snap(0.0) == 0.01


def test_format_value_round_trips_through_a_spec():
    for value in (7.0, 0.35, 0.1 + 0.2, 12.35, -1.0):
        assert float(format_value(value)) == value
    assert format_value(3.0, integer=True) == "3"


def test_parse_bound():
    assert parse_bound("cut=0..6") == ("cut", 0.0, 6.0)
    assert parse_bound("x=-1.5..2") == ("x", -1.5, 2.0)
    with pytest.raises(TuneError, match="finite"):
        parse_bound("x=0..inf")


def test_batch_mean_and_paired_difference():
    mean, _low, high = batch_mean([3.0, 1.0, 2.0, 2.0], [4, 4, 4, 4])
    assert mean == 0.5
    sums = np.array([3.0, 1.0, 2.0, 2.0])
    se = math.sqrt(4 / 3 * ((sums - 2.0) ** 2).sum()) / 16
    assert high - mean == pytest.approx(1.959963984540054 * se)

    def evaluation(sums: list[float]) -> Evaluation:
        return Evaluation("final", 0, 0, {}, "x", 1, 4, 1, 0, 0, 0, sums, [4, 4, 4], [])

    same = paired_difference(evaluation([1.0, 2.0, 3.0]), evaluation([1.0, 2.0, 3.0]))
    assert same == {"difference": 0.0, "low": 0.0, "high": 0.0, "p_value": 1.0}
    better = paired_difference(evaluation([2.0, 3.1, 3.9]), evaluation([1.0, 2.0, 3.0]))
    assert better["difference"] == pytest.approx(3.0 / 12)
    assert better["p_value"] < 1e-6
    with pytest.raises(ValueError, match="same deals"):
        paired_difference(
            evaluation([1.0, 2.0, 3.0]), Evaluation("final", 0, 0, {}, "x", 2, 4, 1, 0, 0, 0, [1.0] * 3, [4] * 3, [])
        )


def test_hollywood_start_spec_of_the_issue_is_a_valid_start():
    settings = plan("heuristic", ["simple"], rules=HOLLYWOOD, start=START)
    declared = resolve("heuristic").info.parameters
    tunable = [p.name for p in declared if p.low is not None and p.high is not None and not p.cost]
    assert [d.name for d in settings.dimensions] == tunable
    assert "knock_samples" not in tunable  # it buys strength with time: only --params selects it
    assert resolve(settings.spec({})).values == resolve(START).values
    # CMA-ES's population for this many dimensions (4 + 3 ln n, Hansen's default).
    assert settings.budget == 128 and settings.count == 400
    assert settings.popsize == 4 + int(3 * math.log(len(tunable))) == 13


def test_parameters_that_cost_time_are_tuned_only_when_named():
    assert "budget" not in [d.name for d in plan("mcts", ["simple"]).dimensions]
    named = plan("opponent", ["simple"], params=["knock_samples", "potential"])
    assert [d.name for d in named.dimensions] == ["knock_samples", "potential"]


# -- a tuned spec that measures worse than the start (issue 25) ---------------------------------------------

LOSING = ["--params", "potential,safety,value", "--budget", "4", "--popsize", "2", "--hands", "10", "--final", "20"]


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_a_tuned_spec_worse_than_the_start_on_the_final_deals_keeps_the_start(tmp_path):
    # Issue 25: the tuned spec was presented as the result even when the final measurement scored
    # it below the start. Seed 4 of this tiny tune is such a case; seed 27 is not (with the search space of
    # issue 24's discard weights).
    # From heuristic's frozen weights (issue 11's): the defaults changed with its learned weights (issue 24).
    args = ["tune", "heuristic", "--against", "simple", *LOSING, "--start", FROZEN_SPEC, "--workers", "1"]
    outcome = CliRunner().invoke(main, [*args, "--seed", "4", "--json", "--out", str(tmp_path / "lost")])
    assert outcome.exit_code == 0, outcome.output
    data = json.loads(outcome.stdout)
    assert tuple(data) == CONTRACT_KEYS
    assert data["score"] < data["start_score"]
    assert data["kept_start"] is True
    assert data["parameters"] == data["start_parameters"]
    assert resolve(data["spec"]).values == pytest.approx(data["start_parameters"])
    assert data["tuned_spec"] != data["spec"] and resolve(data["tuned_spec"]).values == data["tuned_parameters"]
    from simgin.reports import tune as tune_report

    recorded = load_result(tmp_path / "lost")
    assert recorded["kept_start"] is True
    assert dict(tune_report.facts(recorded))["tuned spec"].startswith(f"{data['spec']} (the start, kept: ")
    text = CliRunner().invoke(main, [*args, "--seed", "4", "--quiet"])
    lines = text.output.strip().splitlines()
    assert lines[-1] == data["spec"]  # the start is the result
    assert (
        "  the tuned spec scored lower than the start on these fresh deals: no gain found, the start is kept "
        "(the spec below)"
    ) in lines
    # The parameter table still shows what the search found.
    potential = next(line for line in lines if line.strip().startswith("potential"))
    assert potential.split()[1:3] == [
        format_value(data["start_parameters"]["potential"]),
        format_value(data["tuned_parameters"]["potential"]),
    ]
    # A tuned spec that measures better is the result, as before.
    won = json.loads(CliRunner().invoke(main, [*args, "--seed", "27", "--json"]).stdout)
    assert won["score"] > won["start_score"] and won["kept_start"] is False
    assert won["spec"] == won["tuned_spec"] and won["parameters"] == won["tuned_parameters"]


def test_tune_text_says_percentage_points_and_counts_in_the_singular():
    # Issue 25: "points" meant percentage points of games, and "1 generations" was printed.
    args = ["tune", "heuristic", "--against", "simple", "--params", "knock", "--budget", "2", "--popsize", "2"]
    outcome = CliRunner().invoke(main, [*args, "--games", "8", "--final", "20", "--seed", "3", "--workers", "1"])
    assert outcome.exit_code == 0, outcome.output
    lines = outcome.stdout.splitlines()
    assert lines[0] == "tuned 1 parameter of heuristic against simple: 2 evaluations in 1 generation, seed 3"
    difference = next(line for line in lines if "paired difference" in line)
    assert " percentage points of games (" in difference
    assert "generations" not in outcome.stdout and "1 parameters" not in outcome.stdout
    assert lines[-2].endswith(", 0 evaluations resumed")


def test_a_budget_too_small_for_the_parameters_is_warned_and_an_adequate_one_is_not():
    """Issue 32 item 19: `simgin tune heuristic --budget 24` tunes 19 parameters in 2 generations and keeps its
    start; it says so before it starts, on stderr (warnings.warn in Python), and plays on."""
    from simgin.studies.tune import MIN_GENERATIONS, TuneBudgetWarning, budget_warning, plan

    small = plan("heuristic", ["simple"], budget=24)
    assert len(small.dimensions) >= 10 and small.generations < MIN_GENERATIONS
    text = budget_warning(small)
    assert text is not None and f"--budget 24 is small for {len(small.dimensions)} parameter(s)" in text
    assert budget_warning(plan("heuristic", ["simple"], params=["knock", "knock_late"], budget=30)) is None
    assert budget_warning(plan("heuristic", ["simple"], params=["knock", "knock_late"], budget=29)) is not None
    with pytest.warns(TuneBudgetWarning, match="--budget 2 is small for 1 parameter"):
        tune("heuristic", ["simple"], params=["knock"], budget=2, popsize=2, games=4, final=4, seed=1, workers=1)
    args = ["tune", "heuristic", "--against", "simple", "--params", "knock", "--popsize", "2", "--games", "4"]
    args += ["--final", "4", "--workers", "1", "--quiet"]
    warned = CliRunner().invoke(main, [*args, "--budget", "2"])
    assert warned.exit_code == 0 and warned.stderr.startswith("Warning: --budget 2 is small for 1 parameter(s)")
    quiet = CliRunner().invoke(main, [*args, "--budget", "10"])
    assert quiet.exit_code == 0 and "Warning" not in quiet.stderr

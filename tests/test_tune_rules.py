"""simgin tune-rules (issue 23, item 3): the search finds a known optimum, claims no gain its final measurement
does not show, resumes and runs on any number of workers to the same result, keeps its JSON contract and
refuses bad input in one line."""

from __future__ import annotations

import json
import math
import shlex
from html import escape
from types import SimpleNamespace

import numpy as np
import pytest
from click.testing import CliRunner

import simgin
from simgin.base.files import checksum
from simgin.cli.main import main
from simgin.game.rules import Rules
from simgin.running.results import load_result
from simgin.running.tally import Tally
from simgin.studies.tune import phase_seed
from simgin.studies.tune_rules import (
    CONTRACT_KEYS,
    SIGNIFICANCE,
    Keep,
    RuleEvaluation,
    TuneRulesError,
    objective_score,
    parse_keep,
    parse_objective,
    parse_vary,
    score_difference,
    tune_rules,
)

pytest.importorskip("optuna")

OPTIMUM = 7
"""The knock limit at which the synthetic game below lasts exactly 3 hands on average."""


def _synthetic_tally(
    config, chunk, hands_per_game: float, noise_seed: tuple[int, ...], sd: float = 0.5
) -> SimpleNamespace:
    """A chunk of made-up games: every metric a ratio of sums, as the runner's tallies are."""
    games = 2 * chunk.unit_count
    rng = np.random.default_rng(noise_seed)
    t = Tally.zero()
    per_game = np.maximum(1.0, hands_per_game + rng.normal(0.0, sd, games))
    hands = float(per_game.sum())
    t.add("games", games)
    t.add("game_hands", hands)
    t.add("hands", hands)
    t.add("scored", hands)
    t.add("first_player_wins", float(rng.binomial(int(hands), 0.5)))
    t.add("dead", 0.02 * hands)
    wins = float(rng.binomial(games, 0.5))
    t.add("games_won_a", wins)
    t.add("games_won_b", games - wins)
    return SimpleNamespace(tally=t, seconds=0.0)


def known_length(config, chunk):
    """Games last 3 + |knock_limit - 7| hands (plus noise shared by every rule set on the same deals)."""
    return _synthetic_tally(config, chunk, 3.0 + abs(config.rules.knock_limit - OPTIMUM), (chunk.seed,))


def mixed_length(config, chunk):
    """known_length plus a hand without shutout=double and two without big_gin: the optimum is (7, double, true)."""
    rules = config.rules
    hands = 3.0 + abs(rules.knock_limit - OPTIMUM) + (rules.shutout != "double") + 2 * (not rules.big_gin)
    return _synthetic_tally(config, chunk, hands, (chunk.seed,))


def dead_at_low_limits(config, chunk):
    """known_length, but a knock limit k makes k% of hands dead."""
    result = known_length(config, chunk)
    result.tally.add("dead", 0.01 * config.rules.knock_limit * result.tally["hands"] - result.tally["dead"])
    return result


def dead_near_the_bound(config, chunk):
    """known_length, but 5% of hands are dead at knock limits up to 7 and 20% above, with noise shared by the
    rule sets on the same deals: a constraint 'dead_rate<=0.05' sits right at the found rules' rate."""
    result = known_length(config, chunk)
    rate = (0.05 if config.rules.knock_limit <= OPTIMUM else 0.20) + np.random.default_rng(chunk.seed).normal(0, 0.01)
    result.tally.add("dead", rate * result.tally["hands"] - result.tally["dead"])
    return result


def small_gain_in_noise(config, chunk):
    """Games last 3.3 hands at a knock limit of 9 and 3.6 at 10, with 2 hands of noise a game of each rule set's
    own: a real gain of 0.3 hands towards length=3 that a short final measurement cannot see."""
    hands = 3.3 if config.rules.knock_limit == 9 else 3.6
    return _synthetic_tally(config, chunk, hands, (chunk.seed, config.rules.knock_limit), sd=2.0)


def big_gin_does_it(config, chunk):
    """Games last 5 hands, 3 with big gin (V13): the knock limit and the shutout rule change nothing but the noise
    of each rule set's own games, so a search may change them with big gin though they do no work."""
    rules = config.rules
    hands = 3.0 if rules.big_gin else 5.0
    return _synthetic_tally(config, chunk, hands, (chunk.seed, rules.knock_limit, sum(map(ord, rules.shutout))))


def pure_noise(config, chunk):
    """The knock limit changes nothing: every rule set's games last 5 hands, with its own noise."""
    return _synthetic_tally(config, chunk, 5.0, (chunk.seed, config.rules.knock_limit))


TINY = {"budget": 6, "games": 8, "final": 40, "seed": 2}
REAL = (["greedy", "simple"], "skill", ["knock_limit=8..10", "big_gin"])


def without_timing(result) -> dict:
    data = result.to_json()
    data.pop("timing")
    return data


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    """A tiny search of real games, written to a directory."""
    out = tmp_path_factory.mktemp("tune-rules") / "run"
    return tune_rules(*REAL, workers=1, out=out, **TINY), out


# -- the search ------------------------------------------------------------------------------------------


def test_the_search_finds_the_known_optimum_and_the_final_measurement_confirms_it():
    result = tune_rules(
        ["simple"],
        "length=3",
        ["knock_limit=0..10"],
        budget=24,
        games=40,
        final=400,
        seed=1,
        play_chunk=known_length,
        workers=1,
    )
    assert result.found_rules == {"knock_limit": OPTIMUM}
    assert result.rules == {"knock_limit": OPTIMUM} and not result.kept_start
    assert result.start_rules == {"knock_limit": 10}
    assert result.start_score == pytest.approx(3.0, abs=0.2)
    assert result.score == pytest.approx(0.0, abs=0.2)
    assert result.p_value < 1e-6 and result.difference["difference"] < 0
    assert result.verdict.startswith("the found rules are better")
    frame = result.to_frame()
    assert list(frame["trial"]) == list(range(24))
    assert frame["knock_limit"].iloc[0] == 10  # the start rules are the first trial
    assert frame["best_so_far"].iloc[-1] == pytest.approx(frame["score"].min())


def test_the_search_finds_the_optimum_of_a_whole_number_a_choice_and_a_true_false_switch():
    vary = ["knock_limit=0..10", "shutout", "big_gin"]
    result = tune_rules(
        ["simple"], "length=3", vary, budget=40, games=40, final=100, seed=0, play_chunk=mixed_length, workers=1
    )
    assert result.rules == {"knock_limit": OPTIMUM, "shutout": "double", "big_gin": True}
    assert result.start_rules == {"knock_limit": 10, "shutout": "bonus", "big_gin": False}
    assert not result.kept_start and result.p_value < 1e-6


def test_a_keep_constraint_makes_the_optimum_infeasible():
    """dead_rate is 2% everywhere, so 'dead_rate<0.01' leaves no feasible rule set: the start is kept."""
    result = tune_rules(
        ["simple"],
        "length=3",
        ["knock_limit=0..10"],
        keep=["dead_rate<0.01"],
        budget=8,
        games=20,
        final=40,
        play_chunk=known_length,
        workers=1,
    )
    assert result.kept_start and result.rules == result.start_rules
    assert result.verdict.startswith("no searched rule set met the --keep constraints")
    assert result.verdict.endswith("(note: the start rules break --keep dead_rate<0.01 on fresh deals)")
    assert all(not trial["feasible"] for trial in result.trials)


def test_a_keep_constraint_moves_the_optimum_to_the_best_feasible_rules():
    """dead_rate <= 5% allows knock limits 0-5 only: the best of them for length=3 is 5 (5 hands a game)."""
    result = tune_rules(
        ["simple"],
        "length=3",
        ["knock_limit=0..10"],
        keep=["dead_rate<=0.05"],
        budget=24,
        games=40,
        final=400,
        seed=1,
        play_chunk=dead_at_low_limits,
        workers=1,
    )
    assert result.rules == {"knock_limit": 5} and not result.kept_start
    assert result.keep["dead_rate<=0.05"]["found_met"] and not result.keep["dead_rate<=0.05"]["start_met"]
    assert [t["feasible"] for t in result.trials] == [t["values"]["knock_limit"] <= 5 for t in result.trials]


def test_a_keep_constraint_is_judged_on_its_interval_not_its_point_estimate():
    """Issue 32 item 6: the found rules (knock limit 7, the optimum for length=3) have a dead rate of about 5%,
    noisy around the bound of 'dead_rate<=0.05'. On the fresh deals the point estimate is 0.048, which the old
    judgement called met (and the found rules replaced the start); its 95% interval, 0.045 to 0.051, reaches
    across the bound: uncertain, and the start is kept, saying why."""
    result = tune_rules(
        ["simple"],
        "length=3",
        ["knock_limit=5..10"],
        keep=["dead_rate<=0.05"],
        budget=16,
        games=40,
        final=400,
        seed=0,  # its search deals let a limit of 6 pass (the point estimate 0.048 on the fresh deals)
        play_chunk=dead_near_the_bound,
        workers=1,
    )
    row = result.keep["dead_rate<=0.05"]
    value, low, high = row["found"]
    assert low < 0.05 < high and row["found_status"] == "uncertain" and not row["found_met"]
    assert row["start_status"] == "broken" and row["start"][1] > 0.05
    assert result.kept_start and result.rules == result.start_rules
    assert "cannot show that the found rules meet --keep dead_rate<=0.05" in result.verdict
    assert result.verdict.endswith("(note: the start rules break --keep dead_rate<=0.05 on fresh deals)")
    assert Keep("dead_rate", "<=", 0.05).status(value, low, high) == "uncertain"
    assert Keep("dead_rate", "<=", 0.05).status(0.049, 0.045, 0.0499) == "met"
    assert Keep("dead_rate", "<=", 0.05).status(0.06, 0.051, 0.07) == "broken"
    from reports import tune_rules as tune_rules_report

    tables = {name: frame for name, _, frame, _, _ in tune_rules_report.tables(result.result_data())}
    judged = tables["tune_rules_keep"].set_index("candidate")["judged"].to_dict()
    assert judged == {"found": "uncertain", "start": "broken"}


def test_a_final_measurement_too_small_for_the_gain_seen_is_inconclusive_not_not_better():
    """Issue 32 item 12: a real gain (0.3 hands) in noise. A final of 40 games has little power for the gain the
    search saw: the verdict says "inconclusive", with the power and the --final that would give 80%; a final
    of that size (and more) shows the gain."""
    small = tune_rules(
        ["simple"],
        "length=3",
        ["knock_limit=9..10"],
        budget=4,
        games=40,
        final=40,
        seed=4,
        play_chunk=small_gain_in_noise,
        workers=1,
    )
    d = small.difference
    assert small.found_rules == {"knock_limit": 9} and small.kept_start and d["p_value"] >= 0.05
    assert d["search_difference"] < 0 and 0.05 <= d["power"] < 0.8
    assert small.verdict.startswith("inconclusive: the found rules are not significantly better on fresh deals")
    assert (
        f"only {d['power']:.0%} power" in small.verdict and f"--final {int(d['final_for_80_power']):,}" in small.verdict
    )
    needed = int(d["final_for_80_power"])
    assert needed > 40
    large = tune_rules(
        ["simple"],
        "length=3",
        ["knock_limit=9..10"],
        budget=4,
        games=40,
        final=max(needed, 4000),
        seed=4,
        play_chunk=small_gain_in_noise,
        workers=1,
    )
    assert not large.kept_start and large.verdict.startswith("the found rules are better")


def test_power_to_detect_is_the_chance_of_a_significant_result():
    """The normal-approximation power, checked against a simulation of the test it describes."""
    from simgin.statistics.power import power_to_detect

    rng = np.random.default_rng(8)
    estimates = rng.normal(0.3, 0.2, 20_000)
    simulated = float(np.mean(np.abs(estimates / 0.2) > 1.959964))
    assert power_to_detect(0.3, 0.2) == pytest.approx(simulated, abs=0.01)
    assert power_to_detect(0.0, 0.2) == pytest.approx(0.05)
    assert np.isnan(power_to_detect(0.3, float("nan")))


def test_each_changed_switch_gets_its_own_effect_and_the_rules_keep_only_those_that_matter(capsys):
    """Issue 32 item 7: big gin makes games 2 hands shorter; the knock limit and the shutout rule do nothing. The
    search changes all three; reverting each alone on the final's deals shows that only big gin matters, and the
    rules become the start with big gin alone, which measure as well."""
    result = tune_rules(
        ["simple"],
        "length=3",
        ["knock_limit=8..10", "big_gin", "shutout=bonus,none"],
        budget=12,
        games=40,
        final=400,
        seed=1,
        play_chunk=big_gin_does_it,
        workers=1,
    )
    assert result.found_rules == {"knock_limit": 9, "big_gin": True, "shutout": "none"} and not result.kept_start
    effects = {row["switch"]: row for row in result.switch_effects}
    assert set(effects) == {"knock_limit", "big_gin", "shutout"}
    assert effects["big_gin"]["matters"] and effects["big_gin"]["high"] < -1.5  # 2 hands nearer 3 with big gin
    assert not effects["knock_limit"]["matters"] and not effects["shutout"]["matters"]
    assert effects["knock_limit"]["low"] < 0 < effects["knock_limit"]["high"]
    assert result.simplified["adopted"] and result.rules == {"knock_limit": 10, "big_gin": True, "shutout": "bonus"}
    assert result.score == result.simplified["score"]
    assert "so the rules keep only big_gin=true" in result.verdict
    data = result.to_json()
    assert data["switch_effects"] and data["simplified"]["rules"] == result.rules
    from reports import tune_rules as tune_rules_report
    from simgin.cli.tune_rules import _echo_result

    _echo_result(result)
    printed = capsys.readouterr().out
    assert "big_gin false -> true: found minus reverted alone -1.91 hands" in printed and "matters" in printed
    assert printed.count("does not matter alone") == 2 and printed.rstrip().endswith("rules: --set big_gin=true")
    tables = {name: frame for name, _, frame, _, _ in tune_rules_report.tables(result.result_data())}
    assert tables["tune_rules_switch_effects"].set_index("switch")["matters"].to_dict() == {
        "knock_limit": False,
        "big_gin": True,
        "shutout": False,
    }


def test_a_gain_is_never_claimed_unless_the_final_measurement_shows_it():
    """Under pure noise the search's best is luck: whatever it found, the result keeps the start unless the fresh
    deals show a significant gain in the objective's direction, and that happens about as often as p < 0.05."""
    claims = 0
    for seed in range(40):
        result = tune_rules(
            ["simple"],
            "length=3",
            ["knock_limit=0..10"],
            budget=8,
            games=20,
            final=40,
            seed=seed,
            play_chunk=pure_noise,
            workers=1,
        )
        gain = result.p_value < SIGNIFICANCE and result.difference["difference"] < 0
        assert result.kept_start == (not gain) or result.found_rules == result.start_rules
        if result.kept_start:
            assert result.rules == result.start_rules
            assert result.score == result.start_score and result.score_ci == result.start_score_ci
            assert "keeping the start" in result.verdict
        else:
            claims += 1
            assert result.rules == result.found_rules and result.score < result.start_score
    assert claims <= 6  # about 1 in 40 expected (a one-sided 2.5%)


def test_real_games_keep_the_start_whenever_the_fresh_deals_show_no_significant_gain(real):
    result, _ = real
    better = result.p_value < SIGNIFICANCE and result.difference["difference"] > 0
    assert result.kept_start == (not better)
    assert result.rules == (result.found_rules if better else result.start_rules)
    final = {row["candidate"]: row for row in result.final}
    assert final["found"]["score"] == result.found_score and final["start"]["score"] == result.start_score


def test_search_trials_share_one_set_of_deals_and_the_final_uses_fresh_ones(real):
    _, out = real
    records = [json.loads(path.read_text()) for path in sorted((out / "evaluations").glob("*.json"))]
    search = {r["seed"] for r in records if r["phase"] == "search"}
    final = {r["seed"] for r in records if r["phase"] == "final"}
    assert search == {phase_seed(TINY["seed"], "search")}
    assert final == {phase_seed(TINY["seed"], "final")}


def test_a_repeated_rule_set_is_played_once(real):
    result, _ = real
    trials = result.trials
    keys = [json.dumps(t["values"], sort_keys=True) for t in trials]
    assert sum(t["played"] for t in trials) == len(set(keys)) == result.timing["rule_sets_played"]


def test_the_skill_score_is_the_first_players_game_share_of_the_runner_tallies():
    from simgin.running import runner

    result = tune_rules(["greedy", "simple"], "skill", ["big_gin"], budget=1, games=8, final=20, seed=5, workers=1)
    config = runner.RunConfig(("greedy", "simple"), Rules(), games=20, seed=phase_seed(5, "final"), chunk_units=1)
    t = sum((runner.run_chunk(config, chunk).tally for chunk in runner.plan_chunks(config)), Tally.zero())
    share = (t["games_won_a"] + 0.5 * (t["games"] - t["games_won_a"] - t["games_won_b"])) / t["games"]
    assert result.start_score == pytest.approx(share)


# -- same result: resume, workers --------------------------------------------------------------------------


class Interrupt:
    def __init__(self, after: int) -> None:
        self.after = after

    def __call__(self, evaluation, done, total) -> None:
        if done >= self.after:
            raise KeyboardInterrupt


@pytest.mark.parametrize("after", [1, 5, 7])  # in the first batch of 4 trials, the second, the final measurement
def test_an_interrupted_search_resumes_to_the_same_result(real, tmp_path, after):
    result, _ = real
    out = tmp_path / "resumed"
    with pytest.raises(KeyboardInterrupt):
        tune_rules(*REAL, workers=1, out=out, progress=Interrupt(after), **TINY)
    written = len(list((out / "evaluations").glob("*.json")))
    assert written >= after  # a batch's evaluations are written as each one finishes, before any is told
    assert not (out / "result.json").exists()
    resumed = tune_rules(*REAL, workers=1, out=out, **TINY)
    assert without_timing(resumed) == without_timing(result)
    assert resumed.trials == result.trials and resumed.final == result.final
    assert resumed.timing["evaluations_resumed"] == written


class InterruptAfterChunks:
    """known_length, with Ctrl-C in the middle of the second rule set of the first batch."""

    def __init__(self, chunks: int) -> None:
        self.chunks = chunks

    def __call__(self, config, chunk):
        self.chunks -= 1
        if self.chunks < 0:
            raise KeyboardInterrupt
        return known_length(config, chunk)


def test_ctrl_c_while_a_batch_plays_keeps_its_finished_evaluations(tmp_path):
    settings = {"budget": 8, "games": 8, "final": 40, "seed": 4, "workers": 1}
    args = (["simple"], "length=3", ["knock_limit=0..10"])
    whole = tune_rules(*args, play_chunk=known_length, **settings)
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        tune_rules(*args, play_chunk=InterruptAfterChunks(6), out=out, **settings)  # 4 chunks per rule set
    assert [p.name for p in (out / "evaluations").iterdir()] == ["search-0000.json"]
    resumed = tune_rules(*args, play_chunk=known_length, out=out, **settings)
    assert without_timing(resumed) == without_timing(whole)
    assert resumed.timing["evaluations_resumed"] == 1


def test_a_finished_search_reruns_from_its_records(real):
    result, out = real
    again = tune_rules(*REAL, workers=1, out=out, **TINY)
    assert without_timing(again) == without_timing(result)
    assert again.timing["evaluations_resumed"] == len(result.trials) + len(
        {json.dumps(row["values"]) for row in result.final}
    )


@pytest.mark.slow
def test_same_result_on_two_workers(real):
    result, _ = real
    assert without_timing(tune_rules(*REAL, workers=2, **TINY)) == without_timing(result)


def test_a_rerun_with_other_settings_or_in_another_commands_directory_is_refused(real, tmp_path):
    _, out = real
    with pytest.raises(TuneRulesError, match=r"other settings \((?=.*seed: recorded \d+, now 9)(?=.*budget: recorded)"):
        tune_rules(*REAL, workers=1, out=out, **(TINY | {"seed": 9, "budget": 4}))
    outcome = CliRunner().invoke(main, ["match", "simple", "random", "--hands", "20", "--out", str(tmp_path)])
    assert outcome.exit_code == 0
    with pytest.raises(TuneRulesError, match="another simgin command"):
        tune_rules(*REAL, workers=1, out=tmp_path, **TINY)


def test_a_record_the_search_no_longer_asks_for_is_refused(real, tmp_path):
    _, out = real
    copy = tmp_path / "copy"
    (copy / "evaluations").mkdir(parents=True)
    (copy / "tune-rules.json").write_text((out / "tune-rules.json").read_text())
    record = json.loads((out / "evaluations" / "search-0001.json").read_text())
    record["values"]["knock_limit"] = 3
    record["check"] = checksum(record)  # a consistent record, only of other rules: not a damaged one
    (copy / "evaluations" / "search-0001.json").write_text(json.dumps(record))
    with pytest.raises(TuneRulesError, match="recorded evaluation search-0001 played"):
        tune_rules(*REAL, workers=1, out=copy, **TINY)


def test_a_damaged_record_is_played_again(real, tmp_path):
    result, out = real
    copy = tmp_path / "damaged"
    (copy / "evaluations").mkdir(parents=True)
    (copy / "tune-rules.json").write_text((out / "tune-rules.json").read_text())
    (copy / "evaluations" / "search-0000.json").write_text('{"phase": "search"}')
    notices: list[str] = []
    again = tune_rules(*REAL, workers=1, out=copy, notice=notices.append, **TINY)
    assert without_timing(again) == without_timing(result)
    assert any("search-0000.json is damaged" in line for line in notices), notices


# -- the JSON and the command line ---------------------------------------------------------------------------


def test_cli_json_has_the_fixed_keys_and_the_library_result(real):
    result, _ = real
    args = ["tune-rules", "greedy", "simple", "--objective", "skill", "--vary", "knock_limit=8..10", "--vary"]
    args += ["big_gin", "--budget", "6", "--games", "8", "--final", "40", "--seed", "2", "--workers", "1", "--json"]
    outcome = CliRunner().invoke(main, args)
    assert outcome.exit_code == 0, outcome.output
    data = json.loads(outcome.stdout)
    assert tuple(data)[: len(CONTRACT_KEYS)] == CONTRACT_KEYS
    assert set(CONTRACT_KEYS) == {
        "objective",
        "players",
        "rules",
        "start_rules",
        "score",
        "score_ci",
        "start_score",
        "start_score_ci",
        "p_value",
        "evaluations",
        "games",
        "timing",
    }
    data.pop("timing")
    assert data == without_timing(result)
    assert data["players"] == ["greedy", "simple"] and data["objective"] == "skill"
    assert data["evaluations"] == 6
    assert data["games"] == 2 * 4 * result.timing["rule_sets_played"] + 40 * len(
        {json.dumps(row["values"]) for row in result.final}
    )


def test_cli_text_says_what_it_found_and_whether_it_keeps_the_start(real):
    result, _ = real
    args = ["tune-rules", "greedy", "simple", "--objective", "skill", "--vary", "knock_limit=8..10", "--vary"]
    args += ["big_gin", "--budget", "6", "--games", "8", "--final", "40", "--seed", "2", "--workers", "1", "--quiet"]
    outcome = CliRunner().invoke(main, args)
    assert outcome.exit_code == 0, outcome.output
    lines = outcome.output.strip().splitlines()
    assert result.verdict in lines
    assert any("paired difference" in line and "p = " in line for line in lines)
    assert lines[-1].startswith("rules: ")


def test_the_python_api_is_exported():
    assert simgin.tune_rules is tune_rules


def test_rules_and_set_are_the_start_and_the_varied_switches_go_on_top():
    args = ["tune-rules", "simple", "--objective", "balance", "--rules", "eaai", "--set", "gin_bonus=30"]
    args += ["--vary", "shutout", "--vary", "undercut_bonus=10..30", "--budget", "2", "--games", "4", "--final", "8"]
    outcome = CliRunner().invoke(main, [*args, "--workers", "1", "--json"])
    assert outcome.exit_code == 0, outcome.output
    data = json.loads(outcome.stdout)
    assert data["start_rules"] == {"shutout": "none", "undercut_bonus": 25}


@pytest.mark.slow  # runs each example command as written: .ci/run runs it with the slow tests
def test_help_examples_run_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    help_text = CliRunner().invoke(main, ["tune-rules", "--help"]).output
    lines = iter(help_text.splitlines())
    examples = []
    for line in lines:
        text = line.strip()
        if text.startswith("simgin "):
            while text.endswith("\\"):
                text = text[:-1] + " " + next(lines).strip()
            examples.append(shlex.split(text)[1:])
    assert examples and examples[0][0] == "tune-rules"
    for example in examples:
        outcome = CliRunner().invoke(main, example)
        assert outcome.exit_code == 0, f"{shlex.join(example)}: {outcome.output}"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--vary", "bogus=1..2"], "--vary 'bogus=1..2': unknown rule switch 'bogus': choose from knock_limit, "),
        (
            ["--rules", "oklahoma", "--vary", "knock_limit=5..10"],
            "--vary knock_limit=5..10: the switch has no effect here: V9: under Oklahoma the up card sets the knock",
        ),
        (
            ["--rules", "straight", "--vary", "undercut_bonus=0..20"],
            "--vary undercut_bonus=0..20: the switch has no effect here: R18/R19/V1: with knock_limit=0 only gin",
        ),
        (
            ["--set", "shutout=double", "--vary", "shutout_bonus=100..300"],
            "the switch has no effect here: R21/V8: shutout=double, so no shutout bonus is paid",
        ),
        (
            ["--objective", "balance", "--hands", "20", "--vary", "target=50..150"],
            "--vary target=50..150: the switch has no effect here: R20-R23: hands are played one by one",
        ),
        (["--vary", "oklahoma_extra_boxes"], "no effect here: V9: a sub-variant of Oklahoma, and oklahoma is off"),
        (["--vary", "knock_limit=8..5"], "--vary 'knock_limit=8..5': the range is inverted (LOW 8 > HIGH 5)"),
        (["--vary", "knock_limit=5..5"], "--vary 'knock_limit=5..5': the range holds one value, 5: nothing to vary"),
        (["--vary", "knock_limit=5.."], "--vary 'knock_limit=5..': LOW and HIGH must be whole numbers"),
        (["--vary", "knock_limit=0..11"], "--vary 'knock_limit=0..11': rules.knock_limit=11: must be 0-10"),
        (["--vary", "knock_limit="], "--vary 'knock_limit=': no values after '='"),
        (["--vary", "knock_limit"], "knock_limit is a whole-number switch: give a range or values"),
        (["--vary", "big_gin=0..1"], "big_gin is a true/false switch, not a number"),
        (["--vary", "shutout=bonus"], "--vary 'shutout=bonus': one value, bonus: give at least two to vary"),
        (["--vary", "shutout=bonus,triple"], "rules.shutout='triple': choose from bonus, double, none"),
        (["--vary", "big_gin=true,maybe"], "rules.big_gin='maybe': must be true or false"),
        (["--vary", "knock_limit=5..10", "--vary", "knock_limit=1..3"], "--vary names 'knock_limit' twice"),
        (
            ["--vary", "oklahoma", "--vary", "eleven_card_start"],
            "cannot be played: rules.oklahoma=True needs an up card",
        ),
        (["--objective", "bogus"], "unknown --objective 'bogus': choose from skill, balance, length=N"),
        (["--objective", "length"], "length needs a target number of hands per game >= 1, e.g. length=8"),
        (["--objective", "length=x"], "--objective 'length=x': length needs a target"),
        (["--objective", "length=8", "--hands", "20"], "--objective length=8 measures hands per game"),
        (["--keep", "bogus<=1"], "unknown --keep metric 'bogus' in 'bogus<=1': choose from win_rate, "),
        (["--keep", "dead_rate=0.05"], "unknown --keep operator '=' in 'dead_rate=0.05': choose from <=, >=, <, >"),
        (["--keep", "dead_rate!=0.05"], "unknown --keep operator '!='"),
        (["--keep", "dead_rate"], "bad --keep 'dead_rate': expected METRIC OP NUMBER"),
        (["--keep", "dead_rate<=lots"], "the bound 'lots' must be a finite number"),
        (["--hands", "20", "--keep", "hands_per_game<=8"], "--keep hands_per_game<=8: hands_per_game is a game metric"),
        (["--budget", "0"], "--budget 0: must be at least 1 trial"),
        (["--games", "7"], "--games 7: must be an even number >= 2"),
        (["--final", "3"], "--final 3: must be an even number >= 2"),
        (["--games", "8", "--hands", "8"], "give --games or --hands, not both"),
        (["--workers", "0"], "--workers 0: must be between 1 and"),
        # Where the trials run is declared and checked as for every command (issue 33): --scheduler too.
        (["--scheduler", "tcp://127.0.0.1:1"], "--scheduler needs --backend dask"),
    ],
)
def test_bad_input_is_a_one_line_error(args, message):
    base = ["tune-rules", "simple", "random"]
    if "--objective" not in args:
        base += ["--objective", "skill"]
    if "--vary" not in args:
        base += ["--vary", "knock_limit=5..10"]
    outcome = CliRunner().invoke(main, [*base, *args, "--quiet"])
    assert outcome.exit_code == 1, outcome.output
    assert outcome.output.startswith("Error: ")
    assert outcome.output.count("\n") == 1, outcome.output
    assert message in outcome.output
    assert "Traceback" not in outcome.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["simple", "--objective", "skill", "--vary", "big_gin"],
            "--objective skill needs at least 2 players (the first-named against the others), got 1: simple",
        ),
        (["simple", "nobody", "--objective", "skill", "--vary", "big_gin"], "unknown strategy 'nobody'"),
        (["simple", "--objective", "balance"], "Missing option '--vary'"),
    ],
)
def test_bad_players_are_a_one_line_error(args, message):
    outcome = CliRunner().invoke(main, ["tune-rules", *args])
    assert outcome.exit_code != 0
    assert outcome.output.startswith("Error: ") and outcome.output.count("\n") == 1, outcome.output
    assert message in outcome.output


def test_ctrl_c_says_where_the_evaluations_are_kept(monkeypatch, tmp_path):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr("simgin.studies.tune_rules.tune_rules", interrupted)
    args = ["tune-rules", "simple", "--objective", "balance", "--vary", "big_gin", "--out", str(tmp_path)]
    outcome = CliRunner().invoke(main, args)
    assert outcome.exit_code == 1
    # As in tune (issue 25): nothing finished is nothing kept; otherwise the count of what is kept.
    assert outcome.output == f"Error: interrupted before any evaluation was finished: nothing is kept in {tmp_path}\n"
    (tmp_path / "evaluations").mkdir()
    for name in ("search-000.json", "search-001.json"):
        (tmp_path / "evaluations" / name).write_text("{}")
    outcome = CliRunner().invoke(main, args)
    assert outcome.output == (
        f"Error: interrupted; 2 finished evaluations are kept in {tmp_path}, rerun the same command to resume\n"
    )
    outcome = CliRunner().invoke(main, args[:-2])
    assert outcome.output == "Error: interrupted\n"


# -- pieces -----------------------------------------------------------------------------------------------


def test_parsers():
    assert parse_vary("big_gin").choices == (False, True)
    assert parse_vary("dealer_rotation=winner,loser").choices == ("winner", "loser")
    assert parse_vary("knock_limit=5,7,9").choices == (5, 7, 9)
    assert parse_objective("balance").target == 0.5 and parse_objective("skill").direction == "maximize"
    assert parse_keep("gin_rate > 0.1") == Keep("gin_rate", ">", 0.1)
    assert Keep("dead_rate", "<", 0.05).met(0.04) and not Keep("dead_rate", "<", 0.05).met(0.05)
    assert Keep("dead_rate", "<=", 0.05).violation(0.07) == pytest.approx(0.02)
    assert Keep("dead_rate", "<", 0.05).violation(0.05) > 0 >= Keep("dead_rate", "<=", 0.05).violation(0.05)


def _evaluation(sums, sizes, index=0):
    return RuleEvaluation("final", index, {}, 1, len(sums), {"m": list(sums)}, {"m": list(sizes)})


def test_the_distance_to_a_target_and_its_paired_difference():
    """|R - t| on both sides of the target: the score, its folded interval and the paired difference agree with
    stats.paired_difference of the distances' per-chunk contributions."""
    from simgin.statistics.stats import paired_difference

    rng = np.random.default_rng(0)
    sizes = rng.integers(5, 10, 40).astype(float)
    above = sizes * 0.6 + rng.normal(0, 0.5, 40)
    below = sizes * 0.45 + rng.normal(0, 0.5, 40)
    objective = SimpleNamespace(metric="m", target=0.5)
    found, start = _evaluation(below, sizes, 0), _evaluation(above, sizes, 1)
    score, low, high = objective_score(found, objective)
    assert score == pytest.approx(abs(below.sum() / sizes.sum() - 0.5))
    assert low <= score <= high
    d = score_difference(found, start, objective)
    assert d["difference"] == pytest.approx(abs(below.sum() / sizes.sum() - 0.5) - abs(above.sum() / sizes.sum() - 0.5))
    by_hand = paired_difference(-(below - 0.5 * sizes), above - 0.5 * sizes, sizes, sizes)
    assert d["p_value"] == pytest.approx(by_hand.p) and d["low"] == pytest.approx(by_hand.low)
    assert math.isfinite(d["p_value"]) and d["chunks"] == 40


# -- the report ---------------------------------------------------------------------------------------------


def test_result_json_holds_the_search_path_and_the_final_comparison(real):
    result, out = real
    data = load_result(out)
    assert data["kind"] == "tune-rules"
    assert [row["trial"] for row in data["trials"]] == list(range(TINY["budget"]))
    assert {row["candidate"] for row in data["final"]} == {"found", "start"}
    assert data["verdict"] == result.verdict


def test_report_draws_the_search_path_and_the_final_comparison(real, tmp_path):
    from simgin.reports.build import write_report

    result, out = real
    files = write_report(out, tmp_path / "report.html")
    html = (tmp_path / "report.html").read_text()
    assert "Search path" in html and "Final comparison" in html
    assert escape(result.verdict) in html or result.verdict in html
    names = {path.name for path in (tmp_path / "report_files").iterdir()}
    assert {"tune_rules_final.png", "tune_rules_search.svg", "tune_rules_trials.csv"} <= names
    assert files is not None


def test_report_captions_state_the_numbers(real):
    from simgin.reports import tune_rules as report

    result, out = real
    data = load_result(out)
    caption = report.final_caption(data)
    assert f"{100 * result.found_score:.1f}%" in caption and f"{100 * result.start_score:.1f}%" in caption
    assert "paired p = " in caption
    assert f"{len(result.trials)} trials" in report.search_caption(data)


@pytest.mark.parametrize("text", ["skill", "balance", "length=8", "length=7.5"])
def test_an_objective_is_named_as_the_user_wrote_it(text):
    assert parse_objective(text).text == text


def test_without_optuna_the_error_names_the_extra(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "optuna", None)
    outcome = CliRunner().invoke(main, ["tune-rules", "simple", "--objective", "balance", "--vary", "big_gin"])
    assert outcome.exit_code == 1
    assert outcome.output == ("Error: simgin tune-rules needs the optional extra: pip install 'simgin[tune-rules]'\n")


def test_the_help_lists_every_keep_metric():
    from simgin.cli.tune_rules import KEEP_METRICS
    from simgin.studies.tune_rules import METRICS

    assert tuple(METRICS) == KEEP_METRICS


def test_a_start_switch_without_effect_is_warned_about():
    args = ["tune-rules", "simple", "--objective", "balance", "--rules", "oklahoma", "--set", "knock_limit=5"]
    outcome = CliRunner().invoke(
        main, [*args, "--vary", "big_gin", "--budget", "1", "--games", "4", "--final", "4", "--workers", "1"]
    )
    assert outcome.exit_code == 0, outcome.output
    assert "Warning: knock_limit=5 has no effect here: V9" in outcome.stderr


def shutout_length(config, chunk):
    """Games last 3 hands with shutout=none and 4 otherwise; shutout_bonus matters only through shutout."""
    return _synthetic_tally(config, chunk, 3.0 + (config.rules.shutout != "none"), (chunk.seed,))


def test_rules_that_play_the_start_game_are_the_start():
    """The start (shutout=none, shutout_bonus=100) lies outside the searched space, but (none, 150) plays the same
    game (no shutout bonus under shutout=none): it is measured once, and the start's own values are kept."""
    result = tune_rules(
        ["simple"],
        "length=3",
        ["shutout=none,bonus", "shutout_bonus=150,200"],
        rules=Rules(shutout="none", shutout_bonus=100),
        budget=8,
        games=8,
        final=8,
        play_chunk=shutout_length,
        workers=1,
    )
    assert result.found_rules["shutout"] == "none" and result.found_rules["shutout_bonus"] != 100
    assert result.kept_start and result.rules == result.start_rules == {"shutout": "none", "shutout_bonus": 100}
    assert result.p_value == 1.0 and result.score == result.start_score
    assert [row["values"] for row in result.final] == [result.found_rules, result.start_rules]


def test_real_games_short_games_come_from_a_low_target():
    """target has a strong known effect on hands per game (about 10 at 100): asked for 3-hand games, the search
    lowers it, and the fresh deals confirm the gain."""
    result = tune_rules(["greedy"], "length=3", ["target=20..150"], budget=8, games=20, final=60, seed=1, workers=1)
    assert result.found_rules["target"] < 60
    assert not result.kept_start and result.rules == result.found_rules
    assert result.score < result.start_score and result.p_value < SIGNIFICANCE


@pytest.mark.slow
def test_same_result_on_dask(real):
    pytest.importorskip("distributed")
    result, _ = real
    assert without_timing(tune_rules(*REAL, workers=2, backend="dask", **TINY)) == without_timing(result)


@pytest.mark.slow
def test_same_result_on_a_running_dask_cluster(real):
    """``scheduler``: the trials go to a cluster that is already running (issue 33: tune-rules takes
    --scheduler as every other command that plays hands does), with the same result."""
    distributed = pytest.importorskip("distributed")
    result, _ = real
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = tune_rules(*REAL, workers=1, backend="dask", scheduler=cluster.scheduler_address, **TINY)
    assert without_timing(remote) == without_timing(result)


def test_an_edited_or_damaged_record_is_played_again_with_a_notice(real, tmp_path):
    """Issue 25, D3/D4/D5: a received directory's records are checked, never believed."""
    result, out = real
    copy = tmp_path / "copy"
    (copy / "evaluations").mkdir(parents=True)
    (copy / "tune-rules.json").write_text((out / "tune-rules.json").read_text())
    for file in (out / "evaluations").glob("*.json"):
        (copy / "evaluations" / file.name).write_text(file.read_text())
    edited = json.loads((copy / "evaluations" / "search-0001.json").read_text())
    edited["sums"] = {key: [x * 2 for x in values] for key, values in edited["sums"].items()}
    (copy / "evaluations" / "search-0001.json").write_text(json.dumps(edited))
    (copy / "evaluations" / "search-0002.json").write_text("[" * 100_000)
    typed = json.loads((copy / "evaluations" / "search-0003.json").read_text())
    typed["pairs"] = "many"
    typed["check"] = checksum(typed)
    (copy / "evaluations" / "search-0003.json").write_text(json.dumps(typed))
    notices: list[str] = []
    again = tune_rules(*REAL, workers=1, out=copy, notice=notices.append, **TINY)
    assert without_timing(again) == without_timing(result)
    assert any("search-0001.json was edited or is damaged" in line for line in notices)
    assert any("search-0002.json" in line and "nested" in line for line in notices)
    assert any("search-0003.json" in line and "pairs" in line for line in notices)

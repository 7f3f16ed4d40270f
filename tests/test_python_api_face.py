"""The Python API's edges (issue 32 item 17) and the package face (issue 33 item 4).

A misspelt keyword is refused by the function the caller called, naming it and what it takes; every function that
runs takes a preset name for ``rules``; a bare string is never taken for a list of players; ``dir(simgin)`` shows
the public names; ``SweepResult.to_json()`` is the command's ``--json``; the hand log names each hand's seed and kind.
"""

from __future__ import annotations

import json
import pydoc

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import simgin
from simgin.cli.main import main
from simgin.game.rules import Rules
from simgin.kernels.engine import HAND_FIELDS
from simgin.running import hand_log, runner
from simgin.running.keywords import RUN_OPTIONS
from simgin.studies import tune, tune_rules

# -- keywords ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("match", lambda **kw: simgin.match("simple", "random", hands=10, **kw)),
        ("tournament", lambda **kw: simgin.tournament(["simple", "random"], hands=10, **kw)),
        ("compare", lambda **kw: simgin.compare("simple", "random", **kw)),
        ("sweep", lambda **kw: simgin.sweep(["simple", "random"], ["knock_limit=8,10"], hands=10, **kw)),
        ("plan", lambda **kw: simgin.plan(["simple", "random"], 0.05, **kw)),
        ("run_match", lambda **kw: simgin.run_match("simple", "random", hands=10, **kw)),
        ("run_tournament", lambda **kw: simgin.run_tournament(["simple", "random"], hands=10, **kw)),
    ],
)
def test_a_misspelt_keyword_is_refused_by_the_function_called_naming_what_it_takes(name, call) -> None:
    """Issue 32 item 17: it surfaced as ``run_cells() got an unexpected keyword argument`` three calls down."""
    with pytest.raises(TypeError) as caught:
        call(wokers=1)
    message = str(caught.value)
    assert message.startswith(f"{name}() got an unexpected keyword argument 'wokers' (did you mean 'workers'?)")
    assert "run_cells" not in message
    taken = message.split("; it takes ")[1].split(", ")
    assert {"workers", "seed", "rules", "backend"} <= set(taken)
    assert ("players" in taken) == (name in ("tournament", "sweep", "plan", "run_tournament"))


def test_the_keywords_a_function_names_are_the_ones_it_takes() -> None:
    """Every keyword the message lists is accepted (the list is not a guess): a run of 10 hands with each run option
    that needs no setup given its default value."""
    defaults = {"backend": "local", "scheduler": None, "out": None, "hand_log": False, "progress": None}
    defaults |= {"programs": None, "notice": None}
    assert set(defaults) | {"workers"} == set(RUN_OPTIONS)
    result = simgin.match("simple", "random", hands=10, seed=1, workers=1, save=True, **defaults)
    assert result.to_json()["hands"] == 10


# -- rules by preset name, players as a list -------------------------------------------------------------------------


def test_tune_and_tune_rules_take_a_preset_name_as_every_run_function_does() -> None:
    """Issue 32 item 17: ``rules="eaai"`` raised AttributeError ('str' object has no attribute ...)."""
    settings = tune.plan("heuristic", ["simple"], rules="eaai", params=["knock"], budget=2)
    assert settings.rules == Rules.preset("eaai")
    found = tune_rules.plan(["simple", "random"], "skill", ["knock_limit=6..10"], rules="eaai", budget=2)
    assert found.rules == Rules.preset("eaai")
    with pytest.raises(tune.TuneError, match="unknown rules preset 'nonesuch'"):
        simgin.tune("heuristic", ["simple"], rules="nonesuch")
    with pytest.raises(tune_rules.TuneRulesError, match="unknown rules preset 'nonesuch'"):
        simgin.tune_rules(["simple", "random"], "skill", ["knock_limit=6..10"], rules="nonesuch")


def test_run_match_takes_a_preset_name() -> None:
    result = simgin.run_match("simple", "random", rules="eaai", hands=10, seed=1, workers=1)
    assert result.config.rules == Rules.preset("eaai")


@pytest.mark.parametrize(
    "call",
    [
        lambda: simgin.tournament("simple random", hands=10, workers=1),
        lambda: simgin.sweep("simple random", ["knock_limit=8,10"], hands=10, workers=1),
        lambda: simgin.plan("simple random", 0.05, workers=1),
        lambda: simgin.run_tournament("simple random", hands=10, workers=1),
    ],
    ids=["tournament", "sweep", "plan", "run_tournament"],
)
def test_a_string_of_players_is_refused_not_split_into_characters(call) -> None:
    """Issue 32 item 17: ``tournament("simple random")`` played the players 's', 'i', 'm'... A spec may hold spaces
    and commas (``exec:python3 bot.py``, ``heuristic:knock=7,safety=0.5``), so a string is refused, never split."""
    with pytest.raises(ValueError, match="list of player specs, got the single string 'simple random'"):
        call()


# -- the package face ------------------------------------------------------------------------------------------------


def test_dir_lists_the_public_names_and_hides_the_subpackages() -> None:
    """Issue 33 item 4: ``dir(simgin)`` listed none of match, sweep, tune..., but the subpackages game and kernels."""
    shown = dir(simgin)
    for name in simgin.__all__:
        assert name in shown, name
        assert getattr(simgin, name) is not None
    for group in ("game", "kernels", "players", "running", "statistics", "studies", "cli"):
        assert group not in shown
    assert simgin.game.melds.deadwood is simgin.deadwood  # still reachable as before
    with pytest.raises(AttributeError, match="no attribute 'nonesuch'"):
        simgin.nonesuch  # noqa: B018


def test_every_lazy_name_is_public_and_is_its_modules_function() -> None:
    """The face's one table of lazily loaded names: each is in ``__all__`` and is what its module defines."""
    import importlib

    assert set(simgin._LAZY) <= set(simgin.__all__)
    assert simgin.report is importlib.import_module("simgin.reports.build").write_report
    for name, place in simgin._LAZY.items():
        module, attribute = place.split(":")
        assert getattr(simgin, name) is getattr(importlib.import_module(module), attribute), name


def test_help_lists_the_commands_as_functions() -> None:
    text = pydoc.render_doc(simgin, renderer=pydoc.plaintext)
    functions = text.split("\nFUNCTIONS\n", 1)[1].split("\nDATA\n", 1)[0]
    for name in ("match", "tournament", "compare", "sweep", "plan", "tune", "tune_rules", "report", "replay"):
        assert f"\n    {name}(" in functions or f"\n    {name} = " in functions, name


def test_the_plugin_contract_is_public_at_the_top() -> None:
    from simgin.game import strategy
    from simgin.running import engine

    assert (simgin.Strategy, simgin.PlayerView, simgin.HandEnd, simgin.Parameter) == (
        strategy.Strategy,
        strategy.PlayerView,
        strategy.HandEnd,
        strategy.Parameter,
    )
    assert (simgin.play_games, simgin.play_hands) == (engine.play_games, engine.play_hands)


# -- one JSON for the function and the command -----------------------------------------------------------------------


def test_sweep_to_json_is_the_commands_json() -> None:
    """Issue 32 item 17: ``SweepResult.to_json()`` held the raw tallies and no table, unlike ``simgin sweep --json``."""
    args = ["simple", "random", "--grid", "knock_limit=8,10", "--games", "10", "--seed", "2", "--workers", "1"]
    printed = CliRunner().invoke(main, ["sweep", *args, "--json", "--quiet"])
    assert printed.exit_code == 0, printed.output
    result = simgin.sweep(["simple", "random"], ["knock_limit=8,10"], games=10, seed=2, workers=1)
    made = json.loads(json.dumps(result.to_json(), allow_nan=False))
    by_command = json.loads(printed.stdout)
    made.pop("timing"), by_command.pop("timing")
    assert made == by_command
    assert "table" in made and "tally" not in made["cells"][0]["pairings"][0]
    assert "tally" in result.result_data()["cells"][0]["pairings"][0]  # result.json keeps them for the report


# -- the hand log ----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["hands", "games"])
def test_every_logged_hand_replays_from_its_hand_seed_and_dealer(tmp_path, mode) -> None:
    """Issue 32 item 17: the hand log had no hand seed (a hand could not be played again) and ``kind`` as a number."""
    count = {"hands": 30} if mode == "hands" else {"games": 4}
    simgin.match("simple", "random", seed=3, workers=1, out=tmp_path, hand_log=True, **count)
    log = simgin.read_hand_log(tmp_path)
    assert list(log.columns) == list(hand_log.SCHEMA)
    assert set(log["kind"]) <= {"dead", "knock", "gin", "big_gin", "undercut"} and "knock" in set(log["kind"])
    # Independent hands replay at no score; a game's first hand at 0-0 (later ones need the game's scores).
    starts = log if mode == "hands" else log[log["unit"].diff().fillna(1) != 0]
    assert len(starts) >= 4
    for row in starts.head(6).itertuples():
        players = ("simple", "random") if row.leg == 0 else ("random", "simple")
        scores = None if mode == "hands" else (0, 0)
        hand = simgin.replay(*players, hand_seed=int(row.hand_seed), dealer=row.dealer, scores=scores)
        record = hand.to_json()["hand"]
        assert hand_log.KIND_NAMES[hand.record.kind] == row.kind
        for name in HAND_FIELDS:
            if name != "kind":
                assert record[name] == getattr(row, name), name


def test_a_log_of_the_older_format_is_read_and_played_again_on_resume(tmp_path) -> None:
    """Logs written before the hand seed (kind as its code) still read, kind named; a resume rewrites them."""
    config = runner.RunConfig(("simple", "random"), hands=400, seed=5, chunk_units=100)
    runner.run(config, workers=1, out=tmp_path, hand_log=True)
    now = simgin.read_hand_log(tmp_path)
    victim = sorted((tmp_path / "hands").glob("*.parquet"))[0]
    old = pd.read_parquet(victim).drop(columns="hand_seed")
    codes = {name: code for code, name in hand_log.KIND_NAMES.items()}
    old["kind"] = old["kind"].map(codes).astype("int64")
    old.to_parquet(victim, index=False)
    mixed = simgin.read_hand_log(tmp_path)
    assert mixed["kind"].tolist() == now["kind"].tolist()
    assert mixed["hand_seed"].isna().sum() == len(old)
    notices: list[str] = []
    resumed = runner.run(config, workers=1, out=tmp_path, hand_log=True, notice=notices.append)
    assert resumed.chunks_run == 1 and "older format" in notices[0]
    assert simgin.read_hand_log(tmp_path).equals(now)


def test_hand_seeds_of_a_game_are_the_engines() -> None:
    """The vectorised seeds are :func:`simgin.game.rng.derive` (the engine's ``derive(game_seed, 1 + deal)``)."""
    from simgin.game.rng import derive

    seeds = np.array([2**64 - 1, 7, 123456789], dtype=np.uint64)
    unit_of_row = np.array([0, 0, 0, 1, 2, 2])
    expected = [derive(2**64 - 1, 1), derive(2**64 - 1, 2), derive(2**64 - 1, 3), derive(7, 1)]
    expected += [derive(123456789, 1), derive(123456789, 2)]
    assert hand_log.hand_seeds(seeds, unit_of_row, games=True).tolist() == expected
    assert hand_log.hand_seeds(seeds, unit_of_row, games=False).tolist() == [int(seeds[u]) for u in unit_of_row]

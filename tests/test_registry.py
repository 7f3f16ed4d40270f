"""The strategy registry: specs with parameters, plug-ins, and one-line errors that list what exists."""

from __future__ import annotations

import importlib.metadata
import textwrap

import numpy as np
import pytest

from simgin.game.rules import Rules
from simgin.game.strategy import Parameter, Strategy
from simgin.kernels import parameters as slots
from simgin.kernels.bots import BOT_NAMES
from simgin.players import registry
from simgin.players.registry import BUILTIN_NAMES, resolve, split_spec
from simgin.running.engine import play_game_rows, play_hand_rows

PLUGIN_SOURCE = textwrap.dedent(
    '''
    """A test plug-in: discards the highest card it may."""

    class HighCard:
        """Discards its highest legal card, never takes, never knocks."""

        name = "highcard"

        def __init__(self, spare=0, label="x"):
            self.spare = spare
            self.label = label

        def start_hand(self, view, rng):
            pass

        def take_up_card(self, view, rng):
            return False

        def draw_from_pile(self, view, rng):
            return False

        def discard(self, view, rng):
            banned = view.drawn_card if view.drawn_from_pile else -1
            return max(card for card in view.hand if card != banned)

        def knock(self, view, rng):
            return False

        def big_gin(self, view, rng):
            return True

        def take_fiftieth(self, view, rng):
            return False


    class NotAStrategy:
        pass
    '''
)


@pytest.fixture
def plugin_file(tmp_path):
    path = tmp_path / "my_bots.py"
    path.write_text(PLUGIN_SOURCE, encoding="utf-8")
    return path


@pytest.fixture
def plugin_module(tmp_path, monkeypatch):
    (tmp_path / "plugin_pkg_for_tests.py").write_text(PLUGIN_SOURCE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return "plugin_pkg_for_tests"


# -- specs ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, target, params",
    [
        ("simple", "simple", {}),
        ("  heuristic:knock=7,safety=0.5 ", "heuristic", {"knock": "7", "safety": "0.5"}),
        ("pkg.mod:Bot", "pkg.mod:Bot", {}),
        ("pkg.mod:Bot:depth=3", "pkg.mod:Bot", {"depth": "3"}),
        ("bots/my.py:Bot:a=1, b = x", "bots/my.py:Bot", {"a": "1", "b": "x"}),
    ],
)
def test_split_spec_takes_parameters_after_the_last_colon(spec, target, params):
    assert split_spec(spec) == (target, params)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("", "empty strategy spec"),
        ("heuristic:", "gives no key=value"),
        ("heuristic:knock=", "bad parameter 'knock='"),
        ("heuristic:knock=7,knock=8", "given twice"),
        ("heuristic:=3", "bad parameter"),
    ],
)
def test_malformed_specs_are_one_line_errors(spec, message):
    with pytest.raises(ValueError, match=message) as error:
        resolve(spec)
    assert "\n" not in str(error.value)


def test_builtins_resolve_to_compiled_bots_with_their_defaults():
    for name in BUILTIN_NAMES:
        player = resolve(name)
        assert player.compiled and player.info.bot_id == BOT_NAMES.index(name)
        assert player.values == {p.name: float(p.default) for p in player.info.parameters}
        assert player.given == {}


def test_the_builtins_are_the_compiled_bots_as_their_modules_declare_them():
    """One list of names (kernels.bots.BOT_NAMES); each strategy module declares its bot, twin and parameters."""
    import importlib

    assert BUILTIN_NAMES == BOT_NAMES
    infos = registry.builtin_strategies()
    assert list(infos) == list(BOT_NAMES)
    for name, info in infos.items():
        module = importlib.import_module(f"simgin.strategies.{name}")
        assert name == module.BOT and info.bot_id == BOT_NAMES.index(module.BOT)
        assert info.parameters == tuple(module.PARAMETERS) and info.description == module.DESCRIPTION
        assert info.twin is module.TWIN
    twins = {name: info.twin.__name__ for name, info in infos.items() if info.twin is not None}
    assert twins == {"random": "RandomStrategy", "simple": "SimpleStrategy", "greedy": "GreedyStrategy"}


def test_a_strategy_module_that_names_another_bot_is_refused(monkeypatch):
    import simgin.strategies.greedy as greedy

    monkeypatch.setattr(greedy, "BOT", "simple")
    with pytest.raises(ValueError, match=r"simgin\.strategies\.greedy declares BOT = 'simple': it must be 'greedy'"):
        resolve("greedy")


def test_parameters_ride_in_the_name_and_land_in_their_kernel_slots():
    player = resolve("heuristic:knock=7,safety=0.5")
    assert player.given == {"knock": 7.0, "safety": 0.5}
    vector = player.vector()
    assert vector[slots.KNOCK] == 7.0 and vector[slots.SAFETY] == 0.5
    default = resolve("heuristic").vector()
    assert vector[slots.POTENTIAL] == default[slots.POTENTIAL]
    assert resolve("opponent:knock_bias=1").vector()[slots.KNOCK_BIAS] == 1.0


def test_every_builtin_parameter_has_a_slot_a_doc_and_an_allowed_default():
    for info in registry.builtin_strategies().values():
        assert info.description and "\n" not in info.description
        for parameter in info.parameters:
            assert parameter.name in slots.NAMES, f"{info.name}.{parameter.name} has no kernel slot"
            assert parameter.doc
            assert parameter.check(float(parameter.default)) == parameter.default
    assert len(slots.NAMES) <= slots.NAME_CAPACITY


#: The slot constants as they were written by hand before they were derived from ``NAMES``.
_HAND_SLOTS = dict(
    KNOCK=0, KNOCK_LATE=1, GIN_HOLD=2, GIN_STOCK=3, POTENTIAL=4, VALUE=5, SAFETY=6, DRAW_MARGIN=7, EVIDENCE=8,
    TAKE_SIGNAL=9, PASS_SIGNAL=10, DISCARD_SIGNAL=11, KNOCK_SAMPLES=12, RISK_SAMPLES=13, BUDGET=14, WIDTH=15,
    KNOCK_BIAS=16, PLAYOUT_KNOCK=17, OPPONENT_KNOCK=18, HAND_QUALITY=19, POTENTIAL_LATE=20, SAFETY_LATE=21,
    GIN_ONLY=22,
)  # fmt: skip
#: Slots added since, at the end of ``NAMES`` (issue 24: the learned discard score's weights, mcts's playouts;
#: issue 37: reach_gin, gin_outs, mcts's race, opponent's discard network, mcts's opponent_play, opponent's improve).
_ADDED_SLOTS = dict(
    REACH=23, GIN_POTENTIAL=24, GIN_POTENTIAL_LATE=25, GIN_SAFETY=26, GIN_SAFETY_LATE=27, GIN_DRAW_MARGIN=28,
    PLAYOUT_POLICY=29, REACH_GIN=30, GIN_OUTS=31, RACE=32, DISCARD_NETWORK=33, OPPONENT_PLAY=34, IMPROVE=35,
)  # fmt: skip


def test_parameter_slots_derive_from_their_names():
    """Each slot constant is a plain int, its name's position in NAMES, where the kernels read it before."""
    for name in slots.NAMES:
        constant = getattr(slots, name.upper())
        assert type(constant) is int and constant == slots.NAMES.index(name), name
    assert {name.upper(): slots.NAMES.index(name) for name in slots.NAMES} == {**_HAND_SLOTS, **_ADDED_SLOTS}
    assert len(set(slots.NAMES)) == len(slots.NAMES)
    assert type(slots.NAME_CAPACITY) is int and len(slots.NAMES) <= slots.NAME_CAPACITY
    assert slots.COMPANION == slots.NAME_CAPACITY and slots.PARAMETER_CAPACITY == 2 * slots.NAME_CAPACITY


def test_a_companion_vector_holds_the_default_vector_of_the_bot_it_names():
    """``mcts`` names ``opponent`` (its ``opponent_play``, issue 37): its vector's companion slots are
    ``opponent``'s defaults whatever ``mcts``'s own parameters; every other built-in's are zeros."""
    opponent = resolve("opponent").vector()
    for spec in ("mcts", "mcts:width=2,potential=3,opponent_play=0"):
        vector = resolve(spec).vector()
        assert vector.shape == (slots.PARAMETER_CAPACITY,)
        assert np.array_equal(vector[slots.COMPANION :], opponent[: slots.COMPANION])
    assert resolve("mcts:potential=3").vector()[slots.POTENTIAL] == 3.0
    assert resolve("mcts").vector()[slots.COMPANION + slots.POTENTIAL] == opponent[slots.POTENTIAL] != 3.0
    for name in ("random", "simple", "greedy", "heuristic", "opponent"):
        assert not resolve(name).vector()[slots.COMPANION :].any(), name


def test_unknown_name_lists_the_strategies_that_exist():
    with pytest.raises(ValueError) as error:
        resolve("greddy")
    message = str(error.value)
    assert message.startswith("unknown strategy 'greddy' (did you mean 'greedy'?): choose from random, simple, greedy")
    assert "module:Class" in message and "\n" not in message


def test_unknown_parameter_lists_the_parameters_that_exist():
    with pytest.raises(ValueError) as error:
        resolve("heuristic:knok=7")
    assert str(error.value) == (
        "unknown parameter 'knok' (did you mean 'knock'?) for strategy 'heuristic': choose from "
        + ", ".join(p.name for p in registry.builtin_strategies()["heuristic"].parameters)
    )
    with pytest.raises(ValueError, match="'simple': choose from none"):
        resolve("simple:depth=2")


@pytest.mark.parametrize(
    "spec, message",
    [
        ("heuristic:knock=eleven", "parameter knock=eleven of strategy 'heuristic': must be a number"),
        ("heuristic:knock=11", "must be between 0 and 10, got 11"),
        ("mcts:budget=2.5", "must be a whole number, got 2.5"),
        ("opponent:pass_signal=0", "must be between 0.01 and 1"),
    ],
)
def test_bad_parameter_values_say_what_is_allowed(spec, message):
    with pytest.raises(ValueError, match=message):
        resolve(spec)


def test_parameter_check_bounds():
    knock = Parameter("knock", 10, "doc", 0, 10, integer=True)
    assert knock.check(7.0) == 7.0
    with pytest.raises(ValueError, match="whole number"):
        knock.check(7.5)
    with pytest.raises(ValueError, match="between 0 and 10"):
        knock.check(-1)


# -- classes from modules and files --------------------------------------------------


def test_a_class_in_a_file_is_a_python_strategy_with_its_parameters(plugin_file):
    player = resolve(f"{plugin_file}:HighCard:spare=2,label=abc")
    assert not player.compiled and player.info.source == "file"
    assert player.info.description == "Discards its highest legal card, never takes, never knocks."
    bot = player.make()
    assert isinstance(bot, Strategy) and (bot.spare, bot.label) == (2, "abc")
    assert player.make() is not bot, "a fresh strategy for every hand or game"


def test_a_class_in_a_module(plugin_module):
    player = resolve(f"{plugin_module}:HighCard")
    assert player.info.source == "module" and player.make().spare == 0


def test_class_errors_are_one_line(plugin_file, plugin_module):
    cases = [
        (f"{plugin_file}:Missing", "has no 'Missing': it defines HighCard, NotAStrategy"),
        (f"{plugin_file.parent / 'absent.py'}:HighCard", "not found"),
        ("no_such_module_for_simgin_tests:Bot", "failed to import: ModuleNotFoundError"),
        (f"{plugin_module}:HighCard:depth=3", "unknown parameter 'depth' for strategy .*: choose from spare, label"),
    ]
    for spec, message in cases:
        with pytest.raises(ValueError, match=message) as error:
            resolve(spec)
        assert "\n" not in str(error.value)
    with pytest.raises(ValueError, match=r"has no start_hand\(\) method"):
        resolve(f"{plugin_module}:NotAStrategy").make()


def test_a_python_class_plays_in_both_row_apis(plugin_file):
    """A Python strategy runs in the reference engine, the same rows for the same seeds."""
    spec = f"{plugin_file}:HighCard"
    seeds = np.array([11, 12, 13], dtype=np.uint64)
    rows = play_hand_rows((spec, "simple"), Rules(), seeds, np.array([0, 1, 0]))
    assert rows.shape == (3, 17)
    assert np.array_equal(rows, play_hand_rows((spec, "simple"), Rules(), seeds, np.array([0, 1, 0])))
    games, _, counts = play_game_rows(("simple", spec), Rules.preset("eaai"), seeds[:2])
    assert games.shape == (2, 13) and counts.min() >= 1
    assert set(games[:, 1]) == {0}, "simple beats a bot that never knocks and throws its high cards"


# -- entry points -------------------------------------------------------------------


def _fake_entry_points(monkeypatch, entries):
    def entry_points(group=None):
        assert group == registry.ENTRY_POINT_GROUP
        return [importlib.metadata.EntryPoint(name, value, group) for name, value in entries]

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)


def test_plugins_come_from_the_entry_point_group(monkeypatch, plugin_module):
    _fake_entry_points(
        monkeypatch,
        [
            ("highcard", f"{plugin_module}:HighCard"),
            ("simple", f"{plugin_module}:HighCard"),  # a built-in name: the built-in wins
            ("broken", "no_such_module_for_simgin_tests:Bot"),
        ],
    )
    player = resolve("highcard:spare=1")
    assert player.info.source == f"entry point {plugin_module}:HighCard" and player.make().spare == 1
    assert resolve("simple").compiled
    names = [info.name for info in registry.available()]
    assert names == [*BUILTIN_NAMES, "highcard", "broken"]
    broken = registry.plugin_strategies()["broken"]
    assert "could not be loaded: ModuleNotFoundError" in broken.description
    with pytest.raises(ValueError, match=r"'broken' .*could not be loaded"):
        resolve("broken")
    with pytest.raises(ValueError, match=r"choose from random, .*, mcts, highcard, broken, or give"):
        resolve("nothing")

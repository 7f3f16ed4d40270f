"""Hostile input and misbehaving strategies: bounds, one-line errors, strategies that print, exit or raise
KeyboardInterrupt, NaN parameters, and the smaller points (issue 16, points 2, 4, 7 and 8)."""

from __future__ import annotations

import json
import math
import textwrap

import pytest
from click.testing import CliRunner

from simgin.cli.main import main
from simgin.game.strategy import Parameter
from simgin.players.programs import ProgramSettings
from simgin.players.registry import absolute_spec, resolve
from simgin.running import runner


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def one_error_line(result) -> str:
    """Exactly one line, starting with 'Error:', exit status 1 and no traceback: the README's promise."""
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0]


# -- 2 and 4: bounds before anything is allocated --------------------------------------------------------------

HUGE = "999999999999999999999"


@pytest.mark.parametrize(
    "args",
    [
        ("match", "simple", "random", "--hands", "10", "--workers", HUGE),
        ("match", "simple", "random", "--hands", "10", "--backend", "dask", "--workers", "99999999999999999999"),
        ("tournament", "simple", "random", "--hands", "10", "--workers", HUGE),
        ("compare", "simple", "random", "--workers", HUGE),
        ("sweep", "simple", "random", "--grid", "knock_limit=9..10", "--workers", HUGE),
        ("match", "simple", "random", "--hands", "10", "--workers", "0"),
    ],
)
def test_workers_are_bounded_with_the_allowed_range(args):
    """Issue 16.2/16.4: a huge --workers was an OverflowError, or a LocalCluster eating 2.9 GB in 15 s."""
    line = one_error_line(invoke(*args))
    workers = args[args.index("--workers") + 1]
    assert f"--workers {workers}: must be between 1 and {runner.max_local_workers()}" in line


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ("--hands", "100000000000000000000000"),
            "--hands 100000000000000000000000: must be between 1 and 1,000,000,000,000",
        ),
        (("--games", "100000000000000000000"), "--games 100000000000000000000: must be between 1 and 100,000,000,000"),
        (("--hands", "10", "--seed", str(2**64)), f"--seed {2**64}: must be between 0 and"),
        (("--hands", "10", "--seed", "-1"), "--seed -1: must be between 0 and"),
    ],
)
def test_counts_and_seeds_are_bounded(args, expected):
    """Issue 16.2: '--workers 1 --hands 1e23' printed nothing while memory grew by 8 MB/s."""
    assert expected in one_error_line(invoke("match", "simple", "random", "--workers", "1", *args))


@pytest.mark.parametrize("value", ["1e9", "86401", "inf", "nan", "0", "-1"])
def test_the_decision_timeout_is_bounded_at_the_option(value):
    """Issue 25 D13: --decision-timeout 1e9 was accepted, then failed as an OverflowError blamed on the strategy."""
    line = one_error_line(invoke("match", "simple", "random", "--hands", "2", "--decision-timeout", value))
    assert "--decision-timeout" in line and "86400" in line
    with pytest.raises(ValueError, match="at most 86400"):
        ProgramSettings(decision_timeout=float(value))
    assert ProgramSettings(decision_timeout=86400).decision_timeout == 86400


def test_compare_and_sweep_bounds():
    assert "--max-games" in one_error_line(invoke("compare", "simple", "random", "--max-games", HUGE))
    assert "--batch 0" in one_error_line(invoke("compare", "simple", "random", "--batch", "0"))
    line = one_error_line(invoke("sweep", "simple", "random", "--grid", "knock_limit=0..99999999999999999"))
    assert "at most 1000" in line


def test_the_runner_bounds_its_settings_too():
    with pytest.raises(ValueError, match="between 1 and 1,000,000,000,000"):
        runner.RunConfig(("simple", "random"), hands=10**23)
    with pytest.raises(ValueError, match="workers=99: must be between 1 and"):
        runner.run(runner.RunConfig(("simple", "random"), hands=2), workers=99)


@pytest.mark.parametrize(
    ("scheduler", "message"),
    [
        ("tls://127.0.0.1:1", "a tls:// scheduler needs Dask's TLS settings"),
        ("nonsense", "expected a Dask scheduler address tcp://HOST:PORT"),
        ("tcp://127.0.0.1", "expected a Dask scheduler address"),
        ("udp://127.0.0.1:8786", "expected a Dask scheduler address"),
    ],
)
def test_bad_scheduler_addresses_are_one_line_errors(scheduler, message):
    """Issue 16.4: --scheduler tls://... was a TypeError traceback."""
    args = ("match", "simple", "random", "--hands", "10", "--backend", "dask", "--scheduler", scheduler)
    assert message in one_error_line(invoke(*args))


# -- 8. click's own usage errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("match", "simple", "random", "--bogus"), "No such option '--bogus'"),
        (("match", "simple", "random", "--hands", "ten"), "'ten' is not a valid integer"),
        (("replay", "simple", "random", "--dealer", "2"), "--dealer"),
        (("nosuchcommand",), "No such command 'nosuchcommand'"),
        (("match", "simple", "random", "--backend", "cloud"), "'cloud' is not one of 'local', 'dask'"),
        (("deadwood",), "Missing argument 'CARDS'"),
    ],
)
def test_clicks_usage_errors_are_one_error_line_with_status_1(args, fragment):
    """Issue 16.8: click's usage errors exited 2 with three lines; the README promises one Error: line and status 1."""
    line = one_error_line(invoke(*args))
    assert fragment in line
    assert "-h')" in line  # where to read more, on the same line


def test_help_and_version_still_exit_0():
    assert invoke("--version").exit_code == 0
    result = invoke("match", "-h")
    assert result.exit_code == 0 and "Usage:" in result.output


# -- 7. strategies that misbehave ----------------------------------------------------------------------------------

BOT = '''
class Bot:
    """Takes nothing, discards its first legal card, knocks when it may."""

    name = "bot"

    def __init__(self, depth=0):
        {init}

    def start_hand(self, view, rng):
        {start}

    def take_up_card(self, view, rng):
        return False

    def draw_from_pile(self, view, rng):
        return False

    def discard(self, view, rng):
        {discard}
        return view.hand[0] if view.hand[0] != view.drawn_card or not view.drawn_from_pile else view.hand[1]

    def knock(self, view, rng):
        return True

    def big_gin(self, view, rng):
        return True

    def take_fiftieth(self, view, rng):
        return True
'''


def write_bot(folder, name="bot.py", top="", init="pass", start="pass", discard="pass"):
    path = folder / name
    body = BOT.format(init=init, start=start, discard=discard)
    path.write_text(textwrap.dedent(top) + body)
    return path


def play(*args: str):
    return invoke("match", *args, "--hands", "4", "--workers", "1", "--quiet")


def test_a_strategy_that_prints_does_not_break_json(tmp_path):
    """Issue 16.7: a strategy's print went to stdout and broke --json."""
    bot = write_bot(tmp_path, top="print('importing')\n", init="print('built')", discard="print('my move')")
    result = play(f"{bot}:Bot", "simple", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["hands"] == 4
    assert "my move" in result.stderr and "built" in result.stderr and "importing" in result.stderr


@pytest.mark.parametrize(
    ("place", "code", "expected"),
    [
        ("discard", "import sys; sys.exit(3)", "failed at its 'discard' decision: SystemExit: it called sys.exit(3)"),
        ("start", "raise KeyboardInterrupt", "failed at its 'start_hand' decision: KeyboardInterrupt"),
        ("init", "raise SystemExit(4)", "failed in its constructor: SystemExit: it called sys.exit(4)"),
        ("init", "raise KeyboardInterrupt('no')", "failed in its constructor: KeyboardInterrupt: no"),
        ("init", "int('x' + str(depth))", "failed in its constructor: ValueError: invalid literal"),
        ("top", "import sys; sys.exit(5)", "failed to import: SystemExit: it called sys.exit(5)"),
        ("top", "raise KeyboardInterrupt", "failed to import: KeyboardInterrupt"),
        # Issue 25 D9: BaseExceptions other than SystemExit and KeyboardInterrupt gave a traceback.
        ("discard", "raise GeneratorExit", "failed at its 'discard' decision: GeneratorExit"),
        ("start", "raise type('Odd', (BaseException,), {})('odd')", "failed at its 'start_hand' decision: Odd: odd"),
        ("init", "raise GeneratorExit('bye')", "failed in its constructor: GeneratorExit: bye"),
        ("top", "raise GeneratorExit", "failed to import: GeneratorExit"),
        # Issue 25 D10: an exception that cannot be printed gave 'Error: str failed', naming no strategy or hand.
        (
            "discard",
            "raise type('E', (Exception,), {'__str__': lambda self: 1 / 0})()",
            "failed at its 'discard' decision: E: <unprintable>",
        ),
        (
            "start",
            "raise type('E', (Exception,), {'__str__': lambda self: __import__('sys').exit(2)})()",
            "failed at its 'start_hand' decision: E: <unprintable>",
        ),
        (
            "discard",
            "import sys; sys.exit(type('C', (), {'__repr__': lambda self: 1 / 0})())",
            "failed at its 'discard' decision: SystemExit: it called sys.exit(<unprintable>)",
        ),
        (
            "discard",
            "return type('X', (), {'__repr__': lambda self: 1 / 0})()",
            "made an illegal 'discard' decision: answered <unprintable X>, which is not a card",
        ),
        (
            "init",
            "raise type('E', (TypeError,), {'__str__': lambda self: 1 / 0})()",
            "could not be built with {}: E: <unprintable>",
        ),
    ],
)
def test_exits_and_interrupts_raised_by_a_strategy_are_errors_naming_it(tmp_path, place, code, expected):
    """Issue 16.7: sys.exit in a strategy (or at import) ended the run with code 3 or 4 and no message, and its own
    KeyboardInterrupt read as 'interrupted'; errors in __init__ did not name the strategy."""
    bot = write_bot(tmp_path, **{place: code + "\n" if place == "top" else code})
    spec = f"{bot}:Bot"
    line = one_error_line(play(spec, "simple"))
    assert expected in line
    assert (str(bot) if place == "top" else spec) in line
    assert "interrupted" not in line
    if place in ("start", "discard"):
        assert "(seat 0)" in line and "hand seed" in line


@pytest.mark.parametrize(
    "spec",
    [
        "os:system:command=touch {marker}",
        "subprocess:run:args=touch {marker}",
        "builtins:eval:source=__import__('os').mkdir('{marker}')",
    ],
)
def test_a_spec_naming_a_function_is_refused_before_anything_is_called(tmp_path, spec):
    """Issue 25 D18: 'module:callable' called the callable before checking that it was a strategy class, so
    'os:system:command=...' ran a shell command. Nothing is called now; the line says what the name is."""
    marker = tmp_path / "ran"
    spec = spec.format(marker=marker)
    line = one_error_line(play(spec, "simple"))
    assert "not a strategy class" in line and spec.rsplit(":", 1)[0] in line
    assert not marker.exists()
    with pytest.raises(ValueError, match="not a strategy class"):
        resolve(spec)


def test_a_class_that_is_not_a_strategy_is_refused_before_it_is_built(tmp_path):
    """The same check for classes: one without the decision methods is refused before its constructor runs,
    for module and file specs alike."""
    marker = tmp_path / "built"
    (tmp_path / "not_a_bot.py").write_text(
        f"class Thing:\n    def __init__(self):\n        open({str(marker)!r}, 'w')\n"
    )
    line = one_error_line(play(f"{tmp_path / 'not_a_bot.py'}:Thing", "simple"))
    assert "has no start_hand() method" in line and not marker.exists()
    line = one_error_line(play("subprocess:Popen:args=true", "simple"))
    assert "'subprocess:Popen' (module) has no start_hand() method" in line


def test_describe_never_fails():
    """Issue 25 D10: guard.describe is how every foreign error reaches a message; it must not raise itself."""
    from simgin.base import guard

    def broken(self):
        raise SystemExit(1)

    unprintable = type("Unprintable", (Exception,), {"__str__": broken})()
    assert guard.describe(unprintable) == "Unprintable: <unprintable>"
    assert guard.describe(type("Odd", (Exception,), {"__str__": lambda self: 3})()) == "Odd: <unprintable>"
    assert guard.describe(SystemExit(type("C", (), {"__repr__": broken})())) == (
        "SystemExit: it called sys.exit(<unprintable>)"
    )
    assert guard.describe(GeneratorExit()) == "GeneratorExit"
    assert guard.describe(ValueError("two\nlines")) == "ValueError: two lines"
    assert guard.safe_repr(type("R", (), {"__repr__": broken})()) == "<unprintable R>"
    with pytest.raises(guard.ForeignFailure, match=r"^GeneratorExit: bye$"):
        guard.call_foreign(lambda: (_ for _ in ()).throw(GeneratorExit("bye")))


def test_a_real_ctrl_c_is_still_an_interrupt_inside_a_strategy(monkeypatch, ctrl_c_raises):
    """The other side of the KeyboardInterrupt rule: a SIGINT that lands while a strategy decides is Ctrl-C."""
    import os
    import signal

    from simgin.base import guard

    def decide():
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(10_000_000):  # the handler runs between bytecodes
            pass

    with guard.counting_interrupts(), pytest.raises(KeyboardInterrupt):
        guard.call_foreign(decide)
    with pytest.raises(guard.ForeignFailure, match="KeyboardInterrupt"), guard.counting_interrupts():
        guard.call_foreign(lambda: (_ for _ in ()).throw(KeyboardInterrupt))


@pytest.mark.parametrize("spec", ["heuristic:knock=nan", "heuristic:safety=nan", "opponent:safety=inf"])
def test_nan_and_infinite_parameters_are_refused(spec):
    """Issue 16.7: heuristic:knock=nan passed the range check and was played (0% wins)."""
    with pytest.raises(ValueError, match="must be a finite number"):
        resolve(spec)
    assert "must be a finite number" in one_error_line(play(spec, "simple"))
    with pytest.raises(ValueError, match="finite"):
        Parameter("x", 1.0, "doc").check(math.nan)


def test_plugin_parameters_refuse_nan_and_strategies_json_is_strict(tmp_path, monkeypatch):
    bot = write_bot(tmp_path)
    with pytest.raises(ValueError, match=r"parameter depth=nan .* must be a finite number"):
        resolve(f"{bot}:Bot:depth=nan")
    import simgin.players.registry as registry

    original = registry.available

    def with_a_nan_default():
        infos = original()
        odd = registry.StrategyInfo("odd", "NaN default", "python", (Parameter("p", math.nan, "doc"),), "test")
        return [*infos, odd]

    monkeypatch.setattr(registry, "available", with_a_nan_default)
    result = invoke("strategies", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout, parse_constant=lambda name: pytest.fail(f"{name} in strategies --json"))
    assert data["strategies"][-1]["parameters"][0]["default"] is None


def test_a_strategy_file_imports_a_module_beside_it(tmp_path):
    """Issue 16.8: a strategy file could not import a module beside it."""
    (tmp_path / "helper_16_beside.py").write_text("def first(hand):\n    return hand[0]\n")
    bot = write_bot(tmp_path, top="import helper_16_beside\n")
    result = play(f"{bot}:Bot", "simple", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["hands"] == 4


def test_a_relative_strategy_path_becomes_absolute_for_workers(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert absolute_spec("bots/x.py:Bot:depth=3") == f"{tmp_path}/bots/x.py:Bot:depth=3"
    assert absolute_spec("x.py:Bot") == f"{tmp_path}/x.py:Bot"
    assert absolute_spec("mypkg.bots:Bot") == "mypkg.bots:Bot"
    assert absolute_spec("heuristic:knock=7") == "heuristic:knock=7"


# -- 8. smaller points ---------------------------------------------------------------------------------------------


def test_replay_refuses_a_negative_hand_and_mixed_options():
    """Issue 16.8: 'replay --hand -1' reported 'hands=0'; --hand and --seed were ignored beside --hand-seed."""
    assert "--hand -1: must be between 0 and" in one_error_line(
        invoke("replay", "simple", "random", "--seed", "1", "--hand", "-1")
    )
    line = one_error_line(invoke("replay", "simple", "random", "--seed", "1", "--hand", "3", "--hand-seed", "5"))
    assert "--hand-seed" in line and "--seed and --hand" in line
    assert "--hand-seed -5" in one_error_line(invoke("replay", "simple", "random", "--hand-seed", "-5"))
    assert invoke("replay", "simple", "random", "--hand-seed", "5").exit_code == 0


def test_rules_with_an_empty_preset_is_refused_like_the_option():
    """Issue 16.8: 'rules ""' was accepted where '--rules ""' is refused."""
    argument = one_error_line(invoke("rules", ""))
    option = one_error_line(invoke("match", "simple", "random", "--rules", ""))
    assert "unknown rules preset ''" in argument and "unknown rules preset ''" in option


def test_capped_games_are_shown_as_undecided():
    """Issue 16.8: a capped game showed as both players winning 0.0% in the text summary.

    Random players under straight gin (V1) almost never end a hand, so no game reaches a target of
    10,000 (the largest a points switch may be, issue 25 D14) within the cap of 1,000 deals."""
    result = invoke(
        "match", "random", "random", "--games", "2", "--set", "knock_limit=0", "--set", "target=10000", "--workers", "1"
    )
    assert result.exit_code == 0, result.output
    assert "wins 0.0% of games" in result.output
    assert "undecided: 100.0% of games (2) reached the cap of 1,000 deals" in result.output
    plain = invoke("match", "simple", "random", "--games", "2", "--workers", "1")
    assert "undecided" not in plain.output


# -- 6. Ctrl-C without --out ----------------------------------------------------------------------------------


def interrupt_after(monkeypatch, finished: int) -> None:
    """Ctrl-C in the wait for chunk ``finished + 1``: the runner's execute yields ``finished`` chunks, then raises."""
    real = runner.execute

    def execute(*args, **kwargs):
        results = real(*args, **kwargs)
        try:
            for _ in range(finished):
                yield next(results)
            raise KeyboardInterrupt
        finally:
            results.close()

    monkeypatch.setattr(runner, "execute", execute)


def test_ctrl_c_without_out_prints_the_partial_result_marked_partial(monkeypatch):
    """Issue 16.6: Ctrl-C without --out threw away the finished games with only 'Error: interrupted'."""
    interrupt_after(monkeypatch, 2)
    args = ("match", "simple", "random", "--games", "4000", "--workers", "1", "--quiet")
    text = invoke(*args)
    assert text.exit_code == 1
    assert text.stdout.startswith("PARTIAL RESULT (interrupted): 2,000 of 4,000 games per pairing, 2 of 4 chunks")
    assert "simple vs random:" in text.stdout and "2,000 games" in text.stdout
    assert text.stderr.strip().startswith("Error: interrupted: the result above is PARTIAL")
    assert "--out DIR" in text.stderr
    data = json.loads(invoke(*args, "--json").stdout)
    assert data["games"] == 2000
    assert data["partial"] == {
        "interrupted": True,
        "chunks_finished": 2,
        "chunks_planned": 4,
        "games": 2000,
        "games_planned": 4000,
    }


def test_ctrl_c_before_anything_finished_says_how_to_keep_work(monkeypatch, tmp_path):
    interrupt_after(monkeypatch, 0)
    result = invoke("tournament", "simple", "random", "--games", "40", "--workers", "1", "--quiet")
    line = one_error_line(result)
    assert "interrupted before any result was finished" in line and "--out DIR" in line
    # Issue 25: with --out and no chunk finished, it said "finished chunks are kept": there were none.
    out = tmp_path / "o"
    kept = invoke("match", "simple", "random", "--games", "40", "--workers", "1", "--out", str(out))
    assert one_error_line(kept) == (
        f"Error: interrupted before any chunk was finished: nothing is kept in {out}; "
        "rerun the same command to start again"
    )


def test_ctrl_c_with_out_says_how_many_finished_chunks_are_kept(monkeypatch, tmp_path):
    interrupt_after(monkeypatch, 2)
    out = tmp_path / "o"
    args = ("match", "simple", "random", "--games", "4000", "--workers", "1", "--quiet", "--out", str(out))
    assert one_error_line(invoke(*args)) == (
        f"Error: interrupted; 2 finished chunks are kept in {out}, rerun the same command to resume"
    )
    # Interrupted again before another chunk finishes: the two of the first session are still kept.
    interrupt_after(monkeypatch, 0)
    assert "2 finished chunks are kept" in one_error_line(invoke(*args))


def test_ctrl_c_in_compare_says_what_was_lost_and_how_to_keep_it(monkeypatch):
    """A sequential test cut short decides nothing, so compare prints no partial result, only what was lost."""
    interrupt_after(monkeypatch, 2)
    result = invoke("compare", "simple", "random", "--batch", "5", "--workers", "1", "--quiet", "--rules", "eaai")
    line = one_error_line(result)
    assert "interrupted; 2 finished chunks are lost, run with --out DIR to keep finished chunks" in line

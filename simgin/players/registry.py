"""Strategies by name: the built-in ladder, plug-ins, and specs with parameters.

A *spec* names a strategy and, after a last ``:``, its parameters as ``key=value`` pairs:

- a built-in: ``simple``, ``heuristic:knock=7,safety=0.5`` (``simgin strategies`` lists them);
- a plug-in registered by an installed package in the entry-point group
  ``simgin.strategies`` (``[project.entry-points."simgin.strategies"] mybot = "mypkg.bots:MyBot"``);
- a class in an importable module, ``mypkg.bots:MyBot``, or in a file,
  ``path/to/file.py:MyBot`` (parameters go to its constructor: ``mypkg.bots:MyBot:depth=3``);
- a program, ``exec:COMMAND``, speaking simgin's line protocol (docs/PROTOCOL.md,
  :mod:`simgin.players.programs`), or an EAAI Java player, ``eaai:CLASSPATH:CLASS``
  (:mod:`simgin.players.eaai`); the rest of such a spec is the program's, with no parameters.

Built-ins come in two kinds behind the same names: *compiled* bots run inside the numba
hand loop (a bot id plus a parameter vector, ``simgin.kernels.bots``); plain-Python ones
(plug-ins, classes) implement :class:`simgin.game.strategy.Strategy` and run in the Python
reference engine, where compiled bots join them through an adapter. An unknown name or
parameter is a one-line ``ValueError`` that lists what exists. A ``module:Class``, file or
plug-in spec must name a class with the decision methods (:func:`check_strategy_class`);
anything else is refused before it is called.

>>> player = resolve("heuristic:knock=7")
>>> player.compiled, player.given, player.values["knock"] == 7 and "safety" in player.values
(True, {'knock': 7.0}, True)
>>> resolve("greddy")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: unknown strategy 'greddy' (did you mean 'greedy'?): choose from random, simple, greedy, heuristic, ...
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import importlib
import importlib.metadata
import importlib.util
import inspect
import math
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simgin.base import guard
from simgin.game.strategy import Parameter, Strategy
from simgin.kernels.bots import BOT_NAMES

ENTRY_POINT_GROUP = "simgin.strategies"
#: The built-in ladder, weakest first: the compiled bots of ``kernels.bots``, each described by the module
#: of its name in ``strategies/`` (its ``BOT``, ``DESCRIPTION``, ``PARAMETERS`` and ``TWIN``, see :func:`_builtin`).
BUILTIN_NAMES = BOT_NAMES
KINDS = ("compiled", "python", "program")
#: Spec prefixes of strategies that are programs, and the module that resolves them.
PROGRAM_PREFIXES = {"exec:": "simgin.players.programs", "eaai:": "simgin.players.eaai"}


@dataclass(frozen=True)
class StrategyInfo:
    """One registered strategy: what ``simgin strategies`` lists."""

    name: str
    description: str
    """One line."""
    kind: str
    """``"compiled"`` (runs in the numba hand loop), ``"python"`` (runs in the reference engine) or
    ``"program"`` (another process, driven from the reference engine)."""
    parameters: tuple[Parameter, ...]
    source: str
    """``"built-in"``, ``"entry point ..."``, ``"module"`` or ``"file"``."""
    bot_id: int = -1
    """The ``kernels.bots`` id of a compiled bot."""
    factory: Callable[..., Any] | None = field(default=None, compare=False, repr=False)
    """Builds a fresh strategy from keyword parameters."""
    twin: type | None = field(default=None, compare=False, repr=False)
    """A plain-Python class that plays exactly as the compiled bot, if there is one."""
    searches: bool = False
    """A compiled bot that searches at every decision (``mcts``: a few hands a second): runs cut its chunks into
    parts for the workers, as for a program (``simgin.running.chunks.chunk_parts``)."""
    companion: str | None = None
    """The built-in whose default vector fills this compiled bot's companion slots (``kernels.parameters.COMPANION``):
    the bot it plays by where it does not search (``mcts``: ``opponent``)."""


@dataclass(frozen=True)
class Player:
    """A resolved spec: the strategy and its parameter values (defaults filled in)."""

    spec: str
    """The spec as given, e.g. ``'heuristic:knock=7'``; used in results and error messages."""
    info: StrategyInfo
    values: dict[str, Any]
    given: dict[str, Any]
    """Only the parameters the spec set."""

    @property
    def kind(self) -> str:
        return self.info.kind

    @property
    def compiled(self) -> bool:
        return self.info.kind == "compiled"

    @property
    def bot_id(self) -> int:
        return self.info.bot_id

    def vector(self) -> np.ndarray:
        """The parameter vector of a compiled bot (slots of ``kernels.parameters``)."""
        from simgin.players.compiled import parameter_vector

        vector = parameter_vector(self.info.parameters, self.values)
        if self.info.companion is not None:
            from simgin.kernels.parameters import COMPANION

            vector[COMPANION:] = resolve(self.info.companion).vector()[:COMPANION]
        return vector

    def make(self) -> Strategy:
        """A fresh strategy object (compiled bots come as their Python adapter)."""
        if self.compiled:
            from simgin.players.compiled import CompiledStrategy

            return CompiledStrategy(self.spec, self.info.bot_id, self.vector())
        assert self.info.factory is not None
        try:
            strategy = guard.call_foreign(self.info.factory, **self.given)
        except guard.ForeignFailure as failure:
            if isinstance(failure.error, TypeError):
                accepted = _constructor_parameters(self.info.factory)
                raise ValueError(
                    f"strategy {self.spec!r} could not be built with {self.given}: {guard.describe(failure.error)} "
                    f"(it accepts: {', '.join(accepted) or 'no parameters'})"
                ) from None
            raise ValueError(f"strategy {self.spec!r} failed in its constructor: {failure}") from None
        for method in DECISIONS:
            if not callable(getattr(strategy, method, None)):
                raise ValueError(f"strategy {self.spec!r} has no {method}() method (see simgin.game.strategy.Strategy)")
        return strategy


def _builtin(name: str) -> StrategyInfo:
    """A built-in as its module ``simgin.strategies.<name>`` declares it.

    The module names its compiled bot (``BOT``, a name of ``kernels.bots.BOT_NAMES``, which gives the
    bot id), says what it does in one line (``DESCRIPTION``), lists its parameters (``PARAMETERS``,
    each in its slot of ``kernels.parameters``) and gives its plain-Python twin, a class that plays
    exactly as the compiled bot, or None (``TWIN``); a bot that searches at every decision says so
    (``SEARCHES = True``), and one that plays by another built-in where it does not search names it
    (``COMPANION``, whose default vector fills its companion slots).
    """
    module = importlib.import_module(f"simgin.strategies.{name}")
    if name != module.BOT:
        raise ValueError(f"simgin.strategies.{name} declares BOT = {module.BOT!r}: it must be {name!r}")
    return StrategyInfo(
        name=name,
        description=module.DESCRIPTION,
        kind="compiled",
        parameters=tuple(module.PARAMETERS),
        source="built-in",
        bot_id=BOT_NAMES.index(module.BOT),
        twin=module.TWIN,
        searches=getattr(module, "SEARCHES", False),
        companion=getattr(module, "COMPANION", None),
    )


def builtin_strategies() -> dict[str, StrategyInfo]:
    """The built-in ladder, weakest first."""
    return {name: _builtin(name) for name in BUILTIN_NAMES}


def _first_line(text: str | None) -> str:
    lines = (text or "").strip().splitlines()
    return lines[0].strip() if lines else ""


#: The decisions every strategy class answers (:class:`simgin.game.strategy.Strategy`).
DECISIONS = ("start_hand", "take_up_card", "draw_from_pile", "discard", "knock", "big_gin", "take_fiftieth")


def check_strategy_class(name: str, target: Any, source: str) -> type:
    """``target`` if it is a class with every decision method of :class:`simgin.game.strategy.Strategy`, else a
    one-line ValueError; nothing of ``target`` is called to find out.

    The one check of every ``module:Class``, ``file.py:Class`` and entry-point plug-in before the registry
    builds it: calling whatever a spec names would run any function in any module (``os:system:command=...``).
    """
    if not inspect.isclass(target):
        raise ValueError(
            f"strategy {name!r} ({source}) is a {type(target).__name__}, not a strategy class "
            "(see simgin.game.strategy.Strategy)"
        )
    for method in DECISIONS:
        try:
            found = inspect.getattr_static(target, method)
        except AttributeError:
            found = None
        # A function, or any descriptor that may give one (staticmethod, classmethod, partialmethod).
        if not (callable(found) or hasattr(found, "__get__")):
            raise ValueError(
                f"strategy {name!r} ({source}) has no {method}() method (see simgin.game.strategy.Strategy)"
            )
    return target


def _python_info(name: str, target: Any, source: str) -> StrategyInfo:
    """A plain-Python strategy class as registry info (refused unless :func:`check_strategy_class` passes)."""
    check_strategy_class(name, target, source)
    description = getattr(target, "description", None) or _first_line(inspect.getdoc(target)) or "(no description)"
    parameters = tuple(getattr(target, "parameters", ()) or ())
    return StrategyInfo(
        name=name,
        description=_first_line(description),
        kind="python",
        parameters=parameters,
        source=source,
        factory=target,
    )


def entry_points() -> list[importlib.metadata.EntryPoint]:
    """The installed entry points of the group ``simgin.strategies``."""
    return list(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))


def _load_entry_point(entry: importlib.metadata.EntryPoint) -> StrategyInfo:
    source = f"entry point {entry.value}"
    try:
        target = guard.call_foreign(entry.load)
    except guard.ForeignFailure as failure:  # a broken plug-in must name itself, whatever it raised
        raise ValueError(f"strategy {entry.name!r} ({source}) could not be loaded: {failure}") from None
    return _python_info(entry.name, target, source)


def plugin_strategies() -> dict[str, StrategyInfo]:
    """Strategies of installed packages (entry-point group ``simgin.strategies``), by name.

    A plug-in with a built-in's name is ignored (the built-in wins). A plug-in that fails
    to load is listed with its error as description.
    """
    found: dict[str, StrategyInfo] = {}
    for entry in entry_points():
        if entry.name in BUILTIN_NAMES or entry.name in found:
            continue
        try:
            found[entry.name] = _load_entry_point(entry)
        except ValueError as error:
            found[entry.name] = StrategyInfo(entry.name, str(error), "python", (), f"entry point {entry.value}")
    return found


def available() -> list[StrategyInfo]:
    """Every strategy that a bare name can select: the built-ins, then the plug-ins."""
    return [*builtin_strategies().values(), *plugin_strategies().values()]


def _load_file(path_text: str) -> Any:
    """Import a strategy file once per process; while it runs, its folder is first on ``sys.path``, so
    it can import a module beside it, and what it prints goes to stderr."""
    path = Path(path_text).expanduser().resolve()
    if not path.is_file():
        raise ValueError(f"strategy file {path_text!r} not found")
    module_name = "simgin_user_" + hashlib.sha1(str(path).encode()).hexdigest()[:12]
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ValueError(f"strategy file {path_text!r} cannot be imported (is it a .py file?)")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    folder = str(path.parent)
    sys.path.insert(0, folder)
    try:
        guard.call_foreign(spec.loader.exec_module, module)
    except guard.ForeignFailure as failure:
        del sys.modules[module_name]
        raise ValueError(f"strategy file {path_text!r} failed to import: {failure}") from None
    finally:
        with contextlib.suppress(ValueError):
            sys.path.remove(folder)
    return module


def _load_class(target: str, class_name: str) -> StrategyInfo:
    if _is_file(target):
        module = _load_file(target)
        source = "file"
    else:
        try:
            module = guard.call_foreign(importlib.import_module, target)
        except guard.ForeignFailure as failure:
            raise ValueError(f"strategy module {target!r} failed to import: {failure}") from None
        source = "module"
    if not hasattr(module, class_name):
        names = sorted(n for n, obj in vars(module).items() if isinstance(obj, type) and not n.startswith("_"))
        hint = did_you_mean(class_name, names)
        raise ValueError(f"{target!r} has no {class_name!r}{hint}: it defines {', '.join(names) or 'no classes'}")
    return _python_info(f"{target}:{class_name}", getattr(module, class_name), source)


def split_specs(text: str) -> list[str]:
    """The strategy specs of a comma-separated list (``--team A,B``), where a spec's own parameters are
    comma-separated too: an item ``key=value`` (no ``:``) after a spec that has parameters is one more of them.

    >>> split_specs("opponent:knock=8,knock_late=5,simple")
    ['opponent:knock=8,knock_late=5', 'simple']
    >>> split_specs("simple, greedy")
    ['simple', 'greedy']
    """
    specs: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        takes_more = bool(specs) and "=" in specs[-1].rpartition(":")[2] and ":" in specs[-1]
        if takes_more and "=" in item and ":" not in item:
            specs[-1] = f"{specs[-1]},{item}"
        else:
            specs.append(item)
    return specs


def split_spec(spec: str) -> tuple[str, dict[str, str]]:
    """(target, parameters as text) of a spec; the parameters follow the last ``:`` when it holds ``=``.

    >>> split_spec("heuristic:knock=7,safety=0.5")
    ('heuristic', {'knock': '7', 'safety': '0.5'})
    >>> split_spec("bots/my.py:MyBot")
    ('bots/my.py:MyBot', {})
    """
    text = spec.strip()
    if not text:
        raise ValueError("empty strategy spec: give a name such as 'simple' (see 'simgin strategies')")
    head, sep, tail = text.rpartition(":")
    if not sep or "=" not in tail:
        if text.endswith(":"):
            raise ValueError(f"strategy spec {spec!r} ends with ':' but gives no key=value parameters")
        return text, {}
    params: dict[str, str] = {}
    for item in tail.split(","):
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise ValueError(f"bad parameter {item.strip()!r} in strategy spec {spec!r}: expected key=value")
        if key in params:
            raise ValueError(f"parameter {key!r} given twice in strategy spec {spec!r}")
        params[key] = value
    return head.strip(), params


def _number(text: str) -> float:
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return 1.0
    if lowered in ("false", "no", "off"):
        return 0.0
    return float(text)


def _literal(text: str) -> Any:
    """A plug-in parameter value: int, float, bool, or the text itself; NaN and infinities are refused."""
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            value = kind(text)
        except ValueError:
            continue
        if not math.isfinite(value):
            raise ValueError(f"must be a finite number, got {text}")
        return value
    return text


def _constructor_parameters(factory: Callable[..., Any]) -> list[str]:
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        return []
    return [name for name, p in signature.parameters.items() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def is_program(spec: str) -> bool:
    """Whether ``spec`` names a program (``exec:``, ``eaai:``): the rest of it is the program's own
    text, with colons, paths and ``=`` signs that are not simgin's to parse or rewrite.

    >>> is_program("exec:python3 bot.py --depth=3"), is_program("bots/my.py:MyBot")
    (True, False)
    """
    return spec.strip().startswith(tuple(PROGRAM_PREFIXES))


def _program(spec: str) -> StrategyInfo | None:
    """The info of an ``exec:`` or ``eaai:`` spec, None for other specs."""
    for prefix, module in PROGRAM_PREFIXES.items():
        if spec.startswith(prefix):
            return importlib.import_module(module).program_info(spec)
    return None


def lookup(target: str) -> StrategyInfo:
    """The strategy a spec's target (the part before the parameters) names."""
    program = _program(target.strip())
    if program is not None:
        return program
    if target in BUILTIN_NAMES:
        return _builtin(target)
    head, sep, class_name = target.rpartition(":")
    if sep and head and class_name:
        return _load_class(head, class_name)
    for entry in entry_points():
        if entry.name == target:
            return _load_entry_point(entry)
    names = [*BUILTIN_NAMES, *(entry.name for entry in entry_points() if entry.name not in BUILTIN_NAMES)]
    raise ValueError(
        f"unknown strategy {target!r}{did_you_mean(target, names)}: choose from {', '.join(names)}, "
        "or give module:Class or path/to/file.py:Class"
    )


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``" (did you mean 'simple'?)"`` for the choice closest to a mistyped ``word``, '' when none is close;
    as click suggests for a mistyped option (issue 25)."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def resolve(spec: str) -> Player:
    """The strategy and parameter values of a spec (see the module docstring), or a one-line ValueError."""
    if not isinstance(spec, str):
        raise ValueError(f"a strategy spec must be a string such as 'simple', got {spec!r}")
    program = _program(spec.strip())
    if program is not None:
        return Player(spec=spec.strip(), info=program, values={}, given={})
    target, texts = split_spec(spec)
    info = lookup(target)
    known = {parameter.name: parameter for parameter in info.parameters}
    given: dict[str, Any] = {}
    if info.kind == "compiled" or known:
        for key, text in texts.items():
            _check_known(key, list(known), info.name)
            try:
                given[key] = known[key].check(_number(text))
            except ValueError as error:
                reason = "must be a number" if "could not convert" in str(error) else str(error)
                raise ValueError(f"parameter {key}={text} of strategy {info.name!r}: {reason}") from None
        values = {name: given.get(name, float(parameter.default)) for name, parameter in known.items()}
    else:
        accepted = _constructor_parameters(info.factory) if info.factory is not None else []
        for key, text in texts.items():
            _check_known(key, accepted, info.name)
            try:
                given[key] = _literal(text)
            except ValueError as error:
                raise ValueError(f"parameter {key}={text} of strategy {info.name!r}: {error}") from None
        values = dict(given)
    return Player(spec=spec.strip(), info=info, values=values, given=given)


def _check_known(key: str, known: Sequence[str], strategy: str) -> None:
    """A one-line ValueError when ``key`` is not one of the strategy's parameters ``known``, with the closest."""
    if key not in known:
        choices = ", ".join(known) if known else "none (it takes no parameters)"
        raise ValueError(
            f"unknown parameter {key!r}{did_you_mean(key, known)} for strategy {strategy!r}: choose from {choices}"
        )


def _is_file(target: str) -> bool:
    """Whether a spec's module part is a file path (``bots/my.py``) rather than a module name."""
    return target.endswith(".py") or "/" in target or "\\" in target


def absolute_spec(spec: str) -> str:
    """The spec with a strategy file's path made absolute, so that it names the same file in any
    working directory (a worker of a remote Dask cluster); any other spec unchanged.

    >>> import os
    >>> absolute_spec("bots/my.py:MyBot:depth=3") == os.path.abspath("bots/my.py") + ":MyBot:depth=3"
    True
    >>> absolute_spec("heuristic:knock=7")
    'heuristic:knock=7'
    >>> absolute_spec("eaai:/x/fw.jar:Player")
    'eaai:/x/fw.jar:Player'
    """
    if is_program(spec):
        return spec  # the program's own text: simgin neither parses nor rewrites it
    target, texts = split_spec(spec)
    head, sep, class_name = target.rpartition(":")
    if not (sep and head and class_name and _is_file(head)):
        return spec
    path = os.path.abspath(os.path.expanduser(head))
    parameters = ",".join(f"{key}={value}" for key, value in texts.items())
    return f"{path}:{class_name}" + (f":{parameters}" if parameters else "")


__all__ = [
    "BUILTIN_NAMES",
    "ENTRY_POINT_GROUP",
    "Player",
    "StrategyInfo",
    "absolute_spec",
    "available",
    "builtin_strategies",
    "entry_points",
    "is_program",
    "lookup",
    "plugin_strategies",
    "resolve",
    "split_spec",
]

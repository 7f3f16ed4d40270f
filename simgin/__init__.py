"""simgin: Gin Rummy simulation with exact rules (RULES.md) and numba kernels."""

from simgin.game.cards import format_cards, parse_cards
from simgin.game.melds import (
    best_discard,
    deadwood,
    deadwood_batch,
    describe_deadwood,
    discard_deadwoods,
    meld_arrangement,
)
from simgin.game.rules import Rules
from simgin.game.showdown import Kind, Showdown, describe_showdown, score_showdown

__version__ = "0.1.0"

# The import system binds every subpackage it loads as an attribute of the package; the face shows the public
# names only (issue 33 item 4). The subpackages stay reachable by import and as attributes (``__getattr__``).
for _loaded in ("game", "kernels"):
    globals().pop(_loaded, None)
del _loaded

#: Where each lazily loaded public name lives, as ``module:attribute`` (``import simgin`` stays light; the top-level
#: name is the public path, README "The public import surface"): the commands as functions (``match``,
#: ``tournament``, ``compare``, ``sweep``, ``table_sweep``, ``plan``, ``tune``, ``tune_rules``, ``analyse``,
#: ``report``, ``replay``, ``describe_rules`` for ``simgin rules``, ``describe_strategies`` for ``simgin
#: strategies``), the runner's ``run_match`` and ``run_tournament``, the plug-in contract (README "Strategies"),
#: the engine's record functions and the hand log's reader.
_LAZY = {
    "run_match": "simgin.running.runner:run_match",
    "run_tournament": "simgin.running.runner:run_tournament",
    "match": "simgin.running.matches:match",
    "tournament": "simgin.running.matches:tournament",
    "compare": "simgin.running.matches:compare",
    "report": "simgin.reports.build:write_report",
    "replay": "simgin.running.replay:replay",
    "describe_rules": "simgin.game.rules_listing:describe_rules",
    "describe_strategies": "simgin.running.strategies_listing:describe_strategies",
    "sweep": "simgin.studies.sweep:sweep",
    "table_sweep": "simgin.studies.table_sweep:table_sweep",
    "plan": "simgin.studies.planning:plan",
    "tune": "simgin.studies.tune:tune",
    "tune_rules": "simgin.studies.tune_rules:tune_rules",
    "analyse": "simgin.analysis.analyse:analyse",
    "Strategy": "simgin.game.strategy:Strategy",
    "PlayerView": "simgin.game.strategy:PlayerView",
    "HandEnd": "simgin.game.strategy:HandEnd",
    "Parameter": "simgin.game.strategy:Parameter",
    "play_games": "simgin.running.engine:play_games",
    "play_hands": "simgin.running.engine:play_hands",
    "read_hand_log": "simgin.running.hand_log:read_hand_log",
}


def __getattr__(name: str):
    """A public name of :data:`_LAZY` loads its module on first use. The card commands' functions
    (``describe_deadwood``, ``describe_showdown``) live in modules that ``import simgin`` loads anyway. A
    subpackage or module (``simgin.game``, an old path of ``simgin._moved``) is imported when reached as an
    attribute, though ``dir(simgin)`` lists only the public names."""
    import importlib
    import importlib.util

    if name in _LAZY:
        module, attribute = _LAZY[name].split(":")
        return getattr(importlib.import_module(module), attribute)
    # A subpackage or module reached as an attribute (``simgin.game.melds`` after ``import simgin``, an old path).
    if not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}") is not None:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module 'simgin' has no attribute {name!r}")


def __dir__() -> list[str]:
    """``dir(simgin)`` (and so ``help(simgin)``): the public names of :data:`__all__`, not the subpackages."""
    return sorted({*__all__, *(name for name in globals() if name.startswith("__") and name.endswith("__"))})


__all__ = [
    "HandEnd",
    "Kind",
    "Parameter",
    "PlayerView",
    "Rules",
    "Showdown",
    "Strategy",
    "__version__",
    "analyse",
    "best_discard",
    "compare",
    "deadwood",
    "deadwood_batch",
    "describe_deadwood",
    "describe_rules",
    "describe_showdown",
    "describe_strategies",
    "discard_deadwoods",
    "format_cards",
    "match",
    "meld_arrangement",
    "parse_cards",
    "plan",
    "play_games",
    "play_hands",
    "read_hand_log",
    "replay",
    "report",
    "run_match",
    "run_tournament",
    "score_showdown",
    "sweep",
    "table_sweep",
    "tournament",
    "tune",
    "tune_rules",
]

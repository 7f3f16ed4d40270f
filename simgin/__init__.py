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

#: The plug-in contract (README "Strategies"), the engine's record functions and the hand log's reader, loaded on
#: first use: the top-level name is the public path (README "The public import surface").
_LAZY = {
    "Strategy": "simgin.game.strategy",
    "PlayerView": "simgin.game.strategy",
    "HandEnd": "simgin.game.strategy",
    "Parameter": "simgin.game.strategy",
    "play_games": "simgin.running.engine",
    "play_hands": "simgin.running.engine",
    "read_hand_log": "simgin.running.hand_log",
}


def __getattr__(name: str):
    """The commands as functions load their modules on first use (``import simgin`` stays light):
    ``simgin.match``, ``tournament``, ``compare`` (:mod:`simgin.running.matches`), ``sweep``, ``table_sweep``,
    ``plan``, ``tune``,
    ``tune_rules`` (:mod:`simgin.studies`), ``analyse`` (:mod:`simgin.analysis.analyse`), ``report``
    (:mod:`simgin.reports.build`), ``replay``
    (:mod:`simgin.running.replay`), ``describe_rules`` (``simgin rules``, :mod:`simgin.game.rules_listing`),
    ``describe_strategies`` (``simgin strategies``, :mod:`simgin.running.strategies_listing`), and the
    runner's ``run_match`` and ``run_tournament``; the plug-in contract and the engine's functions of
    ``_LAZY``. The card commands' functions (``describe_deadwood``, ``describe_showdown``) live in modules that
    ``import simgin`` loads anyway. A subpackage or module (``simgin.game``, an old path of ``simgin._moved``)
    is imported when reached as an attribute, though ``dir(simgin)`` lists only the public names."""
    if name in ("run_match", "run_tournament"):
        from simgin.running import runner

        return getattr(runner, name)
    if name in ("match", "tournament", "compare"):
        from simgin.running import matches

        return getattr(matches, name)
    if name == "report":
        from simgin.reports.build import write_report

        return write_report
    if name == "replay":
        from simgin.running.replay import replay

        return replay
    if name == "describe_rules":
        from simgin.game.rules_listing import describe_rules

        return describe_rules
    if name == "describe_strategies":
        from simgin.running.strategies_listing import describe_strategies

        return describe_strategies
    if name == "sweep":
        from simgin.studies.sweep import sweep

        return sweep
    if name == "table_sweep":
        from simgin.studies.table_sweep import table_sweep

        return table_sweep
    if name == "plan":
        from simgin.studies.planning import plan

        return plan
    if name == "tune":
        from simgin.studies.tune import tune

        return tune
    if name == "tune_rules":
        from simgin.studies.tune_rules import tune_rules

        return tune_rules
    if name == "analyse":
        from simgin.analysis.analyse import analyse

        return analyse
    import importlib
    import importlib.util

    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
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

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


def __getattr__(name: str):
    """The commands as functions load their modules on first use (``import simgin`` stays light):
    ``simgin.match``, ``tournament``, ``compare`` (:mod:`simgin.running.matches`), ``sweep``, ``plan``, ``tune``,
    ``tune_rules`` (:mod:`simgin.studies`), ``report`` (:mod:`simgin.reports.build`), ``replay``
    (:mod:`simgin.running.replay`), ``describe_rules`` (``simgin rules``, :mod:`simgin.game.rules_listing`),
    ``describe_strategies`` (``simgin strategies``, :mod:`simgin.players.strategies_listing`), and the
    runner's ``run_match`` and ``run_tournament``. The card commands' functions (``describe_deadwood``,
    ``describe_showdown``) live in modules that ``import simgin`` loads anyway."""
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
        from simgin.players.strategies_listing import describe_strategies

        return describe_strategies
    if name == "sweep":
        from simgin.studies.sweep import sweep

        return sweep
    if name == "plan":
        from simgin.studies.planning import plan

        return plan
    if name == "tune":
        from simgin.studies.tune import tune

        return tune
    if name == "tune_rules":
        from simgin.studies.tune_rules import tune_rules

        return tune_rules
    raise AttributeError(f"module 'simgin' has no attribute {name!r}")


__all__ = [
    "Kind",
    "Rules",
    "Showdown",
    "__version__",
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
    "replay",
    "report",
    "run_match",
    "run_tournament",
    "score_showdown",
    "sweep",
    "tournament",
    "tune",
    "tune_rules",
]

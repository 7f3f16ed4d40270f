"""simgin: Gin Rummy simulation with exact rules (RULES.md) and numba kernels."""

from simgin.cards import format_cards, parse_cards
from simgin.melds import best_discard, deadwood, deadwood_batch, discard_deadwoods, meld_arrangement
from simgin.rules import Rules
from simgin.showdown import Kind, Showdown, score_showdown

__version__ = "0.1.0"

__all__ = [
    "Kind",
    "Rules",
    "Showdown",
    "__version__",
    "best_discard",
    "deadwood",
    "deadwood_batch",
    "discard_deadwoods",
    "format_cards",
    "meld_arrangement",
    "parse_cards",
    "score_showdown",
]

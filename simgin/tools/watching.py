"""A compiled bot watched as it plays: the training pipelines' way to collect the positions a bot meets.

:class:`Watched` plays exactly as the bot its spec names (every decision is the bot's own); a subclass's
:meth:`Watched.watch` may wrap a decision to record the position before or after the bot answers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from simgin.players.registry import resolve
from simgin.strategies.compiled import fill_table


class Watched:
    """The compiled bot ``spec`` names, its play unchanged; :meth:`watch` sees each decision it is asked."""

    def __init__(self, spec: str) -> None:
        self.inner = resolve(spec).make()
        self.name = spec.partition(":")[0]

    def start_hand(self, view, rng):  # type: ignore[no-untyped-def]
        self.inner.start_hand(view, rng)

    def __getattr__(self, decision: str) -> Callable[..., Any]:
        return self.watch(decision, getattr(self.inner, decision))

    def watch(self, decision: str, ask: Callable[..., Any]) -> Callable[..., Any]:
        """What answers ``decision``: ``ask`` (the bot's own answer) or a wrapper around it that records."""
        return ask

    def table(self, view) -> np.ndarray:  # type: ignore[no-untyped-def]
        """A copy of the bot's kernel state with ``view``'s table written in: the position as the bot sees it."""
        state = self.inner._state.copy()
        fill_table(state, view)
        return state

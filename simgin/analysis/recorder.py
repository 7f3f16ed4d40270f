"""A player whose every decision is written down: what ``simgin analyse`` values (issue 34).

:class:`RecordingStrategy` wraps any player in the Python protocol (:class:`simgin.game.strategy.Strategy`):
a compiled bot's adapter, a plain-Python strategy or a hosted program, so that the analysis sees every
decision that the host forwards, whoever makes it. It answers exactly as the wrapped player does (same views,
same generator), so a hand plays as it would unwrapped.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from simgin.game.rng import SplitMix64, derive
from simgin.game.strategy import PlayerView, Strategy

ADVISER_SEED = 0x5EC0
"""The root of the generators the advisers (second opinions) are given at the start and end of a hand; at a
decision each is given one drawn from the decision's place in the log and its own index."""


@dataclass(frozen=True)
class Decision:
    """One decision as the player made it: its kind, the view it decided from, and its answer.

    ``chosen`` is the action as ``kernels.analysis`` numbers it: 1 to take the up card (R11) or the pile
    card (R9), 0 to pass or draw from the stock; the card for a discard (R9, R10); 1 to knock, 0 to play
    on (R12, R13); 1 to go big gin, 0 to discard (V13); 1 to take the 50th card and knock, 0 to let the
    hand die (V7)."""

    kind: str
    view: PlayerView
    chosen: int
    second_opinions: tuple[int | None, ...] = ()
    """What each of the recorder's ``advisers`` answered from the same view (None: it raised an error)."""


class RecordingStrategy:
    """``inner``, with every decision appended to ``log``: the up card, draw, discard, knock, big gin (V13)
    and the 50th card (V7). Any attribute the wrapper does not define (``end_hand``, ``name`` of the inner
    player, ...) is the inner player's, so the engine finds exactly the methods the player has; with
    ``advisers`` that listen for ``end_hand``, the wrapper has one, telling them and the player (if it listens).
    """

    def __init__(
        self, inner: Strategy, log: list[Decision], starts: list[int] | None = None, advisers: Sequence[Strategy] = ()
    ) -> None:
        self.inner = inner
        self.log = log
        self.starts = starts
        """Where each hand begins in ``log`` (in a game of several hands), when given."""
        self.advisers = tuple(advisers)
        """Players asked every decision of this seat from the same view, their answers recorded, never played
        (second opinions): each follows the hand as if it sat in the seat."""

    def __getattr__(self, name: str) -> Any:
        if name == "end_hand" and "advisers" in self.__dict__:
            listening = [adviser for adviser in self.advisers if callable(getattr(adviser, "end_hand", None))]
            own = getattr(self.inner, "end_hand", None)
            if listening:

                def end_hand(view: PlayerView, rng: SplitMix64) -> None:
                    """The end of the hand, told to the advisers that listen and to the player if it does."""
                    for adviser in listening:
                        with contextlib.suppress(Exception):  # an adviser's error is never the game's
                            adviser.end_hand(view, SplitMix64(derive(ADVISER_SEED, len(self.log))))
                    if callable(own):
                        own(view, rng)

                return end_hand
        return getattr(self.inner, name)

    def start_hand(self, view: PlayerView, rng: SplitMix64) -> None:
        if self.starts is not None and (not self.starts or self.starts[-1] != len(self.log)):
            self.starts.append(len(self.log))
        for index, adviser in enumerate(self.advisers):
            adviser.start_hand(view, SplitMix64(derive(ADVISER_SEED, index)))
        self.inner.start_hand(view, rng)

    def _record(self, kind: str, method: str, view: PlayerView, answer: int) -> None:
        """Append the decision, with each adviser's answer to the same question (a generator of its own, from
        the decision's place in the log, so that the answers do not depend on how hands are split)."""
        opinions: list[int | None] = []
        for index, adviser in enumerate(self.advisers):
            try:
                opinions.append(int(getattr(adviser, method)(view, SplitMix64(derive(len(self.log), index)))))
            except Exception:  # an adviser's error is its opinion's absence, never the game's
                opinions.append(None)
        self.log.append(Decision(kind, view, answer, tuple(opinions)))

    def _recorded_answer(self, kind: str, method: str, view: PlayerView, rng: SplitMix64) -> Any:
        """The wrapped player's answer to ``method``, recorded as a decision of ``kind``: the card for a discard,
        else 1 or 0 (:class:`Decision`)."""
        answer = getattr(self.inner, method)(view, rng)
        self._record(kind, method, view, int(answer) if kind == "discard" else int(bool(answer)))
        return answer

    def take_up_card(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._recorded_answer("up_card", "take_up_card", view, rng)

    def draw_from_pile(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._recorded_answer("draw", "draw_from_pile", view, rng)

    def discard(self, view: PlayerView, rng: SplitMix64) -> int:
        return self._recorded_answer("discard", "discard", view, rng)

    def knock(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._recorded_answer("knock", "knock", view, rng)

    def big_gin(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._recorded_answer("big_gin", "big_gin", view, rng)

    def take_fiftieth(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._recorded_answer("fiftieth", "take_fiftieth", view, rng)

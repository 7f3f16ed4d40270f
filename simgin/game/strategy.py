"""What a player sees and decides: the plain-Python strategy protocol.

A strategy sees only what a player at the table sees (:class:`PlayerView`): its own hand,
the discard pile in order, which cards the opponent took from the pile and which up
cards it passed, the stock size, the scores, the rules and the hand's knock limit. It
never sees the opponent's hand or the stock order.

Each decision method receives the view and the player's own random generator
(:class:`simgin.game.rng.SplitMix64`); a strategy must draw random numbers only from it, so a
hand replays exactly from its seed.

A strategy may also define ``end_hand(view, rng)``: it is then told how each hand ended,
with ``view.ending`` (a :class:`HandEnd`) holding what the table sees at the end: after a
knock both hands are laid face up (R14), after a dead hand (R15) nothing is shown. It is
optional (the engine calls it only where it exists) and its answer is ignored.

The engine seats *resolved* players (:class:`Seat`): naming them (``'heuristic:knock=7'``, ``'exec:...'``) is
the registry's job (:mod:`simgin.players.registry`), a layer above (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from simgin.game.rng import SplitMix64
from simgin.game.rules import Rules

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class PlayerView:
    """One player's view of the table at a decision point."""

    seat: int
    """0 or 1."""
    dealer: int
    """Seat of this hand's dealer."""
    hand: tuple[int, ...]
    """The player's cards, ascending (11 after a draw, 10 otherwise)."""
    pile: tuple[int, ...]
    """The discard pile, bottom first; ``pile[-1]`` is the up card that may be taken."""
    stock_count: int
    """Cards left in the stock."""
    knock_limit: int
    """This hand's knock limit (R12, V1, V9: an Oklahoma hand's limit comes from its up card)."""
    up_card: int
    """The first up card of the hand (R8), or -1 with the 11-card start (V5)."""
    drawn_card: int
    """The card drawn this turn, or -1 before the draw (and on a V5 discard-only first turn)."""
    drawn_from_pile: bool
    """Whether ``drawn_card`` came from the discard pile."""
    opponent_took: tuple[int, ...]
    """Cards the opponent took from the discard pile this hand, in order."""
    opponent_passed: tuple[int, ...]
    """Up cards the opponent declined on the first turn (R11)."""
    opponent_discards: tuple[int, ...]
    """Cards the opponent discarded this hand, in order."""
    scores: tuple[int, int]
    """Game points so far, by seat (without box bonuses)."""
    rules: Rules
    turn: int
    """Turns completed in this hand."""
    fiftieth_card: bool = False
    """True while deciding the discard after taking the last discard under V7: the player must
    knock, and may discard the taken card itself (turned face down)."""
    ending: HandEnd | None = None
    """How the hand ended; set only in the view given to ``end_hand``."""


@dataclass(frozen=True)
class HandEnd:
    """How a hand ended, as both players see it at the table (R14-R19); ``end_hand`` gets it.

    After a knock both hands are laid face up: the knocker's melds, the defender's melds and
    its lay-offs on the knocker's melds (R14). After a dead hand (R15) nothing is shown, so
    the melds, lay-offs and hands are empty.
    """

    kind: str
    """``'dead'``, ``'knock'``, ``'gin'``, ``'big_gin'`` or ``'undercut'`` (:class:`simgin.game.showdown.Kind`)."""
    winner: int
    """Seat, -1 after a dead hand."""
    points: int
    """To the winner (R17-R19, V9 doubling included); 0 after a dead hand."""
    knocker: int
    """Seat, -1 after a dead hand."""
    knocker_deadwood: int = 0
    defender_deadwood: int = 0
    """After lay-offs (R16)."""
    knocker_melds: tuple[tuple[int, ...], ...] = ()
    defender_melds: tuple[tuple[int, ...], ...] = ()
    """The defender's own melds, lay-offs excluded."""
    layoffs: tuple[int, ...] = ()
    """Defender cards laid off on the knocker's melds, ascending (none after gin, R14)."""
    hands: tuple[tuple[int, ...], ...] = ()
    """Both final hands by seat, ascending, laid face up after a knock; empty after a dead hand."""


@runtime_checkable
class Strategy(Protocol):
    """A plain-Python strategy: one method per decision (RULES.md R9-R15, V7, V13)."""

    name: str

    def start_hand(self, view: PlayerView, rng: SplitMix64) -> None:
        """A new hand begins (memories of the previous hand are dropped here)."""

    def take_up_card(self, view: PlayerView, rng: SplitMix64) -> bool:
        """First turn (R11): take the up card ``view.pile[-1]`` instead of passing?"""

    def draw_from_pile(self, view: PlayerView, rng: SplitMix64) -> bool:
        """Normal turn (R9): draw the pile's top card (True) or the stock's (False)?"""

    def discard(self, view: PlayerView, rng: SplitMix64) -> int:
        """Which card to discard from the 11 held (R9, R10, V6)."""

    def knock(self, view: PlayerView, rng: SplitMix64) -> bool:
        """Asked only when the 10 cards left may knock (R12, R13): knock now?"""

    def big_gin(self, view: PlayerView, rng: SplitMix64) -> bool:
        """Asked only when all 11 cards are melded and big gin is on (V13): go big gin?"""

    def take_fiftieth(self, view: PlayerView, rng: SplitMix64) -> bool:
        """Asked only when taking the last discard would let this player knock (V7): take it and knock?"""


@dataclass(frozen=True)
class Parameter:
    """A named, documented parameter of a strategy (``heuristic:knock=7`` sets ``knock``)."""

    name: str
    default: float
    doc: str
    """One line: what the parameter does."""
    low: float | None = None
    """Smallest allowed value (None: no bound)."""
    high: float | None = None
    """Largest allowed value (None: no bound)."""
    integer: bool = False
    """Whether only whole numbers are allowed."""
    cost: bool = False
    """Whether it buys strength with time (samples, playouts): ``simgin tune`` leaves it alone unless named."""

    def check(self, value: float) -> float:
        """``value`` if allowed, else a ValueError saying what is (NaN and infinities never are)."""
        if not math.isfinite(value):
            raise ValueError(f"must be a finite number, got {value}")
        if self.integer and value != int(value):
            raise ValueError(f"must be a whole number, got {value:g}")
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            low = "-inf" if self.low is None else f"{self.low:g}"
            high = "inf" if self.high is None else f"{self.high:g}"
            raise ValueError(f"must be between {low} and {high}, got {value:g}")
        return value


class StrategyStartError(Exception):
    """A strategy could not start (a program that would not run, or failed its handshake): nothing about the
    hand being played is to blame, so forfeiting or replaying the hand cannot help. The engine lets it end the
    run whatever ``--on-illegal`` says (:class:`simgin.players.programs.ProgramStartError` is one)."""


class Seat(Protocol):
    """A resolved player, as the engine seats it (:class:`simgin.players.registry.Player` is one).

    A compiled bot (``kind == "compiled"``) plays in the numba kernels by its ``bot_id`` and parameter
    ``vector()``; any other plays in the reference engine through a fresh ``make()`` for each hand or game.
    """

    @property
    def spec(self) -> str:
        """The spec it was named by: results and error messages use it."""

    @property
    def kind(self) -> str:
        """``"compiled"``, ``"python"`` or ``"program"``."""

    @property
    def compiled(self) -> bool:
        """Whether it plays in the numba kernels (``kind == "compiled"``)."""

    @property
    def bot_id(self) -> int:
        """The ``kernels.bots`` id of a compiled bot (-1 otherwise)."""

    def vector(self) -> np.ndarray:
        """The parameter vector of a compiled bot (slots of ``kernels.parameters``)."""

    def make(self) -> Strategy:
        """A fresh strategy object (a compiled bot as its Python adapter)."""

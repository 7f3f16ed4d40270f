"""What a hand record holds: how a hand ended (:class:`Outcome`), the log of its moves (one small frozen record per
action: the deal, offers, draws, discards, the 50th card, the knock, lay-offs, the score, a forfeit) and the
:class:`HandRecord` with the columns of docs/ENGINE.md. The reference engine (:mod:`simgin.game.reference_engine`)
writes them; the hand log, replays and tests read them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from enum import IntEnum

from simgin.game.cards import card_value, format_card, format_cards

#: Where a draw comes from (:class:`Draw` ``source``).
STOCK = "stock"
PILE = "pile"


class Outcome(IntEnum):
    """How a hand ended; the ints are the ``kind`` column of a hand record (docs/ENGINE.md)."""

    DEAD = 0
    KNOCK = 1
    GIN = 2
    BIG_GIN = 3
    UNDERCUT = 4
    FORFEIT = 5
    """A player made an illegal move and, under ``forfeit=True``, lost the hand by it (0 points)."""


# ---------------------------------------------------------------------------------------
# Move records: the log of a hand, one small frozen record per action.


@dataclass(frozen=True)
class Deal:
    """R8, V5: the cards dealt to each seat, the up card (-1 with V5) and the stock in draw order."""

    dealer: int
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    up_card: int
    stock: tuple[int, ...]

    def __str__(self) -> str:
        up = format_card(self.up_card) if self.up_card >= 0 else "none"
        return (
            f"deal by seat {self.dealer}: seat 0 {format_cards(self.hands[0])}; "
            f"seat 1 {format_cards(self.hands[1])}; up card {up}"
        )


@dataclass(frozen=True)
class Offer:
    """R11: the up card offered on the first turn, taken or passed."""

    seat: int
    card: int
    taken: bool

    def __str__(self) -> str:
        return f"seat {self.seat} {'takes' if self.taken else 'passes'} the up card {format_card(self.card)}"


@dataclass(frozen=True)
class Draw:
    """R9: a card drawn from the stock or taken from the pile."""

    seat: int
    source: str
    """``"stock"`` or ``"pile"``."""
    card: int

    def __str__(self) -> str:
        return f"seat {self.seat} draws {format_card(self.card)} from the {self.source}"


@dataclass(frozen=True)
class Discard:
    """R9: a card put on the discard pile (V7: also the 50th-card taker's knock discard)."""

    seat: int
    card: int

    def __str__(self) -> str:
        return f"seat {self.seat} discards {format_card(self.card)}"


@dataclass(frozen=True)
class FiftiethOffer:
    """V7: the last discard offered to the other player with two stock cards left."""

    seat: int
    card: int
    taken: bool

    def __str__(self) -> str:
        verb = "takes" if self.taken else "declines"
        return f"seat {self.seat} {verb} the 50th card {format_card(self.card)}"


@dataclass(frozen=True)
class Knock:
    """R12, R13, V13: the knocker lays down its melds; ``kind`` is KNOCK, GIN or BIG_GIN."""

    seat: int
    kind: Outcome
    deadwood: int
    melds: tuple[tuple[int, ...], ...]

    def __str__(self) -> str:
        shown = " ".join("[" + format_cards(meld) + "]" for meld in self.melds)
        verb = {Outcome.KNOCK: "knocks", Outcome.GIN: "goes gin", Outcome.BIG_GIN: "goes big gin"}[self.kind]
        return f"seat {self.seat} {verb} with deadwood {self.deadwood}: {shown}"


@dataclass(frozen=True)
class LayOff:
    """R14: the defender lays down its melds and lays cards off on the knocker's (none after gin)."""

    seat: int
    melds: tuple[tuple[int, ...], ...]
    cards: tuple[int, ...]
    """The cards laid off on the knocker's melds."""
    deadwood: int
    """The defender's deadwood after lay-offs (R16)."""

    def __str__(self) -> str:
        """The defender's melds and lay-offs, as the knocker's melds are shown (issue 25)."""
        shown = " ".join("[" + format_cards(meld) + "]" for meld in self.melds) or "nothing"
        points = sum(card_value(card) for card in self.cards)
        laid = f"{format_cards(self.cards)} ({points} points)" if self.cards else "nothing"
        return f"seat {self.seat} melds {shown}, lays off {laid}, deadwood {self.deadwood}"


@dataclass(frozen=True)
class Score:
    """R15-R19: how the hand ended and the points to the winner (-1 and 0 for a dead hand)."""

    kind: Outcome
    winner: int
    points: int

    def __str__(self) -> str:
        if self.kind == Outcome.DEAD:
            return "dead hand"
        return f"{self.kind.name.lower().replace('_', ' ')}: seat {self.winner} scores {self.points}"


@dataclass(frozen=True)
class Forfeit:
    """``--on-illegal forfeit``: seat made an illegal move and loses the hand (and its game) by it.

    ``reason`` is the message the move would have stopped the run with; ``scores`` the game
    scores by seat the hand was dealt at (what ``simgin replay --scores`` needs).
    """

    seat: int
    decision: str
    reason: str
    scores: tuple[int, int] = (0, 0)

    def __str__(self) -> str:
        return f"seat {self.seat} forfeits: {self.reason}"


Move = Deal | Offer | Draw | Discard | FiftiethOffer | Knock | LayOff | Score | Forfeit


# ---------------------------------------------------------------------------------------
# The hand record.


@dataclass(frozen=True)
class HandRecord:
    """One row per hand, the columns of docs/ENGINE.md, plus the move log (not compared)."""

    dealer: int
    kind: int
    """An :class:`Outcome`: 0 dead, 1 knock, 2 gin, 3 big gin, 4 undercut."""
    winner: int
    """Seat, -1 if dead."""
    points: int
    """To the winner (Oklahoma doubling included, V9)."""
    knocker: int
    """Seat, -1 if dead."""
    knocker_deadwood: int
    defender_deadwood: int
    """After lay-offs (R16); 0 if dead."""
    layoff_points: int
    turns: int
    draws: int
    up_card: int
    """-1 with the 11-card start (V5)."""
    knock_limit: int
    multiplier: int
    pile_takes_0: int
    pile_takes_1: int
    fiftieth: int
    """1 when the hand ended by the 50th-card action (V7)."""
    capped: int
    """1 when the hand hit :data:`MAX_TURNS`."""
    moves: tuple[Move, ...] = field(default=(), compare=False, repr=False)

    def row(self) -> tuple[int, ...]:
        """The record's columns as plain ints, in order (without the move log)."""
        return tuple(int(getattr(self, f.name)) for f in fields(self) if f.name != "moves")

    def shown_moves(self) -> tuple[Move, ...]:
        """The moves as a replay shows them: taking the up card (R11) or the 50th card (V7) is one move
        on the page, so the pile draw that the engine records after the offer is left out."""
        return shown_moves(self.moves)

    def replay(self) -> str:
        """The move log, one line per move (:meth:`shown_moves`)."""
        return "\n".join(str(move) for move in self.shown_moves())


def shown_moves(moves: Sequence[Move]) -> tuple[Move, ...]:
    """:meth:`HandRecord.shown_moves` of any move log, also one a hand stopped at an illegal move left
    (``IllegalMove.moves``): the pile draw recorded after an up card taken is left out (issue 32 item 16)."""
    befores = (None, *moves)  # one longer: zip stops at the last move
    return tuple(move for before, move in zip(befores, moves, strict=False) if not _repeats(before, move))


def _repeats(before: Move | None, move: Move) -> bool:
    """Whether ``move`` is the pile draw recorded after ``before``, the offer of the same card taken."""
    return (
        isinstance(before, (Offer, FiftiethOffer))
        and before.taken
        and isinstance(move, Draw)
        and move.source == PILE
        and (move.seat, move.card) == (before.seat, before.card)
    )


HAND_RECORD_FIELDS = tuple(f.name for f in fields(HandRecord) if f.name != "moves")

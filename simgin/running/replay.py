"""``simgin replay`` as a library function: one hand of a run, move by move.

:func:`replay` finds hand ``hand`` of ``simgin match A B --hands N --seed S`` (or takes a hand seed, as an
error or a forfeit names it) and plays it again in the reference engine, which records every move. It
returns a frozen :class:`Replay`: ``text()`` is what the command prints, ``to_json()`` its ``--json``
object, ``to_frame()`` one row per move labelled by the player who made it. The hand is found by
:func:`locate_replay` (a :class:`ReplayHand`), which the command uses to head the moves of a hand that
stops at an illegal move (:class:`~simgin.game.reference_engine.IllegalMove`, raised by
:meth:`ReplayHand.play` with the moves up to it).

>>> shown = replay("simple", "random", seed=7, hand=3, duplicate=True)
>>> shown.players, shown.hand_seed == locate_replay("simple", "random", seed=7, hand=3).hand_seed
(('random', 'simple'), True)
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum
from typing import TYPE_CHECKING, Any

from simgin.game import reference_engine
from simgin.game.cards import format_card
from simgin.game.reference_engine import HAND_RECORD_FIELDS, HandRecord, Move
from simgin.game.rules import Rules, as_rules, whole_number
from simgin.players.registry import resolve
from simgin.running.config import MAX_HANDS, MAX_SEED, RunConfig
from simgin.running.runner import locate_hand

if TYPE_CHECKING:
    import pandas as pd

#: Move fields that hold one card (-1: none), a list of cards, or a list of melds.
_CARD_FIELDS = ("card", "up_card")
_CARD_LIST_FIELDS = ("stock", "cards")
_MELD_FIELDS = ("hands", "melds")


@dataclass(frozen=True)
class ReplayHand:
    """Where a hand comes from: the players by seat, its hand seed, the dealer's seat and, for a hand
    of a game, the game scores by seat it was dealt at (``None``: an independent hand)."""

    players: tuple[str, str]
    hand_seed: int
    dealer: int
    scores: tuple[int, int] | None = None

    def header(self) -> str:
        """The line the command prints above the moves."""
        return (
            f"hand seed {self.hand_seed}, seat 0: {self.players[0]}, seat 1: {self.players[1]}, "
            f"dealer: seat {self.dealer}"
        )

    def stopped_text(self, error: reference_engine.IllegalMove) -> str:
        """What ``simgin replay`` prints of a hand an illegal move stopped: the header, then the moves up to it,
        shown as a finished hand's are (an up card taken is one line, issue 32 item 16)."""
        return "\n".join([self.header(), *(str(move) for move in reference_engine.shown_moves(error.moves))])

    def stopped_json(self, rules: Rules | None, error: reference_engine.IllegalMove) -> dict[str, Any]:
        """The ``simgin replay --json`` object of a hand an illegal move stopped: as :meth:`Replay.to_json`, with
        ``hand`` None (the hand has no record), the moves up to the illegal one and ``error`` its message."""
        moves = [_move_data(move, self.players) for move in reference_engine.shown_moves(error.moves)]
        return {
            "players": list(self.players),
            "hand_seed": self.hand_seed,
            "dealer": self.dealer,
            "scores": None if self.scores is None else list(self.scores),
            "rules": (rules or Rules()).to_dict(),
            "hand": None,
            "moves": moves,
            "error": str(error),
        }

    def play(self, rules: Rules | None = None) -> Replay:
        """Play the hand again under ``rules`` (default standard). An independent hand is played as
        ``engine.play_hand_rows`` plays one, the game switches at their standard values
        (:meth:`Rules.effective`); a hand of a game with its scores, which the rules-aware bots read.
        An illegal move raises :class:`~simgin.game.reference_engine.IllegalMove` (``moves``: the hand
        up to it); a bad spec is a ValueError."""
        rules = rules or Rules()
        strategies = (resolve(self.players[0]).make(), resolve(self.players[1]).make())
        if self.scores is None:
            hand_rules = rules.effective("pairs", games=False)
            record = reference_engine.play_hand(strategies, hand_rules, self.hand_seed, self.dealer, names=self.players)
        else:
            record = reference_engine.play_hand(
                strategies, rules, self.hand_seed, self.dealer, scores=self.scores, names=self.players
            )
        return Replay(self, rules, record)


@dataclass(frozen=True)
class Replay:
    """A hand played again: where it comes from (``hand``), the rules given and its record (the hand
    record's columns, docs/ENGINE.md, and the move log)."""

    hand: ReplayHand
    rules: Rules
    record: HandRecord

    @property
    def players(self) -> tuple[str, str]:
        """The players by seat."""
        return self.hand.players

    @property
    def hand_seed(self) -> int:
        return self.hand.hand_seed

    @property
    def dealer(self) -> int:
        return self.hand.dealer

    def text(self) -> str:
        """What ``simgin replay`` prints: the header line, then one line per move."""
        return f"{self.hand.header()}\n{self.record.replay()}"

    def moves(self) -> list[dict[str, Any]]:
        """The moves as the replay shows them (:meth:`HandRecord.shown_moves`), each a dict: ``move`` (its
        kind: deal, offer, draw, discard, fiftieth_offer, knock, lay_off, score, forfeit), its fields with
        cards by name (``AS``; an up card of -1, V5, is None), ``player`` (the name at its seat, if it has
        one) and ``text`` (its line)."""
        return [self._move(move) for move in self.record.shown_moves()]

    def _move(self, move: Move) -> dict[str, Any]:
        return _move_data(move, self.players)

    def to_json(self) -> dict[str, Any]:
        """The ``simgin replay --json`` object: the players by seat, hand seed, dealer, game scores (None
        for an independent hand), the rules given, the hand record's columns (``hand``) and the moves."""
        return {
            "players": list(self.players),
            "hand_seed": self.hand_seed,
            "dealer": self.dealer,
            "scores": None if self.hand.scores is None else list(self.hand.scores),
            "rules": self.rules.to_dict(),
            "hand": {name: int(getattr(self.record, name)) for name in HAND_RECORD_FIELDS},
            "moves": self.moves(),
        }

    def to_frame(self) -> pd.DataFrame:
        """One row per move shown: ``move``, ``seat``, ``player`` (the name; empty for the deal and a dead
        hand's score), ``card`` and ``text``."""
        import pandas as pd

        rows = [
            {
                "move": move["move"],
                "seat": move.get("seat", move.get("winner", -1)),
                "player": move["player"] or "",
                "card": move.get("card") or "",
                "text": move["text"],
            }
            for move in self.moves()
        ]
        return pd.DataFrame(rows, columns=["move", "seat", "player", "card", "text"])


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() and i else c.lower() for i, c in enumerate(name))


def locate_replay(
    a: str,
    b: str,
    *,
    seed: int | None = None,
    hand: int | None = None,
    hand_seed: int | None = None,
    dealer: int = 0,
    scores: tuple[int, int] | None = None,
    duplicate: bool = True,
) -> ReplayHand:
    """Where the hand comes from: hand ``hand`` (numbered from 0 in play order) of ``simgin match a b --hands
    N --seed seed`` (``duplicate`` as in the run: hands 2j and 2j+1 are one deal with the seats swapped),
    or the hand ``hand_seed`` dealt by seat ``dealer``, with ``scores`` (by seat) for a hand of a game.
    Bad or missing arguments are a ValueError naming them."""
    if scores is not None:
        if hand_seed is None:
            raise ValueError("scores go with hand_seed (the hand of a game a forfeit names)")
        if len(scores) != 2 or min(scores) < 0:
            raise ValueError(f"scores={scores!r}: give two non-negative scores by seat, e.g. (35, 80)")
    if dealer not in (0, 1):
        raise ValueError(f"dealer={dealer!r}: seat 0 or 1")
    if hand_seed is not None:
        given = [name for name, value in (("seed", seed), ("hand", hand)) if value is not None]
        if given:
            raise ValueError(f"hand_seed names the hand by itself: give it without {' and '.join(given)}")
        if not 0 <= hand_seed <= MAX_SEED:
            raise ValueError(f"hand_seed={hand_seed}: must be between 0 and {MAX_SEED} (a 64-bit hand seed)")
        return ReplayHand((a, b), hand_seed, dealer, None if scores is None else (int(scores[0]), int(scores[1])))
    if seed is None or hand is None:
        raise ValueError("give seed and hand, or hand_seed")
    if not 0 <= hand <= MAX_HANDS - 1:
        raise ValueError(f"hand={hand}: must be between 0 and {MAX_HANDS - 1}")
    config = RunConfig((a, b), Rules(), hands=2 * (hand + 1), seed=seed, duplicate=duplicate)
    found_seed, found_dealer, players = locate_hand(config, hand)
    return ReplayHand(players, found_seed, found_dealer)


def replay(
    a: str,
    b: str,
    *,
    seed: int | None = None,
    hand: int | None = None,
    hand_seed: int | None = None,
    dealer: int = 0,
    scores: tuple[int, int] | None = None,
    duplicate: bool = True,
    rules: Rules | str | None = None,
) -> Replay:
    """``simgin replay``: hand ``hand`` of ``simgin match a b --hands N --seed seed`` (or the hand ``hand_seed``,
    see :func:`locate_replay`), played again move by move under ``rules`` (a
    :class:`~simgin.game.rules.Rules` or a preset name; as in the run). An illegal move raises
    :class:`~simgin.game.reference_engine.IllegalMove` with the moves up to it; bad input is a ValueError."""
    rules = as_rules(rules)  # issue 32 item 27: a wrong type is a TypeError naming rules
    for name, value in (("seed", seed), ("hand", hand), ("hand_seed", hand_seed)):
        if value is not None:
            whole_number(value, name)
    found = locate_replay(
        a, b, seed=seed, hand=hand, hand_seed=hand_seed, dealer=dealer, scores=scores, duplicate=duplicate
    )
    return found.play(rules)


def _move_data(move: Move, players: tuple[str, str]) -> dict[str, Any]:
    """One move as :meth:`Replay.moves` gives it (cards by name, the player at its seat, its line)."""
    data: dict[str, Any] = {"move": _snake(type(move).__name__)}
    for item in fields(move):
        value = getattr(move, item.name)
        if item.name in _CARD_FIELDS:
            value = format_card(value) if value >= 0 else None
        elif item.name in _CARD_LIST_FIELDS:
            value = [format_card(card) for card in value]
        elif item.name in _MELD_FIELDS:
            value = [[format_card(card) for card in meld] for meld in value]
        elif isinstance(value, Enum):
            value = value.name.lower()
        elif isinstance(value, tuple):
            value = list(value)
        data[item.name] = value
    seat = data.get("seat", data.get("winner"))
    data["player"] = players[seat] if isinstance(seat, int) and seat in (0, 1) else None
    return data | {"text": str(move)}

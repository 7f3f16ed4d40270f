"""Knock resolution: who wins a knocked hand and by how much (R14-R19, V2, V3, V9, V13).

>>> result = score_showdown("AS 2S 3S 7C 7D 7H 9D TD JD 2C", "4S 5S KC KD KH 8C 8H 9S QH QS")
>>> str(result.kind), str(result.winner), result.knocker_deadwood, result.defender_deadwood, result.points
('knock', 'knocker', 2, 45, 43)
>>> from simgin.game.cards import format_cards
>>> format_cards(result.layoffs)
'4S 5S'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

import numpy as np

from simgin.game.cards import CardsLike, cards_to_mask, format_card, parse_card, to_cards
from simgin.game.melds import melds_of_mask
from simgin.game.rules import Rules, as_rules
from simgin.kernels import melds as _melds, showdown as _k

if TYPE_CHECKING:
    import pandas as pd


class Kind(StrEnum):
    """How a hand ended; the one outcome vocabulary of simgin (kernels use the ints of ``CODE``)."""

    DEAD = "dead"
    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big_gin"
    UNDERCUT = "undercut"
    FORFEIT = "forfeit"
    """The hand ended when a player made an illegal move under ``--on-illegal forfeit``; the
    other player wins it (for 0 points). Only the Python engine plays such hands."""


#: The code of :attr:`Kind.FORFEIT`; the kernels never produce it (a compiled bot's illegal
#: move is played again in the Python engine, :func:`simgin.running.engine.play_hand_rows`).
KIND_FORFEIT = 5
#: Kernel codes of the kinds (``simgin.kernels.showdown.KIND_*``, and :data:`KIND_FORFEIT`).
KIND_CODES = {Kind.DEAD: 0, Kind.KNOCK: 1, Kind.GIN: 2, Kind.BIG_GIN: 3, Kind.UNDERCUT: 4, Kind.FORFEIT: KIND_FORFEIT}
KINDS_BY_CODE = {code: kind for kind, code in KIND_CODES.items()}

#: The outcomes of the hands the kernels play (every kind but the forfeit), in the order summaries and
#: reports list them (their columns and rates): the hands won, in the order of :class:`Kind`, then the dead hand.
OUTCOMES: tuple[str, ...] = (
    *(kind.value for kind in Kind if kind not in (Kind.DEAD, Kind.FORFEIT)),
    Kind.DEAD.value,
)


class Side(StrEnum):
    """The two sides of a showdown."""

    KNOCKER = "knocker"
    DEFENDER = "defender"


@dataclass(frozen=True)
class Showdown:
    """The result of a knock: the winner, the points and how the hands were laid down."""

    winner: Side
    points: int
    """The winner's score for the hand, >= 0, Oklahoma doubling included (V9)."""
    kind: Kind
    knocker_deadwood: int
    defender_deadwood: int
    """After lay-offs (none after gin or big gin)."""
    layoffs: list[int]
    """Defender cards laid off on the knocker's melds, ascending."""
    layoff_points: int
    knocker_melds: list[list[int]]
    """The melds the knocker shows."""
    defender_melds: list[list[int]]
    """The defender's own melds (lay-offs excluded)."""
    knock_limit: int
    multiplier: int


def score_showdown(
    knocker: CardsLike,
    defender: CardsLike,
    rules: Rules | str | None = None,
    up_card: int | str | None = None,
) -> Showdown:
    """Score a knock: the knocker's 10 cards after the discard (11 for big gin) against the defender's 10.

    The knocker shows, among its minimum-deadwood arrangements, the one that leaves the
    defender the highest deadwood; the defender chooses its melds and lay-offs together to
    minimise its deadwood; lay-offs chain and may complete a set; nothing is laid off after
    gin (R14). A tie is an undercut unless ``rules.undercut_on_tie`` is off (R18). Under
    Oklahoma ``up_card`` sets the knock limit and a spade doubles the points (V9).
    """
    rules = as_rules(rules)  # a preset name too, as describe_showdown takes (issue 32 item 27)
    knocker_cards = to_cards(knocker)
    defender_cards = to_cards(defender)
    if len(defender_cards) != 10:
        raise ValueError(f"wrong number of defender cards: got {len(defender_cards)}, need 10")
    allowed = "10 (or 11 for big gin)" if rules.big_gin else "10"
    if len(knocker_cards) not in ((10, 11) if rules.big_gin else (10,)):
        raise ValueError(f"wrong number of knocker cards: got {len(knocker_cards)}, need {allowed}")
    shared = sorted(set(knocker_cards) & set(defender_cards))
    if shared:
        raise ValueError(f"overlapping hands: {' '.join(format_card(c) for c in shared)} in both knocker and defender")
    up = parse_card(up_card) if isinstance(up_card, str) else up_card
    knock_limit = rules.hand_knock_limit(up)
    multiplier = rules.hand_multiplier(up)
    knocker_mask = cards_to_mask(knocker_cards)
    defender_mask = cards_to_mask(defender_cards)
    big_gin = len(knocker_cards) == 11
    knocker_deadwood = int(_melds.deadwood_of_mask(knocker_mask, _melds.SUIT_DEADWOOD))
    if big_gin and knocker_deadwood:
        raise ValueError(
            f"an 11-card knock must be big gin (all cards melded); the knocker's deadwood is {knocker_deadwood}"
        )
    if knocker_deadwood > knock_limit:
        raise ValueError(f"knocker's deadwood {knocker_deadwood} is over the knock limit {knock_limit}")
    result = np.zeros(3, dtype=np.int64)
    kind, defender_won, points, _, defender_deadwood, layoff_points = _k.score_hand(
        knocker_mask,
        defender_mask,
        big_gin,
        rules.gin_bonus,
        rules.undercut_bonus,
        int(rules.undercut_on_tie),  # an int, as the kernels pass it: one compiled score_hand for every caller
        rules.big_gin_bonus,
        multiplier,
        _melds.SUIT_DEADWOOD,
        _k.SUIT_VALUE,
        result,
    )
    laid = int(result[2])
    return Showdown(
        winner=Side.DEFENDER if defender_won else Side.KNOCKER,
        points=int(points),
        kind=KINDS_BY_CODE[int(kind)],
        knocker_deadwood=knocker_deadwood,
        defender_deadwood=int(defender_deadwood),
        layoffs=[card for card in range(52) if laid >> card & 1],
        layoff_points=int(layoff_points),
        knocker_melds=_sorted(melds_of_mask(knocker_mask, int(result[0]))),
        defender_melds=_sorted(melds_of_mask(defender_mask & ~laid, int(result[1]))),
        knock_limit=knock_limit,
        multiplier=multiplier,
    )


def _sorted(melds: list[list[int]]) -> list[list[int]]:
    return sorted(melds, key=lambda meld: meld[0])


@dataclass(frozen=True)
class ScoredKnock:
    """What ``simgin showdown`` shows: the two hands, the up card, the rules and the scored knock (``result``)."""

    knocker: tuple[int, ...]
    defender: tuple[int, ...]
    up_card: int | None
    rules: Rules
    result: Showdown

    def to_json(self) -> dict[str, Any]:
        """The ``simgin showdown --json`` object (cards by name, e.g. ``'AS'``)."""
        result = self.result
        return {
            "winner": str(result.winner),
            "points": int(result.points),
            "kind": str(result.kind),
            "knocker_deadwood": int(result.knocker_deadwood),
            "defender_deadwood": int(result.defender_deadwood),
            "layoffs": _names(result.layoffs),
            "layoff_points": int(result.layoff_points),
            "knocker_melds": [_names(meld) for meld in result.knocker_melds],
            "defender_melds": [_names(meld) for meld in result.defender_melds],
            "multiplier": int(result.multiplier),
            "knock_limit": int(result.knock_limit),
            "knocker": _names(self.knocker),
            "defender": _names(self.defender),
            "up_card": None if self.up_card is None else format_card(self.up_card),
            "rules": self.rules.to_dict(),
        }

    def to_frame(self) -> pd.DataFrame:
        """Two rows, indexed by side (knocker, defender): the cards, the melds shown, the cards laid off,
        the deadwood (the defender's after lay-offs) and the points scored (0 for the loser)."""
        import pandas as pd

        result = self.result
        rows = []
        for side, cards, melds, deadwood in (
            (Side.KNOCKER, self.knocker, result.knocker_melds, result.knocker_deadwood),
            (Side.DEFENDER, self.defender, result.defender_melds, result.defender_deadwood),
        ):
            rows.append(
                {
                    "cards": " ".join(_names(cards)),
                    "melds": " ".join("[" + " ".join(_names(meld)) + "]" for meld in melds),
                    "laid_off": " ".join(_names(result.layoffs)) if side is Side.DEFENDER else "",
                    "deadwood": int(deadwood),
                    "points": int(result.points) if result.winner is side else 0,
                }
            )
        return pd.DataFrame(rows, index=pd.Index([str(Side.KNOCKER), str(Side.DEFENDER)], name="side"))


def describe_showdown(
    knocker: CardsLike,
    defender: CardsLike,
    rules: Rules | str | None = None,
    up_card: int | str | None = None,
) -> ScoredKnock:
    """``simgin showdown``: :func:`score_showdown` with the hands, up card and rules kept, so that the result
    has the command's ``to_json()``. ``rules`` is a :class:`~simgin.game.rules.Rules` or a preset name;
    Oklahoma needs ``up_card`` (V9). Bad input is a ValueError naming it."""
    rules = as_rules(rules)
    up = parse_card(up_card) if isinstance(up_card, str) else up_card
    if rules.oklahoma and up is None:
        raise ValueError("Oklahoma rules need an up card: the up card sets the knock limit (V9)")
    result = score_showdown(knocker, defender, rules, up)
    return ScoredKnock(tuple(to_cards(knocker)), tuple(to_cards(defender)), up, rules, result)


def _names(cards: Iterable[int]) -> list[str]:
    return [format_card(int(card)) for card in cards]

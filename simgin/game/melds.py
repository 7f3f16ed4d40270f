"""Melds and deadwood: the typed public API over the numba kernels (R3-R6).

Each function checks and converts its input here, so error messages name the bad value,
then calls a kernel that sees only an int64 hand mask and the lookup table.

>>> deadwood("AS 2S 3S 7C 7D 7H TD JD QD KH")
10
>>> from simgin.game.cards import format_cards
>>> melds, loose = meld_arrangement("7C 7D 7H 5H 6H 8H 9C 2D 3D 4D")
>>> [format_cards(meld) for meld in melds], format_cards(loose)
(['2D 3D 4D', '5H 6H 7H 8H'], '7C 9C 7D')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from simgin.game.cards import RANK_COUNT, CardsLike, card_value, cards_to_mask, format_card, to_cards

if TYPE_CHECKING:
    import pandas as pd
from simgin.kernels import melds as _k

MAX_HAND_CARDS = 11


def _hand(cards: CardsLike, low: int = 0, high: int = MAX_HAND_CARDS) -> list[int]:
    hand = to_cards(cards)
    if not low <= len(hand) <= high:
        allowed = f"{low} to {high}" if low != high else f"exactly {low}"
        raise ValueError(f"wrong number of cards: got {len(hand)}, need {allowed}")
    return hand


def deadwood(cards: CardsLike) -> int:
    """Minimum deadwood of a hand of up to 11 cards over all meld arrangements (R6).

    Ace is low and runs do not wrap (R4); sets have 3 or 4 cards (R3); a card is in at
    most one meld (R5).

    >>> deadwood("QS KS AS")  # Q-K-A is not a run (R4)
    21
    """
    return int(_k.deadwood_of_mask(cards_to_mask(_hand(cards)), _k.SUIT_DEADWOOD))


def best_discard(cards: CardsLike) -> tuple[int, int]:
    """A discard leaving the least deadwood, and that deadwood, found in one search.

    Meant for 11 cards (after a draw); any hand of 1 to 11 cards is accepted. Among
    equally good discards the lowest card (``suit * 13 + rank``) is returned.

    >>> from simgin.game.cards import format_card
    >>> card, left = best_discard("AS 2S 3S 7C 7D 7H TD JD QD KH KC")
    >>> format_card(card), left
    ('KC', 10)
    """
    hand = _hand(cards, 1)
    card, left = _k.best_discard_of_mask(cards_to_mask(hand), _k.SUIT_DEADWOOD)
    return int(card), int(left)


def discard_deadwoods(cards: CardsLike) -> dict[int, int]:
    """For each card of the hand, the minimum deadwood left after discarding it (one search)."""
    hand = _hand(cards, 1)
    out = np.zeros(52, dtype=np.int64)
    _k.discard_deadwoods(cards_to_mask(hand), _k.SUIT_DEADWOOD, out)
    return {card: int(out[card]) for card in hand}


def melds_of_mask(mask: int, set_cards: int) -> list[list[int]]:
    """Split a hand into melds given which of its cards form sets: sets by rank, runs as the
    maximal blocks of 3 or more consecutive cards of a suit among the rest (R3, R4)."""
    melds: list[list[int]] = []
    for rank in range(RANK_COUNT):
        meld = [suit * RANK_COUNT + rank for suit in range(4) if set_cards >> (suit * RANK_COUNT + rank) & 1]
        if meld:
            melds.append(meld)
    rest = mask & ~set_cards
    for suit in range(4):
        block: list[int] = []
        for rank in range(RANK_COUNT + 1):
            card = suit * RANK_COUNT + rank
            if rank < RANK_COUNT and rest >> card & 1:
                block.append(card)
                continue
            if len(block) >= 3:
                melds.append(block)
            block = []
    return melds


def meld_arrangement(cards: CardsLike) -> tuple[list[list[int]], list[int]]:
    """One minimum-deadwood arrangement: (melds, deadwood cards), each meld sorted.

    Runs are shown whole (a block of 3 or more consecutive cards of a suit is one run).
    Melds are sorted by their lowest card; deadwood cards ascend.
    """
    hand = _hand(cards)
    mask = cards_to_mask(hand)
    set_cards = int(_k.best_set_cards(mask, _k.SUIT_DEADWOOD))
    melds = sorted(melds_of_mask(mask, set_cards), key=lambda meld: meld[0])
    melded = {card for meld in melds for card in meld}
    return melds, sorted(card for card in hand if card not in melded)


def _masks(hands: np.ndarray) -> np.ndarray:
    try:
        masks = np.ascontiguousarray(hands, dtype=np.int64)
    except (TypeError, ValueError):  # issue 32 item 27: the argument named, not numpy's int() message
        raise TypeError(
            f"hands={hands!r}: give an array (or list) of int hand masks, bit card set for each card held"
        ) from None
    if masks.ndim != 1:
        raise ValueError(f"hand masks must be a 1-d array, got shape {masks.shape}")
    if masks.size and (masks.min() < 0 or masks.max() >= 1 << 52):
        raise ValueError("hand masks must be ints in [0, 2**52): bit card set for each card held")
    counts = np.bitwise_count(masks.astype(np.uint64)) if masks.size else masks
    if masks.size and counts.max() > MAX_HAND_CARDS:
        bad = int(np.argmax(counts > MAX_HAND_CARDS))
        raise ValueError(f"hand mask at index {bad} has {int(counts[bad])} cards; at most {MAX_HAND_CARDS} allowed")
    return masks


def deadwood_batch(hands: np.ndarray) -> np.ndarray:
    """Minimum deadwood of each hand in an array of int64 hand masks (parallel over hands)."""
    masks = _masks(hands)
    out = np.empty(masks.shape[0], dtype=np.int64)
    _k.deadwood_batch(masks, _k.SUIT_DEADWOOD, out)
    return out


def best_discard_batch(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Best discard (card, or -1 for an empty hand) and the deadwood left, for each hand mask."""
    masks = _masks(hands)
    cards = np.empty(masks.shape[0], dtype=np.int64)
    left = np.empty(masks.shape[0], dtype=np.int64)
    _k.best_discard_batch(masks, _k.SUIT_DEADWOOD, cards, left)
    return cards, left


def describe_arrangement(cards: CardsLike) -> str:
    """A one-line human description, e.g. ``'[AS 2S 3S] [7C 7D 7H] | TD ... (deadwood 10)'``."""
    melds, loose = meld_arrangement(cards)
    shown = " ".join("[" + " ".join(format_card(c) for c in meld) + "]" for meld in melds)
    rest = " ".join(format_card(c) for c in loose)
    return f"{shown} | {rest} (deadwood {sum(min(c % 13 + 1, 10) for c in loose)})".strip()


@dataclass(frozen=True)
class HandDeadwood:
    """What ``simgin deadwood`` shows for a hand: its least deadwood, one meld arrangement that reaches it and,
    for 11 cards (a hand after drawing), the best discard and the deadwood it leaves."""

    cards: tuple[int, ...]
    deadwood: int
    melds: tuple[tuple[int, ...], ...]
    deadwood_cards: tuple[int, ...]
    best_discard: tuple[int, int] | None = None
    """(card, deadwood left) for an 11-card hand, else None."""

    def to_json(self) -> dict[str, Any]:
        """The ``simgin deadwood CARDS --json`` object (cards by name, e.g. ``'AS'``)."""
        discard = self.best_discard
        return {
            "cards": _names(self.cards),
            "deadwood": self.deadwood,
            "melds": [_names(meld) for meld in self.melds],
            "deadwood_cards": _names(self.deadwood_cards),
            "best_discard": None if discard is None else {"card": format_card(discard[0]), "deadwood": discard[1]},
        }

    def to_frame(self) -> pd.DataFrame:
        """One row per meld, then one for the cards outside melds: ``group`` (``meld`` or ``deadwood``),
        ``cards`` (by name) and ``points`` (their card values; the deadwood row's is the deadwood)."""
        import pandas as pd

        rows = [{"group": "meld", "cards": " ".join(_names(meld)), "points": _points(meld)} for meld in self.melds]
        rows.append({"group": "deadwood", "cards": " ".join(_names(self.deadwood_cards)), "points": self.deadwood})
        return pd.DataFrame(rows, columns=["group", "cards", "points"])


def describe_deadwood(cards: CardsLike) -> HandDeadwood:
    """``simgin deadwood``: the least deadwood of 1 to 11 cards (R6), with its melds (R3-R5) and, for 11
    cards, the best discard (:func:`best_discard`). Bad cards are a ValueError naming them."""
    hand = _hand(cards, 1)
    melds, loose = meld_arrangement(hand)
    return HandDeadwood(
        cards=tuple(hand),
        deadwood=_points(loose),
        melds=tuple(tuple(meld) for meld in melds),
        deadwood_cards=tuple(loose),
        best_discard=best_discard(hand) if len(hand) == MAX_HAND_CARDS else None,
    )


def _names(cards: Iterable[int]) -> list[str]:
    return [format_card(int(card)) for card in cards]


def _points(cards: Iterable[int]) -> int:
    return sum(card_value(card) for card in cards)

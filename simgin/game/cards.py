"""Cards: the one encoding used everywhere in simgin (R1, R2).

A card is an int ``0..51``: ``card = suit * 13 + rank`` with rank 0 = ace ... 12 = king
and suits in the order clubs, diamonds, hearts, spades (C, D, H, S). Inside the numba
kernels a hand is a 64-bit mask with bit ``card`` set for each card held.

>>> parse_cards("AS 2s 10h TD qc")
[39, 40, 35, 22, 11]
>>> format_cards([39, 40, 35, 22, 11])
'AS 2S TH TD QC'
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

SUITS = "CDHS"
RANKS = "A23456789TJQK"
CARD_COUNT = 52
RANK_COUNT = 13
SUIT_COUNT = 4

#: R2: ace 1, 2-9 face value, ten and court cards 10. Indexed by card.
CARD_VALUES = np.array([min(card % RANK_COUNT + 1, 10) for card in range(CARD_COUNT)], dtype=np.int64)
CARD_VALUES.flags.writeable = False

#: A hand given as text (``"AS 2s 10h"``) or as card ints.
CardsLike = str | Iterable[int]

_TOKEN_SPLIT = re.compile(r"[\s,]+")
_ALLOWED = "a rank (A 2-9 10 T J Q K) followed by a suit (C D H S), e.g. 'AS' or '10h'"


def card_rank(card: int) -> int:
    """Rank of a card, 0 = ace ... 12 = king."""
    return card % RANK_COUNT


def card_suit(card: int) -> int:
    """Suit of a card, 0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades."""
    return card // RANK_COUNT


def card_value(card: int) -> int:
    """Deadwood value of a card (R2)."""
    return int(CARD_VALUES[card])


def make_card(rank: int, suit: int) -> int:
    """The card of a rank (0 = ace) and a suit (0 = clubs)."""
    return suit * RANK_COUNT + rank


def parse_card(token: str) -> int:
    """Parse one card such as ``'AS'``, ``'10h'`` or ``'td'`` (case-insensitive)."""
    text = token.strip().upper()
    if len(text) == 3 and text.startswith("10"):
        text = "T" + text[2]
    if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
        raise ValueError(f"bad card {token!r}: expected {_ALLOWED}")
    return make_card(RANKS.index(text[0]), SUITS.index(text[1]))


def parse_cards(text: str) -> list[int]:
    """Parse cards separated by spaces or commas; a repeated card is an error.

    >>> parse_cards("7c, 7d 7H")
    [6, 19, 32]
    """
    if not isinstance(text, str):
        raise TypeError(f"text={text!r}: give cards as text, e.g. 'AS 2S 3S', not a {type(text).__name__}")
    tokens = [token for token in _TOKEN_SPLIT.split(text.strip()) if token]
    return _distinct((parse_card(token), repr(token)) for token in tokens)


def _distinct(named: Iterable[tuple[int, str]]) -> list[int]:
    """The cards of ``(card, how the caller wrote it)`` pairs, read in order; a repeated card is a ValueError."""
    cards: list[int] = []
    for card, written in named:
        if card in cards:
            raise ValueError(f"repeated card {written}: each card may appear once")
        cards.append(card)
    return cards


def format_card(card: int) -> str:
    """The two-character name of a card, e.g. ``'TH'``."""
    check_card(card)
    return RANKS[card_rank(card)] + SUITS[card_suit(card)]


def format_cards(cards: Iterable[int]) -> str:
    """Space-separated card names in the order given (card ints 0-51; text is refused: it is already names)."""
    if isinstance(cards, str) or not isinstance(cards, Iterable):
        raise TypeError(f"cards={cards!r}: give card ints 0-51, e.g. [0, 1, 2], not a {type(cards).__name__}")
    return " ".join(format_card(check_card(card)) for card in cards)


def check_card(card: object) -> int:
    """Return ``card`` as an int, or raise ``ValueError`` if it is not a card 0-51."""
    if isinstance(card, bool) or not isinstance(card, (int, np.integer)) or not 0 <= int(card) < CARD_COUNT:
        raise ValueError(f"bad card {card!r}: cards are ints 0-51 (suit * 13 + rank)")
    return int(card)


def to_cards(cards: str | Iterable[int]) -> list[int]:
    """Accept a card string or an iterable of card ints; reject repeats and bad cards."""
    if isinstance(cards, str):
        return parse_cards(cards)
    if not isinstance(cards, Iterable):  # issue 32 item 27: the argument and what is allowed, not "not iterable"
        raise TypeError(
            f"cards={cards!r}: give cards as text (e.g. 'AS 2S 3S') or card ints 0-51, not a {type(cards).__name__}"
        )
    return _distinct((value, format_card(value)) for value in map(check_card, cards))


def cards_to_mask(cards: Iterable[int]) -> int:
    """The 64-bit hand mask of some cards (bit ``card`` set)."""
    mask = 0
    for card in cards:
        mask |= 1 << int(card)
    return mask


def mask_to_cards(mask: int) -> list[int]:
    """The cards of a hand mask, in increasing order."""
    mask = int(mask)
    return [card for card in range(CARD_COUNT) if mask >> card & 1]

"""The ``simple`` bot: the EAAI SimpleGinRummyPlayer (Neller's EAAI Gin Rummy framework).

Policy, per decision:

- ``take_up_card`` (R11) and ``draw_from_pile`` (R9): take the pile's top card exactly when
  it belongs to some meld of the hand plus that card: a set (the hand holds at least two
  other cards of its rank, R3) or a run (it lies in a block of three or more consecutive
  cards of its suit in the hand plus the card, R4). No random draw.
- ``discard`` (R9, R10): the candidates are the held cards, ascending, except the card
  just drawn when it came from the pile (always, as in the EAAI player, even where V6
  would allow it) and except a card ``c`` when the pair {drawn card, c} was already
  recorded this hand (a pair is the bitmask of its cards, so {x, y} == {y, x} and {x, x}
  is the single bit x). Among the candidates keep those whose discard leaves the least
  deadwood (``simgin.game.melds.discard_deadwoods``) and pick one with ``rng.randint(len(best))``.
  If every card is excluded, the pair rule is dropped (never the rule about the card just
  taken). Then the pair {drawn card, discarded card} is recorded, except when nothing was
  drawn (``drawn_card == -1``, the V5 first turn). After taking the 50th card
  (V7, ``view.fiftieth_card``) the player must knock, so the candidates are all
  held cards, the taken one included (turned face down), with no pair rule and nothing
  recorded; the least deadwood among them is within the knock limit.
- ``knock`` (R12): always (it is asked only when knocking is legal).
- ``big_gin`` (V13): always.
- ``take_fiftieth`` (V7): always (it is asked only when taking lets the player knock).

The recorded pairs are cleared in ``start_hand``.
"""

from __future__ import annotations

from simgin.game.melds import discard_deadwoods
from simgin.game.rng import SplitMix64
from simgin.game.strategy import Parameter, PlayerView

#: The compiled bot this module describes (``kernels.bots.BOT_NAMES``).
BOT = "simple"
DESCRIPTION = "the EAAI SimpleGinRummyPlayer: takes melding pile cards, discards to least deadwood, knocks at once"
PARAMETERS: tuple[Parameter, ...] = ()

RANK_COUNT = 13


def in_some_meld(hand: tuple[int, ...] | list[int], card: int) -> bool:
    """Whether ``card`` belongs to some set or run of ``hand`` plus ``card`` (R3, R4).

    >>> from simgin.game.cards import parse_card, parse_cards
    >>> in_some_meld(parse_cards("7C 7D KS"), parse_card("7H")), in_some_meld(parse_cards("QS KS"), parse_card("AS"))
    (True, False)
    """
    cards = set(hand) | {card}
    rank, suit = card % RANK_COUNT, card // RANK_COUNT
    if sum(1 for other_suit in range(4) if other_suit * RANK_COUNT + rank in cards) >= 3:
        return True
    low = rank
    while low > 0 and suit * RANK_COUNT + low - 1 in cards:
        low -= 1
    high = rank
    while high < RANK_COUNT - 1 and suit * RANK_COUNT + high + 1 in cards:
        high += 1
    return high - low + 1 >= 3


def pair_mask(first: int, second: int) -> int:
    """The unordered pair {first, second} as a bitmask ({x, x} is the single bit x)."""
    return (1 << first) | (1 << second)


class SimpleStrategy:
    """The EAAI SimpleGinRummyPlayer (see the module docstring for the policy)."""

    name = "simple"

    def __init__(self) -> None:
        self.pairs: set[int] = set()

    def start_hand(self, view: PlayerView, rng: SplitMix64) -> None:
        self.pairs = set()

    def take_up_card(self, view: PlayerView, rng: SplitMix64) -> bool:
        return in_some_meld(view.hand, view.pile[-1])

    def draw_from_pile(self, view: PlayerView, rng: SplitMix64) -> bool:
        return in_some_meld(view.hand, view.pile[-1])

    def discard(self, view: PlayerView, rng: SplitMix64) -> int:
        drawn = view.drawn_card
        left = discard_deadwoods(view.hand)
        if view.fiftieth_card:
            # V7: the player must knock; the taken card may be turned face down.
            return self._least_deadwood(list(view.hand), left, rng)
        allowed = [card for card in view.hand if not (view.drawn_from_pile and card == drawn)]
        candidates = [card for card in allowed if drawn < 0 or pair_mask(drawn, card) not in self.pairs]
        choice = self._least_deadwood(candidates or allowed, left, rng)
        if drawn >= 0:
            self.pairs.add(pair_mask(drawn, choice))
        return choice

    @staticmethod
    def _least_deadwood(candidates: list[int], left: dict[int, int], rng: SplitMix64) -> int:
        """One of the candidates (ascending) whose discard leaves the least deadwood, uniformly."""
        least = min(left[card] for card in candidates)
        best = [card for card in candidates if left[card] == least]
        return best[rng.randint(len(best))]

    def knock(self, view: PlayerView, rng: SplitMix64) -> bool:
        return True

    def big_gin(self, view: PlayerView, rng: SplitMix64) -> bool:
        return True

    def take_fiftieth(self, view: PlayerView, rng: SplitMix64) -> bool:
        return True


#: The plain-Python class that plays exactly as the compiled bot.
TWIN = SimpleStrategy

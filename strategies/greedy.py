"""The ``greedy`` bot: minimum-deadwood draws and discards, knock as soon as possible.

Policy, per decision (no random draws; the numba twin in ``simgin.kernels.bots`` decides the
same way, so both forms play identical hands):

- ``take_up_card`` (R11) and ``draw_from_pile`` (R9): take the pile's top card when some
  discard afterwards leaves less deadwood than the hand holds now; otherwise pass, or draw
  from the stock.
- ``discard`` (R9, R10, V6): the legal card whose discard leaves the least deadwood; ties
  go to the higher rank, then to the higher card (suits in the order C D H S). The card
  just taken from the pile is not legal unless ``rules.rediscard_taken_card`` (V6). After
  taking the 50th card (V7) every held card is legal, and the least deadwood is within the
  knock limit, so the forced knock is always possible.
- ``knock`` (R12): always (it is asked only when knocking is legal).
- ``big_gin`` (V13): always.
- ``take_fiftieth`` (V7): always (it is asked only when taking lets the player knock).
"""

from __future__ import annotations

from simgin.game.melds import deadwood, discard_deadwoods
from simgin.game.rng import SplitMix64
from simgin.game.strategy import Parameter, PlayerView

#: The compiled bot this module describes (``kernels.bots.BOT_NAMES``).
BOT = "greedy"
DESCRIPTION = "minimum-deadwood draws and discards, knocks as soon as it can"
PARAMETERS: tuple[Parameter, ...] = ()


def least_deadwood_discard(hand: tuple[int, ...], banned: int = -1) -> int:
    """The card (not ``banned``) whose discard leaves the least deadwood; ties to the higher rank, then card.

    >>> from simgin.game.cards import format_card, parse_cards
    >>> format_card(least_deadwood_discard(tuple(parse_cards("AS 2S 3S 7C 7D 7H TD JD QD KH KC"))))
    'KH'
    """
    left = discard_deadwoods(hand)
    return min((card for card in hand if card != banned), key=lambda card: (left[card], -(card % 13), -card))


class GreedyStrategy:
    """Minimum-deadwood draws and discards (see the module docstring for the policy)."""

    name = "greedy"

    def start_hand(self, view: PlayerView, rng: SplitMix64) -> None:
        """Nothing to remember between decisions."""

    def _takes(self, view: PlayerView) -> bool:
        top = view.pile[-1]
        return min(discard_deadwoods([*view.hand, top]).values()) < deadwood(view.hand)

    def take_up_card(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._takes(view)

    def draw_from_pile(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._takes(view)

    def discard(self, view: PlayerView, rng: SplitMix64) -> int:
        keep = view.drawn_from_pile and not view.fiftieth_card and not view.rules.rediscard_taken_card
        return least_deadwood_discard(view.hand, view.drawn_card if keep else -1)

    def knock(self, view: PlayerView, rng: SplitMix64) -> bool:
        return True

    def big_gin(self, view: PlayerView, rng: SplitMix64) -> bool:
        return True

    def take_fiftieth(self, view: PlayerView, rng: SplitMix64) -> bool:
        return True


#: The plain-Python class that plays exactly as the compiled bot.
TWIN = GreedyStrategy

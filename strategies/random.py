"""The ``random`` bot: a uniformly random legal move at every decision.

Policy, per decision, with exactly these draws from the seat's generator (the numba twin
makes the same draws, so both engines play the same hand):

- ``take_up_card`` (R11): take the up card when ``rng.randint(2) == 1``.
- ``draw_from_pile`` (R9): draw the pile's top card when ``rng.randint(2) == 1``, else the stock's.
- ``discard`` (R9, R10, V6): the legal cards, ascending, are the cards held minus the card
  just taken from the pile (unless ``rules.rediscard_taken_card``, V6); discard
  ``legal[rng.randint(len(legal))]``. After taking the 50th card (V7, ``view.fiftieth_card``) the
  legal cards are instead those held, the taken card
  included, whose discard leaves at most the knock limit, since the player must knock.
- ``knock`` (R12): knock when ``rng.randint(2) == 1`` (asked only when knocking is legal).
- ``big_gin`` (V13): go big gin when ``rng.randint(2) == 1``.
- ``take_fiftieth`` (V7): take the 50th card when ``rng.randint(2) == 1``.
"""

from __future__ import annotations

from simgin.game.melds import discard_deadwoods
from simgin.game.rng import SplitMix64
from simgin.game.strategy import Parameter, PlayerView

#: The compiled bot this module describes (``kernels.bots.BOT_NAMES``).
BOT = "random"
DESCRIPTION = "uniformly random legal moves"
PARAMETERS: tuple[Parameter, ...] = ()


def is_fiftieth_discard(view: PlayerView) -> bool:
    """Whether this discard follows taking the 50th card (V7), after which the player must knock."""
    return view.fiftieth_card


def legal_discards(view: PlayerView) -> list[int]:
    """The cards that may be discarded now, ascending (R9, R10, V6, V7)."""
    if is_fiftieth_discard(view):
        left = discard_deadwoods(view.hand)
        return [card for card in view.hand if left[card] <= view.knock_limit]
    if view.drawn_from_pile and not view.rules.rediscard_taken_card:
        return [card for card in view.hand if card != view.drawn_card]
    return list(view.hand)


class RandomStrategy:
    """Uniformly random legal moves (see the module docstring for the exact draws)."""

    name = "random"

    def start_hand(self, view: PlayerView, rng: SplitMix64) -> None:
        """Nothing to remember between decisions."""

    def take_up_card(self, view: PlayerView, rng: SplitMix64) -> bool:
        return rng.randint(2) == 1

    def draw_from_pile(self, view: PlayerView, rng: SplitMix64) -> bool:
        return rng.randint(2) == 1

    def discard(self, view: PlayerView, rng: SplitMix64) -> int:
        legal = legal_discards(view)
        return legal[rng.randint(len(legal))]

    def knock(self, view: PlayerView, rng: SplitMix64) -> bool:
        return rng.randint(2) == 1

    def big_gin(self, view: PlayerView, rng: SplitMix64) -> bool:
        return rng.randint(2) == 1

    def take_fiftieth(self, view: PlayerView, rng: SplitMix64) -> bool:
        return rng.randint(2) == 1


#: The plain-Python class that plays exactly as the compiled bot.
TWIN = RandomStrategy

"""The Python twin of the EAAI test player tests/java/players/TwinPlayer.java: the same hands.

Draw: take the pile's top card when it sits in a set or run of the hand plus it. Discard: the
card leaving the least deadwood, never the card just taken from the pile; ties go to the
highest rank, then the highest suit in the EAAI order C, H, S, D. Knock whenever asked (it is
asked only within the limit, where the Java player's getFinalMelds knocks). Like every EAAI
player under simgin, it declines big gin (V13) and the 50th card (V7).
"""

from __future__ import annotations

from simgin.strategies.simple import in_some_meld

from simgin.game.melds import discard_deadwoods

#: The EAAI suit index of each simgin suit (C, D, H, S -> 0, 3, 1, 2).
EAAI_SUIT = (0, 3, 1, 2)


class Twin:
    """TwinPlayer.java in Python."""

    name = "twin"

    def start_hand(self, view, rng):
        pass

    def take_up_card(self, view, rng):
        return in_some_meld(view.hand, view.pile[-1])

    def draw_from_pile(self, view, rng):
        return in_some_meld(view.hand, view.pile[-1])

    def discard(self, view, rng):
        left = discard_deadwoods(view.hand)
        taken = view.drawn_card if view.drawn_from_pile else -1
        allowed = [card for card in view.hand if card != taken]
        least = min(left[card] for card in allowed)
        return max((card for card in allowed if left[card] == least), key=lambda c: (c % 13, EAAI_SUIT[c // 13]))

    def knock(self, view, rng):
        return True

    def big_gin(self, view, rng):
        return False

    def take_fiftieth(self, view, rng):
        return False

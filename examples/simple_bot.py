#!/usr/bin/env python3
"""A complete simgin bot as a separate program: the ``simple`` player over the line protocol.

Run it against the built-in bot it copies (docs/PROTOCOL.md has the protocol):

    simgin match "exec:python3 examples/simple_bot.py" simple --hands 2000

It plays exactly like simgin's built-in ``simple`` (the EAAI SimpleGinRummyPlayer): the same
hands on the same seeds. It imports nothing from simgin, so it is also a template for a bot
in any language: read lines from stdin, keep the table up to date from the events, answer
each ``ask`` line with one line on stdout and flush. Everything else goes to stderr.

Policy (as ``strategies/simple.py``):

- take the up card or the pile's top card exactly when it belongs to some meld of the hand
  plus that card (a set of its rank, or a run of three or more in its suit);
- discard a card leaving the least deadwood, never the card just taken from the pile, and
  not a card whose pair with the card drawn this turn was already drawn and discarded this
  hand (unless nothing else is left); ties are broken with the seat's random generator,
  ``randint(len(ties))`` over the tied cards in ascending order, and the pair is recorded;
  after taking the 50th card (V7) the player must knock: any card, the taken one included;
- knock, go big gin and take the 50th card whenever asked.

Cards are ints 0-51, ``suit * 13 + rank``, suits C D H S, rank 0 the ace. Needs Python 3.10+.
"""

from __future__ import annotations

import sys
import traceback

NAME = "simple-example"
RANKS = 13
VALUES = [min(card % RANKS + 1, 10) for card in range(52)]
MASK64 = (1 << 64) - 1
RANK_BITS = [sum(1 << (suit * RANKS + rank) for suit in range(4)) for rank in range(RANKS)]


class SplitMix64:
    """The seat's random generator: the state comes in the ``hand`` line, so draws match simgin's."""

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def randint(self, n: int) -> int:
        """Uniform in [0, n): the top 32 bits scaled, as simgin draws."""
        return ((self.next_u64() >> 32) * n) >> 32


def melds_in(hand: list[int]) -> list[tuple[int, int]]:
    """Every meld within ``hand`` as (bit mask, value): sets of 3 or 4 of a rank, runs of 3 or more."""
    mask = 0
    for card in hand:
        mask |= 1 << card
    melds = []
    ranks_seen = 0
    for card in hand:
        rank = card % RANKS
        if not ranks_seen >> rank & 1:
            ranks_seen |= 1 << rank
            bits = mask & RANK_BITS[rank]
            count = bits.bit_count()
            if count >= 3:
                melds.append((bits, VALUES[rank] * count))
                if count == 4:  # and the four sets of three
                    melds.extend((bits & ~(1 << (suit * RANKS + rank)), VALUES[rank] * 3) for suit in range(4))
        if rank > 0 and mask >> (card - 1) & 1:
            continue  # runs start at the lowest card of a block of the suit
        end = card
        while end % RANKS < RANKS - 1 and mask >> (end + 1) & 1:
            end += 1
        for low in range(card, end - 1):
            bits = value = 0
            for high in range(low, end + 1):
                bits |= 1 << high
                value += VALUES[high]
                if high - low >= 2:
                    melds.append((bits, value))
    return melds


def discard_deadwoods(hand: list[int]) -> dict[int, int]:
    """For each card of the hand, the least deadwood left after discarding it: the hand's value
    less the card's and less the most that disjoint melds without the card can hold."""
    total = sum(VALUES[card] for card in hand)
    melds = melds_in(hand)
    if not melds:
        return {card: total - VALUES[card] for card in hand}
    packings = [(0, 0)]  # every set of disjoint melds: (cards, value)

    def pack(start: int, used: int, value: int) -> None:
        for index in range(start, len(melds)):
            bits, meld_value = melds[index]
            if not bits & used:
                packings.append((used | bits, value + meld_value))
                pack(index + 1, used | bits, value + meld_value)

    pack(0, 0, 0)
    left = {}
    for card in hand:
        bit = 1 << card
        left[card] = total - VALUES[card] - max(value for bits, value in packings if not bits & bit)
    return left


def in_some_meld(hand: list[int], card: int) -> bool:
    """Whether ``card`` is in a set or run of ``hand`` plus ``card``."""
    cards = set(hand)
    cards.add(card)
    rank, suit = card % RANKS, card // RANKS
    if sum(1 for other in range(4) if other * RANKS + rank in cards) >= 3:
        return True
    low = high = rank
    while low > 0 and suit * RANKS + low - 1 in cards:
        low -= 1
    while high < RANKS - 1 and suit * RANKS + high + 1 in cards:
        high += 1
    return high - low >= 2


class Bot:
    """The table as this player knows it, kept up to date from the protocol's events."""

    def __init__(self) -> None:
        self.seat = 0
        self.hand: list[int] = []
        self.pile: list[int] = []
        self.pairs: set[int] = set()
        self.rng = SplitMix64(0)

    def event(self, words: list[str]) -> None:
        kind = words[0]
        if kind == "hand":  # hand SEAT DEALER RNG KNOCK_LIMIT UP_CARD STOCK_COUNT SCORE0 SCORE1 CARD...
            self.seat = int(words[1])
            self.rng = SplitMix64(int(words[3]))
            up_card = int(words[5])
            self.pile = [up_card] if up_card >= 0 else []
            self.hand = sorted(map(int, words[9:]))
            self.pairs = set()
        elif kind == "draw":  # draw SEAT CARD (-1 for the opponent's unseen stock card)
            if int(words[1]) == self.seat:
                self._add(int(words[2]))
        elif kind == "take":  # take SEAT CARD: the pile's top card
            self.pile.pop()
            if int(words[1]) == self.seat:
                self._add(int(words[2]))
        elif kind == "discard":  # discard SEAT CARD
            card = int(words[2])
            self.pile.append(card)
            if int(words[1]) == self.seat:
                self.hand.remove(card)
        # rules, pass, melds, layoff, shown and end change nothing this player keeps.

    def _add(self, card: int) -> None:
        self.hand.append(card)
        self.hand.sort()

    def ask(self, words: list[str]) -> str:
        decision = words[1]  # ask DECISION TURN DRAWN FROM_PILE FIFTIETH
        if decision in ("take_up_card", "draw_from_pile"):
            return "yes" if in_some_meld(self.hand, self.pile[-1]) else "no"
        if decision == "discard":
            return str(self.discard(int(words[3]), words[4] == "1", words[5] == "1"))
        return "yes"  # knock, big_gin, take_fiftieth: always

    def discard(self, drawn: int, from_pile: bool, fiftieth: bool) -> int:
        left = discard_deadwoods(self.hand)
        if fiftieth:
            return self.least_deadwood(self.hand, left)
        allowed = [card for card in self.hand if not (from_pile and card == drawn)]
        fresh = [card for card in allowed if drawn < 0 or (1 << drawn | 1 << card) not in self.pairs]
        choice = self.least_deadwood(fresh or allowed, left)
        if drawn >= 0:
            self.pairs.add(1 << drawn | 1 << choice)
        return choice

    def least_deadwood(self, candidates: list[int], left: dict[int, int]) -> int:
        least = min(left[card] for card in candidates)
        best = [card for card in candidates if left[card] == least]
        return best[self.rng.randint(len(best))]


def main() -> None:
    bot = Bot()
    out = sys.stdout
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "ask":
            try:
                answer = bot.ask(words)
            except Exception as error:  # say so in the answer; the details go to stderr
                traceback.print_exc()
                answer = f"error {type(error).__name__}: {error}"
            out.write(answer + "\n")
            out.flush()
        elif words[0] == "simgin":  # the handshake: simgin VERSION
            out.write(f"simgin 1 {NAME}\n")
            out.flush()
        elif words[0] == "quit":
            return
        else:
            bot.event(words)


if __name__ == "__main__":
    main()

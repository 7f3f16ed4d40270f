"""What a compiled bot may see: the public table of a hand in one int64 array.

This is :class:`simgin.game.strategy.PlayerView` as plain numbers. The numba engine keeps one
table per hand and writes into it only what both players see: the rules, the pile in
order, the stock size, the knock limit, the up card, the scores, and for each seat the
cards it took from the pile, the up cards it passed and the cards it discarded, in order.
Before each decision it also writes the deciding seat's drawn card. The opponent's hand
and the stock order are never in it, so a compiled bot, which receives only its own hand
(a 64-bit mask), this table and its own memory, cannot see them.

A bot reads the lists of the *opponent* only (``PlayerView`` has no lists of the player's
own moves): :class:`simgin.players.compiled.CompiledStrategy` builds the same table from
a ``PlayerView``, where the player's own lists are empty.
"""

from __future__ import annotations

from numba import njit

from simgin.kernels.rule_index import RULE_COUNT

T_SEAT = 0
T_DEALER = 1
T_UP_CARD = 2
T_KNOCK_LIMIT = 3
T_STOCK_COUNT = 4
T_TURN = 5
T_SCORE = 6  # two slots, by seat
T_DRAWN = 8
T_FROM_PILE = 9
T_FIFTIETH = 10
T_PILE_COUNT = 11
T_TOOK_COUNT = 12  # two slots, by seat
T_PASSED_COUNT = 14  # two slots, by seat
T_DISCARD_COUNT = 16  # two slots, by seat
T_RULES = 20  # RULE_COUNT slots: a copy of ``Rules.to_array()`` (the rules are public)
T_PILE = T_RULES + RULE_COUNT  # 52 slots, bottom first
#: Room per seat for cards taken or discarded: a seat plays at most half of the engine's
#: 500 turns (MAX_TURNS) plus the V7 take; a test checks this bound.
LIST_CAPACITY = 256
T_TOOK = T_PILE + 52  # LIST_CAPACITY slots per seat
T_PASSED = T_TOOK + 2 * LIST_CAPACITY  # 2 slots per seat
T_DISCARDS = T_PASSED + 4  # LIST_CAPACITY slots per seat
TABLE_SIZE = T_DISCARDS + 2 * LIST_CAPACITY


@njit(cache=True)
def reset(table, rules, dealer, up_card, knock_limit, stock_count, score_0, score_1):
    """A new hand's table: nothing taken, passed or discarded; the pile holds the up card (if any)."""
    for i in range(RULE_COUNT):
        table[T_RULES + i] = rules[i]
    table[T_SEAT] = 0
    table[T_DEALER] = dealer
    table[T_UP_CARD] = up_card
    table[T_KNOCK_LIMIT] = knock_limit
    table[T_STOCK_COUNT] = stock_count
    table[T_TURN] = 0
    table[T_SCORE] = score_0
    table[T_SCORE + 1] = score_1
    table[T_DRAWN] = -1
    table[T_FROM_PILE] = 0
    table[T_FIFTIETH] = 0
    for seat in range(2):
        table[T_TOOK_COUNT + seat] = 0
        table[T_PASSED_COUNT + seat] = 0
        table[T_DISCARD_COUNT + seat] = 0
    table[T_PILE_COUNT] = 0
    if up_card >= 0:
        table[T_PILE] = up_card
        table[T_PILE_COUNT] = 1


@njit(cache=True, inline="always")
def set_decision(table, seat, turn, stock_count, drawn, from_pile, fiftieth):
    """The deciding seat and the facts of its turn, written before each question."""
    table[T_SEAT] = seat
    table[T_TURN] = turn
    table[T_STOCK_COUNT] = stock_count
    table[T_DRAWN] = drawn
    table[T_FROM_PILE] = from_pile
    table[T_FIFTIETH] = fiftieth


@njit(cache=True, inline="always")
def pile_top(table):
    """The card that may be taken from the pile, or -1 when it is empty."""
    count = table[T_PILE_COUNT]
    return table[T_PILE + count - 1] if count > 0 else -1


@njit(cache=True, inline="always")
def take_from_pile(table, seat):
    """``seat`` takes the pile's top card (R9, R11, V7); returns it."""
    count = table[T_PILE_COUNT] - 1
    card = table[T_PILE + count]
    table[T_PILE_COUNT] = count
    taken = table[T_TOOK_COUNT + seat]
    table[T_TOOK + seat * LIST_CAPACITY + taken] = card
    table[T_TOOK_COUNT + seat] = taken + 1
    return card


@njit(cache=True, inline="always")
def pass_up_card(table, seat, card):
    """``seat`` declines the up card on the first turn (R11)."""
    passed = table[T_PASSED_COUNT + seat]
    table[T_PASSED + 2 * seat + passed] = card
    table[T_PASSED_COUNT + seat] = passed + 1


@njit(cache=True, inline="always")
def discard(table, seat, card):
    """``seat`` puts ``card`` on the pile (R9)."""
    count = table[T_PILE_COUNT]
    table[T_PILE + count] = card
    table[T_PILE_COUNT] = count + 1
    done = table[T_DISCARD_COUNT + seat]
    table[T_DISCARDS + seat * LIST_CAPACITY + done] = card
    table[T_DISCARD_COUNT + seat] = done + 1


@njit(cache=True)
def pile_mask(table):
    """The cards in the pile, as a mask."""
    mask = 0
    for i in range(table[T_PILE_COUNT]):
        mask |= 1 << table[T_PILE + i]
    return mask


@njit(cache=True)
def known_opponent_cards(table, seat, hand):
    """Cards the opponent of ``seat`` certainly holds: taken from the pile and not seen since.

    A card leaves a hand only by a discard onto the pile, and leaves the pile only into a
    hand, so a card the opponent took that is neither in the pile nor in ``hand`` is in
    the opponent's hand.
    """
    other = 1 - seat
    pile = pile_mask(table)
    known = 0
    for i in range(table[T_TOOK_COUNT + other]):
        card = table[T_TOOK + other * LIST_CAPACITY + i]
        if not (pile >> card) & 1 and not (hand >> card) & 1:
            known |= 1 << card
    return known

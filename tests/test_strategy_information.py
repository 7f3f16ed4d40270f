"""No built-in strategy sees hidden cards: changing them never changes a decision (issue 3).

The hidden cards of a seat are the opponent's cards it never sees and the stock order.
For each built-in a hand is played against an opponent, and every question the built-in
is asked is recorded with its answer. Then the hand is replayed on a deck in which the
cards that the built-in never sees in that hand (the opponent's cards that are never
discarded and the stock cards that neither it draws nor the opponent discards) change
places, while the opponent replays its recorded moves. Everything the built-in sees is
then the same, so it must answer the same questions the same way. A strategy that peeks
at the engine's state is caught by the same test.

Compiled bots run here through their Python adapter, which rebuilds the public table from
the ``PlayerView``; ``test_engine_differential.py`` holds the numba engine, which writes
that table itself, to the same hands.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect

import pytest

from simgin.game import reference_engine as ref
from simgin.game.rng import SplitMix64, derive, shuffled_deck
from simgin.game.rules import Rules
from simgin.players.registry import BUILTIN_NAMES, resolve
from simgin.running.engine import hand_seeds

DECISIONS = ("take_up_card", "draw_from_pile", "discard", "knock", "big_gin", "take_fiftieth")
SPECS = {name: name for name in BUILTIN_NAMES} | {"mcts": "mcts:budget=60"}
RULE_SETS = {
    "standard": Rules(),
    "eaai": Rules.preset("eaai"),
    "v6_v7": dataclasses.replace(Rules(), rediscard_taken_card=True, fiftieth_card_action=True),
    "modern_big_gin": Rules.preset("modern"),
    "eleven_card_start": dataclasses.replace(Rules(), eleven_card_start=True),
    "oklahoma": Rules.preset("oklahoma"),
}


class Recorder:
    """Passes every question to ``inner`` and logs (decision, turn, answer)."""

    def __init__(self, inner):
        self.inner = inner
        self.name = getattr(inner, "name", "recorded")
        self.log: list[tuple[str, int, object]] = []

    def start_hand(self, view, rng):
        self.inner.start_hand(view, rng)

    def __getattr__(self, decision):
        if decision not in DECISIONS:
            raise AttributeError(decision)

        def ask(view, rng):
            answer = getattr(self.inner, decision)(view, rng)
            self.log.append((decision, view.turn, answer))
            return answer

        return ask


class Replay:
    """Answers each question as the recorded player did on the same turn; a question it was
    not asked gets a harmless answer (decline, keep, discard the highest legal card)."""

    name = "replay"

    def __init__(self, log):
        self.answers = {(decision, turn): answer for decision, turn, answer in log}

    def start_hand(self, view, rng):
        pass

    def __getattr__(self, decision):
        if decision not in DECISIONS:
            raise AttributeError(decision)

        def ask(view, rng):
            if (decision, view.turn) in self.answers:
                return self.answers[(decision, view.turn)]
            if decision == "discard":
                banned = view.drawn_card if view.drawn_from_pile else -1
                return max(card for card in view.hand if card != banned)
            return False

        return ask


def hidden_shuffle(record: ref.HandRecord, seat: int, rng: SplitMix64) -> list[int]:
    """The hand's deck with the cards ``seat`` never saw in it shuffled among their places."""
    deal = record.moves[0]
    order = _deck_order(record)
    seen = set(deal.hands[seat]) | ({deal.up_card} if deal.up_card >= 0 else set())
    for move in record.moves:
        if isinstance(move, ref.Draw) and move.seat == seat:
            seen.add(move.card)
        if isinstance(move, ref.Discard):
            seen.add(move.card)
    hidden = [i for i, card in enumerate(order) if card not in seen]
    cards = [order[i] for i in hidden]
    for i in range(len(cards) - 1, 0, -1):
        j = rng.randint(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    shuffled = list(order)
    for i, card in zip(hidden, cards, strict=True):
        shuffled[i] = card
    assert sorted(shuffled) == list(range(52))
    return shuffled


def _deck_order(record: ref.HandRecord) -> list[int]:
    """The deck in deal order (docs/ENGINE.md): alternately non-dealer, dealer; up card; stock."""
    deal = record.moves[0]
    nondealer, dealer = deal.hands[1 - deal.dealer], deal.hands[deal.dealer]
    order = []
    for i, card in enumerate(nondealer):
        order.append(card)
        if i < len(dealer):
            order.append(dealer[i])
    if deal.up_card >= 0:
        order.append(deal.up_card)
    return order + list(deal.stock)


def check_hidden_cards_do_not_matter(make_bot, make_opponent, rules, hand_seed, dealer, bot_seat, reshuffles=2):
    """Play, reshuffle the hidden cards, replay: the bot's questions and answers must repeat."""
    bot = Recorder(make_bot())
    opponent = Recorder(make_opponent())
    players = (bot, opponent) if bot_seat == 0 else (opponent, bot)
    record = ref.play_hand(players, rules, hand_seed, dealer)
    assert _deck_order(record) == shuffled_deck(SplitMix64(derive(hand_seed, 0)))
    differences = []
    for k in range(reshuffles):
        deck = hidden_shuffle(record, bot_seat, SplitMix64(derive(hand_seed, 1000 + k)))
        again = Recorder(make_bot())
        replay = Replay(opponent.log)
        players = (again, replay) if bot_seat == 0 else (replay, again)
        # The replayed opponent's moves may stop fitting the new deck after the bot's last question.
        with contextlib.suppress(ref.IllegalDecision):
            ref.play_hand(players, rules, hand_seed, dealer, deck=deck)
        if again.log[: len(bot.log)] != bot.log:
            differences.append((deck, bot.log, again.log))
    return len(bot.log), differences


@pytest.mark.parametrize("name", list(SPECS))
def test_hidden_cards_never_change_a_decision(name):
    player = resolve(SPECS[name])
    opponents = (resolve("simple"), resolve("random"))
    questions = 0
    for rules_index, (rules_name, rules) in enumerate(RULE_SETS.items()):
        for i, seed in enumerate(hand_seeds(50 + rules_index, 6)):
            count, differences = check_hidden_cards_do_not_matter(
                player.make, opponents[i % 2].make, rules, int(seed), dealer=i % 2, bot_seat=(i // 2) % 2
            )
            questions += count
            assert not differences, (
                f"{name} under {rules_name}, hand seed {int(seed)}: a hidden card changed a decision"
            )
    assert questions > 300, "the hands must ask the bot enough questions to mean something"


class Peeker:
    """A cheat: it reads the opponent's hand out of the engine's frames and knocks only when
    the opponent holds a king, and takes the pile card only when the stock's top is high."""

    name = "peeker"

    def _hand_state(self):
        frame = inspect.currentframe()  # walked by hand: inspect.stack() reads every frame's source lines
        while frame is not None:
            engine_hand = frame.f_locals.get("self")
            if isinstance(engine_hand, ref._Hand):
                return engine_hand
            frame = frame.f_back
        raise AssertionError("no engine frame")

    def start_hand(self, view, rng):
        pass

    def take_up_card(self, view, rng):
        return False

    def draw_from_pile(self, view, rng):
        stock = self._hand_state().stock
        return bool(stock) and stock[0] % 13 >= 9

    def discard(self, view, rng):
        banned = view.drawn_card if view.drawn_from_pile else -1
        return max(card for card in view.hand if card != banned)

    def knock(self, view, rng):
        return any(card % 13 == 12 for card in self._hand_state().hands[1 - view.seat])

    def big_gin(self, view, rng):
        return True

    def take_fiftieth(self, view, rng):
        return False


def test_the_check_catches_a_strategy_that_peeks():
    caught = 0
    for i, seed in enumerate(hand_seeds(7, 10)):
        _, differences = check_hidden_cards_do_not_matter(
            Peeker, resolve("simple").make, Rules(), int(seed), dealer=i % 2, bot_seat=i % 2, reshuffles=3
        )
        caught += bool(differences)
    assert caught >= 5

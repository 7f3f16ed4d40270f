"""The plain-Python reference engine, rule by rule (docs/ENGINE.md; RULES.md R7-R23, V5-V14).

Hand tests build the deck by hand (``deck=``) and drive scripted strategies: each script
lists the questions a seat must be asked, in order, with its answers, so a test also
checks which questions the engine asks and when. The expected record is worked out in a
comment. Game tests feed hand records to the :class:`Scoreboard`. The fuzzing of many
seeded hands and games of the bots under every preset and variant is in
tests/test_reference_engine_fuzz.py.
"""

from __future__ import annotations

import dataclasses

import pytest
from simgin.strategies.random import RandomStrategy
from simgin.strategies.simple import SimpleStrategy, in_some_meld, pair_mask

from simgin.game import reference_engine as engine
from simgin.game.cards import CARD_COUNT, format_cards, parse_card, parse_cards
from simgin.game.reference_engine import (
    Deal,
    Discard,
    Draw,
    FiftiethOffer,
    HandRecord,
    IllegalDecision,
    Knock,
    LayOff,
    Offer,
    Outcome,
    Score,
    Scoreboard,
    play_game,
    play_hand,
)
from simgin.game.rng import SplitMix64, derive, shuffled_deck
from simgin.game.rules import Rules
from simgin.game.strategy import PlayerView, Strategy

STANDARD = Rules()

# Hands used again and again. ``KNOCKER`` holds A-2-3 of clubs and 4-5-6 of diamonds with
# 7H 8H QS KS loose (35): with 9H it melds 7-8-9 of hearts and knocks with QS (10) after
# discarding KS. ``DEFENDER`` has no meld, nothing to lay off on KNOCKER's melds, and
# deadwood 5+7+9+10+10+2+4+6+8+10 = 71.
KNOCKER = "AC 2C 3C 4D 5D 6D 7H 8H QS KS"
DEFENDER = "5C 7C 9C JD KD 2H 4H 6S 8S TS"


def card(text: str) -> int:
    return parse_card(text)


def build_deck(nondealer: str, dealer: str, up: str | None = None, stock: str = "") -> list[int]:
    """A deck dealt as R8 (or V5) says: deck[2i] to the non-dealer, deck[2i+1] to the dealer,
    then the up card, then the stock from its top; the unnamed cards follow in order."""
    first, second = parse_cards(nondealer), parse_cards(dealer)
    deck: list[int] = []
    for i, nondealer_card in enumerate(first):
        deck.append(nondealer_card)
        if i < len(second):
            deck.append(second[i])
    if up is not None:
        deck.append(card(up))
    deck += parse_cards(stock)
    deck += [c for c in range(CARD_COUNT) if c not in deck]
    assert sorted(deck) == list(range(CARD_COUNT)), "a card is named twice"
    return deck


class Script:
    """A scripted player: answers the listed (decision, answer) steps in order.

    A question that is not the next step fails the test, unless ``filler`` is on: then it
    is answered by a filler policy (decline the up card and the pile, discard the card just
    drawn from the stock, never knock, never take the 50th card), so a hand can run to its
    end. A discard answer is a card name. Every question is logged as (seat, decision).
    """

    def __init__(self, steps: list[tuple[str, object]] = (), log: list | None = None, filler: bool = False):
        self.name = "script"
        self.steps = list(steps)
        self.log = log if log is not None else []
        self.filler = filler
        self.views: list[tuple[str, PlayerView]] = []
        self.started: list[PlayerView] = []

    def start_hand(self, view, rng):
        self.started.append(view)

    def _answer(self, decision: str, view: PlayerView):
        self.log.append((view.seat, decision))
        self.views.append((decision, view))
        if self.steps and self.steps[0][0] == decision:
            answer = self.steps.pop(0)[1]
            return card(answer) if decision == "discard" and isinstance(answer, str) else answer
        if not self.filler:
            raise AssertionError(f"seat {view.seat} asked {decision!r}, script expected {self.steps[:1]}")
        if decision == "discard":
            return view.drawn_card if view.drawn_card >= 0 and not view.drawn_from_pile else view.hand[-1]
        return False

    def take_up_card(self, view, rng):
        return self._answer("take_up_card", view)

    def draw_from_pile(self, view, rng):
        return self._answer("draw_from_pile", view)

    def discard(self, view, rng):
        return self._answer("discard", view)

    def knock(self, view, rng):
        return self._answer("knock", view)

    def big_gin(self, view, rng):
        return self._answer("big_gin", view)

    def take_fiftieth(self, view, rng):
        return self._answer("take_fiftieth", view)


def seats(dealer: int, nondealer_script: Script, dealer_script: Script) -> tuple[Script, Script]:
    """The two scripts ordered by seat."""
    return (dealer_script, nondealer_script) if dealer == 0 else (nondealer_script, dealer_script)


def expect(record: HandRecord, **expected: int) -> None:
    got = {name: getattr(record, name) for name in expected}
    assert got == expected


def test_scripts_and_bots_follow_the_strategy_protocol():
    for strategy in (Script(), RandomStrategy(), SimpleStrategy()):
        assert isinstance(strategy, Strategy)


# ---------------------------------------------------------------------------------------
# Seeds and the deal.


def test_R8_deal_alternates_from_the_nondealer_and_turns_up_the_21st_card():
    # deck = 0..51, dealer seat 1: seat 0 (non-dealer) gets 0, 2, ..., 18, seat 1 gets
    # 1, 3, ..., 19, card 20 is the up card and 21..51 the stock.
    log: list = []
    players = (Script(log=log, filler=True), Script(log=log, filler=True))
    record = play_hand(players, STANDARD, hand_seed=5, dealer=1, deck=list(range(52)))
    nondealer_view, dealer_view = players[0].started[0], players[1].started[0]
    assert nondealer_view.hand == tuple(range(0, 20, 2))
    assert dealer_view.hand == tuple(range(1, 20, 2))
    assert nondealer_view.pile == dealer_view.pile == (20,)
    assert (nondealer_view.stock_count, nondealer_view.up_card, nondealer_view.dealer) == (31, 20, 1)
    assert record.moves[0] == Deal(1, (tuple(range(0, 20, 2)), tuple(range(1, 20, 2))), 20, tuple(range(21, 52)))
    assert record.up_card == 20
    # R11: the non-dealer (seat 0) is asked first, then the dealer.
    assert log[:2] == [(0, "take_up_card"), (1, "take_up_card")]


def test_R7_hand_seed_sets_the_deck_and_each_seats_generator():
    # docs/ENGINE.md: deck from derive(seed, 0), seat s draws from derive(seed, 1 + s).
    firsts: dict[int, int] = {}

    class Recorder(Script):
        def start_hand(self, view, rng):
            firsts[view.seat] = rng.next_u64()

    players = (Recorder(filler=True), Recorder(filler=True))
    record = play_hand(players, STANDARD, hand_seed=1234, dealer=0)
    deck = shuffled_deck(SplitMix64(derive(1234, 0)))
    assert record.moves[0].hands == (tuple(deck[1:20:2]), tuple(deck[0:20:2]))
    assert record.up_card == deck[20]
    assert firsts == {seat: SplitMix64(derive(1234, 1 + seat)).next_u64() for seat in (0, 1)}


def test_V5_eleven_card_start_nondealer_only_discards_on_the_first_turn():
    # Non-dealer (seat 1) holds KNOCKER + 9H (11 cards), no up card. Its first question is
    # the discard (KS, drawn_card -1), then it knocks with QS: 71 - 10 = 61 points, no draw.
    rules = dataclasses.replace(STANDARD, eleven_card_start=True)
    nondealer = Script([("discard", "KS"), ("knock", True)])
    dealer = Script()
    deck = build_deck(KNOCKER + " 9H", DEFENDER)
    record = play_hand(seats(0, nondealer, dealer), rules, hand_seed=0, dealer=0, deck=deck)
    assert len(nondealer.started[0].hand) == 11 and len(dealer.started[0].hand) == 10
    discard_view = nondealer.views[0][1]
    assert (discard_view.drawn_card, discard_view.pile, discard_view.up_card) == (-1, (), -1)
    expect(record, kind=Outcome.KNOCK, winner=1, points=61, up_card=-1, turns=1, draws=0, knocker_deadwood=10)


def test_V5_then_the_dealer_plays_a_normal_turn_from_the_pile():
    rules = dataclasses.replace(STANDARD, eleven_card_start=True)
    log: list = []
    nondealer = Script([("discard", "KS"), ("knock", False)], log, filler=True)
    dealer = Script([("draw_from_pile", True), ("discard", "TS")], log, filler=True)
    deck = build_deck(KNOCKER + " 9H", DEFENDER)
    record = play_hand(seats(0, nondealer, dealer), rules, hand_seed=0, dealer=0, deck=deck)
    assert log[:4] == [(1, "discard"), (1, "knock"), (0, "draw_from_pile"), (0, "discard")]
    assert dealer.views[0][1].pile == (card("KS"),)
    # The discard-only turn, the dealer's take of KS, then 29 stock turns: 31 turns, 30 draws.
    expect(record, kind=Outcome.DEAD, turns=31, draws=30, pile_takes_0=1, pile_takes_1=0)


# ---------------------------------------------------------------------------------------
# The first turn (R11) and the re-discard rule (R10, V6).


def test_R11_nondealer_takes_the_up_card_and_knocks():
    # Non-dealer KNOCKER takes 9H, discards KS, knocks with QS (10) against DEFENDER (71):
    # knock, 61 points, 1 turn, 1 draw, 1 pile take by the non-dealer (seat 1).
    nondealer = Script([("take_up_card", True), ("discard", "KS"), ("knock", True)])
    deck = build_deck(KNOCKER, DEFENDER, up="9H")
    record = play_hand(seats(0, nondealer, Script()), STANDARD, hand_seed=0, dealer=0, deck=deck)
    assert record.row() == (0, 1, 1, 61, 1, 10, 71, 0, 1, 1, card("9H"), 10, 1, 0, 1, 0, 0)
    assert record.moves[1:4] == (Offer(1, card("9H"), True), Draw(1, "pile", card("9H")), Discard(1, card("KS")))


def test_R11_dealer_may_take_the_up_card_the_nondealer_passed():
    # Non-dealer DEFENDER passes 9H; the dealer (KNOCKER, seat 0) takes it and knocks: 61.
    log: list = []
    nondealer = Script([("take_up_card", False)], log)
    dealer = Script([("take_up_card", True), ("discard", "KS"), ("knock", True)], log)
    deck = build_deck(DEFENDER, KNOCKER, up="9H")
    record = play_hand(seats(0, nondealer, dealer), STANDARD, hand_seed=0, dealer=0, deck=deck)
    assert dealer.views[0][1].opponent_passed == (card("9H"),)
    assert log == [(1, "take_up_card"), (0, "take_up_card"), (0, "discard"), (0, "knock")]
    expect(record, kind=Outcome.KNOCK, winner=0, knocker=0, points=61, turns=1, draws=1, pile_takes_0=1)


def test_R11_both_pass_and_the_nondealer_draws_from_the_stock():
    # Both pass 2D; the non-dealer (KNOCKER) draws 9H from the stock without being asked,
    # discards KS and knocks: 61 points, no pile take.
    log: list = []
    nondealer = Script([("take_up_card", False), ("discard", "KS"), ("knock", True)], log)
    dealer = Script([("take_up_card", False)], log)
    deck = build_deck(KNOCKER, DEFENDER, up="2D", stock="9H")
    record = play_hand(seats(0, nondealer, dealer), STANDARD, hand_seed=0, dealer=0, deck=deck)
    assert log == [(1, "take_up_card"), (0, "take_up_card"), (1, "discard"), (1, "knock")]
    discard_view = nondealer.views[1][1]
    assert (discard_view.drawn_card, discard_view.drawn_from_pile, discard_view.stock_count) == (card("9H"), False, 30)
    expect(record, points=61, turns=1, draws=1, pile_takes_0=0, pile_takes_1=0)


def test_R11_after_the_dealer_takes_the_nondealer_plays_a_normal_turn():
    log: list = []
    nondealer = Script([("take_up_card", False), ("draw_from_pile", False)], log, filler=True)
    dealer = Script([("take_up_card", True), ("discard", "QS"), ("knock", False)], log, filler=True)
    deck = build_deck(DEFENDER, KNOCKER, up="9H")
    record = play_hand(seats(0, nondealer, dealer), STANDARD, hand_seed=0, dealer=0, deck=deck)
    assert log[:5] == [(1, "take_up_card"), (0, "take_up_card"), (0, "discard"), (0, "knock"), (1, "draw_from_pile")]
    # First turn (a pile take) plus 29 stock turns until two stock cards are left (R15).
    expect(record, kind=Outcome.DEAD, turns=30, draws=30, pile_takes_0=1)


def test_R10_the_card_just_taken_from_the_pile_may_not_be_discarded():
    nondealer = Script([("take_up_card", True), ("discard", "9H")])
    deck = build_deck(KNOCKER, DEFENDER, up="9H")
    with pytest.raises(IllegalDecision, match=r"'script'.*'discard'.*9H was just taken from the pile.*R10"):
        play_hand(seats(0, nondealer, Script()), STANDARD, hand_seed=77, dealer=0, deck=deck)


def test_V6_the_card_just_taken_may_be_discarded_again():
    rules = dataclasses.replace(STANDARD, rediscard_taken_card=True)
    nondealer = Script([("take_up_card", True), ("discard", "9H")], filler=True)
    deck = build_deck(KNOCKER, DEFENDER, up="9H")
    record = play_hand(seats(0, nondealer, Script(filler=True)), rules, hand_seed=0, dealer=0, deck=deck)
    assert record.moves[3] == Discard(1, card("9H"))
    expect(record, kind=Outcome.DEAD, pile_takes_1=1)


def test_R10_a_card_taken_on_an_earlier_turn_may_be_discarded():
    # The non-dealer takes 9H (discarding QS), the dealer draws from the stock, then the
    # non-dealer discards 9H on its next turn: legal.
    steps = [("take_up_card", True), ("discard", "QS"), ("draw_from_pile", False), ("discard", "9H")]
    nondealer = Script(steps, filler=True)
    deck = build_deck(KNOCKER, DEFENDER, up="9H")
    record = play_hand(seats(0, nondealer, Script(filler=True)), STANDARD, hand_seed=0, dealer=0, deck=deck)
    assert Discard(1, card("9H")) in record.moves


# ---------------------------------------------------------------------------------------
# Knock, gin, lay-offs, undercut (R12-R19).


def test_R13_R19_gin_scores_the_bonus_plus_the_full_deadwood():
    # KNOCKER with 9H instead of QS takes TH: three runs plus 7-8-9-10 of hearts, discards
    # KS: gin, 20 + 71 = 91.
    nondealer = Script([("take_up_card", True), ("discard", "KS"), ("knock", True)])
    deck = build_deck("AC 2C 3C 4D 5D 6D 7H 8H 9H KS", DEFENDER, up="TH")
    record = play_hand(seats(1, nondealer, Script()), STANDARD, hand_seed=0, dealer=1, deck=deck)
    expect(record, kind=Outcome.GIN, winner=0, knocker=0, points=91, knocker_deadwood=0, defender_deadwood=71)
    assert isinstance(record.moves[-3], Knock) and record.moves[-3].kind == Outcome.GIN


def test_R14_defender_lays_off_chains_on_the_knockers_runs():
    # Knocker: A-2-3C, 4-5-6D, 7-8-9H, QS (10). Defender 4C 5C 7D 8D TH JH 2S 5S 9S KC lays off
    # 4C then 5C, 7D then 8D, TH then JH (44 points) and keeps 2+5+9+10 = 26: knock, 26 - 10 = 16.
    nondealer = Script([("take_up_card", True), ("discard", "KS"), ("knock", True)])
    deck = build_deck(KNOCKER, "4C 5C 7D 8D TH JH 2S 5S 9S KC", up="9H")
    record = play_hand(seats(0, nondealer, Script()), STANDARD, hand_seed=0, dealer=0, deck=deck)
    expect(record, kind=Outcome.KNOCK, winner=1, points=16, defender_deadwood=26, layoff_points=44)
    layoff = record.moves[-2]
    assert isinstance(layoff, LayOff) and layoff.cards == tuple(sorted(parse_cards("4C 5C 7D 8D TH JH")))


def test_R18_undercut_defender_with_less_deadwood_scores_difference_plus_bonus():
    # Knocker deadwood 10 (QS); defender J-Q-KC, 2-3-4S, 8C 8D 8S and 9D: 9. Undercut:
    # 10 - 9 + 10 = 11 to the defender (seat 0).
    nondealer = Script([("take_up_card", True), ("discard", "KS"), ("knock", True)])
    deck = build_deck(KNOCKER, "JC QC KC 2S 3S 4S 8C 8D 8S 9D", up="9H")
    record = play_hand(seats(0, nondealer, Script()), STANDARD, hand_seed=0, dealer=0, deck=deck)
    assert record.row() == (0, 4, 0, 11, 1, 10, 9, 0, 1, 1, card("9H"), 10, 1, 0, 1, 0, 0)


@pytest.mark.parametrize(("undercut_on_tie", "kind", "winner", "points"), [(True, 4, 0, 10), (False, 1, 1, 0)])
def test_R18_a_tie_is_an_undercut_unless_switched_off(undercut_on_tie, kind, winner, points):
    # Both deadwoods 10 (knocker QS, defender TD): undercut 0 + 10, or the knocker wins 0.
    rules = dataclasses.replace(STANDARD, undercut_on_tie=undercut_on_tie)
    nondealer = Script([("take_up_card", True), ("discard", "KS"), ("knock", True)])
    deck = build_deck(KNOCKER, "JC QC KC 2S 3S 4S 8C 8D 8S TD", up="9H")
    record = play_hand(seats(0, nondealer, Script()), rules, hand_seed=0, dealer=0, deck=deck)
    expect(record, kind=kind, winner=winner, points=points, knocker=1)


def test_R12_knocking_is_never_forced():
    # KNOCKER may knock after taking 9H but declines; the hand goes on (the dealer is asked next).
    log: list = []
    nondealer = Script([("take_up_card", True), ("discard", "KS"), ("knock", False)], log, filler=True)
    deck = build_deck(KNOCKER, DEFENDER, up="9H")
    play_hand(seats(0, nondealer, Script(log=log, filler=True)), STANDARD, hand_seed=0, dealer=0, deck=deck)
    assert log[3] == (0, "draw_from_pile")


@pytest.mark.parametrize(("big_gin", "steps", "kind", "points"), [
    (True, [("take_up_card", True), ("big_gin", True)], Outcome.BIG_GIN, 31 + 71),
    (False, [("take_up_card", True), ("discard", "7H"), ("knock", True)], Outcome.GIN, 20 + 71),
])  # fmt: skip
def test_V13_big_gin_with_eleven_melded_cards_and_no_discard(big_gin, steps, kind, points):
    # A-2-3C, 4-5-6D, 7-8-9-TH and the up card JH: all 11 melded. With big gin on the
    # player is asked big_gin right after the draw (31 + 71); off, it discards 7H and goes gin.
    rules = dataclasses.replace(STANDARD, big_gin=big_gin)
    nondealer = Script(steps)
    deck = build_deck("AC 2C 3C 4D 5D 6D 7H 8H 9H TH", DEFENDER, up="JH")
    record = play_hand(seats(0, nondealer, Script()), rules, hand_seed=0, dealer=0, deck=deck)
    expect(record, kind=kind, winner=1, points=points, knocker_deadwood=0, defender_deadwood=71, turns=1, draws=1)


def test_V13_V5_the_dealt_eleven_cards_do_not_qualify_for_big_gin():
    # The V5 non-dealer is dealt A-2-3C, 4-5-6D, 7-8-9-T-JH: all 11 melded, but big gin comes
    # only after a draw (V13), so it is not asked big_gin. It may still go gin by discarding
    # (R12, R13): it throws 7H and goes gin with 8-9-T-JH, 20 + 71 = 91, without a draw.
    rules = dataclasses.replace(STANDARD, eleven_card_start=True, big_gin=True)
    log: list = []
    nondealer = Script([("discard", "7H"), ("knock", True)], log)
    deck = build_deck("AC 2C 3C 4D 5D 6D 7H 8H 9H TH JH", DEFENDER)
    record = play_hand(seats(0, nondealer, Script(log=log)), rules, hand_seed=0, dealer=0, deck=deck)
    assert log == [(1, "discard"), (1, "knock")]
    expect(record, kind=Outcome.GIN, winner=1, points=20 + 71, turns=1, draws=0, knocker_deadwood=0)


def test_V13_V5_after_a_draw_the_eleven_card_starter_may_go_big_gin():
    # The same deal: the non-dealer discards 7H and does not knock; the dealer draws 2S and
    # throws it; the non-dealer passes the pile, draws QH (8-9-T-J-QH) and, having drawn,
    # is asked big_gin (V13): 31 + 71 = 102 after three turns and two draws.
    rules = dataclasses.replace(STANDARD, eleven_card_start=True, big_gin=True)
    log: list = []
    steps = [("discard", "7H"), ("knock", False), ("draw_from_pile", False), ("big_gin", True)]
    nondealer = Script(steps, log)
    dealer = Script([("draw_from_pile", False), ("discard", "2S")], log)
    deck = build_deck("AC 2C 3C 4D 5D 6D 7H 8H 9H TH JH", DEFENDER, stock="2S QH")
    record = play_hand(seats(0, nondealer, dealer), rules, hand_seed=0, dealer=0, deck=deck)
    assert log[-2:] == [(1, "draw_from_pile"), (1, "big_gin")]
    expect(record, kind=Outcome.BIG_GIN, winner=1, points=31 + 71, turns=3, draws=2, knocker_deadwood=0)


# ---------------------------------------------------------------------------------------
# The end of the stock (R15, V7).

# The 29th stock card, deck[49], is drawn by the non-dealer on turn 29 when everybody draws
# from the stock and discards what it drew.
FIFTIETH = 28


def stock_with(last: str, avoid: str) -> str:
    """A stock whose 29th card is ``last``, above it the lowest cards not in ``avoid``."""
    used = set(parse_cards(avoid)) | {card(last)}
    fillers = [c for c in range(CARD_COUNT) if c not in used][:FIFTIETH]
    return format_cards([*fillers, card(last)])


def test_R15_dead_hand_when_two_stock_cards_are_left():
    # Everybody draws from the stock and discards it: after 29 draws the stock holds 2 and
    # the hand is dead, no score (the numbers are the same with V7 on, since nobody could
    # knock with the last discard).
    for fiftieth in (False, True):
        rules = dataclasses.replace(STANDARD, fiftieth_card_action=fiftieth)
        log: list = []
        players = (Script(log=log, filler=True), Script(log=log, filler=True))
        deck = build_deck(DEFENDER, "AC 3C 5D 7D 9H JH KH 2S 4S 6H", up="QC")
        record = play_hand(players, rules, hand_seed=0, dealer=0, deck=deck)
        assert record.row() == (0, 0, -1, 0, -1, 0, 0, 0, 29, 29, card("QC"), 10, 1, 0, 0, 0, 0)
        assert record.moves[-1] == Score(Outcome.DEAD, -1, 0)
        assert sum(isinstance(move, Draw) for move in record.moves) == 29
        assert "take_fiftieth" not in [decision for _, decision in log]


def fiftieth_hand(dealer_steps: list, rules: Rules | None = None, dealer_hand: str = KNOCKER, last: str = "9H"):
    """The non-dealer (DEFENDER) draws the 29th stock card ``last`` and discards it; the dealer
    (seat 0, holding ``dealer_hand``) may then take it (V7)."""
    rules = rules or dataclasses.replace(STANDARD, fiftieth_card_action=True)
    log: list = []
    dealer = Script(dealer_steps, log, filler=True)
    nondealer = Script(log=log, filler=True)
    deck = build_deck(DEFENDER, dealer_hand, up="QC", stock=stock_with(last, avoid=f"{DEFENDER} {dealer_hand} QC"))
    record = play_hand(seats(0, nondealer, dealer), rules, hand_seed=3, dealer=0, deck=deck)
    return record, log


def test_V7_the_other_player_takes_the_50th_card_and_knocks():
    # The dealer (KNOCKER, 35) takes the non-dealer's last discard 9H, discards KS and must
    # knock with QS: 71 - 10 = 61. Turns: 29 stock turns + the 50th-card turn.
    record, log = fiftieth_hand([("take_fiftieth", True), ("discard", "KS")])
    assert log[-2:] == [(0, "take_fiftieth"), (0, "discard")]  # no knock question: it must knock
    assert record.row() == (0, 1, 0, 61, 0, 10, 71, 0, 30, 30, card("QC"), 10, 1, 1, 0, 1, 0)
    # The log's wording is true: 9H is the 50th card out of the deck, the non-dealer's 29th
    # stock draw (20 dealt + the up card + 29), and it discarded that same card.
    offer = record.moves.index(FiftiethOffer(0, card("9H"), True))
    assert record.moves[offer - 2 : offer] == (Draw(1, "stock", card("9H")), Discard(1, card("9H")))
    assert str(record.moves[offer]) == "seat 0 takes the 50th card 9H"
    assert record.moves[0].stock.index(card("9H")) == 52 - 21 - 3


def test_V7_declining_the_50th_card_leaves_the_hand_dead():
    record, log = fiftieth_hand([("take_fiftieth", False)])
    assert log[-1] == (0, "take_fiftieth")
    expect(record, kind=Outcome.DEAD, winner=-1, points=0, fiftieth=0, turns=29, draws=29, pile_takes_0=0)


def test_V7_the_taken_card_may_be_turned_down_as_the_knock_discard():
    # The dealer holds deadwood 10 (KS) and never knocked; the last discard 5H does not help
    # it, so 5H is "turned face down" as the knock discard: knock with 10 against 71.
    record, _ = fiftieth_hand(
        [("take_fiftieth", True), ("discard", "5H")], dealer_hand="AC 2C 3C 4D 5D 6D 7H 8H 9H KS", last="5H"
    )
    expect(record, kind=Outcome.KNOCK, winner=0, points=61, knocker_deadwood=10, fiftieth=1)


def test_V7_a_discard_that_does_not_knock_is_illegal():
    with pytest.raises(IllegalDecision, match=r"'discard'.*leaves deadwood 35, over the knock limit 10.*V7"):
        fiftieth_hand([("take_fiftieth", True), ("discard", "9H")])


def test_V7_the_knock_discard_must_meet_the_hands_knock_limit():
    # Knock limit 5: with 5H the dealer may discard KS and knock with 5; turning 5H down
    # instead leaves KS (10), over the limit.
    rules = dataclasses.replace(STANDARD, fiftieth_card_action=True, knock_limit=5)
    nine_hearts = "AC 2C 3C 4D 5D 6D 7H 8H 9H KS"
    steps = [("take_fiftieth", True), ("discard", "5H")]
    with pytest.raises(IllegalDecision, match=r"leaves deadwood 10, over the knock limit 5"):
        fiftieth_hand(steps, rules=rules, dealer_hand=nine_hearts, last="5H")
    record, _ = fiftieth_hand([("take_fiftieth", True), ("discard", "KS")], rules, nine_hearts, last="5H")
    expect(record, kind=Outcome.KNOCK, winner=0, knocker_deadwood=5, points=71 - 5, knock_limit=5)


class KeepsTheFiftieth(Script):
    """The filler non-dealer, except that on its last turn it keeps the 50th card and throws ``thrown``."""

    def __init__(self, thrown: str, log: list):
        super().__init__(log=log, filler=True)
        self.thrown = thrown

    def discard(self, view, rng):
        if view.stock_count == 2:
            self.log.append((view.seat, "discard"))
            return card(self.thrown)
        return super().discard(view, rng)


def test_V7_no_offer_when_the_50th_card_is_kept():
    # The non-dealer holds 9H (DEFENDER with 9H for 9C), draws the 50th card 9C and keeps it,
    # throwing 9H. The dealer (KNOCKER) could knock with 9H, but V7 offers only the 50th card
    # itself: the hand is dead as R15 says, with no take_fiftieth question (29 turns, 29 draws).
    rules = dataclasses.replace(STANDARD, fiftieth_card_action=True)
    holder = "5C 7C 9H JD KD 2H 4H 6S 8S TS"
    log: list = []
    dealer = Script(log=log, filler=True)
    nondealer = KeepsTheFiftieth("9H", log)
    deck = build_deck(holder, KNOCKER, up="QC", stock=stock_with("9C", avoid=f"{holder} {KNOCKER} QC"))
    record = play_hand(seats(0, nondealer, dealer), rules, hand_seed=3, dealer=0, deck=deck)
    assert log[-1] == (1, "discard") and "take_fiftieth" not in [decision for _, decision in log]
    assert record.moves[-3:] == (Draw(1, "stock", card("9C")), Discard(1, card("9H")), Score(Outcome.DEAD, -1, 0))
    expect(record, kind=Outcome.DEAD, fiftieth=0, turns=29, draws=29, pile_takes_0=0)


def test_V7_off_means_dead_even_when_the_other_player_could_knock():
    record, log = fiftieth_hand([], rules=STANDARD)
    assert "take_fiftieth" not in [decision for _, decision in log]
    expect(record, kind=Outcome.DEAD, fiftieth=0, turns=29)


# ---------------------------------------------------------------------------------------
# Oklahoma (V9).

OKLAHOMA = Rules.preset("oklahoma")


def test_V9_spade_up_card_sets_the_knock_limit_and_doubles_the_score():
    # Up card 7S: knock limit 7, spade: x2. The non-dealer takes 7S (7-8-9S), discards KS and
    # knocks with 5H (5) against 5C 7C 9C JD KD 2H 4H QH 3S QS (70): (70 - 5) x 2 = 130.
    nondealer = Script([("take_up_card", True), ("discard", "KS"), ("knock", True)])
    deck = build_deck("AC 2C 3C 4D 5D 6D 8S 9S 5H KS", "5C 7C 9C JD KD 2H 4H QH 3S QS", up="7S")
    record = play_hand(seats(0, nondealer, Script()), OKLAHOMA, hand_seed=0, dealer=0, deck=deck)
    expect(record, kind=Outcome.KNOCK, points=130, knock_limit=7, multiplier=2, knocker_deadwood=5)


@pytest.mark.parametrize("spade_double", [True, False])
def test_V9_spade_doubling_is_a_switch(spade_double):
    rules = dataclasses.replace(OKLAHOMA, oklahoma_spade_double=spade_double)
    nondealer = Script([("take_up_card", True), ("discard", "KS"), ("knock", True)])
    deck = build_deck("AC 2C 3C 4D 5D 6D 8S 9S 5H KS", "5C 7C 9C JD KD 2H 4H QH 3S QS", up="7S")
    record = play_hand(seats(0, nondealer, Script()), rules, hand_seed=0, dealer=0, deck=deck)
    expect(record, points=130 if spade_double else 65, multiplier=2 if spade_double else 1)


# Both pass the AS; the non-dealer draws KC (keeps AD: deadwood 1), the dealer draws JC,
# the non-dealer draws TH (7-8-9-TH) and discards AD.
ACE_DECK = build_deck("2C 3C 4C 4D 5D 6D 7H 8H 9H AD", "5C 7C 9C JD KD 2H 4H QH 3S QS", up="AS", stock="KC JC TH")


def test_V9_ace_up_card_means_gin_only():
    # Knock limit 0: deadwood 1 is not asked to knock; gin is: (20 + 70) x 2 = 180.
    rules = dataclasses.replace(OKLAHOMA, oklahoma_ace_gin_only=True)
    log: list = []
    nondealer = Script(
        [("take_up_card", False), ("discard", "KC"), ("draw_from_pile", False), ("discard", "AD"), ("knock", True)],
        log,
    )
    dealer = Script([("take_up_card", False), ("draw_from_pile", False), ("discard", "JC")], log)
    record = play_hand(seats(0, nondealer, dealer), rules, hand_seed=0, dealer=0, deck=ACE_DECK)
    assert (1, "knock") not in log[:3]
    assert record.row() == (0, 2, 1, 180, 1, 0, 70, 0, 3, 3, card("AS"), 0, 2, 0, 0, 0, 0)


def test_V9_ace_up_card_without_gin_only_allows_a_knock_with_one():
    # Knock limit 1: the non-dealer knocks at once with AD; the defender lays off 5C on
    # 2-3-4C and keeps 65: (65 - 1) x 2 = 128.
    nondealer = Script([("take_up_card", False), ("discard", "KC"), ("knock", True)])
    dealer = Script([("take_up_card", False)])
    record = play_hand(seats(0, nondealer, dealer), OKLAHOMA, hand_seed=0, dealer=0, deck=ACE_DECK)
    expect(record, kind=Outcome.KNOCK, points=128, knock_limit=1, layoff_points=5, defender_deadwood=65)


# ---------------------------------------------------------------------------------------
# The turn cap and illegal decisions.


class PileTaker(Script):
    """Always takes the pile card, discards its lowest other card, never knocks."""

    def __init__(self):
        super().__init__(filler=True)
        self.name = "pile-taker"

    def take_up_card(self, view, rng):
        return True

    def draw_from_pile(self, view, rng):
        return True

    def discard(self, view, rng):
        return min(c for c in view.hand if c != view.drawn_card)


def test_turn_cap_ends_a_hand_that_never_uses_the_stock():
    # Only stock draws end a hand (R15); two pile takers would cycle forever, so MAX_TURNS
    # turns end it as dead with the capped flag.
    assert engine.MAX_TURNS == 500
    record = play_hand((PileTaker(), PileTaker()), STANDARD, hand_seed=11, dealer=0)
    expect(record, kind=Outcome.DEAD, capped=1, turns=500, draws=500, pile_takes_0=250, pile_takes_1=250, points=0)


def test_illegal_discard_names_the_strategy_the_decision_and_the_hand():
    nondealer = Script([("take_up_card", True), ("discard", "5C")])
    deck = build_deck(KNOCKER, DEFENDER, up="9H")
    with pytest.raises(IllegalDecision) as error:
        play_hand(seats(0, nondealer, Script()), STANDARD, hand_seed=4242, dealer=0, deck=deck)
    message = str(error.value)
    for part in ("'script'", "'discard'", "5C is not held", "hand seed 4242", "AC 2C 3C 4D 5D 6D 7H 8H 9H QS KS"):
        assert part in message
    assert isinstance(error.value, ValueError)


@pytest.mark.parametrize(("decision", "answer"), [("take_up_card", 1), ("take_up_card", None), ("discard", "KS")])
def test_an_answer_of_the_wrong_type_is_illegal(decision, answer):
    class Wrong(Script):
        def take_up_card(self, view, rng):
            return answer if decision == "take_up_card" else True

        def discard(self, view, rng):
            return answer

    deck = build_deck(KNOCKER, DEFENDER, up="9H")
    with pytest.raises(IllegalDecision, match=rf"illegal '{decision}' decision: answered {answer!r}"):
        play_hand((Script(), Wrong()), STANDARD, hand_seed=1, dealer=0, deck=deck)


def test_a_bad_deck_is_refused():
    with pytest.raises(ValueError, match="each card 0-51 exactly once"):
        play_hand((Script(), Script()), STANDARD, hand_seed=1, dealer=0, deck=[0] * 52)


# ---------------------------------------------------------------------------------------
# The game (R20-R23, V8-V10, V14), through the scoreboard.


def hand(winner: int, points: int, kind: Outcome = Outcome.KNOCK, multiplier: int = 1, dealer: int = 0) -> HandRecord:
    """A scored hand record with only what the scoreboard reads."""
    return HandRecord(
        dealer=dealer, kind=kind, winner=winner, points=points, knocker=winner, knocker_deadwood=0,
        defender_deadwood=0, layoff_points=0, turns=1, draws=1, up_card=0, knock_limit=10,
        multiplier=multiplier, pile_takes_0=0, pile_takes_1=0, fiftieth=0, capped=0,
    )  # fmt: skip


DEAD = dataclasses.replace(hand(0, 0), kind=Outcome.DEAD, winner=-1, knocker=-1)


def game_of(rules: Rules, hands: list[HandRecord], first_dealer: int = 0) -> engine.GameRecord:
    board = Scoreboard(rules, first_dealer)
    for record in hands:
        assert not board.over
        board.add(record)
    assert board.over
    return board.game_record()


def test_R20_R22_boxes_do_not_count_toward_the_target():
    board = Scoreboard(STANDARD, 0)
    for _ in range(4):
        board.add(hand(0, 24))
    # 96 points and 4 boxes (80 points of bonus): still under 100 (R22).
    assert board.scores == (96, 0) and not board.over
    board.add(hand(0, 4))
    assert board.over


def test_R21_R22_R23_box_and_game_bonus():
    # Seat 0 wins 60 and 50, seat 1 wins 30: 110 + 2 boxes x 20 + 100 = 250 against 30 + 20 = 50.
    game = game_of(STANDARD, [hand(0, 60), hand(1, 30), hand(0, 50)])
    assert (game.winner, game.scores, game.boxes, game.totals, game.margin) == (0, (110, 30), (2, 1), (250, 50), 200)
    assert (game.shutout, game.capped, game.hands, game.dead_hands) == (False, False, 3, 0)


@pytest.mark.parametrize(
    ("shutout", "total"), [("bonus", 110 + 40 + 200), ("double", (110 + 40 + 100) * 2), ("none", 250)]
)
def test_R21_V8_shutout(shutout, total):
    # Seat 1 scores nothing: the game bonus becomes 200 (R21), or the winner's total doubles (V8).
    rules = dataclasses.replace(STANDARD, shutout=shutout)
    game = game_of(rules, [hand(0, 60), DEAD, hand(0, 50)])
    assert (game.totals, game.margin, game.shutout, game.dead_hands) == ((total, 0), total, True, 1)


@pytest.mark.parametrize(("rotation", "dealers"), [
    ("loser", [0, 1, 1, 0, 0]),
    ("winner", [0, 0, 0, 1, 1]),
    ("alternate", [0, 1, 1, 0, 1]),
])  # fmt: skip
def test_V10_dealer_rotation_and_the_dead_hand_redeal(rotation, dealers):
    # Hands won by seat 0, dead, seat 1, seat 1: a dead hand is redealt by the same dealer.
    board = Scoreboard(dataclasses.replace(STANDARD, dealer_rotation=rotation), first_dealer=0)
    seen = [board.dealer]
    for record in (hand(0, 10), DEAD, hand(1, 10), hand(1, 10)):
        board.add(record)
        seen.append(board.dealer)
    assert seen == dealers


@pytest.mark.parametrize(("kind", "multiplier", "boxes"), [
    (Outcome.KNOCK, 2, 1),
    (Outcome.UNDERCUT, 1, 2),
    (Outcome.UNDERCUT, 2, 3),
    (Outcome.GIN, 1, 3),
    (Outcome.GIN, 2, 5),
    (Outcome.BIG_GIN, 2, 5),
])  # fmt: skip
def test_V9_oklahoma_extra_boxes(kind, multiplier, boxes):
    # An undercut earns 1 extra box and a gin 2, doubled on a spade; each worth the box bonus.
    rules = dataclasses.replace(OKLAHOMA, oklahoma_extra_boxes=True)
    game = game_of(rules, [hand(0, 150, kind, multiplier)])
    assert game.boxes == (boxes, 0)
    assert game.totals == (150 + 20 * boxes + 200, 0)  # a shutout: game bonus 200
    plain = game_of(OKLAHOMA, [hand(0, 150, kind, multiplier)])
    assert plain.boxes == (1, 0)


def test_V14_hollywood_three_games_at_once():
    # A win enters every open game its winner has entered, plus the first open game it has not:
    #   1 s0 40 -> g1 40-0            5 s0 25 -> g2 105-0 closes, g3 65-0
    #   2 s0 40 -> g1 80, g2 40       6 s1 50 -> s1 has entered no open game: its first
    #   3 s1 30 -> g1 80-30                      open one is g3, 65-50 (never lost, V14)
    #   4 s0 40 -> g1 120 closes,     7 s1 50 -> g3 65-100 closes: the session ends
    #              g2 80, g3 40
    # Game 1: 120 + 3 boxes + 100 = 280 vs 30 + 1 box = 50. Game 2 (shutout): 105 + 3 boxes
    # + 200 = 365 vs 0. Game 3: 65 + 2 boxes = 105 vs 100 + 2 boxes + 100 = 240.
    rules = Rules.preset("hollywood")
    wins = [(0, 40), (0, 40), (1, 30), (0, 40), (0, 25), (1, 50), (1, 50)]
    game = game_of(rules, [hand(seat, points) for seat, points in wins])
    assert [sheet.scores for sheet in board_of(rules, wins).sheets] == [[120, 30], [105, 0], [65, 100]]
    assert game.totals == (280 + 365 + 105, 50 + 0 + 240)
    assert (game.winner, game.margin, game.scores, game.boxes) == (0, 460, (290, 130), (8, 3))
    assert game.shutout


def board_of(rules: Rules, wins: list[tuple[int, int]]) -> Scoreboard:
    board = Scoreboard(rules, 0)
    for seat, points in wins:
        board.add(hand(seat, points))
    return board


def test_V14_shut_out_of_a_closed_game_the_next_win_enters_the_next_open_game():
    # s0 wins 100 at once: game 1 closes 100-0, a shutout. s1's first win (20) cannot enter
    # game 1, so it is its first score in game 2 (the old rule lost it). s0's next win (10)
    # is its first in game 2 too; s1's second (30) enters game 2 and its first in game 3.
    board = board_of(Rules.preset("hollywood"), [(0, 100), (1, 20), (0, 10), (1, 30)])
    assert [sheet.scores for sheet in board.sheets] == [[100, 0], [10, 50], [0, 30]]
    assert [sheet.boxes for sheet in board.sheets] == [[1, 0], [1, 2], [0, 1]]
    assert [sheet.entered for sheet in board.sheets] == [[True, False], [True, True], [False, True]]
    assert board.sheets[0].shutout() and not board.over


def test_V14_a_zero_point_win_is_entered_with_its_box():
    # A tie without undercut_on_tie: the knocker wins 0 points and a box (R18). It still
    # enters game 1, so the next win scores in games 1 and 2; shutouts stay points-based (R21).
    rules = dataclasses.replace(Rules.preset("hollywood"), undercut_on_tie=False)
    board = board_of(rules, [(1, 0), (1, 30), (0, 100)])
    assert [sheet.scores for sheet in board.sheets] == [[100, 30], [0, 30], [0, 0]]
    assert [sheet.boxes for sheet in board.sheets] == [[1, 2], [0, 1], [0, 0]]
    assert board.sheets[0].winner == 0 and not board.sheets[0].shutout()
    # s0's 100 entered only game 1 (its first), so games 2 and 3 stay open.
    assert board.sheets[1].open and board.sheets[2].open


def test_V14_hollywood_session_ends_only_when_all_three_games_close():
    board = Scoreboard(Rules.preset("hollywood"), 0)
    board.add(hand(0, 100))  # game 1 closes at once
    assert board.sheets[0].winner == 0 and not board.over


# ---------------------------------------------------------------------------------------
# Whole games through play_game.


def test_R7_play_game_deals_from_its_seed_and_rotates_the_dealer():
    rules = Rules.preset("eaai")  # alternate dealer after each scored hand
    game = play_game((SimpleStrategy(), SimpleStrategy()), rules, game_seed=99)
    assert game.first_dealer == SplitMix64(derive(99, 0)).randint(2)
    dealer, scores = game.first_dealer, [0, 0]
    for index, record in enumerate(game.hand_records):
        # The k-th deal uses hand seed derive(game_seed, 1 + k) and the current scores.
        again = play_hand((SimpleStrategy(), SimpleStrategy()), rules, derive(99, 1 + index), dealer, tuple(scores))
        assert again == record and again.moves == record.moves
        if record.kind != Outcome.DEAD:
            scores[record.winner] += record.points
            dealer = 1 - dealer
    assert tuple(scores) == game.scores


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_play_game_stops_after_max_hands_per_game():
    # Two players that never knock deal dead hands until the cap: no winner, no margin.
    assert engine.MAX_HANDS_PER_GAME == 1000
    game = play_game((Script(filler=True), Script(filler=True)), STANDARD, game_seed=5)
    assert (game.capped, game.winner, game.margin, game.hands, game.dead_hands) == (True, -1, 0, 1000, 1000)
    assert game.totals == (0, 0)


# ---------------------------------------------------------------------------------------
# The bots.


def view_of(hand_text: str, **changes) -> PlayerView:
    base = PlayerView(
        seat=0, dealer=1, hand=tuple(sorted(parse_cards(hand_text))), pile=(), stock_count=20, knock_limit=10,
        up_card=-1, drawn_card=-1, drawn_from_pile=False, opponent_took=(), opponent_passed=(),
        opponent_discards=(), scores=(0, 0), rules=STANDARD, turn=3,
    )  # fmt: skip
    return dataclasses.replace(base, **changes)


def test_simple_takes_a_pile_card_only_when_it_melds():
    simple = SimpleStrategy()
    rng = SplitMix64(0)
    assert simple.draw_from_pile(view_of("7C 7D KS 2H", pile=(card("7H"),)), rng)  # set
    assert simple.take_up_card(view_of("5S 7S KD", pile=(card("6S"),)), rng)  # run 5-6-7S
    assert not simple.draw_from_pile(view_of("QS KS 7D", pile=(card("AS"),)), rng)  # Q-K-A is no run (R4)
    assert not in_some_meld(parse_cards("7C 8D"), card("9H"))
    assert pair_mask(3, 9) == pair_mask(9, 3) and pair_mask(4, 4) == 1 << 4


def test_simple_never_repeats_a_draw_and_discard_pair_in_a_hand():
    # 9H drawn from the stock into A-2-3C, 4-5-6D, 7H 8H 2S KS: discarding KS leaves 2 (the
    # best), then {9H, KS} is barred and 2S (10) is next, then 3C (AC 2C 2S KS: 15).
    held = "AC 2C 3C 4D 5D 6D 7H 8H 2S KS"
    simple = SimpleStrategy()
    rng = SplitMix64(1)
    simple.start_hand(view_of(held), rng)
    view = view_of(held + " 9H", drawn_card=card("9H"))
    assert [simple.discard(view, rng) for _ in range(3)] == parse_cards("KS 2S 3C")
    simple.start_hand(view_of(held), rng)  # a new hand forgets the pairs
    assert simple.discard(view, rng) == card("KS")


def test_simple_never_discards_the_pile_card_just_taken_even_under_V6():
    simple = SimpleStrategy()
    rng = SplitMix64(2)
    simple.start_hand(view_of(KNOCKER), rng)
    rules = dataclasses.replace(STANDARD, rediscard_taken_card=True)
    view = view_of("AC 2C 3C 4D 5D 6D 7H 8H 9H TH KS", drawn_card=card("KS"), drawn_from_pile=True, rules=rules)
    assert simple.discard(view, rng) != card("KS")


def test_random_discards_only_legal_cards_and_must_knock_after_the_50th_card():
    bot = RandomStrategy()
    rng = SplitMix64(3)
    taken = view_of(KNOCKER + " 9H", drawn_card=card("9H"), drawn_from_pile=True)
    assert {bot.discard(taken, rng) for _ in range(200)} == set(parse_cards(KNOCKER))
    fiftieth = dataclasses.replace(taken, stock_count=2, fiftieth_card=True)
    assert {bot.discard(fiftieth, rng) for _ in range(50)} == {card("KS"), card("QS")}

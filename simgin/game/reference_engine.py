"""The plain-Python reference engine: hands and games exactly as docs/ENGINE.md says.

This is the rule book in code (RULES.md R7-R23, V5-V10, V13, V14). It is written to be read,
not to be fast: one hand is a small object that walks through the phases of docs/ENGINE.md
(deal, first turn, normal turns, knock or end of stock, showdown) and drives two
plain-Python strategies (:class:`simgin.game.strategy.Strategy`). The numba engine follows the
same procedure, and a differential test requires both to give identical
:class:`HandRecord` rows for the same seeds.

Every action leaves a small frozen move record in ``HandRecord.moves`` (the deal, up-card
offers, draws, discards, the knock, the defender's lay-offs, the score), so a hand can be
replayed move by move.

>>> from simgin.strategies.simple import SimpleStrategy
>>> record = play_hand((SimpleStrategy(), SimpleStrategy()), Rules(), hand_seed=7, dealer=0)
>>> record == play_hand((SimpleStrategy(), SimpleStrategy()), Rules(), hand_seed=7, dealer=0)
True
>>> record.kind in tuple(Outcome), record.draws >= record.pile_takes_0 + record.pile_takes_1
(True, True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simgin.base import guard
from simgin.game.cards import CARD_COUNT, format_card, format_cards
from simgin.game.melds import deadwood, discard_deadwoods
from simgin.game.moves import (
    HAND_RECORD_FIELDS as HAND_RECORD_FIELDS,
    PILE as PILE,
    STOCK as STOCK,
    Deal as Deal,
    Discard as Discard,
    Draw as Draw,
    FiftiethOffer as FiftiethOffer,
    Forfeit as Forfeit,
    HandRecord as HandRecord,
    Knock as Knock,
    LayOff as LayOff,
    Move as Move,
    Offer as Offer,
    Outcome as Outcome,
    Score as Score,
    shown_moves as shown_moves,
)
from simgin.game.rng import SplitMix64, derive, shuffled_deck
from simgin.game.rules import Rules
from simgin.game.showdown import KIND_CODES, KINDS_BY_CODE, Side, score_showdown
from simgin.game.strategy import HandEnd, PlayerView, Strategy, StrategyStartError

#: A hand ends as dead, with the ``capped`` flag, after this many turns. Only stock draws
#: bring a hand towards its end (R15), so two bots that always take the pile card would
#: otherwise pass cards back and forth forever; a real hand lasts at most about 60 turns.
MAX_TURNS = 500

#: A game ends undecided (winner -1, ``capped``) after this many deals, dead hands
#: included: two bots that never knock would otherwise deal dead hands forever.
MAX_HANDS_PER_GAME = 1000

#: R15: the hand ends once the stock is down to this many cards.
STOCK_LEFT_AT_END = 2

HAND_SIZE = 10
"""Cards held between turns (R8)."""


class IllegalDecision(ValueError):
    """A strategy answered a question with an illegal move (R9, R10, V7) or a wrong type."""


class IllegalMove(IllegalDecision):
    """The engine refused a strategy's answer: a card not held, the card just taken (R10), a 50th-card
    discard over the limit (V7), an answer of the wrong type, or melds a program declared that are not
    legal (an error raised with a true ``illegal_move`` attribute, :class:`simgin.players.eaai.IllegalMelds`).

    This is the one class ``forfeit=True`` (``--on-illegal forfeit``) turns into a lost hand; a strategy
    that raises, or a program that crashes or times out (:class:`StrategyFailed`), still stops.
    ``seat`` and ``decision`` say who and where; ``moves`` holds the hand's move log up to the move.
    """

    def __init__(self, message: str, seat: int = -1, decision: str = "") -> None:
        super().__init__(message)
        self.seat = seat
        self.decision = decision
        self.moves: tuple[Move, ...] = ()


class StrategyFailed(IllegalDecision):
    """A strategy raised an exception while deciding; the message names it, the decision and the hand."""


# ---------------------------------------------------------------------------------------
# One hand.


def _check_deck(deck: Sequence[int]) -> list[int]:
    cards = [int(card) for card in deck]
    if sorted(cards) != list(range(CARD_COUNT)):
        raise ValueError(f"deck must hold each card 0-51 exactly once, got {len(cards)} cards: {cards}")
    return cards


def _is_bool(answer: object) -> bool:
    return isinstance(answer, (bool, np.bool_))


def _is_int(answer: object) -> bool:
    return isinstance(answer, (int, np.integer)) and not isinstance(answer, (bool, np.bool_))


class _Hand:
    """The state of one hand and its phases, step by step as docs/ENGINE.md lists them."""

    def __init__(
        self,
        strategies: tuple[Strategy, Strategy],
        rules: Rules,
        hand_seed: int,
        dealer: int,
        scores: tuple[int, int],
        deck: Sequence[int] | None,
        names: tuple[str, str] | None = None,
        forfeit: bool = False,
    ) -> None:
        if dealer not in (0, 1):
            raise ValueError(f"dealer must be seat 0 or 1, got {dealer!r}")
        if len(strategies) != 2:
            raise ValueError(f"a hand needs two strategies, got {len(strategies)}")
        self.strategies = strategies
        self.names = names
        self.forfeit = forfeit
        self.rules = rules
        self.hand_seed = hand_seed
        self.dealer = dealer
        self.scores = (int(scores[0]), int(scores[1]))
        cards = shuffled_deck(SplitMix64(derive(hand_seed, 0))) if deck is None else _check_deck(deck)
        self.rngs = (SplitMix64(derive(hand_seed, 1)), SplitMix64(derive(hand_seed, 2)))

        # The deal (R8, V5): alternately, the non-dealer first.
        nondealer = 1 - dealer
        self.hands: list[list[int]] = [[], []]
        if rules.eleven_card_start:
            self.hands[nondealer] = cards[0:21:2]
            self.hands[dealer] = cards[1:20:2]
            self.up_card = -1
            self.pile: list[int] = []
        else:
            self.hands[nondealer] = cards[0:20:2]
            self.hands[dealer] = cards[1:20:2]
            self.up_card = cards[20]
            self.pile = [cards[20]]
        self.stock = cards[21:]
        up = self.up_card if self.up_card >= 0 else None
        self.knock_limit = rules.hand_knock_limit(up)
        self.multiplier = rules.hand_multiplier(up)

        # What each seat did, for the views and the record.
        self.took: tuple[list[int], list[int]] = ([], [])
        self.passed: tuple[list[int], list[int]] = ([], [])
        self.discards: tuple[list[int], list[int]] = ([], [])
        self.turns = 0
        self.draws = 0
        self.fiftieth = 0
        self.capped = 0
        self.result: dict[str, int] | None = None
        self.moves: list[Move] = [
            Deal(dealer, (tuple(self.hands[0]), tuple(self.hands[1])), self.up_card, tuple(self.stock))
        ]
        self._check_cards()

    # -- playing ---------------------------------------------------------------------

    def play(self) -> HandRecord:
        """Play the hand; an :class:`IllegalMove` ends it as a forfeit (``forfeit``), else is raised
        with the move log so far in its ``moves``."""
        try:
            for seat in (0, 1):
                self._call(seat, "start_hand", self._view(seat))
            player = self._first_turn()
            while self.result is None:
                self._normal_turn(player)
                player = 1 - player
            record = self._record()
            self._tell_the_end()
            return record
        except IllegalMove as error:
            if not self.forfeit:
                error.moves = tuple(self.moves)
                self._locate(error)
                raise
            return self._forfeited(error)
        except IllegalDecision as error:  # a strategy that raised (StrategyFailed) stops whatever the mode
            self._locate(error)
            raise

    def _locate(self, error: IllegalDecision) -> None:
        """Name the hand on the error (``hand_seed``, ``dealer``, ``scores``): a run that stops on it prints
        the whole ``simgin replay`` command, the dealer included (issue 32 item 16)."""
        error.hand_seed, error.dealer, error.scores = self.hand_seed, self.dealer, tuple(self.scores)

    def _forfeited(self, error: IllegalMove) -> HandRecord:
        """The record of a hand lost by ``error.seat``'s illegal move: the other seat wins it for 0 points
        (no ``end_hand``); the counts are those of the hand up to the move. A move refused at the
        showdown (an EAAI player's final melds) forfeits the hand too: the log keeps the showdown."""
        self.moves.append(Forfeit(error.seat, error.decision, str(error), self.scores))
        self.result = {
            "kind": Outcome.FORFEIT,
            "winner": 1 - error.seat,
            "points": 0,
            "knocker": -1,
            "knocker_deadwood": 0,
            "defender_deadwood": 0,
            "layoff_points": 0,
        }
        return self._record()

    def _tell_the_end(self) -> None:
        """Give a strategy that defines ``end_hand`` the final view with how the hand ended
        (what the table sees: both hands after a knock, R14; nothing after a dead hand, R15)."""
        seats = [seat for seat in (0, 1) if callable(getattr(self.strategies[seat], "end_hand", None))]
        if not seats:
            return
        score = self.moves[-1]
        assert isinstance(score, Score) and self.result is not None
        ending = HandEnd(str(KINDS_BY_CODE[int(score.kind)]), score.winner, score.points, self.result["knocker"])
        if score.kind != Outcome.DEAD:
            knock, layoff = self.moves[-3], self.moves[-2]
            assert isinstance(knock, Knock) and isinstance(layoff, LayOff)
            ending = dataclasses.replace(
                ending,
                knocker_deadwood=knock.deadwood,
                defender_deadwood=layoff.deadwood,
                knocker_melds=knock.melds,
                defender_melds=layoff.melds,
                layoffs=layoff.cards,
                hands=(tuple(sorted(self.hands[0])), tuple(sorted(self.hands[1]))),
            )
        for seat in seats:
            self._call(seat, "end_hand", dataclasses.replace(self._view(seat), ending=ending))

    def _first_turn(self) -> int:
        """R11 (and V5): play the first turn; return the seat that plays the next one."""
        dealer, nondealer = self.dealer, 1 - self.dealer
        if self.rules.eleven_card_start:
            # V5: the non-dealer holds 11 cards and only discards.
            self._finish_turn(nondealer, drawn_card=-1, from_pile=False)
            return dealer
        for seat in (nondealer, dealer):
            taken = self._ask_bool(seat, "take_up_card")
            self.moves.append(Offer(seat, self.up_card, taken))
            if taken:
                self._take_from_pile(seat)
                self._finish_turn(seat, drawn_card=self.up_card, from_pile=True)
                return 1 - seat
            self.passed[seat].append(self.up_card)
        card = self._draw_stock(nondealer)
        self._finish_turn(nondealer, drawn_card=card, from_pile=False)
        return dealer

    def _normal_turn(self, seat: int) -> None:
        """R9: draw from the pile or the stock, then steps 2-5."""
        if self._ask_bool(seat, "draw_from_pile"):
            card = self._take_from_pile(seat)
            self._finish_turn(seat, drawn_card=card, from_pile=True)
        else:
            card = self._draw_stock(seat)
            self._finish_turn(seat, drawn_card=card, from_pile=False)

    def _finish_turn(self, seat: int, drawn_card: int, from_pile: bool) -> None:
        """Steps 2-5 of a turn: big gin, discard, knock, end of stock (and the turn cap)."""
        # Step 2: big gin (V13), 11 melded cards, no discard; only after a draw (not on V5's dealt 11).
        if drawn_card >= 0 and self._may_go_big_gin(seat) and self._ask_bool(seat, "big_gin", drawn_card, from_pile):
            self.turns += 1
            self._showdown(seat, big_gin=True)
            return
        # Step 3: discard (R9, R10, V6).
        card = self._ask_discard(seat, drawn_card, from_pile, must_knock=False)
        self._discard(seat, card)
        # Step 4: knock (R12, R13).
        if deadwood(self.hands[seat]) <= self.knock_limit and self._ask_bool(seat, "knock", drawn_card, from_pile):
            self.turns += 1
            self._showdown(seat, big_gin=False)
            return
        self.turns += 1
        # Step 5: end of stock (R15, V7), then the safety cap.
        if len(self.stock) <= STOCK_LEFT_AT_END:
            fiftieth_discarded = card == drawn_card and not from_pile
            self._end_of_stock(last_player=seat, last_discard=card, fiftieth_discarded=fiftieth_discarded)
        elif self.turns >= MAX_TURNS:
            self.capped = 1
            self._dead()

    def _end_of_stock(self, last_player: int, last_discard: int, fiftieth_discarded: bool) -> None:
        """R15: the hand is dead, unless the other player may take the 50th card and knock (V7).

        The stock has just fallen to two cards, so ``last_player`` drew the 50th card (the
        third-last stock card) this turn; V7 applies only if they discarded that same card
        (``fiftieth_discarded``). Kept, with another card discarded, the hand is dead (R15).
        """
        other = 1 - last_player
        offered = self.rules.fiftieth_card_action and fiftieth_discarded
        if not (offered and self._may_take_fiftieth(other, last_discard)):
            self._dead()
            return
        taken = self._ask_bool(other, "take_fiftieth")
        self.moves.append(FiftiethOffer(other, last_discard, taken))
        if not taken:
            self._dead()
            return
        self.fiftieth = 1
        self._take_from_pile(other)
        if self._may_go_big_gin(other) and self._ask_bool(other, "big_gin", last_discard, True):
            self.turns += 1
            self._showdown(other, big_gin=True)
            return
        card = self._ask_discard(other, last_discard, True, must_knock=True)
        self._discard(other, card)
        self.turns += 1
        self._showdown(other, big_gin=False)

    def _may_go_big_gin(self, seat: int) -> bool:
        """V13: big gin is on and all 11 cards are melded."""
        return self.rules.big_gin and len(self.hands[seat]) == HAND_SIZE + 1 and deadwood(self.hands[seat]) == 0

    def _may_take_fiftieth(self, seat: int, card: int) -> bool:
        """V7: some discard from the 10 cards plus ``card`` (itself included) leaves at most the
        knock limit, or all 11 are melded with big gin on."""
        cards = [*self.hands[seat], card]
        if self.rules.big_gin and deadwood(cards) == 0:
            return True  # as docs/ENGINE.md says; 11 melded cards can always also knock with 0
        return min(discard_deadwoods(cards).values()) <= self.knock_limit

    # -- moving cards ------------------------------------------------------------------

    def _draw_stock(self, seat: int) -> int:
        card = self.stock.pop(0)
        self.hands[seat].append(card)
        self.draws += 1
        self.moves.append(Draw(seat, STOCK, card))
        self._check_cards()
        return card

    def _take_from_pile(self, seat: int) -> int:
        card = self.pile.pop()
        self.hands[seat].append(card)
        self.took[seat].append(card)
        self.draws += 1
        self.moves.append(Draw(seat, PILE, card))
        self._check_cards()
        return card

    def _discard(self, seat: int, card: int) -> None:
        self.hands[seat].remove(card)
        self.pile.append(card)
        self.discards[seat].append(card)
        self.moves.append(Discard(seat, card))
        self._check_cards()

    def _check_cards(self) -> None:
        """The 52 cards are all somewhere, once: hands, pile and stock (R1)."""
        cards = self.hands[0] + self.hands[1] + self.pile + self.stock
        if sorted(cards) != list(range(CARD_COUNT)):
            raise AssertionError(f"cards not conserved in hand seed {self.hand_seed}: {sorted(cards)}")

    # -- the end of a hand -------------------------------------------------------------

    def _showdown(self, knocker: int, big_gin: bool) -> None:
        """R14-R19, V9, V13: score the knock with :func:`simgin.game.showdown.score_showdown`."""
        defender = 1 - knocker
        up = self.up_card if self.up_card >= 0 else None
        shown = score_showdown(self.hands[knocker], self.hands[defender], self.rules, up)
        kind = Outcome(KIND_CODES[shown.kind])
        declared = Outcome.BIG_GIN if big_gin else Outcome.GIN if shown.knocker_deadwood == 0 else Outcome.KNOCK
        winner = knocker if shown.winner == Side.KNOCKER else defender
        self.moves.append(Knock(knocker, declared, shown.knocker_deadwood, tuple(map(tuple, shown.knocker_melds))))
        self.moves.append(
            LayOff(defender, tuple(map(tuple, shown.defender_melds)), tuple(shown.layoffs), shown.defender_deadwood)
        )
        self.moves.append(Score(kind, winner, shown.points))
        self.result = {
            "kind": kind,
            "winner": winner,
            "points": shown.points,
            "knocker": knocker,
            "knocker_deadwood": shown.knocker_deadwood,
            "defender_deadwood": shown.defender_deadwood,
            "layoff_points": shown.layoff_points,
        }

    def _dead(self) -> None:
        """R15: no score; the same dealer deals again (V10)."""
        self.moves.append(Score(Outcome.DEAD, -1, 0))
        self.result = {
            "kind": Outcome.DEAD,
            "winner": -1,
            "points": 0,
            "knocker": -1,
            "knocker_deadwood": 0,
            "defender_deadwood": 0,
            "layoff_points": 0,
        }

    def _record(self) -> HandRecord:
        assert self.result is not None
        return HandRecord(
            dealer=self.dealer,
            **self.result,
            turns=self.turns,
            draws=self.draws,
            up_card=self.up_card,
            knock_limit=self.knock_limit,
            multiplier=self.multiplier,
            pile_takes_0=len(self.took[0]),
            pile_takes_1=len(self.took[1]),
            fiftieth=self.fiftieth,
            capped=self.capped,
            moves=tuple(self.moves),
        )

    # -- asking the strategies ---------------------------------------------------------

    def _view(self, seat: int, drawn_card: int = -1, from_pile: bool = False) -> PlayerView:
        other = 1 - seat
        return PlayerView(
            seat=seat,
            dealer=self.dealer,
            hand=tuple(sorted(self.hands[seat])),
            pile=tuple(self.pile),
            stock_count=len(self.stock),
            knock_limit=self.knock_limit,
            up_card=self.up_card,
            drawn_card=drawn_card,
            drawn_from_pile=from_pile,
            opponent_took=tuple(self.took[other]),
            opponent_passed=tuple(self.passed[other]),
            opponent_discards=tuple(self.discards[other]),
            scores=self.scores,
            rules=self.rules,
            turn=self.turns,
            fiftieth_card=bool(self.fiftieth),
        )

    def _ask_bool(self, seat: int, decision: str, drawn_card: int = -1, from_pile: bool = False) -> bool:
        answer = self._call(seat, decision, self._view(seat, drawn_card, from_pile))
        if not _is_bool(answer):
            raise self._illegal(seat, decision, f"answered {guard.safe_repr(answer)}, which is not True or False")
        return bool(answer)

    def _ask_discard(self, seat: int, drawn_card: int, from_pile: bool, must_knock: bool) -> int:
        """R9, R10, V6; after taking the 50th card (V7) the discard must leave a knocking hand."""
        card = self._call(seat, "discard", self._view(seat, drawn_card, from_pile))
        if not _is_int(card):
            raise self._illegal(seat, "discard", f"answered {guard.safe_repr(card)}, which is not a card (an int 0-51)")
        card = int(card)
        if card not in self.hands[seat]:
            name = format_card(card) if 0 <= card < CARD_COUNT else repr(card)
            raise self._illegal(seat, "discard", f"{name} is not held")
        if must_knock:
            left = deadwood([c for c in self.hands[seat] if c != card])
            if left > self.knock_limit:
                raise self._illegal(
                    seat,
                    "discard",
                    f"discarding {format_card(card)} leaves deadwood {left}, over the knock limit "
                    f"{self.knock_limit}; after taking the 50th card the player must knock (V7)",
                )
        elif from_pile and card == drawn_card and not self.rules.rediscard_taken_card:
            raise self._illegal(
                seat, "discard", f"{format_card(card)} was just taken from the pile and may not be discarded (R10)"
            )
        return card

    def _call(self, seat: int, decision: str, view: PlayerView) -> Any:
        """Ask seat's strategy one question (see :func:`simgin.base.guard.call_foreign`): what it prints goes to
        stderr, and what it raises, ``SystemExit`` and its own ``KeyboardInterrupt`` included, becomes a
        :class:`StrategyFailed`; a real Ctrl-C stays a ``KeyboardInterrupt``."""
        try:
            return guard.call_foreign(getattr(self.strategies[seat], decision), view, self.rngs[seat])
        except guard.ForeignFailure as failure:
            if isinstance(failure.error, IllegalDecision) and not isinstance(failure.error, IllegalMove):
                raise failure.error from None
            # An IllegalMove raised by the strategy itself is its failure: it could name another seat.
            if getattr(failure.error, "illegal_move", False) is True:
                raise self._illegal(seat, decision, str(failure.error)) from None
            if isinstance(failure.error, StrategyStartError):  # not this hand's fault: neither it nor the cards
                raise StrategyFailed(
                    f"strategy {self._name(seat)!r} (seat {seat}) could not be started: {failure.error}"
                ) from failure.error
            failed = self._illegal(seat, decision, str(failure))
            raise StrategyFailed(str(failed).replace("made an illegal", "failed at its", 1)) from failure.error

    def _name(self, seat: int) -> str:
        strategy = self.strategies[seat]
        return self.names[seat] if self.names else getattr(strategy, "name", type(strategy).__name__)

    def _illegal(self, seat: int, decision: str, reason: str) -> IllegalDecision:
        name = self._name(seat)
        held = format_cards(sorted(self.hands[seat]))
        return IllegalMove(
            f"strategy {name!r} (seat {seat}) made an illegal {decision!r} decision: {reason} "
            f"(hand seed {self.hand_seed}, holding {held})",
            seat,
            decision,
        )


def play_hand(
    strategies: tuple[Strategy, Strategy],
    rules: Rules,
    hand_seed: int,
    dealer: int,
    scores: tuple[int, int] = (0, 0),
    deck: list[int] | None = None,
    names: tuple[str, str] | None = None,
    forfeit: bool = False,
) -> HandRecord:
    """Play one hand as docs/ENGINE.md says (R8-R19, V5-V7, V9, V13); ``strategies[s]`` plays seat s.

    The deck is shuffled by a generator seeded with ``derive(hand_seed, 0)`` unless ``deck``
    (a permutation of 0-51, for scripted tests) is given; seat s's strategy draws from
    ``SplitMix64(derive(hand_seed, 1 + s))``. ``scores`` (by seat) are shown in the views.
    An illegal answer raises :class:`IllegalMove` (an :class:`IllegalDecision`), naming the
    strategy by ``names[seat]`` when given (else by its ``name`` attribute). With ``forfeit``
    (``--on-illegal forfeit``) it ends the hand instead: kind :attr:`Outcome.FORFEIT`, won by
    the other seat for 0 points, the last move a :class:`Forfeit` that holds the message.
    """
    return _Hand(strategies, rules, hand_seed, dealer, scores, deck, names, forfeit).play()


# ---------------------------------------------------------------------------------------
# The game.


@dataclass(frozen=True)
class GameRecord:
    """One game (or one Hollywood session of three games, V14) and its hands."""

    first_dealer: int
    winner: int
    """Seat, or -1 when the game was capped (or a Hollywood session tied)."""
    margin: int
    """The winner's total minus the loser's (R23); 0 without a winner."""
    scores: tuple[int, int]
    """Points by seat, without boxes (Hollywood: summed over its three games)."""
    boxes: tuple[int, int]
    """Boxes by seat, Oklahoma extra boxes included (R22, V9)."""
    totals: tuple[int, int]
    """Final totals by seat with all bonuses (R21-R23, V8)."""
    hands: int
    """Deals, dead hands included."""
    dead_hands: int
    shutout: bool
    """The loser scored no points (in some game, for Hollywood)."""
    capped: bool
    """The game hit :data:`MAX_HANDS_PER_GAME`."""
    hand_records: tuple[HandRecord, ...] = field(repr=False)


@dataclass
class ScoreSheet:
    """One game's column of points and boxes (R20-R23, V8)."""

    scores: list[int] = field(default_factory=lambda: [0, 0])
    boxes: list[int] = field(default_factory=lambda: [0, 0])
    entered: list[bool] = field(default_factory=lambda: [False, False])
    """Whether each seat has entered a win in this game (V14; a 0-point win counts, it carries a box)."""
    winner: int = -1
    """The seat whose score reached the target, -1 while the game is open."""

    @property
    def open(self) -> bool:
        return self.winner < 0

    def shutout(self) -> bool:
        """R21: the game is over and its loser scored no points."""
        return not self.open and self.scores[1 - self.winner] == 0

    def totals(self, rules: Rules) -> tuple[int, int]:
        """Score plus box bonuses (R22); the winner adds the game bonus (R21), doubled on a
        shutout with ``shutout == "double"`` (V8)."""
        totals = [self.scores[seat] + rules.box_bonus * self.boxes[seat] for seat in (0, 1)]
        if self.open:
            return totals[0], totals[1]
        if self.shutout() and rules.shutout == "bonus":
            totals[self.winner] += rules.shutout_bonus
        else:
            totals[self.winner] += rules.game_bonus
        if self.shutout() and rules.shutout == "double":
            totals[self.winner] *= 2
        return totals[0], totals[1]


class Scoreboard:
    """The score sheets of a game (one sheet, or three for Hollywood, V14) and who deals next.

    Feed it hand records with :meth:`add`; it credits each win (R22, V9 extra boxes, V14),
    closes games at the target (R20) and rotates the deal (V10).
    """

    def __init__(self, rules: Rules, first_dealer: int) -> None:
        self.rules = rules
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self.sheets = [ScoreSheet() for _ in range(3 if rules.hollywood else 1)]
        self.hand_records: list[HandRecord] = []
        self.forfeited_by = -1
        """The seat that forfeited the game (``--on-illegal forfeit``), -1 if none."""

    @property
    def over(self) -> bool:
        return not any(sheet.open for sheet in self.sheets)

    @property
    def scores(self) -> tuple[int, int]:
        """Points by seat, summed over the sheets (the scores shown to strategies)."""
        return sum(sheet.scores[0] for sheet in self.sheets), sum(sheet.scores[1] for sheet in self.sheets)

    def boxes_won(self, record: HandRecord) -> int:
        """R22: one box per hand won; V9 extra boxes (an Oklahoma sub-variant): 1 for an undercut,
        2 for a gin or big gin, times the hand's multiplier."""
        extra = 0
        if self.rules.oklahoma and self.rules.oklahoma_extra_boxes:
            if record.kind == Outcome.UNDERCUT:
                extra = 1
            elif record.kind in (Outcome.GIN, Outcome.BIG_GIN):
                extra = 2
        return 1 + extra * record.multiplier

    def sheets_entered_by(self, winner: int) -> list[ScoreSheet]:
        """V14: the open games a hand won by ``winner`` scores in: every open game in which
        ``winner`` has already entered a win, and the first open game in which it has not.
        So no win is lost while a game is open; with one game, that game (R20)."""
        open_sheets = [sheet for sheet in self.sheets if sheet.open]
        first_new = next((sheet for sheet in open_sheets if not sheet.entered[winner]), None)
        return [sheet for sheet in open_sheets if sheet.entered[winner] or sheet is first_new]

    def add(self, record: HandRecord) -> None:
        """Credit one hand and choose the next dealer (R15: a dead hand is redealt by the same dealer)."""
        self.hand_records.append(record)
        if record.kind == Outcome.DEAD:
            return
        if record.kind == Outcome.FORFEIT:
            self.forfeit(1 - record.winner)
            return
        winner = record.winner
        boxes = self.boxes_won(record)
        for sheet in self.sheets_entered_by(winner):
            sheet.entered[winner] = True
            sheet.scores[winner] += record.points
            sheet.boxes[winner] += boxes
            if sheet.scores[winner] >= self.rules.target:
                sheet.winner = winner
        rotation = self.rules.dealer_rotation
        if rotation == "loser":
            self.dealer = 1 - winner
        elif rotation == "winner":
            self.dealer = winner
        else:
            self.dealer = 1 - self.dealer

    def forfeit(self, seat: int) -> None:
        """``seat`` made an illegal move (``--on-illegal forfeit``) and loses the game in progress, as
        the EAAI framework gives such a game to the opponent: in every open game the opponent's score
        is raised to the target (R20), no box is credited for the forfeited hand, and the game is
        scored as usual from there (R21-R23, V8: game bonus, boxes, a shutout if ``seat`` has no
        points). A Hollywood session (V14) goes to the opponent whatever its totals."""
        other = 1 - seat
        for sheet in self.sheets:
            if sheet.open:
                sheet.scores[other] = max(sheet.scores[other], self.rules.target)
                sheet.winner = other
        self.forfeited_by = seat

    def game_record(self, capped: bool = False) -> GameRecord:
        """The game's result: totals with all bonuses (R21-R23, V8, V14)."""
        sheet_totals = [sheet.totals(self.rules) for sheet in self.sheets]
        totals = (sum(t[0] for t in sheet_totals), sum(t[1] for t in sheet_totals))
        winner = -1
        if self.forfeited_by >= 0:
            winner = 1 - self.forfeited_by
        elif not capped and self.over:
            if len(self.sheets) == 1:
                winner = self.sheets[0].winner
            elif totals[0] != totals[1]:
                winner = 0 if totals[0] > totals[1] else 1
        margin = totals[winner] - totals[1 - winner] if winner >= 0 else 0
        return GameRecord(
            first_dealer=self.first_dealer,
            winner=winner,
            margin=margin,
            scores=self.scores,
            boxes=(sum(s.boxes[0] for s in self.sheets), sum(s.boxes[1] for s in self.sheets)),
            totals=totals,
            hands=len(self.hand_records),
            dead_hands=sum(1 for record in self.hand_records if record.kind == Outcome.DEAD),
            shutout=any(sheet.shutout() for sheet in self.sheets),
            capped=capped,
            hand_records=tuple(self.hand_records),
        )


def first_dealer(game_seed: int) -> int:
    """R7: the first dealer, ``randint(2)`` of a generator seeded with ``derive(game_seed, 0)``."""
    return SplitMix64(derive(game_seed, 0)).randint(2)


def hand_seed_of(game_seed: int, deal_index: int) -> int:
    """The hand seed of the ``deal_index``-th deal of a game (redeals after dead hands counted)."""
    return derive(game_seed, 1 + deal_index)


def play_game(
    strategies: tuple[Strategy, Strategy],
    rules: Rules,
    game_seed: int,
    names: tuple[str, str] | None = None,
    forfeit: bool = False,
) -> GameRecord:
    """Play hands until a score reaches the target (R20-R23, V8-V10), or a Hollywood session (V14).

    With ``forfeit`` an illegal move loses the game (:meth:`Scoreboard.forfeit`): the game ends
    after that hand, whose record is of kind :attr:`Outcome.FORFEIT`; without, it raises.

    >>> from simgin.strategies.simple import SimpleStrategy
    >>> game = play_game((SimpleStrategy(), SimpleStrategy()), Rules(), game_seed=1)
    >>> game.winner in (0, 1), max(game.scores) >= 100, game.hands == len(game.hand_records)
    (True, True, True)
    """
    board = Scoreboard(rules, first_dealer(game_seed))
    for deal_index in range(MAX_HANDS_PER_GAME):
        seed = hand_seed_of(game_seed, deal_index)
        board.add(play_hand(strategies, rules, seed, board.dealer, board.scores, names=names, forfeit=forfeit))
        if board.over:
            return board.game_record()
    return board.game_record(capped=True)


def records_to_rows(records: Iterable[HandRecord]) -> list[tuple[int, ...]]:
    """The hand records as plain int rows (columns :data:`HAND_RECORD_FIELDS`), e.g. to compare engines."""
    return [record.row() for record in records]


__all__ = [
    "HAND_RECORD_FIELDS",
    "MAX_HANDS_PER_GAME",
    "MAX_TURNS",
    "Deal",
    "Discard",
    "Draw",
    "FiftiethOffer",
    "Forfeit",
    "GameRecord",
    "HandRecord",
    "IllegalDecision",
    "IllegalMove",
    "Knock",
    "LayOff",
    "Move",
    "Offer",
    "Outcome",
    "Score",
    "ScoreSheet",
    "Scoreboard",
    "first_dealer",
    "hand_seed_of",
    "play_game",
    "play_hand",
    "records_to_rows",
]

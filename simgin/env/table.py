"""A two-player table whose hands move one action at a time: the game under every ``simgin.env`` environment.

:class:`Table` holds one hand in the arrays of :mod:`simgin.kernels.env` and moves it by actions (the action
numbers of that module: 0-51 discard a card, ``DRAW_STOCK``, ``TAKE``, ``PASS``, ``KNOCK``, ``PLAY_ON``,
``BIG_GIN``). A seat may be given a simgin player (any spec: a compiled bot plays inside the kernel, a
plain-Python strategy or an ``exec:``/``eaai:`` program through :meth:`Table.seat_action`); a seat without one
waits for actions from outside (the agent). :class:`Game` plays a table's hands as a game (R20-R23, V8-V10,
V14) with the reference engine's score sheets.

The hands are simgin's (docs/ENGINE.md, RULES.md R7-R23, V1-V14): a test holds hands stepped here equal, row
for row, to :func:`simgin.play_hands` on the same seeds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from simgin.base import guard
from simgin.game.cards import format_card
from simgin.game.moves import HandRecord, Outcome
from simgin.game.reference_engine import MAX_HANDS_PER_GAME, GameRecord, Scoreboard, first_dealer, hand_seed_of
from simgin.game.rng import SplitMix64, derive
from simgin.game.rules import Rules
from simgin.game.showdown import KINDS_BY_CODE, score_showdown
from simgin.game.strategy import HandEnd, PlayerView, Strategy
from simgin.kernels import bots as _bots, compiled_for, env as _k, view as _view
from simgin.kernels.engine import HAND_FIELDS
from simgin.kernels.melds import SUIT_DEADWOOD
from simgin.kernels.parameters import PARAMETER_CAPACITY
from simgin.kernels.showdown import SUIT_VALUE
from simgin.players.registry import Player, resolve

#: The action numbers, by name (:mod:`simgin.kernels.env`).
DRAW_STOCK, TAKE, PASS, KNOCK, PLAY_ON, BIG_GIN = _k.DRAW_STOCK, _k.TAKE, _k.PASS, _k.KNOCK, _k.PLAY_ON, _k.BIG_GIN
ACTION_COUNT = _k.ACTION_COUNT
OBSERVATION_SIZE = _k.OBSERVATION_SIZE
#: The phases (which question the player to move answers), by number.
PHASES = ("up_card", "draw", "discard", "knock", "fiftieth", "over")


def action_name(action: int) -> str:
    """What an action does, in words: ``'discard 7H'``, ``'draw from the stock'``, ...

    >>> action_name(0), action_name(TAKE), action_name(BIG_GIN)
    ('discard AC', 'take the pile card', 'big gin')
    """
    if 0 <= action < 52:
        return f"discard {format_card(action)}"
    names = {
        DRAW_STOCK: "draw from the stock",
        TAKE: "take the pile card",
        PASS: "pass",
        KNOCK: "knock",
        PLAY_ON: "play on",
        BIG_GIN: "big gin",
    }
    if action not in names:
        raise ValueError(f"action must be 0-{ACTION_COUNT - 1}, got {action!r}")
    return names[action]


def seat_policies(bot_ids: np.ndarray) -> Any:
    """The seats' ``decide`` functions (``kernels.bots.seat_policies``) in a numba typed list of first-class
    functions.

    The engine takes them as a tuple, once per batch of hands. The table calls its kernels once per action, and
    numba turns a tuple of functions into function pointers on every call (about 20 microseconds per function,
    more than an action takes); a typed list holds the pointers themselves, made once, in compiled code
    (``kernels.env.policy_list``).
    """
    return _policy_list(tuple(_bots.seat_policies(bot_ids)))


class _Compiled:
    """A kernel called through its compiled code for the table's argument types (``kernels.compiled_for``),
    found once: numba's dispatcher would type the arguments again on every action."""

    def __init__(self, kernel: Any) -> None:
        self.kernel = kernel
        self.call: Any = None

    def __call__(self, *args: Any) -> Any:
        if self.call is None:
            self.call = compiled_for(self.kernel, *args)
        return self.call(*args)


#: The table's kernels, each found compiled once per process (every table passes the same argument types).
_deal, _play_bots, _step = _Compiled(_k.deal), _Compiled(_k.play_bots), _Compiled(_k.step)
_policy_list = _Compiled(_k.policy_list)


class IllegalAction(ValueError):
    """An action that is not legal for the player to move; the table is unchanged."""


class PlayerFailed(RuntimeError):
    """A player seated at the table (a bot, a Python strategy, a program) made an illegal move or failed while
    deciding; the message names it, the decision and the hand seed."""


def _player(seat: Player | str | None) -> Player | None:
    if seat is None or isinstance(seat, Player):
        return seat
    return resolve(seat)


class Table:
    """One hand at a time for two seats, moved by actions (:mod:`simgin.kernels.env`).

    ``seats[s]`` is a simgin player (a spec such as ``'simple'``, ``'heuristic:knock=7'``,
    ``'exec:python bot.py'``, or a resolved :class:`~simgin.players.registry.Player`) who plays seat ``s``, or
    None for a seat that waits for actions. A compiled bot is played inside the kernel after each action; any
    other player by :meth:`play_seats`, which the environments call.

    >>> table = Table(Rules(), (None, "simple"))
    >>> table.deal(hand_seed=7, dealer=1)
    >>> table.to_move, table.phase
    (0, 'up_card')
    """

    def __init__(self, rules: Rules, seats: Sequence[Player | str | None] = (None, None), games: bool = False) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a simgin.Rules, got {rules!r}")
        if len(seats) != 2:
            raise ValueError(f"a table has two seats, got {len(seats)}")
        self.rules = rules.effective("pairs", games=games)
        self.players = (_player(seats[0]), _player(seats[1]))
        ids = [player.bot_id if player is not None and player.compiled else _k.AGENT for player in self.players]
        self.bot_ids = np.array(ids, dtype=np.int64)
        self.bot_params = np.zeros((2, PARAMETER_CAPACITY), dtype=np.float64)
        for seat, player in enumerate(self.players):
            if player is not None and player.compiled:
                self.bot_params[seat] = player.vector()
        self.policies = seat_policies(self.bot_ids)
        self.strategies: list[Strategy | None] = [None, None]
        self._rules_array = self.rules.to_array()
        self.table = np.zeros(_k.TABLE_SIZE, dtype=np.int64)
        self.fields = np.zeros(_k.FIELD_COUNT, dtype=np.int64)
        self.fields[_k.F_PHASE] = _k.PHASE_OVER
        self._mask = np.zeros(ACTION_COUNT, dtype=np.int8)
        self._rngs: tuple[SplitMix64, SplitMix64] | None = None

    # -- the hand -------------------------------------------------------------------------------------------

    def deal(self, hand_seed: int, dealer: int, scores: tuple[int, int] = (0, 0), new_players: bool = True) -> None:
        """Deal hand ``hand_seed`` (as :func:`simgin.play_hands` deals it, R8, V5), then let the seated players
        play up to the first decision of a seat without one (or to the end of the hand).

        Seated Python players and programs are made afresh for the hand, as ``simgin.play_hands`` makes them,
        unless ``new_players`` is false (a game keeps them from hand to hand, as ``simgin.play_games`` does).
        """
        if dealer not in (0, 1) or isinstance(dealer, bool):
            raise ValueError(f"dealer must be seat 0 or 1, got {dealer!r}")
        if isinstance(hand_seed, bool) or not isinstance(hand_seed, (int, np.integer)) or not 0 <= hand_seed < 2**64:
            raise ValueError(f"hand_seed must be a whole number from 0 to 2**64 - 1, got {hand_seed!r}")
        self._rngs = (SplitMix64(derive(hand_seed, 1)), SplitMix64(derive(hand_seed, 2)))
        for seat, player in enumerate(self.players):
            if player is not None and not player.compiled and (new_players or self.strategies[seat] is None):
                self.strategies[seat] = player.make()
        seed, score_0, score_1 = np.uint64(hand_seed), int(scores[0]), int(scores[1])
        _deal(
            self.table, self.fields, seed, int(dealer), score_0, score_1, self._rules_array, self.bot_ids,
            self.bot_params, SUIT_DEADWOOD, SUIT_VALUE, self.policies,
        )  # fmt: skip
        for seat, strategy in enumerate(self.strategies):
            if strategy is not None:
                self._ask(seat, "start_hand")
        self._check(_play_bots(self.table, self.fields, self._rules_array, SUIT_DEADWOOD, SUIT_VALUE, self.policies))
        self.play_seats()
        self._tell_the_end()

    @property
    def over(self) -> bool:
        return int(self.fields[_k.F_PHASE]) == _k.PHASE_OVER

    @property
    def to_move(self) -> int:
        """The seat to move (its last value once the hand is over)."""
        return int(self.fields[_k.F_PLAYER])

    @property
    def phase(self) -> str:
        """``'up_card'``, ``'draw'``, ``'discard'``, ``'knock'``, ``'fiftieth'`` or ``'over'``."""
        return PHASES[int(self.fields[_k.F_PHASE])]

    @property
    def hand_seed(self) -> int:
        return int(np.int64(self.fields[_k.F_HAND_SEED]).view(np.uint64))

    def legal_mask(self) -> np.ndarray:
        """int8, 1 for each legal action of the player to move (all 0 once the hand is over)."""
        mask = np.zeros(ACTION_COUNT, dtype=np.int8)
        _k.legal_actions(self.fields, self.table, self._rules_array, SUIT_DEADWOOD, mask)
        return mask

    def legal_actions(self) -> list[int]:
        return [int(a) for a in np.flatnonzero(self.legal_mask())]

    def step(self, action: int) -> None:
        """Play ``action`` for the player to move, then the seated players up to the next open decision.

        An action that is not legal raises :class:`IllegalAction` naming it and what is legal; nothing changes.
        """
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalAction(f"an action is an int 0-{ACTION_COUNT - 1}, got {action!r}")
        code = _step(self.table, self.fields, int(action), self._rules_array, SUIT_DEADWOOD, SUIT_VALUE, self.policies)
        if code == _k.ILLEGAL:
            if self.over:
                raise IllegalAction(f"the hand is over; action {action!r} was not played")
            legal = ", ".join(f"{a} ({action_name(a)})" for a in self.legal_actions())
            what = action_name(int(action)) if 0 <= int(action) < ACTION_COUNT else "no action"
            raise IllegalAction(
                f"action {action!r} ({what}) is not legal for seat {self.to_move} in phase {self.phase!r}; "
                f"legal: {legal}"
            )
        self._check(code)
        self.play_seats()
        self._tell_the_end()

    def _check(self, code: int) -> None:
        if code == _k.BOT_ILLEGAL:
            seat = int(self.fields[_k.F_ERROR_SEAT])
            raise PlayerFailed(
                f"strategy {self.players[seat].spec!r} (seat {seat}) made an illegal move in phase {self.phase!r} "
                f"(hand seed {self.hand_seed})"
            )

    def observation(self, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """What ``seat`` knows, as the float32 features of docs/ENV.md (never the other hand or the stock)."""
        if out is None:
            out = np.empty(OBSERVATION_SIZE, dtype=np.float32)
        _k.observe(self.table, self.fields, seat, self._rules_array, SUIT_DEADWOOD, out)
        return out

    def reward(self, seat: int) -> int:
        """``seat``'s points from the hand once it is over: the winner's points (R16-R19), negative for the
        loser, 0 for a dead hand (R15); 0 while it is played."""
        return int(_k.hand_reward(self.fields, seat))

    def row(self) -> np.ndarray:
        """The hand's row (columns ``kernels.engine.HAND_FIELDS``), as ``simgin.play_hands`` gives it."""
        return self.fields[_k.F_RECORD : _k.F_RECORD + len(HAND_FIELDS)].copy()

    def record(self) -> HandRecord:
        """The finished hand as a :class:`~simgin.game.moves.HandRecord` (without its move log)."""
        if not self.over:
            raise ValueError("the hand is not over yet")
        values = {name: int(value) for name, value in zip(HAND_FIELDS, self.row(), strict=True)}
        values["kind"] = Outcome(values["kind"])
        return HandRecord(**values)

    # -- what a player at the table sees, for players written in Python --------------------------------------

    def view(self, seat: int) -> PlayerView:
        """``seat``'s :class:`~simgin.game.strategy.PlayerView`, as the reference engine would give it."""
        t = self.table
        other = 1 - seat
        moving = seat == self.to_move and not self.over
        hand = int(self.fields[_k.F_HANDS + seat])
        capacity = _view.LIST_CAPACITY
        took = t[_view.T_TOOK + other * capacity : _view.T_TOOK + other * capacity + t[_view.T_TOOK_COUNT + other]]
        passed = t[_view.T_PASSED + 2 * other : _view.T_PASSED + 2 * other + t[_view.T_PASSED_COUNT + other]]
        start = _view.T_DISCARDS + other * capacity
        discards = t[start : start + t[_view.T_DISCARD_COUNT + other]]
        return PlayerView(
            seat=seat,
            dealer=int(t[_view.T_DEALER]),
            hand=tuple(card for card in range(52) if hand >> card & 1),
            pile=tuple(int(card) for card in t[_view.T_PILE : _view.T_PILE + t[_view.T_PILE_COUNT]]),
            stock_count=int(t[_view.T_STOCK_COUNT]),
            knock_limit=int(t[_view.T_KNOCK_LIMIT]),
            up_card=int(t[_view.T_UP_CARD]),
            drawn_card=int(t[_view.T_DRAWN]) if moving else -1,
            drawn_from_pile=bool(t[_view.T_FROM_PILE]) if moving else False,
            opponent_took=tuple(int(card) for card in took),
            opponent_passed=tuple(int(card) for card in passed),
            opponent_discards=tuple(int(card) for card in discards),
            scores=(int(t[_view.T_SCORE]), int(t[_view.T_SCORE + 1])),
            rules=self.rules,
            turn=int(t[_view.T_TURN]),
            fiftieth_card=bool(t[_view.T_FIFTIETH]) if moving else False,
        )

    def _ask(self, seat: int, decision: str) -> object:
        strategy = self.strategies[seat]
        assert strategy is not None and self._rngs is not None
        try:
            return guard.call_foreign(getattr(strategy, decision), self.view(seat), self._rngs[seat])
        except guard.ForeignFailure as failure:
            spec = self.players[seat].spec if self.players[seat] else "?"
            raise PlayerFailed(
                f"strategy {spec!r} (seat {seat}) failed at its {decision!r} decision: {failure} "
                f"(hand seed {self.hand_seed})"
            ) from failure.error

    def ending(self) -> HandEnd:
        """How the finished hand ended, as the table sees it (R14: after a knock both hands are laid face up, with
        the melds and lay-offs; R15: nothing is shown after a dead hand), as the reference engine tells it."""
        record = self.record()
        ending = HandEnd(str(KINDS_BY_CODE[int(record.kind)]), record.winner, record.points, record.knocker)
        if record.kind == Outcome.DEAD:
            return ending
        hands = [tuple(c for c in range(52) if int(self.fields[_k.F_HANDS + seat]) >> c & 1) for seat in (0, 1)]
        up = record.up_card if record.up_card >= 0 else None
        shown = score_showdown(hands[record.knocker], hands[1 - record.knocker], self.rules, up)
        return dataclasses.replace(
            ending,
            knocker_deadwood=shown.knocker_deadwood,
            defender_deadwood=shown.defender_deadwood,
            knocker_melds=tuple(map(tuple, shown.knocker_melds)),
            defender_melds=tuple(map(tuple, shown.defender_melds)),
            layoffs=tuple(shown.layoffs),
            hands=(hands[0], hands[1]),
        )

    def _tell_the_end(self) -> None:
        """Seated Python players that define ``end_hand`` are told how the hand ended (the Strategy protocol)."""
        if not self.over:
            return
        seats = [s for s, strategy in enumerate(self.strategies) if callable(getattr(strategy, "end_hand", None))]
        if not seats:
            return
        ending = self.ending()
        for seat in seats:
            strategy = self.strategies[seat]
            assert strategy is not None and self._rngs is not None
            view = dataclasses.replace(self.view(seat), ending=ending)
            try:
                guard.call_foreign(strategy.end_hand, view, self._rngs[seat])
            except guard.ForeignFailure as failure:
                raise PlayerFailed(
                    f"strategy {self.players[seat].spec!r} (seat {seat}) failed at its 'end_hand': {failure}"
                ) from failure.error

    def strategy_action(self, seat: int, strategy: Strategy, rng: SplitMix64) -> int:
        """The action a plain-Python ``strategy`` (the :class:`~simgin.game.strategy.Strategy` protocol) chooses
        for ``seat``, the player to move, asked as the reference engine asks (big gin before the discard, V13)."""
        view = self.view(seat)
        phase = int(self.fields[_k.F_PHASE])
        if phase == _k.PHASE_UP_CARD:
            return TAKE if strategy.take_up_card(view, rng) else PASS
        if phase == _k.PHASE_DRAW:
            return TAKE if strategy.draw_from_pile(view, rng) else DRAW_STOCK
        if phase == _k.PHASE_KNOCK:
            return KNOCK if strategy.knock(view, rng) else PLAY_ON
        if phase == _k.PHASE_FIFTIETH:
            return TAKE if strategy.take_fiftieth(view, rng) else PASS
        if phase == _k.PHASE_DISCARD:
            if self.legal_mask()[BIG_GIN] and strategy.big_gin(view, rng):
                return BIG_GIN
            card = strategy.discard(view, rng)
            if isinstance(card, (bool, np.bool_)) or not isinstance(card, (int, np.integer)):
                raise PlayerFailed(f"seat {seat}'s strategy answered {card!r} to 'discard', which is not a card")
            return int(card)
        raise PlayerFailed("the hand is over")

    def seat_action(self, seat: int) -> int:
        """The action of the seated Python player (or program) of ``seat``, the player to move."""
        strategy = self.strategies[seat]
        assert strategy is not None and self._rngs is not None
        try:
            return guard.call_foreign(self.strategy_action, seat, strategy, self._rngs[seat])
        except guard.ForeignFailure as failure:
            if isinstance(failure.error, PlayerFailed):
                raise failure.error from None
            raise PlayerFailed(
                f"strategy {self.players[seat].spec!r} (seat {seat}) failed at a {self.phase!r} decision: {failure} "
                f"(hand seed {self.hand_seed})"
            ) from failure.error

    def play_seats(self) -> None:
        """Let seated Python players and programs move until a seat without a player is to move or the hand ends."""
        while not self.over and self.strategies[self.to_move] is not None:
            seat = self.to_move
            action = self.seat_action(seat)
            code = _step(
                self.table, self.fields, int(action), self._rules_array, SUIT_DEADWOOD, SUIT_VALUE, self.policies
            )
            if code == _k.ILLEGAL:
                raise PlayerFailed(
                    f"strategy {self.players[seat].spec!r} (seat {seat}) made an illegal move: "
                    f"{action_name(action) if 0 <= action < ACTION_COUNT else action} in phase {self.phase!r} "
                    f"(hand seed {self.hand_seed})"
                )
            self._check(code)


class Game:
    """A table's hands played as a game (R20-R23, V8-V10, V14), scored on the reference engine's score sheets.

    Game ``game_seed`` deals as ``simgin.play_games`` deals it: the first dealer from the seed (R7), deal k from
    ``hand_seed_of(game_seed, k)``, the dealer after each hand by ``dealer_rotation`` (V10), dead hands redealt
    by the same dealer (R15). Seated Python players keep their memory through the game.
    """

    def __init__(self, table: Table, game_seed: int) -> None:
        self.table = table
        self.game_seed = int(game_seed)
        self.board = Scoreboard(table.rules, first_dealer(self.game_seed))
        self.deals = 0
        self.finished = False

    def start(self) -> None:
        """Deal the game's first hand."""
        self.board = Scoreboard(self.table.rules, first_dealer(self.game_seed))
        self.deals = 0
        self.finished = False
        self._deal(new_players=True)

    def _deal(self, new_players: bool) -> None:
        self.table.deal(hand_seed_of(self.game_seed, self.deals), self.board.dealer, self.board.scores, new_players)
        self.deals += 1

    def next_hand(self) -> bool:
        """Credit the finished hand (R22, V9, V14) and deal the next one, unless the game is over (R20) or hit
        ``MAX_HANDS_PER_GAME`` deals. True if a hand was dealt."""
        if not self.table.over or self.finished:
            raise ValueError("the hand is not over yet" if not self.finished else "the game is over")
        self.board.add(self.table.record())
        if self.board.over or self.deals >= MAX_HANDS_PER_GAME:
            self.finished = True
            return False
        self._deal(new_players=False)
        return True

    def result(self) -> GameRecord:
        return self.board.game_record(capped=not self.board.over)

    def reward(self, seat: int, win_loss: bool = False) -> int:
        """``seat``'s result of the finished game: its margin (R23: the winner's total minus the loser's, every
        bonus included; negative for the loser), or +1/-1 with ``win_loss``; 0 for an undecided game."""
        record = self.result()
        if record.winner < 0:
            return 0
        sign = 1 if record.winner == seat else -1
        return sign if win_loss else sign * record.margin


def episode_reward(table: Table, game: Game | None, seat: int, win_loss: bool) -> int:
    """``seat``'s reward for a finished episode: the game's (:meth:`Game.reward`) when it is a game, else the
    hand's points (:meth:`Table.reward`, R16-R19), or their sign with ``win_loss``."""
    if game is not None:
        return game.reward(seat, win_loss)
    points = table.reward(seat)
    return int(np.sign(points)) if win_loss else points

"""Hands played with every decision recorded and valued: one row per decision (issue 34).

Hand ``k`` is hand ``k`` of ``simgin match A B --hands N --seed S`` (its seed, dealer and seats, duplicate
deals by default: hands 2j and 2j+1 are one deal with the seats swapped; :func:`running.runner.locate_hand`),
so ``simgin replay A B --seed S --hand k`` shows it. It is played by the reference engine (R8-R19), which
hosts every kind of player, and each decision of both players is valued by an
:class:`~simgin.analysis.evaluator.Evaluator` whose worlds are keyed by the hand's seed and the decision's
place in the hand, so a row is the same however the hands are split among workers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from simgin.analysis.evaluator import Evaluator, IllegalAction, Valuation
from simgin.analysis.luck import hand_luck
from simgin.analysis.recorder import Decision, RecordingStrategy
from simgin.game.cards import format_cards
from simgin.game.reference_engine import hand_seed_of, play_game, play_hand
from simgin.game.rng import derive
from simgin.game.rules import Rules
from simgin.kernels.payoff import result_value
from simgin.players.registry import resolve

STAGES = ("early", "middle", "late")
"""The stage of a hand by the stock left: more than two thirds of the cards the stock starts with, more than
one third, or the rest."""

COLUMNS = (
    "hand",
    "deal",
    "player",
    "side",
    "seat",
    "kind",
    "stage",
    "stock",
    "hand_cards",
    "pile_top",
    "known",
    "chosen",
    "best",
    "loss",
    "loss_error",
    "spread",
    "place",
    "chosen_action",
    "best_action",
    "best_value",
    "replay",
)
"""One row per decision: the hand (in an analysis of games, the game, and ``deal`` its deal), the player
(``side`` 0 is the match's first-named, A), its seat, the kind
and stage of the decision, the position (stock left, the hand, the pile's top, the cards the other is known
to hold), the action chosen and the best, the loss and its error, and ``spread``, the best action's value
minus the worst's (what was at stake); ``place``, the decision's number in its hand (over both seats), and the
chosen and best actions as ``kernels.analysis`` numbers them (a card, or 1/0), to play the decision again
(:mod:`simgin.analysis.advice`); ``best_value``, the best action's value (the first decision's is the deal's
luck, :mod:`simgin.analysis.luck`); and the ``simgin replay`` command that shows the hand."""

SECOND_OPINION_COLUMNS = ("second_opinions", "second_opinion_losses")
"""With second opinions (``simgin analyse --second-opinion BOT``), two more columns: per adviser, in the order
given, the action it would have taken at the decision and that action's loss (None where it gave no legal
action)."""


def stage_of(stock_count: int, rules: Rules) -> str:
    """``'early'``, ``'middle'`` or ``'late'``: where in the stock a decision falls (31 cards at the first
    draw of a standard hand, R8; 30 with the 11-card start, V5)."""
    start = 30 if rules.eleven_card_start else 31
    share = stock_count / start
    return STAGES[0] if share > 2 / 3 else STAGES[1] if share > 1 / 3 else STAGES[2]


@dataclass(frozen=True)
class AnalysedHand:
    """One hand: its seed, dealer and players by seat, each seat's net points (won minus lost, R17-R19),
    and every decision's row."""

    index: int
    seed: int
    dealer: int
    players: tuple[str, str]
    net_points: tuple[float, float]
    rows: tuple[dict, ...]
    swapped: bool = False
    """Whether A sits in seat 1 (the second leg of a duplicate deal)."""
    luck: tuple[float, float] = (0.0, 0.0)
    """Each seat's luck: the value of the deal and of its stock draws (:mod:`simgin.analysis.luck`), zero-sum."""

    def net_of_side(self, side: int) -> float:
        """The net points of A (``side`` 0) or B (1)."""
        return self.net_points[side ^ int(self.swapped)]

    def luck_of_side(self, side: int) -> float:
        """The luck of A (``side`` 0) or B (1)."""
        return self.luck[side ^ int(self.swapped)]


def known_cards(view) -> tuple[int, ...]:
    """The cards the other player is known to hold: taken from the pile (R9) and not discarded since."""
    held = []
    for card in view.opponent_took:
        if card not in view.opponent_discards:
            held.append(card)
    return tuple(sorted(held))


def decision_rows(
    log: Sequence[Decision],
    players: Sequence[str],
    rules: Rules,
    number: int,
    deal: int,
    hand_seed: int,
    evaluator: Evaluator,
    swapped: bool,
    replay: str,
) -> list[dict]:
    """One row per decision of ``log`` (one hand's, ``players`` by seat), each valued by ``evaluator`` in worlds
    keyed by the hand's seed and the decision's place; an illegal answer (a forfeit) is not valued."""
    rows = []
    for place, decision in enumerate(log):
        try:
            valued = evaluator.value(decision, key=derive(hand_seed, place))
        except IllegalAction:
            continue  # the forfeited move (R23 under --on-illegal forfeit): nothing legal was chosen
        view = decision.view
        rows.append(
            {
                "hand": number,
                "deal": deal,
                "player": players[view.seat],
                "side": view.seat ^ int(swapped),
                "seat": view.seat,
                "kind": decision.kind,
                "stage": stage_of(view.stock_count, rules),
                "stock": view.stock_count,
                "hand_cards": format_cards(view.hand),
                "pile_top": format_cards(view.pile[-1:]),
                "known": format_cards(known_cards(view)),
                "chosen": valued.action_text(valued.chosen),
                "best": valued.action_text(valued.best),
                "loss": valued.loss,
                "loss_error": valued.loss_error,
                "spread": max(valued.values) - min(valued.values),
                "place": place,
                "chosen_action": valued.chosen,
                "best_action": valued.best,
                "best_value": max(valued.values),
                "replay": replay,
                **(second_opinion_fields(decision, valued) if decision.second_opinions else {}),
            }
        )
    return rows


def second_opinion_fields(decision: Decision, valued: Valuation) -> dict:
    """The second opinions of a decision (:data:`SECOND_OPINION_COLUMNS`): each adviser's answer as a reader says
    it and its loss, read off the same valuation (None for an answer that is no legal action, or none)."""
    values = dict(zip(valued.actions, valued.values, strict=True))
    best = max(valued.values)
    answers = [None if answer not in values else answer for answer in decision.second_opinions]
    return {
        "second_opinions": [None if answer is None else valued.action_text(answer) for answer in answers],
        "second_opinion_losses": [None if answer is None else best - values[answer] for answer in answers],
    }


def _advisers(specs: Sequence[str]) -> list:
    """A fresh player for each spec: one set per seat, each following only that seat's decisions."""
    return [resolve(spec).make() for spec in specs]


def analyse_hand(
    players: Sequence[str],
    rules: Rules,
    index: int,
    seed: int,
    dealer: int,
    evaluator: Evaluator,
    swapped: bool = False,
    forfeit: bool = False,
    replay: str = "",
    advisers: Sequence[str] = (),
) -> AnalysedHand:
    """Play hand ``index`` (seed ``seed``) between ``players`` (seat order) and value every decision in it;
    ``swapped``: A sits in seat 1. With ``forfeit`` an illegal move ends the hand (``--on-illegal forfeit``);
    the illegal answer itself is not valued. ``replay`` is the command that shows the hand. ``advisers`` (specs)
    are asked every decision of both seats (second opinions)."""
    log: list[Decision] = []
    evaluator = evaluator.seated(players)
    seats = tuple(RecordingStrategy(resolve(spec).make(), log, advisers=_advisers(advisers)) for spec in players)
    record = play_hand(seats, rules, seed, dealer, names=tuple(players), forfeit=forfeit)  # type: ignore[arg-type]
    net = [0, 0]
    if record.winner >= 0:
        net[record.winner] = record.points
        net[1 - record.winner] = -record.points
    rows = decision_rows(log, players, rules, index, 0, seed, evaluator, swapped, replay)
    luck = hand_luck(record.moves, log, rows, evaluator, seed)
    return AnalysedHand(index, seed, dealer, (players[0], players[1]), (net[0], net[1]), tuple(rows), swapped, luck)


def analyse_game(
    players: Sequence[str],
    rules: Rules,
    index: int,
    game_seed: int,
    evaluator: Evaluator,
    swapped: bool = False,
    forfeit: bool = False,
    replay_of: Callable[[Sequence[str], int, int, tuple[int, int]], str] | None = None,
    advisers: Sequence[str] = (),
) -> AnalysedHand:
    """Play game ``index`` (seed ``game_seed``, R20-R23) between ``players`` (seat order) and value every
    decision of every hand; a hand's net points are what it is worth in the game at the scores it was dealt
    at (``kernels.payoff.result_value``: the bots' payoff, as the evaluator values the actions when its
    ``game_value`` is on). ``replay_of(players, hand seed, dealer, scores)`` names each hand's replay; ``advisers``
    as :func:`analyse_hand`'s."""
    log: list[Decision] = []
    starts: list[int] = []
    evaluator = evaluator.seated(players)
    seats = tuple(RecordingStrategy(resolve(spec).make(), log, starts, _advisers(advisers)) for spec in players)
    game = play_game(seats, rules, game_seed, names=tuple(players), forfeit=forfeit)  # type: ignore[arg-type]
    rule_array = rules.to_array()
    net = [0.0, 0.0]
    luck = [0.0, 0.0]
    rows: list[dict] = []
    bounds = [*starts, len(log)]
    for deal, record in enumerate(game.hand_records):
        decisions = log[bounds[deal] : bounds[deal + 1]] if deal + 1 < len(bounds) else []
        scores = decisions[0].view.scores if decisions else (0, 0)
        if record.winner >= 0:
            value = float(result_value(rule_array, scores[record.winner], scores[1 - record.winner], record.points))
            net[record.winner] += value
            net[1 - record.winner] -= value
        hand_seed = hand_seed_of(game_seed, deal)
        replay = replay_of(players, hand_seed, record.dealer, scores) if replay_of else ""
        hand_rows = decision_rows(decisions, players, rules, index, deal, hand_seed, evaluator, swapped, replay)
        for seat, value in enumerate(hand_luck(record.moves, decisions, hand_rows, evaluator, hand_seed)):
            luck[seat] += value
        rows += hand_rows
    return AnalysedHand(index, game_seed, game.first_dealer, (players[0], players[1]), (net[0], net[1]),
                        tuple(rows), swapped, (luck[0], luck[1]))  # fmt: skip

"""Does the evaluator's advice hold in play? A decision played both ways from its exact position (issue 34).

The hand is dealt again from its seed, so everything up to the decision is as it was: the real hidden cards
(the other player's hand), the same players with the same generators. At the decision one player is made to
answer with the action it chose, or with the one the evaluator recommends; afterwards both players play on as
themselves. The stock cards not yet drawn at the decision are shuffled anew for each *continuation* (the same
order for both actions), so the comparison is over the futures the decision could have had, not one. The
gain of the advice is the recommended action's mean net points for the player minus the chosen action's, with
its standard error over the continuations.

A discard is valued with the player's own knock decision right after it made as the evaluator makes it (the
better of knocking and playing on, R12; ``kernels.analysis``), so where that knock decision comes, both ways
of the discard are followed by the evaluator's choice, valued in the discard's own worlds: what is checked is
the discard, not the player's knocking after it (which is a decision of its own, with its own loss).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from simgin.analysis.evaluator import Evaluator
from simgin.analysis.recorder import Decision, RecordingStrategy
from simgin.game.reference_engine import play_hand
from simgin.game.rng import SplitMix64, derive, shuffled_deck
from simgin.game.rules import Rules
from simgin.game.strategy import PlayerView
from simgin.players.registry import resolve


class _Forced(RecordingStrategy):
    """A recorded player whose decision number ``place`` (counted over both seats) is answered with ``action``;
    the inner player is still asked, so its memory is what it would have been. With ``then_knock``, a knock
    decision of the same player right after a forced discard is answered by ``then_knock(view)``."""

    def __init__(
        self, inner: Any, log: list[Decision], place: int, action: int,
        then_knock: Callable[[PlayerView], bool] | None = None,
    ) -> None:  # fmt: skip
        super().__init__(inner, log)
        self.place = place
        self.action = action
        self.then_knock = then_knock

    def _answer(self, answer: Any, as_card: bool) -> Any:
        if len(self.log) - 1 != self.place:
            return answer
        return self.action if as_card else bool(self.action)

    def take_up_card(self, view, rng):  # type: ignore[no-untyped-def]
        return self._answer(super().take_up_card(view, rng), False)

    def draw_from_pile(self, view, rng):  # type: ignore[no-untyped-def]
        return self._answer(super().draw_from_pile(view, rng), False)

    def discard(self, view, rng):  # type: ignore[no-untyped-def]
        return self._answer(super().discard(view, rng), True)

    def knock(self, view, rng):  # type: ignore[no-untyped-def]
        answer = self._answer(super().knock(view, rng), False)
        if self.then_knock is None or len(self.log) - 1 != self.place + 1:
            return answer
        forced = self.log[self.place]
        return self.then_knock(view) if forced.kind == "discard" and forced.view.seat == view.seat else answer


FRESH_SEED = 0x5EED_F2E5
"""Added to the evaluator's seed for the fresh valuation of a checked decision (:func:`play_both_ways`)."""
FRESH_WORLDS = 4
"""The fresh valuation uses this many times the analysis's worlds."""


@dataclass(frozen=True)
class AdviceCheck:
    """The recommended action's mean net points minus the chosen one's, for the deciding player, over
    ``continuations`` futures of the stock; ``gain_error`` is its standard error. With the analysis's evaluator,
    ``fresh_loss`` (and its error) is the same loss valued again in fresh worlds: a decision picked for a large
    claimed loss was partly picked for the noise in its claim (the winner's curse), which fresh worlds do not
    share, so the fresh loss is the claim to hold the realised gain against."""

    gain: float
    gain_error: float
    continuations: int
    fresh_loss: float = math.nan
    fresh_loss_error: float = math.nan


def _net(record: Any, seat: int) -> int:
    if record.winner < 0:
        return 0
    return record.points if record.winner == seat else -record.points


def play_both_ways(
    seats: Sequence[str],
    rules: Rules,
    hand_seed: int,
    dealer: int,
    place: int,
    chosen: int,
    best: int,
    continuations: int = 100,
    seed: int = 0,
    evaluator: Evaluator | None = None,
) -> AdviceCheck:
    """Play decision ``place`` of the hand (``seats``: the specs by seat) with ``best`` and with ``chosen``, in
    ``continuations`` futures of the stock drawn from ``seed``. With the analysis's ``evaluator``, a knock
    decision right after a discard at ``place`` is made as the evaluator valued the discard (its best, in the
    worlds of the discard's key, ``derive(hand_seed, place)``), both ways."""
    key = derive(hand_seed, place)

    def then_knock(view: PlayerView) -> bool:
        assert evaluator is not None
        return bool(evaluator.seated(seats).value(Decision("knock", view, 0), key=key).best)

    # With the players' own playouts the discard was valued with the player's own knock decision after it.
    follow = then_knock if evaluator is not None and evaluator.policy != "players" else None
    deck = shuffled_deck(SplitMix64(derive(hand_seed, 0)))
    log: list[Decision] = []
    players = tuple(_Forced(resolve(spec).make(), log, place, chosen) for spec in seats)
    play_hand(players, rules, hand_seed, dealer, deck=deck)  # type: ignore[arg-type]
    decision = log[place]
    seat = decision.view.seat
    fresh, fresh_error = math.nan, math.nan
    if evaluator is not None:
        again = replace(
            evaluator.seated(seats), seed=evaluator.seed + FRESH_SEED, worlds=FRESH_WORLDS * evaluator.worlds
        )
        fresh, fresh_error = again.difference(decision, best, chosen, key=key)
    hidden = 52 - decision.view.stock_count
    rng = np.random.default_rng(seed)
    gains = []
    for _ in range(continuations):
        future = list(deck[:hidden]) + [int(card) for card in rng.permutation(deck[hidden:])]
        nets = []
        for action in (best, chosen):
            shared: list[Decision] = []  # one log for both seats: decisions are counted over the hand
            played = tuple(_Forced(resolve(spec).make(), shared, place, action, follow) for spec in seats)
            nets.append(_net(play_hand(played, rules, hand_seed, dealer, deck=future), seat))  # type: ignore[arg-type]
        gains.append(nets[0] - nets[1])
    values = np.array(gains, dtype=float)
    error = float(values.std(ddof=1) / math.sqrt(len(values))) if len(values) > 1 else math.nan
    return AdviceCheck(float(values.mean()), error, len(values), fresh, fresh_error)


def check_costliest(result: Any, count: int = 20, continuations: int = 100, seed: int = 0) -> list[dict[str, Any]]:
    """The ``count`` costliest decisions of an analysis (:class:`~simgin.analysis.analyse.AnalysisResult`)
    played both ways: each with the loss the evaluator claimed, the same loss valued again in fresh worlds
    (``fresh_claim``: free of the noise the selection picked) and the gain the advice realised in play."""
    frame = result.to_frame()
    top = frame[frame["loss"] > 0].sort_values(["loss", "hand"], ascending=[False, True], kind="stable").head(count)
    return _check_rows(result, top, continuations, seed)


def check_flagged(
    result: Any,
    flags: Sequence[str] = ("mistakes", "blunders"),
    count: int = 40,
    continuations: int = 100,
    seed: int = 0,
) -> list[dict[str, Any]]:
    """A seeded random sample of ``count`` decisions (all, if fewer) that the analysis flagged as one of
    ``flags`` (:func:`simgin.analysis.summary.flag`), played both ways as :func:`check_costliest` plays them: the
    check issue 34 asks for. Unlike the costliest few, a sample of the flagged is not picked for the largest
    claims, so it shows how far the flags themselves can be trusted."""
    from simgin.analysis.summary import flag

    frame = result.to_frame()
    flagged = frame[
        [flag(loss, error) in flags for loss, error in zip(frame["loss"], frame["loss_error"], strict=True)]
    ]
    if len(flagged) > count:
        flagged = flagged.sample(n=count, random_state=np.random.default_rng(seed)).sort_values(["hand", "place"])
    return _check_rows(result, flagged, continuations, seed)


def _check_rows(result: Any, rows: Any, continuations: int, seed: int) -> list[dict[str, Any]]:
    """The decisions ``rows`` (rows of the analysis's frame) played both ways."""
    from simgin.running.runner import RunConfig, locate_hand

    last = int(rows["hand"].max()) + 1 if len(rows) else 1
    config = RunConfig(result.players, result.rules, hands=2 * last, seed=result.seed, duplicate=result.duplicate)
    checked = []
    for _, row in rows.iterrows():
        hand_seed, dealer, seats = locate_hand(config, int(row["hand"]))
        check = play_both_ways(
            seats, result.rules, hand_seed, dealer, int(row["place"]), int(row["chosen_action"]),
            int(row["best_action"]), continuations, seed, result.evaluator,
        )  # fmt: skip
        checked.append(
            {
                "hand": int(row["hand"]),
                "player": row["player"],
                "kind": row["kind"],
                "claimed": float(row["loss"]),
                "claimed_error": float(row["loss_error"]),
                "fresh_claim": check.fresh_loss,
                "fresh_claim_error": check.fresh_loss_error,
                "realised": check.gain,
                "realised_error": check.gain_error,
            }
        )
    return checked

"""The ``heuristic`` bot: a tunable rule-based player (compiled; policy in ``simgin.kernels.heuristic``).

What it believes about the opponent: every card it cannot see is equally likely to be in
the opponent's hand at first; each card the opponent took from the pile makes the cards
that meld with it (its rank-mates, and its suit neighbours one rank away; two ranks away
by the square root) ``1 / evidence`` times as likely, and each card it passed or discarded
makes them ``evidence`` times as likely. The cards it took and still holds are certain.

Policy, per decision (no random draws):

- ``discard`` (R9, R10, V6, V7): score each legal card as the deadwood left after discarding
  it, plus ``potential`` points for each unseen card that would still put it into a meld
  (weighted by the chance that card is not in the opponent's hand), plus ``safety`` times
  the chance that it completes or extends a meld of the opponent, minus ``value`` times
  its card value; discard the lowest score (ties: the higher rank, then the higher card).
  After the V7 take only cards leaving at most the knock limit are scored.
- ``take_up_card`` (R11) and ``draw_from_pile`` (R9): take the pile's top card when the
  best score after taking it is lower, by more than ``draw_margin``, than the expected best
  score after drawing a stock card (each unseen card weighted by the chance it is not in
  the opponent's hand).
- ``knock`` (R12, R13): always with gin; otherwise not while holding out for gin (deadwood
  at most ``gin_hold`` and more than ``gin_stock`` cards in the stock), and only with
  deadwood at most the threshold, which falls linearly from ``knock`` with a full stock to
  ``knock_late`` with two cards left.
- ``big_gin`` (V13): always. ``take_fiftieth`` (V7): always.

The defaults were tuned against ``simple`` under the ``eaai`` preset (gin and undercut
bonuses 25), where knocking early does not pay: ``simple`` knocks as soon as it may, so a
low hand wins more by waiting for gin or for ``simple``'s knock to undercut it. So by default
it holds out for gin throughout (``gin_hold=10``, ``gin_stock=0``); ``heuristic:gin_hold=-1``
knocks by the threshold alone.
"""

from __future__ import annotations

import dataclasses

from simgin.strategies.compiled import CompiledStrategy, parameter_vector

from simgin.kernels.bots import BOT_HEURISTIC
from simgin.strategy import Parameter

DESCRIPTION = "tunable rules: knock threshold by stock, gin hold-out, discards scored by deadwood, potential, safety"
KNOCK_PARAMETERS: tuple[Parameter, ...] = (
    Parameter("knock", 10, "highest deadwood it knocks with while the stock is full (R12)", 0, 10),
    Parameter("knock_late", 10, "highest deadwood it knocks with when two stock cards are left", 0, 10),
    Parameter("gin_hold", -1, "deadwood at or below which it plays on for gin instead of knocking (-1: never)", -1, 10),
    Parameter("knock_samples", 8, "opponent hands drawn to value a knock", 1, 10_000, integer=True),
    Parameter("knock_bias", 0.0, "points added to the value of knocking now against playing on"),
    Parameter("gin_stock", 0, "it plays on for gin only while the stock has more cards than this", 0, 31),
)
DISCARD_PARAMETERS: tuple[Parameter, ...] = (
    Parameter("potential", 0.5, "points per live card that would still put a discard into a meld", 0),
    Parameter("value", 0.0, "points off a discard per point of its card value (sheds high cards first)", 0),
    Parameter("safety", 2.0, "points per unit of chance that a discard completes an opponent meld", 0),
    Parameter("draw_margin", 0.0, "score margin by which the pile card must beat the expected stock card"),
    Parameter("potential_late", 0.5, "potential, with two stock cards left (linear in between)", 0),
    Parameter("loose", 0.0, "points per card left outside melds by a discard (racing for gin)", 0),
    Parameter("safety_late", 2.0, "safety, with two stock cards left (linear in between)", 0),
)
PARAMETERS: tuple[Parameter, ...] = (
    *KNOCK_PARAMETERS,
    *DISCARD_PARAMETERS,
    Parameter("evidence", 0.6, "likelihood factor of the cards related to an opponent's pass or discard", 0.01, 1),
    Parameter("hand_quality", 0.3, "tilt of drawn opponent hands towards low deadwood, per point", 0, 10),
)


def with_defaults(parameters: tuple[Parameter, ...], **defaults: float) -> tuple[Parameter, ...]:
    """The same parameters with some defaults changed (another bot's tuning)."""
    return tuple(dataclasses.replace(p, default=defaults[p.name]) if p.name in defaults else p for p in parameters)


class HeuristicStrategy(CompiledStrategy):
    """The compiled ``heuristic`` bot in the Python protocol; keyword arguments set parameters."""

    def __init__(self, **params: float) -> None:
        spec = "heuristic" + (":" + ",".join(f"{k}={v:g}" for k, v in params.items()) if params else "")
        super().__init__(spec, BOT_HEURISTIC, parameter_vector(PARAMETERS, params))

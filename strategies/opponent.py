"""The ``opponent`` bot: the heuristic player steered by a probability estimate of the opponent's hand.

The estimate (``simgin.kernels.opponent``): every card the bot cannot see starts equally
likely to be in the opponent's hand. After each turn of the opponent the bot folds in what
it did, as Bayesian likelihood factors on the related cards (rank-mates and suit
neighbours one rank away; two ranks away by the square root): a card taken from the pile
multiplies them by ``take_signal``; a passed up card, or a pile card it left lying when it
drew from the stock, by ``pass_signal``; a discard by ``discard_signal``. Cards it took and
still holds are certain; its other cards are spread over the unseen cards by weight.

Policy, per decision:

- ``discard`` (R9, R10, V6, V7): as ``heuristic`` (deadwood left, plus ``potential`` per
  live card that would still meld the card, plus ``safety`` times the chance the card
  completes an opponent meld, minus ``value`` per point of card value), with the chances
  taken from the estimate: the safe discard.
- ``take_up_card`` (R11) and ``draw_from_pile`` (R9): as ``heuristic``, with the stock
  card's chances from the estimate (a card the opponent probably holds is not in the stock).
- ``knock`` (R12, R13): always with gin. Otherwise it scores the knock over
  ``risk_samples`` opponent hands drawn from the estimate (lay-offs included; the draws
  come from the seat's generator) and knocks when the chance of being undercut is at most
  ``undercut_risk`` and the mean points are at least ``knock_gain``. Failing that, it
  decides as ``heuristic`` does (threshold by stock size, gin hold-out).
- ``big_gin`` (V13): always.
- ``take_fiftieth`` (V7): when the mean points of the forced knock after the best discard,
  over ``risk_samples`` drawn opponent hands, are positive.

Drawn opponent hands are tilted towards low deadwood (``hand_quality``): an opponent that
has played a while kept its melds and threw its high cards away. The defaults were tuned
against ``simple`` under the ``eaai`` preset; like ``heuristic`` it then mostly plays for gin
and undercuts, knocking early only on a clear estimated gain.
"""

from __future__ import annotations

from simgin.strategies.compiled import CompiledStrategy, parameter_vector
from simgin.strategies.heuristic import DISCARD_PARAMETERS, KNOCK_PARAMETERS, with_defaults

from simgin.kernels.bots import BOT_OPPONENT
from simgin.strategy import Parameter

DESCRIPTION = (
    "heuristic play steered by a Bayesian estimate of the opponent's hand: safe discards, undercut-aware knocks"
)
MODEL_PARAMETERS: tuple[Parameter, ...] = (
    Parameter("take_signal", 2.0, "likelihood factor of the cards related to a card the opponent took", 1, 100),
    Parameter("pass_signal", 0.5, "likelihood factor of the cards related to a pile card it passed", 0.01, 1),
    Parameter("discard_signal", 0.8, "likelihood factor of the cards related to a card it discarded", 0.01, 1),
    Parameter("risk_samples", 48, "opponent hands drawn to judge a knock", 1, 10_000, integer=True),
    Parameter("hand_quality", 0.3, "tilt of drawn opponent hands towards low deadwood, per point", 0, 10),
)
PARAMETERS: tuple[Parameter, ...] = (
    *with_defaults(KNOCK_PARAMETERS, knock_samples=16),
    *with_defaults(DISCARD_PARAMETERS, safety=1.0, safety_late=1.0),
    *MODEL_PARAMETERS,
)


class OpponentStrategy(CompiledStrategy):
    """The compiled ``opponent`` bot in the Python protocol; keyword arguments set parameters."""

    def __init__(self, **params: float) -> None:
        spec = "opponent" + (":" + ",".join(f"{k}={v:g}" for k, v in params.items()) if params else "")
        super().__init__(spec, BOT_OPPONENT, parameter_vector(PARAMETERS, params))

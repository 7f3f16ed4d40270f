"""The ``opponent`` bot: rules-aware play steered by a Bayesian estimate of the opponent's hand.

Its kernels are ``simgin/kernels/heuristic.py`` (the policy, shared with ``heuristic``),
``simgin/kernels/opponent.py`` (the estimate) and ``simgin/kernels/knock.py`` (the knock).

The estimate (``simgin/kernels/opponent.py``): every card the bot cannot see starts equally
likely to be in the opponent's hand. After each turn of the opponent the bot folds in what
it did, as Bayesian likelihood factors on the related cards (rank-mates and suit
neighbours one rank away; two ranks away by the square root): a card taken from the pile
multiplies them by ``take_signal``; a passed up card, or a pile card it left lying when it
drew from the stock, by ``pass_signal``; a discard by ``discard_signal``. Cards it took and
still holds are certain; its other cards are spread over the unseen cards by weight.

Policy, per decision:

- ``discard`` (R9, R10, V6, V7): as ``heuristic`` (deadwood left, plus ``potential`` per
  live card that would still meld the card, plus ``safety`` times the chance the card
  completes an opponent meld, minus ``value`` per point of card value, the weights moving
  to their ``_late`` values as the stock runs down and scaled by ``gin_only`` in a hand only
  gin can end), with the chances taken from the estimate: the safe discard.
- ``take_up_card`` (R11) and ``draw_from_pile`` (R9): take the pile's top card when the best
  score after taking it beats, by more than ``draw_margin``, the expected best score after a
  stock card, each unseen card weighted by the chance it is not in the opponent's hand.
- ``knock`` (R12, R13): as ``heuristic`` (knocking now against playing on, valued in the
  rules in force and the game as it stands), with ``knock_samples`` opponent hands drawn
  from the estimate and tilted towards low deadwood (``hand_quality``): an opponent that has
  played a while kept its melds and threw its high cards away.
- ``big_gin`` (V13): always.
- ``take_fiftieth`` (V7): when the forced knock after the best discard, valued the same way
  over ``risk_samples`` drawn opponent hands, is worth more than the dead hand.
"""

from __future__ import annotations

from simgin.strategies.heuristic import DISCARD_PARAMETERS, KNOCK_PARAMETERS, with_defaults

from simgin.players.strategy import Parameter

#: The compiled bot this module describes (``kernels.bots.BOT_NAMES``).
BOT = "opponent"
#: No plain-Python class plays exactly as this bot (in Python it runs through ``compiled.CompiledStrategy``).
TWIN = None
DESCRIPTION = (
    "heuristic play steered by a Bayesian estimate of the opponent's hand: safe discards, sharper knock values"
)
MODEL_PARAMETERS: tuple[Parameter, ...] = (
    Parameter("take_signal", 2.0, "likelihood factor of the cards related to a card the opponent took", 1, 100),
    Parameter("pass_signal", 0.5, "likelihood factor of the cards related to a pile card it passed", 0.01, 1),
    Parameter("discard_signal", 0.8, "likelihood factor of the cards related to a card it discarded", 0.01, 1),
    Parameter(
        "risk_samples",
        48,
        "opponent hands drawn to judge the knock after a 50th-card take (V7)",
        1,
        10_000,
        integer=True,
        cost=True,
    ),
    Parameter("hand_quality", 0.15, "tilt of drawn opponent hands towards low deadwood, per point", 0, 10),
)
PARAMETERS: tuple[Parameter, ...] = (
    *with_defaults(KNOCK_PARAMETERS, knock_samples=16),
    *with_defaults(DISCARD_PARAMETERS, potential=1.0, potential_late=0.25, safety=1.0, safety_late=1.0),
    *MODEL_PARAMETERS,
)

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
  completes an opponent meld, minus ``value`` per point of card value, minus ``reach`` when
  it leaves deadwood within the knock limit, the weights moving to their ``_late`` values as
  the stock runs down, and the ``gin_`` weights in a hand only gin can end), with the chances
  taken from the estimate: the safe discard. A discard that leaves gin (R13) scores ``reach_gin``
  (60, :data:`REACH_GIN`) less, so it is always made; the draw reads the same scores, so gin
  weighs 60 points there too. Where the hand kept is near gin (20 deadwood or less), a discard also scores
  ``gin_outs`` (6, :data:`GIN_OUTS`) less per unseen card that would then give gin, each counted by the chance
  it is not in the opponent's hand: the discard that keeps the most ways to gin (not under Hollywood scoring,
  V14). The weights are *learned from search*: fitted
  to a teacher that values every discard by playouts in sampled worlds, on positions met in
  play under rules drawn across the switches (``simgin/tools/train_discard.py``). They ship as
  the data file ``opponent_discard.json`` beside this module (:func:`discard_weights`), and
  are this bot's defaults; ``FROZEN_DISCARD`` are the weights before the fit. In hands a knock can end
  (R12), a small network adds its term to each discard's score (``discard_network``, 1: :data:`DISCARD_NETWORK`,
  ``simgin/kernels/discard_network.py``): with an undercut bonus of at most 10 (R19) one fitted to the same
  teacher, with a larger one (V2: eaai, modern) one fitted to a teacher in which the players play the hand on
  themselves; the draw reads the linear scores. With the larger bonus, a hand kept near gin also scores
  ``improve`` (0.3, :data:`IMPROVE`) less per point of deadwood it is expected to shed with its next draw: a
  look one draw ahead.
- ``take_up_card`` (R11) and ``draw_from_pile`` (R9): take the pile's top card when the best
  score after taking it beats, by more than ``draw_margin`` (``gin_draw_margin`` where only
  gin can end the hand), the expected best score after a stock card, each unseen card
  weighted by the chance it is not in the opponent's hand.
- ``knock`` (R12, R13): as ``heuristic`` (knocking now against playing on, valued in the
  rules in force and the game as it stands), with ``knock_samples`` opponent hands drawn
  from the estimate and tilted towards low deadwood (``hand_quality``): an opponent that has
  played a while kept its melds and threw its high cards away.
- ``big_gin`` (V13): always.
- ``take_fiftieth`` (V7): when the forced knock after the best discard, valued the same way
  over ``risk_samples`` drawn opponent hands, is worth more than the dead hand.
"""

from __future__ import annotations

from pathlib import Path

from simgin.strategies import heuristic as _heuristic
from simgin.strategies.heuristic import DISCARD_PARAMETERS, KNOCK_PARAMETERS, with_defaults

from simgin.game.strategy import Parameter

#: The learned discard weights (``simgin/tools/train_discard.py --write`` writes it).
DISCARD_MODEL = Path(__file__).with_name("opponent_discard.json")
#: The data file format this module reads (the same as ``heuristic``'s).
DISCARD_MODEL_FORMAT = _heuristic.DISCARD_MODEL_FORMAT
#: The weights the fit may set, each a parameter of this bot: ``heuristic``'s (the discard score's and the draw's
#: margin), and the draw's margin in a hand only gin can end.
LEARNED = (*_heuristic.LEARNED, "gin_draw_margin")
#: The discard weights before they were learned (issue 11's tuning): a frozen copy of the old bot to
#: gate a new fit against, ``simgin compare opponent <FROZEN_SPEC>`` (benchmarks/RESULTS.md).
FROZEN_DISCARD = {
    "potential": 1.0,
    "potential_late": 0.25,
    "safety": 1.0,
    "safety_late": 1.0,
    "value": 0.0,
    "reach": 0.0,
    "gin_only": 0.3,
    "gin_potential": 1.0,
    "gin_potential_late": 0.25,
    "gin_safety": 1.0,
    "gin_safety_late": 1.0,
    "draw_margin": 0.0,
    "gin_draw_margin": 0.0,
    "discard_network": 0.0,
}


def spec_with(weights: dict[str, float]) -> str:
    """The ``opponent`` spec that sets ``weights`` (names of its parameters) and leaves the rest at their defaults."""
    return _heuristic.spec_with(weights, "opponent")


FROZEN_SPEC = spec_with(FROZEN_DISCARD)


def discard_weights(path: Path = DISCARD_MODEL) -> dict[str, float]:
    """The learned discard weights in the data file ``path``: one per name of :data:`LEARNED`
    (``heuristic.read_weights``: a file of another format, or with a weight missing or too many,
    is a ValueError naming the file)."""
    return _heuristic.read_weights(path, LEARNED)


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
DRAW_PARAMETERS: tuple[Parameter, ...] = (_heuristic.GIN_DRAW_MARGIN,)
#: Points off a discard that leaves gin (R13; issue 37, found by ``simgin analyse``): 60, the most the parameter
#: allows: a discard leaving gin is always made, and above all the draw (which compares the best discard score
#: after the pile card with the expected one after a stock card) counts each unseen card that would give gin 60
#: points on the stock's side, so the bot keeps its gin outs rather than take a pile card that only lowers its
#: deadwood (tests/test_reach_gin.py).
#: Head to head against 0 (``simgin match "opponent:reach_gin=60" "opponent:reach_gin=0" --hands 40000 --rules R
#: --seed 5``): +1.12 points per hand under eaai, +0.79 straight, +0.29 oklahoma, +0.09 standard, each interval
#: above zero; against a gin-only copy of itself under eaai, +1.2 points per hand. Gated (benchmarks/RESULTS.md,
#: *Strength gates*): a gain of 10 Elo under eaai, straight, oklahoma and modern, no loss under standard and
#: hollywood. ``heuristic`` keeps 0: it already discards into gin (+0.01 to +0.02 points per hand at 60).
REACH_GIN = 60.0
#: Points off a discard per card that would then give gin (R13; issue 37), counted by its chance to arrive, where
#: the hand kept has at most 20 deadwood (``kernels.heuristic.discard_for_outs``; the cards counted by
#: ``kernels.knock.gin_outs``): of two discards that leave about the same deadwood, the one that keeps more ways to
#: gin. The learned score had no such term: its teacher's playouts knocked at once. Head to head against 0
#: (``simgin match "opponent:gin_outs=W" "opponent:gin_outs=0" --hands 20000 --rules R --seed 4``, net points per
#: hand at W = 4 / 6 / 8): eaai +1.92 / +2.01 / +2.10, straight +1.84 / +2.01 / +1.98, modern +1.96 / +2.03 /
#: +2.12, oklahoma +0.71 / +0.70 / +0.66, standard +0.18 / +0.14 / +0.09, each interval above zero but standard at
#: 8. Gated at 6 (benchmarks/RESULTS.md, *Strength gates*): a gain of 10 Elo under eaai, straight, oklahoma and
#: modern, no loss under standard; under Hollywood scoring (V14) a loss (-12 Elo at 6, -9 at 4), so there the
#: term is off (``kernels.heuristic.gin_outs_weight``) and the bot plays as before.
GIN_OUTS = 6.0
#: The discard network's correction (``kernels.discard_network``; issue 37): how much of its term is added to each
#: discard's score, where it applies (``kernels.heuristic.network_of``: hands a knock can end; one network with an
#: undercut bonus of at most 10, another above). 0 plays the linear score alone. Its weights are fitted by
#: ``python -m simgin.tools.train_discard_network`` (benchmarks/RESULTS.md, *A discard network*).
DISCARD_NETWORK = Parameter(
    "discard_network", 1.0, "scale of the discard network's correction (0: the linear score alone)", 0, 3
)
#: A look one draw ahead (issue 37; the lead tonic's discard gave, *What tonic's discard looks at* in
#: benchmarks/RESULTS.md): points off a discard per point of deadwood the hand kept is expected to shed with its
#: next draw (``kernels.knock.draw_outs``: the unseen cards that complete a meld with two held cards, each by its
#: chance to arrive), where the hand kept has at most 20 deadwood and the undercut bonus is above 10 (V2: eaai,
#: modern; ``kernels.heuristic.network_discard``). Head to head against 0 (``simgin match "opponent:improve=W"
#: "opponent:improve=0" --hands 40000 --rules R --seed 4 --adjust-luck``, luck-adjusted net points per hand) at W =
#: 0.05 / 0.1 / 0.2 / 0.3 / 0.4: eaai +0.09 / +0.14 / +0.25 / +0.29 / +0.28, modern +0.13 at 0.1 and +0.24 at
#: 0.2, each interval above zero; where the bonus is 10 or less it gained nothing (standard +0.05 at 0.1 and -0.01
#: at 0.2, Oklahoma +0.06 and -0.12) and under straight gin it lost (-0.52 at 0.2), so there it is not counted.
#: Gated at 0.3 (benchmarks/RESULTS.md, *Strength gates*).
IMPROVE = Parameter(
    "improve", 0.3, "points off a discard per point of deadwood the kept hand sheds with its next draw", -10, 10
)
_LEARNED_DEFAULTS = discard_weights()
PARAMETERS: tuple[Parameter, ...] = (
    *with_defaults(KNOCK_PARAMETERS, knock_samples=16),
    *with_defaults(DISCARD_PARAMETERS, **{k: v for k, v in _LEARNED_DEFAULTS.items() if k != "gin_draw_margin"}),
    *with_defaults((_heuristic.REACH_GIN,), reach_gin=REACH_GIN),
    *with_defaults((_heuristic.GIN_OUTS,), gin_outs=GIN_OUTS),
    *with_defaults(DRAW_PARAMETERS, gin_draw_margin=_LEARNED_DEFAULTS["gin_draw_margin"]),
    DISCARD_NETWORK,
    IMPROVE,
    *MODEL_PARAMETERS,
)

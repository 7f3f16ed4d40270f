"""The ``heuristic`` bot: a tunable rule-based player that reads the rules in force.

Its kernel is ``simgin/kernels/heuristic.py`` (with ``simgin/kernels/knock.py`` for the knock).

What it believes about the opponent: every card it cannot see is equally likely to be in
the opponent's hand at first; each card the opponent took from the pile makes the cards
that meld with it (its rank-mates, and its suit neighbours one rank away; two ranks away
by the square root) ``1 / evidence`` times as likely, and each card it passed or discarded
makes them ``evidence`` times as likely. The cards it took and still holds are certain.

Policy, per decision:

- ``discard`` (R9, R10, V6, V7): score each legal card as the deadwood left after discarding
  it, plus ``potential`` points for each unseen card that would still put it into a meld
  (weighted by the chance that card is not in the opponent's hand), plus ``safety`` times
  the chance that it completes or extends a meld of the opponent, minus ``value`` times
  its card value, minus ``reach`` if it leaves deadwood within the knock limit (R12; 0 by
  default); discard the lowest score (ties: the higher rank, then the higher card).
  The potential and safety weights move linearly to ``potential_late`` and ``safety_late``
  as the stock runs down to two cards. A hand that only gin can end (knock limit 0:
  straight gin, V1, or an Oklahoma ace with gin only, V9), where deadwood counts only if
  the opponent goes gin, has weights of its own, ``gin_potential`` and ``gin_safety`` (early
  and late) scaled by ``gin_only``, and no value term. After the V7 take only cards
  leaving at most the knock limit are scored. The defaults of these weights (``LEARNED``)
  come from the data file ``heuristic_discard.json`` beside this module
  (:func:`discard_weights`), written by ``simgin/tools/train_discard.py --bot heuristic``,
  which fits them to a search teacher on positions of this bot's own play, with the
  features taken from this bot's own estimate. Only the weights of hands a knock can end
  are learned (the fits of gin-only hands and of ``draw_margin`` lost their checks:
  benchmarks/RESULTS.md, *Strength gates*). ``FROZEN_DISCARD`` are the weights before that
  (issue 11's, still the base defaults of ``DISCARD_PARAMETERS``), and ``FROZEN_SPEC`` plays them.
- ``take_up_card`` (R11) and ``draw_from_pile`` (R9): take the pile's top card when some
  discard afterwards leaves less deadwood than the hand has now, by more than ``draw_margin``
  (4 by default, gated: :data:`DRAW_MARGIN`), or ``gin_draw_margin`` (0) in a hand only gin
  can end; and always when it makes gin (R13), whatever the margin.
- ``knock`` (R12, R13): always with gin. Otherwise it compares knocking now with playing
  on, both in points now (``simgin/kernels/knock.py``, ``simgin/kernels/payoff.py``):
  knocking now is scored exactly against ``knock_samples`` opponent hands drawn from its
  belief (lay-offs, the undercut and gin bonuses, ``undercut_on_tie`` and Oklahoma's
  doubling included); playing on is valued by a model of how the hand then ends (its gin,
  an undercut of the opponent's knock, a loss to that knock or to the opponent's gin, a dead
  hand), with the bonuses in force. Each result is worth what it does to the game: near the
  target a win that reaches it is worth the whole game, so one win from the target it takes
  the sure hand win; under Hollywood (V14) the box bonus of a won hand counts too. It knocks
  when knocking now plus ``knock_bias`` is worth at least playing on. ``knock`` and
  ``knock_late`` cap the deadwood it ever knocks with (by stock size), and ``gin_hold``
  with ``gin_stock`` can force holding out for gin; by default neither limits it.
- ``big_gin`` (V13): always. ``take_fiftieth`` (V7): always.

So it plays each rule set its own way from the same defaults: under the standard game it
mostly knocks at once, under bonuses of 25 (``eaai``, ``modern``) it holds a low hand for
gin and undercuts against a player that knocks at its first chance.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from simgin.strategies.compiled import CompiledStrategy, parameter_vector

from simgin.game.strategy import Parameter
from simgin.kernels.bots import BOT_HEURISTIC

#: The compiled bot this module describes (``kernels.bots.BOT_NAMES``).
BOT = "heuristic"
#: No plain-Python class plays exactly as this bot (in Python it runs through ``compiled.CompiledStrategy``).
TWIN = None
DESCRIPTION = (
    "rules-aware rules of thumb: knocks when knocking now beats playing on, discards by deadwood, potential, safety"
)
KNOCK_PARAMETERS: tuple[Parameter, ...] = (
    Parameter("knock", 10, "highest deadwood it ever knocks with while the stock is full (R12)", 0, 10),
    Parameter("knock_late", 10, "highest deadwood it ever knocks with when two stock cards are left", 0, 10),
    Parameter("gin_hold", -1, "deadwood at or below which it must play on for gin (-1: never forced)", -1, 10),
    Parameter("gin_stock", 0, "gin_hold applies only while the stock has more cards than this", 0, 31),
    Parameter("knock_samples", 4, "opponent hands drawn to value knocking now", 1, 10_000, integer=True, cost=True),
    Parameter("knock_bias", 0.0, "points added to the value of knocking now against playing on", -20, 20),
)
DISCARD_PARAMETERS: tuple[Parameter, ...] = (
    Parameter("potential", 0.5, "points per live card that would still put a discard into a meld", -8, 8),
    Parameter("potential_late", 0.5, "potential with two stock cards left (linear in between)", -8, 8),
    Parameter("value", 0.0, "points off a discard per point of its card value (sheds high cards first)", -1, 1),
    Parameter("safety", 2.0, "points per unit of chance that a discard completes an opponent meld", -8, 8),
    Parameter("safety_late", 2.0, "safety with two stock cards left (linear in between)", -8, 8),
    Parameter("gin_only", 0.3, "scale of the gin_ weights in a hand only gin can end (knock limit 0)", 0, 1),
    Parameter("gin_potential", 0.5, "potential in a hand only gin can end (scaled by gin_only)", -8, 8),
    Parameter("gin_potential_late", 0.5, "gin_potential with two stock cards left (linear in between)", -8, 8),
    Parameter("gin_safety", 2.0, "safety in a hand only gin can end (scaled by gin_only)", -8, 8),
    Parameter("gin_safety_late", 2.0, "gin_safety with two stock cards left (linear in between)", -8, 8),
    Parameter("draw_margin", 0.0, "margin by which taking the pile card must beat the alternative", -5, 5),
    Parameter("reach", 0.0, "points off a discard that leaves deadwood within the knock limit (R12)", -10, 40),
)
#: Points off a discard that leaves gin (R13; issue 37, found by ``simgin analyse``): 0 for this bot, which already
#: discards into gin; ``opponent`` sets 60 (gated: ``strategies/opponent.REACH_GIN``). Not one of the learned
#: weights.
REACH_GIN = Parameter("reach_gin", 0.0, "points off a discard that leaves gin (R13), in every hand", 0, 60)
#: Points off a discard per unseen card that would then give gin (issue 37); ``opponent`` sets 6 (gated:
#: ``strategies/opponent.GIN_OUTS``), ``heuristic`` does not declare it (0).
GIN_OUTS = Parameter(
    "gin_outs", 0.0, "points off a discard per unseen card then giving gin (R13), kept hand <= 20 deadwood", -10, 20
)
#: The draw's margin in a hand only gin can end (knock limit 0: straight gin, Oklahoma's ace), apart from
#: ``draw_margin`` (R9, R11; issue 37): there taking every pile card that lowers the deadwood plays best.
#: ``opponent`` declares the same parameter (with its learned default).
GIN_DRAW_MARGIN = Parameter("gin_draw_margin", 0.0, "draw_margin in a hand only gin can end (knock limit 0)", -5, 5)
#: The draw's margin where a knock can end the hand (issue 37, 2026-12-04): the fit to the search teacher kept 0
#: (its data file), but 4 gains 1.5-1.8 points per hand head to head (luck-adjusted, 40,000 hands, standard and
#: eaai) and passed the strength gates under every preset (benchmarks/RESULTS.md, *Strength gates*): take a pile
#: card only when it lowers the least deadwood by more than 4, or when it makes gin, else draw blind.
DRAW_MARGIN = 4.0


def with_defaults(parameters: tuple[Parameter, ...], **defaults: float) -> tuple[Parameter, ...]:
    """The same parameters with some defaults changed (another bot's tuning)."""
    return tuple(dataclasses.replace(p, default=defaults[p.name]) if p.name in defaults else p for p in parameters)


#: The format of the learned-weights data files this simgin reads (this bot's and ``opponent``'s).
DISCARD_MODEL_FORMAT = 1
#: This bot's learned discard weights (``simgin/tools/train_discard.py --bot heuristic --write`` writes it).
DISCARD_MODEL = Path(__file__).with_name("heuristic_discard.json")
#: The weights the fit may set, each a parameter of this bot: the discard score's (R9, R10, R12, V1, V9),
#: and the draw's margin (R9, R11; one margin in every hand, this bot has no ``gin_draw_margin``).
LEARNED = (
    "potential",
    "potential_late",
    "safety",
    "safety_late",
    "value",
    "reach",
    "gin_only",
    "gin_potential",
    "gin_potential_late",
    "gin_safety",
    "gin_safety_late",
    "draw_margin",
)
#: The weights before they were learned (issue 11's hand-set defaults, those of ``DISCARD_PARAMETERS``): a
#: frozen copy of the old bot to gate a new fit against, ``simgin compare heuristic <FROZEN_SPEC>``.
FROZEN_DISCARD = {
    "potential": 0.5,
    "potential_late": 0.5,
    "safety": 2.0,
    "safety_late": 2.0,
    "value": 0.0,
    "reach": 0.0,
    "gin_only": 0.3,
    "gin_potential": 0.5,
    "gin_potential_late": 0.5,
    "gin_safety": 2.0,
    "gin_safety_late": 2.0,
    "draw_margin": 0.0,
}


def spec_with(weights: dict[str, float], bot: str = BOT) -> str:
    """The spec of ``bot`` that sets ``weights`` (names of its parameters) and leaves the rest at their defaults."""
    return f"{bot}:" + ",".join(f"{name}={value:g}" for name, value in weights.items())


FROZEN_SPEC = spec_with(FROZEN_DISCARD)


def read_weights(path: Path, names: tuple[str, ...]) -> dict[str, float]:
    """The learned weights in the data file ``path`` (format :data:`DISCARD_MODEL_FORMAT`): one per name of
    ``names``, in that order.

    A file of another format, or one that lacks a weight or has one too many, is a ValueError
    naming the file and what this simgin reads.
    """
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != DISCARD_MODEL_FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise ValueError(f"{path}: discard model format {found!r}; this simgin reads format {DISCARD_MODEL_FORMAT}")
    weights = data.get("weights")
    if not isinstance(weights, dict) or set(weights) != set(names):
        got = sorted(weights) if isinstance(weights, dict) else weights
        raise ValueError(f"{path}: weights {got!r}; expected exactly {', '.join(names)}")
    return {name: float(weights[name]) for name in names}


def discard_weights(path: Path = DISCARD_MODEL) -> dict[str, float]:
    """This bot's learned weights in the data file ``path``: one per name of :data:`LEARNED`."""
    return read_weights(path, LEARNED)


def parameters(learned: dict[str, float]) -> tuple[Parameter, ...]:
    """This bot's parameters with the ``learned`` discard weights (R9) as their defaults."""
    return (
        *KNOCK_PARAMETERS,
        # The base defaults of DISCARD_PARAMETERS stay issue 11's (opponent and mcts build on them); this bot's
        # come from its data file, but for the gated draw margin (DRAW_MARGIN).
        *with_defaults(DISCARD_PARAMETERS, **(learned | {"draw_margin": DRAW_MARGIN})),
        REACH_GIN,
        GIN_DRAW_MARGIN,
        Parameter("evidence", 0.6, "likelihood factor of the cards related to an opponent's pass or discard", 0.01, 1),
        Parameter("hand_quality", 0.0, "tilt of drawn opponent hands towards low deadwood, per point", 0, 10),
    )


PARAMETERS: tuple[Parameter, ...] = parameters(discard_weights())


class HeuristicStrategy(CompiledStrategy):
    """The compiled ``heuristic`` bot in the Python protocol; keyword arguments set parameters."""

    def __init__(self, **params: float) -> None:
        spec = "heuristic" + (":" + ",".join(f"{k}={v:g}" for k, v in params.items()) if params else "")
        super().__init__(spec, BOT_HEURISTIC, parameter_vector(PARAMETERS, params))

"""The ``mcts`` bot: information-set Monte Carlo search (compiled; ``simgin.kernels.mcts``).

At each decision the bot samples *worlds* that agree with everything it has seen: the
opponent's hand (the cards it is known to hold, plus unseen cards drawn by the weights of
the ``opponent`` bot's estimate, tilted towards well-kept hands by ``hand_quality``) and the
order of the stock (the remaining unseen cards, shuffled). Each candidate action is played
out to the end of the hand in the same worlds (common random numbers), both players then
following a fast policy: take the pile's top card only when it completes a meld, discard
by ``playout_policy`` (1: the ``opponent`` bot's discard score with this bot's weights, each
player judging the other's hand from what it has seen in the playout, its unknown cards
spread evenly; 0: to the least deadwood), and knock as soon as the deadwood is at most
``playout_knock`` (for itself; 0: only gin) or ``opponent_knock`` (for the opponent; 10: at
the first chance, as ``simple`` does). Each playout's result is valued by what it is worth
in the game being played (``simgin/kernels/payoff.py``): the hand's points (with Oklahoma's doubling, V9) bent
by the scores and the target, a win that reaches the target being worth the whole game
(R20), and under Hollywood (V14) the points plus the box bonus. The action with the best
mean value is chosen. ``budget`` playouts per decision at most are shared by the
candidates: the actions are raced, a decision's worlds stopping once the leader's lead over
each other action, paired world by world, is ``race`` standard errors (3; 0 plays the whole
budget, as the bot did before issue 37), so a clear choice costs a fraction of the budget.
All random draws come from the seat's generator, so a hand replays exactly.

Policy, per decision:

- ``take_up_card`` (R11) and ``draw_from_pile`` (R9): search over taking the card and
  passing it (drawing from the stock, or on the first turn leaving the offer to the other
  player).
- ``discard`` (R9, R10, V6): search over the ``width`` legal discards with the best
  ``opponent`` scores (by default with issue 11's weights, ``FROZEN``; ``LEARNED_SPEC`` takes
  ``opponent``'s learned ones, for the playouts too). After the V7 take: the ``opponent`` bot's discard.
- ``knock`` (R12, R13): always with gin; otherwise search over knocking now (the exact
  showdown in each world, lay-offs included) and playing on.
- With ``opponent_play=1`` (not the default), in a hand a knock can end under an undercut bonus above 10
  (R12, R19, V2: the eaai and modern presets), the discard and the knock are the ``opponent`` bot's, with its
  default parameters (the *companion* vector, ``kernels.parameters.COMPANION``: its learned weights, its
  second discard network and its knock rule), and only the draws are searched: there the playouts, in which
  the opponent knocks at the first chance, misjudge discards and knocks. It plays about three times as many
  hands a second there and, against the EAAI entries that race for gin, wins more than the default (tonic
  59.0% of 2,000 games, DePauw 63.7% of 600, where the default has 52-53%), but less against ``simple``
  (72.2% of 400 games under eaai, the default 81.5%; issue 37; benchmarks/RESULTS.md, *mcts:opponent_play=1
  against tonic*).
- ``big_gin`` (V13): always.
- ``take_fiftieth`` (V7): as the ``opponent`` bot (the mean points of the forced knock).

The default budget keeps a decision well under 50 ms on one core (benchmarks/RESULTS.md).
"""

from __future__ import annotations

from simgin.strategies.heuristic import DISCARD_PARAMETERS, with_defaults
from simgin.strategies.opponent import MODEL_PARAMETERS, PARAMETERS as OPPONENT_PARAMETERS

from simgin.game.strategy import Parameter

#: The compiled bot this module describes (``kernels.bots.BOT_NAMES``).
BOT = "mcts"
#: The built-in it plays by where it does not search (``opponent_play=1``): its default vector fills this bot's
#: companion slots (``kernels.parameters.COMPANION``; ``simgin.players.registry.Player.vector``).
COMPANION = "opponent"
#: No plain-Python class plays exactly as this bot (in Python it runs through ``compiled.CompiledStrategy``).
TWIN = None
DESCRIPTION = "information-set search: playouts of sampled worlds (opponent hand, stock) in numba"
#: It searches at every decision, a few hands a second against the others' thousands: a run cuts its chunks into
#: parts so that every worker has work, as for a program (``simgin.running.chunks.chunk_parts``).
SEARCHES = True
#: The bot before issue 24's playout policy: least-deadwood playouts and issue 11's discard weights for its
#: candidates (the same weights early and late, in every hand), playable as ``mcts:<FROZEN_SPEC>`` to gate a
#: change against (simgin/tools/gates.py).
FROZEN = {
    "playout_policy": 0,
    "potential": 0.5,
    "potential_late": 0.5,
    "value": 0.0,
    "safety": 1.0,
    "safety_late": 1.0,
    "reach": 0.0,
    "gin_only": 1.0,
    "gin_potential": 0.5,
    "gin_potential_late": 0.5,
    "gin_safety": 1.0,
    "gin_safety_late": 1.0,
    "race": 0,
    "opponent_play": 0,
}
#: Issue 24's playouts: the ``opponent`` bot's learned discard score (its defaults, read from
#: ``opponent_discard.json``) for the playouts and the candidates.
LEARNED = {
    "playout_policy": 1,
    **{p.name: p.default for p in OPPONENT_PARAMETERS if p.name in FROZEN},
}
#: The defaults in force (each change gated in benchmarks/RESULTS.md): racing since issue 37 (the same play at
#: about half the time, RESULTS.md).
DEFAULTS = {**FROZEN, "race": 3.0}
PARAMETERS: tuple[Parameter, ...] = (
    Parameter(
        "budget",
        3000,
        "most playouts per decision, shared by the actions (raced: a clear choice stops early)",
        1,
        1_000_000,
        integer=True,
        cost=True,
    ),
    Parameter(
        "race",
        DEFAULTS["race"],
        "a decision stops once the best action leads each other by this many standard errors (0: the whole budget)",
        0,
        10,
        cost=True,
    ),
    Parameter(
        "opponent_play",
        DEFAULTS["opponent_play"],
        "1: under an undercut bonus above 10, discard and knock as the opponent bot and search only the draws",
        0,
        1,
        integer=True,
    ),
    Parameter("width", 4, "discards searched: the best by the opponent bot's score", 1, 11, integer=True, cost=True),
    Parameter(
        "playout_knock", 0, "in playouts it knocks with deadwood at most this (0: only gin)", 0, 10, integer=True
    ),
    Parameter("opponent_knock", 10, "in playouts the opponent knocks with deadwood at most this", 0, 10, integer=True),
    Parameter(
        "playout_policy",
        DEFAULTS["playout_policy"],
        "playouts discard by 1: the opponent bot's score; 0: the least deadwood",
        0,
        1,
        integer=True,
    ),
    *with_defaults(tuple(p for p in DISCARD_PARAMETERS if p.name in FROZEN), **DEFAULTS),
    *with_defaults(MODEL_PARAMETERS, hand_quality=0.3),
)
FROZEN_SPEC = "mcts:" + ",".join(f"{name}={value:g}" for name, value in FROZEN.items())
LEARNED_SPEC = "mcts:" + ",".join(f"{name}={value:g}" for name, value in LEARNED.items())

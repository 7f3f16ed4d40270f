"""Fit the ``opponent`` (or ``heuristic``) bot's discard score to a search teacher (issue 24), and write its data file.

The ``opponent`` bot scores each legal discard as a weighted sum of features it computes in
microseconds (``kernels.heuristic.best_discard``): the deadwood left, the meld potential
thrown away (live cards that would still meld the card) early and late in the hand, the
danger that the card completes an opponent meld early and late, the card's value, and
whether the deadwood left reaches the knock limit (R12). It discards the lowest score, and
takes the pile card when the best score after taking it beats a stock card's (R9, R11). The
weights are fitted here to a stronger teacher:

1. **Positions** are collected where they arise: at every discard (R9, R10) of ``opponent``
   in hands against ``opponent`` and ``simple`` (the reference engine through the Python
   adapters), each hand under rules drawn across the switches, not only the presets: the
   knock limit 0-10 (V1), gin and undercut bonuses (R18, R19, V2, V3), ``undercut_on_tie``,
   Oklahoma (V9), big gin (V13), the re-discard (V6), Hollywood (V14), the target and the
   scores before the hand (R20).
2. **The teacher** values every legal discard of a position by search, as ``mcts`` does at a
   larger budget and over every candidate: ``--worlds`` worlds (the opponent's hand drawn
   from the bot's estimate, ``kernels.opponent``, and the stock shuffled) are shared by the
   candidates, and each is played to the end of the hand by the playout policy of
   ``kernels.mcts`` (both players knock as soon as the rules let them); each result is
   valued by what it is worth in the game (``kernels.payoff.result_value``).
3. **The fit** learns the ranking the bot acts on: the weights (the deadwood's held at 1, so
   scores stay in deadwood points) that maximise the teacher's mean value of a soft choice
   (a softmax of minus the scores) among each position's discards, by Adam from the start's
   weights (``--start``: the frozen weights, ``strategies.opponent.FROZEN_DISCARD``, by
   default; a later round starts from, and collects with, the weights a round before kept).
   A least-squares fit of the values was tried first and predicted the teacher worse than the
   frozen weights: it chases the far-off discards, not the choice. Hands only gin can end
   (knock limit 0: V1, V9) have weights of their own (the ``gin_`` ones) and are fitted
   apart. The positions are split in two: the even ones fit, the odd ones check, and each
   regime keeps its fit only when its discards fall short of the teacher's best by fewer
   points than the start's weights on the held-out half (``held_out_regret`` in the file);
   ``--fit`` limits which regimes may change.

4. **The draw** (R9, R11): at every choice between the pile's top card and the stock the
   teacher values both by playouts in shared worlds (as ``mcts`` does), and ``draw_margin``,
   by which the best score after taking must beat the expected score after a stock card in a
   hand a knock can end, is chosen on a grid with the weights above: the even draw positions
   choose, the odd ones check, kept only if it does better there than the start's margin.
   Hands only gin can end keep the start's ``gin_draw_margin``.

The weights are written to ``strategies/opponent_discard.json`` (format 1, with the
command, seed and counts that made them); ``strategies/opponent.py`` takes the bot's
defaults from it. The shipped file's ``gin_`` weights were set after this command by the rounds of
``simgin.tools.teach_players`` listed in it (``player_teacher_rounds``): run them in order after this
command to make the file again. The same command and seed write the same file, bit for bit (every draw
comes from the seed; the sums run in a fixed order).

``--bot heuristic`` fits the ``heuristic`` bot's weights the same way, into
``strategies/heuristic_discard.json`` (``strategies/heuristic.py`` reads it): the positions
come from ``heuristic``'s own play (against itself and ``simple``), and the features from
its own stateless estimate (``kernels.heuristic.estimate`` with ``model`` false), so that
training and play score a discard alike. The teacher is the same: its worlds are drawn from
``opponent``'s Bayesian estimate (its default signals and hand quality), replayed from the
hand's public history at the position (without the passes it would infer turn by turn from
stock draws). ``heuristic``'s draw rule is its own (R9, R11): it takes the pile card when the
least deadwood after taking it, plus ``draw_margin``, is below the deadwood now
(``kernels.heuristic.deadwood_draw_scores``), in every hand, those only gin can end
included; its ``draw_margin`` is chosen and checked on the draw positions as above.

Run from the repository root::

    python -m simgin.tools.train_discard --seed 20261202 --fit knock --write   # the shipped file (its "command")
    python -m simgin.tools.train_discard --bot heuristic --seed 20261202 --fit knock --write  # heuristic's
    python -m simgin.tools.train_discard --fit knock --fit gin_only --fit draw  # fit every part, print only
    python -m simgin.tools.train_discard --hands 20 --worlds 16               # a smoke test
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
from numba import njit

from simgin.game.reference_engine import play_hand
from simgin.game.rng import SplitMix64, derive
from simgin.game.rules import Rules
from simgin.kernels import heuristic as _heuristic, mcts as _mcts, opponent as _estimate, rule_index as ri, view as v
from simgin.kernels.bots import F_MEMORY, FLOAT_MEMORY, INT_MEMORY, S_FLOATS, S_INTS
from simgin.kernels.knock import hand_multiplier
from simgin.kernels.melds import SUIT_DEADWOOD, discard_deadwoods
from simgin.kernels.parameters import HAND_QUALITY, NAMES, PARAMETER_CAPACITY
from simgin.kernels.payoff import result_value
from simgin.kernels.showdown import SUIT_VALUE
from simgin.players.registry import resolve
from simgin.strategies import heuristic as _heuristic_bot, opponent as _opponent_bot
from simgin.strategies.compiled import cards_to_mask, parameter_vector
from simgin.strategies.opponent import (
    DISCARD_MODEL,
    DISCARD_MODEL_FORMAT,
    FROZEN_SPEC,
)
from simgin.tools.watching import Watched

#: The features of a discard, in the order of the fitted weights (``kernels.heuristic.best_discard``).
FEATURES = (
    "deadwood",
    "potential",
    "potential_late",
    "safety",
    "safety_late",
    "value",
    "reach",
)
#: The weights of a hand only gin can end (V1, V9), matching FEATURES[1:5] once scaled by ``gin_only``.
GIN_WEIGHTS = ("gin_potential", "gin_potential_late", "gin_safety", "gin_safety_late")
DEFAULT_SEED = 20261202
#: The bots this script trains, by name: the module that describes each (its data file, learned weights, frozen spec).
BOTS = {"opponent": _opponent_bot, "heuristic": _heuristic_bot}
#: The teacher's estimate for a bot without a running one (``heuristic``): ``opponent``'s signals and hand quality.
TEACHER_PARAMETERS = parameter_vector(_opponent_bot.MODEL_PARAMETERS, {})


@njit(cache=False)
def _teacher_estimate(model, params, teacher, seat, hand, table, ints, floats, p, live, risk):
    """Fill ``live`` and ``risk`` from the bot's own estimate (``model``: the running one, else the stateless one);
    return (known, unseen, parameters, float memory) of the estimate the teacher draws its worlds from.

    For ``opponent`` (``model`` true) that is its own estimate. For ``heuristic`` it is ``opponent``'s
    estimate with the ``teacher`` parameters, replayed from the public history of the hand on fresh memory.
    """
    known, unseen = _heuristic.estimate(model, params, seat, hand, table, ints, floats, p, live, risk)
    if model:
        return known, unseen, params, floats
    own = ints.copy()
    memory = floats.copy()
    _estimate.reset_beliefs(own, memory)
    _estimate.update_beliefs(teacher, seat, table, own, memory)
    known, unseen = _estimate.probabilities(seat, hand, table, memory, np.empty(52))
    return known, unseen, teacher, memory


@njit(cache=False)
def _features(hand, banned, live, risk, stage, limit, work, out, cards):
    """The features of every legal discard of ``hand`` into ``out`` (rows), its cards into ``cards``; the count."""
    discard_deadwoods(hand, SUIT_DEADWOOD, work)
    count = 0
    for c in range(52):
        if not (hand >> c) & 1 or c == banned:
            continue
        potential = _heuristic.potential(hand, c, live)
        out[count, 0] = work[c]
        out[count, 1] = potential * stage
        out[count, 2] = potential * (1.0 - stage)
        out[count, 3] = risk[c] * stage
        out[count, 4] = risk[c] * (1.0 - stage)
        out[count, 5] = -min(c % 13 + 1, 10)
        out[count, 6] = -1.0 if limit > 0 and work[c] <= limit else 0.0
        cards[count] = c
        count += 1
    return count


@njit(cache=False)
def _teach(model, params, teacher, seat, hand, table, ints, floats, rng, worlds, x, values, cards):
    """Fill ``x`` (features), ``values`` (the teacher's mean value) and ``cards`` of every legal discard; the count."""
    p = np.empty(52)
    live = np.empty(52)
    risk = np.empty(52)
    work = np.empty(52, np.int64)
    rules = table[v.T_RULES : v.T_RULES + ri.RULE_COUNT]
    known, unseen, params, floats = _teacher_estimate(
        model, params, teacher, seat, hand, table, ints, floats, p, live, risk
    )
    banned = -1
    if table[v.T_FROM_PILE] != 0 and rules[ri.REDISCARD] == 0:
        banned = table[v.T_DRAWN]
    limit = table[v.T_KNOCK_LIMIT]
    count = _features(hand, banned, live, risk, _heuristic.stage(table), limit, work, x, cards)
    playout_values(seat, hand, table, rules, known, unseen, floats, params, rng, worlds, cards, count, work, values)
    return count


@njit(cache=False)
def playout_values(seat, hand, table, rules, known, unseen, floats, params, rng, worlds, cards, count, work, values):
    """``values[i]``: the teacher's mean value of discarding ``cards[i]`` (i < ``count``) from ``hand``, over ``worlds``
    worlds drawn from the estimate (``known``, ``unseen``, ``floats``), shared by the discards, each played to the end
    of the hand by ``kernels.mcts``'s playout policy (both players knock as soon as they may) and valued in the game
    (``kernels.payoff.result_value``). Also the teacher of ``simgin.tools.train_discard_network``."""
    limit = table[v.T_KNOCK_LIMIT]
    levels = np.empty(2, np.int64)
    levels[0] = limit
    levels[1] = limit
    hands, stock, sample_cards, weights, _, result = _mcts._playout_buffers(table[v.T_STOCK_COUNT])
    mine = table[v.T_SCORE + seat]
    theirs = table[v.T_SCORE + 1 - seat]
    multiplier = hand_multiplier(rules, table)
    values[:count] = 0.0
    other = 1 - seat
    context = np.zeros(_mcts.CONTEXT_SIZE, np.int64)  # playouts discard to the least deadwood
    scratch = _mcts.playout_scratch()
    for _ in range(worlds):
        _mcts.sample_world(
            known, unseen, floats, params[HAND_QUALITY], rng, hands, seat, hand, stock, sample_cards, weights,
            SUIT_DEADWOOD, _estimate.QUALITY_TRIES,
        )  # fmt: skip
        opponent_hand = hands[other]
        for i in range(count):
            hands[seat] = hand & ~(1 << cards[i])
            hands[other] = opponent_hand
            points = _mcts.play_out(
                seat, seat, np.int64(_mcts.PHASE_AFTER_DISCARD), hands, cards[i], np.int64(-1), np.bool_(False),
                stock, np.int64(0), levels, rules, SUIT_DEADWOOD, SUIT_VALUE, work, result, params, context, scratch,
            )  # fmt: skip
            values[i] += result_value(rules, mine, theirs, multiplier * points)
    values[:count] /= worlds


@njit(cache=False)
def _teach_draw(model, params, teacher, seat, hand, table, ints, floats, rng, worlds, first_turn, out):
    """``out``: the teacher's mean value of taking the pile's top card (0) and of passing it (1), R9, R11:
    ``kernels.mcts.draw_values`` in ``worlds`` worlds, both players knocking as soon as they may."""
    p = np.empty(52)
    live = np.empty(52)
    risk = np.empty(52)
    rules = table[v.T_RULES : v.T_RULES + ri.RULE_COUNT]
    known, unseen, params, floats = _teacher_estimate(
        model, params, teacher, seat, hand, table, ints, floats, p, live, risk
    )
    limit = table[v.T_KNOCK_LIMIT]
    levels = np.empty(2, np.int64)
    levels[0] = limit
    levels[1] = limit
    totals = np.zeros(2)
    context = np.zeros(_mcts.CONTEXT_SIZE, np.int64)  # playouts discard to the least deadwood
    _mcts.draw_values(
        first_turn, seat, hand, table, rules, known, unseen, floats, params[HAND_QUALITY], levels, worlds, rng,
        SUIT_DEADWOOD, SUIT_VALUE, totals, params, context, 0.0,
    )  # fmt: skip
    out[0] = totals[1] / worlds
    out[1] = totals[0] / worlds


def draw_rules(rng: np.random.Generator) -> Rules:
    """A rule set drawn across the switches that change the discard's worth (R12, R18-R20, V1-V3, V6, V9, V13, V14)."""
    hollywood = rng.random() < 0.1
    oklahoma = not hollywood and rng.random() < 0.2
    settings = {
        "knock_limit": int(rng.choice([0, 0, 0, 1, 3, 5, 7, 8, 9, 10, 10, 10, 10])),
        "gin_bonus": int(rng.choice([10, 15, 20, 25, 30, 40])),
        "undercut_bonus": int(rng.choice([0, 10, 15, 20, 25, 30])),
        "undercut_on_tie": bool(rng.random() < 0.8),
        "oklahoma": oklahoma,
        "oklahoma_ace_gin_only": bool(oklahoma and rng.random() < 0.5),
        "big_gin": bool(rng.random() < 0.2),
        "rediscard_taken_card": bool(rng.random() < 0.1),
        "hollywood": hollywood,
        "target": int(rng.choice([100, 150, 250])),
    }
    return Rules().with_settings(settings)


class _Collector(Watched):
    """The bot ``spec`` names, as it sets it, recording every discard position it meets (its play unchanged).

    A spec that sets every learned weight (the frozen bot's, :data:`FROZEN_SPEC`, by default),
    not the shipped bot, plays the hands: the positions, and so the file the command writes,
    do not depend on the weights a previous run wrote.
    """

    def __init__(self, positions: list, spec: str, draws: list | None = None) -> None:
        super().__init__(spec)
        self.positions = positions
        self.draws = draws

    def watch(self, decision, ask):  # type: ignore[no-untyped-def]
        if decision in ("take_up_card", "draw_from_pile") and self.draws is not None:

            def draw(view, rng):  # type: ignore[no-untyped-def]
                answer = ask(view, rng)
                self.draws.append((view.seat, cards_to_mask(view.hand), self.table(view), decision == "take_up_card"))
                return answer

            return draw
        if decision != "discard":
            return ask

        def discard(view, rng):  # type: ignore[no-untyped-def]
            answer = ask(view, rng)  # brings the estimate up to date first
            if not view.fiftieth_card:
                self.positions.append((view.seat, cards_to_mask(view.hand), self.table(view)))
            return answer

        return discard


def collect(hands: int, seed: int, spec: str = FROZEN_SPEC, draws: list | None = None) -> list:
    """(seat, hand mask, kernel state) of every discard of ``spec`` in ``hands`` hands, rules drawn; with
    ``draws``, (seat, hand, state, first turn) of its every choice between the pile card and the stock is
    appended to it."""
    positions: list = []
    chance = np.random.default_rng(seed)
    for i in range(hands):
        rules = draw_rules(chance)
        target = rules.target
        scores = (int(chance.integers(0, target * 0.9)), int(chance.integers(0, target * 0.9)))
        if rules.hollywood:
            scores = (0, 0)
        other = resolve(spec if i % 2 == 0 else "simple").make()
        if i % 4 < 2:
            players = (_Collector(positions, spec, draws), other if i % 2 else _Collector(positions, spec, draws))
        else:
            players = (other if i % 2 else _Collector(positions, spec, draws), _Collector(positions, spec, draws))
        play_hand(players, rules, hand_seed=derive(seed, i), dealer=i % 2, scores=scores)
    return positions


def teach(
    positions: list, worlds: int, seed: int, model: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(features, values, position index, gin-only flag) of every legal discard of every position; ``model``
    false: the features from ``heuristic``'s stateless estimate (:func:`_teacher_estimate`)."""
    xs, ys, index, gin_only = [], [], [], []
    x = np.zeros((11, len(FEATURES)))
    values = np.zeros(11)
    cards = np.zeros(11, np.int64)
    for n, (seat, hand, state) in enumerate(positions):
        params, ints, floats = _seat_rows(seat, state)
        rng = np.array([np.uint64(SplitMix64(derive(seed, n)).state)], dtype=np.uint64)
        count = _teach(
            np.bool_(model), params, TEACHER_PARAMETERS, seat, hand, state, ints, floats, rng, worlds, x, values, cards
        )
        xs.append(x[:count].copy())
        ys.append(values[:count].copy())
        index.extend([n] * count)
        gin_only.extend([state[v.T_KNOCK_LIMIT] == 0] * count)
    return np.concatenate(xs), np.concatenate(ys), np.array(index), np.array(gin_only)


def as_table(x: np.ndarray, y: np.ndarray, index: np.ndarray, gin_only: np.ndarray) -> dict[str, np.ndarray]:
    """The discards as padded arrays by position: features (P, 11, F), values (P, 11), legal (P, 11), gin-only (P)."""
    positions, row = np.unique(index, return_inverse=True)
    slot = np.zeros(len(index), np.int64)
    starts = np.r_[0, np.flatnonzero(np.diff(row)) + 1]
    for a, b in zip(starts, np.r_[starts[1:], len(row)], strict=True):
        slot[a:b] = np.arange(b - a)
    table = {
        "x": np.zeros((len(positions), 11, x.shape[1])),
        "value": np.zeros((len(positions), 11)),
        "legal": np.zeros((len(positions), 11), bool),
        "gin_only": np.zeros(len(positions), bool),
    }
    table["x"][row, slot] = x
    table["value"][row, slot] = y
    table["legal"][row, slot] = True
    table["gin_only"][row] = gin_only
    return table


def weight_vector(weights: dict[str, float], gin_only: bool = False) -> np.ndarray:
    """The score's weights in the order of :data:`FEATURES` (deadwood 1), as ``best_discard`` applies them:
    in a hand only gin can end (``gin_only``) the ``gin_`` weights scaled by ``gin_only``, no value, no reach."""
    if not gin_only:
        return np.array([1.0] + [weights[name] for name in FEATURES[1:]])
    scale = weights["gin_only"]
    return np.array([1.0] + [scale * weights[name] for name in GIN_WEIGHTS] + [0.0, 0.0])


def regret(table: dict[str, np.ndarray], w: np.ndarray, rows: np.ndarray) -> float:
    """Mean points per decision by which the discard of lowest score falls short of the teacher's best (NaN: none)."""
    if not rows.any():
        return float("nan")
    scores = np.where(table["legal"][rows], table["x"][rows] @ w, np.inf)
    chosen = scores.argmin(axis=1)
    values = np.where(table["legal"][rows], table["value"][rows], -np.inf)
    return float((values.max(axis=1) - values[np.arange(len(chosen)), chosen]).mean())


def fit_ranking(
    table: dict[str, np.ndarray],
    rows: np.ndarray,
    start: np.ndarray,
    fixed: tuple[int, ...] = (0,),
    temperature: float = 0.5,
    steps: int = 600,
) -> np.ndarray:
    """Weights (deadwood fixed at 1) that maximise the teacher's mean value of a soft choice among the discards.

    The choice is a softmax of minus the scores over ``temperature`` points; Adam ascends its
    expected teacher value (each position's values centred), starting from ``start``, the weights
    at ``fixed`` held (the deadwood's, and in hands only gin can end value and reach). A soft
    choice weighs what the bot decides, the ranking near the top, where a least-squares fit of
    the values would chase the far-off discards (it fitted the teacher worse than the old weights).
    """
    if not rows.any():
        return start.astype(np.float64).copy()
    x = table["x"][rows]
    legal = table["legal"][rows]
    values = np.where(legal, table["value"][rows], 0.0)
    centred = np.where(legal, values - values.sum(axis=1, keepdims=True) / legal.sum(axis=1, keepdims=True), 0.0)
    w = start.astype(np.float64).copy()
    first = np.zeros_like(w)
    second = np.zeros_like(w)
    for step in range(1, steps + 1):
        scores = np.where(legal, x @ w, np.inf)
        soft = np.where(legal, np.exp(-(scores - scores.min(axis=1, keepdims=True)) / temperature), 0.0)
        soft /= soft.sum(axis=1, keepdims=True)
        mean_x = (soft[..., None] * x).sum(axis=1, keepdims=True)
        gradient = ((centred * soft)[..., None] * (mean_x - x)).sum(axis=1).mean(axis=0) / temperature
        gradient[list(fixed)] = 0.0
        first = 0.9 * first + 0.1 * gradient
        second = 0.999 * second + 0.001 * gradient**2
        w += 0.05 * (first / (1 - 0.9**step)) / (np.sqrt(second / (1 - 0.999**step)) + 1e-8)
    return w


#: Offsets the seeds of the draw teacher's worlds from the discard teacher's.
DRAW_STREAM = 1 << 40
#: What a run may fit: the two regimes of the discard score and the draw margin.
FITS = ("knock", "gin_only", "draw")
#: What a run fits unless told: the part whose fit has passed its gate (benchmarks/RESULTS.md, Strength gates).
DEFAULT_FITS = ("knock",)


def _seat_rows(seat: int, state: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(parameters, int memory, float memory) of ``seat`` in a kernel state, as copies."""
    row = state[S_FLOATS:].view(np.float64)[seat * FLOAT_MEMORY : (seat + 1) * FLOAT_MEMORY]
    ints = state[S_INTS + seat * INT_MEMORY : S_INTS + (seat + 1) * INT_MEMORY].copy()
    return row[:PARAMETER_CAPACITY].copy(), ints, row[F_MEMORY:].copy()


def teach_draws(draws: list, worlds: int, seed: int, model: bool = True) -> np.ndarray:
    """The teacher's mean values (take, pass) of every draw position, shape (N, 2)."""
    values = np.zeros((len(draws), 2))
    out = np.zeros(2)
    for n, (seat, hand, state, first_turn) in enumerate(draws):
        params, ints, floats = _seat_rows(seat, state)
        rng = np.array([np.uint64(SplitMix64(derive(seed, DRAW_STREAM + n)).state)], dtype=np.uint64)
        _teach_draw(
            np.bool_(model), params, TEACHER_PARAMETERS, seat, hand, state, ints, floats, rng, worlds,
            np.bool_(first_turn), out,
        )  # fmt: skip
        values[n] = out
    return values


def draw_scores(draws: list, weights: dict[str, float]) -> np.ndarray:
    """(score after taking, expected score after a stock card) of every draw position under ``weights``, (N, 2)."""
    scores = np.zeros((len(draws), 2))
    for n, (seat, hand, state, _) in enumerate(draws):
        params, ints, floats = _seat_rows(seat, state)
        for name, value in weights.items():
            params[NAMES.index(name)] = value
        taken, expected, weight = _heuristic.pile_card_scores(params, seat, hand, state, ints, floats, SUIT_DEADWOOD)
        scores[n] = (taken, expected / weight if weight > 0.0 else np.inf)
    return scores


def deadwood_draw_scores(draws: list) -> np.ndarray:
    """``heuristic``'s (least deadwood after taking the pile card, deadwood now) of every draw position, (N, 2)."""
    scores = np.zeros((len(draws), 2))
    for n, (_, hand, state, _) in enumerate(draws):
        scores[n] = _heuristic.deadwood_draw_scores(hand, v.pile_top(state), SUIT_DEADWOOD)
    return scores


def draw_regret(values: np.ndarray, scores: np.ndarray, margin: float) -> float:
    """Mean points per draw by which taking when ``score after + margin < expected score`` falls short of the
    teacher's better choice (NaN: no positions)."""
    if len(values) == 0:
        return float("nan")
    takes = scores[:, 0] + margin < scores[:, 1]
    return float((values.max(axis=1) - np.where(takes, values[:, 0], values[:, 1])).mean())


def _rounded(value: float) -> float | None:
    return None if np.isnan(value) else round(value, 4)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", choices=tuple(BOTS), default="opponent", help="the bot whose weights are fitted")
    parser.add_argument("--hands", type=int, default=3000, help="hands played to collect discard positions")
    parser.add_argument("--worlds", type=int, default=128, help="sampled worlds per position (shared by its discards)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument(
        "--write", action="store_true", help=f"write the data file ({DISCARD_MODEL.name}, or the bot's)"
    )
    parser.add_argument("--out", type=Path, help="where --write writes it (default: the bot's data file)")
    parser.add_argument(
        "--fit",
        choices=FITS,
        action="append",
        help="what may change (repeatable; default knock, the only part that has passed its gate): the discard "
        "weights of hands a knock can end, those of hands only gin can end, and the draw's margin",
    )
    parser.add_argument(
        "--start",
        help="the bot's spec that plays the collection hands, starts the fit and is the held-out baseline; "
        "it must set every learned weight (default: the frozen bot)",
    )
    parser.add_argument("--save-data", type=Path, help="also save the teacher's table (.npz) for study")
    args = parser.parse_args(argv)
    bot = BOTS[args.bot]
    learned = bot.LEARNED
    model = args.bot == "opponent"  # heuristic's estimate is the stateless one (kernels.heuristic.estimate)
    if args.start is None:
        args.start = bot.FROZEN_SPEC
    if args.out is None:
        args.out = bot.DISCARD_MODEL
    started = time.process_time()
    named = {setting.split("=", 1)[0].strip() for setting in args.start.partition(":")[2].split(",")}
    missing = [name for name in learned if name not in named]
    if not args.start.startswith(f"{args.bot}:") or missing:
        parser.error(f"--start {args.start!r}: a spec of {args.bot} setting every learned weight (missing {missing})")
    values = resolve(args.start).values
    baseline = {name: float(values[name]) for name in learned}
    draws: list = []
    positions = collect(args.hands, args.seed, args.start, draws)
    x, y, index, gin_only = teach(positions, args.worlds, args.seed, model)
    if args.save_data:
        np.savez(args.save_data, x=x, y=y, index=index, gin_only=gin_only)
    table = as_table(x, y, index, gin_only)
    halves = np.arange(len(table["gin_only"])) % 2 == 0  # even positions fit, odd ones check
    weights = dict(baseline)
    normal = fit_ranking(table, halves & ~table["gin_only"], weight_vector(baseline))
    fitted = dict(zip(FEATURES[1:], normal[1:], strict=True))
    start = weight_vector(baseline, gin_only=True)
    only_gin = fit_ranking(table, halves & table["gin_only"], start, fixed=(0, 5, 6))
    # The fitted gin-only weights are the ones applied: with them, gin_only is 1.
    fitted.update({"gin_only": 1.0, **dict(zip(GIN_WEIGHTS, only_gin[1:5], strict=True))})
    # Each weight within the range its parameter allows (strategies/heuristic.py), so the bot accepts the file.
    bounds = {parameter.name: (parameter.low, parameter.high) for parameter in bot.PARAMETERS}
    fitted = {name: round(float(np.clip(value, *bounds[name])), 4) for name, value in fitted.items()}
    # Each regime keeps the fit only where it predicts the teacher better than the start on held-out positions.
    checks = {}
    for regime, kind in (("knock", ~table["gin_only"]), ("gin_only", table["gin_only"])):
        rows = ~halves & kind
        candidate = {**weights, **fitted}
        start_regret = regret(table, weight_vector(baseline, regime == "gin_only"), rows)
        fitted_regret = regret(table, weight_vector(candidate, regime == "gin_only"), rows)
        kept = bool(fitted_regret < start_regret) and regime in (args.fit or DEFAULT_FITS)
        if kept:
            names = [
                n for n in learned if n.startswith("gin_") == (regime == "gin_only") and not n.endswith("draw_margin")
            ]
            weights.update({name: fitted[name] for name in names})
        checks[regime] = {
            "positions": int(rows.sum()),
            "start": _rounded(start_regret),
            "fitted": _rounded(fitted_regret),
            "fit_kept": kept,
        }
    # The draw (R9, R11): the margin by which the score after taking the pile card must beat a stock card's,
    # in hands a knock can end (those only gin can end keep gin_draw_margin), chosen on the even draw
    # positions with the weights above, kept if it does better on the odd ones. heuristic's margin: by which
    # the least deadwood after taking must beat the deadwood now, in every hand (it has no gin_draw_margin).
    values = teach_draws(draws, args.worlds, args.seed, model)
    if model:
        draw_weights = {name: weights[name] for name in learned if name not in ("draw_margin", "gin_draw_margin")}
        scores = draw_scores(draws, draw_weights)
        knock = np.array([state[v.T_KNOCK_LIMIT] > 0 for _, _, state, _ in draws], dtype=bool)
        values, scores = values[knock], scores[knock]
    else:
        scores = deadwood_draw_scores(draws)
    even = np.arange(len(values)) % 2 == 0
    margins = np.round(np.arange(-5.0, 5.01, 0.25), 2)
    fits = [draw_regret(values[even], scores[even], margin) for margin in margins]
    fitted["draw_margin"] = float(margins[int(np.nanargmin(fits))]) if len(values) > 1 else baseline["draw_margin"]
    start_regret = draw_regret(values[~even], scores[~even], baseline["draw_margin"])
    fitted_regret = draw_regret(values[~even], scores[~even], fitted["draw_margin"])
    kept = bool(fitted_regret < start_regret) and "draw" in (args.fit or DEFAULT_FITS)
    if kept:
        weights["draw_margin"] = fitted["draw_margin"]
    checks["draw"] = {
        "positions": int((~even).sum()),
        "start": _rounded(start_regret),
        "fitted": _rounded(fitted_regret),
        "fit_kept": kept,
    }
    data = {
        "format": DISCARD_MODEL_FORMAT,
        "bot": args.bot,
        "what": f"weights of the {args.bot} bot's discard score, fitted to a search teacher "
        "(simgin/tools/train_discard.py)",
        "command": "python -m simgin.tools.train_discard"
        + (f" --bot {args.bot}" if args.bot != "opponent" else "")
        + f" --hands {args.hands} --worlds {args.worlds} --seed {args.seed}"
        + "".join(f" --fit {regime}" for regime in args.fit or ())
        + (f" --start '{args.start}'" if args.start != bot.FROZEN_SPEC else "")
        + " --write",
        "positions": len(positions),
        "discards": len(y),
        "held_out_regret": checks,
        "fitted": fitted,
        "weights": weights,
    }
    print(json.dumps(data, indent=2))
    print(f"{time.process_time() - started:.0f} s CPU")
    if args.write:
        args.out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"written {args.out}")


if __name__ == "__main__":
    main()

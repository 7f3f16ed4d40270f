"""Fit the playing-on model of the knock decision (``simgin/kernels/knock.py``) on Monte Carlo playouts.

The ``heuristic`` and ``opponent`` bots knock when knocking now is worth at least playing
on. Knocking now they score exactly against sampled opponent hands; playing on they value
by a model of how the hand then ends, fitted here:

1. Knock situations are collected where they really arise: in games of ``mcts`` against
   ``simple`` (the reference engine, both through their Python adapters) under the
   standard and Oklahoma rules, at every decision of ``mcts`` to knock without gin.
2. In each situation ``--worlds`` worlds are sampled from the bot's estimate of the
   opponent's hand (the stock order shuffled), and the hand is played out from there with
   the bot holding on for gin and the opponent knocking at its first chance (the playout
   policy of ``kernels.mcts``). Each playout ends in one of five ways: the bot goes gin,
   undercuts the opponent's knock, loses to it, loses to the opponent's gin, or the hand
   dies; the shares and the mean points apart from the bonuses are recorded.
3. A multinomial logit of the five ways (dead as the base) and four linear models of the
   points (the opponent's deadwood at the bot's gin, the undercut margin, the points lost
   to the knock, the bot's deadwood at the opponent's gin), weighted by the shares, are
   fitted on the situation's features (``kernels.knock.features``).

Run from the repository root (the collection plays ``mcts``, about 30 ms a knock situation
with 300 worlds, so the default takes some minutes on two cores)::

    python -m simgin.tools.fit_knock_model                 # collect, fit and print the coefficients
    python -m simgin.tools.fit_knock_model --write         # ... and write them into simgin/kernels/knock.py
    python -m simgin.tools.fit_knock_model --games 4 --worlds 50 --print-only   # a smoke test
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import numpy as np
from numba import njit

from simgin.game.melds import deadwood
from simgin.game.reference_engine import play_game
from simgin.game.rules import Rules
from simgin.kernels import (
    heuristic as _heuristic,
    knock as _knock,
    mcts as _mcts,
    opponent as _opponent,
    parameters as pm,
    rule_index as ri,
    view as v,
)
from simgin.kernels.bots import F_MEMORY, FLOAT_MEMORY, INT_MEMORY, S_FLOATS, S_INTS
from simgin.kernels.melds import SUIT_DEADWOOD, deadwood_of_mask
from simgin.kernels.showdown import KIND_BIG_GIN, KIND_GIN, KIND_UNDERCUT, SUIT_VALUE, score_hand
from simgin.players.registry import resolve
from simgin.running.engine import hand_seeds
from simgin.strategies.compiled import cards_to_mask
from simgin.tools.watching import Watched

KNOCK_PY = Path(__file__).resolve().parent.parent / "kernels" / "knock.py"
#: Columns of a situation's record: the five shares and the four mean points (share-weighted).
GIN, UNDERCUT, KNOCK, OPPONENT_GIN, DEAD = range(5)
GIN_POINTS, UNDERCUT_POINTS, KNOCK_POINTS, OPPONENT_GIN_POINTS = range(5, 9)


@njit(cache=False)
def _outcome(me, player, hands, top, stock, levels, rules, sd, sv, work, result):
    """Play on from the opponent's draw (``player``) as ``kernels.mcts.play_out``; (kind, mine, points)."""
    stock_next = 0
    turns = 0
    while True:
        if top >= 0 and _mcts.card_fits_meld(hands[player], top):
            drawn = top
            from_pile = True
        else:
            drawn = stock[stock_next]
            stock_next += 1
            from_pile = False
        hands[player] |= 1 << drawn
        card, left = _mcts.policy_discard(hands[player], drawn if from_pile else -1, sd)
        hands[player] &= ~(1 << card)
        top = card
        turns += 1
        if left <= levels[player]:
            kind, defender_won, points, _, _, _ = score_hand(
                hands[player], hands[1 - player], False, rules[ri.GIN_BONUS], rules[ri.UNDERCUT_BONUS],
                rules[ri.UNDERCUT_ON_TIE], rules[ri.BIG_GIN_BONUS], 1, sd, sv, result,
            )  # fmt: skip
            winner = 1 - player if defender_won else player
            return kind, winner == me, points
        if stock.shape[0] - stock_next <= 2 or turns >= _mcts.PLAYOUT_TURN_CAP:
            return 0, False, 0
        player = 1 - player


@njit(cache=False)
def _situation(params, seat, hand, table, rules, ints, floats, rng, sd, sv, worlds, record, x):
    """Fill ``record`` (shares and share-weighted points, bonuses taken off) and ``x`` (features)."""
    p = np.empty(52)
    live = np.empty(52)
    risk = np.empty(52)
    work = np.empty(52, np.int64)
    known, unseen = _heuristic.estimate(True, params, seat, hand, table, ints, floats, p, live, risk)
    stock_count = table[v.T_STOCK_COUNT]
    levels = np.empty(2, np.int64)
    levels[seat] = 0
    levels[1 - seat] = table[v.T_KNOCK_LIMIT]
    hands, stock, cards, weights, _, result = _mcts._playout_buffers(stock_count)
    record[:] = 0.0
    opponent_deadwood = 0.0
    for _ in range(worlds):
        _mcts.sample_world(
            known, unseen, floats, params[pm.HAND_QUALITY], rng, hands, seat, hand, stock, cards, weights, sd,
            _opponent.QUALITY_TRIES,
        )  # fmt: skip
        opponent_deadwood += deadwood_of_mask(hands[1 - seat], sd)
        kind, mine, points = _outcome(
            seat, 1 - seat, hands, v.pile_top(table), stock, levels, rules, sd, sv, work, result
        )
        if kind == 0:
            record[DEAD] += 1
        elif mine and kind in (KIND_GIN, KIND_BIG_GIN):
            record[GIN] += 1
            record[GIN_POINTS] += points - rules[ri.GIN_BONUS]
        elif mine and kind == KIND_UNDERCUT:
            record[UNDERCUT] += 1
            record[UNDERCUT_POINTS] += points - rules[ri.UNDERCUT_BONUS]
        elif kind in (KIND_GIN, KIND_BIG_GIN):
            record[OPPONENT_GIN] += 1
            record[OPPONENT_GIN_POINTS] += points - rules[ri.GIN_BONUS]
        else:
            record[KNOCK] += 1
            record[KNOCK_POINTS] += points
    record /= worlds
    outs = _knock.gin_outs(hand, unseen, live, sd)
    _knock.features(
        deadwood_of_mask(hand, sd), stock_count, table[v.T_KNOCK_LIMIT], outs, opponent_deadwood / worlds,
        _opponent.popcount(known), x,
    )  # fmt: skip


class _Collector(Watched):
    """``mcts`` that records every knock situation without gin it meets (its own play unchanged)."""

    def __init__(self, worlds: int, records: list, features: list) -> None:
        super().__init__("mcts")
        self.worlds = worlds
        self.records = records
        self.features = features

    def watch(self, decision, ask):  # type: ignore[no-untyped-def]
        if decision != "knock":
            return ask

        def knock(view, rng):  # type: ignore[no-untyped-def]
            if deadwood(view.hand) > 0:
                state = self.table(view)
                seat = view.seat
                row = state[S_FLOATS:].view(np.float64)[seat * FLOAT_MEMORY : (seat + 1) * FLOAT_MEMORY]
                ints = state[S_INTS + seat * INT_MEMORY : S_INTS + (seat + 1) * INT_MEMORY].copy()
                rules = state[v.T_RULES : v.T_RULES + ri.RULE_COUNT]
                generator = np.array([np.uint64(rng.state ^ 0x5DEECE66D)], dtype=np.uint64)
                record = np.zeros(9)
                x = np.zeros(_knock.FEATURE_COUNT)
                params = row[: pm.PARAMETER_CAPACITY].copy()
                _situation(
                    params, seat, cards_to_mask(view.hand), state, rules, ints, row[F_MEMORY:].copy(), generator,
                    SUIT_DEADWOOD, SUIT_VALUE, self.worlds, record, x,
                )  # fmt: skip
                self.records.append(record)
                self.features.append(x)
            return ask(view, rng)

        return knock


def collect(preset: str, games: int, worlds: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(records, features) of the knock situations in ``games`` games of mcts against simple."""
    records: list = []
    features: list = []
    rules = Rules.preset(preset)
    for i, game_seed in enumerate(hand_seeds(seed, games)):
        collector = _Collector(worlds, records, features)
        players = (collector, resolve("simple").make()) if i % 2 == 0 else (resolve("simple").make(), collector)
        play_game(players, rules, int(game_seed))
    return np.array(records).reshape(-1, 9), np.array(features).reshape(-1, _knock.FEATURE_COUNT)


def fit_outcomes(x: np.ndarray, shares: np.ndarray, ridge: float = 1e-3, steps: int = 50) -> np.ndarray:
    """Multinomial logit with soft labels (the last class the base) by Newton's method: (features, classes - 1)."""
    n, m = x.shape
    k = shares.shape[1] - 1
    weights = np.zeros((m, k))
    for _ in range(steps):
        logits = np.concatenate([x @ weights, np.zeros((n, 1))], axis=1)
        q = np.exp(logits - logits.max(axis=1, keepdims=True))
        q /= q.sum(axis=1, keepdims=True)
        gradient = (x.T @ (q[:, :k] - shares[:, :k]) / n + ridge * weights).T.reshape(-1)
        hessian = ridge * np.eye(k * m)
        for a in range(k):
            for b in range(k):
                curvature = q[:, a] * ((a == b) - q[:, b])
                hessian[a * m : (a + 1) * m, b * m : (b + 1) * m] += (x * curvature[:, None]).T @ x / n
        step = np.linalg.solve(hessian, gradient)
        weights -= step.reshape(k, m).T
        if np.abs(step).max() < 1e-8:
            break
    return weights


def fit_points(x: np.ndarray, share: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Share-weighted least squares of the mean points given the outcome (situations where it happened)."""
    seen = share > 0.02
    mean = points[seen] / share[seen]
    root = np.sqrt(share[seen])
    coefficients, *_ = np.linalg.lstsq(x[seen] * root[:, None], mean * root, rcond=None)
    return coefficients


def _literal(name: str, array: np.ndarray) -> str:
    rows = np.round(array, 4).tolist()
    if array.ndim == 1:
        return f"{name} = np.array({rows})"
    body = "".join(f"        {row},\n" for row in rows)
    return f"{name} = np.array(\n    [\n{body}    ]\n)"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per preset (standard, oklahoma)")
    parser.add_argument("--worlds", type=int, default=300, help="playouts per knock situation")
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--write", action="store_true", help="write the coefficients into simgin/kernels/knock.py")
    parser.add_argument("--print-only", action="store_true", help="(the default) print them only")
    args = parser.parse_args(argv)
    parts = [collect(preset, args.games, args.worlds, args.seed) for preset in ("standard", "oklahoma")]
    records = np.concatenate([r for r, _ in parts])
    x = np.concatenate([f for _, f in parts])
    shares = records[:, :5] / records[:, :5].sum(axis=1, keepdims=True)
    outcome_weights = fit_outcomes(x, shares)
    models = {
        "OUTCOME_WEIGHTS": outcome_weights,
        "GIN_DEADWOOD": fit_points(x, records[:, GIN], records[:, GIN_POINTS]),
        "UNDERCUT_MARGIN": fit_points(x, records[:, UNDERCUT], records[:, UNDERCUT_POINTS]),
        "KNOCK_LOSS": fit_points(x, records[:, KNOCK], records[:, KNOCK_POINTS]),
        "OPPONENT_GIN_DEADWOOD": fit_points(x, records[:, OPPONENT_GIN], records[:, OPPONENT_GIN_POINTS]),
    }
    print(f"{len(records)} knock situations; outcome shares {np.round(shares.mean(axis=0), 3).tolist()}")
    text = "\n".join(_literal(name, array) for name, array in models.items())
    print(text)
    if args.write and not args.print_only:
        source = KNOCK_PY.read_text()
        for name, array in models.items():
            pattern = re.compile(rf"^{name} = np\.array\(.*?\)\n", re.S | re.M)
            if not pattern.search(source):
                raise SystemExit(f"{KNOCK_PY}: no {name} = np.array(...) to replace")
            source = pattern.sub(lambda _m, n=name, a=array: _literal(n, a) + "\n", source, count=1)
        KNOCK_PY.write_text(source)
        print(f"written into {KNOCK_PY}")


if __name__ == "__main__":
    main()

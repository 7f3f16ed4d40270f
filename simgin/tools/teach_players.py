"""Fit ``opponent``'s discard weights to a teacher that plays the hand on with the players themselves (issue 37,
*a teacher whose playouts are played by the fast bot itself*): those of hands only gin can end, or (``--regime
knock``) those of hands a knock can end; ``--regime gin_draw`` chooses the draw's ``gin_draw_margin`` in hands
only gin can end (R9, R11) by the same teacher, on a grid, as ``train_discard`` chooses ``draw_margin``.

``simgin.tools.train_discard`` values each legal discard by playouts in which both players discard to the
least deadwood and knock as soon as they may. In a hand only gin can end (V1's knock limit 0, Oklahoma's ace
under V9) that teacher misleads: its fitted ``gin_`` weights lost their gate under straight gin (-35 Elo,
benchmarks/RESULTS.md). Here each legal discard of a position is valued by ``kernels.continuation``, the
``players`` playouts of ``simgin analyse``: in each world drawn from the bot's view, the two compiled bots of
the hand (``opponent`` with the weights being improved, and the player it faced: itself or ``simple``) play
the hand on after the discard, both from the view as a fresh seat would, the same worlds and generators for
every discard. That is one step of policy improvement: the discard that does best when the bot then plays
as it does now.

1. **Positions**: every discard of the bot (R9, R10) in ``--hands`` hands per seed under rules drawn as
   ``train_discard.draw_rules`` draws them, with the knock limit set to 0 (V1), so every hand is one only gin
   can end (with ``--regime knock``: as drawn, keeping the hands a knock can end); the other seat alternates
   between the bot and ``simple``, as in ``train_discard.collect``. Each seed is collected and taught in a
   process of its own (``--workers``).
2. **The teacher**: each discard's mean value over ``--worlds`` worlds, in what the hand is worth in the game
   (``game_value``), the hand played on by the two seats' bots.
3. **The fit**: ``train_discard.fit_ranking`` on the even positions from the start's weights (the data file's,
   or ``--start``'s; in gin-only hands value and reach held at 0, as ``best_discard`` applies them), checked
   on the odd ones: the fit is printed with the held-out shortfall from the teacher's best of the start and
   of the fit, and the spec to gate (``python -m simgin.tools.gates NEW opponent --presets ...``). ``--write``
   sets the fitted weights in ``strategies/opponent_discard.json`` and lists the round there
   (``player_teacher_rounds``): the shipped weights are ``train_discard``'s command followed by those rounds,
   in order, each kept only after its gate (benchmarks/RESULTS.md, *Strength gates*).

Run from the repository root::

    python -m simgin.tools.teach_players --hands 600 --worlds 48 --seeds 41,42 --write   # 13 min on 2 cores
    python -m simgin.tools.teach_players --hands 10 --worlds 4 --seeds 1,2               # a smoke test
"""

from __future__ import annotations

import argparse
import functools
import json
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from simgin.analysis.evaluator import DEFAULT_EVIDENCE, DEFAULT_QUALITY, DEFAULT_TRIES, _policies
from simgin.game.reference_engine import play_hand
from simgin.game.rng import SplitMix64, derive
from simgin.kernels import view as v
from simgin.kernels.analysis import KIND_DISCARD, KIND_DRAW, KIND_UP_CARD, MAX_ACTIONS
from simgin.kernels.continuation import continuation_values
from simgin.players.registry import resolve
from simgin.strategies import opponent as _opponent_bot
from simgin.tools.train_discard import (
    DRAW_STREAM,
    FEATURES,
    GIN_WEIGHTS,
    TEACHER_PARAMETERS,
    _Collector,
    _seat_rows,
    _teach,
    as_table,
    draw_regret,
    draw_rules,
    draw_scores,
    fit_ranking,
    regret,
    weight_vector,
)

DEFAULT_SEED = 37


#: What a round fits: the discard weights of hands only gin can end or of hands a knock can end (fitted apart,
#: ``kernels.heuristic.discard_weights``), or the draw's ``gin_draw_margin`` in hands only gin can end.
REGIMES = ("gin", "knock", "gin_draw")


def collect(hands: int, seed: int, spec: str, regime: str = "gin", draws: list | None = None) -> list:
    """(seat, hand mask, kernel state, other seat's spec) of every discard of ``spec`` in ``hands`` hands, each
    under rules drawn by ``train_discard.draw_rules``. ``regime`` ``'gin'``: the knock limit set to 0 (V1: only
    gin ends the hand), and under Oklahoma, whose up card sets the limit (V9), only the positions with a limit
    of 0 kept; ``'knock'``: the rules as drawn, only the positions of hands a knock can end kept. With
    ``draws``, the bot's choices between the pile card and the stock (R9, R11) in hands only gin can end are
    appended to it: (seat, hand mask, kernel state, first turn, other seat's spec)."""
    positions: list = []
    chance = np.random.default_rng(seed)
    for i in range(hands):
        rules = draw_rules(chance)
        if regime in ("gin", "gin_draw"):
            rules = rules.with_settings({"knock_limit": 0})
        scores = (0, 0) if rules.hollywood else tuple(int(chance.integers(0, rules.target * 0.9)) for _ in range(2))
        other_spec = spec if i % 2 == 0 else "simple"
        found: list = []
        chosen: list | None = [] if draws is not None else None
        mine = _Collector(found, spec, chosen)
        other = _Collector(found, spec, chosen) if i % 2 == 0 else resolve("simple").make()
        players = (mine, other) if i % 4 < 2 else (other, mine)
        play_hand(players, rules, hand_seed=derive(seed, i), dealer=i % 2, scores=scores)
        positions.extend(
            (seat, hand, state, other_spec)
            for seat, hand, state in found
            if (state[v.T_KNOCK_LIMIT] == 0) == (regime != "knock")
        )
        if draws is not None:
            draws.extend((*draw, other_spec) for draw in chosen if draw[2][v.T_KNOCK_LIMIT] == 0)
    return positions


def teach(positions: list, worlds: int, seed: int, spec: str) -> tuple[np.ndarray, ...]:
    """(features, values, position index, gin-only flag) of every legal discard of every position, each value
    the mean over ``worlds`` worlds of the hand played on by the two seats' bots (``kernels.continuation``)."""
    xs, ys, index, gin_only = [], [], [], []
    x = np.zeros((11, len(FEATURES)))
    no_values = np.zeros(11)
    cards = np.zeros(11, np.int64)
    actions = np.zeros(MAX_ACTIONS, np.int64)
    values = np.zeros((worlds, MAX_ACTIONS))
    for n, (seat, hand, state, other_spec) in enumerate(positions):
        params, ints, floats = _seat_rows(seat, state)
        none = np.zeros(1, np.uint64)
        count = _teach(
            np.bool_(True), params, TEACHER_PARAMETERS, seat, hand, state, ints, floats, none, 0, x, no_values, cards
        )  # the features only: no worlds
        xs.append(x[:count].copy())
        ys.append(discard_values(spec, other_spec, seat, hand, state, worlds, seed, n, cards[:count], actions, values))
        index.extend([n] * count)
        gin_only.extend([state[v.T_KNOCK_LIMIT] == 0] * count)
    return np.concatenate(xs), np.concatenate(ys), np.array(index), np.array(gin_only)


def discard_values(
    spec: str, other_spec: str, seat: int, hand: int, state: np.ndarray, worlds: int, seed: int, n: int,
    cards: np.ndarray, actions: np.ndarray, values: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """The teacher's mean value of each of ``cards`` (position ``n``'s legal discards, in card order) over
    ``worlds`` worlds, the hand played on after the discard by ``spec`` in ``seat`` and ``other_spec`` in the other
    (``kernels.continuation``), the worlds drawn from ``derive(seed, n)``; ``actions`` and ``values`` are scratch
    (``MAX_ACTIONS`` and ``worlds`` x ``MAX_ACTIONS``). Also the teacher of ``train_discard_network --regime
    undercut``."""
    ids, vectors = _seats(spec, other_spec, seat)
    rng = np.array([np.uint64(SplitMix64(derive(seed, n)).state)], dtype=np.uint64)
    legal = continuation_values(
        np.int64(KIND_DISCARD), np.int64(seat), np.int64(hand), state[: v.TABLE_SIZE].copy(), np.int64(worlds),
        rng, np.bool_(True), DEFAULT_EVIDENCE, DEFAULT_QUALITY, np.int64(DEFAULT_TRIES), ids, vectors,
        _policies(tuple(ids.tolist())), actions, values,
    )  # fmt: skip
    if legal != len(cards) or not np.array_equal(actions[:legal], cards):
        raise RuntimeError(f"position {n}: the teacher's discards {actions[:legal]} are not {cards}")
    return values[:, :legal].mean(axis=0)


def _seats(spec: str, other_spec: str, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """(bot ids, parameter vectors) by seat: ``spec`` in ``seat``, ``other_spec`` in the other."""
    me, other = resolve(spec), resolve(other_spec)
    seats = [(me.bot_id, me.vector()), (other.bot_id, other.vector())]
    if seat == 1:
        seats.reverse()
    return np.array([bot for bot, _ in seats], dtype=np.int64), np.array([vector for _, vector in seats])


def teach_draws(draws: list, worlds: int, seed: int, spec: str) -> np.ndarray:
    """The teacher's mean values (take the pile card, pass it) of every draw position, shape (N, 2): each the
    hand played on by the two seats' bots after the choice (``kernels.continuation``; the up card's offer on
    the first turn, R11, a draw after it, R9)."""
    values = np.zeros((len(draws), 2))
    actions = np.zeros(MAX_ACTIONS, np.int64)
    sampled = np.zeros((worlds, MAX_ACTIONS))
    for n, (seat, hand, state, first_turn, other_spec) in enumerate(draws):
        ids, vectors = _seats(spec, other_spec, seat)
        rng = np.array([np.uint64(SplitMix64(derive(seed, DRAW_STREAM + n)).state)], dtype=np.uint64)
        continuation_values(
            np.int64(KIND_UP_CARD if first_turn else KIND_DRAW), np.int64(seat), np.int64(hand),
            state[: v.TABLE_SIZE].copy(), np.int64(worlds), rng, np.bool_(True), DEFAULT_EVIDENCE, DEFAULT_QUALITY,
            np.int64(DEFAULT_TRIES), ids, vectors, _policies(tuple(ids.tolist())), actions, sampled,
        )  # fmt: skip
        values[n] = sampled[:, 1].mean(), sampled[:, 0].mean()  # action 1 takes the pile card
    return values


def teach_draw_part(hands: int, worlds: int, seed: int, spec: str) -> dict[str, np.ndarray]:
    """One seed's draw table (a unit of work for one process): the teacher's values and what
    ``train_discard.draw_scores`` needs to score each position again."""
    draws: list = []
    collect(hands, seed, spec, "gin_draw", draws)
    values = teach_draws(draws, worlds, seed, spec)
    size = len(draws[0][2]) if draws else 0
    return {
        "values": values,
        "seats": np.array([d[0] for d in draws], dtype=np.int64),
        "hands": np.array([d[1] for d in draws], dtype=np.int64),
        "states": np.array([d[2] for d in draws], dtype=np.int64).reshape(len(draws), size),
        "first": np.array([d[3] for d in draws], dtype=bool),
    }


def fit_gin_draw_margin(parts: list, baseline: dict[str, float]) -> tuple[dict[str, float], dict]:
    """``gin_draw_margin`` chosen on a grid on the even draw positions of hands only gin can end (the other
    weights the start's), and the held-out shortfall per draw of the start's margin and the chosen one on the
    odd positions."""
    values = np.concatenate([part["values"] for part in parts])
    draws = [
        (int(seat), int(hand), state, bool(first))
        for part in parts
        for seat, hand, state, first in zip(part["seats"], part["hands"], part["states"], part["first"], strict=True)
    ]
    weights = {name: baseline[name] for name in _opponent_bot.LEARNED if name not in ("draw_margin", "gin_draw_margin")}
    scores = draw_scores(draws, weights)
    even = np.arange(len(values)) % 2 == 0
    margins = np.round(np.arange(-5.0, 5.01, 0.25), 2)
    fits = [draw_regret(values[even], scores[even], margin) for margin in margins]
    chosen = float(margins[int(np.nanargmin(fits))])
    held_out = {
        "positions": int((~even).sum()),
        "start": round(draw_regret(values[~even], scores[~even], baseline["gin_draw_margin"]), 4),
        "fitted": round(draw_regret(values[~even], scores[~even], chosen), 4),
    }
    return {"gin_draw_margin": chosen}, held_out


def collect_and_teach(hands: int, worlds: int, seed: int, spec: str, regime: str) -> dict[str, np.ndarray]:
    """One seed's table: :func:`collect` then :func:`teach` (a unit of work for one process)."""
    x, y, index, gin_only = teach(collect(hands, seed, spec, regime), worlds, seed, spec)
    return {"x": x, "y": y, "index": index, "gin_only": gin_only}


def joined(parts: list) -> tuple[np.ndarray, ...]:
    """(features, values, position index, gin-only) of several seeds' tables, their positions numbered on."""
    offsets = np.cumsum([0] + [int(part["index"].max()) + 1 if len(part["index"]) else 0 for part in parts])
    x, y, gin_only = (np.concatenate([part[key] for part in parts]) for key in ("x", "y", "gin_only"))
    index = np.concatenate([part["index"] + offset for part, offset in zip(parts, offsets, strict=False)])
    return x, y, index, gin_only


def fit_weights(
    table: dict[str, np.ndarray], baseline: dict[str, float], regime: str = "gin"
) -> tuple[dict[str, float], dict]:
    """The weights of ``regime`` fitted on its even positions from ``baseline``'s, each within its parameter's
    range: for ``'gin'`` the ``gin_`` ones (``gin_only`` folded in, so it is 1; value and reach count for
    nothing in such hands), for ``'knock'`` those of hands a knock can end (the deadwood's held at 1). With
    them, the held-out shortfall from the teacher's best on the odd positions, of the start and of the fit. The
    two share the teacher's best, so their difference is the mean value the fitted choices gain there; a noisy
    teacher makes it a weak check: the gate decides."""
    gin = regime == "gin"
    halves = np.arange(len(table["gin_only"])) % 2 == 0
    kind = table["gin_only"] if gin else ~table["gin_only"]
    start = weight_vector(baseline, gin_only=gin)
    vector = fit_ranking(table, halves & kind, start, fixed=(0, 5, 6) if gin else (0,))
    bounds = {parameter.name: (parameter.low, parameter.high) for parameter in _opponent_bot.PARAMETERS}
    if gin:
        fitted = {"gin_only": 1.0, **dict(zip(GIN_WEIGHTS, vector[1:5], strict=True))}
    else:
        fitted = dict(zip(FEATURES[1:], vector[1:], strict=True))
    fitted = {name: round(float(np.clip(value, *bounds[name])), 4) for name, value in fitted.items()}
    rows = ~halves & kind
    held_out = {
        "positions": int(rows.sum()),
        "start": round(regret(table, start, rows), 4),
        "fitted": round(regret(table, weight_vector({**baseline, **fitted}, gin), rows), 4),
    }
    return fitted, held_out


def write_round(path: Path, fitted: dict[str, float], record: dict) -> None:
    """Set the weights ``fitted`` in the data file ``path`` and append ``record`` (the command and its counts)
    to its ``player_teacher_rounds``: the file's weights are then ``train_discard``'s command followed by each
    round listed, in order."""
    data = json.loads(path.read_text(encoding="utf-8"))
    data["weights"] = {**data["weights"], **fitted}
    data["player_teacher_rounds"] = [*data.get("player_teacher_rounds", []), record]
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=600, help="hands played per seed to collect positions")
    parser.add_argument("--worlds", type=int, default=48, help="worlds per position (shared by its discards)")
    parser.add_argument("--seeds", default=str(DEFAULT_SEED), help="comma-separated seeds: one collection each")
    parser.add_argument("--workers", type=int, default=2, help="processes collecting and teaching the seeds")
    parser.add_argument(
        "--regime",
        choices=REGIMES,
        default="gin",
        help="what is fitted: the discard weights of hands only gin can end (gin) or of hands a knock can end "
        "(knock), or the draw's margin in hands only gin can end (gin_draw)",
    )
    parser.add_argument("--start", help="the bot's spec (default: opponent with the data file's weights, spelt out)")
    parser.add_argument("--save-data", type=Path, help="also save the teacher's table (.npz) for study")
    parser.add_argument(
        "--load-data", type=Path, action="append", help="fit tables saved before (repeatable) instead of collecting"
    )
    parser.add_argument("--write", action="store_true", help="set the fitted weights in the data file")
    parser.add_argument("--out", type=Path, default=_opponent_bot.DISCARD_MODEL, help="the data file --write sets")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    spec = args.start or _opponent_bot.spec_with(_opponent_bot.discard_weights(args.out))
    values = resolve(spec).values
    baseline = {name: float(values[name]) for name in _opponent_bot.LEARNED}
    seeds = [int(seed) for seed in args.seeds.split(",")]
    draws = args.regime == "gin_draw"
    if args.load_data:
        parts = [dict(np.load(path)) for path in args.load_data]
    else:
        n = len(seeds)
        with ProcessPoolExecutor(max_workers=args.workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            if draws:
                parts = list(pool.map(teach_draw_part, [args.hands] * n, [args.worlds] * n, seeds, [spec] * n))
            else:
                unit = functools.partial(collect_and_teach, regime=args.regime)
                parts = list(pool.map(unit, [args.hands] * n, [args.worlds] * n, seeds, [spec] * n))
    if draws:
        fitted, held_out = fit_gin_draw_margin(parts, baseline)
        counts = {"positions": sum(len(part["values"]) for part in parts)}
        saved = {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}
    else:
        x, y, index, gin_only = joined(parts)
        fitted, held_out = fit_weights(as_table(x, y, index, gin_only), baseline, args.regime)
        counts = {"positions": int(index.max()) + 1 if len(index) else 0, "discards": len(y)}
        saved = {"x": x, "y": y, "index": index, "gin_only": gin_only}
    if args.save_data:
        np.savez(args.save_data, **saved)
    record = {
        "regime": args.regime,
        "command": f"python -m simgin.tools.teach_players --hands {args.hands} --worlds {args.worlds} "
        f"--seeds {args.seeds}" + (f" --regime {args.regime}" if args.regime != "gin" else "") + " --write",
        **counts,
        "held_out_regret": held_out,
        "weights": fitted,
    }
    print(json.dumps({**record, "spec": _opponent_bot.spec_with({**baseline, **fitted})}, indent=2))
    print(f"{time.perf_counter() - started:.0f} s")
    if args.write and not args.load_data:
        write_round(args.out, fitted, record)
        print(f"written {args.out}")


if __name__ == "__main__":
    main()

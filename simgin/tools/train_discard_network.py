"""Fit a discard network of ``opponent`` (issue 37, ``kernels.discard_network``) to a search teacher, and write it.

``simgin.tools.train_discard`` fits the linear discard score to a playout teacher; a second round on the bot's
own play did not move it. This tool keeps that score and learns a correction to it with more capacity: one
hidden layer of ``tanh`` units over the inputs the score already has (``kernels.discard_network.INPUTS``).
There are two networks, one per regime (``--regime``), each with its own file and teacher:

1. **Positions**: every discard of the shipped ``opponent`` with the network off (``discard_network=0``) in
   ``--hands`` hands per seed, in hands a knock can end (R12; those only gin can end keep their own weights, V1,
   V9). ``knock``: against itself and ``simple``, under rules drawn across the switches as
   ``train_discard.collect`` draws them. ``undercut``: under rules with an undercut bonus above 10 (R19, V2;
   :func:`undercut_rules`: the eaai and modern presets half the time), against itself, ``simple`` and itself
   knocking only with gin (:data:`UNDERCUT_OTHERS`), as the EAAI entries that race for gin play. Each seed is
   collected and taught in a process of its own.
2. **The teacher**: ``knock``: ``train_discard``'s, every legal discard valued by ``--worlds`` playouts in shared
   worlds drawn from the bot's estimate, both players knocking as soon as they may. ``undercut``: the players
   teacher of ``simgin.tools.teach_players`` (``kernels.continuation``), the hand played on after the discard by
   the two seats' own bots in ``--worlds`` worlds, because playouts that knock at once misjudge a hand under a
   rule that punishes a knock into an undercut. Each result is worth what it is in the game
   (``kernels.payoff.result_value``); each discard's inputs and the bot's own score are recorded.
3. **The fit**: the network's term is added to the bot's score, and its weights maximise the teacher's mean value
   of a soft choice among each position's discards (a softmax of minus the scores over 0.5 points, each
   position's values centred), by full-batch Adam from a zero output (the bot's own choice); the even positions
   fit, the odd ones check: the file records how far the discard chosen falls short of the teacher's best on
   them, with and without the network (``held_out_regret``).

Each network then plays only in its regime's hands (``kernels.heuristic.network_of``), where it was gated. The
same command writes the same file: every draw comes from the seeds, and the fit's start from a fixed generator.

Run from the repository root::

    python -m simgin.tools.train_discard_network --hands 2500 --worlds 128 --seeds 101,102 --write  # the shipped file
    python -m simgin.tools.train_discard_network --hands 600 --worlds 48 --seeds 201,202,203,204 \\
        --regime undercut --write                                                          # its second file, 23 min
    python -m simgin.tools.train_discard_network --hands 20 --worlds 8 --seeds 1,2 --steps 50     # a smoke test
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from pathlib import Path

import numpy as np
from numba import njit

from simgin.game.reference_engine import play_hand
from simgin.game.rng import SplitMix64, derive
from simgin.game.rules import Rules
from simgin.kernels import (
    discard_network as network,
    heuristic as _heuristic,
    knock as _knock,
    rule_index as ri,
    view as v,
)
from simgin.kernels.analysis import MAX_ACTIONS
from simgin.kernels.melds import SUIT_DEADWOOD, discard_deadwoods
from simgin.players.registry import resolve
from simgin.strategies import opponent as _opponent_bot
from simgin.tools.teach_players import discard_values
from simgin.tools.train_discard import (
    TEACHER_PARAMETERS,
    _Collector,
    _seat_rows,
    _teacher_estimate,
    collect,
    draw_rules,
    playout_values,
)

#: The soft choice's temperature, in points (``train_discard.fit_ranking``'s).
TEMPERATURE = 0.5
#: Columns of a taught discard: the network's inputs, then the bot's own score.
COLUMNS = network.INPUT_COUNT + 1


def collecting_spec(network_on: bool = False) -> str:
    """The bot whose discards are collected and taught: the shipped ``opponent`` with the network off, or with
    ``network_on`` as it is shipped (a further round, ``--network-on``)."""
    if network_on:
        return "opponent"
    return _opponent_bot.spec_with({**_opponent_bot.discard_weights(), "discard_network": 0.0})


@njit(cache=False)
def _discard_rows(params, teacher, seat, hand, table, ints, floats, rows, cards):
    """Fill ``rows`` (the inputs and the bot's score of each legal discard) and ``cards`` (the discards, in card
    order); (the count, the cards known to be the opponent's, the unseen cards, the teacher's parameters and
    memory)."""
    p = np.empty(52)
    live = np.empty(52)
    risk = np.empty(52)
    work = np.empty(52, np.int64)
    rules = table[v.T_RULES : v.T_RULES + ri.RULE_COUNT]
    bot = params
    known, unseen, params, floats = _teacher_estimate(
        True, params, teacher, seat, hand, table, ints, floats, p, live, risk
    )
    banned = -1
    if table[v.T_FROM_PILE] != 0 and rules[ri.REDISCARD] == 0:
        banned = table[v.T_DRAWN]
    limit = table[v.T_KNOCK_LIMIT]
    share = _heuristic.stage(table)
    outs_weight = _heuristic.gin_outs_weight(bot, rules)
    weight_potential, weight_safety, gin_only = _heuristic.discard_weights(bot, share, limit)
    discard_deadwoods(hand, SUIT_DEADWOOD, work)
    count = 0
    for c in range(52):
        if not (hand >> c) & 1 or c == banned:
            continue
        left = work[c]
        gin_outs = 0.0
        if outs_weight != 0.0 and 0 < left <= _heuristic.OUTS_DEADWOOD:
            gin_outs = _knock.gin_outs(hand & ~(1 << c), unseen, live, SUIT_DEADWOOD)
        potential = _heuristic.potential(hand, c, live)
        score = _heuristic.score_of_potential(
            bot, c, left, potential, risk, weight_potential, weight_safety, gin_only, limit
        )
        rows[count, 0] = left
        rows[count, 1] = potential
        rows[count, 2] = risk[c]
        rows[count, 3] = share
        rows[count, 4] = min(c % 13 + 1, 10)
        rows[count, 5] = 1.0 if limit > 0 and left <= limit else 0.0
        rows[count, 6] = 1.0 if left == 0 else 0.0
        rows[count, 7] = gin_outs
        rows[count, 8] = limit / 10.0
        rows[count, 9] = score - outs_weight * gin_outs
        cards[count] = c
        count += 1
    return count, known, unseen, params, floats


@njit(cache=False)
def _teach(params, teacher, seat, hand, table, ints, floats, rng, worlds, rows, values):
    """Fill ``rows`` (:func:`_discard_rows`) and ``values`` (the playout teacher's mean value of each discard);
    the count."""
    cards = np.empty(11, np.int64)
    work = np.empty(52, np.int64)
    rules = table[v.T_RULES : v.T_RULES + ri.RULE_COUNT]
    count, known, unseen, params, floats = _discard_rows(params, teacher, seat, hand, table, ints, floats, rows, cards)
    playout_values(seat, hand, table, rules, known, unseen, floats, params, rng, worlds, cards, count, work, values)
    return count


def collect_and_teach(hands: int, worlds: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, values, position index) of every legal discard of the positions of one seed in hands a knock can end."""
    positions = collect(hands, seed, collecting_spec())
    taught, values, index = [], [], []
    rows = np.zeros((11, COLUMNS))
    out = np.zeros(11)
    for n, (seat, hand, state) in enumerate(positions):
        if state[v.T_KNOCK_LIMIT] == 0:
            continue
        params, ints, floats = _seat_rows(seat, state)
        rng = np.array([np.uint64(SplitMix64(derive(seed, n)).state)], dtype=np.uint64)
        count = _teach(params, TEACHER_PARAMETERS, seat, hand, state, ints, floats, rng, worlds, rows, out)
        taught.append(rows[:count].copy())
        values.append(out[:count].copy())
        index.extend([n] * count)
    return np.concatenate(taught), np.concatenate(values), np.array(index)


#: The other seat's bots in the undercut regime's hands, in turn: the bot itself, ``simple`` (knocks at once) and
#: the bot knocking only with gin, as the EAAI entries that race for gin play; like the bot (``collecting_spec``),
#: with the network off, so that the teacher does not depend on the network it teaches.
UNDERCUT_OTHERS = (None, "simple", "opponent:knock=0,knock_late=0,discard_network=0")
#: The same with the network on, for a further round (``--network-on``): the stand-in plays as the bot does.
UNDERCUT_OTHERS_NETWORK_ON = (None, "simple", "opponent:knock=0,knock_late=0")


def undercut_rules(chance: np.random.Generator) -> Rules:
    """Rules of the undercut regime (an undercut bonus above ``heuristic.NETWORK_UNDERCUT_BONUS``, R19, V2; a knock
    limit above 0, R12): half the time the eaai or the modern preset, else ``train_discard.draw_rules`` with a
    larger bonus and a limit drawn again (no Hollywood or Oklahoma, whose presets keep a bonus of 10)."""
    if chance.random() < 0.5:
        return Rules.preset("eaai" if chance.random() < 0.6 else "modern")
    return draw_rules(chance).with_settings(
        {
            "knock_limit": int(chance.choice([3, 5, 7, 8, 9, 10, 10, 10])),
            "undercut_bonus": int(chance.choice([15, 20, 25, 25, 30])),
            "hollywood": False,
            "oklahoma": False,
            "oklahoma_ace_gin_only": False,
        }
    )


def collect_undercut(hands: int, seed: int, spec: str, others: tuple = UNDERCUT_OTHERS) -> list:
    """(seat, hand mask, kernel state, other seat's spec) of every discard of ``spec`` in ``hands`` hands of the
    undercut regime (:func:`undercut_rules`) against :data:`UNDERCUT_OTHERS` in turn, seats swapped every three
    hands, in hands a knock can end."""
    positions: list = []
    chance = np.random.default_rng(seed)
    for i in range(hands):
        rules = undercut_rules(chance)
        scores = tuple(int(chance.integers(0, rules.target * 0.9)) for _ in range(2))
        other_spec = others[i % 3] or spec
        found: list = []
        mine = _Collector(found, spec)
        other = resolve(other_spec).make()
        players = (mine, other) if (i // 3) % 2 == 0 else (other, mine)
        play_hand(players, rules, hand_seed=derive(seed, i), dealer=i % 2, scores=scores)
        positions.extend((seat, hand, state, other_spec) for seat, hand, state in found if state[v.T_KNOCK_LIMIT] > 0)
    return positions


def teach_undercut(
    hands: int, worlds: int, seed: int, network_on: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(rows, values, position index) of every legal discard of one seed's positions of the undercut regime, each
    value the mean over ``worlds`` worlds of the hand played on by the two seats' own bots after the discard
    (``kernels.continuation``, the ``players`` teacher of ``simgin.tools.teach_players``)."""
    spec = collecting_spec(network_on)
    others = UNDERCUT_OTHERS_NETWORK_ON if network_on else UNDERCUT_OTHERS
    taught, values_out, index = [], [], []
    rows = np.zeros((11, COLUMNS))
    cards = np.zeros(11, np.int64)
    scratch = np.zeros(MAX_ACTIONS, np.int64), np.zeros((worlds, MAX_ACTIONS))
    for n, (seat, hand, state, other_spec) in enumerate(collect_undercut(hands, seed, spec, others)):
        params, ints, floats = _seat_rows(seat, state)
        count = _discard_rows(params, TEACHER_PARAMETERS, seat, hand, state, ints, floats, rows, cards)[0]
        taught.append(rows[:count].copy())
        values_out.append(discard_values(spec, other_spec, seat, hand, state, worlds, seed, n, cards[:count], *scratch))
        index.extend([n] * count)
    return np.concatenate(taught), np.concatenate(values_out), np.array(index)


def as_positions(parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> dict[str, np.ndarray]:
    """The seeds' discards as padded arrays by position: rows (P, 11, COLUMNS), values (P, 11), legal (P, 11)."""
    rows = np.concatenate([part[0] for part in parts])
    values = np.concatenate([part[1] for part in parts])
    indexes, offset = [], 0
    for _, _, index in parts:
        indexes.append(index + offset)
        offset = int(indexes[-1].max()) + 1
    _, position = np.unique(np.concatenate(indexes), return_inverse=True)
    slot = np.zeros(len(position), np.int64)
    starts = np.r_[0, np.flatnonzero(np.diff(position)) + 1]
    for a, b in zip(starts, np.r_[starts[1:], len(position)], strict=True):
        slot[a:b] = np.arange(b - a)
    count = int(position.max()) + 1
    table = {
        "rows": np.zeros((count, 11, COLUMNS)),
        "value": np.zeros((count, 11)),
        "legal": np.zeros((count, 11), bool),
    }
    table["rows"][position, slot] = rows
    table["value"][position, slot] = values
    table["legal"][position, slot] = True
    return table


def scores(table: dict[str, np.ndarray], net: dict[str, np.ndarray] | None) -> np.ndarray:
    """Each discard's score: the bot's own, plus the network's term (none with ``net`` None)."""
    own = table["rows"][..., -1]
    if net is None:
        return own
    return own + network.correction_reference(table["rows"][..., :-1], net)


def regret(table: dict[str, np.ndarray], score: np.ndarray) -> float:
    """Mean points per position by which the discard of lowest score falls short of the teacher's best."""
    chosen = np.where(table["legal"], score, np.inf).argmin(axis=1)
    values = np.where(table["legal"], table["value"], -np.inf)
    return float((values.max(axis=1) - values[np.arange(len(chosen)), chosen]).mean())


def subset(table: dict[str, np.ndarray], rows: np.ndarray) -> dict[str, np.ndarray]:
    return {name: array[rows] for name, array in table.items()}


def fit(
    table: dict[str, np.ndarray],
    mean: np.ndarray,
    scale: np.ndarray,
    units: int,
    steps: int,
    seed: int,
    rate: float = 0.01,
    decay: float = 1e-4,
) -> dict[str, np.ndarray]:
    """The network whose term, added to the bot's score, maximises the teacher's mean value of a soft choice
    (temperature :data:`TEMPERATURE`) among each position's discards: full-batch Adam over ``steps`` from hidden
    weights drawn from ``seed`` and a zero output, with ``decay`` times each weight pulling it towards 0."""
    chance = np.random.default_rng(seed)
    net = {
        "mean": mean,
        "scale": scale,
        "hidden": chance.normal(0.0, 0.5, (network.INPUT_COUNT, units)),
        "bias": chance.normal(0.0, 0.5, units),
        "out": np.zeros(units),
        "linear": np.zeros(network.INPUT_COUNT),
    }
    trained = ("hidden", "bias", "out", "linear")
    legal = table["legal"]
    inputs = (table["rows"][..., :-1] - mean) / scale
    own = table["rows"][..., -1]
    values = np.where(legal, table["value"], 0.0)
    centred = np.where(legal, values - values.sum(axis=1, keepdims=True) / legal.sum(axis=1, keepdims=True), 0.0)
    first = {name: np.zeros_like(net[name]) for name in trained}
    second = {name: np.zeros_like(net[name]) for name in trained}
    positions = len(legal)
    for step in range(1, steps + 1):
        hidden = np.tanh(inputs @ net["hidden"] + net["bias"])
        score = np.where(legal, own + hidden @ net["out"] + inputs @ net["linear"], np.inf)
        soft = np.where(legal, np.exp(-(score - score.min(axis=1, keepdims=True)) / TEMPERATURE), 0.0)
        soft /= soft.sum(axis=1, keepdims=True)
        expected = (soft * centred).sum(axis=1, keepdims=True)
        # The loss is minus the soft choice's mean value; its derivative by each discard's score:
        by_score = np.where(legal, soft * (centred - expected) / (TEMPERATURE * positions), 0.0)
        by_unit = by_score[..., None] * net["out"] * (1.0 - hidden**2)
        gradient = {
            "linear": np.einsum("pi,pik->k", by_score, inputs),
            "out": np.einsum("pi,pij->j", by_score, hidden),
            "hidden": np.einsum("pik,pij->kj", inputs, by_unit),
            "bias": by_unit.sum(axis=(0, 1)),
        }
        for name in trained:
            g = gradient[name] + decay * net[name]
            first[name] = 0.9 * first[name] + 0.1 * g
            second[name] = 0.999 * second[name] + 0.001 * g**2
            net[name] = net[name] - rate * (first[name] / (1 - 0.9**step)) / (
                np.sqrt(second[name] / (1 - 0.999**step)) + 1e-8
            )
    return net


#: What each regime's file holds, as its ``what`` says.
WHAT = (
    "the discard network of the opponent bot, a correction to its discard score fitted to a search "
    "teacher (simgin/tools/train_discard_network.py)",
    "the discard network of the opponent bot in hands with an undercut bonus above 10, a correction to its discard "
    "score fitted to the players teacher (simgin/tools/train_discard_network.py --regime undercut)",
)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2500, help="hands played per seed to collect positions")
    parser.add_argument("--worlds", type=int, default=128, help="worlds per position (shared by its discards)")
    parser.add_argument("--seeds", default="101,102", help="comma-separated seeds: one collection each")
    parser.add_argument("--workers", type=int, default=2, help="processes collecting and teaching the seeds")
    parser.add_argument("--units", type=int, default=8, help="tanh units of the hidden layer")
    parser.add_argument("--steps", type=int, default=1500, help="steps of the fit")
    parser.add_argument(
        "--regime",
        choices=network.REGIMES,
        default="knock",
        help="knock: hands with an undercut bonus of at most 10, the playout teacher; undercut: a larger bonus, the "
        "players teacher",
    )
    parser.add_argument(
        "--network-on",
        action="store_true",
        help="undercut regime: collect and teach with the bot and its stand-in as shipped, network on (a further "
        "round: the file then depends on the network shipped when it runs)",
    )
    parser.add_argument("--write", action="store_true", help="write the regime's weights file")
    parser.add_argument("--out", type=Path, help="where --write writes it (default: the regime's file)")
    args = parser.parse_args(argv)
    regime = network.REGIMES.index(args.regime)
    out = args.out or network.WEIGHTS_FILES[regime]
    if args.network_on and regime == network.LOW_UNDERCUT:
        parser.error("--network-on: only with --regime undercut (the knock regime's teacher plays no bot)")
    teach = collect_and_teach if regime == network.LOW_UNDERCUT else partial(teach_undercut, network_on=args.network_on)
    seeds = [int(seed) for seed in args.seeds.split(",")]
    started = time.time()
    n = len(seeds)
    with ProcessPoolExecutor(max_workers=args.workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        parts = list(pool.map(teach, [args.hands] * n, [args.worlds] * n, seeds))
    table = as_positions(parts)
    legal_rows = table["rows"][table["legal"]][:, :-1]
    mean, scale = legal_rows.mean(axis=0), legal_rows.std(axis=0) + 1e-9
    even = np.arange(len(table["legal"])) % 2 == 0  # even positions fit, odd ones check
    net = fit(subset(table, even), mean, scale, args.units, args.steps, seed=0)
    held_out = subset(table, ~even)
    data = {
        "format": network.WEIGHTS_FORMAT,
        "what": WHAT[regime],
        "command": f"python -m simgin.tools.train_discard_network --hands {args.hands} --worlds {args.worlds} "
        f"--seeds {args.seeds} --units {args.units} --steps {args.steps}"
        + (" --regime undercut" if regime == network.HIGH_UNDERCUT else "")
        + (" --network-on" if args.network_on else "")
        + " --write",
        "positions": len(table["legal"]),
        "discards": int(table["legal"].sum()),
        "held_out_regret": {
            "positions": int((~even).sum()),
            "without": round(regret(held_out, scores(held_out, None)), 4),
            "with": round(regret(held_out, scores(held_out, net)), 4),
        },
        "inputs": list(network.INPUTS),
        "network": {name: net[name].tolist() for name in network.NETWORK_KEYS},
    }
    print(json.dumps({key: value for key, value in data.items() if key != "network"}, indent=2))
    print(f"{time.time() - started:.0f} s")
    if args.write:
        out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"written {out}")


if __name__ == "__main__":
    main()

"""Play hands and games between two resolved players: the numba kernels when both are compiled bots, else the
plain-Python reference engine (compiled bots joining through their adapter).

``players`` are two :class:`~simgin.game.strategy.Seat` objects, players already resolved
(:func:`simgin.players.registry.resolve`); to name them by spec (``'simple'``, ``'heuristic:knock=7'``,
``'exec:...'``) use :mod:`simgin.running.engine`, which resolves the names and calls this module. Either way the
rows have the columns of docs/ENGINE.md's hand and game records (``kernels.engine.HAND_FIELDS`` / ``GAME_FIELDS``),
and the same seeds always give the same rows.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from simgin.game import reference_engine as _ref
from simgin.game.luck import luck_of_moves, luck_value
from simgin.game.rng import derive_range
from simgin.game.rules import Rules
from simgin.game.strategy import Seat
from simgin.kernels import bots as _bots, engine as _k, luck as _luck, run_kernel
from simgin.kernels.melds import SUIT_DEADWOOD
from simgin.kernels.showdown import SUIT_VALUE

COMPILED_BOTS = _bots.BOT_NAMES
MAX_TURNS = _k.MAX_TURNS
MAX_HANDS_PER_GAME = _k.MAX_HANDS_PER_GAME
_ERRORS = {
    _k.ERROR_DISCARD_NOT_HELD: "discarded a card it does not hold",
    _k.ERROR_REDISCARD: "discarded the card just taken from the pile (R10)",
    _k.ERROR_FIFTIETH_OVER_LIMIT: "took the 50th card but its discard leaves more than the knock limit (V7)",
}

#: A strategy broke a rule or answered with a wrong type; the message names the strategy (its
#: spec), the decision and the hand seed. The same class for both engines.
IllegalDecision = _ref.IllegalDecision
#: The part of :data:`IllegalDecision` that ``--on-illegal forfeit`` forfeits: an illegal move (not
#: a strategy that raised, nor a program that crashed or timed out).
IllegalMove = _ref.IllegalMove


@dataclass(frozen=True)
class HandForfeit:
    """Where an illegal move forfeited a hand (``forfeits`` of :func:`play_hand_rows` and
    :func:`play_game_rows`): enough to replay the hand with ``simgin replay``."""

    unit: int
    """The index of the hand (or game) in the seeds given."""
    deal: int
    """The deal within its game (redeals after dead hands counted); 0 for an independent hand."""
    seat: int
    """The seat that made the illegal move and lost."""
    hand_seed: int
    dealer: int
    scores: tuple[int, int]
    """Game scores by seat when the hand was dealt (0, 0 for an independent hand)."""
    decision: str
    error: str
    """The one-line message that ``--on-illegal stop`` would have stopped with."""


def _hand_forfeit(record: _ref.HandRecord, unit: int, deal: int, hand_seed: int) -> HandForfeit:
    move = record.moves[-1]
    assert isinstance(move, _ref.Forfeit)
    return HandForfeit(unit, deal, move.seat, hand_seed, record.dealer, move.scores, move.decision, move.reason)


def _refuse_specs(players: Sequence[Seat]) -> None:
    """A spec (a string) where a resolved player belongs is a TypeError that says where specs are played."""
    for player in players:
        if isinstance(player, str):
            raise TypeError(
                f"player {player!r} is a spec: resolve it first (simgin.players.registry.resolve), or play specs "
                "with simgin.running.engine"
            )


def seated(players: Sequence[Seat]) -> tuple[Seat, Seat]:
    """The two resolved players of a pairing, checked."""
    if isinstance(players, str) or len(players) != 2:
        raise ValueError(f"players must be 2 resolved players, got {players!r}")
    _refuse_specs(players)
    return players[0], players[1]


def compiled_arrays(players: Sequence[Seat]) -> tuple[np.ndarray, np.ndarray]:
    """Kernel ids and parameter vectors of resolved players, for kernels that seat them directly.

    A plain-Python strategy or a program is a ValueError: it cannot sit in a numba kernel.
    """
    _refuse_specs(players)
    for player in players:
        if not player.compiled:
            what = "a program" if player.kind == "program" else "plain Python"
            raise ValueError(
                f"strategy {player.spec!r} is {what}; only compiled strategies play here: {', '.join(COMPILED_BOTS)}"
            )
    ids = np.array([player.bot_id for player in players], dtype=np.int64)
    return ids, np.stack([player.vector() for player in players])


def hand_seeds(seed: int, hand_count: int) -> np.ndarray:
    """The hand seeds of a batch: hand i uses ``derive(seed, i)`` (see docs/ENGINE.md)."""
    return derive_range(seed, 0, hand_count)


def _kernel_error(pair: tuple[Seat, ...], code: int, seat: int, hand_seed: int, where: str) -> IllegalDecision:
    return IllegalDecision(
        f"strategy {pair[seat].spec!r} (seat {seat}) made an illegal 'discard' decision: {_ERRORS[code]} "
        f"(hand seed {hand_seed}{where})"
    )


def _hand_row(record: _ref.HandRecord) -> list[int]:
    return [int(getattr(record, name)) for name in _k.HAND_FIELDS]


def play_hand_rows(
    players: Sequence[Seat],
    rules: Rules,
    seeds: np.ndarray,
    dealers: np.ndarray,
    forfeits: list[HandForfeit] | None = None,
    luck: np.ndarray | None = None,
) -> np.ndarray:
    """Raw hand rows (int64, columns ``kernels.engine.HAND_FIELDS``) for explicit hand seeds and dealers; given
    ``luck`` (float64, one row of ``kernels.luck.LUCK_FIELDS`` per hand), each hand's luck corrections go into it
    (issue 35: ``simgin.game.luck``).

    Each hand starts from game scores 0. Independent hands belong to no game, so the switches
    of game scoring (``Rules.overridden(games=False)``: target, bonuses of the game, Hollywood)
    are played at their standard values: a bot that values a result in its game (``heuristic``,
    ``opponent``, ``mcts``) values it as at the start of a standard game, and such a switch
    truly has no effect. Raises :class:`IllegalDecision` when a strategy breaks a rule. Given
    a ``forfeits`` list (``--on-illegal forfeit``), an illegal move (:class:`IllegalMove`) loses
    the hand instead: its row has kind ``forfeit``, the other seat as winner and 0 points, and a
    :class:`HandForfeit` is appended to the list.
    """
    pair = seated(players)
    rules = rules.effective("pairs", games=False)
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    dealers = np.ascontiguousarray(dealers, dtype=np.int64)
    if seeds.ndim != 1 or seeds.shape != dealers.shape:
        raise ValueError(f"seeds and dealers must be 1-d and of one length, got shapes {seeds.shape}, {dealers.shape}")
    if np.any((dealers != 0) & (dealers != 1)):
        raise ValueError("dealers must be seats 0 or 1")
    rows = np.zeros((seeds.shape[0], _k.HAND_FIELD_COUNT), dtype=np.int64)
    if luck is not None and luck.shape != (seeds.shape[0], _luck.LUCK_FIELDS):
        raise ValueError(f"luck must have shape {(seeds.shape[0], _luck.LUCK_FIELDS)}, got {luck.shape}")
    if not (pair[0].compiled and pair[1].compiled):
        _reference_hands(pair, rules, seeds, dealers, range(seeds.shape[0]), rows, forfeits, luck)
        return rows
    errors = np.zeros(seeds.shape[0], dtype=np.int64)
    ids, params = compiled_arrays(pair)
    shared = (rules.to_array(), ids, params, SUIT_DEADWOOD, SUIT_VALUE)
    if luck is None:
        value, corrections = np.zeros((1, 1, 1, 1)), np.zeros((0, _luck.LUCK_FIELDS))
        per_hand: tuple = (seeds, dealers, rows, errors)
    else:
        value, corrections = luck_value().array(), luck
        per_hand = (seeds, dealers, rows, errors, corrections)
    run_kernel(
        _k.play_hands_batch, seeds, dealers, *shared, rows, errors, _bots.seat_policies(ids), value, corrections,
        rows=per_hand,
    )  # fmt: skip
    bad = np.flatnonzero(errors)
    if bad.size and forfeits is None:
        i = int(bad[0])
        seat = int(rows[i, _k.H_WINNER])
        raise _kernel_error(pair, int(errors[i]), seat, int(seeds[i]), f", dealer {int(dealers[i])}")
    if bad.size:  # the Python engine plays the same hands move for move, and forfeits them
        _reference_hands(pair, rules, seeds, dealers, [int(i) for i in bad], rows, forfeits, luck)
    return rows


def _reference_hands(
    pair: tuple[Seat, ...],
    rules: Rules,
    seeds: np.ndarray,
    dealers: np.ndarray,
    indices: Sequence[int],
    rows: np.ndarray,
    forfeits: list[HandForfeit] | None,
    luck: np.ndarray | None = None,
) -> None:
    """Play hands ``indices`` in the Python engine into ``rows`` (and their luck corrections into ``luck``, when
    given), fresh strategies for each hand."""
    names = (pair[0].spec, pair[1].spec)
    value = luck_value().array() if luck is not None else None
    for i in indices:
        strategies = (pair[0].make(), pair[1].make())
        seed = int(seeds[i])
        record = _ref.play_hand(strategies, rules, seed, int(dealers[i]), names=names, forfeit=forfeits is not None)
        rows[i] = _hand_row(record)
        if luck is not None and value is not None:
            luck[i] = luck_of_moves(record.moves, record.knock_limit, record.multiplier, value)
        if forfeits is not None and record.kind == _ref.Outcome.FORFEIT:
            forfeits.append(_hand_forfeit(record, i, 0, seed))


def play_game_rows(
    players: Sequence[Seat],
    rules: Rules,
    seeds: np.ndarray,
    hand_capacity: int = 64,
    forfeits: list[HandForfeit] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Raw game rows (columns ``kernels.engine.GAME_FIELDS``) for explicit game seeds.

    Returns (games, hand rows of shape (games, capacity, fields), deals per game); the
    capacity grows until every game's deals fit. Given a ``forfeits`` list (``--on-illegal
    forfeit``), an illegal move loses the game in progress (:meth:`Scoreboard.forfeit
    <simgin.game.reference_engine.Scoreboard.forfeit>`) and a :class:`HandForfeit` is appended;
    without, it raises :class:`IllegalDecision`.
    """
    pair = seated(players)
    seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
    if seeds.ndim != 1:
        raise ValueError(f"seeds must be 1-d, got shape {seeds.shape}")
    if not (pair[0].compiled and pair[1].compiled):
        return _reference_games(pair, rules, seeds, hand_capacity, forfeits)
    game_count = seeds.shape[0]
    ids, params = compiled_arrays(pair)
    while True:
        games = np.zeros((game_count, _k.GAME_FIELD_COUNT), dtype=np.int64)
        rows = np.zeros((game_count, hand_capacity, _k.HAND_FIELD_COUNT), dtype=np.int64)
        counts = np.zeros(game_count, dtype=np.int64)
        errors = np.zeros((game_count, 3), dtype=np.int64)
        shared = (rules.to_array(), ids, params, SUIT_DEADWOOD, SUIT_VALUE)
        per_game = (games, rows, counts, errors)
        policies = _bots.seat_policies(ids)
        run_kernel(_k.play_games_batch, seeds, *shared, *per_game, policies, rows=(seeds, *per_game))
        bad = np.flatnonzero(errors[:, 0])
        if bad.size and forfeits is None:
            i = int(bad[0])
            hand_seed = int(np.int64(errors[i, 1]).view(np.uint64))
            raise _kernel_error(pair, int(errors[i, 0]), int(errors[i, 2]), hand_seed, f", game seed {int(seeds[i])}")
        if bad.size:  # the Python engine plays the same games move for move, and forfeits them
            assert forfeits is not None
            found: list[HandForfeit] = []
            again, again_rows, again_counts = _reference_games(pair, rules, seeds[bad], hand_capacity, found)
            counts[bad] = again_counts
            if counts.max() <= hand_capacity:  # else the loop plays them all again with room for every deal
                games[bad] = again
                rows[bad] = again_rows
                forfeits.extend(dataclasses.replace(f, unit=int(bad[f.unit])) for f in found)
        if game_count == 0 or counts.max() <= hand_capacity:
            return games, rows, counts
        hand_capacity = int(counts.max())


def game_hands(rows: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The hands of a batch of games in play order, and the game of each hand.

    ``rows`` is the (games, capacity, fields) buffer and ``counts`` the deals per game, as
    :func:`play_game_rows` returns them (and the table kernels write them).
    """
    counts = np.asarray(counts, dtype=np.int64)
    game = np.repeat(np.arange(counts.shape[0]), counts)
    within = np.arange(game.shape[0]) - np.repeat(np.cumsum(counts) - counts, counts)
    return rows[game, within], game


def _reference_games(
    pair: tuple[Seat, ...],
    rules: Rules,
    seeds: np.ndarray,
    hand_capacity: int,
    forfeits: list[HandForfeit] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``play_game_rows`` in the plain-Python reference engine, with fresh strategies for each game."""
    names = (pair[0].spec, pair[1].spec)
    forfeit = forfeits is not None
    records = [
        _ref.play_game((pair[0].make(), pair[1].make()), rules, int(seed), names=names, forfeit=forfeit)
        for seed in seeds
    ]
    capacity = max([hand_capacity, *(record.hands for record in records)])
    games = np.zeros((len(records), _k.GAME_FIELD_COUNT), dtype=np.int64)
    rows = np.zeros((len(records), capacity, _k.HAND_FIELD_COUNT), dtype=np.int64)
    counts = np.zeros(len(records), dtype=np.int64)
    for i, record in enumerate(records):
        games[i] = [
            record.first_dealer,
            record.winner,
            record.margin,
            *record.scores,
            *record.boxes,
            *record.totals,
            record.hands,
            record.dead_hands,
            int(record.shutout),
            int(record.capped),
        ]
        counts[i] = record.hands
        for j, hand in enumerate(record.hand_records):
            rows[i, j] = _hand_row(hand)
        last = record.hand_records[-1]
        if forfeits is not None and last.kind == _ref.Outcome.FORFEIT:
            deal = record.hands - 1
            forfeits.append(_hand_forfeit(last, i, deal, _ref.hand_seed_of(int(seeds[i]), deal)))
    return games, rows, counts

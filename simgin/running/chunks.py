"""One chunk of a run played: its seeds, both legs of its duplicate deals, its tally, unit records, hand log
and forfeits, or a table's seatings (the job each worker runs, :func:`run_chunk`)."""

from __future__ import annotations

import dataclasses
import shlex
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from simgin.game.multiplayer import (
    Sums,
    seatings,
    table_unit_fields,
    table_unit_records,
    tally_table,
)
from simgin.game.rules import Rules
from simgin.kernels import engine as _k
from simgin.kernels.luck import LUCK_FIELDS, LUCK_POINTS, LUCK_WIN_0
from simgin.kernels.showdown import KIND_DEAD
from simgin.players import programs as process_strategy
from simgin.players.programs import ProgramSettings
from simgin.running import engine, hand_log as hand_log_format
from simgin.running.config import (
    Chunk,
    RunConfig,
    unit_seeds,
)
from simgin.running.engine import play_table_rows
from simgin.running.tally import (
    KNOCK_BINS,
    MAX_FORFEITS_KEPT,
    UNIT_FIELDS,
    UNIT_INDEX,
    Tally,
    game_margin,
    knock_unit_sums,
    net_points,
    seat_unit_sums,
    tally_games,
    tally_hands,
    tally_knock_units,
    tally_luck,
    tally_pairs,
    tally_seat_units,
    unit_layout,
    unit_records,
)

if TYPE_CHECKING:
    import pandas as pd

from simgin.running.errors import RunError


@dataclass
class ChunkResult:
    """What a worker sends back: the chunk, its tally and, on request, its hand rows and its unit records."""

    chunk: Chunk
    tally: Tally | Sums
    hand_log: pd.DataFrame | None = None
    seconds: float = 0.0
    units: np.ndarray | None = None
    """On request, one row of :data:`~simgin.running.tally.UNIT_FIELDS` per unit of the chunk (two-player runs)."""


#: Units of a chunk played as one job when a pairing has a slow strategy (a program or a plain-Python strategy,
#: hundreds of hands a second against a compiled bot's tens of thousands, or a compiled bot that searches at
#: every decision, ``mcts``, a few a second) and there are several workers: a chunk of 20,000 hands is then cut
#: into parts of this many units, so that every worker has work. Parts change which process plays a unit, never
#: its seed or dealer (issue 32 item 20).
SLOW_PART_UNITS = {"hands": 250, "games": 25}


def run_chunk(
    config: RunConfig,
    chunk: Chunk,
    hand_log: bool = False,
    programs: ProgramSettings | None = None,
    unit_records: bool = False,
    part: tuple[int, int] | None = None,
) -> ChunkResult:
    """Play one chunk and reduce it to a tally (pure: the same chunk always gives the same result).

    ``programs`` sets how ``exec:`` and ``eaai:`` strategies run here (time limit, stderr folder).
    With ``unit_records`` (two-player runs) the result also carries one record per unit
    (:func:`simgin.running.tally.unit_records`), for comparisons paired unit by unit across runs.
    ``part`` = (first, stop) plays only the chunk's units first to stop - 1 (two-player runs), each with the
    seed and dealer it has in the whole chunk; :func:`merge_parts` adds the parts up to the chunk's result.
    """
    process_strategy.configure(programs)
    start = time.perf_counter()
    if config.table != "pairs":
        sums, records = _table_chunk(config, chunk, unit_records)
        return ChunkResult(chunk, sums, None, time.perf_counter() - start, records)
    a_index, b_index = config.pairings[chunk.pairing_index]
    players = (config.players[a_index], config.players[b_index])
    first, stop = part if part is not None else (0, chunk.unit_count)
    if not 0 <= first < stop <= chunk.unit_count:
        raise ValueError(f"part={part}: the chunk has units 0-{chunk.unit_count - 1}")
    unit_count = stop - first
    seeds = unit_seeds(chunk, first, stop)
    legs = [(players, 0)]
    if config.duplicate:
        legs.append(((players[1], players[0]), 1))
    tally = Tally.zero()
    leg_scores: list[np.ndarray] = []
    leg_results: list[np.ndarray] = []
    logs: list[pd.DataFrame] = []
    forfeits: list[dict[str, Any]] = []
    width, dtype = unit_layout(config.adjust_luck)
    records = np.zeros((unit_count, width), dtype=dtype) if unit_records else None
    # A's net points, hands won and luck corrections of both per unit, both legs summed (adjust_luck, issue 35).
    luck_sums = np.zeros((5, unit_count)) if config.adjust_luck else None
    # The seat edge per unit, both legs summed (its intervals take the deal pair as the unit).
    seat_sums = np.zeros((4, unit_count))
    # The knocks and undercuts per unit, both legs summed (so are the undercut rates' intervals).
    knock_sums = np.zeros((2, len(KNOCK_BINS), 2, unit_count))
    net_sums = np.zeros(unit_count)  # A's net points per unit, both legs summed
    first_dealer_wins = np.zeros(unit_count) if config.mode == "games" else None
    for leg_players, seat_a_value in legs:
        found: list[engine.HandForfeit] | None = [] if config.on_illegal == "forfeit" else None
        try:
            if config.mode == "hands":
                dealers = np.arange(first, stop, dtype=np.int64) % 2
                luck = np.zeros((unit_count, LUCK_FIELDS)) if luck_sums is not None else None
                rows = engine.play_hand_rows(leg_players, config.rules, seeds, dealers, forfeits=found, luck=luck)
                unit_of_row = np.arange(unit_count)
                seat_a = np.full(rows.shape[0], seat_a_value)
                leg_scores.append(_leg_score(rows[:, _k.H_WINNER], seat_a_value))
                net_a = net_points(rows, seat_a)
                leg_results.append(net_a)
                if luck_sums is not None and luck is not None:
                    of_a = _luck_of_a(rows, luck, seat_a_value)
                    luck_sums += of_a
                    if records is not None:
                        records[:, UNIT_INDEX["luck_points_a"]] += of_a[1]
                        records[:, UNIT_INDEX["luck_hands_won_a"]] += of_a[3]
                        records[:, UNIT_INDEX["luck_hands_won_b"]] += of_a[4]
            else:
                games, game_rows, counts = engine.play_game_rows(leg_players, config.rules, seeds, forfeits=found)
                rows, unit_of_row = engine.game_hands(game_rows, counts)
                seat_a = np.full(rows.shape[0], seat_a_value)
                net_a = net_points(rows, seat_a)
                game_seat_a = np.full(games.shape[0], seat_a_value)
                tally = tally + tally_games(games, game_seat_a)
                first_dealer_wins += games[:, _k.G_WINNER] == games[:, _k.G_FIRST_DEALER]
                leg_scores.append(_leg_score(games[:, _k.G_WINNER], seat_a_value))
                leg_results.append(game_margin(games, game_seat_a))
        except engine.IllegalDecision as error:
            unit = "game" if config.mode == "games" else "hand"
            forfeit = f", or rerun with --on-illegal forfeit to let it lose that {unit} and play on"
            # A program that cannot start or shake hands fails whatever the hand: a replay cannot help.
            started = not isinstance(error.__cause__, process_strategy.ProgramStartError)
            raise RunError(
                f"{error} (pairing {players[0]} vs {players[1]}, leg {seat_a_value + 1}, chunk {chunk.chunk_index} "
                f"with chunk seed {chunk.seed})"
                + (f"; replay it with '{_stopped_replay(leg_players, config, error)}'" if started else "")
                + (forfeit if isinstance(error, engine.IllegalMove) else "")
            ) from None
        tally = tally + tally_hands(rows, seat_a, net_a)
        seat_sums += seat_unit_sums(rows, unit_of_row, unit_count)
        knock_sums += knock_unit_sums(rows, seat_a, unit_of_row, unit_count)
        net_sums += np.bincount(unit_of_row, weights=net_a.astype(np.float64), minlength=unit_count)
        for found_forfeit in found or ():
            found_forfeit = dataclasses.replace(found_forfeit, unit=found_forfeit.unit + first)
            forfeits.append(_forfeit_record(config, chunk, leg_players, seat_a_value, found_forfeit))
        if records is not None:
            in_games = config.mode == "games"
            played = games if in_games else None
            records[:, : len(UNIT_FIELDS)] += _unit_records(rows, unit_of_row, seat_a, unit_count, played, seat_a_value)
        if hand_log:
            units = unit_of_row + first + chunk.chunk_index * config.units_per_chunk
            hand_seeds = hand_log_format.hand_seeds(seeds, unit_of_row, games=config.mode == "games")
            logs.append(
                hand_log_format.frame(
                    rows, chunk.pairing_index, chunk.chunk_index, units, seat_a_value, seat_a, hand_seeds
                )
            )
    if config.duplicate:
        tally = tally + tally_pairs(leg_scores[0], leg_scores[1], leg_results[0], leg_results[1])
    tally = tally + tally_seat_units(seat_sums, first_dealer_wins, net_sums) + tally_knock_units(knock_sums)
    if luck_sums is not None:
        tally = tally + tally_luck(*luck_sums)
    log = None
    if hand_log:
        import pandas as pd

        log = pd.concat(logs, ignore_index=True)
    tally.forfeits = sorted(forfeits, key=lambda record: (record["unit"], record["leg"]))[:MAX_FORFEITS_KEPT]
    return ChunkResult(chunk, tally, log, time.perf_counter() - start, records)


def merge_parts(parts: Sequence[ChunkResult]) -> ChunkResult:
    """The result of a whole chunk from the results of its parts (:func:`run_chunk` with ``part``), given in
    unit order: the same tally, hand log and unit records as the chunk played in one piece (the tally's sums
    are of integers, so exact in any order; the hand log is put back in the chunk's order, leg by leg)."""
    tally = parts[0].tally
    for result in parts[1:]:
        tally = tally + result.tally
    log = None
    if parts[0].hand_log is not None:
        import pandas as pd

        log = pd.concat([result.hand_log for result in parts], ignore_index=True)
        log = log.sort_values(["leg", "unit"], kind="stable", ignore_index=True)
    units = None
    if parts[0].units is not None:
        units = np.concatenate([result.units for result in parts])
    return ChunkResult(parts[0].chunk, tally, log, sum(result.seconds for result in parts), units)


def chunk_parts(config: RunConfig, chunk: Chunk, workers: int) -> list[tuple[int, int] | None]:
    """How a chunk is played: whole (``[None]``), or, with several workers and a pairing that has a slow
    strategy (not compiled, or a compiled bot that searches), in parts of :data:`SLOW_PART_UNITS` units, so that
    every worker has work."""
    if workers <= 1 or config.table != "pairs" or _pairing_fast(config, chunk.pairing_index):
        return [None]
    size = SLOW_PART_UNITS[config.mode]
    if chunk.unit_count <= size:
        return [None]
    return [(first, min(first + size, chunk.unit_count)) for first in range(0, chunk.unit_count, size)]


def _pairing_fast(config: RunConfig, pairing_index: int) -> bool:
    """Whether both strategies of a pairing are compiled bots that do not search (a spec that does not resolve
    counts as fast: the run reports it)."""
    from simgin.players.registry import resolve

    for player_index in config.pairings[pairing_index]:
        try:
            player = resolve(config.players[player_index])
            if not player.compiled or player.info.searches:
                return False
        except ValueError:
            continue
    return True


def _unit_records(
    rows: np.ndarray, unit_of_row: np.ndarray, seat_a: np.ndarray, units: int, games: np.ndarray | None, leg: int
) -> np.ndarray:
    """One leg's unit records; ``leg`` is A's seat in every game of the leg."""
    game_seat_a = None if games is None else np.full(games.shape[0], leg)
    return unit_records(rows, unit_of_row, seat_a, units, games, game_seat_a)


def _forfeit_record(
    config: RunConfig, chunk: Chunk, players: tuple[str, str], leg: int, forfeit: engine.HandForfeit
) -> dict[str, Any]:
    """What a forfeit leaves in the results: who, where (pairing, leg, chunk, unit; the game and its
    deal, or the hand), the hand seed, dealer and scores, the error, and the ``simgin replay`` command
    that plays that hand again (it stops at the illegal move with the same error)."""
    unit = chunk.chunk_index * config.units_per_chunk + forfeit.unit
    number = unit * config.legs + leg
    record: dict[str, Any] = {
        "player": players[forfeit.seat],
        "opponent": players[1 - forfeit.seat],
        "seat": forfeit.seat,
        "pairing": chunk.pairing_index,
        "leg": leg + 1,
        "chunk": chunk.chunk_index,
        "unit": unit,
    }
    if config.mode == "games":
        record |= {"game": number, "deal": forfeit.deal, "scores": list(forfeit.scores)}
    else:
        record["hand"] = number
    record |= {
        "hand_seed": forfeit.hand_seed,
        "dealer": forfeit.dealer,
        "decision": forfeit.decision,
        "error": forfeit.error,
        "replay": replay_command(players, config.rules, forfeit, games=config.mode == "games"),
    }
    return record


def _stopped_replay(players: tuple[str, str], config: RunConfig, error: engine.IllegalDecision) -> str:
    """The ``simgin replay`` command of the hand a run stopped at, as a forfeit lists it (its seats, hand seed,
    dealer and game scores), when the engine named the hand on the error; else just ``simgin replay``. Without
    the dealer ``--hand-seed`` alone replays another hand (issue 32 item 16)."""
    if getattr(error, "dealer", None) is None or getattr(error, "hand_seed", None) is None:
        return "simgin replay"
    return replay_command(players, config.rules, error, games=config.mode == "games")  # type: ignore[arg-type]


def rule_flags(rules: Rules) -> list[str]:
    """``--rules PRESET`` (the preset nearest ``rules``, standard on a tie) and ``--set KEY=VALUE`` for every
    switch away from it: the rules as a command line gives them."""
    wanted = rules.to_dict()

    def changes(preset: str) -> dict[str, Any]:
        base = Rules.preset(preset).to_dict()
        return {name: value for name, value in wanted.items() if value != base[name]}

    preset = min(Rules.PRESETS, key=lambda name: (len(changes(name)), name != "standard"))
    words = [] if preset == "standard" else ["--rules", preset]
    for name, value in changes(preset).items():
        shown = ("true" if value else "false") if isinstance(value, bool) else str(value)
        words += ["--set", f"{name}={shown}"]
    return words


def hand_replay_command(
    players: Sequence[str], rules: Rules, hand_seed: int, dealer: int, scores: Sequence[int] | None = None
) -> str:
    """The ``simgin replay`` command line that plays one hand again, move for move: its seats, hand seed and
    dealer, the game scores it was dealt at (``--scores``, a hand of a game), and its rules."""
    words = ["simgin", "replay", players[0], players[1], "--hand-seed", str(hand_seed), "--dealer", str(dealer)]
    if scores is not None:
        words += ["--scores", f"{scores[0]},{scores[1]}"]
    return shlex.join(words + rule_flags(rules))


def replay_command(players: tuple[str, str], rules: Rules, forfeit: engine.HandForfeit, games: bool) -> str:
    """The ``simgin replay`` command line that plays a forfeited hand again (:func:`hand_replay_command`)."""
    return hand_replay_command(players, rules, forfeit.hand_seed, forfeit.dealer, forfeit.scores if games else None)


def _luck_of_a(rows: np.ndarray, luck: np.ndarray, seat_a: int) -> np.ndarray:
    """Per hand of one leg: A's net points, A's luck correction in points, A's hand won (0 or 1), A's luck
    correction of it and B's of its win (``kernels.luck.LUCK_*`` columns are seat 0's points, seat 0's and seat 1's
    wins)."""
    winner = rows[:, _k.H_WINNER]
    scored = (rows[:, _k.H_KIND] != KIND_DEAD) & (winner >= 0)
    sign = 1.0 if seat_a == 0 else -1.0
    return np.stack(
        [
            net_points(rows, np.full(rows.shape[0], seat_a)),
            sign * luck[:, LUCK_POINTS],
            (scored & (winner == seat_a)).astype(np.float64),
            luck[:, LUCK_WIN_0 + seat_a],
            luck[:, LUCK_WIN_0 + 1 - seat_a],
        ]
    )


def _leg_score(winner: np.ndarray, seat_a: int) -> np.ndarray:
    """A's score per hand or game of one leg: 1 for a win, 0.5 for a dead hand or undecided game, 0 for a loss."""
    return np.where(winner == seat_a, 1.0, np.where(winner < 0, 0.5, 0.0))


def _table_chunk(config: RunConfig, chunk: Chunk, unit_records: bool = False) -> tuple[Sums, np.ndarray | None]:
    """A chunk of three-player or partnership games, every seating over the same game seeds; with ``unit_records``
    also one record per game seed, every seating summed (:func:`simgin.game.multiplayer.table_unit_records`)."""
    seeds = unit_seeds(chunk)
    total = Sums.zero()
    records = (
        np.zeros((chunk.unit_count, len(table_unit_fields(config.table))), dtype=np.int64) if unit_records else None
    )
    for seating in seatings(config.table) if config.duplicate else (tuple(range(len(config.players))),):
        bots = tuple(config.players[player] for player in seating)
        try:
            games, rows, hand_players, counts = play_table_rows(config.table, bots, config.rules, seeds)
        except engine.IllegalDecision as error:
            raise RunError(f"{error} (chunk {chunk.chunk_index} with chunk seed {chunk.seed})") from None
        total = total + tally_table(config.table, seating, games, rows, hand_players, counts)
        if records is not None:
            records += table_unit_records(config.table, seating, games, rows, counts)
    return total, records

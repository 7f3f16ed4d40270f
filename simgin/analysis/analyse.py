"""``simgin.analyse``: a match played and every decision of both players valued (issue 34).

The hands are those of ``simgin match A B --hands N --seed S`` (duplicate deals by default), cut into parts
that the workers play and value independently (a local process pool or a Dask cluster, as every simgin run);
each decision's worlds are keyed by its hand and place, so the result is the same on any number of workers.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from simgin import __version__
from simgin.analysis.evaluator import (
    DEFAULT_EVIDENCE,
    DEFAULT_LUCK_WORLDS,
    DEFAULT_QUALITY,
    DEFAULT_WORLDS,
    Evaluator,
)
from simgin.analysis.hands import COLUMNS, SECOND_OPINION_COLUMNS, AnalysedHand, analyse_game, analyse_hand
from simgin.analysis.summary import (
    THRESHOLDS,
    costliest,
    interval_unit,
    player_summary,
    replay_command,
    second_opinion_summary,
)
from simgin.base import files
from simgin.base.strict_json import jsonable
from simgin.game.rng import derive
from simgin.game.rules import Rules
from simgin.players.registry import resolve
from simgin.running import runner
from simgin.running.chunks import hand_replay_command
from simgin.running.config import check_bounds, chunk_seed
from simgin.running.results import save_result
from simgin.studies.search import execution_workers

#: Hands (games) a worker plays and values in one job.
PART_HANDS = 10
PART_GAMES = 1
DECISIONS_FILE = "decisions.parquet"
RESULT_FILE = "result.json"
SETTINGS_FILE = "analysis.json"
PARTS_DIR = "parts"
KIND = "analysis"
FIX = "delete the file, or the directory, and run the command again"


def _hand_data(hand: AnalysedHand) -> dict[str, Any]:
    return {
        "index": hand.index,
        "seed": hand.seed,
        "dealer": hand.dealer,
        "players": list(hand.players),
        "net_points": list(hand.net_points),
        "rows": list(hand.rows),
        "swapped": hand.swapped,
        "luck": list(hand.luck),
    }


def _hand_of(data: dict[str, Any]) -> AnalysedHand:
    return AnalysedHand(
        int(data["index"]), int(data["seed"]), int(data["dealer"]), tuple(data["players"]),  # type: ignore[arg-type]
        (float(data["net_points"][0]), float(data["net_points"][1])), tuple(data["rows"]), bool(data["swapped"]),
        (float(data["luck"][0]), float(data["luck"][1])),
    )  # fmt: skip


class AnalysisDirectory:
    """An analysis's ``--out`` directory: its settings (``analysis.json``) and each finished part of the hands
    (``parts/``), written as it finishes, so that the same command resumes after Ctrl-C or a crash; other
    settings in the same directory are refused."""

    def __init__(self, out: str | Path, settings: dict[str, Any]) -> None:
        self.out = Path(out)
        path = self.out / SETTINGS_FILE
        if path.exists():
            written = files.read_json(path, FIX)
            if written != settings:
                changed = sorted(k for k in settings.keys() | written.keys() if settings.get(k) != written.get(k))
                raise ValueError(
                    f"{self.out} holds an analysis with other settings ({', '.join(changed)}): give a new --out, "
                    "or the same settings to resume it"
                )
        else:
            problem = files.new_directory_problem(self.out, SETTINGS_FILE)
            if problem:
                raise ValueError(problem)
            self.out.mkdir(parents=True, exist_ok=True)
            files.write_file(self.out, SETTINGS_FILE, json.dumps(settings, indent=1) + "\n")

    def _name(self, first: int) -> str:
        return f"{PARTS_DIR}/part-{first:09d}.json"

    def finished(self, first: int) -> list[AnalysedHand] | None:
        """The part that starts at ``first``, when an earlier session finished it; None otherwise."""
        path = self.out / self._name(first)
        if not path.exists():
            return None
        data = files.read_json(path, FIX)
        return [_hand_of(hand) for hand in data["hands"]]

    def save(self, first: int, part: list[AnalysedHand]) -> None:
        files.write_file(self.out, self._name(first), json.dumps({"hands": [_hand_data(h) for h in part]}))


def finished_parts(out: str | Path) -> int:
    """How many finished parts an analysis's ``--out`` directory keeps (what a rerun does not play again)."""
    folder = Path(out) / PARTS_DIR
    return len(list(folder.glob("part-*.json"))) if folder.is_dir() else 0


def locate_game(config: runner.RunConfig, game: int) -> tuple[int, tuple[str, str]]:
    """Where game ``game`` of a games run comes from (first pairing): (game seed, players by seat). Games are
    numbered in play order: with duplicate deals, games 2j and 2j + 1 are the two legs of unit j."""
    unit, leg = divmod(game, config.legs)
    chunk_index, j = divmod(unit, config.units_per_chunk)
    a, b = config.players[0], config.players[1]
    return derive(chunk_seed(config.seed, chunk_index), j), ((b, a) if leg else (a, b))


def analyse_part(
    players: tuple[str, str],
    rules: Rules,
    seed: int,
    duplicate: bool,
    first: int,
    count: int,
    evaluator: Evaluator,
    forfeit: bool,
    mode: str = "hands",
    advisers: tuple[str, ...] = (),
) -> list[AnalysedHand]:
    """Hands (or games) ``first`` to ``first + count - 1`` of the match, played and valued (one worker's job)."""
    config = runner.RunConfig(players, rules, **{mode: 2 * (first + count)}, seed=seed, duplicate=duplicate)
    played = []
    for index in range(first, first + count):
        swapped = duplicate and index % 2 == 1
        if mode == "games":
            game_seed, seats = locate_game(config, index)

            def replay_of(seat_players, hand_seed, dealer, scores):  # type: ignore[no-untyped-def]
                return hand_replay_command(seat_players, rules, hand_seed, dealer, scores)

            played.append(
                analyse_game(seats, rules, index, game_seed, evaluator, swapped, forfeit, replay_of, advisers)
            )
            continue
        hand_seed, dealer, seats = runner.locate_hand(config, index)
        replay = replay_command(players, seed, index, rules, duplicate)
        played.append(
            analyse_hand(seats, rules, index, hand_seed, dealer, evaluator, swapped, forfeit, replay, advisers)
        )
    return played


@dataclass(frozen=True)
class AnalysisResult:
    """An analysed match: the settings, every hand, and one row per decision (``to_frame()``)."""

    players: tuple[str, str]
    rules: Rules
    seed: int
    duplicate: bool
    evaluator: Evaluator
    hands: tuple[AnalysedHand, ...] = field(repr=False)
    """The hands analysed (with ``mode='games'``, the games: each holds the rows of all its hands)."""
    seconds: float = 0.0
    mode: str = "hands"
    second_opinions: tuple[str, ...] = ()
    """The advisers asked every decision (``simgin analyse --second-opinion BOT``), in order."""

    def to_frame(self) -> pd.DataFrame:
        """One row per decision (:data:`simgin.analysis.hands.COLUMNS`, then
        :data:`~simgin.analysis.hands.SECOND_OPINION_COLUMNS` with second opinions), in play order."""
        rows = [row for hand in self.hands for row in hand.rows]
        return pd.DataFrame(rows, columns=[*COLUMNS, *(SECOND_OPINION_COLUMNS if self.second_opinions else ())])

    def net_frame(self) -> pd.DataFrame:
        """One row per hand: its number, the net points of A (``net_0``) and B (``net_1``) and their luck
        (``luck_0``, ``luck_1``)."""
        return pd.DataFrame(
            [
                {"hand": hand.index, **{f"{key}_{side}": value for side in (0, 1) for key, value in (
                    ("net", hand.net_of_side(side)), ("luck", hand.luck_of_side(side)))}}
                for hand in self.hands
            ],
            columns=["hand", "net_0", "luck_0", "net_1", "luck_1"],
        )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        """The ``simgin analyse --json`` object: its fixed keys ``players`` (seat order of the match: A, B)
        and ``costliest`` (docs/ANALYSIS.md), then the settings."""
        frame = self.to_frame()
        net = self.net_frame()
        players = [player_summary(side, name, frame, net, self.duplicate) for side, name in enumerate(self.players)]
        if self.second_opinions:
            hands = sorted(net["hand"])
            for side, player in enumerate(players):
                player["second_opinions"] = second_opinion_summary(
                    frame[frame["side"] == side], hands, self.second_opinions, self.duplicate
                )
        return jsonable(
            {
                "players": players,
                "costliest": costliest(frame),
                "hands": int(frame.groupby(["hand", "deal"]).ngroups) if self.mode == "games" else len(self.hands),
                "games": len(self.hands) if self.mode == "games" else 0,
                "mode": self.mode,
                **({"second_opinions": list(self.second_opinions)} if self.second_opinions else {}),
                "seed": self.seed,
                "duplicate": self.duplicate,
                "interval_unit": interval_unit(self.mode, self.duplicate),
                "rules": self.rules.to_dict(),
                "evaluator": {
                    "worlds": self.evaluator.worlds,
                    "luck_worlds": self.evaluator.luck_worlds,
                    "seed": self.evaluator.seed,
                    "value": "game" if self.evaluator.game_value else "hand points",
                    "playouts": self.evaluator.policy,
                    "evidence": self.evaluator.evidence,
                    "quality": self.evaluator.quality,
                    "tries": self.evaluator.tries,
                    "thresholds": THRESHOLDS,
                },
                "timing": {"seconds": self.seconds},
                "version": __version__,
            }
        )

    def result_data(self) -> dict[str, Any]:
        """``result.json``: the JSON object, marked as an analysis."""
        return {"kind": KIND, **self.to_json()}

    def save(self, out: str | Path) -> None:
        """Write ``out/result.json`` and ``out/decisions.parquet`` (``out``: a new or empty directory)."""
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        frame = self.to_frame()
        files.write_file(folder, DECISIONS_FILE, lambda handle: frame.to_parquet(handle, index=False))
        save_result(folder, self.result_data())


def analyse(
    a: str,
    b: str,
    *,
    rules: Rules | str | None = None,
    hands: int | None = None,
    games: int | None = None,
    seed: int = 0,
    duplicate: bool = True,
    worlds: int = DEFAULT_WORLDS,
    luck_worlds: int = DEFAULT_LUCK_WORLDS,
    evaluator_seed: int = 0,
    playouts: str = "fast",
    evidence: float = DEFAULT_EVIDENCE,
    quality: float = DEFAULT_QUALITY,
    workers: int | None = None,
    backend: str = "local",
    scheduler: str | None = None,
    on_illegal: str = "stop",
    out: str | Path | None = None,
    progress: Callable[[int], None] | None = None,
    second_opinions: Sequence[str] = (),
) -> AnalysisResult:
    """Play hands ``0`` to ``hands - 1`` of ``simgin match a b --hands N --seed seed`` (or its ``games`` games,
    whose hands are valued in what they are worth in the game) and value every decision of both players
    (docs/ANALYSIS.md): ``worlds`` worlds per decision drawn from ``evaluator_seed``, played out by the
    ``playouts`` policy (``'fast'``, ``'scored'``, or ``'players'``: the two players' own compiled bots), and
    ``luck_worlds`` worlds per stock draw for the luck (:mod:`simgin.analysis.luck`); 200 hands when neither is
    given. ``progress(units)`` is called as parts finish. ``second_opinions``: players (specs) asked every
    decision of both players from the same view, their answers valued by the same valuations, never played: what
    each would have done, and what it would have lost, decision by decision (docs/ANALYSIS.md). Bad input is a
    one-line ValueError."""
    if isinstance(rules, str):
        rules = Rules.preset(rules)
    rules = rules or Rules()
    if hands is not None and games is not None:
        raise ValueError("give hands or games, not both")
    mode = "games" if games is not None else "hands"
    count = games if games is not None else 200 if hands is None else hands
    check_bounds(f"{mode}={count}", count, 1, 1_000_000)
    check_bounds(f"seed={seed}", seed, 0, runner.MAX_SEED, " (a 64-bit seed)")
    if on_illegal not in ("stop", "forfeit"):
        raise ValueError(f"on_illegal={on_illegal!r}: choose from stop, forfeit")
    evaluator = Evaluator(
        worlds=worlds, seed=evaluator_seed, game_value=mode == "games", policy=playouts, evidence=evidence,
        quality=quality, luck_worlds=luck_worlds,
    )  # fmt: skip
    workers = execution_workers(workers, backend, scheduler, ValueError)
    players = (a, b)
    evaluator.seated(players)  # 'players' playouts with a player that is not a compiled bot: one ValueError
    runner.RunConfig(players, rules, **{mode: 2 * count}, seed=seed, duplicate=duplicate)  # checks the players
    if isinstance(second_opinions, str):
        raise ValueError(f"second_opinions takes a list of player specs, got the single string {second_opinions!r}")
    advisers = tuple(second_opinions)
    for spec in advisers:
        resolve(spec)  # an unknown spec: one ValueError naming it
    size = PART_HANDS if mode == "hands" else PART_GAMES
    parts = [(first, min(size, count - first)) for first in range(0, count, size)]
    start = time.perf_counter()
    directory = None
    if out is not None:
        settings = {
            "players": list(players), "rules": rules.to_dict(), "mode": mode, "count": count, "seed": seed,
            "duplicate": duplicate, "worlds": worlds, "evaluator_seed": evaluator_seed, "playouts": playouts,
            "evidence": evidence, "quality": quality, "tries": evaluator.tries, "on_illegal": on_illegal,
            "version": __version__,
            "luck_worlds": luck_worlds, **({"second_opinions": list(advisers)} if advisers else {}),
        }  # fmt: skip
        directory = AnalysisDirectory(out, settings)
    forfeit = on_illegal == "forfeit"
    finished = {first: directory.finished(first) if directory else None for first, _ in parts}
    todo = [(first, size) for first, size in parts if finished[first] is None]
    for first, _ in parts:
        if finished[first] is not None and progress:
            progress(len(finished[first]))  # type: ignore[arg-type]
    if todo:
        # A cold numba cache on a local pool: one worker compiles (hand 0 analysed and dropped) while the others
        # wait, then all load the kernels from the cache, instead of each compiling them (issue 34's notes).
        compile_first = (
            backend == "local" and min(workers, len(todo)) > 1 and not evaluator.kernels_cached((*players, *advisers))
        )
        with runner.backend_for(min(workers, len(todo)), backend, scheduler) as pool:
            if compile_first:
                first_hand = (players, rules, seed, duplicate, 0, 1, evaluator, forfeit, "hands", advisers)
                runner.wait_result(pool, pool.submit(analyse_part, *first_hand))
            futures = [
                pool.submit(
                    analyse_part, players, rules, seed, duplicate, first, size, evaluator, forfeit, mode, advisers
                )
                for first, size in todo
            ]
            for (first, _), future in zip(todo, futures, strict=True):
                finished[first] = runner.wait_result(pool, future)
                if directory:
                    directory.save(first, finished[first])  # type: ignore[arg-type]
                if progress:
                    progress(len(finished[first]))  # type: ignore[arg-type]
    played = [hand for first, _ in parts for hand in finished[first]]  # type: ignore[union-attr]
    seconds = time.perf_counter() - start
    result = AnalysisResult(players, rules, seed, duplicate, evaluator, tuple(played), seconds, mode, advisers)
    if out is not None:
        result.save(out)
    return result


def directory_match(directory: str | Path) -> dict[str, Any]:
    """The match a run directory (``simgin match A B --out DIR``) holds, as :func:`analyse`'s arguments: its
    two players (``a``, ``b``), ``rules``, ``seed``, ``duplicate`` and ``hands`` or ``games``, read from its
    ``result.json``. A directory whose hands cannot be played again as they were is a one-line ValueError: not
    a two-player match, or a player that is a program (``exec:``, ``eaai:``), which need not play a hand the
    same way twice."""
    from simgin.players.registry import is_program
    from simgin.running.results import load_result

    data = load_result(directory)
    config = data.get("config") or {}
    if data["kind"] != "match" or config.get("table", "pairs") != "pairs" or len(config.get("players", [])) != 2:
        raise ValueError(
            f"{directory}: a {data['kind']}'s directory; analyse takes a match's (two players, "
            "'simgin match A B --out DIR'), or give the players: 'simgin analyse A B'"
        )
    for spec in config["players"]:
        if is_program(spec):
            raise ValueError(
                f"{directory}: {spec} is a program, which need not play a hand the same way twice, so its "
                "recorded hands cannot be analysed; 'simgin analyse A B' records its decisions as it plays"
            )
    count = {"hands": config["hands"]} if config.get("hands") else {"games": config["games"]}
    return {
        "a": config["players"][0],
        "b": config["players"][1],
        "rules": Rules(**config["rules"]),
        "seed": int(config["seed"]),
        "duplicate": bool(config.get("duplicate", True)),
        **count,
    }

"""Hashes of the hand and game rows of every bot pairing: a check that a kernel change keeps results identical.

Plays, for every ordered pairing of the compiled bots (and each bot against the plain-Python
twin of ``random``, which runs the compiled bot through its adapter in the reference engine),
``play_hands`` and ``play_games`` under several rule presets, plus three-player and
partnership tables, and prints one SHA-256 per case and one over all of them. Run it on the
revision before a change and after it, and compare (``--out FILE`` writes JSON; ``--compare
FILE`` checks against such a file and exits non-zero on any difference)::

    python -m simgin.tools.row_hashes --out before.json     # on the old revision
    python -m simgin.tools.row_hashes --compare before.json # on the new one

``mcts`` plays fewer hands and games (about 12 ms per decision).

A change of a bot's defaults that keeps its old play as a parameter set is checked with
``--play NAME=SPEC``: the cases keep the name (so they compare with the old file), and the bot
named plays as SPEC::

    python -m simgin.tools.row_hashes --compare before.json --play "mcts=mcts:playout_policy=0,..."
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time

import numpy as np

from simgin import Rules
from simgin.kernels.bots import BOT_NAMES
from simgin.running.engine import play_game_rows, play_hand_rows, play_table_rows

PRESETS = ("standard", "oklahoma", "modern", "eaai", "straight", "hollywood")
MCTS_PRESETS = ("standard", "oklahoma", "modern")
TWIN = "simgin.strategies.random:RandomStrategy"


def digest(*arrays: np.ndarray) -> str:
    sha = hashlib.sha256()
    for array in arrays:
        sha.update(np.ascontiguousarray(array, dtype=np.int64).tobytes())
    return sha.hexdigest()


def cases(quick: bool) -> list[tuple[str, tuple[str, ...], str, int, int]]:
    """(table, players, preset, hands, games) for every case."""
    out = []
    scale = 0.2 if quick else 1.0
    for a in BOT_NAMES:
        for b in BOT_NAMES:
            searching = "mcts" in (a, b)
            for preset in MCTS_PRESETS if searching else PRESETS:
                hands, games = (4, 1) if searching else (int(300 * scale), int(20 * scale))
                out.append(("pairs", (a, b), preset, hands, games))
    for bot in BOT_NAMES:
        searching = bot == "mcts"
        out.append(("pairs", (TWIN, bot), "standard", 3 if searching else int(60 * scale), 0))
    for players in (("simple", "greedy", "random"), ("heuristic", "simple", "opponent")):
        out.append(("three", players, "standard", 0, int(30 * scale)))
    for players in (("simple", "greedy", "random", "simple"), ("heuristic", "opponent", "greedy", "simple")):
        out.append(("teams", players, "standard", 0, int(20 * scale)))
    return out


def run_case(
    table: str, players: tuple[str, ...], preset: str, hands: int, games: int, play: dict[str, str] | None = None
) -> str:
    """The digest of one case's rows; ``play`` maps a bot's name to the spec that plays for it."""
    players = tuple((play or {}).get(name, name) for name in players)
    rules = Rules.preset(preset)
    seeds = np.arange(1, max(hands, games) + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    parts = []
    if table == "pairs":
        if hands:
            parts.append(play_hand_rows(players, rules, seeds[:hands], np.arange(hands) % 2))
        if games:
            g, rows, counts = play_game_rows(players, rules, seeds[:games])
            parts += [g, rows, counts]
    else:
        parts += list(play_table_rows(table, players, rules, seeds[:games]))
    return digest(*parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", help="write the hashes as JSON")
    parser.add_argument("--compare", help="compare with a JSON file of hashes; exit 1 on any difference")
    parser.add_argument("--quick", action="store_true", help="fewer hands and games (a smoke test)")
    parser.add_argument(
        "--play", action="append", default=[], metavar="NAME=SPEC", help="the bot NAME plays as SPEC (cases keep NAME)"
    )
    args = parser.parse_args(argv)
    play = {}
    for item in args.play:
        name, sep, spec = item.partition("=")
        if not sep or name not in BOT_NAMES:
            parser.error(f"--play {item!r}: expected NAME=SPEC with NAME one of {', '.join(BOT_NAMES)}")
        play[name] = spec
    start = time.perf_counter()
    hashes = {}
    for table, players, preset, hands, games in cases(args.quick):
        key = f"{table} {','.join(players)} {preset} hands={hands} games={games}"
        hashes[key] = run_case(table, players, preset, hands, games, play)
    total = hashlib.sha256("".join(f"{k}={v}\n" for k, v in sorted(hashes.items())).encode()).hexdigest()
    print(f"{len(hashes)} cases in {time.perf_counter() - start:.0f} s; all rows: {total}")
    if args.out:
        with open(args.out, "w") as out:
            json.dump({"all": total, "cases": hashes}, out, indent=1, sort_keys=True)
    if args.compare:
        with open(args.compare) as given:
            before = json.load(given)["cases"]
        differ = [key for key in hashes if before.get(key) != hashes[key]]
        missing = [key for key in before if key not in hashes]
        for key in differ:
            print(f"DIFFERENT: {key}")
        print(f"compared {len(hashes)} cases with {args.compare}: {len(differ)} differ, {len(missing)} not run")
        return 1 if differ or missing else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())

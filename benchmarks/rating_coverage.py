"""Coverage of the tournament's 95% rating intervals over seeded round robins (issue 32 item 10).

    python -m benchmarks.rating_coverage --tournaments 100 --games 200 --truth-games 20000

Plays one long round robin of the players (its ratings are taken as the truth), then ``--tournaments``
short ones on other seeds, and counts how often each short one's 95% interval covers the long one's
rating, for the joint bootstrap over deals (what ``simgin tournament`` runs) and for the bootstrap within
each pairing (what it ran before), from the same runs. Also the skill spread's interval. Prints a
Markdown table for benchmarks/RESULTS.md.
"""

from __future__ import annotations

import dataclasses
import time

import numpy as np

import simgin
from benchmarks import harness
from simgin.running.tournament_ratings import tournament_analysis

PLAYERS = ("simple", "greedy", "heuristic", "opponent")


def main(argv: list[str] | None = None) -> None:
    parser = harness.parser(__doc__, quick="3 round robins of 20 games, truth from 400 (a smoke test)")
    parser.add_argument("--tournaments", type=int, default=100)
    parser.add_argument("--games", type=int, default=200, help="games per pairing of each short round robin")
    parser.add_argument("--truth-games", type=int, default=20_000, help="games per pairing of the long one")
    parser.add_argument("--rules", default="eaai")
    parser.add_argument("--reps", type=int, default=1000, help="bootstrap replicates")
    args = parser.parse_args(argv)
    if args.quick:
        args.tournaments, args.games, args.truth_games, args.reps = 3, 20, 400, 200
    start = time.perf_counter()
    truth = simgin.tournament(list(PLAYERS), games=args.truth_games, rules=args.rules, seed=1_000_003, workers=1)
    rating = {row["player"]: row["rating"] for row in truth.analysis["ratings"]}
    spread = truth.analysis["skill_spread"]["spread"]
    hits: dict[str, list[list[bool]]] = {"joint": [], "within pairings": []}
    spread_hits: dict[str, list[bool]] = {"joint": [], "within pairings": []}
    for seed in range(args.tournaments):
        short = simgin.tournament(list(PLAYERS), games=args.games, rules=args.rules, seed=seed, workers=1)
        for name, analysis in (
            ("joint", short.analysis),
            ("within pairings", tournament_analysis(dataclasses.replace(short.run, units=None), seed=seed)),
        ):
            rows = [row for row in analysis["ratings"] if row["player"] != "simple"]
            hits[name].append([row["low"] <= rating[row["player"]] <= row["high"] for row in rows])
            got = analysis["skill_spread"]
            spread_hits[name].append(got["low"] <= spread <= got["high"])
        print(f"{seed + 1}/{args.tournaments} {time.perf_counter() - start:.0f} s", flush=True)
    argv_shown = [f"--tournaments {args.tournaments}", f"--games {args.games}", f"--truth-games {args.truth_games}"]
    lines = [
        f"Measured {harness.machine()} with `{harness.command('rating_coverage', argv_shown)}` ({args.rules} "
        f"rules, {', '.join(PLAYERS)}, `simple` the anchor; {time.perf_counter() - start:.0f} s). Truth: the "
        f"ratings of one {args.truth_games:,}-game round robin (seed 1000003): "
        + ", ".join(f"{p} {rating[p]:+.1f}" for p in PLAYERS[1:])
        + f"; skill spread {spread:.1f}.",
        "",
        "| bootstrap | " + " | ".join(PLAYERS[1:]) + " | skill spread |",
        "|---|" + "---:|" * len(PLAYERS),
    ]
    for name in hits:
        shares = np.mean(hits[name], axis=0)
        lines.append(
            f"| {name} | " + " | ".join(f"{share:.1%}" for share in shares) + f" | {np.mean(spread_hits[name]):.1%} |"
        )
    print()
    harness.publish(args, "rating-coverage", "Rating intervals, coverage (issue 32)", lines)


if __name__ == "__main__":
    main()

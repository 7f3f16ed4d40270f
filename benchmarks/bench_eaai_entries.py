"""Against EAAI entries: simgin's bots against published Java players of the EAAI Gin Rummy challenge (issue 24).

What: each ``--bot`` (a simgin strategy spec, default ``opponent``) plays each ``--entry`` (a Java player of the
EAAI Gin Rummy framework, hosted unmodified as ``eaai:CLASSPATH:CLASS``) under ``--rules eaai`` (gin and undercut
bonuses of 25, games to 100, the rules those players were written for), on duplicate deals (each game seed is
played twice, with the seats swapped), ``--games N`` games to the target per pairing (default 200). An illegal
move (some entries discard the pile card they just took) forfeits the game in progress, as in the EAAI framework
(``--on-illegal stop`` stops the run instead). The table "Against EAAI entries" gives, per bot and entry: the games
played, the bot's game win rate with the 95% interval ``simgin.match`` gives it (the deal pair is the unit,
docs/STATISTICS.md section 3: the two games of a deal are not independent), the points per hand, the bot's
points minus the entry's over all hands played, with the interval simgin's match summary gives it, and the
games forfeited by each side. The command line, the date and the
machine (cores, CPU, Java) are printed above the table.

Why: the bots are tuned against simgin's own players; the issue's target is that ``opponent`` wins more than half
of its games against real third-party entries, with its interval above 50% at 200 games. These entries are
sparring partners written by other people, under the rules they were built for.

The entries are not part of simgin and are not shipped with it: fetch and compile them separately, each against
the framework's classes (the README's section "Strategies in other languages" shows how). The public repositories
used so far are the framework tneller/gin-rummy-eaai and the entries bendstein/Gin-Rummy
(``GinRummyAndTonic_Player``), sangttruong/ginrummy (``SGP_LMGeo_Knock``, ``SGP_XGBGeo_Knock``),
cudy789/gin-rummy-SIGRA (``SIGRA``, through a no-argument subclass calling its full configuration
``SIGRA(true, true, true)``) and kienta1999/Gin_Rummy_AI_Player (``players.DePauwPlayer``, DePauw University's
ensemble of hand evaluators tuned by a genetic algorithm: its packages compiled against the framework, leaving
out its own copy of ``ginrummy``, its JUnit tests and the classes that need Weka or TensorFlow; it plays the same
on the same deals). bendstein/Gin-Rummy and sangttruong/ginrummy write their players in the default package
beside a copy of the framework, so their sources (and the helper classes the players use) are compiled
against the framework's ``ginrummy`` package with an added line ``import ginrummy.*;`` (and a helper's
``package ginrummy;`` line dropped); their play is not changed. Some entries read data files from the working
directory (``GinRummyAndTonic_Player`` reads ``opponentEV.txt`` from its repository): run from a directory that
holds them. Several entries use an unseeded ``java.util.Random``, so their play, and these figures, vary a little
from run to run on the same deals. ``SIGRA`` takes several seconds a hand (its opponent-meld model), so it is
measured on fewer games.

Reproduce (one pairing per run keeps each piece short; the figures of a pairing do not depend on the others)::

    python -m benchmarks.bench_eaai_entries --entry tonic=eaai:FRAMEWORK:TONIC:GinRummyAndTonic_Player \\
        --bot opponent --games 200 --seed 24

where FRAMEWORK and TONIC are the class directories of the compiled framework and entry. ``--seeds 24-29`` plays
one such match per seed (each on its own deals) and adds a last row per pairing that pools them: the win rate's
interval from every seed's deal pairs together (the pair stays the unit), the points per hand weighted by hands.
Entries that play with an unseeded generator (tonic) need a thousand games or more to tell two bots 3 points apart,
so a pairing is best measured in pieces: ``--out DIR`` keeps each seed's row as it finishes, and the same command
run again with the same ``--out`` reads the rows there and plays only the seeds still missing.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import simgin
from benchmarks import harness
from simgin.running.summary import pair_score_interval

RULES = "eaai"
HEADING = "Against EAAI entries"


@dataclass(frozen=True)
class Row:
    """One bot against one entry: what the table shows."""

    bot: str
    entry: str
    games: int
    wins: int
    hands: int
    net_points: float  # the bot's points minus the entry's, per hand
    net_low: float
    net_high: float
    seconds: float
    bot_forfeits: int = 0
    entry_forfeits: int = 0
    win_low: float = float("nan")  # the game win rate's 95% interval from the match summary (deal pairs)
    win_high: float = float("nan")
    seeds: str = ""  # the seed of the deals, or the seeds a pooled row adds up ("24-29")
    pair_counts: tuple[int, ...] = ()  # deal pairs by the bot's score in them (0, 1/4, ..., 1), as the match gives

    def interval(self) -> tuple[float, float]:
        return self.win_low, self.win_high

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def parse_entry(text: str) -> tuple[str, str]:
    """``NAME=eaai:CLASSPATH:CLASS`` -> (NAME, spec). A ValueError says what is wrong."""
    name, sep, spec = text.partition("=")
    if not sep or not name or not spec.startswith("eaai:") or spec.count(":") < 2:
        raise ValueError(f"--entry wants NAME=eaai:CLASSPATH:CLASS, got {text!r}")
    return name, spec


def entry_class(spec: str) -> str:
    """The Java class of an ``eaai:`` spec (the text after its last colon), which names it without local paths."""
    return spec.rsplit(":", 1)[1]


def measure(
    bot: str,
    name: str,
    spec: str,
    games: int,
    seed: int,
    workers: int | None = None,
    on_illegal: str = "forfeit",
) -> Row:
    """Play ``bot`` against the entry ``spec`` under eaai rules, duplicate deals, ``games`` games to the target."""
    started = time.perf_counter()
    result = simgin.match(
        bot, spec, rules=RULES, games=games, seed=seed, duplicate=True, on_illegal=on_illegal, workers=workers
    )
    seconds = time.perf_counter() - started
    frame = result.to_frame()
    row = frame[frame["side"] == "a"].iloc[0]  # side a is the bot, whichever seat it held in each leg
    other = frame[frame["side"] == "b"].iloc[0]
    paired = result.to_json().get("paired", {})
    return Row(
        bot=bot,
        entry=name,
        games=int(row["games"]),
        wins=int(row["games_won"]),
        hands=int(row["hands"]),
        net_points=float(row["net_points_per_hand"]),
        net_low=float(row["net_points_low"]),
        net_high=float(row["net_points_high"]),
        seconds=seconds,
        bot_forfeits=int(row["forfeits"]),
        entry_forfeits=int(other["forfeits"]),
        win_low=float(row["win_rate_low"]),
        win_high=float(row["win_rate_high"]),
        seeds=str(seed),
        pair_counts=tuple(int(c) for c in paired.get("pair_counts", ())),
    )


def parse_seeds(text: str) -> list[int]:
    """``24``, ``24,25,26`` or ``24-29`` -> the seeds, in order; a ValueError names the bad text."""
    seeds: list[int] = []
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        try:
            low = int(first)
            high = int(last) if dash else low
        except ValueError:
            raise ValueError(f"--seeds {text!r}: give seeds as 24, 24,25,26 or 24-29") from None
        if low < 0 or high < low:
            raise ValueError(f"--seeds {text!r}: {part.strip()!r} is not a seed or a rising range of seeds >= 0")
        seeds.extend(range(low, high + 1))
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"--seeds {text!r}: a seed appears twice (its games would count twice)")
    return seeds


def seeds_label(seeds: Sequence[int]) -> str:
    """The seeds of a pooled row, as short as :func:`parse_seeds` reads them back: ``24-29`` or ``24,26``."""
    ordered = list(seeds)
    if ordered == list(range(ordered[0], ordered[0] + len(ordered))) and len(ordered) > 1:
        return f"{ordered[0]}-{ordered[-1]}"
    return ",".join(str(seed) for seed in ordered)


def pooled(rows: Sequence[Row]) -> Row:
    """One bot against one entry over several seeds, each seed's games on its own deals: the games, wins, hands
    and forfeits added up; the win rate's 95% interval from the deal pairs of every seed together (the pair is the
    unit, as in each match: ``simgin.running.summary.pair_score_interval`` of the added pair counts); the points
    per hand weighted by hands, with an interval from the seeds' own, taken as independent (normal)."""
    if not rows:
        raise ValueError("nothing to pool")
    if len({(row.bot, row.entry) for row in rows}) != 1:
        raise ValueError("pool the rows of one bot against one entry only")
    if any(len(row.pair_counts) != 5 for row in rows):
        raise ValueError("every row to pool needs its five pair counts (a row measured by this script has them)")
    counts = [sum(row.pair_counts[k] for row in rows) for k in range(5)]
    tally = {"pairs": sum(counts), **{f"pair_score_{k}": counts[k] for k in range(5)}}
    _, win_low, win_high = pair_score_interval(tally)
    hands = sum(row.hands for row in rows)
    net = sum(row.net_points * row.hands for row in rows) / hands
    spread = math.sqrt(sum((row.hands / hands * (row.net_high - row.net_low) / 2) ** 2 for row in rows))
    return Row(
        bot=rows[0].bot,
        entry=rows[0].entry,
        games=sum(row.games for row in rows),
        wins=sum(row.wins for row in rows),
        hands=hands,
        net_points=net,
        net_low=net - spread,
        net_high=net + spread,
        seconds=sum(row.seconds for row in rows),
        bot_forfeits=sum(row.bot_forfeits for row in rows),
        entry_forfeits=sum(row.entry_forfeits for row in rows),
        win_low=win_low,
        win_high=win_high,
        seeds=seeds_label([int(seed) for row in rows for seed in parse_seeds(row.seeds)]),
        pair_counts=tuple(counts),
    )


def piece_path(out: Path, bot: str, name: str, seed: int, games: int) -> Path:
    """Where ``--out`` keeps one seed's row of ``bot`` against the entry ``name`` (a run again with the same
    ``--out`` reads it instead of playing the seed again)."""
    slug = re.sub(r"[^A-Za-z0-9_.=-]+", "_", f"{bot}__{name}__seed{seed}__games{games}")
    return out / f"{slug}.json"


def measured_piece(
    out: Path | None, bot: str, name: str, spec: str, games: int, seed: int, workers: int | None, on_illegal: str
) -> Row:
    """:func:`measure`, kept in ``out`` (when given) as soon as it is done, or read back from there."""
    path = piece_path(out, bot, name, seed, games) if out is not None else None
    if path is not None and path.exists():
        data = json.loads(path.read_text(encoding="utf-8"))
        return Row(**{**data, "pair_counts": tuple(data["pair_counts"])})
    row = measure(bot, name, spec, games, seed, workers, on_illegal)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".part")
        partial.write_text(json.dumps(dataclasses.asdict(row), indent=1), encoding="utf-8")
        partial.replace(path)
    return row


def percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def table(rows: Sequence[Row], classes: dict[str, str] | None = None) -> str:
    """The Markdown table "Against EAAI entries", one line per bot and entry."""
    classes = classes or {}
    lines = [
        f"### {HEADING}",
        "",
        "| bot | entry | seeds | games | hands | bot wins (95%, deal pairs) | points per hand, bot - entry (95%) "
        "| forfeits, bot/entry | seconds |",
        "|---|---|---|---:|---:|---|---|---:|---:|",
    ]
    for row in rows:
        low, high = row.interval()
        entry = f"{row.entry} (`{classes[row.entry]}`)" if row.entry in classes else row.entry
        lines.append(
            f"| `{row.bot}` | {entry} | {row.seeds} | {row.games} | {row.hands} | "
            f"{percent(row.win_rate)} ({percent(low)}-{percent(high)}) | "
            f"{row.net_points:+.2f} ({row.net_low:+.2f} to {row.net_high:+.2f}) | "
            f"{row.bot_forfeits}/{row.entry_forfeits} | {row.seconds:.0f} |"
        )
    return "\n".join(lines)


def java_version() -> str:
    try:
        done = subprocess.run(["java", "-version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return "java: not found"
    lines = (done.stderr or done.stdout).strip().splitlines()
    return lines[0] if lines else "java: unknown version"


def header(argv: Sequence[str], workers: int | None, on_illegal: str = "forfeit") -> str:
    """The command line, the date and the machine, printed above the table."""
    command = shlex.join(["python", "-m", "benchmarks.bench_eaai_entries", *argv])
    return "\n".join(
        [
            f"Command: `{command}`",
            "",
            f"Date and machine: {harness.machine()}; {workers or os.cpu_count()} worker(s); {java_version()}",
            "",
            f"Rules: {RULES}; duplicate deals; games to the target; an illegal move: {on_illegal}.",
        ]
    )


def main(argv: Sequence[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = harness.parser(__doc__, quick="greedy against the test player TwinPlayer (tests/java), 4 games")
    parser.add_argument(
        "--entry", action="append", help="NAME=eaai:CLASSPATH:CLASS, an EAAI entry (repeatable; needed but in --quick)"
    )
    parser.add_argument("--bot", action="append", help="a simgin strategy spec (repeatable; default: opponent)")
    parser.add_argument("--games", type=int, default=200, help="games to the target per pairing (default 200)")
    parser.add_argument("--seed", type=int, default=24, help="seed of the deals (default 24)")
    parser.add_argument(
        "--seeds",
        help="several seeds, each a match of --games on its own deals, pooled in a last row per pairing "
        "(24,25,26 or 24-29; instead of --seed)",
    )
    parser.add_argument(
        "--out", type=Path, help="keep each seed's row here as it finishes; run again with it to resume (a directory)"
    )
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default: all cores)")
    parser.add_argument(
        "--on-illegal",
        choices=("forfeit", "stop"),
        default="forfeit",
        help="an illegal move forfeits the game in progress, as in the EAAI framework (default), or stops the run",
    )
    args = parser.parse_args(argv)
    if shutil.which("javac") is None or shutil.which("java") is None:
        raise harness.Skip("no java or javac here: the EAAI entries are Java programs")
    if args.quick and not args.entry:
        from benchmarks.bench_programs import compile_test_players

        args.entry = [f"twin=eaai:{compile_test_players()}:TwinPlayer"]
        args.bot, args.games, args.workers = ["greedy"], 4, 1
    if not args.entry:
        raise harness.Skip("needs --entry NAME=eaai:CLASSPATH:CLASS: EAAI entries fetched and built by hand")
    if args.games < 1:
        parser.error("--games must be at least 1")
    try:
        entries = [parse_entry(text) for text in args.entry]
        seeds = parse_seeds(args.seeds) if args.seeds else [args.seed]
    except ValueError as error:
        parser.error(str(error))
    if args.out is not None and args.out.exists() and not args.out.is_dir():
        parser.error(f"--out {str(args.out)!r}: not a directory")
    bots = args.bot or ["opponent"]
    print(header(argv, args.workers, args.on_illegal), flush=True)
    rows = []
    for name, spec in entries:
        for bot in bots:
            pieces = []
            for seed in seeds:
                pieces.append(
                    measured_piece(args.out, bot, name, spec, args.games, seed, args.workers, args.on_illegal)
                )
                print(f"  done: {bot} against {name}, seed {seed}, {pieces[-1].seconds:.0f} s", file=sys.stderr,
                      flush=True)  # fmt: skip
            rows.extend(pieces)
            if len(pieces) > 1:
                rows.append(pooled(pieces))
    text = table(rows, {name: entry_class(spec) for name, spec in entries})
    print()
    print(text)
    if args.write and not args.quick:
        body = header(argv, args.workers, args.on_illegal) + "\n\n" + text
        print(f"wrote {harness.write_section('eaai-entries', 'Against EAAI entries (issue 24)', body)}")


if __name__ == "__main__":
    main()

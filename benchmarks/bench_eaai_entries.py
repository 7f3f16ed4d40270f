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
(``GinRummyAndTonic_Player``), sangttruong/ginrummy (``SGP_LMGeo_Knock``, ``SGP_XGBGeo_Knock``) and
cudy789/gin-rummy-SIGRA (``SIGRA``, through a no-argument subclass calling its full configuration
``SIGRA(true, true, true)``). bendstein/Gin-Rummy and sangttruong/ginrummy write their players in the default
package beside a copy of the framework, so their sources (and the helper classes the players use) are compiled
against the framework's ``ginrummy`` package with an added line ``import ginrummy.*;`` (and a helper's
``package ginrummy;`` line dropped); their play is not changed. Some entries read data files from the working
directory (``GinRummyAndTonic_Player`` reads ``opponentEV.txt`` from its repository): run from a directory that
holds them. Several entries use an unseeded ``java.util.Random``, so their play, and these figures, vary a little
from run to run on the same deals. ``SIGRA`` takes several seconds a hand (its opponent-meld model), so it is
measured on fewer games.

Reproduce (one pairing per run keeps each piece short; the figures of a pairing do not depend on the others)::

    python -m benchmarks.bench_eaai_entries --entry tonic=eaai:FRAMEWORK:TONIC:GinRummyAndTonic_Player \\
        --bot opponent --games 200 --seed 24

where FRAMEWORK and TONIC are the class directories of the compiled framework and entry.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

import simgin
from benchmarks import harness

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
    )


def percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def table(rows: Sequence[Row], classes: dict[str, str] | None = None) -> str:
    """The Markdown table "Against EAAI entries", one line per bot and entry."""
    classes = classes or {}
    lines = [
        f"### {HEADING}",
        "",
        "| bot | entry | games | hands | bot wins (95%, deal pairs) | points per hand, bot - entry (95%) "
        "| forfeits, bot/entry | seconds |",
        "|---|---|---:|---:|---|---|---:|---:|",
    ]
    for row in rows:
        low, high = row.interval()
        entry = f"{row.entry} (`{classes[row.entry]}`)" if row.entry in classes else row.entry
        lines.append(
            f"| `{row.bot}` | {entry} | {row.games} | {row.hands} | "
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
    except ValueError as error:
        parser.error(str(error))
    bots = args.bot or ["opponent"]
    print(header(argv, args.workers, args.on_illegal), flush=True)
    rows = []
    for name, spec in entries:
        for bot in bots:
            rows.append(measure(bot, name, spec, args.games, args.seed, args.workers, args.on_illegal))
            print(f"  done: {bot} against {name}, {rows[-1].seconds:.0f} s", file=sys.stderr, flush=True)
    text = table(rows, {name: entry_class(spec) for name, spec in entries})
    print()
    print(text)
    if args.write and not args.quick:
        body = header(argv, args.workers, args.on_illegal) + "\n\n" + text
        print(f"wrote {harness.write_section('eaai-entries', 'Against EAAI entries (issue 24)', body)}")


if __name__ == "__main__":
    main()

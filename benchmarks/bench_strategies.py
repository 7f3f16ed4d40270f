"""How strong is each built-in under every rule set? The strength tables of issue 11, per preset.

For each of the presets standard, oklahoma, eaai, modern, straight and hollywood (games to
the target, duplicate deals: each game seed is played with A in seat 0 and again in seat 1):

- **Against simple**: every built-in against ``simple``. *Win rate*: games won, with a 95%
  interval whose unit is the deal pair (as ``simgin match`` gives it); *points per hand*:
  A's points minus simple's, over all hands (dead ones included); *gin* and *undercut*: the
  hands A won that way; *speed*: hands per CPU second
  of the pairing on one core in the numba hand loop (simple's decisions and the engine
  included; CPU seconds, so a loaded machine does not move it), and for ``mcts`` also its
  milliseconds of CPU per decision (timed one by one through the Python adapter).
- **The ladder**: ``heuristic`` against ``simple``, ``opponent`` against ``heuristic`` and
  ``mcts`` against ``opponent``, head to head, each wanted with its interval above 50%.
- **Ratings**: Bradley-Terry ratings on the Elo scale (``simgin.statistics.stats.bradley_terry``, one
  drawn game of prior per pairing, anchored on ``simple`` = 0) of the round robin of the
  built-ins, from every pairing's games. ``mcts`` (about 12 ms a decision) plays only
  ``simple`` and ``opponent``, on fewer deals, unless ``--mcts-round-robin``; the ratings
  take the missing pairings as unobserved.

Then the **robustness** table: ``opponent`` against ``simple`` in every cell of the sweep
``gin_bonus=10,25,40 x undercut_bonus=0,10,25 x knock_limit=5,10`` (standard otherwise),
played through ``simgin.studies.sweep.run_sweep`` exactly as ``simgin sweep opponent simple --grid
gin_bonus=10,25,40 --grid undercut_bonus=0,10,25 --grid knock_limit=5,10 --games N`` plays
it, each cell wanted with its interval above 50%.

The targets of issue 24 (which raised issue 11's) are checked and stated met or missed, and
the strength gates recorded in ``benchmarks/RESULTS.md`` (``simgin/tools/gates.py``) are
summed up: each change kept or rejected, with its SPRT decisions. The report is printed and,
with ``--write``, written between ``<!-- strength:start -->`` and
``<!-- strength:end -->`` in ``benchmarks/RESULTS.md`` (heading and markers appended when
missing; nothing else in the file is touched), and the summary (each bot's win rate against
simple, by preset) between ``<!-- strength-table:start -->`` and ``<!-- strength-table:end -->``
in the README.

Run from the repository root::

    python -m benchmarks.bench_strategies --write   # the full run (about an hour on two cores)
    python -m benchmarks.bench_strategies --quick   # a smoke test

The full run in pieces of a few minutes each (a preset, or the robustness sweep), so that a stopped run loses
one piece at most: ``--pieces DIR`` keeps each finished piece in ``DIR`` as JSON and plays only the missing ones
(``--only`` names which to play now); the report is printed, and written with ``--write``, once every piece is
there. A piece is used only with the settings, seed and revision it was played with::

    python -m benchmarks.bench_strategies --pieces strength --only standard,oklahoma
    python -m benchmarks.bench_strategies --pieces strength --write   # the rest, then the report
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np

from benchmarks import harness
from simgin import Rules
from simgin.game.reference_engine import play_hand
from simgin.kernels import engine as k
from simgin.kernels.showdown import KIND_BIG_GIN, KIND_GIN, KIND_UNDERCUT
from simgin.players.registry import BUILTIN_NAMES, resolve
from simgin.running.engine import game_hands, hand_seeds, play_game_rows, play_hand_rows
from simgin.running.runner import RunConfig
from simgin.running.summary import pair_share_interval
from simgin.statistics.stats import bradley_terry
from simgin.studies.sweep import run_sweep

RESULTS = harness.RESULTS
README = harness.ROOT / "README.md"
README_START = "<!-- strength-table:start -->"
README_END = "<!-- strength-table:end -->"
HEADING = "## Strategy strength under every preset (issue 11)"
START = "<!-- strength:start -->"
END = "<!-- strength:end -->"
SEED = 20240611
PRESETS = ("standard", "oklahoma", "eaai", "modern", "straight", "hollywood")
LADDER = (("heuristic", "simple"), ("opponent", "heuristic"), ("mcts", "opponent"))
GRID = {"gin_bonus": [10, 25, 40], "undercut_bonus": [0, 10, 25], "knock_limit": [5, 10]}
DECISIONS = ("take_up_card", "draw_from_pile", "discard", "knock", "big_gin", "take_fiftieth")
#: Issue 24's targets: shares of games against simple, and hands per CPU second on one core.
GOAL_OPPONENT, FLOOR_OPPONENT, GOAL_MCTS, GOAL_HEURISTIC = 0.65, 0.62, 0.75, 0.60
GOAL_EAAI_OPPONENT, GOAL_EAAI_MCTS = 0.75, 0.75
GOAL_OPPONENT_HANDS, GOAL_HEURISTIC_HANDS, GOAL_MCTS_HANDS = 5_000, 20_000, 10
GATES_START, GATES_END = "<!-- gates:start -->", "<!-- gates:end -->"
#: The pieces of a full run, in the report's order: one per preset, then the robustness sweep.
PIECES = (*PRESETS, "robustness")


@dataclass
class Duel:
    """A against B over duplicate deals, seen from A."""

    a: str
    b: str
    games: int
    wins: int
    draws: int
    hands: int
    net_points: int
    gins: int
    undercuts: int
    seconds: float
    #: How many deals A scored 0, 1/2, 1, 3/2 and 2 games on over its two legs (a capped game counts half).
    pair_scores: tuple[int, ...] = ()

    @property
    def score(self) -> float:
        """A's share of the games, an undecided (capped) game counting half."""
        return (self.wins + 0.5 * self.draws) / self.games

    @property
    def win_rate(self) -> float:
        return self.wins / self.games

    def interval(self) -> tuple[float, float]:
        """The 95% interval of A's share of games won with the deal pair as the unit, as ``simgin match`` gives it
        (docs/STATISTICS.md section 3, issue 32 item 3): the two games of a deal are not independent trials.
        Without pair scores (a duel built by hand), Wilson's interval over single games."""
        if not self.pair_scores:
            return wilson(self.wins, self.games)
        counts = {"pairs": sum(self.pair_scores), **{f"pair_score_{k}": c for k, c in enumerate(self.pair_scores)}}
        return pair_share_interval(counts, self.wins, self.games)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def duel(a: str, b: str, rules: Rules, deal_count: int, seed: int) -> Duel:
    """``deal_count`` game seeds, each played with A in seat 0 and then in seat 1."""
    seeds = hand_seeds(seed, deal_count)
    start = time.perf_counter()
    wins = draws = hands = net = gins = undercuts = 0
    halves = np.zeros(deal_count, dtype=np.int64)  # A's games over the deal's two legs, in halves
    for players, seat_a in (((a, b), 0), ((b, a), 1)):
        games, rows, counts = play_game_rows(players, rules, seeds)
        wins += int(np.sum(games[:, k.G_WINNER] == seat_a))
        draws += int(np.sum(games[:, k.G_WINNER] < 0))
        halves += 2 * (games[:, k.G_WINNER] == seat_a) + (games[:, k.G_WINNER] < 0)
        played, _ = game_hands(rows, counts)
        won = played[:, k.H_WINNER] == seat_a
        lost = played[:, k.H_WINNER] == 1 - seat_a
        hands += played.shape[0]
        net += int(played[won, k.H_POINTS].sum() - played[lost, k.H_POINTS].sum())
        kinds = played[:, k.H_KIND]
        gins += int(np.sum(won & ((kinds == KIND_GIN) | (kinds == KIND_BIG_GIN))))
        undercuts += int(np.sum(won & (kinds == KIND_UNDERCUT)))
    pair_scores = tuple(int(c) for c in np.bincount(halves, minlength=5))
    seconds = time.perf_counter() - start
    return Duel(a, b, 2 * deal_count, wins, draws, hands, net, gins, undercuts, seconds, pair_scores)


class Counting:
    """A strategy that counts its decisions and times them."""

    def __init__(self, inner):
        self.inner = inner
        self.name = inner.name
        self.times: list[float] = []

    def start_hand(self, view, rng):
        self.inner.start_hand(view, rng)

    def __getattr__(self, decision):
        if decision not in DECISIONS:
            raise AttributeError(decision)

        def ask(view, rng):
            start = time.thread_time()
            answer = getattr(self.inner, decision)(view, rng)
            self.times.append(time.thread_time() - start)
            return answer

        return ask


def decision_times(spec: str, rules: Rules, hand_count: int, seed: int) -> list[float]:
    """The time of each of ``spec``'s decisions over hands against simple, both seats (Python adapter)."""
    times: list[float] = []
    for i, hand_seed in enumerate(hand_seeds(seed, hand_count)):
        bot = Counting(resolve(spec).make())
        other = resolve("simple").make()
        players = (bot, other) if i % 2 == 0 else (other, bot)
        play_hand(players, rules, int(hand_seed), dealer=(i // 2) % 2)
        times += bot.times
    return times


def hands_per_second(spec: str, rules: Rules, hand_count: int, seed: int) -> float:
    """Hands per CPU second of ``spec`` against simple on one core (numba hand loop, numba on one thread),
    both seats; CPU time, so that other work on the machine does not count."""
    seeds = hand_seeds(seed, hand_count)
    dealers = (np.arange(hand_count, dtype=np.int64) // 2) % 2
    play_hand_rows((spec, "simple"), rules, seeds[:2], dealers[:2])  # compile outside the timing
    start = time.process_time()
    play_hand_rows((spec, "simple"), rules, seeds[0::2], dealers[0::2])
    play_hand_rows(("simple", spec), rules, seeds[1::2], dealers[1::2])
    return hand_count / (time.process_time() - start)


def ratings(duels: dict[tuple[str, str], Duel], names: tuple[str, ...]) -> np.ndarray:
    """Bradley-Terry ratings (Elo scale, one drawn game of prior per pairing) anchored on simple."""
    wins = np.zeros((len(names), len(names)))
    games = np.zeros((len(names), len(names)))
    for (a, b), result in duels.items():
        i, j = names.index(a), names.index(b)
        wins[i, j] += result.wins + 0.5 * result.draws
        wins[j, i] += result.games - result.wins - 0.5 * result.draws
        games[i, j] += result.games
        games[j, i] += result.games
    return bradley_terry(wins, games, anchor=names.index("simple"))


def verdict(met: bool) -> str:
    return "**met**" if met else "**missed**"


def percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def show(result: Duel) -> str:
    low, high = result.interval()
    return f"{percent(result.win_rate)} ({percent(low)}-{percent(high)})"


def _deals(args: argparse.Namespace, a: str, b: str) -> int:
    return args.search_games if "mcts" in (a, b) else args.games


def preset_report(
    preset: str, args: argparse.Namespace, checks: list[tuple[str, bool]], against_simple: dict[tuple[str, str], float]
) -> list[str]:
    """The section of one preset: against simple, the ladder, the ratings; targets go into ``checks``,
    each bot's win rate against simple into ``against_simple[(bot, preset)]``."""
    rules = Rules.preset(preset)
    names = tuple(BUILTIN_NAMES)
    pairs = [(name, "simple") for name in names if name != "simple"]
    pairs += [pair for pair in LADDER if pair not in pairs]
    pairs += [
        (a, b)
        for i, a in enumerate(names)
        for b in names[i + 1 :]
        if "simple" not in (a, b)
        and (a, b) not in pairs
        and (b, a) not in pairs
        and (args.mcts_round_robin or "mcts" not in (a, b))
    ]
    duels: dict[tuple[str, str], Duel] = {}
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    for a, b in pairs:
        duels[(a, b)] = duel(a, b, rules, _deals(args, a, b), args.seed)
        print(f"{preset}: {a} vs {b}: {duels[(a, b)].win_rate:.3f}", file=sys.stderr)
    numba.set_num_threads(1)
    speed = {name: hands_per_second(name, rules, args.speed_hands, args.seed) for name in names if name != "mcts"}
    speed["mcts"] = hands_per_second("mcts", rules, args.timing_hands, args.seed)
    mcts_ms = 1000 * float(np.mean(decision_times("mcts", rules, args.timing_hands, args.seed)))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    elo = ratings(duels, names)
    lines = [
        f"### {preset}",
        "",
        "| bot | games | win rate vs simple (95% CI) | points per hand | gin | undercut | speed, one core | Elo |",
        "|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    for name in names:
        if name == "simple":
            lines.append(f"| `simple` | | | | | | {speed['simple']:,.0f} hands/s | 0 |")
            continue
        result = duels[(name, "simple")]
        against_simple[(name, preset)] = result.win_rate
        pace = f"{speed[name]:,.0f} hands/s"
        if name == "mcts":
            pace = f"{speed[name]:,.1f} hands/s, {mcts_ms:.1f} ms/decision"
        lines.append(
            f"| `{name}` | {result.games:,} | {show(result)} | {result.net_points / result.hands:+.2f} | "
            f"{percent(result.gins / result.hands)} | {percent(result.undercuts / result.hands)} | {pace} | "
            f"{elo[names.index(name)]:+.0f} |"
        )
    lines += ["", "Ladder, head to head: " + "; ".join(f"`{a}` vs `{b}` {show(duels[(a, b)])}" for a, b in LADDER), ""]
    opponent = duels[("opponent", "simple")]
    heuristic = duels[("heuristic", "simple")]
    mcts = duels[("mcts", "simple")]
    goal_opponent = GOAL_EAAI_OPPONENT if preset == "eaai" else GOAL_OPPONENT
    goal_mcts = GOAL_EAAI_MCTS if preset == "eaai" else GOAL_MCTS
    checks.append(
        (f"{preset}: `opponent` >= {percent(goal_opponent)} against simple", opponent.win_rate >= goal_opponent)
    )
    checks.append(
        (f"{preset}: `opponent` >= {percent(FLOOR_OPPONENT)} (never less)", opponent.win_rate >= FLOOR_OPPONENT)
    )
    checks.append(
        (f"{preset}: `opponent` >= {GOAL_OPPONENT_HANDS:,} hands/s per core", speed["opponent"] >= GOAL_OPPONENT_HANDS)
    )
    checks.append(
        (f"{preset}: `heuristic` >= {percent(GOAL_HEURISTIC)} against simple", heuristic.win_rate >= GOAL_HEURISTIC)
    )
    checks.append(
        (
            f"{preset}: `heuristic` >= {GOAL_HEURISTIC_HANDS:,} hands/s per core",
            speed["heuristic"] >= GOAL_HEURISTIC_HANDS,
        )
    )
    checks.append((f"{preset}: `mcts` >= {percent(goal_mcts)} against simple", mcts.win_rate >= goal_mcts))
    checks.append((f"{preset}: `mcts` >= {GOAL_MCTS_HANDS} hands/s per core", speed["mcts"] >= GOAL_MCTS_HANDS))
    for a, b in LADDER:
        checks.append((f"{preset}: `{a}` beats `{b}` (interval above 50%)", duels[(a, b)].interval()[0] > 0.5))
    return lines


def robustness_report(args: argparse.Namespace, checks: list[tuple[str, bool]]) -> list[str]:
    """``opponent`` against ``simple`` in every cell of the issue's sweep (standard otherwise)."""
    config = RunConfig(("opponent", "simple"), rules=Rules(), games=2 * args.sweep_games, seed=args.seed)
    cells, _ = run_sweep(config, GRID, workers=args.workers)
    lines = [
        "### Robustness: `opponent` against `simple` across bonuses and knock limits",
        "",
        f"`simgin sweep opponent simple --grid gin_bonus=10,25,40 --grid undercut_bonus=0,10,25 "
        f"--grid knock_limit=5,10 --games {2 * args.sweep_games} --seed {args.seed}` (standard rules otherwise).",
        "",
        "| gin_bonus | undercut_bonus | knock_limit | games | win rate (95% CI) | points per hand |",
        "|---:|---:|---:|---:|---|---:|",
    ]
    above = 0
    for cell in cells:
        row = next(r for r in cell["summary"] if r["player"] == "opponent")
        cell_values = " | ".join(str(cell["settings"][switch]) for switch in GRID)
        lines.append(
            f"| {cell_values} | {row['games']:,} | "
            f"{percent(row['win_rate'])} ({percent(row['win_rate_low'])}-{percent(row['win_rate_high'])}) | "
            f"{row['net_points_per_hand']:+.2f} |"
        )
        above += row["win_rate_low"] > 0.5
    checks.append(
        (f"robustness: `opponent` beats `simple` in every cell ({above} of {len(cells)})", above == len(cells))
    )
    return lines


def readme_table(against_simple: dict[tuple[str, str], float], args: argparse.Namespace) -> str:
    """The README's summary: each bot's share of games won against simple, by preset."""
    bots = [name for name in BUILTIN_NAMES if name != "simple"]
    lines = [
        "Share of games won against `simple` (games to the target, duplicate deals; "
        f"{2 * args.games:,} games per cell, {2 * args.search_games:,} for `mcts`; "
        "`python -m benchmarks.bench_strategies`, details and intervals in benchmarks/RESULTS.md):",
        "",
        "| bot | " + " | ".join(PRESETS) + " |",
        "|---|" + "---:|" * len(PRESETS),
    ]
    for name in bots:
        lines.append(f"| `{name}` | " + " | ".join(percent(against_simple[(name, p)]) for p in PRESETS) + " |")
    return "\n".join(lines)


@dataclass
class Piece:
    """What one piece of the run adds to the report: its lines, its targets, each bot's win rate against simple."""

    lines: list[str]
    checks: list[tuple[str, bool]]
    against_simple: dict[tuple[str, str], float]

    def to_json(self) -> dict[str, object]:
        return {
            "lines": self.lines,
            "checks": [[label, ok] for label, ok in self.checks],
            "against_simple": [[name, preset, rate] for (name, preset), rate in self.against_simple.items()],
        }

    @classmethod
    def from_json(cls, data: dict) -> Piece:
        return cls(
            list(data["lines"]),
            [(str(label), bool(ok)) for label, ok in data["checks"]],
            {(str(name), str(preset)): float(rate) for name, preset, rate in data["against_simple"]},
        )


def play_piece(name: str, args: argparse.Namespace) -> Piece:
    """One piece of the run: a preset's section, or the robustness sweep."""
    checks: list[tuple[str, bool]] = []
    against_simple: dict[tuple[str, str], float] = {}
    if name == "robustness":
        lines = robustness_report(args, checks)
    else:
        lines = preset_report(name, args, checks, against_simple)
    return Piece(lines, checks, against_simple)


def piece_settings(args: argparse.Namespace) -> dict[str, object]:
    """What a kept piece must have been played with to be used: every setting that changes a figure, and the
    revision (a piece of other code is played again)."""
    keys = ("games", "search_games", "sweep_games", "speed_hands", "timing_hands", "seed", "mcts_round_robin")
    return {key: getattr(args, key) for key in keys} | {"revision": harness.git_revision()}


def kept_piece(directory: Path, name: str, settings: dict[str, object]) -> Piece | None:
    """The piece ``name`` kept in ``directory`` with these settings, or None (missing, other settings, damaged)."""
    try:
        data = json.loads((directory / f"{name}.json").read_text(encoding="utf-8"))
        return Piece.from_json(data["piece"]) if data["settings"] == settings else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def keep_piece(directory: Path, name: str, settings: dict[str, object], piece: Piece) -> None:
    """Write a finished piece, atomically (a stopped run leaves the old file or the new one)."""
    directory.mkdir(parents=True, exist_ok=True)
    temporary = directory / f".{name}.json.tmp"
    temporary.write_text(json.dumps({"settings": settings, "piece": piece.to_json()}, indent=1), encoding="utf-8")
    temporary.replace(directory / f"{name}.json")


def play_pieces(args: argparse.Namespace) -> dict[str, Piece]:
    """The pieces of the run: each kept one (with ``--pieces``), and those named by ``--only`` (all by default)
    played now, and kept."""
    wanted = PIECES if args.only is None else args.only
    directory = Path(args.pieces) if args.pieces else None
    settings = piece_settings(args)
    pieces: dict[str, Piece] = {}
    for name in PIECES:
        kept = kept_piece(directory, name, settings) if directory else None
        if kept is not None:
            pieces[name] = kept
            print(f"{name}: kept in {directory}", file=sys.stderr)
        elif name in wanted:
            start = time.perf_counter()
            pieces[name] = play_piece(name, args)
            print(f"{name}: played in {time.perf_counter() - start:.0f} s", file=sys.stderr)
            if directory:
                keep_piece(directory, name, settings, pieces[name])
    return pieces


def build_report(args: argparse.Namespace, pieces: dict[str, Piece]) -> tuple[str, str]:
    """(the RESULTS.md report, the README's summary table), from every piece (:func:`play_pieces`)."""
    checks = [check for name in PIECES for check in pieces[name].checks]
    against_simple = {key: rate for name in PIECES for key, rate in pieces[name].against_simple.items()}
    lines = [
        f"Reproduce: `python -m benchmarks.bench_strategies --games {args.games} --search-games {args.search_games} "
        f"--sweep-games {args.sweep_games}{' --mcts-round-robin' if args.mcts_round_robin else ''}` "
        f"({args.games:,} deals per pairing, {args.search_games:,} for pairings with mcts, {args.sweep_games:,} per "
        f"sweep cell; seed {args.seed}). Machine: {harness.machine()}. "
        + ("" if args.mcts_round_robin else "`mcts` plays `simple` and `opponent` only (its ratings rest on those). "),
        "",
        "Games to the target with duplicate deals (each deal played from both seats). *Win rate*: games won (95% "
        "interval, the deal pair as the unit, as `simgin match` gives it); *points per hand*: the bot's points minus "
        "simple's per hand; *gin*, *undercut*: hands the bot won that way; *speed*: hands per CPU second of the "
        "pairing against simple on one core in the numba hand "
        "loop, for mcts also CPU milliseconds per decision; *Elo*: Bradley-Terry rating of the round robin of all six "
        "built-ins, simple = 0.",
        "",
    ]
    for name in PIECES:
        lines += pieces[name].lines
    met = sum(ok for _, ok in checks)
    lines += ["", f"Targets of issue 24 ({met} of {len(checks)} met):", ""]
    lines += [f"- {label}: {verdict(ok)}" for label, ok in checks]
    lines += ["", *gates_summary(RESULTS.read_text(encoding="utf-8") if RESULTS.exists() else "")]
    return "\n".join(lines), readme_table(against_simple, args)


def gates_summary(results: str) -> list[str]:
    """The strength gates recorded in RESULTS.md (``simgin/tools/gates.py --record``), one line per change:
    kept or rejected, and each preset's decision with its games."""
    if GATES_START not in results or GATES_END not in results:
        return ["Strength gates: none recorded."]
    table = results.split(GATES_START, 1)[1].split(GATES_END, 1)[0]
    changes: dict[str, list[str]] = {}
    for row in table.strip().splitlines():
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        if len(cells) < 5 or not cells[0][:1].isdigit():
            continue
        label, preset, decision, games = cells[1], cells[2], cells[3].replace("*", ""), cells[4]
        changes.setdefault(label, []).append(f"{preset} {decision}" + (f", {games} games" if games else ""))
    lines = ["Strength gates (the table *Strength gates* below; a change is kept only when every preset passes):", ""]
    for label, decisions in changes.items():
        lines.append(f"- {label}: " + "; ".join(sorted(decisions)))
    return lines


def write_results(report: str) -> None:
    """Replace the text between the strength markers (appending heading and markers if missing)."""
    harness.write_section("strength", HEADING.removeprefix("## "), report, RESULTS)


def write_readme(table: str) -> None:
    """Replace the README's summary table between its markers (which must be there)."""
    text = README.read_text(encoding="utf-8")
    if README_START not in text or README_END not in text:
        raise SystemExit(f"{README}: no {README_START} ... {README_END} markers for the strength table")
    before, rest = text.split(README_START, 1)
    _, after = rest.split(README_END, 1)
    README.write_text(f"{before}{README_START}\n{table}\n{README_END}{after}", encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = harness.parser(__doc__, quick="tiny samples: a smoke test")
    parser.add_argument("--games", type=int, default=2000, help="deals (game seeds) per pairing; each played twice")
    parser.add_argument("--search-games", type=int, default=100, help="deals for pairings with mcts")
    parser.add_argument(
        "--mcts-round-robin",
        action="store_true",
        help="also play mcts against random, greedy and heuristic (about 4 minutes per 100 deals each)",
    )
    parser.add_argument("--sweep-games", type=int, default=1000, help="deals per cell of the robustness sweep")
    parser.add_argument("--speed-hands", type=int, default=20_000, help="hands timed for hands per second")
    parser.add_argument("--timing-hands", type=int, default=20, help="hands of mcts decisions timed one by one")
    parser.add_argument("--workers", type=int, default=None, help="worker processes of the sweep")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--pieces", metavar="DIR", help="keep each finished piece in DIR and play only the missing")
    parser.add_argument(
        "--only",
        type=_piece_names,
        metavar="NAMES",
        help=f"play only these pieces now (comma-separated, of {', '.join(PIECES)}); with --pieces",
    )
    args = parser.parse_args(argv)
    if args.only is not None and not args.pieces:
        parser.error("--only takes --pieces DIR, where the other pieces are kept")
    if args.quick:
        args.games, args.search_games, args.sweep_games, args.speed_hands, args.timing_hands = 20, 2, 4, 200, 1
    pieces = play_pieces(args)
    missing = [name for name in PIECES if name not in pieces]
    if missing:
        print(f"played or kept {len(pieces)} of {len(PIECES)} pieces; still to play: {', '.join(missing)}")
        return
    report, table = build_report(args, pieces)
    print(report)
    print(table)
    if args.write and not args.quick:
        write_results(report)
        write_readme(table)
        print(f"written to {RESULTS} and {README}", file=sys.stderr)


def _piece_names(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in names if name not in PIECES]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"{text!r}: name pieces of {', '.join(PIECES)}")
    return names


if __name__ == "__main__":
    main()

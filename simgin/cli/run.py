"""The commands that play many hands: ``simgin match``, ``simgin tournament`` and ``simgin replay``.

They are registered on the root group in :mod:`simgin.cli.main`; the work is done by
:mod:`simgin.running.runner` (a replay by :mod:`simgin.running.replay`), the numbers by
:mod:`simgin.running.summary`.
"""

from __future__ import annotations

import contextlib
import functools
import math
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from simgin.cli.options import (
    build_rules,
    echo_json,
    json_option,
    on_illegal_option,
    plural,
    rules_options,
    set_option,
    show_value,
    user_error,
    warn_overridden,
)
from simgin.game.rules import Rules
from simgin.game.showdown import OUTCOMES
from simgin.players.programs import MAX_DECISION_TIMEOUT
from simgin.statistics.formats import p_value, percent
from simgin.statistics.ratings import bootstrap_label

F = TypeVar("F", bound=Callable[..., Any])

#: Note lines at most for the cells of a sweep that repeat an earlier cell's game.
MAX_NOTES = 10
#: Forfeits listed at most in text output (``--json`` and ``result.json`` hold them all, up to
#: ``tally.MAX_FORFEITS_KEPT`` per pairing).
MAX_FORFEIT_LINES = 5


class OutDirectory(click.Path):
    """``--out DIR``: a directory path; an empty one (``--out ''``, which would mean the working
    directory) is refused."""

    def __init__(self) -> None:
        super().__init__(file_okay=False, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("an empty name is not a directory; give one, e.g. --out results", param, ctx)
        return super().convert(value, param, ctx)


def out_option(help_text: str) -> Callable[[F], F]:
    """The ``--out DIR`` option."""
    return click.option("--out", type=OutDirectory(), default=None, metavar="DIR", help=help_text)


def run_options(func: F) -> F:
    """The options shared by match and tournament."""
    options = [
        click.option("--hands", type=int, default=None, help="Hands per pairing (independent deals)."),
        click.option("--games", type=int, default=None, help="Games to the target score per pairing."),
        click.option(
            "--seed", type=int, default=0, show_default=True, help="Seed of the run: same seed, same results."
        ),
        click.option(
            "--duplicate/--no-duplicate",
            default=True,
            show_default=True,
            help="Play each deal twice with the seats swapped (the pair is the statistical unit).",
        ),
        click.option("--workers", type=int, default=None, help="Worker processes (default: all cores)."),
        click.option(
            "--backend",
            type=click.Choice(["local", "dask"]),
            default="local",
            show_default=True,
            help="local: a process pool on this machine; dask: a Dask cluster (pip install 'simgin[dask]').",
        ),
        click.option("--scheduler", default=None, metavar="ADDRESS", help="Dask scheduler, e.g. tcp://10.0.0.5:8786."),
        out_option("Directory for results (new or empty, or an earlier run's to resume); finished chunks are kept."),
        click.option("--hand-log", is_flag=True, help="Also write every hand to Parquet files in --out."),
        decision_timeout_option,
        on_illegal_option,
        click.option("--quiet", is_flag=True, help="No progress bar."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _check_timeout(ctx: click.Context, param: click.Parameter, value: float) -> float:
    if not math.isfinite(value):
        raise click.BadParameter(
            f"{value} is not allowed: give a number of seconds, more than 0 and at most {MAX_DECISION_TIMEOUT:g}",
            param_hint="--decision-timeout",
        )
    return value


decision_timeout_option = click.option(
    "--decision-timeout",
    type=click.FloatRange(min=0, max=MAX_DECISION_TIMEOUT, min_open=True),
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    callback=_check_timeout,
    help="Time an exec: or eaai: strategy may take per decision; a slower answer stops the run.",
)


def _programs(decision_timeout: float):
    """How exec: and eaai: strategies run, from the CLI options."""
    from simgin.players.programs import ProgramSettings

    return ProgramSettings(decision_timeout=decision_timeout)


def _check_counts(hands: int | None, games: int | None) -> None:
    from simgin.running.runner import MAX_GAMES, MAX_HANDS

    if hands is not None and games is not None:
        raise click.UsageError("give --hands or --games, not both")
    for name, value, most in (("--hands", hands, MAX_HANDS), ("--games", games, MAX_GAMES)):
        check_range(name, value, 1, most)


def check_range(name: str, value: int | None, low: int, high: int, what: str = "") -> None:
    """A one-line error naming the option, its value and the allowed range unless ``low <= value <= high``."""
    if value is not None and not low <= value <= high:
        raise click.ClickException(f"{name} {value}: must be between {low:,} and {high:,}{what}")


def check_run_options(workers: int | None, seed: int, backend: str, scheduler: str | None) -> None:
    """Bounds of --workers and --seed, checked before anything is allocated."""
    from simgin.running import runner

    check_range("--seed", seed, 0, runner.MAX_SEED, " (a 64-bit seed)")
    if scheduler and backend != "dask":
        raise click.ClickException("--scheduler needs --backend dask")
    if workers is not None:
        try:
            runner.check_workers(workers, backend, scheduler)
        except ValueError as error:
            raise click.ClickException(f"--workers {workers}: {str(error).partition(': ')[2]}") from None


def notice(message: str) -> None:
    """What a run reports without stopping (a Dask cluster without workers, a hand log played again): stderr."""
    click.echo(f"simgin: {message}", err=True)


def _announce_compilation(unit: str, table: str, players: Sequence[str] = ()) -> None:
    """Say so when numba's cache lacks the kernel this run plays in or a searching bot it plays (a
    first run, or new kernel sources), since compiling takes seconds; later runs load them from the cache."""
    from simgin.running import runner

    if not runner.kernels_cached(unit, table, players=players):
        click.echo("compiling kernels, first run only (10-30 seconds)...", err=True)


def _make_config(
    players: Sequence[str],
    rules: Rules,
    options: dict[str, Any],
    default_hands: int = 10_000,
    table: str = "pairs",
):
    """Check the counts in the shared run options and build the run settings, or fail with a one-line error."""
    from simgin.running import runner

    hands, games = options["hands"], options["games"]
    if hands is None and games is None:
        hands = default_hands
    _check_counts(hands, games)
    check_run_options(options["workers"], options["seed"], options["backend"], options["scheduler"])
    try:
        config = runner.RunConfig(
            tuple(players),
            rules,
            hands,
            games,
            options["seed"],
            options["duplicate"],
            table=table,
            on_illegal=options["on_illegal"],
        )
    except ValueError as error:
        raise user_error("", error) from None
    warn_overridden(rules, table, config.mode == "games")
    return config


@contextlib.contextmanager
def _running(
    total: int,
    unit: str,
    quiet: bool,
    out: Path | None,
    table: str = "pairs",
    show_partial: Callable[[list[Any]], None] | None = None,
    players: Sequence[str] = (),
) -> Iterator[Callable[[Any, int], None]]:
    """A progress callback (a bar with the rate and time left on a terminal), and one-line errors.

    On Ctrl-C without ``--out``, ``show_partial`` (if given) prints what was finished,
    marked as partial, before the error line, which says how to keep the work next time.
    """
    from simgin.running import runner

    _announce_compilation(unit, table, players)
    show = not quiet and sys.stderr.isatty()
    started = time.perf_counter()
    bar = click.progressbar(length=total, label=unit, file=sys.stderr, show_eta=True)

    def progress(result: Any, units: int) -> None:
        if show:
            rate = (bar.pos + units) / max(time.perf_counter() - started, 1e-9)
            bar.label = f"{unit} ({rate:,.0f}/s)"
            bar.update(units)

    try:
        if show:
            bar.__enter__()
        yield progress
    except (runner.RunError, ValueError) as error:
        raise user_error("", error) from None
    except KeyboardInterrupt as interrupt:
        if show:
            bar.__exit__(None, None, None)
            show = False
        if out is not None:
            kept = _finished_files(out / "chunks")
            if not kept:  # nothing finished, here or in an earlier session: nothing to keep
                raise click.ClickException(
                    f"interrupted before any chunk was finished: nothing is kept in {out}; "
                    "rerun the same command to start again"
                ) from None
            raise click.ClickException(
                f"interrupted; {plural(kept, 'finished chunk')} {'is' if kept == 1 else 'are'} kept in {out}, "
                "rerun the same command to resume"
            ) from None
        keep = "run with --out DIR to keep finished chunks and resume after an interruption"
        results = getattr(interrupt, "results", None) or []
        finished = results[0].chunks_run if results else 0
        if not finished:
            raise click.ClickException(f"interrupted before any result was finished; {keep}") from None
        if show_partial is None:
            raise click.ClickException(f"interrupted; {finished} finished chunks are lost, {keep}") from None
        show_partial(results)
        raise click.ClickException(
            f"interrupted: the result above is PARTIAL, only the chunks finished; {keep}"
        ) from None
    finally:
        if show:
            bar.__exit__(None, None, None)


def _finished_files(folder: Path) -> int:
    """How many finished records (``*.json``, each written whole) ``folder`` holds; 0 when it cannot be read."""
    try:
        return sum(1 for path in folder.glob("*.json") if path.is_file())
    except OSError:
        return 0


def _table_players(players: tuple[str, ...], teams: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The kind of table and its players: two strategies, three (V11), or two --team pairs (V12)."""
    if teams:
        if players or len(teams) != 2:
            raise click.UsageError("a partnership game takes exactly two --team A,B options and no other strategies")
        members = [tuple(name.strip() for name in team.split(",")) for team in teams]
        for team, names in zip(teams, members, strict=True):
            if len(names) != 2 or not all(names):
                raise click.BadParameter(f"{team!r}: a team is two strategies, e.g. simple,greedy", param_hint="--team")
        return "teams", (*members[0], *members[1])
    if len(players) not in (2, 3):
        raise click.UsageError(f"match takes two or three strategies (or two --team), got {len(players)}")
    return ("pairs" if len(players) == 2 else "three"), players


def _table_match(table: str, players: tuple[str, ...], rules: Rules, as_json: bool, options: dict[str, Any]) -> None:
    """A three-player or partnership match: per-player (or per-team) results and the seat advantage."""

    if options["hands"] is not None:
        raise click.BadParameter(
            "three-player and partnership games are played whole: use --games", param_hint="--hands"
        )
    if options["games"] is None:
        options["games"] = 120

    def show(results: list[Any], partial: bool = False) -> None:
        _show_table_match(results[0], as_json, partial)

    outcome = _execute(players, rules, table=table, show_partial=lambda results: show(results, True), **options)
    show([outcome.run])
    _save(options["out"], outcome.result_data)


def _show_table_match(result: Any, as_json: bool, partial: bool) -> None:
    from simgin.game.multiplayer import seat_advantage, table_json

    data = table_json(result)
    if as_json:
        echo_json(data | ({"partial": _partial_json(result)} if partial else {}))
        return
    if partial:
        click.echo(_partial_line(result))
    config = result.config
    summary = result.summary
    name_column = "player" if config.table == "three" else "team"
    click.echo(f"{config.table} table: {data['games']:,} games, {data['hands']:,} hands, seed {data['seed']}")
    labels = player_labels(config.players, ask=not partial)
    rows = summary.to_dict(orient="records")
    names = [
        labels.get(row[name_column], row[name_column])
        if config.table == "three"
        else " + ".join(labels.get(member, member) for member in row[name_column].split(" + "))
        for row in rows
    ]
    width = max([20, *(len(name) for name in names)])
    for name, row in zip(names, rows, strict=True):
        click.echo(
            f"  {name:<{width}} wins {_percent(row['win_rate'])} of games "
            f"({_percent(row['win_rate_low'])}-{_percent(row['win_rate_high'])}), "
            f"{row['points_per_hand']:.2f} points per hand"
        )
    seats = seat_advantage(config.table, result.tallies[0])
    shown = ", ".join(f"seat {int(r.seat)} {_percent(r.win_rate)}" for r in seats.itertuples())
    click.echo(f"  win rate by seat: {shown}")


def _partial_json(result: Any) -> dict[str, Any]:
    """What a partial result covers: the ``partial`` key of the JSON printed after Ctrl-C."""
    config = result.config
    return {
        "interrupted": True,
        "chunks_finished": result.chunks_run,
        "chunks_planned": config.chunk_count * len(config.pairings),
        config.mode: int(result.tallies[0][config.mode]),
        f"{config.mode}_planned": config.count,
    }


def _partial_line(result: Any) -> str:
    """The line that heads a partial result printed as text."""
    info = _partial_json(result)
    mode = result.config.mode
    each = " per pairing" if result.config.table == "pairs" else ""
    return (
        f"PARTIAL RESULT (interrupted): {info[mode]:,} of {info[f'{mode}_planned']:,} {mode}{each}, "
        f"{info['chunks_finished']} of {info['chunks_planned']} chunks; not the run asked for"
    )


def _execute(
    players: Sequence[str],
    rules: Rules,
    table: str = "pairs",
    show_partial: Callable[[list[Any]], None] | None = None,
    play: Callable[..., Any] | None = None,
    **options: Any,
):
    """Run a match (or, with ``play``, a tournament) from the shared options through the library
    (:mod:`simgin.running.matches`); ``result.json`` is written by the command after it prints."""
    from simgin.running import matches

    config = _make_config(players, rules, options, table=table)
    out = options["out"]
    total = config.count * len(config.pairings)
    with _running(total, config.mode, options["quiet"], out, config.table, show_partial, config.players) as progress:
        return (play or matches.play_match)(config, save=False, progress=progress, **_execution(options))


def _execution(options: dict[str, Any]) -> dict[str, Any]:
    """Where and how chunks run: the runner's keyword arguments from the shared options."""
    execution = {key: options[key] for key in ("workers", "backend", "scheduler", "out", "hand_log")}
    return execution | {"notice": notice, "programs": _programs(options["decision_timeout"])}


def _save(out: Path | None, data: Callable[[], dict[str, Any]]) -> None:
    """Write ``out/result.json`` (after the result was printed: a failure here loses nothing shown)."""
    if out is None:
        return
    from simgin.running.results import save_result

    try:
        save_result(out, data())
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise click.ClickException(
            f"cannot write {out / 'result.json'}: {reason}; the result printed above is complete, "
            "and a rerun where the directory is writable writes the file without playing again"
        ) from None
    except ValueError as error:
        raise user_error("", error) from None


#: The longest label a program's handshake NAME gives a text column.
MAX_LABEL = 32


def player_labels(players: Sequence[str], ask: bool = True) -> dict[str, str]:
    """The label of each player in text columns: an ``exec:`` program's handshake NAME (its spec is a
    whole command line), an ``eaai:`` player's class name, else the spec itself.

    A NAME is asked for once per program (it is started, shakes hands and ends); a program that
    gives none, fails, or gives the name of another player keeps its spec, so no two players
    share a label. JSON keeps the specs. With ``ask`` false (a partial result after Ctrl-C) no
    program is started and ``exec:`` players keep their specs.
    """
    from simgin.players import programs as process_strategy
    from simgin.players.registry import is_program

    labels: dict[str, str] = {}
    for spec in dict.fromkeys(players):
        label = spec
        if spec.strip().startswith(process_strategy.PREFIX) and ask:
            try:
                name = process_strategy.handshake_name(spec)
            except (process_strategy.ProgramError, ValueError, OSError):
                name = ""
            label = "".join(ch for ch in name if ch.isprintable()).strip()[:MAX_LABEL] or spec
        elif is_program(spec) and not spec.strip().startswith(process_strategy.PREFIX):
            label = spec.rpartition(":")[2].strip() or spec
        labels[spec] = label
    taken = list(labels.values())
    return {spec: spec if taken.count(label) > 1 else label for spec, label in labels.items()}


def _timing_line(result: Any, seconds: float) -> str:
    """Time and throughput of what this command played (D17): resumed chunks are not counted, and a
    run read back whole says so instead of a rate."""
    if not result.chunks_run:
        done = "its one chunk was" if result.chunks_resumed == 1 else f"all {result.chunks_resumed:,} chunks were"
        return f"{seconds:.1f} s; {done} already done (read back from --out), nothing was played"
    rate = result.hands_run / seconds if seconds > 0 else math.nan
    resumed = f", {plural(result.chunks_resumed, 'chunk')} resumed" if result.chunks_resumed else ""
    shown = f"{rate:,.0f}" if math.isfinite(rate) else "-"
    return f"{seconds:.1f} s, {shown} hands/s ({result.hands_run:,} hands played now{resumed})"


#: A share in the commands' output (a missing one is ``-``).
_percent = functools.partial(percent, missing="-")


@click.command()
@click.argument("players", nargs=-1, metavar="A B [C]")
@click.option(
    "--team",
    "teams",
    multiple=True,
    metavar="A,B",
    help="A partnership of two strategies; give --team twice for a four-player game (V12).",
)
@rules_options
@run_options
@json_option
def match(players: tuple[str, ...], teams: tuple[str, ...], rules: Rules, as_json: bool, **options: Any) -> None:
    """Play strategy A against strategy B and summarise the result.

    Each deal is played twice with the seats swapped (--no-duplicate to turn it off), on
    all cores; the same --seed gives the same numbers on any number of workers. Three
    strategies play a three-player game (V11); two --team options a partnership game
    (V12); both play whole games, each deal in every seating of the players.

    \b
    Example:
      simgin match simple random --hands 2000 --seed 7
      simgin match simple simple --games 100 --rules eaai --json
      simgin match simple simple random --games 60 --quiet
      simgin match --team simple,simple --team random,simple --games 80 --quiet
    """

    table, players = _table_players(players, teams)
    if table != "pairs":
        _table_match(table, players, rules, as_json, options)
        return
    outcome = _execute(players, rules, show_partial=lambda results: _show_match(results[0], as_json, True), **options)
    _show_match(outcome.run, as_json)
    _save(options["out"], outcome.result_data)


def _show_match(result: Any, as_json: bool, partial: bool = False) -> None:
    """Print a two-player match: its JSON object, or the text summary (a partial one is marked so)."""
    from simgin.running.engine import MAX_HANDS_PER_GAME
    from simgin.running.runner import match_json

    data = match_json(result)
    if as_json:
        echo_json(data | ({"partial": _partial_json(result)} if partial else {}))
        return
    if partial:
        click.echo(_partial_line(result))
    labels = player_labels(result.config.players, ask=not partial)
    a, b = (labels[player] for player in result.config.players)
    unit = "games" if result.config.mode == "games" else "hands"
    click.echo(f"{a} vs {b}: {data['hands']:,} hands, {data['games']:,} games, seed {data['seed']}")
    width = max(12, len(a), len(b))
    for index, name in enumerate((a, b)):
        low, high = data["win_rate_ci"][index]
        click.echo(
            f"  {name:<{width}} wins {_percent(data['win_rate'][index])} of {unit} ({_percent(low)}-{_percent(high)}), "
            f"{data['points_per_hand'][index]:.2f} points per hand"
        )
    capped = data.get("capped_games", 0)
    if capped:
        click.echo(
            f"  undecided: {_percent(capped / data['games'])} of games ({capped:,}) reached the cap of "
            f"{MAX_HANDS_PER_GAME:,} deals with no winner, a win for neither player"
        )
    outcomes = list(OUTCOMES)
    if result.config.on_illegal == "forfeit":
        outcomes.append("forfeit")  # so that the shares sum to 100%
    click.echo("  outcomes: " + ", ".join(f"{k} {_percent(data[f'{k}_rate'])}" for k in outcomes))
    first = _percent(data["first_player_win_rate"])
    click.echo(f"  mean draws per hand {data['mean_draws']:.2f}, first player wins {first} of scored hands")
    for line in forfeit_lines(result):
        click.echo(line)
    paired = data.get("paired")
    if paired and paired.get("rho") is not None:
        click.echo(
            f"  duplicate pairs: {paired['pairs']:,.0f}, {a}'s pair score {paired['pair_score']:.3f} "
            f"({paired['pair_score_low']:.3f}-{paired['pair_score_high']:.3f}), legs correlate rho={paired['rho']:.2f}"
        )
    click.echo(f"  {_timing_line(result, data['timing']['seconds'])}")


@click.command()
@click.argument("players", nargs=-1, required=True, metavar="A B [C ...]")
@rules_options
@run_options
@click.option(
    "--anchor", default="simple", show_default=True, help="The bot rated 0 (the mean of all when it is not playing)."
)
@json_option
def tournament(players: tuple[str, ...], rules: Rules, as_json: bool, anchor: str, **options: Any) -> None:
    """Round robin: every pair of strategies plays, all on the same deals.

    Prints the table of every pairing, Bradley-Terry ratings with bootstrap intervals over
    deal pairs (anchored on --anchor), and the pairwise claims that stay significant after
    Holm's correction for the number of comparisons.

    \b
    Example:
      simgin tournament random simple --hands 2000 --seed 1
    """
    if len(players) < 2:
        raise click.UsageError("a tournament needs at least two strategies")
    if len(set(players)) != len(players):
        raise click.UsageError(f"strategies must differ, got {' '.join(players)}")
    from simgin.running.matches import play_tournament

    show_partial = lambda results: _show_tournament_partial(results[0], as_json)  # noqa: E731
    play = functools.partial(play_tournament, anchor=anchor)
    try:
        outcome = _execute(players, rules, show_partial=show_partial, play=play, **options)
    except ValueError as error:
        raise user_error("ratings", error) from None
    if as_json:
        echo_json(outcome.to_json())
    else:
        _show_tournament(outcome.run, outcome.analysis)
    _save(options["out"], outcome.result_data)


def _show_tournament_partial(result: Any, as_json: bool) -> None:
    """After Ctrl-C: the pairings' table of what was finished (no ratings: they need every pairing), marked partial."""
    from simgin.running.results import jsonable

    if as_json:
        data = {"players": list(result.config.players), "summary": result.summary.to_dict(orient="records")}
        echo_json(jsonable(data | {"partial": _partial_json(result)}))
        return
    click.echo(_partial_line(result))
    click.echo(_tournament_table(result, player_labels(result.config.players, ask=False)))


def _tournament_table(result: Any, labels: dict[str, str] | None = None) -> str:
    columns = ["player", "opponent", "win_rate", "win_rate_low", "win_rate_high", "points_per_hand", "hands", "games"]
    if result.config.on_illegal == "forfeit":
        columns.append("forfeits")
    labels = labels or player_labels(result.config.players)
    table = result.summary[columns].copy()
    for column in ("player", "opponent"):
        table[column] = [labels.get(spec, spec) for spec in table[column]]
    return table.to_string(index=False, float_format=lambda x: f"{x:.3f}")


def forfeit_lines(result: Any) -> list[str]:
    """Under ``--on-illegal forfeit``: the forfeits by player (hands, or games), then the first
    :data:`MAX_FORFEIT_LINES` illegal moves, each with the ``simgin replay`` command that plays its
    hand again; nothing under ``stop``."""
    config = result.config
    if config.on_illegal != "forfeit" or config.table != "pairs":
        return []
    unit = "games" if config.mode == "games" else "hands"
    counts: dict[str, int] = {name: 0 for name in config.players}
    listed: list[dict[str, Any]] = []
    for (i, j), tally in zip(config.pairings, result.tallies, strict=True):
        counts[config.players[i]] += int(tally["forfeits_a"])
        counts[config.players[j]] += int(tally["forfeits_b"])
        listed += tally.forfeits
    shown = ", ".join(f"{name} {count:,}" for name, count in counts.items())
    lines = [f"  forfeits (illegal moves, --on-illegal forfeit), {unit} lost: {shown}"]
    for record in listed[:MAX_FORFEIT_LINES]:
        where = f"game {record['game']:,}, deal {record['deal']}" if "game" in record else f"hand {record['hand']:,}"
        lines.append(f"    {where}: {record['error']}")
        lines.append(f"      replay: {record['replay']}")
    total = sum(counts.values())
    if total > MAX_FORFEIT_LINES:
        lines.append(f"    ... {total - MAX_FORFEIT_LINES:,} more: every one is in --json and --out's result.json")
    return lines


def _show_tournament(result: Any, analysis: dict[str, Any]) -> None:
    labels = player_labels(result.config.players)
    click.echo(_tournament_table(result, labels))
    for line in forfeit_lines(result):
        click.echo(line)
    anchor_name = labels.get(analysis["anchor"], analysis["anchor"]) if analysis["anchor"] else "the mean"
    over = bootstrap_label(analysis.get("bootstrap"))
    click.echo(f"\nratings (Elo scale, {anchor_name} = 0, 95% bootstrap intervals over {over}):")
    width = max([16, *(len(label) for label in labels.values())])
    for row in sorted(analysis["ratings"], key=lambda r: -r["rating"]):
        name = labels.get(row["player"], row["player"])
        line = (
            f"  {name:<{width}} {row['rating']:8.1f}  ({row['low']:.1f} to {row['high']:.1f}), "
            f"rank {row['rank_low']:.0f}-{row['rank_high']:.0f}"
        )
        if row["sweep"] and row["player"] != analysis["anchor"]:
            line += f"; {row['sweep']}, so the rating is a bound set by the prior (one drawn game per pairing)"
        click.echo(line)
    claims = [row for row in analysis["pairwise"] if row["significant"]]
    if claims:
        click.echo("significant after Holm's correction:")
        for row in claims:
            click.echo(f"  {holm_claim(row | {side: labels.get(row[side], row[side]) for side in ('a', 'b')})}")
    else:
        click.echo("no pairwise claim is significant after Holm's correction")
    for note in analysis.get("rating_notes", []):
        click.echo(f"note: {note['note']}")


def holm_claim(row: dict[str, Any]) -> str:
    """One significant pairwise claim, stated for the winner: its own pair score and the Holm-adjusted p.

    >>> holm_claim({"a": "simple", "b": "heuristic", "score": 0.232, "p_holm": 0.0})
    'heuristic beats simple (pair score 0.768, adjusted p < 1e-300)'
    """
    if row["score"] > 0.5:
        better, worse, score = row["a"], row["b"], row["score"]
    else:
        better, worse, score = row["b"], row["a"], 1 - row["score"]
    return f"{better} beats {worse} (pair score {score:.3f}, adjusted p {p_value(row['p_holm'])})"


@click.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option(
    "--sprt", "sprt_text", default="elo0=0,elo1=10", show_default=True, help="The hypotheses: H0 elo0, H1 elo1."
)
@click.option(
    "--alpha", type=float, default=0.05, show_default=True, help="False-positive rate (accepting H1 wrongly)."
)
@click.option("--beta", type=float, default=0.05, show_default=True, help="False-negative rate (accepting H0 wrongly).")
@click.option(
    "--model",
    type=click.Choice(["logistic", "normalized"]),
    default="logistic",
    show_default=True,
    help="Elo bounds as logistic Elo, or as normalized Elo (fishtest's default).",
)
@click.option("--max-games", type=int, default=20_000, show_default=True, help="Stop undecided after this many games.")
@click.option("--batch", type=int, default=25, show_default=True, help="Deal pairs per batch between checks.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the run.")
@click.option("--workers", type=int, default=None, help="Worker processes (default: all cores).")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True)
@click.option("--scheduler", default=None, metavar="ADDRESS", help="Dask scheduler address.")
@out_option("Results directory (new or empty, or one of an earlier run to resume).")
@decision_timeout_option
@on_illegal_option
@click.option("--quiet", is_flag=True, help="No progress bar.")
@rules_options
@json_option
def compare(
    a: str,
    b: str,
    sprt_text: str,
    alpha: float,
    beta: float,
    model: str,
    max_games: int,
    batch: int,
    seed: int,
    workers: int | None,
    backend: str,
    scheduler: str | None,
    out: Path | None,
    decision_timeout: float,
    on_illegal: str,
    quiet: bool,
    rules: Rules,
    as_json: bool,
) -> None:
    """Is A stronger than B? A sequential test (GSPRT) on duplicate game pairs.

    Games to the target score are played in pairs (each deck twice, seats swapped), and
    after every batch the log-likelihood ratio of the pentanomial model is updated, as
    chess-engine testing does; the test stops as soon as it accepts H0 (Elo <= elo0) or
    H1 (Elo >= elo1), with error rates alpha and beta.

    \b
    Example:
      simgin compare simple random --sprt elo0=0,elo1=10 --rules eaai --quiet
    """
    from simgin.running.matches import compare as compare_players
    from simgin.running.runner import MAX_GAMES
    from simgin.statistics.sprt import SprtSettings, parse_sprt

    check_run_options(workers, seed, backend, scheduler)
    check_range("--max-games", max_games, 2, MAX_GAMES)
    check_range("--batch", batch, 1, MAX_GAMES // 2)
    warn_overridden(rules)
    try:
        settings = SprtSettings(
            **parse_sprt(sprt_text), alpha=alpha, beta=beta, model=model, max_games=max_games, batch_pairs=batch
        )
    except ValueError as error:
        raise user_error("", error) from None
    with _running(max_games, "games", quiet, out, players=(a, b)) as progress:
        outcome = compare_players(
            a,
            b,
            sprt=settings,
            rules=rules,
            seed=seed,
            on_illegal=on_illegal,
            save=False,
            workers=workers,
            backend=backend,
            scheduler=scheduler,
            out=out,
            progress=progress,
            programs=_programs(decision_timeout),
            notice=notice,
        )
    result, summary = outcome.run, outcome.summary
    if as_json:
        echo_json(outcome.to_json())
    else:
        _show_compare(a, b, settings, max_games, summary)
        for line in forfeit_lines(result):
            click.echo(line)
    _save(out, outcome.result_data)


def _show_compare(a: str, b: str, settings: Any, max_games: int, summary: dict[str, Any]) -> None:
    verdict = {
        "H1": f"H1 accepted: {a} is stronger (Elo >= {settings.elo1:g})",
        "H0": f"H0 accepted: {a} is not stronger (Elo <= {settings.elo0:g})",
        "max games": f"undecided after {max_games} games",
    }[summary["decision"]]
    click.echo(f"{a} vs {b}: {verdict}")
    click.echo(
        f"  LLR {summary['llr']:.3f} (bounds {summary['lower']:.3f}, {summary['upper']:.3f}), "
        f"{summary['games']} games in {summary['pairs']} pairs"
    )
    interval = (
        f"{summary['elo_low']:.1f} to {summary['elo_high']:.1f}"
        if math.isfinite(summary["elo_low"]) and math.isfinite(summary["elo_high"])
        else "unbounded: one side won every pair"
    )
    click.echo(
        f"  Elo {summary['elo']:.1f} ({interval}), LOS {_percent(summary['los'])}, "
        f"pair counts {[int(c) for c in summary['counts']]}"
    )


@click.command()
@click.argument("players", nargs=-1, metavar="P1 P2 [P3 ...]")
@click.option(
    "--grid",
    "grid_items",
    multiple=True,
    required=True,
    metavar="SWITCH=VALUES",
    help="A rule switch and its values: knock_limit=0..10, gin_bonus=20,25 or preset=standard,oklahoma "
    "(repeatable; every combination is a cell).",
)
@click.option(
    "--baseline",
    default=None,
    metavar="SWITCH=VALUE,...",
    help="The cell every other cell is compared with (default: the first cell), e.g. --baseline preset=standard.",
)
@click.option(
    "--rules",
    "preset",
    default="standard",
    show_default=True,
    metavar="PRESET",
    help=f"Base rules preset: {', '.join(Rules.PRESETS)}; a --grid preset=... dimension replaces it in its cells.",
)
@click.option(
    "--sprt",
    "sprt_text",
    default=None,
    metavar="d0=POINTS,d1=POINTS",
    help="Two cells, two players: play batches of deal pairs under both rule sets until a sequential test decides "
    "whether the other cell changes the first player's win rate by d0 points (H0) or d1 (H1), e.g. d0=0,d1=5; "
    "--games or --hands is then the most it plays (20,000 games by default).",
)
@click.option(
    "--table",
    "table_kind",
    type=click.Choice(["pairs", "three"]),
    default="pairs",
    show_default=True,
    help="pairs: every pairing of two; three: the three strategies at one three-player table (V11), every seating.",
)
@click.option(
    "--team",
    "teams",
    multiple=True,
    metavar="A,B",
    help="A partnership of two strategies; --team twice sweeps a partnership table (V12) instead of pairings.",
)
@set_option
@run_options
@json_option
def sweep(
    players: tuple[str, ...],
    grid_items: tuple[str, ...],
    baseline: str | None,
    preset: str,
    settings: tuple[str, ...],
    as_json: bool,
    sprt_text: str | None,
    table_kind: str,
    teams: tuple[str, ...],
    **options: Any,
) -> None:
    """Play every pairing of the players under every combination of rule values, all on the same
    deals, and test every cell's difference from a baseline cell.

    Each cell of the grid is a run with those switches set on --rules and --set. A preset is a
    switch too: a cell of --grid preset=standard,oklahoma plays exactly as --rules PRESET (so
    Oklahoma plays to 150), with --set on top and the cell's other switches last. Every cell
    plays the same seed, so deal k is the same deal in every cell (common random numbers).

    Per cell and pairing the table gives the first-named player's win rate, the first player's
    (non-dealer's) share of scored hands, the gin, undercut, dead and knock rates, net points per
    hand and hands per game, each with a 95% interval over deal pairs (over games or hands with
    --no-duplicate). With three or more players each cell also gets Bradley-Terry ratings with
    bootstrap intervals, the skill spread (best minus worst rating, with its interval) and the
    first-named player's win rate against all the others (name the player of interest first).

    Every other cell is compared with the baseline (the first cell, or --baseline) on each of
    those numbers for each pairing, paired deal by deal; Holm's correction runs over all the
    comparisons, and the significant ones are listed first, in words. Cells that differ only in
    switches without effect there (knock_limit under Oklahoma, say) are the same game: played
    once, and a note says so. With --out DIR: DIR/result.json (every number, and the
    differences), DIR/sweep.csv and DIR/differences.csv; rerun the same command to resume.

    With --sprt d0=POINTS,d1=POINTS (two players, two cells) it runs the sequential test of
    docs/STATISTICS.md §10 instead: batches of deal pairs under both rule sets, stopping as soon as
    the first player's change in win rate is known to be d0 points or less (H0) or d1 or more (H1).

    With --table three (three strategies, V11) or two --team A,B options (V12) it sweeps one table
    instead of pairings: every cell plays the same game seeds, each in every seating, and each
    player's (team's) share of games won and points per game, and the table's hands per game and
    outcome rates, are compared with the baseline cell game seed by game seed (--games, a multiple
    of 6 or 8; 240 by default).

    \b
    Example:
      simgin sweep simple greedy random --grid preset=standard,oklahoma --games 40 --quiet
      simgin sweep simple random --grid knock_limit=8..10 --grid gin_bonus=20,25 --games 20 --quiet
      simgin sweep simple random --grid knock_limit=10,1 --sprt d0=0,d1=5 --quiet
      simgin sweep simple greedy random --table three --grid knock_limit=10,5 --games 48 --quiet
    """
    from simgin.studies.sweep import parse_baseline, parse_grid, plan_sweep, same_game_notes, sweep as run_study

    if teams or table_kind == "three":
        _table_sweep(players, teams, table_kind, grid_items, baseline, preset, settings, as_json, sprt_text, options)
        return
    if len(players) < 2:
        raise click.UsageError(f"a sweep needs at least two strategies, got {len(players)}")
    if len(set(players)) != len(players):
        raise click.UsageError(f"strategies must differ, got {' '.join(players)}")
    rules = build_rules(preset, settings)
    changes = {item.partition("=")[0].strip(): item.partition("=")[2] for item in settings}
    try:
        grid = parse_grid(grid_items, rules)
        parse_baseline(baseline, grid, rules)
    except ValueError as error:
        raise user_error("", error) from None
    if sprt_text is not None:
        _sweep_sprt(players, grid, sprt_text, rules, changes, baseline, as_json, options)
        return
    config = _make_config(players, rules, options, default_hands=2_000)
    try:
        _, _, same_as = plan_sweep(config, grid, changes)
        notes = same_game_notes(config, grid, changes)
    except ValueError as error:
        raise user_error("", error) from None
    for note in notes[:MAX_NOTES]:
        click.echo(f"Note: {note}", err=True)
    if len(notes) > MAX_NOTES:
        click.echo(f"Note: ... and {len(notes) - MAX_NOTES} more cells that repeat a game (see same_game_as)", err=True)
    cells_count = sum(first is None for first in same_as)
    out = options["out"]
    total = config.count * cells_count * len(config.pairings)
    with _running(total, config.mode, options["quiet"], out, players=config.players) as progress:
        result = run_study(
            players,
            grid,
            rules=rules,
            settings=changes,
            baseline=baseline,
            hands=config.hands,
            games=config.games,
            seed=config.seed,
            duplicate=config.duplicate,
            progress=progress,
            write_result=False,
            **_execution(options),
        )
    _show_sweep(result, as_json)
    _save_study(result, out)


def _save_study(result: Any, out: Path | None) -> None:
    """Write a sweep's files into ``out`` after its result was printed: a failure loses nothing shown."""
    if out is None:
        return
    try:
        result.save(out)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise click.ClickException(
            f"cannot write the results into {out}: {reason}; the result printed above is complete, and a rerun "
            "where the directory is writable writes them without playing again"
        ) from None
    except ValueError as error:
        raise user_error("", error) from None


#: Significant differences printed at most (all are in --json and DIR/differences.csv).
MAX_DIFFERENCES = 50


def _table_sweep(
    players: tuple[str, ...],
    teams: tuple[str, ...],
    table_kind: str,
    grid_items: tuple[str, ...],
    baseline: str | None,
    preset: str,
    settings: tuple[str, ...],
    as_json: bool,
    sprt_text: str | None,
    options: dict[str, Any],
) -> None:
    """``simgin sweep --table three`` or ``--team A,B --team C,D``: one table under every cell (issue 32 item 29)."""
    from simgin.studies.sweep import parse_baseline, parse_grid, plan_sweep, same_game_notes
    from simgin.studies.table_sweep import table_sweep

    if teams:
        if table_kind == "three":
            raise click.UsageError("give --table three or two --team options, not both")
        table, players = _table_players(players, teams)
    else:
        if len(players) != 3:
            raise click.UsageError(f"--table three takes exactly three strategies, got {len(players)}")
        table = "three"
    if sprt_text is not None:
        raise click.UsageError("--sprt compares two players under two rule sets: it does not take a table")
    if options["hands"] is not None:
        raise click.UsageError("a table sweep plays whole games: give --games, not --hands")
    rules = build_rules(preset, settings)
    changes = {item.partition("=")[0].strip(): item.partition("=")[2] for item in settings}
    options = {**options, "games": options["games"] if options["games"] is not None else 240}
    config = _make_config(players, rules, options, table=table)
    try:
        grid = parse_grid(grid_items, rules)
        parse_baseline(baseline, grid, rules)
        _, _, same_as = plan_sweep(config, grid, changes)
        notes = same_game_notes(config, grid, changes)
    except ValueError as error:
        raise user_error("", error) from None
    for note in notes[:MAX_NOTES]:
        click.echo(f"Note: {note}", err=True)
    total = config.games * sum(first is None for first in same_as)
    with _running(total, "games", options["quiet"], options["out"], table, None, players) as bar:
        result = table_sweep(
            players,
            grid_items,
            table=table,
            rules=rules,
            settings=changes,
            games=config.games,
            seed=config.seed,
            duplicate=config.duplicate,
            baseline=baseline,
            progress=bar,
            write_result=False,
            **_execution(options),
        )
    _show_table_sweep(result, as_json)
    _save_study(result, options["out"])


def _show_table_sweep(result: Any, as_json: bool) -> None:
    """A table sweep: the significant differences in words, then every cell's figures with their intervals."""
    from simgin.studies.table_sweep import difference_text

    if as_json:
        echo_json(result.to_json())
        return
    names = {"three": "three-player table (V11)", "teams": "partnership table (V12)"}
    click.echo(
        f"{names[result.table]}, {', '.join(result.players)}: {len(result.cells)} cells, {result.games:,} games per "
        f"cell, seed {result.seed}, unit: {result.to_json()['unit']}"
    )
    baseline = result.cells[result.baseline].label
    significant = result.significant
    click.echo(
        f"differences from the baseline {baseline}, significant after Holm's correction over "
        f"{len(result.differences)} comparisons (95%, Holm-consistent intervals):"
    )
    for difference in significant[:MAX_DIFFERENCES]:
        click.echo(f"  {difference_text(result, difference)}")
    if not significant:
        click.echo("  none")
    click.echo("\ncells (95% intervals over units):")
    side_metric = "net_per_game" if result.table == "three" else "margin_per_game"
    width = max(len(cell.label) for cell in result.cells)
    side_width = max(len(row["side"]) for cell in result.cells for row in cell.rows)
    for cell in result.cells:
        for row in cell.rows:
            if row["side"] == "table":
                text = (
                    f"{row['hands_per_game']:.2f} hands per game, gin {percent(row['gin_rate'])}, "
                    f"undercut {percent(row['undercut_rate'])}, dead {percent(row['dead_rate'])}"
                )
            else:
                text = (
                    f"wins {percent(row['win_rate'])} ({percent(row['win_rate_low'])}-{percent(row['win_rate_high'])}),"
                    f" {side_metric.replace('_', ' ')} {row[side_metric]:+.1f}"
                )
            click.echo(f"  {cell.label:<{width}}  {row['side']:<{side_width}}  {text}")


def _show_sweep(result: Any, as_json: bool) -> None:
    """Print a sweep: the significant differences first, in words, then the cells' table with intervals and,
    with three or more players, each cell's ratings and skill spread (or the JSON document)."""
    from simgin.studies.sweep import difference_text

    if as_json:
        echo_json(result.to_json())
        return
    table = result.to_frame()
    config = result.config
    unit = {"hands": "hands", "games": "games"}[config.mode]
    cells = result.cells
    click.echo(
        f"{', '.join(config.players)}: {len(cells)} cells, {config.count:,} {unit} per pairing and cell, "
        f"seed {config.seed}, {'duplicate deals' if config.duplicate else 'single deals'}"
    )
    comparisons = len(result.differences)
    significant = result.significant
    baseline = cells[result.baseline].label
    if comparisons:
        click.echo(
            f"differences from the baseline {baseline}, significant after Holm's correction over {comparisons} "
            "comparisons (95%):"
        )
        for difference in significant[:MAX_DIFFERENCES]:
            click.echo(f"  {difference_text(result, difference)}")
        if len(significant) > MAX_DIFFERENCES:
            click.echo(f"  ... and {len(significant) - MAX_DIFFERENCES} more (see --json or DIR/differences.csv)")
        if not significant:
            click.echo("  none")
        rest = comparisons - len(significant)
        if rest:
            click.echo(
                f"  {rest} other comparisons are not significant (every one is in --json and DIR/differences.csv)"
            )
            _echo_detectable(result)
    else:
        click.echo(f"baseline {baseline}: no other cell plays a different game, so there is nothing to compare")
    click.echo(f"\ncells (95% intervals over {_unit_label(config)}s):")
    click.echo(_sweep_table(result, table))
    if len(config.players) >= 3:
        click.echo(f"\nratings (Elo, mean of the players = 0, 95% bootstrap intervals over {_unit_label(config)}s):")
        for cell in cells:
            if cell.ratings is None or cell.same_game_as is not None:
                continue
            ranked = sorted(cell.ratings["ratings"], key=lambda row: -row["rating"])
            shown = ", ".join(
                f"{row['player']} {row['rating']:+.0f} ({row['low']:+.0f} to {row['high']:+.0f})" for row in ranked
            )
            spread = cell.ratings["skill_spread"]
            click.echo(
                f"  {cell.label}: {shown}; skill spread {spread['spread']:.0f} ({spread['low']:.0f} to "
                f"{spread['high']:.0f})"
            )
            if cell.first_named is not None:
                value, low, high = cell.first_named.rates["win_rate"]
                click.echo(
                    f"    {cell.first_named.a} wins {_percent(value)} ({_percent(low)}-{_percent(high)}) of {unit} "
                    "against the others"
                )
    for cell in cells:
        if cell.same_game_as is not None:
            continue
        counts = {}
        for (i, j), tally in zip(config.pairings, cell.result.tallies, strict=True):
            for side, player in (("a", config.players[i]), ("b", config.players[j])):
                counts[player] = counts.get(player, 0) + int(tally[f"forfeits_{side}"])
        if any(counts.values()):
            shown = ", ".join(f"{player} {count:,}" for player, count in counts.items())
            click.echo(f"forfeits (illegal moves) at {cell.label}: {shown}")
    _echo_oklahoma_breakdowns(result)


def _unit_label(config: Any) -> str:
    return "deal pair" if config.duplicate else config.mode[:-1]


def _sweep_sprt(
    players: tuple[str, ...],
    grid: dict[str, list[Any]],
    text: str,
    rules: Rules,
    changes: dict[str, Any],
    baseline: str | None,
    as_json: bool,
    options: dict[str, Any],
) -> None:
    """``sweep --sprt``: the sequential test between the grid's two rule sets (simgin.studies.sequential)."""
    from simgin.studies.sequential import parse_rules_sprt, sequential_rules_test

    if options["out"] is not None:
        raise click.UsageError("--sprt keeps no run directory yet: leave out --out (a sequential test is short)")
    if options["hand_log"]:
        raise click.UsageError("--sprt keeps no hand log: leave out --hand-log")
    try:
        test = parse_rules_sprt(text)
    except ValueError as error:
        raise user_error("", error) from None
    given = options["hands"] is not None or options["games"] is not None
    config = _make_config(players, rules, options) if given else None
    mode, most = (config.mode, config.count) if config else ("games", 20_000)
    with _running(2 * most, mode, options["quiet"], None, players=players) as progress:
        try:
            result = sequential_rules_test(
                players,
                grid,
                test,
                rules=rules,
                settings=changes,
                baseline=baseline,
                games=config.games if config else None,
                hands=config.hands if config else None,
                seed=options["seed"],
                duplicate=options["duplicate"],
                progress=progress,
                **_execution(options) | {"out": None, "hand_log": False},
            )
        except ValueError as error:
            raise user_error("", error) from None
    if as_json:
        echo_json(result.to_json())
    else:
        click.echo(result.text())


def _echo_detectable(result: Any) -> None:
    """What "not significant" rules out: the smallest win-rate difference the study would have detected with 80%
    power at its Holm level, over the pairings' comparisons that were not significant (docs/STATISTICS.md §11)."""
    sizes = [
        100 * d.detectable
        for d in result.differences
        if d.metric == "win_rate" and not d.significant and math.isfinite(d.detectable)
    ]
    if sizes:
        span = f"{min(sizes):.1f}" if max(sizes) - min(sizes) < 0.05 else f"{min(sizes):.1f} to {max(sizes):.1f}"
        click.echo(
            f"  a win-rate difference smaller than {span} points could have been missed (80% power at Holm's level; "
            "each comparison's `detectable` is in --json; simgin plan sizes a study)"
        )


def _sweep_table(result: Any, table: Any) -> str:
    """The cells' table: one line per cell and pairing, every rate with its interval."""
    import pandas as pd

    shown = table[table["side"] == "a"]
    unit = "games" if result.config.mode == "games" else "hands"

    def share(row: Any, metric: str) -> str:
        if not math.isfinite(row[metric]):
            return "n/a"
        return f"{_percent(row[metric])} ({_percent(row[metric + '_low'])}-{_percent(row[metric + '_high'])})"

    def number(row: Any, metric: str) -> str:
        if not math.isfinite(row[metric + "_low"]):  # every unit alike: no spread to measure an interval from
            return f"{row[metric]:.2f} (no interval)"
        return f"{row[metric]:.2f} ({row[metric + '_low']:.2f} to {row[metric + '_high']:.2f})"

    rows = []
    for _, row in shown.iterrows():
        line = {key: _switch_text(row[key]) for key in result.grid}
        line["pairing"] = f"{row['player']} vs {row['opponent']}"
        line[f"1st-named wins ({unit})"] = share(row, "win_rate")
        line["first player"] = share(row, "first_player_win_rate")
        for metric in ("gin", "undercut", "dead", "knock"):
            line[metric] = share(row, f"{metric}_rate")
        line["net points/hand"] = number(row, "net_points_per_hand")
        if result.config.mode == "games":
            line["hands/game"] = number(row, "hands_per_game")
        line["same game as"] = row["same_game_as"]
        rows.append(line)
    frame = pd.DataFrame(rows)
    if not frame["same game as"].astype(bool).any():
        frame = frame.drop(columns="same game as")
    return frame.to_string(index=False)


def _switch_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _echo_oklahoma_breakdowns(result: Any) -> None:
    """For Oklahoma cells: every pairing's outcomes by up card (its knock limit) and the share of doubled spade
    hands (V9), one block per cell and pairing (issue 32 item 2: never the first pairing only)."""
    for index, breakdown in result.oklahoma_breakdowns().items():
        label = result.cells[index].label
        for pairing, block in breakdown.groupby("pairing", sort=False):
            doubled = _percent(block["doubled_share"].iloc[0])
            click.echo(f"\n{label}, {pairing}: by up card (knock limit); {doubled} of scored hands doubled")
            shown = block.drop(columns=["pairing", "doubled_share"])
            click.echo(shown.to_string(index=False, float_format=lambda x: f"{x:.3f}"))


@click.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--seed", type=int, default=None, help="The run's --seed (with --hand).")
@click.option("--hand", "hand_index", type=int, default=None, help="Hand number K of a 'simgin match A B --hands' run.")
@click.option("--hand-seed", type=int, default=None, help="Or: the hand seed itself (as named in an error).")
@click.option("--dealer", type=click.IntRange(0, 1), default=0, show_default=True, help="Dealer seat with --hand-seed.")
@click.option(
    "--scores",
    default=None,
    metavar="S0,S1",
    help="With --hand-seed: the game scores by seat the hand was dealt at; it is then played as a hand of a game.",
)
@click.option("--duplicate/--no-duplicate", default=True, show_default=True, help="As in the run.")
@rules_options
@json_option
def replay(
    a: str,
    b: str,
    seed: int | None,
    hand_index: int | None,
    hand_seed: int | None,
    dealer: int,
    scores: str | None,
    duplicate: bool,
    rules: Rules,
    as_json: bool,
) -> None:
    """Print one hand move by move: deal, draws, discards, knock, melds, lay-offs, score.

    Hand K of 'simgin match A B --hands N --seed S' is 'simgin replay A B --seed S --hand K'
    (with duplicate deals hands 2j and 2j+1 are one deal with the seats swapped). A hand that
    --on-illegal forfeit forfeited is listed with its replay command (--hand-seed, --dealer and,
    in a game, --scores); a hand with an illegal move prints its moves up to it, then the error.
    --json prints the hand's record and its moves, each with its player and cards.

    \b
    Examples:
      simgin replay simple random --seed 7 --hand 3
      simgin replay simple random --seed 7 --hand 3 --json
    """
    from simgin.game import reference_engine
    from simgin.game.rules import GAME_SWITCHES
    from simgin.running import runner
    from simgin.running.replay import locate_replay

    in_game = _replay_scores(scores, hand_seed)
    if in_game is not None:
        # A hand of a game (--scores): the rules-aware bots read the game's switches.
        warn_overridden(rules, games=True)
    else:
        # One hand is replayed: the game's scoring never applies. No warning about what the preset
        # sets there (the warning named --hands, which a replay is not given); a game switch named
        # with --set is told it has no effect in one hand; a hand switch overridden still warns.
        overridden = warn_overridden(rules, games=False, unwarned=GAME_SWITCHES)
        named = {item.partition("=")[0].strip() for item in click.get_current_context().params.get("settings", ())}
        for name in [name for name in GAME_SWITCHES if name in overridden and name in named]:
            value = show_value(getattr(rules, name))
            click.echo(
                f"Warning: {name}={value} has no effect here: a replay plays one hand, not a game (R20-R23)", err=True
            )
    if hand_seed is None:
        if seed is None or hand_index is None:
            raise click.UsageError("give --seed S and --hand K, or --hand-seed")
        check_range("--hand", hand_index, 0, runner.MAX_HANDS - 1)
        check_range("--seed", seed, 0, runner.MAX_SEED, " (a 64-bit seed)")
    else:
        given = [name for name, value in (("--seed", seed), ("--hand", hand_index)) if value is not None]
        if given:
            raise click.UsageError(f"--hand-seed names the hand by itself: give it without {' and '.join(given)}")
        check_range("--hand-seed", hand_seed, 0, runner.MAX_SEED, " (a 64-bit hand seed)")
    try:
        hand = locate_replay(
            a, b, seed=seed, hand=hand_index, hand_seed=hand_seed, dealer=dealer, scores=in_game, duplicate=duplicate
        )
        shown = hand.play(rules)
    except reference_engine.IllegalMove as error:
        # The moves up to the illegal one, shown as a finished hand's; --json gives them as JSON (issue 32 item 16).
        if as_json:
            echo_json(hand.stopped_json(rules, error))
        else:
            click.echo(hand.stopped_text(error))
        raise user_error("", error) from None
    except ValueError as error:
        raise user_error("", error) from None
    if as_json:
        echo_json(shown.to_json())
        return
    click.echo(shown.text())


def _replay_scores(text: str | None, hand_seed: int | None) -> tuple[int, int] | None:
    """``--scores S0,S1`` as two scores (non-negative), or None; it needs ``--hand-seed``."""
    if text is None:
        return None
    if hand_seed is None:
        raise click.UsageError("--scores goes with --hand-seed (the hand of a game a forfeit names)")
    parts = text.split(",")
    try:
        values = tuple(int(part) for part in parts)
    except ValueError:
        values = ()
    if len(values) != 2 or min(values) < 0 or max(values) > 10**9:
        raise click.BadParameter(f"{text!r}: give two scores by seat, e.g. 35,80", param_hint="--scores")
    return values[0], values[1]


COMMANDS = (match, tournament, compare, sweep, replay)

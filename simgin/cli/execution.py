"""Running the library from a command: the run settings from the shared options, the one progress display
(a bar on a terminal, quiet otherwise, one-line errors, partial results on Ctrl-C), the labels of players,
forfeit lines and saving ``result.json`` after the result was printed. Every command that plays hands uses it."""

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
    check_counts,
    check_run_options,
    echo_json,
    notice,
    plural,
    program_settings,
    user_error,
    warn_overridden,
)
from simgin.game.rules import Rules
from simgin.players.labels import display_labels
from simgin.statistics.formats import percent

F = TypeVar("F", bound=Callable[..., Any])


#: Note lines at most for the cells of a sweep that repeat an earlier cell's game.
MAX_NOTES = 10


#: Forfeits listed at most in text output (``--json`` and ``result.json`` hold them all, up to
#: ``tally.MAX_FORFEITS_KEPT`` per pairing).
MAX_FORFEIT_LINES = 5


def announce_compilation(unit: str, table: str, players: Sequence[str] = ()) -> None:
    """Say so when numba's cache lacks the kernel this run plays in or a searching bot it plays (a
    first run, or new kernel sources), since compiling takes seconds; later runs load them from the cache."""
    from simgin.running import runner

    if not runner.kernels_cached(unit, table, players=players):
        click.echo("compiling kernels, first run only (10-30 seconds)...", err=True)


def make_config(
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
    check_counts(hands, games)
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
            adjust_luck=options.get("adjust_luck", False),
        )
    except ValueError as error:
        raise user_error("", error) from None
    warn_overridden(rules, table, config.mode == "games")
    return config


@contextlib.contextmanager
def progress_display(
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

    announce_compilation(unit, table, players)
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
            kept = finished_files(out / "chunks")
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


@contextlib.contextmanager
def evaluation_progress(quiet: bool, describe: Callable[[Any], str]) -> Iterator[Callable[[Any, int, int], None]]:
    """The progress callback of a search (``tune``, ``tune-rules``): a bar on a terminal, one step per evaluation,
    labelled with the time so far and ``describe(evaluation)``; nothing when ``quiet`` or not a terminal."""
    show = not quiet and sys.stderr.isatty()
    started = time.perf_counter()
    bar: Any = None

    def progress(evaluation: Any, done: int, total: int) -> None:
        nonlocal bar
        if not show:
            return
        if bar is None:
            bar = click.progressbar(length=total, label="evaluations", file=sys.stderr, show_eta=True)
            bar.__enter__()
        bar.length = total
        bar.label = f"evaluations ({time.perf_counter() - started:.0f} s, {describe(evaluation)})"
        bar.update(1)

    try:
        yield progress
    finally:
        if bar is not None:
            bar.__exit__(None, None, None)


def run_search(
    search: Callable[..., Any],
    *arguments: Any,
    quiet: bool,
    describe: Callable[[Any], str],
    unit: str,
    out: Path | None,
    **options: Any,
) -> Any:
    """Run a search (``tune``, ``tune-rules``) from its command: the evaluation progress, the compile notice
    before the first run, the search's notices on stderr, a one-line error for a bad value, and on Ctrl-C
    what ``out`` keeps (:func:`interrupted_search`). ``options`` go to ``search`` as they are."""
    from simgin.running import runner

    def on_start() -> None:
        if not runner.kernels_cached(unit):
            click.echo("compiling kernels, first run only (about a minute)...", err=True)

    try:
        with evaluation_progress(quiet, describe) as progress:
            return search(*arguments, out=out, progress=progress, notice=notice, on_start=on_start, **options)
    except (runner.RunError, ValueError) as error:
        raise user_error("", error) from None
    except KeyboardInterrupt:
        raise click.ClickException(interrupted_search(out)) from None


def interrupted_search(out: Path | None) -> str:
    """The line after Ctrl-C in a search: what ``out`` keeps, or that nothing was finished to keep (issue 25)."""
    from simgin.studies.search import EVALUATIONS_DIR

    if out is None:
        return "interrupted"
    kept = finished_files(out / EVALUATIONS_DIR)
    if not kept:
        return f"interrupted before any evaluation was finished: nothing is kept in {out}"
    verb = "is" if kept == 1 else "are"
    return f"interrupted; {plural(kept, 'finished evaluation')} {verb} kept in {out}, rerun the same command to resume"


def finished_files(folder: Path) -> int:
    """How many finished records (``*.json``, each written whole) ``folder`` holds; 0 when it cannot be read."""
    try:
        return sum(1 for path in folder.glob("*.json") if path.is_file())
    except OSError:
        return 0


def table_players(players: tuple[str, ...], teams: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The kind of table and its players: two strategies, three (V11), or two --team pairs (V12)."""
    if teams:
        from simgin.players.registry import split_specs  # the registry loads the compiled bots: only when needed

        if players or len(teams) != 2:
            raise click.UsageError("a partnership game takes exactly two --team A,B options and no other strategies")
        members = [tuple(split_specs(team)) for team in teams]
        for team, names in zip(teams, members, strict=True):
            if len(names) != 2 or not all(names):
                raise click.BadParameter(f"{team!r}: a team is two strategies, e.g. simple,greedy", param_hint="--team")
        return "teams", (*members[0], *members[1])
    if len(players) not in (2, 3):
        raise click.UsageError(f"match takes two or three strategies (or two --team), got {len(players)}")
    return ("pairs" if len(players) == 2 else "three"), players


def table_match(table: str, players: tuple[str, ...], rules: Rules, as_json: bool, options: dict[str, Any]) -> None:
    """A three-player or partnership match: per-player (or per-team) results and the seat advantage."""

    if options["hands"] is not None:
        raise click.BadParameter(
            "three-player and partnership games are played whole: use --games", param_hint="--hands"
        )
    if options["games"] is None:
        options["games"] = 120

    def show(results: list[Any], partial: bool = False) -> None:
        show_table_match(results[0], as_json, partial)

    outcome = execute_match(players, rules, table=table, show_partial=lambda results: show(results, True), **options)
    show([outcome.run])
    save_result_json(options["out"], outcome.result_data)


def show_table_match(result: Any, as_json: bool, partial: bool) -> None:
    from simgin.game.multiplayer import seat_advantage, table_json

    data = table_json(result)
    if shown_as_json(data, result, as_json, partial):
        return
    config = result.config
    summary = result.summary
    name_column = "player" if config.table == "three" else "team"
    click.echo(f"{config.table} table: {data['games']:,} games, {data['hands']:,} hands, seed {data['seed']}")
    labels = display_labels(config.players, ask=not partial)
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
            f"  {name:<{width}} wins {percent_or_dash(row['win_rate'])} of games "
            f"({percent_or_dash(row['win_rate_low'])}-{percent_or_dash(row['win_rate_high'])}), "
            f"{row['points_per_hand']:.2f} points per hand"
        )
    seats = seat_advantage(config.table, result.tallies[0])
    shown = ", ".join(f"seat {int(r.seat)} {percent_or_dash(r.win_rate)}" for r in seats.itertuples())
    click.echo(f"  win rate by seat: {shown}")


def shown_as_json(data: dict[str, Any], result: Any, as_json: bool, partial: bool) -> bool:
    """With ``as_json``, print ``data`` (and, for a ``partial`` result, what it covers under ``partial``) and say
    so; otherwise head a partial result's text with its PARTIAL line and say that the text is still to print."""
    if as_json:
        echo_json(data | ({"partial": partial_json(result)} if partial else {}))
        return True
    if partial:
        click.echo(partial_line(result))
    return False


def partial_json(result: Any) -> dict[str, Any]:
    """What a partial result covers: the ``partial`` key of the JSON printed after Ctrl-C."""
    config = result.config
    return {
        "interrupted": True,
        "chunks_finished": result.chunks_run,
        "chunks_planned": config.chunk_count * len(config.pairings),
        config.mode: int(result.tallies[0][config.mode]),
        f"{config.mode}_planned": config.count,
    }


def partial_line(result: Any) -> str:
    """The line that heads a partial result printed as text."""
    info = partial_json(result)
    mode = result.config.mode
    each = " per pairing" if result.config.table == "pairs" else ""
    return (
        f"PARTIAL RESULT (interrupted): {info[mode]:,} of {info[f'{mode}_planned']:,} {mode}{each}, "
        f"{info['chunks_finished']} of {info['chunks_planned']} chunks; not the run asked for"
    )


def execute_match(
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

    config = make_config(players, rules, options, table=table)
    out = options["out"]
    total = config.count * len(config.pairings)
    with progress_display(
        total, config.mode, options["quiet"], out, config.table, show_partial, config.players
    ) as progress:
        return (play or matches.play_match)(config, save=False, progress=progress, **execution_options(options))


def execution_options(options: dict[str, Any]) -> dict[str, Any]:
    """Where and how chunks run: the runner's keyword arguments from the shared options."""
    execution = {key: options[key] for key in ("workers", "backend", "scheduler", "out", "hand_log")}
    return execution | {"notice": notice, "programs": program_settings(options["decision_timeout"])}


def save_result_json(out: Path | None, data: Callable[[], dict[str, Any]]) -> None:
    """Write ``out/result.json`` (after the result was printed: a failure here loses nothing shown)."""
    if out is None:
        return
    from simgin.running.results import save_result

    save_after_printing(lambda: save_result(out, data()), f"{out / 'result.json'}", "the file")


def save_after_printing(save: Callable[[], Any], target: str, what: str) -> None:
    """Call ``save`` after a result was printed: a file system error is one ``Error:`` line saying that the
    result shown is complete and that a rerun writes ``what`` without playing again; a ValueError is one line."""
    try:
        save()
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise click.ClickException(
            f"cannot write {target}: {reason}; the result printed above is complete, "
            f"and a rerun where the directory is writable writes {what} without playing again"
        ) from None
    except ValueError as error:
        raise user_error("", error) from None


def timing_line(result: Any, seconds: float) -> str:
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
percent_or_dash = functools.partial(percent, missing="-")


def forfeit_lines(result: Any) -> list[str]:
    """Under ``--on-illegal forfeit``: the forfeits by player (hands, or games), then the first
    :data:`MAX_FORFEIT_LINES` illegal moves, each with the ``simgin replay`` command that plays its
    hand again; nothing under ``stop``."""
    config = result.config
    if config.on_illegal != "forfeit" or config.table != "pairs":
        return []
    unit = "games" if config.mode == "games" else "hands"
    counts = result.forfeits_by_player()
    listed = result.forfeit_records()
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

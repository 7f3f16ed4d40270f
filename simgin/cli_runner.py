"""The commands that play many hands: ``simgin match``, ``simgin tournament`` and ``simgin replay``.

They are registered on the root group in :mod:`simgin.cli`; the work is done by
:mod:`simgin.runner`, the numbers by :mod:`simgin.summary`.
"""

from __future__ import annotations

import contextlib
import math
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from simgin.cli_options import echo_json, json_option, rules_options, user_error, warn_overridden
from simgin.process_strategy import MAX_DECISION_TIMEOUT
from simgin.rules import Rules

F = TypeVar("F", bound=Callable[..., Any])

#: Note lines at most for the cells of a sweep that repeat an earlier cell's game.
MAX_NOTES = 10


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
    from simgin.process_strategy import ProgramSettings

    return ProgramSettings(decision_timeout=decision_timeout)


def _check_counts(hands: int | None, games: int | None) -> None:
    from simgin.runner import MAX_GAMES, MAX_HANDS

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
    from simgin import runner

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
    from simgin import runner

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
    from simgin import runner

    hands, games = options["hands"], options["games"]
    if hands is None and games is None:
        hands = default_hands
    _check_counts(hands, games)
    check_run_options(options["workers"], options["seed"], options["backend"], options["scheduler"])
    try:
        config = runner.RunConfig(
            tuple(players), rules, hands, games, options["seed"], options["duplicate"], table=table
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
    from simgin import runner

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
            raise click.ClickException(
                f"interrupted; finished chunks are kept in {out}, rerun the same command to resume"
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
    from simgin.multiplayer import table_json

    if options["hands"] is not None:
        raise click.BadParameter(
            "three-player and partnership games are played whole: use --games", param_hint="--hands"
        )
    if options["games"] is None:
        options["games"] = 120

    def show(results: list[Any], partial: bool = False) -> None:
        _show_table_match(results[0], as_json, partial)

    result = _execute(players, rules, table=table, show_partial=lambda results: show(results, True), **options)
    show([result])
    _save(options["out"], lambda: _result_data("match", result, match=table_json(result)))


def _show_table_match(result: Any, as_json: bool, partial: bool) -> None:
    from simgin.multiplayer import seat_advantage, table_json

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
    for row in summary.to_dict(orient="records"):
        click.echo(
            f"  {row[name_column]:<20} wins {_percent(row['win_rate'])} of games "
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
    **options: Any,
):
    """Run a match or a tournament from the shared options."""
    from simgin import runner

    config = _make_config(players, rules, options, table=table)
    out = options["out"]
    total = config.count * len(config.pairings)
    with _running(total, config.mode, options["quiet"], out, config.table, show_partial, config.players) as progress:
        kind = "tournament" if table == "pairs" and len(players) > 2 else "match"
        return runner.run(config, progress=progress, kind=kind, **_execution(options))


def _execution(options: dict[str, Any]) -> dict[str, Any]:
    """Where and how chunks run: the runner's keyword arguments from the shared options."""
    execution = {key: options[key] for key in ("workers", "backend", "scheduler", "out", "hand_log")}
    return execution | {"notice": notice, "programs": _programs(options["decision_timeout"])}


def _save(out: Path | None, data: Callable[[], dict[str, Any]]) -> None:
    """Write ``out/result.json`` (after the result was printed: a failure here loses nothing shown)."""
    if out is None:
        return
    from simgin.results import save_result

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


def _pairings(result: Any) -> list[dict[str, Any]]:
    from simgin.summary import pair_statistics

    config = result.config
    if config.table != "pairs":
        return [{"table": config.table, "players": list(config.players), "tally": result.tallies[0].to_dict()}]
    return [
        {"a": config.players[i], "b": config.players[j], "tally": t.to_dict(), "paired": pair_statistics(t)}
        for (i, j), t in zip(config.pairings, result.tallies, strict=True)
    ]


def _result_data(kind: str, result: Any, **extra: Any) -> dict[str, Any]:
    from simgin import __version__
    from simgin.summary import overridden_rules

    return {
        "kind": kind,
        "simgin_version": __version__,
        "config": result.config.to_dict(),
        "players": list(result.config.players),
        "pairings": _pairings(result),
        "summary": result.summary.to_dict(orient="records"),
        "overridden": overridden_rules(result.config),
    } | extra


def _percent(value: float) -> str:
    return "-" if value is None or math.isnan(value) else f"{100 * value:.1f}%"


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
    from simgin.summary import match_json

    table, players = _table_players(players, teams)
    if table != "pairs":
        _table_match(table, players, rules, as_json, options)
        return
    result = _execute(players, rules, show_partial=lambda results: _show_match(results[0], as_json, True), **options)
    _show_match(result, as_json)
    _save(options["out"], lambda: _result_data("match", result, match=match_json(result)))


def _show_match(result: Any, as_json: bool, partial: bool = False) -> None:
    """Print a two-player match: its JSON object, or the text summary (a partial one is marked so)."""
    from simgin.engine import MAX_HANDS_PER_GAME
    from simgin.summary import match_json

    data = match_json(result)
    if as_json:
        echo_json(data | ({"partial": _partial_json(result)} if partial else {}))
        return
    if partial:
        click.echo(_partial_line(result))
    a, b = result.config.players
    unit = "games" if result.config.mode == "games" else "hands"
    click.echo(f"{a} vs {b}: {data['hands']:,} hands, {data['games']:,} games, seed {data['seed']}")
    for index, name in enumerate((a, b)):
        low, high = data["win_rate_ci"][index]
        click.echo(
            f"  {name:<12} wins {_percent(data['win_rate'][index])} of {unit} ({_percent(low)}-{_percent(high)}), "
            f"{data['points_per_hand'][index]:.2f} points per hand"
        )
    capped = data.get("capped_games", 0)
    if capped:
        click.echo(
            f"  undecided: {_percent(capped / data['games'])} of games ({capped:,}) reached the cap of "
            f"{MAX_HANDS_PER_GAME:,} deals with no winner, a win for neither player"
        )
    click.echo(
        "  outcomes: "
        + ", ".join(f"{k} {_percent(data[f'{k}_rate'])}" for k in ("knock", "gin", "big_gin", "undercut", "dead"))
    )
    first = _percent(data["first_player_win_rate"])
    click.echo(f"  mean draws per hand {data['mean_draws']:.2f}, first player wins {first} of scored hands")
    paired = data.get("paired")
    if paired and paired.get("rho") is not None:
        click.echo(
            f"  duplicate pairs: {paired['pairs']:,.0f}, {a}'s pair score {paired['pair_score']:.3f} "
            f"({paired['pair_score_low']:.3f}-{paired['pair_score_high']:.3f}), legs correlate rho={paired['rho']:.2f}"
        )
    click.echo(f"  {data['timing']['seconds']:.1f} s, {data['timing']['hands_per_second']:,.0f} hands/s")


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
    from simgin.ratings import tournament_analysis
    from simgin.results import jsonable

    show_partial = lambda results: _show_tournament_partial(results[0], as_json)  # noqa: E731
    result = _execute(players, rules, show_partial=show_partial, **options)
    try:
        analysis = tournament_analysis(result, anchor=anchor, seed=options["seed"])
    except ValueError as error:
        raise user_error("ratings", error) from None
    data = _result_data("tournament", result, **analysis)
    if as_json:
        echo_json(jsonable(data | {"timing": {"seconds": result.seconds, "chunks_run": result.chunks_run}}))
    else:
        _show_tournament(result, analysis)
    _save(options["out"], lambda: data)


def _show_tournament_partial(result: Any, as_json: bool) -> None:
    """After Ctrl-C: the pairings' table of what was finished (no ratings: they need every pairing), marked partial."""
    from simgin.results import jsonable

    if as_json:
        data = {"players": list(result.config.players), "summary": result.summary.to_dict(orient="records")}
        echo_json(jsonable(data | {"partial": _partial_json(result)}))
        return
    click.echo(_partial_line(result))
    click.echo(_tournament_table(result))


def _tournament_table(result: Any) -> str:
    columns = ["player", "opponent", "win_rate", "win_rate_low", "win_rate_high", "points_per_hand", "hands", "games"]
    return result.summary[columns].to_string(index=False, float_format=lambda x: f"{x:.3f}")


def _show_tournament(result: Any, analysis: dict[str, Any]) -> None:
    click.echo(_tournament_table(result))
    anchor_name = analysis["anchor"] or "the mean"
    click.echo(f"\nratings (Elo scale, {anchor_name} = 0, 95% bootstrap intervals over deal pairs):")
    for row in sorted(analysis["ratings"], key=lambda r: -r["rating"]):
        line = (
            f"  {row['player']:<16} {row['rating']:8.1f}  ({row['low']:.1f} to {row['high']:.1f}), "
            f"rank {row['rank_low']:.0f}-{row['rank_high']:.0f}"
        )
        if row["sweep"] and row["player"] != analysis["anchor"]:
            line += f"; {row['sweep']}, so the rating is a bound set by the prior (one drawn game per pairing)"
        click.echo(line)
    claims = [row for row in analysis["pairwise"] if row["significant"]]
    if claims:
        click.echo("significant after Holm's correction:")
        for row in claims:
            click.echo(f"  {holm_claim(row)}")


def holm_claim(row: dict[str, Any]) -> str:
    """One significant pairwise claim, stated for the winner: its own pair score and the Holm-adjusted p.

    >>> holm_claim({"a": "simple", "b": "heuristic", "score": 0.232, "p_holm": 0.0})
    'heuristic beats simple (pair score 0.768, adjusted p < 1e-300)'
    """
    if row["score"] > 0.5:
        better, worse, score = row["a"], row["b"], row["score"]
    else:
        better, worse, score = row["b"], row["a"], 1 - row["score"]
    return f"{better} beats {worse} (pair score {score:.3f}, adjusted p {format_p(row['p_holm'])})"


def format_p(p: float) -> str:
    """A p-value in two significant digits; one below 1e-300 (the floor of double precision, where it
    may have underflowed to 0) as ``< 1e-300``.

    >>> format_p(0.0123), format_p(3.2e-45), format_p(0.0)
    ('0.012', '3.2e-45', '< 1e-300')
    """
    return "< 1e-300" if p < 1e-300 else f"{p:.2g}"


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
    from simgin.compare import SprtSettings, parse_sprt, run_sprt
    from simgin.runner import MAX_GAMES

    check_run_options(workers, seed, backend, scheduler)
    check_range("--max-games", max_games, 2, MAX_GAMES)
    check_range("--batch", batch, 1, MAX_GAMES // 2)
    overridden = warn_overridden(rules)
    try:
        settings = SprtSettings(
            **parse_sprt(sprt_text), alpha=alpha, beta=beta, model=model, max_games=max_games, batch_pairs=batch
        )
    except ValueError as error:
        raise user_error("", error) from None
    with _running(max_games, "games", quiet, out, players=(a, b)) as progress:
        result, summary = run_sprt(
            a,
            b,
            settings,
            rules,
            seed,
            workers=workers,
            backend=backend,
            scheduler=scheduler,
            out=out,
            progress=progress,
            programs=_programs(decision_timeout),
            notice=notice,
        )
    if as_json:
        from simgin.results import jsonable

        data = {"players": [a, b], "seed": seed, "rules": rules.to_dict(), "overridden": overridden, "sprt": summary}
        echo_json(jsonable(data))
    else:
        _show_compare(a, b, settings, max_games, summary)
    _save(out, lambda: _result_data("compare", result, sprt=summary))


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
        f"  Elo {summary['elo']:.1f} ({interval}), LOS {100 * summary['los']:.1f}%, "
        f"pair counts {[int(c) for c in summary['counts']]}"
    )


@click.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option(
    "--grid",
    "grid_items",
    multiple=True,
    required=True,
    metavar="SWITCH=VALUES",
    help="A rule switch and its values: knock_limit=0..10 or gin_bonus=20,25 (repeatable).",
)
@rules_options
@run_options
@json_option
def sweep(a: str, b: str, grid_items: tuple[str, ...], rules: Rules, as_json: bool, **options: Any) -> None:
    """Play A against B under every combination of rule values, all on the same seeds.

    Each cell of the grid is a run with those switches set on --rules; the table gives per
    cell the win rates, first-player edge, gin, undercut, dead and knock rates, mean hand
    length, points per hand and hands per game. Cells that differ only in switches without
    effect there (knock_limit under Oklahoma, say) are the same game: it is played once, a
    note says so, and the column same_game_as names the cell whose results a repeat shows.
    With --out DIR the table is also written to DIR/sweep.csv.

    \b
    Example:
      simgin sweep simple random --grid knock_limit=8..10 --grid gin_bonus=20,25 --games 20 --quiet
    """
    from simgin import __version__
    from simgin.summary import overridden_rules
    from simgin.sweep import parse_grid, plan_sweep, run_sweep, same_game_notes

    try:
        grid = parse_grid(grid_items, rules)
    except ValueError as error:
        raise user_error("", error) from None
    config = _make_config((a, b), rules, options, default_hands=2_000)
    try:
        _, _, same_as = plan_sweep(config, grid)
        notes = same_game_notes(config, grid)
    except ValueError as error:
        raise user_error("", error) from None
    for note in notes[:MAX_NOTES]:
        click.echo(f"Note: {note}", err=True)
    if len(notes) > MAX_NOTES:
        click.echo(f"Note: ... and {len(notes) - MAX_NOTES} more cells that repeat a game (see same_game_as)", err=True)
    cells_count = sum(first is None for first in same_as)
    out = options["out"]
    with _running(config.count * cells_count, config.mode, options["quiet"], out, players=config.players) as progress:
        cells, table = run_sweep(config, grid, progress=progress, **_execution(options))
    overridden = overridden_rules(config)
    _show_sweep((a, b), table, cells, grid, overridden, as_json, out)
    data = {
        "kind": "sweep",
        "simgin_version": __version__,
        "config": config.to_dict(),
        "players": [a, b],
        "grid": grid,
        "overridden": overridden,
        "cells": cells,
    }
    _save(out, lambda: data)
    if out is not None:
        try:
            table.to_csv(out / "sweep.csv", index=False)
        except OSError as error:
            raise click.ClickException(f"cannot write {out / 'sweep.csv'}: {error.strerror}") from None


def _show_sweep(
    players: tuple[str, str],
    table: Any,
    cells: list[dict[str, Any]],
    grid: dict[str, Any],
    overridden: dict[str, str],
    as_json: bool,
    out: Any,
) -> None:
    columns = [
        *grid,
        "player",
        "win_rate",
        "first_player_win_rate",
        "gin_rate",
        "undercut_rate",
        "dead_rate",
        "knock_rate",
        "mean_turns",
        "points_per_hand",
        "hands_per_game",
        "same_game_as",
    ]
    if as_json:
        from simgin.results import jsonable

        data = {"players": list(players), "grid": grid, "overridden": overridden}
        echo_json(jsonable(data | {"table": table[columns].to_dict(orient="records")}))
        return
    shown = table[table["side"] == "a"][columns]
    click.echo(shown.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    _echo_oklahoma_breakdowns(cells, out)


def _echo_oklahoma_breakdowns(cells: list[dict[str, Any]], out: Path | None) -> None:
    """For Oklahoma cells: outcomes by up card (its knock limit) and the share of doubled spade hands (V9)."""
    from simgin.summary import knock_limit_breakdown
    from simgin.tally import Tally

    for index, cell in enumerate(cells):
        if not cell["settings"].get("oklahoma", False) or cell.get("same_game_as") is not None:
            continue
        breakdown = knock_limit_breakdown(Tally.from_dict(cell["pairings"][0]["tally"]))
        label = ", ".join(f"{key}={value}" for key, value in cell["settings"].items())
        click.echo(f"\n{label}: by up card (knock limit); {100 * breakdown['doubled_share'].iloc[0]:.1f}% doubled")
        click.echo(breakdown.drop(columns="doubled_share").to_string(index=False, float_format=lambda x: f"{x:.3f}"))
        if out is not None:
            breakdown.to_csv(out / f"oklahoma_cell{index:03d}.csv", index=False)


@click.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--seed", type=int, default=None, help="The run's --seed (with --hand).")
@click.option("--hand", "hand_index", type=int, default=None, help="Hand number K of a 'simgin match A B --hands' run.")
@click.option("--hand-seed", type=int, default=None, help="Or: the hand seed itself (as named in an error).")
@click.option("--dealer", type=click.IntRange(0, 1), default=0, show_default=True, help="Dealer seat with --hand-seed.")
@click.option("--duplicate/--no-duplicate", default=True, show_default=True, help="As in the run.")
@rules_options
def replay(
    a: str,
    b: str,
    seed: int | None,
    hand_index: int | None,
    hand_seed: int | None,
    dealer: int,
    duplicate: bool,
    rules: Rules,
) -> None:
    """Print one hand move by move: deal, draws, discards, knock, melds, lay-offs, score.

    Hand K of 'simgin match A B --hands N --seed S' is 'simgin replay A B --seed S --hand K'
    (with duplicate deals hands 2j and 2j+1 are one deal with the seats swapped).

    \b
    Example:
      simgin replay simple random --seed 7 --hand 3
    """
    from simgin import reference_engine, runner
    from simgin.registry import resolve

    warn_overridden(rules, games=False)
    if hand_seed is None:
        if seed is None or hand_index is None:
            raise click.UsageError("give --seed S and --hand K, or --hand-seed")
        check_range("--hand", hand_index, 0, runner.MAX_HANDS - 1)
        check_range("--seed", seed, 0, runner.MAX_SEED, " (a 64-bit seed)")
        try:
            config = runner.RunConfig((a, b), rules, hands=2 * (hand_index + 1), seed=seed, duplicate=duplicate)
            hand_seed, dealer, players = runner.locate_hand(config, hand_index)
        except ValueError as error:
            raise user_error("", error) from None
    else:
        given = [name for name, value in (("--seed", seed), ("--hand", hand_index)) if value is not None]
        if given:
            raise click.UsageError(f"--hand-seed names the hand by itself: give it without {' and '.join(given)}")
        check_range("--hand-seed", hand_seed, 0, runner.MAX_SEED, " (a 64-bit hand seed)")
        players = (a, b)
    try:
        strategies = (resolve(players[0]).make(), resolve(players[1]).make())
        # As engine.play_hand_rows plays an independent hand: game switches at their standard values.
        record = reference_engine.play_hand(strategies, rules.effective("pairs", games=False), hand_seed, dealer)
    except ValueError as error:
        raise user_error("", error) from None
    click.echo(f"hand seed {hand_seed}, seat 0: {players[0]}, seat 1: {players[1]}, dealer: seat {dealer}")
    click.echo(record.replay())


COMMANDS = (match, tournament, compare, sweep, replay)

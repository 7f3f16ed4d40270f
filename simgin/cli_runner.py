"""The commands that play many hands: ``simgin match``, ``simgin tournament`` and ``simgin replay``.

They are registered on the root group in :mod:`simgin.cli`; the work is done by
:mod:`simgin.runner`, the numbers by :mod:`simgin.summary`.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from simgin.cli import echo_json, json_option, rules_options, user_error
from simgin.rules import Rules

F = TypeVar("F", bound=Callable[..., Any])


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
        click.option(
            "--out",
            type=click.Path(file_okay=False, path_type=Path),
            default=None,
            help="Directory for results; finished chunks are kept and a rerun resumes.",
        ),
        click.option("--hand-log", is_flag=True, help="Also write every hand to Parquet files in --out."),
        click.option("--quiet", is_flag=True, help="No progress bar."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _check_counts(hands: int | None, games: int | None) -> None:
    if hands is not None and games is not None:
        raise click.UsageError("give --hands or --games, not both")
    for name, value in (("--hands", hands), ("--games", games)):
        if value is not None and value < 1:
            raise click.BadParameter(f"{value} is not allowed: must be at least 1", param_hint=name)


def _announce_compilation() -> None:
    """Say so when the numba cache is cold, since the first run compiles for a minute."""
    cache = Path(__file__).parent / "kernels" / "__pycache__"
    if not list(cache.glob("engine.play_hands_batch*.nbi")):
        click.echo("compiling kernels, first run only (about a minute)...", err=True)


def _execute(
    players: Sequence[str],
    rules: Rules,
    hands: int | None,
    games: int | None,
    seed: int,
    duplicate: bool,
    workers: int | None,
    backend: str,
    scheduler: str | None,
    out: Path | None,
    hand_log: bool,
    quiet: bool,
):
    from simgin import runner

    if hands is None and games is None:
        hands = 10_000
    _check_counts(hands, games)
    if workers is not None and workers < 1:
        raise click.BadParameter(f"{workers} is not allowed: must be at least 1", param_hint="--workers")
    try:
        config = runner.RunConfig(tuple(players), rules, hands, games, seed, duplicate)
    except ValueError as error:
        raise user_error("", error) from None
    _announce_compilation()
    total = config.count * len(config.pairings)
    show = not quiet and sys.stderr.isatty()
    started = time.perf_counter()
    bar = click.progressbar(length=total, label="hands" if config.mode == "hands" else "games", file=sys.stderr)
    if show:
        bar.__enter__()

    def progress(result: Any, units: int) -> None:
        if show:
            rate = bar.pos / max(time.perf_counter() - started, 1e-9)
            bar.label = f"{config.mode} ({rate:,.0f}/s)"
            bar.update(units)

    try:
        return runner.run(
            config,
            workers=workers,
            backend=backend,
            scheduler=scheduler,
            out=out,
            hand_log=hand_log,
            progress=progress,
        )
    except (runner.RunError, ValueError) as error:
        raise user_error("", error) from None
    except KeyboardInterrupt:
        kept = f"; finished chunks are kept in {out}, rerun the same command to resume" if out else ""
        raise click.ClickException(f"interrupted{kept}") from None
    finally:
        if show:
            bar.__exit__(None, None, None)


def _percent(value: float) -> str:
    return "-" if value is None or math.isnan(value) else f"{100 * value:.1f}%"


@click.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@rules_options
@run_options
@json_option
def match(a: str, b: str, rules: Rules, as_json: bool, **options: Any) -> None:
    """Play strategy A against strategy B and summarise the result.

    Each deal is played twice with the seats swapped (--no-duplicate to turn it off), on
    all cores; the same --seed gives the same numbers on any number of workers.

    \b
    Example:
      simgin match simple random --hands 2000 --seed 7
      simgin match simple simple --games 100 --rules eaai --json
    """
    from simgin.summary import match_json

    result = _execute((a, b), rules, **options)
    data = match_json(result)
    if as_json:
        echo_json(data)
        return
    unit = "games" if result.config.mode == "games" else "hands"
    click.echo(f"{a} vs {b}: {data['hands']:,} hands, {data['games']:,} games, seed {data['seed']}")
    for index, name in enumerate((a, b)):
        low, high = data["win_rate_ci"][index]
        click.echo(
            f"  {name:<12} wins {_percent(data['win_rate'][index])} of {unit} ({_percent(low)}-{_percent(high)}), "
            f"{data['points_per_hand'][index]:.2f} points per hand"
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
@json_option
def tournament(players: tuple[str, ...], rules: Rules, as_json: bool, **options: Any) -> None:
    """Round robin: every pair of strategies plays, all on the same deals.

    \b
    Example:
      simgin tournament random simple --hands 2000 --seed 1
    """
    if len(players) < 2:
        raise click.UsageError("a tournament needs at least two strategies")
    if len(set(players)) != len(players):
        raise click.UsageError(f"strategies must differ, got {' '.join(players)}")
    result = _execute(players, rules, **options)
    summary = result.summary
    if as_json:
        echo_json(
            {
                "players": list(players),
                "summary": summary.to_dict(orient="records"),
                "timing": {"seconds": result.seconds, "chunks_run": result.chunks_run},
            }
        )
        return
    columns = ["player", "opponent", "win_rate", "win_rate_low", "win_rate_high", "points_per_hand", "hands", "games"]
    click.echo(summary[columns].to_string(index=False, float_format=lambda x: f"{x:.3f}"))


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

    if hand_seed is None:
        if seed is None or hand_index is None:
            raise click.UsageError("give --seed S and --hand K, or --hand-seed")
        try:
            config = runner.RunConfig((a, b), rules, hands=2 * (hand_index + 1), seed=seed, duplicate=duplicate)
            hand_seed, dealer, players = runner.locate_hand(config, hand_index)
        except ValueError as error:
            raise user_error("", error) from None
    else:
        players = (a, b)
    try:
        strategies = (_python_strategy(players[0]), _python_strategy(players[1]))
        record = reference_engine.play_hand(strategies, rules, hand_seed, dealer)
    except ValueError as error:
        raise user_error("", error) from None
    click.echo(f"hand seed {hand_seed}, seat 0: {players[0]}, seat 1: {players[1]}, dealer: seat {dealer}")
    click.echo(record.replay())


def _python_strategy(name: str):
    """The plain-Python form of a built-in bot, for the reference engine's move log."""
    from simgin.strategies.random import RandomStrategy
    from simgin.strategies.simple import SimpleStrategy

    bots = {"random": RandomStrategy, "simple": SimpleStrategy}
    if name not in bots:
        raise ValueError(f"unknown strategy {name!r}: choose from {', '.join(bots)}")
    return bots[name]()


COMMANDS = (match, tournament, replay)

"""The ``simgin tune`` command: fit a strategy's parameters to rules and an opponent pool.

It is registered on the root group in :mod:`simgin.cli.main`; the work is done by
:func:`simgin.studies.tune.tune`. The shared helpers of :mod:`simgin.cli.main` are imported inside the
command, not at the top, so this module imports without an import cycle.
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import Any

import click

from simgin.cli.options import (
    adjust_luck_option,
    execution_options,
    json_option,
    luck_points_text,
    on_illegal_option,
    plural,
    quiet_option,
    rules_options,
    search_options,
    search_out_option,
    seed_option,
)
from simgin.game.rules import Rules
from simgin.statistics.formats import p_value, percent, percent_interval


def _percent_or_points(value: float, mode: str) -> str:
    if value is None or not math.isfinite(value):
        return "-"
    return percent(value) if mode == "games" else f"{value:+.2f}"


def _interval(low: float, high: float, mode: str) -> str:
    if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)):
        return "(no interval)"
    if mode == "games":
        return percent_interval(low, high)
    return f"({low:+.2f} to {high:+.2f})"


@click.command()
@click.argument("strategy", metavar="STRATEGY")
@click.option(
    "--against",
    "against",
    multiple=True,
    required=True,
    metavar="SPEC",
    help="An opponent of the pool (repeatable); the score is the mean over the pool.",
)
@rules_options
@click.option(
    "--params",
    default=None,
    metavar="NAME,NAME,...",
    help="Parameters to tune [default: every one with a lower and an upper bound, but for samples and playouts].",
)
@click.option(
    "--bound",
    "bound_items",
    multiple=True,
    metavar="NAME=LOW..HIGH",
    help="Search bounds for a parameter (repeatable): makes an unbounded one tunable, or narrows declared ones.",
)
@click.option("--start", default=None, metavar="SPEC", help="Start values [default: the strategy's defaults].")
@search_options(
    budget="Candidate evaluations of the search  [default: 128].",
    games="Games per opponent per evaluation, first generation [default: 400].",
    hands="Or: hands per opponent per evaluation (score: net points per hand).",
    final="Games (hands) per candidate in the final measurement [default: 10x].",
)
@click.option(
    "--popsize", type=int, default=None, help="Candidates per CMA-ES generation [default: 4 + 3 ln(parameters)]."
)
@seed_option("Seed of the tune: same seed, same tuned spec.")
@execution_options
@search_out_option
@on_illegal_option
@adjust_luck_option
@quiet_option
@json_option
def tune(
    strategy: str,
    against: tuple[str, ...],
    rules: Rules,
    params: str | None,
    bound_items: tuple[str, ...],
    start: str | None,
    budget: int | None,
    games: int | None,
    hands: int | None,
    final: int | None,
    popsize: int | None,
    seed: int,
    workers: int | None,
    backend: str,
    scheduler: str | None,
    out: Path | None,
    on_illegal: str,
    adjust_luck: bool,
    quiet: bool,
    as_json: bool,
) -> None:
    """Tune STRATEGY's parameters to win most against the --against pool.

    CMA-ES (the 'cma' package, pip install 'simgin[tune]') searches the parameters
    inside their bounds, from --start, maximising the share of games won against the
    pool (duplicate deals; with --hands: net points per hand). Every candidate of a
    generation plays the same deals (common random numbers); samples grow to twice
    --games by the last generation; the best finalists are replayed on fresh deals. Then
    the tuned spec and the start play new deals that the search never saw, and their
    scores with 95% intervals and the p-value of the paired difference are printed,
    with the tuned spec last (match, tournament, compare and sweep take it as is). When
    the tuned spec scores lower than the start on those fresh deals, the start is kept
    and printed last instead, and the output says so. With --adjust-luck (and --hands)
    candidates are ranked and measured by their net points per hand with each hand's luck of
    the cards taken out (docs/STATISTICS.md §13), the plain final figures printed beside.
    The defaults (128 evaluations, 400 games at first) take a few minutes on 2 cores;
    the examples below are tiny.

    \b
    Example:
      simgin tune heuristic --against simple --params knock,knock_late --budget 4 --games 8 --final 20 --quiet
      simgin tune heuristic --against simple --rules hollywood --budget 8 --games 12 --final 40 --out tune-run --quiet
      simgin report tune-run
    """
    from simgin.cli.execution import run_search
    from simgin.cli.options import echo_json, user_error
    from simgin.studies.tune import DEFAULT_BUDGET, TuneBudgetWarning, TuneError, parse_bound, tune as run_tune

    names = None if params is None else [name.strip() for name in params.split(",") if name.strip()]
    try:
        bounds: dict[str, tuple[float, float]] = {}
        for item in bound_items:
            name, low, high = parse_bound(item)
            if name in bounds:
                raise TuneError(f"--bound {name} given twice")
            bounds[name] = (low, high)
    except TuneError as error:
        raise user_error("", error) from None
    mode = "games" if hands is None else "hands"

    def warn(message: Any, category: Any, *args: Any, **kwargs: Any) -> None:
        click.echo(f"Warning: {message}", err=True)

    with warnings.catch_warnings():
        warnings.simplefilter("always", TuneBudgetWarning)
        warnings.showwarning = warn
        result = run_search(
            run_tune,
            strategy,
            list(against),
            quiet=quiet,
            describe=lambda evaluation: f"{evaluation.phase} {_percent_or_points(evaluation.score, mode)}",
            unit=mode,
            out=out,
            rules=rules,
            params=names,
            bounds=bounds,
            start=start,
            budget=DEFAULT_BUDGET if budget is None else budget,
            games=games,
            hands=hands,
            final=final,
            popsize=popsize,
            seed=seed,
            workers=workers,
            backend=backend,
            scheduler=scheduler,
            on_illegal=on_illegal,
            adjust_luck=adjust_luck,
        )
    if as_json:
        echo_json(result.to_dict())
        return
    _echo_result(result)


def _echo_result(result: Any) -> None:
    settings = result.settings
    mode = settings.mode
    pool = ", ".join(result.against)
    tuned_names = [d.name for d in settings.dimensions]
    click.echo(
        f"tuned {plural(len(tuned_names), 'parameter')} of {result.strategy} against {pool}: "
        f"{plural(result.evaluations, 'evaluation')} in {plural(settings.generations, 'generation')}, "
        f"seed {settings.seed}"
    )
    width = max(len(name) for name in [*tuned_names, "parameter"])
    click.echo(f"  {'parameter':<{width}}  {'start':>8}  {'tuned':>8}  bounds")
    for dimension in settings.dimensions:
        start = result.start_parameters[dimension.name]
        value = result.tuned_parameters[dimension.name]
        bounds = f"{dimension.low:g}..{dimension.high:g}"
        click.echo(f"  {dimension.name:<{width}}  {_number(start):>8}  {_number(value):>8}  {bounds}")
    what = "of games" if mode == "games" else "net points per hand"
    if settings.adjust_luck:
        what += ", luck-adjusted"
    count = 2 * next(e.pairs for e in result.history if e.phase == "final")
    click.echo(f"final measurement: {count:,} fresh {mode} per candidate and opponent, never used by the search")
    click.echo(
        f"  tuned wins {_percent_or_points(result.score, mode)} {_interval(*result.score_ci, mode)} {what}"
        if mode == "games"
        else f"  tuned {_percent_or_points(result.score, mode)} {_interval(*result.score_ci, mode)} {what}"
    )
    click.echo(
        f"  start wins {_percent_or_points(result.start_score, mode)} {_interval(*result.start_score_ci, mode)} {what}"
        if mode == "games"
        else f"  start {_percent_or_points(result.start_score, mode)} {_interval(*result.start_score_ci, mode)} {what}"
    )
    difference = result.difference
    scale = 100 if mode == "games" else 1
    unit = " percentage points of games" if mode == "games" else " net points per hand"
    p_text = p_value(result.p_value, missing="-")
    click.echo(
        f"  paired difference {scale * difference['difference']:+.2f}{unit} "
        f"({scale * difference['low']:+.2f} to {scale * difference['high']:+.2f}), p = {p_text}"
    )
    if result.luck_adjusted is not None:
        for name, figures in (("tuned", result.luck_adjusted), ("start", result.luck_adjusted["start"])):
            click.echo(f"  {name}, luck-adjusted (§13): {luck_points_text(figures['net_points_per_hand'])}")
    if settings.on_illegal == "forfeit":
        finals = [entry.get("tally") or {} for e in result.history if e.phase == "final" for entry in e.opponents]
        own, theirs = (int(sum(t.get(f"forfeits_{side}", 0) for t in finals)) for side in ("a", "b"))
        click.echo(f"  forfeits (illegal moves) in the final measurement: {settings.strategy} {own}, the pool {theirs}")
    if result.kept_start:
        click.echo(
            "  the tuned spec scored lower than the start on these fresh deals: no gain found, the start is kept "
            "(the spec below)"
        )
    timing = result.timing
    resumed = timing["evaluations_resumed"]
    click.echo(
        f"  {result.games:,} {mode} in all, {timing['seconds']:.0f} s ({timing['cpu_seconds']:.0f} s CPU), "
        f"{plural(resumed, 'evaluation')} resumed"
    )
    click.echo(result.spec)


def _number(value: float) -> str:
    from simgin.studies.tune import format_value

    return format_value(value)


COMMANDS = (tune,)

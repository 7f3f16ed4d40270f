"""The ``simgin plan`` command: how many games a match, tournament or sweep needs to detect a difference.

Registered on the root group in :mod:`simgin.cli.main`; the work is :func:`simgin.studies.planning.plan`.
"""

from __future__ import annotations

from typing import Any

import click

from simgin.cli.options import build_rules, echo_json, json_option, preset_option, seed_option, set_option, user_error


@click.command()
@click.argument("players", nargs=-1, metavar="P1 P2 [P3 ...]")
@click.option(
    "--difference",
    type=float,
    required=True,
    help="The true difference to detect: percentage points of the win rate (3 = 53%% against 50%%, or a cell 3 "
    "points above the baseline), or points per hand with --metric net_points_per_hand.",
)
@click.option(
    "--metric",
    type=click.Choice(["win_rate", "net_points_per_hand"]),
    default="win_rate",
    show_default=True,
    help="What the difference is in.",
)
@click.option("--power", type=float, default=0.8, show_default=True, help="Chance of detecting it (0-1).")
@click.option(
    "--grid",
    "grid_items",
    multiple=True,
    metavar="SWITCH=VALUES",
    help="Plan a sweep with this grid (as simgin sweep takes it): a cell against the baseline; without it, a match "
    "or tournament: the first-named player against an even pairing.",
)
@click.option("--baseline", default=None, metavar="SWITCH=VALUE,...", help="The sweep's baseline cell (with --grid).")
@preset_option()
@set_option
@click.option("--games", type=int, default=None, help="Games per pairing (and cell) of the pilot run (default 200).")
@click.option("--hands", type=int, default=None, help="Hands per pairing (and cell) of the pilot run instead.")
@seed_option("Seed of the pilot run.")
@click.option(
    "--workers",
    type=int,
    default=None,
    help="Worker processes for the pilot (default: all cores; a pilot of one job plays in this process).",
)
@json_option
def plan(
    players: tuple[str, ...],
    difference: float,
    metric: str,
    power: float,
    grid_items: tuple[str, ...],
    baseline: str | None,
    preset: str,
    settings: tuple[str, ...],
    games: int | None,
    hands: int | None,
    seed: int,
    workers: int | None,
    as_json: bool,
) -> None:
    """Say how many games (or hands) a study needs to detect a DIFFERENCE with the given power, before playing it.

    A short pilot run of the same players, rules and grid, on duplicate deals, measures how much one deal pair's
    result varies; the normal formula n = ((z(1 - alpha/2m) + z(power)) * sd / difference)^2 turns that into deal
    pairs, with m the number of comparisons the full study would test (Holm's strictest step: a little
    conservative). Without --grid it plans a match (a tournament with three or more players): enough games for
    the first-named player's win rate of 50% + DIFFERENCE to be significant. With --grid it plans the sweep:
    enough games per pairing and cell for a cell that differs from the baseline by DIFFERENCE. After a sweep,
    --json and differences.csv give each comparison's smallest detectable difference (`detectable`).

    \b
    Example:
      simgin plan simple greedy --difference 5 --games 100
      simgin plan simple greedy --grid knock_limit=10,5 --difference 5 --games 100
    """
    from simgin.studies.planning import plan as make_plan
    from simgin.studies.sweep import parse_grid

    if len(players) < 2:
        raise click.UsageError(f"a plan needs at least two strategies, got {len(players)}")
    if not difference > 0:
        raise click.BadParameter(f"{difference:g}: give a positive difference", param_hint="--difference")
    if not 0.0 < power < 1.0:
        raise click.BadParameter(f"{power:g}: give a power between 0 and 1, e.g. 0.8", param_hint="--power")
    for name, value in (("--games", games), ("--hands", hands)):
        if value is not None and value < 2:
            raise click.BadParameter(f"{value}: a pilot needs at least 2", param_hint=name)
    if games is not None and hands is not None:
        raise click.UsageError("give --games or --hands for the pilot, not both")
    rules = build_rules(preset, settings)
    size = difference / 100.0 if metric == "win_rate" else difference
    try:
        grid = parse_grid(grid_items, rules) if grid_items else None
        result = make_plan(
            players,
            size,
            metric=metric,
            grid=grid,
            rules=rules,
            baseline=baseline,
            power=power,
            games=games,
            hands=hands,
            seed=seed,
            workers=workers,
        )
    except ValueError as error:
        raise user_error("", error) from None
    if as_json:
        echo_json(result.to_json())
        return
    _show_plan(result, difference)


def _show_plan(result: Any, difference: float) -> None:
    unit = "points" if result.metric == "win_rate" else "points per hand"
    what = "win rate" if result.metric == "win_rate" else "net points per hand"
    level = result.alpha / result.comparisons
    pilot = f"pilot: {result.pilot_units:,} deal pairs or units per pairing"
    click.echo(
        f"to detect {difference:g} {unit} of {what} with {100 * result.power:.0f}% power at level {level:.3g} "
        f"({result.comparisons} comparison{'s' if result.comparisons != 1 else ''}, Holm's strictest step); {pilot}:"
    )
    for row in result.rows:
        where = f"{row.cell}: " if row.cell else ""
        click.echo(
            f"  {where}{row.pairing[0]} vs {row.pairing[1]}: {row.count:,} {result.mode} ({row.units:,} units; "
            f"sd per unit {row.sd:.3g})"
        )
    click.echo(f"play --{result.mode} {result.needed} per pairing" + (" and cell" if result.rows[0].cell else ""))


COMMANDS = (plan,)

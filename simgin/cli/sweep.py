"""``simgin sweep``: a variant study of one pairing (or a table) over a grid of rule switches, each cell on the
same deals, with paired differences from the baseline (docs/STATISTICS.md §9-§10); the study is
:mod:`simgin.studies.sweep` and :mod:`simgin.studies.table_sweep`."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import click

from simgin.cli.execution import (
    MAX_NOTES,
    execution_options,
    make_config,
    percent_or_dash,
    progress_display,
    save_after_printing,
    table_players,
)
from simgin.cli.options import (
    adjust_luck_option,
    build_rules,
    check_adjust_luck,
    echo_json,
    json_option,
    luck_points_text,
    preset_option,
    run_options,
    set_option,
    user_error,
)
from simgin.game.rules import Rules
from simgin.statistics.formats import percent


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
@preset_option(
    f"Base rules preset: {', '.join(Rules.PRESETS)}; a --grid preset=... dimension replaces it in its cells."
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
@adjust_luck_option
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

    With --adjust-luck (sweeps of hands) each hand's luck of the cards is taken out of the first
    player's win rate and net points per hand (docs/STATISTICS.md §13): their differences, p-values
    and Holm's correction use the luck-adjusted outcomes, the plain figures beside them.

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
    from simgin.studies.sweep import sweep as run_study

    check_adjust_luck(options, "three" if teams or table_kind == "three" else "pairs")
    if teams or table_kind == "three":
        _table_sweep(players, teams, table_kind, grid_items, baseline, preset, settings, as_json, sprt_text, options)
        return
    if len(players) < 2:
        raise click.UsageError(f"a sweep needs at least two strategies, got {len(players)}")
    if len(set(players)) != len(players):
        raise click.UsageError(f"strategies must differ, got {' '.join(players)}")
    rules = build_rules(preset, settings)
    changes = _rule_changes(settings)
    grid = _parsed_grid(grid_items, baseline, rules)
    if sprt_text is not None:
        _sweep_sprt(players, grid, sprt_text, rules, changes, baseline, as_json, options)
        return
    config = make_config(players, rules, options, default_hands=2_000)
    cells_count = sum(first is None for first in _planned_cells(config, grid, changes))
    out = options["out"]
    total = config.count * cells_count * len(config.pairings)
    with progress_display(total, config.mode, options["quiet"], out, players=config.players) as progress:
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
            adjust_luck=config.adjust_luck,
            **execution_options(options),
        )
    _show_sweep(result, as_json)
    _save_study(result, out)


def _rule_changes(settings: tuple[str, ...]) -> dict[str, str]:
    """The ``--set NAME=VALUE`` changes by name, as the study records them."""
    return {item.partition("=")[0].strip(): item.partition("=")[2] for item in settings}


def _parsed_grid(grid_items: tuple[str, ...], baseline: str | None, rules: Rules) -> dict[str, list[Any]]:
    """The ``--grid`` switches and values, with ``--baseline`` checked against them (bad input: a usage error)."""
    from simgin.studies.sweep import parse_baseline, parse_grid

    try:
        grid = parse_grid(grid_items, rules)
        parse_baseline(baseline, grid, rules)
    except ValueError as error:
        raise user_error("", error) from None
    return grid


def _planned_cells(config: Any, grid: dict[str, list[Any]], changes: dict[str, str]) -> list[int | None]:
    """Plan the grid's cells and print a note for each cell that plays the same game as an earlier one; returns,
    per cell, that earlier cell's index (None for a cell that is played)."""
    from simgin.studies.sweep import plan_sweep, same_game_notes

    try:
        _, _, same_as = plan_sweep(config, grid, changes)
        notes = same_game_notes(config, grid, changes)
    except ValueError as error:
        raise user_error("", error) from None
    for note in notes[:MAX_NOTES]:
        click.echo(f"Note: {note}", err=True)
    if len(notes) > MAX_NOTES:
        more = len(notes) - MAX_NOTES
        repeat = "cell that repeats" if more == 1 else "cells that repeat"
        click.echo(f"Note: ... and {more} more {repeat} a game (see same_game_as)", err=True)
    return same_as


def _save_study(result: Any, out: Path | None) -> None:
    """Write a sweep's files into ``out`` after its result was printed: a failure loses nothing shown."""
    if out is not None:
        save_after_printing(lambda: result.save(out), f"the results into {out}", "them")


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
    from simgin.studies.table_sweep import table_sweep

    if teams:
        if table_kind == "three":
            raise click.UsageError("give --table three or two --team options, not both")
        table, players = table_players(players, teams)
    else:
        if len(players) != 3:
            raise click.UsageError(f"--table three takes exactly three strategies, got {len(players)}")
        table = "three"
    if sprt_text is not None:
        raise click.UsageError("--sprt compares two players under two rule sets: it does not take a table")
    if options["hands"] is not None:
        raise click.UsageError("a table sweep plays whole games: give --games, not --hands")
    rules = build_rules(preset, settings)
    changes = _rule_changes(settings)
    options = {**options, "games": options["games"] if options["games"] is not None else 240}
    config = make_config(players, rules, options, table=table)
    grid = _parsed_grid(grid_items, baseline, rules)
    total = config.games * sum(first is None for first in _planned_cells(config, grid, changes))
    with progress_display(total, "games", options["quiet"], options["out"], table, None, players) as bar:
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
            **execution_options(options),
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
    if config.adjust_luck:
        click.echo("\nluck-adjusted (docs/STATISTICS.md §13), the first-named player's net points per hand:")
        for row in result.luck_adjusted_rows():
            click.echo(f"  {row['cell']}, {row['a']} vs {row['b']}: {luck_points_text(row['net_points_per_hand'])}")
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
                value, low, high = (percent_or_dash(rate) for rate in cell.first_named.rates["win_rate"])
                click.echo(f"    {cell.first_named.a} wins {value} ({low}-{high}) of {unit} against the others")
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
    config = make_config(players, rules, options) if given else None
    mode, most = (config.mode, config.count) if config else ("games", 20_000)
    with progress_display(2 * most, mode, options["quiet"], None, players=players) as progress:
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
                adjust_luck=options["adjust_luck"],
                **execution_options(options) | {"out": None, "hand_log": False},
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
        value, low, high = (percent_or_dash(row[metric + end]) for end in ("", "_low", "_high"))
        return f"{value} ({low}-{high})"

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
            doubled = percent_or_dash(block["doubled_share"].iloc[0])
            click.echo(f"\n{label}, {pairing}: by up card (knock limit); {doubled} of scored hands doubled")
            shown = block.drop(columns=["pairing", "doubled_share"])
            click.echo(shown.to_string(index=False, float_format=lambda x: f"{x:.3f}"))


COMMANDS = (sweep,)

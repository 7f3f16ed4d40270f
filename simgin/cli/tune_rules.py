"""The ``simgin tune-rules`` command: search rule switches for an objective, then measure the result honestly.

It is registered on the root group in :mod:`simgin.cli.main`; the work is done by
:func:`simgin.studies.tune_rules.tune_rules`. The shared helpers of :mod:`simgin.cli.options`
are imported inside the command, so this module imports without an import cycle.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import click

from simgin.cli.options import (
    adjust_luck_option,
    execution_options,
    json_option,
    luck_points_text,
    quiet_option,
    rules_options,
    search_options,
    search_out_option,
    seed_option,
)
from simgin.game.rules import Rules
from simgin.statistics.formats import p_below

KEEP_METRICS = (
    "win_rate",
    "first_player_win_rate",
    "hands_per_game",
    "knock_rate",
    "gin_rate",
    "big_gin_rate",
    "undercut_rate",
    "dead_rate",
    "mean_turns",
    "dealer_points_per_hand",
    "shutout_rate",
)
"""The metrics --keep takes, as the help lists them (``simgin.studies.tune_rules.METRICS``, which a test
keeps equal; named here so that the command line imports without the runner)."""


@click.command("tune-rules")
@click.argument("players", nargs=-1, required=True, metavar="PLAYERS...")
@click.option(
    "--objective",
    required=True,
    metavar="OBJ",
    help="skill (the first player's share of games won, maximised), balance (|first player's share of hands "
    "won - 50%|, minimised) or length=N (|mean hands per game - N|, minimised).",
)
@click.option(
    "--vary",
    "vary",
    multiple=True,
    required=True,
    metavar="SWITCH=LOW..HIGH",
    help="A rule switch to search (repeatable): SWITCH=LOW..HIGH for a number, SWITCH=A,B,... for a list, "
    "or a true/false or choice switch alone for every value (e.g. --vary big_gin --vary shutout).",
)
@rules_options
@click.option(
    "--keep",
    "keep",
    multiple=True,
    metavar="METRIC OP NUMBER",
    help="A constraint on a metric (repeatable), e.g. --keep 'dead_rate<=0.05'; OP is <=, >=, < or >; METRIC is "
    f"one of {', '.join(KEEP_METRICS)}.",
)
@search_options(
    budget="Trials of the search  [default: 40].",
    games="Games per opponent per trial [default: 200].",
    hands="Or: hands per opponent per trial (not for length=N).",
    final="Games (hands) per rule set in the final measurement [default: 10x].",
)
@seed_option("Seed: same seed, same search and result.")
@execution_options
@search_out_option
@adjust_luck_option
@quiet_option
@json_option
def tune_rules(
    players: tuple[str, ...],
    objective: str,
    vary: tuple[str, ...],
    rules: Rules,
    keep: tuple[str, ...],
    budget: int | None,
    games: int | None,
    hands: int | None,
    final: int | None,
    seed: int,
    workers: int | None,
    backend: str,
    scheduler: str | None,
    out: Path | None,
    adjust_luck: bool,
    quiet: bool,
    as_json: bool,
) -> None:
    """Search the --vary rule switches for an objective, on top of --rules/--set.

    PLAYERS: the first-named meets each of the others on duplicate deals (alone, it plays
    itself); 'skill' is the first-named player's share of games won, so name the stronger
    player first. optuna's TPE sampler (pip install 'simgin[tune-rules]') searches, seeded,
    with every trial on the same deals. Then the best rules found and the start rules play
    fresh deals that the search never saw: both scores with 95% intervals and the p-value of
    their paired difference are printed. Unless the found rules are better there (p < 0.05,
    every --keep met), the command says so and keeps the start rules. With --adjust-luck (and
    --hands) the first-named player's win rate is judged with each hand's luck of the cards
    taken out (docs/STATISTICS.md §13), the plain figures printed beside.

    \b
    Example:
      simgin tune-rules simple random --objective skill --vary knock_limit=6..10 --budget 4 --games 20 --quiet
      simgin tune-rules greedy --objective length=6 --vary target=50..150 --vary big_gin --budget 6 --games 20 \\
        --final 60 --out rules-run --quiet
      simgin report rules-run
    """
    from simgin.cli.execution import run_search
    from simgin.cli.options import echo_json, warn_overridden
    from simgin.studies.tune_rules import DEFAULT_BUDGET, tune_rules as run_tune_rules

    warn_overridden(rules, "pairs", games=hands is None)
    result = run_search(
        run_tune_rules,
        list(players),
        objective,
        list(vary),
        quiet=quiet,
        describe=lambda evaluation: evaluation.phase,
        unit="hands" if hands is not None else "games",
        out=out,
        rules=rules,
        keep=list(keep),
        budget=DEFAULT_BUDGET if budget is None else budget,
        games=games,
        hands=hands,
        final=final,
        seed=seed,
        workers=workers,
        backend=backend,
        scheduler=scheduler,
        adjust_luck=adjust_luck,
    )
    if as_json:
        echo_json(result.to_json())
        return
    _echo_result(result)


def _echo_result(result: Any) -> None:
    from simgin.studies.tune_rules import format_score

    settings = result.settings
    objective = settings.objective
    against = ", ".join(settings.opponents)
    switches = f"{len(settings.varied)} rule switch" + ("es" if len(settings.varied) > 1 else "")
    direction = "maximised" if objective.direction == "maximize" else "minimised"
    click.echo(
        f"searched {switches} for {objective.text} ({direction}): "
        f"{result.players[0]} against {against}, {result.evaluations} trials "
        f"({result.timing['rule_sets_played']:.0f} rule sets played) on the same {2 * (settings.count // 2):,} "
        f"{settings.mode} per opponent, seed {settings.seed}"
    )
    width = max(len(name) for name in [*result.start_rules, "switch"])
    click.echo(f"  {'switch':<{width}}  {'start':>8}  {'found':>8}  searched")
    for vary in settings.varied:
        start = _show(result.start_rules[vary.name])
        found = _show(result.found_rules[vary.name])
        click.echo(f"  {vary.name:<{width}}  {start:>8}  {found:>8}  {vary.text.partition('=')[2]}")
    count = 2 * (settings.final // 2)
    click.echo(
        f"final measurement: {count:,} fresh {settings.mode} per rule set and opponent, never used by the search"
    )
    adjusted = ", luck-adjusted" if settings.adjust_luck and objective.metric == "win_rate" else ""
    for name, score, ci in (
        ("found", result.found_score, result.found_score_ci),
        ("start", result.start_score, result.start_score_ci),
    ):
        click.echo(f"  {name} {format_score(score, objective)} {_interval(ci, objective)}{adjusted}")
    if result.luck_adjusted is not None:
        for name, figures in (("found", result.luck_adjusted), ("start", result.luck_adjusted["start"])):
            click.echo(
                f"  {name}, luck-adjusted (§13): {result.players[0]}'s net points per hand "
                f"{luck_points_text(figures['net_points_per_hand'])}"
            )
    difference = result.difference
    scale = 1 if objective.name == "length" else 100
    unit = " hands" if objective.name == "length" else " points"
    click.echo(
        f"  paired difference {scale * difference['difference']:+.2f}{unit} "
        f"({_signed(scale * difference['low'])} to {_signed(scale * difference['high'])}), "
        f"{p_below(result.p_value)}"
    )
    power = difference.get("power")
    if power is not None and math.isfinite(power) and not result.p_value < 0.05:  # what an unseen gain needed
        click.echo(
            f"  power to detect the {_signed(scale * difference['search_difference'])}{unit} the search saw: "
            f"{power:.0%} (--final {int(difference['final_for_80_power']):,} for 80%)"
        )
    for text, row in result.keep.items():
        found, start = row["found"], row["start"]
        click.echo(
            f"  keep {text} (judged on its 95% interval): found {_keep_value(found)} {row['found_status']}, "
            f"start {_keep_value(start)} {row['start_status']}"
        )
    for row in result.switch_effects:
        click.echo(
            f"  {row['switch']} {_show(row['start'])} -> {_show(row['found'])}: found minus reverted alone "
            f"{_signed(scale * row['difference'])}{unit} ({_signed(scale * row['low'])} to "
            f"{_signed(scale * row['high'])}), p_holm {p_below(row['p_holm'])[2:]}: "
            f"{'matters' if row['matters'] else 'does not matter alone'}"
        )
    simplified = result.simplified
    if simplified is not None:
        start_gap, found_gap = simplified["against_start"], simplified["against_found"]
        changed = {name: value for name, value in simplified["rules"].items() if value != result.start_rules[name]}
        click.echo(
            f"  only {', '.join(f'{name}={_show(value)}' for name, value in changed.items())}: "
            f"{format_score(simplified['score'], objective)} {_interval(simplified['score_ci'], objective)}, "
            f"against the start {_signed(scale * start_gap['difference'])}{unit}, against the found rules "
            f"{_signed(scale * found_gap['difference'])}{unit} ({_signed(scale * found_gap['low'])} to "
            f"{_signed(scale * found_gap['high'])}): {'adopted' if simplified['adopted'] else 'not adopted'}"
        )
    timing = result.timing
    click.echo(
        f"  {result.games:,} {settings.mode} in all, {timing['seconds']:.0f} s ({timing['cpu_seconds']:.0f} s CPU), "
        f"{timing['evaluations_resumed']} evaluations resumed"
    )
    click.echo(result.verdict)
    changed = {name: value for name, value in result.rules.items() if value != getattr(settings.rules, name)}
    sets = " ".join(f"--set {name}={_show(value)}" for name, value in changed.items())
    click.echo(f"rules: {sets}" if sets else "rules: the start rules (nothing to change)")


def _interval(ci: list[float], objective: Any) -> str:
    low, high = ci
    if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)):
        return "(no interval)"
    if objective.name == "length":
        return f"(95% CI {low:.2f}-{high:.2f})"
    return f"(95% CI {100 * low:.1f}-{100 * high:.1f})"


def _signed(value: float) -> str:
    return f"{value:+.2f}" if value is not None and math.isfinite(value) else "-"


def _show(value: Any) -> str:
    from simgin.cli.options import show_value

    return show_value(value)


COMMANDS = (tune_rules,)


def _keep_value(values: list[float]) -> str:
    """A --keep metric on fresh deals: its value and 95% interval."""
    value, low, high = values
    return f"{value:.4g} ({low:.4g}-{high:.4g})"

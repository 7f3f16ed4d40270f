"""The commands that play a match or a round robin: ``simgin match`` and ``simgin tournament``.

They are registered on the root group in :mod:`simgin.cli.main`; the work is done by :mod:`simgin.running.matches`
and :mod:`simgin.running.runner`, the numbers by :mod:`simgin.running.summary`; what every running command
shares is in :mod:`simgin.cli.options` and :mod:`simgin.cli.execution`.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import click

from simgin.cli.execution import (
    execute_match,
    forfeit_lines,
    percent_or_dash,
    save_result_json,
    shown_as_json,
    table_match,
    table_players,
    timing_line,
)
from simgin.cli.options import (
    adjust_luck_option,
    check_adjust_luck,
    echo_json,
    json_option,
    luck_points_text,
    rules_options,
    run_options,
    user_error,
)
from simgin.game.rules import Rules
from simgin.game.showdown import OUTCOMES
from simgin.players.labels import display_labels
from simgin.statistics.formats import p_below, p_value
from simgin.statistics.ratings import bootstrap_label


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
@adjust_luck_option
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
      simgin match opponent heuristic --hands 2000 --adjust-luck --quiet
      simgin match simple simple random --games 60 --quiet
      simgin match --team simple,simple --team random,simple --games 80 --quiet
    """

    table, players = table_players(players, teams)
    check_adjust_luck(options, table)
    if table != "pairs":
        table_match(table, players, rules, as_json, options)
        return
    outcome = execute_match(
        players, rules, show_partial=lambda results: _show_match(results[0], as_json, True), **options
    )
    _show_match(outcome.run, as_json)
    save_result_json(options["out"], outcome.result_data)


def _show_match(result: Any, as_json: bool, partial: bool = False) -> None:
    """Print a two-player match: its JSON object, or the text summary (a partial one is marked so)."""
    from simgin.running.engine import MAX_HANDS_PER_GAME
    from simgin.running.runner import match_json

    data = match_json(result)
    if shown_as_json(data, result, as_json, partial):
        return
    labels = display_labels(result.config.players, ask=not partial)
    a, b = (labels[player] for player in result.config.players)
    unit = "games" if result.config.mode == "games" else "hands"
    click.echo(f"{a} vs {b}: {data['hands']:,} hands, {data['games']:,} games, seed {data['seed']}")
    width = max(12, len(a), len(b))
    for index, name in enumerate((a, b)):
        low, high = (percent_or_dash(bound) for bound in data["win_rate_ci"][index])
        click.echo(
            f"  {name:<{width}} wins {percent_or_dash(data['win_rate'][index])} of {unit} ({low}-{high}), "
            f"{data['points_per_hand'][index]:.2f} points per hand"
        )
    capped = data.get("capped_games", 0)
    if capped:
        click.echo(
            f"  undecided: {percent_or_dash(capped / data['games'])} of games ({capped:,}) reached the cap of "
            f"{MAX_HANDS_PER_GAME:,} deals with no winner, a win for neither player"
        )
    outcomes = list(OUTCOMES)
    if result.config.on_illegal == "forfeit":
        outcomes.append("forfeit")  # so that the shares sum to 100%
    click.echo("  outcomes: " + ", ".join(f"{k} {percent_or_dash(data[f'{k}_rate'])}" for k in outcomes))
    first = percent_or_dash(data["first_player_win_rate"])
    click.echo(f"  mean draws per hand {data['mean_draws']:.2f}, first player wins {first} of scored hands")
    for line in forfeit_lines(result):
        click.echo(line)
    paired = data.get("paired")
    if paired and paired.get("rho") is not None:
        click.echo(
            f"  duplicate pairs: {paired['pairs']:,.0f}, {a}'s pair score {paired['pair_score']:.3f} "
            f"({paired['pair_score_low']:.3f}-{paired['pair_score_high']:.3f}), legs correlate rho={paired['rho']:.2f}"
        )
    adjusted = data.get("luck_adjusted")
    if adjusted:
        points, won = adjusted["net_points_per_hand"], adjusted["hands_won"]
        click.echo(f"  luck-adjusted: {a}'s net points per hand {luck_points_text(points)}")
        click.echo(
            f"  luck-adjusted: {a} wins {percent_or_dash(won['estimate'])} of hands "
            f"({percent_or_dash(won['ci'][0])}-{percent_or_dash(won['ci'][1])}), plain "
            f"{percent_or_dash(won['plain'])}; variance {won['variance_ratio']:.2f}x smaller"
        )
    click.echo(f"  {timing_line(result, data['timing']['seconds'])}")


@click.command()
@click.argument("players", nargs=-1, required=True, metavar="A B [C ...]")
@rules_options
@run_options
@click.option(
    "--anchor", default="simple", show_default=True, help="The bot rated 0 (the mean of all when it is not playing)."
)
@adjust_luck_option
@json_option
def tournament(players: tuple[str, ...], rules: Rules, as_json: bool, anchor: str, **options: Any) -> None:
    """Round robin: every pair of strategies plays, all on the same deals.

    Prints the table of every pairing, Bradley-Terry ratings with bootstrap intervals over
    deal pairs (anchored on --anchor), and the pairwise claims that stay significant after
    Holm's correction for the number of comparisons.

    \b
    Example:
      simgin tournament random simple --hands 2000 --seed 1
      simgin tournament simple heuristic opponent --hands 2000 --adjust-luck --quiet
    """
    if len(players) < 2:
        raise click.UsageError("a tournament needs at least two strategies")
    if len(set(players)) != len(players):
        raise click.UsageError(f"strategies must differ, got {' '.join(players)}")
    check_adjust_luck(options)
    from simgin.running.matches import play_tournament

    show_partial = lambda results: _show_tournament_partial(results[0], as_json)  # noqa: E731
    play = functools.partial(play_tournament, anchor=anchor)
    try:
        outcome = execute_match(players, rules, show_partial=show_partial, play=play, **options)
    except ValueError as error:
        raise user_error("ratings", error) from None
    if as_json:
        echo_json(outcome.to_json())
    else:
        _show_tournament(outcome.run, outcome.analysis)
    save_result_json(options["out"], outcome.result_data)


def _show_tournament_partial(result: Any, as_json: bool) -> None:
    """After Ctrl-C: the pairings' table of what was finished (no ratings: they need every pairing), marked partial."""
    from simgin.running.results import jsonable

    data = {"players": list(result.config.players), "summary": result.summary.to_dict(orient="records")}
    if shown_as_json(jsonable(data), result, as_json, partial=True):
        return
    click.echo(_tournament_table(result, display_labels(result.config.players, ask=False)))


def _tournament_table(result: Any, labels: dict[str, str] | None = None) -> str:
    columns = ["player", "opponent", "win_rate", "win_rate_low", "win_rate_high", "points_per_hand", "hands", "games"]
    if result.config.on_illegal == "forfeit":
        columns.append("forfeits")
    labels = labels or display_labels(result.config.players)
    table = result.summary[columns].copy()
    for column in ("player", "opponent"):
        table[column] = [labels.get(spec, spec) for spec in table[column]]
    return table.to_string(index=False, float_format=lambda x: f"{x:.3f}")


def _show_tournament(result: Any, analysis: dict[str, Any]) -> None:
    labels = display_labels(result.config.players)
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
    if analysis.get("luck_adjusted"):
        click.echo(
            "\nluck-adjusted net points per hand of the first-named player (plain beside it; p_holm: Holm over the "
            "pairings of 'they are 0'):"
        )
        for row in analysis["luck_adjusted"]:
            a, b = labels.get(row["a"], row["a"]), labels.get(row["b"], row["b"])
            claim = p_below(row["p_holm"], "p_holm") if math.isfinite(row["p_holm"]) else "p_holm n/a"
            click.echo(f"  {a} vs {b}: {luck_points_text(row['net_points_per_hand'])}; {claim}")


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


COMMANDS = (match, tournament)

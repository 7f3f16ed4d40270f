"""``simgin analyse``: where each player's points are won and lost, decision by decision (issue 34)."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from typing import Any

import click

from simgin.cli.options import (
    echo_json,
    execution_options,
    json_option,
    on_illegal_option,
    out_option,
    plural,
    quiet_option,
    rules_options,
    seed_option,
    user_error,
)
from simgin.game.rules import Rules

KIND_ORDER = ("up_card", "draw", "discard", "knock", "big_gin", "fiftieth")


@click.command()
@click.argument("players", nargs=-1, required=True, metavar="A B | DIR")
@rules_options
@click.option("--hands", type=int, default=None, help="Hands of the match to analyse [default: 200].")
@click.option(
    "--games",
    type=int,
    default=None,
    help="Or: whole games to the target, each hand valued in what it is worth in the game.",
)
@seed_option("Seed of the match: hand K is hand K of 'simgin match A B --hands N --seed S'.")
@click.option(
    "--duplicate/--no-duplicate",
    default=True,
    show_default=True,
    help="As in match: hands 2j and 2j+1 are one deal with the seats swapped.",
)
@click.option(
    "--worlds",
    type=int,
    default=64,
    show_default=True,
    help="The evaluator's budget: worlds per decision, each action played out once in each (docs/ANALYSIS.md).",
)
@click.option(
    "--luck-worlds",
    type=int,
    default=16,
    show_default=True,
    help="Worlds per stock draw when its luck is valued, each card the stock held played out once in each.",
)
@click.option("--evaluator-seed", type=int, default=0, show_default=True, help="Seed of the evaluator's worlds.")
@click.option(
    "--playouts",
    type=click.Choice(["fast", "scored", "players"]),
    default="fast",
    show_default=True,
    help="Who finishes each world's hand after an action: a fast policy, opponent's discard score, or the two "
    "players themselves (compiled bots only; docs/ANALYSIS.md).",
)
@click.option(
    "--second-opinion",
    "second_opinions",
    multiple=True,
    metavar="BOT",
    help="Also ask BOT every decision of both players (repeatable): what it would have done and lost there.",
)
@execution_options
@out_option("Directory for result.json and decisions.parquet (one row per decision); new or empty.")
@on_illegal_option
@quiet_option
@json_option
def analyse(
    players: tuple[str, ...],
    rules: Rules,
    hands: int | None,
    games: int | None,
    seed: int,
    duplicate: bool,
    worlds: int,
    luck_worlds: int,
    evaluator_seed: int,
    playouts: str,
    second_opinions: tuple[str, ...],
    workers: int | None,
    backend: str,
    scheduler: str | None,
    out: Path | None,
    on_illegal: str,
    quiet: bool,
    as_json: bool,
) -> None:
    """Value every decision of A and B in a match, and say where each player's points go.

    With DIR (a 'simgin match A B --out DIR' directory) its hands are dealt again from their seeds and
    analysed, with the match's players, rules and seed (not for programs, which need not play a hand the
    same way twice).

    Plays hands of 'simgin match A B' (any players: built-in bots, plain-Python strategies, exec: and
    eaai: programs) and values every legal action of each decision (up card, draw, discard, knock, big
    gin and the 50th card where the rules have them)
    from what the deciding player knows, by playouts in sampled worlds (docs/ANALYSIS.md). Prints per
    player the mean points lost per decision with a 95% interval (deal pairs as the units; hands with
    --no-duplicate), by kind and
    stage of decision, the inaccuracies, mistakes and blunders (a loss over 1.5, 4 or 10 points, by
    two standard errors), an accuracy (100 = no loss), net points split into luck (the value of the
    deal and of each card drawn from the stock against every card the stock held) and skill (the rest),
    and the costliest decisions, each with the 'simgin replay' command that shows its hand.

    --second-opinion BOT asks BOT every decision of both players from the same view (its answers
    recorded, never played) and values them by the same valuations: its loss per decision at the
    very decisions the player faced, the paired difference from the player's, and how often it agrees.

    \b
    Example:
      simgin analyse opponent heuristic --hands 20 --rules eaai --quiet
      simgin analyse simple random --hands 10 --worlds 32 --json
      simgin analyse opponent simple --games 4 --rules eaai --quiet
      simgin match simple greedy --hands 20 --out played --quiet
      simgin analyse played --quiet
      simgin analyse heuristic simple --hands 10 --second-opinion opponent --quiet
    """
    from simgin.analysis.analyse import analyse as run_analysis, directory_match
    from simgin.game.strategy import StrategyStartError
    from simgin.players.programs import ProgramError
    from simgin.running.errors import RunError

    if len(players) not in (1, 2):
        raise click.ClickException(f"give two players (A B) or a match's directory (DIR), not {len(players)} names")
    if hands is not None and games is not None:
        raise click.ClickException("give --hands or --games, not both")
    if len(players) == 2:
        a, b = players
        match = {"a": a, "b": b, "rules": rules, "hands": hands, "games": games, "seed": seed, "duplicate": duplicate}
    else:
        _no_match_options(players[0])
        try:
            match = directory_match(players[0])
        except ValueError as error:
            raise user_error("", error) from None
    unit = "games" if match.get("games") is not None else "hands"
    show = not quiet and sys.stderr.isatty()
    total = match.get("games") or match.get("hands") or 200
    bar: Any = click.progressbar(length=total, label=f"{unit} analysed", file=sys.stderr, show_eta=True)
    if show:
        bar.__enter__()
    try:
        execution = {
            "worlds": worlds,
            "luck_worlds": luck_worlds,
            "evaluator_seed": evaluator_seed,
            "playouts": playouts,
            "second_opinions": second_opinions,
            "workers": workers,
            "backend": backend,
            "scheduler": scheduler,
            "on_illegal": on_illegal,
            "out": out,
            "progress": bar.update if show else None,
        }
        result = run_analysis(**match, **execution)
    except (ValueError, RunError, ProgramError, StrategyStartError) as error:
        raise user_error("", error) from None
    except KeyboardInterrupt:
        if out is None:
            raise click.ClickException("interrupted; run with --out DIR to keep finished hands and resume") from None
        from simgin.analysis.analyse import finished_parts

        kept = finished_parts(out)
        raise click.ClickException(
            f"interrupted; {plural(kept, 'finished part')} {'is' if kept == 1 else 'are'} kept in {out}, "
            "rerun the same command to resume"
        ) from None
    finally:
        if show:
            bar.__exit__(None, None, None)
    data = result.to_json()
    if as_json:
        echo_json(data)
        return
    _echo(data, result.seconds)


#: The options that choose the match (parameter name: flag); a run directory's match is its own.
MATCH_OPTIONS = {
    "preset": "--rules",
    "settings": "--set",
    "hands": "--hands",
    "games": "--games",
    "seed": "--seed",
    "duplicate": "--duplicate/--no-duplicate",
}


def _no_match_options(directory: str) -> None:
    """A one-line error when an option that chooses the match is given with a run directory (whose players,
    rules, seed and count are read from it), rather than ignoring it."""
    context = click.get_current_context()
    given = [
        flag
        for name, flag in MATCH_OPTIONS.items()
        if context.get_parameter_source(name) not in (None, click.core.ParameterSource.DEFAULT)
    ]
    if given:
        raise click.ClickException(
            f"{', '.join(given)}: {directory}'s match has its own players, rules, seed and number of hands; "
            "give the players instead ('simgin analyse A B ...') to choose them"
        )


def _interval(low: float | None, high: float | None) -> str:
    return "-" if low is None or high is None else f"{low:.2f}-{high:.2f}"


def _signed_interval(low: float | None, high: float | None) -> str:
    return "-" if low is None or high is None else f"{low:+.2f} to {high:+.2f}"


#: How the header names the playouts: nothing for the default.
_PLAYOUTS = {"fast": "", "scored": " (scored playouts)", "players": " (played on by the players)"}


def _echo(data: dict[str, Any], seconds: float) -> None:
    players = data["players"]
    decisions = sum(player["decisions"] for player in players)
    played = plural(data["hands"], "hand")
    if data.get("mode") == "games":
        played = f"{plural(data['games'], 'game')} ({played}, valued in the game)"
    playouts = _PLAYOUTS[data["evaluator"]["playouts"]]
    click.echo(
        f"{players[0]['player']} vs {players[1]['player']}: {played} analysed, "
        f"{decisions:,} decisions, {data['evaluator']['worlds']} worlds each{playouts}, "
        f"seed {data['seed']} ({seconds:.1f} s)"
    )
    width = max(len(player["player"]) for player in players)
    click.echo(
        f"  {'player':<{width}}  decisions  loss/decision (95% CI)  accuracy  inaccuracies  mistakes  blunders"
        "     net   skill    luck"
    )
    for player in players:
        loss = f"{player['mean_loss']:.2f} ({_interval(*player['mean_loss_ci'])})"
        click.echo(
            f"  {player['player']:<{width}}  {player['decisions']:>9,}  {loss:<22}  {player['accuracy']:>8.1f}  "
            f"{player['inaccuracies']:>12,}  {player['mistakes']:>8,}  {player['blunders']:>8,}  "
            f"{player['net_points']:>+6.0f}  {player['skill']:>+6.0f}  {player['luck']:>+6.0f}"
        )
    click.echo("  mean loss per decision by kind:")
    for player in players:
        parts = [
            f"{kind} {player['by_kind'][kind]['mean_loss']:.2f} ({player['by_kind'][kind]['decisions']:,})"
            for kind in KIND_ORDER
            if kind in player["by_kind"]
        ]
        click.echo(f"    {player['player']:<{width}}  " + ", ".join(parts))
    for player in players:
        for opinion in player.get("second_opinions", []):
            agreement = opinion["agreement"]
            click.echo(
                f"  {opinion['adviser']} at {player['player']}'s {opinion['decisions']:,} decisions: loss/decision "
                f"{opinion['mean_loss']:.2f} ({_interval(*opinion['mean_loss_ci'])}), "
                f"{opinion['difference']:+.2f} ({_signed_interval(*opinion['difference_ci'])}) against "
                f"{player['player']}'s; agrees {'-' if math.isnan(agreement) else f'{100 * agreement:.0f}%'}"
            )
    if data["costliest"]:
        click.echo("  costliest decisions:")
    for rank, item in enumerate(data["costliest"][:10], 1):
        where = f"game {item['hand']}, deal {item['deal']}" if data.get("mode") == "games" else f"hand {item['hand']}"
        click.echo(
            f"  {rank:>3}. {where}, {item['player']}, {item['kind']} ({item['stage']}): chose "
            f"{item['chosen']}, best {item['best']}, loss {item['loss']:.1f} +/- {item['loss_error']:.1f}"
        )
        known = f"; the other holds {item['known']}" if item["known"] else ""
        click.echo(f"       hand {item['hand_cards']}; pile {item['pile_top'] or '-'}{known}")
        click.echo(f"       {item['replay']}")


COMMANDS = (analyse,)

"""``simgin compare A B``: the sequential test of A against B on duplicate game pairs (docs/STATISTICS.md §1, §6);
the test itself is :func:`simgin.running.matches.run_sprt`."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import click

from simgin.cli.execution import forfeit_lines, percent_or_dash, progress_display, save_result_json
from simgin.cli.options import (
    adjust_luck_option,
    check_range,
    check_run_options,
    decision_timeout_option,
    echo_json,
    execution_options,
    json_option,
    luck_points_text,
    notice,
    on_illegal_option,
    out_option,
    program_settings,
    quiet_option,
    rules_options,
    seed_option,
    user_error,
    warn_overridden,
)
from simgin.game.rules import Rules


@click.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option(
    "--sprt",
    "sprt_text",
    default=None,
    help="The hypotheses: H0 elo0, H1 elo1 (default elo0=0,elo1=10), or points0=P,points1=Q in A's net points per "
    "hand (played as hands; the default with --adjust-luck: points0=0,points1=1).",
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
@click.option(
    "--max-hands",
    type=int,
    default=None,
    help="Play duplicate hand pairs instead of games, at most this many hands (40,000 by default with points "
    "hypotheses or --adjust-luck).",
)
@click.option("--batch", type=int, default=25, show_default=True, help="Deal pairs per batch between checks.")
@seed_option()
@execution_options
@out_option("Results directory (new or empty, or one of an earlier run to resume).")
@decision_timeout_option
@on_illegal_option
@quiet_option
@rules_options
@adjust_luck_option
@json_option
def compare(
    a: str,
    b: str,
    sprt_text: str,
    alpha: float,
    beta: float,
    model: str,
    max_games: int,
    max_hands: int | None,
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
    adjust_luck: bool,
    as_json: bool,
) -> None:
    """Is A stronger than B? A sequential test (GSPRT) on duplicate game pairs.

    Games to the target score are played in pairs (each deck twice, seats swapped), and
    after every batch the log-likelihood ratio of the pentanomial model is updated, as
    chess-engine testing does; the test stops as soon as it accepts H0 (Elo <= elo0) or
    H1 (Elo >= elo1), with error rates alpha and beta.

    With --adjust-luck it plays duplicate hand pairs and tests A's net points per hand with each
    hand's luck of the cards taken out (docs/STATISTICS.md §13; --sprt points0=0,points1=1 by
    default, or Elo bounds on the luck-adjusted share of hands): the same answer from fewer
    hands. The plain figures are printed beside.

    \b
    Example:
      simgin compare simple random --sprt elo0=0,elo1=10 --rules eaai --quiet
      simgin compare opponent heuristic --adjust-luck --rules eaai --quiet
    """
    from simgin.running.matches import compare as compare_players, sprt_hands
    from simgin.running.runner import MAX_GAMES
    from simgin.statistics.sprt import SprtSettings, parse_sprt

    check_run_options(workers, seed, backend, scheduler)
    check_range("--max-games", max_games, 2, MAX_GAMES)
    check_range("--batch", batch, 1, MAX_GAMES // 2)
    if max_hands is not None:
        check_range("--max-hands", max_hands, 2, MAX_GAMES)
    if sprt_text is None:
        sprt_text = "points0=0,points1=1" if adjust_luck else "elo0=0,elo1=10"
    warn_overridden(rules)
    try:
        settings = SprtSettings(
            **parse_sprt(sprt_text),
            alpha=alpha,
            beta=beta,
            model=model,
            max_games=max_games,
            batch_pairs=batch,
            max_hands=max_hands,
        )
    except ValueError as error:
        raise user_error("", error) from None
    hands = sprt_hands(settings, adjust_luck)
    total, unit = (hands, "hands") if hands else (max_games, "games")
    with progress_display(total, unit, quiet, out, players=(a, b)) as progress:
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
            programs=program_settings(decision_timeout),
            notice=notice,
            adjust_luck=adjust_luck,
        )
    result, summary = outcome.run, outcome.summary
    if as_json:
        echo_json(outcome.to_json())
    else:
        _show_compare(a, b, settings, total, summary)
        for line in forfeit_lines(result):
            click.echo(line)
    save_result_json(out, outcome.result_data)


def _show_compare(a: str, b: str, settings: Any, most: int, summary: dict[str, Any]) -> None:
    unit = summary["unit"]
    if settings.on_points:
        low, high = f"net points per hand <= {settings.points0:g}", f"net points per hand >= {settings.points1:g}"
    else:
        low, high = f"Elo <= {settings.elo0:g}", f"Elo >= {settings.elo1:g}"
    verdict = {
        "H1": f"H1 accepted: {a} is stronger ({high})",
        "H0": f"H0 accepted: {a} is not stronger ({low})",
        f"max {unit}s": f"undecided after {most} {unit}s",
    }[summary["decision"]]
    adjusted = " (luck-adjusted, docs/STATISTICS.md §13)" if summary["estimator"] != "plain" else ""
    click.echo(f"{a} vs {b}: {verdict}{adjusted}")
    click.echo(
        f"  LLR {summary['llr']:.3f} (bounds {summary['lower']:.3f}, {summary['upper']:.3f}), "
        f"{summary[unit + 's']:,} {unit}s in {summary['pairs']:,} pairs"
    )
    if "luck_adjusted" in summary:
        click.echo(f"  {a}'s net points per hand {luck_points_text(summary['luck_adjusted']['net_points_per_hand'])}")
    elif settings.on_points:
        points = summary["net_points_per_hand"]
        click.echo(
            f"  {a}'s net points per hand {points['estimate']:+.2f} ({points['ci'][0]:+.2f} to {points['ci'][1]:+.2f})"
        )
    elo_label = "Elo" if unit == "game" else "Elo of a hand"
    if unit == "hand" and (settings.on_points or summary["estimator"] == "plain"):
        elo_label += ", plain" if summary["estimator"] != "plain" else ""
    elif summary["estimator"] != "plain":
        elo_label += ", luck-adjusted"
    interval = (
        f"{summary['elo_low']:.1f} to {summary['elo_high']:.1f}"
        if math.isfinite(summary["elo_low"]) and math.isfinite(summary["elo_high"])
        else "unbounded: one side won every pair"
    )
    click.echo(
        f"  {elo_label} {summary['elo']:.1f} ({interval}), LOS {percent_or_dash(summary['los'])}, "
        f"pair counts {[int(c) for c in summary['counts']]}"
    )


COMMANDS = (compare,)

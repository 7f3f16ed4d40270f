"""``simgin compare A B``: the sequential test of A against B on duplicate game pairs (docs/STATISTICS.md §1, §6);
the test itself is :func:`simgin.running.matches.run_sprt`."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import click

from simgin.cli.execution import forfeit_lines, percent_or_dash, progress_display, save_result_json
from simgin.cli.options import (
    check_range,
    check_run_options,
    decision_timeout_option,
    echo_json,
    execution_options,
    json_option,
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
@seed_option()
@execution_options
@out_option("Results directory (new or empty, or one of an earlier run to resume).")
@decision_timeout_option
@on_illegal_option
@quiet_option
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
    on_illegal: str,
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
    from simgin.running.matches import compare as compare_players
    from simgin.running.runner import MAX_GAMES
    from simgin.statistics.sprt import SprtSettings, parse_sprt

    check_run_options(workers, seed, backend, scheduler)
    check_range("--max-games", max_games, 2, MAX_GAMES)
    check_range("--batch", batch, 1, MAX_GAMES // 2)
    warn_overridden(rules)
    try:
        settings = SprtSettings(
            **parse_sprt(sprt_text), alpha=alpha, beta=beta, model=model, max_games=max_games, batch_pairs=batch
        )
    except ValueError as error:
        raise user_error("", error) from None
    with progress_display(max_games, "games", quiet, out, players=(a, b)) as progress:
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
        )
    result, summary = outcome.run, outcome.summary
    if as_json:
        echo_json(outcome.to_json())
    else:
        _show_compare(a, b, settings, max_games, summary)
        for line in forfeit_lines(result):
            click.echo(line)
    save_result_json(out, outcome.result_data)


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
        f"  Elo {summary['elo']:.1f} ({interval}), LOS {percent_or_dash(summary['los'])}, "
        f"pair counts {[int(c) for c in summary['counts']]}"
    )


COMMANDS = (compare,)

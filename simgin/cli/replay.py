"""``simgin replay A B``: one hand played again move by move, from a run's seed and hand number or a hand seed
(as an error names it); the replay is :mod:`simgin.running.replay`."""

from __future__ import annotations

import click

from simgin.cli.options import (
    check_range,
    echo_json,
    json_option,
    rules_options,
    show_value,
    user_error,
    warn_overridden,
)
from simgin.game.rules import Rules


@click.command()
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--seed", type=int, default=None, help="The run's --seed (with --hand).")
@click.option("--hand", "hand_index", type=int, default=None, help="Hand number K of a 'simgin match A B --hands' run.")
@click.option("--hand-seed", type=int, default=None, help="Or: the hand seed itself (as named in an error).")
@click.option("--dealer", type=click.IntRange(0, 1), default=0, show_default=True, help="Dealer seat with --hand-seed.")
@click.option(
    "--scores",
    default=None,
    metavar="S0,S1",
    help="With --hand-seed: the game scores by seat the hand was dealt at; it is then played as a hand of a game.",
)
@click.option("--duplicate/--no-duplicate", default=True, show_default=True, help="As in the run.")
@rules_options
@json_option
def replay(
    a: str,
    b: str,
    seed: int | None,
    hand_index: int | None,
    hand_seed: int | None,
    dealer: int,
    scores: str | None,
    duplicate: bool,
    rules: Rules,
    as_json: bool,
) -> None:
    """Print one hand move by move: deal, draws, discards, knock, melds, lay-offs, score.

    Hand K of 'simgin match A B --hands N --seed S' is 'simgin replay A B --seed S --hand K'
    (with duplicate deals hands 2j and 2j+1 are one deal with the seats swapped). A hand that
    --on-illegal forfeit forfeited is listed with its replay command (--hand-seed, --dealer and,
    in a game, --scores); a hand with an illegal move prints its moves up to it, then the error.
    --json prints the hand's record and its moves, each with its player and cards.

    \b
    Examples:
      simgin replay simple random --seed 7 --hand 3
      simgin replay simple random --seed 7 --hand 3 --json
    """
    from simgin.game import reference_engine
    from simgin.game.rules import GAME_SWITCHES
    from simgin.running import runner
    from simgin.running.config import SEED_BOUND
    from simgin.running.replay import locate_replay

    in_game = _replay_scores(scores, hand_seed)
    if in_game is not None:
        # A hand of a game (--scores): the rules-aware bots read the game's switches.
        warn_overridden(rules, games=True)
    else:
        # One hand is replayed: the game's scoring never applies. No warning about what the preset
        # sets there (the warning named --hands, which a replay is not given); a game switch named
        # with --set is told it has no effect in one hand; a hand switch overridden still warns.
        overridden = warn_overridden(rules, games=False, unwarned=GAME_SWITCHES)
        named = {item.partition("=")[0].strip() for item in click.get_current_context().params.get("settings", ())}
        for name in [name for name in GAME_SWITCHES if name in overridden and name in named]:
            value = show_value(getattr(rules, name))
            click.echo(
                f"Warning: {name}={value} has no effect here: a replay plays one hand, not a game (R20-R23)", err=True
            )
    if hand_seed is None:
        if seed is None or hand_index is None:
            raise click.UsageError("give --seed S and --hand K, or --hand-seed")
        check_range("--hand", hand_index, 0, runner.MAX_HANDS - 1)
        check_range("--seed", seed, 0, runner.MAX_SEED, SEED_BOUND)
    else:
        given = [name for name, value in (("--seed", seed), ("--hand", hand_index)) if value is not None]
        if given:
            raise click.UsageError(f"--hand-seed names the hand by itself: give it without {' and '.join(given)}")
        check_range("--hand-seed", hand_seed, 0, runner.MAX_SEED, " (a 64-bit hand seed)")
    try:
        hand = locate_replay(
            a, b, seed=seed, hand=hand_index, hand_seed=hand_seed, dealer=dealer, scores=in_game, duplicate=duplicate
        )
        shown = hand.play(rules)
    except reference_engine.IllegalMove as error:
        # The moves up to the illegal one, shown as a finished hand's; --json gives them as JSON (issue 32 item 16).
        if as_json:
            echo_json(hand.stopped_json(rules, error))
        else:
            click.echo(hand.stopped_text(error))
        raise user_error("", error) from None
    except ValueError as error:
        raise user_error("", error) from None
    if as_json:
        echo_json(shown.to_json())
        return
    click.echo(shown.text())


def _replay_scores(text: str | None, hand_seed: int | None) -> tuple[int, int] | None:
    """``--scores S0,S1`` as two scores (non-negative), or None; it needs ``--hand-seed``."""
    if text is None:
        return None
    if hand_seed is None:
        raise click.UsageError("--scores goes with --hand-seed (the hand of a game a forfeit names)")
    parts = text.split(",")
    try:
        values = tuple(int(part) for part in parts)
    except ValueError:
        values = ()
    if len(values) != 2 or min(values) < 0 or max(values) > 10**9:
        raise click.BadParameter(f"{text!r}: give two scores by seat, e.g. 35,80", param_hint="--scores")
    return values[0], values[1]


COMMANDS = (replay,)

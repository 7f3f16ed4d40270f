"""The ``simgin`` command line: a thin click layer over the library.

Everything a command does is a call to a public simgin function; this module only parses
options, turns the library's ``ValueError`` into a one-line :class:`click.ClickException`
(non-zero exit, no traceback) and prints text or JSON.

Adding a command: write one function, decorate it with ``@main.command()`` and reuse the
shared decorators of :mod:`simgin.cli.options` (``rules_options``, ``set_option``,
``json_option``, and for commands that play hands ``run_options``); commands that run games
live in their own modules (:mod:`simgin.cli.run`, ``compare``, ``sweep``, ...), which import only
:mod:`simgin.cli.options` and :mod:`simgin.cli.execution` (the run settings, the progress display,
saving), never this module. Put an example that runs as written in its
help, between ``\\b`` lines so click keeps the line breaks; ``tests/test_cli.py`` runs
every such example and checks that every command has help text. Import heavy modules
inside the command so ``simgin --help`` stays fast.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import click

from simgin import __version__
from simgin.cli.options import (
    build_rules,
    echo_json,
    json_option,
    one_line,
    preset_option,
    read_cards,
    rules_options,
    set_option,
    show_cards,
    show_melds,
    show_value,
    user_error,
    warn_overridden,
)
from simgin.game.cards import format_card, format_cards
from simgin.game.rules import TABLE_NAMES, Rules

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

# ---------------------------------------------------------------------------
# The root group
# ---------------------------------------------------------------------------


class SimginGroup(click.Group):
    """The root group: every error, click's own usage errors included, is one line starting with
    ``Error:`` on stderr and exit status 1, as the README promises; Ctrl-C is ``Error: interrupted``.
    Only the command's own output reaches stdout: whatever else writes to file descriptor 1 (a
    plug-in, a child process, a worker) goes to stderr (:func:`simgin.base.guard.stdout_for_results_only`).

    In standalone mode (the ``simgin`` script, ``python -m simgin``, click's CliRunner) it runs
    the command with click's standalone mode off and reports what comes out itself; with
    ``standalone_mode=False`` it is click's plain group.
    """

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        from simgin.base import guard

        try:
            with guard.counting_interrupts(), guard.terminating_as_interrupt(), guard.stdout_for_results_only():
                code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as error:
            error.show()  # the help text, as click shows it
            sys.exit(error.exit_code)
        except click.UsageError as error:
            hint = f" (see '{error.ctx.command_path} -h')" if error.ctx is not None else ""
            _fail(one_line(error.format_message()) + hint)
        except click.ClickException as error:
            _fail(one_line(error.format_message()))
        except (click.Abort, KeyboardInterrupt, EOFError):
            _fail("interrupted")
        except OSError as error:
            if error.errno == errno.EPIPE:  # the reader went away (simgin ... | head): nothing left to say
                os._exit(1)
            reason = error.strerror or type(error).__name__
            _fail(f"{reason}: {error.filename}" if error.filename else reason)
        except MemoryError:
            _fail("out of memory; ask for less (fewer hands, games or workers)")
        sys.exit(code if isinstance(code, int) else 0)


def _fail(message: str) -> NoReturn:
    click.echo(f"Error: {message}", err=True)
    sys.exit(1)


@click.group(name="simgin", cls=SimginGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "--version", prog_name="simgin", message="%(prog)s %(version)s")
def main() -> None:
    """simgin: a Gin Rummy tournament simulator and analytics toolkit.

    Exact rules (see 'simgin rules'), fast numba kernels, statistics and reports.
    Run 'simgin COMMAND -h' for a command's help and an example.

    \b
    Examples:
      simgin deadwood "AS 2S 3S 7C 7D 7H TD JD QD KH"
      simgin showdown --knocker "AS 2S 3S 7C 7D 7H TD JD QD KH" \\
          --defender "4S 5S 8C 8D 9H 9S KC KD 2C 3D"
      simgin rules eaai
    """


# ---------------------------------------------------------------------------
# Commands: one function each
# ---------------------------------------------------------------------------


@main.command()
@click.argument("cards", metavar="CARDS")
@json_option
def deadwood(cards: str, as_json: bool) -> None:
    """Least deadwood of a hand, with its melds.

    Shows the deadwood and one meld arrangement that reaches it.

    CARDS is a hand of 1 to 11 cards in one quoted argument, written like
    AS 2s 10h TD qc (rank A 2-9 10/T J Q K, then suit C D H S). Deadwood is the value of
    the cards outside melds (ace 1, 2-9 face value, 10 J Q K 10), minimised over every
    arrangement of sets (3-4 of a rank) and runs (3+ in a suit, ace low, no wrap). With
    11 cards (a hand after drawing) it also shows the best discard and the deadwood it
    leaves.

    \b
    Examples:
      simgin deadwood "AS 2S 3S 7C 7D 7H TD JD QD KH"
      simgin deadwood "as 2s 3s 7c 7d 7h td jd qd kh kc" --json
    """
    from simgin.game.melds import describe_deadwood

    hand = read_cards(cards, "CARDS", 1, 11)
    shown = describe_deadwood(hand)
    if as_json:
        echo_json(shown.to_json())
        return
    click.echo(f"deadwood: {shown.deadwood}")
    click.echo(f"melds: {show_melds(shown.melds)}")
    click.echo(f"deadwood cards: {show_cards(shown.deadwood_cards)}")
    if shown.best_discard is not None:
        card, left = shown.best_discard
        click.echo(f"best discard: {format_card(card)} (leaves deadwood {left})")


@main.command()
@click.option("--knocker", required=True, metavar="CARDS", help="The knocker's 10 cards (11 for big gin).")
@click.option("--defender", required=True, metavar="CARDS", help="The defender's 10 cards.")
@click.option(
    "--up-card",
    metavar="CARD",
    default=None,
    help="The hand's first up card (Oklahoma: sets the knock limit, a spade doubles).",
)
@rules_options
@json_option
def showdown(knocker: str, defender: str, up_card: str | None, rules: Rules, as_json: bool) -> None:
    """Score a knock: winner, points, melds and lay-offs.

    The knocker shows a least-deadwood arrangement, the defender melds and lays off
    cards on the knocker's melds (not after gin), and the hand is scored: knock (the
    difference), gin (gin bonus + the defender's deadwood), undercut (the defender's
    count is equal or lower: difference + undercut bonus) or big gin. Bonuses and limits
    come from --rules and --set. Cards are written like AS 2s 10h TD qc (rank A 2-9
    10/T J Q K, then suit C D H S), separated by spaces or commas.

    \b
    Examples:
      simgin showdown --knocker "AS 2S 3S 7C 7D 7H TD JD QD KH" --defender "4S 5S 8C 8D 9H 9S KC KD 2C 3D"
      simgin showdown --knocker "AS 2S 3S 7C 7D 7H TD JD QD KD" \\
          --defender "4S 5S 8C 8D 9H 9S KC KH 2C 3D" --set gin_bonus=25
      simgin showdown --knocker "AS 2S 3S 7C 7D 7H TD JD QD 4C" \\
          --defender "4S 6S 8C 8D 9H 9S KC KH 2C 3D" --rules oklahoma --up-card 5S --json
    """
    from simgin.game.showdown import describe_showdown

    knocker_cards = read_cards(knocker, "--knocker")  # score_showdown checks the counts
    defender_cards = read_cards(defender, "--defender")
    up = None if up_card is None else read_cards(up_card, "--up-card", 1, 1)[0]
    if rules.oklahoma and up is None:
        raise click.ClickException("Oklahoma rules need --up-card CARD: the up card sets the knock limit (V9)")
    warn_overridden(rules)
    try:
        scored = describe_showdown(knocker_cards, defender_cards, rules, up)
    except ValueError as error:
        raise user_error("", error) from None
    if as_json:
        echo_json(scored.to_json())
        return
    result = scored.result
    laid_off = list(result.layoffs)
    kind = str(result.kind)
    winner = str(result.winner)
    click.echo(f"knocker:  {format_cards(knocker_cards)}")
    click.echo(f"  melds {show_melds(result.knocker_melds)}, deadwood {result.knocker_deadwood}")
    click.echo(f"defender: {format_cards(defender_cards)}")
    layoff_text = (
        f"lays off {format_cards(laid_off)} ({result.layoff_points} points)" if laid_off else "lays off nothing"
    )
    click.echo(f"  melds {show_melds(result.defender_melds)}, {layoff_text}, deadwood {result.defender_deadwood}")
    times = f", doubled by the up card {format_card(up)}" if result.multiplier != 1 and up is not None else ""
    click.echo(f"result: {kind}, {winner} scores {result.points}{times} (knock limit {result.knock_limit})")


@main.command("rules")
@click.argument("preset", required=False, metavar="[PRESET]")
@set_option
@click.option(
    "--table",
    type=click.Choice(["pairs", "three", "teams"]),
    default=None,
    help="Show what applies at this table: two players (default), three (V11) or two teams (V12).",
)
@json_option
def rules_command(preset: str | None, settings: Sequence[str], table: str | None, as_json: bool) -> None:
    """List rule presets and switches, or one preset's values.

    Without PRESET: every preset (with what it changes from standard) and every switch
    with its type, default and meaning (rule ids refer to the rule book, RULES.md).
    With PRESET: that preset's value for every switch, '*' marking the ones that differ
    from standard and '!' the ones set but overridden: without effect, because another
    switch decides (the Oklahoma up card sets the knock limit) or the table does not use
    them (--table; the run commands warn about these). --set shows the effect of changing
    switches (the same --set as 'simgin showdown').

    \b
    Examples:
      simgin rules
      simgin rules oklahoma
      simgin rules eaai --set knock_limit=7 --json
      simgin rules oklahoma --set knock_limit=5 --table teams
    """
    from simgin.game.rules_listing import describe_rules

    if preset is not None or settings:
        build_rules(preset or "standard", settings)  # a bad preset or --set: the run commands' one-line errors
    try:
        listing = describe_rules(preset, settings=settings, table=table)
    except ValueError as error:
        raise user_error("", error) from None
    if as_json:
        echo_json(listing.to_json())
        return
    if listing.overview:
        click.echo("Presets (simgin rules PRESET shows all values):")
        width = max(len(name) for name in Rules.PRESETS)
        for name, overrides in Rules.PRESETS.items():
            changes = ", ".join(f"{key}={show_value(value)}" for key, value in overrides.items())
            click.echo(f"  {name:<{width}}  {changes or 'the rule book defaults'}")
        click.echo("")
        click.echo("Switches (change with --set KEY=VALUE):")
        rows = [(row["name"], row["type"], show_value(row["default"]), row["doc"]) for row in listing.switches]
        _echo_table(("name", "type", "default", "meaning"), rows)
        return
    assert listing.rules is not None and listing.table is not None
    values = listing.rules.to_dict()
    overridden = listing.overridden
    title = str(listing.preset) + "".join(f" --set {item}" for item in settings)
    at = "" if listing.table == "pairs" else f" at a {TABLE_NAMES[listing.table]} table"
    click.echo(f"Rules: {title}{at} ('*' = differs from standard, '!' = overridden: set but without effect)")
    docs = {row["name"]: row["doc"] for row in listing.switches}
    marks = {key: "! " if key in overridden else "* " if key in listing.changed else "  " for key in values}
    rows = [(marks[key] + key, show_value(value), docs[key]) for key, value in values.items()]
    _echo_table(("  name", "value", "meaning"), rows)
    if overridden:
        click.echo("Overridden:")
        for key, why in overridden.items():
            click.echo(f"  {key}={show_value(values[key])}: {why}")


@main.command("strategies")
@click.argument("spec", required=False, metavar="[SPEC]")
@preset_option(f"With SPEC: also what the bot reads from these rules ({', '.join(Rules.PRESETS)}).", default=None)
@set_option
@json_option
def strategies_command(spec: str | None, preset: str | None, settings: Sequence[str], as_json: bool) -> None:
    """List the strategies and their parameters, or resolve one spec.

    Without SPEC: every strategy a name selects, the built-in ladder (weakest first) and
    then plug-ins installed in the entry-point group 'simgin.strategies', each with its
    kind (compiled: runs inside the numba hand loop; python: runs in the reference
    engine), a one-line description and its parameters with their defaults. Parameters
    ride in the name after a colon, comma-separated: heuristic:knock=7,safety=0.5. A
    class also works as module:Class or path/to/file.py:Class (parameters after a last
    colon go to its constructor). Programs play too: exec:COMMAND speaks simgin's line
    protocol (docs/PROTOCOL.md), eaai:CLASSPATH:CLASS hosts an EAAI Java player. With
    SPEC: the values the spec gives every parameter; with --rules or --set as well, what
    the rules-aware built-ins (heuristic, opponent, mcts) read from those rules: the knock
    limit, the bonuses they weigh, how a result is valued in the game, and the deadwoods
    heuristic and opponent knock with in play: from 100 games against themselves under
    those rules, the middle half of their knocks' deadwoods and the median, overall and
    early, midway and late in a hand (by stock cards left).

    \b
    Examples:
      simgin strategies
      simgin strategies heuristic:knock=7,safety=0.5
      simgin strategies opponent --rules oklahoma
      simgin strategies mcts --json
    """
    from simgin.running.strategies_listing import describe_strategies

    if spec is None and (preset is not None or settings):
        raise click.UsageError("--rules and --set go with a SPEC: simgin strategies opponent --rules oklahoma")
    rules = build_rules(preset or "standard", settings) if preset is not None or settings else None
    try:
        listing = describe_strategies(spec, rules=rules, notice=lambda message: click.echo(message, err=True))
    except ValueError as error:
        raise user_error("", error) from None
    if as_json:
        echo_json(listing.to_json())
        return
    player = listing.player
    if player is not None:
        info = player.info
        click.echo(f"{player.spec}: {info.name} ({info.kind}, {info.source}): {info.description}")
        docs = {parameter.name: parameter.doc for parameter in info.parameters}
        rows = [
            (("* " if name in player.given else "  ") + name, _show_number(value), docs.get(name, ""))
            for name, value in player.values.items()
        ]
        if rows:
            click.echo("parameters ('*' = set by the spec):")
            _echo_table(("  name", "value", "meaning"), rows)
        else:
            click.echo("parameters: none")
        if rules is not None:
            where = preset or "standard"
            if not listing.reading:
                click.echo(f"under {where}: it reads no rules beyond the moves they allow")
            else:
                click.echo(f"under {where}{' with --set' if settings else ''}, what it reads:")
                _echo_table(("  what", "in force"), [("  " + what, value) for what, value in listing.reading])
        return
    infos = listing.strategies
    click.echo("Strategies (a spec is NAME or NAME:key=value,...; or module:Class, path/to/file.py:Class):")
    width = max(len(info.name) for info in infos)
    for info in infos:
        click.echo("")
        twin = ", with a plain-Python twin" if info.twin is not None else ""
        click.echo(f"{info.name:<{width}}  {info.kind}{twin}: {info.description}")
        for parameter in info.parameters:
            setting = f"{parameter.name}={_show_number(parameter.default)}"
            click.echo(f"  {setting:<20} {parameter.doc}{_show_range(parameter)}")


def _show_number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _show_range(parameter: Any) -> str:
    if parameter.low is None and parameter.high is None:
        return ""
    low = "" if parameter.low is None else f"{parameter.low:g}"
    high = "" if parameter.high is None else f"{parameter.high:g}"
    return f" [{low}..{high}]"


def _echo_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    widths = [max(len(str(cell)) for cell in column) for column in zip(header, *rows, strict=False)]
    for row in [tuple(header), *rows]:
        cells = [str(cell).ljust(width) for cell, width in zip(row[:-1], widths, strict=False)]
        click.echo("  ".join([*cells, str(row[-1])]).rstrip())


def _register_run_commands() -> None:
    """Add the commands of the command modules: :mod:`simgin.cli.run` (match, tournament), :mod:`~simgin.cli.compare`,
    :mod:`~simgin.cli.sweep`, :mod:`~simgin.cli.replay`, :mod:`~simgin.cli.plan`, :mod:`~simgin.cli.tune`,
    :mod:`~simgin.cli.tune_rules`, :mod:`~simgin.cli.analyse` and :mod:`~simgin.cli.report`, each listing its own
    in ``COMMANDS``."""
    from simgin.cli import analyse, compare, plan, replay, report, run, sweep, tune, tune_rules

    for module in (run, compare, sweep, replay, plan, tune, tune_rules, analyse, report):
        for command in module.COMMANDS:
            main.add_command(command)


_register_run_commands()


if __name__ == "__main__":  # pragma: no cover
    main()

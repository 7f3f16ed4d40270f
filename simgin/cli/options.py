"""The command line's shared pieces: option decorators, one-line errors, card and JSON output.

Every command module (:mod:`simgin.cli.main`, :mod:`simgin.cli.run`, :mod:`simgin.cli.tune`,
:mod:`simgin.cli.report`) imports these from here, so the root group in :mod:`simgin.cli.main` can
add the other modules' commands without an import circle.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

from simgin.game.cards import format_card, format_cards, parse_cards
from simgin.game.rules import Rules
from simgin.players.programs import MAX_DECISION_TIMEOUT

F = TypeVar("F", bound=Callable[..., Any])


def user_error(label: str, error: Exception) -> click.ClickException:
    """A one-line ClickException for a user error, prefixed with what was being read."""
    message = one_line(str(error))
    return click.ClickException(f"{label}: {message}" if label else message)


def read_cards(text: str, label: str, low: int = 0, high: int = 52) -> list[int]:
    """Parse a card string given on the command line, or fail with a one-line error.

    ``label`` names the option or argument (``'--knocker'``) so the message says where
    the bad value came from; ``low`` and ``high`` bound the number of cards.
    """
    try:
        cards = parse_cards(text)
    except ValueError as error:
        raise user_error(label, error) from None
    if not low <= len(cards) <= high:
        allowed = f"exactly {low}" if low == high else f"{low} to {high}"
        raise click.ClickException(f"{label}: wrong number of cards: got {len(cards)} ({text!r}), need {allowed}")
    return cards


def build_rules(preset: str, settings: Iterable[str] = ()) -> Rules:
    """The rules of a preset with ``key=value`` settings applied, or a one-line error."""
    try:
        rules = Rules.preset(preset)
    except ValueError as error:
        raise user_error("", error) from None
    changes: dict[str, str] = {}
    for item in settings:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise click.ClickException(f"bad --set {item!r}: expected KEY=VALUE, e.g. --set gin_bonus=25")
        changes[key.strip()] = value
    try:
        return rules.with_settings(changes)
    except (ValueError, TypeError) as error:
        raise user_error("bad --set", error) from None


def warn_overridden(
    rules: Rules, table: str = "pairs", games: bool = True, unwarned: Iterable[str] = ()
) -> dict[str, str]:
    """Print one ``Warning:`` line on stderr per switch that is set but has no effect here
    (:meth:`Rules.overridden`), and return them; a combination the table refuses is an error.

    ``unwarned`` names switches not to warn about (still returned): those a command never uses
    whatever the options, such as the game switches for ``simgin replay`` of one hand.
    """
    try:
        overridden = rules.overridden(table, games)
    except ValueError as error:
        raise user_error("", error) from None
    for name, why in overridden.items():
        if name in unwarned:
            continue
        click.echo(f"Warning: {name}={show_value(getattr(rules, name))} has no effect here: {why}", err=True)
    return overridden


def set_option(func: F) -> F:
    """Add the repeatable ``--set KEY=VALUE`` option (passed on as ``settings``)."""
    return click.option(
        "--set",
        "settings",
        multiple=True,
        metavar="KEY=VALUE",
        help="Change one rule switch, e.g. --set gin_bonus=25 (repeatable; see 'simgin rules').",
    )(func)


def preset_option(help_text: str | None = None, default: str | None = "standard") -> Callable[[F], F]:
    """``--rules PRESET`` (passed on as ``preset``), with the command's own help where it means more."""
    return click.option(
        "--rules",
        "preset",
        default=default,
        show_default=default is not None,
        metavar="PRESET",
        help=help_text or f"Rules preset: {', '.join(Rules.PRESETS)}.",
    )


def seed_option(help_text: str = "Seed of the run: same seed, same results.") -> Callable[[F], F]:
    """``--seed N`` (default 0), with what the seed fixes in this command."""
    return click.option("--seed", type=int, default=0, show_default=True, help=help_text)


def quiet_option(func: F) -> F:
    """Add ``--quiet``: no progress bar (there is none either when stderr is not a terminal)."""
    return click.option("--quiet", is_flag=True, help="No progress bar.")(func)


def rules_options(func: F) -> F:
    """Add ``--rules PRESET`` and ``--set KEY=VALUE``; the command receives ``rules: Rules``."""

    @preset_option()
    @set_option
    @functools.wraps(func)
    def wrapper(*args: Any, preset: str, settings: Sequence[str], **kwargs: Any) -> Any:
        return func(*args, rules=build_rules(preset, settings), **kwargs)

    return wrapper  # type: ignore[return-value]


def on_illegal_option(func: F) -> F:
    """Add ``--on-illegal stop|forfeit`` (passed on as ``on_illegal``): what an illegal move does."""
    return click.option(
        "--on-illegal",
        "on_illegal",
        type=click.Choice(["stop", "forfeit"]),
        default="stop",
        show_default=True,
        help="An illegal move (a card not held, the pile card just taken, illegal melds): stop the run, "
        "or forfeit: that player loses the game (with --hands: the hand), it is counted, and play goes on.",
    )(func)


def json_option(func: F) -> F:
    """Add ``--json`` (passed on as ``as_json``): print one JSON document instead of text."""
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")(func)


def echo_json(data: Any) -> None:
    """Print ``data`` as indented, strict JSON: NaN and infinities become null (JSON has no NaN, and strict
    parsers such as ``JSON.parse`` and jq refuse it), numpy numbers plain numbers."""
    from simgin.running.results import jsonable

    click.echo(json.dumps(jsonable(data), indent=2, allow_nan=False))


def card_names(cards: Iterable[int]) -> list[str]:
    """Card names for JSON output, e.g. ``['AS', 'TD']``."""
    return [format_card(int(card)) for card in cards]


def show_melds(melds: Iterable[Iterable[int]]) -> str:
    """Melds for text output, e.g. ``'[AS 2S 3S] [7C 7D 7H]'``, or ``'(none)'``."""
    shown = " ".join("[" + format_cards(meld) + "]" for meld in melds)
    return shown or "(none)"


def show_cards(cards: Iterable[int]) -> str:
    """Cards for text output, or ``'(none)'``."""
    return format_cards(cards) or "(none)"


def one_line(text: str) -> str:
    """``text`` with its line breaks and runs of spaces made single spaces."""
    return " ".join(str(text).split())


def plural(count: int, word: str, words: str | None = None) -> str:
    """``count`` and ``word``, made plural unless the count is one: ``'1 generation'``, ``'2 generations'``."""
    return f"{count:,} {word if count == 1 else words or word + 's'}"


def show_value(value: Any) -> str:
    """A rule switch's value as ``simgin rules`` prints it (``true``/``false`` for a bool)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class OutDirectory(click.Path):
    """``--out DIR``: a directory path; an empty one (``--out ''``, which would mean the working
    directory) is refused."""

    def __init__(self) -> None:
        super().__init__(file_okay=False, path_type=Path)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value.strip():
            self.fail("an empty name is not a directory; give one, e.g. --out results", param, ctx)
        return super().convert(value, param, ctx)


def out_option(help_text: str) -> Callable[[F], F]:
    """The ``--out DIR`` option."""
    return click.option("--out", type=OutDirectory(), default=None, metavar="DIR", help=help_text)


def execution_options(func: F) -> F:
    """Where the hands run, for every command that plays them: ``--workers``, ``--backend`` and ``--scheduler``."""
    options = [
        click.option(
            "--workers",
            type=int,
            default=None,
            help="Worker processes (default: all cores; a run of one job, at most 20,000 hands or 1,000 games,"
            " plays in this process).",
        ),
        click.option(
            "--backend",
            type=click.Choice(["local", "dask"]),
            default="local",
            show_default=True,
            help="local: a process pool on this machine; dask: a Dask cluster (pip install 'simgin[dask]').",
        ),
        click.option("--scheduler", default=None, metavar="ADDRESS", help="Dask scheduler, e.g. tcp://10.0.0.5:8786."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def search_options(budget: str, games: str, hands: str, final: str) -> Callable[[F], F]:
    """The size of a search (``tune``, ``tune-rules``): ``--budget``, ``--games``, ``--hands``, ``--final``, each
    with the search's own help, and ``--out`` (the evaluations' directory, so a rerun resumes)."""
    options = [
        click.option("--budget", type=int, default=None, help=budget),
        click.option("--games", type=int, default=None, help=games),
        click.option("--hands", type=int, default=None, help=hands),
        click.option("--final", type=int, default=None, help=final),
    ]

    def decorate(func: F) -> F:
        for option in reversed(options):
            func = option(func)
        return func

    return decorate


search_out_option = click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Directory for every evaluation as it finishes; a rerun resumes; 'simgin report DIR' draws the search.",
)


def run_options(func: F) -> F:
    """The options shared by match and tournament."""
    options = [
        click.option("--hands", type=int, default=None, help="Hands per pairing (independent deals)."),
        click.option("--games", type=int, default=None, help="Games to the target score per pairing."),
        seed_option(),
        click.option(
            "--duplicate/--no-duplicate",
            default=True,
            show_default=True,
            help="Play each deal twice with the seats swapped (the pair is the statistical unit).",
        ),
        execution_options,
        out_option("Directory for results (new or empty, or an earlier run's to resume); finished chunks are kept."),
        click.option("--hand-log", is_flag=True, help="Also write every hand to Parquet files in --out."),
        decision_timeout_option,
        on_illegal_option,
        quiet_option,
    ]
    for option in reversed(options):
        func = option(func)
    return func


def check_timeout(ctx: click.Context, param: click.Parameter, value: float) -> float:
    if not math.isfinite(value):
        raise click.BadParameter(
            f"{value} is not allowed: give a number of seconds, more than 0 and at most {MAX_DECISION_TIMEOUT:g}",
            param_hint="--decision-timeout",
        )
    return value


decision_timeout_option = click.option(
    "--decision-timeout",
    type=click.FloatRange(min=0, max=MAX_DECISION_TIMEOUT, min_open=True),
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    callback=check_timeout,
    help="Time an exec: or eaai: strategy may take per decision; a slower answer stops the run.",
)


def program_settings(decision_timeout: float):
    """How exec: and eaai: strategies run, from the CLI options."""
    from simgin.players.programs import ProgramSettings

    return ProgramSettings(decision_timeout=decision_timeout)


def check_counts(hands: int | None, games: int | None) -> None:
    """--hands and --games: not both, each within the bounds a run takes (:func:`running.config.check_bounds`)."""
    from simgin.running.config import COUNT_BOUND, MOST_UNITS

    if hands is not None and games is not None:
        raise click.UsageError("give --hands or --games, not both")
    for mode, value in (("hands", hands), ("games", games)):
        check_range(f"--{mode}", value, 1, MOST_UNITS[mode], COUNT_BOUND)


def check_range(name: str, value: int | None, low: int, high: int, what: str = "") -> None:
    """A one-line error naming the option, its value and the allowed range unless ``low <= value <= high``
    (the library's wording: :func:`simgin.running.config.check_bounds`)."""
    from simgin.running.config import check_bounds

    if value is not None:
        try:
            check_bounds(f"{name} {value}", value, low, high, what)
        except ValueError as error:
            raise click.ClickException(str(error)) from None


def check_run_options(workers: int | None, seed: int, backend: str, scheduler: str | None) -> None:
    """Bounds of --workers and --seed, checked before anything is allocated."""
    from simgin.running import runner
    from simgin.running.config import SEED_BOUND

    check_range("--seed", seed, 0, runner.MAX_SEED, SEED_BOUND)
    if scheduler and backend != "dask":
        raise click.ClickException("--scheduler needs --backend dask")
    if workers is not None:
        try:
            runner.check_workers(workers, backend, scheduler)
        except ValueError as error:
            raise click.ClickException(f"--workers {workers}: {str(error).partition(': ')[2]}") from None


def notice(message: str) -> None:
    """What a run reports without stopping (a Dask cluster without workers, a hand log played again): stderr."""
    click.echo(f"simgin: {message}", err=True)


adjust_luck_option = click.option(
    "--adjust-luck",
    is_flag=True,
    help="Also give the luck-adjusted figures: each hand's result minus the luck of its deal and stock draws, "
    "valued by a function fixed in advance (unbiased; docs/STATISTICS.md §13). Runs of hands between two players.",
)


def check_adjust_luck(options: dict[str, Any], table: str = "pairs") -> None:
    """A one-line error for ``--adjust-luck`` where it does not apply (games, three- or four-player tables): a
    game's result is not a sum of hands' points, so its luck is not the sum of theirs (docs/STATISTICS.md §13)."""
    if options.get("adjust_luck") and (table != "pairs" or options.get("games") is not None):
        raise click.ClickException(
            "--adjust-luck: applies to runs of hands between two players (--hands), not to "
            + ("games (--games)" if table == "pairs" else "a three- or four-player table")
        )


def luck_points_text(points: dict[str, Any]) -> str:
    """A luck-adjusted net points figure as the commands print it: adjusted, plain, and the variance ratio.

    >>> figure = {"estimate": 1.7, "ci": [1.3, 2.1], "plain": 1.6, "plain_ci": [1.1, 2.1], "variance_ratio": 1.6}
    >>> luck_points_text(figure)
    '+1.70 (+1.30 to +2.10), plain +1.60 (+1.10 to +2.10); variance 1.60x smaller'
    """
    return (
        f"{points['estimate']:+.2f} ({points['ci'][0]:+.2f} to {points['ci'][1]:+.2f}), plain {points['plain']:+.2f} "
        f"({points['plain_ci'][0]:+.2f} to {points['plain_ci'][1]:+.2f}); variance {points['variance_ratio']:.2f}x "
        "smaller"
    )

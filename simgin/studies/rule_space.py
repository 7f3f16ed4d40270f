"""The rule-space language of ``simgin tune-rules``: what to optimise (``--objective``), what must hold
(``--keep``) and which switches to search over which values (``--vary``), parsed and checked against the rule book
(every switch a rule of RULES.md)."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from simgin.game.rules import Rules
from simgin.running.tally import Tally

_OPERATORS = ("<=", ">=", "<", ">")


class TuneRulesError(ValueError):
    """Bad input or a directory that does not match: a one-line message naming the bad value."""


def _win_share(t: Tally, mode: str) -> tuple[float, float]:
    if mode == "games":
        return t["games_won_a"] + 0.5 * (t["games"] - t["games_won_a"] - t["games_won_b"]), t["games"]
    return t["hands_won_a"] + 0.5 * (t["hands"] - t["hands_won_a"] - t["hands_won_b"]), t["hands"]


def luck_adjusted_win_share(t: Tally, mode: str) -> tuple[float, float]:
    """``win_rate`` of a run with ``adjust_luck`` (hands, issue 35): A's hands won and B's each less their luck
    corrections (docs/STATISTICS.md §13), a dead hand counting half as in :func:`_win_share`."""
    won_a, won_b = t["luck_v"], t["hands_won_b"] - t["luck_b_won"]
    return won_a + 0.5 * (t["hands"] - won_a - won_b), t["hands"]


def _ratio(numerator: str, denominator: str) -> Callable[[Tally, str], tuple[float, float]]:
    return lambda t, mode: (t[numerator], t[denominator])


METRICS: dict[str, tuple[str, Callable[[Tally, str], tuple[float, float]], bool]] = {
    "win_rate": ("share of games (hands) the first-named player wins, a draw counting half", _win_share, False),
    "first_player_win_rate": (
        "share of scored hands won by the non-dealer, who plays first (R11)",
        _ratio("first_player_wins", "scored"),
        False,
    ),
    "hands_per_game": ("mean deals per game", _ratio("game_hands", "games"), True),
    "knock_rate": ("share of hands won by a knock without gin", _ratio("knock", "hands"), False),
    "gin_rate": ("share of hands ended by gin (R13)", _ratio("gin", "hands"), False),
    "big_gin_rate": ("share of hands ended by big gin (V13)", _ratio("big_gin", "hands"), False),
    "undercut_rate": ("share of hands ended by an undercut (R18)", _ratio("undercut", "hands"), False),
    "dead_rate": ("share of dead hands (R15)", _ratio("dead", "hands"), False),
    "mean_turns": ("mean turns per hand", _ratio("turns", "hands"), False),
    "dealer_points_per_hand": ("the dealer's net points per hand", _ratio("dealer_net", "hands"), False),
    "shutout_rate": ("share of games won by a shutout (R21)", _ratio("shutouts", "games"), True),
}
"""Metric name -> (meaning, (tally, mode) -> (numerator, denominator), needs games). Every metric is a ratio
of sums, pooled over the pairings; ``--keep`` may constrain any of them."""


@dataclass(frozen=True)
class Objective:
    """What the search optimises: ``|metric - target|`` (or the metric itself when ``target`` is None)."""

    name: str
    metric: str
    direction: str
    """'maximize' or 'minimize'."""
    target: float | None = None

    @property
    def text(self) -> str:
        """As the user writes it: ``skill``, ``balance`` or ``length=N``."""
        return (
            f"{self.name}={number_text(self.target)}"
            if self.name == "length" and self.target is not None
            else self.name
        )

    def value(self, rate: float) -> float:
        return rate if self.target is None else abs(rate - self.target)

    def better(self, difference: float) -> bool:
        """Whether a difference (found minus start) goes the objective's way."""
        return difference > 0 if self.direction == "maximize" else difference < 0


OBJECTIVES = ("skill", "balance", "length=N")


def parse_objective(text: str) -> Objective:
    """``'skill'``, ``'balance'`` or ``'length=N'`` -> an :class:`Objective`, or a one-line error."""
    name, sep, rest = str(text).strip().partition("=")
    name = name.strip()
    if name == "skill" and not sep:
        return Objective("skill", "win_rate", "maximize")
    if name == "balance" and not sep:
        return Objective("balance", "first_player_win_rate", "minimize", 0.5)
    if name == "length":
        try:
            target = float(rest)
        except ValueError:
            target = math.nan
        if not sep or not math.isfinite(target) or target < 1:
            raise TuneRulesError(
                f"--objective {text!r}: length needs a target number of hands per game >= 1, e.g. length=8"
            )
        return Objective("length", "hands_per_game", "minimize", target)
    raise TuneRulesError(f"unknown --objective {text!r}: choose from {', '.join(OBJECTIVES)}")


@dataclass(frozen=True)
class Keep:
    """A constraint on a metric, e.g. ``dead_rate <= 0.05``."""

    metric: str
    op: str
    bound: float

    @property
    def text(self) -> str:
        return f"{self.metric}{self.op}{number_text(self.bound)}"

    def met(self, value: float) -> bool:
        if not math.isfinite(value):
            return False
        return {
            "<=": value <= self.bound,
            ">=": value >= self.bound,
            "<": value < self.bound,
            ">": value > self.bound,
        }[self.op]

    def status(self, value: float, low: float, high: float) -> str:
        """The constraint judged with the metric's 95% interval (issue 32 item 6): ``'met'`` when the whole
        interval lies on the allowed side of the bound, ``'broken'`` when the whole interval lies on the other
        side (or nothing was counted), ``'uncertain'`` when the interval reaches across the bound or is unknown.

        >>> keep = Keep("hands_per_game", ">=", 9.0)
        >>> keep.status(9.057, 8.93, 9.18), keep.status(9.4, 9.1, 9.7), keep.status(8.6, 8.4, 8.8)
        ('uncertain', 'met', 'broken')
        """
        if not math.isfinite(value):
            return "broken"
        if not (math.isfinite(low) and math.isfinite(high)):
            return "uncertain"
        if self.met(low) and self.met(high):
            return "met"
        if not self.met(low) and not self.met(high):
            return "broken"
        return "uncertain"

    def violation(self, value: float) -> float:
        """TPE's constraint value: <= 0 when met, else how far the metric is on the wrong side (> 0)."""
        if not math.isfinite(value):
            return 1.0
        gap = value - self.bound if self.op in ("<=", "<") else self.bound - value
        if self.met(value):
            return min(gap, 0.0)
        return max(gap, 1e-12)


_KEEP_PATTERN = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*([<>=!]+)\s*(\S+)\s*$")


def parse_keep(text: str) -> Keep:
    """``'dead_rate<=0.05'`` -> a :class:`Keep`, or a one-line error naming the bad part."""
    match = _KEEP_PATTERN.match(str(text))
    if not match:
        raise TuneRulesError(
            f"bad --keep {text!r}: expected METRIC OP NUMBER with OP one of {', '.join(_OPERATORS)}, "
            "e.g. --keep 'dead_rate<=0.05'"
        )
    metric, op, number = match.groups()
    if metric not in METRICS:
        raise TuneRulesError(f"unknown --keep metric {metric!r} in {text!r}: choose from {', '.join(METRICS)}")
    if op not in _OPERATORS:
        raise TuneRulesError(f"unknown --keep operator {op!r} in {text!r}: choose from {', '.join(_OPERATORS)}")
    try:
        bound = float(number)
    except ValueError:
        bound = math.nan
    if not math.isfinite(bound):
        raise TuneRulesError(f"bad --keep {text!r}: the bound {number!r} must be a finite number")
    return Keep(metric, op, bound)


@dataclass(frozen=True)
class Vary:
    """One searched switch: a whole-number range ``low..high``, or a list of allowed values."""

    name: str
    kind: str
    """The switch's type: 'int', 'bool' or 'str'."""
    low: int | None = None
    high: int | None = None
    choices: tuple[Any, ...] | None = None

    @property
    def values(self) -> tuple[Any, ...]:
        """Every allowed value (a range written out)."""
        if self.choices is not None:
            return self.choices
        assert self.low is not None and self.high is not None
        return tuple(range(self.low, self.high + 1))

    @property
    def extremes(self) -> tuple[Any, ...]:
        """The values that bound the switch's effect: a range's ends, or every choice."""
        if self.choices is not None:
            return self.choices
        return (self.low, self.high)

    def contains(self, value: Any) -> bool:
        return value in self.values

    @property
    def text(self) -> str:
        if self.choices is None:
            return f"{self.name}={self.low}..{self.high}"
        return f"{self.name}=" + ",".join(shown_value(value) for value in self.choices)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "low": self.low, "high": self.high, "choices": self.choices}


def _switch_types() -> dict[str, str]:
    return {f.name: str(f.type) for f in fields(Rules)}


def parse_vary(text: str, base: Rules | None = None) -> Vary:
    """``'knock_limit=5..10'``, ``'big_gin'``, ``'shutout'`` or ``'shutout=bonus,none'`` -> a :class:`Vary`.

    A true/false switch alone means both values, a choice switch alone every choice; a
    whole-number switch needs a range or a list. Each value is checked against the switch's
    own bounds on top of ``base`` (knock_limit 0-10, points at most 10,000, ...).

    >>> parse_vary("knock_limit=5..10").values
    (5, 6, 7, 8, 9, 10)
    >>> parse_vary("shutout").choices
    ('bonus', 'double', 'none')
    """
    base = base or Rules()
    types = _switch_types()
    name, sep, rest = str(text).partition("=")
    name = name.strip()
    if name not in types:
        raise TuneRulesError(f"--vary {text!r}: unknown rule switch {name!r}: choose from {', '.join(types)}")
    kind = types[name]
    rest = rest.strip()

    def check(value: Any) -> Any:
        try:
            return getattr(base.with_settings({name: value}), name)
        except (ValueError, TypeError) as error:
            raise TuneRulesError(f"--vary {text!r}: {error}") from None

    if not sep:
        if kind == "bool":
            return Vary(name, kind, choices=(False, True))
        if kind == "str":
            from simgin.game import rules as rules_module

            allowed = {"shutout": rules_module.SHUTOUT_RULES, "dealer_rotation": rules_module.DEALER_ROTATIONS}
            return Vary(name, kind, choices=tuple(allowed[name]))
        raise TuneRulesError(
            f"--vary {text!r}: {name} is a whole-number switch: give a range or values, e.g. --vary {name}=LOW..HIGH"
        )
    if not rest:
        raise TuneRulesError(f"--vary {text!r}: no values after '=': give LOW..HIGH or VALUE,VALUE,...")
    if ".." in rest:
        if kind != "int":
            what = "a true/false" if kind == "bool" else "a choice"
            raise TuneRulesError(
                f"--vary {text!r}: {name} is {what} switch, not a number: give --vary {name} (every value) "
                f"or --vary {name}=VALUE,VALUE"
            )
        low_text, _, high_text = rest.partition("..")
        try:
            low, high = int(low_text), int(high_text)
        except ValueError:
            raise TuneRulesError(
                f"--vary {text!r}: LOW and HIGH must be whole numbers, e.g. --vary {name}=5..10"
            ) from None
        if low > high:
            raise TuneRulesError(
                f"--vary {text!r}: the range is inverted (LOW {low} > HIGH {high}): write {high}..{low}"
            )
        if low == high:
            raise TuneRulesError(f"--vary {text!r}: the range holds one value, {low}: nothing to vary")
        check(low_text.strip())
        check(high_text.strip())
        return Vary(name, kind, low=low, high=high)
    values: list[Any] = []
    for item in rest.split(","):
        if not item.strip():
            raise TuneRulesError(f"--vary {text!r}: an empty value in the list")
        value = check(item.strip())
        if value not in values:
            values.append(value)
    if len(values) < 2:
        raise TuneRulesError(f"--vary {text!r}: one value, {shown_value(values[0])}: give at least two to vary")
    return Vary(name, kind, choices=tuple(values))


def check_effects(varied: Sequence[Vary], base: Rules, games: bool) -> None:
    """Refuse a varied switch that has no effect at a two-player table under any of the searched rule sets.

    A switch has an effect when, for some value away from the standard game's and some
    combination of the other varied switches' extreme values, :meth:`Rules.overridden` does not
    list it; otherwise the message gives the rule book's reason (as ``simgin rules`` does).
    A combination of varied values that cannot be played at all is refused too.
    """
    standard = Rules()
    for combination in itertools.product(*(v.extremes for v in varied)):
        settings = {v.name: x for v, x in zip(varied, combination, strict=True)}
        try:
            base.with_settings(settings).overridden("pairs", games)
        except ValueError as error:
            shown = ", ".join(f"{k}={shown_value(x)}" for k, x in settings.items())
            raise TuneRulesError(f"--vary: the rules {shown} cannot be played: {error}") from None
    for vary in varied:
        others = [v for v in varied if v is not vary]
        reasons: list[str] = []
        effective = False
        for combination in itertools.product(*(v.extremes for v in others)):
            for value in vary.extremes:
                if value == getattr(standard, vary.name):
                    continue
                settings = {v.name: x for v, x in zip(others, combination, strict=True)} | {vary.name: value}
                try:
                    rules = base.with_settings(settings)
                    overridden = rules.overridden("pairs", games)
                except ValueError as error:
                    shown = ", ".join(f"{k}={shown_value(x)}" for k, x in settings.items())
                    raise TuneRulesError(f"--vary: the rules {shown} cannot be played: {error}") from None
                if vary.name in overridden:
                    reasons.append(overridden[vary.name])
                else:
                    effective = True
                    break
            if effective:
                break
        if not effective:
            why = reasons[0] if reasons else "it takes no value away from the standard game's"
            raise TuneRulesError(f"--vary {vary.text}: the switch has no effect here: {why}")


def shown_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def number_text(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"

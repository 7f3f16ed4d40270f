"""Tune house rules toward a goal: search rule switches for an objective, then measure the result honestly.

``tune_rules(players, objective, vary)`` searches the rule switches named in ``vary`` (whole
numbers in a range, true/false switches, choices such as ``shutout`` and ``dealer_rotation``),
on top of a base rule set, for one of three objectives:

- ``skill``: the share of games (hands, with ``hands``) that the first-named player wins
  against the others, a drawn game counting half; maximised. It needs two players or more.
- ``balance``: how far the first player's share of scored hands is from 50% (the non-dealer,
  who plays first, R11); minimised.
- ``length=N``: how far the mean number of hands per game is from N; minimised; games only.

``keep`` adds constraints on other metrics of the same runs (:data:`METRICS`), such as
``dead_rate<=0.05``; a rule set that breaks one is infeasible.

The runs: the first-named player meets each other player (alone, it plays itself) on
duplicate deals (each deal played twice, seats swapped); every metric is pooled over those
pairings. The search is optuna's TPE sampler (optional extra ``simgin[tune-rules]``), seeded,
asked for :data:`TRIALS_PER_BATCH` trials at a time and told in trial order, so the same seed
gives the same search on any number of workers. The start rules are its first trial when
they lie in the searched space. Constraints go to TPE's ``constraints_func`` (a trial with a
positive constraint value is infeasible: TPE models feasible trials apart from infeasible ones),
not a penalty, so the objective's scale is left alone. A rule set asked twice is played once:
the search plays every trial on the same deals (common random numbers), so a repeat would
give the same numbers.

Honesty, as ``simgin tune`` (:mod:`simgin.studies.tune`): the search plays one set of deals; the
best feasible trial on them and the start rules are then both played on fresh deals that the
search never saw, with 95% intervals and the p-value of their paired difference
(:func:`simgin.statistics.stats.paired_difference` over the chunks of duplicate deal pairs, which are
independent and identically distributed, docs/STATISTICS.md §9). Unless the found rules are
better there (the difference in the objective's direction with p < 0.05, and every ``keep``
constraint met), the result says so in words and keeps the start rules.

Seeds: the search plays run seed ``SeedSequence(seed, spawn_key=(0, 0))``, the final
measurement ``(2, 0)`` (:func:`simgin.studies.tune.phase_seed`), TPE is seeded from ``(3,)``. With
``out`` every trial and final evaluation is written atomically as it finishes; a rerun replays
the recorded trials into a fresh study with the same seed, checks that it asks for the same
rules, and continues, so an interrupted search ends exactly as an uninterrupted one.

>>> parse_objective("length=8").target
8.0
>>> parse_keep("dead_rate<=0.05")
Keep(metric='dead_rate', op='<=', bound=0.05)
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import re
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np

from simgin.base import files
from simgin.game.rules import Rules
from simgin.players.registry import resolve
from simgin.running import runner
from simgin.running.tally import Tally
from simgin.statistics.formats import p_below, percent
from simgin.statistics.power import detectable_difference, power_to_detect
from simgin.statistics.stats import paired_difference
from simgin.studies.tune import SearchDirectory, batch_mean, phase_seed

DEFAULT_BUDGET = 40
"""Trials of the search (rule sets asked of TPE, repeats included)."""
DEFAULT_GAMES = 200
"""Games (or hands) per opponent in a trial of the search."""
FINAL_FACTOR = 10
"""The final measurement plays this many times the search's sample per rule set, by default."""
BATCHES = 40
"""Chunks per evaluation: ``chunk_units`` is the pairs divided by this, rounded down, so an evaluation of
``n`` deal pairs has at least ``min(n, 40)`` chunks (the units of its intervals and paired test)."""
TRIALS_PER_BATCH = 4
"""Trials asked of TPE before any is told: they are played together, whatever the number of workers."""
SIGNIFICANCE = 0.05
"""The found rules replace the start only when their paired difference has a p-value below this."""
METHOD = "optuna TPE (seeded, constraints_func), one set of search deals, fresh final deals (simgin tune-rules v1)"
SETTINGS_FILE = "tune-rules.json"
EVALUATIONS_DIR = "evaluations"
KIND = "tune-rules"
_OPTIMISER_BRANCH = 3
_OPERATORS = ("<=", ">=", "<", ">")

ProgressCallback = Callable[["RuleEvaluation", int, int], None]
ChunkPlayer = Callable[[runner.RunConfig, runner.Chunk], Any]
"""Plays one chunk and returns an object with ``tally`` (a :class:`~simgin.running.tally.Tally`) and ``seconds``."""


class TuneRulesError(ValueError):
    """Bad input or a directory that does not match: a one-line message naming the bad value."""


# -- metrics and objectives ----------------------------------------------------------------------------


def _win_share(t: Tally, mode: str) -> tuple[float, float]:
    if mode == "games":
        return t["games_won_a"] + 0.5 * (t["games"] - t["games_won_a"] - t["games_won_b"]), t["games"]
    return t["hands_won_a"] + 0.5 * (t["hands"] - t["hands_won_a"] - t["hands_won_b"]), t["hands"]


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
        return f"{self.name}={_number(self.target)}" if self.name == "length" and self.target is not None else self.name

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
        return f"{self.metric}{self.op}{_number(self.bound)}"

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


# -- the searched switches ---------------------------------------------------------------------------


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
        return f"{self.name}=" + ",".join(_show(value) for value in self.choices)

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
        raise TuneRulesError(f"--vary {text!r}: one value, {_show(values[0])}: give at least two to vary")
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
            shown = ", ".join(f"{k}={_show(x)}" for k, x in settings.items())
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
                    shown = ", ".join(f"{k}={_show(x)}" for k, x in settings.items())
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


# -- settings ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TuneRulesSettings:
    """Everything that determines a tune-rules result (workers and backend do not)."""

    players: tuple[str, ...]
    objective: Objective
    varied: tuple[Vary, ...]
    keep: tuple[Keep, ...]
    rules: Rules
    """The start rules: the preset with ``--set`` applied; the varied switches go on top."""
    mode: str
    count: int
    """Games (or hands) per opponent in a trial of the search."""
    final: int
    """Games (or hands) per opponent and rule set in the final measurement."""
    budget: int
    seed: int

    @property
    def opponents(self) -> tuple[str, ...]:
        """Whom the first-named player meets: every other player, or itself when alone."""
        return self.players[1:] or self.players[:1]

    @property
    def start_values(self) -> dict[str, Any]:
        return {v.name: getattr(self.rules, v.name) for v in self.varied}

    def rules_of(self, values: Mapping[str, Any]) -> Rules:
        return self.rules.with_settings(dict(values))

    def key_of(self, values: Mapping[str, Any]) -> str:
        """The identity of a rule set as played: its effective rules (switches without effect at standard)."""
        effective = self.rules_of(values).effective("pairs", self.mode == "games")
        return json.dumps(effective.to_dict(), sort_keys=True)

    def config(self, values: Mapping[str, Any], opponent: str, count: int, seed: int) -> runner.RunConfig:
        pairs = count // 2
        return runner.RunConfig(
            (self.players[0], opponent),
            self.rules_of(values),
            hands=count if self.mode == "hands" else None,
            games=count if self.mode == "games" else None,
            seed=seed,
            duplicate=True,
            chunk_units=max(1, pairs // BATCHES),
        )

    def to_dict(self) -> dict[str, Any]:
        data = {
            "players": list(self.players),
            "objective": self.objective.text,
            "vary": [v.to_dict() for v in self.varied],
            "keep": [k.text for k in self.keep],
            "rules": self.rules.to_dict(),
            "mode": self.mode,
            "count": self.count,
            "final": self.final,
            "budget": self.budget,
            "seed": self.seed,
            "method": METHOD,
        }
        return json.loads(json.dumps(data))


def plan(
    players: Sequence[str],
    objective: str | Objective,
    vary: Sequence[str | Vary],
    *,
    rules: Rules | str | None = None,
    keep: Sequence[str | Keep] = (),
    budget: int = DEFAULT_BUDGET,
    games: int | None = None,
    hands: int | None = None,
    final: int | None = None,
    seed: int = 0,
) -> TuneRulesSettings:
    """Check a tune-rules input and fix its settings, or raise a one-line :class:`TuneRulesError`."""
    players = tuple(players)
    if not players:
        raise TuneRulesError("give at least one player")
    for player in players:
        resolve(player)
    if isinstance(rules, str):  # a preset name, as every run function takes (issue 32 item 17)
        try:
            rules = Rules.preset(rules)
        except ValueError as error:
            raise TuneRulesError(str(error)) from None
    base = rules or Rules()
    goal = objective if isinstance(objective, Objective) else parse_objective(objective)
    if goal.name == "skill" and len(players) < 2:
        raise TuneRulesError(
            f"--objective skill needs at least 2 players (the first-named against the others), got {len(players)}: "
            f"{', '.join(players)}"
        )
    if games is not None and hands is not None:
        raise TuneRulesError("give --games or --hands, not both")
    mode = "hands" if hands is not None else "games"
    if goal.name == "length" and mode == "hands":
        raise TuneRulesError(
            f"--objective {goal.text} measures hands per game, so it needs games: drop --hands (use --games)"
        )
    count = hands if hands is not None else (games if games is not None else DEFAULT_GAMES)
    final_count = final if final is not None else FINAL_FACTOR * count
    for label, value in ((f"--{mode}", count), ("--final", final_count)):
        if isinstance(value, bool) or value < 2 or value % 2:
            raise TuneRulesError(f"{label} {value}: must be an even number >= 2 (duplicate deals come in pairs)")
    if not vary:
        raise TuneRulesError("give at least one --vary SWITCH=LOW..HIGH (or a true/false or choice switch alone)")
    varied = [item if isinstance(item, Vary) else parse_vary(item, base) for item in vary]
    names = [v.name for v in varied]
    for name in names:
        if names.count(name) > 1:
            raise TuneRulesError(f"--vary names {name!r} twice")
    check_effects(varied, base, mode == "games")
    constraints = [item if isinstance(item, Keep) else parse_keep(item) for item in keep]
    for constraint in constraints:
        if METRICS[constraint.metric][2] and mode == "hands":
            raise TuneRulesError(f"--keep {constraint.text}: {constraint.metric} is a game metric: drop --hands")
    if isinstance(budget, bool) or budget < 1:
        raise TuneRulesError(f"--budget {budget}: must be at least 1 trial")
    if seed < 0:
        raise TuneRulesError(f"--seed {seed}: must be >= 0")
    return TuneRulesSettings(
        players=players,
        objective=goal,
        varied=tuple(varied),
        keep=tuple(constraints),
        rules=base,
        mode=mode,
        count=count,
        final=final_count,
        budget=budget,
        seed=seed,
    )


# -- evaluations ------------------------------------------------------------------------------------


@dataclass
class RuleEvaluation:
    """One rule set played against the opponents on one phase's deals, reduced to per-chunk metric sums."""

    phase: str
    """'search' or 'final'."""
    index: int
    """The trial number (search), or 0 for the found and 1 for the start rules (final)."""
    values: dict[str, Any]
    """The varied switches' values."""
    seed: int
    pairs: int
    """Duplicate deal pairs per opponent."""
    sums: dict[str, list[float]]
    """Per metric, per chunk: the numerator summed over the opponents."""
    sizes: dict[str, list[float]]
    """Per metric, per chunk: the denominator summed over the opponents."""
    played: bool = True
    """False for a search trial that repeats an earlier one's rules (its numbers are copied, nothing played)."""
    seconds: float = 0.0

    @property
    def key(self) -> str:
        return f"{self.phase}-{self.index:04d}"

    def metric(self, name: str) -> tuple[float, float, float]:
        """The pooled rate with its batch-means 95% interval (NaN when nothing was counted)."""
        sizes = self.sizes[name]
        if sum(sizes) <= 0:
            return math.nan, math.nan, math.nan
        return batch_mean(self.sums[name], sizes)

    def point(self, name: str) -> float:
        return self.metric(name)[0]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleEvaluation:
        return cls(**data)


def objective_score(evaluation: RuleEvaluation, objective: Objective) -> tuple[float, float, float]:
    """The objective's value with a 95% interval: the metric's interval mapped through ``|x - target|``
    (the range of the distance over the interval, 0 when the target lies inside)."""
    rate, low, high = evaluation.metric(objective.metric)
    if objective.target is None:
        return rate, low, high
    value = abs(rate - objective.target)
    if not (math.isfinite(low) and math.isfinite(high)):
        return value, math.nan, math.nan
    ends = [abs(low - objective.target), abs(high - objective.target)]
    inside = low <= objective.target <= high
    return value, 0.0 if inside else min(ends), max(ends)


def score_difference(found: RuleEvaluation, start: RuleEvaluation, objective: Objective) -> dict[str, float]:
    """The paired difference found - start of the objective on the same chunks (docs/STATISTICS.md §9).

    ``|R - t|`` is the rate of ``s(x - t·n)`` over ``n`` with ``s`` the side of the target the rate
    lies on, so :func:`simgin.statistics.stats.paired_difference` of those per-chunk sums gives the difference
    of the distances with its delta-method interval and p-value.
    """
    if found.seed != start.seed or found.sizes.keys() != start.sizes.keys():
        raise ValueError("a paired difference needs two evaluations on the same deals")
    name = objective.metric
    x, xn = np.asarray(found.sums[name]), np.asarray(found.sizes[name])
    y, yn = np.asarray(start.sums[name]), np.asarray(start.sizes[name])
    if objective.target is not None:
        target = objective.target
        x_side = 1.0 if found.point(name) >= target else -1.0
        y_side = 1.0 if start.point(name) >= target else -1.0
        x, y = x_side * (x - target * xn), y_side * (y - target * yn)
    d = paired_difference(x, y, xn, yn)
    return {"difference": d.difference, "low": d.low, "high": d.high, "p_value": d.p, "chunks": d.units}


def _reduce(tallies: Sequence[Tally], mode: str) -> dict[str, tuple[float, float]]:
    out = {}
    for name, (_, function, needs_games) in METRICS.items():
        if needs_games and mode != "games":
            continue
        numerator = denominator = 0.0
        for t in tallies:
            a, b = function(t, mode)
            numerator += a
            denominator += b
        out[name] = (numerator, denominator)
    return out


class _Evaluator:
    """Plays rule sets on an open runner backend: one job per (rule set, opponent, chunk), consumed in job order."""

    def __init__(self, settings: TuneRulesSettings, workers: int, backend: str, play_chunk: ChunkPlayer | None) -> None:
        self.settings = settings
        self.workers = workers
        self.backend_name = backend
        self.play_chunk = play_chunk or _run_chunk
        self.compile_first = workers > 1 and play_chunk is None and not runner.kernels_cached(settings.mode)

    def __enter__(self) -> _Evaluator:
        self._context = runner.backend_for(self.workers, self.backend_name)
        self.backend = self._context.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._context.__exit__(*exc)

    def evaluate(
        self, phase: str, candidates: Sequence[tuple[int, dict[str, Any]]], count: int, seed: int
    ) -> Iterator[RuleEvaluation]:
        settings = self.settings
        jobs: list[tuple[runner.RunConfig, runner.Chunk]] = []
        plans = []
        for _, values in candidates:
            chunk_lists = []
            for opponent in settings.opponents:
                config = settings.config(values, opponent, count, seed)
                chunks = runner.plan_chunks(config)
                chunk_lists.append(chunks)
                jobs.extend((config, chunk) for chunk in chunks)
            plans.append(chunk_lists)
        futures: list[Any] = []
        if jobs and self.compile_first:
            first = self.backend.submit(self.play_chunk, *jobs[0])
            first.result()
            futures.append(first)
            self.compile_first = False
        futures.extend(self.backend.submit(self.play_chunk, *job) for job in jobs[len(futures) :])
        results = iter(futures)
        for (index, values), chunk_lists in zip(candidates, plans, strict=True):
            chunk_count = len(chunk_lists[0])
            per_chunk: list[list[Tally]] = [[] for _ in range(chunk_count)]
            seconds = 0.0
            for _ in settings.opponents:
                for c in range(chunk_count):
                    result = next(results).result()
                    seconds += float(result.seconds)
                    per_chunk[c].append(result.tally)
            reduced = [_reduce(tallies, settings.mode) for tallies in per_chunk]
            names = list(reduced[0])
            yield RuleEvaluation(
                phase=phase,
                index=index,
                values=dict(values),
                seed=seed,
                pairs=count // 2,
                sums={name: [float(r[name][0]) for r in reduced] for name in names},
                sizes={name: [float(r[name][1]) for r in reduced] for name in names},
                seconds=seconds,
            )


def _run_chunk(config: runner.RunConfig, chunk: runner.Chunk) -> runner.ChunkResult:
    return runner.run_chunk(config, chunk, False)


# -- the output directory ------------------------------------------------------------------------------


#: Version of an evaluation record's layout (``format``); another version is played again.
EVALUATION_FORMAT = 1
#: The JSON type of each field of :class:`RuleEvaluation` (a test checks that every field is here).
_EVALUATION_FIELDS: dict[str, type | tuple[type, ...]] = {
    "phase": str,
    "index": int,
    "values": dict,
    "seed": int,
    "pairs": int,
    "sums": dict,
    "sizes": dict,
    "played": bool,
    "seconds": (int, float),
}


def evaluation_from_record(record: Any, path: Path) -> RuleEvaluation:
    """The evaluation in a record read from ``path``, its checksum and every field checked; anything else is a
    :class:`~simgin.base.files.DamagedFile` saying what is wrong (issue 25, D3, D4: a received or edited
    directory is never believed)."""
    fix = "it is played again"
    files.check_fields(record, path, {"format": int, "check": str}, fix, "evaluation")
    if record["format"] != EVALUATION_FORMAT:
        raise files.DamagedFile(path, f"{path} was written by another simgin version; {fix}")
    if record["check"] != files.checksum(record):
        raise files.DamagedFile(path, f"{path} was edited or is damaged (it does not match its checksum); {fix}")
    data = {key: value for key, value in record.items() if key not in ("format", "check")}
    if set(data) != set(_EVALUATION_FIELDS):
        raise files.DamagedFile(path, f"{path} is damaged (not the fields of an evaluation record); {fix}")
    files.check_fields(data, path, _EVALUATION_FIELDS, fix, "evaluation")
    if data["phase"] not in ("search", "final") or data["index"] < 0 or data["pairs"] < 1:
        raise files.DamagedFile(path, f"{path} is damaged (phase, index or pairs out of range); {fix}")
    for name in ("sums", "sizes"):
        for metric, values in data[name].items():
            if not isinstance(values, list) or not all(files.is_finite(value) for value in values):
                raise files.DamagedFile(path, f"{path} is damaged ({name}[{metric!r}] is not finite numbers); {fix}")
    if set(data["sums"]) != set(data["sizes"]):
        raise files.DamagedFile(path, f"{path} is damaged (sums and sizes name different metrics); {fix}")
    return RuleEvaluation.from_dict(data)


def evaluation_record(evaluation: RuleEvaluation) -> dict[str, Any]:
    """What :meth:`TuneRulesDirectory.save` writes: the evaluation, its format and its checksum."""
    record = {"format": EVALUATION_FORMAT, **evaluation.to_dict()}
    record["check"] = files.checksum(record)
    return record


class TuneRulesDirectory(SearchDirectory):
    """A tune-rules search's ``--out`` directory (:class:`~simgin.studies.tune.SearchDirectory`):
    ``tune-rules.json`` (settings), ``evaluations/*.json``, ``result.json`` at the end."""

    settings_file = SETTINGS_FILE
    holds = "a tune-rules search"
    error = TuneRulesError

    def __init__(
        self, path: str | Path, settings: TuneRulesSettings, notice: Callable[[str], None] | None = None
    ) -> None:
        super().__init__(path, settings.to_dict(), notice or (lambda message: None))

    def parse(self, record: Any, path: Path) -> RuleEvaluation:
        return evaluation_from_record(record, path)

    def record(self, evaluation: RuleEvaluation) -> dict[str, Any]:
        return evaluation_record(evaluation)


# -- the optimiser ---------------------------------------------------------------------------------------


def _constraints(trial: Any) -> Sequence[float]:
    return trial.user_attrs.get("constraints", [0.0])


class _Study:
    """An optuna study with a seeded TPE sampler over the varied switches, asked and told in trial order."""

    def __init__(self, settings: TuneRulesSettings) -> None:
        try:
            import optuna
        except ImportError:
            raise TuneRulesError(
                "simgin tune-rules needs the optional extra: pip install 'simgin[tune-rules]'"
            ) from None
        self.optuna = optuna
        optuna.logging.set_verbosity(optuna.logging.WARNING)
        sequence = np.random.SeedSequence(settings.seed, spawn_key=(_OPTIMISER_BRANCH,))
        seed = int(sequence.generate_state(1, dtype=np.uint32)[0])
        with _quiet():
            sampler = optuna.samplers.TPESampler(seed=seed, constraints_func=_constraints if settings.keep else None)
            self.study = optuna.create_study(direction=settings.objective.direction, sampler=sampler)
        distributions = optuna.distributions
        self.distributions = {
            v.name: distributions.IntDistribution(v.low, v.high)
            if v.choices is None
            else distributions.CategoricalDistribution(list(v.choices))
            for v in settings.varied
        }
        start = settings.start_values
        if all(v.contains(start[v.name]) for v in settings.varied):
            self.study.enqueue_trial(start)

    def ask(self) -> Any:
        with _quiet():
            return self.study.ask(self.distributions)

    def tell(self, trial: Any, value: float, constraints: Sequence[float]) -> None:
        trial.set_user_attr("constraints", [float(c) for c in constraints] or [0.0])
        with _quiet():
            if math.isfinite(value):
                self.study.tell(trial, value)
            else:
                self.study.tell(trial, state=self.optuna.trial.TrialState.FAIL)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


# -- the result --------------------------------------------------------------------------------------------

CONTRACT_KEYS = (
    "objective",
    "players",
    "rules",
    "start_rules",
    "score",
    "score_ci",
    "start_score",
    "start_score_ci",
    "p_value",
    "evaluations",
    "games",
    "timing",
)
EXTRA_KEYS = (
    "found_rules",
    "found_score",
    "found_score_ci",
    "difference",
    "kept_start",
    "verdict",
    "keep",
    "unit",
    "switch_effects",
    "simplified",
)


@dataclass(frozen=True)
class TuneRulesResult:
    """What tune-rules found and how it measured it.

    ``rules`` are the varied switches' values to use: the found ones when the final measurement
    shows them better than the start, else the start's (``kept_start``). ``score`` is the
    objective of ``rules`` on the final, fresh deals with its 95% interval ``score_ci``;
    ``start_score`` the start's; ``p_value`` the two-sided p-value of the paired difference
    found - start (``difference``). ``found_*`` are the search's best whether kept or not;
    ``verdict`` says in words what happened. ``evaluations`` counts the search's trials,
    ``games`` every game (hand, with ``hands``) played, the final measurement included.
    """

    objective: str
    players: list[str]
    rules: dict[str, Any]
    start_rules: dict[str, Any]
    score: float
    score_ci: list[float]
    start_score: float
    start_score_ci: list[float]
    p_value: float
    evaluations: int
    games: int
    timing: dict[str, float]
    found_rules: dict[str, Any]
    found_score: float
    found_score_ci: list[float]
    difference: dict[str, float]
    kept_start: bool
    verdict: str
    keep: dict[str, dict[str, Any]]
    """Per ``--keep`` constraint: its value with interval for the found and the start rules, and whether met."""
    unit: str
    switch_effects: list[dict[str, Any]]
    """With two or more switches changed and the found rules better: per changed switch, the found rules with that
    switch reverted to the start, measured on the final's deals; ``difference`` = found - reverted in the
    objective's units, its interval and p-value, Holm over the switches, and whether the switch ``matters``
    (reverting it alone costs significantly, after Holm). Empty otherwise."""
    simplified: dict[str, Any] | None
    """The start rules with only the switches that matter changed, measured on the final's deals, against the start
    and against the found rules; ``adopted`` when they are significantly better than the start, not significantly
    worse than the found rules and meet every ``keep`` (then they are ``rules``). None when nothing to simplify."""
    settings: TuneRulesSettings = field(repr=False)
    trials: list[dict[str, Any]] = field(repr=False)
    """The search path: per trial its values, objective score, metrics and feasibility."""
    final: list[dict[str, Any]] = field(repr=False)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object (plain JSON values): the contract's keys, then the found rules and verdict."""
        from simgin.running.results import jsonable

        return jsonable({key: getattr(self, key) for key in (*CONTRACT_KEYS, *EXTRA_KEYS)})

    def to_frame(self) -> Any:
        """The search path as a DataFrame: one row per trial, the varied switches and metrics as columns."""
        import pandas as pd

        rows = []
        for trial in self.trials:
            row = {"trial": trial["trial"], **trial["values"], "score": trial["score"], "feasible": trial["feasible"]}
            row["best_so_far"] = trial["best_so_far"]
            row.update(trial["metrics"])
            rows.append(row)
        return pd.DataFrame(rows)

    def result_data(self) -> dict[str, Any]:
        """``result.json`` for ``simgin report``: the JSON keys plus the settings, the search path and the final."""
        from simgin import __version__
        from simgin.running.results import jsonable

        return jsonable(
            {
                "kind": KIND,
                "simgin_version": __version__,
                **self.to_json(),
                "settings": self.settings.to_dict(),
                "method": METHOD,
                "trials": self.trials,
                "final": self.final,
            }
        )


def _metrics(evaluation: RuleEvaluation) -> dict[str, float]:
    return {name: evaluation.point(name) for name in evaluation.sums}


def _cpu_seconds() -> float:
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


# -- the search ----------------------------------------------------------------------------------------------


def tune_rules(
    players: Sequence[str] | str,
    objective: str | Objective,
    vary: Sequence[str | Vary] | str,
    *,
    rules: Rules | str | None = None,
    keep: Sequence[str | Keep] | str = (),
    budget: int = DEFAULT_BUDGET,
    games: int | None = None,
    hands: int | None = None,
    final: int | None = None,
    seed: int = 0,
    workers: int | None = None,
    backend: str = "local",
    out: str | Path | None = None,
    progress: ProgressCallback | None = None,
    play_chunk: ChunkPlayer | None = None,
    notice: Callable[[str], None] | None = None,
    on_start: Callable[[], None] | None = None,
) -> TuneRulesResult:
    """Search the ``vary`` switches of ``rules`` for ``objective``, then measure found and start on fresh deals.

    ``players``: the first-named is the one ``skill`` is about; it meets each of the others
    (or itself when alone). ``objective``: ``'skill'``, ``'balance'`` or ``'length=N'``.
    ``vary``: ``'SWITCH=LOW..HIGH'``, ``'SWITCH=V1,V2,...'`` or a true/false or choice switch
    alone. ``keep``: constraints such as ``'dead_rate<=0.05'`` (:data:`METRICS`). ``budget``
    trials of ``games`` games (or ``hands`` hands) per opponent, all on the same deals;
    ``final`` games per rule set in the final measurement (default ten times ``games``).
    ``out``: a directory that records every evaluation; a rerun resumes.
    ``progress(evaluation, done, total)`` is called after each evaluation, recorded ones included;
    ``notice(message)`` hears of a recorded evaluation played again (damaged or edited); ``on_start()`` is
    called once every input is checked, before anything is played (the CLI's compile notice).
    ``play_chunk(config, chunk)``, a hook for tests and other simulators, replaces
    :func:`simgin.running.runner.run_chunk`: it returns an object with ``tally`` and ``seconds`` and must
    be picklable for more than one worker. Bad input raises :class:`TuneRulesError` (a ValueError)
    with a one-line message. See the module docstring for the method.
    """
    if isinstance(players, str):
        players = [players]
    if isinstance(vary, str):
        vary = [vary]
    if isinstance(keep, str):
        keep = [keep]
    settings = plan(
        players,
        objective,
        vary,
        rules=rules,
        keep=keep,
        budget=budget,
        games=games,
        hands=hands,
        final=final,
        seed=seed,
    )
    if workers is not None:
        try:
            runner.check_workers(workers, backend)
        except ValueError as error:
            raise TuneRulesError(f"--workers {workers}: {error}") from None
    workers = workers or os.cpu_count() or 1
    if backend not in runner.BACKENDS:
        raise TuneRulesError(f"--backend {backend!r}: choose from {', '.join(runner.BACKENDS)}")
    study = _Study(settings)
    directory = TuneRulesDirectory(out, settings, notice) if out is not None else None
    recorded = directory.recorded() if directory else {}
    if on_start:
        on_start()
    started, cpu_started = time.perf_counter(), _cpu_seconds()
    objective_ = settings.objective
    expected = settings.budget + 2
    history: list[RuleEvaluation] = []
    timing: dict[str, float] = {}

    def constraint_values(evaluation: RuleEvaluation) -> list[float]:
        return [k.violation(evaluation.point(k.metric)) for k in settings.keep]

    def feasible(evaluation: RuleEvaluation) -> bool:
        return all(k.met(evaluation.point(k.metric)) for k in settings.keep)

    def note(evaluation: RuleEvaluation) -> None:
        history.append(evaluation)
        if progress:
            progress(evaluation, len(history), max(expected, len(history)))

    def check_recorded(old: RuleEvaluation, values: Mapping[str, Any], pairs: int, seed_of_phase: int) -> None:
        if old.values != dict(values) or old.seed != seed_of_phase or old.pairs != pairs:
            raise TuneRulesError(
                f"{directory.path if directory else ''}: the recorded evaluation {old.key} played {old.values} "
                f"but the search now asks for {dict(values)}; the directory was written by another simgin or "
                "optuna version: use another --out directory"
            )

    with _Evaluator(settings, workers, backend, play_chunk) as evaluator:
        clock = time.perf_counter()
        search_seed = phase_seed(settings.seed, "search")
        search_pairs = settings.count // 2
        played: dict[str, RuleEvaluation] = {}
        search: list[RuleEvaluation] = []
        for first in range(0, settings.budget, TRIALS_PER_BATCH):
            batch = [study.ask() for _ in range(min(TRIALS_PER_BATCH, settings.budget - first))]
            done: dict[int, RuleEvaluation] = {}
            missing: list[tuple[int, dict[str, Any]]] = []
            for trial in batch:
                values = dict(trial.params)
                old = recorded.get(f"search-{trial.number:04d}")
                if old is not None:
                    check_recorded(old, values, search_pairs, search_seed)
                    done[trial.number] = old
                    played.setdefault(settings.key_of(values), old)
                    continue
                key = settings.key_of(values)
                if key not in played and all(settings.key_of(v) != key for _, v in missing):
                    missing.append((trial.number, values))
            fresh: dict[int, RuleEvaluation] = {}
            for evaluation in evaluator.evaluate("search", missing, settings.count, search_seed):
                if directory:
                    directory.save(evaluation)  # as each one finishes: Ctrl-C loses no finished evaluation
                fresh[evaluation.index] = evaluation
            for trial in batch:
                values = dict(trial.params)
                evaluation = done.get(trial.number)
                if evaluation is None:
                    evaluation = fresh.get(trial.number)
                    if evaluation is not None:
                        played[settings.key_of(values)] = evaluation
                    else:
                        source = played[settings.key_of(values)]
                        evaluation = RuleEvaluation(
                            **(source.to_dict() | {"index": trial.number, "values": values, "played": False})
                        )
                        evaluation.seconds = 0.0
                        if directory:
                            directory.save(evaluation)
                search.append(evaluation)
                note(evaluation)
                study.tell(trial, objective_score(evaluation, objective_)[0], constraint_values(evaluation))
        timing["search_seconds"] = time.perf_counter() - clock

        start_values = settings.start_values
        ranked = [e for e in search if feasible(e) and math.isfinite(objective_score(e, objective_)[0])]
        sign = -1.0 if objective_.direction == "maximize" else 1.0
        best = min(ranked, key=lambda e: sign * objective_score(e, objective_)[0]) if ranked else None
        found_values = dict(best.values) if best is not None else dict(start_values)
        same = settings.key_of(found_values) == settings.key_of(start_values)

        clock = time.perf_counter()
        final_seed = phase_seed(settings.seed, "final")
        chosen = [(0, found_values)] if same else [(0, found_values), (1, dict(start_values))]
        finals: dict[int, RuleEvaluation] = {}
        missing = []
        for index, values in chosen:
            old = recorded.get(f"final-{index:04d}")
            if old is None:
                missing.append((index, values))
            else:
                check_recorded(old, values, settings.final // 2, final_seed)
                finals[index] = old
        for evaluation in evaluator.evaluate("final", missing, settings.final, final_seed):
            if directory:
                directory.save(evaluation)
            finals[evaluation.index] = evaluation
        for index, _ in chosen:
            note(finals[index])
        timing["final_seconds"] = time.perf_counter() - clock

    found_final = finals[0]
    # Rules that play the same game as the start's are measured once; the start keeps its own values.
    start_final = finals[1] if not same else RuleEvaluation(**(finals[0].to_dict() | {"values": dict(start_values)}))
    found_score = objective_score(found_final, objective_)
    start_score = objective_score(start_final, objective_)
    if same:
        difference = {
            "difference": 0.0,
            "low": 0.0,
            "high": 0.0,
            "p_value": 1.0,
            "chunks": len(found_final.sizes[objective_.metric]),
        }
    else:
        difference = score_difference(found_final, start_final, objective_)
        difference.update(final_power(settings, search, found_values, start_values, difference))
    keep_report = {}
    for k in settings.keep:
        found_status, start_status = k.status(*found_final.metric(k.metric)), k.status(*start_final.metric(k.metric))
        keep_report[k.text] = {
            "found": list(found_final.metric(k.metric)),
            "start": list(start_final.metric(k.metric)),
            "found_met": found_status == "met",
            "start_met": start_status == "met",
            "found_status": found_status,
            "start_status": start_status,
        }
    kept_start, verdict = _verdict(
        settings, best is not None, same, found_score, start_score, difference, found_final, keep_report
    )
    chosen_score = start_score if kept_start else found_score
    chosen_rules = dict(start_values) if kept_start else dict(found_final.values)
    switch_effects: list[dict[str, Any]] = []
    simplified: dict[str, Any] | None = None
    changed = [name for name in start_values if found_final.values.get(name) != start_values[name]]
    if not kept_start and len(changed) >= 2:
        # Which switch did it (issue 32 item 7): each changed switch reverted alone, on the final's deals.
        clock = time.perf_counter()
        variants = [(2 + i, dict(found_final.values) | {name: start_values[name]}) for i, name in enumerate(changed)]
        with _Evaluator(settings, workers, backend, play_chunk) as evaluator:
            measured = _measure_final(evaluator, variants, settings, final_seed, recorded, directory, check_recorded)
            for evaluation in measured.values():
                note(evaluation)
            switch_effects = switch_effect_rows(changed, found_final, measured, [i for i, _ in variants], objective_)
            matters = [row["switch"] for row in switch_effects if row["matters"]]
            if 0 < len(matters) < len(changed):
                values = dict(start_values) | {name: found_final.values[name] for name in matters}
                index = 2 + len(changed)
                simple = _measure_final(
                    evaluator, [(index, values)], settings, final_seed, recorded, directory, check_recorded
                )[index]
                note(simple)
                simplified = simplified_row(values, simple, found_final, start_final, objective_, settings.keep)
        timing["switch_effects_seconds"] = time.perf_counter() - clock
        verdict += switch_effects_text(switch_effects, simplified)
        if simplified is not None and simplified["adopted"]:
            chosen_rules = dict(simplified["rules"])
            chosen_score = (simplified["score"], *simplified["score_ci"])
    trials = []
    best_so_far = math.nan
    for evaluation in search:
        value = objective_score(evaluation, objective_)
        ok = feasible(evaluation)
        if ok and math.isfinite(value[0]) and (not math.isfinite(best_so_far) or sign * value[0] < sign * best_so_far):
            best_so_far = value[0]
        trials.append(
            {
                "trial": evaluation.index,
                "values": evaluation.values,
                "score": value[0],
                "score_low": value[1],
                "score_high": value[2],
                "feasible": ok,
                "played": evaluation.played,
                "best_so_far": best_so_far,
                "metrics": _metrics(evaluation),
            }
        )
    final_rows = []
    for label, evaluation, score in (("found", found_final, found_score), ("start", start_final, start_score)):
        final_rows.append(
            {
                "candidate": label,
                "values": evaluation.values,
                "score": score[0],
                "score_low": score[1],
                "score_high": score[2],
                "pairs": evaluation.pairs,
                "seed": evaluation.seed,
                "metrics": {name: list(evaluation.metric(name)) for name in evaluation.sums},
            }
        )
    units = sum(2 * e.pairs * len(settings.opponents) for e in history if e.played)
    result = TuneRulesResult(
        objective=objective_.text,
        players=list(settings.players),
        rules=chosen_rules,
        start_rules=dict(start_values),
        score=chosen_score[0],
        score_ci=[chosen_score[1], chosen_score[2]],
        start_score=start_score[0],
        start_score_ci=[start_score[1], start_score[2]],
        p_value=difference["p_value"],
        evaluations=len(search),
        games=units,
        timing={
            "seconds": time.perf_counter() - started,
            "cpu_seconds": _cpu_seconds() - cpu_started,
            **timing,
            "worker_seconds": sum(e.seconds for e in history),
            "evaluations_resumed": sum(1 for e in history if e.key in recorded),
            "rule_sets_played": sum(1 for e in search if e.played),
        },
        found_rules=dict(found_final.values),
        found_score=found_score[0],
        found_score_ci=[found_score[1], found_score[2]],
        difference=difference,
        kept_start=kept_start,
        verdict=verdict,
        keep=keep_report,
        unit=settings.mode,
        switch_effects=switch_effects,
        simplified=simplified,
        settings=settings,
        trials=trials,
        final=final_rows,
    )
    if directory:
        from simgin.running.results import save_result

        save_result(directory.path, result.result_data())
    return result


def _measure_final(
    evaluator: Any,
    items: Sequence[tuple[int, dict[str, Any]]],
    settings: TuneRulesSettings,
    final_seed: int,
    recorded: Mapping[str, RuleEvaluation],
    directory: Any,
    check_recorded: Callable[..., None],
) -> dict[int, RuleEvaluation]:
    """The rule sets ``items`` (index, values) measured on the final's deals, read back from ``recorded`` when
    there, else played (and saved to ``directory``)."""
    out: dict[int, RuleEvaluation] = {}
    missing = []
    for index, values in items:
        old = recorded.get(f"final-{index:04d}")
        if old is None:
            missing.append((index, values))
        else:
            check_recorded(old, values, settings.final // 2, final_seed)
            out[index] = old
    for evaluation in evaluator.evaluate("final", missing, settings.final, final_seed):
        if directory:
            directory.save(evaluation)
        out[evaluation.index] = evaluation
    return out


def switch_effect_rows(
    changed: Sequence[str],
    found: RuleEvaluation,
    measured: Mapping[str, RuleEvaluation] | Mapping[int, RuleEvaluation],
    indices: Sequence[int],
    objective: Objective,
) -> list[dict[str, Any]]:
    """Per changed switch: found minus the found rules with that switch reverted (drop-one, paired on the final's
    deals), Holm over the switches; a switch ``matters`` when reverting it alone costs significantly (§8)."""
    from simgin.statistics.stats import holm

    rows = []
    for name, index in zip(changed, indices, strict=True):
        reverted = measured[index]
        d = score_difference(found, reverted, objective)
        rows.append(
            {
                "switch": name,
                "found": found.values[name],
                "start": reverted.values[name],
                "reverted_score": objective_score(reverted, objective)[0],
                "difference": d["difference"],
                "low": d["low"],
                "high": d["high"],
                "p_value": d["p_value"],
            }
        )
    adjusted = holm([row["p_value"] for row in rows])
    for row, p_holm in zip(rows, adjusted, strict=True):
        row["p_holm"] = float(p_holm)
        row["matters"] = bool(objective.better(row["difference"]) and p_holm < SIGNIFICANCE)
    return rows


def simplified_row(
    values: Mapping[str, Any],
    simplified: RuleEvaluation,
    found: RuleEvaluation,
    start: RuleEvaluation,
    objective: Objective,
    keep: Sequence[Keep],
) -> dict[str, Any]:
    """The simplified rules against the start and the found rules on the final's deals, and whether to adopt them."""
    score = objective_score(simplified, objective)
    against_start = score_difference(simplified, start, objective)
    against_found = score_difference(simplified, found, objective)
    keep_met = all(k.status(*simplified.metric(k.metric)) == "met" for k in keep)
    better = objective.better(against_start["difference"]) and against_start["p_value"] < SIGNIFICANCE
    not_worse = not (
        not objective.better(against_found["difference"])
        and against_found["difference"] != 0
        and against_found["p_value"] < SIGNIFICANCE
    )
    return {
        "rules": dict(values),
        "score": score[0],
        "score_ci": [score[1], score[2]],
        "against_start": against_start,
        "against_found": against_found,
        "keep_met": keep_met,
        "adopted": bool(better and not_worse and keep_met),
    }


def switch_effects_text(rows: Sequence[Mapping[str, Any]], simplified: Mapping[str, Any] | None) -> str:
    """What the drop-one measurement adds to the verdict, in words."""
    if not rows:
        return ""
    matters = [row["switch"] for row in rows if row["matters"]]
    idle = [row["switch"] for row in rows if not row["matters"]]
    if not idle:
        return f"; each changed switch matters on its own ({', '.join(matters)}: reverting any one costs)"
    text = f"; reverting {', '.join(idle)} alone costs nothing significant (after Holm)"
    if not matters:
        return text + ": each may stand in for another, so every found switch is kept"
    if simplified is None:
        return text
    shown = _values_text({name: simplified["rules"][name] for name in matters})
    if simplified["adopted"]:
        return text + f", so the rules keep only {shown}, which measure as well on the same deals"
    return text + (
        f", but the rules with only {shown} changed do not measure as well as the found ones on the same deals "
        "(the switches work together): keeping every found switch"
    )


#: The power a final measurement should have for the gain the search saw (issue 32 item 12).
WANTED_POWER = 0.8


def final_power(
    settings: TuneRulesSettings,
    search: Sequence[RuleEvaluation],
    found_values: Mapping[str, Any],
    start_values: Mapping[str, Any],
    difference: Mapping[str, float],
) -> dict[str, float]:
    """How well the final measurement could see the gain the search saw (issue 32 item 12).

    ``search_difference``: the found minus the start rules' objective on the search's own deals (an optimistic
    figure: the search picked the best of many, so the true gain is likely smaller); ``power``: the chance that a
    final measurement as precise as this one (its standard error, from its 95% interval) calls that gain
    significant (:func:`simgin.statistics.power.power_to_detect`); ``final_for_80_power``: the ``final`` games (or
    hands) per rule set and opponent that would give :data:`WANTED_POWER`. NaN where the search did not play
    both rule sets or the final's interval is unknown.
    """
    objective = settings.objective
    by_key = {settings.key_of(e.values): e for e in search}
    found_search, start_search = by_key.get(settings.key_of(found_values)), by_key.get(settings.key_of(start_values))
    nan = {"search_difference": math.nan, "power": math.nan, "final_for_80_power": math.nan}
    if found_search is None or start_search is None:
        return nan
    seen = objective_score(found_search, objective)[0] - objective_score(start_search, objective)[0]
    se = (difference["high"] - difference["low"]) / (2.0 * NormalDist().inv_cdf(0.975))
    power = power_to_detect(seen, se, SIGNIFICANCE)
    if not math.isfinite(power) or seen == 0:
        return nan | {"search_difference": seen}
    needed = settings.final * (detectable_difference(se, SIGNIFICANCE, WANTED_POWER) / abs(seen)) ** 2
    return {"search_difference": seen, "power": power, "final_for_80_power": float(2 * math.ceil(needed / 2))}


def _verdict(
    settings: TuneRulesSettings,
    searched: bool,
    same: bool,
    found: tuple[float, float, float],
    start: tuple[float, float, float],
    difference: Mapping[str, float],
    found_final: RuleEvaluation,
    keep_report: Mapping[str, Mapping[str, Any]],
) -> tuple[bool, str]:
    """Whether to keep the start rules, and why, in words.

    The found rules replace the start only when the fresh deals show them better on the objective (the
    difference in its direction with p < :data:`SIGNIFICANCE`) and they meet every ``keep`` constraint there,
    judged with the metric's 95% interval (:meth:`Keep.status`: the whole interval on the allowed side). A
    constraint whose interval reaches across the bound is uncertain, and the start is kept, saying so: more
    ``final`` games narrow the interval. A start that breaks a constraint is still kept otherwise (no gain is
    claimed that the objective's test does not show), and the verdict says which constraint it breaks.
    """
    kept, text = _decide(settings, searched, same, found, start, difference, found_final, keep_report)
    broken = [name for name, row in keep_report.items() if row["start_status"] == "broken"]
    uncertain = [name for name, row in keep_report.items() if row["start_status"] == "uncertain"]
    if kept and broken:
        text += f" (note: the start rules break --keep {', '.join(broken)} on fresh deals)"
    if kept and uncertain:
        text += f" (note: the fresh deals cannot show that the start rules meet --keep {', '.join(uncertain)})"
    return kept, text


def _decide(
    settings: TuneRulesSettings,
    searched: bool,
    same: bool,
    found: tuple[float, float, float],
    start: tuple[float, float, float],
    difference: Mapping[str, float],
    found_final: RuleEvaluation,
    keep_report: Mapping[str, Mapping[str, Any]],
) -> tuple[bool, str]:
    """The decision of :func:`_verdict` and its words, before the note on the start's constraints."""
    objective = settings.objective
    show = format_score
    if not searched:
        return True, "no searched rule set met the --keep constraints on the search's deals: keeping the start rules"
    if same and found_final.values == settings.start_values:
        return True, "the start rules scored best on the search's deals: keeping the start rules"
    if same:
        return True, (
            f"the best rules found, {_values_text(found_final.values)}, play the same game as the start rules "
            "(their switches differ only where they have no effect): keeping the start rules"
        )
    p = difference["p_value"]
    p_text = p_below(p)
    found_text = _values_text(found_final.values)
    scale, unit, digits = (1.0, " hands", 2) if objective.name == "length" else (100.0, " points", 1)
    change = f"{scale * difference['difference']:+.{digits}f}{unit}"
    if math.isfinite(difference["low"]) and math.isfinite(difference["high"]):
        change += f", 95% CI {scale * difference['low']:+.{digits}f} to {scale * difference['high']:+.{digits}f}"
    compared = (
        f"{objective.text} {show(found[0], objective)} with {found_text} vs {show(start[0], objective)} "
        f"at the start on fresh deals ({change}, {p_text})"
    )
    broken = [text for text, row in keep_report.items() if row["found_status"] == "broken"]
    if broken:
        return True, f"the found rules break --keep {', '.join(broken)} on fresh deals: {compared}; keeping the start"
    uncertain = [
        f"{text} ({_keep_interval(row['found'])})"
        for text, row in keep_report.items()
        if row["found_status"] == "uncertain"
    ]
    if uncertain:
        return True, (
            f"the fresh deals cannot show that the found rules meet --keep {', '.join(uncertain)}: the 95% interval "
            f"reaches across the bound (more --final games narrow it): {compared}; keeping the start rules"
        )
    significant = math.isfinite(p) and p < SIGNIFICANCE
    power = difference.get("power", math.nan)
    if not significant and math.isfinite(power) and power < WANTED_POWER:
        seen = f"{scale * difference['search_difference']:+.{digits}f}{unit}"
        return True, (
            f"inconclusive: the found rules are not significantly better on fresh deals, but the final measurement "
            f"had only {power:.0%} power to detect the {seen} the search saw (--final "
            f"{int(difference['final_for_80_power']):,} would give {WANTED_POWER:.0%}): {compared}; "
            "keeping the start rules"
        )
    if not objective.better(difference["difference"]):
        worse = "worse" if significant and difference["difference"] != 0 else "not better"
        return True, f"the found rules are {worse} on fresh deals: {compared}; keeping the start rules"
    if not significant:
        return True, (
            f"the found rules are not significantly better on fresh deals (p not below {SIGNIFICANCE}): "
            f"{compared}; keeping the start rules"
        )
    return False, f"the found rules are better: {compared}"


def _keep_interval(values: Sequence[float]) -> str:
    """A --keep metric's value and 95% interval, as the verdict quotes it."""
    value, low, high = values
    return f"{value:.4g}, 95% CI {low:.4g} to {high:.4g}"


def format_score(value: float, objective: Objective) -> str:
    """An objective's value as text: a percentage (skill), percentage points (balance) or hands (length)."""
    if value is None or not math.isfinite(value):
        return "-"
    if objective.name == "skill":
        return percent(value)
    if objective.name == "balance":
        return f"{100 * value:.1f} points from 50%"
    return f"{value:.2f} hands from {_number(objective.target or 0)}"


def _values_text(values: Mapping[str, Any]) -> str:
    return ", ".join(f"{name}={_show(value)}" for name, value in values.items())


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_GAMES",
    "METRICS",
    "Keep",
    "Objective",
    "RuleEvaluation",
    "TuneRulesDirectory",
    "TuneRulesError",
    "TuneRulesResult",
    "TuneRulesSettings",
    "Vary",
    "check_effects",
    "parse_keep",
    "parse_objective",
    "parse_vary",
    "plan",
    "tune_rules",
]

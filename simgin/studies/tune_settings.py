"""A strategy tune's settings (``simgin tune``): the parameters searched and their bounds, the budget and the deals
of each phase, checked, with the warning for a budget too small to learn from, and the plan they give."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from simgin.game.rules import Rules
from simgin.players.registry import Player, did_you_mean, lookup, resolve, split_spec
from simgin.running import runner

DEFAULT_BUDGET = 128
"""Candidate evaluations of the search: 16 generations of 8 for a strategy with 5 tunable parameters."""


DEFAULT_GAMES = 400
"""Games per opponent in an evaluation of the first generation (the last plays twice as many)."""


GROWTH = 2.0
"""The last generation's sample divided by the first's (linear in between)."""


SELECT_FACTOR = 4
"""The selection round plays this many times the first generation's sample per finalist."""


FINAL_FACTOR = 10
"""The final measurement plays this many times the first generation's sample per candidate, by default."""


BATCHES = 40
"""Chunks per evaluation at most: the batches of the batch-means intervals."""


METHOD = "cma-es, common random numbers per generation, samples x2, re-evaluated finalists (simgin tune v1)"


class TuneError(ValueError):
    """Bad input or a tune directory that does not match: a one-line message naming the bad value."""


@dataclass(frozen=True)
class Dimension:
    """One tuned parameter: its search bounds and whether it takes whole numbers only."""

    name: str
    low: float
    high: float
    integer: bool = False

    @property
    def decimals(self) -> int:
        """Digits kept after the point: a thousandth of the range, rounded to a power of ten."""
        return max(0, 3 - round(math.log10(self.high - self.low)))

    def snap(self, value: float) -> float:
        """The nearest value inside the bounds on the dimension's grid (whole numbers, or a thousandth of the
        range): what is evaluated is exactly what the printed spec says."""
        value = min(max(float(value), self.low), self.high)
        if self.integer:
            return float(min(max(round(value), math.ceil(self.low)), math.floor(self.high)))
        snapped = float(f"{value:.{self.decimals}f}")
        return min(max(snapped, self.low), self.high)


def format_value(value: float, integer: bool = False) -> str:
    """A parameter value as a spec writes it: whole numbers without a point, others as Python's shortest repr."""
    value = float(value)
    if integer or value.is_integer():
        return str(round(value))
    return repr(value)


def parse_bound(text: str) -> tuple[str, float, float]:
    """``'potential=0..3'`` -> ``('potential', 0.0, 3.0)``, or a one-line error.

    >>> parse_bound("potential=0..2.5")
    ('potential', 0.0, 2.5)
    """
    name, sep, rest = text.partition("=")
    low_text, dots, high_text = rest.partition("..")
    if not sep or not dots or not name.strip():
        raise TuneError(f"bad --bound {text!r}: expected NAME=LOW..HIGH, e.g. potential=0..3")
    try:
        low, high = float(low_text), float(high_text)
    except ValueError:
        raise TuneError(f"bad --bound {text!r}: LOW and HIGH must be numbers, e.g. potential=0..3") from None
    if not (math.isfinite(low) and math.isfinite(high)):
        raise TuneError(f"bad --bound {text!r}: LOW and HIGH must be finite")
    return name.strip(), low, high


@dataclass(frozen=True)
class TuneSettings:
    """Everything that determines a tune's result (workers and backend do not)."""

    strategy: str
    """The strategy's name or ``module:Class`` / ``file.py:Class`` target, without parameters."""
    start: tuple[tuple[str, float], ...]
    """Every declared parameter with its start value, in declaration order."""
    integers: tuple[str, ...]
    """The parameters declared whole-numbered (written without a point in specs)."""
    dimensions: tuple[Dimension, ...]
    against: tuple[str, ...]
    rules: Rules
    mode: str
    """``'games'`` (share of games won) or ``'hands'`` (net points per hand)."""
    count: int
    """Games (or hands) per opponent in an evaluation of the first generation."""
    final: int
    """Games (or hands) per opponent and candidate in the final measurement."""
    budget: int
    popsize: int
    seed: int
    on_illegal: str = "stop"
    """What an illegal move does in every evaluation (:attr:`simgin.running.runner.RunConfig.on_illegal`)."""
    adjust_luck: bool = False
    """Rank and measure candidates by their luck-adjusted net points per hand (``mode='hands'``; issue 35,
    docs/STATISTICS.md §13): the same ranking from fewer hands; the final phase keeps the plain figures beside."""

    @property
    def generations(self) -> int:
        return math.ceil(self.budget / self.popsize)

    def search_pairs(self, generation: int) -> int:
        """Duplicate deal pairs per opponent in an evaluation of ``generation`` (growing linearly)."""
        share = generation / (self.generations - 1) if self.generations > 1 else 0.0
        return max(1, round(self.count // 2 * (1 + (GROWTH - 1) * share)))

    @property
    def select_pairs(self) -> int:
        return SELECT_FACTOR * (self.count // 2)

    @property
    def final_pairs(self) -> int:
        return self.final // 2

    @property
    def start_values(self) -> dict[str, float]:
        return dict(self.start)

    def spec(self, values: Mapping[str, float]) -> str:
        """The full spec of a candidate: every parameter written out, tuned ones from ``values``."""
        merged = self.start_values | dict(values)
        text = ",".join(f"{name}={format_value(merged[name], name in self.integers)}" for name, _ in self.start)
        return f"{self.strategy}:{text}"

    def all_values(self, values: Mapping[str, float]) -> dict[str, float | int]:
        """Every parameter's value of a candidate (whole-numbered ones as int)."""
        merged = self.start_values | dict(values)
        return {name: int(merged[name]) if name in self.integers else float(merged[name]) for name, _ in self.start}

    def config(self, spec: str, opponent: str, pairs: int, seed: int) -> runner.RunConfig:
        """The runner settings of one candidate against one opponent: duplicate deals, at most BATCHES chunks."""
        count = 2 * pairs
        return runner.RunConfig(
            (spec, opponent),
            self.rules,
            hands=count if self.mode == "hands" else None,
            games=count if self.mode == "games" else None,
            seed=seed,
            duplicate=True,
            chunk_units=math.ceil(pairs / BATCHES),
            on_illegal=self.on_illegal,
            adjust_luck=self.adjust_luck,
        )

    def to_dict(self) -> dict[str, Any]:
        """The settings as plain JSON (what a tune directory records and a rerun must match)."""
        data = {
            "strategy": self.strategy,
            "start": dict(self.start),
            "integers": list(self.integers),
            "dimensions": [asdict(dimension) for dimension in self.dimensions],
            "against": list(self.against),
            "rules": self.rules.to_dict(),
            "mode": self.mode,
            "count": self.count,
            "final": self.final,
            "budget": self.budget,
            "popsize": self.popsize,
            "seed": self.seed,
            "method": METHOD,
        }
        if self.on_illegal != "stop":  # a tune of 'stop' keeps the settings it had before the option
            data["on_illegal"] = self.on_illegal
        if self.adjust_luck:  # likewise a tune without luck adjustment
            data["adjust_luck"] = True
        return json.loads(json.dumps(data))


#: Below these a tune warns that its budget is too small (issue 32 item 19): CMA-ES moves its mean and adapts its
#: step size once per generation, so fewer than five generations leave the search near its start, and it needs
#: several samples per parameter to learn which directions pay (its covariance learns at a rate of about 2/n²).
MIN_GENERATIONS = 5


MIN_EVALUATIONS_PER_PARAMETER = 5


class TuneBudgetWarning(UserWarning):
    """The budget is too small for the number of parameters tuned (:func:`budget_warning`)."""


def budget_warning(settings: TuneSettings) -> str | None:
    """Why ``settings``' budget is too small for a search to move far from its start, or None.

    Too small: fewer than :data:`MIN_GENERATIONS` generations, or fewer than :data:`MIN_EVALUATIONS_PER_PARAMETER`
    evaluations per tuned parameter. The run still goes ahead: a tune never claims a gain its final
    measurement does not show, so a small budget most likely returns the start.
    """
    count = len(settings.dimensions)
    enough = max(MIN_GENERATIONS * settings.popsize, MIN_EVALUATIONS_PER_PARAMETER * count)
    if settings.budget >= enough:
        return None
    return (
        f"--budget {settings.budget} is small for {count} parameter(s): {settings.generations} generation(s) of "
        f"{settings.popsize}; CMA-ES needs at least {MIN_GENERATIONS} generations and {MIN_EVALUATIONS_PER_PARAMETER} "
        f"evaluations per parameter to move far from the start, here --budget {enough} or more "
        "(or fewer parameters with --params), so the start will most likely be kept"
    )


def default_popsize(dimensions: int) -> int:
    """CMA-ES's default population size, 4 + floor(3 ln n)."""
    return 4 + math.floor(3 * math.log(max(dimensions, 1)))


def _same_strategy(a: Player, b: Player) -> bool:
    if a.info.factory is not None or b.info.factory is not None:
        return a.info.factory is b.info.factory
    return a.info.name == b.info.name


def plan(
    strategy: str,
    against: Sequence[str],
    *,
    rules: Rules | str | None = None,
    params: Sequence[str] | None = None,
    bounds: Mapping[str, tuple[float, float]] | None = None,
    start: str | None = None,
    budget: int = DEFAULT_BUDGET,
    games: int | None = None,
    hands: int | None = None,
    final: int | None = None,
    popsize: int | None = None,
    seed: int = 0,
    on_illegal: str = "stop",
    adjust_luck: bool = False,
) -> TuneSettings:
    """Check a tune's input and fix its settings, or raise a one-line :class:`TuneError`.

    Tunable by default: every numeric parameter with a lower and an upper bound (declared,
    or given in ``bounds``, which may also narrow declared ones), but for the ones that buy
    strength with time (``Parameter.cost``: samples, playouts), which only ``params`` selects.
    A parameter without both bounds cannot be searched and is refused when ``params`` names it.
    """
    if isinstance(rules, str):  # a preset name, as every run function takes (issue 32 item 17)
        try:
            rules = Rules.preset(rules)
        except ValueError as error:
            raise TuneError(str(error)) from None
    target, given = split_spec(strategy)
    if given:
        raise TuneError(
            f"STRATEGY {strategy!r} carries parameters: name the strategy alone and give the start with --start"
        )
    info = lookup(target)
    declared = {parameter.name: parameter for parameter in info.parameters}
    if not declared:
        raise TuneError(f"strategy {info.name!r} declares no Parameters, so it has nothing to tune")
    base = resolve(target)
    if start is not None:
        started = resolve(start)
        if not _same_strategy(started, base):
            raise TuneError(f"--start {start!r} is a spec of strategy {started.info.name!r}, not of {info.name!r}")
    else:
        started = base
    start_values = {name: float(started.values[name]) for name in declared}
    bounds = dict(bounds or {})
    for name, (low, high) in bounds.items():
        if name not in declared:
            raise TuneError(
                f"--bound {name}: strategy {info.name!r} has no such parameter{did_you_mean(name, declared)}: "
                f"choose from {', '.join(declared)}"
            )
        parameter = declared[name]
        for value in (low, high):
            try:
                parameter.check(value)
            except ValueError as error:
                raise TuneError(f"--bound {name}={low:g}..{high:g}: {error} (the declared bounds)") from None
        if not low < high:
            raise TuneError(f"--bound {name}={low:g}..{high:g}: LOW must be below HIGH")

    def box(name: str) -> tuple[float | None, float | None]:
        parameter = declared[name]
        return bounds.get(name, (parameter.low, parameter.high))

    if params is None:
        names = [
            name
            for name in declared
            if not declared[name].cost and None not in box(name) and box(name)[0] < box(name)[1]  # type: ignore[operator]
        ]
        if not names:
            raise TuneError(
                f"strategy {info.name!r} has no parameter with both bounds to tune: "
                "give some with --bound NAME=LOW..HIGH"
            )
    else:
        names = list(params)
        if not names:
            raise TuneError("--params is empty: name at least one parameter")
        for name in names:
            if name not in declared:
                raise TuneError(
                    f"unknown parameter {name!r}{did_you_mean(name, declared)} of strategy {info.name!r}: "
                    f"choose from {', '.join(declared)}"
                )
            if names.count(name) > 1:
                raise TuneError(f"--params names {name!r} twice")
            low, high = box(name)
            if low is None or high is None:
                missing = "bounds" if low is None and high is None else ("lower" if low is None else "upper") + " bound"
                raise TuneError(
                    f"parameter {name!r} of strategy {info.name!r} has no {missing}, so it cannot be tuned: "
                    f"give both with --bound {name}=LOW..HIGH"
                )
            if not low < high:
                raise TuneError(
                    f"parameter {name!r} of strategy {info.name!r} has one allowed value, {low:g}: nothing to tune"
                )
        names = [name for name in declared if name in names]  # declaration order
        stray = sorted(set(bounds) - set(names))
        if stray:
            raise TuneError(f"--bound {stray[0]}: the parameter is not in --params")
    dimensions = []
    for name in names:
        low, high = box(name)
        assert low is not None and high is not None
        dimension = Dimension(name, float(low), float(high), declared[name].integer)
        if not dimension.low <= start_values[name] <= dimension.high:
            raise TuneError(
                f"the start value {name}={format_value(start_values[name])} lies outside the search bounds "
                f"{dimension.low:g}..{dimension.high:g}: change --start or --bound"
            )
        dimensions.append(dimension)
    against = tuple(against)
    if not against:
        raise TuneError("give at least one opponent with --against SPEC")
    for opponent in against:
        resolve(opponent)
    if isinstance(budget, bool) or budget < 1:
        raise TuneError(f"--budget {budget}: must be at least 1 candidate evaluation")
    if games is not None and hands is not None:
        raise TuneError("give --games or --hands, not both")
    mode = "hands" if hands is not None else "games"
    if not isinstance(adjust_luck, bool):
        raise TuneError(f"adjust_luck={adjust_luck!r}: give True or False")
    if adjust_luck and mode != "hands":
        raise TuneError(
            "--adjust-luck: applies to tunes of hands (--hands: net points per hand), not to games (a game's result "
            "is not a sum of hands' points)"
        )
    count = hands if hands is not None else (games if games is not None else DEFAULT_GAMES)
    for label, value in ((f"--{mode}", count), ("--final", final)):
        if value is not None and (value < 2 or value % 2):
            raise TuneError(f"{label} {value}: must be an even number >= 2 (duplicate deals come in pairs)")
    popsize = default_popsize(len(dimensions)) if popsize is None else popsize
    if popsize < 2:
        raise TuneError(f"--popsize {popsize}: must be at least 2")
    if seed < 0:
        raise TuneError(f"--seed {seed}: must be >= 0")
    return TuneSettings(
        strategy=target,
        start=tuple((name, start_values[name]) for name in declared),
        integers=tuple(name for name, parameter in declared.items() if parameter.integer),
        dimensions=tuple(dimensions),
        against=against,
        rules=rules or Rules(),
        mode=mode,
        count=count,
        final=final if final is not None else FINAL_FACTOR * count,
        budget=budget,
        popsize=popsize,
        seed=seed,
        on_illegal=on_illegal,
        adjust_luck=adjust_luck,
    )

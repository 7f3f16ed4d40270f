"""A rule search's settings (``simgin tune-rules``): the budget, the deals, the objective, the constraints and the
searched switches, checked, and the plan they give before anything is played."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from simgin.game.rules import Rules
from simgin.players.registry import resolve
from simgin.running import runner
from simgin.studies.rule_space import (
    METRICS,
    Keep,
    Objective,
    TuneRulesError,
    Vary,
    check_effects,
    parse_keep,
    parse_objective,
    parse_vary,
)

DEFAULT_BUDGET = 40
"""Trials of the search (rule sets asked of TPE, repeats included)."""


DEFAULT_GAMES = 200
"""Games (or hands) per opponent in a trial of the search."""


FINAL_FACTOR = 10
"""The final measurement plays this many times the search's sample per rule set, by default."""


BATCHES = 40
"""Chunks per evaluation: ``chunk_units`` is the pairs divided by this, rounded down, so an evaluation of
``n`` deal pairs has at least ``min(n, 40)`` chunks (the units of its intervals and paired test)."""


METHOD = "optuna TPE (seeded, constraints_func), one set of search deals, fresh final deals (simgin tune-rules v1)"


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
    adjust_luck: bool = False
    """Judge the first-named player's ``win_rate`` (the ``skill`` objective, ``--keep win_rate``) luck-adjusted
    (hands only; issue 35, docs/STATISTICS.md §13); ``plain_win_rate`` keeps the plain one beside it."""

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
            adjust_luck=self.adjust_luck,
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
        if self.adjust_luck:  # a search without it keeps the settings it had before the option
            data["adjust_luck"] = True
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
    adjust_luck: bool = False,
) -> TuneRulesSettings:
    """Check a tune-rules input and fix its settings, or raise a one-line :class:`TuneRulesError`."""
    if not isinstance(adjust_luck, bool):
        raise TuneRulesError(f"adjust_luck={adjust_luck!r}: give True or False")
    if adjust_luck and hands is None:
        raise TuneRulesError(
            "--adjust-luck: applies to searches of hands (--hands), not to games (a game's result is not a sum of "
            "hands' points)"
        )
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
        adjust_luck=adjust_luck,
    )

"""``simgin strategies`` as a library function: every strategy a name selects, or one spec resolved.

:func:`describe_strategies` returns a frozen :class:`StrategiesListing`, whose ``to_json()`` is exactly
the command's ``--json`` object and whose ``to_frame()`` is a pandas table labelled by the strategies'
(or the parameters') names. The command prints the same listing as text.

It is called ``describe_strategies``, not ``strategies``: ``simgin.strategies`` is the installed
package of the built-in strategy modules (``strategies/``), which a function cannot replace.

>>> listing = describe_strategies("heuristic:knock=7")
>>> listing.player.given, listing.to_json()["values"]["knock"]
({'knock': 7.0}, 7.0)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from simgin.base.strict_json import jsonable
from simgin.game.rules import Rules
from simgin.players import registry
from simgin.players.registry import Player, StrategyInfo, resolve
from simgin.players.rules_reading import rules_reading

if TYPE_CHECKING:
    import pandas as pd

#: The rules-aware bots whose reading plays games (``typical knocks``, :mod:`simgin.players.rules_reading`).
PLAYING_BOTS = ("heuristic", "opponent")


def strategy_json(info: StrategyInfo) -> dict[str, Any]:
    """One strategy as ``simgin strategies --json`` lists it: name, kind, description, source, whether it
    has a plain-Python twin, and its parameters with their defaults, docs and bounds."""
    return {
        "name": info.name,
        "kind": info.kind,
        "description": info.description,
        "source": info.source,
        "python_twin": info.twin is not None,
        "parameters": [
            {"name": p.name, "default": p.default, "doc": p.doc, "low": p.low, "high": p.high, "integer": p.integer}
            for p in info.parameters
        ],
    }


@dataclass(frozen=True)
class StrategiesListing:
    """What ``simgin strategies [SPEC] [--rules P] [--set ...]`` shows.

    Without a spec: ``strategies``, every strategy a bare name selects (the built-in ladder, weakest
    first, then plug-ins). With one: the resolved ``player`` (its info, the values the spec gives every
    parameter and the ones it set), and with ``rules`` what a rules-aware built-in reads from them
    (``reading``: (what, value) rows, empty for a bot that reads nothing beyond the moves allowed).
    """

    strategies: tuple[StrategyInfo, ...] = field(default=(), repr=False)
    player: Player | None = None
    rules: Rules | None = None
    reading: tuple[tuple[str, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The ``simgin strategies [SPEC] --json`` object."""
        if self.player is None:
            return jsonable({"strategies": [strategy_json(info) for info in self.strategies]})
        player = self.player
        data = {**strategy_json(player.info), "spec": player.spec, "values": player.values, "given": player.given}
        if self.rules is not None:
            data |= {"rules": self.rules.to_dict(), "rules_reading": dict(self.reading)}
        return jsonable(data)

    def to_frame(self) -> pd.DataFrame:
        """Without a spec, one row per strategy, indexed by its name: kind, description, source, python_twin
        and its parameters' defaults (``key=value, ...``). With one, one row per parameter, indexed by its
        name: the value, whether the spec set it, the default, bounds and meaning."""
        import pandas as pd

        if self.player is None:
            rows = [
                {
                    "kind": info.kind,
                    "description": info.description,
                    "source": info.source,
                    "python_twin": info.twin is not None,
                    "parameters": ", ".join(f"{p.name}={p.default}" for p in info.parameters),
                }
                for info in self.strategies
            ]
            return pd.DataFrame(rows, index=pd.Index([info.name for info in self.strategies], name="strategy"))
        declared = {p.name: p for p in self.player.info.parameters}
        rows = []
        for name, value in self.player.values.items():
            parameter = declared.get(name)
            rows.append(
                {
                    "value": value,
                    "given": name in self.player.given,
                    "default": None if parameter is None else parameter.default,
                    "low": None if parameter is None else parameter.low,
                    "high": None if parameter is None else parameter.high,
                    "meaning": "" if parameter is None else parameter.doc,
                }
            )
        return pd.DataFrame(rows, index=pd.Index(list(self.player.values), name="parameter"))


def describe_strategies(
    spec: str | None = None,
    *,
    rules: Rules | str | None = None,
    notice: Callable[[str], None] | None = None,
) -> StrategiesListing:
    """``simgin strategies``: without ``spec``, every strategy with its kind, description and parameters;
    with one (``"heuristic:knock=7"``, ``"mypkg.bots:MyBot"``, ``"exec:..."``), the values it gives every
    parameter and, with ``rules`` (a :class:`~simgin.game.rules.Rules` or a preset name), what the
    rules-aware built-ins read from them; for ``heuristic`` and ``opponent`` that plays 100 games
    against itself (:mod:`simgin.players.rules_reading`). ``notice(message)`` is told when that first
    compiles the kernels (10-30 seconds). A bad spec or preset, or ``rules`` without ``spec``, is a
    ValueError naming it."""
    if isinstance(rules, str):
        rules = Rules.preset(rules)
    if spec is None:
        if rules is not None:
            raise ValueError("rules go with a spec: describe_strategies('opponent', rules='oklahoma')")
        return StrategiesListing(strategies=tuple(registry.available()))
    player = resolve(spec)
    if rules is None:
        return StrategiesListing(player=player)
    if notice is not None and player.info.kind == "compiled" and player.info.name in PLAYING_BOTS:
        from simgin.running import runner

        if not runner.kernels_cached("games"):
            notice("compiling kernels, first run only (10-30 seconds)...")
    return StrategiesListing(player=player, rules=rules, reading=tuple(rules_reading(player, rules)))

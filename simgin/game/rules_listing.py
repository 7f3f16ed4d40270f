"""``simgin rules`` as a library function: the presets and switches, or one rule set's values.

:func:`describe_rules` returns a frozen :class:`RulesListing`, whose ``to_json()`` is exactly the
command's ``--json`` object and whose ``to_frame()`` is a pandas table labelled by the switches'
names. The command prints the same listing as text.

It is called ``describe_rules``, not ``rules``: ``rules`` is the name of an argument of every run
function (``simgin.match(..., rules="eaai")``) and of the rule set in most scripts, and
``simgin.game.rules`` is the module of :class:`~simgin.game.rules.Rules`; a ``simgin.rules``
function would be shadowed by, or shadow, all of them.

>>> listing = describe_rules("oklahoma", settings=["knock_limit=5"])
>>> listing.changed["oklahoma"], sorted(listing.overridden)
(True, ['knock_limit'])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from simgin.game.rules import TABLES, Rules

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class RulesListing:
    """What ``simgin rules`` shows.

    Without a preset, settings or table (``overview``): every preset's values (``presets``) and every
    switch with its type, default and meaning (``switches``). Otherwise one rule set: the ``preset`` it
    starts from, the ``settings`` applied (``key=value`` text), the ``table`` it is read for, its
    values (``rules``), the switches that differ from standard (``changed``) and those set but without
    effect, with why (``overridden``, :meth:`Rules.overridden`).
    """

    overview: bool
    switches: tuple[dict[str, Any], ...] = field(repr=False)
    presets: dict[str, dict[str, Any]] = field(repr=False)
    preset: str | None = None
    settings: tuple[str, ...] = ()
    table: str | None = None
    rules: Rules | None = None
    changed: dict[str, Any] = field(default_factory=dict)
    overridden: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The ``simgin rules [PRESET] [--set ...] [--table ...] --json`` object."""
        if self.overview:
            return {"presets": self.presets, "switches": [dict(row) for row in self.switches]}
        assert self.rules is not None
        return {
            "preset": self.preset,
            "settings": list(self.settings),
            "table": self.table,
            "rules": self.rules.to_dict(),
            "changed": dict(self.changed),
            "overridden": dict(self.overridden),
        }

    def to_frame(self) -> pd.DataFrame:
        """One row per switch, indexed by its name.

        Overview: ``type``, ``default``, ``meaning`` and one column per preset with its value. One rule
        set: ``value``, ``changed`` (differs from standard), ``overridden`` (why it has no effect, or
        None) and ``meaning``.
        """
        import pandas as pd

        meaning = {row["name"]: row["doc"] for row in self.switches}
        if self.overview:
            rows = [
                {"type": row["type"], "default": row["default"], "meaning": row["doc"]}
                | {name: values[row["name"]] for name, values in self.presets.items()}
                for row in self.switches
            ]
            return pd.DataFrame(rows, index=pd.Index([row["name"] for row in self.switches], name="switch"))
        assert self.rules is not None
        values = self.rules.to_dict()
        rows = [
            {
                "value": value,
                "changed": name in self.changed,
                "overridden": self.overridden.get(name),
                "meaning": meaning[name],
            }
            for name, value in values.items()
        ]
        return pd.DataFrame(rows, index=pd.Index(list(values), name="switch"))


def describe_rules(
    preset: str | None = None,
    *,
    settings: Mapping[str, Any] | Iterable[str] = (),
    table: str | None = None,
) -> RulesListing:
    """``simgin rules``: without arguments, every preset and switch; with a ``preset`` (default standard),
    ``settings`` (``{"knock_limit": 7}`` or ``["knock_limit=7"]``, as ``--set``) or a ``table`` (pairs,
    three, teams), that rule set's values, what differs from standard and what is set without effect
    there. Bad input (an unknown preset, switch or table, a bad value, a combination the table cannot
    play) is a ValueError naming it."""
    if isinstance(settings, str):
        raise ValueError(f"settings={settings!r}: give a list of KEY=VALUE texts or a dict, not one text")
    texts = _setting_texts(settings)
    items = [(key.strip(), value) for key, _, value in (text.partition("=") for text in texts)]
    switches = tuple(dict(row) for row in Rules.describe())
    presets = {name: Rules.preset(name).to_dict() for name in Rules.PRESETS}
    if preset is None and not items and table is None:
        return RulesListing(overview=True, switches=switches, presets=presets)
    name = "standard" if preset is None else preset
    table = table or "pairs"
    if table not in TABLES:
        raise ValueError(f"table={table!r}: choose from {', '.join(TABLES)}")
    rules = Rules.preset(name).with_settings(dict(items))
    standard = Rules().to_dict()
    changed = {key: value for key, value in rules.to_dict().items() if value != standard[key]}
    return RulesListing(
        overview=False,
        switches=switches,
        presets=presets,
        preset=name,
        settings=texts,
        table=table,
        rules=rules,
        changed=changed,
        overridden=rules.overridden(table),
    )


def _setting_texts(settings: Mapping[str, Any] | Iterable[str]) -> tuple[str, ...]:
    """The settings as the command records them: ``key=value`` texts as given (``--set``), or a mapping's
    items written so (``true``/``false`` for a bool); a text without ``=`` or a key is a ValueError."""
    if isinstance(settings, Mapping):
        return tuple(
            f"{key}={('true' if value else 'false') if isinstance(value, bool) else value}"
            for key, value in settings.items()
        )
    texts = tuple(str(item) for item in settings)
    for text in texts:
        key, sep, _ = text.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"bad setting {text!r}: expected KEY=VALUE, e.g. gin_bonus=25")
    return texts

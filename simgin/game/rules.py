"""The rule switches of a two-player game, in one frozen dataclass (RULES.md R1-R23, V1-V14).

Every choice that other engines hide in code is a named field here, with the rule id it
comes from. Named presets replace ``if variant == ...`` branches:

>>> Rules.preset("eaai").gin_bonus
25
>>> import dataclasses
>>> dataclasses.replace(Rules(), knock_limit=7).knock_limit
7
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

import numpy as np

DEALER_ROTATIONS = ("loser", "winner", "alternate")
SHUTOUT_RULES = ("bonus", "double", "none")
#: Table formats: two players ('pairs'), three players (V11), two partnerships (V12).
TABLES = ("pairs", "three", "teams")
#: What each table format is called in messages.
TABLE_NAMES = {"pairs": "two-player", "three": "three-player (V11)", "teams": "partnership (V12)"}
#: Switches that only matter when hands are played in games (R20-R23, V8-V10, V12, V14).
GAME_SWITCHES = (
    "box_bonus",
    "game_bonus",
    "shutout",
    "shutout_bonus",
    "target",
    "dealer_rotation",
    "oklahoma_extra_boxes",
    "hollywood",
    "team_target",
)


#: The largest value of a points switch (bonuses, targets). Scores are summed in 64-bit integers over at
#: most 1,000 hands a game, with doublings; this bound keeps every total far from overflow, and is far above
#: any house rule (the rule book's largest value is the 200-point shutout bonus, R21).
MAX_POINTS = 10_000


def _rule(default: Any, doc: str, choices: tuple[str, ...] | None = None) -> Any:
    """A rule switch with its default, a one-line doc citing the rule id and, for a named choice, its choices."""
    return field(default=default, metadata={"doc": doc} if choices is None else {"doc": doc, "choices": choices})


@dataclass(frozen=True)
class Rules:
    """All switches of RULES.md for two players; the defaults are the rule book's standard game."""

    knock_limit: int = _rule(10, "R12/V1: highest deadwood a player may knock with (0 = straight gin).")
    gin_bonus: int = _rule(20, "R19/V2: bonus for going gin.")
    undercut_bonus: int = _rule(10, "R18/V3: bonus for undercutting the knocker.")
    undercut_on_tie: bool = _rule(True, "R18: a tie at a knock is an undercut (off: the knocker wins 0 points).")
    box_bonus: int = _rule(20, "R22/V4: points per hand won, added at the end of the game.")
    game_bonus: int = _rule(100, "R21: bonus for winning the game.")
    shutout: str = _rule(
        "bonus",
        "R21/V8: 'bonus' (game bonus becomes shutout_bonus), 'double' (winner's whole score doubled) or 'none'.",
        SHUTOUT_RULES,
    )
    shutout_bonus: int = _rule(200, "R21: the game bonus after a shutout when shutout='bonus'.")
    target: int = _rule(100, "R20: a game ends when a player's total reaches this.")
    rediscard_taken_card: bool = _rule(False, "R10/V6: the card just taken from the pile may be discarded again.")
    fiftieth_card_action: bool = _rule(
        False, "V7: with two stock cards left, the other player may take the last discard to knock."
    )
    eleven_card_start: bool = _rule(False, "V5: non-dealer gets 11 cards and no card is turned up.")
    dealer_rotation: str = _rule(
        "loser", "V10: who deals the next hand: 'loser', 'winner' or 'alternate'.", DEALER_ROTATIONS
    )
    big_gin: bool = _rule(False, "V13: 11 melded cards after the draw may go big gin without discarding.")
    big_gin_bonus: int = _rule(31, "V13: bonus for big gin.")
    oklahoma: bool = _rule(False, "V9: the first up card sets the knock limit (face cards 10).")
    oklahoma_spade_double: bool = _rule(True, "V9: a spade up card doubles the hand's score, bonuses included.")
    oklahoma_ace_gin_only: bool = _rule(False, "V9: an ace up card means only gin may end the hand.")
    oklahoma_extra_boxes: bool = _rule(
        False, "V9: an undercut earns 1 extra box, a gin 2 (doubled on a spade up card)."
    )
    hollywood: bool = _rule(False, "V14: three games are scored at once (Hollywood scoring, two players only).")
    team_target: int = _rule(125, "V12: a partnership game ends when a team's total reaches this.")

    PRESETS: ClassVar[dict[str, dict[str, Any]]] = {
        "standard": {},
        "oklahoma": {"oklahoma": True, "target": 150},
        "eaai": {
            "gin_bonus": 25,
            "undercut_bonus": 25,
            "box_bonus": 0,
            "game_bonus": 0,
            "shutout": "none",
            "dealer_rotation": "alternate",
        },
        "modern": {
            "gin_bonus": 25,
            "undercut_bonus": 25,
            "box_bonus": 25,
            "big_gin": True,
            "big_gin_bonus": 31,
            "shutout": "double",
        },
        "straight": {"knock_limit": 0},
        "hollywood": {"hollywood": True},
    }

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type == "bool" and not isinstance(value, bool):
                raise ValueError(f"rules.{f.name}={value!r}: must be true or false")
            if f.type == "int" and (isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0):
                raise ValueError(f"rules.{f.name}={value!r}: must be a whole number >= 0")
            if f.type == "int" and f.name != "knock_limit" and value > MAX_POINTS:
                raise ValueError(f"rules.{f.name}={value!r}: must be at most {MAX_POINTS:,}")
        if not 0 <= self.knock_limit <= 10:
            raise ValueError(f"rules.knock_limit={self.knock_limit!r}: must be 0-10")
        for name in ("target", "team_target"):
            if getattr(self, name) < 1:
                raise ValueError(f"rules.{name}={getattr(self, name)!r}: must be at least 1")
        if self.dealer_rotation not in DEALER_ROTATIONS:
            raise ValueError(
                f"rules.dealer_rotation={self.dealer_rotation!r}: choose from {', '.join(DEALER_ROTATIONS)}"
            )
        if self.shutout not in SHUTOUT_RULES:
            raise ValueError(f"rules.shutout={self.shutout!r}: choose from {', '.join(SHUTOUT_RULES)}")
        if self.oklahoma and self.eleven_card_start:
            raise ValueError("rules.oklahoma=True needs an up card, so rules.eleven_card_start must be false (V5, V9)")

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The named preset: standard, oklahoma, eaai, modern, straight or hollywood."""
        try:
            overrides = cls.PRESETS[name]
        except KeyError:
            raise ValueError(f"unknown rules preset {name!r}: choose from {', '.join(cls.PRESETS)}") from None
        return cls(**overrides)

    def with_settings(self, settings: dict[str, Any]) -> Rules:
        """A copy with fields replaced; string values (from ``--set key=value``) are converted."""
        known = {f.name: f for f in fields(self)}
        changes: dict[str, Any] = {}
        for key, value in settings.items():
            if key not in known:
                raise ValueError(f"unknown rule {key!r}: choose from {', '.join(known)}")
            changes[key] = _convert(key, known[key].type, value)
        return dataclasses.replace(self, **changes)

    def check_table(self, table: str) -> None:
        """Refuse switches a table format cannot play: Hollywood (V14) is two-player scoring.

        >>> Rules.preset("hollywood").check_table("three")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: rules.hollywood=True: Hollywood scoring (V14) is two-player scoring; a three-player (V11) table ...
        """
        if table not in TABLES:
            raise ValueError(f"table={table!r}: choose from {', '.join(TABLES)}")
        if self.hollywood and table != "pairs":
            raise ValueError(
                f"rules.hollywood=True: Hollywood scoring (V14) is two-player scoring; "
                f"a {TABLE_NAMES[table]} table cannot use it"
            )

    def overridden(self, table: str = "pairs", games: bool = True) -> dict[str, str]:
        """Switches set away from the standard game that have no effect here: switch -> why (rule id).

        A switch has no effect when another switch overrides it (the Oklahoma up card sets
        the knock limit, V9), when what it adjusts cannot happen (no undercut in straight
        gin), or when the table format does not use it (``dealer_rotation`` at three- and
        four-player tables). ``games=False`` means independent hands (``--hands``), where
        nothing of the game's scoring applies. A combination that cannot be played at all is
        a ValueError (:meth:`check_table`). The run commands warn about each entry, and
        sweeps play cells that differ only in such switches once (:meth:`effective`).

        >>> Rules.preset("oklahoma").with_settings({"knock_limit": 5}).overridden()
        {'knock_limit': 'V9: under Oklahoma the up card sets the knock limit of each hand'}
        >>> sorted(Rules.preset("oklahoma").overridden("teams"))
        ['target']
        """
        self.check_table(table)
        why: dict[str, str] = {}
        if not games and table == "pairs":
            for name in GAME_SWITCHES:
                why[name] = "R20-R23: hands are played one by one (--hands), not in games: no game scoring"
        if self.oklahoma:
            why.setdefault("knock_limit", "V9: under Oklahoma the up card sets the knock limit of each hand")
        else:
            for name in ("oklahoma_spade_double", "oklahoma_ace_gin_only", "oklahoma_extra_boxes"):
                why.setdefault(name, "V9: a sub-variant of Oklahoma, and oklahoma is off")
            if self.knock_limit == 0:
                for name in ("undercut_bonus", "undercut_on_tie"):
                    why.setdefault(
                        name, "R18/R19/V1: with knock_limit=0 only gin ends a hand, and a gin is never undercut"
                    )
        if not self.big_gin:
            why.setdefault("big_gin_bonus", "V13: big_gin is off")
        if self.shutout != "bonus":
            why.setdefault("shutout_bonus", f"R21/V8: shutout={self.shutout}, so no shutout bonus is paid")
        if table != "teams":
            why.setdefault("team_target", "V12: only a partnership game ends at team_target")
        if table == "teams":
            why.setdefault("target", "V12: a partnership game ends when a team reaches team_target")
            why.setdefault("dealer_rotation", "V12: partners deal in a fixed alternation (every two rounds)")
        if table == "three":
            why.setdefault("dealer_rotation", "V11: the loser of each hand deals the next")
        standard = Rules()
        changed = [f.name for f in fields(self) if getattr(self, f.name) != getattr(standard, f.name)]
        return {name: why[name] for name in changed if name in why}

    def effective(self, table: str = "pairs", games: bool = True) -> Rules:
        """The same game with every :meth:`overridden` switch back at its standard value.

        Two rule sets with equal effective rules play the same game, hand for hand.

        >>> Rules.preset("oklahoma").with_settings({"knock_limit": 5}).effective() == Rules.preset("oklahoma")
        True
        """
        standard = Rules()
        return dataclasses.replace(self, **{name: getattr(standard, name) for name in self.overridden(table, games)})

    def to_dict(self) -> dict[str, Any]:
        """The switches as a plain dict (JSON-ready)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def describe(cls) -> list[dict[str, Any]]:
        """One row per switch: name, type, default and what it means."""
        return [{"name": f.name, "type": f.type, "default": f.default, "doc": f.metadata["doc"]} for f in fields(cls)]

    def to_array(self) -> np.ndarray:
        """The switches packed as int64 for the kernels, slot by slot as ``kernels.rule_index.SLOTS`` declares.

        An int or a bool is packed as itself, a named choice as its position in the field's
        ``choices`` (``SHUTOUT_RULES``, ``DEALER_ROTATIONS``). ``team_target`` has no slot
        (``rule_index.NOT_PACKED`` says why).
        """
        from simgin.kernels.rule_index import SLOTS

        known = {f.name: f for f in fields(self)}
        packed = np.zeros(len(SLOTS), dtype=np.int64)
        for index, (_, name) in enumerate(SLOTS):
            value = getattr(self, name)
            choices = known[name].metadata.get("choices")
            packed[index] = choices.index(value) if choices else value
        return packed

    def hand_knock_limit(self, up_card: int | None) -> int:
        """The knock limit of one hand: fixed (R12, V1) or set by the up card under Oklahoma (V9)."""
        if not self.oklahoma:
            return self.knock_limit
        if up_card is None:
            raise ValueError("an Oklahoma hand needs its up card to set the knock limit (V9)")
        rank = up_card % 13
        if rank == 0 and self.oklahoma_ace_gin_only:
            return 0
        return min(rank + 1, 10)

    def hand_multiplier(self, up_card: int | None) -> int:
        """2 when an Oklahoma hand's up card is a spade and spade doubling is on (V9), else 1."""
        if self.oklahoma and self.oklahoma_spade_double and up_card is not None and up_card // 13 == 3:
            return 2
        return 1


def _convert(key: str, kind: str, value: Any) -> Any:
    if not isinstance(value, str):
        return value
    text = value.strip().lower()
    if kind == "bool":
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise ValueError(f"rules.{key}={value!r}: must be true or false")
    if kind == "int":
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"rules.{key}={value!r}: must be a whole number") from None
    return value.strip()


def as_rules(value: Rules | str | None, argument: str = "rules") -> Rules:
    """``value`` as a :class:`Rules`: a Rules as it is, a preset name (``"eaai"``) as its preset, None as the
    standard game; anything else is a TypeError naming ``argument`` and what is allowed. Every public function
    that takes rules takes all three (issue 32 item 27)."""
    if value is None:
        return Rules()
    if isinstance(value, Rules):
        return value
    if isinstance(value, str):
        return Rules.preset(value)
    raise TypeError(
        f"{argument}={value!r}: give a Rules, a preset name ({', '.join(Rules.PRESETS)}) or None, "
        f"not a {type(value).__name__}"
    )


def whole_number(value: Any, argument: str, least: int = 0) -> int:
    """``value`` as an int when it is a whole number (an int, not a bool or a float such as 10.5) of at least
    ``least``; else a TypeError or ValueError naming ``argument`` (issue 32 item 27: ``hands=10.5`` is refused,
    as the CLI refuses ``--hands 1.5``)."""
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{argument}={value!r}: must be a whole number (an int), not a {type(value).__name__}")
    if value < least:
        raise ValueError(f"{argument}={value}: must be at least {least}")
    return int(value)

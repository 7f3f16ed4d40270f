"""No silent no-op: every rule switch at every table format either plays, or says it does not.

For each switch of :class:`Rules` and each format (two-player games, two-player independent
hands, three players V11, partnerships V12), setting the switch away from its standard value
(from the standard game, and from a game where what it adjusts exists: ``big_gin_bonus``
with big gin on, the ``oklahoma_*`` sub-switches under Oklahoma) must either be refused
with a ValueError, or be listed by ``Rules.overridden`` for that format, or change the
played rows (game and hand records) for some seeds. A listed switch must also truly do
nothing: its rows equal those of ``Rules.effective`` (which sweeps rely on to play such
cells once).
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import fields

import numpy as np
import pytest
from simgin.strategies.heuristic import FROZEN_SPEC

from simgin import Rules
from simgin.running.engine import hand_seeds, play_game_rows, play_hand_rows, play_table_rows

#: format -> (table, whole games?, the bots of each batch in turn). Quick bots first; the
#: ``heuristic`` bots are held to gin (``gin_hold=10``), so big gin (V13) and the 50th card (V7) turn up; with
#: the discard weights of issue 11 (its frozen ones), which these seeds were chosen with.
HOLD = f"{FROZEN_SPEC},gin_hold=10"
FORMATS = {
    "pairs": ("pairs", True, (("simple", "greedy"), (HOLD, HOLD), ("random", "greedy"))),
    "hands": ("pairs", False, (("simple", "greedy"), (HOLD, HOLD), ("random", "greedy"))),
    "three": ("three", True, (("simple", "greedy", "simple"), (HOLD,) * 3, ("simple", "greedy", "random"))),
    "teams": (
        "teams",
        True,
        (("simple", "greedy", "simple", "greedy"), (HOLD,) * 4, ("random",) + ("simple",) * 3),
    ),
}
#: Seeds are tried in batches until the rows differ: most switches show in the first batch,
#: rare effects (big gin, the 50th card, V7, V13) in a later one.
BATCH = 8
BATCHES = 16

OKLAHOMA = Rules(oklahoma=True)
#: Short games, where shutouts (R21, V8) are common.
SHORT = Rules(target=30, team_target=30)
#: (base, changes) per switch: away from the standard game, and where what it adjusts exists.
CASES: dict[str, list[tuple[Rules, dict]]] = {
    "knock_limit": [(Rules(), {"knock_limit": 5}), (OKLAHOMA, {"knock_limit": 5})],
    "gin_bonus": [(Rules(), {"gin_bonus": 35})],
    "undercut_bonus": [(Rules(), {"undercut_bonus": 25}), (Rules(knock_limit=0), {"undercut_bonus": 25})],
    "undercut_on_tie": [(Rules(), {"undercut_on_tie": False}), (Rules(knock_limit=0), {"undercut_on_tie": False})],
    "box_bonus": [(Rules(), {"box_bonus": 35})],
    "game_bonus": [(Rules(), {"game_bonus": 150})],
    "shutout": [(SHORT, {"shutout": "double"}), (SHORT, {"shutout": "none"})],
    "shutout_bonus": [(SHORT, {"shutout_bonus": 300}), (Rules(shutout="none"), {"shutout_bonus": 300})],
    "target": [(Rules(), {"target": 60})],
    "rediscard_taken_card": [(Rules(), {"rediscard_taken_card": True})],
    "fiftieth_card_action": [(Rules(), {"fiftieth_card_action": True})],
    "eleven_card_start": [(Rules(), {"eleven_card_start": True}), (OKLAHOMA, {"eleven_card_start": True})],
    "dealer_rotation": [(Rules(), {"dealer_rotation": "winner"}), (Rules(), {"dealer_rotation": "alternate"})],
    "big_gin": [(Rules(), {"big_gin": True})],
    "big_gin_bonus": [(Rules(), {"big_gin_bonus": 50}), (Rules(big_gin=True), {"big_gin_bonus": 50})],
    "oklahoma": [(Rules(), {"oklahoma": True})],
    "oklahoma_spade_double": [
        (Rules(), {"oklahoma_spade_double": False}),
        (OKLAHOMA, {"oklahoma_spade_double": False}),
    ],
    "oklahoma_ace_gin_only": [(Rules(), {"oklahoma_ace_gin_only": True}), (OKLAHOMA, {"oklahoma_ace_gin_only": True})],
    "oklahoma_extra_boxes": [
        (Rules(), {"oklahoma_extra_boxes": True}),
        (OKLAHOMA, {"oklahoma_extra_boxes": True}),
        (Rules(oklahoma=True, box_bonus=0), {"oklahoma_extra_boxes": True}),
    ],
    "hollywood": [(Rules(), {"hollywood": True})],
    "team_target": [(Rules(), {"team_target": 60})],
}


def test_every_switch_has_cases():
    assert set(CASES) == {f.name for f in fields(Rules)}
    for name, cases in CASES.items():
        for base, changes in cases:
            assert list(changes) == [name] and getattr(base, name) == getattr(Rules(), name)


@functools.cache
def rows(format_name: str, rules: Rules, batch: int) -> tuple[bytes, ...]:
    """The rows one batch of seeds plays in ``format_name`` under ``rules``, as bytes to compare."""
    table, games, ladder = FORMATS[format_name]
    bots = ladder[batch % len(ladder)]
    seeds = hand_seeds(9000 + batch, BATCH if games else 4 * BATCH)
    if table == "pairs" and games:
        arrays = play_game_rows(bots, rules, seeds)
    elif table == "pairs":
        arrays = (play_hand_rows(bots, rules, seeds, np.arange(len(seeds), dtype=np.int64) % 2),)
    else:
        arrays = play_table_rows(table, bots, rules, seeds)
    return tuple(np.ascontiguousarray(array).tobytes() for array in arrays)


def effect(format_name: str, base: Rules, rules: Rules) -> bool:
    """Whether ``rules`` plays other rows than ``base`` for some batch of seeds."""
    return any(rows(format_name, base, batch) != rows(format_name, rules, batch) for batch in range(BATCHES))


@pytest.mark.parametrize("format_name", list(FORMATS))
@pytest.mark.parametrize("switch", list(CASES))
def test_a_switch_plays_or_says_it_does_not(switch, format_name):
    table, games, ladder = FORMATS[format_name]
    for base, changes in CASES[switch]:
        try:
            rules = dataclasses.replace(base, **changes)
            listed = rules.overridden(table, games)
        except ValueError:
            # Refused: the table cannot play it at all (Hollywood at a table, V14; Oklahoma
            # needs an up card, V5/V9); and playing it is refused too.
            with pytest.raises(ValueError):
                rules = dataclasses.replace(base, **changes)
                rows(format_name, rules, 0)
            continue
        if switch in listed:
            # Listed as without effect: then it truly has none.
            effective = rules.effective(table, games)
            assert getattr(effective, switch) == getattr(Rules(), switch)
            same = all(rows(format_name, rules, b) == rows(format_name, effective, b) for b in range(len(ladder)))
            assert same, f"{switch} is listed as without effect at {format_name} but changes the rows"
        else:
            assert effect(format_name, base, rules), f"{changes} from {base} is a silent no-op at {format_name}"


def test_refusals_are_the_ones_intended():
    """Hollywood is refused at three- and four-player tables (V14 is two-player scoring) and
    nothing else is refused by a table (Oklahoma with the 11-card start is refused anywhere)."""
    refused = set()
    for switch, cases in CASES.items():
        for base, changes in cases:
            for table in ("pairs", "three", "teams"):
                try:
                    rules = dataclasses.replace(base, **changes)
                except ValueError as error:
                    assert switch == "eleven_card_start" and "V5, V9" in str(error)
                    continue
                try:
                    rules.check_table(table)
                except ValueError:
                    refused.add((switch, table))
    assert refused == {("hollywood", "three"), ("hollywood", "teams")}

"""What the rules-aware built-ins make of a rule set: the values in force for ``simgin strategies SPEC --rules P``.

``heuristic``, ``opponent`` and ``mcts`` take no per-preset defaults: they read the rules in
force at every decision (``simgin/kernels/payoff.py``, ``simgin/kernels/knock.py``). This
module states, for one rule set, what they read: the hand's knock limit, the bonuses they
weigh, how a result is valued in the game, the discard weights of a hand only gin can end,
and for ``heuristic`` and ``opponent`` the deadwoods with which they knock in a typical
situation at three points of a hand (the opponent's deadwood typical for the stage, no gin
outs, game scores 0-0). The real decision also weighs the hand in play (its gin outs, the
opponent hands drawn from the bot's estimate), so the typical knocks show the rules'
effect, not a fixed threshold.

>>> from simgin.players.registry import resolve
>>> dict(rules_reading(resolve("opponent"), Rules.preset("straight")))["knock limit"]
'0: only gin ends a hand (V1)'
"""

from __future__ import annotations

import numpy as np

from simgin.game.rules import Rules
from simgin.kernels import knock as _knock
from simgin.kernels import payoff as _payoff
from simgin.players.registry import Player

#: Stock sizes of the typical knock situations: early, midway and late in a hand (R8: 31 after the deal).
TYPICAL_STOCKS = (28, 18, 8)
READING_BOTS = ("heuristic", "opponent", "mcts")


def typical_opponent_deadwood(stock: int) -> float:
    """The opponent's mean deadwood at a knock decision by stock size (fitted on the knock-model data)."""
    return 4.1 + 0.89 * stock


def typical_knocks(rules: Rules, stock: int, knock_limit: int, bias: float = 0.0) -> list[int]:
    """The deadwoods 1..knock_limit with which a bot knocks in the typical situation at ``stock``."""
    array = rules.to_array()
    x = np.empty(_knock.FEATURE_COUNT)
    opponent = typical_opponent_deadwood(stock)
    knocks = []
    for deadwood in range(1, knock_limit + 1):
        points = max(0, round(-5.2 + 1.09 * (opponent - deadwood)))
        now = _payoff.result_value(array, 0, 0, points)
        _knock.features(deadwood, stock, knock_limit, 0.0, opponent, 0, x)
        if now + bias >= _knock.playing_on_value(array, 0, 0, 1, x):
            knocks.append(deadwood)
    return knocks


def _ranges(values: list[int]) -> str:
    """``[1, 2, 3, 7]`` as ``'1-3, 7'``; none as ``'never'``."""
    if not values:
        return "never"
    parts = []
    start = previous = values[0]
    for value in [*values[1:], None]:
        if value is not None and value == previous + 1:
            previous = value
            continue
        parts.append(f"{start}" if start == previous else f"{start}-{previous}")
        if value is not None:
            start = previous = value
    return ", ".join(parts)


def rules_reading(player: Player, rules: Rules) -> list[tuple[str, str]]:
    """(what, value) rows: how ``player`` (heuristic, opponent or mcts) reads ``rules``; empty for other bots."""
    name = player.info.name
    if player.info.kind != "compiled" or name not in READING_BOTS:
        return []
    rows: list[tuple[str, str]] = []
    if rules.oklahoma:
        ace = "0 (only gin)" if rules.oklahoma_ace_gin_only else "1"
        rows.append(("knock limit", f"the up card's value, 10 for a face card and {ace} for an ace (V9)"))
    elif rules.knock_limit == 0:
        rows.append(("knock limit", "0: only gin ends a hand (V1)"))
    else:
        rows.append(("knock limit", f"{rules.knock_limit} (R12, V1)"))
    bonuses = [f"gin {rules.gin_bonus} (R19)"]
    if rules.big_gin:
        bonuses.append(f"big gin {rules.big_gin_bonus} (V13)")
    if rules.oklahoma or rules.knock_limit > 0:
        tie = "a tie is an undercut" if rules.undercut_on_tie else "a tie wins the knocker 0"
        bonuses.append(f"undercut {rules.undercut_bonus}, {tie} (R18, V3)")
    if rules.oklahoma and rules.oklahoma_spade_double:
        bonuses.append("a spade up card doubles the hand (V9)")
    rows.append(("bonuses weighed", "; ".join(bonuses)))
    if rules.hollywood:
        rows.append(
            ("value of a result", f"points plus the box bonus {rules.box_bonus} of a won hand: totals decide (V14)")
        )
    else:
        mean = _payoff.points_per_won_hand(rules.to_array())
        rows.append(
            (
                "value of a result",
                f"its change to the chance of winning the race to {rules.target} (R20), a won hand worth "
                f"about {mean:.1f} points; box and game bonuses change the margin, not the winner",
            )
        )
    values = player.values
    if "gin_only" in values and (rules.knock_limit == 0 or rules.oklahoma):
        scale = values["gin_only"]
        rows.append(("gin-only hands", f"potential and safety weights x{scale:g} where the knock limit is 0"))
    if name in ("heuristic", "opponent") and (rules.oklahoma or rules.knock_limit > 0):
        limit = 10 if rules.oklahoma else rules.knock_limit
        bias = values.get("knock_bias", 0.0)
        typical = [f"{_ranges(typical_knocks(rules, stock, limit, bias))} with {stock}" for stock in TYPICAL_STOCKS]
        where = " (knock limit 10)" if rules.oklahoma else ""
        rows.append(("typical knocks", f"deadwood {'; '.join(typical)} stock cards left{where}"))
    return rows

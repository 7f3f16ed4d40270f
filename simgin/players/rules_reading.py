"""What the rules-aware built-ins make of a rule set: the values in force for ``simgin strategies SPEC --rules P``.

``heuristic``, ``opponent`` and ``mcts`` take no per-preset defaults: they read the rules in
force at every decision (``simgin/kernels/payoff.py``, ``simgin/kernels/knock.py``). This
module states, for one rule set, what they read: the hand's knock limit, the bonuses they
weigh, how a result is valued in the game, the discard weights of a hand only gin can end,
and for ``heuristic`` and ``opponent`` the deadwoods with which they knock. Those are not
read off a formula: the knock decision weighs the hand in play (its gin outs, opponent hands
drawn from the bot's estimate, the game score), so the bot plays :data:`SAMPLE_GAMES` games
against itself under the rules and the line reports the deadwoods of the knocks it made,
overall and early, midway and late in a hand (issue 25: a line derived from a typical
situation once said "deadwood 10" for a bot that knocks at 4 in play).

>>> from simgin.players.registry import resolve
>>> dict(rules_reading(resolve("opponent"), Rules.preset("straight")))["knock limit"]
'0: only gin ends a hand (V1)'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simgin.game.rules import Rules
from simgin.kernels import payoff as _payoff
from simgin.kernels.heuristic import FULL_STOCK
from simgin.players.registry import Player

#: Games the bot plays against itself to find the deadwoods it knocks with (seed 0: the same line every run).
SAMPLE_GAMES = 100
#: Stages of a hand by stock cards left when the knock came (R8: 31 after the deal): early, midway, late.
STAGES = ((31, 21), (20, 11), (10, 0))
READING_BOTS = ("heuristic", "opponent", "mcts")


@dataclass(frozen=True)
class KnocksInPlay:
    """What a bot's hands against itself ended in: the deadwood and stock left at each knock that
    was not gin (R12, R17, R18), and how many hands there were and how many ended in gin (R13, V13)."""

    games: int
    hands: int
    gins: int
    deadwood: np.ndarray
    stock: np.ndarray


def knocks_in_play(spec: str, rules: Rules, games: int = SAMPLE_GAMES, seed: int = 0) -> KnocksInPlay:
    """Play ``games`` games of ``spec`` against itself under ``rules`` (the compiled engine, game seeds
    from ``seed``) and collect its knocks: the same decision function it plays with, so the
    deadwoods are the ones it really knocks with, gin outs, estimates and game scores included."""
    from simgin.game import play
    from simgin.kernels import engine as _k, showdown as _s
    from simgin.players.registry import resolve

    player = resolve(spec)
    _, game_rows, counts = play.play_game_rows((player, player), rules, play.hand_seeds(seed, games))
    rows, _ = play.game_hands(game_rows, counts)
    kind = rows[:, _k.H_KIND]
    knocked = (kind == _s.KIND_KNOCK) | (kind == _s.KIND_UNDERCUT)
    stock_draws = rows[:, _k.H_DRAWS] - rows[:, _k.H_PILE_TAKES_0] - rows[:, _k.H_PILE_TAKES_1]
    return KnocksInPlay(
        games=games,
        hands=int(rows.shape[0]),
        gins=int(np.count_nonzero((kind == _s.KIND_GIN) | (kind == _s.KIND_BIG_GIN))),
        deadwood=rows[knocked, _k.H_KNOCKER_DEADWOOD].astype(np.int64),
        stock=(FULL_STOCK - stock_draws[knocked]).astype(np.int64),
    )


def _spread(deadwood: np.ndarray) -> str:
    """The middle half and the median of knock deadwoods, e.g. ``'7-10 (median 9)'``."""
    low, median, high = (int(q) for q in np.percentile(deadwood, [25, 50, 75], method="lower"))
    return f"{low} (median {median})" if low == high else f"{low}-{high} (median {median})"


def describe_knocks(knocks: KnocksInPlay) -> str:
    """The ``typical knocks`` line: the middle half of the deadwoods of its knocks that were not gin,
    with their median, overall and by stock cards left; the mean deadwood of all the hands it
    ended, gins (deadwood 0) included; and the sample they come from."""
    count = len(knocks.deadwood)
    hands = max(knocks.hands, 1)
    sample = (
        f"played in {knocks.games} games against itself: {knocks.hands} hands, "
        f"{100 * count / hands:.0f}% knocks, {100 * knocks.gins / hands:.0f}% gin"
    )
    if not count:
        return f"none, only gin; {sample}"
    stages = []
    for high, low in STAGES:
        inside = knocks.deadwood[(knocks.stock >= low) & (knocks.stock <= high)]
        stages.append(f"{_spread(inside) if len(inside) else 'none'} with {high}-{low}")
    stages[0] += " stock cards left"
    knocks_text = f"{count} knock{'s' if count != 1 else ''}"
    mean = float(knocks.deadwood.sum()) / (count + knocks.gins)
    return (
        f"deadwood {_spread(knocks.deadwood)} in {knocks_text}; {', '.join(stages)}; "
        f"mean {mean:.1f} with its gins (deadwood 0) counted; {sample}"
    )


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
        weights = ", ".join(
            f"{name.removeprefix('gin_')} {values[name] * scale:g}"
            for name in ("gin_potential", "gin_potential_late", "gin_safety", "gin_safety_late")
            if name in values
        )
        rows.append(("gin-only hands", f"discard weights {weights} where the knock limit is 0"))
    if name in ("heuristic", "opponent") and (rules.oklahoma or rules.knock_limit > 0):
        rows.append(("typical knocks", describe_knocks(knocks_in_play(player.spec, rules))))
    return rows

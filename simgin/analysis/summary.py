"""What the analysis of a match says per player: loss per decision with its interval, flags, accuracy, skill
and luck, and the costliest decisions (issue 34; the definitions are in docs/ANALYSIS.md).

The unit of every interval is the hand (the game, with ``--games``), and with duplicate deals the deal pair
(hands 2j and 2j+1, one deal with the seats swapped), as of every statistic of simgin (docs/STATISTICS.md): the
decisions of one hand share its cards, and the two hands of a pair share them too, so none of those are
independent. A player's mean loss per decision is a ratio of two sums over units, and its interval is the ratio
estimator's (delta method); a figure per hand (skill, luck) is the same with one hand counted per hand.
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from simgin.game.rules import Rules
from simgin.running.chunks import rule_flags
from simgin.statistics.core import ratio_from_sums

#: Loss thresholds in points of the hand (docs/ANALYSIS.md): a decision counts as the worst flag whose
#: threshold its loss exceeds by two standard errors, so that no flag comes from evaluator noise alone.
THRESHOLDS = {"inaccuracies": 1.5, "mistakes": 4.0, "blunders": 10.0}
NOISE_MARGIN = 2.0
"""How many standard errors a loss must clear its threshold by."""
COSTLIEST = 20


def flag(loss: float, loss_error: float) -> str | None:
    """``'blunders'``, ``'mistakes'``, ``'inaccuracies'`` or None: the worst threshold ``loss`` clears by
    :data:`NOISE_MARGIN` standard errors."""
    found = None
    for name, threshold in THRESHOLDS.items():
        if loss - NOISE_MARGIN * loss_error >= threshold:
            found = name
    return found


def ratio_interval(numerators: np.ndarray, denominators: np.ndarray) -> tuple[float, list[float | None]]:
    """Σ numerators / Σ denominators over units, with its 95% interval: the ratio estimator's
    (:func:`~simgin.statistics.core.ratio_from_sums`, Student's t below 30 units); (nan, [None, None]) without a
    denominator, and a zero-width interval from a single unit."""
    total = float(denominators.sum())
    if total == 0:
        return math.nan, [None, None]
    if len(numerators) < 2:
        ratio = float(numerators.sum()) / total
        return ratio, [ratio, ratio]
    x, y = np.asarray(numerators, float), np.asarray(denominators, float)
    ratio, low, high = ratio_from_sums(x.sum(), total, (x * x).sum(), (y * y).sum(), (x * y).sum(), len(x))
    return ratio, [low, high]


def interval_unit(mode: str, paired: bool) -> str:
    """What the intervals take as independent: ``'deal pair'`` (``'game pair'``) with duplicate deals, else
    ``'hand'`` (``'game'``)."""
    if mode == "games":
        return "game pair" if paired else "game"
    return "deal pair" if paired else "hand"


def unit_sums(by_hand: pd.DataFrame, paired: bool) -> pd.DataFrame:
    """Sums per hand (indexed by hand number) summed over the units of the intervals: each hand, or with
    duplicate deals (``paired``) each pair of hands 2j and 2j+1."""
    return by_hand.groupby(by_hand.index // 2).sum() if paired else by_hand


def mean_interval(values: np.ndarray, hands: Sequence[int], paired: bool = False) -> list[float | None]:
    """The 95% interval of the mean per hand of ``values`` (one per hand of ``hands``), the units those of
    :func:`unit_sums`; [None, None] with fewer than two units. Without pairs it is the normal interval of the
    mean; with them, the ratio estimator's over pairs, so an unfinished last pair counts as what it is."""
    per_hand = pd.DataFrame({"sum": np.asarray(values, float), "count": 1.0}, index=np.asarray(hands))
    units = unit_sums(per_hand, paired)
    if len(units) < 2:
        return [None, None]
    return ratio_interval(units["sum"].to_numpy(float), units["count"].to_numpy(float))[1]


def loss_block(rows: pd.DataFrame, hands: Sequence[int], paired: bool = False) -> dict[str, Any]:
    """``decisions``, ``mean_loss`` and ``mean_loss_ci`` of ``rows``, the units those of :func:`unit_sums`
    (every hand of ``hands`` counts, with 0 decisions where it had none of these)."""
    by_hand = rows.groupby("hand")["loss"].agg(["sum", "count"]).reindex(list(hands), fill_value=0)
    units = unit_sums(by_hand, paired)
    mean, interval = ratio_interval(units["sum"].to_numpy(float), units["count"].to_numpy(float))
    return {"decisions": len(rows), "mean_loss": mean, "mean_loss_ci": interval}


def player_summary(
    side: int, name: str, frame: pd.DataFrame, net: pd.DataFrame, paired: bool = False
) -> dict[str, Any]:
    """The fixed keys of one player (docs/ANALYSIS.md): loss, flags, accuracy, net points, skill and luck;
    ``paired``: duplicate deals, whose intervals take the deal pair as the unit (:func:`unit_sums`)."""
    hands = sorted(net["hand"])
    mine = frame[frame["side"] == side]
    theirs = frame[frame["side"] != side]
    block = loss_block(mine, hands, paired)
    flags = [flag(loss, error) for loss, error in zip(mine["loss"], mine["loss_error"], strict=True)]
    spread = float(mine["spread"].sum())
    accuracy = 100.0 * (1.0 - float(mine["loss"].sum()) / spread) if spread > 0 else 100.0
    own = mine.groupby("hand")["loss"].sum().reindex(hands, fill_value=0.0)
    given = theirs.groupby("hand")["loss"].sum().reindex(hands, fill_value=0.0)
    decisions = (given - own).to_numpy(float)
    by_hand = net.set_index("hand")
    points = by_hand[f"net_{side}"].reindex(hands).to_numpy(float)
    luck = by_hand[f"luck_{side}"].reindex(hands).to_numpy(float)
    skill = points - luck
    return {
        "player": name,
        **block,
        "accuracy": accuracy,
        **{name: sum(found == name for found in flags) for name in THRESHOLDS},
        "net_points": float(points.sum()),
        "skill": float(skill.sum()),
        "luck": float(luck.sum()),
        "skill_per_hand_ci": mean_interval(skill, hands, paired),
        "luck_per_hand_ci": mean_interval(luck, hands, paired),
        "decisions_value": float(decisions.sum()),
        "decisions_value_per_hand_ci": mean_interval(decisions, hands, paired),
        "by_kind": {kind: loss_block(rows, hands, paired) for kind, rows in mine.groupby("kind")},
        "by_stage": {stage: loss_block(rows, hands, paired) for stage, rows in mine.groupby("stage")},
    }


def second_opinion_summary(
    rows: pd.DataFrame, hands: Sequence[int], advisers: Sequence[str], paired: bool = False
) -> list[dict[str, Any]]:
    """Per adviser (``adviser``: its spec), at the decisions of ``rows`` (one player's) where it gave a legal
    answer: how many, ``mean_loss`` and its interval, ``difference`` (its mean loss minus the player's at the
    same decisions, with its interval: paired, the units of :func:`unit_sums`) and ``agreement`` (the share of those
    decisions where it chose what the player chose); the same per kind of decision in ``by_kind``."""
    found = []
    for index, spec in enumerate(advisers):
        losses = rows["second_opinion_losses"].map(lambda values, i=index: values[i])
        answers = rows["second_opinions"].map(lambda values, i=index: values[i])
        given = losses.notna()
        agrees = answers == rows["chosen"]
        answered = rows[given].assign(adviser_loss=losses[given].astype(float), agrees=agrees[given])
        answered = answered.assign(gap=answered["adviser_loss"] - answered["loss"])
        by_kind = {kind: _opinion_block(of_kind, hands, paired) for kind, of_kind in answered.groupby("kind")}
        found.append({"adviser": spec, **_opinion_block(answered, hands, paired), "by_kind": by_kind})
    return found


def _opinion_block(answered: pd.DataFrame, hands: Sequence[int], paired: bool) -> dict[str, Any]:
    by_hand = answered.groupby("hand").agg(loss=("adviser_loss", "sum"), gap=("gap", "sum"), count=("gap", "size"))
    by_hand = unit_sums(by_hand.reindex(list(hands), fill_value=0), paired)
    counts = by_hand["count"].to_numpy(float)
    mean, interval = ratio_interval(by_hand["loss"].to_numpy(float), counts)
    difference, difference_interval = ratio_interval(by_hand["gap"].to_numpy(float), counts)
    return {
        "decisions": len(answered),
        "mean_loss": mean,
        "mean_loss_ci": interval,
        "difference": difference,
        "difference_ci": difference_interval,
        "agreement": float(answered["agrees"].mean()) if len(answered) else math.nan,
    }


def replay_command(players: Sequence[str], seed: int, hand: int, rules: Rules, duplicate: bool) -> str:
    """The ``simgin replay`` command that shows hand ``hand`` of the match, move by move."""
    words = ["simgin", "replay", *players, "--seed", str(seed), "--hand", str(hand), *rule_flags(rules)]
    if not duplicate:
        words.append("--no-duplicate")
    return shlex.join(words)


def costliest(frame: pd.DataFrame, count: int = COSTLIEST) -> list[dict[str, Any]]:
    """The ``count`` decisions that lost the most, costliest first, each with its position and replay."""
    top = frame.sort_values(["loss", "hand"], ascending=[False, True], kind="stable").head(count)
    return [
        {
            "player": row["player"],
            "hand": int(row["hand"]),
            "kind": row["kind"],
            "chosen": row["chosen"],
            "best": row["best"],
            "loss": float(row["loss"]),
            "loss_error": float(row["loss_error"]),
            "replay": row["replay"],
            "deal": int(row["deal"]),
            "stage": row["stage"],
            "hand_cards": row["hand_cards"],
            "pile_top": row["pile_top"],
            "known": row["known"],
        }
        for _, row in top.iterrows()
        if row["loss"] > 0
    ]

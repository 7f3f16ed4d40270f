"""The report of ``simgin analyse --out DIR`` (issue 34): where each player's points go, decision by decision.

Figures: the points lost per decision by kind of decision, per player, with 95% intervals; the loss along
the hand (early, middle and late stock); each player's net points split into skill and luck; the costliest
positions drawn as cards. Tables: the
players' summary, the loss by kind and by stage, and the costliest decisions with their positions, the cards
written with their suit symbols (docs/ANALYSIS.md has the definitions).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .figure_style import PALETTE, WIDTH, styled

KINDS = ("up_card", "draw", "discard", "knock", "big_gin", "fiftieth")
KIND_LABELS = {
    "up_card": "up card (R11)",
    "draw": "draw (R9)",
    "discard": "discard (R9, R10)",
    "knock": "knock (R12)",
    "big_gin": "big gin (V13)",
    "fiftieth": "50th card (V7)",
}
STAGES = ("early", "middle", "late")
SUITS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def cards_drawn(text: str) -> str:
    """Cards as a reader sees them on a table: ``'AS TD'`` becomes ``'A♠ 10♦'``."""
    shown = []
    for card in text.split():
        rank, suit = card[:-1], card[-1]
        shown.append(("10" if rank == "T" else rank) + SUITS.get(suit, suit))
    return " ".join(shown)


def _players(result: dict[str, Any]) -> list[dict[str, Any]]:
    return list(result["players"])


def units(result: dict[str, Any]) -> str:
    """What the intervals of ``result`` take as units, plural: ``'deal pairs'`` with duplicate deals, else
    ``'hands'`` (``'game pairs'``, ``'games'`` with ``--games``); ``'hands'`` for a result written before the
    deal pair became the unit, which is what those intervals used."""
    return f"{result.get('interval_unit', 'hand')}s"


def players_table(result: dict[str, Any]) -> pd.DataFrame:
    rows = []
    for player in _players(result):
        low, high = player["mean_loss_ci"]
        rows.append(
            {
                "player": player["player"],
                "decisions": player["decisions"],
                "mean_loss": player["mean_loss"],
                "mean_loss_low": low,
                "mean_loss_high": high,
                "accuracy": player["accuracy"],
                "inaccuracies": player["inaccuracies"],
                "mistakes": player["mistakes"],
                "blunders": player["blunders"],
                "net_points": player["net_points"],
                "skill": player["skill"],
                "luck": player["luck"],
            }
        )
    return pd.DataFrame(rows)


def breakdown_table(result: dict[str, Any], key: str, order: tuple[str, ...]) -> pd.DataFrame:
    """One row per player and kind (``key='by_kind'``) or stage (``'by_stage'``): decisions, mean loss, interval."""
    rows = []
    for player in _players(result):
        for name in order:
            block = player.get(key, {}).get(name)
            if block is None:
                continue
            low, high = block["mean_loss_ci"]
            rows.append(
                {
                    "player": player["player"],
                    key.removeprefix("by_"): name,
                    "decisions": block["decisions"],
                    "mean_loss": block["mean_loss"],
                    "mean_loss_low": low,
                    "mean_loss_high": high,
                }
            )
    return pd.DataFrame(rows, columns=["player", key.removeprefix("by_"), "decisions", "mean_loss", "mean_loss_low",
                                       "mean_loss_high"])  # fmt: skip


def second_opinions_table(result: dict[str, Any]) -> pd.DataFrame:
    """One row per player and adviser (``--second-opinion``): its loss per decision at the player's decisions,
    the paired difference from the player's, and how often it agreed (empty without second opinions)."""
    rows = []
    for player in _players(result):
        for opinion in player.get("second_opinions", []):
            low, high = opinion["mean_loss_ci"]
            difference_low, difference_high = opinion["difference_ci"]
            rows.append(
                {
                    "player": player["player"],
                    "adviser": opinion["adviser"],
                    "decisions": opinion["decisions"],
                    "mean_loss": opinion["mean_loss"],
                    "mean_loss_low": low,
                    "mean_loss_high": high,
                    "difference": opinion["difference"],
                    "difference_low": difference_low,
                    "difference_high": difference_high,
                    "agreement": opinion["agreement"],
                }
            )
    return pd.DataFrame(rows)


def _action(item: dict[str, Any], key: str) -> str:
    """A costly decision's ``chosen`` or ``best`` action as shown: a discard's card with its suit symbol."""
    return cards_drawn(item[key]) if item["kind"] == "discard" else item[key]


def costliest_table(result: dict[str, Any]) -> pd.DataFrame:
    rows = [
        {
            "player": item["player"],
            "hand": item["hand"],
            "kind": item["kind"],
            "stage": item.get("stage", ""),
            "cards": cards_drawn(item.get("hand_cards", "")),
            "pile_top": cards_drawn(item.get("pile_top", "")),
            "other_holds": cards_drawn(item.get("known", "")),
            "chosen": _action(item, "chosen"),
            "best": _action(item, "best"),
            "loss": item["loss"],
            "loss_error": item["loss_error"],
            "replay": item["replay"],
        }
        for item in result["costliest"]
    ]
    return pd.DataFrame(rows)


def tables(result: dict[str, Any]) -> list[tuple[str, str, pd.DataFrame, dict[str, str], str]]:
    """(name, title, frame, shown columns with formats, note) of every table of an analysis report."""
    loss = {"mean_loss": "f2", "mean_loss_low": "f2", "mean_loss_high": "f2"}
    return [
        (
            "analysis_players",
            "Each player's decisions",
            players_table(result),
            {
                "player": "text",
                "decisions": "int",
                **loss,
                "accuracy": "f1",
                "inaccuracies": "int",
                "mistakes": "int",
                "blunders": "int",
                "net_points": "f1",
                "skill": "f1",
                "luck": "f1",
            },
            f"Points of the hand lost per decision with its 95% interval ({units(result)} as the units); net points "
            "= skill + luck (docs/ANALYSIS.md).",
        ),
        (
            "analysis_by_kind",
            "Loss by kind of decision",
            breakdown_table(result, "by_kind", KINDS),
            {"player": "text", "kind": "text", "decisions": "int", **loss},
            "",
        ),
        (
            "analysis_by_stage",
            "Loss along the hand",
            breakdown_table(result, "by_stage", STAGES),
            {"player": "text", "stage": "text", "decisions": "int", **loss},
            "Stages are thirds of the stock a hand starts with.",
        ),
        (
            "analysis_costliest",
            "The costliest decisions",
            costliest_table(result),
            {
                "player": "text",
                "hand": "int",
                "kind": "text",
                "cards": "text",
                "pile_top": "text",
                "other_holds": "text",
                "chosen": "text",
                "best": "text",
                "loss": "f1",
                "loss_error": "f1",
                "replay": "text",
            },
            "Each with the cards the player held, the pile's top and the cards the other was known to hold; "
            "'replay' is the command that shows the hand move by move.",
        ),
        *_second_opinion_tables(result, loss),
    ]


def _second_opinion_tables(result: dict[str, Any], loss: dict[str, str]) -> list:
    frame = second_opinions_table(result)
    if frame.empty:
        return []
    shown = {
        "player": "text",
        "adviser": "text",
        "decisions": "int",
        **loss,
        "difference": "f2",
        "difference_low": "f2",
        "difference_high": "f2",
        "agreement": "pct",
    }
    note = (
        "Each adviser was asked every decision of the player from the same view and its answer valued by the "
        "same valuation, never played: difference is its loss per decision minus the player's at the same "
        f"decisions (paired, 95% interval, {units(result)} as the units); agreement, the share where it chose the same."
    )
    return [("analysis_second_opinions", "Second opinions", frame, shown, note)]


def _grouped_bars(ax: Any, frame: pd.DataFrame, column: str, order: tuple[str, ...], players: list[str]) -> None:
    width = 0.8 / max(len(players), 1)
    for k, name in enumerate(players):
        rows = frame[frame["player"] == name].set_index(column).reindex(list(order))
        value = rows["mean_loss"].to_numpy(float)
        errors = np.vstack(
            [
                np.nan_to_num(value - rows["mean_loss_low"].to_numpy(float)),
                np.nan_to_num(rows["mean_loss_high"].to_numpy(float) - value),
            ]
        )
        x = np.arange(len(order)) + k * width
        ax.bar(x, np.nan_to_num(value), width=width, yerr=errors, color=PALETTE[k % len(PALETTE)], label=name,
               capsize=3)  # fmt: skip
    ax.set_xticks(np.arange(len(order)) + 0.4 - width / 2, labels=[KIND_LABELS.get(name, name) for name in order])
    ax.set_ylabel("points lost per decision, 95% interval")
    ax.legend(loc="upper left", fontsize="small")


def _breakdown_chart(result: dict[str, Any], key: str, order: tuple[str, ...], height: float, title: str) -> Figure:
    """Points lost per decision by ``key`` (``by_kind`` or ``by_stage``), per player, with 95% intervals; the
    kinds or stages no player met (big gin, V13, and the 50th card, V7, under most rules) are left out."""
    order = tuple(name for name in order if any(name in player.get(key, {}) for player in _players(result)))
    fig = Figure(figsize=(WIDTH, height), layout="constrained")
    ax = fig.add_subplot()
    names = [player["player"] for player in _players(result)]
    _grouped_bars(ax, breakdown_table(result, key, order), key.removeprefix("by_"), order, names)
    ax.set_title(title)
    return fig


@styled
def kind_chart(result: dict[str, Any]) -> Figure:
    """Points lost per decision by kind of decision, per player, with 95% intervals."""
    return _breakdown_chart(result, "by_kind", KINDS, 4.0, "Where the points are lost: by kind of decision")


def kind_caption(result: dict[str, Any]) -> str:
    table = breakdown_table(result, "by_kind", KINDS)
    worst = table.loc[table["mean_loss"].idxmax()] if len(table) else None
    text = f"{result['hands']:,} hands; each decision valued in {result['evaluator']['worlds']} worlds."
    if worst is not None:
        text += (
            f" The costliest kind per decision: {worst['player']}'s {worst['kind']} decisions, "
            f"{worst['mean_loss']:.2f} points each ({int(worst['decisions']):,} decisions)."
        )
    return text


@styled
def stage_chart(result: dict[str, Any]) -> Figure:
    """Points lost per decision along the hand (early, middle, late stock), per player, with 95% intervals."""
    return _breakdown_chart(result, "by_stage", STAGES, 3.6, "Loss along the hand: early, middle and late stock")


def stage_caption(result: dict[str, Any]) -> str:
    return f"Stages are thirds of the stock a hand starts with; intervals use {units(result)} as the units."


@styled
def luck_chart(result: dict[str, Any]) -> Figure:
    """Each player's net points split into skill and luck (net = skill + luck)."""
    fig = Figure(figsize=(WIDTH, 3.4), layout="constrained")
    ax = fig.add_subplot()
    players = _players(result)
    parts = ("net_points", "skill", "luck")
    width = 0.8 / len(parts)
    for k, part in enumerate(parts):
        values = [player[part] for player in players]
        ax.bar(np.arange(len(players)) + k * width, values, width=width, color=PALETTE[k], label=part.replace("_", " "))
    ax.axhline(0, color="#888888", linewidth=0.8)
    ax.set_xticks(np.arange(len(players)) + width, labels=[player["player"] for player in players])
    ax.set_ylabel("points over the hands analysed")
    ax.set_title("Net points = skill + luck")
    ax.legend(loc="best", fontsize="small")
    return fig


def luck_caption(result: dict[str, Any]) -> str:
    first = _players(result)[0]
    text = (
        f"{first['player']}: net {first['net_points']:+.0f} points = skill {first['skill']:+.0f} + luck "
        f"{first['luck']:+.0f}. Luck is measured event by event: the value of the deal and of each card drawn from "
        "the stock against every card the stock held (it averages to zero); skill is the rest, what both players' "
        "decisions made of the cards"
    )
    if "decisions_value" in first:
        text += f", of which the decisions' valued losses explain {first['decisions_value']:+.0f}"
    return text + " (docs/ANALYSIS.md)."


#: The costliest decisions drawn as cards in :func:`positions_chart`.
POSITIONS_DRAWN = 6
RED_SUITS = ("D", "H")


def _draw_card(ax: Any, x: float, y: float, card: str, edge: str | None = None) -> None:
    """One card face at (x, y) (its lower left corner, in card widths): its rank and suit symbol, red for hearts and
    diamonds; ``edge`` outlines it (the card chosen or the best one)."""
    from matplotlib.patches import FancyBboxPatch

    suit = card[-1]
    ax.add_patch(
        FancyBboxPatch(
            (x, y), 0.82, 1.15, boxstyle="round,pad=0.02,rounding_size=0.08", facecolor="white",
            edgecolor=edge or "#777777", linewidth=2.4 if edge else 0.8,
        )
    )  # fmt: skip
    color = "#c0392b" if suit in RED_SUITS else "#1a1a1a"
    ax.text(x + 0.41, y + 0.57, cards_drawn(card), ha="center", va="center", fontsize=9, color=color, fontweight="bold")


@styled
def positions_chart(result: dict[str, Any], count: int = POSITIONS_DRAWN) -> Figure:
    """The costliest decisions drawn as cards: per decision the player's hand (the card chosen outlined in red and
    the best one in green, for a discard), the pile's top and the cards the other is known to hold."""
    items = list(result["costliest"])[:count]
    rows = max(len(items), 1)
    fig = Figure(figsize=(WIDTH, 1.05 * rows + 0.4), layout="constrained")
    ax = fig.add_subplot()
    ax.set_xlim(-0.15, 21.5)
    ax.set_ylim(0, 2.1 * rows)
    ax.set_axis_off()
    if not items:
        ax.text(0.5, 1.0, "no decision lost points", fontsize=10)
    for k, item in enumerate(items):
        top = 2.1 * (rows - 1 - k)
        ax.text(
            0, top + 1.6,
            f"{k + 1}. hand {item['hand']}, {item['player']}, {item['kind']} ({item.get('stage', '')}): chose "
            f"{_action(item, 'chosen')}, best {_action(item, 'best')}, loss "
            f"{item['loss']:.1f} +/- {item['loss_error']:.1f}",
            fontsize=8.5, va="bottom",
        )  # fmt: skip
        x = 0.0
        for card in str(item.get("hand_cards", "")).split():
            edge = None
            if item["kind"] == "discard":
                edge = "#2e8b57" if card == item["best"] else "#c0392b" if card == item["chosen"] else None
            _draw_card(ax, x, top + 0.25, card, edge)
            x += 0.9
        x += 0.5
        for label, cards in (("pile", item.get("pile_top", "")), ("other holds", item.get("known", ""))):
            shown = str(cards).split()
            if not shown:
                continue
            ax.text(x, top + 0.05, label, fontsize=7, color="#555555", va="top")
            for card in shown:
                _draw_card(ax, x, top + 0.25, card)
                x += 0.9
            x += 0.5
    return fig


def positions_caption(result: dict[str, Any], count: int = POSITIONS_DRAWN) -> str:
    shown = min(count, len(result["costliest"]))
    return (
        f"The {shown} costliest decisions, each position as the player saw it: its hand (for a discard the card "
        "chosen outlined in red, the best in green), the pile's top and the cards the other is known to hold; the "
        "table below has all of them with their replay commands."
    )


def figures(result: dict[str, Any]) -> list[tuple[str, str, Figure, str, str]]:
    """(name, title, figure, caption, table) of every figure."""
    return [
        ("analysis_kinds", "Loss by kind of decision", kind_chart(result), kind_caption(result), "analysis_by_kind"),
        ("analysis_stages", "Loss along the hand", stage_chart(result), stage_caption(result), "analysis_by_stage"),
        ("analysis_luck", "Skill and luck", luck_chart(result), luck_caption(result), "analysis_players"),
        (
            "analysis_positions",
            "The costliest positions",
            positions_chart(result),
            positions_caption(result),
            "analysis_costliest",
        ),
    ]


def title(result: dict[str, Any]) -> str:
    return "Decision analysis: " + " vs ".join(player["player"] for player in _players(result))


def facts(result: dict[str, Any]) -> list[tuple[str, str]]:
    evaluator = result["evaluator"]
    return [
        ("players", ", ".join(player["player"] for player in _players(result))),
        ("hands", f"{result['hands']:,} (duplicate deals: {'yes' if result['duplicate'] else 'no'})"),
        (
            "evaluator",
            f"{evaluator['worlds']} worlds per decision, {evaluator.get('luck_worlds', '-')} per stock draw's luck, "
            f"seed {evaluator['seed']}, in {evaluator['value']}, playouts: {evaluator.get('playouts', 'fast')}",
        ),
        ("seed", str(result["seed"])),
    ]

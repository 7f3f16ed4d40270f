"""The HTML report: each figure function (titles, axes, bars and lines, caption numbers), the tables' CSV files,
the whole build for every result kind, and the ``simgin report`` command (the tables themselves:
tests/test_report_tables.py).

Fixtures are built without playing: known numbers typed in for the captions, and for whole reports the synthetic
results of tests/report_results.py (the ``tournament`` fixture of conftest.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from report_results import synthetic_result, synthetic_sweep, tally_dict
from simgin.reports import figure_style as S, figures as F, variant_figures as V
from simgin.reports.build import (
    knock_limit_table,
    report_figures,
    result_tables,
    write_report,
)
from simgin.reports.document import ReportFigure
from simgin.reports.html import cell
from simgin.reports.tables import seat_edge_intervals

from simgin.cli.report import report as report_command
from simgin.game.rules import Rules
from simgin.running.results import save_result
from simgin.statistics.stats import wilson_interval


def texts(fig: Figure) -> list[str]:
    """Every text drawn in a figure: titles, labels, tick labels, annotations, legend entries."""
    return [t.get_text() for t in fig.findobj(matplotlib.text.Text) if t.get_text()]


# -- formats ----------------------------------------------------------------------------------------------


def test_number_formats():
    assert S.percent(0.61234) == "61.2%"
    assert S.percent(float("nan")) == "n/a"
    assert S.percent(np.float64(0.5)) == "50.0%"
    assert S.percent(np.array(0.25)) == "25.0%"
    assert S.percent_interval(0.598, 0.626) == "(59.8-62.6%)"
    assert S.percent_interval(None, 0.5) == ""
    assert S.number_interval(48.52, 49.59, signed=True) == "(+48.5 to +49.6)"
    assert S.join_phrases(["a", "b", "c"]) == "a, b and c"
    assert cell(float("nan"), "pct") == "-"
    assert cell(12345.678, "f1") == "12,345.7"
    assert cell("x", "text") == "x"


def test_figures_restore_matplotlib_settings(tournament_tables):
    before = {key: matplotlib.rcParams[key] for key in S.STYLE}
    fig = F.outcome_mix_chart(tournament_tables["outcomes"].frame)
    assert isinstance(fig, Figure)
    assert {key: matplotlib.rcParams[key] for key in S.STYLE} == before
    assert fig.axes[0].xaxis.label.get_size() == S.STYLE["axes.labelsize"]  # the style applied inside


# -- one test per figure, with known numbers --------------------------------------------------------------


WIN_RATES = pd.DataFrame(
    [
        ("heuristic", "simple", 0.612, 0.598, 0.626),
        ("simple", "heuristic", 0.388, 0.374, 0.402),
        ("heuristic", "random", 0.970, 0.960, 0.978),
        ("random", "heuristic", 0.030, 0.022, 0.040),
        ("simple", "random", 0.955, 0.940, 0.966),
        ("random", "simple", 0.045, 0.034, 0.060),
    ],
    columns=["player", "opponent", "win_rate", "win_rate_low", "win_rate_high"],
).assign(unit="games")


def test_win_rate_matrix():
    fig = F.win_rate_matrix(WIN_RATES)
    ax = fig.axes[0]
    assert "Win rate" in ax.get_title() and "games" in ax.get_title()
    assert ax.get_xlabel() == "opponent" and ax.get_ylabel() == "strategy"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["heuristic", "simple", "random"]
    cells = [t.get_text() for t in ax.texts]
    assert len(cells) == 6  # no text on the diagonal
    assert "61.2%\n59.8-62.6" in cells
    assert fig.axes[1].get_ylabel() == "games won by the row strategy (%)"  # the colour bar
    image = ax.get_images()[0].get_array()
    assert image[0, 1] == pytest.approx(61.2) and np.ma.is_masked(image[0, 0])


def test_a_plug_in_named_by_its_path_fits_the_win_rate_matrix(recwarn):
    """A plug-in given as ``path/to/file.py:Class`` made labels so long that constrained layout collapsed the
    axes (a warning, overlapping labels): the matrix shows such a name by its end and slants long column labels."""
    plug_in = "/tmp/pytest-of-someone/pytest-24/test_the_html_report_shows_the0/rediscard.py:Rediscard"
    rows = [("simple", plug_in, 0.525), (plug_in, "simple", 0.475)]
    table = pd.DataFrame(
        [(a, b, r, r - 0.15, r + 0.15, "hands") for a, b, r in rows],
        columns=["player", "opponent", "win_rate", "win_rate_low", "win_rate_high", "unit"],
    )
    figure = ReportFigure("win_rates", "Win rates", F.win_rate_matrix(table), "", None)
    figure.render()
    assert not [w for w in recwarn if "collapsed" in str(w.message)]
    ax = figure.figure.axes[0]
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[0] == "simple" and labels[1].startswith("\u2026") and labels[1].endswith("rediscard.py:Rediscard")
    assert len(labels[1]) == F.MAX_LABEL and plug_in.endswith(labels[1][1:])
    assert [t.get_rotation() for t in ax.get_xticklabels()] == [30.0, 30.0]


def test_win_rate_caption():
    caption = F.win_rate_caption(WIN_RATES)
    assert caption.startswith("heuristic wins 97.0% (96.0-97.8%) of games against random")
    assert "the widest margin of 3 pairings" in caption
    assert "the closest is heuristic against simple at 61.2%" in caption
    one = WIN_RATES.iloc[:2]
    assert F.win_rate_caption(one) == "heuristic wins 61.2% (59.8-62.6%) of games against simple."


RATINGS = pd.DataFrame(
    {
        "player": ["heuristic", "simple", "random"],
        "rating": [85.4, 0.0, -410.2],
        "low": [60.2, 0.0, -460.0],
        "high": [110.9, 0.0, -365.5],
        "rank_low": [1.0, 2.0, 3.0],
        "rank_high": [1.0, 2.0, 3.0],
        "anchor": [False, True, False],
    }
)


def test_ratings_chart_and_caption():
    fig = F.ratings_chart(RATINGS)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["random", "simple", "heuristic"]  # best at the top
    assert ax.get_xlabel() == "rating (Elo points, simple = 0)"
    assert "Bradley-Terry" in ax.get_title()
    assert any(t == "+85  rank 1" for t in texts(fig))
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert sorted(legend) == ["anchor (rated 0)", "rating (95% bootstrap interval)"]
    assert F.ratings_caption(RATINGS) == (
        "heuristic is rated +85 Elo (+60 to +111) relative to simple, rank 1 of 3 in 95% of bootstrap replicates."
    )
    best_is_anchor = RATINGS.assign(anchor=[True, False, False], rank_high=[1.0, 3.0, 3.0])
    assert F.ratings_caption(best_is_anchor).startswith(
        "heuristic is rated highest; random is rated -410 Elo (-460 to -366) relative to heuristic, rank 3 of 3"
    )
    swept = best_is_anchor.assign(sweep=[None, None, "lost every game"])
    assert F.ratings_caption(swept) == (
        "heuristic is rated highest; random lost every game, so its rating of -410 Elo relative to heuristic "
        "is a bound set by the prior (one drawn game per pairing), not an estimate."
    )


OUTCOME_COUNTS = pd.DataFrame(
    {
        "label": ["heuristic vs simple", "simple vs random"],
        "hands": [1000.0, 2000.0],
        "knock": [700.0, 1800.0],
        "gin": [150.0, 100.0],
        "big_gin": [0.0, 0.0],
        "undercut": [100.0, 40.0],
        "dead": [50.0, 60.0],
    }
)


def test_outcome_mix_chart():
    fig = F.outcome_mix_chart(OUTCOME_COUNTS)
    ax = fig.axes[0]
    assert len(ax.patches) == 2 * 4  # two bars, four outcomes that happened (no big gin)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["knock", "gin", "undercut", "dead hand"]
    assert ax.get_xlabel() == "share of hands (%)" and ax.get_title().startswith("How hands end")
    widths = sorted(round(p.get_width(), 6) for p in ax.patches)
    assert 70.0 in widths and 90.0 in widths and 2.0 in widths
    assert [t.get_text() for t in ax.get_yticklabels()] == ["heuristic vs simple", "simple vs random"]  # top first
    assert ax.patches[0].get_y() > ax.patches[1].get_y()


def test_outcome_mix_caption():
    one = OUTCOME_COUNTS.iloc[[0]]
    assert F.outcome_mix_caption(one) == (
        "Of the 1,000 hands of heuristic vs simple, 70.0% end in a knock, 15.0% in gin, 10.0% in an undercut "
        "and 5.0% are dead hands."
    )
    assert F.outcome_mix_caption(OUTCOME_COUNTS) == (
        "Across the 2 pairings, the share of hands ending in gin from 5.0% (simple vs random) to 15.0% "
        "(heuristic vs simple), undercut from 2.0% (simple vs random) to 10.0% (heuristic vs simple) and "
        "dead hand from 3.0% (simple vs random) to 5.0% (heuristic vs simple)."
    )


def deadwood_fixture() -> pd.DataFrame:
    rows = []
    for d in range(11):
        knocks_x = {0: 50, 5: 100, 9: 100}.get(d, 0)
        undercut_x = {5: 10, 9: 30}.get(d, 0)
        rows.append({"player": "simple", "deadwood": d, "knocks": knocks_x, "undercut": undercut_x})
        rows.append({"player": "random", "deadwood": d, "knocks": 0, "undercut": 0})
        rows.append({"player": "heuristic", "deadwood": d, "knocks": 40 if d in (2, 4) else 0, "undercut": 0})
    return pd.DataFrame(rows)


def test_undercut_chart_and_caption():
    table = deadwood_fixture()
    fig = F.undercut_chart(table)
    left, right = fig.axes
    assert [t.get_text() for t in left.get_yticklabels()] == ["simple", "heuristic"]  # random never knocked
    assert [round(p.get_width(), 6) for p in left.patches] == [16.0, 0.0]  # 40 of 250 knocks
    assert left.get_xlabel() == right.get_ylabel() == "knocks undercut (%)"
    assert right.get_xlabel().startswith("knocker's deadwood at the knock (points")
    lines = right.get_lines()
    assert len(lines) == 2
    y = lines[0].get_ydata()
    assert y[4] == pytest.approx(10.0) and y[8] == pytest.approx(30.0) and np.isnan(y[0])  # bins 5 and 9; bin 1 empty
    assert fig.get_suptitle().startswith("How often a knock is undercut")
    assert F.undercut_caption(table) == (
        "simple's knocks are undercut 16.0% of the time (40 of 250), most often at deadwood 9 (30.0% of 100); "
        "heuristic's knocks are undercut 0.0% of the time (0 of 80)."
    )


def test_undercut_chart_labels_do_not_overlap_with_four_knockers():
    """Figure 5 with the quick start's four bots: no two knocker labels (or the panels' tick labels) overlap."""
    names = ["simple", "greedy", "heuristic", "opponent"]
    table = pd.DataFrame(
        [
            {"player": name, "deadwood": d, "knocks": 30, "undercut": i + d % 3}
            for i, name in enumerate(names)
            for d in range(11)
        ]
    )
    fig = F.undercut_chart(table)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    for ax in fig.axes:
        for labels in (ax.get_xticklabels(), ax.get_yticklabels()):
            boxes = [label.get_window_extent(renderer) for label in labels if label.get_text()]
            for i, first in enumerate(boxes):
                for second in boxes[i + 1 :]:
                    assert not first.overlaps(second), (ax.get_title(), [label.get_text() for label in labels])
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == names


def test_knock_deadwood_chart_and_caption():
    table = deadwood_fixture()
    fig = F.knock_deadwood_chart(table)
    ax = fig.axes[0]
    assert len(ax.patches) == 2 * 11
    assert ax.get_xlabel() == "knocker's deadwood at the knock (points)"
    assert ax.get_ylabel() == "share of the strategy's knocks (%)"
    assert ax.get_xticklabels()[0].get_text() == "0\n(gin)"
    assert sum(p.get_height() for p in ax.patches[:11]) == pytest.approx(100.0)
    assert F.knock_deadwood_caption(table) == (
        "simple knocks at a mean deadwood of 5.6 points, and 20.0% of its 250 knocks are gin; "
        "heuristic knocks at a mean deadwood of 3.0 points, and 0.0% of its 80 knocks are gin."
    )


def test_hand_length_chart_and_caption():
    table = pd.DataFrame(
        {"label": "simple vs random", "turns": range(61), "hands": [10.0 if 10 <= t < 20 else 0.0 for t in range(61)]}
    ).assign(mean_turns=14.5)
    table.loc[table["turns"] == 45, "hands"] = 5.0
    fig = F.hand_length_chart(table)
    ax = fig.axes[0]
    assert len([line for line in ax.get_lines() if line.get_label() == "simple vs random"]) == 1
    assert ax.get_xlabel().startswith("hand length (turns") and ax.get_ylabel() == "share of hands (%)"
    assert F.hand_length_caption(table) == (
        "Hands of simple vs random last 14.5 turns on average (median 15), and 4.8% last 40 turns or more."
    )
    two = pd.concat([table, table.assign(label="a vs b", mean_turns=20.25)])
    assert (
        F.hand_length_caption(two)
        == "Mean hand length ranges from 14.5 turns (simple vs random) to 20.2 turns (a vs b)."
    )
    assert len(F.hand_length_chart(two).axes[0].get_legend().get_texts()) == 2


POINTS = pd.DataFrame(
    {
        "player": ["simple", "random"],
        "opponent": ["random", "simple"],
        "points_per_hand": [49.11, 0.05],
        "net_points_per_hand": [49.06, -49.06],
        "net_points_low": [48.53, -49.58],
        "net_points_high": [49.58, -48.53],
    }
)


def test_points_chart_and_caption():
    fig = F.points_chart(POINTS)
    left, right = fig.axes
    assert len(left.patches) == 2
    assert left.get_xlabel() == "points won per hand"
    assert right.get_xlabel() == "net points per hand (won - lost)"
    assert [t.get_text() for t in left.get_yticklabels()] == ["simple vs random", "random vs simple"]
    assert F.points_caption(POINTS) == (
        "simple wins 49.1 points per hand against random's 0.1, a net +49.1 (+48.5 to +49.6) points per hand."
    )


def seat_table(**columns: list[float] | str) -> pd.DataFrame:
    """A seat-edge table of two pairings with the intervals :func:`seat_edge_intervals` gives tallies that have no
    per-unit sums (an older result: hands as the units)."""
    frame = pd.DataFrame(
        {
            "label": ["a vs b", "a vs c"],
            "hands": [1000.0, 1000.0],
            "scored": [950.0, 950.0],
            "first_player_wins": [500.0, 545.0],
            "dealer_net": [-200.0, -300.0],
            "net_sq": [800_000.0, 800_000.0],
            "games": [0.0, 0.0],
            "first_dealer_wins": [0.0, 0.0],
        }
    ).assign(**columns)
    return with_seat_intervals(frame)


def with_seat_intervals(frame: pd.DataFrame) -> pd.DataFrame:
    rows = [seat_edge_intervals(row | {"net_a_sq": row["net_sq"]}) for row in frame.to_dict(orient="records")]
    return frame.assign(**pd.DataFrame(rows, index=frame.index))


SEAT = seat_table()
#: The two pairings of SEAT summed, as one pairing.
ONE_PAIRING = {"scored": 1900.0, "first_player_wins": 1045.0, "hands": 2000.0, "dealer_net": -500.0, "net_sq": 1.6e6}


def test_seat_edge_chart_and_caption():
    fig = F.seat_edge_chart(SEAT)
    left, right = fig.axes
    assert left.get_title() == "First-player edge" and right.get_title() == "Dealer edge"
    assert left.get_xlabel() == "share won (%, 95% interval)"
    assert right.get_xlabel() == "dealer's net points per hand (95% interval)"
    low, high = wilson_interval(1045, 1900)
    # Dealer: mean -0.25 per hand; variance (1_600_000 - 2000 * 0.0625) / 1999 per hand.
    half = 1.959963984540054 * np.sqrt((1_600_000 - 2000 * 0.0625) / 1999 / 2000)
    assert F.seat_edge_caption(with_seat_intervals(SEAT.iloc[:1].assign(**ONE_PAIRING))) == (
        f"The non-dealer, who plays first, wins 55.0% ({100 * low:.1f}-{100 * high:.1f}%) of 1,900 scored hands, and "
        f"the dealer nets -0.25 ({-0.25 - half:+.2f} to {-0.25 + half:+.2f}) points per hand (hands as the units)."
    )
    assert F.seat_edge_caption(SEAT).startswith(  # the pairings play the same deals: no pooled interval
        "Over all pairings, the non-dealer, who plays first, wins 55.0% of 1,900 scored hands, and the dealer nets "
        "-0.25 points per hand (no pooled interval"
    )
    games = seat_table(games=[100.0, 100.0], first_dealer_wins=[60.0, 50.0], dealer_rotation="loser")
    assert len(F.seat_edge_chart(games).axes[0].get_legend().get_texts()) == 2
    assert F.seat_edge_caption(games).endswith(
        "; the first dealer wins 55.0% of games (the loser of a hand deals the next, so the hand figures mix seat and "
        "strength)."
    )


def limit_fixture() -> pd.DataFrame:
    """A Standard cell (every hand at limit 10) and an Oklahoma cell (100 hands at each limit 1-10), one pairing."""
    standard = tally_dict(
        hands=1000, scored=998, gin=30, knock=968, dead=2, turns=15000, points_a=15000, points_b=10000,
        limit10_hands=1000, limit10_gin=30, limit10_knock=968, limit10_dead=2, limit10_turns=15000,
        limit10_points=25000,
    )  # fmt: skip
    fields = {"hands": 1000, "scored": 980, "doubled": 245, "turns": 15000, "points_a": 18000, "points_b": 12000}
    for limit in range(1, 11):
        gin = {1: 40, 10: 5}.get(limit, 10)
        fields |= {f"limit{limit}_hands": 100, f"limit{limit}_gin": gin, f"limit{limit}_dead": 2}
        fields |= {f"limit{limit}_knock": 98 - gin, f"limit{limit}_turns": 1500, f"limit{limit}_points": 3000}
    oklahoma = tally_dict(**fields)
    return knock_limit_table(
        [
            (0, "oklahoma=false", False, [("simple", "random", standard)]),
            (1, "oklahoma=true", True, [("simple", "random", oklahoma)]),
        ]
    )


def test_knock_limit_chart_and_caption():
    table = limit_fixture()
    (block,) = V.knock_limit_blocks(table)
    assert block == (1, "oklahoma=true", "simple vs random")
    fig = V.knock_limit_chart(table, block)
    mix, points, turns = fig.axes
    assert len(mix.patches) == 10 * 3  # limits 1-10, knock/gin/dead
    assert "25.0% of scored hands doubled" in mix.get_title()
    assert points.get_ylabel() == "points per hand" and turns.get_ylabel() == "turns per hand"
    assert [line.get_label() for line in points.get_lines()] == ["oklahoma=true", "oklahoma=false"]
    assert fig.get_suptitle() == "oklahoma=true, simple vs random: the up card's knock limit against oklahoma=false"
    assert V.knock_limit_caption(table, block) == (
        "Under oklahoma=true, simple vs random: gin ends 40.0% of hands at knock limit 1 against 5.0% at limit 10, "
        "25.0% of scored hands are doubled by a spade up card, and a hand scores 30.0 points against 25.0 under "
        "oklahoma=false (the same pairing)."
    )
    standard_only = table[~table["oklahoma"]]
    assert V.knock_limit_blocks(standard_only) == []


def group_fixture(switch: str, values: list, held: str = "") -> pd.DataFrame:
    rows = []
    for i, value in enumerate(values):
        hands = 1000.0
        rows.append(
            {
                "switch": switch,
                "value": value,
                "label": f"{switch}={value}" if switch != "oklahoma" else ("Oklahoma" if value else "Standard"),
                "held": held,
                "cell": 2 * i,
                "cell_label": f"{switch}={value}",
                "pairing": "simple vs random",
                "player": "simple",
                "opponent": "random",
                "hands": hands,
                "knock": 900.0 - 100 * i,
                "gin": 50.0 + 100 * i,
                "big_gin": 0.0,
                "undercut": 30.0,
                "dead": 20.0,
                "knock_rate": (900.0 - 100 * i) / hands,
                "gin_rate": (50.0 + 100 * i) / hands,
                "big_gin_rate": 0.0,
                "undercut_rate": 0.03,
                "dead_rate": 0.02,
                "first_player_win_rate": 0.5,
                "win_rate": 0.9 + 0.02 * i,
                "win_rate_low": 0.88 + 0.02 * i,
                "win_rate_high": 0.92 + 0.02 * i,
                "mean_turns": 16.0 + 2 * i,
                "points_per_hand": 50.0 + 10 * i,
                "hands_per_game": np.nan,
                "doubled_share": 0.25 if (switch == "oklahoma" and value) else 0.0,
            }
        )
    return pd.DataFrame(rows)


def test_sweep_chart_and_caption():
    table = group_fixture("knock_limit", [6, 8, 10], held="oklahoma at false")
    fig = V.sweep_chart(table)
    rates, win, turns, points = fig.axes
    assert [line.get_label() for line in rates.get_lines()] == [
        "knock",
        "gin",
        "undercut",
        "dead hand",
        "first player wins (of scored)",
    ]  # big gin never happened
    assert rates.get_xlabel() == "knock_limit (points)" and rates.get_ylabel() == "share (%)"
    assert list(win.get_lines()[0].get_ydata()) == pytest.approx([90.0, 92.0, 94.0])
    assert turns.get_ylabel() == "turns per hand" and points.get_ylabel() == "points per hand"
    assert fig.get_suptitle() == (
        "Sweep over knock_limit, simple vs random (other switches at the baseline's values: oklahoma at false)"
    )
    assert V.sweep_caption(table) == (
        "simple vs random, cells 0 (knock_limit=6); 2 (knock_limit=8); 4 (knock_limit=10) (other switches at the "
        "baseline's values: oklahoma at false): from knock_limit 6 to 10, simple's win rate against random goes "
        "from 90.0% to 94.0%, the knock share of hands from 90.0% to 70.0% and mean hand length from 16.0 to 20.0 "
        "turns."
    )
    games = table.assign(hands_per_game=[3.0, 3.5, 4.0])
    assert len([ax for ax in V.sweep_chart(games).axes if ax.get_visible()]) == 5


def test_variant_chart_and_caption():
    table = group_fixture("oklahoma", [False, True])
    fig = V.variant_chart(table)
    mix, turns, points, win = fig.axes
    assert len(mix.patches) == 2 * 4
    assert [t.get_text() for t in turns.get_yticklabels()] == ["Standard", "Oklahoma"]
    assert turns.get_xlabel() == "turns per hand" and points.get_xlabel() == "points per hand"
    assert win.get_xlabel() == "simple's win rate (%)"
    assert fig.get_suptitle() == "Rule variants compared: oklahoma, simple vs random"
    assert V.variant_caption(table) == (
        "simple vs random, cells 0 (oklahoma=False); 2 (oklahoma=True): Oklahoma hands last 18.0 turns against "
        "16.0 under Standard, score 60.0 points against 50.0 and end in gin 15.0% against 5.0% of the time; 25.0% of "
        "Oklahoma's scored hands are doubled."
    )


def test_sprt_chart_and_caption():
    result = {
        "players": ["simple", "random"],
        "sprt": {
            "model": "logistic",
            "elo0": 0.0,
            "elo1": 10.0,
            "decision": "H1",
            "games": 300,
            "pairs": 150,
            "llr": 3.1,
            "lower": -2.944,
            "upper": 2.944,
            "elo": 120.4,
            "elo_low": 80.2,
            "elo_high": 160.9,
            "los": 0.9999,
            "trajectory": [{"games": 100.0, "llr": 1.0}, {"games": 200.0, "llr": 2.2}, {"games": 300.0, "llr": 3.1}],
        },
    }
    fig = F.sprt_chart(result)
    ax = fig.axes[0]
    trajectory = ax.get_lines()[0]
    assert list(trajectory.get_xdata()) == [0.0, 100.0, 200.0, 300.0]
    assert len(ax.get_lines()) == 4  # the LLR, two bounds and zero
    assert ax.get_xlabel().startswith("games played") and ax.get_ylabel() == "log-likelihood ratio"
    assert "simple vs random" in ax.get_title()
    assert "H1 accepted (Elo ≥ 10)" in texts(fig)
    assert F.sprt_caption(result) == (
        "H1 accepted after 300 games (150 pairs): the LLR 3.10 reached the upper bound 2.94; simple is +120.4 Elo "
        "(+80.2 to +160.9) against random, LOS 100.0%."
    )
    undecided = {**result, "sprt": {**result["sprt"], "decision": "max games", "llr": 1.5, "elo_low": None}}
    assert F.sprt_caption(undecided).startswith(
        "No decision after 300 games (150 pairs): the LLR 1.50 stayed between -2.94 and 2.94"
    )
    assert "(no finite interval: one side won every pair)" in F.sprt_caption(undecided)


def test_figures_shown_only_with_data(tournament):
    names = [f.name for f in report_figures(tournament, result_tables(tournament))]
    assert names == [
        "ratings",
        "win_rates",
        "outcomes",
        "knock_deadwood",
        "undercuts",
        "hand_length",
        "points_per_hand",
        "seat_edge",
    ]
    compare = synthetic_result("compare", players=("simple", "random"), pairs=100)
    compare_names = [f.name for f in report_figures(compare, result_tables(compare))]
    assert compare_names[0] == "sprt" and "ratings" not in compare_names and "knock_limits" not in compare_names


# -- the whole report ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def written(tournament, tmp_path_factory) -> tuple[Path, object]:
    directory = tmp_path_factory.mktemp("tournament")
    save_result(directory, tournament)
    return directory, write_report(directory, directory / "out" / "report.html", png=False)


def test_report_files(written, tournament_tables):
    directory, files = written
    assert files.html == directory / "out" / "report.html"
    folder = directory / "out" / "report_files"
    assert {p.name for p in files.figures} == {
        f"{n}.svg"
        for n in (
            "ratings",
            "win_rates",
            "outcomes",
            "knock_deadwood",
            "undercuts",
            "hand_length",
            "points_per_hand",
            "seat_edge",
        )
    } and not list(folder.glob("*.png"))
    for path in files.figures:
        assert path.parent == folder and path.stat().st_size > 1000
    assert (folder / "ratings.svg").read_text().lstrip().startswith("<?xml")
    outcomes = pd.read_csv(folder / "outcomes.csv")
    expected = tournament_tables["outcomes"].frame
    pd.testing.assert_frame_equal(outcomes, expected, check_dtype=False)
    assert {p.stem for p in files.tables} == set(tournament_tables)


def test_report_html_is_self_contained(written):
    _, files = written
    html = files.html.read_text()
    assert html.startswith("<!DOCTYPE html>")
    images = re.findall(r'<img src="data:image/svg\+xml;base64,[A-Za-z0-9+/=]+"', html)
    assert len(images) == 8
    assert not re.search(r'(src|href)="(https?:)?//', html)  # nothing to fetch: works offline
    assert "<link" not in html
    assert html.count("<figcaption>") == 8
    assert "Figure 1. Ratings.</strong> heuristic is rated +" in html
    assert 'href="report_files/outcomes.csv"' in html
    assert "Tournament: heuristic, simple, random" in html


def test_figure_files_are_reproducible():
    first, second = (ReportFigure("w", "W", F.win_rate_matrix(WIN_RATES), "", None) for _ in range(2))
    first.render()
    second.render()
    assert first.svg == second.svg and b"<svg" in first.svg
    assert first.png[:8] == b"\x89PNG\r\n\x1a\n"
    assert first.size_px[0] > 400


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_build_report_for_every_kind(tmp_path):
    from simgin.reports import build_report

    results = {
        "compare": synthetic_result("compare", players=("simple", "random"), pairs=100),
        "sweep": synthetic_sweep(pairs=100),
    }
    for kind, result in results.items():
        directory = tmp_path / kind
        save_result(directory, result)
        html_path = build_report(directory)
        assert html_path == directory / "report.html"
        html = html_path.read_text()
        assert f"simgin report &middot; {kind}" in html
        assert html.count("<figure ") >= 2, kind


# -- the command ---------------------------------------------------------------------------------------------


def run(*args: str):
    return CliRunner().invoke(report_command, list(args))


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_report_command_json(tmp_path):
    directory = tmp_path / "run"
    save_result(directory, synthetic_result("match", players=("simple", "random"), pairs=50))
    result = run(str(directory), "--json")
    assert result.exit_code == 0, result.output
    paths = json.loads(result.output)
    assert paths["html"] == str(directory / "report.html")
    assert all(Path(p).is_file() for p in [paths["html"], *paths["figures"], *paths["tables"]])
    assert any(p.endswith("win_rates.svg") for p in paths["figures"])
    assert (
        Path(next(p for p in paths["figures"] if p.endswith("win_rates.png"))).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    )
    # --no-png: the same SVG files and page, without the PNG files or links to them.
    text = run(str(directory), "-o", str(tmp_path / "elsewhere.html"), "--no-png")
    assert text.exit_code == 0
    assert text.output.startswith(f"wrote {tmp_path / 'elsewhere.html'}, ")
    svgs = sorted(Path(p).name for p in paths["figures"] if p.endswith(".svg"))
    assert f"{len(svgs)} figures (SVG) and {len(paths['tables'])} tables (CSV)" in text.output
    elsewhere = tmp_path / "elsewhere_files"
    assert sorted(p.name for p in elsewhere.glob("*.svg")) == svgs and not list(elsewhere.glob("*.png"))
    for name in svgs:
        assert (elsewhere / name).read_bytes() == (directory / "report_files" / name).read_bytes()
    page, first_page = (tmp_path / "elsewhere.html").read_text(), (directory / "report.html").read_text()
    assert ".png" not in page and first_page.count('.png">PNG</a>') == len(svgs)
    assert re.sub(r'<a href="[^"]*\.png">PNG</a> &middot; ', "", first_page) == page.replace(
        "elsewhere_files", "report_files"
    )
    assert (elsewhere / "outcomes.csv").is_file()


def test_png_is_true_or_false(tmp_path):
    with pytest.raises(TypeError, match=r"png='no': give True or False"):
        write_report(tmp_path, png="no")


def test_report_command_errors(tmp_path):
    missing = run(str(tmp_path / "nope"))
    assert missing.exit_code == 1
    assert missing.output.startswith("Error: ") and "no such directory" in missing.output
    assert missing.output.count("\n") == 1
    empty = run(str(tmp_path))
    assert empty.exit_code == 1 and "no result.json" in empty.output and empty.output.count("\n") == 1
    (tmp_path / "result.json").write_text(json.dumps({"kind": "poker"}))
    bad = run(str(tmp_path))
    assert bad.exit_code == 1 and "unknown result kind 'poker'" in bad.output
    (tmp_path / "result.json").write_text(json.dumps({"kind": "match", "players": ["a"]}))
    odd = run(str(tmp_path))
    assert odd.exit_code in (0, 1) and "Traceback" not in odd.output


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_report_command_help_example_runs_as_written(tmp_path, monkeypatch):
    """The help's example: a real (small) tournament, then its report."""
    import click

    from simgin.cli.main import main

    # simgin.cli.main registers the command from simgin.cli.report.COMMANDS; a copy of the group makes sure of it here.
    main = click.Group("simgin", commands={**main.commands, "report": report_command})
    help_text = CliRunner().invoke(main, ["report", "--help"]).output
    examples = [line.split()[1:] for line in help_text.splitlines() if line.strip().startswith("simgin ")]
    assert [e[0] for e in examples] == ["tournament", "report"]
    monkeypatch.chdir(tmp_path)
    for example in examples:
        outcome = CliRunner().invoke(main, example)
        assert outcome.exit_code == 0, f"simgin {' '.join(example)}: {outcome.output}"
    html = (tmp_path / "demo-run" / "report.html").read_text()
    assert "Tournament: simple, random" in html and "data-images" in html
    assert Rules().knock_limit == 10  # the example plays the standard rules

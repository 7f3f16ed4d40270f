"""The report of a variant study (issue 23, item 4): ``simgin report DIR`` on a sweep answers the study's question
first - a finding per varied switch with the numbers of result.json, a forest plot of the significant differences,
heat maps only with two or more switches - and a ``preset=oklahoma`` cell is Oklahoma (its recorded rules)."""

from __future__ import annotations

import copy
import html
import itertools
import re
from pathlib import Path

import pandas as pd
import pytest
from simgin.reports import study
from simgin.reports.build import _facts as report_facts, report_figures, result_tables, write_report

import simgin
from simgin.running.results import load_result

THREE = ["simple", "greedy", "random"]
GRID = ["preset=standard,oklahoma", "gin_bonus=20,30"]


def findings(path: Path) -> list[str]:
    """The items of the report's first section (Findings), as plain text."""
    page = path.read_text()
    start = page.index('<section id="findings">')
    section = page[start : page.index("</section>", start)]
    return [html.unescape(re.sub(r"<[^>]+>", "", item)) for item in re.findall(r"<li>(.*?)</li>", section, re.S)]


def pct(value: float) -> str:
    return f"{100 * value:.1f}%"


@pytest.fixture(scope="module")
def three(tmp_path_factory) -> tuple[dict, Path]:
    """simple, greedy, random over preset=standard,oklahoma x gin_bonus=20,30, 20 games per pairing and cell."""
    out = tmp_path_factory.mktemp("study") / "three"
    simgin.sweep(THREE, GRID, games=20, workers=1, out=out)
    written = write_report(out, png=False)
    return load_result(out), written.html


@pytest.fixture(scope="module")
def two(tmp_path_factory) -> tuple[dict, Path]:
    """simple vs random over preset=standard,oklahoma: one switch, two players."""
    out = tmp_path_factory.mktemp("study") / "two"
    simgin.sweep(["simple", "random"], ["preset=standard,oklahoma"], games=60, workers=1, out=out)
    written = write_report(out, png=False)
    return load_result(out), written.html


def win_difference(result: dict, cell: int, against: str) -> dict:
    (found,) = [
        d
        for d in result["differences"]
        if d["cell_index"] == cell and d["metric"] == "win_rate" and d["a"] == "simple" and d["b"] == against
    ]
    return found


def cell_index(result: dict, **settings) -> int:
    (index,) = [i for i, cell in enumerate(result["cells"]) if cell["settings"] == settings]
    return index


@pytest.mark.slow  # a sweep and its whole report (the module fixture): the long tier (tests/tiers.py)
def test_the_first_findings_are_one_per_switch_with_the_numbers_of_result_json(three):
    result, page = three
    items = findings(page)
    assert [item.split(":", 1)[0] for item in items[:2]] == ["Effect of preset", "Effect of gin_bonus"]
    baseline = result["cells"][result["baseline"]["cell"]]
    assert baseline["settings"] == {"preset": "standard", "gin_bonus": 20}
    base_rate = baseline["first_named"]["win_rate"]
    for item, (switch, other) in zip(items[:2], [("preset", "oklahoma"), ("gin_bonus", 30)], strict=True):
        settings = dict(baseline["settings"]) | {switch: other}
        index = cell_index(result, **settings)
        d = win_difference(result, index, "the others")
        named = result["cells"][index]["first_named"]
        low, high = named["win_rate_ci"]
        assert f"simple's share of games won against the others is {pct(base_rate)}" in item
        assert f"{pct(named['win_rate'])} ({100 * low:.1f}-{100 * high:.1f}%) under {switch}={other}" in item
        assert f"{100 * d['difference']:+.1f} points" in item
        assert f"95% CI {100 * d['ci'][0]:+.1f} to {100 * d['ci'][1]:+.1f}" in item
        assert f"p_holm = {d['p_holm']:.2g}" in item or (d["p_holm"] < 1e-6 and "p_holm < 1e-6" in item)
        assert ("not significant" in item) != d["significant"]
        assert f"over all {result['comparisons']} comparisons" in item
    held = items[0].split(":", 1)[1]
    assert "With gin_bonus at 20" in held and "With preset at standard" in items[1]


@pytest.mark.slow  # a sweep and its whole report (the module fixture): the long tier (tests/tiers.py)
def test_the_study_comes_before_the_other_sweep_figures(three):
    result, _ = three
    names = [figure.name for figure in report_figures(result, result_tables(result))]
    assert names[:2] == ["effect_preset", "effect_gin_bonus"]
    assert names.index("heatmap_preset_gin_bonus") < names.index("variants_preset_1")
    assert "sweep_cells" in result_tables(result)  # the old tables are still there


@pytest.mark.slow  # a sweep and its whole report (the module fixture): the long tier (tests/tiers.py)
def test_the_header_counts_the_significant_differences(three):
    result, _ = three
    facts = dict(report_facts(result))  # the header alone: build() would draw every figure first
    significant = sum(d["significant"] for d in result["differences"])
    assert facts["differences"].startswith(f"{significant} of {result['comparisons']} comparisons")


@pytest.mark.slow  # a sweep and its whole report (the module fixture): the long tier (tests/tiers.py)
def test_a_preset_oklahoma_cell_is_oklahoma(three):
    result, page = three
    assert all("oklahoma" not in cell["settings"] for cell in result["cells"])  # only the preset says so
    limits = result_tables(result)["knock_limits"].frame
    oklahoma = limits[limits["oklahoma"]]
    cells = [
        i for i, c in enumerate(result["cells"]) if c["settings"]["preset"] == "oklahoma" and c["same_game_as"] is None
    ]
    assert sorted(set(oklahoma["cell"])) == cells
    for index in cells:
        for p in result["cells"][index]["pairings"]:
            block = oklahoma[(oklahoma["cell"] == index) & (oklahoma["pairing"] == f"{p['a']} vs {p['b']}")]
            assert block["hands"].sum() == p["tally"]["hands"]
    assert "knock_limits_1" in [figure.name for figure in report_figures(result, result_tables(result))]
    assert any(item.startswith("Knock limit: Under preset=oklahoma, gin_bonus=") for item in findings(page))


@pytest.mark.slow  # a sweep and its whole report (the module fixture): the long tier (tests/tiers.py)
def test_heatmaps_hold_the_cells_numbers(three):
    result, _ = three
    table = result_tables(result)["heatmap_preset_gin_bonus"].frame
    assert len(table) == 4
    for row in table.itertuples():
        cell = result["cells"][row.cell]
        assert cell["settings"] == {"preset": row.row_value, "gin_bonus": int(row.column_value)}
        assert row.win_rate == cell["first_named"]["win_rate"]
        assert row.skill_spread == cell["skill_spread"]["spread"]
        tallies = [p["tally"] for p in cell["pairings"]]
        assert row.first_player_win_rate == pytest.approx(
            sum(t["first_player_wins"] for t in tallies) / sum(t["scored"] for t in tallies)
        )
        assert row.hands_per_game == pytest.approx(
            sum(p["hands"] for p in cell["pairings"]) / sum(p["games"] for p in cell["pairings"])
        )
    figure = next(f for f in report_figures(result, result_tables(result)) if f.name == "heatmap_preset_gin_bonus")
    assert len([ax for ax in figure.figure.axes if ax.get_visible() and ax.images]) == 4
    assert "skill spread is widest under" in figure.caption and "games last" in figure.caption


@pytest.mark.slow  # a sweep and its whole report (the module fixture): the long tier (tests/tiers.py)
def test_heatmaps_only_with_two_or_more_switches(two, three):
    for (result, _), expected in ((two, []), (three, ["heatmap_preset_gin_bonus"])):
        names = [figure.name for figure in report_figures(result, result_tables(result))]
        assert [name for name in names if name.startswith("heatmap")] == expected


def forest_rows(figure) -> int:
    return sum(len(ax.get_yticklabels()) for ax in figure.axes if ax.get_visible())


@pytest.mark.slow  # a sweep and its whole report (the module fixture): the long tier (tests/tiers.py)
def test_the_differences_figure_has_one_row_per_significant_difference(two):
    result, page = two
    significant = [d for d in result["differences"] if d["significant"]]
    assert significant, "the two-player preset study should find Oklahoma's points per hand"
    (figure,) = [f for f in report_figures(result, result_tables(result)) if f.name == "differences"]
    assert forest_rows(figure.figure) == len(significant)
    assert figure.caption.startswith(f"{len(significant)} of {result['comparisons']} comparisons")
    assert any(d["text"] in figure.caption for d in significant)
    assert any(item.startswith("Significant differences: ") for item in findings(page))


@pytest.mark.slow  # a sweep and its whole report (the module fixture): the long tier (tests/tiers.py)
def test_the_differences_figure_follows_the_flags(three):
    """Rows are the differences flagged significant, whichever they are (made-up flags on a real result)."""
    result, _ = three
    assert not any(d["significant"] for d in result["differences"])
    names = [figure.name for figure in report_figures(result, result_tables(result))]
    assert "differences" not in names
    marked = copy.deepcopy(result)
    chosen = [0, 3, 17, 40, 41]
    for i in chosen:
        marked["differences"][i]["significant"] = True
    table = study.significant_table(marked)
    assert len(table) == len(chosen) and set(table["cell"]) == {marked["differences"][i]["cell_index"] for i in chosen}
    figure = study.differences_chart(table)
    assert forest_rows(figure) == len(chosen)
    legend = figure.legends[0]
    assert len(legend.get_texts()) == len(set(table["cell"]))


@pytest.mark.slow  # a sweep and its whole report (the module fixture): the long tier (tests/tiers.py)
def test_a_two_player_study_reads_its_pairing(two):
    result, page = two
    first = findings(page)[0]
    assert first.startswith("Effect of preset: simple's share of games won against random is ")
    oklahoma = cell_index(result, preset="oklahoma")
    rate = result["cells"][oklahoma]["pairings"][0]["win_rate"]
    assert f"{pct(rate)} " in first and "under preset=oklahoma" in first
    limits = result_tables(result)["knock_limits"].frame
    assert set(limits.loc[limits["oklahoma"], "label"]) == {"preset=oklahoma"}


# -- tune-rules: the verdict in numbers, first ----------------------------------------------------------------


@pytest.fixture(scope="module")
def tuned(tmp_path_factory) -> tuple[dict, Path]:
    from simgin.studies.tune_rules import tune_rules

    out = tmp_path_factory.mktemp("study") / "tune-rules"
    tune_rules(
        ["greedy", "simple"], "skill", ["knock_limit=8..10", "big_gin"], budget=6, games=8, final=40, seed=2,
        workers=1, out=out,
    )  # fmt: skip
    return load_result(out), write_report(out, png=False).html


@pytest.mark.slow  # a sweep and its whole report (the module fixture): the long tier (tests/tiers.py)
def test_a_tune_rules_report_states_the_verdict_in_numbers_first(tuned):
    result, page = tuned
    first = findings(page)[0]
    assert first.startswith("Final comparison: ")
    assert f"{pct(result['start_score'])} (95% CI {100 * result['start_score_ci'][0]:.1f}" in first
    assert f"{pct(result['found_score'])}" in first and "paired p = " in first
    assert result["verdict"][1:] in first


@pytest.mark.slow  # a sweep and its whole report (the module fixture): the long tier (tests/tiers.py)
def test_a_tune_rules_caption_gives_the_paired_difference_when_the_rules_differ(tuned):
    from simgin.reports import tune_rules as report

    result = copy.deepcopy(tuned[0])
    result["found_rules"] = {"knock_limit": 9, "big_gin": True}
    result["found_score"] = 0.712
    result["difference"] = {"difference": 0.037, "low": 0.011, "high": 0.063, "p_value": 0.004}
    result["p_value"] = 0.004
    caption = report.final_caption(result)
    assert "found rules (knock_limit=9, big_gin=true) score 71.2%" in caption
    assert "found minus start +3.7 points (95% CI +1.1 to +6.3), paired p = 0.004" in caption
    same = report.final_caption(tuned[0]) if tuned[0]["found_rules"] == tuned[0]["start_rules"] else None
    if same is not None:
        assert same.startswith("The search's best rules are the start rules")


# -- long grids and switches without effect -------------------------------------------------------------------


def test_a_switch_without_effect_is_named_as_the_same_game():
    result = simgin.sweep(["simple", "random"], ["preset=oklahoma", "knock_limit=8,10"], games=10, workers=1)
    data = result.result_data()
    assert data["cells"][1]["same_game_as"] == 0  # the up card sets the knock limit under Oklahoma
    (figure,) = [f for f in report_figures(data, result_tables(data)) if f.name == "effect_knock_limit"]
    assert "against the same game under knock_limit=10 (the switch has no effect there)" in figure.caption
    table = result_tables(data)["effect_knock_limit"].frame
    assert table["same_game_as_baseline"].tolist() == [False, True] and table["difference"].tolist()[1] == 0.0


def effect_fixture(values: int) -> pd.DataFrame:
    rows = []
    for k in range(values):
        rows.append(
            {
                "switch": "knock_limit",
                "value": str(k),
                "baseline": k == 0,
                "same_game_as_baseline": False,
                "player": "simple",
                "against": "the others",
                "unit": "games",
                "win_rate": 0.5 + 0.02 * k,
                "win_rate_low": 0.45 + 0.02 * k,
                "win_rate_high": 0.55 + 0.02 * k,
                "difference": 0.02 * k,
                "difference_low": 0.02 * k - 0.01,
                "difference_high": 0.02 * k + 0.01,
                "p_holm": 0.001 if k >= 4 else 0.5,
                "significant": k >= 4,
            }
        )
    return pd.DataFrame(rows)


def test_a_long_switch_is_summed_up_with_its_largest_change():
    caption = study.effect_caption(effect_fixture(7), comparisons=30)
    assert caption.startswith("simple's share of games won against the others is 50.0% (45.0-55.0%) under knock_")
    assert "52.0% to 62.0% under the other 6 values (lowest at knock_limit=1, highest at knock_limit=6)" in caption
    assert "the largest change is at knock_limit=6, +12.0 points (95% CI +11.0 to +13.0, p_holm = 0.001" in caption
    assert "3 of 6 values differ significantly" in caption and caption.endswith("all 30 comparisons of the study.")
    short = study.effect_caption(effect_fixture(3))
    assert "54.0% (49.0-59.0%) under knock_limit=2, +4.0 points" in short and "not significant" in short


def test_the_forest_plot_is_capped_and_names_cells_in_rows_when_colours_run_out():
    rows = [
        {
            "cell": k // 4 + 1,
            "label": f"knock_limit={k // 4 + 1}",
            "versus": f"knock_limit={k // 4 + 1} vs 0",
            "pairing": "simple vs random",
            "metric": "gin_rate",
            "difference": float(k),
            "low": k - 1.0,
            "high": k + 1.0,
            "p_holm": 1e-3 * (k + 1),
            "text": f"difference {k}",
        }
        for k in range(50)
    ]
    table = pd.DataFrame(rows)
    figure = study.differences_chart(table)
    assert forest_rows(figure) == study.MAX_FOREST_ROWS and not figure.legends
    labels = [t.get_text() for ax in figure.axes for t in ax.get_yticklabels()]
    assert labels[0] == "knock_limit=1 | simple vs random: gin share"
    assert "the 40 smallest p_holm of 50" in figure.get_suptitle()
    caption = study.differences_caption(table, comparisons=200, baseline="knock_limit=0")
    assert caption.startswith("50 of 200 comparisons") and "(the 40 with the smallest p_holm are drawn)" in caption


@pytest.mark.slow  # a sweep and its whole report (the module fixture): the long tier (tests/tiers.py)
def test_the_cell_table_gives_every_rate_with_its_interval_the_seat_edge_included(three):
    result, page = three
    table = result_tables(result)["study_cells"]
    frame = table.frame
    distinct = [c for c in result["cells"] if c["same_game_as"] is None]
    assert len(frame) == len(distinct) * (3 + 1)  # three pairings and simple against the others
    cell = distinct[-1]
    pairing = cell["pairings"][1]
    row = frame[(frame["cell"] == cell["index"]) & (frame["pairing"] == f"{pairing['a']} vs {pairing['b']}")].iloc[0]
    for metric in ("win_rate", "first_player_win_rate", "hands_per_game"):
        assert row[metric] == pairing[metric]
        assert [row[f"{metric}_low"], row[f"{metric}_high"]] == pairing[f"{metric}_ci"]
    assert {"first_player_win_rate_low", "first_player_win_rate_high", "skill_spread"} <= set(table.shown)
    assert "Every cell: rates with 95% intervals" in page.read_text()


# -- every figure's numbers, recomputed from the cells it names (issue 32 items 1, 2) -------------------------


PRESETS = ["preset=standard,oklahoma,hollywood,straight"]


@pytest.fixture(scope="module")
def presets(tmp_path_factory) -> tuple[dict, Path, str]:
    """The issue's Oklahoma study in small: three players over four presets, run by the CLI (its text kept)."""
    from click.testing import CliRunner

    from simgin.cli.main import main

    out = tmp_path_factory.mktemp("study") / "presets"
    args = ["sweep", *THREE, "--grid", *PRESETS, "--games", "16", "--seed", "11", "--workers", "1", "--out", str(out)]
    run = CliRunner().invoke(main, args)
    assert run.exit_code == 0, run.output
    written = write_report(out, png=False)
    return load_result(out), written.html, run.output


def pairing_tally(result: dict, cell: int, pairing: str) -> dict:
    """The per-cell record of one pairing: the tally of the game cell ``cell`` plays."""
    entry = pairing_entry(result, cell, pairing)
    return entry["tally"]


def pairing_entry(result: dict, cell: int, pairing: str) -> dict:
    played = result["cells"][cell].get("same_game_as")
    record = result["cells"][cell if played is None else int(played)]
    (entry,) = [p for p in record["pairings"] if f"{p['a']} vs {p['b']}" == pairing]
    return entry


def cell_by_label(result: dict, label: str) -> int:
    (index,) = [i for i, c in enumerate(result["cells"]) if c["label"] == label and c["same_game_as"] is None]
    return index


def in_slice(result: dict, cell: int, switches: list[str]) -> bool:
    """Whether every switch but ``switches`` has the baseline cell's value in ``cell`` (the cells a figure shows)."""
    base = result["cells"][result["baseline"]["cell"]]["settings"]
    settings = result["cells"][cell]["settings"]
    return all(settings[key] == base[key] for key in settings if key not in switches)


def one(value: float) -> str:
    return f"{value:.1f}"


def figures_of(result: dict) -> list:
    return report_figures(result, result_tables(result))


def check_knock_limits(result: dict, files: Path, figures: list) -> None:
    """knock_limits.csv and every knock-limit caption, recomputed from the per-cell tallies of the cells they name."""
    drawn = [f for f in figures if f.name.startswith("knock_limits")]
    oklahoma = [i for i, c in enumerate(result["cells"]) if c["rules"]["oklahoma"] and c["same_game_as"] is None]
    fixed = [i for i, c in enumerate(result["cells"]) if not c["rules"]["oklahoma"] and c["same_game_as"] is None]
    pairings = [f"{p['a']} vs {p['b']}" for p in result["cells"][0]["pairings"]]
    labels = {c["label"] for c in result["cells"]}
    for figure in drawn:  # every number in the caption belongs to a cell it names (not to "Standard", a pool)
        points = re.search(
            r"a hand scores [\d.]+ points against (.+?)(?: \(the same pairing\))?\.(?: |$)", figure.caption
        )
        assert points, figure.caption
        for part in points[1].split("; "):
            named = re.fullmatch(r"[\d.]+ under (.+)", part)
            assert named and named[1] in labels, f"{part!r} names no cell: {figure.caption}"
        head = re.match(
            r"Under (.+?), (\w+ vs \w+): gin ends ([\d.]+)% of hands at knock limit (\d+) against ([\d.]+)% at limit "
            r"(\d+)",
            figure.caption,
        )
        assert head, figure.caption
        label, pairing = head[1], head[2]
        cell = cell_by_label(result, label)
        assert cell in oklahoma and label in figure.figure.get_suptitle() and pairing in figure.figure.get_suptitle()
        t = pairing_tally(result, cell, pairing)
        for share, limit in ((head[3], head[4]), (head[5], head[6])):
            assert share == one(100 * t[f"limit{limit}_gin"] / t[f"limit{limit}_hands"])
        points = re.search(r"a hand scores ([\d.]+) points against (.+) \(the same pairing\)", figure.caption)
        assert points, figure.caption
        assert points[1] == one((t["points_a"] + t["points_b"]) / t["hands"])
        references = [re.fullmatch(r"([\d.]+) under (.+)", part) for part in points[2].split("; ")]
        assert sorted(cell_by_label(result, ref[2]) for ref in references) == fixed  # each named, each alone
        for ref in references:
            other = pairing_tally(result, cell_by_label(result, ref[2]), pairing)
            assert ref[1] == one((other["points_a"] + other["points_b"]) / other["hands"])
    assert len(drawn) == len(oklahoma) * len(pairings)  # every Oklahoma cell and pairing, none pooled
    limits = pd.read_csv(files / "knock_limits.csv")
    assert {"cell", "label", "pairing"} <= set(limits.columns)  # one block per cell and pairing
    for row in limits.itertuples(index=False):
        cell = result["cells"][row.cell]
        assert row.label == cell["label"] and bool(row.oklahoma) == bool(cell["rules"]["oklahoma"])
        t, k = pairing_tally(result, row.cell, row.pairing), row.knock_limit
        hands = t[f"limit{k}_hands"]
        assert row.hands == hands and row.share == pytest.approx(hands / t["hands"])
        assert row.gin_rate == pytest.approx(t[f"limit{k}_gin"] / hands)
        assert row.points_per_hand == pytest.approx(t[f"limit{k}_points"] / hands)
        assert row.mean_turns == pytest.approx(t[f"limit{k}_turns"] / hands)
        assert row.cell_points_per_hand == pytest.approx((t["points_a"] + t["points_b"]) / t["hands"])


def check_switch_tables(result: dict, files: Path, figures: list) -> None:
    """sweep_<switch>.csv and the Variants captions: one row per pairing and value, from the one cell named."""
    for switch in result["grid"]:
        table = pd.read_csv(files / f"sweep_{switch}.csv", keep_default_na=False)
        pairings = {f"{p['a']} vs {p['b']}" for p in result["cells"][0]["pairings"]}
        assert set(table["pairing"]) == pairings  # every pairing, not the first only
        for row in table.itertuples(index=False):
            cell = result["cells"][row.cell]
            assert (
                in_slice(result, row.cell, [switch]) and str(cell["settings"][switch]).lower() == str(row.value).lower()
            )
            assert row.cell_label == cell["label"]
            t, entry = pairing_tally(result, row.cell, row.pairing), pairing_entry(result, row.cell, row.pairing)
            assert row.hands == t["hands"] and row.gin_rate == pytest.approx(t["gin"] / t["hands"])
            assert row.points_per_hand == pytest.approx((t["points_a"] + t["points_b"]) / t["hands"])
            assert row.mean_turns == pytest.approx(t["turns"] / t["hands"])
            assert row.win_rate == pytest.approx(entry["win_rate"])  # the CLI's cells table's number
            assert (row.win_rate_low, row.win_rate_high) == pytest.approx(tuple(entry["win_rate_ci"]))
        for figure in [f for f in figures if f.name.startswith(f"variants_{switch}")]:
            head = re.match(r"(\w+ vs \w+), cells (.+?)(?: \(other switches at [^)]*\))?: (.+)$", figure.caption)
            assert head, figure.caption
            pairing = head[1]
            named = [int(part.split(" ", 1)[0]) for part in head[2].split("; ")]
            assert all(in_slice(result, cell, [switch]) for cell in named)
            assert pairing in figure.figure.get_suptitle()
            first, last = pairing_tally(result, named[0], pairing), pairing_tally(result, named[-1], pairing)
            numbers = re.search(
                r"hands last ([\d.]+) turns against ([\d.]+) under .+, score ([\d.]+) points against ([\d.]+) and end "
                r"in gin ([\d.]+)% against ([\d.]+)%",
                head[3],
            )
            assert numbers, figure.caption
            assert numbers.groups() == (
                one(last["turns"] / last["hands"]),
                one(first["turns"] / first["hands"]),
                one((last["points_a"] + last["points_b"]) / last["hands"]),
                one((first["points_a"] + first["points_b"]) / first["hands"]),
                one(100 * last["gin"] / last["hands"]),
                one(100 * first["gin"] / first["hands"]),
            )


def check_study_tables(result: dict, files: Path) -> None:
    """The study's effect and heat-map tables: each row from the one cell it names, in the figure's slice."""
    for switch in result["grid"]:
        for row in pd.read_csv(files / f"effect_{switch}.csv").itertuples(index=False):
            assert in_slice(result, row.cell, [switch])
            named = result["cells"][row.cell]["first_named"]  # three players: against the others
            assert row.win_rate == pytest.approx(named["win_rate"])
    for rows, columns in itertools.combinations(result["grid"], 2):
        for row in pd.read_csv(files / f"heatmap_{rows}_{columns}.csv").itertuples(index=False):
            assert in_slice(result, row.cell, [rows, columns])
            tallies = [p["tally"] for p in result["cells"][row.cell]["pairings"]]
            first = sum(t["first_player_wins"] for t in tallies) / sum(t["scored"] for t in tallies)
            assert row.first_player_win_rate == pytest.approx(first) and row.pairings == len(tallies)
            assert row.win_rate == pytest.approx(result["cells"][row.cell]["first_named"]["win_rate"])


@pytest.mark.slow  # a sweep and its whole report (the module fixture): the long tier (tests/tiers.py)
@pytest.mark.parametrize("study_fixture", ["presets", "three"])
def test_every_figure_is_computed_from_exactly_the_cells_it_names(study_fixture, request):
    """Issue 32 items 1 and 2: the knock-limit figure counted every non-Oklahoma cell as 'Standard' and the Variants
    figures pooled the first pairing over the other switch; each number is recomputed here from the per-cell records
    of the cells and pairing the figure names."""
    result, page = request.getfixturevalue(study_fixture)[:2]
    files = page.parent / "report_files"
    figures = figures_of(result)
    check_knock_limits(result, files, figures)
    check_switch_tables(result, files, figures)
    check_study_tables(result, files)


@pytest.mark.slow  # a sweep and its whole report (the module fixture): the long tier (tests/tiers.py)
def test_the_cli_up_card_table_and_the_report_give_the_same_numbers(presets):
    """Issue 32 item 2: the CLI printed the first pairing's by-up-card table, the report a pool; now every pairing's
    block in the CLI is the report's knock_limits.csv block of that cell and pairing, and the caption's gin shares
    are those numbers."""
    result, page, output = presets
    limits = pd.read_csv(page.parent / "report_files" / "knock_limits.csv")
    blocks = re.findall(
        r"^([^\n]+?), (\w+ vs \w+): by up card \(knock limit\); [\d.]+% of scored hands doubled\n(.+?)(?=\n\n|\Z)",
        output,
        re.S | re.M,
    )
    pairings = [f"{p['a']} vs {p['b']}" for p in result["cells"][0]["pairings"]]
    assert [(label, pairing) for label, pairing, _ in blocks] == [("preset=oklahoma", p) for p in pairings]
    captions = {f.caption.split(":", 1)[0]: f.caption for f in figures_of(result) if f.name.startswith("knock_limits")}
    for label, pairing, text in blocks:
        lines = text.strip().splitlines()
        header = lines[0].split()
        printed = pd.DataFrame([line.split() for line in lines[1:]], columns=header).astype(float)
        cell = cell_by_label(result, label)
        block = limits[(limits["cell"] == cell) & (limits["pairing"] == pairing)].reset_index(drop=True)
        assert printed["knock_limit"].tolist() == block["knock_limit"].tolist()
        assert printed["hands"].tolist() == block["hands"].tolist()
        for column in ("gin_rate", "knock_rate", "points_per_hand", "mean_turns"):
            assert printed[column].tolist() == [float(f"{v:.3f}") for v in block[column]]
        caption = captions[f"Under {label}, {pairing}"]
        low = block.iloc[0]
        assert f"gin ends {one(100 * low['gin_rate'])}% of hands at knock limit {int(low['knock_limit'])}" in caption

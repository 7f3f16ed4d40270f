"""The report's tables (``reports.tables``): outcome, deadwood, seat-edge and knock-limit tables from known tallies
and synthetic results, one row per pairing or cell, never pooled."""

from __future__ import annotations

import pytest
from report_results import synthetic_result, synthetic_sweep, tally_dict
from simgin.reports import variant_figures as V
from simgin.reports.build import deadwood_table, outcome_table, report_figures, result_tables


def test_tables_from_known_tallies():
    a_vs_b = tally_dict(
        hands=100, knock=70, gin=20, undercut=6, dead=4, knocks_a_dw3=30, knocks_b_dw3=10, undercut_a_dw3=6
    )
    a_vs_c = tally_dict(hands=50, knock=50, knocks_a_dw7=20, knocks_b_dw0=5)
    tallies = [("A", "B", a_vs_b), ("A", "C", a_vs_c)]
    outcomes = outcome_table(tallies)
    assert list(outcomes["label"]) == ["A vs B", "A vs C"]
    assert list(outcomes["gin_rate"]) == [0.2, 0.0]
    assert outcomes["dead"].tolist() == [4.0, 0.0]
    deadwood = deadwood_table(tallies, ["A", "B", "C"]).set_index(["player", "deadwood"])
    assert deadwood.loc[("A", 3), "knocks"] == 30 and deadwood.loc[("A", 7), "knocks"] == 20  # pooled over pairings
    assert deadwood.loc[("A", 3), "undercut_rate"] == pytest.approx(0.2)
    assert deadwood.loc[("B", 3), "knocks"] == 10 and deadwood.loc[("C", 0), "knocks"] == 5  # B's side of each tally
    assert deadwood.loc[("A", 3), "share_of_knocks"] == pytest.approx(0.6)
    assert set(deadwood["interval_unit"]) == {"knock"}  # no per-unit sums in these tallies: Wilson's over knocks
    assert deadwood.loc[("A", 3), "knocker_undercut_rate"] == pytest.approx(6 / 50)
    assert deadwood.loc[("A", 3), "pairings"] == 2 and deadwood.loc[("B", 3), "pairings"] == 1


def test_result_tables_of_a_tournament(tournament, tournament_tables):
    tables = tournament_tables
    assert {"ratings", "pairwise", "los", "summary", "win_rates", "outcomes", "knocks_by_deadwood"} <= set(tables)
    win_rates = tables["win_rates"].frame
    assert len(win_rates) == 6 and set(win_rates["unit"]) == {"hands"}
    assert list(tables["ratings"].frame["player"]) == ["heuristic", "simple", "random"]  # by rating
    assert tables["ratings"].frame["anchor"].tolist() == [False, True, False]
    first = tournament["pairings"][0]["tally"]
    outcomes = tables["outcomes"].frame.iloc[0]
    assert outcomes["label"] == "heuristic vs simple"
    assert outcomes["gin"] == first["gin"] and outcomes["hands"] == first["hands"]
    length = tables["hand_length"].frame
    assert length.groupby("label")["hands"].sum().tolist() == [800.0] * 3
    seat = tables["seat_edge"].frame.iloc[0]
    assert seat["first_player_wins"] == first["first_player_wins"] and seat["net_sq"] == first["net_a_sq"]
    limits = tables["knock_limits"].frame
    assert set(limits["label"]) == {"knock limit 10"} and not limits["oklahoma"].any()
    assert limits["pairing"].tolist() == ["heuristic vs simple", "heuristic vs random", "simple vs random"]
    assert limits.loc[limits["knock_limit"] == 10, "hands"].tolist() == [800] * 3  # per pairing, never pooled
    duplicate = tables["duplicate"].frame
    assert duplicate["pairs"].tolist() == [400.0] * 3
    assert duplicate["rho"].iloc[0] == pytest.approx(tournament["pairings"][0]["paired"]["rho"])


@pytest.mark.parametrize(("rules", "label"), [({"knock_limit": 0}, "knock limit 0"), ({"oklahoma": True}, "Oklahoma")])
def test_the_knock_limit_table_names_the_runs_own_limit(rules, label):
    """A straight-gin match's hands all have knock limit 0 (V1): its table said 'Standard', as any run that is not
    Oklahoma did, Hollywood and straight gin included."""
    match = synthetic_result("match", players=("heuristic", "simple"), pairs=20)
    match["config"]["rules"] = {**match["config"]["rules"], **rules}
    assert set(result_tables(match)["knock_limits"].frame["label"]) == {label}


def test_sweep_tables_hold_the_other_switches_at_the_baseline():
    result = synthetic_sweep()
    tables = result_tables(result)
    by_limit = tables["sweep_knock_limit"].frame
    assert by_limit["value"].tolist() == [6, 8, 10] and by_limit["cell"].tolist() == [0, 2, 4]  # oklahoma=false
    assert set(by_limit["held"]) == {"oklahoma at false"}
    assert (
        by_limit.loc[1, "gin"] == result["cells"][2]["pairings"][0]["tally"]["gin"] and by_limit.loc[1, "hands"] == 400
    )
    by_variant = tables["sweep_oklahoma"].frame
    assert by_variant["label"].tolist() == ["Standard", "Oklahoma"] and by_variant["cell"].tolist() == [0, 1]
    assert by_variant.loc[0, "doubled_share"] == 0.0 and 0.15 < by_variant.loc[1, "doubled_share"] < 0.35
    limits = tables["knock_limits"].frame
    assert [cell for cell, _, _ in V.knock_limit_blocks(limits)] == [1, 3, 5]  # each Oklahoma cell alone
    assert len(tables["sweep_cells"].frame) == 6 * 2
    names = [f.name for f in report_figures(result, tables)]
    assert names == ["sweep_knock_limit", "variants_oklahoma", "knock_limits_1", "knock_limits_2", "knock_limits_3"]

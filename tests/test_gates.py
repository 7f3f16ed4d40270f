"""``simgin/tools/gates.py``: the SPRT gate of issue 24 and its RESULTS.md table."""

from __future__ import annotations

import importlib

import pytest
from simgin.strategies.opponent import FROZEN_DISCARD, FROZEN_SPEC, spec_with


@pytest.fixture(scope="module")
def gates():
    return importlib.import_module("simgin.tools.gates")


def frozen_with(**changes: float) -> str:
    return spec_with({**FROZEN_DISCARD, **changes})


def test_same_play_tells_a_change_that_plays_alike_from_one_that_does_not(gates):
    assert gates.same_play(FROZEN_SPEC, FROZEN_SPEC, "standard")
    # reach changes discards where a knock limit allows one (R12) ...
    assert not gates.same_play(frozen_with(reach=10), FROZEN_SPEC, "standard")
    # ... and the knock regime's potential is not read where only gin ends a hand (V1: straight).
    assert gates.same_play(frozen_with(potential=3), FROZEN_SPEC, "straight")
    assert not gates.same_play(frozen_with(gin_potential=3), FROZEN_SPEC, "straight")


def test_recorded_rows_are_appended_to_the_table_and_the_specs_below_it(gates, tmp_path, monkeypatch):
    results = tmp_path / "RESULTS.md"
    results.write_text(f"intro\n{gates.START}\n{gates.END}\nmiddle\n{gates.SPECS_START}\n{gates.SPECS_END}\nend\n")
    monkeypatch.setattr(gates, "RESULTS", results)
    test = {
        "decision": "H1",
        "accepted": "elo >= 10",
        "games": 1550,
        "elo": 30.56,
        "elo_low": 12.4,
        "elo_high": 48.73,
        "llr": 2.98,
        "lower": -2.94,
        "upper": 2.94,
    }
    first = gates.line("one", "oklahoma", test, "A", "B", 12)
    assert "| oklahoma | **H1** (elo >= 10) | 1,550 | +30.6 (+12.4 to +48.7) | 2.98 (-2.94, 2.94) |" in first
    assert "--rules oklahoma --seed 12" in first
    gates.record("one", [first], "A", "B")
    gates.record("two", [gates.line("two", "straight", None, "C", "B", 12)], "C", "B")
    text = results.read_text()
    table = text.split(gates.START)[1].split(gates.END)[0].strip().splitlines()
    assert len(table) == 2 and "| one |" in table[0] and "| two | straight | same play" in table[1]
    specs = text.split(gates.SPECS_START)[1].split(gates.SPECS_END)[0].strip().splitlines()
    assert specs[0].startswith("- one: NEW = `A`, OLD = `B`") and specs[1].startswith("- two: NEW = `C`")
    assert text.startswith("intro\n") and "\nmiddle\n" in text and text.endswith("end\n")


def test_a_non_regression_row_names_its_test_and_its_bounds(gates):
    """A preset given to ``--non-regression`` is tested for no loss (elo0=-10, elo1=0), and its row says so, so
    that a reader never takes it for a gain of 10 Elo."""
    test = {
        "decision": "H1",
        "accepted": "elo >= 0",
        "games": 750,
        "elo": 6.49,
        "elo_low": -4.55,
        "elo_high": 17.52,
        "llr": 3.44,
        "lower": -2.94,
        "upper": 2.94,
    }
    row = gates.line("one", "standard", test, "A", "B", 41, gates.NON_REGRESSION)
    assert "| standard (non-regression) | **H1** (elo >= 0) | 750 |" in row
    assert "`simgin compare NEW OLD --sprt elo0=-10,elo1=0 --rules standard --seed 41`" in row
    gain = gates.line("one", "standard", {**test, "accepted": "elo >= 10"}, "A", "B", 41)
    assert "| standard | **H1** (elo >= 10) |" in gain and "--sprt elo0=0,elo1=10 --rules standard" in gain


def test_old_is_the_frozen_bot_or_a_spec_not_both(gates):
    with pytest.raises(SystemExit):
        gates.main(["opponent", "simple", "--frozen"])
    with pytest.raises(SystemExit):
        gates.main(["opponent"])


def test_a_bare_opponent_is_recorded_with_its_weights_written_out(gates):
    pinned = gates.pinned("opponent")
    assert pinned.startswith("opponent:") and "reach=" in pinned and "draw_margin=" in pinned
    assert gates.same_play(pinned, "opponent", "standard")
    assert gates.pinned("simple") == "simple"


def test_frozen_is_the_frozen_copy_of_the_new_bot(gates):
    from simgin.strategies import heuristic

    assert gates.frozen("heuristic") == heuristic.FROZEN_SPEC
    assert gates.frozen("heuristic:potential=3") == heuristic.FROZEN_SPEC
    assert gates.frozen("opponent") == FROZEN_SPEC
    with pytest.raises(SystemExit, match="no frozen copy"):
        gates.frozen("simple")


def test_a_bare_heuristic_is_recorded_with_its_weights_written_out(gates):
    pinned = gates.pinned("heuristic")
    assert pinned.startswith("heuristic:") and "safety=" in pinned and "gin_draw_margin" not in pinned
    assert gates.same_play(pinned, "heuristic", "oklahoma")


def test_every_non_regression_option_counts_whether_repeated_or_comma_separated(gates, monkeypatch):
    """``--non-regression standard --non-regression oklahoma,modern`` tests all three for no loss (a repeated
    option once kept only the last, and ran gain tests where no-loss tests were asked for)."""
    asked = {}

    def fake_gate(new, old, preset, seed, workers, sprt):
        asked[preset] = sprt
        return {"decision": "H1", "accepted": "", "games": 2, "elo": 0.0, "elo_low": 0.0, "elo_high": 0.0,
                "llr": 3.0, "lower": -2.94, "upper": 2.94}  # fmt: skip

    monkeypatch.setattr(gates, "gate", fake_gate)
    presets = "eaai,standard,oklahoma,modern"
    gates.main(["A", "B", "--presets", presets, "--non-regression", "standard", "--non-regression", "oklahoma,modern"])
    assert asked == {
        "eaai": gates.GAIN,
        "standard": gates.NON_REGRESSION,
        "oklahoma": gates.NON_REGRESSION,
        "modern": gates.NON_REGRESSION,
    }

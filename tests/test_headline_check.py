"""``benchmarks.run_all --check`` (benchmarks/headline.py): the headline figures against RESULTS.md (issue 25).

The figures are compared as ratios against a reference workload timed in the same run, and
a regression of more than 30% fails the check; the measuring itself is replaced by fixed
values here (the real check takes minutes).
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def headline():
    return importlib.import_module("benchmarks.headline")


def _old(value: float, reference: float = 1.0) -> dict:
    return {"value": value, "reference": reference, "date": "2026-12-02"}


def test_a_rate_or_a_time_more_than_30_percent_worse_fails(headline):
    rate, time = headline.FIGURES["simple_hands"], headline.FIGURES["cold_start"]
    assert not headline.compare(rate, 75_000, 1.0, _old(100_000))[1]
    assert headline.compare(rate, 65_000, 1.0, _old(100_000))[1]
    assert not headline.compare(time, 12.5, 1.0, _old(10.0))[1]
    assert headline.compare(time, 15.0, 1.0, _old(10.0))[1]
    line = headline.compare(time, 15.0, 1.0, _old(10.0))[0]
    assert "REGRESSED" in line and "recorded 10.0" in line


def test_a_slower_machine_does_not_fail_it_but_a_slower_figure_on_it_does(headline):
    """The reference workload took 1.6 times as long: rates may drop and times grow by as much."""
    rate, time = headline.FIGURES["simple_hands"], headline.FIGURES["cold_start"]
    assert not headline.compare(rate, 100_000 / 1.6, 1.6, _old(100_000))[1]
    assert not headline.compare(time, 16.0, 1.6, _old(10.0))[1]
    assert headline.compare(rate, 100_000 / 1.6 * 0.6, 1.6, _old(100_000))[1]
    assert headline.compare(time, 16.0 * 1.5, 1.6, _old(10.0))[1]


def test_the_program_figures_are_compared_as_measured_within_40_percent(headline):
    """exec: and eaai: do not follow the reference (a process switch's cost on a virtual machine): the reference
    neither rescues a slower figure nor fails an unchanged one."""
    for name in ("exec_hands", "eaai_hands"):
        figure = headline.FIGURES[name]
        assert not figure.follows_reference and figure.tolerance == 0.40
        line, regressed = headline.compare(figure, 240.0, 0.6, _old(240.0, 1.3))
        assert not regressed and "as measured" in line and "1.00x" in line
        assert not headline.compare(figure, 150.0, 1.0, _old(240.0))[1]
        assert headline.compare(figure, 140.0, 2.0, _old(240.0))[1]


def test_no_recorded_figure_is_said_and_passes(headline):
    line, regressed = headline.compare(headline.FIGURES["suite"], 300.0, 1.0, None)
    assert not regressed and "no recorded figure" in line


def test_record_writes_a_section_the_check_reads_back_and_keeps_the_rest(headline, tmp_path):
    results = tmp_path / "RESULTS.md"
    results.write_text("# Benchmarks\n\n## Goals\n\ntext\n\n## Optimisation log\n\nlog\n")
    headline.write_recorded({"cold_start": {**_old(11.0, 0.5), "detail": "1 run"}}, "machine", results)
    text = results.read_text()
    assert text.index("<!-- check:start -->") < text.index("## Optimisation log")
    assert text.startswith("# Benchmarks\n\n## Goals\n\ntext\n\n") and text.endswith("## Optimisation log\n\nlog\n")
    headline.write_recorded({"suite": _old(250.0, 0.5)}, "machine", results)
    data = headline.recorded(results.read_text())
    assert data["cold_start"]["value"] == 11.0 and data["suite"]["value"] == 250.0
    assert results.read_text().count("<!-- check:start -->") == 1


def _fake_run(headline, monkeypatch, tmp_path, values: dict[str, float], recorded: dict[str, float]):
    results = tmp_path / "RESULTS.md"
    results.write_text("# Benchmarks\n")
    monkeypatch.setattr(headline, "RESULTS", results)
    monkeypatch.setattr(headline, "reference_seconds", lambda: 0.5)
    monkeypatch.setattr(headline, "eaai_missing", lambda: "java not found on PATH")
    if recorded:
        headline.write_recorded({name: _old(value, 0.5) for name, value in recorded.items()}, "m", results)
    calls = {name: (lambda value=value: (value, "fake")) for name, value in values.items()}
    monkeypatch.setattr(headline, "measurements", lambda quick, with_suite: calls)
    return results


def test_the_check_exits_1_on_a_regression_and_0_otherwise(headline, monkeypatch, tmp_path, capsys):
    recorded = {"cold_start": 10.0, "simple_hands": 150_000.0, "eaai_hands": 900.0}
    _fake_run(headline, monkeypatch, tmp_path, {"cold_start": 11.0, "simple_hands": 140_000.0}, recorded)
    cwd = Path.cwd()
    assert headline.check() == 0
    assert Path.cwd() == cwd
    out = capsys.readouterr().out
    assert "check passed" in out
    _fake_run(headline, monkeypatch, tmp_path, {"cold_start": 30.0, "eaai_hands": 900.0}, recorded)
    assert headline.check() == 1
    out = capsys.readouterr().out
    assert "check failed: 1 figure(s)" in out and "on an empty cache" in out.splitlines()[-1]
    assert "skipped (java not found on PATH; install a JDK to measure it)" in out


def test_record_mode_writes_what_it_measured(headline, monkeypatch, tmp_path):
    results = _fake_run(headline, monkeypatch, tmp_path, {"cold_start": 9.0}, {"simple_hands": 150_000.0})
    assert headline.check(record=True, machine="here") == 0
    data = headline.recorded(results.read_text())
    assert data["cold_start"]["value"] == 9.0 and data["simple_hands"]["value"] == 150_000.0


def test_results_md_records_every_figure_the_default_check_measures_and_ci_runs_it(headline):
    data = headline.recorded((ROOT / "benchmarks" / "RESULTS.md").read_text())
    for name in ("cold_start", "simple_hands", "opponent_hands", "exec_hands", "eaai_hands"):
        assert data[name]["value"] > 0 and data[name]["reference"] > 0, name
    assert "benchmarks.run_all --check" in (ROOT / ".ci" / "run").read_text()


def test_readme_timings_name_the_check_that_measures_them():
    """The README's first-run, test-suite and program speed figures say which check re-measures them."""
    text = (ROOT / "README.md").read_text()
    for heading in ("## Quick start", "## Running the tests", "## Strategies in other languages"):
        section = text.split("\n" + heading + "\n", 1)[1].split("\n## ", 1)[0]
        assert "benchmarks.run_all --check" in section, heading
    assert "about two and a half minutes" not in text and "about a minute and a half" not in text


def test_each_figure_is_set_against_the_reference_timed_on_either_side_of_it(headline, monkeypatch, tmp_path):
    """The machine slows to half speed while the second figure is measured (the reference takes 0.5 s before it and
    1.0 s after): that figure, at half its recorded rate, is set against 0.75 s and passes (0.75x as good); set
    against the reference of the check's start, as before, it fails (0.5x)."""
    recorded = {"simple_hands": 100_000.0, "opponent_hands": 5_000.0}
    _fake_run(headline, monkeypatch, tmp_path, {"simple_hands": 100_000.0, "opponent_hands": 2_500.0}, recorded)
    timings = iter([0.5, 0.5, 1.0])
    monkeypatch.setattr(headline, "reference_seconds", lambda: next(timings))
    assert headline.check() == 0
    # The same figures with a steady reference: the second one has regressed.
    _fake_run(headline, monkeypatch, tmp_path, {"simple_hands": 100_000.0, "opponent_hands": 2_500.0}, recorded)
    assert headline.check() == 1


def test_only_measures_and_records_the_named_figures_with_their_machine(headline, monkeypatch, tmp_path):
    results = _fake_run(
        headline, monkeypatch, tmp_path, {"cold_start": 9.0, "exec_hands": 300.0}, {"simple_hands": 150_000.0}
    )
    assert headline.check(record=True, machine="box B", only=["exec_hands"]) == 0
    data = headline.recorded(results.read_text())
    assert data["exec_hands"]["value"] == 300.0 and data["exec_hands"]["machine"] == "box B"
    assert "cold_start" not in data and data["simple_hands"]["value"] == 150_000.0
    assert "| box B |" in results.read_text()
    with pytest.raises(ValueError, match="unknown figure exec_hand: choose from cold_start"):
        headline.check(only=["exec_hand"])

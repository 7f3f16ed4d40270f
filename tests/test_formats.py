"""One set of number formatters (issue 26): shares and p-values are written by ``simgin.statistics.formats`` only."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from simgin.statistics import formats

ROOT = Path(__file__).resolve().parent.parent

SHARES = [0.0, 1e-9, 0.0004, 0.0005, 0.00051, 0.123456, 0.5, 0.61234, 0.99949, 0.9995, 1.0, np.float64(0.25)]
P_VALUES = [1.0, 0.5, 0.0123, 0.05, 1e-6, 9.99e-7, 3.2e-45, 1.5e-300, 1e-300, 0.0]


# The formatters as they were written out in each module before (the references for byte-identical output).
def old_cli_percent(value: float) -> str:
    return "-" if value is None or math.isnan(value) else f"{100 * value:.1f}%"


def old_report_percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def old_interval(low: float, high: float) -> str:
    return f"({100 * low:.1f}-{100 * high:.1f}%)"


def old_format_p(p: float) -> str:
    return "< 1e-300" if p < 1e-300 else f"{p:.2g}"


def old_p_phrase(p: float, name: str) -> str:
    return f"{name} < 1e-6" if p < 1e-6 else f"{name} = {p:.2g}"


@pytest.mark.parametrize("value", SHARES)
def test_percent_writes_what_every_old_formatter_wrote(value: float) -> None:
    assert formats.percent(value) == old_report_percent(value)
    assert formats.percent(value, missing="-") == old_cli_percent(value)
    assert formats.percent_interval(value, value) == old_interval(value, value)


@pytest.mark.parametrize("p", P_VALUES)
def test_p_values_are_written_as_before(p: float) -> None:
    assert formats.p_value(p) == old_format_p(p)
    assert formats.p_below(p) == old_p_phrase(p, "p")
    assert formats.p_below(p, "p_holm") == old_p_phrase(p, "p_holm")


@pytest.mark.parametrize("missing", [None, float("nan"), float("inf"), np.float64("nan")])
def test_a_missing_number_is_written_as_the_caller_says(missing: object) -> None:
    assert formats.percent(missing) == "n/a" and formats.percent(missing, missing="-") == "-"
    assert formats.percent_interval(missing, 0.5) == "" and formats.percent_interval(0.5, missing, "(none)") == "(none)"
    assert formats.p_value(missing) == "n/a" and formats.p_value(missing, missing="-") == "-"
    assert formats.p_below(missing) == "p = n/a"


def test_the_commands_reports_and_statistics_use_the_one_set() -> None:
    from simgin.reports import figure_style as figures, html, tune as report_tune, tune_rules as report_tune_rules

    from simgin.cli import execution as cli_execution, run as cli_run, tune as cli_tune, tune_rules as cli_tune_rules
    from simgin.statistics import ratings
    from simgin.studies import sweep, tune_rules_result

    assert cli_execution.percent_or_dash.func is formats.percent
    assert cli_execution.percent_or_dash.keywords == {"missing": "-"}
    assert cli_run.p_value is cli_tune.p_value is ratings.p_value is formats.p_value
    assert report_tune.p_value is report_tune_rules.p_value is formats.p_value
    assert figures.percent is report_tune.percent is html.percent is sweep.percent is formats.percent
    assert figures.percent_interval is cli_tune.percent_interval is formats.percent_interval
    assert figures.finite is formats.finite
    assert sweep.p_below is tune_rules_result.p_below is cli_tune_rules.p_below is formats.p_below


#: A share written out by hand (``100 * x`` to one decimal with a percent sign) or a p-value to two digits.
HAND_WRITTEN = re.compile(r"100 \* [^}]*:\.1f\}%|:\.2g\}")


def test_no_module_writes_a_share_or_a_p_value_by_hand() -> None:
    """Only ``formats.py`` spells out these formats; a new hand-written one is caught here."""
    found = []
    for folder in ("simgin", "reports", "strategies"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == ROOT / "simgin" / "statistics" / "formats.py":
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if HAND_WRITTEN.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []

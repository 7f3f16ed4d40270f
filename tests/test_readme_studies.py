"""The README's variant studies (issue 23): the commands run as written and find what the README says."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from simgin.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


def study_commands() -> list[list[str]]:
    readme = (ROOT / "README.md").read_text()
    section = re.search(r"^## Variant studies\n(.*?)(?=^## |\Z)", readme, re.M | re.S).group(1)
    blocks = re.findall(r"^```bash\n(.*?)^```", section, re.M | re.S)
    return [shlex.split(line) for block in blocks for line in block.splitlines() if line.strip()]


def test_the_readme_studies_are_a_sweep_and_a_tune_rules_each_with_its_report() -> None:
    commands = study_commands()
    assert [args[:2] for args in commands] == [
        ["simgin", "sweep"],
        ["simgin", "report"],
        ["simgin", "tune-rules"],
        ["simgin", "report"],
    ]
    assert "preset=standard,oklahoma,hollywood,straight" in commands[0]
    assert commands[0][2:5] == ["opponent", "heuristic", "simple"]


@pytest.mark.slow
def test_the_readme_studies_run_as_written_and_find_what_it_says(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    for args in study_commands():
        outcome = CliRunner().invoke(main, args[1:])
        assert outcome.exit_code == 0, outcome.output
    study = json.loads((tmp_path / "oklahoma-study" / "result.json").read_text())
    gin = next(
        d
        for d in study["differences"]
        if d["cell"] == "preset=oklahoma" and d["pairing"] == "opponent vs heuristic" and d["metric"] == "gin_rate"
    )
    assert round(100 * gin["value"], 1) == 29.2 and round(100 * gin["baseline_value"], 1) == 9.0
    assert gin["significant"]
    oklahoma = [d for d in study["differences"] if d["cell"] == "preset=oklahoma"]
    # Under Oklahoma no share of games moves significantly (opponent's discard network made it strong under the
    # standard game already); opponent's net points per hand do, against simple and against the others.
    assert not [d["pairing"] for d in oklahoma if d["metric"] == "win_rate" and d["significant"]]
    points = sorted(d["pairing"] for d in oklahoma if d["metric"] == "net_points_per_hand" and d["significant"])
    assert points == ["opponent vs simple", "opponent vs the others"]
    spreads = {cell["label"]: round(cell["skill_spread"]["spread"]) for cell in study["cells"]}
    assert spreads == {"preset=standard": 107, "preset=oklahoma": 130, "preset=hollywood": 119, "preset=straight": 132}
    house = json.loads((tmp_path / "skill-rules" / "result.json").read_text())
    found = {"knock_limit": 6, "gin_bonus": 37, "undercut_bonus": 28}
    assert house["found_rules"] == found
    assert round(100 * house["found_score"], 1) == 74.5 and round(100 * house["start_score"], 1) == 67.3
    assert not house["kept_start"] and house["p_value"] < 1e-4
    # Issue 32 item 7: reverted alone, only the gin bonus costs; but the start with only that switch measures
    # below the found rules on the same deals, so all three are kept.
    assert [row["switch"] for row in house["switch_effects"] if row["matters"]] == ["gin_bonus"]
    assert round(100 * house["simplified"]["score"], 1) == 69.2 and not house["simplified"]["adopted"]
    assert house["rules"] == found and house["score"] == house["found_score"]
    assert (tmp_path / "oklahoma-study" / "report.html").is_file()
    assert (tmp_path / "skill-rules" / "report.html").is_file()


@pytest.mark.slow
def test_the_readme_planning_and_sequential_examples_print_what_it_shows() -> None:
    """The console block of "Variant studies" (simgin plan, sweep --sprt): each command prints exactly the lines
    shown (about 15 CPU seconds with opponent)."""
    readme = (ROOT / "README.md").read_text()
    section = re.search(r"^## Variant studies\n(.*?)(?=^## |\Z)", readme, re.M | re.S).group(1)
    (block,) = re.findall(r"^```console\n(.*?)^```", section, re.M | re.S)
    examples = [chunk.rstrip("\n").split("\n") for chunk in re.split(r"^(?=\$ )", block, flags=re.M) if chunk.strip()]
    assert [lines[0].split()[:3] for lines in examples] == [["$", "simgin", "plan"], ["$", "simgin", "sweep"]]
    for command, *output in examples:
        result = CliRunner().invoke(main, shlex.split(command.removeprefix("$ "))[1:])
        assert result.exit_code == 0, result.output
        assert result.output.rstrip("\n").split("\n") == output

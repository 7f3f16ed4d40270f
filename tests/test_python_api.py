"""Every command is a documented Python function (issue 26): same numbers, same directory, same report."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import simgin
from simgin.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
#: Keys whose values are wall-clock times or paths, which two runs of the same settings do not share.
VOLATILE = {"timing", "seconds", "hands_per_second", "cpu_seconds", "elapsed", "check"}  # check: covers the timing


def stable(value: Any) -> Any:
    """``value`` without its timing fields, for comparing two runs of the same settings."""
    if isinstance(value, dict):
        return {key: stable(item) for key, item in value.items() if key not in VOLATILE}
    if isinstance(value, list):
        return [stable(item) for item in value]
    return value


def cli(*args: str) -> None:
    result = CliRunner().invoke(main, [*args, "--quiet", "--workers", "1"])
    assert result.exit_code == 0, result.output


def reported_tables(directory: Path) -> dict[str, str]:
    """``simgin report DIR``'s CSV tables, by name (their content is what the report states)."""
    outcome = CliRunner().invoke(main, ["report", str(directory), "--no-png"])
    assert outcome.exit_code == 0, outcome.output
    return {path.name: path.read_text() for path in sorted((directory / "report_files").glob("*.csv"))}


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
@pytest.mark.parametrize(
    ("command", "call"),
    [
        pytest.param(
            ["match", "simple", "random", "--hands", "200", "--seed", "3"],
            lambda out: simgin.match("simple", "random", hands=200, seed=3, workers=1, out=out),
            id="match",
        ),
        pytest.param(
            ["tournament", "simple", "random", "greedy", "--games", "20", "--seed", "2"],
            lambda out: simgin.tournament(["simple", "random", "greedy"], games=20, seed=2, workers=1, out=out),
            id="tournament",
        ),
        pytest.param(
            ["compare", "simple", "greedy", "--max-games", "100", "--seed", "5"],
            lambda out: simgin.compare("simple", "greedy", sprt=simgin_sprt(max_games=100), seed=5, workers=1, out=out),
            id="compare",
        ),
        pytest.param(
            ["sweep", "simple", "greedy", "--grid", "preset=standard,oklahoma", "--games", "20"],
            lambda out: simgin.sweep(["simple", "greedy"], ["preset=standard,oklahoma"], games=20, workers=1, out=out),
            id="sweep",
        ),
    ],
)
def test_a_python_made_directory_reports_exactly_as_a_command_made_one(tmp_path, command, call) -> None:
    cli(*command, "--out", str(tmp_path / "cli"))
    result = call(tmp_path / "py")
    made = json.loads((tmp_path / "py" / "result.json").read_text())
    by_command = json.loads((tmp_path / "cli" / "result.json").read_text())
    assert stable(made) == stable(by_command)
    assert reported_tables(tmp_path / "py") == reported_tables(tmp_path / "cli")
    frame = result.to_frame()
    assert len(frame) > 0
    assert isinstance(result.to_json(), dict)


def simgin_sprt(**settings: Any) -> Any:
    from simgin.statistics.sprt import SprtSettings

    return SprtSettings(**settings)


def test_results_are_labelled_by_the_players_names() -> None:
    duel = simgin.match("simple", "random", hands=40, seed=1, workers=1)
    assert set(duel.to_frame()["player"]) == {"simple", "random"}
    assert duel.to_json()["players"] == ["simple", "random"]
    ladder = simgin.tournament(["simple", "random", "greedy"], games=10, seed=1, workers=1)
    assert list(ladder.to_frame()["player"])[-1] == "random"  # best first


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: simgin.match("simple", workers=1), "a match needs two players"),
        (lambda: simgin.tournament(["simple", "simple"], workers=1), "at least two different players"),
        (lambda: simgin.match("simple", "random", rules="nonesuch", workers=1), "unknown rules preset 'nonesuch'"),
    ],
)
def test_bad_input_is_a_value_error_naming_it(call, message) -> None:
    with pytest.raises(ValueError, match=message):
        call()


#: Commands whose function has another name: the name alone would clash (``simgin.strategies`` is the package of
#: the strategy modules; ``rules`` is every run function's argument) or already means less (``simgin.deadwood``
#: is the number alone, ``simgin.score_showdown`` the score without the hands).
FUNCTION_NAMES = {
    "deadwood": "describe_deadwood",
    "showdown": "describe_showdown",
    "rules": "describe_rules",
    "strategies": "describe_strategies",
}


def test_every_command_has_its_function() -> None:
    functions = {FUNCTION_NAMES.get(name, name.replace("-", "_")) for name in main.commands}
    missing = [name for name in sorted(functions) if not callable(getattr(simgin, name, None))]
    assert missing == []
    assert functions <= set(simgin.__all__)


def readme_api_script() -> str:
    readme = (ROOT / "README.md").read_text()
    section = re.search(r"^## Python API\n(.*?)(?=^## |\Z)", readme, re.M | re.S).group(1)
    (script,) = [block for block in re.findall(r"^```python\n(.*?)^```", section, re.M | re.S) if "simgin." in block]
    return script


def test_the_readme_script_guards_its_runs() -> None:
    script = readme_api_script()
    assert 'if __name__ == "__main__":\n    main()' in script
    called = set(re.findall(r"simgin\.(\w+)\(", script))
    assert {"match", "tournament", "compare", "sweep", "tune", "tune_rules", "report"} <= called


@pytest.mark.slow
def test_the_readme_script_runs_as_written(tmp_path) -> None:
    """The Python API example, run as a script with two worker processes (spawned: the guard matters)."""
    (tmp_path / "example.py").write_text(readme_api_script())
    done = subprocess.run(
        [sys.executable, "example.py"], cwd=tmp_path, capture_output=True, text=True, timeout=900, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "H1" in done.stdout
    assert (tmp_path / "api-match" / "report.html").is_file()

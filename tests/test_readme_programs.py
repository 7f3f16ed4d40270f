"""The README's "Strategies in other languages": its exec: example runs, its EAAI commands are valid."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from simgin.cli.main import main
from simgin.game.rules import Rules
from simgin.players import eaai

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def section() -> str:
    match = re.search(r"^## Strategies in other languages\n(.*?)(?=^## |\Z)", README, re.MULTILINE | re.DOTALL)
    assert match, "README.md has no '## Strategies in other languages' section"
    return match.group(1)


def test_the_exec_example_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    commands = re.findall(r"^\$ simgin (match \"exec:.*)$", section(), re.MULTILINE)
    assert commands and "examples/simple_bot.py" in commands[0]
    args = shlex.split(commands[0])
    args[args.index("--hands") + 1] = "20"
    result = CliRunner().invoke(main, [*args, "--workers", "1", "--quiet", "--json"])
    assert result.exit_code == 0, result.output
    assert '"hands": 20' in result.output


def test_the_worked_eaai_example_compiles_the_framework_and_plays_its_player_under_eaai_rules():
    blocks = re.findall(r"^```bash\n(.*?)^```", section(), re.MULTILINE | re.DOTALL)
    assert len(blocks) == 2, "the worked example, then the measurement in pieces"
    lines = [shlex.split(line.split("#")[0]) for line in blocks[0].strip().splitlines()]
    assert lines[0][:2] == ["git", "clone"] and lines[0][2].endswith("tneller/gin-rummy-eaai")
    assert lines[1][0] == "javac" and lines[1][-1] == "gin-rummy-eaai/ginrummy/*.java"
    classes = lines[1][lines[1].index("-d") + 1]
    matches = [line for line in lines if line[:2] == ["simgin", "match"]]
    assert matches[0][2:4] == [f"eaai:{classes}:ginrummy.SimpleGinRummyPlayer", "simple"]
    for line in matches:
        assert line[line.index("--rules") + 1] == "eaai"
        eaai.check_rules(Rules.preset("eaai"))  # the preset is one the interface can play
        for spec in (word for word in line if word.startswith("eaai:")):
            classpath, _ = eaai.parse_spec(spec)
            assert classpath.split(":")[0] == classes


def test_the_measurement_in_pieces_names_options_the_benchmark_has(capsys):
    """The second block: ``bench_eaai_entries`` with the worked example's framework player, several seeds and
    ``--out``; every option it gives is one the benchmark takes, and its values parse (no Java is run)."""
    from benchmarks import bench_eaai_entries as bench

    blocks = re.findall(r"^```bash\n(.*?)^```", section(), re.MULTILINE | re.DOTALL)
    command = shlex.split(blocks[1].replace("\\\n", " "))
    assert command[:3] == ["python", "-m", "benchmarks.bench_eaai_entries"]
    with pytest.raises(SystemExit) as done:
        bench.main(["--help"])
    assert done.value.code == 0
    usage = capsys.readouterr().out
    for option in (word for word in command if word.startswith("--")):
        assert option in usage, f"README gives {option}, which bench_eaai_entries does not take"
    name, spec = bench.parse_entry(command[command.index("--entry") + 1])
    classes = shlex.split(blocks[0].strip().splitlines()[1])
    assert spec == f"eaai:{classes[classes.index('-d') + 1]}:ginrummy.SimpleGinRummyPlayer" and name == "simple"
    assert len(bench.parse_seeds(command[command.index("--seeds") + 1])) == 6

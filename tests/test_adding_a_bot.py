"""docs/ADDING_A_BOT.md, followed step by step: a toy compiled bot added to a copy of the package plays.

The page's code blocks are its three steps (the bot's kernel module with its ``decide``; its registration in
``kernels/bots.py``, an import and a line at the end of ``BOTS``; its strategy module); the slow test applies
them, as the page says, to a copy of ``simgin/``, ``strategies/`` and ``reports/`` and runs the commands of
its last section there.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from simgin.kernels import bots

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "ADDING_A_BOT.md"


def code_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", PAGE.read_text(), re.S)


def test_the_page_gives_the_three_steps() -> None:
    kernel, import_line, line, module = code_blocks()
    assert "def decide(decision, bot, seat, hand, state, suit_deadwood):" in kernel
    assert "from simgin.kernels.decisions import" in kernel and "bots" not in kernel  # no import circle
    assert import_line.strip() == "from simgin.kernels import highshed"
    assert line.strip() == '("highshed", highshed.decide),'
    for declaration in ('BOT = "highshed"', "DESCRIPTION = ", "PARAMETERS: ", "TWIN = None"):
        assert declaration in module


def test_one_table_registers_every_compiled_bot() -> None:
    """BOT_NAMES and POLICIES come from ``BOTS``; the ids the kernels branch on are positions in it."""
    assert tuple(name for name, _ in bots.BOTS) == bots.BOT_NAMES
    assert tuple(decide for _, decide in bots.BOTS) == bots.POLICIES
    constants = {name: value for name, value in vars(bots).items() if re.fullmatch(r"BOT_[A-Z_]+", name)}
    del constants["BOT_NAMES"]
    assert constants == {f"BOT_{bots.BOT_NAMES[value].upper()}": value for value in constants.values()}
    # The built-in bots, which the hand loop branches on, all have theirs.
    assert {f"BOT_{name.upper()}" for name in bots.BOT_NAMES[: bots.LAST_BUILT_IN + 1]} <= set(constants)


def test_a_bot_kernel_module_needs_nothing_of_bots() -> None:
    """What a bot's own kernel module needs sits below ``bots.py`` (the codes, the state's layout, the
    generator), and ``bots.py`` keeps the names it had."""
    from simgin.kernels import decisions, mcts

    assert bots.POLICIES[bots.BOT_NAMES.index("mcts")] is mcts.decide
    for name in ("DECISION_DISCARD", "POLICY", "STATE_SIZE", "S_FLOATS", "FLOAT_MEMORY", "slot", "randint_at"):
        assert getattr(bots, name) is getattr(decisions, name)
    imported = set()
    for node in ast.walk(ast.parse((ROOT / "simgin" / "kernels" / "mcts.py").read_text())):
        if isinstance(node, ast.ImportFrom):
            imported |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    assert "simgin.kernels.decisions" in imported and "simgin.kernels.bots" not in imported


def _copy(source: Path, target: Path) -> None:
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))


def apply_the_page(copy: Path) -> None:
    """The page's steps, done to the copy: the kernel module, its import and line in ``bots.py``, the module."""
    kernel, import_line, line, module = code_blocks()
    kernels = copy / "simgin" / "kernels"
    (kernels / "highshed.py").write_text(kernel)
    path = kernels / "bots.py"
    text = path.read_text()
    imports = text.index("\nfrom simgin.kernels import ")
    text = text[: imports + 1] + import_line.strip() + "\n" + text[imports + 1 :]
    end = text.index("\n)\n", text.index("\nBOTS = ("))
    text = text[:end] + "\n" + line.rstrip("\n") + text[end:]
    path.write_text(text)
    (copy / "simgin" / "strategies" / "highshed.py").write_text(module)


@pytest.mark.slow
def test_a_toy_bot_added_as_the_page_says_plays(tmp_path: Path) -> None:
    copy = tmp_path / "src"
    _copy(ROOT / "simgin", copy / "simgin")
    _copy(ROOT / "strategies", copy / "simgin" / "strategies")
    _copy(ROOT / "reports", copy / "simgin" / "reports")
    apply_the_page(copy)
    env = {**os.environ, "PYTHONPATH": str(copy)}

    def simgin(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "simgin", *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=1200
        )

    where = subprocess.run(
        [sys.executable, "-c", "import simgin.kernels.bots as b; print(b.__file__)"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert where.stdout.strip() == str(copy / "simgin" / "kernels" / "bots.py")

    listed = simgin("strategies")
    assert listed.returncode == 0, listed.stderr
    row = next(line for line in listed.stdout.splitlines() if line.startswith("highshed "))
    assert "compiled" in row and "discards its highest card" in row

    numba = simgin("match", "highshed", "random", "--games", "10", "--seed", "1", "--json")
    assert numba.returncode == 0, numba.stderr
    assert json.loads(numba.stdout)["games"] == 10
    adapter = simgin("match", "highshed", "simgin.strategies.random:RandomStrategy", "--hands", "20", "--seed", "1")
    assert adapter.returncode == 0, adapter.stderr
    assert "highshed" in adapter.stdout

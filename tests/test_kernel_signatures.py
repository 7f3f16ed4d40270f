"""A kernel is compiled once per argument type, never once per constant (issue 32's suite time, issue 15).

numba types a constant passed from compiled code as a literal (``Literal[int](21)``, ``Literal[bool](True)``) and
compiles the callee again for each one: ``draw_luck`` twice in every hand loop, ``score_hand`` three times, the
analysis' ``_world_values`` and the environment's ``deal``, ``_draw``, ``_dead`` and ``_show_down`` twice or
three times, seconds of every first run. Callers pass typed constants (``np.int64(21)``, ``np.bool_(True)``).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

#: A small run of every kind of kernel the package calls: hands, games, both multi-player tables, luck
#: adjustment, the analysis, the environment's table and batch, the search bot and the Python showdown.
WORKLOAD = """
import json, sys
import numpy as np
import numba.core.types as types
from numba.core.registry import CPUDispatcher
import simgin
from simgin import Rules
from simgin.env import batched_env
from simgin.env.table import Table
import simgin.kernels as kernels

simgin.match("opponent", "heuristic", hands=2, workers=1, adjust_luck=True)
simgin.match("mcts:budget=50", "simple", games=2, workers=1)
simgin.match("simple", "greedy", "random", games=6, workers=1)
simgin.match("simple", "greedy", "random", "heuristic", games=8, teams=True, workers=1)
simgin.analyse("opponent", "simple", hands=2, workers=1)
simgin.score_showdown("AS 2S 3S 7C 7D 7H TD JD QD KH", "4S 5S 8C 8D 9H 9S KC KD 2C 3D")
table = Table(Rules(), (None, "opponent"))
for hand in range(3):
    table.deal(hand_seed=hand, dealer=hand % 2)
    while not table.over:
        table.step(table.legal_actions()[-1])
        table.observation(0)
env = batched_env(tables=4, opponent="opponent")
observations, masks = env.reset(seed=1)
for _ in range(60):
    observations, masks, *_ = env.step(np.array([int(np.flatnonzero(m)[-1]) for m in masks]))

literal = {}
for name, module in list(sys.modules.items()):
    if not name.startswith("simgin.kernels"):
        continue
    for attribute, value in vars(module).items():
        if isinstance(value, CPUDispatcher) and value.py_func.__module__ == name:
            for signature in value.signatures:
                if any(isinstance(argument, types.Literal) for argument in signature):
                    literal.setdefault(f"{name}.{attribute}", []).append(str(signature))
print(json.dumps(literal))
"""


@pytest.mark.slow
def test_no_kernel_is_compiled_for_a_constant_argument():
    """Every ``simgin.kernels`` function the workload reaches was compiled for argument types only: no signature
    holds a literal. ``slow``: a fresh process (it loads from the suite's cache, or compiles on an empty one)."""
    run = subprocess.run([sys.executable, "-c", WORKLOAD], capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-3000:]
    literal = json.loads(run.stdout.strip().splitlines()[-1])
    assert literal == {}, literal

"""The suite's kernels compiled at the start of a parallel run, each by one worker.

On an empty numba cache most of a fresh run's time is compiling. Left to the tests, both pytest-xdist workers ask
for the same big kernels at about the same moment (the searching bots' ``decide``, ``mcts``, the three-player
batch) and each compiles them: about 25 CPU s compiled twice (benchmarks/RESULTS.md, issue 32). Here each worker
of a whole-suite run compiles its own share of the kernels before its first test, the shares balanced by their
compile time, so every kernel is compiled once and both cores compile at once; the tests then load them from the
cache. With a warm cache a share is loaded in about a second. A run of a few test files (fewer than
:data:`WHOLE_SUITE` tests) skips it: it compiles only what its tests use.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import numpy as np

#: Fewer tests than this (a file or two in the edit-test loop) and no share is compiled ahead.
WHOLE_SUITE = 1000


def _hands() -> None:
    from simgin.running.config import RunConfig
    from simgin.running.kernel_cache import compile_kernels

    compile_kernels(RunConfig(("simple", "simple"), hands=2))


def _searching_bots() -> None:
    """The searching bots' ``decide`` alone, as a second worker compiles them on a cold run: not the hand loop
    itself, which the other share compiles at the same time."""
    from simgin.running.kernel_cache import compile_searching_bots

    compile_searching_bots(("heuristic", "mcts"))


def _games() -> None:
    from simgin.running.config import RunConfig
    from simgin.running.kernel_cache import compile_kernels

    compile_kernels(RunConfig(("simple", "greedy"), games=2))


def _tables() -> None:
    from simgin.running.config import RunConfig
    from simgin.running.kernel_cache import compile_kernels

    compile_kernels(RunConfig(("simple", "random", "greedy"), games=1, table="three", duplicate=False))
    compile_kernels(RunConfig(("simple", "random", "greedy", "simple"), games=1, table="teams", duplicate=False))


def _analysis() -> None:
    import simgin

    simgin.analyse("simple", "greedy", hands=1, workers=1)


def _environment() -> None:
    from simgin.env.batched import BatchedEnv
    from simgin.env.table import Table
    from simgin.game.rules import Rules

    table = Table(Rules(), (None, "opponent"))
    table.deal(1, 0)
    table.step(table.legal_actions()[0])
    tables = BatchedEnv(tables=2, opponent="simple")
    _, masks = tables.reset(seed=1)
    tables.step(np.argmax(masks, axis=1))


#: The shares of two workers, balanced by compile time on an empty cache (2-core AMD EPYC, both at once: about 57
#: and 68 CPU s): the hand loop, the analysis (which plays it), games and the tables against the searching bots'
#: ``decide`` and the RL environment.
SHARES: tuple[tuple[Callable[[], None], ...], ...] = (
    (_hands, _analysis, _games, _tables),
    (_searching_bots, _environment),
)


def compile_share(worker: str | None = None, workers: int | None = None) -> None:
    """Compile (or load) this pytest-xdist worker's share of :data:`SHARES`; nothing outside a parallel run."""
    worker = worker if worker is not None else os.environ.get("PYTEST_XDIST_WORKER")
    workers = workers if workers is not None else int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if worker is None or workers < 2:
        return
    index = int(worker.removeprefix("gw"))
    steps = [step for share in SHARES for step in share]
    mine = SHARES[index] if workers == len(SHARES) else steps[index::workers]
    for step in mine:
        step()

"""The suite's kernel warm-up (tests/kernel_warmup.py): every step compiled by exactly one worker, whatever the
number of workers, and nothing done outside a parallel run."""

from __future__ import annotations

import kernel_warmup
import pytest


@pytest.fixture
def calls(monkeypatch) -> list[str]:
    """The steps record their names instead of compiling."""
    done: list[str] = []
    shares = tuple(
        tuple((lambda name=step.__name__: done.append(name)) for step in share) for share in kernel_warmup.SHARES
    )
    monkeypatch.setattr(kernel_warmup, "SHARES", shares)
    return done


STEPS = sorted(step.__name__ for share in kernel_warmup.SHARES for step in share)


@pytest.mark.parametrize("workers", [2, 3, 4, 7])
def test_every_step_is_done_by_exactly_one_worker(calls, workers):
    for index in range(workers):
        kernel_warmup.compile_share(f"gw{index}", workers)
    assert sorted(calls) == STEPS


def test_nothing_is_compiled_ahead_in_one_process(calls, monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    kernel_warmup.compile_share()
    kernel_warmup.compile_share("gw0", 1)
    assert calls == []

"""The suite's two tiers (README, *Running the tests*).

The default run is the quick tier, for the edit-test loop: a test in it takes about a second or less with a warm
numba cache, its fixtures included. A longer test is in the long tier, marked ``slow``: ``pytest -m slow`` runs it,
and ``.ci/run`` runs both tiers, so nothing lands unchecked. Where a check samples (random hands against a brute
force, seeded games), the quick tier runs a smaller sample of the same check and the long tier the full one.
"""

from __future__ import annotations

import pytest

SLOW = pytest.mark.slow


def sizes(quick: int, full: int) -> list:
    """A sample size as a test parameter: ``quick`` in the default run, ``full`` in the slow tier."""
    return [pytest.param(quick, id=f"{quick:_}"), pytest.param(full, id=f"{full:_}", marks=SLOW)]

"""Strict JSON values: what every ``--json``, ``to_json()`` and ``result.json`` of simgin is made of.

The base of the layers (docs/ARCHITECTURE.md): it imports nothing of simgin, so any layer may use it.
"""

from __future__ import annotations

import math
from typing import Any


def jsonable(value: Any) -> Any:
    """NaN and infinities become null, numpy numbers plain numbers: strict JSON (RFC 8259 has no NaN).

    >>> jsonable({"rate": float("nan"), "counts": (1, 2.5)})
    {'rate': None, 'counts': [1, 2.5]}
    """
    if isinstance(value, dict):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(item) for item in value]
    if hasattr(value, "item") and not isinstance(value, str):
        return jsonable(value.item())
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value

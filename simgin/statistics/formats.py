"""How simgin writes its numbers: shares as percentages and p-values, one formatter for each.

The commands, the reports and the statistics modules all write through these, so a share or a
p-value reads the same everywhere. A missing value (None, NaN or an infinity: a rate of no
hands, a test that could not be run) is written as ``missing``: the commands print ``-``, the
reports ``n/a``.

>>> percent(0.612), percent(None), percent(float("nan"), missing="-")
('61.2%', 'n/a', '-')
>>> percent_interval(0.598, 0.626), p_value(0.0123), p_value(0.0), p_below(3e-9, "p_holm")
('(59.8-62.6%)', '0.012', '< 1e-300', 'p_holm < 1e-6')
"""

from __future__ import annotations

import math
from typing import Any

#: The smallest p-value written as a number: below it a double may have underflowed (to 0 at the last).
P_FLOOR = 1e-300
#: Where a p-value in words (:func:`p_below`) stops giving digits: far in the tail the digits say nothing.
P_TAIL = 1e-6


def finite(value: Any) -> bool:
    """True for a real, finite number (None and NaN are missing values; 0-d arrays count as numbers)."""
    if value is None or isinstance(value, str | bool):
        return False
    try:
        return math.isfinite(float(value))
    except (TypeError, ValueError):
        return False


def percent(value: Any, digits: int = 1, missing: str = "n/a") -> str:
    """A share as a percentage: ``0.612`` -> ``'61.2%'``; a missing value is ``missing``."""
    return f"{100 * value:.{digits}f}%" if finite(value) else missing


def percent_interval(low: Any, high: Any, missing: str = "") -> str:
    """An interval of shares: ``(59.8-62.6%)``; ``missing`` when either end is missing."""
    if not (finite(low) and finite(high)):
        return missing
    return f"({100 * low:.1f}-{100 * high:.1f}%)"


def p_value(p: Any, missing: str = "n/a") -> str:
    """A p-value in two significant digits; one below 1e-300 (the floor of double precision, where it
    may have underflowed to 0) as ``< 1e-300``; a missing one as ``missing``.

    >>> p_value(0.0123), p_value(3.2e-45), p_value(0.0), p_value(None)
    ('0.012', '3.2e-45', '< 1e-300', 'n/a')
    """
    if not finite(p):
        return missing
    return "< 1e-300" if p < P_FLOOR else f"{p:.2g}"


def p_below(p: Any, name: str = "p") -> str:
    """A p-value in words, named: ``'p = 0.014'``, ``'p < 1e-6'`` far in the tail, ``'p = n/a'`` when missing.

    >>> p_below(0.0142), p_below(2e-12, "p_holm"), p_below(float("nan"))
    ('p = 0.014', 'p_holm < 1e-6', 'p = n/a')
    """
    if not finite(p):
        return f"{name} = n/a"
    return f"{name} < 1e-6" if p < P_TAIL else f"{name} = {p:.2g}"

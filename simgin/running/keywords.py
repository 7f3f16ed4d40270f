"""The keyword arguments a public run function takes, checked by name (issue 32 item 17).

The run functions (``simgin.match``, ``tournament``, ``compare``, ``sweep``, ``plan``, ``run_match``,
``run_tournament``) take their own arguments and hand the runner's (:data:`RUN_OPTIONS`) on to
:func:`simgin.running.runner.run_cells`. A misspelt keyword must be refused by the function the caller
called, naming every keyword it takes, not by ``run_cells()`` three calls down.

>>> def match(*players, rules=None, **options):
...     check_keywords(match, options, RUN_OPTIONS)
>>> match("simple", "random", wokers=2)
Traceback (most recent call last):
TypeError: match() got an unexpected keyword argument 'wokers' (did you mean 'workers'?); it takes rules, workers, \
backend, scheduler, out, hand_log, progress, programs, notice
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import Any

#: The runner's keyword arguments (:func:`simgin.running.runner.run_cells`) that a run function hands on.
RUN_OPTIONS = ("workers", "backend", "scheduler", "out", "hand_log", "progress", "programs", "notice")


def keywords_of(function: Callable[..., Any], passed_on: Iterable[str] = ()) -> list[str]:
    """Every keyword ``function`` takes: its own named parameters, then those its ``**options`` hand on."""
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    own = [name for name, p in inspect.signature(function).parameters.items() if p.kind in kinds]
    return own + [name for name in passed_on if name not in own]


def check_keywords(function: Callable[..., Any], options: Mapping[str, Any], passed_on: Iterable[str]) -> None:
    """Raise a TypeError naming ``function`` and the keywords it takes when ``options`` (what its ``**options``
    received) holds one that ``passed_on`` does not allow."""
    allowed = tuple(passed_on)
    unknown = [name for name in options if name not in allowed]
    if not unknown:
        return
    keywords = keywords_of(function, allowed)
    close = difflib.get_close_matches(unknown[0], keywords, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise TypeError(
        f"{function.__name__}() got an unexpected keyword argument {unknown[0]!r}{hint}; it takes {', '.join(keywords)}"
    )

"""Old module paths, kept importing for a deprecation period (issue 32 item 18).

The regroup by job (issue 26) moved simgin's modules into ``game/``, ``players/``, ``running/``, ``statistics/``
and ``studies/``, and plug-ins written against the documented ``from simgin.melds import ...`` broke. Each old
path in :data:`MOVED` is a thin module in ``simgin/`` (``simgin/melds.py``) that calls :func:`alias`: the import
warns with a DeprecationWarning that points at the importing line and names the new path, and gives the very
module at the new path, so every object is the same. The old paths go in simgin :data:`REMOVED_IN`.

Two old modules have no alias: ``simgin.compare`` and ``simgin.sweep`` now name the functions
``simgin.compare`` and ``simgin.sweep`` (their modules are :mod:`simgin.statistics.sprt` and
:mod:`simgin.studies.sweep`); the docs only ever showed the functions. Nor have the command line's modules
(``simgin.cli_runner``...), which were never an API. The public import surface is the names of ``simgin``
itself (README, "The public import surface").
"""

from __future__ import annotations

import importlib
import sys
import warnings

#: The release that removes the old paths.
REMOVED_IN = "0.3"
#: Old path -> new path: every library module of simgin before the regroup (2f74d78) but the two above.
MOVED = {
    "simgin.cards": "simgin.game.cards",
    "simgin.engine": "simgin.running.engine",
    "simgin.melds": "simgin.game.melds",
    "simgin.multiplayer": "simgin.game.multiplayer",
    "simgin.reference_engine": "simgin.game.reference_engine",
    "simgin.rng": "simgin.game.rng",
    "simgin.rules": "simgin.game.rules",
    "simgin.showdown": "simgin.game.showdown",
    "simgin.eaai": "simgin.players.eaai",
    "simgin.guard": "simgin.base.guard",
    "simgin.process_strategy": "simgin.players.programs",
    "simgin.registry": "simgin.players.registry",
    "simgin.rules_reading": "simgin.players.rules_reading",
    "simgin.strategy": "simgin.game.strategy",
    "simgin.results": "simgin.running.results",
    "simgin.runner": "simgin.running.runner",
    "simgin.summary": "simgin.running.summary",
    "simgin.tally": "simgin.running.tally",
    "simgin.ratings": "simgin.running.tournament_ratings",
    "simgin.stats": "simgin.statistics.stats",
    "simgin.tuning": "simgin.studies.tune",
    # Moved by the layering (issue 33): a module below the code that calls it, names resolved in running/.
    "simgin.players.strategy": "simgin.game.strategy",
    "simgin.players.guard": "simgin.base.guard",
    "simgin.game.engine": "simgin.running.engine",
}


def alias(name: str) -> None:
    """Called by the module being imported as ``name``, an old path: warn, and put the module at its new path
    in its place (the import then returns that module)."""
    new = MOVED[name]
    warnings.warn(
        f"{name} has moved to {new}; the old path is deprecated and goes in simgin {REMOVED_IN}: import {new}, "
        "or the public names from simgin itself",
        DeprecationWarning,
        stacklevel=3,  # the importing line: past this function and the alias module (importlib's frames are skipped)
    )
    sys.modules[name] = importlib.import_module(new)

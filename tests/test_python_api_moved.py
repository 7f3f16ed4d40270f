"""Old import paths keep working for a deprecation period, with a warning (issue 32 item 18).

Plug-ins written against the documented ``from simgin.melds import ...`` broke when the package was regrouped by
job (issue 26). Every library module of simgin before the regroup is an alias (``simgin/_moved.py``): its import
warns, pointing at the importing line and naming the new path, and gives the very module at the new path.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings

import pytest

import simgin
from simgin._moved import MOVED, REMOVED_IN

#: Every name the README and docs/ ever showed imported from a path that has since moved (git log -p -- README.md
#: docs/: ``from simgin.melds import ...``, ``simgin.registry.resolve``, ``simgin.strategy.PlayerView`` ...).
DOCUMENTED = [
    ("simgin.melds", "deadwood"),
    ("simgin.melds", "discard_deadwoods"),
    ("simgin.registry", "resolve"),
    ("simgin.strategy", "PlayerView"),
    ("simgin.strategy", "Parameter"),
    ("simgin.strategy", "HandEnd"),
    ("simgin.engine", "play_games"),
    ("simgin.engine", "play_hand_rows"),
    ("simgin.engine", "play_game_rows"),
    ("simgin.rng", "SplitMix64"),
    ("simgin.runner", "run_match"),
    ("simgin.runner", "run_tournament"),
    # Moved by the layering (issue 33), named by docs/ADDING_A_BOT.md and docs/ENGINE.md before it.
    ("simgin.players.strategy", "Parameter"),
    ("simgin.players.strategy", "Strategy"),
    ("simgin.game.engine", "play_hand_rows"),
    ("simgin.game.engine", "play_game_rows"),
]


def fresh_import(name: str) -> tuple[object, list[warnings.WarningMessage]]:
    """Import ``name`` as a first import would (the alias runs again), recording the warnings."""
    sys.modules.pop(name, None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(name)
    return module, list(caught)


@pytest.mark.parametrize(("old", "new"), sorted(MOVED.items()))
def test_an_old_path_imports_warns_and_gives_the_same_objects(old, new) -> None:
    module, caught = fresh_import(old)
    target = importlib.import_module(new)
    assert module is target
    public = [name for name in vars(target) if not name.startswith("_")]
    assert public and all(getattr(module, name) is getattr(target, name) for name in public)
    deprecations = [w for w in caught if issubclass(w.category, DeprecationWarning) and old in str(w.message)]
    assert len(deprecations) == 1
    assert new in str(deprecations[0].message) and REMOVED_IN in str(deprecations[0].message)


@pytest.mark.parametrize(("old", "name"), DOCUMENTED)
def test_every_name_the_docs_showed_at_an_old_path_still_imports(old, name) -> None:
    module, caught = fresh_import(old)
    assert getattr(module, name) is getattr(importlib.import_module(MOVED[old]), name)
    assert any(issubclass(w.category, DeprecationWarning) for w in caught)


def test_the_warning_points_at_the_plugins_import_line(tmp_path) -> None:
    """A plug-in run as a script sees the warning by default, on its own line (not in importlib)."""
    plugin = tmp_path / "old_plugin.py"
    plugin.write_text("import sys\nfrom simgin.melds import deadwood\nprint(deadwood('AS 2S 3S'))\n")
    run = subprocess.run([sys.executable, str(plugin)], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == "0"
    assert f"{plugin}:2: DeprecationWarning: simgin.melds has moved to simgin.game.melds" in run.stderr


def test_the_public_names_and_the_documented_paths_import_without_a_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        for name in simgin.__all__:
            getattr(simgin, name)
        from simgin.game.melds import deadwood  # noqa: F401
        from simgin.game.strategy import Parameter  # noqa: F401

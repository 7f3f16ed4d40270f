"""The package's layout (issue 26): grouped by job, no import circles, none dodged by a late import.

The graph has an arrow A -> B for every import of B in A's source: at the top, inside functions and under
``TYPE_CHECKING`` alike. An import inside a function that closes a circle only hides it, so it counts.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Folder on disk -> its name when installed (pyproject.toml's package-dir).
PACKAGES = {"simgin": "simgin", "reports": "simgin.reports", "strategies": "simgin.strategies"}
#: The groups of simgin/ by job, each a package.
GROUPS = ("base", "game", "players", "running", "statistics", "studies", "cli", "kernels", "tools", "analysis", "env")


def module_files() -> dict[str, Path]:
    modules = {}
    for folder, name in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = [*name.split("."), *path.relative_to(ROOT / folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the project modules it imports, anywhere in its source."""
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, *([node.module] if node.module else [])])
                targets.add(base)
                targets.update(f"{base}.{alias.name}" for alias in node.names)
        graph[name] = {t for t in targets if t in modules and t != name and not name.startswith(t + ".")}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_import_graph_has_no_circle() -> None:
    graph = import_graph(module_files())
    assert circles(graph) == []


def test_the_circle_finder_finds_a_circle_through_a_late_import() -> None:
    """The check itself can fail: a function-level import that closes a loop is caught."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]


def test_simgin_is_grouped_by_job() -> None:
    """simgin/ holds only its groups' packages and its face (__init__, __main__): a module has its room. The old
    paths kept for a deprecation period (issue 32 item 18, ``simgin/_moved.py``) are thin aliases and nothing more."""
    from simgin._moved import MOVED

    face = ("__init__.py", "__main__.py", "_moved.py")
    loose = sorted(p.name for p in (ROOT / "simgin").glob("*.py") if p.name not in face)
    assert loose == sorted(f"{old.split('.')[1]}.py" for old in MOVED if old.count(".") == 1)
    modules = module_files()
    for old in MOVED:
        assert is_alias(modules[old]), old
    for group in GROUPS:
        assert (ROOT / "simgin" / group / "__init__.py").is_file(), group


def is_alias(path: Path) -> bool:
    """Whether the file is an old path's thin alias (:mod:`simgin._moved`): a docstring and the two lines."""
    statements = [ast.unparse(node) for node in ast.parse(path.read_text()).body[1:]]  # after the docstring
    return statements == ["from simgin._moved import alias", "alias(__name__)"]


def test_every_alias_is_an_old_path() -> None:
    """A thin alias stands only at an old path listed in MOVED (it is exempt from the layers, as the top is)."""
    from simgin._moved import MOVED

    aliases = {name for name, path in module_files().items() if is_alias(path)}
    assert aliases == set(MOVED)


@pytest.mark.parametrize("group", GROUPS)
def test_every_group_is_installed(group: str) -> None:
    """pyproject.toml lists every package, so that a wheel (not only an editable install) has them."""
    assert f'"simgin.{group}"' in (ROOT / "pyproject.toml").read_text()


# -- layers (issue 33): every import goes down the order of docs/ARCHITECTURE.md ------------------------------

#: The layers from the ground up (docs/ARCHITECTURE.md): a module may import its own layer and those below.
LAYERS = {
    "base": 0,
    "kernels": 1,
    "statistics": 1,
    "game": 2,
    "players": 3,
    "strategies": 4,
    "running": 5,
    "studies": 6,
    "analysis": 6,
    "env": 6,
    "reports": 7,
    "face": 8,
    "cli": 9,
    "tools": 10,
    "top": 10,
}

#: The old paths' thin aliases (:mod:`simgin._moved`): at the top, whichever folder they stand in, for an alias
#: gives the module at its new path and is no part of the layer around it.
ALIASES = frozenset(name for name, path in module_files().items() if is_alias(path))


def layer(module: str) -> int:
    """A module's layer: its group's, the face's for ``simgin`` itself, the top for ``__main__`` and old paths."""
    parts = module.split(".")
    if module in ALIASES:
        return LAYERS["top"]
    if len(parts) == 1:
        return LAYERS["face"]
    return LAYERS.get(parts[1], LAYERS["top"])


def upward_imports(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    return {(a, b) for a, targets in graph.items() for b in targets if layer(b) > layer(a)}


def test_imports_go_down_the_layers() -> None:
    """Every import, late ones included, goes to its own layer or one below (docs/ARCHITECTURE.md), with no
    exception list: the engine plays resolved players (:mod:`simgin.game.play`) and ``running/`` resolves names
    (:mod:`simgin.running.engine`); the strategy protocol (:mod:`simgin.game.strategy`) and the foreign-call guard
    (:mod:`simgin.base.guard`) sit below the engine that calls them."""
    assert upward_imports(import_graph(module_files())) == set()


def test_the_layer_check_catches_an_upward_import() -> None:
    graph = {"simgin.game.rules": {"simgin.running.runner"}, "simgin.running.runner": {"simgin.game.rules"}}
    assert upward_imports(graph) == {("simgin.game.rules", "simgin.running.runner")}


def test_the_architecture_document_lists_every_layer() -> None:
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
    for name in LAYERS:
        if name not in ("face", "top"):
            assert f"`{name}/`" in text, name

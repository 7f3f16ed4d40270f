"""``benchmarks/`` is a suite (issue 33 item 3): one harness, every benchmark run by ``benchmarks.run_all``,
no ``sys.path`` edits, and no test loads a project file by its path."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import sys
import types
from pathlib import Path

import pytest

from benchmarks import harness, run_all

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"


def package_modules() -> set[str]:
    """The modules and packages directly in benchmarks/, by name."""
    names = {path.stem for path in BENCHMARKS.glob("*.py") if path.stem != "__init__"}
    return names | {path.parent.name for path in BENCHMARKS.glob("*/__init__.py")}


def test_run_all_runs_every_benchmark_in_the_folder() -> None:
    suite = {benchmark.module for benchmark in run_all.SUITE}
    assert suite.isdisjoint(run_all.HELPERS)
    assert package_modules() == suite | run_all.HELPERS
    assert len(suite) == len(run_all.SUITE), "a benchmark listed twice"


@pytest.mark.parametrize("benchmark", run_all.SUITE, ids=lambda benchmark: benchmark.module)
def test_every_benchmark_takes_the_common_flags(benchmark, capsys) -> None:
    """``main(argv)`` with ``--quick`` (and ``--write`` where it writes a section), as run_all calls it."""
    module = importlib.import_module(f"benchmarks.{benchmark.module}")
    assert list(inspect.signature(module.main).parameters) == ["argv"]
    with pytest.raises(SystemExit) as done:
        module.main(["--help"])
    assert done.value.code == 0
    shown = capsys.readouterr().out
    assert "--quick" in shown
    assert ("--write" in shown) == benchmark.writes, benchmark.module


def test_no_benchmark_or_test_edits_the_path_or_loads_a_file_by_path() -> None:
    sources = [*BENCHMARKS.rglob("*.py"), *(ROOT / "tests").glob("*.py"), *(ROOT / "simgin" / "tools").glob("*.py")]
    for path in sources:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                name = ast.unparse(node)
                assert name not in ("sys.path.insert", "sys.path.append"), f"{path.name}: {name}"
                assert node.attr != "spec_from_file_location", f"{path.name} loads a file by its path"


def test_the_shipped_data_pipelines_and_gates_are_importable_tools() -> None:
    for name in ("train_discard", "fit_knock_model", "gates", "row_hashes"):
        assert not (BENCHMARKS / f"{name}.py").exists(), name
        assert callable(importlib.import_module(f"simgin.tools.{name}").main), name


def test_a_section_is_written_between_its_markers_only(tmp_path: Path) -> None:
    results = tmp_path / "RESULTS.md"
    head = "# simgin benchmarks\n\nsome table\n\n## Other (issue 5)\n\n<!-- other:start -->\nx\n<!-- other:end -->\n"
    results.write_text(head)
    harness.write_section("compare", "Compared", "first", results)
    text = results.read_text()
    assert text == head.rstrip("\n") + "\n\n## Compared\n\n<!-- compare:start -->\nfirst\n<!-- compare:end -->\n"
    harness.write_section("compare", "Compared", "second", results)
    assert results.read_text() == text.replace("first", "second")
    assert harness.read_section("compare", results) == "second"
    assert harness.read_section("missing", results) is None
    results.write_text("before\n<!-- compare:start -->\nold\n<!-- compare:end -->\nafter\n")
    harness.write_section("compare", "Compared", "new", results)
    assert results.read_text() == "before\n<!-- compare:start -->\nnew\n<!-- compare:end -->\nafter\n"


def test_a_benchmark_publishes_its_section_only_with_write_and_never_in_a_quick_run(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    """``harness.publish``, the end of every benchmark that writes a section: it always prints the lines, and
    writes them into RESULTS.md with ``--write`` alone (a ``--quick`` smoke test never overwrites figures)."""
    results = tmp_path / "RESULTS.md"
    monkeypatch.setattr(harness, "RESULTS", results)
    for argv in ([], ["--quick"], ["--quick", "--write"]):
        harness.publish(harness.parser(None).parse_args(argv), "demo", "Demo", ["| a |", "| b |"])
        assert capsys.readouterr().out == "| a |\n| b |\n" and not results.exists()
    harness.publish(harness.parser(None).parse_args(["--write"]), "demo", "Demo", ["| a |", "| b |"])
    assert capsys.readouterr().out == f"| a |\n| b |\nwrote {results}\n"
    assert harness.read_section("demo", results) == "| a |\n| b |"


def _fake(monkeypatch, name: str, main) -> run_all.Benchmark:
    module = types.ModuleType(f"benchmarks.{name}")
    module.main = main
    monkeypatch.setitem(sys.modules, f"benchmarks.{name}", module)
    return run_all.Benchmark(name, "a fake")


def test_a_skipped_or_failing_benchmark_is_reported_and_the_rest_still_run(monkeypatch, capsys) -> None:
    seen = []

    def skip(argv):
        raise harness.Skip("needs Java")

    def fail(argv):
        raise RuntimeError("broken")

    def ok(argv):
        seen.append(argv)

    skipped = run_all.run_one(_fake(monkeypatch, "fake_skip", skip), quick=True, write=False)
    failed = run_all.run_one(_fake(monkeypatch, "fake_fail", fail), quick=False, write=True)
    ran = run_all.run_one(_fake(monkeypatch, "fake_ok", ok), quick=False, write=True)
    quick = run_all.run_one(_fake(monkeypatch, "fake_ok", ok), quick=True, write=False)
    assert (skipped.status, skipped.detail) == ("skipped", "needs Java")
    assert (failed.status, failed.detail) == ("failed", "RuntimeError: broken")
    assert ran.status == quick.status == "ran"
    assert seen == [["--write"], ["--quick"]]
    table = run_all.summary([skipped, failed, ran], quick=True)
    assert "| `fake_skip` | a fake | skipped: needs Java |" in table
    assert "| `fake_fail` | a fake | failed: RuntimeError: broken |" in table


def test_run_all_refuses_an_unknown_benchmark(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        run_all.main(["--only", "bench_nothing"])
    assert done.value.code == 2
    assert "unknown benchmark bench_nothing; choose from bench_melds" in capsys.readouterr().err


def test_a_skip_run_alone_stops_with_its_message() -> None:
    """Run alone (``python -m benchmarks.NAME``), a benchmark that cannot run exits 1 with what it needs."""
    skip = harness.Skip("needs OpenSpiel")
    assert isinstance(skip, SystemExit) and skip.code == "needs OpenSpiel"


def _inside_imports(path: Path) -> set[str]:
    """The simgin modules below the public face (``simgin`` itself and ``simgin.env``) that ``path`` imports."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            if name.startswith("simgin.") and name.split(".")[1] != "env":
                found.add(name)
    return found


def test_a_benchmark_reaches_inside_simgin_only_where_the_readme_says_why() -> None:
    """Issue 33 item 3: benchmarks use the public API except where benchmarks/README.md names them and says why."""
    text = (BENCHMARKS / "README.md").read_text()
    table = text.split("| benchmark | what it imports from inside | why |", 1)[1].split("\n\n", 1)[0]
    explained = {name for row in table.splitlines()[2:] for name in re.findall(r"`(\w+)`", row.split("|")[1])}
    public_alone = text.split("| why |", 1)[1].split("\n\n", 1)[1].split("use the public API", 1)[0]
    inside = {}
    for path in sorted(BENCHMARKS.rglob("*.py")):
        module = path.relative_to(BENCHMARKS).parts[0].removesuffix(".py")
        if imports := _inside_imports(path):
            inside.setdefault(module, set()).update(imports)
    unexplained = {module: sorted(imports) for module, imports in inside.items() if module not in explained}
    assert not unexplained, (
        f"benchmarks reaching inside simgin that benchmarks/README.md does not explain: {unexplained}"
    )
    for module in re.findall(r"`(\w+)`", public_alone):
        assert module not in inside, f"benchmarks/README.md says {module} uses the public API alone: {inside[module]}"


def test_the_profile_names_numba_functions_and_shares_their_samples() -> None:
    from benchmarks import profile_kernels

    mangled = "_ZN6simgin7kernels8opponent11sample_handB4v227B40c8tJTIeFIjxB2IKSgI4CrvSCKg1MMfAwK4LIaQIAExx5Array"
    assert profile_kernels.function_name(mangled) == "simgin.kernels.opponent.sample_hand"
    assert profile_kernels.function_name("_ZN5numba7cpython4hashB2v1") is None  # not simgin's
    assert profile_kernels.function_name("_PyEval_EvalFrameDefault") is None
    report = "\n".join(
        [
            "# Samples: 5K of event 'cpu-clock'",
            "#",
            "    10.00%   300  [.] _PyEval_EvalFrameDefault                -      -",
            f"     6.00%   180  [.] {mangled}                -      -",
            "     2.00%    60  [.] _ZN6simgin7kernels5melds17discard_deadwoodsB4v110B40c8tJTIeF   -   -",
            "     2.00%    60  [.] _ZN6simgin7kernels8opponent11sample_handB4v228B40other   -   -",
        ]
    )
    samples, table = profile_kernels.shares(report)
    assert samples == 300  # two specialisations of sample_hand add up; Python's samples are left out
    assert table == [("simgin.kernels.opponent.sample_hand", 0.8), ("simgin.kernels.melds.discard_deadwoods", 0.2)]


def test_ab_hands_times_the_pair_and_rules_it_is_given(capsys: pytest.CaptureFixture[str]) -> None:
    """``benchmarks.ab_hands --pair A,B --rules R --hands N``: the line names what was timed; a malformed pair or
    an unknown preset is a one-line usage error (exit 2), naming the bad value and what is allowed."""
    from benchmarks import ab_hands

    ab_hands.main(["--pair", "simple,greedy", "--rules", "straight", "--hands", "40"])
    assert "40 hands of simple vs greedy (straight) on one thread" in capsys.readouterr().out
    ab_hands.main(["--pair", "heuristic:knock=7,knock_late=5,greedy", "--hands", "20"])
    assert "20 hands of heuristic:knock=7,knock_late=5 vs greedy" in capsys.readouterr().out, "a spec's own commas"
    for bad, named in ((["--pair", "simple"], "'simple'"), (["--rules", "gin"], "choose from standard")):
        with pytest.raises(SystemExit) as stop:
            ab_hands.main(bad)
        assert stop.value.code == 2 and named in capsys.readouterr().err

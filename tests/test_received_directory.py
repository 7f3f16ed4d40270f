"""A directory received from someone else (issue 25, D1-D6, D15, D16): simgin never writes outside it or through a
link planted in it, never writes its report over the run's own files, and never believes a damaged or edited record:
it is played again with a notice, or refused with one line naming the file (README, "Failures and resuming")."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from simgin.base import files
from simgin.cli.main import main

TOURNAMENT = ("tournament", "simple", "random", "greedy", "--hands", "20", "--workers", "1", "--quiet", "--json")
TUNE = ("tune", "heuristic", "--against", "simple", "--params", "knock,knock_late,gin_hold", "--budget", "4")
TUNE += ("--popsize", "2", "--games", "8", "--final", "20", "--seed", "3", "--workers", "1", "--quiet", "--json")
SECRET = "someone else's file\n"


def invoke(*args: str):
    return CliRunner().invoke(main, [str(arg) for arg in args])


def one_error_line(result) -> str:
    """Exactly one ``Error:`` line, exit status 1, no traceback."""
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    return errors[0]


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> tuple[Path, dict]:
    """A finished three-player tournament (three chunks) with hand logs, and its --json output."""
    out = tmp_path_factory.mktemp("received") / "run"
    first = invoke(*TOURNAMENT, "--hand-log", "--out", out)
    assert first.exit_code == 0, first.output
    return out, json.loads(first.stdout)


@pytest.fixture(scope="module")
def tuned(tmp_path_factory) -> tuple[Path, dict]:
    """A finished tiny tune and its --json output (timing left out)."""
    out = tmp_path_factory.mktemp("received") / "tune"
    first = invoke(*TUNE, "--out", out)
    assert first.exit_code == 0, first.output
    return out, without_timing(json.loads(first.stdout))


def without_timing(data: dict) -> dict:
    return {key: value for key, value in data.items() if key != "timing"}


@pytest.fixture
def received(finished, tmp_path) -> Path:
    """A copy of the finished run, as received from someone else."""
    copy = tmp_path / "received"
    shutil.copytree(finished[0], copy)
    return copy


@pytest.fixture
def outside(tmp_path) -> Path:
    """A file outside the received directory that links planted in it point at."""
    path = tmp_path / "elsewhere" / "victim.txt"
    path.parent.mkdir()
    path.write_text(SECRET)
    return path


def untouched(path: Path) -> bool:
    return path.read_text() == SECRET and sorted(p.name for p in path.parent.iterdir()) == [path.name]


# -- the writer ------------------------------------------------------------------------------------------------


def test_the_writer_replaces_a_link_at_the_target_and_refuses_a_linked_folder(tmp_path, outside):
    root = tmp_path / "root"
    root.mkdir()
    (root / "target.txt").symlink_to(outside)
    assert files.write_file(root, "target.txt", "mine") == root / "target.txt"
    assert not (root / "target.txt").is_symlink() and (root / "target.txt").read_text() == "mine"
    (root / "folder").symlink_to(outside.parent)
    with pytest.raises(files.UnsafePath, match=r"folder is a link \(to .*elsewhere\)"):
        files.write_file(root, "folder/new.txt", b"mine")
    with pytest.raises(files.UnsafePath, match="is a link"):
        files.make_directory(root, "folder/deeper")
    for climbing in ("../escape.txt", "/tmp/escape.txt", "a/../../escape.txt"):
        with pytest.raises(ValueError, match="not a plain path"):
            files.write_file(root, climbing, "mine")
    assert untouched(outside)
    assert sorted(p.name for p in root.iterdir()) == ["folder", "target.txt"]  # no temporary file left


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path):
    (tmp_path / "kept.txt").write_text("old")

    def fail(handle):
        handle.write(b"half")
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space"):
        files.write_file(tmp_path, "kept.txt", fail)
    assert [p.name for p in tmp_path.iterdir()] == ["kept.txt"] and (tmp_path / "kept.txt").read_text() == "old"


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested deeper than 64 levels"),
        ('{"a": ' + "[" * 500 + "]" * 500 + "}", "nested deeper than 64 levels"),
        ("1" * 5000, "not JSON simgin writes"),
        ("", "empty"),
        (b"\xff\xfe", "not text"),
    ],
)
def test_the_reader_turns_any_damage_into_one_line_naming_the_file(tmp_path, content, problem):
    path = tmp_path / "record.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(files.DamagedFile) as caught:
        files.read_json(path, "do this")
    message = str(caught.value)
    assert message == f"{path} is damaged ({message.split('(', 1)[1].split(');')[0]}); do this"
    assert problem in message and "\n" not in message


def test_the_reader_refuses_a_fifo_or_device_at_once(tmp_path):
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    with pytest.raises(files.DamagedFile, match="not a regular file"):
        files.read_json(fifo, "")
    with pytest.raises(files.DamagedFile, match="not a regular file"):
        files.read_json(Path("/dev/zero"), "")
    (tmp_path / "zero.json").symlink_to("/dev/zero")
    with pytest.raises(files.DamagedFile, match=r"zero.json is a link \(to /dev/zero\): records are not read"):
        files.read_json(tmp_path / "zero.json", "")


# -- D1: simgin report never writes through links planted in the directory ----------------------------------------


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_report_replaces_planted_file_links_instead_of_writing_through_them(received, outside):
    (received / "report.html").symlink_to(outside)
    (received / "report_files").mkdir()
    (received / "report_files" / "summary.csv").symlink_to(outside)
    (received / "report_files" / "win_rates.png").symlink_to(outside)
    result = invoke("report", received)
    assert result.exit_code == 0, result.output
    assert untouched(outside)
    for name in ("report.html", "report_files/summary.csv", "report_files/win_rates.png"):
        assert not (received / name).is_symlink() and (received / name).stat().st_size > 0
    assert "<html" in (received / "report.html").read_text()


def test_a_directory_in_the_reports_place_is_one_line_naming_it(tmp_path):
    (tmp_path / "report.html").mkdir()
    (tmp_path / "report.html" / "kept").write_text("kept")
    with pytest.raises(OSError) as caught:
        files.write_file(tmp_path, "report.html", "<html>")
    assert caught.value.filename == str(tmp_path / "report.html")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]


@pytest.mark.parametrize("option", [(), ("-o", "{run}/sub/out.html")])
def test_report_refuses_a_linked_files_folder(received, outside, option):
    folder = received / ("sub/out_files" if option else "report_files")
    folder.parent.mkdir(exist_ok=True)
    folder.symlink_to(outside.parent, target_is_directory=True)
    line = one_error_line(invoke("report", received, *[part.format(run=received) for part in option]))
    assert f"{folder} is a link" in line and "never writes through a link" in line
    assert untouched(outside)


# -- D16: the report is never written over the run's own files --------------------------------------------------


@pytest.mark.parametrize(
    "output",
    ["run.json", "result.json", "tune.json", "chunks/x.html", "hands/x.html", "sub/../run.json", "evaluations/x.html"],
)
def test_report_refuses_an_output_that_is_one_of_the_runs_own_files(received, output):
    before = {path: path.read_bytes() for path in received.rglob("*") if path.is_file()}
    line = one_error_line(invoke("report", received, "-o", f"{received}/{output}"))
    assert "one of the run's own files" in line
    assert {path: path.read_bytes() for path in received.rglob("*") if path.is_file()} == before


def test_report_refuses_the_runs_own_file_named_through_a_linked_folder(received, tmp_path):
    (tmp_path / "alias").symlink_to(received, target_is_directory=True)
    settings = (received / "run.json").read_bytes()
    line = one_error_line(invoke("report", received, "-o", tmp_path / "alias" / "run.json"))
    assert f"{received / 'run.json'} is one of the run's own files" in line
    assert (received / "run.json").read_bytes() == settings


@pytest.mark.slow  # a whole report build (8 s); the writer's test covers a link at the target
def test_report_to_a_link_elsewhere_replaces_the_link_not_the_runs_file(received, tmp_path):
    settings = (received / "run.json").read_bytes()
    link = tmp_path / "link.html"
    link.symlink_to(received / "run.json")
    assert invoke("report", received, "-o", link, "--no-png").exit_code == 0
    assert (received / "run.json").read_bytes() == settings and not link.is_symlink()


# -- D2: resuming never writes through planted links ----------------------------------------------------------


def test_resuming_ignores_planted_partial_links_and_ends_with_the_same_result(finished, received, outside):
    key = "s000-p001-c000000"
    (received / "chunks" / f"{key}.json").unlink()
    (received / "hands" / f"{key}.parquet").unlink()
    (received / "result.json").unlink()
    for planted in (f"chunks/{key}.json.partial", f"hands/{key}.parquet.partial", "result.json.partial"):
        (received / planted).symlink_to(outside)
    again = invoke(*TOURNAMENT, "--hand-log", "--out", received)
    assert again.exit_code == 0, again.output
    assert untouched(outside)
    assert without_timing(json.loads(again.stdout)) == without_timing(finished[1])


def test_a_link_in_a_records_place_is_not_read_through(received, outside):
    record = received / "chunks" / "s000-p001-c000000.json"
    record.unlink()
    record.symlink_to(outside)
    line = one_error_line(invoke(*TOURNAMENT, "--hand-log", "--out", received))
    assert f"{record} is a link (to {outside}): records are not read through links" in line
    assert untouched(outside)


@pytest.mark.parametrize("folder", ["chunks", "hands", "stderr"])
def test_a_linked_folder_in_a_run_directory_is_refused_with_one_line(received, outside, folder):
    target = outside.parent
    if (received / folder).exists():
        shutil.rmtree(received / folder)
    (received / folder).symlink_to(target, target_is_directory=True)
    line = one_error_line(invoke(*TOURNAMENT, "--hand-log", "--out", received))
    assert f"{received / folder} is a link" in line
    assert untouched(outside)


def test_resuming_a_tune_ignores_planted_partial_links(tuned, tmp_path, outside):
    copy = tmp_path / "tune"
    shutil.copytree(tuned[0], copy)
    (copy / "evaluations" / "final-g000-000.json").unlink()
    (copy / "result.json").unlink()
    for planted in ("evaluations/final-g000-000.json.partial", "result.json.partial", "tune.json.partial"):
        (copy / planted).symlink_to(outside)
    again = invoke(*TUNE, "--out", copy)
    assert again.exit_code == 0, again.output
    assert untouched(outside) and without_timing(json.loads(again.stdout)) == tuned[1]


def test_a_linked_evaluations_folder_is_refused_with_one_line(tuned, tmp_path, outside):
    copy = tmp_path / "tune"
    shutil.copytree(tuned[0], copy, ignore=shutil.ignore_patterns("evaluations"))
    (copy / "evaluations").symlink_to(outside.parent, target_is_directory=True)
    line = one_error_line(invoke(*TUNE, "--out", copy))
    assert f"{copy / 'evaluations'} is a link" in line and untouched(outside)


# -- D15: a tune's --out follows the rule of every --out ------------------------------------------------------


@pytest.mark.parametrize(
    ("present", "problem"),
    [
        ("notes.txt", "is not empty and not a simgin run directory (no tune.json)"),
        ("result.json", "has simgin output (result.json) but no tune.json"),
        ("run.json", "holds the output of another simgin command (run.json)"),
    ],
)
def test_tune_refuses_a_directory_that_holds_other_files(tmp_path, present, problem):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / present).write_text("mine")
    line = one_error_line(invoke(*TUNE, "--out", theirs))
    assert problem in line
    assert [p.name for p in theirs.iterdir()] == [present] and (theirs / present).read_text() == "mine"


# -- D5: deeply nested JSON in any record is one line, never a RecursionError ---------------------------------------

DEEP = "[" * 100_000 + "]" * 100_000
NESTED = '{"format": 2, "runs": ' + "[" * 900 + "]" * 900 + "}"


@pytest.mark.parametrize("content", [DEEP, NESTED])
@pytest.mark.parametrize("record", ["run.json", "result.json", "chunks/s000-p000-c000000.json"])
def test_deeply_nested_run_records_are_one_line_naming_the_file(received, record, content):
    (received / record).write_text(content)
    command = ("report", received) if record == "result.json" else (*TOURNAMENT, "--hand-log", "--out", received)
    line = one_error_line(invoke(*command))
    assert f"{received / record} is damaged (nested deeper than 64 levels)" in line


@pytest.mark.parametrize("content", [DEEP, NESTED])
def test_a_deeply_nested_tune_json_is_one_line_naming_it(tuned, tmp_path, content):
    copy = tmp_path / "tune"
    shutil.copytree(tuned[0], copy)
    (copy / "tune.json").write_text(content)
    line = one_error_line(invoke(*TUNE, "--out", copy))
    assert f"{copy / 'tune.json'} is damaged (nested deeper than 64 levels)" in line


# -- D3, D4, D5: damaged, edited or wrongly typed evaluations are played again, with a notice -------------------------


def test_damaged_edited_or_mistyped_evaluations_are_played_again_with_a_notice(tuned, tmp_path):
    copy = tmp_path / "tune"
    shutil.copytree(tuned[0], copy)
    evaluations = copy / "evaluations"
    (evaluations / "search-g000-000.json").write_text(DEEP)
    edited = json.loads((evaluations / "search-g000-001.json").read_text())
    edited["score"] = 0.99  # D3: believed on resume before, printed next to the old p-value
    (evaluations / "search-g000-001.json").write_text(json.dumps(edited))
    for key, field, value in (("search-g001-000", "batch_pairs", "x"), ("final-g000-000", "score", "0.99")):
        record = json.loads((evaluations / f"{key}.json").read_text())
        record[field] = [value] * len(record[field]) if isinstance(record[field], list) else value
        record["check"] = files.checksum(record)  # D4: well formed but wrongly typed
        (evaluations / f"{key}.json").write_text(json.dumps(record))
    (copy / "result.json").unlink()
    again = invoke(*TUNE, "--out", copy)
    assert again.exit_code == 0, again.output
    assert without_timing(json.loads(again.stdout)) == tuned[1]
    notices = [line for line in again.stderr.splitlines() if line.startswith("simgin: ")]
    assert len(notices) == 4, again.stderr
    assert "final-g000-000.json is damaged ('score' is a string, not a number)" in notices[0]
    assert "search-g000-000.json is damaged (nested deeper than 64 levels); it is played again" in notices[1]
    assert "search-g000-001.json was edited or is damaged (it does not match its checksum)" in notices[2]
    assert "search-g001-000.json is damaged ('batch_pairs' holds a value that is not a positive count)" in notices[3]
    assert json.loads((evaluations / "search-g000-001.json").read_text())["score"] != 0.99


@pytest.mark.parametrize("value", ["5", 1e400, float("nan"), 10**400, None])
def test_a_chunk_whose_tally_is_not_finite_numbers_is_refused_even_with_a_matching_checksum(received, value):
    path = received / "chunks" / "s000-p000-c000000.json"
    record = json.loads(path.read_text())
    record["tally"]["hands"] = value
    record["check"] = files.checksum(record)
    path.write_text(json.dumps(record))
    line = one_error_line(invoke(*TOURNAMENT, "--hand-log", "--out", received))
    assert f"{path} is damaged (its tally is not an object of finite numbers)" in line


def test_numbers_beyond_64_bits_are_not_numbers_simgin_writes(tmp_path):
    assert files.is_number(2**64) and not files.is_number(2**64 + 1) and not files.is_number(True)
    with pytest.raises(files.DamagedFile, match="'seed' is a number larger than 64 bits"):
        files.check_fields({"seed": 10**30}, tmp_path / "r.json", {"seed": int}, "")
    with pytest.raises(files.DamagedFile, match="'pairs' is a boolean, not an integer"):
        files.check_fields({"pairs": True}, tmp_path / "r.json", {"pairs": int}, "")


def test_every_field_of_an_evaluation_record_is_type_checked():
    import dataclasses

    from simgin.studies.tune_evaluation import _EVALUATION_FIELDS, Evaluation

    assert [item.name for item in dataclasses.fields(Evaluation)] == list(_EVALUATION_FIELDS)


# -- D6: wrongly typed result.json fields are one line naming the file ----------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("config", []),
        ("players", "simple"),
        ("players", [1, 2]),
        ("pairings", {"a": 1}),
        ("pairings", [1]),
        ("pairings", [{"a": "simple", "b": "random", "tally": {"hands": "many"}}]),
        ("summary", 5),
        ("summary", [1, 2]),
        ("ratings", "top"),
        ("overridden", [1]),
        ("ratings", [1]),
    ],
)
def test_wrongly_typed_result_fields_are_one_line_naming_the_file(received, field, value):
    path = received / "result.json"
    data = json.loads(path.read_text())
    data[field] = value
    path.write_text(json.dumps(data))
    line = one_error_line(invoke("report", received))
    assert str(path) in line


BASE = {"config": {}, "players": ["a", "b"], "overridden": {}}


@pytest.mark.parametrize(
    "data",
    [
        BASE | {"kind": "sweep", "grid": {}, "cells": "many"},
        BASE | {"kind": "sweep", "grid": [], "cells": []},
        BASE | {"kind": "sweep", "grid": {}, "cells": [{"settings": 1}]},
        BASE | {"kind": "sweep", "grid": {}, "cells": [None]},
        BASE | {"kind": "sweep", "grid": {}, "cells": [{"settings": {}, "pairings": [], "summary": []}]},
        BASE | {"kind": "compare", "pairings": [{"tally": []}], "summary": []},
        BASE | {"kind": "match", "pairings": [], "summary": [[1]]},
        BASE | {"kind": "match", "pairings": [{"tally": {"hands": True}}], "summary": []},
        BASE | {"kind": "match", "pairings": [], "summary": [], "overridden": []},
        BASE | {"kind": "tournament", "players": ["a", None], "pairings": [], "summary": []},
        {"kind": "tune", "settings": {}, "history": [], "generations": {}},
        {"kind": "tune", "settings": {}, "history": [{"phase": "search", "score": "high"}], "generations": []},
    ],
)
def test_wrongly_typed_results_of_every_kind_are_one_line_naming_the_file(tmp_path, data):
    (tmp_path / "result.json").write_text(json.dumps(data))
    line = one_error_line(invoke("report", tmp_path))
    path = tmp_path / "result.json"
    assert f"{path} is damaged (" in line or f"{path}: unexpected content" in line


def test_a_wrongly_typed_tune_result_is_one_line_naming_the_file(tuned, tmp_path):
    copy = tmp_path / "tune"
    shutil.copytree(tuned[0], copy)
    path = copy / "result.json"
    for field, value in (("history", [{"phase": 3}]), ("generations", "x"), ("final", 7), ("difference", [1])):
        data = json.loads((tuned[0] / "result.json").read_text())
        data[field] = value
        path.write_text(json.dumps(data))
        line = one_error_line(invoke("report", copy))
        assert str(path) in line, field


def test_a_result_json_that_is_a_fifo_or_a_link_to_a_device_is_refused_at_once(received):
    (received / "result.json").unlink()
    (received / "result.json").symlink_to("/dev/zero")
    assert "result.json is a link (to /dev/zero)" in one_error_line(invoke("report", received))
    (received / "result.json").unlink()
    os.mkfifo(received / "result.json")
    assert "result.json is damaged (not a regular file)" in one_error_line(invoke("report", received))

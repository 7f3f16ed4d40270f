"""Run directories that cannot lie: chunk identity, refused directories, damaged files, hand logs (issue 16, points 1,
4, 5 and 6)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from simgin import Rules
from simgin.cli.main import main
from simgin.running import runner
from simgin.running.results import load_result, save_result

SMALL = {"players": ("simple", "random"), "hands": 600, "seed": 11, "chunk_units": 100}


def config(**changes) -> runner.RunConfig:
    return runner.RunConfig(**(SMALL | changes))


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def one_error_line(result) -> str:
    """The run failed with exactly one line, an ``Error:`` line, and no traceback."""
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    return errors[0]


MATCH = ("match", "simple", "random", "--games", "40", "--workers", "1", "--quiet", "--json")


# -- 1. a run directory cannot make a run report numbers it did not compute ---------------------------------


@pytest.mark.parametrize("other", [("--seed", "22"), ("--set", "gin_bonus=25")])
def test_a_directory_without_run_json_is_refused_not_resumed(tmp_path, other):
    """Issue 16.1: with run.json deleted, a seed-22 (or gin_bonus=25) rerun used the seed-21 chunks and printed them."""
    out = tmp_path / "x"
    first = invoke(*MATCH, "--seed", "21", "--out", str(out))
    assert first.exit_code == 0, first.output
    (out / "run.json").unlink()
    line = one_error_line(invoke(*MATCH, "--seed", "21", *other, "--out", str(out)))
    assert "no run.json" in line and "nothing in it is resumed" in line and "fresh --out" in line
    assert str(out) in line


def test_a_chunk_copied_from_another_run_is_refused_naming_the_file(tmp_path):
    """Issue 16.1: a chunk file copied from another run (other seed, or other rules) changed the result silently."""
    runner.run(config(), workers=1, out=tmp_path / "a")
    runner.run(config(seed=12), workers=1, out=tmp_path / "b")
    runner.run(config(rules=Rules(gin_bonus=25)), workers=1, out=tmp_path / "c")
    victim = tmp_path / "a" / "chunks" / "s000-p000-c000002.json"
    for donor, reason in (("b", "other settings"), ("c", "other settings")):
        shutil.copy(tmp_path / donor / "chunks" / victim.name, victim)
        with pytest.raises(runner.RunError) as caught:
            runner.run(config(), workers=1, out=tmp_path / "a")
        message = str(caught.value)
        assert str(victim) in message and reason in message and "delete it to recompute that chunk" in message


def test_a_chunk_under_another_name_or_with_an_edited_tally_is_refused(tmp_path):
    runner.run(config(), workers=1, out=tmp_path)
    chunks = tmp_path / "chunks"
    original = (chunks / "s000-p000-c000001.json").read_text()
    shutil.copy(chunks / "s000-p000-c000000.json", chunks / "s000-p000-c000001.json")
    with pytest.raises(runner.RunError, match="another chunk or seed"):
        runner.run(config(), workers=1, out=tmp_path)
    record = json.loads(original)
    record["tally"]["hands_won_a"] += 1
    (chunks / "s000-p000-c000001.json").write_text(json.dumps(record))
    with pytest.raises(runner.RunError, match="does not match its checksum"):
        runner.run(config(), workers=1, out=tmp_path)
    (chunks / "s000-p000-c000001.json").write_text(original)
    assert runner.run(config(), workers=1, out=tmp_path).chunks_resumed == config().chunk_count


def test_every_chunk_record_carries_its_identity(tmp_path):
    cfg = config()
    runner.run(cfg, workers=1, out=tmp_path)
    record = json.loads((tmp_path / "chunks" / "s000-p000-c000002.json").read_text())
    assert record["format"] == runner.RUN_FORMAT
    assert record["settings"] == cfg.digest() != config(seed=12).digest()
    assert record["chunk"] == {
        "pairing_index": 0,
        "chunk_index": 2,
        "seed": runner.chunk_seed(11, 2),
        "unit_count": 100,
        "cell_index": 0,
    }
    assert record["players"] == ["simple", "random"]
    assert len(record["check"]) == 64
    assert json.loads((tmp_path / "run.json").read_text())["format"] == runner.RUN_FORMAT


def test_the_run_is_identical_after_resuming_from_checked_chunks(tmp_path):
    cfg = config()
    full = runner.run(cfg, workers=1)
    seen = []

    def interrupt(result, units):
        seen.append(result.chunk.key)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(runner.Interrupted) as caught:
        runner.run(cfg, workers=1, out=tmp_path, progress=interrupt)
    assert caught.value.results[0].chunks_run == 2
    resumed = runner.run(cfg, workers=1, out=tmp_path)
    assert (resumed.chunks_resumed, resumed.chunks_run) == (2, cfg.chunk_count - 2)
    assert resumed.tallies[0].to_dict() == full.tallies[0].to_dict()


# -- 4 and 5: damaged files are one-line errors that name the file and say what to do -----------------------


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("{}", "damaged (not a chunk record)"),
        ("", "damaged (empty)"),
        ('{"format": 2, "tally": {', "damaged (not JSON"),
        ("garbage\x00", "damaged (not JSON"),
        ("[1, 2]", "damaged (not a JSON object)"),
    ],
)
def test_a_damaged_chunk_file_is_named_with_what_to_do(tmp_path, content, problem):
    """Issue 16.4/16.5: a chunk holding {} was a KeyError; a truncated one 'Expecting value: line 1 column 1'."""
    out = tmp_path / "run"
    assert invoke(*MATCH, "--out", str(out)).exit_code == 0
    chunk = next((out / "chunks").glob("*.json"))
    chunk.write_text(content)
    line = one_error_line(invoke(*MATCH, "--out", str(out)))
    assert f"{chunk} is {problem}" in line
    assert "delete it to recompute that chunk, or use a fresh --out" in line
    chunk.unlink()
    again = invoke(*MATCH, "--out", str(out))
    assert again.exit_code == 0 and json.loads(again.stdout)["timing"]["chunks_run"] == 1


@pytest.mark.parametrize("content", ["", "{not json", "[1, 2]", '{"format": 1}'])
def test_a_damaged_or_foreign_run_json_is_refused(tmp_path, content):
    out = tmp_path / "run"
    assert invoke(*MATCH, "--out", str(out)).exit_code == 0
    (out / "run.json").write_text(content)
    line = one_error_line(invoke(*MATCH, "--out", str(out)))
    assert str(out / "run.json") in line
    assert "fresh --out" in line


@pytest.mark.parametrize("content", ["[1,2]", "", "{trunc"])
def test_report_on_a_damaged_result_json_is_one_line(tmp_path, content):
    """Issue 16.4/16.5: result.json holding [1,2] was an AttributeError in 'simgin report'."""
    (tmp_path / "result.json").write_text(content)
    result = CliRunner().invoke(main, ["report", str(tmp_path), "--no-png"])
    line = one_error_line(result)
    assert f"{tmp_path / 'result.json'} is damaged" in line and "rerun the command that wrote it" in line
    with pytest.raises(ValueError, match="is damaged"):
        load_result(tmp_path)


# -- 4 and 6: where results may be written -------------------------------------------------------------------


def test_a_directory_that_is_not_simgins_is_not_written_into(tmp_path):
    """Issue 16.6: --out on a directory that is not a run directory overwrote the result.json found there."""
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "result.json").write_text('{"mine": true}')
    line = one_error_line(invoke(*MATCH, "--out", str(theirs)))
    assert "no run.json" in line
    assert (theirs / "result.json").read_text() == '{"mine": true}'
    assert sorted(p.name for p in theirs.iterdir()) == ["result.json"]
    (theirs / "result.json").unlink()
    (theirs / "notes.txt").write_text("my notes")
    line = one_error_line(invoke(*MATCH, "--out", str(theirs)))
    assert "not empty and not a simgin run directory" in line
    assert sorted(p.name for p in theirs.iterdir()) == ["notes.txt"]
    (theirs / "result.json").write_text("{}")
    with pytest.raises(ValueError, match="not a simgin run directory"):
        save_result(theirs, {"kind": "match"})
    assert (theirs / "result.json").read_text() == "{}"


def test_an_empty_out_is_refused_rather_than_the_working_directory(tmp_path, monkeypatch):
    """Issue 16.6: --out '' wrote into the current directory."""
    monkeypatch.chdir(tmp_path)
    line = one_error_line(invoke(*MATCH, "--out", ""))
    assert "--out" in line and "empty" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("out", "problem"), [("/proc/self", "not a simgin run directory"), ("/sys/simgin-16", "")])
def test_unusable_out_directories_are_one_line_errors(out, problem):
    """Issue 16.4: --out /proc/self and an unwritable --out were tracebacks (FileNotFoundError, PermissionError)."""
    line = one_error_line(invoke(*MATCH, "--out", out))
    assert out in line and problem in line


def test_a_finished_run_whose_result_cannot_be_written_still_prints_it(tmp_path):
    """Issue 16.4: rerunning into a read-only finished directory did no work and never printed the result.

    The tests run as root, which writes anywhere, so the file is made unwritable by putting a
    directory where result.json goes: the rename onto it fails as a read-only directory would.
    """
    out = tmp_path / "run"
    first = invoke(*MATCH, "--out", str(out))
    (out / "result.json").unlink()
    (out / "result.json").mkdir()
    again = invoke(*MATCH, "--out", str(out))
    assert again.exit_code == 1
    data = json.loads(again.stdout)
    assert data["timing"]["chunks_run"] == 0 and data["win_rate"] == json.loads(first.stdout)["win_rate"]
    assert again.stderr.strip().startswith(f"Error: cannot write {out / 'result.json'}")
    assert "the result printed above is complete" in again.stderr


# -- 6. hand logs are checked on resume ----------------------------------------------------------------------


@pytest.mark.parametrize("damage", ["delete", "truncate", "short"])
def test_a_missing_or_damaged_hand_log_is_played_again_on_resume(tmp_path, damage):
    """Issue 16.6: a deleted or truncated hand-log file went unnoticed on resume and the log stayed short."""
    cfg = config(hands=400)
    runner.run(cfg, workers=1, out=tmp_path, hand_log=True)
    files = sorted((tmp_path / "hands").glob("*.parquet"))
    victim = files[1]
    if damage == "delete":
        victim.unlink()
    elif damage == "truncate":
        victim.write_bytes(victim.read_bytes()[:100])
    else:
        pd.read_parquet(victim).head(10).to_parquet(victim, index=False)
    notices: list[str] = []
    resumed = runner.run(cfg, workers=1, out=tmp_path, hand_log=True, notice=notices.append)
    assert resumed.chunks_run == 1 and resumed.chunks_resumed == cfg.chunk_count - 1
    assert len(notices) == 1 and str(victim) in notices[0] and "playing chunk s000-p000-c000001 again" in notices[0]
    log = pd.concat(pd.read_parquet(f) for f in sorted((tmp_path / "hands").glob("*.parquet")))
    assert len(log) == 400
    assert (log.groupby("unit").size() == 2).all()


def test_the_readme_states_the_guarantees_with_the_codes_numbers():
    """Issue 16, done means: a short README section 'Failures and resuming' that says what is guaranteed."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Failures and resuming\n", 1)[1].split("\n## ", 1)[0]
    assert f"up to 10^{len(str(runner.MAX_HANDS)) - 1}" in section and runner.MAX_HANDS == 10**12
    assert f"up to 10^{len(str(runner.MAX_GAMES)) - 1}" in section and runner.MAX_GAMES == 10**11
    assert f"within {runner.CONNECT_TIMEOUT:g} s" in section
    assert f"no worker for {runner.WAIT_NOTICE_SECONDS:g} s" in section
    assert f"or {runner.MAX_REMOTE_WORKERS} with a scheduler" in section
    assert runner.max_local_workers() == 4 * (os.cpu_count() or 1) and "4 per core" in section
    for promise in ("Nothing is resumed on trust", "PARTIAL RESULT", "No orphans", "Every error is one line"):
        assert promise in section

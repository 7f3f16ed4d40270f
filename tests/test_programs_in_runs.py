"""``exec:`` strategies in runs (issue 13): workers, Dask, --out and resume, the commands, and no
program left running after a normal end, a failure, Ctrl-C or a killed worker."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import sigint_as_default
from simgin.cli.main import main
from simgin.players import programs as ps
from simgin.running import runner

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = Path(__file__).resolve().parent / "programs"
EXEC_SIMPLE = f"exec:{sys.executable} {ROOT / 'examples' / 'simple_bot.py'}"


def bad_bot(mode: str, at: int, pid_dir: Path) -> str:
    return f"exec:{sys.executable} {PROGRAMS / 'bad_bot.py'} {mode} {at} {pid_dir}"


def running(marker: Path, besides: int = -1) -> list[int]:
    """Live processes (zombies aside) whose command line holds ``marker``, but ``besides``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == besides:
            continue
        try:
            if marker.name.encode() in (entry / "cmdline").read_bytes():
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state != "Z":
                    found.append(int(entry.name))
        except OSError:
            continue
    return found


def wait_until(condition, seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


@pytest.fixture
def pid_dir(tmp_path):
    folder = tmp_path / "pids-of-bots-under-test"
    folder.mkdir()
    return folder


@pytest.fixture(autouse=True)
def _no_programs_left():
    ps.close_programs()
    yield
    ps.close_programs()


pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="counts processes in /proc (Linux)")


# -- the same results everywhere ---------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["local", "dask"])
def test_the_same_results_on_one_and_two_workers(backend):
    config = runner.RunConfig((EXEC_SIMPLE, "greedy"), hands=240, seed=4, chunk_units=30)
    one = runner.run(config, workers=1)
    two = runner.run(config, workers=2, backend=backend)
    assert one.tallies[0].to_dict() == two.tallies[0].to_dict()
    same = runner.run(runner.RunConfig(("simple", "greedy"), hands=240, seed=4, chunk_units=30), workers=1)
    assert one.tallies[0].to_dict() == same.tallies[0].to_dict(), "the example bot is simple"


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_games_tournaments_and_resume_with_a_program(tmp_path):
    config = runner.RunConfig((EXEC_SIMPLE, "random", "greedy"), games=8, seed=1, chunk_units=2)
    out = tmp_path / "out"
    first = runner.run(config, workers=1, out=out)
    chunks = sorted((out / "chunks").glob("*.json"))
    assert len(chunks) == 3 * 2
    chunks[-1].unlink()
    again = runner.run(config, workers=2, out=out)
    assert (again.chunks_run, again.chunks_resumed) == (1, 5)
    assert [t.to_dict() for t in again.tallies] == [t.to_dict() for t in first.tallies]
    expected = runner.run(runner.RunConfig(("simple", "random", "greedy"), games=8, seed=1, chunk_units=2))
    assert [t.to_dict() for t in first.tallies] == [t.to_dict() for t in expected.tallies]


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_the_commands_take_programs(tmp_path):
    cli = CliRunner()
    out = tmp_path / "match"
    result = cli.invoke(main, ["match", EXEC_SIMPLE, "random", "--hands", "40", "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("simple-example vs random: 40 hands")  # its handshake NAME labels it
    result = cli.invoke(main, ["report", str(out), "--no-png"])
    assert result.exit_code == 0, result.output
    assert "wrote" in result.output and (out / "report.html").is_file()
    result = cli.invoke(main, ["tournament", EXEC_SIMPLE, "random", "greedy", "--hands", "20", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "simple-example" in result.output
    args = ["compare", EXEC_SIMPLE, "random", "--max-games", "40", "--batch", "5", "--workers", "1", "--json"]
    result = cli.invoke(main, [*args, "--quiet", "--rules", "eaai"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["sprt"]["games"] >= 10
    args = ["sweep", EXEC_SIMPLE, "random", "--grid", "knock_limit=9,10", "--hands", "20", "--workers", "1"]
    result = cli.invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    assert {row["knock_limit"] for row in json.loads(result.output)["table"]} == {9, 10}


@pytest.mark.slow  # a fault run with processes: .ci/run runs it with the slow tests
def test_decision_timeout_on_the_command_line(tmp_path, pid_dir):
    cli = CliRunner()
    for bad in ("0", "-1", "inf", "nan", "soon"):
        result = cli.invoke(main, ["match", EXEC_SIMPLE, "random", "--hands", "4", "--decision-timeout", bad])
        assert result.exit_code != 0 and "--decision-timeout" in result.output, bad
    slow = bad_bot("slow", 2, pid_dir)
    args = ["match", slow, "random", "--hands", "4", "--workers", "1", "--quiet"]
    result = cli.invoke(main, [*args, "--decision-timeout", "0.5"])
    assert result.exit_code == 1
    assert result.output.startswith(f"Error: strategy {slow!r} (seat 0) failed at its")
    assert "no answer within 0.5 s" in result.output and len(result.output.strip().splitlines()) == 1
    result = cli.invoke(main, [*args, "--decision-timeout", "5"])
    assert result.exit_code == 0, result.output
    result = cli.invoke(main, ["match", EXEC_SIMPLE, "random", "simple", "--games", "6", "--quiet"])
    assert result.exit_code == 1 and "is a program; only compiled strategies play here" in result.output


# -- no process left behind --------------------------------------------------------------------


@pytest.mark.slow  # a fault run with processes: .ci/run runs it with the slow tests
def test_no_program_is_left_after_a_run_on_workers(pid_dir):
    config = runner.RunConfig((bad_bot("fine", 0, pid_dir), "simple"), hands=120, seed=3, chunk_units=20)
    runner.run(config, workers=2)
    assert len(list(pid_dir.iterdir())) >= 2, "the run started programs"
    assert wait_until(lambda: not running(pid_dir), 5.0), running(pid_dir)


@pytest.mark.slow  # starts a Dask cluster (README: left out by default)
def test_no_program_is_left_on_a_dask_cluster_that_outlives_the_run(pid_dir):
    from dask.distributed import LocalCluster

    config = runner.RunConfig((bad_bot("fine", 0, pid_dir), "simple"), hands=80, seed=3, chunk_units=20)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        runner.run(config, backend="dask", scheduler=cluster.scheduler_address)
        assert len(list(pid_dir.iterdir())) >= 2, "the run started programs"
        assert wait_until(lambda: not running(pid_dir), 5.0), "the workers live on, their programs must not"


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_no_program_is_left_after_a_failure(pid_dir):
    config = runner.RunConfig((bad_bot("crash", 40, pid_dir), "simple"), hands=120, seed=3, chunk_units=20)
    with pytest.raises(runner.RunError, match="exited with code 3"):
        runner.run(config, workers=2)
    assert wait_until(lambda: not running(pid_dir), 5.0), running(pid_dir)


@pytest.mark.slow  # a fault run with processes: .ci/run runs it with the slow tests
def test_a_hung_program_and_its_children_are_killed(pid_dir):
    """A program that ignores SIGTERM and its stdin, and one that started a child of its own."""
    for spec in (bad_bot("stubborn", 3, pid_dir), bad_bot("child", 10**6, pid_dir)):
        config = runner.RunConfig((spec, "simple"), hands=4, seed=3)
        try:
            runner.run(config, workers=1, programs=ps.ProgramSettings(decision_timeout=1.0))
        except runner.RunError as error:
            assert "no answer within 1 s" in str(error)
        assert wait_until(lambda: not running(pid_dir), 5.0), running(pid_dir)
    assert len(list(pid_dir.iterdir())) == 5, "the stubborn program; a program per seat, each with its child"


def _start_match(pid_dir: Path, tmp_path: Path) -> subprocess.Popen:
    """``simgin match`` with a program on two workers, in its own process group like a terminal job."""
    spec = bad_bot("fine", 0, pid_dir)
    command = [sys.executable, "-m", "simgin", "match", spec, "simple", "--hands", "400000", "--workers", "2"]
    process = subprocess.Popen(
        [*command, "--quiet", "--out", str(tmp_path / "out")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        cwd=tmp_path,
    )
    started = wait_until(lambda: len(os.listdir(pid_dir)) >= 2 and len(running(pid_dir, process.pid)) >= 4, 60.0)
    assert started, "two workers start a program each, under its supervisor"
    return process


@pytest.mark.slow  # a fault run with processes: .ci/run runs it with the slow tests
@pytest.mark.parametrize(("workers", "end"), [(1, "normal"), (1, "failure"), (2, "normal")])
def test_a_program_that_daemonizes_leaves_nothing_behind(pid_dir, workers, end):
    """Issue 25 D11: a daemon started by a program (setsid and a double fork) left its process group and
    outlived the run. The supervisor is a child subreaper: the daemon is re-parented to it and killed."""
    config = runner.RunConfig((bad_bot("daemon", 0 if end == "normal" else 3, pid_dir), "simple"), hands=8)
    if end == "normal":
        runner.run(config, workers=workers)
    else:
        with pytest.raises(runner.RunError, match="answered 'maybe'"):
            runner.run(config, workers=workers)
    daemons = [p for p in pid_dir.iterdir() if p.read_text() == "daemon"]
    assert daemons, "the program started a daemon"
    assert wait_until(lambda: not running(pid_dir), 10.0), running(pid_dir)


@pytest.mark.slow  # a fault run with processes: .ci/run runs it with the slow tests
@pytest.mark.parametrize("end", ["normal", "stopped early"])
def test_no_temporary_stderr_file_is_left_on_workers(tmp_path, monkeypatch, end):
    """Issue 25 D12: with --workers 2, one empty simgin-*.stderr temporary file per program was left behind:
    the pool was stopped (SIGTERM) even after a normal end, so its workers never ended their programs."""
    import tempfile

    monkeypatch.setenv("TMPDIR", str(tmp_path))  # the spawned workers' temporary directory
    monkeypatch.setattr(tempfile, "tempdir", None)
    config = runner.RunConfig((EXEC_SIMPLE, "simple"), hands=200 if end == "normal" else 40_000, chunk_units=20)
    stop = (lambda cell, chunk, tallies: chunk.chunk_index >= 2) if end == "stopped early" else None
    result = runner.run(config, workers=2, stop=stop)
    assert result.chunks_run >= 3
    # A worker told to stop ends its programs first; on a loaded machine that can take a while.
    assert wait_until(lambda: not list(tmp_path.glob("simgin-*.stderr")), 30.0), list(tmp_path.iterdir())


@pytest.mark.slow  # a fault run with processes: .ci/run runs it with the slow tests
def test_no_program_is_left_after_ctrl_c(pid_dir, tmp_path):
    # compare plays small chunks (--batch pairs each), so workers are between chunks soon after Ctrl-C
    spec = bad_bot("fine", 0, pid_dir)
    command = [sys.executable, "-m", "simgin", "compare", spec, "simple", "--max-games", "20000", "--batch", "5"]
    process = subprocess.Popen(
        [*command, "--workers", "2", "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        cwd=tmp_path,
        preexec_fn=sigint_as_default,  # Ctrl-C must reach it even when the suite runs with SIGINT ignored
    )
    started = wait_until(lambda: len(os.listdir(pid_dir)) >= 2 and len(running(pid_dir, process.pid)) >= 4, 60.0)
    assert started, "two workers start a program each, under its supervisor"
    os.killpg(process.pid, signal.SIGINT)  # what a terminal sends to the job's process group
    try:
        _, errors = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode != 0 and "interrupted" in errors.lower()
    assert wait_until(lambda: not running(pid_dir), 10.0), running(pid_dir)


@pytest.mark.slow  # a fault run with processes: .ci/run runs it with the slow tests
def test_a_killed_workers_programs_die_with_it(pid_dir, tmp_path):
    process = _start_match(pid_dir, tmp_path)
    try:
        bots = [int(pid) for pid in os.listdir(pid_dir)]
        worker = int(Path(f"/proc/{bots[0]}/stat").read_text().rsplit(")", 1)[1].split()[1])  # the supervisor
        worker = int(Path(f"/proc/{worker}/stat").read_text().rsplit(")", 1)[1].split()[1])  # its worker
        assert worker != process.pid
        mine = [pid for pid in running(pid_dir) if _ancestors(pid) & {worker}]
        assert mine
        os.kill(worker, signal.SIGKILL)
        assert wait_until(lambda: not set(mine) & set(running(pid_dir)), 10.0), "the killed worker's programs live on"
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate(timeout=60)
    assert wait_until(lambda: not running(pid_dir), 10.0), running(pid_dir)


def _ancestors(pid: int) -> set[int]:
    found = set()
    while pid > 1:
        try:
            pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            break
        found.add(pid)
    return found


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_programs_follow_the_rules_of_each_sweep_cell(tmp_path):
    """One program plays every cell of a sweep; it is told the rules again when they change."""
    from simgin.studies.sweep import run_sweep

    log = tmp_path / "views.jsonl"
    spec = f"exec:{sys.executable} {PROGRAMS / 'view_bot.py'} {log}"
    run_sweep(runner.RunConfig((spec, "simple"), hands=20, seed=9), {"knock_limit": [4, 10]}, workers=1)
    views = [record["view"] for record in map(json.loads, log.read_text().splitlines()) if "view" in record]
    limits = [view["rules"]["knock_limit"] for view in views]
    assert limits == sorted(limits) and set(limits) == {4, 10}
    assert all(view["knock_limit"] == view["rules"]["knock_limit"] for view in views)


# -- what a run leaves behind (issue 32 items 15 and 25) ---------------------------------------


@pytest.fixture
def private_tmp(tmp_path, monkeypatch):
    """A temporary directory of this test's own, for this process and the workers it spawns."""
    import tempfile

    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", None)
    return folder


@pytest.mark.slow  # a fault run with processes: .ci/run runs it with the slow tests
@pytest.mark.parametrize("workers", [1, 2])
def test_runs_leave_nothing_in_the_temporary_directory_but_a_stderr_an_error_names(private_tmp, pid_dir, workers):
    """Every exec: failure left an empty, unnamed simgin-exec_*.stderr in the temporary directory, and every pool
    a simgin-pool-* folder when stopped by a signal. A run that ends well leaves nothing; a failure leaves only
    the stderr file its error names, and only when the program wrote something there."""
    runner.run(runner.RunConfig((EXEC_SIMPLE, "simple"), hands=40, chunk_units=10), workers=workers)
    assert not list(private_tmp.iterdir())
    for mode in ("garbage", "version"):  # failures with nothing on stderr
        with pytest.raises(runner.RunError):
            runner.run(runner.RunConfig((bad_bot(mode, 3, pid_dir), "simple"), hands=40), workers=workers)
        assert not list(private_tmp.iterdir()), mode
    with pytest.raises(runner.RunError) as caught:
        runner.run(runner.RunConfig((bad_bot("crash", 3, pid_dir), "simple"), hands=40), workers=workers)
    (kept,) = private_tmp.iterdir()
    assert str(kept) in str(caught.value) and kept.read_text() == "bad_bot: crashing on purpose\n"


def test_a_programs_stderr_is_kept_to_its_last_megabyte(tmp_path, private_tmp, pid_dir):
    """A program's stderr had no size cap (52 MB per copy in --out/stderr): the last STDERR_KEEP_BYTES are kept,
    in --out/stderr and in the temporary file an error names."""
    assert ps.STDERR_KEEP_BYTES == 1_000_000
    config = runner.RunConfig((bad_bot("noisy", 10**6, pid_dir), "simple"), hands=4, seed=1)
    runner.run(config, workers=1, out=tmp_path / "out")
    logs = list((tmp_path / "out" / "stderr").iterdir())
    assert len(logs) == 2  # one per seat; each wrote 3 MB
    for log in logs:
        text = log.read_bytes()
        assert len(text) == ps.STDERR_KEEP_BYTES and text.endswith(b"x\nbad_bot: noise ends\n")
    with pytest.raises(runner.RunError) as caught:
        runner.run(runner.RunConfig((bad_bot("noisy", 5, pid_dir), "simple"), hands=4), workers=1)
    (kept,) = private_tmp.iterdir()
    assert len(kept.read_bytes()) == ps.STDERR_KEEP_BYTES
    assert f"its last 1,000,000 bytes in {kept}" in str(caught.value)
    assert "its stderr ends 'bad_bot: crashing on purpose'" in str(caught.value)

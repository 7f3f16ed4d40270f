"""Faults with real processes: killed runs leave no orphans, every wait ends, Dask schedulers that are not, clusters
without workers, strategies that misbehave inside workers (issue 16, points 2, 3, 7 and 8).

Every process these tests start runs on this machine and every server listens on 127.0.0.1; each test checks
that it leaves no process behind. Waits poll with generous deadlines, for a loaded 2-core machine.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from conftest import signals_as_default, time_limit
from simgin import Rules
from simgin.running import backends, runner

DEADLINE = 120.0
"""Seconds allowed for anything to happen (a process to start, exit or die) on a loaded machine."""


def wait_until(condition, timeout: float = DEADLINE, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.1)


@pytest.fixture(autouse=True)
def leaves_no_process_behind():
    """After each test, every process it started (children of this one) has ended.

    Python's multiprocessing resource tracker is the exception: one per process, started by the
    first pool or cluster, it lives as long as this (pytest) process does.
    """
    me = psutil.Process()
    before = {child.pid for child in me.children(recursive=True)}
    yield
    new = [
        child
        for child in me.children(recursive=True)
        if child.pid not in before and "resource_tracker" not in " ".join(child.cmdline())
    ]
    _, alive = psutil.wait_procs(new, timeout=30)
    for child in alive:
        child.kill()
    assert not alive, f"left behind: {[' '.join(p.cmdline())[:80] for p in alive]}"


STUCK_BOT = """
import os
import pathlib
import time


class Stuck:
    '''Gets stuck in its first discard, after leaving a marker file named by its process id.'''

    name = "stuck"

    def start_hand(self, view, rng):
        pass

    def take_up_card(self, view, rng):
        return False

    def draw_from_pile(self, view, rng):
        return False

    def discard(self, view, rng):
        (pathlib.Path(os.environ["SIMGIN_TEST_MARKERS"]) / str(os.getpid())).touch()
        while True:
            time.sleep(0.05)

    def knock(self, view, rng):
        return True

    def big_gin(self, view, rng):
        return True

    def take_fiftieth(self, view, rng):
        return True
"""


@contextlib.contextmanager
def stuck_run(tmp_path: Path, *options: str, stuck: int = 2):
    """``simgin match`` of a stuck strategy in its own session, once ``stuck`` processes are stuck in a decision.

    Yields the Popen and the run's child processes; whatever still lives at the end is killed.
    """
    bot = tmp_path / "stuck_bot.py"
    bot.write_text(STUCK_BOT)
    markers = tmp_path / "markers"
    markers.mkdir()
    private_tmp = tmp_path / "tmp"  # the run's temporary directory, which it must leave as it found it
    private_tmp.mkdir()
    env = dict(os.environ, SIMGIN_TEST_MARKERS=str(markers), TMPDIR=str(private_tmp))
    # 80,000 hands are 4 chunks, so two workers each get one; the run never gets past its first discards.
    command = [sys.executable, "-m", "simgin", "match", f"{bot}:Stuck", "simple", "--hands", "80000", "--quiet"]
    process = subprocess.Popen(
        [*command, *options],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=signals_as_default,  # the tests send it SIGINT and SIGHUP: both must reach it even under nohup
    )
    children: list[psutil.Process] = []
    try:

        def started() -> bool:
            if process.poll() is not None:
                raise AssertionError(f"the run ended early: {process.communicate()}")
            return len(list(markers.iterdir())) >= stuck

        wait_until(started, what="the strategy to get stuck in the workers")
        children = psutil.Process(process.pid).children(recursive=True)
        yield process, children
    finally:
        for child in [*children, psutil.Process(process.pid)] if process.poll() is None else children:
            with contextlib.suppress(psutil.NoSuchProcess):
                child.kill()
        process.communicate()


def assert_all_end(processes: list[psutil.Process]) -> None:
    _, alive = psutil.wait_procs(processes, timeout=DEADLINE)
    assert not alive, f"orphans: {[(p.pid, ' '.join(p.cmdline())[:80]) for p in alive]}"


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
@pytest.mark.parametrize(
    "sig",
    [signal.SIGTERM, signal.SIGHUP, signal.SIGKILL, signal.SIGINT],
    ids=["SIGTERM", "SIGHUP", "SIGKILL", "SIGINT"],
)
def test_workers_and_the_resource_tracker_die_with_the_main_process(tmp_path, sig):
    """Issue 16.3: SIGTERM or SIGKILL of a --workers 2 run left both workers and the resource tracker alive (ppid 1);
    issue 16.2: SIGINT printed 'Error: interrupted' but the process never exited while a strategy was stuck.
    Issue 32 item 25: SIGTERM and SIGHUP left a simgin-pool-* folder in the temporary directory and Python's
    "leaked semaphore" warning, with no word on --out; they now end the run as Ctrl-C does, and even SIGKILL
    leaves the temporary directory as it was."""
    with stuck_run(tmp_path, "--workers", "2") as (process, children):
        workers = [c for c in children if "spawn_main" in " ".join(c.cmdline())]
        assert len(workers) == 2 and any("resource_tracker" in " ".join(c.cmdline()) for c in children)
        process.send_signal(sig)
        _, stderr = process.communicate(timeout=DEADLINE)
        assert_all_end(children)
    if sig == signal.SIGKILL:
        assert process.returncode == -sig
    else:
        assert process.returncode == 1
        errors = [line for line in stderr.splitlines() if line.startswith("Error:")]
        assert errors == [
            "Error: interrupted before any result was finished; run with --out DIR to keep finished chunks and "
            "resume after an interruption"
        ], stderr
        assert "Traceback" not in stderr and "leaked" not in stderr
    assert not list((tmp_path / "tmp").iterdir())


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_ctrl_c_ends_a_run_whose_strategy_is_stuck_in_this_process(tmp_path):
    """One worker: the strategy runs in the main process, and Ctrl-C inside its decision is still Ctrl-C."""
    with stuck_run(tmp_path, "--workers", "1", stuck=1) as (process, children):
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=DEADLINE)
        assert_all_end(children)
    assert process.returncode == 1
    assert stderr.strip().splitlines()[-1] == (
        "Error: interrupted before any result was finished; run with --out DIR to keep finished chunks and resume "
        "after an interruption"
    )
    assert "Traceback" not in stderr


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["SIGKILL", "SIGINT"])
def test_dask_local_cluster_workers_die_with_the_main_process(tmp_path, sig):
    with stuck_run(tmp_path, "--workers", "2", "--backend", "dask") as (process, children):
        process.send_signal(sig)
        _, stderr = process.communicate(timeout=DEADLINE)
        assert_all_end(children)
    if sig == signal.SIGINT:
        assert process.returncode == 1 and "Error: interrupted" in stderr


PRINTING_BOT = """
class Printer:
    '''Says what it does on stdout; on 'interrupt' raises KeyboardInterrupt itself.'''

    name = "printer"

    def __init__(self, interrupt=False):
        self.interrupt = interrupt

    def start_hand(self, view, rng):
        print("a new hand")

    def take_up_card(self, view, rng):
        return False

    def draw_from_pile(self, view, rng):
        return False

    def discard(self, view, rng):
        if self.interrupt:
            raise KeyboardInterrupt("stop")
        print("discarding")
        return view.hand[0] if view.hand[0] != view.drawn_card or not view.drawn_from_pile else view.hand[1]

    def knock(self, view, rng):
        return True

    def big_gin(self, view, rng):
        return True

    def take_fiftieth(self, view, rng):
        return True
"""


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_what_strategies_print_in_worker_processes_stays_out_of_json(tmp_path):
    """Issue 16.7 in a pool worker, whose stdout is the main process's: what the strategy prints goes to stderr."""
    bot = tmp_path / "printer.py"
    bot.write_text(PRINTING_BOT)
    command = [sys.executable, "-m", "simgin", "match", f"{bot}:Printer", "simple", "--hands", "4", "--quiet"]
    done = subprocess.run([*command, "--workers", "2", "--json"], capture_output=True, text=True, timeout=DEADLINE)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hands"] == 4
    assert "discarding" in done.stderr and "a new hand" in done.stderr


NOISY_BOT = PRINTING_BOT.replace(
    "class Printer:",
    """import os
import subprocess
import sys

print("noise: imported")
os.write(1, b"noise: fd 1 at import\\n")


class Printer:""",
).replace(
    '        print("a new hand")\n',
    """        os.write(1, b"noise: fd 1\\n")
        sys.__stdout__.write("noise: sys.__stdout__\\n")
        sys.__stdout__.flush()
        sys.stdout = sys.__stdout__  # undoes simgin's redirection for this call
        print("noise: print after undoing", flush=True)
        subprocess.run(["echo", "noise: a child process"], check=True)
""",
)


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
@pytest.mark.parametrize("workers", ["1", "2"])
def test_nothing_a_plugin_writes_around_sys_stdout_reaches_json(tmp_path, workers):
    """Issue 25 D8: --json stdout was polluted by a plug-in writing to file descriptor 1, to sys.__stdout__, by a
    child process it started, and (with 2 workers) by printing at import time. Everything but the JSON goes to
    stderr, in the main process and in the workers."""
    bot = tmp_path / "noisy.py"
    bot.write_text(NOISY_BOT)
    command = [sys.executable, "-m", "simgin", "match", f"{bot}:Printer", "simple", "--hands", "4", "--quiet"]
    done = subprocess.run([*command, "--workers", workers, "--json"], capture_output=True, text=True, timeout=DEADLINE)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hands"] == 4, done.stdout
    for noise in ("imported", "fd 1 at import", "fd 1", "sys.__stdout__", "print after undoing", "a child process"):
        assert f"noise: {noise}\n" in done.stderr
    if workers == "1":  # the text output too
        text = subprocess.run([*command, "--workers", workers], capture_output=True, text=True, timeout=DEADLINE)
        assert text.returncode == 0 and "noise" not in text.stdout
        assert text.stdout.startswith(f"{bot}:Printer vs simple")


def test_a_keyboard_interrupt_raised_by_a_strategy_in_a_worker_is_an_error(tmp_path):
    """Pool workers ignore SIGINT (the main process handles Ctrl-C), so a KeyboardInterrupt there is the strategy's
    own: an error that names it, not 'interrupted'."""
    from simgin.running.engine import IllegalDecision, play_hand_rows

    bot = tmp_path / "printer.py"
    bot.write_text(PRINTING_BOT)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # as backends._worker_init leaves a worker
    try:
        with pytest.raises(IllegalDecision, match=r"printer.py:Printer:interrupt=true' .*KeyboardInterrupt: stop"):
            play_hand_rows((f"{bot}:Printer:interrupt=true", "simple"), Rules(), [5], [0])
    finally:
        signal.signal(signal.SIGINT, previous)


UNGUARDED_SCRIPT = """
import simgin

result = simgin.run_match("simple", "random", hands=40, workers=2)
print("played", int(result.tallies[0]["hands"]))
"""


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
@pytest.mark.parametrize(
    ("call", "guarded"),
    [("run_match", False), ("run_match", True), ("tune", False)],
)
def test_a_script_without_a_main_guard_is_told_to_add_one(tmp_path, call, guarded):
    """Issue 25: a script calling simgin.run_match with workers at its top level, without
    'if __name__ == "__main__":', failed with 'a worker process died (killed, or out of memory?)'. Each spawned
    worker imports the script again; it now ends at once, and the main process says what to do."""
    source = UNGUARDED_SCRIPT
    if call == "tune":
        tune = 'simgin.tune("heuristic", "simple", params=["knock"], budget=4, hands=20, final=20, workers=2)'
        source = source.replace('simgin.run_match("simple", "random", hands=40, workers=2)', tune)
    if guarded:
        source = source.replace("\nresult", '\nif __name__ == "__main__":\n    result')
        source = source.replace("\nprint", "\n    print")
    script = tmp_path / "my_study.py"
    script.write_text(source)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=DEADLINE, cwd=tmp_path)
    if guarded:
        assert done.returncode == 0 and done.stdout == "played 40\n", done.stderr
        return
    assert done.returncode == 1
    # The traceback ends with the error (Python's resource tracker may warn after it, about leaked semaphores).
    errors = [line for line in done.stderr.splitlines() if line.startswith("simgin.running.errors.RunError: ")]
    assert len(errors) == 1, done.stderr
    assert errors[0].startswith(
        "simgin.running.errors.RunError: the worker processes could not start: your script calls"
    )
    assert 'if __name__ == "__main__":' in errors[0] and "worker process died" not in done.stderr


# -- Dask -----------------------------------------------------------------------------------------------------


@contextlib.contextmanager
def tcp_server(reply: bytes | None):
    """A server on 127.0.0.1 that is not Dask: it accepts and says nothing (reply None) or sends ``reply``."""
    server = socket.create_server(("127.0.0.1", 0))
    connections: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except OSError:
                continue
            connections.append(connection)
            if reply is not None:
                with contextlib.suppress(OSError):
                    connection.sendall(reply)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{server.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        for connection in connections:
            connection.close()
        server.close()


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        pytest.param(None, "no Dask scheduler answered", marks=pytest.mark.slow),  # waits out the timeout
        (b"HTTP/1.1 400 Bad Request\r\n\r\n" * 50, "is not a Dask scheduler"),
    ],
    ids=["silent", "http"],
)
def test_a_server_that_is_not_a_dask_scheduler_is_refused_within_the_timeout(reply, message, monkeypatch):
    """Issue 16.2: --scheduler at a Dask dashboard's HTTP port (or any non-Dask server) waited for ever."""
    assert runner.CONNECT_TIMEOUT == 5
    monkeypatch.setattr(backends, "CONNECT_TIMEOUT", 1.0)  # the test need not wait the full 5 s
    config = runner.RunConfig(("simple", "random"), hands=2)
    with tcp_server(reply) as address:
        started = time.monotonic()
        with pytest.raises(runner.RunError, match=message) as caught:
            runner.run(config, workers=1, backend="dask", scheduler=address)
        assert time.monotonic() - started < 1.0 + 30
    assert address in str(caught.value)


@pytest.fixture
def cluster_without_workers():
    from dask.distributed import LocalCluster

    with LocalCluster(
        n_workers=0, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0", host="127.0.0.1"
    ) as c:
        yield c


@pytest.mark.slow  # starts a Dask worker mid-run (README: fault runs with Dask are left out by default)
def test_a_cluster_without_workers_is_reported_and_the_run_goes_on_when_one_comes(cluster_without_workers, monkeypatch):
    """Issue 16.2: a scheduler with no workers (or whose last worker died) waited with no message."""
    monkeypatch.setattr(backends, "WAIT_NOTICE_SECONDS", 1.0)
    config = runner.RunConfig(("simple", "random"), hands=40, seed=3, chunk_units=5)
    notices: list[str] = []

    def notice(message: str) -> None:
        notices.append(message)
        cluster_without_workers.scale(1)

    address = cluster_without_workers.scheduler_address
    with time_limit(DEADLINE, "the run did not go on when a worker came"):
        result = runner.run(config, workers=2, backend="dask", scheduler=address, notice=notice)
    assert len(notices) == 1
    assert notices[0].startswith(f"waiting for workers: the Dask scheduler {address} has none")
    assert result.tallies[0].to_dict() == runner.run(config, workers=1).tallies[0].to_dict()


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_ctrl_c_ends_the_wait_for_workers(cluster_without_workers, monkeypatch):
    """Ctrl-C (a SIGINT to this process, which raises KeyboardInterrupt here even when the suite runs with SIGINT
    ignored) ends a wait for Dask workers that would otherwise never end; the test itself has a deadline
    (issue 32 item 14: it waited for ever when SIGINT was ignored)."""
    monkeypatch.setattr(backends, "WAIT_NOTICE_SECONDS", 0.5)
    config = runner.RunConfig(("simple", "random"), hands=40, chunk_units=5)

    def press_ctrl_c(message: str) -> None:
        os.kill(os.getpid(), signal.SIGINT)

    started = time.monotonic()
    address = cluster_without_workers.scheduler_address
    with time_limit(DEADLINE, "Ctrl-C did not end the wait for workers"), pytest.raises(runner.Interrupted) as caught:
        runner.run(config, workers=2, backend="dask", scheduler=address, notice=press_ctrl_c)
    assert caught.value.results[0].chunks_run == 0
    assert time.monotonic() - started < DEADLINE


@pytest.mark.slow
def test_a_relative_strategy_path_plays_on_workers_with_another_working_directory(tmp_path, monkeypatch):
    """Issue 16.8: a relative strategy path failed on a remote Dask cluster, whose workers have their own working
    directory; the spec now reaches them as an absolute path (a shared file system is assumed)."""
    from dask.distributed import Client, LocalCluster

    elsewhere, here = tmp_path / "elsewhere", tmp_path / "here"
    elsewhere.mkdir()
    here.mkdir()
    (here / "printer.py").write_text(PRINTING_BOT)
    monkeypatch.chdir(elsewhere)
    with LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0", host="127.0.0.1"
    ) as c:
        with Client(c) as client:
            assert list(client.run(os.getcwd).values()) == [str(elsewhere)]
        monkeypatch.chdir(here)
        config = runner.RunConfig(("printer.py:Printer", "simple"), hands=4, seed=2)
        remote = runner.run(config, workers=1, backend="dask", scheduler=c.scheduler_address)
        with pytest.raises(runner.RunError, match="is a Dask Worker"):
            runner.run(config, workers=1, backend="dask", scheduler=next(iter(c.workers.values())).worker_address)
    assert remote.tallies[0].to_dict() == runner.run(config, workers=1).tallies[0].to_dict()


def listening(address: str) -> bool:
    host, port = address.removeprefix("tcp://").rsplit(":", 1)
    with socket.socket() as probe:
        return probe.connect_ex((host, int(port))) == 0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.slow
def test_a_scheduler_killed_mid_run_is_one_line_and_finished_chunks_are_kept(tmp_path):
    """Issue 25 D7: a Dask scheduler killed mid-run gave a 64-line FuturesCancelledError traceback (and a logged
    ERROR) instead of the one line that says the cluster lost a chunk."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    command = [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(port)]
    scheduler = subprocess.Popen([*command, "--no-dashboard"], **quiet)
    worker = None
    try:
        wait_until(lambda: listening(address), what="the scheduler")
        worker = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1", "--no-dashboard"], **quiet
        )
        out = tmp_path / "out"
        command = [sys.executable, "-m", "simgin", "match", "simple", "random", "--hands", "5000000", "--quiet"]
        command += ["--backend", "dask", "--scheduler", address, "--workers", "1", "--out", str(out)]
        run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            wait_until(lambda: len(list((out / "chunks").glob("*.json"))) >= 2, what="two chunks finished")
            scheduler.kill()
            _, stderr = run.communicate(timeout=DEADLINE)
        finally:
            if run.poll() is None:
                run.kill()
                run.communicate()
    finally:
        for process in (scheduler, worker):
            if process is not None:
                process.kill()
                process.wait()
    assert run.returncode == 1
    assert stderr.strip().splitlines() == [
        "Error: the Dask cluster lost a chunk (its chunks were cancelled: a strategy that kills its worker, or a "
        "scheduler gone?); finished chunks in --out are kept, rerun the same command to resume"
    ], stderr
    assert len(list((out / "chunks").glob("*.json"))) >= 2


# SIGKILL, as the OOM killer sends: os._exit in a decision is now a strategy error, not a death (issue 32 item 23).
KILLER_BOT = PRINTING_BOT.replace(
    '        print("discarding")\n',
    "        import os\n        import signal\n\n        os.kill(os.getpid(), signal.SIGKILL)\n",
)


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
@pytest.mark.parametrize("backend", ["local", "dask"])
def test_a_strategy_that_kills_its_worker_is_a_one_line_run_error(tmp_path, backend):
    """A worker that dies (here a strategy SIGKILLs it; in life the OOM killer) is an error, not a traceback from
    the pool (BrokenProcessPool) or from Dask (KilledWorker, after its retries)."""
    (tmp_path / "killer.py").write_text(KILLER_BOT)
    config = runner.RunConfig((f"{tmp_path / 'killer.py'}:Printer", "simple"), hands=8, chunk_units=2)
    message = "a worker process died" if backend == "local" else "the Dask cluster lost a chunk"
    import dask

    # Dask retries a task whose worker died (3 more times by default); once is enough to show the error.
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), pytest.raises(runner.RunError, match=message):
        runner.run(config, workers=2, backend=backend)


MIDDLE = """
import subprocess
import sys
import time

from simgin.base import guard

SLEEP = "import time; time.sleep(600)"
if sys.argv[1] == "death-signal":  # as a foreign strategy's process would be started
    child = subprocess.Popen([sys.executable, "-c", SLEEP], preexec_fn=guard.set_parent_death_signal)
else:  # the portable fallback alone: a watchdog thread on the parent's pid
    code = "import os; from simgin.base import guard; guard.watch_parent(os.getppid()); print(1, flush=True); "
    code += SLEEP
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    child.stdout.readline()
print(child.pid, flush=True)
time.sleep(600)
"""


@pytest.mark.slow  # a fault run with processes: .ci/run runs it with the slow tests
@pytest.mark.parametrize("mechanism", ["death-signal", "watchdog"])
def test_each_guard_alone_ends_a_child_whose_parent_is_killed(mechanism):
    """The two mechanisms of guard.die_with_parent, each on its own, for reuse by other process starters."""
    middle = subprocess.Popen([sys.executable, "-c", MIDDLE, mechanism], stdout=subprocess.PIPE, text=True)
    child = None
    try:
        child = psutil.Process(int(middle.stdout.readline()))
        middle.kill()
        middle.wait(timeout=DEADLINE)
        assert_all_end([child])
    finally:
        middle.kill()
        middle.communicate()
        if child is not None:
            with contextlib.suppress(psutil.NoSuchProcess):
                child.kill()

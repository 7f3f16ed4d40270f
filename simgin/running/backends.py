"""Where chunks run: in this process, in a pool of local worker processes, or on a Dask cluster; the worker
count allowed, and a scheduler's address checked and probed."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import signal
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor, wait as wait_futures
from multiprocessing import get_context
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from simgin.base import guard
from simgin.game.rules import whole_number
from simgin.players import programs as process_strategy

if TYPE_CHECKING:
    pass

from simgin.running.errors import RunError

BACKENDS = ("local", "dask")
#: Most in-flight workers for a remote Dask cluster (the cluster's own size is its business).
MAX_REMOTE_WORKERS = 4096
#: Seconds allowed to reach a Dask scheduler and hear it answer as one.
CONNECT_TIMEOUT = 5.0
#: Seconds without any Dask worker before "waiting for workers" is reported.
WAIT_NOTICE_SECONDS = 10.0
#: The Dask client's loggers quieted during a run (a lost scheduler is the run's own one-line error).
CLIENT_LOGGERS = ("distributed.client", "distributed.batched")


def max_local_workers() -> int:
    """Most worker processes on this machine: 4 per core (each takes 150-250 MB)."""
    return 4 * max(os.cpu_count() or 1, 1)


def check_workers(workers: int, backend: str = "local", scheduler: str | None = None) -> int:
    """``workers`` if it is allowed for this backend, else a one-line TypeError (not a whole number) or ValueError
    with the allowed range."""
    whole_number(workers, "workers")
    if scheduler:
        most, where = MAX_REMOTE_WORKERS, "with a Dask scheduler"
    else:
        most, where = max_local_workers(), f"on this machine ({os.cpu_count() or 1} cores, at most 4 per core)"
    if not 1 <= workers <= most:
        raise ValueError(f"workers={workers}: must be between 1 and {most} {where}")
    return workers


def _worker_init(parent_pid: int | None = None) -> None:
    """Set up a pool worker: it dies with the main process ``parent_pid``, ignores Ctrl-C and SIGHUP (the
    main process handles them and ends the workers), writes to stderr what strategies print to stdout
    (which is for results), and runs its kernels on one thread: the pool is the parallelism."""
    import numba

    if parent_pid is not None:
        guard.die_with_parent(parent_pid)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # a hang-up reaches the main process, which ends the workers
    signal.signal(signal.SIGTERM, _worker_terminated)
    os.dup2(2, 1)
    numba.set_num_threads(1)


def _worker_terminated(signum: int, frame: Any) -> None:
    """SIGTERM in a pool worker (the main process ends the pool early: Ctrl-C, an error, a decided sequential
    test): end the programs it started, their temporary stderr files with them, then die of the signal."""
    with contextlib.suppress(Exception):
        process_strategy.close_programs(grace=0.0)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


class _Deferred:
    """Work run in this process when its result is first asked for (one local worker)."""

    def __init__(self, function: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.function = function
        self.args = args

    def result(self) -> Any:
        return self.function(*self.args)

    def cancel(self) -> bool:
        return True


class _InlineBackend:
    """One worker: chunks run in this process, in order."""

    def __enter__(self) -> _InlineBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def submit(self, function: Callable[..., Any], *args: Any) -> _Deferred:
        return _Deferred(function, args)


#: Exit code of a spawned worker that was asked to start a run while it imported the main script.
MAIN_GUARD_EXIT = 87
#: Environment variable naming the file such a worker creates before it exits (set by the local pool).
MAIN_GUARD_MARK = "SIMGIN_MAIN_GUARD_MARK"
MAIN_GUARD_MESSAGE = (
    "the worker processes could not start: your script calls simgin at its top level, and each worker "
    "process (spawned) imports the script again, which would start the run again; put the code that runs "
    "simgin under 'if __name__ == \"__main__\":' (or use workers=1)"
)


def refuse_while_a_worker_starts() -> None:
    """End this process at once (exit code :data:`MAIN_GUARD_EXIT`) if it is a spawned worker still importing
    the main script: that script starts runs at import, without an ``if __name__ == "__main__":`` guard. The
    run would start again in every worker, and multiprocessing cannot start processes from there anyway; the
    main process sees the exit code and says what to do (:data:`MAIN_GUARD_MESSAGE`)."""
    import multiprocessing

    if getattr(multiprocessing.current_process(), "_inheriting", False):
        mark = os.environ.get(MAIN_GUARD_MARK)
        if mark:  # the exit code alone can be missed when the pool breaks before the main process reads it
            with contextlib.suppress(OSError):
                os.close(os.open(mark, os.O_CREAT | os.O_WRONLY | os.O_NOFOLLOW, 0o600))
        os._exit(MAIN_GUARD_EXIT)


class _PoolBackend:
    """A process pool on this machine (spawned processes, one kernel thread each)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.processes: dict[int, Any] = {}
        """Every worker process started, by pid, so that their exit codes can be read after they died."""

    def __enter__(self) -> _PoolBackend:
        context = get_context("spawn")
        # A path nobody can guess, made only by a worker that finds the main guard missing: a run killed
        # (SIGKILL) leaves nothing in the temporary directory (issue 32 item 25).
        self.mark = os.path.join(tempfile.gettempdir(), f"simgin-pool-{secrets.token_hex(16)}")
        self.previous_mark = os.environ.get(MAIN_GUARD_MARK)
        os.environ[MAIN_GUARD_MARK] = self.mark  # inherited by the spawned workers
        self.pool = ProcessPoolExecutor(
            max_workers=self.workers, mp_context=context, initializer=_worker_init, initargs=(os.getpid(),)
        )
        return self

    def main_guard_missing(self) -> bool:
        """Whether a worker ended because the main script starts runs without a ``__main__`` guard."""
        return os.path.exists(self.mark) or MAIN_GUARD_EXIT in self.worker_exit_codes()

    def _forget_mark(self) -> None:
        if self.previous_mark is None:
            os.environ.pop(MAIN_GUARD_MARK, None)
        else:
            os.environ[MAIN_GUARD_MARK] = self.previous_mark
        with contextlib.suppress(OSError):
            os.unlink(self.mark)

    def __exit__(self, *exc: object) -> None:
        self._forget_mark()
        if exc[0] is None:
            self.pool.shutdown(wait=True)
            return
        # Stopped early (Ctrl-C, an error, a sequential test that has decided): chunks still
        # running are not wanted, and one may never end (a strategy stuck in a decision).
        processes = list((getattr(self.pool, "_processes", None) or {}).values())
        self.pool.shutdown(wait=False, cancel_futures=True)
        guard.stop_processes(processes, grace=2.0)

    def submit(self, function: Callable[..., Any], *args: Any) -> Future:
        future = self.pool.submit(function, *args)
        self.processes.update(getattr(self.pool, "_processes", None) or {})
        return future

    def worker_exit_codes(self) -> list[int | None]:
        """The exit codes of the worker processes (None for one still running). The pool starts workers as
        work comes, so the ones it holds now are added to those seen at each submission."""
        self.processes.update(getattr(self.pool, "_processes", None) or {})
        for process in self.processes.values():
            with contextlib.suppress(Exception):
                process.join(1.0)
        return [process.exitcode for process in self.processes.values()]

    def poll(self, future: Future, timeout: float, notice: Callable[[str], None]) -> bool:
        """Wait up to ``timeout`` seconds for ``future``; whether it is done."""
        return bool(wait_futures([future], timeout=timeout).done)


class _DaskBackend:
    """An existing Dask cluster (``scheduler``) or a LocalCluster started for the run."""

    def __init__(self, workers: int, scheduler: str | None) -> None:
        self.workers = workers
        self.scheduler = scheduler

    def __enter__(self) -> _DaskBackend:
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise RunError("the dask backend needs the optional extra: pip install 'simgin[dask]'") from None
        self.cluster = None
        self.idle_since: float | None = None
        self.reported = False
        if self.scheduler:
            address = scheduler_address(self.scheduler)
            probe_scheduler(address)
            try:
                self.client = Client(address, timeout=f"{CONNECT_TIMEOUT:g}s")
            except Exception as error:
                raise RunError(
                    f"cannot connect to the Dask scheduler {self.scheduler!r}: {guard.describe(error)}"
                ) from None
        else:
            self.cluster = LocalCluster(
                n_workers=self.workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address="127.0.0.1:0",
                host="127.0.0.1",
            )
            self.client = Client(self.cluster)
        # The client logs an ERROR when it loses its scheduler, and its batched link to the scheduler an INFO line
        # with a traceback when that link closes mid-send; the run's own one-line error says so instead.
        self.client_logs = [logging.getLogger(name) for name in CLIENT_LOGGERS]
        self.client_log_levels = [log.level for log in self.client_logs]
        for log in self.client_logs:
            log.setLevel(logging.CRITICAL)
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            if self.cluster is None:  # an existing cluster's workers outlive the run; its programs do not
                with contextlib.suppress(Exception):
                    self.client.run(process_strategy.close_programs)
            # After a failure (a scheduler gone, say) closing may fail too; that error says nothing new.
            with contextlib.suppress(*(() if exc[0] is None else (Exception,))):
                self.client.close()
            if self.cluster is not None:
                self.cluster.close()
        finally:
            for log, level in zip(self.client_logs, self.client_log_levels, strict=True):
                log.setLevel(level)

    def submit(self, function: Callable[..., Any], *args: Any) -> Any:
        return self.client.submit(function, *args, pure=False, retries=3)

    def poll(self, future: Any, timeout: float, notice: Callable[[str], None]) -> bool:
        """Wait up to ``timeout`` seconds for ``future``; while the cluster has no worker for
        :data:`WAIT_NOTICE_SECONDS`, say so once (again after workers came and went)."""
        from dask.distributed import wait

        try:
            wait([future], timeout=timeout)
            return True
        except TimeoutError:
            pass
        try:
            workers = len(self.client.nthreads())
        except Exception:  # the scheduler is unreachable for now; the client reconnects or fails the future
            workers = 0
        now = time.monotonic()
        if workers:
            self.idle_since, self.reported = None, False
        elif self.idle_since is None:
            self.idle_since = now
        elif not self.reported and now - self.idle_since >= WAIT_NOTICE_SECONDS:
            address = self.client.scheduler.address
            notice(
                f"waiting for workers: the Dask scheduler {address} has none "
                f"(start one with 'dask worker {address}'; Ctrl-C stops, finished chunks in --out are kept)"
            )
            self.reported = True
        return False


def scheduler_address(text: str) -> str:
    """A Dask scheduler address as ``tcp://HOST:PORT`` (``HOST:PORT`` alone means tcp), or a one-line RunError."""
    address = text.strip()
    if "://" not in address:
        address = "tcp://" + address
    try:
        parts = urlsplit(address)
        port = parts.port
    except ValueError:
        port = None
        parts = None
    if parts is None or parts.scheme not in ("tcp", "tls") or not parts.hostname or port is None:
        raise RunError(
            f"--scheduler {text!r}: expected a Dask scheduler address tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786"
        )
    if parts.scheme == "tls":
        from dask.distributed import Security

        security = Security()
        if not (security.tls_ca_file and security.tls_client_cert):
            raise RunError(
                f"--scheduler {text!r}: a tls:// scheduler needs Dask's TLS settings (distributed.comm.tls.ca-file, "
                "distributed.comm.tls.client.cert and .key in the Dask configuration); or use tcp://HOST:PORT"
            )
    return address


def probe_scheduler(address: str, timeout: float | None = None) -> dict[str, Any]:
    """Ask ``address`` who it is, within ``timeout`` seconds all told (:data:`CONNECT_TIMEOUT`); a RunError
    unless a Dask scheduler answers.

    The Dask client's own timeout covers the TCP connection only: a server that accepts and
    then says nothing (a dashboard's HTTP port) would keep it waiting for ever. Dask's
    ``connect`` also retries a refused connection until its timeout, so one plain TCP
    connection comes first: a port nobody listens on is reported at once, as such.
    """
    from urllib.parse import urlsplit

    from distributed.comm import connect

    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    parts = urlsplit(address)

    async def identity() -> Any:
        _, writer = await asyncio.open_connection(parts.hostname, parts.port)
        writer.close()
        comm = await connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    try:
        answer = _run_coroutine(lambda: asyncio.wait_for(identity(), timeout))
    except TimeoutError:
        raise RunError(
            f"no Dask scheduler answered at {address} within {timeout:g} s (is it the scheduler's port, "
            "usually 8786, and not its dashboard's?)"
        ) from None
    except MemoryError:
        answer = None  # a server that is not Dask sent bytes that read as a huge frame length
    except Exception as error:
        raise RunError(f"cannot reach a Dask scheduler at {address}: {guard.describe(error)}") from None
    if not isinstance(answer, dict) or answer.get("type") != "Scheduler":
        kind = answer.get("type") if isinstance(answer, dict) else None
        what = f"a Dask {kind}" if kind else "not a Dask scheduler"
        raise RunError(
            f"{address} is {what}; give the address of a Dask scheduler (tcp://HOST:PORT, usually port 8786)"
        )
    return answer


def _run_coroutine(make: Callable[[], Any]) -> Any:
    """Run the coroutine ``make()`` to its end: here, or in a thread when this one runs an event loop (Jupyter)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(make())).result()


def backend_for(workers: int, backend: str = "local", scheduler: str | None = None):
    """The execution backend: inline (1 local worker), a process pool, or Dask."""
    refuse_while_a_worker_starts()
    if backend not in BACKENDS:
        raise ValueError(f"backend={backend!r}: choose from {', '.join(BACKENDS)}")
    if backend == "dask":
        return _DaskBackend(workers, scheduler)
    if scheduler:
        raise ValueError("--scheduler needs --backend dask")
    return _InlineBackend() if workers <= 1 else _PoolBackend(workers)

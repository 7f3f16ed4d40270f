"""Fixtures shared by more than one test module."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from simgin.players import eaai, programs

JAVA = Path(__file__).resolve().parent / "java"


def sigint_as_default() -> None:
    """``preexec_fn`` of a process that a test interrupts with SIGINT: Ctrl-C reaches it whatever this process
    inherited. A suite started with SIGINT ignored (``cmd &`` from a script, ``nohup``) passes SIG_IGN on to
    every child, and a Python child started so never raises KeyboardInterrupt (issue 32 item 14)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def signals_as_default() -> None:
    """``preexec_fn`` of a process that a test interrupts with SIGINT or hangs up with SIGHUP: both reach it whatever
    this process inherited (``nohup`` ignores SIGHUP, and simgin rightly keeps an ignored SIGHUP ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


@pytest.fixture(scope="session", autouse=True)
def private_temporary_directory(tmp_path_factory) -> Iterator[Path]:
    """Every temporary file the code under test makes goes below pytest's own base directory, which pytest
    prunes, not into the system's: a failed program's stderr file (``simgin-*.stderr``, kept on purpose and
    named in the error, docs/PROTOCOL.md), a pool's mark, a worker's scratch space. So a test run leaves
    nothing behind in the temporary directory (issue 32 item 15). Child processes inherit it through TMPDIR."""
    folder = tmp_path_factory.mktemp("tmp")
    saved_environ, saved_tempdir = os.environ.get("TMPDIR"), tempfile.tempdir
    os.environ["TMPDIR"] = str(folder)
    tempfile.tempdir = str(folder)
    try:
        yield folder
    finally:
        tempfile.tempdir = saved_tempdir
        if saved_environ is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = saved_environ


@contextlib.contextmanager
def sigint_raises() -> Iterator[None]:
    """SIGINT raises KeyboardInterrupt in this (test) process while inside, as it does in a terminal, even when
    the suite was started with SIGINT ignored; the disposition it had is restored after."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.fixture
def ctrl_c_raises():
    """:func:`sigint_raises` for the whole test."""
    with sigint_raises():
        yield


@contextlib.contextmanager
def time_limit(seconds: float, what: str) -> Iterator[None]:
    """Fail (AssertionError) if the code inside runs longer than ``seconds``: a timer then interrupts it with
    SIGINT, which raises KeyboardInterrupt here (:func:`sigint_raises`). For a test whose wait has no deadline
    of its own (a run waiting for Dask workers), so that it never waits for ever (issue 32 item 14)."""
    expired = threading.Event()

    def interrupt() -> None:
        expired.set()
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(seconds, interrupt)
    with sigint_raises():
        timer.start()
        try:
            yield
        except BaseException as error:
            if expired.is_set():
                raise AssertionError(f"timed out after {seconds:g} s: {what}") from error
            raise
        finally:
            timer.cancel()
        if expired.is_set():  # the interrupt landed where something caught it: still too slow
            raise AssertionError(f"timed out after {seconds:g} s: {what}")


@pytest.fixture(scope="session")
def classpath(tmp_path_factory):
    """The stand-in EAAI framework and the project's Java test players (tests/java), compiled once; the
    adapter's cache in a fresh folder. Without a JDK the EAAI tests are skipped, and fail under CI."""
    if shutil.which("javac") is None or shutil.which("java") is None:
        reason = "no JDK (javac and java) on the PATH: the EAAI tests need one (apt-get install default-jdk-headless)"
        if os.environ.get("CI") or os.environ.get("SIMGIN_CI"):
            pytest.fail(f"{reason}; .ci/run installs it")
        pytest.skip(reason)
    classes = tmp_path_factory.mktemp("eaai-classes")
    sources = [str(path) for path in sorted(JAVA.rglob("*.java"))]
    subprocess.run(["javac", "-nowarn", "-d", str(classes), *sources], check=True, capture_output=True)
    cache = tmp_path_factory.mktemp("simgin-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SIMGIN_CACHE_DIR", str(cache))  # workers started from here inherit it
        eaai.compiled_host.cache_clear()
        yield str(classes)
    eaai.compiled_host.cache_clear()
    programs.close_programs()


# -- the report's synthetic results (tests/report_results.py) --------------------------------------------------------


@pytest.fixture(scope="module")
def tournament() -> dict:
    """A synthetic tournament's result.json (heuristic, simple, random), shaped as the run commands write it."""
    from report_results import synthetic_result

    return synthetic_result("tournament")


@pytest.fixture(scope="module")
def tournament_tables(tournament) -> dict:
    """The report's tables of :func:`tournament`."""
    from simgin.reports.build import result_tables

    return result_tables(tournament)


@pytest.fixture(scope="session", autouse=True)
def kernels_compiled_once(request) -> None:
    """In a parallel run of the whole suite, each worker compiles its share of the kernels before its first test
    (tests/kernel_warmup.py): on an empty cache no kernel is compiled by both workers."""
    from kernel_warmup import WHOLE_SUITE, compile_share

    if len(request.session.items) >= WHOLE_SUITE:
        compile_share()

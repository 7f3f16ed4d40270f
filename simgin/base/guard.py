"""Guards around processes and foreign code: children that die with their parent, Ctrl-C told
apart from a strategy's own ``KeyboardInterrupt``, and strategy code that cannot print into
``--json`` or end the run with ``sys.exit``.

These are the mechanisms the runner uses for its worker processes and the reference engine
for plain-Python strategies; anything else that starts processes or runs foreign code (a
strategy in another language, say) reuses them:

- :func:`die_with_parent` in a child process (a pool worker): it is killed when its parent
  dies, by the Linux parent-death signal and, anywhere, by a watchdog thread on the parent's
  pid. :func:`set_parent_death_signal` alone is the ``preexec_fn`` of a
  :class:`subprocess.Popen` (Linux).
- :func:`stop_processes` ends child processes: SIGTERM, a grace period, then SIGKILL.
- :func:`counting_interrupts` (the CLI and the runner hold it) counts real SIGINTs, so that
  :func:`call_foreign` can tell a Ctrl-C (re-raised) from a ``KeyboardInterrupt`` that the
  foreign code raised itself (an error, like any other it raises).
- :func:`stdout_for_results_only` (the CLI holds it) keeps stdout for results: file
  descriptor 1 is stderr for everything else, child processes included.
- :func:`call_foreign` runs foreign code with its ``print`` sent to stderr and turns
  whatever it raises (``SystemExit``, ``GeneratorExit``, its own ``KeyboardInterrupt``, any
  other exception) into a :class:`ForeignFailure` that says what was raised, even when the
  exception cannot be printed (:func:`describe`).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

try:  # the module os takes _exit from: posix here, nt on Windows
    import posix as _os_module
except ImportError:  # pragma: no cover - Windows
    import nt as _os_module  # type: ignore[import-not-found,no-redef]

#: ``prctl`` option that sets the signal a process gets when its parent thread dies (Linux).
PR_SET_PDEATHSIG = 1
#: How often the parent watchdog looks at the parent's pid, in seconds.
WATCH_INTERVAL = 0.5


def set_parent_death_signal(sig: int = signal.SIGKILL) -> bool:
    """Ask Linux to send ``sig`` to this process when the thread that started it exits.

    Returns whether it was set (False on other systems). Usable as ``preexec_fn`` of
    :class:`subprocess.Popen`. The "parent" is the thread that forked this process, so the
    thread that starts children must live as long as they are needed (the runner starts its
    pool from the thread that runs the chunks).
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def watch_parent(parent_pid: int, interval: float = WATCH_INTERVAL, exit_code: int = 1) -> threading.Thread:
    """A daemon thread that ends this process (``os._exit``) as soon as its parent is no longer ``parent_pid``.

    The portable fallback of :func:`set_parent_death_signal`: an orphan is re-parented (to
    init or a subreaper), so its parent pid changes.
    """

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(interval)
        os._exit(exit_code)

    thread = threading.Thread(target=watch, name="simgin-parent-watchdog", daemon=True)
    thread.start()
    return thread


def die_with_parent(parent_pid: int) -> None:
    """Make this (child) process end when its parent ``parent_pid`` dies, however it dies.

    Sets the parent-death signal (Linux) and starts the watchdog; if the parent is already
    gone (it died before this ran), exits at once.
    """
    set_parent_death_signal(signal.SIGKILL)
    if os.getppid() != parent_pid:
        os._exit(1)
    watch_parent(parent_pid)


def stop_processes(processes: Iterable[Any], grace: float = 5.0) -> None:
    """End child processes: SIGTERM, up to ``grace`` seconds to exit, then SIGKILL; then reap them.

    Takes :class:`multiprocessing.Process` or :class:`subprocess.Popen` objects (anything
    with ``terminate``, ``kill`` and ``join(timeout)`` or ``wait(timeout)``); ones already
    gone are skipped.
    """
    processes = list(processes)

    def wait(process: Any, timeout: float) -> None:
        with contextlib.suppress(Exception):
            if hasattr(process, "join"):
                process.join(timeout)
            else:
                process.wait(timeout)

    def alive(process: Any) -> bool:
        if hasattr(process, "is_alive"):
            with contextlib.suppress(Exception):
                return process.is_alive()
            return False
        return process.poll() is None

    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    deadline = time.monotonic() + grace
    for process in processes:
        wait(process, max(deadline - time.monotonic(), 0.0))
    for process in processes:
        if alive(process):
            with contextlib.suppress(Exception):
                process.kill()
            wait(process, 5.0)


# -- Ctrl-C and foreign code ------------------------------------------------------------------

_interrupts = 0


def _on_sigint(signum: int, frame: Any) -> None:
    global _interrupts
    _interrupts += 1
    raise KeyboardInterrupt


def interrupt_count() -> int:
    """How many SIGINTs :func:`counting_interrupts` has seen in this process."""
    return _interrupts


@contextlib.contextmanager
def counting_interrupts() -> Iterator[None]:
    """While inside, SIGINT raises ``KeyboardInterrupt`` as usual and is also counted.

    It replaces only Python's default handler, and only in the main thread (the only one
    that may set handlers); elsewhere, under another handler or when SIGINT is ignored (a
    worker process), it changes nothing. Nests.
    """
    try:
        previous = signal.getsignal(signal.SIGINT)
    except ValueError:
        previous = None
    if previous is not signal.default_int_handler or threading.current_thread() is not threading.main_thread():
        yield
        return
    signal.signal(signal.SIGINT, _on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


#: Signals that end a run the way Ctrl-C does when :func:`terminating_as_interrupt` holds (issue 32 item 25).
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def _on_stop_signal(signum: int, frame: Any) -> None:
    global _interrupts
    _interrupts += 1
    raise KeyboardInterrupt


@contextlib.contextmanager
def terminating_as_interrupt() -> Iterator[None]:
    """While inside, SIGTERM and SIGHUP end the work as Ctrl-C does (a counted ``KeyboardInterrupt``): the
    run stops its workers, removes what it made, shows what was finished and says how to resume, instead of
    dying at once and leaving its temporary folder and Python's "leaked semaphore" warning.

    Only a signal left at its default changes (one ignored, as SIGHUP under ``nohup``, stays ignored), and
    only in the main thread. The CLI holds it; the library does not (a program that embeds simgin keeps its
    own handlers).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {}
    for sig in STOP_SIGNALS:
        with contextlib.suppress(ValueError, OSError):
            if signal.getsignal(sig) is signal.SIG_DFL:
                previous[sig] = signal.signal(sig, _on_stop_signal)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _real_interrupt(before: int) -> bool:
    """Whether a ``KeyboardInterrupt`` seen now came from a SIGINT (after ``interrupt_count()`` was ``before``)."""
    if _interrupts != before:
        return True
    handler = signal.getsignal(signal.SIGINT)
    # Counted and none came, or SIGINT is ignored here (a worker): the code raised it itself.
    # Under any other handler a SIGINT cannot be told apart, so it is taken as one.
    return handler not in (_on_sigint, signal.SIG_IGN)


class ForeignFailure(Exception):
    """Foreign code (a strategy) raised ``error``; the message is ``'TypeName: message'``."""

    def __init__(self, error: BaseException) -> None:
        self.error = error
        super().__init__(describe(error))


def describe(error: BaseException) -> str:
    """``'TypeName: message'`` on one line; ``SystemExit`` says it called ``sys.exit`` with what.

    Safe on any exception: one whose ``__str__`` (or, for ``SystemExit``, its code's ``__repr__``)
    itself fails or returns no text is described as ``'TypeName: <unprintable>'``, so the error
    line still names the strategy and the hand around it.
    """
    name = _type_name(error)
    if isinstance(error, SystemExit):
        return f"SystemExit: it called sys.exit({_safe_text(repr, error.code)})"
    text = " ".join(_safe_text(str, error).split())
    return f"{name}: {text}" if text else name


def safe_repr(value: Any) -> str:
    """``repr(value)`` of a foreign object (a strategy's answer), or ``'<unprintable TypeName>'`` when that fails."""
    text = _safe_text(repr, value)
    if text == "<unprintable>":
        return f"<unprintable {_type_name(value)}>"
    return text


def _type_name(error: Any) -> str:
    try:
        name = type(error).__name__
    except BaseException:  # a metaclass could make even this fail
        return "exception"
    return name if isinstance(name, str) else "exception"


def _safe_text(show: Callable[[Any], Any], value: Any) -> str:
    """``show(value)`` (``str`` or ``repr``), or ``'<unprintable>'`` when that raises or gives no string."""
    try:
        text = show(value)
    except BaseException:  # foreign code: its __str__ may raise anything, even SystemExit
        return "<unprintable>"
    return text if isinstance(text, str) else "<unprintable>"


@contextlib.contextmanager
def stdout_for_results_only() -> Iterator[None]:
    """While inside, only what is written to ``sys.stdout`` reaches this process's standard output; file
    descriptor 1, and so ``sys.__stdout__``, ``os.write(1, ...)`` and every child process started inside
    (pool workers, a plug-in's ``subprocess``), is stderr.

    The CLI holds it, so that ``--json`` (and text) output stays clean whatever a plug-in does: it keeps
    a private duplicate of the real stdout for ``sys.stdout`` (not inheritable, so no child gets it) and
    points descriptor 1 at stderr. A strategy's ``print`` is already sent to stderr by
    :func:`call_foreign`; this covers the writes that go around ``sys.stdout``. Nothing changes when
    ``sys.stdout`` is not descriptor 1 (click's test runner, pytest's capture). On the way out the
    results are flushed and descriptor 1 and ``sys.stdout`` are restored.
    """
    stream = sys.stdout
    try:
        real = os.dup(1) if stream is not None and stream.fileno() == 1 else -1
    except (AttributeError, OSError, ValueError):
        real = -1
    if real < 0:
        yield
        return
    try:
        stream.flush()
        os.dup2(2, 1)  # fails if stderr is closed: then nothing changes
    except (OSError, ValueError):
        os.close(real)
        real = -1
    if real < 0:
        yield
        return
    results = open(  # noqa: SIM115 - closed below, after the command
        real,
        "w",
        encoding=stream.encoding,
        errors=stream.errors,
        buffering=1 if stream.line_buffering else -1,
        closefd=False,
    )
    sys.stdout = results
    try:
        yield
    finally:
        try:
            results.flush()
        finally:
            if sys.stdout is results:
                sys.stdout = stream
            with contextlib.suppress(OSError, ValueError):
                results.close()  # flushes nothing more; an error already showed in flush
            os.dup2(real, 1)
            os.close(real)


@contextlib.contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """Send ``print`` and other writes to ``sys.stdout`` to ``sys.stderr`` while inside (stdout is for results)."""
    with contextlib.redirect_stdout(sys.stderr):
        yield


def call_foreign(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``function(*args, **kwargs)`` with its stdout on stderr; whatever it raises becomes a :class:`ForeignFailure`.

    A real Ctrl-C (seen by :func:`counting_interrupts`) is re-raised as ``KeyboardInterrupt``;
    everything else it raises, ``Exception`` or not (``SystemExit``, ``GeneratorExit``, a
    ``KeyboardInterrupt`` the code raised itself, any other ``BaseException``), becomes a
    :class:`ForeignFailure` carrying the original as ``error``.
    """
    before = _interrupts
    stdout = sys.stdout
    sys.stdout = sys.stderr  # what stdout_to_stderr does, inline: this runs once per decision
    exits = os._exit, _os_module._exit
    refuse = _exit_refuser(threading.get_ident(), exits[0])
    os._exit = _os_module._exit = refuse  # type: ignore[assignment]  # issue 32 item 23, see ForeignExit
    try:
        return function(*args, **kwargs)
    except KeyboardInterrupt as error:
        if _real_interrupt(before):
            raise
        raise ForeignFailure(error) from error
    except BaseException as error:  # GeneratorExit and home-made BaseExceptions are the strategy's errors too
        raise ForeignFailure(error) from error
    finally:
        sys.stdout = stdout
        os._exit, _os_module._exit = exits  # type: ignore[assignment]


class ForeignExit(BaseException):
    """Foreign code called ``os._exit(status)`` during :func:`call_foreign` (issue 32 item 23).

    At ``--workers 1`` a plain-Python strategy runs in the CLI's own process, where ``os._exit(0)`` would end
    simgin at once with exit status 0, no output and no error: a run that did not finish would look like
    one that did. ``sys.exit`` already raises (``SystemExit``) and a signal or ``os.abort`` gives a non-zero
    status; ``os._exit`` is the one call that ends the process with 0 without unwinding. So while foreign
    code runs, ``os._exit`` (and ``posix._exit``, the same function) called from its thread raises this
    instead, and the strategy fails with one line like any other error. Other threads (the worker's
    watchdog on its parent, :func:`watch_parent`) still get the real ``os._exit``. Code that goes around
    Python (``ctypes`` calling libc's ``_exit``) is not caught: run such a strategy with ``--workers 2`` or
    more, where a dying worker is a "worker died" error.
    """

    def __init__(self, status: Any) -> None:
        super().__init__(f"it called os._exit({safe_repr(status)})")
        self.status = status


def _exit_refuser(thread: int, real_exit: Callable[[int], Any]) -> Callable[[int], Any]:
    """The ``os._exit`` foreign code sees in :func:`call_foreign`: it raises :class:`ForeignExit` in ``thread``
    and exits for real elsewhere."""

    def refused_exit(status: int) -> Any:
        if threading.get_ident() != thread:
            return real_exit(status)
        raise ForeignExit(status)

    return refused_exit

"""Strategies that are programs: ``exec:COMMAND`` plays any program that speaks simgin's line protocol.

The protocol is docs/PROTOCOL.md (version :data:`PROTOCOL_VERSION`). simgin starts the
program once per seat per worker (per thread, under Dask) and keeps it for every hand that
seat plays there. It writes one line per event the player may observe (its deal, every draw,
take, pass and discard, the showdown) and one per decision (``ask ...``), and reads one
answer line per decision. The events before a question and the question itself carry
exactly what a :class:`~simgin.game.strategy.PlayerView` holds at that decision: the adapter
below computes them from the views the engine hands it, so it cannot pass on more.

Robustness: every decision has a time limit (:attr:`ProgramSettings.decision_timeout`,
``--decision-timeout``); a program that exits, hangs, writes garbage or reports an error
fails the decision with a :class:`ProgramError`, which the engine turns into the usual
one-line error naming the strategy, the decision and the hand seed. A program's stderr goes
to a file: in the run's ``--out`` directory (``stderr/``, removed if empty), or else a file
without a name, which becomes a named temporary file only when the program fails with
something on stderr, and the error names it; the last :data:`STDERR_KEEP_BYTES` are kept
(issue 32 item 25). Programs run in their own session and
process group (Ctrl-C reaches simgin only), die with the process that started them, their
own children included, even daemons that left the group (Linux: a small supervisor, a child
subreaper that the kernel signals when its parent dies), and are ended by
:func:`close_programs` at the end of a run and at exit.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import os
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from simgin.game.cards import RANK_COUNT
from simgin.game.rng import SplitMix64
from simgin.game.rules import Rules
from simgin.game.strategy import HandEnd, PlayerView, StrategyStartError

PROTOCOL_VERSION = 1
PREFIX = "exec:"
DEFAULT_DECISION_TIMEOUT = 10.0
#: The longest ``--decision-timeout`` allowed: one day (a wait is a ``poll`` in milliseconds, a C int,
#: which would overflow after about 24 days; no decision needs more than a day).
MAX_DECISION_TIMEOUT = 86400.0
#: Starting a program (a JVM, say) and its handshake may take longer than one decision.
STARTUP_TIMEOUT = 30.0
#: How long a program may take to exit after ``quit`` before it is killed.
QUIT_GRACE = 2.0
#: How much of the last line of a failed program's stderr the error quotes.
STDERR_TAIL_CHARS = 200
#: The most of a program's stderr kept (its end): a file grown past twice this is cut back to its last
#: STDERR_KEEP_BYTES before the next question, and a kept file holds at most this (docs/PROTOCOL.md).
STDERR_KEEP_BYTES = 1_000_000

# On Linux a program runs under this small supervisor, the leader of the program's process
# group and a "child subreaper" (prctl PR_SET_CHILD_SUBREAPER): a process the program leaves
# behind (a daemon that left the group with setsid and a double fork) is re-parented to the
# supervisor instead of init. When the thread that started it dies (a worker killed with
# SIGKILL included) the kernel sends it SIGTERM, as simgin does to end a program; it then
# kills every process below it, however detached, and the whole group. Otherwise it waits for
# the program, kills what the program left running, and exits as the program did.
_SUPERVISOR = """\
import ctypes, os, signal, sys, time
def children():
    me, found = os.getpid(), []
    for name in os.listdir("/proc"):
        try:
            with open("/proc/" + name + "/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == me:
            found.append(int(name))
    return found
def kill_descendants():
    # Orphans are re-parented here, so killing the children (and then their orphaned children) ends all.
    while True:
        for pid in children():
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            return
        time.sleep(0.002)
def end(*_):
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    kill_descendants()
    os.killpg(0, signal.SIGKILL)
signal.signal(signal.SIGTERM, end)
libc = ctypes.CDLL(None)
libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
if os.getppid() != int(sys.argv[1]):
    end()
pid = os.fork()
if pid == 0:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    except OSError as error:
        sys.stderr.write(f"cannot run {sys.argv[2]!r}: {error.strerror}\\n")
        os._exit(127)
os.close(0)
os.close(1)
code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
signal.signal(signal.SIGTERM, signal.SIG_IGN)
kill_descendants()
if code < 0:
    try:
        signal.signal(-code, signal.SIG_DFL)
    except (OSError, ValueError):
        pass
    os.kill(os.getpid(), -code)
os._exit(code)
"""
#: How long the supervisor may take, after SIGTERM, to kill what runs below it before its group is killed.
SUPERVISOR_GRACE = 2.0


class ProgramError(RuntimeError):
    """A program crashed, hung, broke the protocol or reported an error (the message says which)."""


class ProgramTimeout(ProgramError):
    """A program did not answer within its time limit."""


class ProgramStartError(ProgramError, StrategyStartError):
    """A program could not be started, or failed its handshake: nothing about the hand being played is to
    blame, so replaying the hand cannot help."""


@dataclass(frozen=True)
class ProgramSettings:
    """How programs run: not part of a run's results, so not part of its settings file."""

    decision_timeout: float = DEFAULT_DECISION_TIMEOUT
    """Seconds a program may take to answer one decision (``--decision-timeout``)."""
    stderr_dir: str | None = None
    """Where each program's stderr is kept (a run's ``--out``/stderr; an empty file is removed); None: a
    file without a name, made a named temporary file only when the program fails with something on
    stderr (the error names it)."""

    def __post_init__(self) -> None:
        if not (0 < self.decision_timeout <= MAX_DECISION_TIMEOUT):  # NaN fails too
            raise ValueError(
                f"decision_timeout={self.decision_timeout!r}: must be a number of seconds, more than 0 and at most "
                f"{MAX_DECISION_TIMEOUT:g}"
            )


# -- the programs of this process ------------------------------------------------------------

_lock = threading.RLock()  # re-entrant: a worker's SIGTERM handler ends the programs (backends._worker_init)
_programs: dict[tuple[int, str, int], Program] = {}
_local = threading.local()


def configure(settings: ProgramSettings | None) -> None:
    """Use ``settings`` for the programs this thread starts and asks from now on (the runner
    calls it at the start of every chunk)."""
    _local.settings = settings or ProgramSettings()


def current_settings() -> ProgramSettings:
    settings = getattr(_local, "settings", None)
    return settings if settings is not None else ProgramSettings()


def close_programs(grace: float = QUIT_GRACE) -> int:
    """End every program this process started (``quit``, ``grace`` seconds to exit, then killed); returns how many.

    Their stderr goes with them, but for the files of ``--out``/stderr that are not empty.
    """
    with _lock:
        programs = list(_programs.values())
        _programs.clear()
    for program in programs:
        program.close(grace)
    return len(programs)


atexit.register(close_programs)
try:  # multiprocessing's workers exit without running atexit, but run these finalizers
    from multiprocessing import util as _mp_util

    _mp_util.Finalize(None, close_programs, exitpriority=100)
except ImportError:  # pragma: no cover
    pass


def program_for(spec: str, seat: int, command: Sequence[str]) -> Program:
    """The running program of ``spec`` at ``seat`` in this thread, started on first use."""
    key = (threading.get_ident(), spec, seat)
    with _lock:
        program = _programs.get(key)
    if program is not None and program.thread is not threading.current_thread():
        program.close()  # a thread that ended (its programs with it) left its id to this one
        program = None
    if program is not None and not program.failed:
        assert program.process is not None
        if program.process.poll() is None:
            return program
        raise ProgramError(program._exit_reason())  # it died between hands
    program = Program(spec, seat, command, current_settings())
    with _lock:
        _programs[key] = program
    try:
        program.start()
    except ProgramStartError:
        raise
    except ProgramError as error:
        raise ProgramStartError(str(error)) from None
    return program


def _forget(program: Program) -> None:
    with _lock:
        for key, value in list(_programs.items()):
            if value is program:
                del _programs[key]


# -- one program -----------------------------------------------------------------------------


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_")[:60] or "program"


class Program:
    """One running program and its pipes: lines out in one write per decision, answers in under a deadline."""

    def __init__(self, spec: str, seat: int, command: Sequence[str], settings: ProgramSettings) -> None:
        self.spec = spec
        self.seat = seat
        self.command = list(command)
        self.settings = settings
        self.thread = threading.current_thread()
        """The thread that started it: on Linux the program dies when this thread ends."""
        self.name = ""
        """The program's own name, from the handshake."""
        self.rules: Rules | None = None
        """The rules last sent (they are sent again when they change, say between sweep cells)."""
        self.process: subprocess.Popen[bytes] | None = None
        self.pending: list[str] = []
        self.buffer = b""
        self.stderr_path: Path | None = None
        """The file of the program's stderr that has a name: in ``--out``/stderr, or the temporary file
        an error names."""
        self.stderr_is_temporary = False
        self._stderr_fd: int | None = None
        """The program's stderr file, open for appending (without a name when temporary)."""
        self._stderr_tail: bytes | None = None
        """The end of the program's stderr, read when the program ended."""
        self._stderr_was_cut = False
        """Whether more was written to stderr than is kept."""
        self.failed = False
        self.supervised = False
        """Whether it runs under the supervisor (Linux)."""
        self.transcript: list[str] | None = None
        """Every line written, when a test asks for it (set to a list)."""

    # -- starting and stopping --

    def _open_stderr(self) -> int:
        """The file descriptor the program writes its stderr to (appending, so that it can be cut back)."""
        flags = os.O_RDWR | os.O_APPEND | os.O_CLOEXEC
        if self.settings.stderr_dir:
            from simgin.base.files import make_directory

            # The run directory's stderr/ folder: refused if it is a link, and each file made new, never
            # opened through a link planted in its place (README, "Failures and resuming").
            folder = Path(self.settings.stderr_dir)
            make_directory(folder.parent, folder.name)
            stem = f"{_slug(self.spec)}-seat{self.seat}-pid{os.getpid()}"
            index = 1
            while True:
                path = folder / (f"{stem}.stderr" if index == 1 else f"{stem}-{index}.stderr")
                try:
                    fd = os.open(path, flags | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)
                except FileExistsError:
                    index += 1
                    continue
                self.stderr_path = path
                self._stderr_fd = fd
                return fd
        # Without --out: a file whose name is removed at once, so that nothing is left behind whatever
        # happens to this process (SIGKILL included); a failure copies its end to a named file.
        fd, name = tempfile.mkstemp(prefix=f"simgin-{_slug(self.spec)[:30]}-", suffix=".stderr")
        os.unlink(name)
        fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_APPEND)
        self.stderr_is_temporary = True
        self._stderr_fd = fd
        return fd

    def _read_stderr_end(self, size: int = STDERR_KEEP_BYTES) -> bytes:
        """The last ``size`` bytes of the program's stderr (all of it when shorter)."""
        if self._stderr_fd is None:
            return (self._stderr_tail or b"")[-size:]
        try:
            length = os.fstat(self._stderr_fd).st_size
            return os.pread(self._stderr_fd, size, max(length - size, 0))
        except OSError:
            return b""

    def _cut_stderr(self) -> None:
        """Cut a stderr file grown past twice :data:`STDERR_KEEP_BYTES` back to its last STDERR_KEEP_BYTES.
        Called between answers, when a program is waiting for its next question."""
        fd = self._stderr_fd
        if fd is None:
            return
        with contextlib.suppress(OSError):
            if os.fstat(fd).st_size > 2 * STDERR_KEEP_BYTES:
                tail = self._read_stderr_end()
                os.ftruncate(fd, 0)
                os.write(fd, tail)  # appended: at the start of the emptied file
                self._stderr_was_cut = True

    def _end_stderr(self) -> None:
        """The program has ended: keep the end of its stderr in memory, remove an empty ``--out`` file and cut
        a long one to its last :data:`STDERR_KEEP_BYTES`, and close the file (a temporary one vanishes)."""
        fd = self._stderr_fd
        if fd is None:
            return
        self._stderr_tail = self._read_stderr_end()
        self._stderr_cut()
        if self.stderr_path is not None and not self.stderr_is_temporary:
            with contextlib.suppress(OSError):
                if not self._stderr_tail:
                    self.stderr_path.unlink()
                    self.stderr_path = None
                elif os.fstat(fd).st_size > STDERR_KEEP_BYTES:
                    os.ftruncate(fd, 0)
                    os.write(fd, self._stderr_tail)
        self._stderr_fd = None
        os.close(fd)

    def _stderr_cut(self) -> bool:
        """Whether the program wrote more to stderr than is kept (the end kept is full)."""
        if self._stderr_fd is not None:
            with contextlib.suppress(OSError):
                self._stderr_was_cut |= os.fstat(self._stderr_fd).st_size > STDERR_KEEP_BYTES
        return self._stderr_was_cut

    def _named_stderr(self) -> Path | None:
        """The file that holds the program's stderr for an error to name: its ``--out`` file, or a new
        temporary file holding its end (made once); None if it cannot be written."""
        if self.stderr_path is not None:
            return self.stderr_path
        try:
            with tempfile.NamedTemporaryFile(
                prefix=f"simgin-{_slug(self.spec)[:30]}-", suffix=".stderr", delete=False
            ) as handle:
                handle.write(self._read_stderr_end())
        except OSError:
            return None
        self.stderr_path = Path(handle.name)
        return self.stderr_path

    def start(self) -> None:
        """Start the program and shake hands: ``simgin 1`` out, ``simgin 1 NAME`` back."""
        argv = list(self.command)
        self.supervised = sys.platform.startswith("linux")
        if self.supervised:
            argv = [sys.executable, "-I", "-S", "-c", _SUPERVISOR, str(os.getpid()), *argv]
        stderr = self._open_stderr()
        try:
            self.process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                bufsize=0,
                close_fds=True,
                start_new_session=True,
            )
        except OSError as error:
            self.failed = True
            self._end_stderr()
            raise ProgramError(f"could not start {shlex.join(self.command)!r}: {error.strerror or error}") from None
        self.stdin_fd = self.process.stdin.fileno()
        self.stdout_fd = self.process.stdout.fileno()
        self.poller = select.poll()
        self.poller.register(self.stdout_fd, select.POLLIN)
        timeout = max(STARTUP_TIMEOUT, self.settings.decision_timeout)
        try:
            answer = self.ask(f"simgin {PROTOCOL_VERSION}\n", timeout)
        except ProgramTimeout:
            raise ProgramStartError(self._with_stderr(self._handshake_stalled(timeout))) from None
        words = answer.split(maxsplit=2)
        if answer.startswith("error"):
            raise self.error_answer(answer, "the handshake")
        if len(words) < 2 or words[0] != "simgin":
            self._fail()
            raise ProgramError(
                self._with_stderr(
                    f"answered the handshake with {answer[:80]!r}; expected 'simgin {PROTOCOL_VERSION} NAME' "
                    "(docs/PROTOCOL.md)"
                )
            )
        if words[1] != str(PROTOCOL_VERSION):
            self._fail()
            raise ProgramError(
                self._with_stderr(
                    f"speaks protocol version {words[1][:20]}; simgin speaks version {PROTOCOL_VERSION} "
                    "(docs/PROTOCOL.md)"
                )
            )
        self.name = words[2].strip() if len(words) > 2 else ""

    def _handshake_stalled(self, timeout: float) -> str:
        """Why a program that never answered the handshake stalls, with the limit that applied."""
        limit = (
            f"the limit for a program's start and handshake is {STARTUP_TIMEOUT:g} s, or --decision-timeout if longer"
            if timeout == STARTUP_TIMEOUT
            else f"the limit for a program's start and handshake is --decision-timeout, {timeout:g} s, when longer "
            f"than {STARTUP_TIMEOUT:g} s"
        )
        return (
            f"no answer to the handshake line 'simgin {PROTOCOL_VERSION}' within {timeout:g} s ({limit}); a program "
            "must read its input line by line and flush each answer at once: one whose input or output is "
            "block-buffered waits for more than simgin sends (run mawk with -W interactive, python with -u; "
            "see 'Buffering' in docs/PROTOCOL.md)"
        )

    def close(self, grace: float = QUIT_GRACE) -> None:
        """Say ``quit``, give the program ``grace`` seconds to exit, then kill it (:meth:`_stop`); its stderr
        is kept only in ``--out``/stderr, and there only if not empty (:meth:`_end_stderr`)."""
        process = self.process
        if process is None:
            self._end_stderr()
            return
        if process.returncode is None and not self.failed:
            with contextlib.suppress(OSError):
                os.write(process.stdin.fileno(), ("".join(self.pending) + "quit\n").encode())
            self.pending = []
        if process.returncode is None:
            self._stop(grace=grace)
        _forget(self)
        self._end_stderr()

    def _stop(self, grace: float) -> None:
        """End the program: wait up to ``grace`` s for it to exit; then (Linux) SIGTERM its supervisor, which
        kills every process below it, daemons that left the group included, and give it
        :data:`SUPERVISOR_GRACE` s; then kill the whole process group."""
        process = self.process
        assert process is not None and process.returncode is None
        with contextlib.suppress(OSError):
            process.stdin.close()
        if not self._exited_within(grace) and self.supervised:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(process.pid, signal.SIGTERM)
            self._exited_within(SUPERVISOR_GRACE)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        process.stdout.close()
        _forget(self)

    def _exited_within(self, seconds: float) -> bool:
        """Whether the started process (the supervisor on Linux) exits within ``seconds``; it is not reaped."""
        assert self.process is not None
        deadline = time.monotonic() + seconds
        while True:
            # WNOWAIT: the exited process stays a zombie, so its pid (the group id) is not reused yet.
            if os.waitid(os.P_PID, self.process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.005)

    def _fail(self) -> None:
        """The program broke: kill it now; the end of its stderr stays for the error (:meth:`_with_stderr`)."""
        self.failed = True
        if self.process is not None and self.process.returncode is None:
            self._stop(grace=0.0)
        _forget(self)
        self._end_stderr()

    # -- talking --

    def send(self, text: str) -> None:
        """Queue lines that need no answer; they go out with the next question."""
        self.pending.append(text)

    def ask(self, text: str, timeout: float | None = None) -> str:
        """Write the queued lines and ``text`` (ending in a question) at once; return the answer line.

        ``timeout`` defaults to the thread's :attr:`ProgramSettings.decision_timeout`.
        """
        if self.pending:
            text = "".join(self.pending) + text
            self.pending = []
        if self.transcript is not None:
            self.transcript.extend(text.splitlines())
        if self.failed:
            raise ProgramError("the program failed earlier")
        self._cut_stderr()
        data = text.encode()
        try:
            written = os.write(self.stdin_fd, data)
            while written < len(data):
                written += os.write(self.stdin_fd, data[written:])
        except OSError:
            raise ProgramError(self._exit_reason()) from None
        try:
            return self._read_line(current_settings().decision_timeout if timeout is None else timeout)
        except BaseException:
            # Interrupted between question and answer (Ctrl-C, say): the answer would come later and
            # be read as the answer to another question, so this program cannot be asked again.
            if not self.failed:
                self._fail()
            raise

    def _read_line(self, timeout: float) -> str:
        end = self.buffer.find(b"\n")
        if end < 0:
            deadline = 0.0
            left = timeout
            while end < 0:
                if left <= 0 or not self.poller.poll(left * 1000):
                    self._fail()
                    raise ProgramTimeout(
                        self._with_stderr(f"no answer within {timeout:g} s (the time limit is --decision-timeout)")
                    )
                chunk = os.read(self.stdout_fd, 65536)
                if not chunk:
                    raise ProgramError(self._exit_reason())
                end = chunk.find(b"\n")
                if end >= 0:
                    end += len(self.buffer)
                elif not deadline:  # a part of a line: the rest must come within the same limit
                    deadline = time.monotonic() + left
                self.buffer += chunk
                if end < 0:
                    left = deadline - time.monotonic()
        line = self.buffer[:end]
        self.buffer = self.buffer[end + 1 :]
        return line.decode("utf-8", "replace").rstrip("\r")

    def _exit_reason(self) -> str:
        """Why the pipe closed: the exit code or signal (the program is stopped first)."""
        process = self.process
        assert process is not None
        try:
            code = process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        self._fail()
        if code is None:
            what = "closed its output"
        elif code < 0:
            what = f"was killed by signal {-code} ({signal.Signals(-code).name})"
        else:
            what = f"exited with code {code}"
        return self._with_stderr(f"the program {what}")

    def _with_stderr(self, message: str) -> str:
        """``message`` and the end of the program's stderr, on one line, with the file that keeps it (made
        now for a temporary one: only a failure with something on stderr leaves a file behind)."""
        text = self._read_stderr_end(4096).decode("utf-8", "replace")
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if not lines:
            return message
        tail = lines[-1][-STDERR_TAIL_CHARS:]
        path = self._named_stderr()
        if path is None:
            return f"{message}; its stderr ends {tail!r}"
        kept = f"its last {STDERR_KEEP_BYTES:,} bytes" if self._stderr_cut() else "all of it"
        return f"{message}; its stderr ends {tail!r} ({kept} in {path})"

    def error_answer(self, answer: str, expected: str) -> ProgramError:
        """The error for an answer that is no answer: an ``error`` line, or garbage where ``expected``
        was due (the program is stopped)."""
        self._fail()
        if answer.startswith("error"):
            text = answer[5:].strip() or "(no message)"
            return ProgramError(self._with_stderr(f"the program reported an error: {text[:300]}"))
        return ProgramError(self._with_stderr(f"answered {answer[:80]!r}; expected {expected} (docs/PROTOCOL.md)"))


# -- the protocol's lines --------------------------------------------------------------------


def _cards(cards: Sequence[int]) -> str:
    return " ".join(map(str, cards))


def _meld(meld: Sequence[int]) -> str:
    return ",".join(map(str, meld))


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def rules_line(rules: Rules) -> str:
    """``rules NAME=VALUE ...``: every switch of :class:`~simgin.game.rules.Rules`, in field order."""
    return "rules " + " ".join(f"{f.name}={_value(getattr(rules, f.name))}" for f in fields(rules)) + "\n"


def is_meld(cards: Sequence[int]) -> bool:
    """A set of 3 or 4 cards of one rank (R3) or a run of 3 or more of one suit (R4, ace low)."""
    if not 3 <= len(cards) <= 13 or len(set(cards)) != len(cards):
        return False
    ranks = sorted(card % RANK_COUNT for card in cards)
    if len(cards) <= 4 and len(set(ranks)) == 1:
        return True
    if len({card // RANK_COUNT for card in cards}) != 1:
        return False
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def layoff_targets(knocker_melds: Sequence[Sequence[int]], layoffs: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
    """Each laid-off card with the knocker's meld it extends, in an order that lays them all off
    (R14: a laid-off card may itself be extended); the meld is shown as it was before the card.

    A card may fit two melds (a ten on a set of tens or at the end of a run) and only one
    choice lets the rest follow, so this searches.

    >>> layoff_targets([[9, 22, 48], [31, 32, 33, 34]], [35, 36])  # TH on 6H-9H, then JH
    [(35, (31, 32, 33, 34)), (36, (31, 32, 33, 34, 35))]
    """

    def place(melds: list[tuple[int, ...]], left: list[int]) -> list[tuple[int, tuple[int, ...]]] | None:
        if not left:
            return []
        for card in left:
            for index, meld in enumerate(melds):
                if is_meld([*meld, card]):
                    grown = [*melds[:index], (*meld, card), *melds[index + 1 :]]
                    rest = place(grown, [other for other in left if other != card])
                    if rest is not None:
                        return [(card, meld), *rest]
        return None

    placed = place([tuple(meld) for meld in knocker_melds], sorted(layoffs))
    if placed is None:
        raise AssertionError(f"lay-offs {sorted(layoffs)} do not fit the knocker's melds {knocker_melds}")
    return placed


def ending_lines(ending: HandEnd) -> list[str]:
    """The showdown as the table sees it (R14-R19): each side's melds, the lay-offs, both hands, then
    ``end``. Each entry is one line; the EAAI host's question for the defender goes after the first."""
    if ending.kind == "dead":
        return [f"end dead {ending.winner} {ending.points}\n"]
    knocker, defender = ending.knocker, 1 - ending.knocker
    lines = [
        f"melds {knocker} {ending.knocker_deadwood} {' '.join(map(_meld, ending.knocker_melds))}".rstrip() + "\n",
        f"melds {defender} {ending.defender_deadwood} {' '.join(map(_meld, ending.defender_melds))}".rstrip() + "\n",
    ]
    for card, meld in layoff_targets(ending.knocker_melds, ending.layoffs):
        lines.append(f"layoff {defender} {card} {_meld(meld)}\n")
    for seat, hand in enumerate(ending.hands):
        lines.append(f"shown {seat} {_cards(hand)}\n")
    lines.append(f"end {ending.kind} {ending.winner} {ending.points}\n")
    return lines


# -- the strategy ----------------------------------------------------------------------------


class ProgramStrategy:
    """A :class:`~simgin.game.strategy.Strategy` played by a program over the line protocol.

    The engine makes a fresh object for each hand or game; the program behind it is the
    long-lived one of this spec and seat (:func:`program_for`). From one call to the next the
    object works out what happened in between from the views (the opponent's passes, takes,
    stock draws and discards, its own draw and last answer) and tells the program in order.
    """

    def __init__(self, spec: str, command: Sequence[str]) -> None:
        self.name = spec
        self.command = list(command)
        self.program: Program | None = None
        self.seat = 0
        self._previous: tuple[str, Any] = ("", None)
        self._stock = 0
        self._passed = self._took = self._discarded = 0
        self._drawn_turn = -1

    # -- what the program is told --

    def start_hand(self, view: PlayerView, rng: SplitMix64) -> None:
        self.program = program = program_for(self.name, view.seat, self.command)
        self.seat = view.seat
        self._previous = ("", None)
        self._stock = view.stock_count
        self._passed = self._took = self._discarded = 0
        self._drawn_turn = -1
        if program.rules != view.rules:
            program.send(rules_line(view.rules))
            program.rules = view.rules
        program.send(
            f"hand {view.seat} {view.dealer} {rng.state} {view.knock_limit} {view.up_card} {view.stock_count} "
            f"{view.scores[0]} {view.scores[1]} {_cards(view.hand)}\n"
        )

    def _events(self, view: PlayerView) -> str:
        """The lines for what happened since the last call, oldest first: this player's last move,
        the opponent's passes, take or stock draw and discard, then this player's draw."""
        me, other = self.seat, 1 - self.seat
        text = ""
        decision, answer = self._previous
        if decision:
            if decision == "discard":
                text = f"discard {me} {answer}\n"
            elif decision == "take_up_card" and answer is False:
                text = f"pass {me} {view.up_card}\n"
            self._previous = ("", None)
        if len(view.opponent_passed) > self._passed:
            text += "".join(f"pass {other} {card}\n" for card in view.opponent_passed[self._passed :])
            self._passed = len(view.opponent_passed)
        mine = view.drawn_card >= 0 and self._drawn_turn != view.turn
        if len(view.opponent_took) > self._took:
            text += "".join(f"take {other} {card}\n" for card in view.opponent_took[self._took :])
            self._took = len(view.opponent_took)
        stock_draws = self._stock - view.stock_count - (mine and not view.drawn_from_pile)
        if stock_draws:
            text += f"draw {other} -1\n" * stock_draws
        if len(view.opponent_discards) > self._discarded:
            text += "".join(f"discard {other} {card}\n" for card in view.opponent_discards[self._discarded :])
            self._discarded = len(view.opponent_discards)
        if mine:
            text += f"{'take' if view.drawn_from_pile else 'draw'} {me} {view.drawn_card}\n"
            self._drawn_turn = view.turn
        self._stock = view.stock_count
        return text

    def _ask(self, decision: str, view: PlayerView) -> str:
        program = self.program
        if program is None:
            raise ProgramError(f"asked {decision!r} before start_hand")
        question = (
            f"ask {decision} {view.turn} {view.drawn_card} {int(view.drawn_from_pile)} {int(view.fiftieth_card)}\n"
        )
        answer = program.ask(self._events(view) + question)
        if answer.startswith("error"):
            raise program.error_answer(answer, "")
        return answer

    def _ask_bool(self, decision: str, view: PlayerView) -> bool:
        answer = self._ask(decision, view).strip()
        if answer == "yes":
            value = True
        elif answer == "no":
            value = False
        else:
            assert self.program is not None
            raise self.program.error_answer(answer, "yes or no")
        self._previous = (decision, value)
        return value

    # -- the decisions --

    def take_up_card(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._ask_bool("take_up_card", view)

    def draw_from_pile(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._ask_bool("draw_from_pile", view)

    def discard(self, view: PlayerView, rng: SplitMix64) -> int:
        answer = self._ask("discard", view).strip()
        return self._card(answer)

    def _card(self, answer: str) -> int:
        try:
            card = int(answer)
        except ValueError:
            assert self.program is not None
            raise self.program.error_answer(answer, "a card 0-51") from None
        self._previous = ("discard", card)
        return card

    def knock(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._ask_bool("knock", view)

    def big_gin(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._ask_bool("big_gin", view)

    def take_fiftieth(self, view: PlayerView, rng: SplitMix64) -> bool:
        return self._ask_bool("take_fiftieth", view)

    def end_hand(self, view: PlayerView, rng: SplitMix64) -> None:
        """The hand is over: the last moves and the showdown go out with the next question."""
        program = self.program
        if program is None or view.ending is None:
            return
        program.send(self._events(view) + "".join(ending_lines(view.ending)))


# -- specs -----------------------------------------------------------------------------------


def parse_command(spec: str) -> list[str]:
    """The argv of an ``exec:COMMAND`` spec, split like a shell would (no shell runs it).

    >>> parse_command("exec:python3 bots/my_bot.py --depth 3")
    ['python3', 'bots/my_bot.py', '--depth', '3']
    """
    text = spec.strip()[len(PREFIX) :].strip()
    try:
        argv = shlex.split(text)
    except ValueError as error:
        raise ValueError(f"strategy {spec!r}: cannot split the command: {error}") from None
    if not argv:
        raise ValueError(f"strategy {spec!r} gives no command: write exec:COMMAND, e.g. 'exec:python3 my_bot.py'")
    program = argv[0]
    if shutil.which(program) is None:
        where = "no such file" if os.sep in program else "not found on PATH"
        raise ValueError(f"strategy {spec!r}: program {program!r} {where} (or not executable)")
    return argv


def handshake_name(spec: str) -> str:
    """The NAME an ``exec:`` program gives at the handshake (``simgin 1 NAME``), '' when it gives none.

    Starts the program, shakes hands and ends it; a program that fails raises :class:`ProgramError`.
    The text commands label the program's rows with it (issue 25: a long command misaligned them).
    """
    program = Program(spec, 0, parse_command(spec), current_settings())
    try:
        program.start()
        return program.name
    finally:
        program.close()


def program_info(spec: str) -> Any:
    """Registry info for an ``exec:`` spec (see :mod:`simgin.players.registry`)."""
    from functools import partial

    from simgin.players.registry import StrategyInfo

    spec = spec.strip()
    argv = parse_command(spec)
    return StrategyInfo(
        name=spec,
        description=f"a program speaking simgin's line protocol {PROTOCOL_VERSION}: {shlex.join(argv)}",
        kind="program",
        parameters=(),
        source="exec",
        factory=partial(ProgramStrategy, spec, argv),
    )


__all__ = [
    "DEFAULT_DECISION_TIMEOUT",
    "MAX_DECISION_TIMEOUT",
    "PROTOCOL_VERSION",
    "Program",
    "ProgramError",
    "ProgramSettings",
    "ProgramStartError",
    "ProgramStrategy",
    "ProgramTimeout",
    "close_programs",
    "configure",
    "ending_lines",
    "handshake_name",
    "is_meld",
    "layoff_targets",
    "parse_command",
    "program_for",
    "program_info",
    "rules_line",
]

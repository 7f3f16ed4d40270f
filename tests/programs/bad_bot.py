"""A test program that plays like examples/simple_bot.py until it misbehaves as told.

Usage: bad_bot.py MODE N [PID_DIR]. At its N-th question (counted over its whole life) it:
crash (writes to stderr and exits with code 3), hang (sleeps), stubborn (sleeps, ignoring
SIGTERM and stdin), garbage (answers 'maybe'), error (answers 'error ...'), illegal (discards
card 52), slow (answers after 1.5 s, then plays on). MODE version answers the handshake as
protocol 2, mute answers it with 'hello'; child starts a grandchild process that sleeps;
daemon starts a daemon that sleeps (setsid and a double fork: it leaves the program's session and
process group, and its parent exits), then answers 'maybe' at its N-th question; noisy writes 3 MB of
lines to stderr as it starts, then 'bad_bot: noise ends', and crashes like crash. With PID_DIR it
writes a file named after its pid there (and one for the grandchild or the daemon, whose command
line names PID_DIR).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
from simple_bot import Bot


def daemonize(pid_dir: Path | None) -> None:
    """Start a daemon the classic way; it sleeps for 10 minutes."""
    first = os.fork()
    if first:
        os.waitpid(first, 0)  # the intermediate process exits at once
        # Play on only once the daemon has said it runs, so that a test can count on its pid file.
        deadline = time.monotonic() + 20.0
        while pid_dir and time.monotonic() < deadline:
            if any(path.read_text() == "daemon" for path in pid_dir.iterdir() if path.is_file()):
                break
            time.sleep(0.01)
        return
    os.setsid()
    if os.fork():
        os._exit(0)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    if pid_dir:
        (pid_dir / str(os.getpid())).write_text("daemon")
    os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)", str(pid_dir)])


def main() -> None:
    mode, at = sys.argv[1], int(sys.argv[2])
    pid_dir = Path(sys.argv[3]) if len(sys.argv) > 3 else None
    if pid_dir:
        (pid_dir / str(os.getpid())).write_text("bot")
    if mode == "child":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        if pid_dir:
            (pid_dir / str(child.pid)).write_text("grandchild")
    if mode == "daemon":
        daemonize(pid_dir)
    if mode == "noisy":
        for index in range(30_000):
            sys.stderr.write(f"noise {index:06d} " + "x" * 87 + "\n")  # 100 bytes a line
        print("bad_bot: noise ends", file=sys.stderr, flush=True)
    bot = Bot()
    questions = 0
    for line in sys.stdin:
        words = line.split()
        if words[0] == "simgin":
            print({"version": "simgin 2 future", "mute": "hello"}.get(mode, "simgin 1 bad-bot"), flush=True)
        elif words[0] == "quit":
            return
        elif words[0] != "ask":
            bot.event(words)
        else:
            questions += 1
            answer = bot.ask(words)
            if questions == at:
                if mode in ("crash", "noisy"):
                    print("bad_bot: crashing on purpose", file=sys.stderr, flush=True)
                    sys.exit(3)
                if mode in ("hang", "stubborn"):
                    if mode == "stubborn":
                        signal.signal(signal.SIGTERM, signal.SIG_IGN)
                    time.sleep(600)
                if mode in ("garbage", "daemon"):
                    answer = "maybe"
                if mode == "error":
                    answer = "error out of ideas"
                if mode == "illegal" and words[1] == "discard":
                    answer = "52"
                if mode == "illegal" and words[1] != "discard":
                    at += 1
                if mode == "slow":
                    time.sleep(1.5)
            print(answer, flush=True)


if __name__ == "__main__":
    main()

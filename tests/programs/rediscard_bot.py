"""A test program that plays like examples/simple_bot.py but re-discards a king it just took from
the pile (R10 forbids it): the illegal move of the EAAI entry in issue 25, here on every hand where
it happens, so it depends on the deal alone (the same on any number of workers).

Usage: rediscard_bot.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
from simple_bot import Bot

KING = 12


def main() -> None:
    bot = Bot()
    for line in sys.stdin:
        words = line.split()
        if words[0] == "simgin":
            print("simgin 1 rediscard-bot", flush=True)
        elif words[0] == "quit":
            return
        elif words[0] != "ask":
            bot.event(words)
        else:
            answer = bot.ask(words)
            drawn, from_pile = int(words[3]), words[4] == "1"
            if words[1] == "discard" and from_pile and drawn % 13 == KING:
                answer = str(drawn)
            print(answer, flush=True)


if __name__ == "__main__":
    main()

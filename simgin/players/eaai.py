"""EAAI Java players, unmodified: ``eaai:CLASSPATH:CLASS`` plays any ``ginrummy.GinRummyPlayer``.

The EAAI Gin Rummy challenge framework (tneller/gin-rummy-eaai) defines the Java interface
``ginrummy.GinRummyPlayer``. simgin hosts such a player in a JVM running its own adapter,
``simgin/java/EaaiHost.java`` (written for simgin), which speaks simgin's line protocol
(docs/PROTOCOL.md) and turns each event and question into the call the EAAI game makes at
that point. The adapter is compiled with ``javac`` on first use, against the user's
classpath, into a cache (``$SIMGIN_CACHE_DIR`` or ``~/.cache/simgin``, folder
``java/<hash of the source and the JDK>``); without a JDK the spec is refused with a
one-line error.

CLASS is the text after the last colon of the spec and CLASSPATH the rest: it must hold the
EAAI framework (``ginrummy.Card``, ``ginrummy.GinRummyPlayer``) and the player, e.g.
``eaai:/opt/gin-rummy-eaai/classes:/opt/players:MyGinRummyPlayer``. The JVM runs with the
serial collector; other JVM options (a larger heap, say) go in ``JAVA_TOOL_OPTIONS``, which
every JVM reads.

The calls, in the order the EAAI game makes them:

- ``startGame(seat, startingPlayer, cards)`` at the deal; the starting player is the
  non-dealer, who is offered the up card first (R11);
- ``willDrawFaceUpCard(card)`` for the up-card offer (R11) and every draw decision (R9);
- ``reportDraw(player, card)`` for every draw, ``null`` for the opponent's stock draws;
- ``getDiscard()``, then ``reportDiscard`` to both players, then ``getFinalMelds()`` of the
  player who discarded: ``null`` plays on, melds knock (R12);
- after a knock: ``reportFinalMelds`` with the knocker's melds, ``getFinalMelds()`` of the
  opponent, ``reportFinalMelds`` with the opponent's melds, ``reportLayoff`` per laid-off card;
- at the end of every hand ``reportFinalHand`` (both hands after a knock, when they are face
  up; only the player's own after a dead hand, R15) and ``reportScores``.

What simgin checks, and what it chooses where the interface is silent:

- An illegal decision stops the run with the usual one-line error naming the strategy, the
  decision and the hand seed (or, under ``--on-illegal forfeit``, loses the player the game
  or hand, as the EAAI framework makes a player forfeit): a discard not held or just taken from the pile (R10), melds
  that are not legal melds of the player's own cards (R3-R5), a knock whose declared melds
  leave more deadwood than the knock limit (including a knock after a discard that leaves
  the hand over the limit, when simgin would not even have asked), and a knocker's opponent
  whose ``getFinalMelds()`` is ``null`` or illegal.
- The showdown is scored by the rule book (R14-R19): the knocker's and the opponent's melds
  are laid down as simgin's showdown arranges them (least deadwood, R6), and those are the
  melds reported. Declared melds are checked, not used for scoring.
- The interface has no knock limit, no 11-card start and no three- or four-player table, so
  a run with an 11-card start (V5), a knock limit other than 10 (V1) or Oklahoma (V9) is
  refused at its first hand, and three- or four-player tables (V11, V12) take only compiled
  bots. It has no big gin and no 50th-card action: an EAAI player declines both (V13, V7).
- ``reportScores`` gets the game scores before the hand plus the hand's points (with
  Hollywood scoring, V14, the sum over its three games).
"""

from __future__ import annotations

import hashlib
import importlib.resources
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from simgin.game.cards import card_value, format_card, format_cards
from simgin.game.melds import deadwood
from simgin.game.rng import SplitMix64
from simgin.game.rules import Rules
from simgin.game.strategy import PlayerView
from simgin.players.programs import ProgramError, ProgramStartError, ProgramStrategy, ending_lines, is_meld

PREFIX = "eaai:"
HOST_CLASS = "simgin.EaaiHost"
HOST_SOURCE = "EaaiHost.java"
#: The EAAI framework's knock limit (GinRummyUtil.MAX_DEADWOOD): the interface cannot say another.
EAAI_KNOCK_LIMIT = 10
_CLASS_NAME = re.compile(r"[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*")
JDK_HELP = "install a JDK (Debian: apt-get install default-jdk-headless) or set JAVA_HOME"


class UnsupportedRules(ProgramError):
    """The rules ask for something the EAAI interface cannot express."""


class IllegalMelds(ProgramError):
    """An EAAI player's declared melds are not legal, or its knock is over the limit.

    An illegal move, not a crash: the engine reports it as one (``IllegalMove``), which
    ``--on-illegal forfeit`` forfeits like an illegal discard.
    """

    illegal_move = True


def parse_spec(spec: str) -> tuple[str, str]:
    """(classpath, class) of an ``eaai:CLASSPATH:CLASS`` spec: the class is the text after the last colon.

    >>> parse_spec("eaai:/opt/eaai/classes:/opt/players:ginrummy.SimpleGinRummyPlayer")
    ('/opt/eaai/classes:/opt/players', 'ginrummy.SimpleGinRummyPlayer')
    """
    text = spec.strip()[len(PREFIX) :]
    classpath, sep, class_name = text.rpartition(":")
    if not sep or not classpath.strip() or not class_name.strip():
        raise ValueError(
            f"strategy {spec!r}: write eaai:CLASSPATH:CLASS, e.g. "
            "'eaai:gin-rummy-eaai/classes:ginrummy.SimpleGinRummyPlayer' (the class after the last colon)"
        )
    class_name = class_name.strip()
    if not _CLASS_NAME.fullmatch(class_name):
        raise ValueError(f"strategy {spec!r}: {class_name!r} is not a Java class name such as mypackage.MyPlayer")
    return classpath.strip(), class_name


def java_tools() -> tuple[str, str]:
    """Paths of ``javac`` and ``java``: from ``$JAVA_HOME/bin``, else the PATH; a ValueError names what is missing."""
    home = os.environ.get("JAVA_HOME")
    found = []
    for tool in ("javac", "java"):
        path = None
        if home:
            candidate = Path(home) / "bin" / tool
            path = str(candidate) if candidate.is_file() and os.access(candidate, os.X_OK) else None
        path = path or shutil.which(tool)
        if path is None:
            where = f"in JAVA_HOME ({home}) or on the PATH" if home else "on the PATH"
            raise ValueError(f"eaai: strategies need a Java JDK, and {tool!r} is not {where}: {JDK_HELP}")
        found.append(path)
    return found[0], found[1]


def cache_root() -> Path:
    """Where simgin keeps what it builds: ``$SIMGIN_CACHE_DIR``, else ``$XDG_CACHE_HOME/simgin``,
    else ``~/.cache/simgin``."""
    if os.environ.get("SIMGIN_CACHE_DIR"):
        return Path(os.environ["SIMGIN_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "simgin"


def host_source() -> str:
    return importlib.resources.files("simgin").joinpath("java", HOST_SOURCE).read_text(encoding="utf-8")


@lru_cache(maxsize=8)
def compiled_host(classpath: str) -> Path:
    """The folder of the compiled adapter, compiling it on first use (against ``classpath``, which
    must hold the EAAI framework). The folder name hashes the source and the JDK, so a new
    adapter or JDK compiles afresh; concurrent workers each compile and the first rename wins."""
    javac, java = java_tools()
    source = host_source()
    jdk = [f"{os.path.realpath(tool)}:{os.stat(tool).st_mtime_ns}" for tool in (javac, java)]
    stamp = hashlib.sha256("\n".join([source, *jdk]).encode()).hexdigest()[:16]
    target = cache_root() / "java" / stamp
    if (target / "simgin" / "EaaiHost.class").is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{stamp}-", dir=target.parent))
    try:
        (work / HOST_SOURCE).write_text(source, encoding="utf-8")
        classes = work / "classes"
        result = subprocess.run(
            [javac, "-nowarn", "-encoding", "UTF-8", "-cp", classpath, "-d", str(classes), str(work / HOST_SOURCE)],
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            errors = [line for line in result.stderr.splitlines() if "error:" in line] or result.stderr.splitlines()
            first = errors[0].split("error:", 1)[-1].strip() if errors else f"exit code {result.returncode}"
            raise ValueError(
                f"javac could not compile simgin's EAAI adapter with the classpath {classpath!r}: {first} "
                "(the classpath must hold the EAAI framework's ginrummy.Card and ginrummy.GinRummyPlayer)"
            )
        try:
            os.rename(classes, target)
        except OSError:
            if not (target / "simgin" / "EaaiHost.class").is_file():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


def host_command(classpath: str, class_name: str) -> list[str]:
    """The command that runs the adapter hosting ``class_name`` (compiling the adapter first if needed)."""
    _, java = java_tools()
    classes = compiled_host(classpath)
    return [
        java,
        "-XX:+UseSerialGC",
        "-Xshare:auto",
        "-cp",
        f"{classes}{os.pathsep}{classpath}",
        HOST_CLASS,
        class_name,
    ]


def program_info(spec: str) -> Any:
    """Registry info for an ``eaai:`` spec (see :mod:`simgin.players.registry`)."""
    from simgin.players.registry import StrategyInfo

    spec = spec.strip()
    classpath, class_name = parse_spec(spec)
    for entry in classpath.split(os.pathsep):
        if entry and "*" not in entry and not Path(entry).expanduser().exists():
            raise ValueError(f"strategy {spec!r}: classpath entry {entry!r} does not exist")
    java_tools()
    return StrategyInfo(
        name=spec,
        description=f"the EAAI Java player {class_name}, hosted by simgin's adapter",
        kind="program",
        parameters=(),
        source="eaai",
        factory=partial(EaaiStrategy, spec, classpath, class_name),
    )


def check_rules(rules: Rules) -> None:
    """Refuse rules the EAAI interface cannot express (V1, V5, V9); V7 and V13 are declined instead."""
    if rules.eleven_card_start:
        raise UnsupportedRules(
            "the EAAI interface deals 10 cards and an up card, so it cannot play the 11-card start (V5): "
            "set eleven_card_start=false"
        )
    if rules.oklahoma:
        raise UnsupportedRules(
            "the EAAI interface has a fixed knock limit of 10, so it cannot play Oklahoma (V9): set oklahoma=false"
        )
    if rules.knock_limit != EAAI_KNOCK_LIMIT:
        raise UnsupportedRules(
            f"the EAAI interface has a fixed knock limit of {EAAI_KNOCK_LIMIT}, so it cannot play "
            f"knock_limit={rules.knock_limit} (V1): set knock_limit=10"
        )


def _shown(melds: Sequence[Sequence[int]]) -> str:
    return " ".join("[" + format_cards(meld) + "]" for meld in melds) or "no melds"


def parse_melds(text: str) -> list[list[int]]:
    """Melds as the adapter writes them: ``MELD ...`` with each MELD's card numbers joined by commas."""
    return [[int(card) for card in word.split(",")] for word in text.split()]


def melds_problem(melds: Sequence[Sequence[int]], cards: Sequence[int]) -> str | None:
    """Why ``melds`` are not legal melds of ``cards`` (R3-R5), or None."""
    held = set(cards)
    used: set[int] = set()
    for meld in melds:
        for card in meld:
            if not 0 <= card < 52:
                return f"{card} is not a card"
            if card not in held:
                return f"{format_card(card)} is not held"
            if card in used:
                return f"{format_card(card)} is in two melds (R5)"
        if not is_meld(meld):
            return f"[{format_cards(meld)}] is not a set or a run (R3, R4)"
        used.update(meld)
    return None


def declared_deadwood(melds: Sequence[Sequence[int]], cards: Sequence[int]) -> int:
    """The deadwood of ``cards`` with exactly the declared melds laid down."""
    melded = {card for meld in melds for card in meld}
    return sum(card_value(card) for card in cards if card not in melded)


class EaaiStrategy(ProgramStrategy):
    """An EAAI Java player behind simgin's adapter (see the module docstring for the call sequence)."""

    def __init__(self, spec: str, classpath: str, class_name: str) -> None:
        super().__init__(spec, [])
        self.classpath = classpath
        self.class_name = class_name
        self._knock_melds: list[list[int]] | None = None

    def start_hand(self, view: PlayerView, rng: SplitMix64) -> None:
        check_rules(view.rules)
        if not self.command:
            try:
                self.command = host_command(self.classpath, self.class_name)
            except ValueError as error:
                raise ProgramStartError(str(error)) from None
        self._knock_melds = None
        super().start_hand(view, rng)

    def discard(self, view: PlayerView, rng: SplitMix64) -> int:
        """getDiscard, then getFinalMelds: a knock declared here is answered in :meth:`knock`, or is
        illegal now when the hand after the discard is over the knock limit (simgin would not ask)."""
        answer = self._ask("discard", view).strip()
        card_text, _, rest = answer.partition(" ")
        card = self._card(card_text)
        self._knock_melds = None
        if rest:
            word, _, melds_text = rest.partition(" ")
            if word != "knock":
                assert self.program is not None
                raise self.program.error_answer(answer, "CARD or CARD knock MELD ...")
            self._knock_melds = parse_melds(melds_text)
        just_taken = view.drawn_from_pile and card == view.drawn_card and not view.rules.rediscard_taken_card
        if self._knock_melds is None or card not in view.hand or just_taken:
            return card  # the engine judges the discard itself
        left = [other for other in view.hand if other != card]
        if deadwood(left) > view.knock_limit:
            self._check_knock(left, view.knock_limit, f"after discarding {format_card(card)}, ")
        return card

    def _check_knock(self, cards: Sequence[int], knock_limit: int, when: str = "") -> None:
        melds = self._knock_melds or []
        problem = melds_problem(melds, cards)
        if problem:
            raise IllegalMelds(f"{when}it knocked with melds {_shown(melds)}: {problem}")
        left = declared_deadwood(melds, cards)
        if left > knock_limit:
            raise IllegalMelds(
                f"{when}it knocked with melds {_shown(melds)}, leaving deadwood {left}, over the knock limit "
                f"{knock_limit} (R12)"
            )

    def knock(self, view: PlayerView, rng: SplitMix64) -> bool:
        """The answer getFinalMelds gave after the discard: melds knock (if legal), null plays on."""
        if self._knock_melds is None:
            return False
        self._check_knock(view.hand, view.knock_limit)
        return True

    def big_gin(self, view: PlayerView, rng: SplitMix64) -> bool:
        """The interface has no big gin (V13): declined, the player discards as usual."""
        return False

    def take_fiftieth(self, view: PlayerView, rng: SplitMix64) -> bool:
        """The interface has no 50th-card action (V7): declined."""
        return False

    def end_hand(self, view: PlayerView, rng: SplitMix64) -> None:
        """The showdown's calls; the knocker's opponent is asked for its melds after the knocker's."""
        program, ending = self.program, view.ending
        if program is None or ending is None:
            return
        lines = ending_lines(ending)
        if ending.kind == "dead" or ending.knocker == self.seat:
            program.send(self._events(view) + "".join(lines))
            return
        answer = program.ask(self._events(view) + lines[0] + "ask melds\n").strip()
        if answer.startswith("error"):
            raise program.error_answer(answer, "")
        if answer == "none":
            raise IllegalMelds("getFinalMelds returned null after the opponent knocked; it must return its melds")
        try:
            melds = parse_melds(answer)
        except ValueError:
            raise program.error_answer(answer, "MELD ... (card numbers joined by commas)") from None
        problem = melds_problem(melds, ending.hands[self.seat])
        if problem:
            raise IllegalMelds(f"its final melds {_shown(melds)} after the opponent knocked: {problem}")
        program.send("".join(lines[1:]))


__all__ = [
    "EAAI_KNOCK_LIMIT",
    "EaaiStrategy",
    "IllegalMelds",
    "UnsupportedRules",
    "cache_root",
    "check_rules",
    "compiled_host",
    "host_command",
    "java_tools",
    "melds_problem",
    "parse_spec",
    "program_info",
]

"""A run's settings and how they cut into chunks: which players, rules and counts, and the seed of every unit.

A run plays ``hands`` or ``games`` per pairing, in *units* (a deal played once, or once per seating with
duplicate deals), cut into chunks whose seeds are the children of the run's ``SeedSequence``: chunk
boundaries fix the seeds, so they are part of the settings. Everything here is pure and cheap; playing
the chunks is :mod:`simgin.running.runner`'s job.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import math
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from simgin.game.multiplayer import TABLES, Sums, seatings
from simgin.game.rng import derive_range
from simgin.game.rules import Rules, as_rules, whole_number
from simgin.running.tally import Tally

#: Units per chunk: part of a run's settings, since chunk boundaries fix the seeds.
HANDS_PER_CHUNK = 20_000
GAMES_PER_CHUNK = 1_000
#: Most hands, or games, per pairing: every count in a tally stays exact (float64 sums, below 2**53).
MAX_HANDS = 10**12
MAX_GAMES = 10**11
#: Seeds are 64-bit.
MAX_SEED = 2**64 - 1
#: What an illegal move does (``--on-illegal``): stop the run with one line naming the strategy, the
#: decision and the hand seed, or forfeit (the offender loses the game in progress, or the hand).
ON_ILLEGAL = ("stop", "forfeit")


@dataclass(frozen=True)
class RunConfig:
    """Everything that determines a run's results (workers and backend do not)."""

    players: tuple[str, ...]
    rules: Rules = field(default_factory=Rules)
    hands: int | None = None
    games: int | None = None
    seed: int = 0
    duplicate: bool = True
    chunk_units: int | None = None
    table: str = "pairs"
    """'pairs' (two-player matches, a round robin for more players), 'three' (V11) or 'teams' (V12)."""
    on_illegal: str = "stop"
    """What an illegal move does (:data:`ON_ILLEGAL`): ``'stop'`` the run (the default, for every
    kind of strategy), or ``'forfeit'``: the player who made it loses the game in progress
    (:meth:`~simgin.game.reference_engine.Scoreboard.forfeit`), or the hand in a run of hands (won
    by the other player for 0 points), and play goes on. Only illegal moves forfeit; a strategy
    that raises, or a program that crashes or times out, still stops the run. Three- and
    four-player tables seat compiled bots only, which make no illegal moves: there it changes nothing."""
    adjust_luck: bool = False
    """Also tally each unit's luck-adjusted results (issue 35, ``simgin.game.luck``): the plain results minus the
    corrections at the deal and at each stock draw. Two-player runs of hands only, for now."""

    def __post_init__(self) -> None:
        if not isinstance(self.rules, Rules):  # issue 32 item 27: named, not an AttributeError further on
            as_rules(self.rules)  # a TypeError naming rules and what is allowed (a preset name is converted earlier)
            raise TypeError(f"rules={self.rules!r}: give a Rules (RunConfig takes no preset name)")
        for name in ("hands", "games", "chunk_units"):
            if getattr(self, name) is not None:
                whole_number(getattr(self, name), name)  # hands=10.5 is refused, as the CLI refuses --hands 1.5
        whole_number(self.seed, "seed")
        if self.on_illegal not in ON_ILLEGAL:
            raise ValueError(f"on_illegal={self.on_illegal!r}: choose from {', '.join(ON_ILLEGAL)}")
        if self.table not in TABLES:
            raise ValueError(f"table={self.table!r}: choose from {', '.join(TABLES)}")
        self.rules.check_table(self.table)
        needed = {"pairs": None, "three": 3, "teams": 4}[self.table]
        if len(self.players) < 2 or (needed is not None and len(self.players) != needed):
            wanted = f"exactly {needed}" if needed else "at least two"
            raise ValueError(f"need {wanted} players for a {self.table} table, got {len(self.players)}")
        if (self.hands is None) == (self.games is None):
            raise ValueError("give exactly one of hands or games")
        count = self.count
        check_bounds(f"{self.mode}={count}", count, 1, MOST_UNITS[self.mode], COUNT_BOUND)
        if self.table != "pairs" and self.mode != "games":
            raise ValueError(f"a {self.table} table plays whole games: give games, not hands")
        if self.duplicate and count % self.legs:
            need = "even" if self.legs == 2 else f"a multiple of {self.legs}"
            raise ValueError(
                f"{self.mode}={count}: must be {need} with duplicate deals "
                f"(each deal is played in {self.legs} seatings)"
            )
        check_bounds(f"seed={self.seed}", self.seed, 0, MAX_SEED, SEED_BOUND)
        if self.chunk_units is not None:
            check_bounds(f"chunk_units={self.chunk_units}", self.chunk_units, 1, MAX_HANDS)
        for name in ("duplicate", "adjust_luck"):  # a truthy "yes" or 1 is not taken for True
            value = getattr(self, name)
            if not isinstance(value, (bool, np.bool_)):
                raise TypeError(f"{name}={value!r}: give True or False")
            object.__setattr__(self, name, bool(value))  # numpy's bool as Python's (the result is JSON)
        if self.adjust_luck and (self.table != "pairs" or self.mode != "hands"):
            what = f"a {self.table} table" if self.table != "pairs" else "a run of games"
            raise ValueError(f"adjust_luck: applies to two-player runs of hands (--hands) for now, not to {what}")

    @property
    def mode(self) -> str:
        return "hands" if self.hands is not None else "games"

    @property
    def count(self) -> int:
        """Hands or games per pairing."""
        return int(self.hands if self.hands is not None else self.games)  # type: ignore[arg-type]

    @property
    def legs(self) -> int:
        """How many times each deal is played: once, or once per seating with duplicate deals."""
        if not self.duplicate:
            return 1
        return 2 if self.table == "pairs" else len(seatings(self.table))

    @property
    def units(self) -> int:
        """Units per pairing: deals (or duplicate sets of deals, one per seating)."""
        return self.count // self.legs

    @property
    def units_per_chunk(self) -> int:
        if self.chunk_units is not None:
            return self.chunk_units
        per_chunk = HANDS_PER_CHUNK if self.mode == "hands" else GAMES_PER_CHUNK
        return max(per_chunk // self.legs, 1)

    @property
    def chunk_count(self) -> int:
        return math.ceil(self.units / self.units_per_chunk)

    @property
    def pairings(self) -> list[tuple[int, ...]]:
        """Every pair of players once (round robin), in order; a three or teams table is one 'pairing' of all."""
        if self.table != "pairs":
            return [tuple(range(len(self.players)))]
        return list(itertools.combinations(range(len(self.players)), 2))

    def tally_type(self) -> type:
        """What a chunk of this run sums into: a :class:`Tally` (two players) or :class:`Sums` (tables)."""
        return Tally if self.table == "pairs" else Sums

    def to_dict(self) -> dict[str, Any]:
        """The settings as JSON; ``on_illegal`` only when it is ``'forfeit'`` and ``adjust_luck`` only when set,
        so that a run keeps the digest it had before the options existed (its directory resumes)."""
        data = asdict(self)
        data["players"] = list(self.players)
        data["rules"] = self.rules.to_dict()
        data["units_per_chunk"] = self.units_per_chunk
        if self.on_illegal == "stop":
            del data["on_illegal"]
        if not self.adjust_luck:
            del data["adjust_luck"]  # a run without it keeps the digest it had before the option existed
        return data

    def digest(self) -> str:
        """A short hash of :meth:`to_dict`: the identity of the run that every chunk record carries."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:32]


def check_bounds(label: str, value: int, low: int, high: int, what: str = "") -> None:
    """A ValueError ``LABEL: must be between LOW and HIGH WHAT`` unless ``low <= value <= high``: the one
    wording of a bound, for the library (``hands=0``) and the commands (``--hands 0``) alike."""
    if not low <= value <= high:
        raise ValueError(f"{label}: must be between {low:,} and {high:,}{what}")


SEED_BOUND = " (a 64-bit seed)"
"""What a seed's bound says after the range."""

COUNT_BOUND = " per pairing"
"""What the bound on hands or games says after the range."""

MOST_UNITS = {"hands": MAX_HANDS, "games": MAX_GAMES}
"""The most hands, or games, a run plays per pairing."""


def chunk_seed(seed: int, chunk_index: int) -> int:
    """The seed of chunk ``chunk_index``: child ``chunk_index`` of ``SeedSequence(seed)``."""
    child = np.random.SeedSequence(seed, spawn_key=(chunk_index,))
    return int(child.generate_state(1, dtype=np.uint64)[0])


@dataclass(frozen=True)
class Chunk:
    """One piece of work: a range of units of one pairing."""

    pairing_index: int
    chunk_index: int
    seed: int
    unit_count: int
    cell_index: int = 0
    """Which run of a sweep (grid cell) the chunk belongs to; 0 for a single run."""

    @property
    def key(self) -> str:
        return f"s{self.cell_index:03d}-p{self.pairing_index:03d}-c{self.chunk_index:06d}"


def make_chunk(config: RunConfig, pairing_index: int, chunk_index: int, cell_index: int = 0) -> Chunk:
    """Chunk ``chunk_index`` of pairing ``pairing_index``: its seed and its number of units."""
    per_chunk = config.units_per_chunk
    units = min(per_chunk, config.units - chunk_index * per_chunk)
    return Chunk(pairing_index, chunk_index, chunk_seed(config.seed, chunk_index), units, cell_index)


def iter_chunks(config: RunConfig, cell_index: int = 0) -> Iterator[Chunk]:
    """The chunks of a run in play order, one at a time: chunk by chunk, every pairing on the same seeds."""
    pairings = len(config.pairings)
    for chunk_index in range(config.chunk_count):
        first = make_chunk(config, 0, chunk_index, cell_index)
        for pairing_index in range(pairings):
            yield dataclasses.replace(first, pairing_index=pairing_index)


def plan_chunks(config: RunConfig, cell_index: int = 0) -> list[Chunk]:
    """All chunks of a run in play order (:func:`iter_chunks` as a list)."""
    return list(iter_chunks(config, cell_index))


def unit_seeds(chunk: Chunk, first: int = 0, stop: int | None = None) -> np.ndarray:
    """Unit ``j`` of a chunk has seed ``derive(chunk.seed, j)``: those of units ``first`` to ``stop`` (the whole
    chunk by default)."""
    return derive_range(chunk.seed, first, chunk.unit_count if stop is None else stop)

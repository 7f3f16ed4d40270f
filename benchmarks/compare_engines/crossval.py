"""Cross-validation of simgin's deadwood against OpenSpiel's and RLCard's meld utilities (issue 6).

Three checks, each on seeded random hands, compare simgin with another engine hand by hand:

- **10-card deadwood**: ``simgin.game.melds.deadwood_batch`` against the engine's minimum-deadwood
  function for 10 cards (OpenSpiel: ``GinRummyUtils.min_deadwood``; RLCard:
  ``melding.get_best_meld_clusters`` then ``utils.get_deadwood_count``).
- **11-card best discard**: ``simgin.game.melds.best_discard_batch`` against the exact answer built
  from the engine's 10-card function: the minimum over the 11 discards
  (:func:`best_discard_from_ten`), ties going to the lowest card as in simgin.
- **The engine's own 11-card function**, the one its game uses to decide whether a knock is
  legal: OpenSpiel's ``min_deadwood`` on 11 cards (best meld group, then the highest
  deadwood card thrown away) and RLCard's ``judge.get_going_out_cards`` (the discards that
  allow a knock or gin).

Each check runs on two samples: ``uniform`` hands (cards from a shuffled deck) and ``dense``
hands (cards from 6 consecutive ranks, so most hands hold several overlapping melds: the
cases where an arrangement search can go wrong). Every disagreement is printed with the
hand, both answers and the rule book's answer from the brute force of ``tests/reference.py``
(every arrangement of disjoint melds enumerated), which says who is right.

Card encodings (each engine's own source, read for this mapping):

- simgin: ``card = suit * 13 + rank``, rank 0 = ace, suits C D H S (``simgin.game.cards``).
- OpenSpiel ``gin_rummy``: ``card = suit * 13 + rank``, rank 0 = ace, suits s c d h
  (``kSuitChar = "scdh"`` in ``gin_rummy_utils.cc``); ``GinRummyUtils.card_string`` names a
  card like ``"Th"``.
- RLCard ``gin-rummy``: ``card_id = suit * 13 + rank``, rank 0 = ace, suits S H D C
  (``Card.valid_suit`` in ``rlcard/games/base.py``, ``get_card_id`` in
  ``rlcard/games/gin_rummy/utils/utils.py``); ``str(card)`` names it like ``"TH"``.

Deadwood does not depend on which suit is which, but the maps keep every card itself, so the
hands printed in each engine's own card names are the same cards; :func:`check_encoding`
verifies that against the engine's own naming function before any check runs.

The engines are called as libraries (``pip install open-spiel rlcard``); nothing of theirs is
copied here. Run through ``benchmarks.compare_engines``, or alone::

    python -m benchmarks.compare_engines.crossval            # 100,000 uniform + 20,000 dense hands per size
    python -m benchmarks.compare_engines.crossval --quick    # 2,000 + 500 (a smoke test)
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simgin.game.cards import RANK_COUNT, format_card, format_cards
from simgin.game.melds import best_discard_batch, deadwood_batch, discard_deadwoods

ROOT = Path(__file__).resolve().parent.parent
SEED = 20240611
KNOCK_LIMIT = 10  # both engines' default knock card, and the rule book's (R12)
DENSE_RANK_WINDOW = 6  # dense hands take their cards from this many consecutive ranks (24 cards)

#: OpenSpiel's suit index of each simgin suit (simgin C D H S -> OpenSpiel's order s c d h).
OPENSPIEL_SUIT = (1, 2, 3, 0)
#: RLCard's suit index of each simgin suit (simgin C D H S -> RLCard's order S H D C).
RLCARD_SUIT = (3, 2, 1, 0)

CHECK_TEN = "10-card deadwood"
CHECK_ELEVEN = "11-card best discard (exact: min over the 11 discards of the 10-card function)"
SAMPLES = ("uniform", "dense")

TenCardDeadwood = Callable[[Sequence[int]], int]


def _convert(card: int, suits: Sequence[int]) -> int:
    return suits[card // RANK_COUNT] * RANK_COUNT + card % RANK_COUNT


def to_openspiel(card: int) -> int:
    """OpenSpiel's id of a simgin card (same rank, suit moved to OpenSpiel's s c d h order).

    >>> from simgin.game.cards import parse_card
    >>> to_openspiel(parse_card("AS")), to_openspiel(parse_card("AC")), to_openspiel(parse_card("KH"))
    (0, 13, 51)
    """
    return _convert(card, OPENSPIEL_SUIT)


def from_openspiel(card: int) -> int:
    """The simgin card of an OpenSpiel card id (the inverse of :func:`to_openspiel`)."""
    return _convert(card, [OPENSPIEL_SUIT.index(suit) for suit in range(4)])


def to_rlcard(card: int) -> int:
    """RLCard's ``card_id`` of a simgin card (same rank, suit moved to RLCard's S H D C order).

    >>> from simgin.game.cards import parse_card
    >>> to_rlcard(parse_card("AS")), to_rlcard(parse_card("AC")), to_rlcard(parse_card("KH"))
    (0, 39, 25)
    """
    return _convert(card, RLCARD_SUIT)


def from_rlcard(card: int) -> int:
    """The simgin card of an RLCard ``card_id`` (the inverse of :func:`to_rlcard`)."""
    return _convert(card, [RLCARD_SUIT.index(suit) for suit in range(4)])


# -- hands --------------------------------------------------------------------------------


SAMPLE_BLOCK = 50_000  # hands drawn per block, so a million hands need no gigabyte of random keys


def _subsets(rng: np.random.Generator, count: int, size: int, universe: int) -> np.ndarray:
    """``count`` uniform random subsets of ``size`` of ``range(universe)``, one per row (int64)."""
    blocks = [np.empty((0, size), dtype=np.int64)]
    for start in range(0, count, SAMPLE_BLOCK):
        keys = rng.random((min(SAMPLE_BLOCK, count - start), universe))
        blocks.append(np.argpartition(keys, size - 1, axis=1)[:, :size].astype(np.int64))
    return np.concatenate(blocks)


def uniform_hands(count: int, size: int, seed: int) -> np.ndarray:
    """``count`` hands of ``size`` distinct cards, each as from a fresh shuffle (int64, simgin cards)."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, size, 0]))
    return _subsets(rng, count, size, 52)


def dense_hands(count: int, size: int, seed: int, window: int = DENSE_RANK_WINDOW) -> np.ndarray:
    """``count`` hands of ``size`` cards drawn from ``window`` consecutive ranks of all four suits.

    Such hands hold several overlapping sets and runs, the hard cases for a meld search.
    """
    if size > 4 * window:
        raise ValueError(f"size={size}: a window of {window} ranks holds only {4 * window} cards")
    rng = np.random.default_rng(np.random.SeedSequence([seed, size, 1]))
    low = rng.integers(0, RANK_COUNT - window + 1, size=count)
    picks = _subsets(rng, count, size, 4 * window)
    return picks // window * RANK_COUNT + low[:, None] + picks % window


def hand_masks(hands: np.ndarray) -> np.ndarray:
    """The int64 hand mask of each row of simgin cards."""
    return np.bitwise_or.reduce(np.left_shift(np.int64(1), hands.astype(np.int64)), axis=1)


# -- answers --------------------------------------------------------------------------------


@dataclass(frozen=True)
class GoingOut:
    """Which discards of an 11-card hand allow going out: gin, else the knock discards (R12, R13)."""

    gin: bool
    knock_cards: tuple[int, ...] = ()


Answer = int | tuple[int, int] | GoingOut


def best_discard_from_ten(hand: Sequence[int], ten_card_deadwood: TenCardDeadwood) -> tuple[int, int]:
    """The exact best discard of an 11-card hand from a 10-card deadwood function.

    Calls ``ten_card_deadwood`` on each of the 11 ten-card hands and keeps the least deadwood;
    among equally good discards the lowest card wins, as in ``simgin.best_discard``.

    >>> import simgin
    >>> from simgin.game.cards import parse_cards
    >>> hand = parse_cards("AS 2S 3S 7C 7D 7H TD JD QD KH KC")
    >>> best_discard_from_ten(hand, simgin.deadwood) == simgin.best_discard(hand)
    True
    """
    cards = [int(card) for card in hand]
    best: tuple[int, int] | None = None
    for card in sorted(cards):
        left = int(ten_card_deadwood([other for other in cards if other != card]))
        if best is None or left < best[1]:
            best = (card, left)
    if best is None:
        raise ValueError("an empty hand has no discard")
    return best


def going_out_of(deadwood_after: dict[int, int], knock_limit: int = KNOCK_LIMIT) -> GoingOut:
    """Gin when some discard leaves no deadwood; else the discards leaving at most ``knock_limit``."""
    if min(deadwood_after.values()) == 0:
        return GoingOut(True)
    return GoingOut(False, tuple(sorted(card for card, left in deadwood_after.items() if left <= knock_limit)))


def _reference() -> Any:
    """``tests/reference.py``: the brute force that is the rule book in code (run from the repository root)."""
    return importlib.import_module("tests.reference")


def rule_book_deadwood(hand: Sequence[int]) -> int:
    """R6 by brute force: the least deadwood over every arrangement of disjoint melds."""
    return int(_reference().deadwood(hand))


def rule_book_best_discard(hand: Sequence[int]) -> tuple[int, int]:
    """The lowest discard leaving the least deadwood, by brute force."""
    after = _reference().best_discard_deadwoods(hand)
    left = min(after.values())
    return min(card for card, value in after.items() if value == left), left


def rule_book_going_out(hand: Sequence[int]) -> GoingOut:
    """Going out (gin or knock discards) by brute force."""
    return going_out_of(_reference().best_discard_deadwoods(hand))


def rule_book_arrangement(hand: Sequence[int]) -> str:
    """One minimum-deadwood arrangement of a hand by brute force, e.g. ``'[AS 2S 3S] | 9C (9)'``."""
    reference = _reference()
    arrangement = reference.min_arrangements(hand)[0]
    melded = set().union(*arrangement)
    melds = sorted((sorted(meld) for meld in arrangement), key=lambda meld: meld[0])
    loose = sorted(card for card in hand if card not in melded)
    shown = " ".join(f"[{format_cards(meld)}]" for meld in melds)
    return f"{shown} | {format_cards(loose)} ({reference.total_value(loose)})".strip()


def rule_book_eleven_deadwood(hand: Sequence[int]) -> int:
    """The least deadwood left after discarding one card of 11, by brute force."""
    return rule_book_best_discard(hand)[1]


def rule_book_detail(hand: Sequence[int]) -> str:
    """A minimum-deadwood arrangement by brute force (after the best discard for 11 cards)."""
    if len(hand) == 11:
        card, _ = rule_book_best_discard(hand)
        rest = [other for other in hand if other != card]
        return f"e.g. discard {format_card(card)}: {rule_book_arrangement(rest)}"
    return f"e.g. {rule_book_arrangement(hand)}"


def describe_answer(answer: Answer) -> str:
    """An answer in words: ``'deadwood 5'``, ``'discard 7C, deadwood 5 left'``, ``'gin'`` ..."""
    if isinstance(answer, GoingOut):
        if answer.gin:
            return "gin"
        if answer.knock_cards:
            return f"knock after discarding any of {format_cards(list(answer.knock_cards))}"
        return "no knock"
    if isinstance(answer, tuple):
        return f"discard {format_card(answer[0])}, deadwood {answer[1]} left"
    return f"deadwood {answer}"


# -- engines -------------------------------------------------------------------------------


@dataclass(frozen=True)
class EngineAdapter:
    """Another engine's meld utilities, called on simgin cards.

    ``ten_card_deadwood`` is the engine's 10-card minimum deadwood; ``card_name`` names a
    simgin card with the engine's own naming function (after the encoding map);
    ``own_eleven`` is the engine's own 11-card function, answering like ``own_eleven_kind``
    ("deadwood": the deadwood left after the best discard; "going_out": a :class:`GoingOut`).
    """

    name: str
    version: str
    ten_card_deadwood: TenCardDeadwood
    card_name: Callable[[int], str] = format_card
    own_eleven: Callable[[Sequence[int]], Answer] | None = None
    own_eleven_kind: str = "deadwood"
    own_eleven_label: str = ""


def package_version(name: str) -> str:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def openspiel_adapter() -> EngineAdapter:
    """OpenSpiel's ``pyspiel.gin_rummy.GinRummyUtils`` (13 ranks, 4 suits, 10-card hands)."""
    import pyspiel

    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)

    def ten_card_deadwood(cards: Sequence[int]) -> int:
        return utils.min_deadwood([to_openspiel(card) for card in cards])

    def own_eleven(cards: Sequence[int]) -> int:
        return utils.min_deadwood([to_openspiel(card) for card in cards])

    return EngineAdapter(
        name="OpenSpiel",
        version=package_version("open-spiel"),
        ten_card_deadwood=ten_card_deadwood,
        card_name=lambda card: utils.card_string(to_openspiel(card)),
        own_eleven=own_eleven,
        own_eleven_kind="deadwood",
        own_eleven_label="11-card `GinRummyUtils.min_deadwood` (OpenSpiel's own; its game uses it for knock legality)",
    )


def rlcard_adapter() -> EngineAdapter:
    """RLCard's ``rlcard.games.gin_rummy`` melding utilities."""
    from rlcard.games.gin_rummy import judge
    from rlcard.games.gin_rummy.utils import melding, utils as rl_utils

    deck = rl_utils.get_deck()  # RLCard's cards in card_id order

    def ten_card_deadwood(cards: Sequence[int]) -> int:
        hand = [deck[to_rlcard(card)] for card in cards]
        best = melding.get_best_meld_clusters(hand=hand)
        return rl_utils.get_deadwood_count(hand, best[0] if best else [])

    def own_eleven(cards: Sequence[int]) -> GoingOut:
        hand = [deck[to_rlcard(card)] for card in cards]
        knock, gin = judge.get_going_out_cards(hand, KNOCK_LIMIT)
        if gin:
            return GoingOut(True)
        return GoingOut(False, tuple(sorted(from_rlcard(rl_utils.get_card_id(card)) for card in knock)))

    return EngineAdapter(
        name="RLCard",
        version=package_version("rlcard"),
        ten_card_deadwood=ten_card_deadwood,
        card_name=lambda card: str(deck[to_rlcard(card)]),
        own_eleven=own_eleven,
        own_eleven_kind="going_out",
        own_eleven_label="11-card `judge.get_going_out_cards` (RLCard's own; its judge uses it for knock and gin)",
    )


def available_adapters() -> tuple[list[EngineAdapter], list[str]]:
    """The engines that import here, and a note for each that does not."""
    adapters, missing = [], []
    for make, package in ((openspiel_adapter, "open-spiel"), (rlcard_adapter, "rlcard")):
        try:
            adapters.append(make())
        except ImportError as error:
            missing.append(f"{package} ({error})")
    return adapters, missing


def check_encoding(adapter: EngineAdapter) -> list[str]:
    """Cards whose name in the engine differs from simgin's (empty when the map is right).

    The engine's own name of the mapped card must read like simgin's name, suit letter
    case aside: simgin's ``TH`` is OpenSpiel's ``Th`` and RLCard's ``TH``.
    """
    return [
        f"{format_card(card)} -> {adapter.card_name(card)}"
        for card in range(52)
        if adapter.card_name(card).upper() != format_card(card)
    ]


# -- checking and printing -----------------------------------------------------------------


@dataclass(frozen=True)
class Disagreement:
    """One hand on which simgin and another engine answer differently."""

    engine: str
    check: str
    sample: str
    index: int
    hand: tuple[int, ...]
    simgin: Answer
    other: Answer
    rule_book: Answer
    engine_names: str = ""
    rule_book_detail: str = ""

    @property
    def engine_wrong(self) -> bool:
        return self.other != self.rule_book

    @property
    def simgin_wrong(self) -> bool:
        return self.simgin != self.rule_book

    @property
    def changes_knock(self) -> bool:
        """Whether the engine's answer and the rule book's fall on different sides of the knock limit."""
        return _can_knock(self.other) != _can_knock(self.rule_book)


def _can_knock(answer: Answer) -> bool | GoingOut:
    if isinstance(answer, GoingOut):
        return answer
    left = answer[1] if isinstance(answer, tuple) else answer
    return left <= KNOCK_LIMIT


def format_disagreement(found: Disagreement) -> str:
    """A disagreement in a few lines: the hand, both answers, the rule book's answer and who is right."""
    wrong = [name for name, bad in ((found.engine, found.engine_wrong), ("simgin", found.simgin_wrong)) if bad]
    if not wrong:
        verdict = "both agree with the rule book (the answers differ only where the rule book allows either)"
    else:
        verdict = f"{' and '.join(wrong)} {'disagrees' if len(wrong) == 1 else 'disagree'} with the rule book"
    if found.changes_knock:
        verdict += f"; {found.engine}'s answer changes whether a knock is legal (limit {KNOCK_LIMIT})"
    lines = [
        f"DISAGREEMENT {found.engine} | {found.check} | {found.sample} hand #{found.index}",
        f"  hand: {format_cards(list(found.hand))}"
        + (f"  ({found.engine}'s names: {found.engine_names})" if found.engine_names else ""),
        f"  simgin: {describe_answer(found.simgin)}; {found.engine}: {describe_answer(found.other)}",
        f"  rule book (brute force, tests/reference.py): {describe_answer(found.rule_book)}"
        + (f"; {found.rule_book_detail}" if found.rule_book_detail else ""),
        f"  verdict: {verdict}",
    ]
    return "\n".join(lines)


@dataclass
class CheckResult:
    """How one check went on one sample."""

    engine: str
    check: str
    sample: str
    hand_count: int
    seconds: float
    disagreements: list[Disagreement] = field(default_factory=list)

    @property
    def engine_wrong(self) -> int:
        return sum(found.engine_wrong for found in self.disagreements)

    @property
    def simgin_wrong(self) -> int:
        return sum(found.simgin_wrong for found in self.disagreements)

    @property
    def knock_changed(self) -> int:
        return sum(found.changes_knock for found in self.disagreements)


def compare_answers(
    adapter: EngineAdapter,
    check: str,
    sample: str,
    hands: np.ndarray,
    simgin_answers: Sequence[Answer],
    other: Callable[[Sequence[int]], Answer],
    rule_book: Callable[[Sequence[int]], Answer],
    echo: Callable[[str], None] = print,
) -> CheckResult:
    """Ask ``other`` about every hand; arbitrate and print each hand where it differs from simgin."""
    start = time.perf_counter()
    result = CheckResult(adapter.name, check, sample, int(hands.shape[0]), 0.0)
    for index, hand in enumerate(hands.tolist()):
        theirs = other(hand)
        if theirs == simgin_answers[index]:
            continue
        truth = rule_book(hand)
        found = Disagreement(
            adapter.name,
            check,
            sample,
            index,
            tuple(hand),
            simgin_answers[index],
            theirs,
            truth,
            " ".join(adapter.card_name(card) for card in hand),
            rule_book_detail(hand),
        )
        echo(format_disagreement(found))
        result.disagreements.append(found)
    result.seconds = time.perf_counter() - start
    return result


def simgin_answers(hands: np.ndarray, kind: str) -> list[Answer]:
    """simgin's answer for each hand: "deadwood", "best_discard", "eleven_deadwood" or "going_out"."""
    masks = hand_masks(hands)
    if kind == "deadwood":
        return [int(value) for value in deadwood_batch(masks)]
    cards, left = best_discard_batch(masks)
    if kind == "best_discard":
        return [(int(card), int(value)) for card, value in zip(cards, left, strict=True)]
    if kind == "eleven_deadwood":
        return [int(value) for value in left]
    if kind == "going_out":
        return [going_out_of(discard_deadwoods(hand)) for hand in hands.tolist()]
    raise ValueError(f"unknown answer kind {kind!r}")


def cross_validate(
    adapters: Sequence[EngineAdapter],
    uniform_count: int = 100_000,
    dense_count: int = 20_000,
    seed: int = SEED,
    echo: Callable[[str], None] = print,
) -> list[CheckResult]:
    """Run every check of every engine on the uniform and dense samples of 10 and 11 cards."""
    samples = {
        ("uniform", 10): uniform_hands(uniform_count, 10, seed),
        ("uniform", 11): uniform_hands(uniform_count, 11, seed),
        ("dense", 10): dense_hands(dense_count, 10, seed),
        ("dense", 11): dense_hands(dense_count, 11, seed),
    }
    answers = {
        (sample, kind): simgin_answers(samples[sample, size], kind)
        for sample in SAMPLES
        for kind, size in (("deadwood", 10), ("best_discard", 11), ("eleven_deadwood", 11), ("going_out", 11))
    }
    results = []
    for adapter in adapters:
        bad = check_encoding(adapter)
        if bad:
            raise RuntimeError(f"{adapter.name}: the card encoding map is wrong for {', '.join(bad)}")
        ten = adapter.ten_card_deadwood

        def eleven(hand: Sequence[int], ten: TenCardDeadwood = ten) -> tuple[int, int]:
            return best_discard_from_ten(hand, ten)

        for sample in SAMPLES:
            echo(f"cross-validating {adapter.name} on {sample} hands ...")
            results.append(
                compare_answers(
                    adapter,
                    CHECK_TEN,
                    sample,
                    samples[sample, 10],
                    answers[sample, "deadwood"],
                    ten,
                    rule_book_deadwood,
                    echo,
                )
            )
            results.append(
                compare_answers(
                    adapter,
                    CHECK_ELEVEN,
                    sample,
                    samples[sample, 11],
                    answers[sample, "best_discard"],
                    eleven,
                    rule_book_best_discard,
                    echo,
                )
            )
            if adapter.own_eleven is not None:
                going_out = adapter.own_eleven_kind == "going_out"
                results.append(
                    compare_answers(
                        adapter,
                        adapter.own_eleven_label,
                        sample,
                        samples[sample, 11],
                        answers[sample, "going_out" if going_out else "eleven_deadwood"],
                        adapter.own_eleven,
                        rule_book_going_out if going_out else rule_book_eleven_deadwood,
                        echo,
                    )
                )
    return results


def markdown(results: Sequence[CheckResult], shown: int = 3) -> str:
    """The checks as a Markdown table, then up to ``shown`` disagreements per check."""
    lines = [
        "| engine | check | sample | hands | disagreements with simgin | engine differs from the rule book "
        "| simgin differs from the rule book | engine's answer changes a knock's legality |",
        "|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for result in results:
        lines.append(
            f"| {result.engine} | {result.check} | {result.sample} | {result.hand_count:,} "
            f"| {len(result.disagreements):,} | {result.engine_wrong:,} | {result.simgin_wrong:,} "
            f"| {result.knock_changed:,} |"
        )
    examples = [result for result in results if result.disagreements]
    for result in examples:
        lines += [
            "",
            f"Disagreements of {result.engine}, {result.check}, {result.sample} hands (those that change "
            "whether a knock is legal first):",
            "",
            "```",
        ]
        first = sorted(result.disagreements, key=lambda found: not found.changes_knock)[:shown]
        for found in first:
            lines.append(format_disagreement(found))
        if len(result.disagreements) > shown:
            lines.append(f"... and {len(result.disagreements) - shown:,} more (all printed by the run)")
        lines.append("```")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000, help="uniform random hands per size (10 and 11)")
    parser.add_argument("--dense-hands", type=int, default=20_000, help="dense hands per size (10 and 11)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--quick", action="store_true", help="2,000 uniform and 500 dense hands per size")
    args = parser.parse_args(argv)
    if args.quick:
        args.hands, args.dense_hands = 2_000, 500
    adapters, missing = available_adapters()
    for note in missing:
        print(f"not installed, skipped: {note}; pip install open-spiel rlcard", file=sys.stderr)
    if not adapters:
        raise SystemExit("neither OpenSpiel nor RLCard imports: pip install open-spiel rlcard")
    results = cross_validate(adapters, args.hands, args.dense_hands, args.seed)
    print(markdown(results))


if __name__ == "__main__":
    main()

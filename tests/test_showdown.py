"""simgin.score_showdown: knock, gin, undercut, lay-offs and bonuses (R14-R19, V2, V3, V9, V13).

Each hand-made case works its points out in a comment; a differential test compares
thousands of seeded random knocks with the brute force of ``tests/reference.py``.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import reference

import simgin
from simgin import Rules
from simgin.game.cards import parse_card, parse_cards
from simgin.kernels import rule_index as ri
from simgin.kernels.melds import SUIT_DEADWOOD, deadwood_of_mask
from simgin.kernels.opponent import knock_points
from simgin.kernels.showdown import SUIT_VALUE, defender_left_over, knocker_layouts


def cards(text: str) -> list[int]:
    return parse_cards(text)


def value(card: int) -> int:
    return min(card % 13 + 1, 10)


def check_record(result: simgin.Showdown, knocker: list[int], defender: list[int]) -> None:
    """The laid-down hands are consistent with the deadwoods, the lay-offs legal (R14)."""
    shown = [frozenset(meld) for meld in result.knocker_melds]
    own = [frozenset(meld) for meld in result.defender_melds]
    for meld in shown + own:
        assert reference.is_meld(meld), simgin.format_cards(meld)
    knocker_melded = [card for meld in shown for card in meld]
    assert len(knocker_melded) == len(set(knocker_melded)) and set(knocker_melded) <= set(knocker)
    assert sum(value(c) for c in knocker if c not in knocker_melded) == result.knocker_deadwood
    defender_melded = [card for meld in own for card in meld]
    laid = list(result.layoffs)
    assert len(defender_melded + laid) == len(set(defender_melded + laid))
    assert set(defender_melded + laid) <= set(defender)
    assert sum(value(c) for c in defender if c not in defender_melded and c not in laid) == result.defender_deadwood
    assert result.layoff_points == sum(value(c) for c in laid)
    assert laid == sorted(laid)
    if laid:
        assert result.kind == "knock" or result.kind == "undercut"
        assert reference.is_valid_layoff(laid, tuple(shown))


def score(knocker: str, defender: str, rules: Rules | None = None, up_card: int | str | None = None):
    result = simgin.score_showdown(knocker, defender, rules=rules, up_card=up_card)
    check_record(result, cards(knocker), cards(defender))
    return result


# Knocker: A-2-3S, 7C7D7H, 9-T-JD melded.
KNOCKER_2C = "AS 2S 3S 7C 7D 7H 9D TD JD 2C"  # 2C loose: deadwood 2
KNOCKER_9C = "AS 2S 3S 7C 7D 7H 9D TD JD 9C"  # 9C loose: deadwood 9
KNOCKER_GIN = "AS 2S 3S 7C 7D 7H 9D TD JD QD"
# Knocker: 5-6-7H, A-2-3S, KC KD KS melded, 4C loose: deadwood 4.
KNOCKER_HEARTS = "5H 6H 7H AS 2S 3S KC KD KS 4C"


def test_r17_plain_knock_without_layoff() -> None:
    # Defender: KC KD KH set; 5C 6D 8C 8H 9S QH QS loose = 5+6+8+8+9+10+10 = 56; nothing fits on
    # A-2-3S (4S), 7-7-7 (7S) or 9-J D (8D, QD). Knocker wins 56 - 2 = 54.
    result = score(KNOCKER_2C, "5C 6D KC KD KH 8C 8H 9S QH QS")
    assert (result.winner, result.kind) == ("knocker", "knock")
    assert (result.knocker_deadwood, result.defender_deadwood, result.points) == (2, 56, 54)
    assert result.layoffs == [] and result.layoff_points == 0
    assert result.multiplier == 1
    assert result.defender_melds == [cards("KC KD KH")]


def test_r14_r17_knock_with_run_layoff() -> None:
    # Same knocker; defender lays 4S 5S off on A-2-3S (chained), keeps KC KD KH; left
    # 8C 8H 9S QH QS = 45. Knocker wins 45 - 2 = 43.
    result = score(KNOCKER_2C, "4S 5S KC KD KH 8C 8H 9S QH QS")
    assert (result.winner, result.kind) == ("knocker", "knock")
    assert (result.knocker_deadwood, result.defender_deadwood, result.points) == (2, 45, 43)
    assert result.layoffs == cards("4S 5S") and result.layoff_points == 9


def test_r14_layoff_fourth_card_on_a_set() -> None:
    # Defender: 7S goes on 7C7D7H; KC KD KH set; 5C 6D 8C 8H QH QS left = 47 (54 - 7). 47 - 2 = 45.
    result = score(KNOCKER_2C, "7S 5C 6D KC KD KH 8C 8H QH QS")
    assert (result.defender_deadwood, result.points) == (47, 45)
    assert result.layoffs == cards("7S")


def test_r14_chained_layoff_upward() -> None:
    # Defender has no melds (71 points); 8H then 9H go on 5-6-7H: 71 - 17 = 54. 54 - 4 = 50.
    result = score(KNOCKER_HEARTS, "8H 9H 2D 4D 6D JC QH TS 9C 3C")
    assert (result.knocker_deadwood, result.defender_deadwood, result.points) == (4, 54, 50)
    assert result.layoffs == cards("8H 9H")


def test_r14_chained_layoff_downward() -> None:
    # Defender has no melds (67 points); 4H then 3H go under 5-6-7H: 67 - 7 = 60. 60 - 4 = 56.
    result = score(KNOCKER_HEARTS, "4H 3H 8D TD QC JS 9S 2C 6C 5D")
    assert (result.defender_deadwood, result.points) == (60, 56)
    assert result.layoffs == cards("3H 4H")


def test_r14_layoff_beats_the_defenders_own_meld() -> None:
    # Defender 8C 8D 8H 8S 9H + 2D 4D 6D JC QH. Melding first (four 8s) leaves 9H, which cannot go on
    # 5-6-7H without 8H: 9 + 32 = 41. Laying off 8H 9H and keeping 8C 8D 8S leaves 2+4+6+10+10 = 32.
    # Knocker wins 32 - 4 = 28.
    result = score(KNOCKER_HEARTS, "8C 8D 8H 8S 9H 2D 4D 6D JC QH")
    assert (result.defender_deadwood, result.points) == (32, 28)
    assert result.layoffs == cards("8H 9H")
    assert result.defender_melds == [cards("8C 8D 8S")]


def test_r14_knocker_shows_the_set_when_it_saves_least() -> None:
    # Knocker 3C 3D 3H 2H 4H + 9C-KC: set 3C3D3H (2H 4H loose) or run 2-3-4H (3C 3D loose), both 6.
    # Defender (no melds, 70): 3S on the set saves 3, 5H 6H on the run save 11. The knocker shows the
    # set: 70 - 3 = 67; 67 - 6 = 61.
    result = score("3C 3D 3H 2H 4H 9C TC JC QC KC", "3S 5H 6H KD QS JD 9D 8S 2D 7S")
    assert (result.knocker_deadwood, result.defender_deadwood, result.points) == (6, 67, 61)
    assert result.layoffs == cards("3S")
    assert cards("3C 3D 3H") in result.knocker_melds


def test_r14_knocker_shows_the_run_when_it_saves_least() -> None:
    # Same knocker; defender (no melds, 66) has 3S (saves 3 on the set) and AH (saves 1 under 2-3-4H).
    # The knocker shows the run: 66 - 1 = 65; 65 - 6 = 59.
    result = score("3C 3D 3H 2H 4H 9C TC JC QC KC", "3S AH KD QS JD 9D 8S 2D 7S 6C")
    assert (result.defender_deadwood, result.points) == (65, 59)
    assert result.layoffs == cards("AH")
    assert cards("2H 3H 4H") in result.knocker_melds


def test_r13_r19_gin_allows_no_layoff() -> None:
    # Gin: 4S 5S would fit on A-2-3S but may not be laid off (R14). Defender: KC KD KH;
    # 4+5+8+8+9+10+10 = 54. Knocker wins 20 + 54 = 74.
    result = score(KNOCKER_GIN, "4S 5S KC KD KH 8C 8H 9S QH QS")
    assert (result.winner, result.kind) == ("knocker", "gin")
    assert (result.knocker_deadwood, result.defender_deadwood, result.points) == (0, 54, 74)
    assert result.layoffs == [] and result.layoff_points == 0


def test_r18_undercut() -> None:
    # Knocker 9 (9C). Defender 4-5-6C, 8S8H8D, KC KD KH, AH loose: 1 (laying 8D on 9-J D would break
    # its set). Defender wins 9 - 1 + 10 = 18.
    result = score(KNOCKER_9C, "4C 5C 6C 8S 8H 8D KC KD KH AH")
    assert (result.winner, result.kind) == ("defender", "undercut")
    assert (result.knocker_deadwood, result.defender_deadwood, result.points) == (9, 1, 18)


def test_r18_tie_is_an_undercut() -> None:
    # Knocker 2 (2C), defender 2 (2D): equal counts are an undercut: 0 + 10 = 10 to the defender.
    result = score(KNOCKER_2C, "4C 5C 6C 8S 8H 8D KC KD KH 2D")
    assert (result.winner, result.kind, result.points) == ("defender", "undercut", 10)


def test_r18_tie_without_undercut_on_tie() -> None:
    # Same tie with undercut_on_tie off: the knocker wins 0.
    rules = dataclasses.replace(Rules(), undercut_on_tie=False)
    result = score(KNOCKER_2C, "4C 5C 6C 8S 8H 8D KC KD KH 2D", rules=rules)
    assert (result.winner, result.kind, result.points) == ("knocker", "knock", 0)


def test_v2_gin_bonus() -> None:
    # 25 + 54 = 79.
    result = score(KNOCKER_GIN, "4S 5S KC KD KH 8C 8H 9S QH QS", rules=dataclasses.replace(Rules(), gin_bonus=25))
    assert (result.kind, result.points) == ("gin", 79)


def test_v3_undercut_bonus() -> None:
    # 9 - 1 + 25 = 33.
    rules = dataclasses.replace(Rules(), undercut_bonus=25)
    result = score(KNOCKER_9C, "4C 5C 6C 8S 8H 8D KC KD KH AH", rules=rules)
    assert (result.kind, result.points) == ("undercut", 33)


def test_v9_oklahoma_spade_doubles_a_knock() -> None:
    # Up card KS: knock limit 10, spade: (45 - 2) x 2 = 86.
    rules = Rules.preset("oklahoma")
    result = score(KNOCKER_2C, "4S 5S KC KD KH 8C 8H 9S QH QS", rules=rules, up_card="KS")
    assert (result.points, result.multiplier, result.knock_limit) == (86, 2, 10)
    same = score(KNOCKER_2C, "4S 5S KC KD KH 8C 8H 9S QH QS", rules=rules, up_card=parse_card("KS"))
    assert same.points == 86


def test_v9_oklahoma_spade_doubles_gin_bonus_included() -> None:
    # (20 + 54) x 2 = 148.
    rules = Rules.preset("oklahoma")
    result = score(KNOCKER_GIN, "4S 5S KC KD KH 8C 8H 9S QH QS", rules=rules, up_card="2S")
    assert (result.kind, result.points) == ("gin", 148)


def test_v9_oklahoma_spade_doubles_an_undercut() -> None:
    # Up card 9S: limit 9, knocker 9 may knock; (9 - 1 + 10) x 2 = 36 to the defender.
    rules = Rules.preset("oklahoma")
    result = score(KNOCKER_9C, "4C 5C 6C 8S 8H 8D KC KD KH AH", rules=rules, up_card="9S")
    assert (result.winner, result.points) == ("defender", 36)


def test_v9_oklahoma_up_card_sets_the_knock_limit() -> None:
    rules = Rules.preset("oklahoma")
    # Up card 3H: limit 3, not doubled; knocker 2 may knock: 45 - 2 = 43.
    result = score(KNOCKER_2C, "4S 5S KC KD KH 8C 8H 9S QH QS", rules=rules, up_card="3H")
    assert (result.points, result.multiplier, result.knock_limit) == (43, 1, 3)
    # Knocker with 5C loose (deadwood 5) is over the limit of 3.
    with pytest.raises(ValueError):
        simgin.score_showdown("AS 2S 3S 7C 7D 7H 9D TD JD 5C", "4S 6S KC KD KH 8C 8H 9S QH QS", rules, "3H")
    # Oklahoma needs the up card.
    with pytest.raises(ValueError):
        simgin.score_showdown(KNOCKER_2C, "4S 5S KC KD KH 8C 8H 9S QH QS", rules)


BIG_GIN_KNOCKER = "AS 2S 3S 7C 7D 7H 9D TD JD QD KD"
BIG_GIN_DEFENDER = "4S 5S KC KH KS 8C 8H 9S QH QS"  # KC KH KS melded; 4+5+8+8+9+10+10 = 54


def test_v13_big_gin() -> None:
    # 11 melded cards: 31 + 54 = 85, no lay-off of 4S 5S.
    result = score(BIG_GIN_KNOCKER, BIG_GIN_DEFENDER, rules=dataclasses.replace(Rules(), big_gin=True))
    assert (result.winner, result.kind) == ("knocker", "big_gin")
    assert (result.knocker_deadwood, result.defender_deadwood, result.points) == (0, 54, 85)
    assert result.layoffs == []
    # Modern preset: big gin on, bonus 31.
    assert score(BIG_GIN_KNOCKER, BIG_GIN_DEFENDER, rules=Rules.preset("modern")).points == 85
    # Bonus 50: 50 + 54 = 104.
    rules = dataclasses.replace(Rules(), big_gin=True, big_gin_bonus=50)
    assert score(BIG_GIN_KNOCKER, BIG_GIN_DEFENDER, rules=rules).points == 104


def test_v13_eleven_cards_need_big_gin() -> None:
    with pytest.raises(ValueError):
        simgin.score_showdown(BIG_GIN_KNOCKER, BIG_GIN_DEFENDER)  # big gin is off
    with pytest.raises(ValueError):  # 11 cards, 8S loose: not big gin
        simgin.score_showdown("AS 2S 3S 7C 7D 7H 9D TD JD QD 8S", BIG_GIN_DEFENDER, Rules(big_gin=True))


@pytest.mark.parametrize(
    ("knocker", "defender", "rules"),
    [
        # R12: knocker over the limit (9D TD not a run: 9+10+5+6 = 30).
        ("AS 2S 3S 7C 7D 7H 9D TD 5C 6H", "4S 5S KC KD KH 8C 8H 9S QH QS", None),
        # V1 straight gin: knock limit 0, a knocker with 2 may not knock.
        (KNOCKER_2C, "4S 5S KC KD KH 8C 8H 9S QH QS", Rules.preset("straight")),
        # Overlapping hands: 2C in both.
        (KNOCKER_2C, "2C 5S KC KD KH 8C 8H 9S QH QS", None),
        # Wrong sizes.
        ("AS 2S 3S 7C 7D 7H 9D TD JD", "4S 5S KC KD KH 8C 8H 9S QH QS", None),
        (KNOCKER_2C, "4S 5S KC KD KH 8C 8H 9S QH", None),
        (KNOCKER_2C, "4S 5S KC KD KH 8C 8H 9S QH QS 6H", None),
        # Repeated card.
        ("AS 2S 3S 7C 7D 7H 9D TD JD JD", "4S 5S KC KD KH 8C 8H 9S QH QS", None),
    ],
)
def test_r12_r14_bad_showdowns_raise(knocker: str, defender: str, rules: Rules | None) -> None:
    with pytest.raises(ValueError):
        simgin.score_showdown(knocker, defender, rules=rules)


def test_straight_gin_still_allows_gin() -> None:
    # V1 knock limit 0: gin is still a legal knock (R13).
    result = score(KNOCKER_GIN, "4S 5S KC KD KH 8C 8H 9S QH QS", rules=Rules.preset("straight"))
    assert (result.kind, result.points) == ("gin", 74)


def test_showdown_is_frozen() -> None:
    result = score(KNOCKER_2C, "4S 5S KC KD KH 8C 8H 9S QH QS")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.points = 0  # type: ignore[misc]


# --- differential test against the brute force --------------------------------------------

SITUATION_SEED = 20_240_612
SITUATION_COUNT = 4_000
BIG_GIN_COUNT = 200


def random_meld(rng: np.random.Generator) -> list[int]:
    if rng.random() < 0.4:
        rank = int(rng.integers(13))
        return [int(suit) * 13 + rank for suit in rng.permutation(4)[: int(rng.integers(3, 5))]]
    length = int(rng.integers(3, 6))
    suit, low = int(rng.integers(4)), int(rng.integers(0, 14 - length))
    return [suit * 13 + rank for rank in range(low, low + length)]


def melded_cards(rng: np.random.Generator, count: int, avoid: frozenset[int] = frozenset()) -> set[int]:
    """Up to ``count`` cards made of random disjoint melds, none of them in ``avoid``."""
    hand: set[int] = set()
    for _ in range(30):
        meld = set(random_meld(rng))
        if len(hand) + len(meld) <= count and not (hand | avoid) & meld:
            hand |= meld
    return hand


def fill(rng: np.random.Generator, hand: set[int], count: int, pool: list[int]) -> None:
    for card in rng.permutation(pool):
        if len(hand) == count:
            return
        hand.add(int(card))


def knock_situation(rng: np.random.Generator, knocker_size: int = 10) -> tuple[list[int], list[int]]:
    """A knocker built from random melds plus low loose cards, and a defender biased toward lay-offs."""
    knocker = melded_cards(rng, int(rng.integers(6, knocker_size + 1)))
    low_cards = [c for c in range(52) if c % 13 < 4 and c not in knocker]
    fill(rng, knocker, knocker_size, low_cards if rng.random() < 0.8 else [c for c in range(52) if c not in knocker])
    rest = [c for c in range(52) if c not in knocker]
    # Cards next to a knocker card in its suit, or of a knocker card's rank: the lay-off candidates.
    near = [
        c for c in rest if any((k // 13 == c // 13 and abs(k % 13 - c % 13) <= 2) or k % 13 == c % 13 for k in knocker)
    ]
    defender: set[int] = set()
    mode = rng.random()
    if mode < 0.35:  # a strong defender (undercuts): mostly melds, then lay-off candidates and low cards
        defender = melded_cards(rng, int(rng.integers(6, 11)), frozenset(knocker))
        fill(rng, defender, min(10, len(defender) + int(rng.integers(0, 3))), [c for c in near if c not in defender])
        fill(rng, defender, 10, [c for c in rest if c % 13 < 4 and c not in defender])
    elif mode < 0.7:  # some melds of its own
        defender = melded_cards(rng, 6, frozenset(knocker))
    fill(rng, defender, min(10, len(defender) + int(rng.integers(0, 6))), [c for c in near if c not in defender])
    fill(rng, defender, 10, [c for c in rest if c not in defender])
    return sorted(knocker), sorted(defender)


def rules_for(rng: np.random.Generator) -> Rules:
    return dataclasses.replace(
        Rules(),
        undercut_on_tie=bool(rng.random() < 0.7),
        gin_bonus=int(rng.choice([20, 25])),
        undercut_bonus=int(rng.choice([10, 20, 25])),
    )


def compare(knocker: list[int], defender: list[int], rules: Rules) -> tuple[tuple | None, dict]:
    """(a mismatch description or None, the reference's result)."""
    expected = reference.showdown(
        knocker,
        defender,
        gin_bonus=rules.gin_bonus,
        undercut_bonus=rules.undercut_bonus,
        undercut_on_tie=rules.undercut_on_tie,
        big_gin=rules.big_gin,
        big_gin_bonus=rules.big_gin_bonus,
    )
    result = simgin.score_showdown(knocker, defender, rules=rules)
    check_record(result, knocker, defender)
    keys = ("winner", "kind", "points", "knocker_deadwood", "defender_deadwood")
    want = tuple(expected[key] for key in keys)
    got = tuple(str(getattr(result, key)) if key in ("winner", "kind") else getattr(result, key) for key in keys)
    if want != got:
        return (simgin.format_cards(knocker), simgin.format_cards(defender), rules, want, got), expected
    return None, expected


@pytest.mark.slow  # exhaustive: thousands of brute-force showdowns (.ci/run runs it)
def test_r14_r19_random_knocks_match_brute_force() -> None:
    rng = np.random.default_rng(SITUATION_SEED)
    mismatches = []
    kinds: dict[str, int] = {}
    tested = layoff_count = 0
    while tested < SITUATION_COUNT:
        knocker, defender = knock_situation(rng)
        if reference.deadwood(knocker) > 10:
            continue
        rules = rules_for(rng)
        tested += 1
        mismatch, expected = compare(knocker, defender, rules)
        if mismatch:
            mismatches.append(mismatch)
        kinds[expected["kind"]] = kinds.get(expected["kind"], 0) + 1
        layoff_count += bool(expected["layoff"])
    assert not mismatches, mismatches[:3]
    # The generator reaches every outcome, and lay-offs, often enough for the comparison to mean something.
    assert min(kinds.get(kind, 0) for kind in ("knock", "gin", "undercut")) >= 300, kinds
    assert layoff_count >= 500


def test_v13_random_big_gins_match_brute_force() -> None:
    rng = np.random.default_rng(SITUATION_SEED + 1)
    mismatches = []
    tested = 0
    while tested < BIG_GIN_COUNT:
        knocker = melded_cards(rng, 11)
        if len(knocker) != 11:
            continue
        defender = set()
        fill(rng, defender, 10, [c for c in range(52) if c not in knocker])
        rules = dataclasses.replace(rules_for(rng), big_gin=True, big_gin_bonus=int(rng.choice([31, 50])))
        tested += 1
        mismatch, expected = compare(sorted(knocker), sorted(defender), rules)
        assert expected["kind"] == "big_gin"
        if mismatch:
            mismatches.append(mismatch)
    assert not mismatches, mismatches[:3]


CLUSTERED_COUNT = 1_500


def clustered_situation(rng: np.random.Generator) -> tuple[list[int], list[int]]:
    """Both hands dealt from a block of 5-8 adjacent ranks in all suits: dense sets, runs and lay-offs."""
    width = int(rng.integers(5, 9))
    low = int(rng.integers(0, 14 - width))
    block = [int(card) for card in rng.permutation([s * 13 + r for s in range(4) for r in range(low, low + width)])]
    knocker, defender = block[:10], block[10:20]
    others = [int(card) for card in rng.permutation(52) if card not in block]
    defender += others[: 10 - len(defender)]
    return sorted(knocker), sorted(defender)


@pytest.mark.slow  # exhaustive: thousands of brute-force showdowns (.ci/run runs it)
def test_r14_r18_clustered_knocks_match_brute_force() -> None:
    rng = np.random.default_rng(SITUATION_SEED + 2)
    mismatches = []
    tested = layoff_count = undercut_count = 0
    while tested < CLUSTERED_COUNT:
        knocker, defender = clustered_situation(rng)
        if reference.deadwood(knocker) > 10:
            continue
        tested += 1
        mismatch, expected = compare(knocker, defender, rules_for(rng))
        if mismatch:
            mismatches.append(mismatch)
        layoff_count += bool(expected["layoff"])
        undercut_count += expected["kind"] == "undercut"
    assert not mismatches, mismatches[:3]
    assert layoff_count >= 500 and undercut_count >= 300, (layoff_count, undercut_count)


def test_the_outcome_list_derives_from_kind_and_every_table_uses_it() -> None:
    """One outcome list (``showdown.OUTCOMES``), in the columns' old order, shared by summaries, tallies and reports."""
    from simgin.reports import figure_style, tables

    from simgin.cli import run as cli_run
    from simgin.game import showdown
    from simgin.running import summary, tally

    assert showdown.OUTCOMES == ("knock", "gin", "big_gin", "undercut", "dead")
    assert all(type(name) is str for name in showdown.OUTCOMES)
    assert {*showdown.OUTCOMES, showdown.Kind.FORFEIT.value} == {kind.value for kind in showdown.Kind}
    for module in (summary, figure_style, tables, cli_run, tally):
        assert module.OUTCOMES is showdown.OUTCOMES, module.__name__
    assert [name for name in tally.TALLY_FIELDS if name.startswith("limit0_")] == [
        f"limit0_{what}" for what in ("hands", "knock", "gin", "big_gin", "undercut", "dead", "turns", "points")
    ]


def test_r14_r18_the_knock_valuations_layouts_score_as_the_brute_force() -> None:
    """The bots' knock valuation (``kernels.knock.knocking_value``) finds the knocker's arrangements once
    (``kernels.showdown.knocker_layouts``) and meets each drawn defender with them (``defender_left_over``):
    for one knocker against several defenders, the defender's deadwood after lay-offs and the knocker's points
    (``kernels.opponent.knock_points``) are the brute force's, gin included (R19: no lay-offs)."""
    rng = np.random.default_rng(SITUATION_SEED + 3)
    checked = gins = undercuts = 0
    rules = np.zeros(ri.RULE_COUNT, np.int64)
    while checked < 300:
        knocker, defender = knock_situation(rng) if checked % 3 else clustered_situation(rng)
        if reference.deadwood(knocker) > 10:
            continue
        checked += 1
        knocker_deadwood, count, shown_sets, runs, fourths = knocker_layouts(_mask(knocker), SUIT_DEADWOOD)
        assert knocker_deadwood == reference.deadwood(knocker) and count >= 1
        gin_bonus, undercut_bonus = int(rng.choice([20, 25])), int(rng.choice([10, 25]))
        rules[ri.GIN_BONUS], rules[ri.UNDERCUT_BONUS] = gin_bonus, undercut_bonus
        rules[ri.UNDERCUT_ON_TIE] = checked % 2
        others = [c for c in range(52) if c not in knocker]
        defenders = [defender] + [sorted(int(c) for c in rng.permutation(others)[:10]) for _ in range(3)]
        for defender in defenders:
            if knocker_deadwood == 0:
                left_over = deadwood_of_mask(_mask(defender), SUIT_DEADWOOD)
            else:
                result = np.empty(3, np.int64)
                left_over = defender_left_over(_mask(defender), count, shown_sets, runs, fourths, SUIT_VALUE, result)
            expected = reference.showdown(knocker, defender, gin_bonus, undercut_bonus, bool(checked % 2))
            assert left_over == expected["defender_deadwood"]
            sign = 1 if expected["winner"] == "knocker" else -1
            assert knock_points(knocker_deadwood, left_over, rules) == sign * expected["points"]
            gins += expected["kind"] == "gin"
            undercuts += expected["kind"] == "undercut"
    assert gins >= 20 and undercuts >= 20, (gins, undercuts)


def _mask(cards: list[int]) -> np.int64:
    return np.int64(sum(1 << card for card in cards))

"""The evaluator of ``simgin analyse`` (issue 34, docs/ANALYSIS.md) at the level of its kernel: every legal action
and every stock card valued as the plain-Python reference values it (tests/reference.py), the knock decision after a
discard, big gin and the 50th card, and how the worlds are drawn (the tilt of the other's hand, its holding level)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from simgin.analysis.evaluator import KINDS, Evaluator
from simgin.analysis.recorder import Decision, RecordingStrategy
from simgin.game.cards import parse_card
from simgin.game.reference_engine import play_hand
from simgin.game.rng import derive
from simgin.game.rules import Rules
from simgin.players.registry import resolve

EVALUATOR = Evaluator(worlds=32, seed=5)
"""The evaluator of these tests: few worlds, its own seed (as tests/test_analysis.py's)."""


def test_the_luck_kernel_values_each_stock_card_as_the_reference_does():
    """``kernels.analysis.stock_draw_values_in_world`` against tests/reference.py (R9-R19): for every stock draw
    of random hands, in a random world consistent with the drawer's view before the draw, the value of drawing
    each card the stock held is the reference's value of drawing from a stock with that card on top (put there
    in plain Python: out of the other's hand, which takes the stock's top card in its place, or swapped up the
    stock)."""
    import reference

    from simgin.analysis import luck as luck_module
    from simgin.game.moves import STOCK, Draw
    from simgin.kernels import analysis as kernel, view as table_layout
    from simgin.kernels.parameters import PARAMETER_CAPACITY
    from simgin.players.compiled import fill_table

    rng = np.random.default_rng(5)
    checked = 0
    for hand_index in range(2):
        log: list[Decision] = []
        seats = tuple(RecordingStrategy(resolve(spec).make(), log) for spec in ("random", "simple"))
        record = play_hand(seats, Rules(), int(derive(23, hand_index)), hand_index % 2)
        stock = list(record.moves[0].stock)
        for move in (m for m in record.moves if isinstance(m, Draw) and m.source == STOCK):
            before, stock = stock, stock[1:]
            view = luck_module._view_before(log, move.seat, move.card)
            if view is None or checked >= 6:
                continue
            other, world = _world_of(view, rng)
            table = np.zeros(table_layout.TABLE_SIZE, dtype=np.int64)
            fill_table(table, view)
            candidates = rng.choice(before, size=min(4, len(before)), replace=False)
            out = np.zeros(candidates.size)
            kernel.stock_draw_values_in_world(
                view.seat, np.int64(sum(1 << c for c in view.hand)), table, False, np.zeros(PARAMETER_CAPACITY),
                np.int64(sum(1 << c for c in other)), np.array(world, dtype=np.int64), candidates.astype(np.int64),
                out,
            )  # fmt: skip
            for card, got in zip(candidates.tolist(), out, strict=True):
                placed_other, placed_stock = list(other), list(world)
                if card in placed_other:
                    placed_other[placed_other.index(card)] = placed_stock[0]
                else:
                    j = placed_stock.index(card)
                    placed_stock[j] = placed_stock[0]
                placed_stock[0] = card
                expected = reference.analysis_values("draw", view, sorted(placed_other), placed_stock)[0]
                assert got == expected, (card, got, expected)
            checked += 1
    assert checked >= 4


def _world_of(view, rng: np.random.Generator) -> tuple[list[int], list[int]]:
    """A world consistent with ``view``: the other's known cards plus unseen ones, and the rest as the stock."""
    from simgin.analysis.hands import known_cards

    known = set(known_cards(view))
    seen = set(view.hand) | set(view.pile) | known
    unseen = [card for card in range(52) if card not in seen]
    rng.shuffle(unseen)
    need = 10 - len(known)
    assert len(unseen) == need + view.stock_count
    return sorted(known | set(unseen[:need])), [int(card) for card in unseen[need:]]


@pytest.mark.parametrize(
    ("preset", "hands"),
    [
        ("standard", 1),
        pytest.param("standard", 8, marks=pytest.mark.slow),
        pytest.param("oklahoma", 8, marks=pytest.mark.slow),
        pytest.param("straight", 8, marks=pytest.mark.slow),
        pytest.param("modern", 8, marks=pytest.mark.slow),
        pytest.param("eaai", 8, marks=pytest.mark.slow),
    ],
)
def test_the_kernel_values_every_action_as_the_reference_does(preset, hands):
    """``kernels.analysis.values_in_world`` against ``tests/reference.py``'s brute force (R9-R19, V1, V9, V13):
    the same value for every legal action of every decision of random hands, each in a random world (the
    reference's brute-force deadwood is slow: one hand by default, eight per preset with the slow tests)."""
    import reference

    from simgin.kernels import analysis as kernel, view as table_layout
    from simgin.kernels.parameters import PARAMETER_CAPACITY
    from simgin.players.compiled import fill_table

    rules = Rules.preset(preset)
    rng = np.random.default_rng(hash(preset) % 2**32)
    checked = knock_choices = 0
    for hand_index in range(hands):
        log: list[Decision] = []
        seats = tuple(RecordingStrategy(resolve(spec).make(), log) for spec in ("random", "simple"))
        play_hand(seats, rules, int(derive(17, hand_index)), hand_index % 2)
        for decision in log:
            view = decision.view
            other, stock = _world_of(view, rng)
            table = np.zeros(table_layout.TABLE_SIZE, dtype=np.int64)
            fill_table(table, view)
            mask = sum(1 << card for card in view.hand)
            actions = np.zeros(kernel.MAX_ACTIONS, dtype=np.int64)
            out = np.zeros(kernel.MAX_ACTIONS)
            held = np.zeros(kernel.MAX_ACTIONS)
            count = kernel.values_in_world(
                KINDS[decision.kind], view.seat, np.int64(mask), table, False, np.zeros(PARAMETER_CAPACITY),
                np.int64(sum(1 << card for card in other)), np.array(stock, dtype=np.int64), actions, out, held,
            )  # fmt: skip
            got = {int(actions[i]): float(out[i]) for i in range(count)}
            got_held = {int(actions[i]): float(held[i]) for i in range(count) if not np.isnan(held[i])}
            expected_held: dict[int, int] = {}
            assert got == reference.analysis_values(decision.kind, view, other, stock, expected_held), (
                preset, decision.kind,
            )  # fmt: skip
            assert got_held == expected_held, (preset, decision.kind)
            checked += 1
            knock_choices += len(got_held)
    assert checked >= 10 * hands
    assert knock_choices > 0, "no discard left a hand that may knock: the play-on values went untested"


class _Patient:
    """A player that never knocks (R12), so that hands run to the end of the stock: where the 50th-card action
    (V7) and big gin (V13) come up."""

    def __init__(self, inner) -> None:
        self.inner = inner

    def __getattr__(self, name: str):
        return getattr(self.inner, name)

    def knock(self, view, rng) -> bool:
        return False


def _patient_decisions(hands: int, kinds: set[str]) -> list[Decision]:
    """The decisions of ``kinds`` (and the discards after a 50th-card take) of hands between two patient
    ``simple`` players, big gin (V13) and the 50th-card action (V7) on."""
    rules = Rules().with_settings({"big_gin": True, "fiftieth_card_action": True})
    found = []
    for index in range(hands):
        log: list[Decision] = []
        seats = tuple(RecordingStrategy(_Patient(resolve("simple").make()), log) for _ in range(2))
        play_hand(seats, rules, int(derive(23, index)), index % 2)
        found += [d for d in log if d.kind in kinds or (d.kind == "discard" and d.view.fiftieth_card)]
    return found


def test_big_gin_and_the_fiftieth_card_are_valued_as_the_reference_does():
    """The big-gin choice (V13), the 50th-card action (V7) and the discard after taking the 50th card (only
    discards that may knock are legal) are recorded and valued by the kernel as by tests/reference.py's brute
    force, each in a random world."""
    import reference

    from simgin.kernels import analysis as kernel, view as table_layout
    from simgin.kernels.parameters import PARAMETER_CAPACITY
    from simgin.players.compiled import fill_table

    decisions = _patient_decisions(30, {"big_gin", "fiftieth"})
    seen = {(d.kind, d.view.fiftieth_card) for d in decisions}
    assert {("big_gin", False), ("fiftieth", False), ("discard", True)} <= seen, seen
    rng = np.random.default_rng(34)
    for decision in decisions:
        view = decision.view
        other, stock = _world_of(view, rng)
        table = np.zeros(table_layout.TABLE_SIZE, dtype=np.int64)
        fill_table(table, view)
        actions = np.zeros(kernel.MAX_ACTIONS, dtype=np.int64)
        out = np.zeros(kernel.MAX_ACTIONS)
        held = np.zeros(kernel.MAX_ACTIONS)
        count = kernel.values_in_world(
            KINDS[decision.kind], view.seat, np.int64(sum(1 << card for card in view.hand)), table, False,
            np.zeros(PARAMETER_CAPACITY), np.int64(sum(1 << card for card in other)),
            np.array(stock, dtype=np.int64), actions, out, held,
        )  # fmt: skip
        got = {int(actions[i]): float(out[i]) for i in range(count)}
        expected_held: dict[int, int] = {}
        assert got == reference.analysis_values(decision.kind, view, other, stock, expected_held), decision.kind
        assert {int(actions[i]): float(held[i]) for i in range(count) if not np.isnan(held[i])} == expected_held
        if decision.kind == "discard":  # V7: every legal discard leaves a hand that may knock
            assert decision.chosen in got
            assert all(reference.deadwood(set(view.hand) - {card}) <= view.knock_limit for card in got)


@pytest.mark.parametrize("preset", ["standard", "eaai"])
def test_a_discard_that_may_knock_is_worth_the_knock_decision_made_well(preset):
    """After a discard that leaves a hand that may knock, the player decides to knock or play on (R12) with
    what it knew when it discarded; the evaluator values the discard so, not as a knock made in every world:
    the discard chosen is worth exactly the better option of the knock decision that follows it, valued with
    the same key (the same worlds). Before, a discard was charged a knock the player could decline (on the
    last turn, docs/ANALYSIS.md)."""
    rules = Rules.preset(preset)
    pairs = played_on = 0
    for index in range(16):
        log: list[Decision] = []
        seats = tuple(RecordingStrategy(resolve(spec).make(), log) for spec in ("opponent", "heuristic"))
        play_hand(seats, rules, int(derive(3, index)), index % 2)
        for before, knock in itertools.pairwise(log):
            if before.kind == "discard" and knock.kind == "knock":
                discard = EVALUATOR.value(before, key=11)
                choice = EVALUATOR.value(knock, key=11)
                assert discard.values[discard.actions.index(before.chosen)] == pytest.approx(max(choice.values))
                pairs += 1
                played_on += choice.values[0] > choice.values[1]
    assert pairs >= 5 and played_on >= 1, (pairs, played_on)  # some where playing on is the better option


def test_declining_big_gin_costs_exactly_its_extra_bonus():
    """11 melded cards (V13): going big gin scores big_gin_bonus + the defender's deadwood; discarding instead
    leaves gin (R13), gin_bonus + the same deadwood, in every world: a loss of exactly the difference of the two
    bonuses (31 - 20 under the default rules, R18), with no error."""
    decisions = [d for d in _patient_decisions(12, {"big_gin"}) if d.kind == "big_gin" and not d.view.fiftieth_card]
    assert decisions
    for decision in decisions:
        declined = Decision("big_gin", decision.view, 0)
        valuation = EVALUATOR.value(declined, key=3)
        assert valuation.best == 1 and valuation.actions == (0, 1)
        rules = Rules()
        assert valuation.loss == pytest.approx(rules.big_gin_bonus - rules.gin_bonus) and valuation.loss_error == 0.0
        assert valuation.action_text(0) == "discard" and valuation.action_text(1) == "big gin"


def test_the_tilt_of_the_others_hand_grows_as_the_hand_goes_on():
    """``kernels.analysis.world_quality``: a sixth of ``quality`` at the first draw (R8: 31 stock cards), in
    proportion to the stock cards drawn after that, all of it from 16 drawn on; never more."""
    from simgin.kernels import analysis as kernel, view as table_layout

    table = np.zeros(table_layout.TABLE_SIZE, dtype=np.int64)
    tilts = []
    for stock in range(31, -1, -1):
        table[table_layout.T_STOCK_COUNT] = stock
        tilts.append(kernel.world_quality(0.6, table))
    assert tilts[0] == pytest.approx(0.1) and tilts[2] == pytest.approx(0.1)  # 0 and 2 drawn: the floor
    assert tilts[8] == pytest.approx(0.6 * 8 / 16)
    assert all(tilt == pytest.approx(0.6) for tilt in tilts[16:])
    assert all(a <= b for a, b in itertools.pairwise(tilts))


def test_the_other_holds_out_in_a_world_where_it_declined_to_knock():
    """``kernels.analysis.holding_level`` (R12): the other knocks in the playouts at the hand's limit, unless
    its hand in the world could have knocked after its last discard: then only below that deadwood, and at
    gin (0) when it held 1 or gin already; before its first discard no knock was declined."""
    from simgin.kernels import analysis as kernel, view as table_layout

    def mask(text: str) -> np.int64:
        return np.int64(sum(1 << parse_card(card) for card in text.split()))

    table = np.zeros(table_layout.TABLE_SIZE, dtype=np.int64)
    table[table_layout.T_KNOCK_LIMIT] = 10
    six = mask("2C 3C 4C 5D 6D 7D 8H 8S 8C 6S")  # three melds and 6S: deadwood 6
    far = mask("2C 5D 9H KS QD JC 3S 7H 4D 8C")
    one = mask("2C 3C 4C 5D 6D 7D 8H 8S 8C AS")
    assert kernel.holding_level(table, 1, six) == 10  # no discard yet
    table[table_layout.T_DISCARD_COUNT + 1] = 3
    assert kernel.holding_level(table, 1, six) == 5
    assert kernel.holding_level(table, 1, far) == 10
    assert kernel.holding_level(table, 1, one) == 0
    assert kernel.holding_level(table, 0, six) == 10  # seat 0 has not discarded

"""``play_hand_rows`` / ``play_game_rows`` with strategy specs: both engines, same rows, clear errors.

Illegal decisions (R9, R10, V7) raise :class:`simgin.running.engine.IllegalDecision` naming the
strategy (its spec), the decision and the hand seed, whichever engine plays the hand.
"""

from __future__ import annotations

import dataclasses
import textwrap

import numpy as np
import pytest
from simgin.strategies.compiled import CompiledStrategy, fill_table

from simgin.game import play, reference_engine as ref
from simgin.game.rules import Rules
from simgin.kernels import engine as k, view as v
from simgin.players.registry import resolve
from simgin.running import engine
from simgin.running.engine import IllegalDecision, hand_seeds, play_game_rows, play_hand_rows

BAD_BOTS = textwrap.dedent(
    '''
    class Base:
        """Plays like simple's twin until it breaks a rule."""

        def __init__(self):
            from simgin.strategies.simple import SimpleStrategy
            self.inner = SimpleStrategy()

        def start_hand(self, view, rng):
            self.inner.start_hand(view, rng)

        def take_up_card(self, view, rng):
            return self.inner.take_up_card(view, rng)

        def draw_from_pile(self, view, rng):
            return True  # always the pile, so R10 can be broken

        def discard(self, view, rng):
            return self.inner.discard(view, rng)

        def knock(self, view, rng):
            return self.inner.knock(view, rng)

        def big_gin(self, view, rng):
            return True

        def take_fiftieth(self, view, rng):
            return True


    class NotHeld(Base):
        """Discards a card it does not hold (R9)."""

        def discard(self, view, rng):
            return next(card for card in range(52) if card not in view.hand)


    class Rediscard(Base):
        """Discards the card it just took from the pile (R10)."""

        def discard(self, view, rng):
            return view.drawn_card if view.drawn_from_pile else view.hand[0]


    class Maybe(Base):
        """Answers 'maybe' when asked to knock."""

        def knock(self, view, rng):
            return "maybe"


    class OverLimit(Base):
        """Never knocks; after taking the 50th card (V7) it discards to the most deadwood."""

        def discard(self, view, rng):
            if view.fiftieth_card:
                from simgin.game.melds import discard_deadwoods

                left = discard_deadwoods(view.hand)
                return max(view.hand, key=lambda card: left[card])
            return self.inner.discard(view, rng)

        def draw_from_pile(self, view, rng):
            return self.inner.draw_from_pile(view, rng)

        def knock(self, view, rng):
            return False
    '''
)


@pytest.fixture(scope="module")
def bad_bots(tmp_path_factory):
    path = tmp_path_factory.mktemp("bots") / "bad_bots.py"
    path.write_text(BAD_BOTS, encoding="utf-8")
    return path


SEEDS = hand_seeds(2024, 40)
DEALERS = np.arange(40, dtype=np.int64) % 2


@pytest.mark.parametrize(
    "players",
    [("simple", "greedy"), ("heuristic:safety=1", "random"), ("opponent", "simgin.strategies.simple:SimpleStrategy")],
)
def test_the_same_seeds_give_the_same_rows(players):
    first = play_hand_rows(players, Rules(), SEEDS, DEALERS)
    assert first.shape == (40, k.HAND_FIELD_COUNT)
    assert np.array_equal(first, play_hand_rows(players, Rules(), SEEDS, DEALERS))
    assert np.array_equal(first[10:20], play_hand_rows(players, Rules(), SEEDS[10:20], DEALERS[10:20]))
    games = play_game_rows(players, Rules.preset("eaai"), SEEDS[:6])
    again = play_game_rows(players, Rules.preset("eaai"), SEEDS[:6])
    for a, b in zip(games, again, strict=True):
        assert np.array_equal(a, b)


def test_a_twin_spec_gives_the_rows_of_the_compiled_bot():
    python_rows = play_hand_rows(("simgin.strategies.simple:SimpleStrategy", "random"), Rules(), SEEDS, DEALERS)
    assert np.array_equal(python_rows, play_hand_rows(("simple", "random"), Rules(), SEEDS, DEALERS))


@pytest.mark.parametrize(
    "players, message",
    [
        ("simple", "two strategy specs"),
        (("simple",), "two strategy specs"),
        (("simple", "greddy"), "unknown strategy 'greddy'"),
        (("heuristic:knok=1", "simple"), "unknown parameter 'knok'"),
    ],
)
def test_bad_players_are_value_errors(players, message):
    with pytest.raises(ValueError, match=message):
        play_hand_rows(players, Rules(), SEEDS[:2], DEALERS[:2])


def test_seeds_and_dealers_are_checked():
    with pytest.raises(ValueError, match="of one length"):
        play_hand_rows(("simple", "simple"), Rules(), SEEDS[:3], DEALERS[:2])
    with pytest.raises(ValueError, match="dealers must be seats 0 or 1"):
        play_hand_rows(("simple", "simple"), Rules(), SEEDS[:2], np.array([0, 2]))


@pytest.mark.parametrize(
    "bot, rules, decision, reason",
    [
        ("NotHeld", Rules(), "discard", "is not held"),
        ("Rediscard", Rules(), "discard", r"was just taken from the pile and may not be discarded \(R10\)"),
        ("Maybe", Rules(), "knock", "answered 'maybe', which is not True or False"),
        (
            "OverLimit",
            dataclasses.replace(Rules(), fiftieth_card_action=True),
            "discard",
            r"over the knock limit.*\(V7\)",
        ),
    ],
)
def test_illegal_decisions_name_the_strategy_the_decision_and_the_hand(bad_bots, bot, rules, decision, reason):
    spec = f"{bad_bots}:{bot}"
    pattern = rf"strategy '{spec}' \(seat (0|1)\) made an illegal '{decision}' decision: .*{reason}.*hand seed \d+"
    seeds = hand_seeds(5, 400)
    dealers = np.arange(400, dtype=np.int64) % 2
    with pytest.raises(IllegalDecision, match=pattern):
        play_hand_rows((spec, "random"), rules, seeds, dealers)
    with pytest.raises(IllegalDecision, match=pattern):
        play_game_rows(("random", spec), rules.with_settings({"target": 1000}), seeds[:20])


def test_kernel_errors_name_the_strategy_the_decision_and_the_hand():
    """The numba engine reports an illegal discard by seat; the message matches the reference engine's."""
    pair = engine.resolve_players(("simple", "heuristic:knock=7"))
    error = play._kernel_error(pair, k.ERROR_REDISCARD, 1, 1234, ", dealer 0")
    assert str(error) == (
        "strategy 'heuristic:knock=7' (seat 1) made an illegal 'discard' decision: discarded the card just "
        "taken from the pile (R10) (hand seed 1234, dealer 0)"
    )
    assert isinstance(error, ref.IllegalDecision) and engine.IllegalDecision is ref.IllegalDecision


def test_the_adapter_table_holds_what_the_view_shows_and_nothing_of_the_players_own_moves():
    seen = []

    class Spy(CompiledStrategy):
        def discard(self, view, rng):
            table = np.zeros(v.TABLE_SIZE, dtype=np.int64)
            fill_table(table, view)
            seen.append((view, table))
            return super().discard(view, rng)

    ref.play_game((Spy("simple", 1), resolve("random").make()), Rules.preset("eaai"), game_seed=3)
    assert seen
    for view, table in seen:
        other = 1 - view.seat
        pile = table[v.T_PILE : v.T_PILE + table[v.T_PILE_COUNT]].tolist()
        took = table[v.T_TOOK + other * v.LIST_CAPACITY :][: table[v.T_TOOK_COUNT + other]].tolist()
        discards = table[v.T_DISCARDS + other * v.LIST_CAPACITY :][: table[v.T_DISCARD_COUNT + other]].tolist()
        assert pile == list(view.pile) and took == list(view.opponent_took)
        assert discards == list(view.opponent_discards)
        assert (table[v.T_SCORE], table[v.T_SCORE + 1]) == view.scores
        assert table[v.T_STOCK_COUNT] == view.stock_count and table[v.T_DRAWN] == view.drawn_card
        assert table[v.T_TOOK_COUNT + view.seat] == table[v.T_DISCARD_COUNT + view.seat] == 0
        assert table[v.T_RULES : v.T_RULES + 20].tolist() == Rules.preset("eaai").to_array().tolist()
    assert any(view.scores != (0, 0) for view, _ in seen), "later hands show the game score"


def test_the_table_has_room_for_every_move_of_a_capped_hand():
    # A seat plays at most half of the MAX_TURNS turns, plus the V7 take.
    assert v.LIST_CAPACITY >= k.MAX_TURNS // 2 + 2


def test_the_engine_refuses_a_spec_where_a_resolved_player_belongs():
    """Issue 33: ``game.play`` and ``game.multiplayer`` seat resolved players; a name is resolved in
    ``running.engine``, and one given to the engine says so instead of failing on a missing attribute."""
    from simgin.game import multiplayer

    seeds = np.zeros(0, dtype=np.uint64)
    message = r"'simple' is a spec: resolve it first .* simgin\.running\.engine"
    with pytest.raises(TypeError, match=message):
        play.play_hand_rows((resolve("greedy"), "simple"), Rules(), seeds, np.zeros(0, dtype=np.int64))
    with pytest.raises(TypeError, match=message):
        play.play_game_rows(("simple", resolve("greedy")), Rules(), seeds)
    with pytest.raises(TypeError, match=message):
        multiplayer.play_table_rows("three", (resolve("greedy"), "simple", resolve("greedy")), Rules(), seeds)
    rows = play.play_hand_rows((resolve("simple"), resolve("greedy")), Rules(), hand_seeds(5, 4), np.arange(4) % 2)
    assert np.array_equal(rows, play_hand_rows(("simple", "greedy"), Rules(), hand_seeds(5, 4), np.arange(4) % 2))

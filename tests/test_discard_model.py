"""The ``opponent`` bot's learned discard score (issue 24): its data file, its use, its training command.

The weights are fitted to a search teacher by ``simgin/tools/train_discard.py`` and shipped
as ``strategies/opponent_discard.json``; ``kernels.heuristic.best_discard`` applies them
(R9, R10; the knock limit of R12, V1 and V9 decides which weights and whether ``reach``
counts).
"""

from __future__ import annotations

import importlib
import json

import numpy as np
import pytest
from simgin.strategies import opponent
from simgin.strategies.compiled import parameter_vector

from simgin.game.cards import parse_cards
from simgin.game.rules import Rules
from simgin.kernels import heuristic, parameters as pm
from simgin.kernels.melds import SUIT_DEADWOOD
from simgin.players.registry import resolve
from simgin.running.engine import hand_seeds, play_hand_rows


def _trainer():
    return importlib.import_module("simgin.tools.train_discard")


def test_the_shipped_weights_are_the_bots_defaults():
    weights = opponent.discard_weights()
    assert set(weights) == set(opponent.LEARNED)
    data = json.loads(opponent.DISCARD_MODEL.read_text())
    assert data["format"] == opponent.DISCARD_MODEL_FORMAT
    params = resolve("opponent").make().params
    for name, value in weights.items():
        assert params[pm.NAMES.index(name)] == pytest.approx(value), name
    # The frozen spec is the old bot: it sets every learned weight, to the issue-11 values.
    frozen = resolve(opponent.FROZEN_SPEC).make().params
    for name, value in opponent.FROZEN_DISCARD.items():
        assert frozen[pm.NAMES.index(name)] == value, name


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ({"format": 2, "weights": {}}, "format 2; this simgin reads format 1"),
        ({"format": 1, "weights": {"potential": 1.0}}, "expected exactly potential"),
        ([1, 2], "format 'list'"),
    ],
)
def test_a_data_file_of_another_format_or_with_missing_weights_is_refused(tmp_path, content, message):
    path = tmp_path / "model.json"
    path.write_text(json.dumps(content))
    with pytest.raises(ValueError, match=message) as error:
        opponent.discard_weights(path)
    assert str(path) in str(error.value)


# Three melds (A-2-3 of spades, three sevens, J-Q-K of hearts) and two loose cards: the 9 of
# diamonds, which the live 8 of diamonds would put into a run with the 7 (potential 1), and the
# 3 of clubs, which nothing live would meld. Discarding the 9 leaves deadwood 3; the 3, 9.
HAND = "AS 2S 3S 7C 7D 7H JH QH KH 9D 3C"
NINE, THREE = parse_cards("9D 3C")


def _discard(knock_limit: int, **weights: float) -> int:
    hand = 0
    for card in parse_cards(HAND):
        hand |= 1 << card
    live = np.zeros(52)
    for card in parse_cards("9S 9C 9H 8D TD"):
        live[card] = 1.0
    params = parameter_vector(opponent.PARAMETERS, {"value": 0.0, **weights})
    work = np.empty(52, np.int64)
    card, _ = heuristic.best_discard(
        params, hand, np.int64(-1), np.int64(-1), live, np.zeros(52), work, SUIT_DEADWOOD, 1.0, np.int64(knock_limit)
    )
    return int(card)


def test_the_hand_is_what_the_comment_says():
    live = np.zeros(52)
    live[parse_cards("8D")[0]] = 1.0
    hand = sum(1 << card for card in parse_cards(HAND))
    assert heuristic.potential(hand, NINE, live) == 1.0 and heuristic.potential(hand, THREE, live) == 0.0


def test_reach_makes_it_discard_to_a_knockable_hand_only_where_the_limit_allows_it():
    # Potential 8 per live card keeps the promising 9 and throws the 3 (R9: 3 + 8 > 9) ...
    assert _discard(10, potential=8.0, reach=0.0) == THREE
    # ... unless throwing the 9 is the only way within a knock limit of 5 (R12, V9's up-card limits).
    assert _discard(5, potential=8.0, reach=8.0) == NINE
    # Where both discards reach the limit, reach changes nothing.
    assert _discard(10, potential=8.0, reach=8.0) == THREE


def test_a_hand_only_gin_can_end_uses_the_gin_weights():
    # V1 (knock limit 0): potential is the gin_ weight scaled by gin_only; reach does not count.
    gin = {"gin_potential": 8.0, "gin_potential_late": 8.0}
    assert _discard(0, potential=8.0, gin_potential=0.0, gin_potential_late=0.0, gin_only=1.0) == NINE
    assert _discard(0, potential=0.0, gin_only=1.0, **gin) == THREE
    assert _discard(0, potential=0.0, gin_only=0.0, **gin) == NINE
    assert _discard(0, potential=8.0, gin_potential=0.0, gin_potential_late=0.0, reach=40.0) == NINE


def _planted_table(trainer, seed: int, true_weights: np.ndarray, positions: int = 400):
    """Positions whose teacher values are minus a known score plus noise: the fit must recover the ranking."""
    rng = np.random.default_rng(seed)
    count = positions * 11
    x = rng.uniform(0, 1, (count, len(trainer.FEATURES)))
    x[:, 0] = rng.integers(0, 40, count)
    y = -(x @ true_weights) + rng.normal(0, 0.3, count)
    index = np.repeat(np.arange(positions), 11)
    return trainer.as_table(x, y, index, np.zeros(count, bool))


def test_the_ranking_fit_recovers_a_planted_teacher():
    trainer = _trainer()
    truth = np.array([1.0, 6.0, -4.0, 5.0, 0.5, 2.0, 7.0])
    table = _planted_table(trainer, 1, truth)
    rows = np.ones(len(table["gin_only"]), bool)
    start = trainer.weight_vector(opponent.FROZEN_DISCARD)
    fitted = trainer.fit_ranking(table, rows, start, steps=800)
    assert fitted[0] == 1.0  # the deadwood's weight is held: scores stay in deadwood points
    assert trainer.regret(table, fitted, rows) < 0.5 * trainer.regret(table, start, rows)
    assert trainer.regret(table, fitted, rows) <= trainer.regret(table, truth, rows) + 0.2


@pytest.mark.slow  # compiles the teacher's kernels afresh (they are not cached): .ci/run runs it with the slow tests
def test_the_training_command_writes_the_same_file_from_the_same_seed(tmp_path):
    trainer = _trainer()
    first, second, other = (tmp_path / name for name in ("a.json", "b.json", "c.json"))
    for path, seed in ((first, 5), (second, 5), (other, 6)):
        trainer.main(["--hands", "6", "--worlds", "4", "--seed", str(seed), "--write", "--out", str(path)])
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes() != other.read_bytes()
    data = json.loads(first.read_text())
    assert data["format"] == opponent.DISCARD_MODEL_FORMAT and set(data["weights"]) == set(opponent.LEARNED)
    # The file is one the bot reads.
    assert opponent.discard_weights(first).keys() == set(opponent.LEARNED)


def test_the_bot_plays_the_weights_of_the_data_file():
    # The shipped bot and a spec that sets the file's weights play the same hands; a spec that moves one
    # learned weight far does not (R9-R12 under the standard rules).
    weights = opponent.discard_weights()
    explicit = opponent.spec_with(weights)
    moved = opponent.spec_with({**weights, "potential": -weights["potential"]})
    seeds = hand_seeds(11, 100)
    dealers = np.arange(100, dtype=np.int64) % 2

    def rows(spec: str) -> np.ndarray:
        return play_hand_rows((spec, "simple"), Rules(), seeds, dealers)

    assert np.array_equal(rows("opponent"), rows(explicit))
    assert not np.array_equal(rows("opponent"), rows(moved))


def test_a_start_must_set_every_learned_weight_by_name():
    # "gin_potential=..." must not pass for "potential=...": the names are compared, not substrings.
    trainer = _trainer()
    partial = opponent.spec_with({k: v for k, v in opponent.FROZEN_DISCARD.items() if k != "potential"})
    with pytest.raises(SystemExit):
        trainer.main(["--hands", "1", "--worlds", "1", "--start", partial])

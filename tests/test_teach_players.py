"""``simgin.tools.teach_players`` (issue 37): ``opponent``'s discard weights of hands only gin can end (V1, V9)
fitted to a teacher that plays each hand on with the players themselves (``kernels.continuation``)."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest
from simgin.strategies import opponent

from simgin.tools import teach_players, train_discard


def _planted_gin_table(true_weights: np.ndarray, positions: int = 400, seed: int = 3) -> dict[str, np.ndarray]:
    """Gin-only positions whose teacher values are minus a known score plus noise."""
    rng = np.random.default_rng(seed)
    count = positions * 11
    x = rng.uniform(0, 1, (count, len(train_discard.FEATURES)))
    x[:, 0] = rng.integers(0, 40, count)
    x[:, 5:] = 0.0  # a hand only gin can end has no value and no reach term (kernels.heuristic.discard_score)
    y = -(x @ true_weights) + rng.normal(0, 0.3, count)
    index = np.repeat(np.arange(positions), 11)
    return train_discard.as_table(x, y, index, np.ones(count, bool))


def test_the_gin_fit_recovers_a_planted_teacher_and_reports_the_held_out_shortfall():
    truth = np.array([1.0, 6.0, -4.0, 5.0, 0.5, 0.0, 0.0])
    baseline = opponent.FROZEN_DISCARD
    fitted, held_out = teach_players.fit_weights(_planted_gin_table(truth), baseline)
    assert fitted["gin_only"] == 1.0 and set(fitted) == {"gin_only", *train_discard.GIN_WEIGHTS}
    assert held_out["positions"] == 200  # the odd positions check
    assert held_out["fitted"] < 0.5 * held_out["start"]
    # Only the gin_ weights move: a hand a knock can end scores its discards as before.
    assert np.array_equal(train_discard.weight_vector({**baseline, **fitted}), train_discard.weight_vector(baseline))


def test_the_knock_fit_moves_only_the_weights_of_hands_a_knock_can_end():
    truth = np.array([1.0, 6.0, -4.0, 5.0, 0.5, 2.0, 7.0])
    rng = np.random.default_rng(4)
    x = rng.uniform(0, 1, (4400, len(train_discard.FEATURES)))
    x[:, 0] = rng.integers(0, 40, 4400)
    y = -(x @ truth) + rng.normal(0, 0.3, 4400)
    table = train_discard.as_table(x, y, np.repeat(np.arange(400), 11), np.zeros(4400, bool))
    baseline = opponent.FROZEN_DISCARD
    fitted, held_out = teach_players.fit_weights(table, baseline, "knock")
    assert set(fitted) == set(train_discard.FEATURES[1:])
    assert held_out["fitted"] < 0.5 * held_out["start"]
    assert np.array_equal(
        train_discard.weight_vector({**baseline, **fitted}, gin_only=True),
        train_discard.weight_vector(baseline, gin_only=True),
    )


def test_joined_tables_number_the_positions_on():
    part = {"x": np.zeros((3, 7)), "y": np.arange(3.0), "index": np.array([0, 0, 1]), "gin_only": np.ones(3, bool)}
    x, y, index, gin_only = teach_players.joined([part, part])
    assert gin_only.all()
    assert index.tolist() == [0, 0, 1, 2, 2, 3] and y.tolist() == [0, 1, 2, 0, 1, 2] and x.shape == (6, 7)


def test_a_round_sets_only_the_gin_weights_and_is_listed_in_the_file(tmp_path):
    path = tmp_path / "opponent_discard.json"
    shutil.copy(opponent.DISCARD_MODEL, path)
    before = opponent.discard_weights(path)
    fitted = {"gin_only": 1.0, "gin_potential": 1.5, "gin_potential_late": -1.0, "gin_safety": 0.5}
    teach_players.write_round(path, fitted, {"command": "python -m simgin.tools.teach_players --write"})
    after = opponent.discard_weights(path)  # the bot reads the file
    assert after == {**before, **fitted}
    rounds = json.loads(path.read_text())["player_teacher_rounds"]
    assert rounds[-1]["command"] == "python -m simgin.tools.teach_players --write"


def test_the_shipped_file_lists_the_rounds_that_set_its_gin_weights():
    data = json.loads(opponent.DISCARD_MODEL.read_text())
    weights = data["weights"]
    last = data["player_teacher_rounds"][-1]
    assert all(weights[name] == value for name, value in last["weights"].items())
    assert last["command"].startswith("python -m simgin.tools.teach_players ")


@pytest.mark.slow  # compiles the teacher's kernels (train_discard's are not cached): .ci/run runs it
def test_the_command_collects_gin_only_positions_and_writes_the_same_file_from_the_same_seeds(tmp_path):
    positions = teach_players.collect(2, 5, opponent.spec_with(opponent.discard_weights()))
    assert positions and all(state[train_discard.v.T_KNOCK_LIMIT] == 0 for _, _, state, _ in positions)
    assert {other for *_, other in positions} <= {"simple", opponent.spec_with(opponent.discard_weights())}
    files = []
    for name in ("a", "b"):
        path = tmp_path / f"{name}.json"
        shutil.copy(opponent.DISCARD_MODEL, path)
        argv = ["--hands", "3", "--worlds", "4", "--seeds", "5,6", "--workers", "1", "--write", "--out", str(path)]
        teach_players.main(argv)
        files.append(path.read_bytes())
    assert files[0] == files[1]
    assert json.loads(files[0])["player_teacher_rounds"][-1]["command"].endswith("--seeds 5,6 --write")


@pytest.mark.slow  # compiles the teacher's kernels: .ci/run runs it
def test_the_draw_regime_chooses_a_gin_draw_margin_on_the_grid_and_lists_its_round(tmp_path):
    path = tmp_path / "opponent_discard.json"
    shutil.copy(opponent.DISCARD_MODEL, path)
    argv = ["--regime", "gin_draw", "--hands", "3", "--worlds", "4", "--seeds", "7", "--workers", "1", "--write"]
    teach_players.main([*argv, "--out", str(path)])
    data = json.loads(path.read_text())
    last = data["player_teacher_rounds"][-1]
    assert last["regime"] == "gin_draw" and last["positions"] > 0
    margin = data["weights"]["gin_draw_margin"]
    assert margin == last["weights"]["gin_draw_margin"] and -5 <= margin <= 5 and (4 * margin).is_integer()
    assert {k: v for k, v in data["weights"].items() if k != "gin_draw_margin"} == {
        k: v for k, v in opponent.discard_weights().items() if k != "gin_draw_margin"
    }

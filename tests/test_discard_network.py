"""``opponent``'s discard networks (issue 37, ``kernels.discard_network``): the kernel against plain numpy for both,
the network's discard against a plain-Python choice, which network applies where (R12, R19, V1, V2), the data
files' checks, the fit of ``simgin.tools.train_discard_network`` on a planted teacher, and the undercut regime's
positions."""

from __future__ import annotations

import json

import numpy as np
import pytest
from simgin.strategies import opponent

from simgin.game.rules import Rules
from simgin.kernels import discard_network as network, heuristic, knock, parameters as pm, rule_index as ri, view
from simgin.kernels.melds import SUIT_DEADWOOD, discard_deadwoods
from simgin.players.registry import resolve
from simgin.tools import gates, train_discard_network as trainer


def random_inputs(rng: np.random.Generator, count: int) -> np.ndarray:
    """Rows of inputs in the ranges play gives them (deadwood, potential, danger, stage, value, flags, outs, limit)."""
    rows = np.column_stack(
        [
            rng.integers(0, 90, count),
            rng.random(count) * 4,
            rng.random(count),
            rng.random(count),
            rng.integers(1, 11, count),
            rng.integers(0, 2, count),
            rng.integers(0, 2, count),
            rng.random(count) * 3,
            rng.integers(1, 11, count) / 10,
        ]
    ).astype(np.float64)
    return rows


@pytest.mark.parametrize("regime", [network.LOW_UNDERCUT, network.HIGH_UNDERCUT])
def test_the_kernel_computes_the_plain_numpy_network(regime):
    rng = np.random.default_rng(1)
    rows = random_inputs(rng, 2000)
    expected = network.correction_reference(rows, regime=regime)
    got = np.array([network.correction(row.copy(), regime) for row in rows])
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    assert np.ptp(expected) > 1.0  # the shipped network does tell discards apart


def test_the_two_networks_are_their_files_and_differ():
    rows = random_inputs(np.random.default_rng(2), 500)
    low, high = (network.correction_reference(rows, regime=r) for r in (network.LOW_UNDERCUT, network.HIGH_UNDERCUT))
    assert not np.allclose(low, high)
    for regime, path in enumerate(network.WEIGHTS_FILES):
        from_file = network.correction_reference(rows, network.read_weights(path))
        np.testing.assert_array_equal(from_file, network.correction_reference(rows, regime=regime))
        command = json.loads(path.read_text())["command"]
        assert ("--regime undercut" in command) is (regime == network.HIGH_UNDERCUT)


def _rule_array(**settings: object) -> np.ndarray:
    return Rules().with_settings(settings).to_array()


def network_choice_reference(params, hand, banned, live, risk, share, knock_limit, unseen, outs, regime):
    """Plain Python: each legal discard's score (the linear score, the gin outs term, under ``HIGH_UNDERCUT`` the
    look one draw ahead, ``improve`` per point of deadwood shed, the network's term) and the lowest, ties to the
    higher rank, then the higher card."""
    improve = params[pm.IMPROVE] if regime == network.HIGH_UNDERCUT else 0.0
    work = np.empty(52, np.int64)
    discard_deadwoods(hand, SUIT_DEADWOOD, work)
    wp, ws, _ = heuristic.discard_weights(params, share, knock_limit)
    best, best_score = -1, 0.0
    for c in range(52):
        if not (hand >> c) & 1 or c == banned:
            continue
        left = int(work[c])
        pot = heuristic.potential(hand, c, live)
        score = left + wp * pot + ws * risk[c]
        if left == 0:
            score -= params[pm.REACH_GIN]
        score -= params[pm.VALUE] * min(c % 13 + 1, 10)
        if left <= knock_limit:
            score -= params[pm.REACH]
        gin_outs = 0.0
        if outs != 0.0 and 0 < left <= heuristic.OUTS_DEADWOOD:
            gin_outs, shed = knock.draw_outs(hand & ~(1 << c), left, unseen, live, SUIT_DEADWOOD)
            score -= improve * shed
            score -= outs * gin_outs
        row = np.array(
            [left, pot, risk[c], share, min(c % 13 + 1, 10), float(left <= knock_limit), float(left == 0), gin_outs,
             knock_limit / 10]
        )  # fmt: skip
        score += params[pm.DISCARD_NETWORK] * network.correction_reference(row[None, :], regime=regime)[0]
        if best < 0 or score < best_score - 1e-9 or (abs(score - best_score) <= 1e-9 and c % 13 >= best % 13):
            best, best_score = c, score
    return best


@pytest.mark.parametrize(
    ("scale", "regime", "improve"),
    [
        (1.0, network.LOW_UNDERCUT, 0.3),  # improve is not counted here
        (0.5, network.LOW_UNDERCUT, 0.3),
        (2.0, network.LOW_UNDERCUT, 0.3),
        (1.0, network.HIGH_UNDERCUT, 0.3),  # the default
        (1.0, network.HIGH_UNDERCUT, 0.0),
        (1.0, network.HIGH_UNDERCUT, 2.0),
    ],
)
def test_the_network_discard_is_the_plain_choice(scale, regime, improve):
    params = resolve(f"opponent:discard_network={scale},improve={improve}").make().params
    rng = np.random.default_rng(int(scale * 10 + improve * 100))
    work = np.empty(52, np.int64)
    differ_from_linear = 0
    for trial in range(600):
        cards = rng.permutation(52)
        hand = int(sum(1 << int(c) for c in cards[:11]))
        unseen = int(sum(1 << int(c) for c in cards[11:40]))
        live = rng.random(52)
        risk = rng.random(52)
        share = float(rng.random())
        knock_limit = int(rng.integers(1, 11))
        outs = 6.0 if trial % 2 else 0.0
        banned = int(cards[int(rng.integers(0, 11))]) if trial % 3 == 0 else -1
        got = heuristic.network_discard(
            params, hand, banned, -1, live, risk, work, SUIT_DEADWOOD, share, knock_limit, unseen, outs, regime
        )
        reference = network_choice_reference(params, hand, banned, live, risk, share, knock_limit, unseen, outs, regime)
        assert got == reference
        arguments = (params, hand, banned, -1, live, risk, work, SUIT_DEADWOOD, share, knock_limit)
        with_outs = heuristic.discard_for_outs(*arguments, unseen, outs) if outs else -1
        linear = with_outs if outs else heuristic.best_discard(*arguments)[0]
        differ_from_linear += got != linear
    assert differ_from_linear > 20  # the network changes some choices (a test that could fail)


def test_with_the_network_off_the_discard_is_the_linear_one():
    # improve=0: the look one draw ahead is a term of network_discard under HIGH_UNDERCUT, network or not
    params = resolve("opponent:discard_network=0,improve=0").make().params
    rng = np.random.default_rng(7)
    work = np.empty(52, np.int64)
    for _ in range(300):
        cards = rng.permutation(52)
        hand = int(sum(1 << int(c) for c in cards[:11]))
        unseen = int(sum(1 << int(c) for c in cards[11:40]))
        live, risk, share = rng.random(52), rng.random(52), float(rng.random())
        limit = int(rng.integers(1, 11))
        arguments = (params, hand, -1, -1, live, risk, work, SUIT_DEADWOOD, share, limit, unseen, 6.0)
        for regime in (network.LOW_UNDERCUT, network.HIGH_UNDERCUT):
            assert heuristic.network_discard(*arguments, regime) == heuristic.discard_for_outs(*arguments)


@pytest.mark.parametrize(
    ("settings", "regime"),
    [
        ({}, network.LOW_UNDERCUT),  # standard: undercut bonus 10 (R19)
        ({"undercut_bonus": 0}, network.LOW_UNDERCUT),
        ({"oklahoma": True}, network.LOW_UNDERCUT),
        ({"undercut_bonus": 15}, network.HIGH_UNDERCUT),
        ({"undercut_bonus": 25, "gin_bonus": 25}, network.HIGH_UNDERCUT),  # eaai, modern (V2)
        ({"knock_limit": 0}, -1),  # straight gin (V1): the gin_ weights alone
        ({"knock_limit": 0, "undercut_bonus": 25}, -1),
    ],
)
def test_which_network_applies(settings, regime):
    rules = _rule_array(**settings)
    limit = int(settings.get("knock_limit", 10))
    assert heuristic.network_of(rules, limit) == regime
    assert rules[ri.UNDERCUT_BONUS] == settings.get("undercut_bonus", 10)


def test_improve_changes_the_discard_only_where_the_undercut_bonus_is_above_10():
    """``opponent``'s look one draw ahead (``improve``, issue 37) is its default, 0 for the other bots, and counted
    only under ``HIGH_UNDERCUT`` (V2): its games differ from ``improve=0`` under eaai and modern and are the same
    under the standard, Oklahoma, straight and Hollywood presets, where it was not a gain."""
    assert resolve("opponent").make().params[pm.IMPROVE] == opponent.IMPROVE.default == 0.3
    assert resolve("heuristic").make().params[pm.IMPROVE] == 0.0
    assert resolve("mcts").make().params[pm.IMPROVE] == 0.0
    off = "opponent:improve=0"
    for preset in ("eaai", "modern"):
        assert not gates.same_play("opponent", off, preset), preset
    for preset in ("standard", "oklahoma", "straight", "hollywood"):
        assert gates.same_play("opponent", off, preset), preset


def test_opponent_plays_the_network_and_its_frozen_copy_does_not():
    assert resolve("opponent").make().params[pm.DISCARD_NETWORK] == 1.0
    assert resolve(opponent.FROZEN_SPEC).make().params[pm.DISCARD_NETWORK] == 0.0
    assert resolve("mcts").make().params[pm.DISCARD_NETWORK] == 0.0  # mcts's own discards are unchanged
    off = "opponent:discard_network=0"
    assert not gates.same_play("opponent", off, "standard")
    assert gates.same_play("opponent", off, "straight")  # knock limit 0 (V1)
    assert not gates.same_play("opponent", off, "eaai")  # undercut bonus 25 (V2): the second network


def _network_file(tmp_path, change):
    data = json.loads(network.WEIGHTS_FILE.read_text())
    change(data)
    path = tmp_path / "network.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format=2), "not a discard network of format 1"),
        (lambda d: d.update(inputs=d["inputs"][:-1]), "not a discard network of format 1"),
        (lambda d: d["network"].update(out=d["network"]["out"][:-1]), "hidden must be"),
        (lambda d: d["network"]["scale"].__setitem__(0, 0.0), "every input scale must be positive"),
        (lambda d: d["network"]["linear"].__setitem__(0, float("nan")), "linear must be"),
    ],
)
def test_a_damaged_weights_file_is_refused_with_a_clear_error(tmp_path, change, message):
    assert network.read_weights(network.WEIGHTS_FILE)["out"].shape == (network.UNITS,)
    with pytest.raises(ValueError, match=message):
        network.read_weights(_network_file(tmp_path, change))


def test_the_fit_learns_a_planted_nonlinear_teacher():
    # The teacher prefers, among discards of equal score, the one whose danger is low late in the hand and high
    # early (a product the linear score cannot express); the fit must find it.
    rng = np.random.default_rng(5)
    positions, width = 3000, 11
    rows = np.zeros((positions, width, trainer.COLUMNS))
    rows[..., : network.INPUT_COUNT] = random_inputs(rng, positions * width).reshape(positions, width, -1)
    rows[..., -1] = rng.normal(0, 0.3, (positions, width))  # the bot's own score: noise around a tie
    danger, stage = rows[..., 2], rows[..., 3]
    value = -4.0 * danger * (1.0 - 2.0 * stage) + rng.normal(0, 0.2, (positions, width))
    table = {"rows": rows, "value": value, "legal": np.ones((positions, width), bool)}
    flat = rows[..., :-1].reshape(-1, network.INPUT_COUNT)
    net = trainer.fit(table, flat.mean(axis=0), flat.std(axis=0) + 1e-9, units=4, steps=300, seed=0)
    before = trainer.regret(table, trainer.scores(table, None))
    after = trainer.regret(table, trainer.scores(table, net))
    assert after < 0.5 * before
    # A zero-output start is the bot's own choice.
    zero = {**net, "out": np.zeros_like(net["out"]), "linear": np.zeros_like(net["linear"])}
    assert trainer.regret(table, trainer.scores(table, zero)) == before


def test_the_undercut_regime_collects_only_its_hands_against_each_other_seat():
    chance = np.random.default_rng(3)
    for _ in range(200):
        rules = trainer.undercut_rules(chance)
        assert rules.undercut_bonus > heuristic.NETWORK_UNDERCUT_BONUS and rules.knock_limit > 0
        assert not rules.hollywood and not rules.oklahoma
    positions = trainer.collect_undercut(9, 4, trainer.collecting_spec())
    assert {other for *_, other in positions} == {trainer.collecting_spec(), *trainer.UNDERCUT_OTHERS[1:]}
    for _, _, state, _ in positions:
        rules = state[view.T_RULES : view.T_RULES + ri.RULE_COUNT]
        assert state[view.T_KNOCK_LIMIT] > 0
        assert heuristic.network_of(rules, state[view.T_KNOCK_LIMIT]) == network.HIGH_UNDERCUT


def test_a_further_round_collects_with_the_network_on_and_only_in_the_undercut_regime(capsys):
    """``--network-on``: the bot and its gin-only stand-in as shipped (the network plays in both), the other seats
    as in the first round; the knock regime, whose teacher plays no bot, refuses it with a one-line error."""
    assert trainer.collecting_spec(network_on=True) == "opponent"
    assert resolve(trainer.collecting_spec()).values["discard_network"] == 0.0
    assert all(resolve(spec).values["discard_network"] == 1.0 for spec in ("opponent", "opponent:knock=0,knock_late=0"))
    positions = trainer.collect_undercut(6, 4, "opponent", trainer.UNDERCUT_OTHERS_NETWORK_ON)
    assert {other for *_, other in positions} == {"opponent", *trainer.UNDERCUT_OTHERS_NETWORK_ON[1:]}
    with pytest.raises(SystemExit) as stopped:
        trainer.main(["--network-on", "--hands", "1"])
    assert stopped.value.code == 2
    assert "--network-on: only with --regime undercut" in capsys.readouterr().err

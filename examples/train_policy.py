"""Train a small Gin Rummy policy on simgin's batched environment with plain numpy, then measure it in simgin.

    python examples/train_policy.py --minutes 6 --out trained.npz
    simgin compare policy:weights=trained.npz random --max-games 400 --seed 1
    simgin compare policy:weights=trained.npz simple --max-games 400 --seed 1

The policy is a network of one hidden layer (390 -> 128 -> 58, ReLU) whose scores become a softmax over the
legal actions only (the action mask). It learns in two phases:

1. imitation: ``--teacher`` (a simgin bot) plays hands at a ``simgin.env.table.Table``; every decision is
   recorded as (observation, mask, the teacher's action), and the network is fitted to them by cross-entropy
   over the legal actions;
2. reinforcement: policy gradient (REINFORCE with a running-mean baseline, Adam) on the batched environment's
   hands against ``--opponent``, rewarded +1 for a won hand, -1 for a lost one (``reward="win"``), at a third
   of the imitation's step size.

The network is saved with ``simgin.env.policy.save_policy``, so ``policy:weights=FILE`` plays it in ``simgin
match``, ``compare``, ``sweep`` and ``analyse`` (docs/ENV.md). Everything runs on the CPU and two cores are
plenty: the hands are played in compiled code, the network in numpy.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from simgin.env import ACTION_COUNT, OBSERVATION_SIZE, batched_env
from simgin.env.policy import save_policy


class Network:
    """390 -> hidden -> 58 with ReLU; a masked softmax policy; Adam on the REINFORCE gradient."""

    def __init__(self, hidden: int, seed: int, rate: float) -> None:
        rng = np.random.default_rng(seed)
        self.params = [
            rng.normal(0, np.sqrt(2 / OBSERVATION_SIZE), (OBSERVATION_SIZE, hidden)).astype(np.float32),
            np.zeros(hidden, np.float32),
            rng.normal(0, 0.01, (hidden, ACTION_COUNT)).astype(np.float32),
            np.zeros(ACTION_COUNT, np.float32),
        ]
        self.moments = [np.zeros_like(p) for p in self.params]
        self.squares = [np.zeros_like(p) for p in self.params]
        self.rate, self.steps = rate, 0

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        hidden = np.maximum(x @ self.params[0] + self.params[1], 0.0)
        return hidden, hidden @ self.params[2] + self.params[3]

    @staticmethod
    def probabilities(scores: np.ndarray, masks: np.ndarray) -> np.ndarray:
        scores = np.where(masks.astype(bool), scores, -np.inf)
        scores = scores - scores.max(axis=1, keepdims=True)
        weights = np.exp(scores)
        return weights / weights.sum(axis=1, keepdims=True)

    def update(
        self, x: np.ndarray, masks: np.ndarray, actions: np.ndarray, advantages: np.ndarray, rate: float | None = None
    ) -> None:
        """One Adam step up the gradient of mean(advantage * log pi(action)) (``rate``: Adam's step size)."""
        hidden, scores = self.forward(x)
        probabilities = self.probabilities(scores, masks)
        d_scores = -probabilities
        d_scores[np.arange(len(actions)), actions] += 1.0
        d_scores *= (advantages / len(actions))[:, None]
        d_hidden = (d_scores @ self.params[2].T) * (hidden > 0)
        grads = [x.T @ d_hidden, d_hidden.sum(0), hidden.T @ d_scores, d_scores.sum(0)]
        self.steps += 1
        for p, g, m, v in zip(self.params, grads, self.moments, self.squares, strict=True):
            m *= 0.9
            m += 0.1 * g
            v *= 0.999
            v += 0.001 * g * g
            p += (rate or self.rate) * (m / (1 - 0.9**self.steps)) / (np.sqrt(v / (1 - 0.999**self.steps)) + 1e-8)

    def fit(self, x: np.ndarray, masks: np.ndarray, actions: np.ndarray, batch: int = 512) -> float:
        """One pass of supervised steps (cross-entropy over the legal actions); returns the share matched."""
        order = np.random.default_rng(self.steps).permutation(len(actions))
        for start in range(0, len(order), batch):
            chosen = order[start : start + batch]
            self.update(x[chosen], masks[chosen], actions[chosen], np.ones(len(chosen), np.float32))
        _, scores = self.forward(x)
        return float(np.mean(np.where(masks.astype(bool), scores, -np.inf).argmax(axis=1) == actions))

    def layers(self) -> list[tuple[np.ndarray, np.ndarray]]:
        return [(self.params[0], self.params[1]), (self.params[2], self.params[3])]


#: The most teacher decisions kept (each observation is 1.5 kB: 300,000 of them take about 470 MB).
MAX_DECISIONS = 300_000


def imitation_data(teacher: str, rules: str, minutes: float, seed: int) -> tuple[np.ndarray, ...]:
    """(observations, masks, actions) of ``teacher`` playing both seats, for ``minutes`` or ``MAX_DECISIONS``."""
    from simgin import Rules
    from simgin.env import Table
    from simgin.game.rng import SplitMix64, derive
    from simgin.players.registry import resolve

    table = Table(Rules.preset(rules))
    player = resolve(teacher)
    observations, masks, actions = [], [], []
    start, hand = time.perf_counter(), 0
    while time.perf_counter() - start < minutes * 60 and len(actions) < MAX_DECISIONS:
        hand_seed = int(derive(seed + 1, hand))
        table.deal(hand_seed, hand % 2)
        bots = (player.make(), player.make())
        rngs = (SplitMix64(derive(hand_seed, 1)), SplitMix64(derive(hand_seed, 2)))
        for seat in (0, 1):
            bots[seat].start_hand(table.view(seat), rngs[seat])
        while not table.over:
            seat = table.to_move
            observations.append(table.observation(seat))
            masks.append(table.legal_mask())
            actions.append(table.strategy_action(seat, bots[seat], rngs[seat]))
            table.step(actions[-1])
        hand += 1
    print(f"imitation: {len(actions):,} decisions of {teacher} in {hand:,} hands", flush=True)
    return np.stack(observations), np.stack(masks), np.array(actions)


def train(minutes: float, opponent: str, rules: str, tables: int, seed: int, network: Network) -> Network:
    env = batched_env(tables=tables, opponent=opponent, rules=rules, reward="win")
    observations, masks = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trajectories: list[list[tuple[np.ndarray, np.ndarray, int]]] = [[] for _ in range(tables)]
    batch: list[tuple[np.ndarray, np.ndarray, int, float]] = []
    baseline, results = 0.0, []
    start = time.perf_counter()
    report = start
    while time.perf_counter() - start < minutes * 60:
        _, scores = network.forward(observations)
        probabilities = network.probabilities(scores, masks)
        actions = (probabilities.cumsum(axis=1) > rng.random((tables, 1))).argmax(axis=1)
        actions = np.where(masks[np.arange(tables), actions] == 1, actions, masks.argmax(axis=1))
        for i in range(tables):
            trajectories[i].append((observations[i].copy(), masks[i].copy(), int(actions[i])))
        observations, masks, rewards, dones, _ = env.step(actions)
        for i in np.flatnonzero(dones):
            reward = float(rewards[i])
            results.append(reward)
            batch.extend((obs, mask, action, reward) for obs, mask, action in trajectories[i])
            trajectories[i] = []
        if len(batch) >= 8192:
            x = np.stack([step[0] for step in batch])
            m = np.stack([step[1] for step in batch])
            a = np.array([step[2] for step in batch])
            r = np.array([step[3] for step in batch], dtype=np.float32)
            network.update(x, m, a, r - baseline, rate=network.rate / 3)
            baseline = 0.9 * baseline + 0.1 * float(r.mean())
            batch = []
        if time.perf_counter() - report > 30 and results:
            recent = np.array(results[-2000:])
            print(
                f"{(time.perf_counter() - start) / 60:4.1f} min, {len(results):,} hands: "
                f"won {np.mean(recent > 0):.1%}, "
                f"lost {np.mean(recent < 0):.1%} of the last {len(recent):,} against {opponent}",
                flush=True,
            )
            report = time.perf_counter()
    return network


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--minutes", type=float, default=6.0, help="training time in all (default 6)")
    parser.add_argument("--teacher", default="heuristic", help="the simgin bot imitated first ('none': skip)")
    parser.add_argument("--imitate", type=float, default=0.5, help="share of the time spent on imitation")
    parser.add_argument("--opponent", default="simple", help="a compiled simgin bot to train against")
    parser.add_argument("--rules", default="standard", help="a rules preset")
    parser.add_argument("--tables", type=int, default=256)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--rate", type=float, default=1e-3, help="Adam's step size")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="trained.npz")
    args = parser.parse_args()
    network = Network(args.hidden, args.seed, args.rate)
    left = args.minutes
    if args.teacher != "none":
        started = time.perf_counter()
        x, masks, actions = imitation_data(args.teacher, args.rules, args.minutes * args.imitate * 0.6, args.seed)
        while (time.perf_counter() - started) / 60 < args.minutes * args.imitate:
            matched = network.fit(x, masks, actions)
        print(f"imitation: the network plays the teacher's action at {matched:.1%} of its decisions", flush=True)
        left -= (time.perf_counter() - started) / 60
    network = train(left, args.opponent, args.rules, args.tables, args.seed, network)
    path = save_policy(args.out, network.layers())
    print(f"saved {path}: play it as policy:weights={path}")


if __name__ == "__main__":
    main()

"""The RL environments (issue 36): environment steps per second with random legal actions, simgin's three
environments beside PettingZoo's ``gin_rummy_v4``, RLCard's gin-rummy and OpenSpiel's ``gin_rummy``.

Every environment runs the same loop for ``SECONDS`` (the AEC environments the very same text, each in a process
of its own): the player to move picks a uniformly random legal action
with Python's ``random.choice`` (the batched environment draws one random legal action per table with numpy),
and an episode that ends is reset. A *step* is one action of an agent; hands per second counts finished hands.
The foreign environments run in Python environments of their own, given by ``--pettingzoo-python`` (one with
``pettingzoo[classic]==1.24.3``, the last PettingZoo with ``gin_rummy_v4``; RLCard comes with it) and
``--openspiel-python`` (one with ``open_spiel``); each is skipped when not given. Goal (issue 36): the AEC
environment at least 5 times PettingZoo's steps per second, the batched one at least 100 times.

``python -m benchmarks.bench_env --write --pettingzoo-python /tmp/pz/bin/python --openspiel-python
/tmp/osp/bin/python`` writes the section of RESULTS.md.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time

import numpy as np

from benchmarks import harness

SECONDS = 10.0
REPRODUCE = ["--write", "--pettingzoo-python", "PZ", "--openspiel-python", "OSP"]

#: The foreign loops, run with ``python -c`` in their own environments; each prints steps, hands and seconds as JSON.
#: The AEC loop, the same text for PettingZoo's environment and simgin's; ``{make}`` builds ``env``.
AEC_LOOP = """
import json, random, sys, time
import numpy as np
{make}
env.reset(seed=0)
chooser = random.Random(0)
steps = hands = 0
start = time.perf_counter()
while time.perf_counter() - start < float(sys.argv[1]):
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            action = None
        else:
            action = chooser.choice(np.flatnonzero(observation["action_mask"]).tolist())
            steps += 1
        env.step(action)
    hands += 1
    env.reset()
print(json.dumps({{"steps": steps, "hands": hands, "seconds": time.perf_counter() - start}}))
"""
PETTINGZOO = AEC_LOOP.format(make="from pettingzoo.classic import gin_rummy_v4\nenv = gin_rummy_v4.env()")
SIMGIN_AEC = AEC_LOOP.format(make="from simgin.env import aec_env\nenv = aec_env()")

RLCARD = """
import json, random, sys, time
import rlcard
env = rlcard.make("gin-rummy", config={"seed": 0})
chooser = random.Random(0)
steps = hands = 0
start = time.perf_counter()
while time.perf_counter() - start < float(sys.argv[1]):
    state, player = env.reset()
    while not env.is_over():
        action = chooser.choice(list(state["legal_actions"]))
        state, player = env.step(action)
        steps += 1
    hands += 1
print(json.dumps({"steps": steps, "hands": hands, "seconds": time.perf_counter() - start}))
"""

OPENSPIEL = """
import json, random, sys, time
import pyspiel
game = pyspiel.load_game("gin_rummy")
chooser = random.Random(0)
steps = hands = 0
start = time.perf_counter()
while time.perf_counter() - start < float(sys.argv[1]):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(chooser.choices(outcomes, probabilities)[0])
        else:
            state.apply_action(chooser.choice(state.legal_actions()))
            steps += 1
    hands += 1
print(json.dumps({"steps": steps, "hands": hands, "seconds": time.perf_counter() - start}))
"""


def foreign(python: str, code: str, seconds: float) -> dict[str, float]:
    done = subprocess.run(
        [python, "-c", code, str(seconds)], capture_output=True, text=True, timeout=300 + seconds * 20
    )
    if done.returncode:
        raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed")
    return json.loads(done.stdout.strip().splitlines()[-1])


def single(seconds: float, opponent: str = "simple") -> dict[str, float]:
    from simgin.env import single_agent_env

    env = single_agent_env(opponent=opponent)
    observation, _ = env.reset(seed=0)
    chooser = random.Random(0)
    steps = hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        action = chooser.choice(np.flatnonzero(observation["action_mask"]).tolist())
        observation, _, terminated, _, _ = env.step(action)
        steps += 1
        if terminated:
            hands += 1
            observation, _ = env.reset()
    return {"steps": steps, "hands": hands, "seconds": time.perf_counter() - start}


def batched(seconds: float, tables: int, opponent: str | None) -> dict[str, float]:
    from simgin.env import batched_env

    env = batched_env(tables=tables, opponent=opponent)
    _, masks = env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = hands = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)  # a uniform random legal action per table
        _, masks, _, dones, _ = env.step(actions)
        steps += tables
        hands += int(dones.sum())
    return {"steps": steps, "hands": hands, "seconds": time.perf_counter() - start}


def main(argv: list[str] | None = None) -> None:
    parser = harness.parser(__doc__, quick="one second per environment")
    parser.add_argument("--pettingzoo-python", default=None, help="a Python with pettingzoo[classic]==1.24.3")
    parser.add_argument("--openspiel-python", default=None, help="a Python with open_spiel")
    args = parser.parse_args(argv)
    seconds = 1.0 if args.quick else SECONDS
    foreign(sys.executable, SIMGIN_AEC, 0.2), single(0.2), batched(0.2, 8, None), batched(0.2, 8, "simple")  # warm
    runs: list[tuple[str, dict[str, float] | str]] = []
    if args.pettingzoo_python:
        runs.append(
            (
                "PettingZoo `gin_rummy_v4` (1.24.3, AEC, two agents)",
                foreign(args.pettingzoo_python, PETTINGZOO, seconds),
            )
        )
        runs.append(("RLCard `gin-rummy` (two agents)", foreign(args.pettingzoo_python, RLCARD, seconds)))
    if args.openspiel_python:
        runs.append(
            ("OpenSpiel `gin_rummy` (Python API, two agents)", foreign(args.openspiel_python, OPENSPIEL, seconds))
        )
    runs += [
        ("simgin `aec_env()` (AEC, two agents)", foreign(sys.executable, SIMGIN_AEC, seconds)),
        ("simgin `single_agent_env('simple')` (agent steps; the opponent plays inside)", single(seconds)),
        ("simgin `batched_env(1024, opponent=None)` (self-play)", batched(seconds, 1024, None)),
        ("simgin `batched_env(1024, 'simple')` (agent steps)", batched(seconds, 1024, "simple")),
    ]
    base = next((run for name, run in runs if name.startswith("PettingZoo")), None)
    lines = [
        f"Measured {harness.machine()}; {seconds:.0f} s per environment, one process, random legal actions.",
        "",
        f"Reproduce: `{harness.command('bench_env', REPRODUCE)}` "
        "(PZ: a venv with `pettingzoo[classic]==1.24.3`, OSP: a venv with `open_spiel`).",
        "",
        "| environment | steps per second | hands per second | steps, x PettingZoo |",
        "|---|---:|---:|---:|",
    ]
    for name, run in runs:
        assert isinstance(run, dict)
        rate = run["steps"] / run["seconds"]
        ratio = f"{rate / (base['steps'] / base['seconds']):.1f}x" if base else "-"
        lines.append(f"| {name} | {rate:,.0f} | {run['hands'] / run['seconds']:,.0f} | {ratio} |")
        print(lines[-1], flush=True)
    lines += [
        "",
        "Goal (issue 36): the AEC environment at least 5x PettingZoo's steps per second, the batched one at least "
        "100x. Random play makes long hands (steps per hand = steps per second / hands per second: about 116 for "
        "two random agents), so hands per second are low for every environment.",
    ]
    if args.write and not args.quick:
        harness.write_section("bench_env", "The RL environments (issue 36)", "\n".join(lines))


if __name__ == "__main__":
    main()

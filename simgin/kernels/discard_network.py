"""Two small networks that correct ``opponent``'s discard score (issue 37): one hidden layer fitted to a search teacher.

The linear discard score (:func:`simgin.kernels.heuristic.discard_score`, its weights learned by
``simgin.tools.train_discard``) reached its limit with the playout teacher: a second round did not move it.
A network adds to that score a term it learns from a teacher, out of the inputs the score already has for
each legal discard (:data:`INPUTS`): the deadwood left, the meld potential thrown away, the danger of the
card, how much of the hand is to come, the card's value, whether the bot may then knock (R12) or has gin
(R13), the gin outs of the hand kept, and the knock limit (R12, V1, V9). Their interactions (a card's danger
weighing differently late, with a knockable hand, or near gin) are of the kind a linear score cannot express.

There are two, one per kind of hand a knock can end (:data:`REGIMES`; ``kernels.heuristic.network_of`` picks):

- :data:`LOW_UNDERCUT` (an undercut bonus of at most ``heuristic.NETWORK_UNDERCUT_BONUS``, R19: standard,
  Oklahoma, Hollywood), ``discard_network.json``, fitted to the playout teacher, whose playouts knock as soon
  as they may;
- :data:`HIGH_UNDERCUT` (a larger bonus, V2: eaai, modern), ``discard_network_undercut.json``, fitted to the
  players teacher (the two seats' own bots play the hand on, ``kernels.continuation``): under a rule that
  punishes a knock into an undercut, the playout teacher misjudges the hand (a network fitted to it lost 1.3
  points a hand there).

The weights live in those files beside this module, each written by ``simgin.tools.train_discard_network``
with the command that made it; they are read once at import and compiled into the kernels as constants, so
the numba cache stamp of this package hashes the files too (``kernels.sources_stamp``).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from numba import njit

#: The inputs of a discard, in the order of the weights' rows.
INPUTS = (
    "deadwood",
    "potential",
    "danger",
    "stage",
    "value",
    "may_knock",
    "gin",
    "gin_outs",
    "knock_limit",
)
INPUT_COUNT = len(INPUTS)
#: The networks, by the hands they correct: an undercut bonus of at most 10 (R19), or more (V2).
LOW_UNDERCUT = 0
HIGH_UNDERCUT = 1
REGIMES = ("knock", "undercut")
#: The weights' data files, by regime.
WEIGHTS_FILES = (
    Path(__file__).resolve().with_name("discard_network.json"),
    Path(__file__).resolve().with_name("discard_network_undercut.json"),
)
WEIGHTS_FILE = WEIGHTS_FILES[LOW_UNDERCUT]
#: Version of the data file's layout.
WEIGHTS_FORMAT = 1


def read_weights(path: Path = WEIGHTS_FILE) -> dict[str, np.ndarray]:
    """The network in ``path``: ``mean`` and ``scale`` of the inputs, ``hidden`` (inputs x units), ``bias``
    (units), ``out`` (units) and ``linear`` (inputs), as float64 arrays; a clear error for a bad file."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != WEIGHTS_FORMAT or tuple(data.get("inputs", ())) != INPUTS:
        raise ValueError(f"{path}: not a discard network of format {WEIGHTS_FORMAT} with inputs {', '.join(INPUTS)}")
    network = {name: np.asarray(data["network"][name], dtype=np.float64) for name in NETWORK_KEYS}
    units = network["out"].shape[0]
    shapes = {
        "mean": (INPUT_COUNT,),
        "scale": (INPUT_COUNT,),
        "hidden": (INPUT_COUNT, units),
        "bias": (units,),
        "out": (units,),
        "linear": (INPUT_COUNT,),
    }
    for name, shape in shapes.items():
        if network[name].shape != shape or not np.isfinite(network[name]).all():
            raise ValueError(f"{path}: {name} must be {shape} finite numbers")
    if (network["scale"] <= 0).any():
        raise ValueError(f"{path}: every input scale must be positive")
    return network


#: The arrays of the network, as the data file names them.
NETWORK_KEYS = ("mean", "scale", "hidden", "bias", "out", "linear")

_NETWORKS = tuple(read_weights(path) for path in WEIGHTS_FILES)
#: The networks stacked by regime, their hidden units padded with zero weights to the widest.
UNITS = max(net["out"].shape[0] for net in _NETWORKS)
MEAN = np.array([net["mean"] for net in _NETWORKS])
SCALE = np.array([net["scale"] for net in _NETWORKS])
LINEAR = np.array([net["linear"] for net in _NETWORKS])
HIDDEN = np.zeros((len(_NETWORKS), INPUT_COUNT, UNITS))
BIAS = np.zeros((len(_NETWORKS), UNITS))
OUT = np.zeros((len(_NETWORKS), UNITS))
for _regime, _net in enumerate(_NETWORKS):
    _width = _net["out"].shape[0]
    HIDDEN[_regime, :, :_width] = _net["hidden"]
    BIAS[_regime, :_width] = _net["bias"]
    OUT[_regime, :_width] = _net["out"]


@njit(cache=True)
def correction(inputs, regime):
    """The term of network ``regime`` (:data:`LOW_UNDERCUT` or :data:`HIGH_UNDERCUT`) for one discard (points,
    added to its score; lower is better): ``inputs`` in the order of :data:`INPUTS`, standardised in place by the
    file's mean and scale, then a linear part plus ``tanh`` units (``tanh(a)`` as ``1 - 2 / (exp(2a) + 1)``, in
    half the time of ``np.tanh``, the same to 3e-16; every row hashed the same, benchmarks/RESULTS.md)."""
    total = 0.0
    for k in range(INPUT_COUNT):
        inputs[k] = (inputs[k] - MEAN[regime, k]) / SCALE[regime, k]
        total += LINEAR[regime, k] * inputs[k]
    for j in range(UNITS):
        activation = BIAS[regime, j]
        for k in range(INPUT_COUNT):
            activation += HIDDEN[regime, k, j] * inputs[k]
        total += OUT[regime, j] * (1.0 - 2.0 / (np.exp(2.0 * activation) + 1.0))
    return total


def correction_reference(
    inputs: np.ndarray, network: dict[str, np.ndarray] | None = None, regime: int = LOW_UNDERCUT
) -> np.ndarray:
    """Plain-numpy :func:`correction` for rows of inputs, by ``network`` or else the shipped one of ``regime`` (the
    tests' reference, and the training tool's scores of the held-out positions)."""
    network = _NETWORKS[regime] if network is None else network
    standard = (np.asarray(inputs, dtype=np.float64) - network["mean"]) / network["scale"]
    return standard @ network["linear"] + np.tanh(standard @ network["hidden"] + network["bias"]) @ network["out"]

"""A small network that corrects ``opponent``'s discard score (issue 37): one hidden layer fitted to a search teacher.

The linear discard score (:func:`simgin.kernels.heuristic.discard_score`, its weights learned by
``simgin.tools.train_discard``) reached its limit with the playout teacher: a second round did not move it.
This network adds to that score a term it learns from the same teacher, out of the inputs the score
already has for each legal discard (:data:`INPUTS`): the deadwood left, the meld potential thrown away, the
danger of the card, how much of the hand is to come, the card's value, whether the bot may then knock (R12)
or has gin (R13), the gin outs of the hand kept, and the knock limit (R12, V1, V9). Their interactions (a card's
danger weighing differently late, with a knockable hand, or near gin) are of the kind a linear score cannot
express.

The weights live in ``discard_network.json`` beside this file, written by ``simgin.tools.train_discard_network``
with the command that made them; they are read once at import and compiled into the kernels as constants,
so the numba cache stamp of this package hashes that file too (``kernels.sources_stamp``).
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
#: The weights' data file.
WEIGHTS_FILE = Path(__file__).resolve().with_name("discard_network.json")
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

_NETWORK = read_weights()
MEAN = _NETWORK["mean"]
SCALE = _NETWORK["scale"]
HIDDEN = _NETWORK["hidden"]
BIAS = _NETWORK["bias"]
OUT = _NETWORK["out"]
LINEAR = _NETWORK["linear"]
UNITS = OUT.shape[0]


@njit(cache=True)
def correction(inputs):
    """The network's term for one discard (points, added to its score; lower is better): ``inputs`` in the order
    of :data:`INPUTS`, standardised in place by the file's mean and scale, then a linear part plus ``tanh``
    units."""
    total = 0.0
    for k in range(INPUT_COUNT):
        inputs[k] = (inputs[k] - MEAN[k]) / SCALE[k]
        total += LINEAR[k] * inputs[k]
    for j in range(UNITS):
        activation = BIAS[j]
        for k in range(INPUT_COUNT):
            activation += HIDDEN[k, j] * inputs[k]
        total += OUT[j] * np.tanh(activation)
    return total


def correction_reference(inputs: np.ndarray, network: dict[str, np.ndarray] | None = None) -> np.ndarray:
    """Plain-numpy :func:`correction` for rows of inputs (the tests' reference, and the training tool's scores of
    the held-out positions)."""
    network = _NETWORK if network is None else network
    standard = (np.asarray(inputs, dtype=np.float64) - network["mean"]) / network["scale"]
    return standard @ network["linear"] + np.tanh(standard @ network["hidden"] + network["bias"]) @ network["out"]

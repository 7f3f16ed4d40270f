"""Slots of the compiled bots' float64 parameter vector (one vector per seat).

Each built-in bot uses some of these slots; its defaults and what each one means are
declared next to its policy in ``strategies/`` and checked against these names by the
registry. Unused slots hold the registry's defaults and are ignored.
"""

KNOCK = 0
KNOCK_LATE = 1
GIN_HOLD = 2
GIN_STOCK = 3
POTENTIAL = 4
VALUE = 5
SAFETY = 6
DRAW_MARGIN = 7
EVIDENCE = 8
TAKE_SIGNAL = 9
PASS_SIGNAL = 10
DISCARD_SIGNAL = 11
UNDERCUT_RISK = 12
RISK_SAMPLES = 13
BUDGET = 14
WIDTH = 15
KNOCK_GAIN = 16
PLAYOUT_KNOCK = 17
OPPONENT_KNOCK = 18
HAND_QUALITY = 19
POTENTIAL_LATE = 20
KNOCK_SAMPLES = 21
KNOCK_BIAS = 22
SAFETY_LATE = 23
LOOSE = 24
NAMES = (
    "knock",
    "knock_late",
    "gin_hold",
    "gin_stock",
    "potential",
    "value",
    "safety",
    "draw_margin",
    "evidence",
    "take_signal",
    "pass_signal",
    "discard_signal",
    "undercut_risk",
    "risk_samples",
    "budget",
    "width",
    "knock_gain",
    "playout_knock",
    "opponent_knock",
    "hand_quality",
    "potential_late",
    "knock_samples",
    "knock_bias",
    "safety_late",
    "loose",
)
PARAMETER_CAPACITY = 32

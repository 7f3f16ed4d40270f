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
KNOCK_SAMPLES = 12
RISK_SAMPLES = 13
BUDGET = 14
WIDTH = 15
KNOCK_BIAS = 16
PLAYOUT_KNOCK = 17
OPPONENT_KNOCK = 18
HAND_QUALITY = 19
POTENTIAL_LATE = 20
SAFETY_LATE = 21
GIN_ONLY = 22
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
    "knock_samples",
    "risk_samples",
    "budget",
    "width",
    "knock_bias",
    "playout_knock",
    "opponent_knock",
    "hand_quality",
    "potential_late",
    "safety_late",
    "gin_only",
)
PARAMETER_CAPACITY = 24

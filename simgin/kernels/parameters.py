"""Slots of the compiled bots' float64 parameter vector (one vector per seat).

``NAMES`` declares the slots; the index constants the kernels read (``KNOCK = 0``,
``KNOCK_LATE = 1``, ...) are derived from it as plain module-level ints, which numba
compiles as constants. A new parameter is a new name at the end of ``NAMES``.

Each built-in bot uses some of these slots; its defaults and what each one means are
declared next to its policy in ``strategies/`` and checked against these names by the
registry. Unused slots hold the registry's defaults and are ignored.
"""

#: The slots' names, slot 0 first. Each gets an index constant of its name in capitals (``KNOCK = 0``).
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
    "reach",
    "gin_potential",
    "gin_potential_late",
    "gin_safety",
    "gin_safety_late",
    "gin_draw_margin",
    "playout_policy",
    "reach_gin",
    "gin_outs",
    "race",
    "discard_network",
    "opponent_play",
    "improve",
)

globals().update({name.upper(): index for index, name in enumerate(NAMES)})
#: Slots for named parameters: a new name needs a free one (a test checks that there is one for each). 40 since
#: issue 37's ``race`` took slot 32, so that new parameters have room.
NAME_CAPACITY = 40
#: Where a vector's *companion* starts: a second vector, slot for slot as the first (``NAMES``), holding the
#: parameters of the bot a searching bot plays by where it does not search (``mcts``: ``opponent``'s defaults,
#: filled by the registry from the bot module's ``COMPANION``; zeros for every other bot). Issue 37.
COMPANION = NAME_CAPACITY
#: Slots in each vector (the named ones, then the companion): fixed, because it sets where each seat's memory
#: starts in the bots' state (``bots.F_MEMORY``).
PARAMETER_CAPACITY = 2 * NAME_CAPACITY

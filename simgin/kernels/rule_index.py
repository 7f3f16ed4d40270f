"""The int64 array of rule switches that the kernels receive, declared once: its slots, in order.

``SLOTS`` is the one description of the array. From it come both the index constants the
kernels read (``KNOCK_LIMIT = 0``, ``GIN_BONUS = 1``, ...: plain module-level ints, which
numba compiles as constants) and ``Rules.to_array``, which packs each slot's field: an int
or a bool as itself, a named choice as its position in the field's choices (``shutout``:
0 bonus, 1 double, 2 none, ``rules.SHUTOUT_RULES``; ``dealer_rotation``: 0 loser, 1 winner,
2 alternate, ``rules.DEALER_ROTATIONS``).

The slots follow the order of the fields of ``Rules``, and every field is either a slot or
named in ``NOT_PACKED`` with the reason (a test checks both). A new slot goes at the end:
the kernels' table view copies the array (``view.T_RULES``) and what follows it moves.
"""

#: (index constant, ``Rules`` field) for each slot of the array, slot 0 first.
SLOTS: tuple[tuple[str, str], ...] = (
    ("KNOCK_LIMIT", "knock_limit"),
    ("GIN_BONUS", "gin_bonus"),
    ("UNDERCUT_BONUS", "undercut_bonus"),
    ("UNDERCUT_ON_TIE", "undercut_on_tie"),
    ("BOX_BONUS", "box_bonus"),
    ("GAME_BONUS", "game_bonus"),
    ("SHUTOUT", "shutout"),
    ("SHUTOUT_BONUS", "shutout_bonus"),
    ("TARGET", "target"),
    ("REDISCARD", "rediscard_taken_card"),
    ("FIFTIETH", "fiftieth_card_action"),
    ("ELEVEN_START", "eleven_card_start"),
    ("DEALER_ROTATION", "dealer_rotation"),
    ("BIG_GIN", "big_gin"),
    ("BIG_GIN_BONUS", "big_gin_bonus"),
    ("OKLAHOMA", "oklahoma"),
    ("OK_SPADE_DOUBLE", "oklahoma_spade_double"),
    ("OK_ACE_GIN_ONLY", "oklahoma_ace_gin_only"),
    ("OK_EXTRA_BOXES", "oklahoma_extra_boxes"),
    ("HOLLYWOOD", "hollywood"),
)

#: ``Rules`` fields without a slot, and why.
NOT_PACKED: dict[str, str] = {
    "team_target": (
        "V12: only a partnership game plays to it, and there it replaces the two-player target: "
        "game.multiplayer.play_table_rows writes it into the TARGET slot (where the bots that weigh the "
        "game read the target) and passes it to the team kernel. A slot of its own would hold a value no "
        "kernel reads at two- and three-player tables, and would move the table view the bots read."
    ),
}

globals().update({constant: index for index, (constant, _) in enumerate(SLOTS)})
RULE_COUNT = len(SLOTS)

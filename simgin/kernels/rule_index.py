"""Positions of the rule switches in the int64 array that the kernels receive (see ``Rules.to_array``)."""

KNOCK_LIMIT = 0
GIN_BONUS = 1
UNDERCUT_BONUS = 2
UNDERCUT_ON_TIE = 3
BOX_BONUS = 4
GAME_BONUS = 5
SHUTOUT = 6  # 0 bonus, 1 double, 2 none (rules.SHUTOUT_RULES)
SHUTOUT_BONUS = 7
TARGET = 8
REDISCARD = 9
FIFTIETH = 10
ELEVEN_START = 11
DEALER_ROTATION = 12  # 0 loser, 1 winner, 2 alternate (rules.DEALER_ROTATIONS)
BIG_GIN = 13
BIG_GIN_BONUS = 14
OKLAHOMA = 15
OK_SPADE_DOUBLE = 16
OK_ACE_GIN_ONLY = 17
OK_EXTRA_BOXES = 18
HOLLYWOOD = 19
RULE_COUNT = 20

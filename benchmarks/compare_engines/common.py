"""The settings of the comparison: seed, sample sizes, the simgin rules closest to each other engine."""

from __future__ import annotations

import dataclasses

from simgin import Rules

SEED = 20240611
FIGURE_NAME = "compare"
HEADING = "simgin vs OpenSpiel and RLCard (issue 6)"
POLL_SECONDS = 0.05
# Cost runs under contention: wait (at most SCALING_WAIT_SECONDS) for a quiet machine before the
# sizes from SCALING_WAIT_FROM on, and run a disturbed run of up to SCALING_REDO_UP_TO hands once
# more, keeping the quieter of the two. The other load of every run is reported either way.
SCALING_WAIT_FROM = 1_000_000
SCALING_WAIT_SECONDS = 60.0
SCALING_REDO_UP_TO = 1_000_000
KINDS = ("knock", "gin", "undercut", "dead")

#: simgin's rules closest to each other engine's game (see the rule notes in the section).
OPENSPIEL_CLOSEST = Rules(
    undercut_on_tie=False, rediscard_taken_card=True, fiftieth_card_action=True, gin_bonus=25, undercut_bonus=25
)
RLCARD_CLOSEST = Rules(eleven_card_start=True, fiftieth_card_action=True)


@dataclasses.dataclass(frozen=True)
class Sizes:
    """How much work each part does."""

    runs: int = 5
    simgin_hands: int = 100_000
    openspiel_hands: int = 1_000
    rlcard_hands: int = 150
    simgin_deadwood: int = 1_000_000
    simgin_eleven: int = 100_000
    openspiel_deadwood: int = 100_000
    openspiel_eleven: int = 10_000
    rlcard_deadwood: int = 20_000
    rlcard_eleven: int = 2_000
    scaling: tuple[int, ...] = (10_000, 100_000, 1_000_000, 10_000_000)
    scaling_runs: int = 3  # for sizes up to 100,000; larger sizes run once
    crossval_uniform: int = 100_000
    crossval_dense: int = 20_000
    outcome_hands: int = 20_000


QUICK = Sizes(
    runs=2,
    simgin_hands=10_000,
    openspiel_hands=50,
    rlcard_hands=10,
    simgin_deadwood=50_000,
    simgin_eleven=5_000,
    openspiel_deadwood=5_000,
    openspiel_eleven=500,
    rlcard_deadwood=1_000,
    rlcard_eleven=100,
    scaling=(10_000, 40_000),
    scaling_runs=1,
    crossval_uniform=2_000,
    crossval_dense=500,
    outcome_hands=300,
)

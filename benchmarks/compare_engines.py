"""simgin side by side with OpenSpiel's gin_rummy and RLCard's gin-rummy, in one run (issue 6).

One command measures everything on this machine and writes the section "simgin vs OpenSpiel
and RLCard (issue 6)" of ``benchmarks/RESULTS.md`` (only between its ``<!-- compare:start -->``
and ``<!-- compare:end -->`` markers; the heading and markers are appended when missing) and
the figure ``benchmarks/compare.png`` (and ``.svg``):

1. **Speed**: full hands per second, random vs random and simple bot vs simple bot
   (OpenSpiel's ``pyspiel.make_simple_gin_rummy_bot``, RLCard's ``GinRummyNoviceRuleAgent``,
   simgin's compiled ``simple``), and minimum-deadwood evaluations per second (10 cards, and
   the 11-card best discard), each engine on one core and simgin also on all cores. Medians of
   ``--runs`` runs taking turns (``bench_engine.time_interleaved``: a run that other
   processes disturbed is redone), after a warm-up call each.
2. **Cost as the work grows**: ``simgin match simple simple --hands N --quiet --json`` in a
   fresh process for N = 10 thousand to 10 million hands, with 1 worker (``NUMBA_NUM_THREADS=1``)
   and 2 workers: wall-clock time, the peak resident memory of the whole process tree
   (sampled every 50 ms from /proc) and the high-water mark of its largest process.
3. **Cross-validation** of deadwood (``compare_crossval.py``): >= 100,000 random 10- and
   11-card hands plus dense ones, every disagreement printed with the rule book's answer.
4. **Rules and outcome mix**: the rule differences found in the other engines' source, checked
   again in play, and the outcome mix (knock, gin, undercut, dead, hand length) of their
   simple bots against simgin's ``simple`` under the closest simgin rules (20,000 hands each;
   the other engines' hands are played in a pool of 2 processes, since only the mix matters).

Needs the optional engines (``pip install open-spiel rlcard``). Run from the repository root::

    python benchmarks/compare_engines.py            # the full run, about 8 minutes on 2 cores
    python benchmarks/compare_engines.py --quick    # tiny samples: prints the section, writes nothing
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import math
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import numba
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_engine  # noqa: E402  (sibling scripts, found through the path set just above)
import compare_crossval as crossval  # noqa: E402
import run_all  # noqa: E402

import simgin  # noqa: E402
import simgin.running.engine  # noqa: E402
from simgin.game.melds import best_discard_batch, deadwood_batch  # noqa: E402
from simgin.game.rules import Rules  # noqa: E402
from simgin.kernels import engine as _k  # noqa: E402

SEED = 20240611
DEFAULT_OUTPUT = HERE / "RESULTS.md"
FIGURE_NAME = "compare"
HEADING = "## simgin vs OpenSpiel and RLCard (issue 6)"
START_MARKER = "<!-- compare:start -->"
END_MARKER = "<!-- compare:end -->"
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


# -- playing hands in the other engines ------------------------------------------------------


@dataclasses.dataclass
class OutcomeTally:
    """Sums over hands of one engine and pairing: outcomes, hand length, and rule evidence."""

    hands: int = 0
    kinds: dict[str, int] = dataclasses.field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    capped: int = 0
    ties: int = 0  # knocks where both deadwoods were equal (gin excluded)
    ties_scored_zero: int = 0
    draws: int = 0
    turns: int = 0
    pile_takes: int = 0
    points: float = 0.0  # to the winner, over hands that were not dead
    rediscards: int = 0  # the card just taken from the pile thrown back in the same turn
    deal_11_10_no_up_card: int = 0
    payoffs_as_documented: int = 0
    knocker_payoffs: dict[str, int] = dataclasses.field(default_factory=dict)

    def add(self, kind: str, draws: int, turns: int, pile_takes: int, points: float = 0.0, **flags: int) -> None:
        self.hands += 1
        self.kinds[kind] += 1
        self.draws += draws
        self.turns += turns
        self.pile_takes += pile_takes
        self.points += points
        for name, value in flags.items():
            setattr(self, name, getattr(self, name) + int(value))

    def merge(self, other: OutcomeTally) -> OutcomeTally:
        merged = OutcomeTally()
        for item in dataclasses.fields(self):
            mine, theirs = getattr(self, item.name), getattr(other, item.name)
            if isinstance(mine, dict):
                setattr(merged, item.name, {key: mine.get(key, 0) + theirs.get(key, 0) for key in {*mine, *theirs}})
            else:
                setattr(merged, item.name, mine + theirs)
        return merged

    def rate(self, kind: str) -> float:
        return self.kinds[kind] / self.hands if self.hands else math.nan


def openspiel_bots(pairing: str, seed: int = SEED) -> tuple[Any, list[Any]]:
    """OpenSpiel's game with default parameters and two bots: 'random' (uniform) or 'simple'."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    if pairing == "simple":
        return game, [pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), seat) for seat in range(2)]
    return game, [pyspiel.make_uniform_random_bot(seat, seed + seat) for seat in range(2)]


def openspiel_hand(game: Any, bots: Sequence[Any], rng: random.Random, tally: OutcomeTally) -> None:
    """Play one OpenSpiel hand, chance sampled from ``rng``, and add its outcome to ``tally``."""
    import pyspiel

    gin_rummy = pyspiel.gin_rummy
    phase_draws = (gin_rummy.Phase.FIRST_UPCARD, gin_rummy.Phase.DRAW)
    state = game.new_initial_state()
    for bot in bots:
        bot.restart()
    draws = turns = pile_takes = rediscards = 0
    taken = None
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        phase = state.current_phase()
        action = bots[state.current_player()].step(state)
        if phase in phase_draws and action == gin_rummy.DRAW_UPCARD_ACTION:
            taken = state.upcard()
            draws += 1
            pile_takes += 1
        elif phase in phase_draws and action == gin_rummy.DRAW_STOCK_ACTION:
            taken = None
            draws += 1
        elif phase == gin_rummy.Phase.DISCARD:
            turns += 1
            rediscards += action == taken
        elif phase == gin_rummy.Phase.KNOCK and action < 52:  # the knocker's discard
            rediscards += action == taken
            taken = None
        elif phase == gin_rummy.Phase.WALL and action == gin_rummy.KNOCK_ACTION:  # takes the up card to knock
            draws += 1
            pile_takes += 1
            turns += 1
            taken = None
        state.apply_action(action)
    knocked = list(state.knocked())
    returns = state.returns()
    if not any(knocked):
        tally.add("dead", draws, turns, pile_takes, rediscards=rediscards, capped=state.stock_size() > 2)
        return
    knocker = knocked.index(True)
    deadwood = list(state.deadwood())
    knocker_deadwood, defender_deadwood = deadwood[knocker], deadwood[1 - knocker]
    tie = knocker_deadwood == defender_deadwood and knocker_deadwood > 0
    if knocker_deadwood == 0:
        kind = "gin"
    elif returns[knocker] < 0:
        kind = "undercut"
    else:
        kind = "knock"
    tally.add(
        kind,
        draws,
        turns,
        pile_takes,
        abs(returns[knocker]),
        rediscards=rediscards,
        ties=tie,
        ties_scored_zero=tie and returns[knocker] == 0,
    )


def rlcard_env(pairing: str, seed: int) -> tuple[Any, list[Any]]:
    """RLCard's gin-rummy environment (default settings) and two agents: 'random' or 'simple' (novice)."""
    import rlcard
    from rlcard.agents import RandomAgent
    from rlcard.models.gin_rummy_rule_models import GinRummyNoviceRuleAgent

    env = rlcard.make("gin-rummy", config={"seed": seed})
    if pairing == "simple":
        return env, [GinRummyNoviceRuleAgent(), GinRummyNoviceRuleAgent()]
    return env, [RandomAgent(num_actions=env.num_actions), RandomAgent(num_actions=env.num_actions)]


def rlcard_hand(env: Any, agents: Sequence[Any], tally: OutcomeTally) -> None:
    """Play one RLCard hand through ``env.reset``/``env.step`` and add its outcome to ``tally``."""
    from rlcard.games.gin_rummy.utils import action_event as events

    state, player = env.reset()
    game = env.game
    dealer = game.round.dealer_id
    players = game.round.players
    deal = (len(players[1 - dealer].hand), len(players[dealer].hand), len(game.round.dealer.discard_pile))
    while not env.is_over():
        state, player = env.step(agents[player].step(state))
    actions = game.actions
    pile_takes = sum(isinstance(action, events.PickUpDiscardAction) for action in actions)
    draws = pile_takes + sum(isinstance(action, events.DrawCardAction) for action in actions)
    turns = sum(isinstance(action, events.DiscardAction | events.KnockAction | events.GinAction) for action in actions)
    moves = game.round.move_sheet
    deadwood = [moves[-2].deadwood_count, moves[-1].deadwood_count]  # ScoreNorthMove (player 0), ScoreSouthMove (1)
    payoffs = [float(value) for value in env.get_payoffs()]
    going_out, who = game.round.going_out_action, game.round.going_out_player_id
    flags = {"deal_11_10_no_up_card": deal == (11, 10, 0)}
    if isinstance(going_out, events.GinAction | events.KnockAction):
        gin = isinstance(going_out, events.GinAction)
        other = 1 - who
        documented = payoffs[who] == (1.0 if gin else 0.2) and math.isclose(payoffs[other], -deadwood[other] / 100)
        # RLCard has no lay-off and no undercut; "undercut" here is the rule book's R18 on the
        # deadwoods RLCard records (the defender's count equal to or below the knocker's).
        undercut = deadwood[other] <= deadwood[who]
        kind = "gin" if gin else "undercut" if undercut else "knock"
        flags["ties"] = not gin and deadwood[other] == deadwood[who]
        key = f"{kind} {payoffs[who]:g}"
        tally.knocker_payoffs[key] = tally.knocker_payoffs.get(key, 0) + 1
    else:
        kind = "dead"
        documented = all(math.isclose(payoffs[seat], -deadwood[seat] / 100) for seat in range(2))
        flags["capped"] = len(game.round.dealer.stock_pile) > game.settings.stockpile_dead_card_count
    flags["payoffs_as_documented"] = documented
    tally.add(kind, draws, turns, pile_takes, **flags)


def play_other(engine: str, pairing: str, hand_count: int, seed: int) -> dict[str, Any]:
    """Play ``hand_count`` hands of another engine; the :class:`OutcomeTally` as a dict.

    Runs in a worker process for the outcome mix; a plain dict crosses the process boundary
    whatever module name the worker gave this script.
    """
    tally = OutcomeTally()
    if engine == "OpenSpiel":
        game, bots = openspiel_bots(pairing, seed)
        rng = random.Random(seed)
        for _ in range(hand_count):
            openspiel_hand(game, bots, rng, tally)
    else:
        env, agents = rlcard_env(pairing, seed)
        np.random.seed(seed % 2**32)  # RLCard's agents draw from numpy's global generator
        for _ in range(hand_count):
            rlcard_hand(env, agents, tally)
    return dataclasses.asdict(tally)


def simgin_tally(
    rules: Rules, hand_count: int, seed: int, bots: tuple[str, str] = ("simple", "simple")
) -> OutcomeTally:
    """simgin's hands as an :class:`OutcomeTally` (one ``play_hands`` call)."""
    frame = simgin.running.engine.play_hands(bots, rules, hand_count, seed)
    tally = OutcomeTally(hands=len(frame))
    kinds = frame["kind"].astype(str)
    for kind in KINDS:
        tally.kinds[kind] = int((kinds == kind).sum())
    tally.kinds["gin"] += int((kinds == "big_gin").sum())
    scored = kinds != "dead"
    tie = scored & (kinds != "gin") & (frame["knocker_deadwood"] == frame["defender_deadwood"])
    tally.capped = int(frame["capped"].sum())
    tally.ties = int(tie.sum())
    tally.ties_scored_zero = int((tie & (frame["points"] == 0)).sum())
    tally.draws = int(frame["draws"].sum())
    tally.turns = int(frame["turns"].sum())
    tally.pile_takes = int((frame["pile_takes_0"] + frame["pile_takes_1"]).sum())
    tally.points = float(frame.loc[scored, "points"].sum())
    return tally


# -- 1. speed ------------------------------------------------------------------------------


@dataclasses.dataclass
class SpeedCase:
    """One timed measurement: ``call`` does ``work`` units (hands or evaluations)."""

    measure: str
    engine: str
    threads: int
    call_text: str
    work: int
    call: Callable[[], object]
    draws_per_hand: float | None = None
    rates: tuple[float, float, float] = (math.nan, math.nan, math.nan)
    seconds: float = 0.0  # all kept runs together
    other_load: float = 0.0
    redone: int = 0


def speed_cases(sizes: Sizes, seed: int) -> list[SpeedCase]:
    """Every speed measurement, built and checked once (draws per hand measured on the side)."""
    import pyspiel
    from rlcard.games.gin_rummy.utils import melding, utils as rl_utils

    all_threads = numba.config.NUMBA_NUM_THREADS
    cases: list[SpeedCase] = []
    rules = Rules()
    seeds = simgin.running.engine.hand_seeds(seed, sizes.simgin_hands)
    dealers = np.arange(sizes.simgin_hands, dtype=np.int64) % 2
    labels = {"random": "random vs random hands", "simple": "simple bot vs simple bot hands"}
    for pairing in ("random", "simple"):
        bots = (pairing, pairing)
        rows = simgin.running.engine.play_hand_rows(bots, rules, seeds, dealers)
        draws = float(rows[:, _k.H_DRAWS].mean())
        for threads in sorted({1, all_threads}):

            def simgin_call(bots: tuple[str, str] = bots) -> None:
                simgin.running.engine.play_hand_rows(bots, rules, seeds, dealers)

            cases.append(
                SpeedCase(
                    labels[pairing],
                    "simgin",
                    threads,
                    f"`simgin.running.engine.play_hand_rows` ({pairing}, `Rules()`)",
                    sizes.simgin_hands,
                    simgin_call,
                    draws,
                )
            )
        game, os_bots = openspiel_bots(pairing, seed)
        sample = OutcomeTally()
        rng = random.Random(seed)
        for _ in range(max(20, min(300, sizes.openspiel_hands))):
            openspiel_hand(game, os_bots, rng, sample)

        def openspiel_call(game: Any = game, os_bots: list[Any] = os_bots) -> None:
            for i in range(sizes.openspiel_hands):
                for bot in os_bots:
                    bot.restart()
                pyspiel.evaluate_bots(game.new_initial_state(), os_bots, seed + i)

        bot_text = "`make_simple_gin_rummy_bot`" if pairing == "simple" else "`make_uniform_random_bot`"
        cases.append(
            SpeedCase(
                labels[pairing],
                "OpenSpiel",
                1,
                f"`pyspiel.evaluate_bots` (whole hand in C++), {bot_text}",
                sizes.openspiel_hands,
                openspiel_call,
                sample.draws / sample.hands,
            )
        )
        env, agents = rlcard_env(pairing, seed)
        rl_sample = OutcomeTally()

        def rlcard_call(env: Any = env, agents: list[Any] = agents, rl_sample: OutcomeTally = rl_sample) -> None:
            for _ in range(sizes.rlcard_hands):
                rlcard_hand(env, agents, rl_sample)

        np.random.seed(seed)
        rlcard_call()  # also fills rl_sample for the draws per hand
        agent_text = "`GinRummyNoviceRuleAgent`" if pairing == "simple" else "`RandomAgent`"
        cases.append(
            SpeedCase(
                labels[pairing],
                "RLCard",
                1,
                f"`env.reset` / `env.step` loop, {agent_text}",
                sizes.rlcard_hands,
                rlcard_call,
                rl_sample.draws / rl_sample.hands,
            )
        )

    # Minimum deadwood: 10 cards, and the whole 11-card discard decision.
    ten = crossval.uniform_hands(sizes.simgin_deadwood, 10, seed)
    eleven = crossval.uniform_hands(sizes.simgin_eleven, 11, seed)
    masks10, masks11 = crossval.hand_masks(ten), crossval.hand_masks(eleven)
    for threads in sorted({1, all_threads}):
        cases.append(
            SpeedCase(
                "10-card minimum-deadwood evaluations",
                "simgin",
                threads,
                "`simgin.game.melds.deadwood_batch` (int64 hand masks)",
                sizes.simgin_deadwood,
                lambda: deadwood_batch(masks10),
            )
        )
        cases.append(
            SpeedCase(
                "11-card best-discard evaluations",
                "simgin",
                threads,
                "`simgin.game.melds.best_discard_batch` (one search per hand, exact)",
                sizes.simgin_eleven,
                lambda: best_discard_batch(masks11),
            )
        )
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    os_ten = [[crossval.to_openspiel(c) for c in hand] for hand in ten[: sizes.openspiel_deadwood].tolist()]
    os_eleven = [[crossval.to_openspiel(c) for c in hand] for hand in eleven[: sizes.openspiel_deadwood].tolist()]

    def openspiel_ten() -> None:
        min_deadwood = utils.min_deadwood
        for hand in os_ten:
            min_deadwood(hand)

    def openspiel_exact_eleven() -> None:
        min_deadwood = utils.min_deadwood
        for hand in os_eleven[: sizes.openspiel_eleven]:
            min(min_deadwood(hand[:i] + hand[i + 1 :]) for i in range(11))

    def openspiel_own_eleven() -> None:
        min_deadwood = utils.min_deadwood
        for hand in os_eleven:
            min_deadwood(hand)

    deck = rl_utils.get_deck()
    rl_ten = [[deck[crossval.to_rlcard(c)] for c in hand] for hand in ten[: sizes.rlcard_deadwood].tolist()]
    rl_eleven = [[deck[crossval.to_rlcard(c)] for c in hand] for hand in eleven[: sizes.rlcard_eleven].tolist()]

    def rlcard_deadwood(hand: list[Any]) -> int:
        best = melding.get_best_meld_clusters(hand=hand)
        return rl_utils.get_deadwood_count(hand, best[0] if best else [])

    def rlcard_ten() -> None:
        for hand in rl_ten:
            rlcard_deadwood(hand)

    def rlcard_exact_eleven() -> None:
        for hand in rl_eleven:
            min(rlcard_deadwood(hand[:i] + hand[i + 1 :]) for i in range(11))

    cases += [
        SpeedCase(
            "10-card minimum-deadwood evaluations",
            "OpenSpiel",
            1,
            "`GinRummyUtils.min_deadwood` per hand (C++ through pybind11)",
            len(os_ten),
            openspiel_ten,
        ),
        SpeedCase(
            "11-card best-discard evaluations",
            "OpenSpiel",
            1,
            "exact: min of `min_deadwood` over the 11 discards",
            min(sizes.openspiel_eleven, len(os_eleven)),
            openspiel_exact_eleven,
        ),
        SpeedCase(
            "11-card best-discard evaluations",
            "OpenSpiel (own 11-card call, not exact)",
            1,
            "`min_deadwood` on 11 cards (best meld group, highest deadwood card thrown away)",
            len(os_eleven),
            openspiel_own_eleven,
        ),
        SpeedCase(
            "10-card minimum-deadwood evaluations",
            "RLCard",
            1,
            "`melding.get_best_meld_clusters` + `utils.get_deadwood_count`",
            len(rl_ten),
            rlcard_ten,
        ),
        SpeedCase(
            "11-card best-discard evaluations",
            "RLCard",
            1,
            "exact: min of the 10-card call over the 11 discards",
            len(rl_eleven),
            rlcard_exact_eleven,
        ),
    ]
    return cases


def measure_speed(sizes: Sizes, seed: int) -> list[SpeedCase]:
    cases = speed_cases(sizes, seed)
    print(f"timing {len(cases)} speed cases, {sizes.runs} runs each, taking turns ...", file=sys.stderr)
    times, others, redone = bench_engine.time_interleaved([(case.threads, case.call) for case in cases], sizes.runs)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    for case, seconds, other, again in zip(cases, times, others, redone, strict=True):
        rates = [case.work / value for value in seconds]
        case.rates = (statistics.median(rates), min(rates), max(rates))
        case.seconds = sum(seconds)
        case.other_load, case.redone = other, again
    return cases


def _rate(value: float) -> str:
    if value >= 1e6:
        return f"{value / 1e6:,.2f} M/s"
    if value >= 1e4:
        return f"{value / 1e3:,.0f} k/s"
    return f"{value:,.0f}/s"


def _ratio(a: float, b: float) -> str:
    if not b or math.isnan(a) or math.isnan(b):
        return "-"
    ratio = a / b
    return f"{ratio:,.0f}x" if ratio >= 10 else f"{ratio:,.1f}x"


def speed_markdown(cases: Sequence[SpeedCase], runs: int) -> tuple[str, list[dict[str, Any]]]:
    """The summary with ratios, the detailed table, and the summary rows (for the figure)."""
    all_threads = numba.config.NUMBA_NUM_THREADS
    measures = list(dict.fromkeys(case.measure for case in cases))
    summary = []
    for measure in measures:
        rows = {(case.engine, case.threads): case.rates[0] for case in cases if case.measure == measure}
        summary.append(
            {
                "measure": measure,
                "simgin_1": rows.get(("simgin", 1), math.nan),
                "simgin_all": rows.get(("simgin", all_threads), math.nan),
                "openspiel": rows.get(("OpenSpiel", 1), math.nan),
                "rlcard": rows.get(("RLCard", 1), math.nan),
            }
        )
    lines = [
        f"| measurement | simgin, 1 core | simgin, {all_threads} cores | OpenSpiel, 1 core | RLCard, 1 core "
        "| simgin 1 core / OpenSpiel | simgin 1 core / RLCard "
        f"| simgin {all_threads} cores / OpenSpiel | simgin {all_threads} cores / RLCard |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in summary:
        lines.append(
            f"| {row['measure']} | {_rate(row['simgin_1'])} | {_rate(row['simgin_all'])} | {_rate(row['openspiel'])} "
            f"| {_rate(row['rlcard'])} | {_ratio(row['simgin_1'], row['openspiel'])} "
            f"| {_ratio(row['simgin_1'], row['rlcard'])} | {_ratio(row['simgin_all'], row['openspiel'])} "
            f"| {_ratio(row['simgin_all'], row['rlcard'])} |"
        )
    total = sum(case.seconds for case in cases)
    shared = sum(case.other_load * case.seconds for case in cases) / total if total else 0.0
    if shared > bench_engine.QUIET_CORES:
        lines += [
            "",
            f"**The machine was shared during these runs**: other processes used {shared:.2f} cores on average "
            f"(*other load* below, per measurement; {bench_engine.QUIET_CORES} or less counts as quiet), so the "
            "rates are lower than on a quiet machine, simgin's all-core ones most.",
        ]
    lines += [
        "",
        "<details><summary>Every measurement: the call, work per run, spread, draws per hand, load</summary>",
        "",
        "| measurement | engine | cores | call | work per run | rate (median, min-max) | draws per hand "
        "| other load (runs redone) |",
        "|---|---|---:|---|---:|---:|---:|---:|",
    ]
    for case in cases:
        draws = f"{case.draws_per_hand:.1f}" if case.draws_per_hand is not None else "-"
        lines.append(
            f"| {case.measure} | {case.engine} | {case.threads} | {case.call_text} | {case.work:,} "
            f"| {_rate(case.rates[0])} ({_rate(case.rates[1])} - {_rate(case.rates[2])}) | {draws} "
            f"| {case.other_load:.2f} ({case.redone}) |"
        )
    lines += [
        "",
        "</details>",
        "",
        f"Medians of {runs} runs after a warm-up call each; all cases take turns run by run, and a run "
        f"during which other processes used more than {bench_engine.QUIET_CORES} cores was redone (at most "
        f"{bench_engine.REDO_LIMIT} times). One core for simgin is `numba.set_num_threads(1)`; OpenSpiel and "
        "RLCard run on one core by design (single-threaded). simgin plays standard rules (`Rules()`); each "
        "engine plays its own rules with default settings, so a hand is not the same amount of work "
        "everywhere: *draws per hand* (cards taken from the stock or the pile, measured on the side: OpenSpiel "
        "on a few hundred hands played step by step from Python) shows how long the hands are. "
        "OpenSpiel's hands run wholly in C++ (`evaluate_bots`, chance sampled inside); RLCard's through its "
        "Python environment API. Deadwood calls of OpenSpiel and RLCard are timed from Python on hands "
        "already converted to their card objects; simgin's batch call includes its input checks.",
    ]
    return "\n".join(lines), summary


# -- 2. cost as the work grows -----------------------------------------------------------------


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        tree.setdefault(int(fields[1]), []).append(int(entry))
    return tree


def tree_memory(pid: int) -> dict[int, tuple[int, int]]:
    """``{pid: (resident bytes, peak resident bytes)}`` for a process and all its descendants, from /proc."""
    tree = _children()
    found: dict[int, tuple[int, int]] = {}
    todo = [pid]
    while todo:
        current = todo.pop()
        todo += tree.get(current, [])
        fields: dict[str, int] = {}
        try:
            with open(f"/proc/{current}/status") as status:
                for line in status:
                    key, _, value = line.partition(":")
                    if key in ("VmRSS", "VmHWM"):
                        fields[key] = int(value.split()[0]) * 1024
        except OSError:
            continue
        if fields:
            found[current] = (fields.get("VmRSS", 0), fields.get("VmHWM", 0))
    return found


@dataclasses.dataclass
class Measured:
    """One command run: wall seconds, memory, CPU of the command and of other processes, its output."""

    seconds: float
    peak_tree_rss: int
    max_process_hwm: int
    cpu_seconds: float
    other_load: float
    stdout: str


def run_measured(command: Sequence[str], env: dict[str, str] | None = None) -> Measured:
    """Run a command, sampling the memory of its process tree every ``POLL_SECONDS``.

    Memory: the largest sum of the tree's resident memory seen, and the largest peak (VmHWM)
    of any one of its processes (exact, and unlike ``ru_maxrss`` not inflated by the fork from
    this big process before the command's exec). CPU: the command's with its workers (from
    ``wait4``), and the cores other processes used meanwhile (from /proc/stat).
    """
    with tempfile.TemporaryFile(mode="w+") as out:
        busy, own = bench_engine.cpu_seconds()
        start = time.perf_counter()
        process = subprocess.Popen(list(command), stdout=out, env=env)
        peak, hwm = 0, 0
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            memory = tree_memory(process.pid)
            peak = max(peak, sum(rss for rss, _ in memory.values()))
            hwm = max([hwm, *(high for _, high in memory.values())])
            time.sleep(POLL_SECONDS)
        seconds = time.perf_counter() - start
        busy_after, own_after = bench_engine.cpu_seconds()
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode:
            raise RuntimeError(f"{' '.join(command)} failed with exit code {process.returncode}")
        out.seek(0)
        text = out.read()
    cpu = usage.ru_utime + usage.ru_stime
    other = max(0.0, (busy_after - busy) - cpu - (own_after - own)) / seconds
    return Measured(seconds, peak, hwm, cpu, other, text)


def match_command(hands: int, workers: int, seed: int) -> list[str]:
    options = ["--hands", str(hands), "--workers", str(workers), "--seed", str(seed), "--quiet", "--json"]
    return [sys.executable, "-m", "simgin", "match", "simple", "simple", *options]


def measure_scaling(sizes: Sizes, seed: int) -> list[dict[str, Any]]:
    """``simgin match`` runs of growing size, with 1 and 2 workers, each size's workers taking turns."""
    rows = []
    results: dict[int, dict[int, dict[str, Any]]] = {}
    worker_counts = (1, 2)
    for hands in sizes.scaling:
        runs = sizes.scaling_runs if hands <= 100_000 else 1
        measured: dict[int, list[Measured]] = {workers: [] for workers in worker_counts}
        if hands >= SCALING_WAIT_FROM:
            print(f"before {hands:,} hands: {run_all.wait_for_quiet(SCALING_WAIT_SECONDS)}", file=sys.stderr)
        for run in range(runs):
            for workers in worker_counts:
                env = dict(os.environ)
                if workers == 1:
                    env["NUMBA_NUM_THREADS"] = "1"
                print(
                    f"simgin match: {hands:,} hands, {workers} worker(s), run {run + 1} of {runs} ...", file=sys.stderr
                )
                result = run_measured(match_command(hands, workers, seed), env)
                if result.other_load > bench_engine.QUIET_CORES and hands <= SCALING_REDO_UP_TO:
                    print(f"  other processes used {result.other_load:.2f} cores: once more ...", file=sys.stderr)
                    result = min(result, run_measured(match_command(hands, workers, seed), env), key=_load)
                measured[workers].append(result)
        for workers in worker_counts:
            data = json.loads(measured[workers][0].stdout)
            data.pop("timing", None)
            results.setdefault(hands, {})[workers] = data
            seconds = statistics.median(m.seconds for m in measured[workers])
            rows.append(
                {
                    "hands": hands,
                    "workers": workers,
                    "runs": runs,
                    "seconds": seconds,
                    "hands_per_second": hands / seconds,
                    "peak_tree_mb": max(m.peak_tree_rss for m in measured[workers]) / 2**20,
                    "max_process_mb": max(m.max_process_hwm for m in measured[workers]) / 2**20,
                    "cpu_seconds": statistics.median(m.cpu_seconds for m in measured[workers]),
                    "other_load": statistics.mean(m.other_load for m in measured[workers]),
                    "identical": None,
                }
            )
    for row in rows:
        row["identical"] = results[row["hands"]][1] == results[row["hands"]][2]
    return rows


def _load(measured: Measured) -> float:
    return measured.other_load


def linear_fit(rows: Sequence[dict[str, Any]], workers: int) -> tuple[float, float, float]:
    """Least squares ``seconds = fixed + hands / rate`` for one worker count: (fixed, rate, worst relative error)."""
    points = [(row["hands"], row["seconds"]) for row in rows if row["workers"] == workers]
    if len(points) < 2:
        return math.nan, math.nan, math.nan
    x = np.array([p[0] for p in points], dtype=float)
    y = np.array([p[1] for p in points], dtype=float)
    weights = 1 / y  # relative errors, so the small runs count as much as the large ones
    slope, fixed = np.polyfit(x, y, 1, w=weights)
    worst = float(np.max(np.abs(fixed + slope * x - y) / y))
    return float(fixed), float(1 / slope), worst


def worst_seconds(rows: Sequence[dict[str, Any]], workers: int) -> float:
    """The largest distance, in seconds, between a measured run and the fitted line."""
    fixed, rate, _ = linear_fit(rows, workers)
    return max(abs(fixed + row["hands"] / rate - row["seconds"]) for row in rows if row["workers"] == workers)


def scaling_markdown(rows: Sequence[dict[str, Any]], seed: int) -> str:
    lines = [
        "| hands | workers | runs | wall seconds (median) | hands per second, whole command | CPU seconds "
        "| peak memory, process tree | largest process peak (VmHWM) | other load | same results as the other "
        "worker count |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for row in rows:
        lines.append(
            f"| {row['hands']:,} | {row['workers']} | {row['runs']} | {row['seconds']:.2f} "
            f"| {row['hands_per_second']:,.0f} | {row['cpu_seconds']:.1f} | {row['peak_tree_mb']:,.0f} MB "
            f"| {row['max_process_mb']:,.0f} MB | {row['other_load']:.2f} | {'yes' if row['identical'] else 'NO'} |"
        )
    lines.append("")
    big = [row for row in rows if row["hands"] >= SCALING_WAIT_FROM]
    shared = max((row["other_load"] for row in big), default=0.0)
    if shared > bench_engine.QUIET_CORES:
        lines += [
            f"**The machine was shared during the large runs**: other processes used up to {shared:.2f} cores "
            "(*other load*), so the 2-worker runs did not have both cores to themselves and their rate is "
            "understated; what a second core adds on a quiet machine is in this file's table of full hands "
            "(`bench_engine.py`, 1 and 2 cores).",
            "",
        ]
    for workers in (1, 2):
        fixed, rate, worst = linear_fit(rows, workers)
        memory = [row["peak_tree_mb"] for row in rows if row["workers"] == workers]
        lines.append(
            f"- {workers} worker{'s' if workers > 1 else ''}: wall seconds = {fixed:.2f} + hands / {rate:,.0f} "
            f"(least squares on relative error; worst point off by {worst_seconds(rows, workers):.2f} s, "
            f"{worst:.0%}); peak memory of the process tree "
            f"{min(memory):,.0f}-{max(memory):,.0f} MB from {rows[0]['hands']:,} to {rows[-1]['hands']:,} hands."
        )
    lines += [
        "",
        f"Each run is a fresh `python -m simgin match simple simple --hands N --workers W --seed {seed} --quiet "
        "--json` with the hands and workers shown (duplicate deals, chunks of 20,000 hands); the numba cache is "
        "warm. With 1 worker the command plays in its own process with `NUMBA_NUM_THREADS=1` (one core); with 2 "
        "workers it plays in a pool of spawned processes, one numba thread each (a run of a single chunk, "
        "10,000 hands, starts only one of them). The fixed cost is the start: Python, "
        "imports, the numba cache, spawning the pool. Peak memory sums the resident memory of the command "
        f"and its workers, sampled every {POLL_SECONDS * 1000:.0f} ms; the largest process peak is each "
        "process's own high-water mark. Each chunk is reduced to sums as it finishes, so memory does not grow "
        "with the hands played. Before the runs of "
        f"{SCALING_WAIT_FROM:,} hands and more the script waits (up to {SCALING_WAIT_SECONDS:.0f} s) for a "
        f"quiet machine, and a run of up to {SCALING_REDO_UP_TO:,} hands that other processes disturbed (more "
        f"than {bench_engine.QUIET_CORES} cores) is run once more, keeping the quieter run. "
        "*Other load*: cores that other processes used during the run (0 = a quiet "
        "machine; with 2 workers on 2 cores any other load slows the run). *Same results*: the JSON summary "
        "(timings aside) of the 1-worker and 2-worker runs of a size are identical.",
    ]
    return "\n".join(lines)


# -- 4. rules and outcome mix ------------------------------------------------------------------


def measure_outcomes(sizes: Sizes, seed: int) -> dict[str, OutcomeTally]:
    """The outcome mix of the simple bots: OpenSpiel and RLCard in a pool of 2 processes, simgin in line."""
    chunk_count = 8 if sizes.outcome_hands >= 800 else 2
    per_chunk = math.ceil(sizes.outcome_hands / chunk_count)
    jobs = []
    for engine in ("RLCard", "OpenSpiel"):  # the slow one first, for balance
        for index in range(chunk_count):
            count = min(per_chunk, sizes.outcome_hands - index * per_chunk)
            if count > 0:
                jobs.append((engine, count, seed + 1000 * index))
    tallies = {"OpenSpiel": OutcomeTally(), "RLCard": OutcomeTally()}
    print(
        f"outcome mix: {sizes.outcome_hands:,} hands each of OpenSpiel and RLCard in 2 processes ...", file=sys.stderr
    )
    with ProcessPoolExecutor(max_workers=2, mp_context=get_context("spawn")) as pool:
        futures = [
            (engine, pool.submit(play_other, engine, "simple", count, job_seed)) for engine, count, job_seed in jobs
        ]
        for engine, future in futures:
            tallies[engine] = tallies[engine].merge(OutcomeTally(**future.result()))
    return {
        "OpenSpiel simple bot (OpenSpiel rules)": tallies["OpenSpiel"],
        "simgin simple, closest to OpenSpiel": simgin_tally(OPENSPIEL_CLOSEST, sizes.outcome_hands, seed),
        "RLCard novice agent (RLCard rules)": tallies["RLCard"],
        "simgin simple, closest to RLCard": simgin_tally(RLCARD_CLOSEST, sizes.outcome_hands, seed),
        "simgin simple, rule book (`Rules()`)": simgin_tally(Rules(), sizes.outcome_hands, seed),
    }


def _pct(value: float) -> str:
    return f"{value:.1%}" if not math.isnan(value) else "-"


def outcomes_markdown(tallies: dict[str, OutcomeTally]) -> str:
    lines = [
        "| engine and bot | hands | knock | gin | undercut | dead (capped) | tie at a knock | draws per hand "
        "| turns per hand | pile takes per hand | points per scored hand |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, tally in tallies.items():
        scored = tally.hands - tally.kinds["dead"]
        points = "-" if name.startswith("RLCard") else f"{tally.points / max(scored, 1):.1f}"
        undercut = _pct(tally.rate("undercut")) + ("*" if name.startswith("RLCard") else "")
        lines.append(
            f"| {name} | {tally.hands:,} | {_pct(tally.rate('knock'))} | {_pct(tally.rate('gin'))} | {undercut} "
            f"| {_pct(tally.rate('dead'))} ({tally.capped:,}) | {_pct(tally.ties / tally.hands)} "
            f"| {tally.draws / tally.hands:.1f} | {tally.turns / tally.hands:.1f} "
            f"| {tally.pile_takes / tally.hands:.2f} | {points} |"
        )
    lines += [
        "",
        "Rates are shares of all hands; *knock* is a knock the knocker won (a tie without the undercut rule "
        "included), *dead* includes hands ended by an engine's cap (in brackets: OpenSpiel's 50 up-card draws "
        "or repeated discard, RLCard's 200 moves, simgin's 500 turns). *Tie at a knock*: both deadwoods "
        "equal after lay-offs (gin excluded). *Draws* count every card taken from the stock or the pile, "
        "*turns* every discard (the knock's included). \\*RLCard has no lay-off and no undercut: its "
        "undercut share applies the rule book's R18 to the deadwoods RLCard records. Points: OpenSpiel's "
        "return to the winner (gin and undercut bonuses 25), simgin's points under the rules shown.",
        "",
        "Why the other engines' bots are almost never undercut: both knock at the first chance, so when one "
        "knocks, the defender's own deadwood is above the knock limit (else it would have knocked on its "
        "previous turn), and neither lays off (OpenSpiel's simple bot never does, RLCard has no lay-off). "
        "simgin's defender lays off where that lowers its count (R14), which is where its undercuts come from. "
        + rlcard_draws_text(tallies),
        "",
        f"simgin's closest rules: to OpenSpiel `{rules_text(OPENSPIEL_CLOSEST)}`; to RLCard "
        f"`{rules_text(RLCARD_CLOSEST)}`.",
    ]
    return "\n".join(lines)


def rlcard_draws_text(tallies: dict[str, OutcomeTally]) -> str:
    """How RLCard's novice agent draws, in numbers: its share of pile takes and its hand length against simgin's."""
    novice = tallies.get("RLCard novice agent (RLCard rules)")
    closest = tallies.get("simgin simple, closest to RLCard")
    if not novice or not closest or not novice.draws or not closest.draws:
        return ""
    share = novice.pile_takes / novice.draws
    ratio = (novice.draws / novice.hands) / (closest.draws / closest.hands)
    return (
        f"The RLCard novice agent draws at random: {share:.0%} of its draws are pile takes, and its hands last "
        f"{ratio:.1f} times as many draws as simgin's `simple` under the closest rules."
    )


def rules_text(rules: Rules) -> str:
    changed = [
        f"{item.name}={getattr(rules, item.name)!r}"
        for item in dataclasses.fields(rules)
        if getattr(rules, item.name) != item.default
    ]
    return f"Rules({', '.join(changed)})"


@dataclasses.dataclass(frozen=True)
class ScriptedTie:
    """One OpenSpiel hand dealt and played by script: a knock that ties, after throwing back the up card."""

    knocker: str
    defender: str
    up_card: str
    rediscard_legal: bool
    returns: tuple[float, float]
    deadwood: tuple[int, int]
    rule_book: str
    without_tie_rule: str


def openspiel_scripted_tie() -> ScriptedTie:
    """Deal chosen cards in OpenSpiel, take the up card, knock discarding it, and tie at 5 deadwood each.

    OpenSpiel deals its 10 + 10 cards and the up card through chance actions, so a hand can be
    dealt exactly; the same two hands then go through simgin's ``score_showdown``.
    """
    import pyspiel

    gin_rummy = pyspiel.gin_rummy
    utils = gin_rummy.GinRummyUtils(13, 4, 10)
    knocker_melds = ("AC 2C 3C", "4D 5D 6D", "7H 8H 9H")
    defender_melds = ("TC JC QC", "TD JD QD", "TH JH QH")
    knocker = simgin.parse_cards(" ".join(knocker_melds) + " 5S")
    defender = simgin.parse_cards(" ".join(defender_melds) + " 5H")
    up_card = simgin.parse_cards("QS")[0]

    def meld_action(meld: str) -> int:
        cards = [crossval.to_openspiel(card) for card in simgin.parse_cards(meld)]
        return gin_rummy.MELD_ACTION_BASE + utils.meld_to_int(cards)

    state = pyspiel.load_game("gin_rummy").new_initial_state()
    for card in [*knocker, *defender, up_card]:  # player 0's ten cards, player 1's ten, the up card
        state.apply_action(crossval.to_openspiel(card))
    state.apply_action(gin_rummy.DRAW_UPCARD_ACTION)  # player 0 takes the up card
    rediscard_legal = crossval.to_openspiel(up_card) in state.legal_actions()
    actions = [gin_rummy.KNOCK_ACTION, crossval.to_openspiel(up_card)]  # knock, throwing the up card back
    actions += [meld_action(meld) for meld in knocker_melds] + [gin_rummy.PASS_ACTION]
    actions += [gin_rummy.PASS_ACTION] + [meld_action(meld) for meld in defender_melds] + [gin_rummy.PASS_ACTION]
    for action in actions:
        state.apply_action(action)
    if not state.is_terminal():
        raise RuntimeError("the scripted OpenSpiel hand did not end")
    book = simgin.score_showdown(knocker, defender, Rules())
    no_tie = simgin.score_showdown(knocker, defender, Rules(undercut_on_tie=False))
    return ScriptedTie(
        simgin.format_cards(knocker),
        simgin.format_cards(defender),
        simgin.format_cards([up_card]),
        rediscard_legal,
        (float(state.returns()[0]) + 0.0, float(state.returns()[1]) + 0.0),  # + 0.0 turns -0.0 into 0.0
        (int(state.deadwood()[0]), int(state.deadwood()[1])),
        f"{book.kind.value}, {book.winner.value} scores {book.points}",
        f"{no_tie.kind.value}, {no_tie.winner.value} scores {no_tie.points}",
    )


def _checks_text(results: Sequence[crossval.CheckResult], engine: str, check: str | None) -> str:
    """'n of N uniform hands (k change ...); ...' for one engine's check (None: its own 11-card check)."""
    parts = []
    for result in results:
        own = result.check not in (crossval.CHECK_TEN, crossval.CHECK_ELEVEN)
        if result.engine != engine or (result.check != check if check else not own):
            continue
        text = f"{len(result.disagreements):,} of {result.hand_count:,} {result.sample} hands"
        if own and result.disagreements:
            text += f" (on {result.knock_changed:,} of them the engine's answer gets a knock's legality wrong)"
        parts.append(text)
    return "; ".join(parts) if parts else "not run"


def rules_markdown(
    tallies: dict[str, OutcomeTally], crossval_results: Sequence[crossval.CheckResult], tie: ScriptedTie
) -> str:
    """The rule differences, each with where it is in the engine's source and what play showed."""
    os_tally = tallies["OpenSpiel simple bot (OpenSpiel rules)"]
    rl_tally = tallies["RLCard novice agent (RLCard rules)"]
    payoffs = ", ".join(f"{key}: {value:,}" for key, value in sorted(rl_tally.knocker_payoffs.items()))
    undercut_paid = sum(value for key, value in rl_tally.knocker_payoffs.items() if key.startswith("undercut 0.2"))

    def agreement(engine: str) -> str:
        ten = _checks_text(crossval_results, engine, crossval.CHECK_TEN)
        eleven = _checks_text(crossval_results, engine, crossval.CHECK_ELEVEN)
        built = f"the exact 11-card best discard built on it, on {eleven}"
        return f"Its 10-card function disagrees with simgin on {ten}; {built}."

    return "\n".join(
        [
            "OpenSpiel `gin_rummy` (source: `open_spiel/games/gin_rummy/gin_rummy.cc`, `gin_rummy_utils.cc`, "
            "`open_spiel/bots/gin_rummy/simple_gin_rummy_bot.cc`):",
            "",
            "- **A tie at a knock scores 0-0.** `GinRummyState::Returns` gives the knocker the defender's "
            "deadwood minus its own, adds the gin bonus for zero deadwood and takes the undercut bonus off "
            "only when the result is negative, so equal counts score 0 for both (the rule book's R18 makes a "
            "tie an undercut). Played by script in OpenSpiel (its deal is chance actions, so the cards can be "
            f"chosen): player 0 holds {tie.knocker}, player 1 {tie.defender}, up card {tie.up_card}; player 0 "
            "takes the up card, knocks and throws the up card back, both lay their melds: deadwood "
            f"{tie.deadwood[0]}-{tie.deadwood[1]}, returns {tie.returns[0]:g} and {tie.returns[1]:g}. simgin's "
            f"`score_showdown` on the same hands: {tie.rule_book} under `Rules()`, {tie.without_tie_rule} with "
            f"`undercut_on_tie=False`. In the bots' play: {os_tally.ties:,} ties at a knock in "
            f"{os_tally.hands:,} hands, {os_tally.ties_scored_zero:,} of them scored 0-0.",
            "- **A taken up card may be thrown back at once.** `DiscardLegalActions` lists every card in the "
            "hand, the one just taken from the pile included (the rule book forbids it, R10; its variant V6 "
            "allows it). In the scripted hand above the up card just taken was "
            f"{'a legal' if tie.rediscard_legal else 'NOT a legal'} discard; in the bots' play the simple bot "
            f"threw a just-taken up card back {os_tally.rediscards:,} times. A card thrown back twice in a row "
            "(`repeated_move_`), or the 50th draw of an up card (`kMaxNumDrawUpcardActions`), ends the hand "
            "with no score. simgin: `rediscard_taken_card=True`.",
            "- **The wall.** With 2 stock cards left after a discard, the other player may only take that "
            "discard to knock, or pass and end the hand (`Phase::kWall`): the rule book's V7. simgin: "
            "`fiftieth_card_action=True`.",
            "- **Bonuses and games.** Defaults are gin bonus 25 and undercut bonus 25 (rule book: 20 and 10); "
            "a game is one hand (no target score, game or box bonus); player 0 always acts first.",
            "- **The simple bot never lays off** (`// Bot never lays off.`), while simgin's showdown lays "
            "off for the defender where that lowers its count (R14): more of OpenSpiel's knocks stand, and "
            "fewer are undercut, for a reason outside the rules.",
            "- **Its own 11-card `min_deadwood`** (the game's check whether a knock is legal after a draw, "
            "and at the wall) keeps the first meld group of greatest value and throws away that group's "
            "highest deadwood card; among equally valued groups that is not always the best discard. "
            "Disagreements with simgin (simgin agrees with the rule book on every one): "
            + _checks_text(crossval_results, "OpenSpiel", None)
            + ". "
            + agreement("OpenSpiel"),
            "",
            "RLCard `gin-rummy` (source: `rlcard/games/gin_rummy/game.py`, `round.py`, `judge.py`, "
            "`utils/scorers.py`, `utils/settings.py`, `rlcard/models/gin_rummy_rule_models.py`):",
            "",
            "- **11 cards, no up card.** `GinRummyGame.init_game` deals 11 cards to the dealer's opponent and "
            "10 to the dealer and turns no card up; the opponent starts by discarding (the rule book's V5). "
            f"Checked on every hand played: {rl_tally.deal_11_10_no_up_card:,} of {rl_tally.hands:,}. simgin: "
            "`eleven_card_start=True`.",
            "- **Rewards are not gin scores.** The scorer (`get_payoff_gin_rummy_v1`) pays 1 for gin, 0.2 for "
            "a knock, and otherwise minus the player's own deadwood / 100; there are no lay-offs, no undercut "
            "and no bonuses. "
            f"In play the payoffs matched that on {rl_tally.payoffs_as_documented:,} of {rl_tally.hands:,} "
            f"hands; the knocker's payoff by outcome (outcome payoff: hands): {payoffs}. The scorer looks only "
            "at who went out, so a knocker whom the rule book would undercut is paid 0.2 all the same (here "
            f"{undercut_paid:,} times).",
            "- **The wall.** With 2 stock cards left the player may declare a dead hand or pick up the discard "
            "and play on (no knock needed); 200 moves end the hand as dead (`max_move_count`). A card picked "
            "up may not be thrown back in the same turn, as in the rule book (R10). simgin's closest: "
            "`fiftieth_card_action=True` (V7: take the last discard only to knock).",
            "- **The novice agent draws at random**: only its discard, knock and gin decisions follow a rule; "
            "drawing falls through to a random legal action, hence its many pile takes below.",
            "- **Its own 11-card `get_going_out_cards`** (which discards allow a knock or gin) disagrees with "
            "simgin on " + _checks_text(crossval_results, "RLCard", None) + ". " + agreement("RLCard"),
        ]
    )


# -- the figure --------------------------------------------------------------------------------


def build_figure(summary: Sequence[dict[str, Any]], scaling: Sequence[dict[str, Any]]) -> Any:
    """Speed by engine (log scale), cost against hands (log-log, with the fitted line), peak memory."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(15, 4.6), layout="constrained")
    speed, cost, memory = figure.subplots(1, 3)
    engines = [
        ("simgin_1", "simgin, 1 core", "#1f77b4"),
        ("simgin_all", f"simgin, {numba.config.NUMBA_NUM_THREADS} cores", "#aec7e8"),
        ("openspiel", "OpenSpiel, 1 core", "#ff7f0e"),
        ("rlcard", "RLCard, 1 core", "#2ca02c"),
    ]
    short = {
        "random vs random hands": "hands,\nrandom vs random",
        "simple bot vs simple bot hands": "hands,\nsimple vs simple",
        "10-card minimum-deadwood evaluations": "10-card\nmin deadwood",
        "11-card best-discard evaluations": "11-card\nbest discard",
    }
    labels = [short.get(row["measure"], row["measure"]) for row in summary]
    width = 0.8 / len(engines)
    for offset, (key, label, color) in enumerate(engines):
        values = [row[key] for row in summary]
        positions = [i + (offset - (len(engines) - 1) / 2) * width for i in range(len(summary))]
        speed.bar(positions, [v if not math.isnan(v) else 0 for v in values], width, label=label, color=color)
    speed.set_yscale("log")
    speed.set_xticks(range(len(summary)), labels, fontsize=8)
    speed.set_ylabel("per second (log scale)")
    speed.set_title("Speed, same machine, same run")
    speed.legend(fontsize=7)
    for workers, color in ((1, "#1f77b4"), (2, "#d62728")):
        points = [row for row in scaling if row["workers"] == workers]
        x = np.array([row["hands"] for row in points], dtype=float)
        cost.loglog(
            x,
            [row["seconds"] for row in points],
            "o",
            color=color,
            label=f"{workers} worker{'s' if workers > 1 else ''}, measured",
        )
        fixed, rate, _ = linear_fit(scaling, workers)
        if not math.isnan(rate):
            line = np.geomspace(x.min(), x.max(), 50)
            fit = f"{fixed:.1f} s + hands / {rate:,.0f}"
            cost.loglog(line, fixed + line / rate, "-", color=color, alpha=0.6, label=fit)
        label = "1 worker" if workers == 1 else f"{workers} workers (a run of one chunk starts one process)"
        memory.semilogx(x, [row["peak_tree_mb"] for row in points], "o-", color=color, label=label)
    cost.set_xlabel("hands (simgin match simple simple)")
    cost.set_ylabel("wall-clock seconds")
    cost.set_title("Cost grows linearly with the hands")
    cost.legend(fontsize=7)
    memory.set_xlabel("hands")
    memory.set_ylabel("peak resident memory, process tree (MB)")
    memory.set_ylim(bottom=0)
    memory.set_title("Memory stays flat")
    memory.legend(fontsize=7)
    return figure


# -- RESULTS.md ----------------------------------------------------------------------------


def write_section(path: Path, body: str) -> None:
    """Put ``body`` between the compare markers of ``path``; everything outside them is kept as it is.

    When the markers are missing, the heading and the marked section are appended at the end.
    """
    text = path.read_text() if path.exists() else ""
    block = f"{START_MARKER}\n{body.strip()}\n{END_MARKER}"
    start, end = text.find(START_MARKER), text.find(END_MARKER)
    if start >= 0 and end > start:
        text = text[:start] + block + text[end + len(END_MARKER) :]
    else:
        text = text.rstrip("\n") + ("\n\n" if text.strip() else "") + f"{HEADING}\n\n{block}\n"
    path.write_text(text)


def header_lines(run_text: str, command: str) -> list[str]:
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    return [
        f"Written by `{command}`; every figure below was measured on this machine in that one run ({run_text}).",
        "",
        f"- Date: {datetime.datetime.now(datetime.UTC).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- Machine: `nproc` = {run_all.core_count()} cores; CPU: {run_all.cpu_model()}; "
        f"{platform.system()} {platform.release()}",
        f"- Python {platform.python_version()}, numba {numba.__version__}, numpy {np.__version__}; "
        f"simgin revision {run_all.git_revision()}",
        f"- open-spiel {crossval.package_version('open-spiel')}, rlcard {crossval.package_version('rlcard')} "
        "(`pip install open-spiel rlcard`, or the `compare` extra)",
        f"- Load average (1, 5, 15 min) at the end: {load}; max resident memory of this script: "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MB",
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny samples (a smoke test); writes only with --output")
    parser.add_argument("--output", type=Path, default=None, help=f"file to write the section into ({DEFAULT_OUTPUT})")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--runs", type=int, default=None, help="timed runs per speed measurement (default 5)")
    parser.add_argument(
        "--wait-quiet", type=float, default=120.0, help="seconds to wait at most for other processes to go idle"
    )
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else Sizes()
    if args.runs is not None:
        sizes = dataclasses.replace(sizes, runs=args.runs)
    output = args.output or (None if args.quick else DEFAULT_OUTPUT)
    adapters, missing = crossval.available_adapters()
    if missing:
        raise SystemExit(f"needs OpenSpiel and RLCard: pip install open-spiel rlcard (missing: {'; '.join(missing)})")

    waited = time.perf_counter()
    quiet = run_all.wait_for_quiet(args.wait_quiet)
    print(f"machine: {quiet}", file=sys.stderr)
    start = time.perf_counter()
    phases: dict[str, float] = {}

    def timed(name: str, call: Callable[[], Any]) -> Any:
        begin = time.perf_counter()
        result = call()
        phases[name] = time.perf_counter() - begin
        return result

    cases = timed("speed", lambda: measure_speed(sizes, args.seed))
    speed_text, summary = speed_markdown(cases, sizes.runs)
    scaling = timed("cost as the work grows", lambda: measure_scaling(sizes, args.seed))
    print("cross-validating deadwood ...", file=sys.stderr)
    checks = timed(
        "cross-validation",
        lambda: crossval.cross_validate(adapters, sizes.crossval_uniform, sizes.crossval_dense, args.seed),
    )
    tallies = timed("outcome mix", lambda: measure_outcomes(sizes, args.seed))
    tie = openspiel_scripted_tie()
    elapsed = time.perf_counter() - start
    phases_text = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in phases.items())
    run_text = f"{elapsed:.0f} s: {phases_text}; before it, {start - waited:.0f} s waiting for a quiet machine, {quiet}"

    command = "python benchmarks/compare_engines.py" + (" --quick" if args.quick else "")
    figure_note = f"![simgin vs OpenSpiel and RLCard: speed, cost against hands, memory]({FIGURE_NAME}.png)"
    hands_total = 2 * sizes.crossval_uniform + 2 * sizes.crossval_dense
    body = "\n".join(
        [
            *header_lines(run_text, command),
            "",
            figure_note,
            "",
            f"({FIGURE_NAME}.svg has the same figure as vector graphics.)",
            "",
            "### Speed",
            "",
            speed_text,
            "",
            "### Cost as the work grows",
            "",
            scaling_markdown(scaling, args.seed),
            "",
            "### Cross-validation of deadwood",
            "",
            f"{hands_total:,} hands per engine: {sizes.crossval_uniform:,} uniform random hands of 10 cards and "
            f"as many of 11 cards (from a shuffled deck), plus {sizes.crossval_dense:,} dense hands of each size "
            f"(cards from {crossval.DENSE_RANK_WINDOW} consecutive ranks: several overlapping melds per hand), "
            f"seed {args.seed}. The 11-card best discard of OpenSpiel and RLCard is computed exactly from their "
            "10-card function (the minimum over the 11 discards); their own 11-card functions are checked "
            "too. Every disagreement is printed by the run with the rule book's answer (the brute force of "
            "`tests/reference.py`); the first few of each check are below. Card encodings were mapped from "
            "each engine's source (see `benchmarks/compare_crossval.py`) and checked against its own card "
            "names for all 52 cards.",
            "",
            crossval.markdown(checks),
            "",
            "### Rules that differ, checked in the source and in play",
            "",
            rules_markdown(tallies, checks, tie),
            "",
            "### Outcome mix of the simple bots",
            "",
            outcomes_markdown(tallies),
        ]
    )
    if output is None:
        print(body)
        return
    figure = build_figure(summary, scaling)
    for suffix in ("png", "svg"):
        figure.savefig(output.parent / f"{FIGURE_NAME}.{suffix}", dpi=110)
    write_section(output, body)
    print(f"wrote {output} and {output.parent / FIGURE_NAME}.png/.svg", file=sys.stderr)


if __name__ == "__main__":
    main()

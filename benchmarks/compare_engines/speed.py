"""1. Speed: full hands and minimum-deadwood evaluations per second, each engine on one core."""

from __future__ import annotations

import dataclasses
import math
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numba
import numpy as np

import simgin
import simgin.running.engine
from benchmarks import bench_engine
from benchmarks.compare_engines import crossval
from benchmarks.compare_engines.common import Sizes
from benchmarks.compare_engines.others import OutcomeTally, openspiel_bots, openspiel_hand, rlcard_env, rlcard_hand
from simgin import Rules
from simgin.game.melds import best_discard_batch, deadwood_batch
from simgin.kernels import engine as _k

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

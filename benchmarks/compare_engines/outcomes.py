"""4. Rules and outcome mix: the rule differences found in the other engines, checked in play."""

from __future__ import annotations

import dataclasses
import math
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import simgin
import simgin.running.engine
from benchmarks.compare_engines import crossval
from benchmarks.compare_engines.common import OPENSPIEL_CLOSEST, RLCARD_CLOSEST, Sizes
from benchmarks.compare_engines.others import OutcomeTally, play_other, simgin_tally
from simgin import Rules

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

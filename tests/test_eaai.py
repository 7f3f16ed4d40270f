"""EAAI Java players (issue 13): ``eaai:CLASSPATH:CLASS`` hosts an unmodified ``ginrummy.GinRummyPlayer``.

The Java players here (tests/java/players) are compiled against a stand-in ``ginrummy``
package written for these tests (tests/java/ginrummy: ``Card`` and ``GinRummyPlayer`` with the
framework's public signatures). TwinPlayer has a Python twin (tests/eaai_twin.py) that must
play the same hands; CheckerPlayer logs every interface call, so the call sequence and the card
mapping are checked against the engine's move log; BadPlayers break rules on purpose.
"""

from __future__ import annotations

import dataclasses
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from simgin.game import reference_engine as ref
from simgin.game.cards import format_card
from simgin.game.melds import deadwood
from simgin.game.rules import Rules
from simgin.kernels import engine as kernel
from simgin.players import eaai, programs as ps
from simgin.players.registry import resolve
from simgin.running import runner
from simgin.running.engine import hand_seeds, play_game_rows, play_hand_rows

TWIN = f"{Path(__file__).resolve().parent / 'eaai_twin.py'}:Twin"


@pytest.fixture(autouse=True)
def _no_programs_left():
    ps.close_programs()
    yield
    ps.close_programs()
    ps.configure(None)


def spec(classpath: str, player: str) -> str:
    return f"eaai:{classpath}:{player}"


RULE_SETS = {
    "standard": Rules(),
    "eaai": Rules.preset("eaai"),
    "modern_big_gin_declined": Rules.preset("modern"),
    "v6_v7_fiftieth_declined": dataclasses.replace(Rules(), rediscard_taken_card=True, fiftieth_card_action=True),
}


# -- the twin: the same hands in Java and in Python ---------------------------------------------


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
@pytest.mark.parametrize("rules_name", RULE_SETS)
def test_the_java_twin_plays_the_hands_of_its_python_twin(classpath, rules_name):
    rules = RULE_SETS[rules_name]
    seeds = hand_seeds(31, 150)
    dealers = np.arange(seeds.size) % 2
    java = spec(classpath, "TwinPlayer")
    for opponent in ("simple", "random"):
        for players in ((java, opponent), (opponent, java)):
            rows = play_hand_rows(players, rules, seeds, dealers)
            python = tuple(TWIN if player == java else player for player in players)
            assert (rows == play_hand_rows(python, rules, seeds, dealers)).all(), (rules_name, players)
    rows = play_hand_rows((java, "simple"), rules, seeds, dealers)
    kind, winner = rows[:, kernel.HAND_FIELDS.index("kind")], rows[:, kernel.HAND_FIELDS.index("winner")]
    fiftieth = rows[:, kernel.HAND_FIELDS.index("fiftieth")]
    assert not ((kind == ref.Outcome.BIG_GIN) & (winner == 0)).any(), "an EAAI player declines big gin (V13)"
    assert not ((fiftieth == 1) & (rows[:, kernel.HAND_FIELDS.index("knocker")] == 0)).any(), "and the 50th card (V7)"


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_the_java_twin_plays_the_games_of_its_python_twin(classpath):
    rules = Rules.preset("eaai")
    seeds = hand_seeds(4, 10)
    java = play_game_rows((spec(classpath, "TwinPlayer"), "simple"), rules, seeds)
    python = play_game_rows((TWIN, "simple"), rules, seeds)
    assert all((a == b).all() for a, b in zip(java, python, strict=True))


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["local", "dask"])
def test_runs_on_workers_give_the_twins_results_and_leave_no_jvm(classpath, backend):
    config = runner.RunConfig((spec(classpath, "TwinPlayer"), "simple"), hands=120, seed=6, chunk_units=20)
    java = runner.run(config, workers=2, backend=backend)
    python = runner.run(dataclasses.replace(config, players=(TWIN, "simple")), workers=1)
    assert java.tallies[0].to_dict() == python.tallies[0].to_dict()
    # This run's JVMs only (their -cp holds this session's classes): under xdist another module's may be alive.
    pattern = f"{re.escape(classpath)}.*simgin.EaaiHost TwinPlayer"
    left = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True)
    assert not [line for line in left.stdout.split() if line], "a JVM outlived the run"


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_the_java_players_decisions_do_not_depend_on_cards_it_has_not_seen(classpath):
    from test_strategy_information import check_hidden_cards_do_not_matter

    questions = 0
    for i, seed in enumerate(hand_seeds(71, 6)):
        count, differences = check_hidden_cards_do_not_matter(
            resolve(spec(classpath, "TwinPlayer")).make, resolve("random").make, Rules(), int(seed), i % 2, i % 2
        )
        questions += count
        assert not differences
    assert questions > 60


# -- the call sequence and the card mapping -----------------------------------------------------


def expected_calls(record: ref.HandRecord, seat: int) -> list[str]:
    """The interface calls the EAAI game would make to the player at ``seat`` in this hand, cards
    by their EAAI names (rank A..K, suit C H S D: the same letters as simgin's), as regular
    expressions (``getFinalMelds`` answers the count of its melds, or null)."""
    deal = record.moves[0]
    hands = [sorted(deal.hands[0]), sorted(deal.hands[1])]
    pile = [deal.up_card]
    calls = [re.escape(f"startGame {seat} {1 - deal.dealer} " + " ".join(map(format_card, hands[seat])))]
    moves = record.moves[1:]
    offered = False
    for index, move in enumerate(moves):
        if isinstance(move, ref.Offer):
            if move.seat == seat:
                calls.append(re.escape(f"willDrawFaceUpCard {format_card(move.card)} {str(move.taken).lower()}"))
            offered = move.taken
        elif isinstance(move, ref.Draw):
            forced = isinstance(moves[index - 1], ref.Offer)  # the first stock draw after two passes
            if move.seat == seat and not offered and not forced:
                taken = move.source == ref.PILE
                calls.append(re.escape(f"willDrawFaceUpCard {format_card(pile[-1])} {str(taken).lower()}"))
            offered = False
            if move.source == ref.PILE:
                pile.pop()
            hands[move.seat].append(move.card)
            shown = format_card(move.card) if move.seat == seat or move.source == ref.PILE else "null"
            calls.append(re.escape(f"reportDraw {move.seat} {shown}"))
        elif isinstance(move, ref.Discard):
            pile.append(move.card)
            hands[move.seat].remove(move.card)
            if move.seat == seat:
                calls.append(re.escape(f"getDiscard {format_card(move.card)}"))
            calls.append(re.escape(f"reportDiscard {move.seat} {format_card(move.card)}"))
            if move.seat == seat:
                knocks = deadwood(hands[seat]) <= 10
                calls.append("getFinalMelds [0-9]+ melds" if knocks else "getFinalMelds null")
        elif isinstance(move, ref.Knock):
            calls.append(re.escape(f"reportFinalMelds {move.seat}" + show_melds(move.melds)))
            if move.seat != seat:
                calls.append("getFinalMelds [0-9]+ melds")
        elif isinstance(move, ref.LayOff):
            calls.append(re.escape(f"reportFinalMelds {move.seat}" + show_melds(move.melds)))
            knock = moves[index - 1]
            for card, meld in ps.layoff_targets(knock.melds, move.cards):
                calls.append(re.escape(f"reportLayoff {move.seat} {format_card(card)}{show_melds([meld])}"))
        elif isinstance(move, ref.Score):
            if move.kind == ref.Outcome.DEAD:
                calls.append(re.escape(f"reportFinalHand {seat} " + " ".join(map(format_card, sorted(hands[seat])))))
            else:
                for shown_seat in (0, 1):
                    cards = " ".join(map(format_card, sorted(hands[shown_seat])))
                    calls.append(re.escape(f"reportFinalHand {shown_seat} {cards}"))
            scores = [0, 0]
            if move.winner >= 0:
                scores[move.winner] += move.points
            calls.append(re.escape(f"reportScores {scores[0]} {scores[1]}"))
    return calls


def show_melds(melds) -> str:
    return "".join(" [" + " ".join(map(format_card, meld)) + "]" for meld in melds)


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_the_calls_and_cards_are_those_of_the_eaai_game(classpath, tmp_path):
    """CheckerPlayer logs each call (and checks the interface's promises); the log must be the
    calls the engine's move log implies, with every card mapped to the same card."""
    ps.configure(ps.ProgramSettings(stderr_dir=str(tmp_path)))
    checker = spec(classpath, "CheckerPlayer")
    records = {0: [], 1: []}
    for i, seed in enumerate(hand_seeds(12, 40)):
        seat = i % 2
        players = [resolve("simple").make(), resolve("simple").make()]
        players[seat] = resolve(checker).make()
        records[seat].append(ref.play_hand(tuple(players), Rules(), int(seed), dealer=(i // 2) % 2))
    ps.close_programs()
    calls = []
    for seat in (0, 1):
        (log,) = tmp_path.glob(f"*seat{seat}*.stderr")
        lines = log.read_text().splitlines()
        expected = [call for record in records[seat] for call in expected_calls(record, seat)]
        assert len(lines) == len(expected)
        for line, pattern in zip(lines, expected, strict=True):
            assert re.fullmatch(pattern, line), (line, pattern)
        calls += [line.split()[0] for line in lines]
    assert {"reportLayoff", "reportFinalMelds", "getFinalMelds", "reportDraw"} <= set(calls), "the hands had lay-offs"


# -- illegal decisions and broken players -------------------------------------------------------


@pytest.mark.parametrize(
    "player, decision, reason",
    [
        ("BadPlayers$NotHeld", "made an illegal 'discard' decision", "is not held"),
        ("BadPlayers$FakeMelds", "made an illegal 'knock' decision", "it knocked with melds ["),
        ("BadPlayers$AlwaysKnocks", "made an illegal 'discard' decision", "it knocked with melds"),
        ("BadPlayers$DeclaresNothing", "made an illegal 'knock' decision", "over the knock limit 10 (R12)"),
        ("BadPlayers$SilentDefender", "made an illegal 'end_hand' decision", "getFinalMelds returned null"),
        (
            "BadPlayers$Thrower",
            "failed at its 'discard' decision",
            "IllegalStateException: boom on discard 5 in discard",
        ),
        pytest.param("BadPlayers$Sleeper", "failed at its", "no answer within 2 s", marks=pytest.mark.slow),  # 2 s
        ("BadPlayers$NotAPlayer", "could not be started", "does not implement ginrummy.GinRummyPlayer"),
        ("NoSuchPlayer", "could not be started", "class NoSuchPlayer not found on the classpath"),
    ],
)
def test_a_broken_player_stops_the_run_with_one_line(classpath, player, decision, reason):
    name = spec(classpath, player)
    config = runner.RunConfig((name, "simple"), hands=40, seed=3)
    with pytest.raises(runner.RunError) as caught:
        runner.run(config, workers=1, programs=ps.ProgramSettings(decision_timeout=2.0))
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"strategy {name!r} (seat ")
    assert decision in message and reason in message
    assert ("hand seed" in message) == (decision != "could not be started")  # a player that cannot start: any hand


@pytest.mark.parametrize(
    "player, decision, reason",
    [
        ("BadPlayers$NotHeld", "discard", "is not held"),
        ("BadPlayers$FakeMelds", "knock", "it knocked with melds ["),
        ("BadPlayers$SilentDefender", "end_hand", "getFinalMelds returned null"),
    ],
)
def test_an_illegal_move_forfeits_and_the_player_plays_on(classpath, player, decision, reason):
    """Issue 25: under --on-illegal forfeit an EAAI player's illegal move (a discard, or melds, as
    the EAAI framework judges them) loses it the hand; the run goes on with the same JVM."""
    name = spec(classpath, player)
    config = runner.RunConfig((name, "simple"), hands=40, seed=3, on_illegal="forfeit")
    result = runner.run(config, workers=1, programs=ps.ProgramSettings(decision_timeout=2.0))
    t = result.tallies[0]
    forfeits = t.forfeits
    assert t["hands"] == 40 and t["forfeits_a"] == len(forfeits) >= 1 and t["forfeits_b"] == 0
    assert all(f["decision"] == decision and reason in f["error"] and f["player"] == name for f in forfeits)


def test_illegal_melds_are_named():
    assert eaai.melds_problem([[0, 1, 2]], [0, 1, 2, 5]) is None
    assert eaai.melds_problem([[0, 1, 3]], [0, 1, 3]) == "[AC 2C 4C] is not a set or a run (R3, R4)"
    assert eaai.melds_problem([[0, 13, 26]], [0, 13]) == "AH is not held"
    assert eaai.melds_problem([[0, 1, 2], [2, 15, 28]], [0, 1, 2, 15, 28]) == "3C is in two melds (R5)"
    assert eaai.declared_deadwood([[0, 1, 2]], [0, 1, 2, 12, 25]) == 20


def test_a_player_that_prints_keeps_the_protocol_clean(classpath, tmp_path):
    ps.configure(ps.ProgramSettings(stderr_dir=str(tmp_path)))
    seeds = hand_seeds(2, 10)
    rows = play_hand_rows((spec(classpath, "BadPlayers$Chatty"), "simple"), Rules(), seeds, np.zeros(10, np.int64))
    assert (rows == play_hand_rows((TWIN, "simple"), Rules(), seeds, np.zeros(10, np.int64))).all()
    ps.close_programs()
    assert "thinking about" in next(tmp_path.glob("*.stderr")).read_text()


# -- what the interface cannot express ----------------------------------------------------------


@pytest.mark.parametrize(
    "rules, reason",
    [
        (dataclasses.replace(Rules(), eleven_card_start=True), "cannot play the 11-card start (V5)"),
        (Rules.preset("oklahoma"), "cannot play Oklahoma (V9)"),
        (Rules.preset("straight"), "cannot play knock_limit=0 (V1)"),
    ],
)
def test_rules_the_interface_cannot_express_are_refused(classpath, rules, reason):
    config = runner.RunConfig((spec(classpath, "TwinPlayer"), "simple"), rules=rules, hands=2)
    with pytest.raises(runner.RunError, match=re.escape(reason)) as caught:
        runner.run(config, workers=1)
    assert "UnsupportedRules" in str(caught.value)
    three = runner.RunConfig((spec(classpath, "TwinPlayer"), "simple", "random"), games=6, table="three")
    with pytest.raises(ValueError, match="is a program; only compiled strategies play here"):
        runner.run(three, workers=1)


# -- specs, the JDK and the cache ---------------------------------------------------------------


def test_specs(classpath):
    player = resolve(spec(classpath, "TwinPlayer"))
    assert player.info.kind == "program" and player.info.source == "eaai" and player.given == {}
    assert eaai.parse_spec(f"eaai:{classpath}:/other/dir:pkg.Inner$Player") == (
        f"{classpath}:/other/dir",
        "pkg.Inner$Player",
    )
    for bad, message in [
        ("eaai:Player", "write eaai:CLASSPATH:CLASS"),
        (f"eaai:{classpath}:not a class", "is not a Java class name"),
        ("eaai:/no/such/folder:Player", "classpath entry '/no/such/folder' does not exist"),
    ]:
        with pytest.raises(ValueError, match=re.escape(message)):
            resolve(bad)


def test_without_a_jdk_the_error_says_so(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("JAVA_HOME", raising=False)
    with pytest.raises(ValueError, match=r"eaai: strategies need a Java JDK, and 'javac' is not on the PATH"):
        resolve(f"eaai:{tmp_path}:Player")
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "jdk"))
    with pytest.raises(ValueError, match=r"'javac' is not in JAVA_HOME \(.*jdk\) or on the PATH"):
        eaai.java_tools()


@pytest.mark.slow
def test_the_adapter_is_compiled_once_into_the_user_cache(classpath, monkeypatch, tmp_path):
    monkeypatch.setenv("SIMGIN_CACHE_DIR", str(tmp_path / "cache"))
    eaai.compiled_host.cache_clear()
    try:
        folder = eaai.compiled_host(classpath)
        assert folder.parent == tmp_path / "cache" / "java" and len(folder.name) == 16
        compiled = folder / "simgin" / "EaaiHost.class"
        stamp = compiled.stat().st_mtime_ns
        eaai.compiled_host.cache_clear()
        assert eaai.compiled_host(classpath) == folder and compiled.stat().st_mtime_ns == stamp
        assert [path.name for path in folder.parent.iterdir()] == [folder.name], "no work folders left"
        with pytest.raises(ValueError, match="javac could not compile simgin's EAAI adapter"):
            eaai.compiled_host.cache_clear()
            monkeypatch.setenv("SIMGIN_CACHE_DIR", str(tmp_path / "other"))
            eaai.compiled_host(str(tmp_path))  # no ginrummy package there
    finally:
        eaai.compiled_host.cache_clear()
    monkeypatch.delenv("SIMGIN_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert eaai.cache_root() == tmp_path / "xdg" / "simgin"

"""``exec:`` strategies (issue 13): a program over the line protocol (docs/PROTOCOL.md).

It plays exactly like the Python strategy it copies, it is told exactly what a PlayerView holds
(everything, and nothing that depends on cards it has not seen), and a crash, hang, garbage or
illegal answer stops the run with one line naming the strategy, the decision and the hand seed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
from test_strategy_information import Recorder, Replay, hidden_shuffle

from simgin.game import reference_engine as ref
from simgin.game.rng import SplitMix64, derive
from simgin.game.rules import Rules
from simgin.game.strategy import PlayerView
from simgin.players import programs as ps
from simgin.players.registry import resolve
from simgin.running import runner
from simgin.running.engine import hand_seeds, play_game_rows, play_hand_rows

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = Path(__file__).resolve().parent / "programs"
EXEC_SIMPLE = f"exec:{sys.executable} {ROOT / 'examples' / 'simple_bot.py'}"
RULE_SETS = {
    "standard": Rules(),
    "eaai": Rules.preset("eaai"),
    "v6_v7": dataclasses.replace(Rules(), rediscard_taken_card=True, fiftieth_card_action=True),
    "modern_big_gin": dataclasses.replace(Rules.preset("modern"), fiftieth_card_action=True),
    "eleven_card_start": dataclasses.replace(Rules(), eleven_card_start=True),
    "oklahoma": Rules.preset("oklahoma"),
}


def bad_bot(mode: str, at: int = 1, pid_dir: Path | None = None) -> str:
    return f"exec:{sys.executable} {PROGRAMS / 'bad_bot.py'} {mode} {at}" + (f" {pid_dir}" if pid_dir else "")


@pytest.fixture(autouse=True)
def _no_programs_left():
    """Each test starts and ends with no program of this process running."""
    ps.close_programs()
    yield
    ps.close_programs()


# -- the example bot is simple, hand for hand ------------------------------------------------


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
@pytest.mark.parametrize("rules_name", list(RULE_SETS))
def test_the_example_bot_plays_the_hands_of_simple(rules_name):
    rules = RULE_SETS[rules_name]
    seeds = hand_seeds(21, 120)
    dealers = np.arange(seeds.size) % 2
    for opponent in ("random", "greedy"):
        for seat in (0, 1):
            players = [opponent, opponent]
            players[seat] = EXEC_SIMPLE
            rows = play_hand_rows(tuple(players), rules, seeds, dealers)
            players[seat] = "simple"
            assert (rows == play_hand_rows(tuple(players), rules, seeds, dealers)).all(), (rules_name, opponent, seat)


def test_the_example_bot_plays_the_games_and_moves_of_simple():
    rules = Rules.preset("eaai")
    seeds = hand_seeds(5, 12)
    games, rows, counts = play_game_rows((EXEC_SIMPLE, "simple"), rules, seeds)
    expected = play_game_rows(("simple", "simple"), rules, seeds)
    assert (games == expected[0]).all() and (counts == expected[2]).all() and (rows == expected[1]).all()
    for seed in hand_seeds(8, 10):
        mine = ref.play_hand((resolve(EXEC_SIMPLE).make(), resolve("random").make()), rules, int(seed), 0)
        theirs = ref.play_hand((resolve("simple").make(), resolve("random").make()), rules, int(seed), 0)
        assert mine.replay() == theirs.replay()


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_one_program_per_seat_plays_every_hand_of_a_worker(tmp_path):
    log = tmp_path / "views.jsonl"
    spec = f"exec:{sys.executable} {PROGRAMS / 'view_bot.py'} {log}"
    seeds = hand_seeds(3, 30)
    play_hand_rows((spec, spec), Rules(), seeds, np.arange(30) % 2)
    assert ps.close_programs() == 2  # the last hand's end goes out with quit
    records = [json.loads(line) for line in log.read_text().splitlines()]
    pids = {(record["view"]["seat"], record["pid"]) for record in records if "view" in record}
    assert len(pids) == 2 and {seat for seat, _ in pids} == {0, 1}
    assert sum("end" in record for record in records) == 2 * 30


# -- exactly a PlayerView ----------------------------------------------------------------------


class Spy(ps.ProgramStrategy):
    """The exec: adapter, keeping every view it is given."""

    def __init__(self, spec, log):
        super().__init__(spec, ps.parse_command(spec))
        self.log = log

    def __getattribute__(self, name):
        attribute = super().__getattribute__(name)
        if name in ("take_up_card", "draw_from_pile", "discard", "knock", "big_gin", "take_fiftieth", "end_hand"):

            def spied(view, rng):
                self.log.append((name, view))
                return attribute(view, rng)

            return spied
        return attribute


VIEW_FIELDS = [f.name for f in dataclasses.fields(PlayerView) if f.name != "ending"]


def rebuilt(view: PlayerView) -> dict:
    """A PlayerView as the view bot writes it."""
    data = {name: getattr(view, name) for name in VIEW_FIELDS}
    data["rules"] = view.rules.to_dict()
    for name in ("hand", "pile", "opponent_took", "opponent_passed", "opponent_discards", "scores"):
        data[name] = list(data[name])
    return data


def check_views(log_path: Path, seen: list) -> set[str]:
    """The views the view bot rebuilt from the lines equal the engine's, field by field (every field
    of PlayerView but ``ending``), and the showdowns it was told equal ``view.ending``; returns the
    decisions asked. Two programs may share the log: each seat's lines are in order."""
    ps.close_programs()
    told = [json.loads(line) for line in log_path.read_text().splitlines()]
    views = [(name, view) for name, view in seen if name != "end_hand"]
    ends = [view for name, view in seen if name == "end_hand"]
    for seat in (0, 1):
        mine = [(name, view) for name, view in views if view.seat == seat]
        theirs = [record for record in told if "view" in record and record["view"]["seat"] == seat]
        assert len(mine) == len(theirs)
        for (name, view), record in zip(mine, theirs, strict=True):
            assert record["decision"] == name
            assert record["view"] == rebuilt(view), (name, view)
        endings = [view.ending for view in ends if view.seat == seat]
        shown = [record["end"] for record in told if "end" in record and record["end"]["seat"] == seat]
        assert len(endings) == len(shown)
        for ending, end in zip(endings, shown, strict=True):
            assert (end["kind"], end["winner"], end["points"]) == (ending.kind, ending.winner, ending.points)
            if ending.kind == "dead":
                assert end["melds"] == end["layoffs"] == [] and end["shown"] == {}
                continue
            knocker, defender = end["melds"]
            assert (knocker["seat"], defender["seat"]) == (ending.knocker, 1 - ending.knocker)
            assert knocker["melds"] == [list(meld) for meld in ending.knocker_melds]
            assert defender["melds"] == [list(meld) for meld in ending.defender_melds]
            assert (knocker["deadwood"], defender["deadwood"]) == (ending.knocker_deadwood, ending.defender_deadwood)
            assert sorted(card for card, _ in end["layoffs"]) == list(ending.layoffs)
            assert end["shown"] == {str(s): list(hand) for s, hand in enumerate(ending.hands)}
    assert any(view.ending.kind != "dead" for view in ends)
    return {name for name, _ in views}


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
@pytest.mark.parametrize("rules_name", [*RULE_SETS, "hollywood"])
def test_the_program_is_told_every_field_of_the_view(tmp_path, rules_name):
    """Two games of the view bot, one against itself and one against random, under each rule set: to 60
    points, or to 30 under Hollywood, whose three columns make a game several times as long (30 still
    knocks, passes and shows game scores)."""
    rules = Rules.preset("hollywood") if rules_name == "hollywood" else RULE_SETS[rules_name]
    rules = dataclasses.replace(rules, target=30 if rules.hollywood else 60)
    log_path = tmp_path / "views.jsonl"
    spec = f"exec:{sys.executable} {PROGRAMS / 'view_bot.py'} {log_path}"
    seen: list = []
    for i, seed in enumerate(hand_seeds(16, 2)):
        players = (Spy(spec, seen), Spy(spec, seen)) if i % 2 else (Spy(spec, seen), resolve("random").make())
        ref.play_game(players, rules, int(seed))
    decisions = check_views(log_path, seen)
    assert {"draw_from_pile", "discard", "knock"} <= decisions
    assert ("take_up_card" in decisions) != rules.eleven_card_start
    assert any(view.scores != (0, 0) for _, view in seen), "later hands show the game score"


class Lazy:
    """Passes, draws from the stock, discards the card it drew, never knocks."""

    name = "lazy"

    def start_hand(self, view, rng):
        pass

    def take_up_card(self, view, rng):
        return False

    draw_from_pile = knock = big_gin = take_fiftieth = take_up_card

    def discard(self, view, rng):
        return view.drawn_card if view.drawn_card >= 0 and not view.drawn_from_pile else view.hand[0]


def scripted_deck(nondealer: str, dealer: str, up_card: str, stock: dict[int, str]) -> list[int]:
    """A deck dealing these hands and up card, with the given cards at these stock positions."""
    from simgin.game.cards import parse_card, parse_cards

    hands = (parse_cards(nondealer), parse_cards(dealer))
    placed = {index: parse_card(card) for index, card in stock.items()}
    used = {*hands[0], *hands[1], parse_card(up_card), *placed.values()}
    rest = iter(card for card in range(52) if card not in used)
    deck = [card for pair in zip(*hands, strict=True) for card in pair] + [parse_card(up_card)]
    deck += [placed[index] if index in placed else next(rest) for index in range(31)]
    assert sorted(deck) == list(range(52))
    return deck


@pytest.mark.parametrize("decision", ["big_gin", "take_fiftieth"])
def test_the_program_is_told_every_field_of_the_view_in_rare_spots(tmp_path, decision):
    """Scripted decks for what random games rarely reach: big gin (V13) and the 50th card (V7)."""
    log_path = tmp_path / "views.jsonl"
    spec = f"exec:{sys.executable} {PROGRAMS / 'view_bot.py'} {log_path} script"
    rules = dataclasses.replace(Rules(), big_gin=True, fiftieth_card_action=True)
    seen: list = []
    if decision == "big_gin":  # the bot, non-dealer, holds AC-TC and takes the up card JC
        deck = scripted_deck("AC 2C 3C 4C 5C 6C 7C 8C 9C TC", "2D 4D 6D 8D TD 2H 4H 6H 8H TH", "JC", {})
        record = ref.play_hand((Spy(spec, seen), Lazy()), rules, hand_seed=1, dealer=1, deck=deck)
    else:  # the bot deals, holds AC-9C KD; the non-dealer draws the 50th card TC and discards it
        deck = scripted_deck("2D 4D 6D 8D TD 2H 4H 6H 8H TH", "AC 2C 3C 4C 5C 6C 7C 8C 9C KD", "5S", {28: "TC"})
        record = ref.play_hand((Lazy(), Spy(spec, seen)), rules, hand_seed=1, dealer=1, deck=deck)
    assert decision in check_views(log_path, seen)
    assert record.kind == (ref.Outcome.BIG_GIN if decision == "big_gin" else ref.Outcome.GIN)


def test_lay_offs_are_shown_on_the_meld_they_extend():
    """R14: a laid-off card may extend a run that another laid-off card extended; TH goes on the run
    (not the set of tens) so that JH can follow it."""
    assert ps.layoff_targets([[9, 22, 48], [31, 32, 33, 34]], [36, 35]) == [
        (35, (31, 32, 33, 34)),
        (36, (31, 32, 33, 34, 35)),
    ]
    assert ps.layoff_targets([[0, 13, 26]], [39]) == [(39, (0, 13, 26))]
    with pytest.raises(AssertionError):
        ps.layoff_targets([[0, 13, 26]], [40])


# -- nothing that depends on unseen cards ------------------------------------------------------


def told_lines(program: ps.Program) -> list[str]:
    """The lines of the last hand in a program's transcript, up to its last question."""
    lines = program.transcript or []
    start = max(i for i, line in enumerate(lines) if line.startswith("hand "))
    last = max(i for i, line in enumerate(lines) if line.startswith("ask "))
    return lines[start : last + 1]


def lines_change_with_hidden_cards(make_bot, spec, rules, seed, dealer, bot_seat) -> bool:
    """Play a hand, then replay it with the cards the program never saw shuffled: do the lines it
    was told (up to its last question) change?"""
    bot = make_bot()
    opponent = Recorder(resolve("simple").make())
    players = (bot, opponent) if bot_seat == 0 else (opponent, bot)
    program = ps.program_for(spec, bot_seat, ps.parse_command(spec))
    program.transcript = []
    record = ref.play_hand(players, rules, seed, dealer)
    first = told_lines(program)
    for k in range(2):
        program.transcript = []
        deck = hidden_shuffle(record, bot_seat, SplitMix64(derive(seed, 1000 + k)))
        replay = Replay(opponent.log)
        players = (make_bot(), replay) if bot_seat == 0 else (replay, make_bot())
        with contextlib.suppress(ref.IllegalDecision):  # the replayed opponent may stop fitting the deck
            ref.play_hand(players, rules, seed, dealer, deck=deck)
        if told_lines(program)[: len(first)] != first:
            return True
    return False


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
@pytest.mark.parametrize("rules_name", list(RULE_SETS))
def test_the_program_is_told_nothing_that_depends_on_cards_it_has_not_seen(tmp_path, rules_name):
    rules = RULE_SETS[rules_name]
    spec = f"exec:{sys.executable} {PROGRAMS / 'view_bot.py'} {tmp_path / 'log.jsonl'}"
    for i, seed in enumerate(hand_seeds(60, 6)):
        changed = lines_change_with_hidden_cards(
            lambda: resolve(spec).make(), spec, rules, int(seed), dealer=i % 2, bot_seat=(i // 2) % 2
        )
        assert not changed, f"{rules_name}, hand seed {int(seed)}: a hidden card changed what the program was told"


class Leaky(ps.ProgramStrategy):
    """A broken adapter: it also tells the program the stock's last card (never drawn), read from the engine."""

    def start_hand(self, view, rng):
        super().start_hand(view, rng)
        for frame_info in inspect.stack():
            hand = frame_info.frame.f_locals.get("self")
            if isinstance(hand, ref._Hand):
                self.program.send(f"pass {1 - view.seat} {hand.stock[-1]}\n")  # a pass that never happened
                return


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
def test_the_hidden_card_check_catches_an_adapter_that_leaks(tmp_path):
    spec = f"exec:{sys.executable} {PROGRAMS / 'view_bot.py'} {tmp_path / 'log.jsonl'}"
    caught = sum(
        lines_change_with_hidden_cards(
            lambda: Leaky(spec, ps.parse_command(spec)), spec, Rules(), int(seed), dealer=i % 2, bot_seat=i % 2
        )
        for i, seed in enumerate(hand_seeds(7, 6))
    )
    assert caught == 6


def test_the_example_bots_decisions_do_not_depend_on_cards_it_has_not_seen():
    from test_strategy_information import check_hidden_cards_do_not_matter

    questions = 0
    for i, seed in enumerate(hand_seeds(70, 6)):
        count, differences = check_hidden_cards_do_not_matter(
            resolve(EXEC_SIMPLE).make, resolve("random").make, Rules(), int(seed), dealer=i % 2, bot_seat=i % 2
        )
        questions += count
        assert not differences
    assert questions > 60


# -- failures: one line naming the strategy, the decision and the hand seed --------------------


@pytest.mark.parametrize(
    "mode, at, decision, reason",
    [
        ("crash", 5, "failed at its", "the program exited with code 3; its stderr ends 'bad_bot: crashing on purpose'"),
        ("hang", 5, "failed at its", "no answer within 1 s (the time limit is --decision-timeout)"),
        ("garbage", 5, "failed at its", "answered 'maybe'; expected"),
        ("error", 5, "failed at its", "the program reported an error: out of ideas"),
        ("illegal", 5, "made an illegal 'discard' decision", "52 is not held"),
        ("version", 1, "could not be started", "speaks protocol version 2; simgin speaks version 1"),
        ("mute", 1, "could not be started", "answered the handshake with 'hello'"),
    ],
)
def test_a_misbehaving_program_stops_the_run_with_one_line(tmp_path, mode, at, decision, reason):
    spec = bad_bot(mode, at)
    config = runner.RunConfig((spec, "simple"), hands=40, seed=2, chunk_units=10)
    settings = ps.ProgramSettings(decision_timeout=1.0)
    with pytest.raises(runner.RunError) as caught:
        runner.run(config, workers=1, programs=settings)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"strategy {spec!r} (seat ")
    assert decision in message and reason in message
    assert "chunk seed" in message
    # A program that cannot start fails whatever the hand: no hand seed, no 'simgin replay' (issue 25).
    assert ("hand seed" in message and "simgin replay" in message) == (decision != "could not be started")


@pytest.mark.slow  # a fault run with processes: .ci/run runs it with the slow tests
def test_a_program_that_never_answers_the_handshake_is_told_about_buffering(monkeypatch):
    """Issue 25: a program whose input is block-buffered (mawk) stalls at the handshake. The message blamed
    --decision-timeout with a limit it had not set and suggested 'simgin replay'; it now names the handshake,
    the limit that applied, and buffering."""
    monkeypatch.setattr(ps, "STARTUP_TIMEOUT", 0.5)
    spec = f"exec:{sys.executable} -c 'import sys; sys.stdin.read()'"  # reads its input in one block, to its end
    config = runner.RunConfig((spec, "simple"), hands=2)
    for timeout, limit in [(0.2, "within 0.5 s (the limit for a program's start and handshake is 0.5 s"), (1.0, "1 s")]:
        with pytest.raises(runner.RunError) as caught:
            runner.run(config, workers=1, programs=ps.ProgramSettings(decision_timeout=timeout))
        message = str(caught.value)
        assert message.startswith(f"strategy {spec!r} (seat 0) could not be started: no answer to the handshake")
        assert limit in message and "block-buffered" in message and "mawk with -W interactive" in message
        assert "replay" not in message and "hand seed" not in message
    assert "--decision-timeout, 1 s" in message


@pytest.mark.slow  # a fault run with processes: .ci/run runs it with the slow tests
@pytest.mark.skipif(shutil.which("mawk") is None, reason="needs mawk")
def test_mawk_stalls_at_the_handshake_unless_interactive(tmp_path, monkeypatch):
    """The case of issue 25 itself: mawk reads a pipe in blocks, so it never sees 'simgin 1' until more comes;
    with -W interactive it answers the handshake (and, knowing no more, then fails its first question)."""
    monkeypatch.setattr(ps, "STARTUP_TIMEOUT", 1.0)
    script = tmp_path / "hello.awk"
    script.write_text('$1 == "simgin" { print "simgin 1 awk"; fflush() }\n')
    settings = ps.ProgramSettings(decision_timeout=0.5)
    cases = [("", "could not be started: no answer to the handshake"), ("-W interactive ", "failed at its")]
    for options, expected in cases:
        config = runner.RunConfig((f"exec:mawk {options}-f {script}", "simple"), hands=2)
        with pytest.raises(runner.RunError) as caught:
            runner.run(config, workers=1, programs=settings)
        assert expected in str(caught.value)
    assert "no answer within 0.5 s (the time limit is --decision-timeout)" in str(caught.value)


def test_the_programs_stderr_is_kept_in_out_and_named_in_the_error(tmp_path):
    spec = bad_bot("crash", 150)  # in the third chunk: each seat's program is asked about 65 questions a chunk
    config = runner.RunConfig((spec, "simple"), hands=60, seed=2, chunk_units=5)
    with pytest.raises(runner.RunError) as caught:
        runner.run(config, workers=1, out=tmp_path / "out")
    logs = list((tmp_path / "out" / "stderr").glob("*.stderr"))
    assert len(logs) == 1 and "crashing on purpose" in logs[0].read_text()
    assert str(logs[0]) in str(caught.value)
    assert list((tmp_path / "out" / "chunks").glob("*.json")), "chunks finished before the crash are kept"


@pytest.mark.slow  # a fault run with processes: .ci/run runs it with the slow tests
def test_a_slow_program_is_fine_under_a_longer_time_limit():
    spec = bad_bot("slow", 3)
    config = runner.RunConfig((spec, "simple"), hands=4, seed=2)
    with pytest.raises(runner.RunError, match=r"no answer within 0\.5 s"):
        runner.run(config, workers=1, programs=ps.ProgramSettings(decision_timeout=0.5))
    result = runner.run(config, workers=1, programs=ps.ProgramSettings(decision_timeout=5))
    assert result.tallies[0]["hands"] == 4


def test_specs_are_checked_when_resolved():
    with pytest.raises(ValueError, match="program 'no-such-bot-here' not found on PATH"):
        resolve("exec:no-such-bot-here --fast")
    with pytest.raises(ValueError, match="gives no command"):
        resolve("exec:  ")
    with pytest.raises(ValueError, match="cannot split the command"):
        resolve("exec:python3 'unclosed")
    player = resolve(f"exec:{sys.executable} bot.py --depth=3 --mode=a:b")
    assert player.info.kind == "program" and player.spec.endswith("--mode=a:b") and player.given == {}
    with pytest.raises(ValueError, match="decision_timeout=0"):
        ps.ProgramSettings(decision_timeout=0)


def test_each_thread_has_its_own_programs_and_a_reused_thread_id_starts_afresh():
    """Programs are per thread (Dask runs chunks in threads); on Linux they die with their thread,
    and a later thread that gets the same id must not find the dead ones."""
    import threading

    seeds = hand_seeds(1, 4)
    rows = []
    for _ in range(3):
        thread = threading.Thread(
            target=lambda: rows.append(play_hand_rows((EXEC_SIMPLE, "simple"), Rules(), seeds, np.arange(4) % 2))
        )
        thread.start()
        thread.join()
    assert len(rows) == 3 and all((row == rows[0]).all() for row in rows)
    assert ps.close_programs() >= 1

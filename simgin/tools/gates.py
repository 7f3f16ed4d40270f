"""The strength gate of issue 24: is a changed bot stronger than the frozen one, preset by preset?

A change to a bot's policy is kept only when ``simgin compare NEW OLD --sprt elo0=0,elo1=10``
accepts H1 (NEW is at least 10 Elo stronger; docs/STATISTICS.md §6) under the standard,
oklahoma and straight presets at least. This script runs those tests through the library
(``simgin.compare``) and prints one line per preset: the decision, the games it took, the Elo
difference with its 95% interval, the log-likelihood ratio and its bounds, and the command
that reproduces it. With ``--record NAME`` the lines are appended to
``benchmarks/RESULTS.md``'s *SPRT gates* table.

A change that is aimed at some rules and touches others only a little (an exception that applies in hands
where gin decides, say) cannot show a 10 Elo gain under rules where it seldom changes a move.
``--non-regression PRESET`` runs the *non-regression* test there instead: ``--sprt elo0=-10,elo1=0``, which
accepts H1 when NEW is no weaker than OLD rather than 10 Elo weaker. Such a change is kept only when the gain
test accepts H1 under at least one preset and every other preset accepts H1 of the non-regression test (or is
``same play``); the table names the test of each row.

A preset where the two bots play every hand alike is reported as ``same play`` instead of
being tested (an SPRT of a bot against itself never accepts H1): ``--same-play PRESET``
names such a preset, and the script checks the claim on 200 hands (their rows must hash
the same) before it reports it.

``--frozen`` makes OLD the frozen copy of NEW's bot (``FROZEN_SPEC`` of ``strategies/opponent.py`` or
``strategies/heuristic.py``: the weights before they were learned).

Run from the repository root::

    python -m simgin.tools.gates opponent --frozen
    python -m simgin.tools.gates heuristic --frozen --seed 24 --record "heuristic: learned discard weights"
    python -m simgin.tools.gates NEW OLD --presets standard,oklahoma,straight --seed 12 --record "learned discard"
    python -m simgin.tools.gates NEW OLD --presets eaai,standard --non-regression standard --seed 41
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import os
import platform
from pathlib import Path

import numpy as np

import simgin
from simgin.game.rules import Rules
from simgin.running.engine import hand_seeds, play_hand_rows
from simgin.strategies import heuristic, opponent

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "RESULTS.md"
START, END = "<!-- gates:start -->", "<!-- gates:end -->"
SPECS_START, SPECS_END = "<!-- gate-specs:start -->", "<!-- gate-specs:end -->"
DEFAULT_PRESETS = ("standard", "oklahoma", "straight")
#: The bots with learned weights, by name: the module with each one's frozen spec and data file.
LEARNED_BOTS = {"opponent": opponent, "heuristic": heuristic}


def same_play(new: str, old: str, preset: str, hands: int = 200, seed: int = 7) -> bool:
    """Whether ``new`` and ``old`` play the same ``hands`` hands against ``simple`` identically (rows hash alike)."""
    digests = []
    seeds = hand_seeds(seed, hands)
    dealers = np.arange(hands, dtype=np.int64) % 2
    for spec in (new, old):
        rows = play_hand_rows((spec, "simple"), Rules.preset(preset), seeds, dealers)
        digests.append(hashlib.sha256(np.ascontiguousarray(rows).tobytes()).hexdigest())
    return digests[0] == digests[1]


#: The SPRT bounds of the two tests: a gain of 10 Elo, or no loss against a loss of 10 Elo.
GAIN, NON_REGRESSION = "elo0=0,elo1=10", "elo0=-10,elo1=0"


def gate(new: str, old: str, preset: str, seed: int, workers: int | None, sprt: str = GAIN) -> dict:
    """The SPRT (``sprt``: :data:`GAIN` or :data:`NON_REGRESSION`) of ``new`` against ``old`` under ``preset``:
    its summary as a dict."""
    result = simgin.compare(new, old, sprt=sprt, rules=preset, seed=seed, workers=workers)
    return result.to_json()["sprt"]


def line(label: str, preset: str, test: dict | None, new: str, old: str, seed: int, sprt: str = GAIN) -> str:
    """One Markdown row of the gates table."""
    date = datetime.date.today().isoformat()
    if test is None:
        return f"| {date} | {label} | {preset} | same play (200 hands hash alike) | | | | |"
    shown = f"{preset} (non-regression)" if sprt == NON_REGRESSION else preset
    command = f"`simgin compare NEW OLD --sprt {sprt} --rules {preset} --seed {seed}`"
    return (
        f"| {date} | {label} | {shown} | **{test['decision']}** ({test['accepted']}) | {test['games']:,} "
        f"| {test['elo']:+.1f} ({test['elo_low']:+.1f} to {test['elo_high']:+.1f}) "
        f"| {test['llr']:.2f} ({test['lower']:.2f}, {test['upper']:.2f}) | {command} |"
    )


def _append(text: str, start: str, end: str, lines: list[str]) -> str:
    if start not in text or end not in text:
        raise SystemExit(f"{RESULTS}: no {start} ... {end} section to append to")
    head, rest = text.split(start, 1)
    body, tail = rest.split(end, 1)
    return head + start + "\n" + "".join(f"{row}\n" for row in [*body.strip("\n").splitlines(), *lines]) + end + tail


def pinned(spec: str) -> str:
    """``spec`` with the shipped learned weights written out when it is a bare bot with learned weights
    (``opponent``, ``heuristic``: they change), as the bot plays them (its defaults: the data file's weights,
    or a gated value that replaced one of them)."""
    if spec not in LEARNED_BOTS:
        return spec
    module = LEARNED_BOTS[spec]
    defaults = {parameter.name: parameter.default for parameter in module.PARAMETERS}
    return module.spec_with({name: defaults[name] for name in module.LEARNED})


def frozen(new: str) -> str:
    """The frozen spec of the bot ``new`` names (a bot with learned weights; anything else is a SystemExit)."""
    bot = new.partition(":")[0]
    if bot not in LEARNED_BOTS:
        raise SystemExit(f"--frozen: {bot!r} has no frozen copy; choose from {', '.join(LEARNED_BOTS)}")
    return LEARNED_BOTS[bot].FROZEN_SPEC


def record(label: str, rows: list[str], new: str, old: str) -> None:
    """Append ``rows`` to the SPRT gates table of RESULTS.md, and the change's specs to the list below it."""
    new, old = pinned(new), pinned(old)
    text = RESULTS.read_text(encoding="utf-8")
    text = _append(text, START, END, rows)
    machine = f"{os.cpu_count()} cores, {platform.machine()}"
    text = _append(text, SPECS_START, SPECS_END, [f"- {label}: NEW = `{new}`, OLD = `{old}` ({machine})."])
    RESULTS.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("new", help="the changed bot's spec")
    parser.add_argument("old", nargs="?", help="the frozen bot's spec")
    parser.add_argument(
        "--frozen", action="store_true", help="OLD is NEW's bot frozen (strategies.opponent or strategies.heuristic)"
    )
    parser.add_argument("--presets", default=",".join(DEFAULT_PRESETS), help="comma-separated rules presets")
    parser.add_argument("--same-play", action="append", default=[], help="a preset where the two play alike")
    parser.add_argument(
        "--non-regression",
        action="append",
        default=[],
        help="comma-separated presets tested for no loss (elo0=-10,elo1=0) instead of a gain (repeatable)",
    )
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--record", metavar="LABEL", help="append the rows to RESULTS.md's SPRT gates table")
    args = parser.parse_args(argv)
    if args.frozen == (args.old is not None):
        parser.error("give OLD or --frozen, not both")
    if args.frozen:
        args.old = frozen(args.new)
    no_loss = {preset for given in args.non_regression for preset in given.split(",")}
    rows = []
    for preset in args.presets.split(","):
        if preset in args.same_play:
            if not same_play(args.new, args.old, preset):
                raise SystemExit(f"--same-play {preset}: the two bots play differently under {preset}")
            rows.append(line(args.record or "change", preset, None, args.new, args.old, args.seed))
        else:
            sprt = NON_REGRESSION if preset in no_loss else GAIN
            test = gate(args.new, args.old, preset, args.seed, args.workers, sprt)
            rows.append(line(args.record or "change", preset, test, args.new, args.old, args.seed, sprt))
        print(rows[-1], flush=True)
    if args.record:
        record(args.record, rows, args.new, args.old)


if __name__ == "__main__":
    main()

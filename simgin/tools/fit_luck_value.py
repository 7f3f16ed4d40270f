"""Fit the value function of the luck adjustment (``simgin/game/luck_value.json``, issue 35).

The luck adjustment (``simgin.kernels.luck``) needs a value function fixed before the hands it judges. This
fits one, once, on hands of its own seeds (never those of a run it will adjust):

1. Hands are played by the Python engine (``simgin.game.reference_engine``, the compiled bots through their
   adapters, so that every move is logged) for several pairs of bots under several presets.
2. Each hand gives rows: at the deal, one per player (the classes of its dealt deadwood and the other's, R6,
   ``kernels.luck.bucket``); at each stock draw, one for the drawer (the class of the deadwood its 11 cards leave
   after the best discard, and of the other's 10 cards) with the stage of the stock. Each row's targets are the
   holder's net points of the hand before the V9 multiplier, whether it won, whether the other won.
3. Each cell of the table (stage, target, my class, the other's class) is the mean of its rows, shrunk towards
   the mean over the other's classes by :data:`PRIOR_ROWS` rows' weight (few rows, little trust).

Run from the repository root::

    python -m simgin.tools.fit_luck_value            # fit and print the figures
    python -m simgin.tools.fit_luck_value --write    # ... and write simgin/game/luck_value.json
    python -m simgin.tools.fit_luck_value --hands 50 # a smoke test
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from simgin.game.luck import VALUE_FILE
from simgin.game.melds import best_discard, deadwood
from simgin.game.moves import STOCK, Deal, Discard, Draw
from simgin.game.reference_engine import play_hand
from simgin.game.rng import derive
from simgin.game.rules import Rules
from simgin.kernels import luck as _k
from simgin.players.registry import resolve

SEED = 35_000
#: How many rows' weight a cell's prior (its mean over the other's classes) has.
PRIOR_ROWS = 50
PAIRS = (("simple", "simple"), ("heuristic", "simple"), ("opponent", "heuristic"), ("greedy", "opponent"))
PRESETS = ("standard", "oklahoma", "straight", "eaai")


def hand_rows(record, rules: Rules) -> list[tuple[int, int, int, float, float, float]]:
    """(stage, my class, the other's class, net points before the multiplier, won, lost) rows of one hand."""
    moves = record.moves
    deal = moves[0]
    assert isinstance(deal, Deal)
    net = [0.0, 0.0]
    won = [0.0, 0.0]
    if record.winner >= 0:
        net[record.winner] = record.points / record.multiplier
        net[1 - record.winner] = -record.points / record.multiplier
        won[record.winner] = 1.0
    limit = record.knock_limit

    def bucket(e: int) -> int:
        return int(_k.bucket(e, limit))

    rows = []
    hands = [set(deal.hands[0]), set(deal.hands[1])]
    if len(hands[0]) == len(hands[1]) == 10:
        dealt = [bucket(deadwood(sorted(hands[seat]))) for seat in (0, 1)]
        for seat in (0, 1):
            rows.append((_k.STAGE_DEAL, dealt[seat], dealt[1 - seat], net[seat], won[seat], won[1 - seat]))
    stock_left = len(deal.stock)
    for move in moves[1:]:
        if isinstance(move, Draw):
            if move.source == STOCK:
                stock_left -= 1
                mine = bucket(best_discard(sorted(hands[move.seat] | {move.card}))[1])
                theirs = bucket(deadwood(sorted(hands[1 - move.seat])))
                stage = int(_k.draw_stage(stock_left))
                rows.append((stage, mine, theirs, net[move.seat], won[move.seat], won[1 - move.seat]))
            hands[move.seat].add(move.card)
        elif isinstance(move, Discard):
            hands[move.seat].discard(move.card)
    return rows


def collect(hands: int, seed: int) -> np.ndarray:
    """Rows of ``hands`` hands per pair of bots and preset."""
    rows = []
    for p, pair in enumerate(PAIRS):
        seats = [resolve(spec) for spec in pair]
        for r, preset in enumerate(PRESETS):
            rules = Rules.preset(preset).effective("pairs", games=False)
            for i in range(hands):
                hand_seed = derive(seed, (p * len(PRESETS) + r) * 1_000_000 + i)
                record = play_hand((seats[0].make(), seats[1].make()), rules, int(hand_seed), i % 2)
                rows += hand_rows(record, rules)
    return np.array(rows, dtype=np.float64)


def fit(rows: np.ndarray) -> tuple[np.ndarray, dict]:
    """The table (``STAGES x TARGETS x BUCKETS x BUCKETS``) and, per stage, the rows and the share of each target's
    variance the table explains (R^2, on the rows it was fitted on)."""
    table = np.zeros((_k.STAGES, _k.TARGETS, _k.BUCKETS, _k.BUCKETS))
    figures = {}
    for stage in range(_k.STAGES):
        chosen = rows[rows[:, 0] == stage]
        mine, theirs = chosen[:, 1].astype(int), chosen[:, 2].astype(int)
        r2 = []
        for target in range(_k.TARGETS):
            y = chosen[:, 3 + target]
            overall = y.mean()
            counts = np.zeros((_k.BUCKETS, _k.BUCKETS))
            sums = np.zeros((_k.BUCKETS, _k.BUCKETS))
            np.add.at(counts, (mine, theirs), 1)
            np.add.at(sums, (mine, theirs), y)
            row_counts, row_sums = counts.sum(axis=1), sums.sum(axis=1)
            row_prior = (row_sums + PRIOR_ROWS * overall) / (row_counts + PRIOR_ROWS)
            table[stage, target] = (sums + PRIOR_ROWS * row_prior[:, None]) / (counts + PRIOR_ROWS)
            fitted = table[stage, target][mine, theirs]
            r2.append(round(float(1 - np.var(y - fitted) / np.var(y)), 4))
        figures[str(stage)] = {"rows": len(chosen), "r2_points_win_loss": r2}
    return table, figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1500, help="hands per pair of bots and preset")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--write", action="store_true", help=f"write {VALUE_FILE.name}")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    rows = collect(args.hands, args.seed)
    table, figures = fit(rows)
    training = {
        "command": f"python -m simgin.tools.fit_luck_value --hands {args.hands} --seed {args.seed} --write",
        "seed": args.seed,
        "hands": args.hands * len(PAIRS) * len(PRESETS),
        "pairs": [" vs ".join(pair) for pair in PAIRS],
        "presets": list(PRESETS),
        "stages": figures,
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
    }
    print(json.dumps(training, indent=1))
    print(f"{len(rows):,} rows in {time.perf_counter() - start:.0f} s")
    if args.write:
        data = {"table": np.round(table, 6).tolist(), "training": training}
        VALUE_FILE.write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {VALUE_FILE}")


if __name__ == "__main__":
    main()

"""What limits the luck adjustment's variance ratio (issue 35): the value function, or the decisions that differ?

The shipped value function (``simgin/game/luck_value.json``) is a table of deadwood classes. This measurement
replaces it, on the same hands, by an *oracle*: the value of a state after a stock draw is the mean result of
``K`` playouts of the rest of the hand by the two bots themselves (compiled, in ``simgin.kernels.env``), with the
rest of the stock shuffled anew for each playout (the same shuffles for every card the stock could have given:
common random numbers). Each correction is that value for the card drawn minus its mean over every card the stock
held, as in docs/STATISTICS.md §13, so it still averages to zero; the oracle knows the players' policies and both
hands, which no cheap value function can, and costs thousands of playouts a hand: an upper bound of what a value
function could give, not a method to ship.

Printed per pairing, on duplicate pairs of hands (standard rules): the plain variance per pair of A's net points,
and the variance ratio with the table's corrections, with the oracle's, and the correlation of each with the
result. The deal is not corrected by the oracle (its corrections of a duplicate pair nearly cancel).

    python -m benchmarks.luck_oracle --write
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from benchmarks import harness
from simgin.kernels import env as _env
from simgin.kernels.env import DRAW_STOCK, F_DECK, F_PHASE, F_STOCK_NEXT, PHASE_OVER


@njit(cache=True)
def _oracle_hand(table, fields, rules, suit_deadwood, suit_value, policies, playouts, seed):
    """Play the dealt hand in ``table``/``fields`` by its bots; return (seat 0's points, seat 0's oracle luck)."""
    np.random.seed(seed)
    luck = 0.0
    while fields[F_PHASE] != PHASE_OVER:
        before_table = table.copy()
        before_fields = fields.copy()
        action = _env._bot_action(table, fields, rules, suit_deadwood, policies)
        if not _env.is_legal(fields, table, rules, suit_deadwood, action):
            return np.nan, np.nan
        if action == DRAW_STOCK:
            first = fields[F_STOCK_NEXT]
            count = 52 - first
            stock = before_fields[F_DECK + first : F_DECK + 52].copy()
            orders = np.empty((playouts, count - 1), np.int64)
            for k in range(playouts):
                orders[k] = np.random.permutation(count - 1)
            values = np.zeros(count)
            rest = np.empty(count - 1, np.int64)
            for j in range(count):
                r = 0
                for i in range(count):
                    if i != j:
                        rest[r] = stock[i]
                        r += 1
                total = 0.0
                for k in range(playouts):
                    t = before_table.copy()
                    f = before_fields.copy()
                    f[F_DECK + first] = stock[j]
                    for i in range(count - 1):
                        f[F_DECK + first + 1 + i] = rest[orders[k, i]]
                    _env.play_bots(t, f, rules, suit_deadwood, suit_value, policies)
                    total += _env.hand_reward(f, 0)
                values[j] = total / playouts
            luck += values[0] - values.mean()  # stock[0] is the card drawn
        _env.apply(table, fields, action, rules, suit_deadwood, suit_value)
    return float(_env.hand_reward(fields, 0)), luck


def measure(a: str, b: str, pairs: int, playouts: int, seed: int = 3) -> dict[str, float]:
    """The plain variance per duplicate pair and the ratios with the table's and the oracle's corrections."""
    from simgin import Rules
    from simgin.env.table import Table
    from simgin.game import play
    from simgin.kernels import luck as kernel
    from simgin.kernels.melds import SUIT_DEADWOOD
    from simgin.kernels.showdown import SUIT_VALUE
    from simgin.players.registry import resolve
    from simgin.running.tally import net_points

    rules = Rules()
    seeds = play.hand_seeds(seed, pairs)
    dealers = np.arange(pairs, dtype=np.int64) % 2
    x = np.zeros(pairs)
    table_luck = np.zeros(pairs)
    oracle_luck = np.zeros(pairs)
    for leg, seats in enumerate(((a, b), (b, a))):
        sign = 1.0 if leg == 0 else -1.0  # A's points are seat 0's in the first leg, seat 1's in the second
        luck = np.zeros((pairs, kernel.LUCK_FIELDS))
        rows = play.play_hand_rows([resolve(spec) for spec in seats], rules, seeds, dealers, luck=luck)
        x += net_points(rows, np.full(pairs, leg))
        table_luck += sign * luck[:, kernel.LUCK_POINTS]
        seated = Table(rules, seats)
        shared = (seated._rules_array, SUIT_DEADWOOD, SUIT_VALUE, seated.policies)
        for i in range(pairs):
            _env.deal(
                seated.table, seated.fields, seeds[i], int(dealers[i]), 0, 0, seated._rules_array,
                seated.bot_ids, seated.bot_params, SUIT_DEADWOOD, SUIT_VALUE, seated.policies,
            )  # fmt: skip
            points, oracle = _oracle_hand(seated.table, seated.fields, *shared, playouts, 1000 * i + leg)
            assert sign * points == net_points(rows[i : i + 1], np.array([leg]))[0], (i, leg)
            oracle_luck[i] += sign * oracle
    plain = float(x.var())
    return {
        "pairs": pairs,
        "plain_variance": plain,
        "ratio_table": plain / float((x - table_luck).var()),
        "ratio_oracle": plain / float((x - oracle_luck).var()),
        "corr_table": float(np.corrcoef(x, table_luck)[0, 1]),
        "corr_oracle": float(np.corrcoef(x, oracle_luck)[0, 1]),
        "mean_oracle_luck": float(oracle_luck.mean()),
        "se_oracle_luck": float(oracle_luck.std(ddof=1) / np.sqrt(pairs)),
    }


#: (A, B, duplicate pairs, playouts per card) of a full run; opponent's playouts cost about 30 times simple's.
RUNS = (("simple", "greedy", 400, 64), ("opponent", "simple", 150, 32), ("opponent", "heuristic", 150, 32))


def main(argv: list[str] | None = None) -> None:
    parser = harness.parser(__doc__, quick="40 pairs of simple vs greedy, 8 playouts (a smoke test)")
    args = parser.parse_args(argv)
    runs = (("simple", "greedy", 40, 8),) if args.quick else RUNS
    lines = [
        f"Measured {harness.machine()}; numba cache warm.",
        "",
        f"Reproduce: `{harness.command('luck_oracle', ['--write'])}`",
        "",
        "**What limits the variance ratio** (standard rules, duplicate pairs of hands, seed 3): the shipped table "
        "of deadwood classes against an *oracle* value function, the mean of K playouts of the rest of the hand by "
        "the two bots themselves for every card the stock could have given (each correction still averages to "
        "zero; the oracle knows both hands and both policies, and costs thousands of playouts a hand: an upper "
        "bound, not a method to ship):",
        "",
        "| pairing | pairs | K | plain variance per pair | ratio, table | ratio, oracle | corr(result, table luck) "
        "| corr(result, oracle luck) | oracle luck per pair (mean, s.e.) | seconds |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for a, b, pairs, playouts in runs:
        start = time.perf_counter()
        found = measure(a, b, pairs, playouts)
        lines.append(
            f"| `{a}` vs `{b}` | {pairs:,} | {playouts} | {found['plain_variance']:.0f} | {found['ratio_table']:.2f} | "
            f"**{found['ratio_oracle']:.2f}** | {found['corr_table']:.2f} | {found['corr_oracle']:.2f} | "
            f"{found['mean_oracle_luck']:+.2f} ({found['se_oracle_luck']:.2f}) | {time.perf_counter() - start:.0f} |"
        )
        print(lines[-1], flush=True)
    harness.publish(args, "luck_oracle", "What limits the luck adjustment (issue 35)", lines)


if __name__ == "__main__":
    main()

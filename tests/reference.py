"""Plain-Python brute-force references for melds, deadwood and the showdown (RULES.md R3-R6, R13-R19, V13).

Slow and obvious on purpose: every meld is listed, every arrangement of disjoint melds is
enumerated, every subset of defender cards is tried as a lay-off. Nothing here imports the
numba kernels or ``simgin.game.melds``; only the card encoding comes from ``simgin.game.cards``
(``card = suit * 13 + rank``, rank 0 = ace). The tests compare the kernels against these.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations, product

from simgin.game.cards import RANK_COUNT, SUIT_COUNT, card_rank, card_suit, make_card

Meld = frozenset[int]
Arrangement = tuple[Meld, ...]

_CACHE_SIZE = 1 << 17


def value(card: int) -> int:
    """R2: ace 1, 2-9 face value, ten and court cards 10."""
    return min(card_rank(card) + 1, 10)


def total_value(cards: Iterable[int]) -> int:
    return sum(value(card) for card in cards)


def _hand(cards: Iterable[int]) -> frozenset[int]:
    hand = [int(card) for card in cards]
    if len(set(hand)) != len(hand) or not all(0 <= card < 52 for card in hand):
        raise ValueError(f"not a hand of distinct cards 0-51: {hand}")
    return frozenset(hand)


# --- melds (R3, R4) -------------------------------------------------------------------------


def all_melds(cards: Iterable[int]) -> list[Meld]:
    """Every set (3 or 4 cards of one rank, R3) and every run (3+ consecutive ranks of one suit,
    ace low, no wrap, R4) contained in the hand; runs of every length and sets of both sizes."""
    return list(_all_melds(_hand(cards)))


@lru_cache(maxsize=_CACHE_SIZE)
def _all_melds(hand: frozenset[int]) -> tuple[Meld, ...]:
    melds: list[Meld] = []
    for rank in range(RANK_COUNT):
        same_rank = sorted(card for card in hand if card_rank(card) == rank)
        for size in (3, 4):
            melds.extend(frozenset(combo) for combo in combinations(same_rank, size))
    for suit in range(SUIT_COUNT):
        # A run is ranks low..high (high - low >= 2) all held; rank 12 (king) is never followed by the ace.
        for low in range(RANK_COUNT):
            for high in range(low + 2, RANK_COUNT):
                run = [make_card(rank, suit) for rank in range(low, high + 1)]
                if not all(card in hand for card in run):
                    break  # a longer run from the same low card needs this one too
                melds.append(frozenset(run))
    return tuple(melds)


def is_set(meld: Iterable[int]) -> bool:
    cards = list(meld)
    return len(cards) in (3, 4) and len({card_rank(card) for card in cards}) == 1


def is_run(meld: Iterable[int]) -> bool:
    cards = sorted(meld)
    if len(cards) < 3 or len({card_suit(card) for card in cards}) != 1:
        return False
    ranks = [card_rank(card) for card in cards]
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def is_meld(meld: Iterable[int]) -> bool:
    return is_set(meld) or is_run(meld)


# --- arrangements and deadwood (R5, R6) -----------------------------------------------------


def all_arrangements(cards: Iterable[int]) -> list[Arrangement]:
    """Every collection of pairwise-disjoint melds of the hand (R5), the empty one included."""
    return list(_all_arrangements(_hand(cards)))


@lru_cache(maxsize=_CACHE_SIZE)
def _all_arrangements(hand: frozenset[int]) -> tuple[Arrangement, ...]:
    melds = _all_melds(hand)
    found: list[Arrangement] = []

    def extend(start: int, used: frozenset[int], chosen: tuple[Meld, ...]) -> None:
        found.append(chosen)
        for index in range(start, len(melds)):
            if not melds[index] & used:
                extend(index + 1, used | melds[index], (*chosen, melds[index]))

    extend(0, frozenset(), ())
    return tuple(found)


def arrangement_deadwood(cards: Iterable[int], arrangement: Arrangement) -> int:
    """Value of the cards of the hand that are in none of the arrangement's melds."""
    melded = frozenset().union(*arrangement)
    return total_value(card for card in cards if card not in melded)


def deadwood(cards: Iterable[int]) -> int:
    """R6: the minimum, over all arrangements, of the value of the unmelded cards."""
    return _deadwood(_hand(cards))


@lru_cache(maxsize=_CACHE_SIZE)
def _deadwood(hand: frozenset[int]) -> int:
    return min(arrangement_deadwood(hand, arrangement) for arrangement in _all_arrangements(hand))


def best_discard_deadwoods(cards: Iterable[int]) -> dict[int, int]:
    """For each card, the deadwood of the hand without it."""
    hand = _hand(cards)
    return {card: _deadwood(hand - {card}) for card in sorted(hand)}


def min_arrangements(cards: Iterable[int]) -> list[Arrangement]:
    """Every arrangement achieving the minimum deadwood (what a knocker may show)."""
    hand = _hand(cards)
    best = _deadwood(hand)
    return [arr for arr in _all_arrangements(hand) if arrangement_deadwood(hand, arr) == best]


# --- lay-offs (R14) -------------------------------------------------------------------------


def _can_attach(card: int, meld: Meld) -> bool:
    """Could ``card`` go onto ``meld`` at all (ignoring the chain condition)?"""
    if is_set(meld):
        return len(meld) == 3 and card_rank(card) == card_rank(next(iter(meld)))
    return card_suit(card) == card_suit(next(iter(meld))) and card not in meld


def _run_extension_ok(run: Meld, attached: list[int]) -> bool:
    """The cards attached to a run must extend it contiguously at either end (chains allowed)."""
    ranks = sorted(card_rank(card) for card in run)
    low, high = ranks[0], ranks[-1]
    below = sorted(card_rank(card) for card in attached if card_rank(card) < low)
    above = sorted(card_rank(card) for card in attached if card_rank(card) > high)
    return below == list(range(low - len(below), low)) and above == list(range(high + 1, high + 1 + len(above)))


def is_valid_layoff(cards: Iterable[int], shown: Arrangement) -> bool:
    """Can all of ``cards`` be laid off together on the knocker's shown melds?

    Tries every assignment of each card to a meld it could go on: a set takes only its
    missing 4th card; a run takes cards of its suit that, together with the other cards
    assigned to it, extend it without a gap at either end.
    """
    cards = list(cards)
    targets = [[index for index, meld in enumerate(shown) if _can_attach(card, meld)] for card in cards]
    for assignment in product(*targets):
        attached: dict[int, list[int]] = {index: [] for index in range(len(shown))}
        for card, index in zip(cards, assignment, strict=True):
            attached[index].append(card)
        ok = True
        for index, meld in enumerate(shown):
            if not attached[index]:
                continue
            ok = len(meld) + len(attached[index]) <= 4 if is_set(meld) else _run_extension_ok(meld, attached[index])
            if not ok:
                break
        if ok:
            return True
    return False


def defender_deadwood_after_layoffs(defender: Iterable[int], shown: Arrangement) -> tuple[int, frozenset[int]]:
    """The defender's least deadwood when it picks its melds and lay-offs together, and one best lay-off."""
    hand = _hand(defender)
    candidates = sorted(card for card in hand if any(_can_attach(card, meld) for meld in shown))
    best, best_layoff = _deadwood(hand), frozenset()
    for size in range(1, len(candidates) + 1):
        for layoff in combinations(candidates, size):
            if not is_valid_layoff(layoff, shown):
                continue
            left = _deadwood(hand - frozenset(layoff))
            if left < best:
                best, best_layoff = left, frozenset(layoff)
    return best, best_layoff


# --- the showdown (R13-R19, V2, V3, V9, V13) -----------------------------------------------


def showdown(
    knocker: Iterable[int],
    defender: Iterable[int],
    gin_bonus: int = 20,
    undercut_bonus: int = 10,
    undercut_on_tie: bool = True,
    big_gin: bool = False,
    big_gin_bonus: int = 31,
    multiplier: int = 1,
) -> dict[str, object]:
    """Score a knock by brute force (no knock-limit check: the caller decides who may knock)."""
    knocker_hand, defender_hand = _hand(knocker), _hand(defender)
    if knocker_hand & defender_hand:
        raise ValueError("overlapping hands")
    if len(defender_hand) != 10 or len(knocker_hand) not in (10, 11):
        raise ValueError("need 10 defender cards and 10 (or 11 for big gin) knocker cards")
    kd = _deadwood(knocker_hand)
    if len(knocker_hand) == 11 and not (big_gin and kd == 0):
        raise ValueError("an 11-card knock must be big gin")
    if kd == 0:
        # R19 / V13: gin or big gin; the defender may not lay off.
        dd = _deadwood(defender_hand)
        if len(knocker_hand) == 11:
            kind, points = "big_gin", big_gin_bonus + dd
        else:
            kind, points = "gin", gin_bonus + dd
        winner = "knocker"
        shown = min_arrangements(knocker_hand)[0]
        layoff: frozenset[int] = frozenset()
    else:
        # R14: the knocker shows the minimum-deadwood arrangement that saves the defender least.
        dd, shown, layoff = -1, (), frozenset()
        for arrangement in min_arrangements(knocker_hand):
            left, laid = defender_deadwood_after_layoffs(defender_hand, arrangement)
            if left > dd:
                dd, shown, layoff = left, arrangement, laid
        if kd < dd:  # R17
            winner, kind, points = "knocker", "knock", dd - kd
        elif kd > dd or undercut_on_tie:  # R18
            winner, kind, points = "defender", "undercut", kd - dd + undercut_bonus
        else:
            winner, kind, points = "knocker", "knock", 0
    return {
        "winner": winner,
        "kind": kind,
        "points": points * multiplier,
        "knocker_deadwood": kd,
        "defender_deadwood": dd,
        "shown": shown,
        "layoff": layoff,
    }


# -- the analysis evaluator's playouts (simgin/kernels/analysis.py, issue 34) --------------------------------------


def fits_meld(hand: Iterable[int], card: int) -> bool:
    """Whether ``card`` joins a meld of ``hand``: two more of its rank (R3), or a run of three or more in its
    suit through it (R4, aces low)."""
    held = set(hand)
    rank, suit = card % 13, card // 13
    if sum(1 for c in held if c % 13 == rank and c != card) >= 2:
        return True
    low = high = rank
    while low > 0 and suit * 13 + low - 1 in held:
        low -= 1
    while high < 12 and suit * 13 + high + 1 in held:
        high += 1
    return high - low + 1 >= 3


def _least_deadwood_discard(hand: set[int], banned: int) -> tuple[int, int]:
    """(card, deadwood left): the least deadwood, ties to the higher rank, then the higher card."""
    best, best_left = -1, 0
    for card in sorted(hand):
        if card == banned:
            continue
        left = deadwood(hand - {card})
        if best < 0 or left < best_left or (left == best_left and card % 13 >= best % 13):
            best, best_left = card, left
    return best, best_left


def _showdown_points(me: int, knocker: int, hands: dict[int, set[int]], big: bool, rules) -> int:
    scored = showdown(
        hands[knocker], hands[1 - knocker], rules.gin_bonus, rules.undercut_bonus, rules.undercut_on_tie,
        big, rules.big_gin_bonus,
    )  # fmt: skip
    winner = knocker if scored["winner"] == "knocker" else 1 - knocker
    return int(scored["points"]) if winner == me else -int(scored["points"])


def playout(me, player, phase, hands, top, drawn, from_pile, stock, taken, limit, rules) -> int:
    """Finish a hand as the evaluator's fast playouts do: take the pile card when it fits a meld, discard to
    the least deadwood, knock at deadwood at most ``limit`` (one level for both seats, or a level by seat);
    dead with two stock cards left (R15) or after 80 discards. ``me``'s points of the hand (before any V9
    doubling)."""
    levels = limit if isinstance(limit, dict) else {0: limit, 1: limit}
    turns = 0
    while True:
        if phase == "draw":
            if top >= 0 and fits_meld(hands[player], top):
                drawn, from_pile = top, True
            else:
                drawn, from_pile = stock[taken], False
                taken += 1
            hands[player].add(drawn)
            phase = "discard"
        if phase == "discard":
            if rules.big_gin and deadwood(hands[player]) == 0:
                return _showdown_points(me, player, hands, True, rules)
            banned = drawn if from_pile and not rules.rediscard_taken_card else -1
            card, left = _least_deadwood_discard(hands[player], banned)
            hands[player].discard(card)
            top = card
            turns += 1
        else:
            left = deadwood(hands[player])
        if left <= levels[player]:
            return _showdown_points(me, player, hands, False, rules)
        if len(stock) - taken <= 2 or turns >= 80:
            return 0
        player = 1 - player
        phase = "draw"


def analysis_values(
    kind: str, view, opponent_hand: Iterable[int], stock: list[int], held: dict[int, int] | None = None
) -> dict[int, int]:
    """Each legal action's value in hand points for the deciding player (V9 doubling included) in the world of
    ``opponent_hand`` and ``stock``, by brute force: the reference of ``kernels.analysis.values_in_world``.

    A discard that leaves a hand that may knock (R12; not after a 50th-card take, V7, where the knock is forced)
    is valued as a knock; the value of playing on instead goes into ``held`` (when given) under the card."""
    rules = view.rules
    seat, other = view.seat, 1 - view.seat
    top = view.pile[-1] if view.pile else -1
    limit = {seat: view.knock_limit, other: view.knock_limit}
    held_out = deadwood(set(opponent_hand))
    if view.opponent_discards and held_out <= view.knock_limit:  # it declined to knock with this hand (R12)
        limit[other] = max(held_out - 1, 0)
    multiplier = rules.hand_multiplier(view.up_card if view.up_card >= 0 else None)
    fiftieth = view.fiftieth_card
    banned = view.drawn_card if view.drawn_from_pile and not rules.rediscard_taken_card and not fiftieth else -1
    if kind == "discard":
        actions = [card for card in sorted(view.hand) if card != banned]
        if fiftieth:  # V7: after taking the 50th card only a discard that may knock
            actions = [card for card in actions if deadwood(set(view.hand) - {card}) <= view.knock_limit]
    else:
        actions = [0, 1]
    values = {}
    for action in actions:
        hands = {seat: set(view.hand), other: set(opponent_hand)}
        if kind in ("up_card", "draw"):
            if action == 1:
                player, drawn, from_pile = seat, top, True
            elif kind == "draw":
                player, drawn, from_pile = seat, stock[0], False
            elif seat != view.dealer and fits_meld(opponent_hand, top):
                player, drawn, from_pile = other, top, True
            else:
                player, drawn, from_pile = (seat if seat != view.dealer else other), stock[0], False
            hands[player].add(drawn)
            points = playout(
                seat, player, "discard", hands, -1 if from_pile else top, drawn, from_pile, stock,
                0 if from_pile else 1, limit, rules,
            )  # fmt: skip
        elif kind == "discard":
            hands[seat].discard(action)
            if held is not None and not fiftieth and deadwood(hands[seat]) <= view.knock_limit:
                playing_on = {seat: set(hands[seat]), other: set(hands[other])}
                held[action] = multiplier * (
                    playout(seat, other, "draw", playing_on, action, -1, False, stock, 0, limit, rules)
                    if len(stock) > 2
                    else 0
                )
            points = playout(seat, seat, "after_discard", hands, action, -1, False, stock, 0, limit, rules)
        elif kind == "big_gin":  # V13: go big gin, or discard to the least deadwood and play on
            if action == 1:
                points = _showdown_points(seat, seat, hands, True, rules)
            else:
                card, _ = _least_deadwood_discard(hands[seat], banned)
                hands[seat].discard(card)
                if fiftieth:
                    points = _showdown_points(seat, seat, hands, False, rules)
                else:
                    points = playout(seat, seat, "after_discard", hands, card, -1, False, stock, 0, limit, rules)
        elif kind == "fiftieth":  # V7: take the 50th card and knock, or let the hand die
            points = 0
            if action == 1:
                hands[seat].add(top)
                if rules.big_gin and deadwood(hands[seat]) == 0:
                    points = _showdown_points(seat, seat, hands, True, rules)
                else:
                    card, _ = _least_deadwood_discard(hands[seat], -1)
                    hands[seat].discard(card)
                    points = _showdown_points(seat, seat, hands, False, rules)
        elif action == 1:
            points = _showdown_points(seat, seat, hands, False, rules)
        elif len(stock) > 2:
            points = playout(seat, other, "draw", hands, top, -1, False, stock, 0, limit, rules)
        else:
            points = 0
        values[action] = multiplier * points
    return values


# -- the luck adjustment's corrections (simgin/kernels/luck.py, issue 35) --------------------------------------------


def luck_bucket(e: int, knock_limit: int) -> int:
    """``kernels.luck.bucket`` written out: gin (R13); three classes that may knock (R12) by how far below the
    limit; ten over it, by how far over."""
    if e == 0:
        return 0
    if e <= knock_limit:
        below = knock_limit - e
        return 1 if below <= 1 else 2 if below <= 4 else 3
    over = e - knock_limit
    ends = [2, 4, 6, 9, 12, 16, 20, 25, 32]
    return 4 + next((i for i, end in enumerate(ends) if over <= end), len(ends))


def luck_corrections(moves, knock_limit: int, multiplier: int, table) -> list[float]:
    """A hand's corrections (seat 0's net points, seat 0's and seat 1's hands won) by brute force from its move
    log: at the deal V(mine, theirs) - V(theirs, mine); at each stock draw, the drawer's V(deadwood after the best
    discard of hand + card, the other's deadwood) minus its mean over the stock's cards (each equally likely)."""
    deal = moves[0]
    hands = [set(deal.hands[0]), set(deal.hands[1])]
    stock = list(deal.stock)
    luck = [0.0, 0.0, 0.0]
    if len(hands[0]) == 10 and len(hands[1]) == 10:
        b0, b1 = luck_bucket(deadwood(hands[0]), knock_limit), luck_bucket(deadwood(hands[1]), knock_limit)
        luck[0] += multiplier * (table[0][0][b0][b1] - table[0][0][b1][b0])
        luck[1] += table[0][1][b0][b1] - table[0][1][b1][b0]
        luck[2] += table[0][1][b1][b0] - table[0][1][b0][b1]
    for move in moves[1:]:
        kind = type(move).__name__
        if kind == "Draw" and move.source == "stock":
            seat, card = move.seat, move.card
            left = len(stock) - 1
            stage = 1 if left >= 26 else 2 + min((25 - left) // 5, 4)
            theirs = luck_bucket(deadwood(hands[1 - seat]), knock_limit)
            after = {c: min(deadwood((hands[seat] | {c}) - {x}) for x in hands[seat] | {c}) for c in stock}
            values = {
                c: [table[stage][t][luck_bucket(e, knock_limit)][theirs] for t in range(3)] for c, e in after.items()
            }
            gain = [values[card][t] - sum(v[t] for v in values.values()) / len(stock) for t in range(3)]
            luck[0] += multiplier * gain[0] * (1 if seat == 0 else -1)
            luck[1 + seat] += gain[1]
            luck[2 - seat] += gain[2]
            stock.pop(0)
            hands[seat].add(card)
        elif kind == "Draw":
            hands[move.seat].add(move.card)
        elif kind == "Discard":
            hands[move.seat].discard(move.card)
    return luck

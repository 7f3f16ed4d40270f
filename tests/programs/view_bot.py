"""A test program for simgin's line protocol: it rebuilds the whole PlayerView from the lines it reads.

Usage: view_bot.py LOG [script]. For every question it appends to LOG one JSON line with the
view it rebuilt (the fields of simgin.game.strategy.PlayerView) and its answer; at each ``end`` one
line with the showdown it was told. It plays a random legal game, drawing from the seat's
generator, so that hands go everywhere (pile takes, passes, knocks, the 50th card, big gin).
With ``script`` it plays for scripted decks instead: it takes the up card when it melds, always
draws from the stock, discards to the least deadwood (the highest card among ties), never
knocks, and goes big gin and takes the 50th card when asked.
"""

from __future__ import annotations

import json
import os
import sys

from simgin.strategies.simple import in_some_meld

from simgin.game.melds import deadwood, discard_deadwoods
from simgin.game.rng import SplitMix64


def main() -> None:
    log = open(sys.argv[1], "a", encoding="utf-8")  # noqa: SIM115
    scripted = sys.argv[2:] == ["script"]
    table: dict = {}
    rules: dict = {}
    ending: dict = {}
    rng = SplitMix64(0)
    for line in sys.stdin:
        words = line.split()
        kind = words[0]
        if kind == "simgin":
            print("simgin 1 view-bot", flush=True)
        elif kind == "quit":
            break
        elif kind == "rules":
            rules = {}
            for item in words[1:]:
                key, value = item.split("=")
                rules[key] = value == "true" if value in ("true", "false") else int(value) if value.isdigit() else value
        elif kind == "hand":
            seat, dealer, seed, limit, up, stock, score0, score1 = (int(word) for word in words[1:9])
            rng = SplitMix64(seed)
            table = {
                "seat": seat,
                "dealer": dealer,
                "hand": sorted(int(word) for word in words[9:]),
                "pile": [up] if up >= 0 else [],
                "stock_count": stock,
                "knock_limit": limit,
                "up_card": up,
                "opponent_took": [],
                "opponent_passed": [],
                "opponent_discards": [],
                "scores": [score0, score1],
            }
            ending = {"melds": [], "layoffs": [], "shown": {}}
        elif kind == "pass":
            if int(words[1]) != table["seat"]:
                table["opponent_passed"].append(int(words[2]))
        elif kind in ("draw", "take"):
            seat, card = int(words[1]), int(words[2])
            if kind == "draw":
                table["stock_count"] -= 1
            else:
                assert table["pile"].pop() == card, "took a card that is not the pile's top"
                if seat != table["seat"]:
                    table["opponent_took"].append(card)
            if seat == table["seat"]:
                table["hand"] = sorted([*table["hand"], card])
        elif kind == "discard":
            seat, card = int(words[1]), int(words[2])
            table["pile"].append(card)
            if seat == table["seat"]:
                table["hand"].remove(card)
            else:
                table["opponent_discards"].append(card)
        elif kind == "melds":
            melds = [[int(card) for card in meld.split(",")] for meld in words[3:]]
            ending["melds"].append({"seat": int(words[1]), "deadwood": int(words[2]), "melds": melds})
        elif kind == "layoff":
            ending["layoffs"].append([int(words[2]), [int(card) for card in words[3].split(",")]])
        elif kind == "shown":
            ending["shown"][words[1]] = [int(card) for card in words[2:]]
        elif kind == "end":
            ending.update(kind=words[1], winner=int(words[2]), points=int(words[3]), pid=os.getpid())
            log.write(json.dumps({"end": dict(ending, seat=table["seat"])}) + "\n")
            log.flush()
        elif kind == "ask":
            decision = words[1]
            turn, drawn, from_pile, fiftieth = (int(word) for word in words[2:6])
            view = dict(table, rules=rules, drawn_card=drawn, drawn_from_pile=bool(from_pile))
            view.update(turn=turn, fiftieth_card=bool(fiftieth))
            answer = scripted_answer(decision, view) if scripted else decide(decision, view, rng)
            log.write(json.dumps({"decision": decision, "view": view, "answer": answer, "pid": os.getpid()}) + "\n")
            log.flush()
            print(answer, flush=True)
        else:
            raise SystemExit(f"unknown line {line!r}")


def decide(decision: str, view: dict, rng: SplitMix64) -> str:
    """A random legal answer."""
    if decision == "discard":
        hand = view["hand"]
        if view["fiftieth_card"]:
            left = discard_deadwoods(hand)
            allowed = [card for card in hand if left[card] <= view["knock_limit"]]
        else:
            taken = view["drawn_card"] if view["drawn_from_pile"] and not view["rules"]["rediscard_taken_card"] else -1
            allowed = [card for card in hand if card != taken]
        return str(allowed[rng.randint(len(allowed))])
    chance = {"take_up_card": 0.5, "draw_from_pile": 0.4, "knock": 0.6, "big_gin": 0.8, "take_fiftieth": 0.8}
    if decision == "knock":
        assert deadwood(view["hand"]) <= view["knock_limit"], "asked to knock over the limit"
    return "yes" if rng.random() < chance[decision] else "no"


def scripted_answer(decision: str, view: dict) -> str:
    hand = view["hand"]
    if decision == "take_up_card":
        return "yes" if in_some_meld(hand, view["pile"][-1]) else "no"
    if decision == "discard":
        left = discard_deadwoods(hand)
        taken = view["drawn_card"] if view["drawn_from_pile"] and not view["fiftieth_card"] else -1
        return str(max((card for card in hand if card != taken), key=lambda card: (-left[card], card)))
    return {"draw_from_pile": "no", "knock": "no", "big_gin": "yes", "take_fiftieth": "yes"}[decision]


if __name__ == "__main__":
    main()

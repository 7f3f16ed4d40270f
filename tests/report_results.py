"""Synthetic results for the report's tests: hand rows drawn at random and reduced by the project's own
``tally_hands``/``tally_pairs``/``player_rows`` (and ``tournament_analysis`` for ratings), so that the result files
have exactly the shape the run commands write, without playing a hand."""

from __future__ import annotations

import numpy as np

from simgin.kernels import engine as k
from simgin.kernels.showdown import KIND_DEAD, KIND_GIN, KIND_KNOCK, KIND_UNDERCUT
from simgin.running.runner import RunConfig, RunResult
from simgin.running.summary import pair_statistics, player_rows
from simgin.running.tally import TALLY_FIELDS, Tally, tally_hands, tally_pairs
from simgin.statistics.stats import sprt


def tally_dict(**fields: float) -> dict[str, float]:
    """A tally with every field 0 except the ones given."""
    unknown = set(fields) - set(TALLY_FIELDS)
    assert not unknown, unknown
    return {name: float(fields.get(name, 0.0)) for name in TALLY_FIELDS}


def synthetic_rows(rng: np.random.Generator, n: int, edge: float, oklahoma: bool = False, limit: int = 10):
    """n hand rows in which seat 0 knocks (and mostly wins) with probability ``edge``."""
    rows = np.zeros((n, len(k.HAND_FIELDS)), dtype=np.int64)
    gin_share = 0.08 + (0.25 * (10 - limit) / 10 if not oklahoma else 0.0)
    kinds = rng.choice(
        [KIND_KNOCK, KIND_GIN, KIND_UNDERCUT, KIND_DEAD], p=[0.86 - gin_share, gin_share, 0.09, 0.05], size=n
    )
    knock_limit = rng.integers(1, 11, n) if oklahoma else np.full(n, limit)
    if oklahoma:  # low up cards make gin more likely
        kinds = np.where((knock_limit <= 2) & (rng.random(n) < 0.4), KIND_GIN, kinds)
    knocker = np.where(rng.random(n) < edge, 0, 1)
    winner = np.where(kinds == KIND_UNDERCUT, 1 - knocker, knocker)
    dead = kinds == KIND_DEAD
    deadwood = np.where(kinds == KIND_GIN, 0, np.minimum(rng.integers(1, 11, n), np.maximum(knock_limit, 1)))
    points = np.where(kinds == KIND_GIN, 20 + rng.integers(5, 60, n), rng.integers(1, 45, n))
    multiplier = np.where(oklahoma & (rng.random(n) < 0.25), 2, 1)
    rows[:, k.H_DEALER] = np.arange(n) % 2
    rows[:, k.H_KIND] = kinds
    rows[:, k.H_WINNER] = np.where(dead, -1, winner)
    rows[:, k.H_KNOCKER] = np.where(dead, -1, knocker)
    rows[:, k.H_KNOCKER_DEADWOOD] = np.where(dead, 0, deadwood)
    rows[:, k.H_POINTS] = np.where(dead, 0, points * multiplier)
    rows[:, k.H_TURNS] = rng.integers(4, 44, n) - np.where(kinds == KIND_GIN, 2, 0)
    rows[:, k.H_DRAWS] = rows[:, k.H_TURNS]
    rows[:, k.H_KNOCK_LIMIT] = knock_limit
    rows[:, k.H_MULTIPLIER] = multiplier
    return rows


def synthetic_tally(rng: np.random.Generator, pairs: int, edge: float, **options) -> Tally:
    """A duplicate pairing of hands: A has seat 0 in leg 1 and seat 1 in leg 2, knocking with share ``edge``."""
    leg1 = synthetic_rows(rng, pairs, edge, **options)
    leg2 = synthetic_rows(rng, pairs, 1 - edge, **options)
    seat0, seat1 = np.zeros(pairs, np.int64), np.ones(pairs, np.int64)
    t = tally_hands(leg1, seat0) + tally_hands(leg2, seat1)

    def score(rows, seat):
        winner = rows[:, k.H_WINNER]
        return np.where(winner == seat, 1.0, np.where(winner < 0, 0.5, 0.0))

    def net(rows, seat):
        winner, points = rows[:, k.H_WINNER], rows[:, k.H_POINTS]
        return np.where(winner == seat, points, 0) - np.where(winner == 1 - seat, points, 0)

    return t + tally_pairs(score(leg1, 0), score(leg2, 1), net(leg1, 0), net(leg2, 1))


EDGES = {("heuristic", "simple"): 0.62, ("heuristic", "random"): 0.97, ("simple", "random"): 0.95}


def synthetic_result(kind: str = "tournament", players=("heuristic", "simple", "random"), pairs: int = 400, seed=1):
    """A result dict shaped like the run commands' result.json (match, tournament or compare)."""
    rng = np.random.default_rng(seed)
    config = RunConfig(tuple(players), hands=2 * pairs, seed=seed)
    tallies = [
        synthetic_tally(rng, pairs, EDGES.get((config.players[i], config.players[j]), 0.6)) for i, j in config.pairings
    ]
    result = RunResult(config, tallies, 1.0, 1, 0)
    data = {
        "kind": kind,
        "simgin_version": "0.1.0",
        "config": config.to_dict(),
        "players": list(players),
        "pairings": [
            {"a": config.players[i], "b": config.players[j], "tally": t.to_dict(), "paired": pair_statistics(t)}
            for (i, j), t in zip(config.pairings, tallies, strict=True)
        ],
        "summary": [row for index, t in enumerate(tallies) for row in player_rows(config, index, t)],
    }
    if kind == "tournament":
        from simgin.running.tournament_ratings import tournament_analysis

        data |= tournament_analysis(result, anchor="simple", reps=200, seed=seed)
    if kind == "compare":
        data["sprt"] = synthetic_sprt(rng)
    return data


def synthetic_sprt(rng: np.random.Generator) -> dict:
    """An SPRT that accepts H1 after some batches of 25 pairs ([LL, split, WW] drawn 20/45/35%)."""
    counts = np.zeros(3)
    trajectory = []
    for _ in range(100):
        counts += rng.multinomial(25, [0.2, 0.45, 0.35])
        test = sprt(counts, None, 0.0, 10.0, model="logistic")
        trajectory.append({"games": 2 * counts.sum(), "llr": test.llr})
        if test.decision != "continue":
            break
    return {
        "model": "logistic",
        "elo0": 0.0,
        "elo1": 10.0,
        "alpha": 0.05,
        "beta": 0.05,
        "max_games": 20000,
        "decision": test.decision,
        "games": int(2 * counts.sum()),
        "pairs": int(counts.sum()),
        "llr": test.llr,
        "lower": test.lower,
        "upper": test.upper,
        "elo": 52.3,
        "elo_low": 30.1,
        "elo_high": 75.0,
        "los": 0.9999,
        "counts": counts.tolist(),
        "support": [0.0, 0.5, 1.0],
        "trajectory": trajectory,
    }


def synthetic_sweep(pairs: int = 200) -> dict:
    """A sweep over knock_limit (6, 8, 10) x oklahoma (off, on), A = simple vs B = random."""
    rng = np.random.default_rng(3)
    grid = {"knock_limit": [6, 8, 10], "oklahoma": [False, True]}
    base = RunConfig(("simple", "random"), hands=2 * pairs)
    cells = []
    for limit in grid["knock_limit"]:
        for oklahoma in grid["oklahoma"]:
            t = synthetic_tally(rng, pairs, 0.9, oklahoma=oklahoma, limit=limit)
            cells.append(
                {
                    "settings": {"knock_limit": limit, "oklahoma": oklahoma},
                    "pairings": [{"a": "simple", "b": "random", "tally": t.to_dict(), "paired": pair_statistics(t)}],
                    "summary": player_rows(base, 0, t),
                }
            )
    return {
        "kind": "sweep",
        "simgin_version": "0.1.0",
        "config": base.to_dict(),
        "players": ["simple", "random"],
        "grid": grid,
        "cells": cells,
    }

"""``simgin match``, ``tournament`` and ``compare`` as library functions, with typed results.

:func:`match` plays two players (or a three-player or partnership table), :func:`tournament` a
round robin with Bradley-Terry ratings and Holm-corrected pairwise claims, :func:`compare` a
sequential test of one player against another (GSPRT on duplicate game pairs). Each returns a frozen
result with ``to_frame()`` (a pandas table labelled by the players' names), ``to_json()`` (the
command's ``--json`` object) and ``save(out)``; with ``out=DIR`` the run is resumable there and,
at the end, ``DIR/result.json`` is written: the same directory the command leaves, which
``simgin report DIR`` reads. The commands call these functions.

Worker processes are started with the ``spawn`` method, which imports the calling script again in
each worker: a script that calls these functions with more than one worker must do so under
``if __name__ == "__main__":``.

>>> result = match("simple", "random", hands=40, seed=1, workers=1)  # doctest: +SKIP
>>> result.to_frame()[["player", "win_rate"]]  # doctest: +SKIP
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist
from typing import TYPE_CHECKING, Any

import numpy as np

from simgin import __version__
from simgin.game.multiplayer import table_json
from simgin.game.rules import Rules, as_rules
from simgin.running import runner
from simgin.running.config import RunConfig
from simgin.running.keywords import RUN_OPTIONS, check_keywords
from simgin.running.results import jsonable, save_result
from simgin.running.summary import overridden_rules, pair_statistics
from simgin.running.tally import UNIT_INDEX, Tally
from simgin.running.tournament_ratings import DEFAULT_ANCHOR, tournament_analysis
from simgin.statistics.core import mean_from_sums
from simgin.statistics.elo import elo_from_score, score_from_elo
from simgin.statistics.paired import normal_sprt
from simgin.statistics.sprt import SprtSettings, pair_counts, parse_sprt
from simgin.statistics.stats import pentanomial_elo, sprt as sprt_test

if TYPE_CHECKING:
    import pandas as pd


def result_data(kind: str, result: runner.RunResult, **extra: Any) -> dict[str, Any]:
    """``result.json`` of a run of ``kind`` (match, tournament or compare): the contract between a run and its
    report (:mod:`simgin.running.results` lists the keys), built here so that a run made from Python and one
    made by the command leave the same file."""
    config = result.config
    if config.table != "pairs":
        pairings = [{"table": config.table, "players": list(config.players), "tally": result.tallies[0].to_dict()}]
    else:
        pairings = [
            {"a": config.players[i], "b": config.players[j], "tally": t.to_dict(), "paired": pair_statistics(t)}
            for (i, j), t in zip(config.pairings, result.tallies, strict=True)
        ]
    data = {
        "kind": kind,
        "simgin_version": __version__,
        "config": config.to_dict(),
        "players": list(config.players),
        "pairings": pairings,
        "summary": result.summary.to_dict(orient="records"),
        "overridden": overridden_rules(config),
    }
    if config.on_illegal == "forfeit":
        data["forfeited"] = [record for tally in result.tallies for record in getattr(tally, "forfeits", [])]
    return data | extra


@dataclass(frozen=True)
class _FinishedRun:
    """What every command's result has of its run: the players, how they read, the forfeits, and ``save``."""

    run: runner.RunResult

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.run.config.players)

    def labels(self, ask: bool = True) -> dict[str, str]:
        """How each player reads in a table: a program's own name, an EAAI player's class, else its spec
        (:func:`simgin.players.labels.display_labels`; ``ask=False`` starts no program)."""
        from simgin.players.labels import display_labels

        return display_labels(self.players, ask=ask)

    def forfeits(self) -> dict[str, int]:
        """Under ``on_illegal='forfeit'``: hands (games) lost by an illegal move, by player, over every pairing."""
        return self.run.forfeits_by_player()

    def result_data(self) -> dict[str, Any]:
        """``result.json``: each command's result says what its file holds."""
        raise NotImplementedError

    def save(self, out: str | Path) -> None:
        """Write ``out/result.json`` (``out`` is this run's directory, or a new or empty one)."""
        save_result(out, self.result_data())


@dataclass(frozen=True)
class MatchResult(_FinishedRun):
    """A finished match: the run (tallies, settings, timings) and what the command prints."""

    def to_frame(self) -> pd.DataFrame:
        """One row per player (per pairing): win rate with its interval, points, outcome rates."""
        return self.run.summary

    def to_json(self) -> dict[str, Any]:
        """The ``simgin match --json`` object."""
        if self.run.config.table != "pairs":
            return jsonable(table_json(self.run))
        return jsonable(runner.match_json(self.run))

    def result_data(self) -> dict[str, Any]:
        """``result.json``: what :meth:`save` writes and ``simgin report`` reads."""
        return result_data("match", self.run, match=self.to_json())


@dataclass(frozen=True)
class TournamentResult(_FinishedRun):
    """A finished round robin: the run, and its ratings, LOS matrix and pairwise claims (``analysis``)."""

    analysis: dict[str, Any] = field(repr=False)

    def to_frame(self) -> pd.DataFrame:
        """The ratings, best first: player, rating with its 95% interval and its rank interval."""
        import pandas as pd

        frame = pd.DataFrame(self.analysis["ratings"]).sort_values("rating", ascending=False, kind="stable")
        return frame.reset_index(drop=True)

    def summary(self) -> pd.DataFrame:
        """One row per pairing and player, as the command's table."""
        return self.run.summary

    def result_data(self) -> dict[str, Any]:
        """``result.json``: what :meth:`save` writes and ``simgin report`` reads."""
        return result_data("tournament", self.run, **self.analysis)

    def to_json(self) -> dict[str, Any]:
        """The ``simgin tournament --json`` object."""
        timing = {"seconds": self.run.seconds, "chunks_run": self.run.chunks_run}
        return jsonable(self.result_data() | {"timing": timing})


@dataclass(frozen=True)
class CompareResult(_FinishedRun):
    """A finished sequential test: the run, and the test's ``summary`` (decision, LLR, Elo with its interval)."""

    summary: dict[str, Any] = field(repr=False)

    @property
    def decision(self) -> str:
        """``'H1'`` (A is stronger), ``'H0'`` (it is not) or ``'max games'`` (undecided)."""
        return self.summary["decision"]

    def to_frame(self) -> pd.DataFrame:
        """One row: the decision, games, LLR with its bounds, Elo with its interval, LOS."""
        import pandas as pd

        keys = ["decision", "games", "pairs", "llr", "lower", "upper", "elo", "elo_low", "elo_high", "los"]
        players = dict(zip(("a", "b"), self.run.config.players, strict=True))
        return pd.DataFrame([players | {key: self.summary[key] for key in keys}])

    def to_json(self) -> dict[str, Any]:
        """The ``simgin compare --json`` object."""
        config = self.run.config
        data = {
            "players": list(config.players),
            "seed": config.seed,
            "rules": config.rules.to_dict(),
            "overridden": overridden_rules(config),
            "sprt": self.summary,
        }
        if "luck_adjusted" in self.summary:  # issue 35: at the top, as every command with --adjust-luck has it
            data["luck_adjusted"] = self.summary["luck_adjusted"]
        return jsonable(data)

    def result_data(self) -> dict[str, Any]:
        """``result.json``: what :meth:`save` writes and ``simgin report`` reads."""
        return result_data("compare", self.run, sprt=self.summary)


#: Hands a luck-adjusted ``compare`` plays at most when ``max_hands`` is not given.
DEFAULT_ADJUSTED_HANDS = 40_000


def sprt_hands(settings: SprtSettings, adjust_luck: bool = False) -> int | None:
    """The most hands a sequential test plays, or None when it plays games: ``max_hands``, else
    :data:`DEFAULT_ADJUSTED_HANDS` for a test on net points per hand or on luck-adjusted hands."""
    if settings.max_hands is None and (settings.on_points or adjust_luck):
        return DEFAULT_ADJUSTED_HANDS
    return settings.max_hands


def run_sprt(
    a: str,
    b: str,
    settings: SprtSettings,
    rules: Rules | None = None,
    seed: int = 0,
    on_illegal: str = "stop",
    adjust_luck: bool = False,
    **options: Any,
) -> tuple[runner.RunResult, dict[str, Any]]:
    """Play duplicate game pairs of ``a`` vs ``b`` until the SPRT decides; ``options`` go to ``run_cells``.

    Batches are consumed in order, so the stopping point and every number reported are the same on any
    number of workers and on either backend (docs/STATISTICS.md §1, §6).

    ``on_illegal='forfeit'`` makes an illegal move lose its game (a lost game in the pair
    counts); the summary's ``forfeits`` counts them by player, ``forfeited`` lists them.

    ``settings.max_hands`` plays duplicate hand pairs instead (the Elo of a hand). Hypotheses in net points per hand
    (``points0``, ``points1``) test A's mean net points per hand of each deal pair with the normal model
    (:func:`~simgin.statistics.paired.normal_sprt`), on hands (at most :data:`DEFAULT_ADJUSTED_HANDS` unless
    ``max_hands`` says). ``adjust_luck`` plays hands likewise and runs the test on the luck-adjusted outcomes
    (docs/STATISTICS.md §13): the net points per hand, or with Elo bounds each pair's score (A's hands won plus half
    its dead hands, less their luck corrections) between the bounds as scores, with the normal model too. The
    summary then keeps the plain figures beside (``plain``) and adds ``luck_adjusted``.
    """
    hands = sprt_hands(settings, adjust_luck)
    if adjust_luck and not settings.on_points and settings.model != "logistic":
        raise ValueError(
            f"--model {settings.model}: a luck-adjusted test takes logistic Elo bounds (normalized Elo is scaled "
            "by the plain spread); leave out --model or give --model logistic"
        )
    config = runner.RunConfig(
        (a, b),
        rules or Rules(),
        hands=hands,
        games=None if hands else settings.max_games,
        seed=seed,
        duplicate=True,
        chunk_units=settings.batch_pairs,
        on_illegal=on_illegal,
        adjust_luck=adjust_luck,
    )
    unit = "hands" if hands else "games"
    trajectory: list[dict[str, float]] = []
    state: dict[str, Any] = {"decision": f"max {unit}"}
    pieces: dict[int, np.ndarray] = {}
    on_units = settings.on_points or adjust_luck
    if settings.on_points:
        bounds = (float(settings.points0), float(settings.points1))  # type: ignore[arg-type]
    else:
        bounds = (score_from_elo(settings.elo0), score_from_elo(settings.elo1))

    def collect(chunk: runner.Chunk, records: np.ndarray) -> None:
        pieces[chunk.chunk_index] = records

    def unit_values(adjusted: bool) -> np.ndarray:
        done = 0
        while done in pieces:
            done += 1
        if not done:
            return np.zeros(0)
        units = np.concatenate([pieces[k] for k in range(done)])
        return (pair_points if settings.on_points else pair_scores)(units, adjusted)

    def check(cell: int, chunk: runner.Chunk, tallies: list[list[Tally]]) -> bool:
        if on_units:
            scores = unit_values(adjust_luck)
            test = normal_sprt(scores, *bounds, settings.alpha, settings.beta)
            pairs = scores.size
        else:
            counts, support = pair_counts(tallies[0][0])
            test = sprt_test(
                counts, support, settings.elo0, settings.elo1, settings.alpha, settings.beta, settings.model
            )
            pairs = int(counts.sum())
        state.update(llr=test.llr, lower=test.lower, upper=test.upper)
        trajectory.append({unit: 2 * pairs, "llr": test.llr})
        if test.decision != "continue":
            state["decision"] = test.decision
            return True
        return False

    result = runner.run_cells(
        [config],
        stop=check,
        kind="compare",
        unit_records=on_units,
        on_units=collect if on_units else None,
        **options,
    )[0]
    counts, support = pair_counts(result.tallies[0])
    elo = pentanomial_elo(counts, support)
    figures = {"elo": elo.elo, "elo_low": elo.elo - elo.error, "elo_high": elo.elo + elo.error, "los": elo.los}
    summary: dict[str, Any] = {
        "model": settings.model,
        "elo0": settings.elo0,
        "elo1": settings.elo1,
        "alpha": settings.alpha,
        "beta": settings.beta,
        "max_games": settings.max_games,
        "max_hands": hands,
        "unit": unit[:-1],
        "estimator": "luck-adjusted" if adjust_luck else "plain",
        "points0": settings.points0,
        "points1": settings.points1,
        "decision": state["decision"],
        "accepted": (
            {"H0": f"net points per hand <= {settings.points0:g}", "H1": f"net points per hand >= {settings.points1:g}"}
            if settings.on_points
            else {"H0": f"elo <= {settings.elo0:g}", "H1": f"elo >= {settings.elo1:g}"}
        ).get(state["decision"]),
        "games": 0 if hands else int(2 * counts.sum()),
        "hands": int(result.tallies[0]["hands"]),
        "pairs": int(counts.sum()),
        "llr": state.get("llr"),
        "lower": state.get("lower"),
        "upper": state.get("upper"),
        **figures,
        "counts": [int(count) for count in counts],
        "forfeits": [int(result.tallies[0]["forfeits_a"]), int(result.tallies[0]["forfeits_b"])],
        "forfeited": list(result.tallies[0].forfeits),
        "support": list(support),
        "trajectory": trajectory,
    }
    if settings.on_points:
        summary["net_points_per_hand"] = mean_interval(unit_values(adjust_luck))
    if adjust_luck:
        from simgin.running.summary import luck_adjusted

        if settings.on_points:
            summary["plain"] = {"net_points_per_hand": mean_interval(unit_values(False))}
        else:
            summary |= adjusted_elo(unit_values(True)) | {"plain": figures}
        summary["luck_adjusted"] = luck_adjusted(result.tallies[0], config.legs)
    return result, summary


def pair_scores(units: np.ndarray, adjusted: bool) -> np.ndarray:
    """Per deal pair of hands (unit records): A's score, its hands won plus half its dead hands over the hands;
    ``adjusted`` (a run with ``adjust_luck``): each hand's win of either player less its luck correction (§13)."""
    won_a = units[:, UNIT_INDEX["hands_won_a"]].astype(float)
    won_b = units[:, UNIT_INDEX["hands_won_b"]].astype(float)
    if adjusted:
        won_a = won_a - units[:, UNIT_INDEX["luck_hands_won_a"]]
        won_b = won_b - units[:, UNIT_INDEX["luck_hands_won_b"]]
    return 0.5 + 0.5 * (won_a - won_b) / units[:, UNIT_INDEX["hands"]]


def pair_points(units: np.ndarray, adjusted: bool) -> np.ndarray:
    """Per deal pair of hands (unit records): A's net points per hand, less their luck corrections when
    ``adjusted`` (§13)."""
    points = units[:, UNIT_INDEX["net_points_a"]].astype(float)
    if adjusted:
        points = points - units[:, UNIT_INDEX["luck_points_a"]]
    return points / units[:, UNIT_INDEX["hands"]]


def mean_interval(values: np.ndarray) -> dict[str, Any]:
    """A mean over deal pairs with its 95% normal interval (:func:`~simgin.statistics.core.mean_from_sums`):
    ``{'estimate', 'ci'}``."""
    mean, low, high = mean_from_sums(float(values.sum()), float((values**2).sum()), values.size)
    return {"estimate": mean, "ci": [low, high]}


def adjusted_elo(scores: np.ndarray) -> dict[str, float]:
    """The logistic Elo of a mean luck-adjusted score with its 95% interval (normal, over pairs) and the
    likelihood of superiority (the chance that the true score is above 1/2)."""
    n = scores.size
    if n < 2:
        return {"elo": math.nan, "elo_low": math.nan, "elo_high": math.nan, "los": math.nan}
    mean = float(scores.mean())
    se = float(scores.std(ddof=1)) / math.sqrt(n)
    z = NormalDist().inv_cdf(0.975)
    los = NormalDist().cdf((mean - 0.5) / se) if se > 0 else float(mean > 0.5)
    return {
        "elo": elo_from_score(mean),
        "elo_low": elo_from_score(mean - z * se),
        "elo_high": elo_from_score(mean + z * se),
        "los": los,
    }


def compare(
    a: str,
    b: str,
    *,
    sprt: str | SprtSettings | None = None,
    rules: Rules | str | None = None,
    seed: int = 0,
    on_illegal: str = "stop",
    save: bool = True,
    adjust_luck: bool = False,
    **options: Any,
) -> CompareResult:
    """``simgin compare``: is ``a`` stronger than ``b``? The GSPRT on duplicate game pairs (docs/STATISTICS.md §1,
    §6). ``sprt`` is ``'elo0=..,elo1=..'`` or a :class:`~simgin.statistics.sprt.SprtSettings` (error rates,
    model, most games, batch); ``options`` go to the runner (``workers``, ``backend``, ``scheduler``, ``out``,
    ``progress``, ``programs``, ``notice``). With ``out``, ``out/result.json`` is written at the end.
    ``adjust_luck=True`` tests luck-adjusted hand pairs (:func:`run_sprt`, docs/STATISTICS.md §13)."""
    check_keywords(compare, options, RUN_OPTIONS)
    if not isinstance(sprt, SprtSettings | str | None):  # issue 32 item 27
        raise TypeError(f"sprt={sprt!r}: give 'elo0=..,elo1=..' or a SprtSettings, not a {type(sprt).__name__}")
    if sprt is None:
        sprt = "points0=0,points1=1" if adjust_luck else "elo0=0,elo1=10"
    settings = sprt if isinstance(sprt, SprtSettings) else SprtSettings(**parse_sprt(sprt))
    rules = as_rules(rules)
    run, summary = run_sprt(a, b, settings, rules, seed, on_illegal=on_illegal, adjust_luck=adjust_luck, **options)
    result = CompareResult(run, summary)
    if save and options.get("out") is not None:
        result.save(options["out"])
    return result


def play_match(config: RunConfig, *, save: bool = True, **options: Any) -> MatchResult:
    """Play a match from its settings; ``options`` go to :func:`simgin.running.runner.run` (``workers``,
    ``backend``, ``scheduler``, ``out``, ``progress``, ``hand_log``, ``programs``, ``notice``). With
    ``out`` and ``save``, ``out/result.json`` is written at the end."""
    check_keywords(play_match, options, RUN_OPTIONS)
    result = MatchResult(runner.run(config, kind="match", **options))
    if save and options.get("out") is not None:
        result.save(options["out"])
    return result


#: The most unit records (units times pairings) a round robin keeps for the joint rating bootstrap (§2): two
#: million, 112 MB. Longer round robins resample within each pairing, and their result says so.
JOINT_BOOTSTRAP_UNITS = 2_000_000


def play_tournament(
    config: RunConfig, *, anchor: str | None = DEFAULT_ANCHOR, save: bool = True, **options: Any
) -> TournamentResult:
    """Play a round robin from its settings and analyse it (ratings anchored on ``anchor``); ``options`` as
    :func:`play_match`. A ValueError names what the ratings cannot be fitted from."""
    check_keywords(play_tournament, options, RUN_OPTIONS)
    # Unit records let the rating bootstrap resample whole deals across pairings (§2, issue 32 item 10);
    # they cost 56 bytes a unit and pairing, so a very long round robin goes without (and says so).
    joint = (
        config.table == "pairs"
        and len(config.pairings) > 1
        and config.units * len(config.pairings) <= JOINT_BOOTSTRAP_UNITS
    )
    # A run directory records "tournament" for three players or more, "match" for two (as it always has).
    kind = "tournament" if len(config.players) > 2 else "match"
    run = runner.run(config, kind=kind, unit_records=joint, **options)
    analysis = tournament_analysis(run, anchor=anchor, seed=config.seed)
    if config.adjust_luck:
        analysis["luck_adjusted"] = pairing_luck(run)
    result = TournamentResult(run, analysis)
    if save and options.get("out") is not None:
        result.save(options["out"])
    return result


def pairing_luck(run: runner.RunResult) -> list[dict[str, Any]]:
    """A round robin's luck-adjusted figures (``adjust_luck``, issue 35): per pairing, its players ``a`` and ``b``
    and A's figures (:func:`simgin.running.summary.luck_adjusted`), and the pairwise claim on them: ``p``, Student's
    t of "A's luck-adjusted net points per hand are 0" over the pairing's units, ``p_holm`` by Holm's procedure
    over the pairings (as the plain ``pairwise`` claims, §4) and ``significant`` (``p_holm < 0.05``)."""
    from simgin.running.summary import luck_adjusted
    from simgin.statistics.core import variance_from_sums
    from simgin.statistics.duplicate import student_t_p_value
    from simgin.statistics.stats import holm

    config = run.config
    figures = []
    for index, (a, b) in enumerate(config.pairings):
        t = run.tallies[index]
        entry = {"a": config.players[a], "b": config.players[b], **luck_adjusted(t, config.legs)}
        n = t["luck_units"]
        variance = variance_from_sums(t["luck_y"], t["luck_y_sq"], n) if n >= 2 else math.nan
        if n >= 2 and variance > 0:
            entry["p"] = student_t_p_value((t["luck_y"] / n) / math.sqrt(variance / n), n - 1)
        else:
            entry["p"] = math.nan
        figures.append(entry)
    tested = [k for k, entry in enumerate(figures) if math.isfinite(entry["p"])]
    adjusted = holm([figures[k]["p"] for k in tested]) if tested else []
    for entry in figures:
        entry["p_holm"], entry["significant"] = math.nan, False
    for k, p_holm in zip(tested, adjusted, strict=True):
        figures[k]["p_holm"] = float(p_holm)
        figures[k]["significant"] = bool(p_holm < 0.05)
    return figures


def match(
    *players: str,
    rules: Rules | str | None = None,
    hands: int | None = None,
    games: int | None = None,
    seed: int = 0,
    duplicate: bool = True,
    teams: bool = False,
    on_illegal: str = "stop",
    adjust_luck: bool = False,
    **options: Any,
) -> MatchResult:
    """``simgin match``: two players, three (V11), or two partnerships (``teams=True``: players 1+2 against 3+4, V12).

    ``adjust_luck=True`` (two players, ``hands``) adds the luck-adjusted figures (``luck_adjusted`` in
    :meth:`MatchResult.to_json`, issue 35: each hand's result minus the luck of its deal and stock draws).

    ``rules`` is a :class:`~simgin.game.rules.Rules` or a preset name; ``hands`` or ``games`` per pairing
    (default 10,000 hands; tables play games, default 120); ``options`` go to the runner (``workers``,
    ``backend``, ``scheduler``, ``out``, ``progress(chunk_result, units)``, ``hand_log``). Bad input is a
    ValueError naming the value.
    """
    check_keywords(match, options, ("save", *RUN_OPTIONS))
    table = "teams" if teams else ("three" if len(players) == 3 else "pairs")
    if teams and len(players) != 4:
        raise ValueError(f"teams=True needs four players (two partnerships), got {len(players)}")
    if table == "pairs" and len(players) != 2:
        raise ValueError(f"a match needs two players (three for V11, four with teams=True), got {len(players)}")
    if table != "pairs" and hands is None and games is None:
        games = 120
    config = _config(players, rules, hands, games, seed, duplicate, table, on_illegal, adjust_luck)
    return play_match(config, **options)


def tournament(
    players: Sequence[str],
    *,
    rules: Rules | str | None = None,
    hands: int | None = None,
    games: int | None = None,
    seed: int = 0,
    duplicate: bool = True,
    anchor: str | None = DEFAULT_ANCHOR,
    on_illegal: str = "stop",
    adjust_luck: bool = False,
    **options: Any,
) -> TournamentResult:
    """``simgin tournament``: every pair of ``players`` on the same deals, with ratings and Holm-corrected claims
    (docs/STATISTICS.md §2, §4, §7). Arguments as :func:`match`; ``anchor`` is the player rated 0. ``players`` is
    a list of specs: a bare string is refused, never split (a spec may hold spaces and commas). ``adjust_luck``
    adds ``luck_adjusted``, each pairing's luck-adjusted figures (:func:`pairing_luck`)."""
    check_keywords(tournament, options, ("save", *RUN_OPTIONS))
    if isinstance(players, str):
        raise ValueError(
            f"tournament() takes a list of player specs, got the single string {players!r} (a spec may hold spaces "
            f"and commas, so a string is never split): pass a list, e.g. {players.split()!r}"
        )
    if len(players) < 2 or len(set(players)) != len(players):
        raise ValueError(f"a tournament needs at least two different players, got {list(players)}")
    config = _config(tuple(players), rules, hands, games, seed, duplicate, "pairs", on_illegal, adjust_luck)
    return play_tournament(config, anchor=anchor, **options)


def _config(
    players: Sequence[str],
    rules: Rules | str | None,
    hands: int | None,
    games: int | None,
    seed: int,
    duplicate: bool,
    table: str,
    on_illegal: str,
    adjust_luck: bool = False,
) -> RunConfig:
    rules = as_rules(rules)
    if hands is None and games is None:
        hands = 10_000
    return RunConfig(
        tuple(players), rules or Rules(), hands, games, seed, duplicate, table=table, on_illegal=on_illegal,
        adjust_luck=adjust_luck,
    )  # fmt: skip

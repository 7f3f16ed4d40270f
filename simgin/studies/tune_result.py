"""What a tune found: the result contract (the best parameters, their final measurement on fresh deals against the
start, the history of evaluations) and its JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simgin.studies.search import FINAL_MEASUREMENT_KEYS, FinalMeasurement
from simgin.studies.tune_evaluation import Evaluation
from simgin.studies.tune_settings import METHOD, TuneSettings

CONTRACT_KEYS = (
    "strategy",
    "rules",
    "against",
    "spec",
    "parameters",
    "start_parameters",
    *FINAL_MEASUREMENT_KEYS,
    "kept_start",
    "tuned_spec",
    "tuned_parameters",
)


@dataclass(frozen=True)
class TuneResult(FinalMeasurement):
    """What a tune found and how it measured it; :meth:`to_dict` is the ``--json`` object.

    ``score`` (the tuned candidate, ``tuned_spec``) and ``start_score`` are measured on the
    final, fresh deals: the share of games won against the pool (a drawn game counts half),
    or with ``hands`` the net points per hand; ``p_value`` is the two-sided p-value of their
    paired difference. ``spec`` and ``parameters`` are the result to use: the tuned
    candidate, or the start when the final measurement scored the tuned candidate lower
    than the start (``kept_start``; a tune never claims a gain its final measurement does
    not show, issue 25). ``evaluations`` counts the search's candidate evaluations;
    ``games`` every game (hand, with ``hands``) played, the selection and the final
    measurement included.
    """

    strategy: str
    rules: dict[str, Any]
    against: list[str]
    spec: str
    parameters: dict[str, float | int]
    start_parameters: dict[str, float | int]
    kept_start: bool
    """The tuned candidate scored lower than the start on the final deals: ``spec`` is the start."""
    tuned_spec: str
    """The candidate the search and the selection chose, measured as ``score``."""
    tuned_parameters: dict[str, float | int]
    settings: TuneSettings = field(repr=False)
    history: list[Evaluation] = field(repr=False)
    """Every evaluation in play order: the search, then the selection round, then the final measurement."""
    generations: list[dict[str, Any]] = field(repr=False)
    """Per search generation: its sample, seed, CMA-ES step size and distribution mean after it."""
    difference: dict[str, float] = field(repr=False)
    luck_adjusted: dict[str, Any] | None = None
    """With ``adjust_luck`` (issue 35): the tuned candidate's luck-adjusted figures on the final deals
    (``net_points_per_hand``, ``hands_won``: ``estimate``, ``ci``, ``variance_ratio``, ``plain``, ``plain_ci``;
    :func:`simgin.running.summary.luck_adjusted`) and the start's under ``start``; ``score`` is then luck-adjusted."""

    def to_dict(self) -> dict[str, Any]:
        """The ``--json`` object: exactly the contract's keys (and ``luck_adjusted`` with ``adjust_luck``)."""
        from simgin.running.results import jsonable

        data = {key: getattr(self, key) for key in CONTRACT_KEYS}
        if self.luck_adjusted is not None:
            data["luck_adjusted"] = self.luck_adjusted
        return jsonable(data)

    def to_json(self) -> dict[str, Any]:
        """The ``simgin tune --json`` object (:meth:`to_dict`), as every result of a command has it."""
        return self.to_dict()

    def to_frame(self) -> Any:
        """The search path: one row per evaluation (phase, generation, spec, the parameters, score with interval)."""
        import pandas as pd

        rows = [
            {key: value for key, value in _history_row(e).items() if key not in ("values", "per_opponent")} | e.values
            for e in self.history
        ]
        return pd.DataFrame(rows)

    def result_data(self) -> dict[str, Any]:
        """``result.json`` for ``simgin report``: the contract's keys plus the settings and the whole history."""
        from simgin import __version__
        from simgin.running.results import jsonable

        final = {e.index: e for e in self.history if e.phase == "final"}
        return jsonable(
            {
                "kind": "tune",
                "simgin_version": __version__,
                **self.to_dict(),
                "settings": self.settings.to_dict(),
                "method": METHOD,
                "unit": self.settings.mode,
                "difference": self.difference,
                "generations": self.generations,
                "history": [_history_row(e) for e in self.history],
                "final": [
                    {"candidate": "tuned" if index == 0 else "start", **_history_row(e), "opponents": e.opponents}
                    for index, e in sorted(final.items())
                ],
            }
        )


def _history_row(evaluation: Evaluation) -> dict[str, Any]:
    return {
        "phase": evaluation.phase,
        "generation": evaluation.generation,
        "index": evaluation.index,
        "spec": evaluation.spec,
        "values": evaluation.values,
        "score": evaluation.score,
        "score_low": evaluation.score_low,
        "score_high": evaluation.score_high,
        "pairs": evaluation.pairs,
        "seed": evaluation.seed,
        "chunk_units": evaluation.chunk_units,
        "per_opponent": [{k: v for k, v in o.items() if k != "tally"} for o in evaluation.opponents],
    }

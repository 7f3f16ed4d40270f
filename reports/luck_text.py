"""Luck-adjusted figures in words for the reports of searches (issue 35, docs/STATISTICS.md §13)."""

from __future__ import annotations

from typing import Any


def search_luck_text(result: dict[str, Any], name: str) -> str:
    """A tune's (or tune-rules') luck-adjusted net points per hand of what it found (called ``name``) and of the
    start, each with the plain figure and the variance ratio (``luck_adjusted``, issue 35)."""
    parts = []
    for label, figures in ((name, result["luck_adjusted"]), ("start", result["luck_adjusted"]["start"])):
        points = figures["net_points_per_hand"]
        parts.append(
            f"{label} {points['estimate']:+.2f} net points per hand (plain {points['plain']:+.2f}, variance "
            f"{points['variance_ratio']:.2f}x smaller)"
        )
    return "; ".join(parts)

"""What a run reports: the one-line error that stops it, and the notices it logs on the way."""

from __future__ import annotations

import logging


class RunError(RuntimeError):
    """A run stopped: the message says which strategy, chunk seed and hand, and how to replay it."""


def log_notice(message: str) -> None:
    """Where notices go without a ``notice`` callback: the ``simgin`` logger (stderr by default)."""
    logging.getLogger("simgin").warning(message)

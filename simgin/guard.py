"""Deprecated old path of :mod:`simgin.base.guard` (issue 32 item 18, :mod:`simgin._moved`)."""

from simgin._moved import alias

alias(__name__)

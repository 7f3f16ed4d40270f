"""Deprecated old path of :mod:`simgin.base.guard` (issue 33: the foreign-call guard sits below the engine that
calls it; :mod:`simgin._moved`)."""

from simgin._moved import alias

alias(__name__)

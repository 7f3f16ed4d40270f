"""Deprecated old path of :mod:`simgin.game.strategy` (issue 33: the strategy protocol sits below the engine that
calls it; :mod:`simgin._moved`)."""

from simgin._moved import alias

alias(__name__)

"""Deprecated old path of :mod:`simgin.running.engine` (issue 33: names are resolved in ``running/``, and
:mod:`simgin.game.play` plays resolved players; :mod:`simgin._moved`)."""

from simgin._moved import alias

alias(__name__)

"""Decision analysis (issue 34): every decision of both players valued against an evaluator, so that a
player's result can be split into the points its decisions gave away and the rest (docs/ANALYSIS.md).

- :mod:`simgin.analysis.recorder`: a wrapper that records every decision a player makes (any player:
  a compiled bot, a Python strategy, a program), with the view it decided from;
- :mod:`simgin.analysis.evaluator`: each legal action of a recorded decision valued by playouts in worlds
  drawn from that view (``kernels.analysis``), the loss of the decision and its Monte-Carlo error;
- :mod:`simgin.analysis.hands`: hands played and every decision in them valued, one row per decision.

The layer stands beside ``studies/`` (docs/ARCHITECTURE.md): it may import ``running/`` and below.
"""

"""Tools that make or guard shipped data, run as ``python -m simgin.tools.NAME`` (issue 33 item 3).

- :mod:`simgin.tools.train_discard`: fits the learned discard weights of ``opponent`` and ``heuristic``
  (``strategies/*_discard.json``) to a search teacher;
- :mod:`simgin.tools.fit_knock_model`: fits the knock model's coefficients in ``simgin/kernels/knock.py``;
- :mod:`simgin.tools.gates`: the SPRT strength gates a bot change must pass (benchmarks/RESULTS.md's table);
- :mod:`simgin.tools.row_hashes`: a hash of every result row of every preset and bot, to show that a change
  left the game as it was.

They stand on top of the layers (docs/ARCHITECTURE.md): they may import anything, and nothing imports them
but their tests.
"""

"""The compiled bots' Python adapter, :class:`CompiledStrategy`, and its helpers.

They live in :mod:`simgin.players.compiled`, the players' layer, where the registry may import them
(docs/ARCHITECTURE.md); this module keeps every name importable from where the bots and plug-ins found it.
"""

from __future__ import annotations

from simgin.players.compiled import CompiledStrategy, cards_to_mask, fill_table, parameter_vector

__all__ = ["CompiledStrategy", "cards_to_mask", "fill_table", "parameter_vector"]

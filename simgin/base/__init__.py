"""The base layer (docs/ARCHITECTURE.md): small helpers that import nothing of simgin, so that every layer may
use them. :mod:`simgin.base.strict_json` makes values strict JSON; :mod:`simgin.base.files` writes and reads the
files of run directories without following a planted link."""

"""The built-in bots (installed as ``simgin.strategies``)."""

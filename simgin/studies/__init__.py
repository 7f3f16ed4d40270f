"""Studies over many runs: variant sweeps of rule sets, and tuning.

:func:`simgin.studies.sweep.sweep` (also ``simgin.sweep``) plays every pairing of a list of players under
every cell of a grid of rule switches (a preset is a switch too), on the same deals in every cell, and
compares each cell with a baseline cell, paired unit by unit (docs/STATISTICS.md §9).
"""

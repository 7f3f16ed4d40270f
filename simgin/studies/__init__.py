"""Studies over many runs: questions about rule sets (RULES.md V1-V14) answered with tested numbers, and tuning.

:func:`simgin.studies.sweep.sweep` (also ``simgin.sweep``) plays every pairing of a list of players under
every cell of a grid of rule switches (a preset is a switch too), on the same deals in every cell, and
compares each cell with a baseline cell, paired unit by unit (docs/STATISTICS.md §9).
:func:`simgin.studies.tune_rules.tune_rules` (also ``simgin.tune_rules``) searches the rule switches for an
objective and measures the found rules against the start on fresh deals.
"""

"""Statistics: intervals, tests, the SPRT and ratings (docs/STATISTICS.md)."""

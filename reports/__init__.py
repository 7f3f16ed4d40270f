"""Report building (installed as ``simgin.reports``)."""

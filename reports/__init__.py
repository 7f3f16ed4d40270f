"""Report building (installed as ``simgin.reports``): a run's ``result.json`` -> one HTML file.

- :mod:`~simgin.reports.figures`: one function per figure of a match or tournament (a tidy table in, a
  matplotlib ``Figure`` out) and a caption function per figure that states its finding in numbers;
  :mod:`~simgin.reports.variant_figures` the same for a variant study (knock limits, variants, sweeps), and
  :mod:`~simgin.reports.figure_style` the style, palette and number formats they share;
- :mod:`~simgin.reports.study`: a sweep's answer, put first in its report: a finding and a figure per
  grid switch, the significant differences from the baseline, heat maps of each pair of switches;
- :mod:`~simgin.reports.html`: the page template and the helpers that embed figures and tables;
- :mod:`~simgin.reports.tables`: the tidy tables of a result, one per figure or section;
- :mod:`~simgin.reports.build`: :func:`build_report`, which reads a run directory, builds the
  tables, draws the figures the result has data for and writes the HTML with the PNG, SVG and
  CSV files beside it. ``simgin report DIR -o report.html`` calls it.
"""

from .build import build_report, write_report

__all__ = ["build_report", "write_report"]

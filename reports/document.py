"""What a report is made of: its figures, its tables and the page's facts, before any HTML.

:mod:`~simgin.reports.build` fills these from a run's ``result.json``; :mod:`~simgin.reports.html`
renders them. Both import this module, and neither imports the other's types from the other.
"""

from __future__ import annotations

import base64
import io
import re
from dataclasses import dataclass, field

import pandas as pd
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

from . import figure_style as S

PAD_INCHES = 0.12  # white space kept around what a figure draws


@dataclass
class ReportFigure:
    """One figure of a report, with its caption and the table it was drawn from."""

    name: str
    """File stem: ``report_files/<name>.png``."""
    title: str
    figure: Figure
    caption: str
    table: str | None
    """Name of the table (CSV) the figure was drawn from."""
    svg: bytes = b""
    _box: Bbox | None = field(default=None, init=False, repr=False, compare=False)
    _png: bytes | None = field(default=None, init=False, repr=False, compare=False)

    def render(self) -> None:
        """Lay the figure out and print it to SVG bytes (inside the report style); the PNG waits for :attr:`png`.

        The layout and the tight box around what is drawn are computed once; the SVG now and the PNG when first
        asked for are printed from them, so both show the same layout, and a figure costs one layout pass and one
        print per format instead of a layout pass, a measuring draw and a print for each (a 15-figure sweep report
        builds 1.22x faster, benchmarks/RESULTS.md). The HTML needs the SVG alone: a report written without PNG
        files, or built and never written, never prints one.
        """
        figure = self.figure
        with S.report_style():
            figure.draw_without_rendering()
            self._box = figure.get_tightbbox().padded(PAD_INCHES)
            self.svg = self._print("svg")
        self._png = None

    def render_png(self) -> None:
        """Print the PNG over the layout and box of :meth:`render` (once; :attr:`png` asks for it when needed)."""
        if self._png is None:
            if self._box is None:
                raise ValueError(f"figure {self.name!r}: render() it before asking for its PNG")
            with S.report_style():
                self._png = self._print("png")

    @property
    def png(self) -> bytes:
        """The PNG bytes, printed the first time they are asked for."""
        self.render_png()
        assert self._png is not None
        return self._png

    def _print(self, fmt: str) -> bytes:
        """The figure printed in ``fmt`` with the layout of :meth:`render` held (no layout pass of its own)."""
        figure = self.figure
        engine = figure.get_layout_engine()
        figure.set_layout_engine(None)  # laid out in render(): the print keeps those positions
        try:
            return _save(figure, fmt, self._box)
        finally:
            figure.set_layout_engine(engine)

    @property
    def svg_data_uri(self) -> str:
        return "data:image/svg+xml;base64," + base64.b64encode(self.svg).decode("ascii")

    @property
    def size_px(self) -> tuple[int, int]:
        """Width and height of the SVG in CSS pixels (its size is given in points)."""
        head = self.svg[:2000].decode("utf-8", "replace")
        width = re.search(r'width="([\d.]+)pt"', head)
        height = re.search(r'height="([\d.]+)pt"', head)
        if not (width and height):
            return 0, 0
        return round(float(width.group(1)) * 4 / 3), round(float(height.group(1)) * 4 / 3)


@dataclass
class ReportTable:
    """A table written as CSV; ``shown`` columns also appear in the HTML, with their formats."""

    name: str
    title: str
    frame: pd.DataFrame
    shown: dict[str, str] = field(default_factory=dict)
    """Column -> format (``'pct'``, ``'int'``, ``'f1'``, ``'f2'``, ``'f3'``, ``'text'``); empty: CSV only."""
    note: str = ""


@dataclass
class Report:
    """Everything the HTML template needs."""

    kind: str
    title: str
    facts: list[tuple[str, str]]
    figures: list[ReportFigure]
    tables: list[ReportTable]
    files_dir: str
    png: bool = True
    """Whether each figure's PNG file is written beside the HTML (its SVG always is)."""


def _save(figure: Figure, fmt: str, box: Bbox) -> bytes:
    """``figure`` printed in format ``fmt`` over ``box`` (inches), without dates or versions (reproducible bytes)."""
    buffer = io.BytesIO()
    metadata = {"Date": None} if fmt == "svg" else {"Software": None}
    figure.savefig(buffer, format=fmt, bbox_inches=box, metadata=metadata)
    return buffer.getvalue()

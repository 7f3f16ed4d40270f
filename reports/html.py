"""The report's HTML: one ``string.Template`` page, filled with escaped pieces.

The page is self-contained: the style sheet and a tiny script are inline, and figures are
``<img>`` elements whose source is an SVG data URI, so the file works offline. The
script marks ``<body>`` with ``data-images="ok"`` (or ``"broken"``) once every image has
loaded, which the browser test reads. Links to the PNG, SVG and CSV files beside the
report are extras; the page reads fine without them.

>>> cell(0.6124, "pct"), cell(4000.0, "int"), cell(None, "f2"), cell(0.0001, "p"), cell(True, "text")
('61.2%', '4,000', '-', '<0.001', 'yes')
"""

from __future__ import annotations

import html
import math
from string import Template
from typing import TYPE_CHECKING, Any

import numpy as np

from simgin.statistics.formats import percent

if TYPE_CHECKING:
    from .document import Report, ReportFigure, ReportTable

PAGE = Template(
    """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="simgin $version">
<title>$title</title>
<style>
$css
</style>
</head>
<body data-images="pending">
<header>
<p class="kicker">simgin report &middot; $kind</p>
<h1>$title</h1>
<table class="facts">
$facts
</table>
</header>
<nav>
<h2>Contents</h2>
<ol>
$contents
</ol>
</nav>
<main>
<section id="findings">
<h2>Findings</h2>
<ol class="findings">
$findings
</ol>
</section>
<section id="figures">
<h2>Figures</h2>
$figures
</section>
<section id="tables">
<h2>Tables</h2>
$tables
</section>
</main>
<footer>
<p>Every figure is also in <code>$files/</code> as PNG and SVG, and every table as CSV.
Intervals are 95% unless stated otherwise. Made by simgin $version.</p>
</footer>
<script>
$script
</script>
</body>
</html>
"""
)

CSS = """
:root { --ink: #1d2330; --muted: #5b6475; --line: #d9dee7; --accent: #0072B2; --paper: #ffffff; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1000px; padding: 24px 32px 48px; color: var(--ink); background: var(--paper);
       font: 15px/1.5 -apple-system, "Segoe UI", "DejaVu Sans", Helvetica, Arial, sans-serif; }
h1 { font-size: 28px; margin: 4px 0 16px; }
h2 { font-size: 21px; margin: 36px 0 12px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
h3 { font-size: 17px; margin: 28px 0 8px; }
.kicker { color: var(--muted); text-transform: uppercase; letter-spacing: .08em; font-size: 12px; margin: 0; }
table { border-collapse: collapse; font-size: 13px; font-variant-numeric: tabular-nums; }
table.facts td { padding: 2px 16px 2px 0; vertical-align: top; }
table.facts td:first-child { color: var(--muted); white-space: nowrap; }
table.data { width: 100%; margin: 6px 0 4px; }
table.data th, table.data td { padding: 4px 8px; border-bottom: 1px solid var(--line); text-align: right; }
table.data th { background: #f3f5f9; font-weight: 600; }
table.data th.text, table.data td.text { text-align: left; }
.table-wrap { overflow-x: auto; }
nav ol { columns: 2; margin: 0; padding-left: 20px; }
ol.findings li { margin-bottom: 6px; }
figure { margin: 24px 0 36px; }
figure img { display: block; max-width: 100%; height: auto; margin: 0 auto; }
figcaption { margin-top: 8px; color: var(--ink); }
figcaption .files, p.files { color: var(--muted); font-size: 13px; }
a { color: var(--accent); }
.note { color: var(--muted); font-size: 13px; margin: 2px 0 0; }
footer { margin-top: 48px; color: var(--muted); font-size: 13px; border-top: 1px solid var(--line); }
@media print { nav { display: none; } figure { break-inside: avoid; } }
""".strip()

SCRIPT = """
window.addEventListener("load", function () {
  var images = Array.prototype.slice.call(document.images);
  var loaded = images.filter(function (img) { return img.complete && img.naturalWidth > 0; }).length;
  var svgs = Array.prototype.slice.call(document.querySelectorAll("svg"));
  var drawn = svgs.filter(function (svg) { return svg.getBoundingClientRect().width > 0; }).length;
  var body = document.body;
  body.setAttribute("data-images-total", String(images.length + svgs.length));
  body.setAttribute("data-images-loaded", String(loaded + drawn));
  body.setAttribute("data-images", loaded === images.length && drawn === svgs.length ? "ok" : "broken");
});
""".strip()


def esc(text: Any) -> str:
    """HTML-escape any value."""
    return html.escape(str(text), quote=True)


def cell(value: Any, fmt: str) -> str:
    """One table cell's text in the given format; missing values are ``'-'``."""
    if fmt == "text":
        if isinstance(value, bool | np.bool_):
            return "yes" if value else "no"
        missing = value is None or (isinstance(value, float) and value != value)
        return "-" if missing else str(value)
    if value is None or isinstance(value, str):
        return "-" if value is None else value
    try:
        number = float(value)
    except (TypeError, ValueError):
        return str(value)
    if not math.isfinite(number):
        return "-"
    if fmt == "pct":
        return percent(number)
    if fmt == "int":
        return f"{number:,.0f}"
    if fmt == "p":
        return "<0.001" if number < 0.001 else f"{number:.3f}"
    digits = int(fmt[1:]) if fmt.startswith("f") and fmt[1:].isdigit() else 3
    return f"{number:,.{digits}f}"


def anchor_id(name: str) -> str:
    """An element id from a figure or table name."""
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in name)


def figure_html(number: int, figure: ReportFigure, files: str, png: bool = True) -> str:
    """A ``<figure>`` with the embedded SVG image, its numbered caption and links to its files (the PNG only
    when it is written)."""
    width, height = figure.size_px
    size = f' width="{width}" height="{height}"' if width and height else ""
    formats = ("png", "svg") if png else ("svg",)
    links = [f'<a href="{esc(files)}/{esc(figure.name)}.{fmt}">{fmt.upper()}</a>' for fmt in formats]
    if figure.table:
        links.append(f'<a href="{esc(files)}/{esc(figure.table)}.csv">data (CSV)</a>')
    return (
        f'<figure id="fig-{anchor_id(figure.name)}">\n'
        f'<img src="{figure.svg_data_uri}" alt="{esc(figure.title)}: {esc(figure.caption)}"{size}>\n'
        f"<figcaption><strong>Figure {number}. {esc(figure.title)}.</strong> {esc(figure.caption)} "
        f'<span class="files">{" &middot; ".join(links)}</span></figcaption>\n'
        "</figure>"
    )


def table_html(table: ReportTable, files: str) -> str:
    """A shown table as HTML (its shown columns only) with a link to the full CSV."""
    columns = [c for c in table.shown if c in table.frame.columns]
    head = "".join(
        f'<th class="{"text" if table.shown[c] == "text" else "num"}">{esc(c.replace("_", " "))}</th>' for c in columns
    )
    body = []
    for row in table.frame[columns].itertuples(index=False):
        cells = "".join(
            f'<td class="{"text" if table.shown[c] == "text" else "num"}">{esc(cell(v, table.shown[c]))}</td>'
            for c, v in zip(columns, row, strict=True)
        )
        body.append(f"<tr>{cells}</tr>")
    note = f'<p class="note">{esc(table.note)}</p>' if table.note else ""
    return (
        f'<h3 id="table-{anchor_id(table.name)}">{esc(table.title)}</h3>\n'
        f'<div class="table-wrap"><table class="data">\n<thead><tr>{head}</tr></thead>\n<tbody>\n'
        + "\n".join(body)
        + "\n</tbody></table></div>\n"
        f'{note}<p class="files"><a href="{esc(files)}/{esc(table.name)}.csv">{esc(table.name)}.csv</a>'
        f" (all columns)</p>"
    )


def render_report(report: Report) -> str:
    """The whole page of a report."""
    from simgin import __version__

    files = report.files_dir
    facts = "\n".join(f"<tr><td>{esc(k)}</td><td>{esc(v)}</td></tr>" for k, v in report.facts)
    contents = [
        f'<li><a href="#fig-{anchor_id(f.name)}">Figure {i}. {esc(f.title)}</a></li>'
        for i, f in enumerate(report.figures, 1)
    ]
    shown = [t for t in report.tables if t.shown]
    contents += [f'<li><a href="#table-{anchor_id(t.name)}">{esc(t.title)}</a></li>' for t in shown]
    findings = "\n".join(
        f'<li><a href="#fig-{anchor_id(f.name)}">{esc(f.title)}</a>: {esc(f.caption)}</li>' for f in report.figures
    )
    figures = "\n".join(figure_html(i, f, files, report.png) for i, f in enumerate(report.figures, 1))
    tables = [table_html(t, files) for t in shown]
    others = [t for t in report.tables if not t.shown]
    if others:
        links = ", ".join(
            f'<a href="{esc(files)}/{esc(t.name)}.csv">{esc(t.name)}.csv</a> ({esc(t.title)})' for t in others
        )
        tables.append(f'<h3 id="table-more">More tables (CSV)</h3>\n<p class="files">{links}</p>')
    return PAGE.substitute(
        version=esc(__version__),
        title=esc(report.title),
        kind=esc(report.kind),
        css=CSS,
        facts=facts,
        contents="\n".join(contents),
        findings=findings or "<li>This result has no data to plot.</li>",
        figures=figures or "<p>No figures.</p>",
        tables="\n".join(tables),
        files=esc(files),
        script=SCRIPT,
    )

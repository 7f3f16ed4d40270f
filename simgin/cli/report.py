"""The ``simgin report`` command: a run's output directory -> one self-contained HTML file.

It is registered on the root group by :mod:`simgin.cli.main` from :data:`COMMANDS`; the work is
done by :func:`simgin.reports.build.write_report`. This module imports nothing from
:mod:`simgin.cli.main`, so it can be imported first without an import cycle.
"""

from __future__ import annotations

import json
from pathlib import Path

import click


@click.command(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.argument("directory", metavar="DIR", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="HTML file to write  [default: DIR/report.html]; figures and tables go to <name>_files/ beside it.",
)
@click.option(
    "--png/--no-png",
    default=True,
    show_default=True,
    help="Write each figure as PNG beside its SVG. The HTML embeds the SVG; --no-png writes the report faster.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the written paths as JSON.")
def report(directory: Path, output: Path | None, png: bool, as_json: bool) -> None:
    """Write a self-contained HTML report of a run directory.

    DIR is the --out directory of 'simgin match', 'tournament', 'compare', 'sweep', 'tune' or
    'tune-rules'. The report is one HTML file (figures embedded, works offline) with a one-line finding in
    numbers under every figure; each figure is also written as SVG and PNG (--no-png: SVG only) and
    each table as CSV in a folder beside it (report_files/ for report.html).

    A sweep's report opens with the study's answer: per grid switch, the first-named player's
    win rate across its values and its paired test against the baseline (Holm-adjusted), the
    significant differences with their 95% intervals, and heat maps of each pair of switches.
    A tune-rules report opens with the final comparison of the found and the start rules.

    \b
    Example:
      simgin tournament simple random --hands 2000 --out demo-run --quiet
      simgin report demo-run -o demo-run/report.html
    """
    from simgin.reports.build import write_report

    if not directory.is_dir():
        raise click.ClickException(
            f"{directory}: no such directory; give the --out directory of a finished "
            "'simgin match', 'tournament', 'compare', 'sweep', 'tune' or 'tune-rules'"
        )
    try:
        files = write_report(directory, output, png=png)
    except ValueError as error:
        raise click.ClickException(" ".join(str(error).split())) from None
    except OSError as error:
        raise click.ClickException(f"cannot write the report: {error.strerror or error}: {error.filename}") from None
    if as_json:
        click.echo(json.dumps(files.to_dict(), indent=2))
        return
    folder = files.figures[0].parent if files.figures else (files.tables[0].parent if files.tables else None)
    formats = "PNG, SVG" if png else "SVG"
    figures = len({path.stem for path in files.figures})
    extra = f", {figures} figures ({formats}) and {len(files.tables)} tables (CSV) in {folder}" if folder else ""
    click.echo(f"wrote {files.html}{extra}")


COMMANDS = (report,)

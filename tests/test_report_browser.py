"""The report in a real browser: headless Chromium opens it offline, every image loads, and a screenshot is saved.

Needs Debian's ``chromium``. Without it the test is skipped with the reason and the command to install
it (a fresh machine runs the suite), unless ``SIMGIN_REQUIRE_BROWSER=1``: then a missing browser fails
the test, so it cannot hide a broken report. ``.ci/run`` installs Chromium and sets that variable.
The report's inline script marks ``<body>`` with ``data-images="ok"`` once every image has loaded
with a natural width above 0; ``--dump-dom`` prints the DOM after the page's load event.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from report_results import synthetic_result, synthetic_sweep
from simgin.reports.build import write_report

from simgin.running.results import save_result

CHROMIUM = "/usr/bin/chromium"
WINDOW = (1280, 4000)


REQUIRE = "SIMGIN_REQUIRE_BROWSER"


def chromium() -> str:
    """The Chromium executable; without it a skipped test, or a failed one when ``SIMGIN_REQUIRE_BROWSER=1``."""
    path = CHROMIUM if Path(CHROMIUM).is_file() else shutil.which("chromium")
    if path is None:
        reason = (
            f"{CHROMIUM} is missing: install Debian's chromium to run the browser test "
            "(apt-get update && apt-get install -y chromium; .ci/run does this)"
        )
        if os.environ.get(REQUIRE) == "1":
            pytest.fail(f"{reason}; {REQUIRE}=1 requires it", pytrace=False)
        pytest.skip(reason)
    return path


def run_chromium(profile: Path, *args: str) -> subprocess.CompletedProcess:
    command = [
        chromium(),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={profile}",
        f"--window-size={WINDOW[0]},{WINDOW[1]}",
        *args,
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, f"chromium exited with {done.returncode}: {done.stderr[-2000:]}"
    return done


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


def test_a_missing_browser_skips_the_test_unless_it_is_required(monkeypatch, tmp_path):
    monkeypatch.setattr(sys.modules[__name__], "CHROMIUM", str(tmp_path / "no-chromium"))
    monkeypatch.setattr(shutil, "which", lambda name: None)
    monkeypatch.delenv(REQUIRE, raising=False)
    with pytest.raises(pytest.skip.Exception, match="no-chromium is missing: install Debian's chromium"):
        chromium()
    monkeypatch.setenv(REQUIRE, "1")
    with pytest.raises(pytest.fail.Exception, match="SIMGIN_REQUIRE_BROWSER=1 requires it"):
        chromium()


@pytest.mark.slow  # over a second: the long tier (tests/tiers.py)
@pytest.mark.parametrize("kind", ["tournament", "sweep", "analysis"])
def test_report_in_headless_chromium(kind, tmp_path):
    chromium()  # skip (or fail) before building the report
    directory = tmp_path / "run"
    if kind == "analysis":  # issue 34: the report of simgin analyse, its figures loaded in the browser
        import simgin

        simgin.analyse("simple", "random", hands=6, worlds=8, workers=1, out=directory)
    else:
        save_result(directory, synthetic_result("tournament") if kind == "tournament" else synthetic_sweep())
    html_path = write_report(directory, tmp_path / "report.html").html
    figures = html_path.read_text().count("<figure ")
    assert figures >= 3
    url = html_path.resolve().as_uri()

    dom = run_chromium(tmp_path / "profile-dom", "--dump-dom", url).stdout
    body = re.search(r"<body([^>]*)>", dom)
    assert body, f"no <body> in the DOM Chromium dumped: {dom[:500]}"
    attributes = dict(re.findall(r'([\w-]+)="([^"]*)"', body.group(1)))
    assert attributes.get("data-images") == "ok", f"images did not all load: {attributes}"
    assert attributes["data-images-loaded"] == attributes["data-images-total"] == str(figures)

    screenshot = tmp_path / f"report-{kind}.png"
    run_chromium(tmp_path / "profile-shot", f"--screenshot={screenshot}", url)
    assert screenshot.is_file(), f"Chromium wrote no screenshot to {screenshot}"
    assert png_size(screenshot) == WINDOW
    from PIL import Image

    with Image.open(screenshot) as image:
        top = image.convert("L").crop((0, 0, WINDOW[0], 1600))
        dark = sum(top.histogram()[:128])
    assert dark > 5000, "the screenshot's first screens are almost blank"

"""The report in a real browser: headless Chromium opens it offline, every image loads, and a screenshot is saved.

Needs Debian's ``chromium`` (``.ci/run`` installs it where it is missing). Without it the test fails
with the command to install it rather than skipping, so a missing browser cannot hide a broken report.
The report's inline script marks ``<body>`` with ``data-images="ok"`` once every image has loaded
with a natural width above 0; ``--dump-dom`` prints the DOM after the page's load event.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from simgin.reports.build import write_report
from test_report import synthetic_result, synthetic_sweep

from simgin.results import save_result

CHROMIUM = "/usr/bin/chromium"
WINDOW = (1280, 4000)


def chromium() -> str:
    """The Chromium executable, or a failed test saying how to install it."""
    path = CHROMIUM if Path(CHROMIUM).is_file() else shutil.which("chromium")
    if path is None:
        pytest.fail(
            f"{CHROMIUM} is missing: install Debian's chromium to run the browser test "
            "(apt-get update && apt-get install -y chromium; .ci/run does this)",
            pytrace=False,
        )
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


@pytest.mark.parametrize("kind", ["tournament", "sweep"])
def test_report_in_headless_chromium(kind, tmp_path):
    directory = tmp_path / "run"
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

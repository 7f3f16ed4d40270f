"""Fixtures shared by more than one test module."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from simgin.players import eaai, programs

JAVA = Path(__file__).resolve().parent / "java"


@pytest.fixture(scope="session")
def classpath(tmp_path_factory):
    """The stand-in EAAI framework and the project's Java test players (tests/java), compiled once; the
    adapter's cache in a fresh folder. Without a JDK the EAAI tests are skipped, and fail under CI."""
    if shutil.which("javac") is None or shutil.which("java") is None:
        reason = "no JDK (javac and java) on the PATH: the EAAI tests need one (apt-get install default-jdk-headless)"
        if os.environ.get("CI") or os.environ.get("SIMGIN_CI"):
            pytest.fail(f"{reason}; .ci/run installs it")
        pytest.skip(reason)
    classes = tmp_path_factory.mktemp("eaai-classes")
    sources = [str(path) for path in sorted(JAVA.rglob("*.java"))]
    subprocess.run(["javac", "-nowarn", "-d", str(classes), *sources], check=True, capture_output=True)
    cache = tmp_path_factory.mktemp("simgin-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SIMGIN_CACHE_DIR", str(cache))  # workers started from here inherit it
        eaai.compiled_host.cache_clear()
        yield str(classes)
    eaai.compiled_host.cache_clear()
    programs.close_programs()

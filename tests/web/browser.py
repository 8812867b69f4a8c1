"""Helpers for the browser tests: the system's Chromium driven by Playwright (never a downloaded browser).

Chromium is found through $CHROMIUM (a path or a command name), else as `chromium` or
`chromium-browser` on the PATH, else at Debian's /usr/bin/chromium. Where there is none the browser
tests are skipped on a developer's machine, and fail in CI (CI=true), where a skip would hide them.
"""

from __future__ import annotations

import os
import shutil

import pytest

NAMES = ("chromium", "chromium-browser")
DEBIAN = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}


def in_ci() -> bool:
    """True where CI=true (or 1, yes): missing test tools are then an error, not a skip."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def missing(reason: str) -> None:
    """Skip the test on a developer's machine; fail it in CI."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true: the browser tests must run here)", pytrace=False)
    pytest.skip(reason)


def find_chromium() -> str | None:
    """The Chromium to drive: $CHROMIUM, then the PATH, then Debian's path; None when there is none."""
    chosen = os.environ.get("CHROMIUM", "").strip()
    if chosen:
        return shutil.which(chosen)
    for name in (*NAMES, DEBIAN):
        found = shutil.which(name)
        if found:
            return found
    return None


def sync_api():
    """playwright.sync_api, or a skip (a failure in CI) when Playwright is not installed."""
    try:
        from playwright import sync_api
    except ImportError:
        missing("Playwright is not installed (pip install -e '.[dev]')")
    return sync_api


def launch(playwright):
    """Headless Chromium from the system's packages."""
    path = find_chromium()
    if path is None:
        missing("no Chromium found: apt-get install chromium, or set CHROMIUM=/path/to/chromium")
    return playwright.chromium.launch(executable_path=path, args=ARGS, headless=True)

"""Helpers for the browser tests: Debian's Chromium driven by Playwright (never a downloaded browser)."""

from __future__ import annotations

import shutil

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}


def launch(playwright):
    """Headless Chromium from the system's packages; skips the test when it is not installed."""
    if not shutil.which(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    return playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)

"""The browser tests find Chromium on the PATH or through $CHROMIUM, and fail (not skip) in CI without it."""

from __future__ import annotations

import pytest

from tests.web import browser


def test_chromium_is_found_on_the_path(tmp_path, monkeypatch):
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.delenv("CHROMIUM", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(browser, "DEBIAN", str(tmp_path / "not-here"))
    assert browser.find_chromium() == str(fake)


def test_chromium_is_found_through_the_variable(tmp_path, monkeypatch):
    fake = tmp_path / "my-chrome"
    fake.write_text("#!/bin/sh\n")
    fake.chmod(0o755)
    monkeypatch.setenv("CHROMIUM", str(fake))
    assert browser.find_chromium() == str(fake)


def test_a_missing_chromium_fails_in_ci_and_skips_elsewhere(monkeypatch):
    monkeypatch.setenv("CHROMIUM", "/no/such/chromium")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="no Chromium found"):
        browser.launch(None)
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception):
        browser.launch(None)

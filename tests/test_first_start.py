"""A clean first start: the Makefile's venv, what serve installs, one data folder, a quiet start-up log."""

from __future__ import annotations

import logging
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from companion.cli import build_parser
from companion.commands.calibrate import settings_for
from companion.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parent.parent
needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch) -> Path:
    home = tmp_path / "xdg"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


def dry_make(folder: Path, target: str) -> subprocess.CompletedProcess:
    """`make -n target` in a copy of the Makefile: what it would run, and what it says."""
    shutil.copy(ROOT / "Makefile", folder / "Makefile")
    shutil.copy(ROOT / "pyproject.toml", folder / "pyproject.toml")
    return subprocess.run(["make", "-n", target], cwd=folder, capture_output=True, text=True, timeout=60)


@needs_make
def test_a_venv_made_by_an_old_python_is_made_again_with_a_message(tmp_path):
    old = tmp_path / ".venv" / "bin" / "python"
    old.parent.mkdir(parents=True)
    old.write_text('#!/bin/sh\n[ "$1" = --version ] && { echo "Python 3.9.2"; exit 0; }\nexit 1\n')
    old.chmod(0o755)
    done = dry_make(tmp_path, "serve")
    assert done.returncode == 0, done.stderr
    assert "made by Python 3.9.2" in done.stdout and "making .venv again" in done.stdout
    assert not (tmp_path / ".venv").exists()
    assert "-m venv .venv" in done.stdout


@needs_make
def test_serve_installs_only_what_serving_needs_and_test_adds_the_test_tools(tmp_path):
    serve = dry_make(tmp_path, "serve").stdout
    assert "pip install -q -e .\n" in serve and "[dev]" not in serve
    test = dry_make(tmp_path, "test").stdout
    assert "pip install -q -e '.[dev]'" in test
    assert "pytest" in test and "ruff check" in test


def test_ci_runs_make_test_with_ci_set():
    script = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^export CI=true$", script, re.M)
    assert script.rstrip().endswith("make test")


def test_the_license_form_builds_with_the_setuptools_the_project_asks_for():
    """A bare SPDX string ("MIT") needs setuptools 77; the table form builds on Bookworm's 66."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    floor = re.fullmatch(r"setuptools>=(\d+)", project["build-system"]["requires"][0])
    assert floor is not None
    license_ = project["project"]["license"]
    if isinstance(license_, str):
        assert int(floor.group(1)) >= 77
    else:
        assert license_ == {"text": "MIT"} and int(floor.group(1)) <= 66


def test_calibrate_writes_into_the_data_folder_serve_reads(data_home):
    args = build_parser().parse_args(["calibrate", "treehouse"])
    assert settings_for(args).data_dir == load_settings(None, {}).data_dir == data_home / "table-companion"
    config = data_home / "config.toml"
    config.write_text('data_dir = "/tmp/elsewhere-table"\n')
    args = build_parser().parse_args(["calibrate", "treehouse", "--config", str(config)])
    assert settings_for(args).data_dir == load_settings(config, {}).data_dir == Path("/tmp/elsewhere-table")


def test_start_up_log_names_the_data_folder_and_the_phone_address_without_alarming_noise(
        tmp_path, caplog, capfd):
    from companion.commands.serve import Companion

    settings = Settings(host="0.0.0.0", port=0, camera="auto", data_dir=tmp_path, gpio="auto")
    with caplog.at_level(logging.INFO):
        running = Companion(settings)
        try:
            if running.camera_name != "sim" or running.hardware is not None:
                pytest.skip("this machine has a camera or GPIO: the no-hardware log cannot be seen here")
            running.announce()
        finally:
            running.close()
    said = "\n".join(r.getMessage() for r in caplog.records if r.levelno >= logging.INFO)
    assert f"data folder: {tmp_path.resolve()}" in said
    assert "no camera found: simulated camera" in said
    assert "no GPIO: buttons on the page" in said
    phones = re.search(r"phones open (http://\S+)", said)
    assert phones is not None
    from web.address import lan_address

    if lan_address():
        assert lan_address() in phones.group(1)
    out = capfd.readouterr()
    for noise in ("BadPinFactory", "VIDEOIO", "WARN", "Traceback"):
        assert noise not in said + out.err + out.out

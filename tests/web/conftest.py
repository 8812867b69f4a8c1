from typing import NamedTuple

import pytest

import tests.race  # noqa: F401  (registers the "race" game)
from companion.commands.serve import Companion
from companion.settings import Settings
from companion.store import EventStore
from companion.table import TableSession
from tests.web.browser import launch, sync_api
from web.app import create_app
from web.server import WebServer


@pytest.fixture
def session(tmp_path):
    return TableSession(EventStore(tmp_path / "table.sqlite"))


@pytest.fixture
def client(session):
    app = create_app(session, status=lambda: {"camera": "sim", "buttons": "on screen"})
    app.testing = True
    return app.test_client(use_cookies=False)  # each request is its own phone unless it sends a token


class Served(NamedTuple):
    """The web app alone on a real server: `health` is what /api/status reports, changed by a test."""

    session: TableSession
    server: WebServer
    health: dict


@pytest.fixture
def served(session):
    """The web app alone (no camera: the test proposes readings itself) on a free loopback port."""
    health = {"camera": "sim", "camera_error": None, "buttons": "on screen"}
    server = WebServer(create_app(session, status=lambda: dict(health)), host="127.0.0.1", port=0).start()
    yield Served(session, server, health)
    server.close()


@pytest.fixture
def companion(tmp_path):
    """The whole companion: simulated camera, no GPIO, a real server on a free port.

    The rules read the demo camera's dice as these tests expect (Battle Zone's odds of the dice read);
    serve choosing the learned reader is tested in tests/vision/test_calibrate_table.py."""
    settings = Settings(host="127.0.0.1", port=0, camera="sim", data_dir=tmp_path, gpio="off", settle_ms=300,
                        reader="rules")
    running = Companion(settings).start()
    running.server.start()
    yield running
    running.close()


@pytest.fixture
def browser():
    """The system's headless Chromium (tests/web/browser.py finds it)."""
    with sync_api().sync_playwright() as p:
        chromium = launch(p)
        yield chromium
        chromium.close()

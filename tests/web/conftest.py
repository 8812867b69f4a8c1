import pytest

import tests.race  # noqa: F401  (registers the "race" game)
from companion.store import EventStore
from companion.table import TableSession
from web.app import create_app


@pytest.fixture
def session(tmp_path):
    return TableSession(EventStore(tmp_path / "table.sqlite"))


@pytest.fixture
def client(session):
    app = create_app(session, status=lambda: {"camera": "sim", "buttons": "on screen"})
    app.testing = True
    return app.test_client(use_cookies=False)  # each request is its own phone unless it sends a token

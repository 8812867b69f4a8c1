import pytest

from companion.store import EventStore
from companion.table import TableSession


@pytest.fixture
def db(tmp_path):
    """The table session's database file (not yet made)."""
    return tmp_path / "table.sqlite"


@pytest.fixture
def session(db):
    """A table session on a fresh database."""
    return TableSession(EventStore(db))

"""The table session's refusals; each carries the HTTP status the web part answers with."""

from __future__ import annotations


class TableError(Exception):
    """A command that was refused; `status` is the HTTP status the web part answers with."""

    status = 400


class BadCommand(TableError, ValueError):
    status = 400


class NotYourSeat(TableError, PermissionError):
    status = 403


class UnknownTable(TableError, LookupError):
    status = 404


class NotNow(TableError):
    """Stale version, or not allowed in this state: the message says what to do instead."""

    status = 409

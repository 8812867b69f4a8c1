"""How a phone is known: a random token in an HttpOnly, SameSite cookie (or the X-Seat-Token header for
scripts), never in the address (addresses end up in logs and browser history).

The cookie is set when a phone first makes a table, takes a seat or asks to be host; the page's script
cannot read it, and the browser sends it with every request to this companion, the event stream
(EventSource cannot set headers) included.
"""

from __future__ import annotations

import secrets

from flask import Response, request

from companion.table import BadCommand

TOKEN_HEADER = "X-Seat-Token"
#: The longest phone token accepted, in characters (the companion's are 22).
MAX_TOKEN_CHARS = 128
COOKIE = "phone"
COOKIE_MAX_AGE_S = 30 * 24 * 3600


def token() -> str | None:
    """This request's phone token: the header if a script sends one, else the cookie; None: a stranger.
    One that this companion cannot have given (é, a control character, a kilobyte) is a BadCommand."""
    raw = request.headers.get(TOKEN_HEADER) or request.cookies.get(COOKIE) or None
    if raw is None:
        return None
    if len(raw) > MAX_TOKEN_CHARS or not raw.isascii() or not raw.isprintable():
        raise BadCommand("that seat token is not one this companion gives: take a seat again")
    return raw


def token_or_new() -> str:
    """This phone's token, or a new one (set it with `remember`)."""
    return token() or secrets.token_urlsafe(16)


def remember(response: Response, phone: str) -> Response:
    """Keep the phone's token in its cookie (unless a script sent it in the header)."""
    if request.headers.get(TOKEN_HEADER) is None and request.cookies.get(COOKIE) != phone:
        response.set_cookie(COOKIE, phone, max_age=COOKIE_MAX_AGE_S, httponly=True, samesite="Strict",
                            path="/")
    return response

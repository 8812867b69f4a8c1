"""The Flask app factory: the phone pages, the JSON API under /api, and the live event streams.

Every command goes to the table session; this module only translates HTTP to calls and errors to
honest status codes: 400 bad input, 403 not your seat, 404 unknown, 409 stale or not allowed now,
413 too big. Bad input never yields a 500.
"""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Callable
from typing import Any

import segno
from flask import Flask, Response, abort, jsonify, redirect, render_template, request, url_for
from werkzeug.exceptions import HTTPException

from companion import advice, games, seating
from companion.table import BadCommand, TableError, TableSession

from .address import is_loopback, phone_urls
from .calibration_routes import add_calibration_routes
from .host_routes import add_host_routes
from .limits import RateLimit
from .live import Broadcaster, StreamsBusy, live_body
from .phone import remember, token, token_or_new

log = logging.getLogger(__name__)

MAX_BODY_BYTES = 64 * 1024
#: Lists and objects nested deeper than this in a request body are refused (an action needs 4).
MAX_JSON_DEPTH = 16
TABLES_LISTED = 8  # the front page lists the running table and this many recent ones
#: a client may make this many tables at once, then one every TABLE_EVERY_S seconds (else 429)
TABLES_BURST, TABLE_EVERY_S = 6, 20.0


def create_app(session: TableSession, status: Callable[[], dict[str, Any]] | None = None,
               calibrator: Any = None) -> Flask:
    """The web app for one table session; `status()` reports camera and buttons for the page;
    `calibrator`: the camera's calibration step for the host (web/calibration_routes.py), or None."""
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY_BYTES
    app.json.sort_keys = False
    live = Broadcaster()
    session.listen(live.tell)
    app.extensions["live"] = live
    app.extensions["session"] = session

    creating = RateLimit(TABLES_BURST, TABLE_EVERY_S)

    def body() -> dict[str, Any]:
        return _json_object(request.get_data(cache=True))

    def version(data: dict[str, Any]) -> int:
        value = data.get("version")
        if not isinstance(value, int) or isinstance(value, bool):
            raise BadCommand('"version" (a whole number: the table version you saw) is required')
        return value

    def applied(table_id: str, texts: list[str]):
        """The answer to a command that went through: what it did, and the table's new version."""
        return jsonify(texts=texts, version=session.get(table_id).version)

    def page_error(status: int, message: str):
        """A page a person reads, with a way back, for a wrong code or link (the API answers JSON)."""
        titles = {404: "Not found", 400: "That did not work", 403: "Not allowed", 409: "Not now"}
        heading = titles.get(status, "Something went wrong")
        return render_template("error.html", status=status, heading=heading, message=message), status

    @app.errorhandler(TableError)
    def table_error(err: TableError):
        if not request.path.startswith("/api/"):
            return page_error(err.status, _sentence(str(err)))
        return jsonify(error=str(err)), err.status

    @app.errorhandler(StreamsBusy)
    def busy(err: StreamsBusy):
        return jsonify(error=str(err)), 503, {"Retry-After": str(err.retry_after_s)}

    @app.errorhandler(HTTPException)
    def http_error(err: HTTPException):
        if request.path.startswith("/api/"):
            return jsonify(error=err.description), err.code
        if err.code == 404:
            return page_error(404, "There is no page at this address. Check the link, or pick a table below.")
        return page_error(err.code or 400, _sentence(err.description or err.name))

    @app.context_processor
    def storage_problems() -> dict[str, Any]:
        """What the store set aside, shown at the top of every page until someone deals with it."""
        return {"storage_problems": session.problems}

    @app.errorhandler(Exception)
    def crash(err: Exception):
        log.exception("unexpected error on %s", request.path)
        return jsonify(error="the companion hit a bug; nothing was changed"), 500

    # ---- pages --------------------------------------------------------------------------------------
    @app.get("/")
    def index():
        return render_template("index.html", games=_games(), tables=_tables(session))

    @app.get("/t/<table_id>")
    def table_page(table_id: str):
        table = session.get(table_id)
        local = is_loopback(request.host.rsplit(":", 1)[0])
        member = seating.is_member(table, token())  # the join code is shown to the host and seats only
        return render_template("table.html", table=table, title=table.game.title, member=member,
                               phones=join_urls(table) if member else [], opened_locally=local and member)

    @app.get("/favicon.ico")
    def favicon():
        return redirect(url_for("static", filename="favicon.svg"), code=301)

    def join_urls(table) -> list[str]:
        """The join link as phones can open it: on this machine's LAN address (and mDNS name), not on
        the name this page was opened with, which may be localhost."""
        port = int(request.environ.get("SERVER_PORT") or 80)
        path = url_for("join", code=table.code)
        return [base + path for base in phone_urls(port)] or [request.host_url.rstrip("/") + path]

    @app.get("/j/<code>")
    def join(code: str):
        # The code rides in the fragment (never sent to a server, so never logged): the page takes a seat
        # with it.
        table = session.by_code(code)
        return redirect(url_for("table_page", table_id=table.id) + "#code=" + table.code)

    # ---- API ----------------------------------------------------------------------------------------
    @app.get("/api/status")
    def api_status():
        return jsonify({"current": session.current, "storage_problems": session.problems,
                        **(status() if status else {})})

    @app.get("/api/games")
    def api_games():
        return jsonify(_games())

    @app.get("/api/tables")
    def api_tables():
        return jsonify(_tables(session))

    @app.post("/api/tables")
    def api_create():
        data = body()
        name = data.get("game")
        if not isinstance(name, str):
            raise BadCommand('"game" is required: ' + ", ".join(games.names()))
        if name not in games.names():
            raise BadCommand(f"unknown game {name!r}; known: {', '.join(games.names())}")
        wait_s = creating.wait_s(request.remote_addr or "")
        if wait_s:
            reply = jsonify(error=f"too many new tables from this device: try again in {wait_s} s")
            reply.status_code, reply.headers["Retry-After"] = 429, str(wait_s)
            return reply
        phone = token_or_new()
        table = session.create(name, data.get("players"), data.get("options") or {}, token=phone)
        current = session.current == table.id
        reply = jsonify(id=table.id, code=table.code, url=url_for("table_page", table_id=table.id),
                        token=phone, current=current,
                        text=None if current else "Another table's game is in progress: the camera and "
                        "buttons stay with it until its host hands them over")
        reply.status_code = 201
        return remember(reply, phone)

    @app.get("/api/tables/<table_id>")
    def api_snapshot(table_id: str):
        return jsonify(session.snapshot(table_id, token()))

    @app.post("/api/tables/<table_id>/actions")
    def api_act(table_id: str):
        data = body()
        action = data.get("action")
        if not isinstance(action, dict):
            raise BadCommand('"action" (an object with a "type") is required')
        return applied(table_id, session.act(table_id, version(data), action, token() or "", source="phone"))

    @app.post("/api/tables/<table_id>/<press>")
    def api_press(table_id: str, press: str):
        """CONFIRM, RETRY and UNDO: the buttons on the table, pressed on a phone."""
        buttons = {"confirm": session.confirm, "retry": session.retry, "undo": session.undo}
        if press not in buttons:
            abort(404, f"no command {press!r}")
        data = body()
        shown = data.get("reading")
        if press == "confirm" and isinstance(shown, str):  # the phone names the reading it showed
            return applied(table_id, session.confirm(table_id, None, token() or "", reading=shown))
        return applied(table_id, buttons[press](table_id, version(data), token() or "") or [])

    @app.post("/api/tables/<table_id>/correct")
    def api_correct(table_id: str):
        data = body()
        values = data.get("values")
        if not isinstance(values, list):
            raise BadCommand('"values" (the dice, in the order asked) is required')
        return applied(table_id, session.correct(table_id, version(data), values, token() or ""))

    @app.get("/api/tables/<table_id>/odds")
    def api_odds(table_id: str):
        table = session.get(table_id)
        try:
            return jsonify(advice.odds(table.game.name, table.state, dict(request.args)))
        except ValueError as err:
            raise BadCommand(str(err)) from None

    @app.get("/api/tables/<table_id>/photo/<photo_id>.jpg")
    def api_photo(table_id: str, photo_id: str):
        """The photo of one reading; its address is never reused, so no phone shows a cached older roll."""
        table = session.get(table_id)
        photo = table.photo
        if photo is None or table.proposal is None or table.proposal.photo_id != photo_id:
            abort(404, "that reading is gone: the dice were read again or confirmed")
        return Response(photo, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})

    @app.get("/api/tables/<table_id>/qr.svg")
    def api_qr(table_id: str):
        """The join QR code: it holds the code, so only the host and seated phones get it."""
        table = session.get(table_id)
        if not seating.is_member(table, token()):
            abort(403, "only the host and seated phones show the join code")
        url = join_urls(table)[0]
        out = io.BytesIO()
        segno.make(url, error="m").save(out, kind="svg", scale=6, border=2, dark="#111", light="#fff")
        return Response(out.getvalue(), mimetype="image/svg+xml")

    @app.get("/api/tables/<table_id>/log.jsonl")
    def api_log(table_id: str):
        """The game log in `companion replay`'s format, as this phone may see it (TableSession.log_view)."""
        from companion.gamelog import GameLog

        table = session.get(table_id)
        view, actions = session.log_view(table_id, token())
        text = GameLog(table.game.name, table.players, table.options, [(0, a) for a in actions], view).dumps()
        filename = f"{table.game.name}-{table.id}.jsonl"
        return Response(text, mimetype="application/jsonl",
                        headers={"Content-Disposition": f"attachment; filename={filename}",
                                 "Cache-Control": "no-store"})

    @app.get("/api/tables/<table_id>/events")
    def api_events(table_id: str):
        session.get(table_id)
        phone = token()
        client = request.remote_addr or ""
        stream = live.open(table_id, client, phone, lambda: session.snapshot(table_id, phone))
        return Response(live_body(stream, request.environ), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    add_host_routes(app, session, body, applied)
    add_calibration_routes(app, session, calibrator, body)
    return app


def _sentence(text: str) -> str:
    """A message as a sentence: capital first letter, full stop at the end."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def _json_object(raw: bytes) -> dict[str, Any]:
    """The request body as a JSON object, or BadCommand saying what is wrong with it (never a 500)."""
    try:
        data = json.loads(raw)
    except RecursionError:
        raise BadCommand(f"JSON nested too deep: at most {MAX_JSON_DEPTH} levels") from None
    except ValueError:  # not JSON, or not UTF-8
        raise BadCommand("send a JSON object") from None
    if not isinstance(data, dict):
        raise BadCommand("send a JSON object")
    if _depth(data) > MAX_JSON_DEPTH:
        raise BadCommand(f"JSON nested too deep: at most {MAX_JSON_DEPTH} levels")
    return data


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in `value` (a number or text: 0), without recursion."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            todo.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _games() -> list[dict[str, Any]]:
    out = []
    for name in games.names():
        game = games.get(name)
        out.append({"name": name, "title": game.title, "min_players": game.min_players,
                    "max_players": game.max_players, "options": game.options_type().to_json(),
                    "fields": game.options_type.describe(), "players_label": game.players_label})
    return out


def _tables(session: TableSession) -> list[dict[str, Any]]:
    """The running table, then the most recent others (no join codes: an id lets a phone watch only)."""
    running = session.tables.get(session.current or "")
    recent = [t for t in reversed(list(session.tables.values())) if t is not running][:TABLES_LISTED]
    return [{"id": t.id, "game": t.game.name, "title": t.game.title, "players": t.players,
             "over": t.over, "current": t is running}
            for t in ([running] if running else []) + recent]

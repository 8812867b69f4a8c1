"""The API for seats and the host: join with the code, ask for a seat or the host's role, and the host's
commands (approve or decline requests, pass the role on, free a seat, end the game, change options,
start another game, take the camera and buttons). See companion/hosting.py for the rules."""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, url_for

from companion.table import BadCommand, TableSession

from .phone import remember, token, token_or_new


def add_host_routes(app: Flask, session: TableSession, body, done) -> None:
    """Register the routes on `app`; `body()` reads the request's JSON object (or answers 400), and
    `done(table_id, texts)` is the app's answer to a command that went through."""

    def seat_number(data: dict[str, Any]) -> int:
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise BadCommand('"seat" (a number) is required')
        return seat

    @app.post("/api/tables/<table_id>/seats")
    def api_seat(table_id: str):
        """Take a seat with the join code: 201 taken, 202 waiting for the host (or the CONFIRM button)."""
        data = body()
        seat = seat_number(data)
        answer = session.join(table_id, seat, data.get("code"), token_or_new())
        reply = jsonify(seat=seat, **answer)
        reply.status_code = 201 if answer["granted"] else 202
        return remember(reply, answer["token"])

    @app.post("/api/tables/<table_id>/host")
    def api_ask_host(table_id: str):
        """Ask to be host: 201 granted (the table had none), 202 waiting for the host or the button."""
        phone = token_or_new()
        answer = session.request_host(table_id, phone, body().get("code"))
        reply = jsonify(**answer)
        reply.status_code = 201 if answer["granted"] else 202
        return remember(reply, phone)

    @app.post("/api/tables/<table_id>/host/pass")
    def api_pass_host(table_id: str):
        return done(table_id, session.pass_host(table_id, seat_number(body()), token() or ""))

    @app.post("/api/tables/<table_id>/requests/<request_id>/<answer>")
    def api_answer(table_id: str, request_id: str, answer: str):
        if answer not in ("approve", "decline"):
            raise BadCommand("answer a request with approve or decline")
        command = session.approve if answer == "approve" else session.decline
        return done(table_id, command(table_id, request_id, token() or ""))

    @app.post("/api/tables/<table_id>/seats/<int:seat>/free")
    def api_free_seat(table_id: str, seat: int):
        return done(table_id, session.free_seat(table_id, seat, token() or ""))

    @app.post("/api/tables/<table_id>/end")
    def api_end(table_id: str):
        return done(table_id, session.end_game(table_id, token() or ""))

    @app.post("/api/tables/<table_id>/options")
    def api_options(table_id: str):
        return done(table_id, session.set_options(table_id, body().get("options"), token() or ""))

    @app.post("/api/tables/<table_id>/again")
    def api_again(table_id: str):
        options = body().get("options")
        if options is not None and not isinstance(options, dict):
            raise BadCommand("options must be an object")
        table = session.again(table_id, token() or "", options)
        return jsonify(id=table.id, url=url_for("table_page", table_id=table.id),
                       current=session.current == table.id), 201

    @app.post("/api/tables/<table_id>/use")
    def api_use(table_id: str):
        return done(table_id, session.use_here(table_id, token() or ""))

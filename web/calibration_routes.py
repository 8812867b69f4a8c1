"""The API of the calibration step on the host's page: the camera takes the empty table, then one roll
with its values typed, and the names of their colours if the host likes (see companion/calibrating.py).
Only the host of the table the camera serves may use it; the step itself belongs to the composition root,
which hands it to `create_app`."""

from __future__ import annotations

from typing import Any

from flask import Flask, Response, abort, jsonify

from companion.table import BadCommand, NotNow, TableSession

from .phone import token


def add_calibration_routes(app: Flask, session: TableSession, calibrator: Any, body) -> None:
    """`calibrator`: take_empty(), take_roll(values, names), cancel(), turn_picture() (a quarter clockwise),
    view() (the camera's picture now, JPEG), state() and photo_at(id) (a roll photo it learned from or
    refused, or None), or None (no camera). The roll's body: {"values": "3 cream, 5 red,
    1"} as typed, or {"values": [3, 5, 1], "names": ["cream", "red", null]}."""

    @app.post("/api/tables/<table_id>/calibration/<step>")
    def api_calibrate(table_id: str, step: str):
        if step not in ("empty", "roll", "cancel", "turn"):
            raise BadCommand("the calibration's steps are empty, roll, cancel and turn")
        session.may_calibrate(table_id, token() or "")
        if calibrator is None:
            raise NotNow("this companion has no camera to calibrate")
        if step == "empty":
            text = calibrator.take_empty()
        elif step == "roll":
            text = calibrator.take_roll(body().get("values"), body().get("names"))
        elif step == "turn":
            text = calibrator.turn_picture()
        else:
            text = calibrator.cancel()
        return jsonify(text=text, **calibrator.state())

    @app.get("/api/tables/<table_id>/calibration/camera.jpg")
    def api_camera_view(table_id: str):
        """The camera's picture now, for the host to see whether the players' edge is at its bottom."""
        session.may_calibrate(table_id, token() or "")
        if calibrator is None:
            raise NotNow("this companion has no camera to calibrate")
        return Response(calibrator.view(), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})

    @app.get("/api/tables/<table_id>/calibration/photo/<photo_id>.jpg")
    def api_calibration_photo(table_id: str, photo_id: str):
        """The roll the camera was calibrated from, each die boxed, for the host to check its names by, or
        the last roll it refused, each die it read boxed; its address is new with each photo."""
        session.may_calibrate(table_id, token() or "")
        photo = None if calibrator is None else calibrator.photo_at(photo_id)
        if photo is None:
            abort(404, "that calibration photo is gone: the camera was calibrated again, or restarted")
        return Response(photo.jpeg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})

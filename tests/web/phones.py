"""Phones for the API tests: a table made by a host phone, seats taken with the join code."""

from __future__ import annotations


def new_table(client, game: str, players: list[str], **options) -> dict:
    """Make a table; the answer carries its id, code and the host phone's token."""
    res = client.post("/api/tables", json={"game": game, "players": players, "options": options})
    assert res.status_code == 201, res.get_json()
    return res.get_json()


def phone(token: str) -> dict:
    return {"X-Seat-Token": token}


def take_seat(client, table: dict, seat: int, headers: dict | None = None) -> dict:
    """A phone (a new one unless `headers`) takes `seat` with the table's code; returns its headers."""
    res = client.post(f"/api/tables/{table['id']}/seats", json={"seat": seat, "code": table["code"]},
                      headers=headers or {})
    assert res.status_code == 201, res.get_json()
    return phone(res.get_json()["token"])

"""Random requests at every route of the web app: random methods, ids, seat tokens, query strings and
bodies (random JSON, bytes, JSON nested 1,000 deep, commands with legal actions gone wrong). Only a
success or a clear refusal is allowed: a status under 500 and, on the API, a JSON `{"error": ...}`.
`companion bench fuzz` sends many more of the same kind and prints how many got a 5xx."""

from __future__ import annotations

import json
from urllib.parse import quote, urlencode

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.store import EventStore
from companion.table import TableSession
from web.app import create_app
from web.fuzz import GAMES, clear_answer, fuzz

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
WORDS = st.sampled_from(["bed", "grill", "red-L-1", "a1", "roll", "é", "\x7f", "0", "6.0", "", "a" * 300])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), WORDS,
                    st.text(max_size=8))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.one_of(WORDS, st.text(max_size=6)), inner, max_size=4)),
    max_leaves=12)
#: What a header can carry: Latin-1 text (servers decode header bytes as Latin-1), controls but no newline.
HEADER_TEXT = st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF), min_size=1, max_size=40)


@pytest.fixture(scope="module")
def app_and_tables(tmp_path_factory):
    session = TableSession(EventStore(tmp_path_factory.mktemp("fuzz") / "table.sqlite"))
    app = create_app(session, status=lambda: {"camera": "sim", "buttons": "on screen"})
    client = app.test_client()
    tables = []
    for game, players in GAMES:
        made = client.post("/api/tables", json={"game": game, "players": players}).get_json()
        tokens = [client.post(f"/api/tables/{made['id']}/seats", json={"seat": s}).get_json()["token"]
                  for s in range(len(players))]
        tables.append((made["id"], made["code"], tokens))
    rules = sorted(r.rule for r in app.url_map.iter_rules() if r.endpoint != "static")
    return client, rules, tables


@st.composite
def requests(draw, rules, tables):
    table_id, code, tokens = draw(st.sampled_from(tables))
    real = {"table_id": table_id, "code": code, "press": draw(st.sampled_from(["confirm", "retry", "undo"]))}
    parts = []
    for piece in draw(st.sampled_from(rules)).strip("/").split("/"):
        if piece.startswith("<"):
            name = piece.strip("<>").split(":")[-1].split(".")[0]
            value = draw(st.one_of(st.just(real.get(name, "1")), st.text(min_size=1, max_size=12)))
            piece = quote(value, safe="") + (".jpg" if piece.endswith(".jpg") else "")
        parts.append(piece)
    query = draw(st.dictionaries(st.sampled_from(["token", "attacker", "target", "fighters", "x"]),
                                 st.text(max_size=10), max_size=3))
    path = "/" + "/".join(parts)
    token = draw(st.one_of(st.none(), st.sampled_from(tokens), HEADER_TEXT))
    body = draw(st.one_of(
        JSON.map(lambda v: json.dumps(v).encode()),
        st.builds(lambda a, v: json.dumps({"version": v, "action": a, "values": a, "seat": a}).encode(),
                  JSON, st.integers(0, 8)),
        st.binary(max_size=40),
        st.integers(900, 1100).map(lambda n: ("[" * n + "]" * n).encode()),
    ))
    method = draw(st.sampled_from(["GET", "POST", "POST", "PUT", "DELETE"]))
    return method, path + ("?" + urlencode(query) if query else ""), token, body


@FUZZ
@given(data=st.data())
def test_random_requests_at_every_route_get_a_success_or_a_clear_refusal(app_and_tables, data):
    client, rules, tables = app_and_tables
    method, url, token, body = data.draw(requests(rules, tables))
    res = client.open(url, method=method, data=body if method != "GET" else None,
                      headers={"X-Seat-Token": token} if token is not None else {},
                      content_type="application/json")
    answer = b"" if "event-stream" in (res.content_type or "") else res.get_data()
    res.close()
    assert clear_answer(method, url.split("?")[0], res.status_code, answer, res.content_type or ""), (
        res.status_code, answer[:300])


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_bench_fuzzer_playing_real_games_sees_no_5xx(seed):
    report = fuzz(300, seed)
    assert report.sent >= 300
    assert report.five_xx == 0, report.server_errors
    assert report.unclear_count == 0, report.unclear

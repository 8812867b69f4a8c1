"""The phone page at 360 x 740, driven in Chromium as players would (issue 26, points 1, 6, 7, 9, 12, 13).

Two kinds of server: the whole companion with its simulated camera (photos and readings), and the web
app alone with no camera, where the test proposes readings itself (nothing moves unless it says so).
"""

from __future__ import annotations

import json
import re
import urllib.parse
import urllib.request

import cv2
import numpy as np
import pytest

import tests.race  # noqa: F401  (registers the "race" game)
from companion.commands.serve import Companion
from companion.settings import Settings
from companion.store import EventStore
from companion.table import TableSession
from tests.web.browser import SMALL_PHONE, launch, sync_api
from web.address import is_loopback, lan_address
from web.app import create_app
from web.server import WebServer

pytestmark = pytest.mark.browser
WAIT_MS = 15_000


@pytest.fixture
def browser():
    with sync_api().sync_playwright() as p:
        chromium = launch(p)
        yield chromium
        chromium.close()


@pytest.fixture
def companion(tmp_path):
    """The whole companion: simulated camera, no GPIO, a real server on a free port."""
    settings = Settings(host="127.0.0.1", port=0, camera="sim", data_dir=tmp_path, gpio="off", settle_ms=300)
    running = Companion(settings).start()
    running.server.start()
    yield running
    running.close()


@pytest.fixture
def still(tmp_path):
    """The web app alone: no camera; `health` is what /api/status reports, changed by the test."""
    session = TableSession(EventStore(tmp_path / "t.sqlite"))
    health = {"camera": "sim", "camera_error": None, "buttons": "on screen"}
    server = WebServer(create_app(session, status=lambda: dict(health)), host="127.0.0.1", port=0).start()
    yield session, server, health
    server.close()


def phone(browser):
    page = browser.new_context(viewport=SMALL_PHONE).new_page()
    page.set_default_timeout(WAIT_MS)
    return page


def new_table(url: str, game: str, players: list[str]) -> tuple[str, str]:
    """A new table's id and join code."""
    body = json.dumps({"game": game, "players": players}).encode()
    request = urllib.request.Request(url + "/api/tables", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        made = json.load(answer)
    return made["id"], made["code"]


def sit(page, url: str, table_id: str, seat: int, code: str) -> None:
    """Open the table as its QR code does (with the join code) and take `seat`."""
    page.goto(f"{url}/t/{table_id}#code={code}")
    page.locator(f"button[data-seat='{seat}']").click()
    page.wait_for_selector("#seats .me")


def photo_src(page) -> str:
    page.wait_for_selector("#roll img")
    return page.locator("#roll img").get_attribute("src")


def die(value: int, confidence: float = 0.99) -> dict:
    return {"value": value, "kind": "d6", "colour": "white", "box": [0, 0, 9, 9], "confidence": confidence}


# ---- 1. each reading has its own photo ------------------------------------------------------------------
def test_after_a_new_reading_every_phone_shows_the_new_photo(companion, browser):
    url = companion.url
    table_id, code = new_table(url, "dog-eat-dog", ["Ann", "Ben"])
    ann, ben = phone(browser), phone(browser)
    sit(ann, url, table_id, 0, code)
    sit(ben, url, table_id, 1, code)
    first = photo_src(ann)
    assert photo_src(ben) == first
    ann.get_by_role("button", name="RETRY").click()  # read (and, with the demo camera, throw) again
    for page in (ann, ben):
        page.wait_for_function("old => { const i = document.querySelector('#roll img');"
                               " return i && i.getAttribute('src') !== old && i.complete; }", arg=first)
    second = photo_src(ann)
    assert second != first and photo_src(ben) == second
    shown = ann.request.get(url + second)
    assert shown.ok and shown.body() == companion.session.get(table_id).photo
    assert ann.request.get(url + first).status == 404  # the old address is never served again


# ---- 9. the demo camera keeps its throw; CONFIRM applies what the phone showed -----------------------------
def test_a_phone_joining_keeps_the_throw_and_confirm_applies_the_reading_shown(companion, browser):
    url = companion.url
    table_id, code = new_table(url, "dog-eat-dog", ["Ann", "Ben"])
    ann = phone(browser)
    sit(ann, url, table_id, 0, code)
    ann.wait_for_selector("#roll .values")
    shown = ann.locator("#roll .values").inner_text()
    src = photo_src(ann)
    ben = phone(browser)
    sit(ben, url, table_id, 1, code)  # before the fix, this re-threw the dice
    ann.wait_for_timeout(2500)  # longer than a throw takes to tumble, settle and be read
    assert ann.locator("#roll .values").inner_text() == shown and photo_src(ann) == src
    if ann.locator("#confirm").is_enabled():
        ann.locator("#confirm").click()
        values = [int(v) for v in re.findall(r"\d", shown)]
        ann.wait_for_function("() => !document.querySelector('#roll img')")
        applied = companion.session.get(table_id).steps[0].action
        assert applied == {"type": "roll", "values": values}


# ---- 6. the QR code points at an address phones can open ---------------------------------------------------
def test_the_qr_code_decodes_to_the_lan_address_and_localhost_is_warned(still, browser):
    session, server, _ = still
    table = session.create("race", ["Ann", "Ben"], token="host-phone")
    page = phone(browser)
    page.context.add_cookies([{"name": "phone", "value": "host-phone", "url": server.url}])  # the host
    page.goto(f"{server.url}/t/{table.id}")  # opened on the companion itself, as 127.0.0.1
    assert page.locator("#local-warning").is_visible()
    assert "only this machine" in page.locator("#local-warning").inner_text()
    page.locator("#show-qr").click()
    qr = page.locator("#qr img")
    page.wait_for_function("() => document.querySelector('#qr img').naturalWidth > 0")
    image = cv2.imdecode(np.frombuffer(qr.screenshot(), np.uint8), cv2.IMREAD_COLOR)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    assert text.endswith(f"/j/{table.code}"), text
    host = urllib.parse.urlsplit(text).hostname
    if lan_address() is None:
        pytest.skip("this machine has no network address but loopback")
    assert not is_loopback(host) and host == lan_address()
    assert text.replace(f"/j/{table.code}", "") in page.locator("#qr").inner_text()


# ---- 7. a wrong code or link shows a page with a way back --------------------------------------------------
def test_a_wrong_code_shows_a_friendly_page_with_a_way_back(still, browser):
    session, server, _ = still
    page = phone(browser)
    page.goto(server.url + "/")
    page.fill("#join-code", "ZZZZ")
    page.get_by_role("button", name="Join").click()
    page.wait_for_selector("h1")
    assert page.locator("h1").inner_text() == "Not found"
    assert "ZZZZ" in page.locator(".lead").inner_text() and "{" not in page.content()[:200]
    page.get_by_role("link", name=re.compile("Back to all tables")).click()
    page.wait_for_selector("#join-code")
    page.goto(server.url + "/t/no-such-table")
    assert page.locator("h1").inner_text() == "Not found"
    assert page.get_by_role("link", name=re.compile("Back to all tables")).is_visible()


# ---- 12. words a player reads; disabled looks disabled; targets of 44 px; a favicon ------------------------
def test_words_disabled_confirm_touch_targets_and_favicon(still, browser):
    session, server, _ = still
    table = session.create("race", ["Ann", "Ben"])
    page = phone(browser)
    sit(page, server.url, table.id, 0, table.code)
    session.act(table.id, table.version, {"type": "bet", "dice": 1}, table.seats[0])
    session.propose_reading(table.id, [die(4, confidence=0.3)])  # unclear: CONFIRM stays off
    page.wait_for_selector("#roll .problems")
    confirm = page.locator("#confirm")
    assert confirm.is_disabled()
    off = confirm.evaluate("b => getComputedStyle(b).backgroundColor")
    assert "needs a clear reading" in confirm.inner_text()
    session.propose_reading(table.id, [die(4)])
    page.wait_for_function("() => !document.querySelector('#confirm').disabled")
    on = confirm.evaluate("b => getComputedStyle(b).backgroundColor")
    assert off != on and on == "rgb(47, 191, 113)"  # green only when it can be pressed

    for where in (f"/t/{table.id}", "/"):
        page.goto(server.url + where)
        page.wait_for_timeout(300)
        small = page.evaluate("""() => [...document.querySelectorAll('a, button, input, select')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.textContent.trim() || e.getAttribute('aria-label') || e.name,
                       e.getBoundingClientRect()])
            .filter(([, r]) => r.height < 44 || r.width < 44)
            .map(([n, r]) => n + ' ' + r.width + 'x' + r.height)""")
        assert small == [], where

    icon = page.locator("link[rel=icon]").get_attribute("href")
    answer = page.request.get(server.url + icon)
    assert answer.ok and answer.headers["content-type"].startswith("image/svg")

    # a press made against an older view of the table gets a sentence, not version numbers
    page.goto(f"{server.url}/t/{table.id}")
    page.wait_for_selector("#retry")

    def older_view(route):
        body = json.loads(route.request.post_data)
        body["version"] -= 1
        route.continue_(post_data=json.dumps(body))

    page.route("**/retry", older_view)
    page.locator("#retry").click()
    page.wait_for_selector("#toast.show")
    said = page.locator("#toast").inner_text()
    assert "moved on since your phone" in said and not re.search(r"version|\d", said)


# ---- 13. the phone says how the companion is doing ---------------------------------------------------------
def test_the_phone_shows_camera_buttons_connection_and_last_update(still, browser):
    session, server, health = still
    table = session.create("race", ["Ann", "Ben"])
    page = phone(browser)
    page.goto(f"{server.url}/t/{table.id}")
    line = page.locator("#health")
    page.wait_for_function("() => /Camera: simulated/.test(document.querySelector('#health').textContent)")
    assert "Buttons: on screen" in line.inner_text() and "Live" in line.inner_text()
    assert re.search(r"updated \d\d:\d\d:\d\d", line.inner_text())
    health.update(camera="picamera2")
    page.wait_for_function("() => /Camera: seen/.test(document.querySelector('#health').textContent)",
                           timeout=8000)
    health.update(camera_error="the camera sends no pictures", buttons="gpio")
    page.wait_for_function("() => /Camera: lost/.test(document.querySelector('#health').textContent)",
                           timeout=8000)
    assert "Buttons: wired" in line.inner_text()
    server.close()
    page.wait_for_function("() => /Reconnecting/.test(document.querySelector('#health').textContent)",
                           timeout=10_000)

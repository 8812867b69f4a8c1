"""The phone page at 360 x 740, driven in Chromium as players would (issue 26, points 1, 6, 7, 9, 12, 13).

Two kinds of server: the whole companion with its simulated camera (photos and readings), and the web
app alone with no camera, where the test proposes readings itself (nothing moves unless it says so).
"""

from __future__ import annotations

import json
import re
import urllib.parse

import cv2
import numpy as np
import pytest

from tests.web.browser import new_phone, open_table, sit
from web.address import is_loopback, lan_address

pytestmark = pytest.mark.browser


def photo_src(page) -> str:
    page.wait_for_selector("#roll img")
    return page.locator("#roll img").get_attribute("src")


def die(value: int, confidence: float = 0.99) -> dict:
    return {"value": value, "kind": "d6", "colour": "white", "box": [0, 0, 9, 9], "confidence": confidence}


# ---- 1. each reading has its own photo ------------------------------------------------------------------
def test_after_a_new_reading_every_phone_shows_the_new_photo(companion, browser):
    url = companion.url
    table_id, code = open_table(url, "dog-eat-dog", ["Ann", "Ben"])
    ann, ben = new_phone(browser), new_phone(browser)
    sit(ann, f"{url}/t/{table_id}#code={code}", 0)  # as the QR code opens it
    sit(ben, f"{url}/t/{table_id}#code={code}", 1)
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
    table_id, code = open_table(url, "dog-eat-dog", ["Ann", "Ben"])
    ann = new_phone(browser)
    sit(ann, f"{url}/t/{table_id}#code={code}", 0)
    ann.wait_for_selector("#roll .values")
    shown = ann.locator("#roll .values").inner_text()
    src = photo_src(ann)
    ben = new_phone(browser)
    sit(ben, f"{url}/t/{table_id}#code={code}", 1)  # before the fix, this re-threw the dice
    ann.wait_for_timeout(2500)  # longer than a throw takes to tumble, settle and be read
    assert ann.locator("#roll .values").inner_text() == shown and photo_src(ann) == src
    if ann.locator("#confirm").is_enabled():
        ann.locator("#confirm").click()
        values = [int(v) for v in re.findall(r"\d", shown)]
        ann.wait_for_function("() => !document.querySelector('#roll img')")
        applied = companion.session.get(table_id).steps[0].action
        assert applied == {"type": "roll", "values": values}


# ---- 6. the QR code points at an address phones can open ---------------------------------------------------
def test_the_qr_code_decodes_to_the_lan_address_and_localhost_is_warned(served, browser):
    session, server, _ = served
    table = session.create("race", ["Ann", "Ben"], token="host-phone")
    page = new_phone(browser)
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
def test_a_wrong_code_shows_a_friendly_page_with_a_way_back(served, browser):
    session, server, _ = served
    page = new_phone(browser)
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
def test_words_disabled_confirm_touch_targets_and_favicon(served, browser):
    session, server, _ = served
    table = session.create("race", ["Ann", "Ben"])
    page = new_phone(browser)
    sit(page, f"{server.url}/t/{table.id}#code={table.code}", 0)
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

    drawn = {f"/t/{table.id}": ["#seats .me", "#confirm:not([disabled])"], "/": ["#players input"]}
    for where, controls in drawn.items():
        page.goto(server.url + where)
        for control in controls:
            page.wait_for_selector(control)  # measured once the page has drawn its controls
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
def test_the_phone_shows_camera_buttons_connection_and_last_update(served, browser):
    session, server, health = served
    table = session.create("race", ["Ann", "Ben"])
    page = new_phone(browser)
    page.goto(f"{server.url}/t/{table.id}")
    line = page.locator("#health")
    page.wait_for_function("() => /Camera: simulated/.test(document.querySelector('#health').textContent)")
    assert "Buttons: on screen" in line.inner_text() and "Live" in line.inner_text()
    # the time comes with the table's first state, which may arrive after the live stream says it is open
    page.wait_for_function(r"() => /updated \d\d:\d\d:\d\d/.test("
                           r"document.querySelector('#health').textContent)")
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

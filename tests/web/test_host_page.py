"""The host and the seats on real phones at 360 px: make a table, join by code, approve a host with the
CONFIRM button, hand a lost phone's seat to its new phone, undo and end with a confirmation."""

from __future__ import annotations

import re

import pytest

import tests.race  # noqa: F401  (registers the "race" game)
from companion.store import EventStore
from companion.table import TableSession
from tests.web.browser import SMALL_PHONE, launch, sync_api
from web.app import create_app
from web.server import WebServer

pytestmark = pytest.mark.browser
WAIT_MS = 15_000


@pytest.fixture
def served(tmp_path):
    session = TableSession(EventStore(tmp_path / "t.sqlite"))
    status = {"camera": "sim", "camera_error": None, "buttons": "gpio"}
    server = WebServer(create_app(session, status=lambda: dict(status)), host="127.0.0.1", port=0).start()
    yield session, server
    server.close()


def test_a_host_runs_the_table_from_a_phone(served):
    session, server = served
    with sync_api().sync_playwright() as p:
        browser = launch(p)
        errors: list[str] = []

        def phone():
            page = browser.new_context(viewport=SMALL_PHONE).new_page()
            page.set_default_timeout(WAIT_MS)
            page.on("pageerror", lambda err: errors.append(str(err)))
            return page

        def fits(page):
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= SMALL_PHONE["width"], f"scrolls sideways: {width} px"

        # The organiser makes the table on the first page: that phone is the host and shows the code.
        host = phone()
        host.goto(server.url + "/")
        host.select_option("#game", "race")
        names = host.locator("#players input")
        names.nth(0).fill("Ann")
        names.nth(1).fill("Ben")
        host.get_by_role("button", name="Start").click()
        host.wait_for_url(re.compile(r"/t/"))
        host.wait_for_selector("#host h2.you-host")
        assert host.locator("#host h2.you-host").inner_text() == "You are the host"
        code = host.locator("#show-qr").inner_text().strip()
        table_id = host.url.rsplit("/", 1)[-1]

        # A stranger with only the address sees no code and cannot take a seat without it.
        stranger = phone()
        stranger.goto(f"{server.url}/t/{table_id}")
        stranger.wait_for_selector("#code-form")
        assert code not in stranger.content()

        # Ann and Ben join by the QR code's link.
        ann, ben = phone(), phone()
        for page, seat in ((ann, 0), (ben, 1)):
            page.goto(f"{server.url}/j/{code}")
            page.locator(f"button[data-seat='{seat}']").click()
            page.wait_for_selector("#seats .me")
        ann.wait_for_selector("#ask-host")
        fits(ann)

        # Ann asks to be host; the page says to press CONFIRM; the button on the table approves it.
        ann.locator("#ask-host").click()
        ann.wait_for_selector("#host .request")
        assert "press CONFIRM on the table" in ann.locator("#host .request").inner_text()
        host.wait_for_selector("#host [data-approve]")
        fits(host)
        session.press_confirm(table_id)  # what companion serve wires to the physical CONFIRM button
        ann.wait_for_selector("#host h2.you-host")
        host.wait_for_function("() => !document.querySelector('#host h2.you-host')")  # a watcher now

        # Ben's phone is lost: his new phone asks for his seat, the host (now Ann) hands it over.
        new_ben = phone()
        new_ben.goto(f"{server.url}/j/{code}")
        new_ben.locator("button[data-seat='1']", has_text="My seat: lost phone").click()
        ann.wait_for_selector("#host [data-approve]")
        assert "asks for Ben's seat" in ann.locator("#host .request").inner_text()
        ann.locator("#host [data-approve]").click()
        new_ben.wait_for_selector("#seats .me")
        ben.wait_for_function("() => !document.querySelector('#seats .me')")

        # Ann decides, then undoes it after saying yes on her phone; Ben's phone offers no undo.
        table = session.get(table_id)
        session.act(table_id, table.version, {"type": "bet", "dice": 2}, table.seats[0])
        ann.get_by_role("button", name="Undo last move").click()
        ann.wait_for_selector("#host .confirming")
        assert "Undo Ann: Ann bets on 2 dice?" in ann.locator("#host .confirming").inner_text()
        assert new_ben.locator("#undo").count() == 0
        fits(ann)
        ann.get_by_role("button", name="Yes").click()
        ann.wait_for_function("() => !document.querySelector('#undo')")
        assert session.get(table_id).state["roll"] is None

        # The host ends the game, after a yes.
        ann.get_by_role("button", name="End the game").click()
        ann.get_by_role("button", name="Yes").click()
        for page in (ann, new_ben, stranger):
            page.wait_for_function("() => /ended/.test(document.querySelector('#status').textContent)")
        ann.screenshot(path="/tmp/host-page.png", full_page=True)
        assert errors == []

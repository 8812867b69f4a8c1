"""Three phones play Dice Devils through the real page: rank draw, reveal, claims and one fight.

Drives Debian's Chromium with Playwright against a real in-process server; each phone is its own browser
context at 390 x 844 with its own seat token.
"""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path

import pytest

import companion.games  # noqa: F401  (registers the games)
from companion.store import EventStore
from companion.table import TableSession
from web.app import create_app
from web.server import WebServer

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
SHOTS = Path(os.environ.get("DD_SHOTS", "/tmp"))

pytestmark = pytest.mark.browser


def die(value: int, colour: str) -> dict:
    return {"value": value, "kind": "d6", "colour": colour, "box": [0, 0, 9, 9], "confidence": 0.99}


@pytest.fixture
def server(tmp_path):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    session = TableSession(EventStore(tmp_path / "t.sqlite"))
    server = WebServer(create_app(session), host="127.0.0.1", port=0).start()
    yield session, server
    server.close()


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def create_table(url: str, players: list[str]) -> str:
    body = json.dumps({"game": "dice-devils", "players": players}).encode()
    req = urllib.request.Request(url + "/api/tables", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.load(res)["id"]


def test_three_phones_draw_reveal_claim_and_fight(server, browser):
    from playwright.sync_api import expect

    session, web = server
    expect.set_options(timeout=10_000)
    table_id = create_table(web.url, ["Alice", "Bob", "Carol"])
    phones = []
    for seat in range(3):
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(f"{web.url}/t/{table_id}")
        page.locator(f"button[data-seat='{seat}']").click()
        expect(page.locator("#seats .me")).to_have_count(1)
        phones.append(page)
    alice, bob, carol = phones

    # The rank draw: any seated phone enters which grab tile each player drew.
    expect(bob.locator("#dd-ranks")).to_be_visible()
    for seat, rank in enumerate(["oberteufel", "putzteufel", "satansbraten"]):
        alice.locator(f"select[data-rank-seat='{seat}']").select_option(rank)
    alice.get_by_role("button", name="These are the ranks").click()
    for page, title in zip(phones, ["Oberteufel", "Putzteufel", "Satansbraten"], strict=True):
        expect(page.locator("#dd-you")).to_contain_text(title)
    expect(carol.locator("#dd-you")).to_contain_text("plus the Oberteufel's lowest die")

    # The reveal: two items, tapped on Carol's phone (the Satansbraten turns them up).
    carol.locator("#dd-reveal button[data-type='bed']").click()
    carol.locator("#dd-reveal button[data-type='grill']").click()
    carol.locator("#dd-reveal-ok").click()
    for page in phones:
        expect(page.locator("#dd-display .dd-slot")).to_have_count(2)

    # Claims in rank order: only the claimer's phone has buttons; markers are public.
    expect(alice.locator("button[data-claim]")).to_have_count(2)
    expect(bob.locator("button[data-claim]")).to_have_count(0)
    alice.locator("button[data-claim='0']").click()
    expect(carol.locator("#dd-display .dd-slot").nth(0)).to_contain_text("Alice")
    bob.locator("button[data-claim='0']").click()
    expect(carol.locator("button[data-claim]")).to_have_count(2)
    carol.screenshot(path=str(SHOTS / "dice-devils-claim.png"), full_page=True)
    carol.locator("button[data-claim='1']").click()

    # The fight over the bed: the roll panel asks, every phone shows the exact odds before the reveal.
    for page in phones:
        expect(page.locator("#roll .reason")).to_contain_text("Oberteufel (Alice) and Putzteufel (Bob)")
        expect(page.locator("#dd-fight-0 .dd-odds")).to_have_count(2)
    odds = alice.locator("#dd-fight-0 .dd-odds").all_inner_texts()
    assert all(t.endswith("%") for t in odds) and float(odds[0].split()[0]) > 50, odds
    alice.screenshot(path=str(SHOTS / "dice-devils-fight.png"), full_page=True)

    session.propose_reading(table_id, [die(6, "yellow"), die(5, "yellow"), die(1, "yellow"),
                                       die(2, "black"), die(3, "black")], b"\xff\xd8jpeg")
    expect(bob.locator("#confirm")).to_be_enabled()
    bob.locator("#confirm").click()
    for page in phones:
        expect(page.locator("#dd-fight-0 .dd-outcome")).to_have_text("Alice (Oberteufel) wins the bed.")
        expect(page.locator("#dd-fight-0 .dd-total")).to_have_text(["11", "5"])
    alice.screenshot(path=str(SHOTS / "dice-devils-won.png"), full_page=True)

    # The winner's rank swap: buttons on Alice's phone only.
    expect(alice.locator("button[data-legal]")).to_have_text(
        ["Swap rank with Bob (Putzteufel) (from next round)", "Keep my rank"])
    for page in (bob, carol):
        expect(page.locator("#dd-decision")).to_contain_text("Waiting for Alice (Oberteufel)")
        expect(page.locator("button[data-legal]")).to_have_count(0)
    alice.get_by_role("button", name="Keep my rank").click()
    for page in phones:
        expect(page.locator("#dd-reveal")).to_contain_text("Round 2")

    # Each phone lists only its own items; the others' appear only as counts.
    expect(alice.locator("#dd-you .dd-items")).to_have_text("🛏️bed1")
    expect(carol.locator("#dd-you .dd-items")).to_have_text("🍖grill3")
    expect(bob.locator("#dd-you")).to_contain_text("None yet")
    for page in phones:
        expect(page.locator("#dd-devils")).to_contain_text("1 item")
    assert "grill" not in alice.locator("#dd-you").inner_text()
    assert "bed" not in carol.locator("#dd-you").inner_text()
    for page, seat in zip(phones, range(3), strict=True):
        state = page.evaluate("(id) => fetch('/api/tables/' + id, {headers: {'X-Seat-Token': "
                              "localStorage.getItem('seat-token:' + id)}}).then((r) => r.json())", table_id)
        assert state["seat"] == seat
        assert [c is not None for c in state["state"]["collections"]] == [s == seat for s in range(3)]

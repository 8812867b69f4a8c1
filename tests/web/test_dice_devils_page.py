"""Three phones play Dice Devils through the real page: rank draw, reveal, claims and one fight.

Drives Debian's Chromium with Playwright against a real in-process server; each phone is its own browser
context at 390 x 844 with its own seat token.
"""

from __future__ import annotations

import json
import os
import random
import urllib.request
from collections import Counter
from pathlib import Path

import pytest

import companion.games  # noqa: F401  (registers the games)
from companion.games import CHANCE
from companion.table import TableSession

SHOTS = Path(os.environ.get("DD_SHOTS", "/tmp"))

pytestmark = pytest.mark.browser


def die(value: int, colour: str) -> dict:
    return {"value": value, "kind": "d6", "colour": colour, "box": [0, 0, 9, 9], "confidence": 0.99}


def create_table(url: str, players: list[str]) -> tuple[str, str]:
    """A new table's id and join code."""
    body = json.dumps({"game": "dice-devils", "players": players}).encode()
    req = urllib.request.Request(url + "/api/tables", data=body, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as res:
        made = json.load(res)
    return made["id"], made["code"]


def test_three_phones_draw_reveal_claim_and_fight(served, browser):
    from playwright.sync_api import expect

    session, web, _ = served
    expect.set_options(timeout=10_000)
    table_id, code = create_table(web.url, ["Alice", "Bob", "Carol"])
    phones = []
    for seat in range(3):
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(f"{web.url}/j/{code}")  # the QR code's link
        page.locator(f"button[data-seat='{seat}']").click()
        expect(page.locator("#seats .me")).to_have_count(1)
        phones.append(page)
    alice, bob, carol = phones

    # The rank draw: any seated phone enters which grab tile each player drew.
    expect(bob.locator("#dd-ranks")).to_be_visible()
    for seat, rank in enumerate(["oberteufel", "putzteufel", "satansbraten"]):
        alice.locator(f"select[data-rank-seat='{seat}']").select_option(rank)
    alice.screenshot(path=str(SHOTS / "dice-devils-ranks.png"), full_page=True)
    alice.get_by_role("button", name="These are the ranks").click()
    for page, title in zip(phones, ["Oberteufel", "Putzteufel", "Satansbraten"], strict=True):
        expect(page.locator("#dd-you")).to_contain_text(title)
    expect(carol.locator("#dd-you")).to_contain_text("plus the Oberteufel's lowest die")

    # The reveal: two items, tapped on Carol's phone (the Satansbraten turns them up).
    carol.locator("#dd-reveal button[data-type='bed']").click()
    carol.locator("#dd-reveal button[data-type='grill']").click()
    carol.screenshot(path=str(SHOTS / "dice-devils-reveal.png"), full_page=True)
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
        expect(page.locator("#status")).to_contain_text("Oberteufel (Alice) and Putzteufel (Bob)")
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
    expect(alice.locator("#dd-you .dd-items")).to_have_text("bed1")
    expect(carol.locator("#dd-you .dd-items")).to_have_text("grill3")
    expect(bob.locator("#dd-you")).to_contain_text("None yet")
    for page in phones:
        expect(page.locator("#dd-devils")).to_contain_text("1 item")
    assert "grill" not in alice.locator("#dd-you").inner_text()
    assert "bed" not in carol.locator("#dd-you").inner_text()
    for page, seat in zip(phones, range(3), strict=True):
        state = page.evaluate("(id) => fetch('/api/tables/' + id).then((r) => r.json())", table_id)
        assert state["seat"] == seat
        assert [c is not None for c in state["state"]["collections"]] == [s == seat for s in range(3)]


def play_randomly(session: TableSession, table_id: str, tokens: dict[int, str], phones: dict, seed: int,
                  limit: int = 2000) -> Counter:
    """Play to the end with random legal moves; the phones' buttons make their own seats' decisions.

    After every step each phone must show the new version, so every state passes through the page.
    Returns how often each kind of decision was made on a phone.
    """
    from playwright.sync_api import expect

    rng = random.Random(seed)
    faces = {"d6": range(1, 7), "grey": (1, 2, 3, 3, 4, 4)}
    tapped: Counter = Counter()
    for _ in range(limit):
        table = session.get(table_id)
        game, state, version = table.game, table.state, table.version  # the table itself changes
        for page in phones.values():
            expect(page.locator(f"#board[data-version='{version}']")).to_have_count(1)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= page.viewport_size["width"], f"scrolls sideways ({width} px) at {version}"
        if game.is_over(state):
            return tapped
        chances = game.fight_odds(state)
        for seat, p in (chances or {}).items():  # the page asks /odds with the dice shown so far
            row = phones[0].locator(f"#dd-fight-{state['fight']} .dd-fighter[data-seat='{seat}'] .dd-odds")
            expect(row).to_have_text(f"{float(p) * 100:.1f} %")
            tapped["odds shown"] += 1
        to_move = game.current_player(state)
        request = game.roll_request(state)
        if request is not None:
            values = [rng.choice(faces[d.kind]) for d in request.dice]
            by = tokens[rng.choice(game.chance_seats(state) or list(tokens))]  # a seat that rolled
            session.act(table_id, version, {"type": "roll", "values": values}, by)
            continue
        legal = game.legal_actions(state)
        index = rng.randrange(len(legal))
        if to_move in phones:
            page = phones[to_move]
            if legal[index]["type"] == "claim":
                page.locator(f"button[data-claim='{legal[index]['item']}']").click()
            else:
                page.locator(f"button[data-legal='{index}']").click()
            tapped[legal[index]["type"]] += 1
            expect(page.locator(f"#board[data-version='{version}']")).to_have_count(0)
        else:
            seat = rng.choice(game.chance_seats(state) or list(tokens)) if to_move == CHANCE else to_move
            session.act(table_id, version, legal[index], tokens[seat])
    raise AssertionError(f"no end after {limit} steps")


def test_a_whole_six_player_game_renders_without_errors_and_ends_with_the_count(served, browser):
    """Every devil and the final count pass through two live phones, which make their own decisions."""
    from playwright.sync_api import expect

    session, web, _ = served
    expect.set_options(timeout=10_000)
    players = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
    table_id, code = create_table(web.url, players)
    errors: list[str] = []
    phones = {}
    for seat in range(2):
        page = browser.new_context(viewport={"width": 360, "height": 800}).new_page()
        page.on("pageerror", lambda err: errors.append(str(err)))
        page.goto(f"{web.url}/j/{code}")  # the QR code's link
        page.locator(f"button[data-seat='{seat}']").click()
        expect(page.locator("#seats .me")).to_have_count(1)
        phones[seat] = page
    tokens = {seat: session.get(table_id).seats[seat] for seat in range(2)}
    tokens.update({seat: session.claim_seat(table_id, seat) for seat in range(2, 6)})

    tapped = play_randomly(session, table_id, tokens, phones, seed=7)
    print(dict(tapped))
    assert tapped["claim"] > 5 and tapped["swap"] + tapped["pass"] > 0, tapped
    summary = session.snapshot(table_id)["summary"]
    for page in phones.values():
        expect(page.locator("#summary")).to_contain_text("Final count")
        expect(page.locator("#summary .dd-outcome")).to_contain_text(" and ".join(summary["winners"]))
        expect(page.locator("#summary table.scores tr")).to_have_count(7)
    best = max(summary["players"], key=lambda r: r["score"])
    expect(phones[0].locator("#summary tr.dd-winner").first).to_contain_text(str(best["score"]))
    phones[0].screenshot(path=str(SHOTS / "dice-devils-over.png"), full_page=True)
    assert errors == []

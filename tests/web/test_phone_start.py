"""Starting a table on a 360 x 740 phone (issue 26, points 8 and 10): the form speaks the game's words, and
whoever pressed Start is offered a seat at once."""

from __future__ import annotations

import re

import pytest

from tests.web.browser import in_view, new_phone, start_table

pytestmark = pytest.mark.browser


def test_the_new_table_form_is_built_from_each_options_words(served, browser):
    session, server, _ = served
    page = new_phone(browser)
    page.goto(server.url + "/")
    page.select_option("#game", "dog-eat-dog")
    assert in_view(page.get_by_role("button", name="Start"))
    assert page.locator("#players input").first.get_attribute("placeholder") == "Player 1 name"
    page.locator("#options-box summary").click()
    form = page.locator("#options").inner_text()
    for raw in ("stack captor", "stack_captor", "tiebreak", "captured-pips"):
        assert raw not in form
    captor = page.get_by_label("Who takes a failed stack attacker")
    assert captor.evaluate("s => s.tagName") == "SELECT"
    assert captor.locator("option:checked").inner_text() == "the owner of the pyramid that beat it (usual)"
    assert "When an attack on a stack fails" in form
    treehouse = page.get_by_role("switch", name="Treehouse die")
    box = treehouse.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44 and not treehouse.is_checked()
    assert "Usually off." in form

    captor.select_option(label="whoever controls the stack")
    names = page.locator("#players input")
    names.nth(0).fill("Ann")
    names.nth(1).fill("Ben")
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/t/"))
    table = next(iter(session.tables.values()))
    assert table.options["stack_captor"] == "controller" and table.options["treehouse"] is False

    page.goto(server.url + "/")
    page.select_option("#game", "dice-devils")
    assert "turn order" not in page.locator("#players-label").inner_text()
    page.locator("#options-box summary").click()
    assert page.get_by_role("switch", name="More fights").is_visible()


def test_whoever_pressed_start_is_offered_a_seat_at_once(served, browser):
    session, server, _ = served
    page = new_phone(browser)
    start_table(page, server.url, "dog-eat-dog", ["Ann", "Ben"])
    offer = page.locator("#seats.offer")
    offer.wait_for()
    assert "which seat is yours" in offer.inner_text()
    ann = offer.get_by_role("button", name="Ann")
    assert in_view(ann)
    ann.click()
    page.wait_for_selector("#seats .me")
    page.locator("#confirm").wait_for(state="attached")  # drawn with the roll, maybe an update later
    assert page.locator("#confirm").count() == 1  # seated: CONFIRM is there to press, once

    watcher = new_phone(browser)  # a phone that did not make the table just watches, and is told who confirms
    watcher.goto(page.url)
    watcher.wait_for_selector("#seats button[data-seat='1']")
    assert watcher.locator("#seats.offer").count() == 0
    table = next(iter(session.tables.values()))
    session.propose_reading(table.id, [
        {"value": 5, "kind": "d6", "colour": "red", "box": [0, 0, 9, 9], "confidence": 0.99},
        {"value": 2, "kind": "d6", "colour": "yellow", "box": [20, 0, 29, 9], "confidence": 0.99}])
    watcher.wait_for_selector("#toast.show")
    assert "a seated player presses CONFIRM" in watcher.locator("#toast").inner_text()

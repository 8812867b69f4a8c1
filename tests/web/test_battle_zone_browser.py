"""Two phones (360x740) play a Battle Zone turn: the roll read by the simulated camera, a die tapped, its
legal squares lit on the board, an action applied, what to do with the pieces in the top bar on both phones, a
board correction from the host's phone, and the turn handed over."""

from __future__ import annotations

import re

import pytest

from tests.web.browser import (
    SMALL_PHONE,
    join_by_code,
    new_phone,
    settle_roll,
    start_table,
    take_offered_seat,
)

pytestmark = pytest.mark.browser


def test_two_phones_play_a_battle_zone_turn_with_the_camera_roll(companion, browser):
    errors: list[str] = []
    ann, ben = new_phone(browser, errors=errors), new_phone(browser, errors=errors)
    code = start_table(ann, companion.url, "battle-zone", ["Ann", "Ben"])
    take_offered_seat(ann, "Ann")  # the creator's seat
    join_by_code(ben, companion.url, code, "Ben")

    # Ann rolls three dice; the simulated camera throws them, she confirms the reading.
    ann.wait_for_selector("#status:has-text('Ann: roll the three dice')")
    settle_roll(ann)
    ann.wait_for_selector(".bz-die:not([disabled])")
    assert re.search(r"70\.4 % \(19/27\)", ann.locator("#bz-odds").inner_text())

    # Tapping a die lights its squares; tapping one lists its actions; the first one applies.
    ann.locator(".bz-die:not([disabled])").first.click()
    lit = ann.locator(".bz-sq.can")
    assert lit.count() > 0
    lit.first.click()
    ann.locator("#bz-actions button.primary").first.click()
    for page in (ann, ben):
        page.wait_for_selector("#todo:has-text('pointing at Ben')")
        assert page.locator(".bz-sq[aria-label*='lying, pointing at Ben']").count() == 1

    # Ann hosts (she made the table) and corrects the board: a large green stands on e4; both
    # phones log and show it. Ben's phone has no correction form.
    assert ben.locator("#bz-correct").count() == 0
    ann.locator("#bz-correct summary").click()
    ann.select_option("#bz-fix-square", "e4")
    ann.select_option("#bz-fix-piece", "green:3")
    ann.get_by_role("button", name="Set the square").click()
    said = "Board corrected: e4 now holds a large green, upright"
    for page in (ann, ben):
        page.wait_for_selector(f"#todo:has-text('{said}')")
        assert page.locator(".bz-sq[aria-label='e4: large green, upright']").count() == 1

    # Ann ends her turn: Ben is asked to roll.
    ann.get_by_role("button", name="End the turn (leave the dice left)").click()
    ben.wait_for_selector("#status:has-text('Ben: roll the three dice')")
    width = ann.evaluate("() => document.documentElement.scrollWidth")
    assert width <= SMALL_PHONE["width"], f"the page is {width} px wide on a 360 px phone"
    ann.screenshot(path="/tmp/bz-ann.png", full_page=True)
    assert errors == []

"""Two phones (360x740) play a Battle Zone turn: the roll read by the simulated camera, a die tapped, its
legal squares lit on the board, an action applied, what to do with the pieces in the top bar on both phones, a
board correction from the host's phone, and the turn handed over."""

from __future__ import annotations

import re

import pytest

from companion.commands.serve import Companion
from companion.settings import Settings
from tests.web.browser import SMALL_PHONE, launch, sync_api
from tests.web.test_dog_eat_dog_browser import settle_roll

pytestmark = pytest.mark.browser


@pytest.fixture
def companion(tmp_path):
    settings = Settings(host="127.0.0.1", port=0, camera="sim", data_dir=tmp_path, gpio="off", settle_ms=300)
    running = Companion(settings).start()
    running.server.start()
    yield running
    running.close()


def test_two_phones_play_a_battle_zone_turn_with_the_camera_roll(companion):
    with sync_api().sync_playwright() as p:
        browser = launch(p)
        ann = browser.new_context(viewport=SMALL_PHONE).new_page()
        ben = browser.new_context(viewport=SMALL_PHONE).new_page()
        errors = []
        for page in (ann, ben):
            page.on("pageerror", lambda err: errors.append(str(err)))

        ann.goto(companion.url + "/")
        ann.select_option("#game", "battle-zone")
        names = ann.locator("#players input")
        names.nth(0).fill("Ann")
        names.nth(1).fill("Ben")
        ann.get_by_role("button", name="Start").click()
        ann.wait_for_url(re.compile(r"/t/"))
        code = ann.locator("#show-qr").inner_text().strip()
        ann.locator("#seats.offer").get_by_role("button", name="Ann").click()  # the creator's seat
        ann.wait_for_selector(".seat .me")
        ben.goto(companion.url + "/")
        ben.fill("#join-code", code)
        ben.get_by_role("button", name="Join").click()
        ben.wait_for_url(re.compile(r"/t/"))
        ben.locator(".seat", has_text="Ben").get_by_role("button", name="Take seat").click()
        ben.wait_for_selector(".seat .me")

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
        browser.close()

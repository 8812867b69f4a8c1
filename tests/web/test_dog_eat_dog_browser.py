"""Two phones play Dog Eat Dog through the synthetic camera, as people would: tap, read, CONFIRM."""

from __future__ import annotations

import re

import pytest

from companion.commands.serve import Companion
from companion.settings import Settings
from tests.web.browser import PHONE, launch, sync_api

pytestmark = pytest.mark.browser


@pytest.fixture
def companion(tmp_path):
    settings = Settings(host="127.0.0.1", port=0, camera="sim", data_dir=tmp_path, gpio="off", settle_ms=300)
    running = Companion(settings).start()
    running.server.start()
    yield running
    running.close()


def settle_roll(page) -> None:
    """Confirm the camera's reading of the current roll, or type the dice when it is uncertain."""
    page.wait_for_selector("#roll .values, #roll .problems", timeout=15000)
    confirm = page.locator("#confirm")
    if confirm.is_enabled():
        confirm.click()
        return
    page.get_by_role("button", name="Type the dice instead").click()
    for rows in page.locator("#roll .faces").all():
        rows.locator("button").nth(3).click()
    page.get_by_role("button", name="Use these dice").click()


def test_two_phones_play_an_attack_to_its_confirmed_outcome(companion):
    with sync_api().sync_playwright() as p:
        browser = launch(p)
        ann = browser.new_context(viewport=PHONE).new_page()
        ben = browser.new_context(viewport=PHONE).new_page()
        errors = []
        for page in (ann, ben):
            page.on("pageerror", lambda err: errors.append(str(err)))

        ann.goto(companion.url + "/")
        ann.select_option("#game", "dog-eat-dog")
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

        # The first-player roll: one die each, read by the camera; ties roll again.
        for _ in range(6):
            ann.wait_for_selector("#status")
            if "first" not in ann.locator("#status").inner_text():
                break
            settle_roll(ann)
            ann.wait_for_timeout(300)
        status = ann.locator("#status")
        ann.wait_for_function("() => /turn/.test(document.querySelector('#status').textContent)")
        mover = ann if "Your turn" in status.inner_text() else ben
        other = ben if mover is ann else ann

        # The player to move taps an attacker, then a target, sees the exact odds, and attacks.
        mover.locator(".pyr.can").first.click()
        mover.locator(".group:not(:has(.pyr.chosen)) .pyr.can, .stack.can").first.click()
        mover.wait_for_selector("#odds:has-text('Attack succeeds')")
        assert re.search(r"Attack succeeds \d+\.\d %", mover.locator("#odds").inner_text())
        mover.get_by_role("button", name="Attack", exact=True).click()

        # The attack roll, then the defence roll, each read by the camera and confirmed.
        settle_roll(mover)
        other_name = "Ben" if mover is ann else "Ann"
        other.wait_for_selector(f"#status:has-text('{other_name}:')", timeout=15000)
        settle_roll(other)

        outcome = re.compile(r"tip|on top|takes|captures", re.I)
        for page in (ann, ben):
            page.wait_for_function("() => document.querySelector('#roll').hidden")
            assert outcome.search(page.locator("#history").inner_text())
        ann.screenshot(path="/tmp/ded-ann.png", full_page=True)
        assert errors == []
        browser.close()

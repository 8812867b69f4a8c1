"""Two phones play Dog Eat Dog through the synthetic camera, as people would: tap, read, CONFIRM."""

from __future__ import annotations

import re

import pytest

from tests.web.browser import PHONE, join_by_code, new_phone, settle_roll, start_table, take_offered_seat

pytestmark = pytest.mark.browser


def test_two_phones_play_an_attack_to_its_confirmed_outcome(companion, browser):
    errors: list[str] = []
    ann, ben = new_phone(browser, PHONE, errors), new_phone(browser, PHONE, errors)
    code = start_table(ann, companion.url, "dog-eat-dog", ["Ann", "Ben"])
    take_offered_seat(ann, "Ann")  # the creator's seat
    join_by_code(ben, companion.url, code, "Ben")

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

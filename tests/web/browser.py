"""Helpers for the browser tests: the system's Chromium driven by Playwright (never a downloaded browser).

Chromium is found through $CHROMIUM (a path or a command name), else as `chromium` or
`chromium-browser` on the PATH, else at Debian's /usr/bin/chromium. Where there is none the browser
tests are skipped on a developer's machine, and fail in CI (CI=true), where a skip would hide them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import urllib.request

import pytest

NAMES = ("chromium", "chromium-browser")
DEBIAN = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}
WAIT_MS = 20_000  # how long a phone waits for anything to appear (ms): generous, the machine may be loaded


def in_ci() -> bool:
    """True where CI=true (or 1, yes): missing test tools are then an error, not a skip."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1", "yes")


def missing(reason: str) -> None:
    """Skip the test on a developer's machine; fail it in CI."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true: the browser tests must run here)", pytrace=False)
    pytest.skip(reason)


def find_chromium() -> str | None:
    """The Chromium to drive: $CHROMIUM, then the PATH, then Debian's path; None when there is none."""
    chosen = os.environ.get("CHROMIUM", "").strip()
    if chosen:
        return shutil.which(chosen)
    for name in (*NAMES, DEBIAN):
        found = shutil.which(name)
        if found:
            return found
    return None


def sync_api():
    """playwright.sync_api, or a skip (a failure in CI) when Playwright is not installed."""
    try:
        from playwright import sync_api
    except ImportError:
        missing("Playwright is not installed (pip install -e '.[dev]')")
    return sync_api


def launch(playwright):
    """Headless Chromium from the system's packages."""
    path = find_chromium()
    if path is None:
        missing("no Chromium found: apt-get install chromium, or set CHROMIUM=/path/to/chromium")
    return playwright.chromium.launch(executable_path=path, args=ARGS, headless=True)


def new_phone(browser, viewport: dict = SMALL_PHONE, errors: list[str] | None = None):
    """A phone: a page in its own browser context (its own cookie, so its own seat and host role).
    Script errors on it are appended to `errors` where given."""
    page = browser.new_context(viewport=viewport).new_page()
    page.set_default_timeout(WAIT_MS)
    if errors is not None:
        page.on("pageerror", lambda err: errors.append(str(err)))
    return page


def open_table(url: str, game: str, players: list[str]) -> tuple[str, str]:
    """A new table made over the JSON API by no phone in particular: its id and join code."""
    body = json.dumps({"game": game, "players": players}).encode()
    request = urllib.request.Request(url + "/api/tables", data=body,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        made = json.load(answer)
    return made["id"], made["code"]


def start_table(page, url: str, game: str, players: list[str]) -> str:
    """Make a table on the first page as its organiser does (pick the game, type the names, press Start);
    that phone is the host. Returns the join code the host's page shows."""
    page.goto(url + "/")
    page.select_option("#game", game)
    names = page.locator("#players input")
    while names.count() < len(players):  # the form shows the game's fewest players: add rows
        page.locator("#add-player").click()
    for n, name in enumerate(players):
        names.nth(n).fill(name)
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/t/"))
    return page.locator("#show-qr").inner_text().strip()


def take_offered_seat(page, name: str) -> None:
    """The phone that pressed Start takes `name`'s seat from the offer shown to it."""
    page.locator("#seats.offer").get_by_role("button", name=name).click()
    page.wait_for_selector(".seat .me")


def join_by_code(page, url: str, code: str, name: str) -> None:
    """Type the join code on the first page, then take `name`'s seat."""
    page.goto(url + "/")
    page.fill("#join-code", code)
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(re.compile(r"/t/"))
    page.locator(".seat", has_text=name).get_by_role("button", name="Take seat").click()
    page.wait_for_selector(".seat .me")


def sit(page, link: str, seat: int) -> None:
    """Open `link` (the QR code's /j/CODE, or /t/ID#code=CODE) and take `seat`: this phone then holds
    exactly one seat."""
    page.goto(link)
    page.locator(f"button[data-seat='{seat}']").click()
    sync_api().expect(page.locator("#seats .me")).to_have_count(1, timeout=WAIT_MS)


def in_view(locator, viewport: dict = SMALL_PHONE) -> bool:
    """True when `locator` lies wholly inside the screen's height, without scrolling."""
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"]


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

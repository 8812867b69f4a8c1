"""The README's screenshots at 360 x 740: the lobby, a roll, an outcome and the ending of Dog Eat Dog.

    python -m tests.web.screenshots docs/

Runs the whole companion with its simulated camera on a free port and drives Chromium as players would
(tests/web/browser.py finds Chromium); rolls after the first are typed through the table session.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from companion.commands.serve import Companion
from companion.settings import Settings
from tests.web.browser import SMALL_PHONE, launch, sync_api
from tests.web.test_phone_play import play_to_the_end
from web.address import lan_address


def shoot(folder: Path) -> list[Path]:
    """Write lobby.png, roll.png, outcome.png and ending.png into `folder`; returns their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    data = tempfile.mkdtemp(prefix="companion-shots-")
    settings = Settings(host="0.0.0.0", port=0, camera="sim", data_dir=Path(data), gpio="off", settle_ms=300)
    running = Companion(settings).start()
    running.server.start()
    url = f"http://{lan_address() or '127.0.0.1'}:{running.server.port}"  # as a phone opens it
    shots = []
    try:
        with sync_api().sync_playwright() as p:
            browser = launch(p)
            page = browser.new_context(viewport=SMALL_PHONE, device_scale_factor=2).new_page()
            page.set_default_timeout(20_000)
            page.goto(url + "/")
            page.select_option("#game", "dog-eat-dog")
            page.locator("#players input").nth(0).fill("Ann")
            page.locator("#players input").nth(1).fill("Ben")
            shots.append(folder / "lobby.png")
            page.screenshot(path=shots[-1])

            page.get_by_role("button", name="Start").click()
            page.locator("#seats.offer").get_by_role("button", name="Ann").click()
            page.wait_for_selector("#seats .me")
            session = running.session
            table = session.get(session.current)
            session.claim_seat(table.id, 1)
            page.wait_for_selector("#roll .values .by")
            page.wait_for_function("() => document.querySelector('.photo img').complete")
            page.wait_for_timeout(3500)  # the message has gone: the bar says who rolls what
            page.evaluate("window.scrollTo(0, 0)")
            shots.append(folder / "roll.png")
            page.screenshot(path=shots[-1])

            ann, ben = table.seats[0], table.seats[1]
            session.act(table.id, table.version, {"type": "roll", "values": [6, 2]}, ann)
            session.act(table.id, table.version, {"type": "attack", "attacker": "red-M-1",
                                                   "target": "yellow-M-1"}, ann)
            session.act(table.id, table.version, {"type": "roll", "values": [2, 1]}, ann)
            session.act(table.id, table.version, {"type": "roll", "values": [5, 3]}, ben)
            page.wait_for_selector("#todo:not([hidden])")
            page.wait_for_timeout(3500)  # the message has gone; the step stays
            page.evaluate("window.scrollTo(0, 0)")
            shots.append(folder / "outcome.png")
            page.screenshot(path=shots[-1])

            play_to_the_end(session, table)
            page.wait_for_selector("#status.over")
            page.wait_for_timeout(3500)
            page.evaluate("window.scrollTo(0, 0)")
            shots.append(folder / "ending.png")
            page.screenshot(path=shots[-1])
            browser.close()
    finally:
        running.close()
    return shots


if __name__ == "__main__":
    for path in shoot(Path(sys.argv[1] if len(sys.argv) > 1 else "docs")):
        print(path)

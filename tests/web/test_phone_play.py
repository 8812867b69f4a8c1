"""Playing Dog Eat Dog on 360 x 740 phones (issue 26, points 2, 3, 4): the next physical step stays in the
top bar until the next command, CONFIRM and the player's choices are on screen without scrolling, no
message lies over a control, and every die is attributed to the seat that rolled it.

The web app runs alone (no camera); the test types the rolls and proposes readings as the camera would.
"""

from __future__ import annotations

import re

import cv2
import numpy as np
import pytest

from tests.web.browser import SMALL_PHONE, in_view, new_phone, sit

pytestmark = pytest.mark.browser
PHOTO = cv2.imencode(".jpg", np.full((480, 640, 3), 90, np.uint8))[1].tobytes()


def seated_phone(browser, url: str, table, seat: int):
    """A phone seated at `table` as the QR code opens it, then reloaded: as the phone would be found
    later, at the top of the page."""
    page = new_phone(browser)
    sit(page, f"{url}/t/{table.id}#code={table.code}", seat)
    page.reload()
    page.wait_for_selector("#seats .me")
    return page


def die(value: int, colour: str | None, x: int) -> dict:
    return {"value": value, "kind": "d6", "colour": colour, "box": [x, 200, x + 40, 240], "confidence": 0.99}


def test_the_bar_keeps_the_physical_step_until_the_next_command(served, browser):
    session, server, _ = served
    table = session.create("dog-eat-dog", ["Ann", "Ben"])
    ann = seated_phone(browser, server.url, table, 0)
    ben = seated_phone(browser, server.url, table, 1)
    session.act(table.id, table.version, {"type": "roll", "values": [6, 1]}, table.seats[0])

    ann.wait_for_selector("#status:has-text('Your turn')")
    assert in_view(ann.get_by_role("button", name="Do not attack this turn"))
    ann.locator("button[data-id='red-S-1']").click()
    ann.locator("button[data-id='yellow-S-1']").click()
    attack = ann.get_by_role("button", name="Attack", exact=True)
    attack.wait_for()
    assert in_view(attack)  # the player's own choice, on screen without scrolling
    attack.click()
    ann.wait_for_selector("#status:has-text('Ann: 1 die')")
    session.act(table.id, table.version, {"type": "roll", "values": [1]}, table.seats[0])
    session.act(table.id, table.version, {"type": "roll", "values": [6]}, table.seats[1])

    for page in (ann, ben):
        page.wait_for_selector("#todo:has-text('Tip both pyramids')")
    ann.wait_for_timeout(5500)  # longer than any message stays
    for page in (ann, ben):
        assert "Tip both pyramids" in page.locator("#todo").inner_text()
        assert in_view(page.locator("#todo"))
    ben.get_by_role("button", name="Do not attack this turn").click()  # the next command
    for page in (ann, ben):  # Ben's turn ends; Ann's begins by standing her tipped pyramid up
        page.wait_for_selector("#todo:has-text('Ann: stand up the small red')")
        assert "Tip both" not in page.locator("#todo").inner_text()


def test_confirm_lies_inside_the_viewport(served, browser):
    session, server, _ = served
    table = session.create("dog-eat-dog", ["Ann", "Ben", "Cy"])
    ann = seated_phone(browser, server.url, table, 0)
    dice = [die(6, "red", 100), die(1, "yellow", 300), die(3, "green", 500)]
    session.propose_reading(table.id, dice, PHOTO)
    confirm = ann.locator("#confirm")
    ann.wait_for_function("() => { const b = document.querySelector('#confirm'); return b && !b.disabled; }")
    ann.wait_for_function("() => document.querySelector('.photo img').complete")
    assert in_view(confirm), confirm.bounding_box()
    assert in_view(ann.locator("#retry"))


def test_no_message_lies_over_a_control(served, browser):
    session, server, _ = served
    table = session.create("dog-eat-dog", ["Ann", "Ben", "Cy"])
    ann = seated_phone(browser, server.url, table, 0)
    session.act(table.id, table.version, {"type": "roll", "values": [6, 1, 2]}, table.seats[0])
    skip = ann.get_by_role("button", name="Do not attack this turn")
    skip.wait_for()
    skip.evaluate("b => b.scrollIntoView({block: 'end'})")  # the button at the bottom edge of the screen
    session.claim_seat(table.id, 2)  # "Cy joined": a message on every phone
    ann.wait_for_selector("#toast.show")
    covered = ann.evaluate("""() => [...document.querySelectorAll('button, a, input, select')]
        .filter(e => e.offsetParent !== null)
        .filter(e => { const r = e.getBoundingClientRect();
                       return r.bottom > 0 && r.top < innerHeight && r.width > 0; })
        .filter(e => { const r = e.getBoundingClientRect();
                       const hit = document.elementFromPoint(r.left + r.width / 2,
                                                             Math.min(r.top + r.height / 2, innerHeight - 1));
                       return hit && !e.contains(hit) && !hit.contains(e); })
        .map(e => e.textContent.trim() || e.getAttribute('aria-label'))""")
    assert covered == []
    assert "Cy joined" in ann.locator("#toast").inner_text()


def test_dice_are_attributed_to_the_seats_that_rolled_them(served, browser):
    session, server, _ = served
    table = session.create("dog-eat-dog", ["Ann", "Ben"])
    ann = seated_phone(browser, server.url, table, 0)
    session.propose_reading(table.id, [die(6, "red", 100), die(1, "yellow", 300)], PHOTO)
    ann.wait_for_selector("#roll .values .by")
    groups = ann.locator("#roll .values .by")
    assert [groups.nth(i).inner_text().split() for i in range(groups.count())] == [["Ann", "6"], ["Ben", "1"]]
    assert "red" in groups.nth(0).locator(".die").get_attribute("class")
    assert "yellow" in groups.nth(1).locator(".die").get_attribute("class")
    ann.wait_for_selector(".photo .label")
    labels = ann.locator(".photo .label").all_inner_texts()
    assert sorted(labels) == ["Ann 6", "Ben 1"]

    ann.get_by_role("button", name="Type the dice instead").click()
    assert ann.locator("#roll small").all_inner_texts()[:2] == ["Ann's red die", "Ben's yellow die"]
    ann.get_by_role("button", name="Cancel").click()
    ann.locator("#confirm").click()
    ann.wait_for_selector("#correct")
    assert ann.locator("#correct").inner_text() == "Correct Ann and Ben's roll"


def test_the_photo_marks_a_die_read_less_surely_than_the_table_asks(served, browser):
    session, server, _ = served
    table = session.create("dog-eat-dog", ["Ann", "Ben"])
    ann = seated_phone(browser, server.url, table, 0)
    session.min_confidence = 0.9  # a table stricter than the default
    unclear = {**die(1, "yellow", 300), "confidence": 0.85}
    session.propose_reading(table.id, [die(6, "red", 100), unclear], PHOTO)
    ann.wait_for_selector(".photo .label")
    assert sorted(ann.locator(".photo .label").all_inner_texts()) == ["Ann 6", "Ben 1"]
    assert ann.locator(".photo .label.unsure").all_inner_texts() == ["Ben 1"]


def test_a_player_name_in_the_correction_title_is_text_not_markup(served, browser):
    session, server, _ = served
    table = session.create("dog-eat-dog", ["<i>Ann</i>", "Ben"])
    ann = seated_phone(browser, server.url, table, 0)
    session.propose_reading(table.id, [die(6, "red", 100), die(1, "yellow", 300)], PHOTO)
    ann.wait_for_function("() => { const b = document.querySelector('#confirm'); return b && !b.disabled; }")
    ann.locator("#confirm").click()
    assert ann.locator("#correct").inner_text() == "Correct <i>Ann</i> and Ben's roll"
    ann.locator("#correct").click()
    assert ann.locator("#roll h2").inner_text() == "Correct <i>Ann</i> and Ben's roll"
    assert ann.locator("#roll h2 i").count() == 0


def play_to_the_end(session, table, seed: int = 3, until=None) -> None:
    """Random legal moves and rolls through the session, each entered by a phone allowed to, until the end
    (or until `until(state)` holds)."""
    import random

    from companion.games import CHANCE, FACES
    from companion.table import TableError

    rng = random.Random(seed)
    for _ in range(3000):
        game, state = table.game, table.state
        if game.is_over(state) or until is not None and until(state):
            return
        request = game.roll_request(state)
        if request is not None:
            action = {"type": "roll", "values": [rng.choice(FACES[d.kind]) for d in request.dice]}
        else:
            action = rng.choice(game.legal_actions(state))
        mover = game.current_player(state)
        tokens = list(table.seats.values()) if mover == CHANCE else [table.seats[mover]]
        for token in tokens:
            try:
                session.act(table.id, table.version, action, token)
                break
            except TableError:
                continue
    raise AssertionError("the game did not end")


def test_the_ending_shows_the_winner_and_the_scores_first(served, browser):
    session, server, _ = served
    table = session.create("dog-eat-dog", ["Ann", "Ben"], {"stack_captor": "controller"})
    ann = seated_phone(browser, server.url, table, 0)
    ben = seated_phone(browser, server.url, table, 1)
    play_to_the_end(session, table)
    winners = table.game.summary(table.state)["winner_names"]
    for page in (ann, ben):
        page.wait_for_selector("#status.over")
        banner = page.locator("#status")
        assert all(name in banner.inner_text() for name in winners) and "win" in banner.inner_text()
        assert in_view(banner)
        scores = page.locator("#summary")
        assert in_view(scores.locator("h2").first)
        assert "tree" in scores.inner_text() or "loose" in scores.inner_text()  # the breakdown
    if ann.locator("#undo").count():  # after the end, taking a move back asks first
        ann.locator("#undo").click()
        ann.get_by_role("button", name="No, keep it").click()
        assert table.game.is_over(table.state)


EMOJI = re.compile("[\u2600-\u27bf\U0001f300-\U0001faff]")


def satansbraten_fought(state) -> bool:
    """A fight this round that the Satansbraten fought, with its total shown."""
    ranks = state.get("ranks") or []
    for fight in state.get("fights") or []:
        for i, seat in enumerate(fight["fighters"]):
            if ranks[seat] == "satansbraten" and fight["totals"][i] is not None and "oberteufel" in ranks \
                    and state["dice"][ranks.index("oberteufel")]:
                return True
    return False


def test_dice_devils_glosses_icons_satansbraten_total_reveal_grid_and_final_count(served, browser):
    session, server, _ = served
    table = session.create("dice-devils", ["Ann", "Ben", "Cy"])
    ann = seated_phone(browser, server.url, table, 0)
    for seat in (1, 2):
        session.claim_seat(table.id, seat)
    play_to_the_end(session, table, seed=5, until=satansbraten_fought)
    ann.wait_for_selector(".dd-why")
    why = ann.locator(".dd-why").inner_text()
    match = re.search(r"Satansbraten: ([\d + ]+) \+ (\d) \(the Oberteufel's lowest die\) = (\d+)", why)
    assert match, why
    assert sum(int(v) for v in match.group(1).split("+")) + int(match.group(2)) == int(match.group(3))
    devils = ann.locator("#dd-devils").inner_text()
    assert "Head Devil" in devils and "Holy Terror" in devils

    def supply_short(state) -> bool:
        draw = state.get("draw") or {}
        supply = state["supply"]
        return draw.get("kind") == "items" and sum(1 for n in supply.values() if n) < len(supply)

    play_to_the_end(session, table, seed=6, until=supply_short)
    assert not table.game.is_over(table.state)
    left = sorted(t for t, n in table.state["supply"].items() if n)
    ann.wait_for_selector("#dd-reveal .dd-type")
    shown = ann.locator("#dd-reveal button[data-type]").evaluate_all("bs => bs.map(b => b.dataset.type)")
    assert sorted(shown) == left  # types run out of the supply are not offered

    play_to_the_end(session, table, seed=7)
    ann.wait_for_selector("#summary:has-text('Final count')")
    assert ann.evaluate("() => document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
    # measured in the page in one step: the summary may be drawn again as the last update lands, and a
    # table found, then measured, may by then be gone (bounding_box None: CI, 2026-12-02, a busy machine)
    table_box = ann.wait_for_function("""() => {
        const table = document.querySelector("#summary table");
        const box = table && table.getBoundingClientRect();
        return box && box.width > 0 && {x: box.x, width: box.width};
    }""").json_value()
    assert table_box["x"] >= 0 and table_box["x"] + table_box["width"] <= SMALL_PHONE["width"]
    assert ann.locator(".dd-item svg").count() > 0
    assert not EMOJI.search(ann.locator("body").inner_text())

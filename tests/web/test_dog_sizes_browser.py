"""DOG for 2 to 6 players on 360 px phones (rules/dog.md 2.6): the board is drawn as N quarters of 16
fields in a circle (kennels, starts, finish holes and 4N marbles in their colours, white and black for
the 5th and 6th), without a script error, and a phone plays by taps: for six, the starter brings a
marble out; for three (a table made on the first page with its default options), a 2 takes a card from
an opponent, whose phone alone is offered its own cards to hand over.
"""

from __future__ import annotations

import re

import pytest

from tests.web.browser import SMALL_PHONE, WAIT_MS, new_phone

pytestmark = pytest.mark.browser

SIX = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
COLOURS = ["red", "blue", "green", "yellow", "white", "black"]


def phone_for(browser, served, table_id: str, token: str, errors: list[str]):
    page = new_phone(browser, errors=errors)
    page.context.add_cookies([{"name": "phone", "value": token, "url": served.server.url}])
    page.goto(f"{served.server.url}/t/{table_id}")
    page.wait_for_selector(".dog-board")
    return page


def deal_and_exchange(session, table, tokens: list[str], hands: list[list[str]], gifts: list[str]) -> None:
    """Every seat's dealt cards, then its exchange card, entered in the order the table takes them."""
    game = table.game
    while table.state["phase"] == "deal":
        seat = game.chance_seats(table.state)[0]
        deal = {"type": "deal", "seat": seat, "cards": hands[seat]}
        session.act(table.id, table.version, deal, tokens[seat])
    while table.state["phase"] == "exchange":
        seat = game.current_player(table.state)
        give = {"type": "give", "seat": seat, "card": gifts[seat]}
        session.act(table.id, table.version, give, tokens[seat])


def assert_fits(page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= SMALL_PHONE["width"], f"the page is {width} px wide on a 360 px phone"


def test_six_players_board_has_six_quarters_and_a_phone_brings_a_marble_out_by_taps(served, browser):
    session = served.session
    table = session.create("dog", SIX, {})
    tokens = [session.claim_seat(table.id, seat) for seat in range(6)]
    deal_and_exchange(session, table, tokens, [["A", "K", "2", "3", "4", "5"]] * 6, ["5"] * 6)
    errors: list[str] = []
    ann, dan = (phone_for(browser, served, table.id, tokens[seat], errors) for seat in (0, 3))
    for page in (ann, dan):
        assert page.locator(".dog-board[data-seats='6']").count() == 1
        assert page.locator(".dog-hole").count() == 96 + 24 + 24  # track, finish holes, kennels
        assert page.locator(".dog-hole.start").count() == 6
        assert page.locator(".dog-marble").count() == 24
        for colour in COLOURS:
            assert page.locator(f".dog-marble.{colour}").count() == 4
        assert_fits(page)
    assert ann.locator(".dog-player[data-seat='3']").inner_text().startswith("Dan partner")  # 3x2: opposite
    assert ann.locator(".dog-player[data-seat='1']").inner_text().startswith("Ben opponent")
    assert "with Dan (yellow)" in ann.locator(".dog-team").inner_text()

    ann.wait_for_selector("#status.mine:has-text('Your turn, Ann')")
    ann.get_by_role("button", name="lay A", exact=True).click()
    ann.locator(".dog-board [role=button][aria-label='red marble in its kennel']").click()
    ann.locator(".dog-board [role=button][aria-label='to red start']").click()
    for page in (ann, dan):
        page.wait_for_selector("#todo:has-text('bring a red marble out onto its start')", timeout=WAIT_MS)
        page.wait_for_selector(".dog-marble.fresh[aria-label^='red marble at red start']", timeout=WAIT_MS)
    assert table.state["marbles"][0].count(0) == 1 and table.state["turn"] == 1
    dan.screenshot(path="/tmp/dog-six.png", full_page=True)
    assert errors == []


def test_three_players_made_on_the_first_page_play_a_2_that_takes_a_card(served, browser):
    errors: list[str] = []
    ann = new_phone(browser, errors=errors)
    ann.goto(served.server.url + "/")
    ann.select_option("#game", "dog")
    ann.locator("#add-player").click()
    for n, name in enumerate(SIX[:3]):
        ann.locator("#players input").nth(n).fill(name)
    ann.get_by_role("button", name="Start").click()  # the form's usual options: Cat (the last seat) deals
    ann.wait_for_url(re.compile(r"/t/"))
    ann.locator("#seats.offer").get_by_role("button", name="Ann").click()
    ann.wait_for_selector(".seat .me")
    session = served.session
    table = next(iter(session.tables.values()))
    assert table.players == SIX[:3] and table.state["dealer"] == 2
    tokens = [None, session.claim_seat(table.id, 1), session.claim_seat(table.id, 2)]
    hands = [["K", "2", "2", "5", "3", "3"], ["J", "J", "9", "6", "3", "3"], ["Q", "Q", "A", "8", "4", "4"]]
    ben, cat = (phone_for(browser, served, table.id, tokens[seat], errors) for seat in (1, 2))
    ann.wait_for_selector("#status.mine:has-text('Ann: enter the 6 cards dealt to you')")
    for card in hands[0]:
        ann.get_by_role("button", name=f"add {card}", exact=True).click()
    ann.get_by_role("button", name="These are my 6 cards").click()
    ann.wait_for_selector("#status:has-text('waiting for the cards dealt to Ben')")
    for seat in (1, 2):
        deal = {"type": "deal", "seat": seat, "cards": hands[seat]}
        session.act(table.id, table.version, deal, tokens[seat])
    # the exchange: Cat takes a card from Ann, her right-hand neighbour: Ann's phone taps the card taken
    ann.wait_for_selector("#status.mine:has-text('Ann: Cat takes one of your cards')")
    assert "Cat takes one card from you" in ann.locator(".dog-give h2").inner_text()
    ann.get_by_role("button", name="give 5", exact=True).click()
    ann.get_by_role("button", name="Give Cat the 5 face down").click()
    ben.wait_for_selector("#status.mine:has-text('Ben: Ann takes one of your cards')")
    for seat, card in ((1, "6"), (2, "8")):
        session.act(table.id, table.version, {"type": "give", "seat": seat, "card": card}, tokens[seat])
    assert table.state["phase"] == "play" and table.state["turn"] == 0
    for page in (ann, ben, cat):
        page.wait_for_selector(".dog-board[data-seats='3']")
        assert page.locator(".dog-hole").count() == 48 + 12 + 12
        assert page.locator(".dog-marble").count() == 12
        assert_fits(page)
    assert "each for yourself" in ben.locator(".dog-team").inner_text()

    # Ann lays a 2 to take a card from Ben; only Ben's phone is offered its cards, and it taps the 9.
    ann.wait_for_selector("#status.mine:has-text('Your turn, Ann')")
    ann.get_by_role("button", name="lay 2", exact=True).click()
    ann.locator("#dog-turn .dog-choices button", has_text="take a card from Ben").click()
    ben.wait_for_selector("#status.mine:has-text('Ben: Ann takes one of your cards')")
    offered = ben.locator(".dog-hand-over button").all_inner_texts()
    assert sorted(offered) == sorted(set(table.state["hands"][1]))
    assert ann.locator(".dog-hand-over").count() == 0 and cat.locator(".dog-hand-over").count() == 0
    assert "J" not in cat.locator("#board").inner_text()
    ben.get_by_role("button", name="hand over 9", exact=True).click()
    ben.wait_for_selector("#status.mine:has-text('Your turn, Ben')")
    assert "9" in table.state["hands"][0] and "9" not in table.state["hands"][1]
    ben.screenshot(path="/tmp/dog-three.png", full_page=True)
    assert errors == []

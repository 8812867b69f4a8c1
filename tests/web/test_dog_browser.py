"""Four phones (360x740, each its own browser context and seat) play DOG's first deal to its end, as people
would: each types the six cards dealt to it and chooses the card it gives its partner face down, all four
at once (a phone sends what was pressed early as soon as its seat may enter it), and at its turn taps the card
it lays, a highlighted marble and a target (the board or the buttons under it); a 7 is laid part by part,
a Jack swaps, a Q sends a marble home, and three players fold. Every phone shows the same board and the
top bar's words for the physical board; no phone shows another seat's cards; nothing is wider than 360 px.

The deal (chosen here; dealer Dan, so Ann starts):
  Ann  A K 7 4 5 2  gives K to Cat, takes Cat's 6
  Ben  A 3 J 2 9 10 gives 10 to Dan, takes Dan's Q
  Cat  2 3 5 Q 8 6  gives 6 to Ann, takes Ann's K
  Dan  2 3 4 5 6 Q  gives Q to Ben, takes Ben's 10: no A, K or Joker, so Dan folds at once.
"""

from __future__ import annotations

import pytest

from tests.web.browser import SMALL_PHONE, WAIT_MS, join_by_code, new_phone, start_table, take_offered_seat

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Ben", "Cat", "<i>Dan</i>"]  # a name with markup is shown as text, never as markup
HANDS = [["A", "K", "7", "4", "5", "2"], ["A", "3", "J", "2", "9", "10"], ["2", "3", "5", "Q", "8", "6"],
         ["2", "3", "4", "5", "6", "Q"]]
GIFTS = ["K", "10", "6", "Q"]


def seat_phones(url: str, browser, errors: list[str]) -> list:
    """Ann makes the table (dealer Dan) and takes her seat; Ben, Cat and Dan join with the code."""
    pages = [new_phone(browser, errors=errors) for _ in NAMES]
    code = start_table(pages[0], url, "dog", NAMES)
    take_offered_seat(pages[0], "Ann")
    for page, name in zip(pages[1:], NAMES[1:], strict=True):
        join_by_code(page, url, code, name)
    return pages


def button(page, name: str):
    return page.get_by_role("button", name=name, exact=True)


def on_every_phone(pages, selector: str) -> None:
    for page in pages:
        page.wait_for_selector(selector, timeout=WAIT_MS)


def lay(pages, seat: int, card: str, marble: str | None = None, target: str | None = None,
        board: bool = False) -> None:
    """At `seat`'s turn its phone taps `card`, then the marble and the target: on the board (by their
    names) or with the buttons under it."""
    page = pages[seat]
    page.wait_for_selector("#status.mine", timeout=WAIT_MS)
    button(page, f"lay {card}").click()
    pick(page, marble, target, board)


def pick(page, marble: str | None, target: str | None, board: bool) -> None:
    if board:
        page.locator(f".dog-board [role=button][aria-label='{marble}']").click()
        page.locator(f".dog-board [role=button][aria-label='{target}']").click()
        return
    page.locator("#dog-turn .dog-choices button", has_text=marble).click()
    page.locator("#dog-turn .dog-choices button", has_text=target).click()


def fold(pages, seat: int) -> None:
    page = pages[seat]
    page.wait_for_selector("#status.mine", timeout=WAIT_MS)
    button(page, "Fold: no card can be played").click()


def test_four_phones_play_the_first_deal_of_dog_to_its_end(served, browser):
    errors: list[str] = []
    pages = seat_phones(served.server.url, browser, errors)

    # The deal: the four phones type their cards at once. Ben, Cat and Dan press first: their cards go
    # in by themselves, each as soon as the seat before has entered its own (Ann's first).
    for page, hand in zip(pages, HANDS, strict=True):
        page.wait_for_selector(".dog-deal", timeout=WAIT_MS)
        for card in hand:
            button(page, f"add {card}").click()
    for page in pages[1:]:
        button(page, "Enter them when Ann is done").click()
        page.wait_for_selector(".dog-queued:has-text('Your cards go in as soon as Ann has entered theirs')")
    button(pages[0], "These are my 6 cards").click()
    on_every_phone(pages, "#status:has-text('one card face down')")
    assert pages[3].locator(".dog-give .dog-card").all_inner_texts() == ["2", "3", "4", "5", "6", "Q"]

    # The exchange: each gives its partner one card face down, chosen at once; Ann's goes first.
    for seat in (1, 2, 3, 0):
        page, card, mate = pages[seat], GIFTS[seat], NAMES[(seat + 2) % 4]
        button(page, f"give {card}").click()
        page.get_by_role("button", name=f"Give {mate} the {card} face down" + (
            " when Ann has given" if seat else "")).click()
    on_every_phone(pages, "#status:has-text('Your turn, Ann'), #status:has-text(\"Ann's turn\")")
    hand = pages[0].locator(".dog-hand .dog-card")
    assert sorted(hand.all_inner_texts()) == sorted(["A", "2", "4", "5", "6", "7"])  # Cat's 6 came
    assert "Your hand" not in pages[0].locator("#board").inner_text()  # her turn shows the cards to lay
    assert pages[1].locator(".dog-hand .dog-card").all_inner_texts() == ["A", "2", "3", "9", "J", "Q"]
    assert pages[0].locator(".dog-player[data-seat='2']").inner_text().startswith("Cat partner")

    # Ann: A to bring red out; her fresh marble blocks her start on every phone.
    lay(pages, 0, "A", "a red marble from its kennel", "to red start")
    on_every_phone(pages, "#todo:has-text('bring a red marble out onto its start')")
    on_every_phone(pages, ".dog-marble.fresh[aria-label='red marble at red start, fresh on its start: "
                          "it blocks everyone']")
    assert all(page.locator(".dog-block").count() == 1 for page in pages)
    lay(pages, 1, "A", "a blue marble from its kennel", "to blue start")
    lay(pages, 2, "K", "a green marble from its kennel", "to green start")
    on_every_phone(pages, "#todo:has-text('bring a green marble out')")
    fold(pages, 3)  # Dan has no A, K or Joker
    on_every_phone(pages, "#history li:first-child:has-text('<i>Dan</i> folds')")
    # Ann: 4 backwards from her fresh start, tapped on the board.
    lay(pages, 0, "4", "red marble at red start, fresh on its start: it blocks everyone", "to yellow 12",
        board=True)
    on_every_phone(pages, "#todo:has-text('move red at red start to yellow 12')")
    lay(pages, 1, "3", "blue at blue start", "to blue 3")
    lay(pages, 2, "5", "green at green start", "to green 5")

    # Ann's 7, part by part: 3 steps, then the 4 left past her start into her finish.
    lay(pages, 0, "7", "red at yellow 12", "to yellow 15 (3, then 4 more)")
    pages[0].wait_for_selector("#status:has-text('Your 7, 4 more steps')", timeout=WAIT_MS)
    pages[1].wait_for_selector("#status:has-text(\"Ann's 7: 4 more steps\")", timeout=WAIT_MS)
    pick(pages[0], "red at yellow 15", "to red F3 (4)", board=False)
    on_every_phone(pages, "#todo:has-text('move red at yellow 15 to red F3')")

    # Ben's Jack swaps his blue with Cat's green; Cat moves on with an 8.
    lay(pages, 1, "J", "blue at blue 3", "swap with green at green 5")
    on_every_phone(pages, "#todo:has-text('swap blue at blue 3 with green at green 5')")
    lay(pages, 2, "8", "green at blue 3", "to blue 11")
    fold(pages, 0)  # Ann holds 2, 5, 6: her only marble is in F3
    lay(pages, 1, "2", "blue at green 5", "to green 7")
    # Cat's Q lands on Ben's blue and sends it home.
    lay(pages, 2, "Q", "green at blue 11", "to green 7, sending blue home")
    on_every_phone(pages, "#todo:has-text('send blue at green 7 home')")
    fold(pages, 1)  # Ben's marbles are all in the kennel: his 9 and Q cannot move
    lay(pages, 2, "2", "green at green 7", "to green 9")
    # Cat plays again: her phone says it is her turn already, so wait for her 2 to be done everywhere
    # before she taps her 3 (else the 3 is tapped on the page the 2's update then redraws).
    on_every_phone(pages, "#todo:has-text('move green at green 7 to green 9')")
    lay(pages, 2, "3", "green marble at green 9", "to green 12", board=True)

    # Every card of the first deal is laid or folded: round 2 is dealt, Ben starts.
    on_every_phone(pages, "#todo:has-text('move green at green 9 to green 12')")
    on_every_phone(pages[:1] + pages[2:], "#status:has-text('Dan</i> deals 5 cards each: waiting for "
                                          "the cards dealt to Ben')")
    pages[1].wait_for_selector("#status.mine:has-text('Ben: enter the 5 cards dealt to you')")
    for page in pages:
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= SMALL_PHONE["width"], f"the page is {width} px wide on a 360 px phone"
        assert page.locator("#board i, #status i, #todo i").count() == 0  # the name is text
        assert page.locator(".dog-marble").count() == 16
    assert pages[1].locator(".dog-deal h2").inner_text() == "The 5 cards dealt to you"
    pages[0].screenshot(path="/tmp/dog-ann.png", full_page=True)
    assert errors == []


def test_without_hands_each_phone_types_the_card_it_lays_and_says_when_it_cannot_play(served, browser):
    """Option hands = laid (chosen on the first page): no deal to enter and no exchange; the phone to play
    picks the card from all fourteen (those with no move greyed) or folds."""
    errors: list[str] = []
    pages = [new_phone(browser, errors=errors) for _ in NAMES]
    ann = pages[0]
    ann.goto(served.server.url + "/")
    ann.select_option("#game", "dog")
    for _ in NAMES[2:]:  # the form shows two rows: DOG is played by 2 to 6
        ann.locator("#add-player").click()
    for n, name in enumerate(NAMES):
        ann.locator("#players input").nth(n).fill(name)
    ann.locator("#options-box summary").click()
    ann.get_by_label("Cards in hand").select_option("laid")
    ann.get_by_role("button", name="Start").click()
    code = ann.locator("#show-qr").inner_text().strip()
    take_offered_seat(ann, "Ann")
    for page, name in zip(pages[1:], NAMES[1:], strict=True):
        join_by_code(page, served.server.url, code, name)

    ann.wait_for_selector("#status.mine:has-text('Your turn, Ann')")
    picker = ann.locator("#dog-turn .dog-picker button")
    assert picker.count() == 14
    assert [b.get_attribute("aria-label") for b in picker.all() if b.is_enabled()] == [
        "lay A", "lay K", "lay Joker"]  # only a start card can move with every marble at home
    assert pages[1].locator(".dog-deal, .dog-give").count() == 0
    lay(pages, 0, "A", "a red marble from its kennel", "to red start")
    pages[1].wait_for_selector("#status.mine")
    pages[1].get_by_role("button", name="I cannot play: fold").click()
    lay(pages, 2, "Joker", "a green marble from its kennel", "to green start")
    on_every_phone(pages, "#todo:has-text('Cat lays a Joker: bring a green marble out onto its start')")
    pages[3].wait_for_selector("#status.mine")
    pages[3].get_by_role("button", name="I cannot play: fold").click()
    lay(pages, 0, "5", "red at red start", "to red 5", board=False)
    on_every_phone(pages, "#todo:has-text('move red at red start to red 5')")
    assert ann.locator(".dog-player[data-seat='0'] .dog-left").inner_text() == "4 cards"
    assert ann.locator(".dog-player[data-seat='1'] .dog-left").inner_text() == "0 cards"  # Ben folded
    pages[2].wait_for_selector("#status.mine:has-text('Your turn, Cat')")  # Ben and Dan sit out the round
    assert errors == []


def test_a_whole_random_game_renders_on_four_phones_without_errors_and_ends_with_the_winners(served, browser):
    """A seeded random game (companion/bench_dog.py's player: 1,032 actions, 46 rounds, blue and yellow
    win) goes through the table session while four phones watch live: the states they are shown (7s
    under way, folds, reshuffles, partners' marbles moved once a colour is home; a phone that falls behind
    skips some) render without a script error, and every phone ends with the result."""
    from companion.bench_dog import play_random_game

    final, actions = play_random_game(None, seed=2)
    assert final["winners"] == [1, 3]
    session = served.session
    table = session.create("dog", ["Ann", "Ben", "Cat", "Dan"], {})
    tokens = [session.claim_seat(table.id, seat) for seat in range(4)]
    errors: list[str] = []
    pages = []
    for token in tokens:
        page = new_phone(browser, errors=errors)
        page.context.add_cookies([{"name": "phone", "value": token, "url": served.server.url}])
        page.goto(f"{served.server.url}/t/{table.id}")
        page.wait_for_selector(".dog-board")
        pages.append(page)
    game = table.game

    def due() -> int:  # the seat whose cards or gift the table takes next
        state = table.state
        return game.chance_seats(state)[0] if state["phase"] == "deal" else game.current_player(state)

    waiting: dict[int, dict] = {}  # the random player deals and gives in seat order; the table in turn
    for action in actions:
        if action["type"] in ("deal", "give"):
            waiting[action["seat"]] = action
            while waiting and due() in waiting:
                seat = due()
                session.act(table.id, table.version, waiting.pop(seat), tokens[seat])
            continue
        session.act(table.id, table.version, action, tokens[table.state["turn"]])
    assert not waiting
    assert table.state["winners"] == [1, 3]
    for page in pages:
        page.wait_for_selector("#summary:has-text('Ben and Dan win: all eight marbles home.')")
        page.wait_for_selector("#status.over:has-text('Ben and Dan')")
        assert page.locator("#dog-turn, .dog-deal, .dog-give").count() == 0
    assert errors == []

"""`Dog`: the Game for DOG, the Swiss partnership marble game (rules/dog.md, D1-D14).

State layout (plain JSON; seats 0-3 play colours red, blue, green, yellow (white, black for 5 and 6);
partners are p and p+2 for four players; `teams` lists the teams, one seat each in individual play):

* `marbles`: per colour the four hole codes (board.py: track 0 to 16N-1, finish 16N+4c+h, kennel -1);
  `fresh`: per colour, whether its start holds a marble just brought out (it blocks everyone, D4).
* `round` (1-based), `hand_size`, `dealer`, `starter` (who plays first this round).
* `phase`: "deal" (each seat's dealt cards are entered: chance's move) | "exchange" (each seat gives its
  partner one card, face down; in individual play each takes one from its right-hand neighbour, and the
  neighbour's phone enters the card taken) | "play" | "take" (a 2 laid to take a card from an opponent:
  the opponent's phone enters the card taken, `taking` = {"by", "from"}) | "over". With the option
  hands="laid" there are no hands: a round goes straight to "play" and each card is entered as it is laid.
* `hands`: per seat its cards, or None before they are entered (None throughout with hands="laid");
  `cards_left`: per seat, cards still in hand (public); `given`: the exchange's cards, per giver.
* `turn`: the seat to play; `seven`: a 7 being laid part by part, {"card", "left"} or None.
* `stock`: per rank the cards not yet dealt since the last shuffle (hands="entered"), `stock_size`:
  cards in the stock, `seen`: per rank the cards laid face up since the last shuffle.
* `last`: what to do on the physical board for the last play; `winners`: the winning seats, once over.

Hidden: the hands, the cards given, the stock (it tells what the others hold). Secret fields of events
have `visible_to`; a `deal` or `give` action's cards are its seat's alone (`redact`).
"""

from __future__ import annotations

import copy
import itertools

from ..base import CHANCE, Action, Event, Game, State
from ..errors import BadOptions, IllegalAction
from .board import COLOURS, Teams, all_home, from_state, teams_for, to_state
from .board import initial as initial_board
from .cards import DECK_SIZE, RANKS, full_deck, hand_size, named
from .options import DogOptions
from .plays import Rules, plays, team_home
from .plays import play as play_card
from .seven import outcomes, parts
from .shapes import ACTION_SHAPES

PLAYS = ("start", "move", "swap", "seven")
#: cards that may take a card from an opponent in individual play (2.6; the Joker as a 2, D6).
TAKERS = ("2", "Joker")
#: how many marbles a team of each size brings home to win, in words.
MARBLES_HOME = {1: "four", 2: "eight", 3: "twelve"}


class Dog(Game):
    name = "dog"
    title = "DOG"
    options_type = DogOptions
    min_players = 2  # 2.6: the engine plays 2 to 6, all of which the table's page draws
    max_players = 6
    action_shapes = ACTION_SHAPES
    moves_pieces = frozenset(PLAYS + ("part",))

    # ---- setup ----------------------------------------------------------------------------------------
    def new_game(self, players: list[str], options: dict | None = None) -> State:
        if not isinstance(players, list) or not self.min_players <= len(players) <= self.max_players:
            raise BadOptions("DOG is played by 2 to 6 players: 4 in two teams (seats 0 and 2, 1 and 3), 6 in "
                             "teams, 2, 3 or 5 each for themselves")
        seats = len(players)
        given = dict(options) if isinstance(options, dict) else {} if options is None else options
        if isinstance(given, dict) and "dealer" not in given:
            given["dealer"] = seats - 1
        opts = DogOptions.from_json(given)
        opts.check()
        if opts.dealer >= seats:
            raise BadOptions(f"dealer is a seat number, 0 to {seats - 1}")
        if not all(isinstance(p, str) and p.strip() for p in players) or len(set(players)) != seats:
            raise BadOptions("each player needs a different, non-empty name")
        teams = teams_for(seats, opts.teams)
        marbles, fresh = to_state(initial_board(seats, teams.individual))
        state: State = {
            "game": self.name, "version": 0, "players": list(players), "options": opts.to_json(),
            "colours": list(COLOURS[:seats]), "teams": [list(t) for t in teams.teams],
            "marbles": marbles, "fresh": fresh,
            "round": 0, "hand_size": 0, "dealer": opts.dealer, "starter": opts.dealer,
            "phase": "deal", "hands": [None] * seats, "cards_left": [0] * seats, "given": [None] * seats,
            "turn": None, "seven": None, "taking": None, "stock": full_deck(), "stock_size": DECK_SIZE,
            "seen": dict.fromkeys(RANKS, 0), "last": [], "winners": None,
        }
        _next_round(state, [])
        return state

    # ---- whose move -----------------------------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def current_player(self, state: State) -> int | None:
        phase = state["phase"]
        if phase == "over":
            return None
        if phase == "deal":
            return CHANCE
        if phase == "exchange":
            return next(s for s in _order(state) if state["given"][s] is None)
        if phase == "take":
            return state["taking"]["from"]
        return state["turn"]

    def legal_actions(self, state: State) -> list[Action]:
        """Every action allowed now. While cards are dealt, every hand each waiting seat might hold (up to
        about 27,000 a seat for 6 cards: callers check a deal with `apply` rather than list them)."""
        phase = state["phase"]
        if phase == "over":
            return []
        if phase == "deal":
            return [{"type": "deal", "seat": s, "cards": list(cards)}
                    for s in _order(state) if state["hands"][s] is None
                    for cards in _possible_hands(state["stock"], state["hand_size"])]
        if phase == "exchange":
            return [{"type": "give", "seat": seat, "card": c} for seat in _order(state)
                    if state["given"][seat] is None for c in dict.fromkeys(state["hands"][seat])]
        if phase == "take":
            victim = state["taking"]["from"]
            return [{"type": "hand_over", "seat": victim, "card": c}
                    for c in dict.fromkeys(state["hands"][victim])]
        return turn_actions(state)

    # ---- applying -------------------------------------------------------------------------------------
    def _apply(self, state: State, action: Action) -> list[Event]:
        events: list[Event] = []
        kind, phase = action["type"], state["phase"]
        if kind == "roll":
            raise IllegalAction("DOG has no dice: lay a card")
        if phase == "deal":
            if kind != "deal":
                raise IllegalAction(f"the cards are being dealt: {_waiting_for_deal(state)}")
            _deal(state, action, events)
        elif phase == "exchange":
            if kind != "give":
                raise IllegalAction(_exchange_words(state))
            _give(state, action, events)
        elif phase == "take":
            if kind != "hand_over":
                raise IllegalAction(_take_words(state))
            _hand_over(state, action, events)
        elif kind in ("deal", "give", "hand_over"):
            raise IllegalAction("the cards are dealt and exchanged: it is time to play")
        else:
            _turn(state, action, events)
        return events

    # ---- what each player sees ------------------------------------------------------------------------
    def view(self, state: State, player: int | None) -> State:
        """The board, counts and face-up cards for all; a seat sees its own hand and the card it gave only
        (not its partner's hand: partners may not confer). The stock's make-up would tell the others'
        hands, so only its size is shown."""
        out = copy.deepcopy(state)
        out["hands"] = [h if seat == player else None for seat, h in enumerate(state["hands"])]
        out["given"] = [g if seat == player else None for seat, g in enumerate(state["given"])]
        out["given_count"] = sum(g is not None for g in state["given"])
        out["stock"] = None
        out["prompt"] = prompt(state)
        return out

    def summary(self, state: State) -> dict:
        """Marbles home per colour and the winning team, once over."""
        track = 16 * len(state["players"])
        home = {COLOURS[c]: sum(code >= track for code in codes) for c, codes in enumerate(state["marbles"])}
        winners = state["winners"] or []
        return {
            "over": self.is_over(state),
            "round": state["round"],
            "home": home,
            "winners": [state["players"][s] for s in winners],
            "team": " and ".join(state["players"][s] for s in winners) or None,
        }

    def redact(self, state: State, action: Action, player: int | None) -> Action:
        """A deal's cards and an exchange's or a 2's taken card for their own seat only (the partner
        learns the card given only on taking it, so a log shown before then must not tell it)."""
        if action.get("type") in ("deal", "give", "hand_over") and action.get("seat") != player:
            return {k: v for k, v in action.items() if k not in ("cards", "card")}
        return action

    def chance_seats(self, state: State) -> list[int] | None:
        """While cards are dealt: the next seat to enter its hand (its phone alone: the hand is secret)."""
        if state["phase"] != "deal":
            return None
        return [next(s for s in _order(state) if state["hands"][s] is None)]

    def secret_chance(self, state: State) -> bool:
        return state["phase"] == "deal"


# ---- rounds ---------------------------------------------------------------------------------------------
def _order(state: State) -> list[int]:
    """Seats in playing order from this round's starter."""
    seats = len(state["players"])
    return [(state["starter"] + k) % seats for k in range(seats)]


def _teams(state: State) -> Teams:
    return teams_for(len(state["players"]), state["options"]["teams"])


def _rules(state: State) -> Rules:
    return Rules(state["options"]["canadian_seven"], state["options"]["joker_ban"], _teams(state))


def _receiver(teams: Teams, seat: int) -> int:
    """Who gets `seat`'s exchange card: its partner (the next team-mate in a team of three), or in
    individual play the seat whose right-hand neighbour it is (each takes from the next seat, 2.6)."""
    return (seat - 1) % teams.seats if teams.individual else teams.team(seat)[1]


def _exchange_words(state: State) -> str:
    if _teams(state).individual:
        return ("each player first takes one card from their right-hand neighbour: the neighbour's phone "
                "enters the card taken")
    return "each player first gives one card face down to their partner"


def _take_words(state: State) -> str:
    names, taking = state["players"], state["taking"]
    return (f"{names[taking['by']]} takes a card from {names[taking['from']]} with a 2: "
            f"{names[taking['from']]}'s phone enters the card taken")


def _next_round(state: State, events: list[Event]) -> None:
    """Deal the next round: 6, 5, 4, 3, 2 cards, then 6 again; shuffle all cards when the stock is short."""
    opts = state["options"]
    seats = len(state["players"])
    number = state["round"] + 1
    size = hand_size(number)
    if state["stock_size"] < seats * size:
        state["stock"], state["stock_size"], state["seen"] = full_deck(), DECK_SIZE, dict.fromkeys(RANKS, 0)
        events.append({"type": "shuffle", "text": f"The stock is short: shuffle all {DECK_SIZE} cards."})
    dealer = (opts["dealer"] + number - 1) % seats if opts["rotate_dealer"] else opts["dealer"]
    starter = (opts["dealer"] + number) % seats
    laid = opts["hands"] == "laid"
    state.update(round=number, hand_size=size, dealer=dealer, starter=starter, cards_left=[size] * seats,
                 given=[None] * seats, seven=None, stock_size=state["stock_size"] - seats * size,
                 hands=[None] * seats, phase="play" if laid else "deal", turn=starter if laid else None)
    names = state["players"]
    exchange = ("each player takes one card from their right-hand neighbour" if _teams(state).individual
                else "each player gives one card face down to their partner")
    text = f"Round {number}: {names[dealer]} deals {size} cards each; {exchange}; {names[starter]} starts."
    events.append({"type": "round", "round": number, "text": text})


def _possible_hands(stock: dict[str, int], size: int) -> list[tuple[str, ...]]:
    ranks = [r for r in RANKS if stock[r]]
    return [c for c in itertools.combinations_with_replacement(ranks, size)
            if all(c.count(r) <= stock[r] for r in set(c))]


def _waiting_for_deal(state: State) -> str:
    waiting = [state["players"][s] for s in _order(state) if state["hands"][s] is None]
    return f"waiting for the cards dealt to {', '.join(waiting)}"


def _deal(state: State, action: Action, events: list[Event]) -> None:
    seat, cards = action["seat"], action["cards"]
    if state["hands"][seat] is not None:  # `seat` is a seat of this table (Game.apply checked it)
        raise IllegalAction(f"enter the cards of a seat still waiting: {_waiting_for_deal(state)}")
    if len(cards) != state["hand_size"]:
        raise IllegalAction(f"each player is dealt {state['hand_size']} cards this round, not {len(cards)}")
    for rank in set(cards):
        if cards.count(rank) > state["stock"][rank]:
            raise IllegalAction(f"only {state['stock'][rank]} more {rank} can be in the stock")
    for rank in cards:
        state["stock"][rank] -= 1
    state["hands"][seat] = sorted(cards, key=RANKS.index)
    events.append({"type": "dealt", "seat": seat, "cards": list(state["hands"][seat]), "visible_to": [seat],
                   "text": f"{state['players'][seat]} has entered their cards."})
    if all(h is not None for h in state["hands"]):
        state["phase"] = "exchange"


def _give(state: State, action: Action, events: list[Event]) -> None:
    seat, card = action["seat"], action["card"]
    if state["given"][seat] is not None:
        raise IllegalAction("each player gives one card; that seat has given its card")
    if card not in state["hands"][seat]:
        raise IllegalAction(f"{state['players'][seat]} holds no {card}")
    state["given"][seat] = card
    teams, names = _teams(state), state["players"]
    mate = _receiver(teams, seat)
    text = (f"{names[mate]} takes a card from {names[seat]}." if teams.individual
            else f"{names[seat]} gives {names[mate]} a card face down.")
    events.append({"type": "give", "seat": seat, "card": card, "visible_to": [seat], "text": text})
    if any(g is None for g in state["given"]):
        return
    for s in range(teams.seats):
        state["hands"][s].remove(state["given"][s])
    for giver in range(teams.seats):
        s = _receiver(teams, giver)
        received = state["given"][giver]
        state["hands"][s] = sorted(state["hands"][s] + [received], key=RANKS.index)
        events.append({"type": "receive", "seat": s, "card": received, "visible_to": [s],
                       "text": f"{names[s]} takes the card from {names[giver]}."})
    state["phase"], state["turn"] = "play", state["starter"]


def _hand_over(state: State, action: Action, events: list[Event]) -> None:
    """The card a 2 took (2.6), entered by the phone of the player it was taken from: it alone knows it."""
    seat, card = action["seat"], action["card"]
    taking, names = state["taking"], state["players"]
    victim, taker = taking["from"], taking["by"]
    if seat != victim:
        raise IllegalAction(_take_words(state))
    if card not in state["hands"][victim]:
        raise IllegalAction(f"{names[victim]} holds no {card}")
    state["hands"][victim].remove(card)
    state["hands"][taker] = sorted(state["hands"][taker] + [card], key=RANKS.index)
    state["cards_left"][victim] -= 1
    state["cards_left"][taker] += 1
    events.append({"type": "hand_over", "seat": victim, "card": card, "visible_to": [victim, taker],
                   "text": f"{names[victim]} has entered the card {names[taker]} took."})
    state["phase"], state["taking"] = "play", None
    _end_turn(state, taker, events)


# ---- turns ----------------------------------------------------------------------------------------------
def turn_actions(state: State) -> list[Action]:
    """The plays open to the seat to move: every distinct play of each card it may lay, or the rest of a 7,
    or, with no play, folding (and the Jack without effect, D5). Without hands every card is possible."""
    board = from_state(state["marbles"], state["fresh"])
    seat, rules = state["turn"], _rules(state)
    pending = state["seven"]
    if pending:
        found = outcomes(board, seat, rules.canadian, pending["left"])
        firsts = {}
        for end, path in found.items():
            if pending["card"] == "Joker" and rules.joker_ban and team_home(end, seat):
                continue
            first = parts(board, path)[0]
            firsts.setdefault((first["marble"], first["to"]), first)
        return [{"type": "part", **p} for p in firsts.values()]
    cards = _playable_cards(state)
    sevens: dict = {}
    out = [a for card in cards for a in plays(board, seat, card, rules, sevens)]
    if rules.teams.individual:
        out += [{"type": "take", "card": card, "from": other} for card in cards if card in TAKERS
                for other in range(rules.teams.seats) if other != seat and state["cards_left"][other] > 0]
    laid = state["hands"][seat] is None
    if not out or laid:
        out.append({"type": "fold"})
        if state["options"]["jack_without_effect"] and "J" in cards and not plays(board, seat, "J", rules):
            out.append({"type": "no_effect", "card": "J"})
    return out


def _playable_cards(state: State) -> list[str]:
    """The distinct cards the seat to move may lay: its hand, or without hands any card not all seen."""
    hand = state["hands"][state["turn"]]
    if hand is not None:
        return list(dict.fromkeys(hand))
    return [r for r in RANKS if state["seen"][r] < full_deck()[r]]


def _turn(state: State, action: Action, events: list[Event]) -> None:
    seat, kind = state["turn"], action["type"]
    names = state["players"]
    if state["seven"] and kind != "part":
        raise IllegalAction(f"{names[seat]} is laying a 7: {state['seven']['left']} step(s) are still to "
                            "move")
    if kind == "part" and not state["seven"]:
        raise IllegalAction("no 7 is being laid part by part: lay the 7 with its first part")
    if kind == "fold":
        if {"type": "fold"} not in turn_actions(state):
            raise IllegalAction(f"{names[seat]} can play a card and must (Zugzwang): folding is only for a "
                                "hand with no play")
        state["cards_left"][seat] = 0
        if state["hands"][seat] is not None:
            state["hands"][seat] = []
        state["last"] = [f"{names[seat]} folds: their cards go to the discard pile."]
        events.append({"type": "fold", "seat": seat, "text": state["last"][0]})
        _end_turn(state, seat, events)
        return
    card = state["seven"]["card"] if kind == "part" else action["card"]
    if kind != "part":
        _check_card(state, seat, card)
    if kind == "take":
        _take(state, seat, action, events)
        return
    if kind == "no_effect":
        if action not in turn_actions(state):
            raise IllegalAction("a Jack is laid without effect only when it has no swap and no other card "
                                "can be played")
        _lay(state, seat, card)
        state["last"] = [f"{names[seat]} lays a J without effect."]
        events.append({"type": "no_effect", "seat": seat, "card": card, "text": state["last"][0]})
        _end_turn(state, seat, events)
        return
    board = from_state(state["marbles"], state["fresh"])
    left = state["seven"]["left"] if kind == "part" else 7
    if kind == "seven" and card not in ("7", "Joker"):
        raise IllegalAction(f"only a 7 or a Joker is split into parts, not {card}")
    try:
        played = play_card(board, seat, action, _rules(state), left, card)
    except ValueError as err:
        raise IllegalAction(str(err)) from None
    state["marbles"], state["fresh"] = to_state(played.board)
    if kind != "part":
        _lay(state, seat, card)
        state["last"] = [f"{names[seat]} lays {named(card)}"]
    state["last"] = state["last"] + played.texts
    text = state["last"][0] + ": " + "; ".join(played.texts) + "."
    events.append({"type": kind, "seat": seat, "card": card, "text": text if kind != "part" else
                   f"{names[seat]} goes on with the 7: " + "; ".join(played.texts) + "."})
    if played.left:
        state["seven"] = {"card": card, "left": played.left}
        return
    state["seven"] = None
    teams = _teams(state)
    done = [team for team in teams.teams if all(all_home(played.board, s) for s in team)]
    if done:
        state["phase"], state["turn"] = "over", None
        state["winners"] = sorted(s for team in done for s in team)
        who = [names[s] for s in state["winners"]]
        many = " and ".join([", ".join(who[:-1]), who[-1]] if len(who) > 1 else who)
        verb = "have" if len(who) > 1 else "has"
        win = "win" if len(who) > 1 else "wins"
        text = f"{many} {verb} all {MARBLES_HOME.get(len(who), 'their')} marbles home and {win}!"
        events.append({"type": "win", "seats": state["winners"], "text": text})
        return
    _end_turn(state, seat, events)


def _take(state: State, seat: int, action: Action, events: list[Event]) -> None:
    """A 2 laid without effect to take a card from an opponent (individual play, 2.6). With hands entered
    the opponent's phone then enters the card taken; without hands only the counts change."""
    names, card, victim = state["players"], action["card"], action["from"]
    if not _teams(state).individual:
        raise IllegalAction("a 2 takes a card from an opponent only in individual play (2, 3 or 5 players)")
    if card not in TAKERS:
        raise IllegalAction(f"only a 2 (or a Joker as a 2) takes a card from an opponent, not {card}")
    if victim == seat or state["cards_left"][victim] == 0:
        raise IllegalAction("a 2 takes a card from an opponent who still holds cards")
    _lay(state, seat, card)
    state["last"] = [f"{names[seat]} lays {named(card)}", f"take a card from {names[victim]}'s hand"]
    events.append({"type": "take", "seat": seat, "card": card, "from": victim,
                   "text": f"{names[seat]} lays {named(card)} and takes a card from {names[victim]}."})
    if state["hands"][seat] is None:
        state["cards_left"][victim] -= 1
        state["cards_left"][seat] += 1
        _end_turn(state, seat, events)
        return
    state["phase"], state["taking"] = "take", {"by": seat, "from": victim}


def _check_card(state: State, seat: int, card: str) -> None:
    hand = state["hands"][seat]
    if hand is not None and card not in hand:
        raise IllegalAction(f"{state['players'][seat]} holds no {card}")
    if hand is None and state["seen"][card] >= full_deck()[card]:
        raise IllegalAction(f"all {full_deck()[card]} cards {card} have been laid since the last shuffle")


def _lay(state: State, seat: int, card: str) -> None:
    """The card leaves the hand face up."""
    state["cards_left"][seat] -= 1
    state["seen"][card] += 1
    if state["hands"][seat] is not None:
        state["hands"][seat].remove(card)


def _end_turn(state: State, seat: int, events: list[Event]) -> None:
    """The next seat with cards plays; when every hand is empty the next round is dealt."""
    seats = len(state["players"])
    for k in range(1, seats + 1):
        nxt = (seat + k) % seats
        if state["cards_left"][nxt] > 0:
            state["turn"] = nxt
            return
    _next_round(state, events)


def prompt(state: State) -> str:
    """What the table does next, in words for the top bar."""
    names = state["players"]
    phase = state["phase"]
    if phase == "over":
        return f"{' and '.join(names[s] for s in state['winners'])} win."
    if phase == "deal":
        return f"{names[state['dealer']]} deals {state['hand_size']} cards each: {_waiting_for_deal(state)}."
    if phase == "exchange":
        waiting = [names[s] for s in _order(state) if state["given"][s] is None]
        if _teams(state).individual:
            return ("Each player takes one card from their right-hand neighbour, whose phone enters it: "
                    f"waiting for {', '.join(waiting)}.")
        return f"Give one card face down to your partner: waiting for {', '.join(waiting)}."
    if phase == "take":
        return _take_words(state) + "."
    seat = state["turn"]
    done = "; ".join(state["last"][1:])
    before = f"On the board: {done}. " if done else ""
    if state["seven"]:
        return f"{before}{names[seat]}: {state['seven']['left']} more step(s) of the 7."
    return f"{before}{names[seat]} to play."

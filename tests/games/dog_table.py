"""Set up DOG positions for the tests: a game in play with chosen marbles, hands and turn."""

from __future__ import annotations

from companion.games.dog import Dog
from companion.games.dog.board import FRESH, from_state, to_state

GAME = Dog()
NAMES = ["Ann", "Ben", "Cat", "Dan"]
KENNEL = -1


def position(red=(), blue=(), green=(), yellow=(), fresh=(), hands=None, turn=0, options=None) -> dict:
    """A state in play: each colour's marbles at these holes (the rest in the kennel), `fresh` the colours
    (0-3) whose start holds a fresh marble, `hands` per seat (default: every seat holds one 2)."""
    state = GAME.new_game(list(NAMES), options)
    board: list[int] = []
    for colour, holes in enumerate((red, blue, green, yellow)):
        codes = [FRESH + colour if colour in fresh and h == 16 * colour else h for h in holes]
        board += codes + [KENNEL] * (4 - len(codes))
    for colour in fresh:
        if FRESH + colour not in board:
            board[board.index(KENNEL, 4 * colour)] = FRESH + colour
    state["marbles"], state["fresh"] = to_state(tuple(board))
    hands = hands if hands is not None else {s: ["2"] for s in range(4)}
    laid = state["options"]["hands"] == "laid"
    state["hands"] = [None if laid else list(hands.get(s, [])) for s in range(4)]
    state["cards_left"] = [len(hands.get(s, [])) for s in range(4)]
    state.update(phase="play", turn=turn, given=[None] * 4)
    return state


def board(state: dict) -> tuple:
    return from_state(state["marbles"], state["fresh"])


def plays_of(state: dict, card: str | None = None) -> list[dict]:
    return [a for a in GAME.legal_actions(state) if card is None or a.get("card") == card]


def targets(state: dict, card: str, marble: int) -> set[int]:
    return {a["to"] for a in plays_of(state, card) if a["type"] == "move" and a["marble"] == marble}


def play(state: dict, *actions: dict) -> tuple[dict, list[dict]]:
    events: list[dict] = []
    for action in actions:
        state, new = GAME.apply(state, action)
        events += new
    return state, events

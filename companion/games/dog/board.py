"""DOG's board (rules/dog.md 2.1, D1): 64 track fields, a start every 16, four finish holes per colour.

Every hole has one number, its *hole code*, used in the state, in actions and on the phones:

* track fields 0-63, forward = increasing (anticlockwise); colour c's start field is 16*c;
* colour c's finish holes F1-F4 are 64+4c .. 64+4c+3 (F1 is one step past the start, F4 the innermost);
* a marble in its kennel is -1 (kennel marbles are alike, so the kennel is just a count).

Colours are seats: seat p plays colour p, partners are p and p+2.

Inside the engine a board is a tuple of 16 codes, marble i of colour i // 4, and a *fresh* marble (just
brought out, blocking its start, D4) has the code FRESH + c instead of 16*c, so one tuple says it all.
"""

from __future__ import annotations

TRACK = 64
QUARTER = 16
HOLES = 4
FINISH = 64
FRESH = 80
KENNEL = -1
COLOURS = ("red", "blue", "green", "yellow")

Board = tuple[int, ...]


def start_of(colour: int) -> int:
    """The track field of `colour`'s start."""
    return QUARTER * colour


def finish_of(colour: int, hole: int = 0) -> int:
    """The code of `colour`'s finish hole `hole` (0 = F1 .. 3 = F4)."""
    return FINISH + HOLES * colour + hole


def partner(seat: int) -> int:
    return (seat + 2) % 4


def is_track(code: int) -> bool:
    return 0 <= code < TRACK


def is_finish(code: int) -> bool:
    return FINISH <= code < FRESH


def where(code: int) -> int:
    """The hole a player sees for an internal code (a fresh marble stands on its start)."""
    return start_of(code - FRESH) if code >= FRESH else code


def initial() -> Board:
    return (KENNEL,) * 16


def from_state(marbles: list[list[int]], fresh: list[bool]) -> Board:
    """The internal board of a state's `marbles` (codes per colour) and `fresh` flags."""
    out = []
    for colour, codes in enumerate(marbles):
        for code in codes:
            out.append(FRESH + colour if fresh[colour] and code == start_of(colour) else code)
    return tuple(out)


def to_state(board: Board) -> tuple[list[list[int]], list[bool]]:
    """A state's `marbles` (sorted codes per colour) and `fresh` flags for an internal board."""
    marbles = [sorted(where(code) for code in board[4 * c:4 * c + 4]) for c in range(4)]
    fresh = [FRESH + c in board[4 * c:4 * c + 4] for c in range(4)]
    return marbles, fresh


def canonical(board: Board) -> Board:
    """The board with each colour's marbles in order: marbles of one colour are alike."""
    return tuple(sorted(board[0:4]) + sorted(board[4:8]) + sorted(board[8:12]) + sorted(board[12:16]))


def all_home(board: Board, colour: int) -> bool:
    """True when all four marbles of `colour` are in its finish."""
    return all(FINISH <= code < FRESH for code in board[4 * colour:4 * colour + 4])


def controlled(board: Board, seat: int) -> int:
    """The colour `seat` moves: its own, or its partner's once its own four are home (2.5)."""
    return partner(seat) if all_home(board, seat) else seat


def marble_at(board: Board, hole: int) -> int | None:
    """The index of the marble a player sees at `hole` (fresh ones at their start), or None."""
    if hole < 0:
        return None
    if hole in board:
        return board.index(hole)
    if is_track(hole) and hole % QUARTER == 0 and FRESH + hole // QUARTER in board:
        return board.index(FRESH + hole // QUARTER)
    return None


def hole_name(hole: int) -> str:
    """A hole as the players find it: "red start", "blue 5" (5 past blue's start), "green F2", "kennel"."""
    if hole < 0:
        return "kennel"
    if hole >= FRESH:
        return f"{COLOURS[hole - FRESH]} start"
    if hole >= FINISH:
        return f"{COLOURS[(hole - FINISH) // HOLES]} F{(hole - FINISH) % HOLES + 1}"
    quarter, offset = divmod(hole, QUARTER)
    return f"{COLOURS[quarter]} start" if offset == 0 else f"{COLOURS[quarter]} {offset}"

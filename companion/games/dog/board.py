"""DOG's board (rules/dog.md 2.1, 2.6, D1): 16 track fields a player, a start every 16, four finish holes
per colour. Four players have 64 fields; 2 to 6 players have 16 * N (96 for six).

Every hole has one number, its *hole code*, used in the state, in actions and on the phones:

* track fields 0 to 16N-1, forward = increasing (anticlockwise); colour c's start field is 16*c;
* colour c's finish holes F1-F4 are 16N+4c .. 16N+4c+3 (F1 is one step past the start, F4 the innermost);
* a marble in its kennel is -1 (kennel marbles are alike, so the kennel is just a count).

Colours are seats: seat p plays colour p. Who plays with whom is a `Teams` (partners p and p+2 for four).

Inside the engine a board is a tuple of 4N codes, marble i of colour i // 4, and a *fresh* marble (just
brought out, blocking its start, D4) has the code 20N + c instead of 16*c, so one tuple says it all; the
number of players is len(board) // 4.
"""

from __future__ import annotations

from typing import NamedTuple

QUARTER = 16
HOLES = 4
#: the four-player codes: 64 track fields, finish holes from 64, fresh marbles from 80.
TRACK = 64
FINISH = 64
FRESH = 80
KENNEL = -1
COLOURS = ("red", "blue", "green", "yellow", "white", "black")

Board = tuple[int, ...]


def seats_of(board: Board) -> int:
    return len(board) // HOLES


def track_of(seats: int) -> int:
    """Track fields (= the first finish code) for `seats` players."""
    return QUARTER * seats


def fresh_of(seats: int) -> int:
    """The code of colour 0's fresh marble for `seats` players (colour c's is this + c)."""
    return (QUARTER + HOLES) * seats


class Teams(NamedTuple):
    """Who plays with whom (2.5, 2.6): `teams` the seats of each team, each in play order from its first
    seat; `individual` for 2, 3 and 5 players, each for themselves (the variant's own rules apply)."""

    seats: int
    teams: tuple[tuple[int, ...], ...]
    individual: bool = False

    def team(self, seat: int) -> tuple[int, ...]:
        """`seat`'s team in play order from `seat` itself."""
        return tuple(sorted(next(t for t in self.teams if seat in t), key=lambda s: (s - seat) % self.seats))


FOUR = Teams(4, ((0, 2), (1, 3)))
LAYOUTS = ("3x2", "2x3")


def teams_for(seats: int, layout: str = "3x2") -> Teams:
    """The teams of a game of `seats` players: two pairs for four; for six, three pairs sitting opposite
    ("3x2") or two teams of three, every second seat ("2x3"); 2, 3 and 5 play individually."""
    if seats == 4:
        return FOUR
    if seats == 6:
        if layout == "2x3":
            return Teams(6, ((0, 2, 4), (1, 3, 5)))
        return Teams(6, ((0, 3), (1, 4), (2, 5)))
    return Teams(seats, tuple((s,) for s in range(seats)), True)


def start_of(colour: int) -> int:
    """The track field of `colour`'s start."""
    return QUARTER * colour


def finish_of(colour: int, hole: int = 0, seats: int = 4) -> int:
    """The code of `colour`'s finish hole `hole` (0 = F1 .. 3 = F4)."""
    return QUARTER * seats + HOLES * colour + hole


def partner(seat: int) -> int:
    """The four-player partner (seats p and p+2)."""
    return (seat + 2) % 4


def is_track(code: int, seats: int = 4) -> bool:
    return 0 <= code < QUARTER * seats


def is_finish(code: int, seats: int = 4) -> bool:
    return QUARTER * seats <= code < fresh_of(seats)


def where(code: int, seats: int = 4) -> int:
    """The hole a player sees for an internal code (a fresh marble stands on its start)."""
    fresh = fresh_of(seats)
    return start_of(code - fresh) if code >= fresh else code


def initial(seats: int = 4, individual: bool = False) -> Board:
    """Every marble in its kennel; in individual play one of each colour fresh on its start (2.6)."""
    if not individual:
        return (KENNEL,) * (HOLES * seats)
    fresh = fresh_of(seats)
    return tuple(code for c in range(seats) for code in (fresh + c, KENNEL, KENNEL, KENNEL))


def from_state(marbles: list[list[int]], fresh: list[bool]) -> Board:
    """The internal board of a state's `marbles` (codes per colour) and `fresh` flags."""
    base = fresh_of(len(marbles))
    out = []
    for colour, codes in enumerate(marbles):
        for code in codes:
            out.append(base + colour if fresh[colour] and code == start_of(colour) else code)
    return tuple(out)


def to_state(board: Board) -> tuple[list[list[int]], list[bool]]:
    """A state's `marbles` (sorted codes per colour) and `fresh` flags for an internal board."""
    seats = seats_of(board)
    base = fresh_of(seats)
    marbles = [sorted(where(code, seats) for code in board[4 * c:4 * c + 4]) for c in range(seats)]
    fresh = [base + c in board[4 * c:4 * c + 4] for c in range(seats)]
    return marbles, fresh


def canonical(board: Board) -> Board:
    """The board with each colour's marbles in order: marbles of one colour are alike."""
    if len(board) == 16:
        return tuple(sorted(board[0:4]) + sorted(board[4:8]) + sorted(board[8:12]) + sorted(board[12:16]))
    return tuple(code for c in range(0, len(board), 4) for code in sorted(board[c:c + 4]))


def all_home(board: Board, colour: int) -> bool:
    """True when all four marbles of `colour` are in its finish."""
    seats = seats_of(board)
    low, high = QUARTER * seats, fresh_of(seats)
    return all(low <= code < high for code in board[4 * colour:4 * colour + 4])


def controlled(board: Board, seat: int, teams: Teams = FOUR) -> int:
    """The colour `seat` moves: its own, or once its own four are home the next team-mate's still out
    (its partner's for four players, 2.5); in individual play always its own."""
    if teams.individual or not all_home(board, seat):
        return seat
    mates = teams.team(seat)[1:]
    return next((m for m in mates if not all_home(board, m)), mates[0])


def marble_at(board: Board, hole: int) -> int | None:
    """The index of the marble a player sees at `hole` (fresh ones at their start), or None."""
    if hole < 0:
        return None
    if hole in board:
        return board.index(hole)
    seats = seats_of(board)
    if is_track(hole, seats) and hole % QUARTER == 0 and fresh_of(seats) + hole // QUARTER in board:
        return board.index(fresh_of(seats) + hole // QUARTER)
    return None


def hole_name(hole: int, seats: int = 4) -> str:
    """A hole as the players find it: "red start", "blue 5" (5 past blue's start), "green F2", "kennel"."""
    fresh = fresh_of(seats)
    if hole < 0:
        return "kennel"
    if hole >= fresh + seats:
        return f"no hole {hole}"
    if hole >= fresh:
        return f"{COLOURS[hole - fresh]} start"
    if hole >= QUARTER * seats:
        return f"{COLOURS[(hole - QUARTER * seats) // HOLES]} F{(hole - QUARTER * seats) % HOLES + 1}"
    quarter, offset = divmod(hole, QUARTER)
    return f"{COLOURS[quarter]} start" if offset == 0 else f"{COLOURS[quarter]} {offset}"

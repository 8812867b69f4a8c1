"""One card's effect on one marble (rules/dog.md 2.2, 2.4): start, forward, 4 backward, the Jack's swap.

Each function takes an internal board (board.py) and returns what may happen as `Moved` results; none
changes its argument. The 7 lives in seven.py: its parts send home every marble they pass.
"""

from __future__ import annotations

from typing import NamedTuple

from .board import KENNEL, QUARTER, Board, fresh_of, is_track, seats_of, start_of, track_of


class Moved(NamedTuple):
    """A marble that moved from hole `marble` to hole `to` (codes as players see them), the board after,
    and the indices of the marbles it sent home."""

    marble: int
    to: int
    board: Board
    sent_home: tuple[int, ...]


def _put(board: Board, index: int, code: int, home: int | None = None) -> Board:
    out = list(board)
    out[index] = code
    if home is not None:
        out[home] = KENNEL
    return tuple(out)


def _blocked(board: Board, field: int) -> bool:
    """True when `field` is a start holding its fresh marble: nobody passes or lands there (D4)."""
    return field % QUARTER == 0 and fresh_of(seats_of(board)) + field // QUARTER in board


def start(board: Board, colour: int) -> Moved | None:
    """A kennel marble of `colour` onto its start; a non-fresh marble there goes home (D13)."""
    block = board[4 * colour:4 * colour + 4]
    fresh = fresh_of(seats_of(board)) + colour
    if KENNEL not in block or fresh in block:
        return None
    index = 4 * colour + block.index(KENNEL)
    field = start_of(colour)
    home = board.index(field) if field in board else None
    return Moved(KENNEL, field, _put(board, index, fresh, home), () if home is None else (home,))


def forward(board: Board, index: int, steps: int) -> list[Moved]:
    """Marble `index` moved `steps` forward with any card but the 7: onto the track (landing sends home,
    passing does not) or, once past or on its own start and not fresh, into its finish by exact count."""
    code = board[index]
    colour = index // 4
    seats = seats_of(board)
    track, base = track_of(seats), fresh_of(seats)
    if code == KENNEL:
        return []
    if code < base and code >= track:
        hole = (code - track) % 4
        if hole + steps > 3 or any(code + s in board for s in range(1, steps + 1)):
            return []
        return [Moved(code, code + steps, _put(board, index, code + steps), ())]
    fresh = code >= base
    here = start_of(colour) if fresh else code
    blocked_at = next((s for s in range(1, steps + 1) if _blocked(board, (here + s) % track)), None)
    out = []
    if blocked_at is None:
        to = (here + steps) % track
        home = board.index(to) if to in board else None
        out.append(Moved(here, to, _put(board, index, to, home), () if home is None else (home,)))
    if not fresh:
        to_start = (start_of(colour) - here) % track
        into = steps - to_start - 1
        if 0 <= into < 4 and (blocked_at is None or blocked_at > to_start):
            first = track + 4 * colour
            if not any(first + h in board for h in range(into + 1)):
                out.append(Moved(here, first + into, _put(board, index, first + into), ()))
    return out


def backward(board: Board, index: int) -> Moved | None:
    """Marble `index` 4 fields back on the track (a fresh one too: "the fastest way home"); never in or
    out of the finish, never past a fresh start marble; landing sends home."""
    code = board[index]
    seats = seats_of(board)
    track, fresh = track_of(seats), fresh_of(seats)
    if code >= fresh:
        here = start_of(code - fresh)
    elif is_track(code, seats):
        here = code
    else:
        return None
    if any(_blocked(board, (here - s) % track) for s in range(1, 5)):
        return None
    to = (here - 4) % track
    home = board.index(to) if to in board else None
    return Moved(here, to, _put(board, index, to, home), () if home is None else (home,))


def swaps(board: Board, colour: int) -> list[tuple[int, int]]:
    """The Jack's pairs (own track marble, another colour's track marble), neither fresh (2.4, D5)."""
    seats = seats_of(board)
    own = [i for i in range(4 * colour, 4 * colour + 4) if is_track(board[i], seats)]
    others = [i for i in range(len(board)) if i // 4 != colour and is_track(board[i], seats)]
    return [(i, j) for i in own for j in others]


def swap(board: Board, index: int, other: int) -> Board:
    out = list(board)
    out[index], out[other] = board[other], board[index]
    return tuple(out)

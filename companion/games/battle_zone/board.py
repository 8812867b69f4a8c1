"""The 8x8 board: square names, directions, a pyramid's range, and the board as a camera would read it.

Squares are named as on a chessboard, "a1" to "h8": file a-h left to right from the first player's
side, rank 1 (the first player's starting line) to 8 (the second player's). A piece on the board is
`{"colour": "red", "size": 2, "controller": 0}`: size in pips (1 small, 2 medium, 3 large), controller
the seat it is lying for (pointing away from that player, at the opponent) or None when upright.
"""

from __future__ import annotations

FILES = "abcdefgh"
SIZE = 8
SQUARES: tuple[str, ...] = tuple(f"{f}{r}" for r in range(1, SIZE + 1) for f in FILES)
COORDS: dict[str, tuple[int, int]] = {sq: (FILES.index(sq[0]), int(sq[1]) - 1) for sq in SQUARES}
SIZE_NAMES = {1: "small", 2: "medium", 3: "large"}

#: Compass directions, north towards rank 8 (the second player's side): (file step, rank step).
DIRECTIONS: dict[str, tuple[int, int]] = {
    "N": (0, 1), "NE": (1, 1), "E": (1, 0), "SE": (1, -1),
    "S": (0, -1), "SW": (-1, -1), "W": (-1, 0), "NW": (-1, 1),
}


def square(x: int, y: int) -> str | None:
    """The square at file x, rank y (0-based), or None off the board."""
    return f"{FILES[x]}{y + 1}" if 0 <= x < SIZE and 0 <= y < SIZE else None


def starting_line(seat: int) -> list[str]:
    """A player's starting line: rank 1 for seat 0, rank 8 for seat 1 (3.2)."""
    rank = 1 if seat == 0 else SIZE
    return [f"{f}{rank}" for f in FILES]


def _zone(centre: str, pips: int, ring: bool) -> tuple[str, ...]:
    cx, cy = COORDS[centre]
    out = []
    for sq, (x, y) in COORDS.items():
        distance = max(abs(x - cx), abs(y - cy))
        if (distance == pips) if ring else (1 <= distance <= pips):
            out.append(sq)
    return tuple(out)


_ZONES = {(sq, pips, ring): _zone(sq, pips, ring)
          for sq in SQUARES for pips in (1, 2, 3) for ring in (False, True)}


def zone(centre: str, pips: int, ring: bool = False) -> tuple[str, ...]:
    """A pyramid's range (B1): squares at king distance 1..pips from `centre` (exactly pips if `ring`),
    clipped at the edges, never the centre itself; in board order a1, b1, ... h8."""
    return _ZONES[(centre, pips, ring)]


def path(start: str, direction: str, pips: int, seat: int) -> str | None:
    """Where a move of exactly `pips` squares ends: a square, "off" for an exit past the opponent's
    starting line, or None when the path leaves the board over another edge (B6).

    The first step off the board decides: it is an exit when it lies beyond the opponent's back rank,
    which includes a diagonal through the far corner."""
    x, y = COORDS[start]
    dx, dy = DIRECTIONS[direction]
    far = SIZE if seat == 0 else -1
    for _ in range(pips):
        x, y = x + dx, y + dy
        if not 0 <= y < SIZE:
            return "off" if y == far else None
        if not 0 <= x < SIZE:
            return None
    return square(x, y)


def describe(piece: dict) -> str:
    """How a player names a pyramid: "medium blue"."""
    return f"{SIZE_NAMES[piece['size']]} {piece['colour']}"


def reading(state: dict) -> dict[str, dict | None]:
    """Every square's pyramid as a camera reads the board from above, for comparing square by square:
    None for an empty square, else colour, size (pips), upright, and for a lying one `points` ("N"
    towards rank 8 or "S" towards rank 1) and `controller` (the seat it points away from)."""
    out: dict[str, dict | None] = {}
    for sq in SQUARES:
        piece = state["board"].get(sq)
        if piece is None:
            out[sq] = None
            continue
        seat = piece["controller"]
        out[sq] = {"colour": piece["colour"], "size": piece["size"], "upright": seat is None,
                   "points": None if seat is None else ("N" if seat == 0 else "S"), "controller": seat}
    return out


def differences(state: dict, seen: dict[str, dict | None]) -> list[str]:
    """The squares where a board reading `seen` (as `reading` gives it; squares left out are not
    compared) disagrees with the game, in board order."""
    expected = reading(state)
    return [sq for sq in SQUARES if sq in seen and seen[sq] != expected[sq]]

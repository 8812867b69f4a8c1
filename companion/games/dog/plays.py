"""What one card can do on the board for a seat (rules/dog.md 2.2, 2.4-2.6), and playing it.

A play is an action: `start`, `move` (one marble to a hole), `swap` (the Jack) or `seven` (parts, each a
marble and the hole it ends on). `plays` lists every distinct legal play of a card; `play` applies one,
checked, and says in words what to do on the physical board.
"""

from __future__ import annotations

from typing import NamedTuple

from . import moves, seven
from .board import (
    COLOURS,
    FOUR,
    KENNEL,
    Board,
    Teams,
    all_home,
    controlled,
    hole_name,
    marble_at,
    seats_of,
    where,
)
from .cards import BACKWARD, FORWARD, JACKS, JOKER, SEVENS, STARTS


class Rules(NamedTuple):
    canadian: bool = False
    joker_ban: bool = False
    teams: Teams = FOUR


class Played(NamedTuple):
    """The board after a play, what to do on the physical board, and the steps a 7 still owes."""

    board: Board
    texts: list[str]
    left: int = 0


def team_home(board: Board, seat: int, teams: Teams = FOUR) -> bool:
    """True when all marbles of `seat`'s team (eight for a pair, its own four in individual play) are
    in their finish: the team has won."""
    return all(all_home(board, mate) for mate in teams.team(seat))


def plays(board: Board, seat: int, card: str, rules: Rules, sevens: dict | None = None) -> list[dict]:
    """Every distinct legal play of `card` by `seat`; a 7's splits once per board they lead to.
    `sevens` caches the 7's outcomes between a 7 and a Joker of one hand."""
    return [action for action, _ in _plays(board, seat, card, rules, sevens)]


def _plays(board: Board, seat: int, card: str, rules: Rules, sevens: dict | None = None):
    colour = controlled(board, seat, rules.teams)
    block = range(4 * colour, 4 * colour + 4)
    out: list[tuple[dict, Board]] = []
    if card in STARTS:
        moved = moves.start(board, colour)
        if moved:
            out.append(({"type": "start", "card": card}, moved.board))
    for steps in FORWARD.get(card, ()):
        for i in block:
            for moved in moves.forward(board, i, steps):
                out.append((_move(card, moved), moved.board))
    if card in BACKWARD:
        for i in block:
            moved = moves.backward(board, i)
            if moved:
                out.append((_move(card, moved), moved.board))
    if card in JACKS:
        for i, j in moves.swaps(board, colour):
            out.append(({"type": "swap", "card": card, "marble": board[i], "with": board[j]},
                        moves.swap(board, i, j)))
    if card in SEVENS:
        found = sevens.get("7") if sevens is not None else None
        if found is None:
            found = seven.outcomes(board, seat, rules.canadian, 7, rules.teams)
            if sevens is not None:
                sevens["7"] = found
        for end, path in found.items():
            out.append(({"type": "seven", "card": card, "parts": seven.parts(board, path)}, end))
    if card == JOKER and rules.joker_ban:
        out = [(a, b) for a, b in out if not team_home(b, seat, rules.teams)]
    return out


def _move(card: str, moved: moves.Moved) -> dict:
    return {"type": "move", "card": card, "marble": moved.marble, "to": moved.to}


def play(board: Board, seat: int, action: dict, rules: Rules, left: int = 7, card: str = "7") -> Played:
    """Apply a checked-shape play; raise ValueError with a sentence a player can read if not legal.

    For a `part` action, `left` is what the 7 (or Joker) `card` laid part by part still owes."""
    kind = action["type"]
    if kind == "seven":
        return _seven(board, seat, action["parts"], action["card"], rules, 7)
    if kind == "part":
        return _seven(board, seat, [{"marble": action["marble"], "to": action["to"]}], card, rules, left)
    card = action["card"]
    for candidate, after in _plays(board, seat, card, rules):
        if candidate == action:
            return Played(after, _texts(board, after, kind, action))
    raise ValueError(_why_not(board, seat, action, rules))


def _seven(board: Board, seat: int, parts: list[dict], card: str, rules: Rules, left: int) -> Played:
    texts = []
    for part in parts:
        if left == 0:
            raise ValueError("a 7 has only seven steps: these parts take more")
        before = board
        board, steps, home = seven.part(board, seat, rules.canadian, part["marble"], part["to"], left,
                                        rules.teams)
        left -= steps
        texts.append(_moved(before, part["marble"], part["to"]) + _homes(before, home))
    if left:
        if not _finishable(board, seat, card, rules, left):
            raise ValueError(f"the 7 could not be finished from there: {left} step(s) would be left over, "
                             "and a 7 is always played in full")
    elif card == JOKER and rules.joker_ban and team_home(board, seat, rules.teams):
        raise ValueError("a Joker may not bring a team's last marble home (Joker ban)")
    return Played(board, texts, left)


def _finishable(board: Board, seat: int, card: str, rules: Rules, left: int) -> bool:
    if card == JOKER and rules.joker_ban:
        return any(not team_home(end, seat, rules.teams)
                   for end in seven.outcomes(board, seat, rules.canadian, left, rules.teams))
    return seven.can_finish(board, seat, rules.canadian, left, None, rules.teams)


def marble_name(board: Board, hole: int) -> str:
    index = marble_at(board, hole)
    name = hole_name(hole, seats_of(board))
    return f"{COLOURS[index // 4]} at {name}" if index is not None else name


def _moved(board: Board, hole: int, to: int) -> str:
    return f"move {marble_name(board, hole)} to {hole_name(to, seats_of(board))}"


def _homes(before: Board, home: list[int] | tuple[int, ...]) -> str:
    seats = seats_of(before)
    return "".join(f", send {COLOURS[i // 4]} at {hole_name(where(before[i], seats), seats)} home"
                   for i in home)


def _texts(before: Board, after: Board, kind: str, action: dict) -> list[str]:
    home = [i for i in range(len(before)) if after[i] == KENNEL and before[i] != KENNEL]
    if kind == "start":
        colour = next(i // 4 for i in range(len(before)) if before[i] == KENNEL and after[i] != KENNEL)
        return [f"bring a {COLOURS[colour]} marble out onto its start" + _homes(before, home)]
    if kind == "swap":
        return [f"swap {marble_name(before, action['marble'])} with {marble_name(before, action['with'])}"]
    return [_moved(before, action["marble"], action["to"]) + _homes(before, home)]


def _why_not(board: Board, seat: int, action: dict, rules: Rules) -> str:
    """Why a play is refused, in the words of the rules."""
    card, kind = action["card"], action["type"]
    colour = controlled(board, seat, rules.teams)
    if kind == "start":
        if card not in STARTS:
            return f"only an A, a K or a Joker brings a marble out, not {card}"
        return (f"no {COLOURS[colour]} marble can come out: the kennel is empty or a fresh marble is on "
                "the start")
    if kind == "swap":
        if card not in JACKS:
            return f"only a J or a Joker swaps marbles, not {card}"
        return ("a Jack swaps one of your marbles on the track with another player's; neither may be fresh "
                "on its start, in a kennel or in a finish")
    index = marble_at(board, action["marble"])
    if index is None or index // 4 != colour:
        return (f"you move {COLOURS[colour]} marbles now; there is none at "
                f"{hole_name(action['marble'], seats_of(board))}")
    if card in ("7", "J"):
        return f"a {card} is played as {'a seven' if card == '7' else 'a swap'}"
    return (f"{card} cannot take {marble_name(board, action['marble'])} to "
            f"{hole_name(action['to'], seats_of(board))}: "
            "the count must be exact, a fresh start marble may not be passed, and no marble passes "
            "another inside a finish")

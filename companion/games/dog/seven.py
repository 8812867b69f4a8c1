"""The 7 (rules/dog.md 2.4, D2): seven single steps forward, shared among the marbles a player moves.

A part of k steps is the same as k single steps of one marble: each step lands on the next hole, and a
7 sends home every marble it passes or lands on, so stepping one hole at a time sends home exactly what
the part would. A step may not land on a fresh start marble (none may be passed) nor on a finish marble
(none may be passed inside the finish), and a marble on its own start, not fresh, may step into F1.

So every split of a 7 is a path of seven single steps, and the boards after j steps form layers: the
search keeps each board of a layer once (with one step that reached it), so orders of steps that lead to
the same board are followed once. Distinct final boards, with marbles of one colour alike, are the
distinct moves. With 8 marbles out (the Canadian 7) a layer holds at most C(j+7, 7) boards.

Who moves: the player's own marbles; once all four are home (also during this 7) the partner's (the next
team-mate's still out, for teams of three); with the Canadian 7 the whole team's, throughout; in
individual play (2, 3, 5 players, 2.6) every marble on the board, so a 7 can break a start blockade.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable

from .board import (
    FOUR,
    KENNEL,
    QUARTER,
    Board,
    Teams,
    all_home,
    canonical,
    controlled,
    fresh_of,
    hole_name,
    marble_at,
    seats_of,
    start_of,
    track_of,
    where,
)

Step = tuple[int, int]  # (marble index, its code after the step)


def movers(board: Board, seat: int, canadian: bool, teams: Teams = FOUR) -> range | tuple[int, ...]:
    """Indices of the marbles a 7 of `seat` may move on this board."""
    if teams.individual:
        return range(len(board))
    colour = controlled(board, seat, teams)
    if canadian and colour == seat:
        return tuple(i for mate in teams.team(seat) for i in range(4 * mate, 4 * mate + 4))
    return range(4 * colour, 4 * colour + 4)


def children(board: Board, seat: int, canadian: bool, teams: Teams = FOUR) -> list[tuple[Board, Step]]:
    """Every board one single step away, with the step that reaches it."""
    return steps_of(board, movers(board, seat, canadian, teams))


def steps_of(board: Board, indices: Iterable[int]) -> list[tuple[Board, Step]]:
    """Every board one single step of one of the marbles `indices` away, with that step."""
    seats = seats_of(board)
    track, fresh = track_of(seats), fresh_of(seats)
    out = []
    for i in indices:
        code = board[i]
        if code == KENNEL:
            continue
        if code >= fresh:
            to = start_of(code - fresh) + 1
        elif code >= track:
            to = code + 1
            if (code - track) % 4 != 3 and to not in board:
                out.append((board[:i] + (to,) + board[i + 1:], (i, to)))
            continue
        else:
            if code == QUARTER * (i // 4):
                into = track + 4 * (i // 4)
                if into not in board:
                    out.append((board[:i] + (into,) + board[i + 1:], (i, into)))
            to = (code + 1) % track
            if to % QUARTER == 0 and fresh + to // QUARTER in board:
                continue
        if to in board:
            nxt = list(board)
            nxt[board.index(to)] = KENNEL
            nxt[i] = to
            out.append((tuple(nxt), (i, to)))
        else:
            out.append((board[:i] + (to,) + board[i + 1:], (i, to)))
    return out


def _layers_of(board: Board, indices: Iterable[int], left: int) -> list[dict]:
    """Boards after 0..left single steps of the marbles `indices`, each with the board and step it was
    first reached from: `steps_of` written out inline, for speed (the hot loop of a Canadian 7).

    The boards here are bytes, one byte a marble (`_packed`): each child is the board being expanded, held
    as a bytearray, changed in place, copied and changed back; a bytes object keeps its hash once made and
    finds a hole with memchr. Against tuples, the bench's worst Canadian 7 takes about a third less time."""
    seats = seats_of(board)
    track, fresh = track_of(seats), fresh_of(seats)
    plan = []
    for i in indices:
        if board[i] != KENNEL:
            colour = i // 4
            plan.append((i, start_of(colour), track + 4 * colour))
    home = _packed((KENNEL,))[0]
    layers: list[dict] = [{_packed(board): None}]
    for _ in range(left):
        nxt: dict[bytes, tuple[bytes, Step]] = {}
        for here in layers[-1]:
            board_now = bytearray(here)
            for i, own_start, first in plan:
                code = here[i]
                if code == home:
                    continue
                if code >= fresh:
                    to = own_start + 1
                elif code >= track:
                    to = code + 1
                    if (code - track) % 4 != 3 and to not in here:
                        board_now[i] = to
                        there = bytes(board_now)
                        board_now[i] = code
                        if there not in nxt:
                            nxt[there] = (here, (i, to))
                    continue
                else:
                    if code == own_start and first not in here:
                        board_now[i] = first
                        there = bytes(board_now)
                        board_now[i] = code
                        if there not in nxt:
                            nxt[there] = (here, (i, first))
                    to = (code + 1) % track
                    if to % 16 == 0 and fresh + to // 16 in here:
                        continue
                board_now[i] = to
                if to in here:
                    j = here.index(to)
                    board_now[j] = home
                    there = bytes(board_now)
                    board_now[j] = to
                else:
                    there = bytes(board_now)
                board_now[i] = code
                if there not in nxt:
                    nxt[there] = (here, (i, to))
        layers.append(nxt)
    return layers


def _packed(board: Board) -> bytes:
    """A board as bytes: each code as a signed byte (every code is below 128; the kennel, -1, is 255)."""
    return struct.pack(f"{len(board)}b", *board)


def _unpacked(board: bytes) -> Board:
    """The board a `_packed` board stands for."""
    return struct.unpack(f"{len(board)}b", board)


def _canonical_packed(colours: bytes, sorted_colours: dict[bytes, bytes]) -> bytes:
    """`canonical` of a packed board, each colour's four marbles looked up in (or added to)
    `sorted_colours`: a 7's boards hold few distinct colours, and a look-up is faster than a sort."""
    out = b""
    for c in range(0, len(colours), 4):
        four = colours[c:c + 4]
        in_order = sorted_colours.get(four)
        if in_order is None:
            in_order = sorted_colours[four] = _packed(tuple(sorted(_unpacked(four))))
        out += in_order
    return out


def _switching_layers(board: Board, seat: int, canadian: bool, left: int,
                      teams: Teams = FOUR) -> list[dict]:
    """As `_layers_of`, with the marbles `movers` allows on each board (the player's last marble may
    come home during the 7, and the partner's marbles move on)."""
    layers: list[dict] = [{board: None}]
    for _ in range(left):
        nxt: dict[Board, tuple[Board, Step]] = {}
        for here in layers[-1]:
            for there, step in children(here, seat, canadian, teams):
                if there not in nxt:
                    nxt[there] = (here, step)
        layers.append(nxt)
    return layers


def _path(layers: list[dict], depth: int, end: Board | bytes) -> list[Step]:
    """The steps from the first board to `end`, a board of layer `depth`."""
    path: list = [None] * depth
    here = end
    for d in range(depth, 0, -1):
        here, path[d - 1] = layers[d][here]
    return path


def _reach(board: Board, index: int, left: int) -> set[int]:
    """Every hole marble `index` stands on or might step onto within `left` steps, blockers ignored."""
    code = board[index]
    colour = index // 4
    seats = seats_of(board)
    track, fresh = track_of(seats), fresh_of(seats)
    if track <= code < fresh:
        return {code + s for s in range(4 - (code - track) % 4)}
    here = start_of(colour) if code >= fresh else code
    out = {(here + s) % track for s in range(left + 1)}
    to_start = (start_of(colour) - here) % track
    if code < fresh and to_start < left:
        out |= {track + 4 * colour + h for h in range(min(4, left - to_start))}
    return out


def _groups(board: Board, indices: Iterable[int], left: int) -> list[list[int]]:
    """The marbles that might touch one another's holes during this 7, in groups that cannot: a group's
    steps never change what another group's steps can do, so the groups' outcomes combine freely."""
    groups: list[tuple[list[int], set[int]]] = []
    for i in indices:
        if board[i] == KENNEL:
            continue
        members, holes = [i], _reach(board, i, left)
        for other in [g for g in groups if g[1] & holes]:
            groups.remove(other)
            members += other[0]
            holes |= other[1]
        groups.append((members, holes))
    return [sorted(g[0]) for g in groups]


def _switch_possible(board: Board, seat: int, canadian: bool, left: int, teams: Teams = FOUR) -> bool:
    """True when this 7 might bring the last marbles of the colour moved home and go on with the next
    team-mate's."""
    if canadian or teams.individual:
        return False
    colour = controlled(board, seat, teams)
    team = teams.team(seat)
    if team.index(colour) == len(team) - 1 or all_home(board, colour):
        return False
    track = track_of(seats_of(board))
    return all(track <= code < fresh_of(seats_of(board)) or
               (0 <= code < track and (start_of(colour) - code) % track < left)
               for code in board[4 * colour:4 * colour + 4])


def outcomes(board: Board, seat: int, canadian: bool, left: int = 7,
             teams: Teams = FOUR) -> dict[Board, list[Step]]:
    """Each distinct board (canonical) that `left` single steps can reach, with one path of steps to it."""
    if _switch_possible(board, seat, canadian, left, teams):
        return _finals(_switching_layers(board, seat, canadian, left, teams), packed=False)
    groups = _groups(board, movers(board, seat, canadian, teams), left)
    if len(groups) <= 1:
        return _finals(_layers_of(board, groups[0] if groups else (), left))
    per_group = []  # per group, per number of steps it takes: [(changed marbles, (layers, depth, board))]
    sorted_colours: dict[bytes, bytes] = {}
    for group in groups:
        layers = _layers_of(board, group, left)
        by_depth = []
        for depth, layer in enumerate(layers):
            seen: dict[bytes, tuple] = {}
            for end in layer:
                key = _canonical_packed(end, sorted_colours)
                if key not in seen:
                    changed = tuple((i, code) for i, code in enumerate(_unpacked(end)) if code != board[i])
                    seen[key] = (changed, (layers, depth, end))
            by_depth.append(list(seen.values()))
        per_group.append(by_depth)
    found: dict[Board, tuple] = {}
    _combine(list(board), per_group, 0, left, (), found)
    return {key: [step for layers, depth, end in ends for step in _path(layers, depth, end)]
            for key, ends in found.items()}


def _finals(layers: list[dict], packed: bool = True) -> dict[Board, list[Step]]:
    """The distinct boards (canonical) of the last layer, each with the path to its first board; the
    layers hold `_packed` boards, or tuples where not `packed`."""
    depth = len(layers) - 1
    firsts: dict = {}
    if packed:
        sorted_colours: dict[bytes, bytes] = {}
        for end in layers[-1]:
            firsts.setdefault(_canonical_packed(end, sorted_colours), end)
        return {_unpacked(key): _path(layers, depth, end) for key, end in firsts.items()}
    for end in layers[-1]:
        firsts.setdefault(canonical(end), end)
    return {key: _path(layers, depth, end) for key, end in firsts.items()}


def _combine(base: list[int], per_group: list, g: int, left: int, ends: tuple, found: dict) -> None:
    """Every way the groups from `g` on share `left` steps, each group with one of its outcomes: `base` is
    the board with the earlier groups' outcomes, `ends` where they came from."""
    last = g == len(per_group) - 1
    for depth in (left,) if last else range(left + 1):
        for changed, end in per_group[g][depth]:
            board = list(base)
            for i, code in changed:
                board[i] = code
            if last:
                key = canonical(tuple(board))
                if key not in found:
                    found[key] = ends + (end,)
            else:
                _combine(board, per_group, g + 1, left - depth, ends + (end,), found)


def parts(board: Board, path: list[Step]) -> list[dict]:
    """A path of single steps as the parts a player makes: consecutive steps of one marble are one part."""
    seats = seats_of(board)
    out: list[dict] = []
    last = None
    here = list(board)
    for index, code in path:
        if index == last:
            out[-1]["to"] = where(code, seats)
        else:
            out.append({"marble": where(here[index], seats), "to": where(code, seats)})
        here[index] = code
        last = index
    return out


def can_finish(board: Board, seat: int, canadian: bool, left: int, dead: set | None = None,
               teams: Teams = FOUR) -> bool:
    """True when `left` more single steps can be made from `board` (a part of a 7 must leave a way to
    finish it: a 7 is never played in part)."""
    if left == 0:
        return True
    dead = set() if dead is None else dead
    if (board, left) in dead:
        return False
    for there, _ in children(board, seat, canadian, teams):
        if can_finish(there, seat, canadian, left - 1, dead, teams):
            return True
    dead.add((board, left))
    return False


def part(board: Board, seat: int, canadian: bool, marble: int, to: int,
         left: int, teams: Teams = FOUR) -> tuple[Board, int, list[int]]:
    """Play one part: the marble at hole `marble` steps forward until it stands on hole `to`.

    Returns the board, the steps used and the indices of the marbles sent home; raises ValueError with
    a sentence a player can read when the part is not possible.
    """
    seats = seats_of(board)
    track, fresh = track_of(seats), fresh_of(seats)
    index = marble_at(board, marble)
    if index is None or index not in movers(board, seat, canadian, teams):
        raise ValueError("a 7 moves only marbles you may move: your own (your partner's once yours are "
                         "home, or with the Canadian 7)")
    steps, home = 0, []
    while board[index] != to:
        if steps == left:
            raise ValueError(f"the 7 has only {left} step(s) left, not enough to reach "
                             f"{hole_name(to, seats)}")
        code = board[index]
        in_finish = track <= code < fresh
        into = in_finish or (track <= to < fresh and code == start_of(index // 4))
        step = next((there for there, (i, after) in children(board, seat, canadian, teams)
                     if i == index and (track <= after < fresh) == into), None)
        if step is None:
            raise ValueError(f"this marble cannot step on from {hole_name(where(code, seats), seats)}: a "
                             "fresh start marble, a finish marble or the end of the finish is in the way")
        home += [i for i in range(len(board)) if step[i] == KENNEL and board[i] != KENNEL]
        board = step
        steps += 1
    return board, steps, home

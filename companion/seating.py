"""Who may do what at a table: its host, its seats and the phones that hold them.

Pure rules over a table's seats and state; each answers None (allowed) or the sentence a refused phone
is shown. The table session raises them as 403s. A phone is known by its token; the physical buttons
have none and are trusted like the host (whoever presses them is at the table).

* The host (the phone that made the table, or one it or the CONFIRM button approved) starts another
  game, ends the game, changes options, frees seats, hands seats to other phones and passes the role on.
* A phone holds one seat unless the host gives it more.
* A roll is typed, confirmed or corrected by the seats that rolled, or the host; a hidden draw is
  entered only by the seats it concerns.
* A decision belongs to the seat to move (a phone may decide for a seat nobody took, never with a choice
  that shows that seat's secrets); it is undone only by that seat or the host.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .games import CHANCE, Action

if TYPE_CHECKING:
    from .table import Table

#: A request for a seat or for the host's role waits this long for an answer (seconds).
REQUEST_TTL_S = 120.0


@dataclass
class Request:
    """A phone asking for a seat (taken, or a second one) or to be host; not logged until approved."""

    token: str
    kind: str  # "seat" | "host"
    seat: int | None = None
    id: str = field(default_factory=lambda: secrets.token_hex(4))
    at: float = field(default_factory=time.monotonic)  # seconds, monotonic clock

    def expired(self, now: float | None = None) -> bool:
        return (time.monotonic() if now is None else now) - self.at > REQUEST_TTL_S

    def words(self, table: Table) -> str:
        """ "A phone asks for Bob's seat (held by another phone)", as the host's phone shows it."""
        held = table.seats_of(self.token)
        asker = f"{_names(table, held)}'s phone" if held else "A phone"
        if self.kind == "host":
            return f"{asker} asks to be host"
        taken = " (held by another phone)" if self.seat in table.seats else ""
        return f"{asker} asks for {table.players[self.seat]}'s seat{taken}"


def _names(table: Table, seats: list[int]) -> str:
    words = [table.players[s] for s in seats]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _either(table: Table, seats: list[int]) -> str:
    words = [table.players[s] for s in seats]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def is_host(table: Table, token: str | None) -> bool:
    return bool(token and table.host and secrets.compare_digest(table.host, token))


def is_member(table: Table, token: str | None) -> bool:
    """The host or a seated phone: it may see the join code and the QR code."""
    return is_host(table, token) or bool(table.seats_of(token))


def in_progress(table: Table) -> bool:
    """A game under way: a first move made and not over (a new table has nothing to lose yet)."""
    return bool(table.steps) and not table.over


def host_refusal(table: Table, token: str | None, what: str) -> str | None:
    """Only the host (or the physical button, token None) may do `what` ("end the game")."""
    if token is None or is_host(table, token):
        return None
    return f"only the table's host may {what}"


def chance_refusal(table: Table, token: str | None) -> str | None:
    """Who may enter the chance outcome due (a roll's dice, a draw): see the module's docstring."""
    if token is None:
        return None
    game, state = table.game, table.state
    held = set(table.seats_of(token))
    seats = game.chance_seats(state)
    if game.secret_chance(state):
        concerned = seats or []
        return None if held & set(concerned) else \
            f"only {_either(table, concerned)} may enter this: it is a hidden draw"
    if is_host(table, token) or (held and (seats is None or held & set(seats))):
        return None
    if not held:
        return "take a seat at this table first; watchers cannot play"
    return f"only {_either(table, seats)} (who rolled) or the host may enter this roll"


def decision_refusal(table: Table, token: str | None, action: Action) -> str | None:
    """A decision belongs to the seat to move, or to any seated phone (or the host) for a seat nobody
    took, but never with a choice that uses that seat's secrets (checked before the engine looks at
    the action, so the refusal reads the same whatever the secret is)."""
    game, state = table.game, table.state
    to_move = game.current_player(state)
    held = table.seats_of(token)
    if to_move is None or to_move in held:
        return None if held or is_host(table, token) else "take a seat at this table first"
    if to_move in table.seats:
        return f"it is {table.players[to_move]}'s turn"
    if not held and not is_host(table, token):
        return "take a seat at this table first; watchers cannot play"
    viewer = held[0] if held else None
    if game.redact(state, action, viewer) != action:
        name = table.players[to_move]
        return f"this choice uses {name}'s hidden items: only {name}'s own phone may make it"
    return None


def undo_refusal(table: Table, token: str | None) -> str | None:
    """The last decision is undone by the seat that made it (or decided for), or the host."""
    if token is None or is_host(table, token):
        return None
    step = table.steps[-1] if table.steps else None
    held = set(table.seats_of(token))
    if step is not None and held & {step.seat, step.actor} - {None}:
        return None
    who = table.players[step.seat] if step is not None and step.seat is not None else "the player who moved"
    return f"only {who} or the host may undo this move"


def correction_refusal(table: Table, token: str | None, rollers: list[int] | None) -> str | None:
    """The last roll is corrected by the seats that rolled it, or the host."""
    if token is None or is_host(table, token):
        return None
    held = set(table.seats_of(token))
    if held and (rollers is None or held & set(rollers)):
        return None
    if not held:
        return "take a seat at this table first; watchers cannot press"
    return f"only {_either(table, rollers or [])} (who rolled) or the host may correct this roll"


def decides(table: Table, token: str | None) -> bool:
    """Whether this phone is offered the decision due now (its own, or one for a seat nobody took)."""
    to_move = table.game.current_player(table.state)
    if to_move is None or to_move == CHANCE or table.over:
        return False
    held = table.seats_of(token)
    return to_move in held or (to_move not in table.seats and (bool(held) or is_host(table, token)))

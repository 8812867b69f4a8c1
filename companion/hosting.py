"""The host's commands, and how phones join: seats by code, requests the host (or the button) approves.

Mixed into `TableSession` (it uses the session's lock, store and records); every change is a record in
the table's log (`seat`, `seat_freed`, `host`, `options`, `end`, `current`), so it survives a restart.
Requests themselves wait in memory: a phone asking again after a restart costs nothing.

A lost phone or a cleared browser never leaves a game stuck: its player's new phone asks for the seat,
and the host (on their phone) or a press of the physical CONFIRM button hands it over. A lost host is
replaced the same way: a phone asks to be host and the button approves it.
"""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING, Any

from . import seating
from .games import GameError
from .refusals import BadCommand, NotNow, NotYourSeat
from .seating import Request

if TYPE_CHECKING:
    from .table import Table


class HostCommands:
    """The table session's seat and host commands; see the module's docstring."""

    # ---- joining ---------------------------------------------------------------------------------
    def join(self, table_id: str, seat: int, code: str | None, token: str | None = None) -> dict[str, Any]:
        """A phone asks for `seat` with the table's join code (not needed by the host or a seated phone).

        An empty seat, for a phone holding none, is given at once; a taken seat, or a second seat, waits
        for the host's word (or a press of CONFIRM on the table). Returns {"token", "granted", "text"}."""
        with self._lock:
            table = self.get(table_id)
            self._seat_index(table, seat)
            if not seating.is_member(table, token) and not _same_code(table.code, code):
                raise NotYourSeat("enter the table's join code (the host's phone shows it) to take a seat")
            token = token or secrets.token_urlsafe(16)
            held = table.seats_of(token)
            if seat in held:
                raise NotNow(f"this phone already holds {table.players[seat]}'s seat")
            if seat not in table.seats and (not held or seating.is_host(table, token)):
                self._give_seat(table, seat, token)
                return {"token": token, "granted": True, "text": f"{table.players[seat]} joined"}
            request = self._ask(table, Request(token, "seat", seat))
            return {"token": token, "granted": False, "request": request.id,
                    "text": f"{request.words(table)}: the host can approve it, or press CONFIRM on the table"}

    def request_host(self, table_id: str, token: str, code: str | None = None) -> dict[str, Any]:
        """A phone asks to be host; the host or a press of CONFIRM approves it. A table without a host
        (made by a script, or before hosts existed) takes the first member (or code holder) who asks."""
        with self._lock:
            table = self.get(table_id)
            if not token:
                raise NotYourSeat("this phone has no token: take a seat first")
            if not seating.is_member(table, token) and not _same_code(table.code, code):
                raise NotYourSeat("enter the table's join code to ask to be host")
            if seating.is_host(table, token):
                raise NotNow("this phone is already the host")
            if table.host is None:
                self._make_host(table, token)
                return {"granted": True, "text": "This phone is now the host"}
            request = self._ask(table, Request(token, "host"))
            return {"granted": False, "request": request.id,
                    "text": "Asked to be host: the host can approve it, or press CONFIRM on the table"}

    def approve(self, table_id: str, request_id: str, token: str | None) -> list[str]:
        """The host (token None: the physical CONFIRM button) grants a waiting request."""
        with self._lock:
            table = self.get(table_id)
            self._host_only(table, token, "approve requests")
            return self._grant(table, self._request(table, request_id))

    def decline(self, table_id: str, request_id: str, token: str | None) -> list[str]:
        """The host refuses a request, or the asking phone withdraws it."""
        with self._lock:
            table = self.get(table_id)
            request = self._request(table, request_id)
            if token is not None and not seating.is_host(table, token) and request.token != token:
                raise NotYourSeat("only the host, or the phone that asked, may turn this request down")
            table.requests.remove(request)
            texts = [f"Not granted: {request.words(table)}"]
            self._tell(table, texts)
            return texts

    def press_confirm(self, table_id: str) -> list[str]:
        """The physical CONFIRM button: it approves the one waiting request (a phone asking for a seat or
        to be host: the person pressing is at the table), else it confirms the reading of the dice."""
        with self._lock:
            table = self.get(table_id)
            waiting = self._waiting(table)
            if len(waiting) > 1:
                raise NotNow(f"{len(waiting)} phones are asking: the host chooses on their phone, or "
                             "the others cancel, then press CONFIRM again")
            if waiting:
                return self._grant(table, waiting[0])
            return self.confirm(table_id)

    # ---- the host's commands ---------------------------------------------------------------------
    def pass_host(self, table_id: str, seat: int, token: str | None) -> list[str]:
        """The host hands the role to the phone holding `seat`."""
        with self._lock:
            table = self.get(table_id)
            self._host_only(table, token, "pass the host's role on")
            self._seat_index(table, seat)
            if seat not in table.seats:
                raise NotNow(f"no phone holds {table.players[seat]}'s seat")
            return self._make_host(table, table.seats[seat])

    def free_seat(self, table_id: str, seat: int, token: str | None) -> list[str]:
        """The host takes a seat back from its phone (lost, or passed on): any phone may take it again."""
        with self._lock:
            table = self.get(table_id)
            self._host_only(table, token, "free a seat")
            self._seat_index(table, seat)
            if seat not in table.seats:
                raise NotNow(f"{table.players[seat]}'s seat is free already")
            self._commit(table, "seat_freed", {"seat": seat})
            texts = [f"{table.players[seat]}'s seat is free: a phone can take it with the code"]
            self._tell(table, texts)
            return texts

    def end_game(self, table_id: str, token: str | None) -> list[str]:
        """The host ends the game: nothing more is played; the whole log is for everyone."""
        with self._lock:
            table = self.get(table_id)
            self._host_only(table, token, "end the game")
            if table.over:
                raise NotNow("the game is over already")
            self._commit(table, "end", {})
            texts = ["The host ended the game"]
            self._tell(table, texts)
            return texts

    def set_options(self, table_id: str, options: dict[str, Any], token: str | None) -> list[str]:
        """The host changes the options before the first move (after it: start another game)."""
        with self._lock:
            table = self.get(table_id)
            self._host_only(table, token, "change the options")
            if table.steps or table.over:
                raise NotNow("the options are fixed once the game has started: start another game")
            if not isinstance(options, dict):
                raise BadCommand("options must be an object")
            try:
                table.game.new_game(table.players, options)
            except GameError as err:
                raise BadCommand(str(err)) from None
            except TypeError as err:
                raise BadCommand(f"bad options: {err}") from None
            self._commit(table, "options", {"options": options})
            texts = ["The host changed the options"]
            self._tell(table, texts)
            return texts

    def again(self, table_id: str, token: str | None, options: dict[str, Any] | None = None) -> Table:
        """The host starts another game at this table: same game and players, the same phones in the
        same seats, the same host; it takes the camera if this table had it. An unfinished game ends."""
        with self._lock:
            table = self.get(table_id)
            self._host_only(table, token, "start another game")
            new = self.create(table.game.name, list(table.players),
                              table.options if options is None else options, token=table.host)
            for seat, owner in sorted(table.seats.items()):
                self._give_seat(new, seat, owner)
            if not table.over:
                self._commit(table, "end", {})
            if self.current == table.id:
                self._choose(new)
            self._tell(table, [f"The host started another game: {new.game.title}"])
            return new

    def use_here(self, table_id: str, token: str | None) -> list[str]:
        """The camera and the buttons serve this table from now on. Its host may take them back from a
        table whose game is over or not started; a game in progress gives them up on its host's word."""
        with self._lock:
            table = self.get(table_id)
            running = self.tables.get(self.current or "")
            if running is table:
                return []
            if token is None:  # a trusted caller (a script, a test)
                return self._choose(table)
            if running is not None and seating.in_progress(running):
                if not seating.is_host(running, token):
                    raise NotYourSeat(f"the {running.game.title} game with {', '.join(running.players)} is "
                                      "in progress: only its host may hand the camera and buttons over")
            elif not seating.is_host(table, token) and not (running and seating.is_host(running, token)):
                raise NotYourSeat("only the table's host may take the camera and buttons")
            return self._choose(table)

    def may_calibrate(self, table_id: str, token: str | None) -> None:
        """Only the host of the table the camera serves may calibrate the camera (NotYourSeat, NotNow)."""
        with self._lock:
            table = self.get(table_id)
            self._host_only(table, token, "calibrate the camera")
            if self.current != table.id:
                raise NotNow("the camera serves another table: use the camera here first, then calibrate")

    # ---- helpers ---------------------------------------------------------------------------------
    def _choose(self, table: Table) -> list[str]:
        self._commit(table, "current", {})
        self.current = table.id
        texts = ["The camera and the buttons serve this table now"]
        self._tell(table, texts)
        return texts

    def _give_seat(self, table: Table, seat: int, token: str) -> None:
        self._commit(table, "seat", {"seat": seat, "token": token})
        table.requests = [r for r in table.requests if not (r.kind == "seat" and r.seat == seat)]
        self._tell(table, [f"{table.players[seat]} joined"])

    def _make_host(self, table: Table, token: str) -> list[str]:
        self._commit(table, "host", {"token": token})
        table.requests = [r for r in table.requests if r.kind != "host"]
        held = table.seats_of(token)
        texts = [f"New host: {', '.join(table.players[s] for s in held)}'s phone" if held else
                 "A new phone is the host"]
        self._tell(table, texts)
        return texts

    def _grant(self, table: Table, request: Request) -> list[str]:
        table.requests.remove(request)
        if request.kind == "host":
            return self._make_host(table, request.token)
        self._give_seat(table, request.seat, request.token)
        return [f"{table.players[request.seat]}'s seat is given to the phone that asked"]

    def _ask(self, table: Table, request: Request) -> Request:
        """Keep one waiting request per phone (the newest) and tell the host's phone."""
        table.requests = [r for r in self._waiting(table) if r.token != request.token] + [request]
        self._tell(table, [request.words(table)])
        return request

    @staticmethod
    def _waiting(table: Table) -> list[Request]:
        now = time.monotonic()
        table.requests = [r for r in table.requests if not r.expired(now)]
        return list(table.requests)

    def _request(self, table: Table, request_id: str) -> Request:
        for request in self._waiting(table):
            if request.id == request_id:
                return request
        raise NotNow("that request was answered already, or it expired: ask again")

    @staticmethod
    def _host_only(table: Table, token: str | None, what: str) -> None:
        refusal = seating.host_refusal(table, token, what)
        if refusal:
            raise NotYourSeat(refusal)

    @staticmethod
    def _seat_index(table: Table, seat: Any) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(table.players):
            raise BadCommand(f"there is no seat {seat!r}")


def _same_code(code: str, given: str | None) -> bool:
    """Whether a phone typed the join code (any case, spaces around it ignored)."""
    if not isinstance(given, str):
        return False
    typed = given.strip().upper().encode("utf-8", "replace")
    return secrets.compare_digest(code.encode(), typed)

"""The table session: one game at one table, every command applied one at a time and logged first.

Phones, buttons and the camera all come here. A command names the version it was made against (the
number of records in the table's log); a stale one is refused, so two phones pressing at once apply
once. Each accepted command is committed to the event store before listeners hear of it, and a table
is rebuilt on start by replaying its records:

* `action`: an engine action (a decision, a draw, or a roll's outcome with where it came from);
* `undo`: takes back the last player decision (never a roll or a draw);
* `correction`: replaces the values of the last confirmed roll, which is then resolved again;
* `seat`: a phone took a seat, or the host (or the CONFIRM button) handed it to another phone;
* `seat_freed`: the host took a seat back from its phone;
* `host`: a phone became the table's host (it made the table, or was approved, or was handed the role);
* `options`: the host changed the options before the first move;
* `end`: the host ended the game;
* `current`: the table's host chose it for the camera and the buttons.

Who may do what (the host, the seats) is in `seating`; the host's own commands in `hosting`.

A table's checkpoint (`companion/checkpoint.py`) saves what its records built every so often, so a
restart replays only what came after it; a finished table is not replayed at start at all (it is
archived, and loaded when someone opens it). A table that cannot be read is set aside, with a line in
the log and on the page (`problems`), and the others are served.
"""

from __future__ import annotations

import logging
import secrets
import string
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from . import checkpoint, games, seating
from .games import CHANCE, Action, BadAction, Game, GameError, IllegalAction, RollRequest, State
from .hosting import HostCommands
from .reading import DEFAULT_MIN_CONFIDENCE, Proposal, match_reading
from .refusals import BadCommand, NotNow, NotYourSeat, TableError, UnknownTable
from .store import Checkpoint, DamagedFile, EventStore, Record, StorageError, StorageFull, TableRow

log = logging.getLogger(__name__)

HISTORY_SHOWN = 200

__all__ = ["BadCommand", "NotNow", "NotYourSeat", "Table", "TableError", "TableSession", "UnknownTable"]


class StorageFault(TableError):
    """The command could not be stored (the disk cannot be written): nothing was changed."""

    status = 503


class StorageIsFull(StorageFault):
    """The disk is full: nothing was changed; commands go through again once there is room."""

    status = 507


@dataclass
class Step:
    """One effective action and the state it led to, kept so undo and correction can rewind."""

    seq: int
    action: Action
    state: State
    by: str
    chance: bool
    texts: list[str]
    source: str = ""
    todo: list[str] = field(default_factory=list)  # what players must do with the pieces after it
    seat: int | None = None  # whose decision it was (the seat to move)
    actor: int | None = None  # the seat of the phone that made it (None: the host, a button, the camera)


@dataclass
class Table:
    """A live game. Every field is derived from the store's records, except the current reading.

    `steps` are the steps undo and correction can still reach, or all of them: once a checkpoint is
    taken, `below` older ones are only in the store, and `earlier` keeps their history lines.
    """

    id: str
    code: str
    game: Game
    players: list[str]
    options: dict[str, Any]
    initial: State
    steps: list[Step] = field(default_factory=list)
    seats: dict[int, str] = field(default_factory=dict)  # seat index -> phone token
    version: int = 0  # records in the log
    proposal: Proposal | None = None
    photo: bytes | None = None
    read_requests: int = 0  # bumped by RETRY: the camera reads again
    earlier: list[dict[str, Any]] = field(default_factory=list)  # history lines of steps below
    below: int = 0  # steps no longer held here (they are in the store's records)
    checkpoint_seq: int = 0  # the version of the table's latest checkpoint
    host: str | None = None  # the host phone's token
    ended: bool = False  # the host ended the game
    chosen_at: float = 0.0  # when it last became the table the camera serves (seconds since the epoch)
    requests: list[seating.Request] = field(default_factory=list)  # waiting for the host's word

    @property
    def state(self) -> State:
        return self.steps[-1].state if self.steps else self.initial

    @property
    def over(self) -> bool:
        """The game is over, or the host ended it."""
        return self.ended or self.game.is_over(self.state)

    def seats_of(self, token: str | None) -> list[int]:
        """Every seat this phone holds, in seat order (one, unless the host gave it more)."""
        if not token:
            return []
        return sorted(seat for seat, owner in self.seats.items() if secrets.compare_digest(owner, token))

    def seat_of(self, token: str | None) -> int | None:
        """The seat this phone shows: the one to move if it holds it, else its first; None: a watcher."""
        held = self.seats_of(token)
        to_move = self.game.current_player(self.state)
        return to_move if to_move in held else (held[0] if held else None)


def _texts(events: list[dict]) -> list[str]:
    return [str(e["text"]) for e in events if isinstance(e, dict) and e.get("text")]


def _todo(game: Game, events: list[dict]) -> list[str]:
    """The words of the events that ask players to move pieces on the table."""
    return _texts([e for e in events if isinstance(e, dict) and e.get("type") in game.moves_pieces])


def _corrected(by: str, values: list) -> str:
    return f"{by} corrected the roll to {', '.join(str(v) for v in values)}"


def _roll_key(table: Table) -> int:
    """The record number of the last effective step: the same while a roll waits, whoever joins."""
    return table.steps[-1].seq if table.steps else 0


def _new_code(taken: set[str]) -> str:
    """A short join code a player can type: four letters without look-alikes."""
    alphabet = "".join(c for c in string.ascii_uppercase if c not in "IO")
    while True:
        code = "".join(secrets.choice(alphabet) for _ in range(4))
        if code not in taken:
            return code


class PendingRoll(NamedTuple):
    """A roll awaiting the camera. `roll` names the game state that asked for it: it changes with every
    move, undo or correction, not when a phone takes a seat; `colours`: the colour names the game's sets
    of dice go by (`Game.dice_colours`: every set in play, not only the roll's), which the camera names
    dice among."""

    table_id: str
    roll: int
    read_requests: int
    request: RollRequest
    colours: tuple[str, ...]


class TableSession(HostCommands):
    """All tables of this companion, behind one lock; `current` is the one the buttons and camera serve."""

    def __init__(self, store: EventStore, min_confidence: float = DEFAULT_MIN_CONFIDENCE,
                 checkpoint_every: int = checkpoint.EVERY) -> None:
        """checkpoint_every: records between a table's checkpoints (a restart replays fewer per table)."""
        self.store = store
        self.min_confidence = min_confidence
        self.checkpoint_every = checkpoint_every
        self.tables: dict[str, Table] = {}
        self.archived: dict[str, TableRow] = {}  # finished tables, loaded when someone opens one
        self.current: str | None = None
        self._lock = threading.RLock()
        self._listeners: list[Callable[[str, int, list[str]], None]] = []
        self._unreadable: list[str] = []  # tables that failed to load since start, in words
        try:
            self._start()
        except DamagedFile as err:  # a damaged page: set the file aside, then start from what reads
            store.salvage(err)
            self.tables, self.archived, self.current = {}, {}, None
            self._start()

    def _start(self) -> None:
        """Serve every table of the store; a finished one is archived, not replayed (see `get`)."""
        last_seqs, marks = self.store.last_seqs(), self.store.checkpoint_marks()
        for row in self.store.tables():
            seq, over = marks.get(row.id, (0, False))
            if over and seq == last_seqs.get(row.id, 0):
                self.archived[row.id] = row
            else:
                self._load(row, starting=True)
            self.current = row.id
        loaded = [t for t in self.tables.values() if t.chosen_at]
        if loaded:  # the live table chosen last for the camera (a finished one is archived, not chosen)
            self.current = max(loaded, key=lambda t: t.chosen_at).id

    @property
    def problems(self) -> list[str]:
        """What the store set aside (files, tables), in sentences for the page; empty when all is well."""
        notes = list(self.store.problems) + self._unreadable
        try:
            aside = self.store.set_aside_tables()
        except StorageError as err:
            return [*notes, str(err)]
        return notes + [f"Table {t.table_id} was set aside on {_when(t.at)}: {t.reason}. Its records are "
                        f"kept, unchanged, in {self.store.path}; the other tables are served." for t in aside]

    # ---- listening -------------------------------------------------------------------------------
    def listen(self, callback: Callable[[str, int, list[str]], None]) -> Callable[[], None]:
        """Call `callback(table_id, version, texts)` after every change; returns a function to stop."""
        with self._lock:
            self._listeners.append(callback)

        def stop() -> None:
            with self._lock:
                if callback in self._listeners:
                    self._listeners.remove(callback)

        return stop

    def _tell(self, table: Table, texts: list[str]) -> None:
        for callback in list(self._listeners):
            callback(table.id, table.version, texts)
        self._checkpoint_if_due(table)

    def _checkpoint_if_due(self, table: Table) -> None:
        """Every `checkpoint_every` records, and when the game ends, save what the records built and let
        go of the steps no undo can reach. A checkpoint that cannot be written only makes restarts slower."""
        over = table.over  # the game is over, or the host ended it: archived at the next start
        since = table.version - table.checkpoint_seq
        if since < self.checkpoint_every and not (over and since > 0):
            return
        body = checkpoint.take(table.steps, table.earlier, table.below, HISTORY_SHOWN)
        if body is None:
            return
        try:
            self.store.save_checkpoint(table.id, Checkpoint(table.version, over, body))
        except StorageError as err:
            log.warning("table %s: no checkpoint (%s); a restart replays more of its log", table.id, err)
            return
        first = checkpoint.first_reachable(table.steps)
        table.steps, table.earlier = table.steps[first:], body["earlier"]
        table.below += first
        table.checkpoint_seq = table.version

    # ---- tables ----------------------------------------------------------------------------------
    def create(self, game_name: str, players: list[str], options: dict[str, Any] | None = None,
               token: str | None = None) -> Table:
        """A new table, hosted by the phone `token` (if given). It becomes the current one (the one the
        camera and the buttons serve) unless the current one has a game in progress: then that table's
        host says when (`use_here`)."""
        if not isinstance(players, list) or not all(isinstance(p, str) and p.strip() for p in players):
            raise BadCommand("players must be a list of names")
        if not isinstance(options, dict | None):
            raise BadCommand("options must be an object")
        players = [p.strip()[:40] for p in players]
        try:
            game = games.get(game_name)
            if not game.min_players <= len(players) <= game.max_players:  # what the table's page can show
                raise BadCommand(f"{game.title} is played here by {game.min_players} to {game.max_players} "
                                 f"players, not {len(players)}")
            initial = game.new_game(players, options or {})
        except GameError as err:
            raise BadCommand(str(err)) from None
        except TypeError as err:  # an option of the wrong type
            raise BadCommand(f"bad options: {err}") from None
        with self._lock:
            table_id = secrets.token_hex(4)
            taken = {t.code for t in self.tables.values()} | {r.code for r in self.archived.values()}
            code = _new_code(taken)
            try:
                self.store.create_table(table_id, code, game_name, players, options or {})
            except StorageError as err:
                raise _refusal(err) from None
            table = Table(table_id, code, game, players, options or {}, initial, chosen_at=time.time())
            self.tables[table_id] = table
            if token:
                self._commit(table, "host", {"token": token})
            running = self.tables.get(self.current or "")
            if running is None or not seating.in_progress(running):
                self.current = table_id
            self._tell(table, [f"New table: {game.title} with {', '.join(players)}"])
            return table

    def get(self, table_id: str) -> Table:
        table, row = self.tables.get(table_id), None
        if table is None:
            with self._lock:
                row = self.archived.get(table_id)
                table = self.tables.get(table_id) or (self._load(row) if row else None)
        if table is None:
            if row is not None or any(t.table_id == table_id for t in self._set_aside()):
                raise UnknownTable(f"table {table_id} cannot be read: it was set aside (the page says why)")
            raise UnknownTable(f"no table {table_id!r}")
        return table

    def _set_aside(self) -> list:
        try:
            return self.store.set_aside_tables()
        except StorageError:
            return []

    def by_code(self, code: str) -> Table:
        wanted = code.strip().upper() if isinstance(code, str) else ""
        for table in self.tables.values():
            if table.code == wanted:
                return table
        for row in list(self.archived.values()):
            if row.code == wanted:
                return self.get(row.id)
        raise UnknownTable(f"no table with code {code!r}")

    def _load(self, row: TableRow, starting: bool = False) -> Table | None:
        """Rebuild a table from the store and serve it; one that cannot be read is set aside (None). A
        damaged page found while starting is the whole file's to deal with (raised); found later, the
        table is left unserved and the store notes the damage for the next start."""
        try:
            table = self._restore(row)
        except DamagedFile as err:
            if starting:
                raise
            self._unreadable.append(f"Table {row.id} cannot be read: {err}.")
            return None
        except Exception as err:  # noqa: BLE001  any failure: this table only, never the others
            reason = str(err) if isinstance(err, StorageError | GameError) else f"{type(err).__name__}: {err}"
            if not isinstance(err, StorageError | GameError):
                log.exception("table %s cannot be replayed", row.id)
            try:
                self.store.set_aside(row.id, reason)
            except StorageError as also:
                self._unreadable.append(f"Table {row.id} cannot be read ({reason}) and could not be marked "
                                        f"set aside ({also}); it is not served.")
            self.archived.pop(row.id, None)
            return None
        self.archived.pop(row.id, None)
        self.tables[row.id] = table
        return table

    def _restore(self, row: TableRow) -> Table:
        """The table as its records built it: from its checkpoint when it has one, replaying the rest."""
        game = games.get(row.game)
        initial = game.new_game(row.players, row.options)
        table = Table(row.id, row.code, game, row.players, row.options, initial, chosen_at=row.created)
        saved = self.store.checkpoint(row.id)
        start = 0
        if saved is not None:
            try:
                table.steps, table.earlier, table.below = checkpoint.load(saved.body, Step)
                start = table.checkpoint_seq = saved.seq
            except ValueError as err:
                log.warning("table %s: %s; replaying its whole log", row.id, err)
                table.steps, table.earlier, table.below = [], [], 0
        for record in self.store.records(row.id, until=start, except_kinds=checkpoint.GAME_KINDS):
            self._replay_record(table, record)
        table.version = start
        for record in self.store.records(row.id, after=start):
            self._replay_record(table, record)
        return table

    def _replay_record(self, table: Table, record: Record) -> None:
        try:
            self._replay(table, record)
        except (IllegalAction, KeyError, IndexError, TypeError, ValueError) as err:
            raise StorageError(f"record {record.seq} ({record.kind}) cannot be replayed: {err}") from None

    # ---- commands --------------------------------------------------------------------------------
    def claim_seat(self, table_id: str, seat: int, token: str | None = None) -> str:
        """Bind `seat` to the phone `token` (None: a new phone) and return its token. A taken seat, or a
        second seat for a phone that holds one, is refused: the host gives those (`join`, `approve`).
        Trusted callers only (tests, scripts): phones join with the code through `join`."""
        with self._lock:
            table = self.get(table_id)
            self._seat_index(table, seat)
            if seat in table.seats:
                raise NotNow(f"{table.players[seat]}'s seat is taken by another phone")
            if table.seats_of(token) and not seating.is_host(table, token):
                raise NotNow("this phone already holds a seat: the host can give it another")
            token = token or secrets.token_urlsafe(16)
            self._give_seat(table, seat, token)
            return token

    def act(self, table_id: str, version: int, action: Action, token: str | None = None,
            source: str = "phone") -> list[str]:
        """Apply a player's decision or a roll typed on a phone; returns what happened, in words."""
        with self._lock:
            table = self._check(table_id, version)
            by = self._authorise(table, token, action)
            return self._apply(table, action, by, source, actor=table.seat_of(token))

    def confirm(self, table_id: str, version: int | None = None, token: str | None = None,
                reading: str | None = None) -> list[str]:
        """CONFIRM: apply the proposed reading of the roll (button: version None = the current one).

        A phone names the reading it showed (`reading`, the proposal's photo_id): exactly that reading is
        applied, or the press is refused when the dice were read again since; the version is then not
        needed (a phone joining does not make the reading stale)."""
        with self._lock:
            table = self._check(table_id, None if reading is not None else version)
            by = self._presser(table, token, seating.chance_refusal(table, token))
            if table.game.roll_request(table.state) is None:
                raise NotNow("nothing to confirm: no roll is awaited")
            proposal = table.proposal
            if proposal is None:
                raise NotNow("no reading yet: roll the dice into the tray and let them settle")
            if reading is not None and reading != proposal.photo_id:
                raise NotNow("The dice were read again after your phone showed them: check the new "
                             "reading, then press CONFIRM again.")
            if not proposal.certain or proposal.values is None:
                raise NotNow("the reading is uncertain: press RETRY to read again, or type the dice")
            action = {"type": "roll", "values": proposal.values}
            return self._apply(table, action, by, "camera", reading=proposal.dice, actor=table.seat_of(token))

    def retry(self, table_id: str, version: int | None = None, token: str | None = None) -> None:
        """RETRY: forget the proposed reading; the camera reads the tray again."""
        with self._lock:
            table = self._check(table_id, version)
            self._presser(table, token)
            if table.game.roll_request(table.state) is None:
                raise NotNow("nothing to read again: no roll is awaited")
            table.proposal, table.photo = None, None
            table.read_requests += 1
            self._tell(table, ["Reading the dice again"])

    def undo(self, table_id: str, version: int | None = None, token: str | None = None) -> list[str]:
        """Take back the last player decision; rolls and draws are corrected, never undone."""
        with self._lock:
            table = self._check(table_id, version)
            self._presser(table, token)
            if not table.steps:
                raise NotNow("nothing to undo")
            last = table.steps[-1]
            if last.chance:
                raise NotNow("a confirmed roll cannot be undone; correct it instead")
            refusal = seating.undo_refusal(table, token)
            if refusal:
                raise NotYourSeat(refusal)
            self._commit(table, "undo", {})
            table.steps.pop()
            table.proposal, table.photo = None, None
            texts = [f"Undone: {last.by}'s last move"]
            self._tell(table, texts)
            return texts

    def correct(self, table_id: str, version: int, values: list, token: str | None = None) -> list[str]:
        """Replace the values of the last confirmed roll and resolve it again; the correction is logged."""
        with self._lock:
            table = self._check(table_id, version)
            by = self._presser(table, token)
            if not table.steps or table.steps[-1].action.get("type") != "roll":
                raise NotNow("only the last confirmed roll can be corrected, before anyone moves again")
            previous = table.steps[-2].state if len(table.steps) > 1 else table.initial
            refusal = seating.correction_refusal(table, token, table.game.chance_seats(previous))
            if refusal:
                raise NotYourSeat(refusal)
            action = {"type": "roll", "values": values}
            try:
                state, events = table.game.apply(previous, action)
            except IllegalAction as err:
                raise BadCommand(str(err)) from None
            record = self._commit(table, "correction", {"values": values, "by": by})
            texts = [_corrected(by, values), *_texts(events)]
            table.steps[-1] = Step(record.seq, action, state, by, True, texts, "correction",
                                   _todo(table.game, events), actor=table.seat_of(token))
            self._tell(table, texts)
            return texts

    def pending_roll(self) -> PendingRoll | None:
        """The current table's roll awaiting the camera (`PendingRoll`), taken at one moment; None when no
        roll is awaited."""
        with self._lock:
            table = self.tables.get(self.current) if self.current else None
            request = table.game.roll_request(table.state) if table else None
            return None if table is None or request is None else PendingRoll(
                table.id, _roll_key(table), table.read_requests, request,
                tuple(table.game.dice_colours(table.state)))

    def propose_reading(self, table_id: str, dice: list[dict], photo_jpeg: bytes | None = None,
                        roll: int | None = None) -> Proposal | None:
        """The camera's reading of a settled tray; kept (not logged) until CONFIRM or RETRY. roll: the
        `pending_roll` the reading was made for; if the game has moved on since (the roll was typed on
        a phone while the tray was read), the reading is of no roll awaited now and is dropped. Each
        reading gets its own photo_id, never reused, which names its photo and the CONFIRM of it."""
        with self._lock:
            table = self.get(table_id)
            request = table.game.roll_request(table.state)
            if request is None or roll is not None and roll != _roll_key(table):
                return None
            proposal = match_reading(request, dice, self.min_confidence)
            proposal.photo_id = secrets.token_urlsafe(9)
            table.proposal, table.photo = proposal, photo_jpeg
            if proposal.certain:
                text = "Read " + ", ".join(str(v) for v in proposal.values or []) + ": press CONFIRM"
            else:
                text = "Reading uncertain: " + "; ".join(proposal.problems)
            self._tell(table, [text])
            return proposal

    # ---- internals -------------------------------------------------------------------------------
    def _check(self, table_id: str, version: int | None) -> Table:
        table = self.get(table_id)
        if version is not None and version != table.version:
            raise NotNow("The table has moved on since your phone last showed it: look at it again, "
                         "then try once more.")
        if table.ended:
            raise NotNow("the host ended this game: the host can start another at this table")
        return table

    def _presser(self, table: Table, token: str | None, refusal: str | None = None) -> str:
        """Who pressed a table-wide button: the physical button (no token), a seated phone or the host;
        `refusal`, if any, is why this phone may not (see `seating`)."""
        if token is None:
            return "button"
        seat = table.seat_of(token)
        if seat is None and not seating.is_host(table, token):
            raise NotYourSeat("take a seat at this table first; watchers cannot press")
        if refusal:
            raise NotYourSeat(refusal)
        return table.players[seat] if seat is not None else "the host"

    def _authorise(self, table: Table, token: str | None, action: Action) -> str:
        """Who may make this action (see `seating`), checked before the engine looks at it so that a
        refusal tells no secret; returns the name it is made by."""
        if not isinstance(action, dict):
            raise BadCommand("an action is a JSON object")
        if token is not None and not seating.is_member(table, token):
            raise NotYourSeat("this phone has no seat at this table")
        if token is None:
            raise NotYourSeat("take a seat at this table first; watchers cannot play")
        if action.get("type") in getattr(table.game, "table_actions", ()):
            if not seating.is_host(table, token):
                raise NotYourSeat("only the host's phone can correct the board")
            seat = table.seat_of(token)
            return table.players[seat] if seat is not None else "the host"
        if table.game.current_player(table.state) == CHANCE:
            refusal = seating.chance_refusal(table, token)
        else:
            refusal = seating.decision_refusal(table, token, action)
        if refusal:
            raise NotYourSeat(refusal)
        seat = table.seat_of(token)
        return table.players[seat] if seat is not None else "the host"

    def _apply(self, table: Table, action: Action, by: str, source: str,
               reading: list[dict] | None = None, actor: int | None = None) -> list[str]:
        state = table.state
        try:
            to_move = table.game.current_player(state)
            chance = to_move == CHANCE
            nxt, events = table.game.apply(state, action)
        except BadAction as err:  # malformed whatever the state: 400
            raise BadCommand(str(err)) from None
        except IllegalAction as err:
            raise NotNow(str(err)) from None
        seat = None if chance else to_move
        body = {"action": action, "seat": seat, "actor": actor, "by": by, "source": source}
        if reading is not None:
            body["reading"] = reading
        record = self._commit(table, "action", body)
        texts = _texts(events)
        todo = _todo(table.game, events)
        table.steps.append(Step(record.seq, action, nxt, by, chance, texts, source, todo, seat, actor))
        table.proposal, table.photo = None, None
        self._tell(table, texts)
        return texts

    def _commit(self, table: Table, kind: str, body: dict) -> Record:
        try:
            record = self.store.append(table.id, table.version + 1, kind, body)
        except StorageError as err:
            raise _refusal(err) from None
        table.version = record.seq
        self._remember(table, record)
        return record

    @staticmethod
    def _remember(table: Table, record: Record) -> None:
        """Apply a record about the table itself (not the game) to the live table: seats, host, options."""
        body = record.body
        if record.kind == "seat":
            table.seats[body["seat"]] = body["token"]
        elif record.kind == "seat_freed":
            table.seats.pop(body["seat"], None)
        elif record.kind == "host":
            table.host = body["token"]
        elif record.kind == "end":
            table.ended = True
        elif record.kind == "current":
            table.chosen_at = record.at
        elif record.kind == "options":
            table.options = body["options"]
            table.initial = table.game.new_game(table.players, table.options)

    def _replay(self, table: Table, record: Record) -> None:
        """Rebuild one record on start; the log only holds commands that were accepted."""
        table.version = record.seq
        body = record.body
        if record.kind == "action":
            chance = table.game.current_player(table.state) == CHANCE
            nxt, events = table.game.apply(table.state, body["action"])
            table.steps.append(Step(record.seq, body["action"], nxt, body.get("by", ""), chance,
                                    _texts(events), body.get("source", ""), _todo(table.game, events),
                                    body.get("seat"), body.get("actor")))
        elif record.kind == "undo":
            table.steps.pop()
        elif record.kind == "correction":
            previous = table.steps[-2].state if len(table.steps) > 1 else table.initial
            action = {"type": "roll", "values": body["values"]}
            state, events = table.game.apply(previous, action)
            by = body.get("by", "")
            texts = [_corrected(by, body["values"]), *_texts(events)]
            table.steps[-1] = Step(record.seq, action, state, by, True, texts, "correction",
                                   _todo(table.game, events))
        else:
            self._remember(table, record)

    # ---- reading the table -------------------------------------------------------------------------
    def actions_log(self, table_id: str) -> list[Action]:
        """The effective actions, as `companion replay` takes them (undone ones left out, corrections in)."""
        with self._lock:
            table = self.get(table_id)
            if not table.below:
                return [step.action for step in table.steps]
            try:
                records = self.store.records(table_id, except_kinds=("seat",))
                return checkpoint.effective_actions([r for r in records if r.kind in checkpoint.GAME_KINDS])
            except (StorageError, KeyError, IndexError) as err:
                raise StorageFault(f"the log of this table cannot be read whole ({err}); the game goes on") \
                    from None

    def _moves(self, table: Table) -> list[tuple[State, Action]]:
        """Every effective action with the state it was applied to. Steps below the checkpoint are not
        held: their states are rebuilt by replaying the log (only for a download, never at start)."""
        if not table.below:
            before = ([table.initial] + [step.state for step in table.steps])[:len(table.steps)]
            return list(zip(before, [step.action for step in table.steps], strict=True))
        moves, state = [], table.initial
        for action in self.actions_log(table.id):
            moves.append((state, action))
            state, _ = table.game.apply(state, action)
        return moves

    def log_view(self, table_id: str, token: str | None = None) -> tuple[dict[str, Any], list[Action]]:
        """The game log as this phone may download it: (whose view, actions). While the game runs, each
        action is redacted for the phone's seat (a watcher's: the spectator view); once it is over,
        everyone gets it whole."""
        with self._lock:
            table = self.get(table_id)
            if table.over:
                return {"view": "everyone"}, self.actions_log(table_id)
            seat = table.seat_of(token)
            actions = [table.game.redact(state, action, seat) for state, action in self._moves(table)]
            if seat is None:
                return {"view": "spectator"}, actions
            return {"view": "seat", "seat": seat, "player": table.players[seat]}, actions

    def snapshot(self, table_id: str, token: str | None = None) -> dict[str, Any]:
        """Everything one phone may see, as JSON: the seat's view of the game, the roll, the reading, and
        what this phone may do (its seats, whether it is the host, the requests waiting for its word)."""
        with self._lock:
            table = self.get(table_id)
            seat, held = table.seat_of(token), table.seats_of(token)
            host = seating.is_host(table, token)
            member = host or bool(held)
            game, state = table.game, table.state
            to_move = game.current_player(state)
            request = game.roll_request(state)
            decides = seating.decides(table, token)
            legal = [a for a in game.legal_actions(state) if a.get("type") != "roll"] if decides else []
            # only choices this phone may know: not another seat's hidden cards (DOG lists every
            # waiting seat's gives while the partners exchange)
            shown = [a for a in legal if game.redact(state, a, seat) == a]
            last = table.steps[-1] if table.steps else None
            last_roll = self._last_roll(table)
            before = table.steps[-2].state if len(table.steps) > 1 else table.initial
            running = self.tables.get(self.current or "")
            return {
                "table": {"id": table.id, "code": table.code if member else None, "game": game.name,
                          "title": game.title, "players": table.players, "options": table.options,
                          "current": running is table, "dice_colours": game.dice_colours(state)},
                "version": table.version,
                "seat": seat,
                "seats": [{"seat": i, "name": name, "taken": i in table.seats, "mine": i in held}
                          for i, name in enumerate(table.players)],
                "phone": {
                    "host": host,
                    "seats": held,
                    "member": member,
                    "may_roll": bool(token) and member and to_move == CHANCE and not table.over
                    and seating.chance_refusal(table, token) is None,
                    "may_correct": bool(token) and member and last_roll is not None
                    and seating.correction_refusal(table, token, game.chance_seats(before)) is None,
                },
                "has_host": table.host is not None,
                "requests": [{"id": r.id, "kind": r.kind, "seat": r.seat, "text": r.words(table),
                              "mine": r.token == token}
                             for r in self._waiting(table) if host or r.token == token],
                "running": None if running is None or running is table else {
                    "id": running.id, "title": running.game.title, "players": running.players,
                    "in_progress": seating.in_progress(running)},
                "to_move": None if table.ended else to_move,
                "over": table.over,
                "ended": table.ended,
                "state": game.view(state, seat),
                "roll": request.to_json() if request and not table.ended else None,
                "reading": table.proposal.to_json() if table.proposal else None,
                "legal": [] if table.ended else shown,
                "hidden_choices": len(shown) < len(legal),  # choices only the deciding seat's phone sees
                "can_undo": last is not None and not last.chance and not table.ended and member
                and seating.undo_refusal(table, token) is None,
                "undo_what": f"{last.by}: {' '.join(last.texts)}" if last and not last.chance else None,
                "history": (table.earlier + [checkpoint.line(s) for s in table.steps[-HISTORY_SHOWN:]])
                [-HISTORY_SHOWN:],
                "last_roll": last_roll,
                "todo": table.steps[-1].todo if table.steps else [],
                "summary": game.summary(state) if game.is_over(state) else None,
            }

    @staticmethod
    def _last_roll(table: Table) -> dict[str, Any] | None:
        """The last confirmed roll and what it answered, while it may still be corrected."""
        if not table.steps or table.steps[-1].action.get("type") != "roll":
            return None
        before = table.steps[-2].state if len(table.steps) > 1 else table.initial
        request = table.game.roll_request(before)
        return {"request": request.to_json() if request else None, "values": table.steps[-1].action["values"]}


def _refusal(err: StorageError) -> StorageFault:
    """A storage fault as the answer to a command: the disk full, or the data folder not writable."""
    if isinstance(err, StorageFull):
        return StorageIsFull(str(err))
    return StorageFault(str(err))


def _when(seconds: float) -> str:
    """A moment as the page shows it: local date and time to the minute."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))

"""The action-log file format shared by every engine: how players share a game or report a bug.

A log is JSON Lines (UTF-8), one JSON object per line; blank lines and lines starting with `#` are
skipped. The first object is the header, every later one an action, in the order applied:

    {"game": "dog-eat-dog", "players": ["Alice", "Bob"], "options": {"treehouse": false}}
    {"type": "roll", "values": [5, 2]}
    {"type": "attack", "attacker": "red-L-1", "target": "blue-M-2"}

`options` may be omitted (the documented defaults). An action is exactly what the engine's
`legal_actions` lists; a roll is `{"type": "roll", "values": [...]}` with faces in the requested order.

A log downloaded from a table while its game runs says whose view it is in its header (`"view": "seat"`
with `"seat"` and `"player"`, or `"spectator"`); other seats' secret fields are left out of its actions
(a blind pick's item, say), so it replays only up to the first such action. Once the game is over every
phone downloads it whole (`"view": "everyone"`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .games import Action, Game, GameError, IllegalAction
from .games import get as get_game


class LogError(ValueError):
    """A log that cannot be read or replayed; `line` is its 1-based line number (0: the file itself)."""

    def __init__(self, message: str, line: int = 0) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line


@dataclass
class GameLog:
    game: str
    players: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[tuple[int, Action]] = field(default_factory=list)  # (line number, action)
    #: whose view a downloaded log is ({"view": "seat", "seat": 1, "player": "Bob"}, "spectator",
    #: "everyone"): while a game runs, a phone's log leaves out other seats' secrets.
    view: dict[str, Any] = field(default_factory=dict)

    def header(self) -> dict:
        return {"game": self.game, "players": self.players, "options": self.options, **self.view}

    def dumps(self) -> str:
        lines = [self.header()] + [a for _, a in self.actions]
        return "".join(json.dumps(obj, separators=(", ", ": ")) + "\n" for obj in lines)


def parse(text: str) -> GameLog:
    """Read a log's text; raise LogError naming the first bad line."""
    log: GameLog | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as err:
            raise LogError(f"not JSON ({err.msg})", number) from None
        except RecursionError:
            raise LogError("JSON nested too deep for an action", number) from None
        if not isinstance(obj, dict):
            raise LogError("each line must be a JSON object", number)
        if log is None:
            players = obj.get("players")
            if not isinstance(obj.get("game"), str):
                raise LogError('the first line must be a header with "game" and "players"', number)
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                raise LogError('"players" must be a list of names', number)
            options = obj.get("options") or {}
            if not isinstance(options, dict):
                raise LogError('"options" must be an object', number)
            view = {k: obj[k] for k in ("view", "seat", "player") if k in obj}
            log = GameLog(obj["game"], players, options, view=view)
        else:
            log.actions.append((number, obj))
    if log is None:
        raise LogError("the log is empty: it needs a header line")
    return log


def load(path: str | Path) -> GameLog:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise LogError(f"cannot read {path}: {err}") from None
    return parse(text)


def replay(log: GameLog, expected_game: str | None = None) -> tuple[Game, dict]:
    """Apply the log from the initial state; raise LogError at the first illegal action, with its line."""
    if expected_game is not None and log.game != expected_game:
        raise LogError(f"this is a {log.game} log, not {expected_game}", 1)
    try:
        game = get_game(log.game)
        state = game.new_game(log.players, log.options)
    except GameError as err:
        raise LogError(str(err), 1) from None
    for number, action in log.actions:
        try:
            state, _ = game.apply(state, action)
        except IllegalAction as err:
            raise LogError(f"illegal action {json.dumps(action)}: {err}", number) from None
    return game, state

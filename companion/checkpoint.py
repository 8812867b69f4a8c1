"""Checkpoints: what replaying a table's log built, saved every `EVERY` records, so that a restart replays
only the records after the last one, however long the history.

Undo and correction rewind the table's steps, so a checkpoint holds every step they can still reach:
undo takes back player decisions down to the last chance step (a roll or a draw, never undone), and
correcting that roll needs the state before it. The steps from the one before the last chance step on
are kept whole, state included; the older ones only as the lines the page's history shows, at most
`lines_kept`. The table in memory is trimmed the same way when its checkpoint is taken, so a table
that was restarted and one that was not behave alike.

Only the records that move the game (`GAME_KINDS`) are summed up in a checkpoint: the others (a seat
taken, and any kind added later that does not touch the steps) are few, and are replayed from the log
on every start, so a new kind of record needs nothing here.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from typing import Any, Protocol, TypeVar

log = logging.getLogger(__name__)

EVERY = 100  # records between checkpoints: a restart replays fewer than this many per live table
GAME_KINDS = ("action", "undo", "correction")  # the records that change a table's steps
MOST_STEPS_KEPT = 1000  # a longer run of decisions with no roll in it waits for a roll to be checkpointed
FORMAT = 1


class StepLike(Protocol):
    seq: int
    by: str
    chance: bool
    texts: list[str]
    source: str


S = TypeVar("S", bound=StepLike)


def line(step: StepLike) -> dict[str, Any]:
    """A step as the page's history shows it."""
    return {"seq": step.seq, "by": step.by, "texts": step.texts, "source": step.source}


def first_reachable(steps: list[S]) -> int:
    """Index of the oldest step undo or correction can still reach (0: all of them)."""
    for index in range(len(steps) - 1, -1, -1):
        if steps[index].chance:
            return max(0, index - 1)
    return 0


def take(steps: list[S], earlier: list[dict], below: int, lines_kept: int) -> dict[str, Any] | None:
    """The checkpoint of a table whose steps are `steps` (with `below` older ones not held and `earlier`
    their history lines); None when it cannot be saved as JSON that reads back the same, or when too
    many steps are reachable (the table is then checkpointed later)."""
    start = first_reachable(steps)
    if len(steps) - start > MOST_STEPS_KEPT:
        return None
    body = {"format": FORMAT, "below": below + start,
            "earlier": (earlier + [line(s) for s in steps[:start]])[-lines_kept:],
            "steps": [dataclasses.asdict(s) for s in steps[start:]]}  # type: ignore[call-overload]
    try:
        same = json.loads(json.dumps(body)) == body
    except (TypeError, ValueError):
        same = False
    if not same:
        log.warning("a table's steps do not survive JSON as they are: no checkpoint, the log is replayed")
        return None
    return body


def load(body: dict[str, Any], step_type: type[S]) -> tuple[list[S], list[dict], int]:
    """(steps, earlier lines, steps below) from a checkpoint; ValueError if it is not one this reads."""
    if body.get("format") != FORMAT:
        raise ValueError(f"checkpoint format {body.get('format')!r}, not {FORMAT}")
    try:
        steps = [step_type(**s) for s in body["steps"]]
        earlier, below = list(body["earlier"]), int(body["below"])
    except (KeyError, TypeError) as err:
        raise ValueError(f"checkpoint does not read: {err}") from None
    return steps, earlier, below


def effective_actions(records: list) -> list[dict[str, Any]]:
    """The actions in effect after `records` (undone ones left out, corrections in), without the engine."""
    actions: list[dict[str, Any]] = []
    for record in records:
        if record.kind == "action":
            actions.append(record.body["action"])
        elif record.kind == "undo":
            actions.pop()
        elif record.kind == "correction":
            actions[-1] = {"type": "roll", "values": record.body["values"]}
    return actions

"""The table's arcade buttons: CONFIRM, and RETRY (held down: undo).

Wire each button between its GPIO and GND (no resistor: the Pi's internal pull-up is used).
Defaults: CONFIRM on BCM 17 (physical pin 11), RETRY on BCM 27 (physical pin 13).

    from hardware import PinMap, TableButtons

    buttons = TableButtons(PinMap(), on_confirm=lambda: print("confirm"),
                           on_retry=lambda: print("read again"), on_undo=lambda: print("undo"))
    ...
    buttons.close()

The buttons only report what was pressed; what CONFIRM means is the table session's business.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from gpiozero import Button
from gpiozero.exc import GPIOZeroError

from hardware.errors import BadWaitTime
from hardware.pins import PinMap

log = logging.getLogger(__name__)

Callback = Callable[[], object]


@dataclass
class _Contact:
    """What we believe one button is doing, after debouncing."""

    name: str
    button: Button
    down: bool = False
    last_edge_s: float = -math.inf  # clock time of the last accepted edge, seconds
    press_s: float = 0.0  # clock time the current press was accepted, seconds
    undone: bool = False  # RETRY only: this press already meant undo (or must mean nothing)
    recheck: threading.Timer | None = None


class TableButtons:
    """CONFIRM and RETRY arcade buttons, debounced, with RETRY held down meaning undo.

    Wiring: each button between its BCM pin and GND; the internal pull-up is switched on.

        buttons = TableButtons(PinMap(confirm=17, retry=27), on_confirm=session_confirm,
                               on_retry=session_retry, on_undo=session_undo)

    pins: the `PinMap` (BCM numbers); only `confirm` and `retry` are used here.
    on_confirm: called once per press of CONFIRM, as it goes down.
    on_retry: called when RETRY is released before `hold_s` seconds.
    on_undo: called once when RETRY has been held `hold_s` seconds (while still held); on_retry is
        then not called for that press.
    pin_factory: a gpiozero pin factory; None uses gpiozero's default (`Device.pin_factory`).
    debounce_s: in seconds; an edge closer than this to the previous accepted edge of the same
        button is contact bounce and ignored (done in software: mock pins ignore `bounce_time`).
    hold_s: in seconds, how long RETRY must be held to mean undo.
    clock: a monotonic clock in seconds (tests inject a fake one).

    Callbacks run on gpiozero's threads; an exception in one is logged, not raised.
    """

    def __init__(
        self,
        pins: PinMap,
        on_confirm: Callback,
        on_retry: Callback,
        on_undo: Callback,
        pin_factory=None,
        debounce_s: float = 0.05,
        hold_s: float = 2.0,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if debounce_s < 0:
            raise BadWaitTime(f"debounce_s must be 0 or more seconds, got {debounce_s}")
        if hold_s <= debounce_s:
            raise BadWaitTime(f"hold_s ({hold_s} s) must be longer than debounce_s ({debounce_s} s)")
        self._on_confirm = on_confirm
        self._on_retry = on_retry
        self._on_undo = on_undo
        self._debounce_s = float(debounce_s)
        self._hold_s = float(hold_s)
        self._clock = clock
        self._lock = threading.Lock()
        self._closed = False
        confirm = Button(pins.confirm, pull_up=True, bounce_time=None, pin_factory=pin_factory)
        try:
            retry = Button(
                pins.retry, pull_up=True, bounce_time=None, hold_time=hold_s, hold_repeat=False,
                pin_factory=pin_factory,
            )
        except BaseException:
            confirm.close()
            raise
        self._confirm = _Contact("CONFIRM", confirm, down=confirm.is_pressed)
        self._retry = _Contact("RETRY", retry, down=retry.is_pressed)
        for contact in (self._confirm, self._retry):
            if contact.down:
                log.warning("%s reads as pressed at start (BCM %s): check its wiring to GND",
                            contact.name, contact.button.pin)
        self._retry.undone = self._retry.down  # a press held since before we started means nothing
        confirm.when_pressed = lambda: self._edge(self._confirm, True)
        confirm.when_released = lambda: self._edge(self._confirm, False)
        retry.when_pressed = lambda: self._edge(self._retry, True)
        retry.when_released = lambda: self._edge(self._retry, False)
        retry.when_held = self._retry_held

    def __enter__(self) -> TableButtons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def closed(self) -> bool:
        """True once `close()` has run."""
        return self._closed

    def close(self) -> None:
        """Release both GPIO pins; no callback runs afterwards. Safe to call twice."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            contacts = (self._confirm, self._retry)
            for contact in contacts:
                if contact.recheck is not None:
                    contact.recheck.cancel()
                    contact.recheck = None
        for contact in contacts:
            contact.button.close()

    # -- edges from gpiozero's threads ---------------------------------------------------------------

    def _edge(self, contact: _Contact, down: bool) -> None:
        now = self._clock()
        with self._lock:
            if self._closed:
                return
            if now - contact.last_edge_s < self._debounce_s:
                self._schedule_recheck(contact)
                return
            action = self._accept(contact, down, now)
        self._run(action)

    def _accept(self, contact: _Contact, down: bool, now: float) -> Callback | None:
        """Take an edge as real (the lock is held); return the callback it triggers, if any."""
        if not down and not contact.down:
            return None  # a release we already counted
        contact.last_edge_s = now
        contact.down = down
        if contact is self._confirm:
            return self._on_confirm if down else None
        if down:  # RETRY pressed (or pressed again after a release we missed): start timing
            contact.press_s = now
            contact.undone = False
            return None
        if contact.undone:
            return None
        contact.undone = True
        return self._on_undo if now - contact.press_s >= self._hold_s else self._on_retry

    def _retry_held(self) -> None:
        """gpiozero's hold thread: RETRY has been down `hold_s` seconds."""
        with self._lock:
            contact = self._retry
            if self._closed or not contact.down or contact.undone:
                return
            contact.undone = True
        self._run(self._on_undo)

    def _schedule_recheck(self, contact: _Contact) -> None:
        """After ignoring a bounce, look at the pin again once it has settled.

        Without this a tap shorter than `debounce_s` would leave the button "down" forever.
        """
        if contact.recheck is not None:
            return
        timer = threading.Timer(self._debounce_s, self._recheck, args=(contact,))
        timer.daemon = True
        contact.recheck = timer
        timer.start()

    def _recheck(self, contact: _Contact) -> None:
        with self._lock:
            contact.recheck = None
            if self._closed:
                return
            try:
                down = bool(contact.button.is_pressed)
            except GPIOZeroError:
                return
            if down == contact.down:
                return
            action = self._accept(contact, down, self._clock())
        self._run(action)

    @staticmethod
    def _run(action: Callback | None) -> None:
        if action is None:
            return
        try:
            action()
        except Exception:
            log.exception("button handler %r failed", action)

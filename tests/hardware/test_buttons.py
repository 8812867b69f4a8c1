"""CONFIRM and RETRY on gpiozero's mock pins: one event per press, bounce ignored, hold means undo."""

from __future__ import annotations

import logging
import threading
import time

import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory, MockPin

from hardware import BadWaitTime, HardwareError, PinMap, TableButtons

CONFIRM, RETRY = 17, 27


class Presses:
    """Counts what the buttons reported; `wait_for` blocks until a report arrives (real seconds)."""

    def __init__(self) -> None:
        self.events: list[str] = []
        self._changed = threading.Condition()

    def _record(self, name: str) -> None:
        with self._changed:
            self.events.append(name)
            self._changed.notify_all()

    def confirm(self) -> None:
        self._record("confirm")

    def retry(self) -> None:
        self._record("retry")

    def undo(self) -> None:
        self._record("undo")

    def count(self, name: str) -> int:
        return self.events.count(name)

    def wait_for(self, name: str, timeout_s: float = 2.0) -> bool:
        with self._changed:
            return self._changed.wait_for(lambda: name in self.events, timeout=timeout_s)


@pytest.fixture
def presses() -> Presses:
    return Presses()


@pytest.fixture
def buttons(mock_factory, clock, presses):
    made = TableButtons(PinMap(confirm=CONFIRM, retry=RETRY), presses.confirm, presses.retry, presses.undo,
                        clock=clock)
    yield made
    made.close()


def tap(pin, clock, down_s: float = 0.15, up_s: float = 0.5) -> None:
    """Press for `down_s`, then leave released for `up_s` (fake-clock seconds)."""
    pin.drive_low()
    clock.advance(down_s)
    pin.drive_high()
    clock.advance(up_s)


def bounce(pin, clock, final_low: bool, gap_s: float = 0.004) -> None:
    """Contact chatter: five alternating edges `gap_s` apart, settling low (pressed) or high."""
    for i in range(5):
        low = final_low if i % 2 == 0 else not final_low
        if low:
            pin.drive_low()
        else:
            pin.drive_high()
        clock.advance(gap_s)


def test_confirm_fires_once_per_press_and_not_on_release(buttons, mock_factory, clock, presses):
    pin = mock_factory.pin(CONFIRM)
    pin.drive_low()
    assert presses.events == ["confirm"]
    clock.advance(0.2)
    pin.drive_high()
    assert presses.events == ["confirm"]
    clock.advance(0.5)
    tap(pin, clock)
    tap(pin, clock)
    assert presses.events == ["confirm"] * 3


def test_confirm_bounce_within_debounce_window_is_ignored(buttons, mock_factory, clock, presses):
    pin = mock_factory.pin(CONFIRM)
    bounce(pin, clock, final_low=True)  # press: low, high, low, high, low within 20 ms
    clock.advance(0.3)
    bounce(pin, clock, final_low=False)  # release chatters too
    time.sleep(0.15)  # let any re-check of the settled pin run (debounce_s is 0.05 real seconds)
    assert presses.events == ["confirm"]
    clock.advance(0.5)
    tap(pin, clock)
    assert presses.events == ["confirm", "confirm"]


def test_press_just_outside_debounce_window_counts(buttons, mock_factory, clock, presses):
    pin = mock_factory.pin(CONFIRM)
    tap(pin, clock, down_s=0.06, up_s=0.06)
    tap(pin, clock, down_s=0.06, up_s=0.06)
    assert presses.count("confirm") == 2


def test_retry_short_press_means_retry(buttons, mock_factory, clock, presses):
    pin = mock_factory.pin(RETRY)
    pin.drive_low()
    clock.advance(0.4)
    assert presses.events == []  # nothing until it is released: it might become a hold
    pin.drive_high()
    assert presses.events == ["retry"]


def test_retry_held_two_seconds_means_undo_only(buttons, mock_factory, clock, presses):
    pin = mock_factory.pin(RETRY)
    pin.drive_low()
    clock.advance(2.1)
    pin.drive_high()
    assert presses.events == ["undo"]


def test_retry_released_just_before_hold_time_is_still_retry(buttons, mock_factory, clock, presses):
    pin = mock_factory.pin(RETRY)
    pin.drive_low()
    clock.advance(1.9)
    pin.drive_high()
    assert presses.events == ["retry"]


def test_retry_hold_fires_undo_while_still_held_and_release_adds_nothing(mock_factory, presses):
    with TableButtons(PinMap(), presses.confirm, presses.retry, presses.undo,
                      debounce_s=0.01, hold_s=0.1) as real_time_buttons:
        pin = mock_factory.pin(RETRY)
        pin.drive_low()
        assert presses.wait_for("undo"), "RETRY held past hold_s never meant undo"
        time.sleep(0.05)
        pin.drive_high()
        time.sleep(0.05)
        assert presses.events == ["undo"]
        assert not real_time_buttons.closed


def test_retry_release_bounce_is_not_a_second_retry(buttons, mock_factory, clock, presses):
    pin = mock_factory.pin(RETRY)
    bounce(pin, clock, final_low=True)
    clock.advance(0.3)
    bounce(pin, clock, final_low=False)
    time.sleep(0.15)
    assert presses.events == ["retry"]


def test_tap_shorter_than_debounce_is_still_one_retry(buttons, mock_factory, clock, presses):
    pin = mock_factory.pin(RETRY)
    pin.drive_low()
    clock.advance(0.02)
    pin.drive_high()  # inside the window: ignored now, re-checked once the pin has settled
    assert presses.wait_for("retry", timeout_s=1.0)
    clock.advance(1.0)
    tap(pin, clock)
    assert presses.events == ["retry", "retry"]


def test_buttons_report_independently(buttons, mock_factory, clock, presses):
    retry = mock_factory.pin(RETRY)
    retry.drive_low()
    mock_factory.pin(CONFIRM).drive_low()  # a different button is not bounce of this one
    clock.advance(0.3)
    retry.drive_high()
    mock_factory.pin(CONFIRM).drive_high()
    assert presses.events == ["confirm", "retry"]


def test_failing_handler_is_logged_and_buttons_keep_working(mock_factory, clock, caplog):
    calls = []

    def broken() -> None:
        calls.append("confirm")
        raise RuntimeError("the table is closed")

    with TableButtons(PinMap(), broken, lambda: None, lambda: None, clock=clock):
        pin = mock_factory.pin(CONFIRM)
        with caplog.at_level(logging.ERROR, logger="hardware.buttons"):
            tap(pin, clock)
            tap(pin, clock)
    assert calls == ["confirm", "confirm"]
    assert "the table is closed" in caplog.text


def test_close_silences_buttons_and_frees_the_pins(mock_factory, clock, presses):
    made = TableButtons(PinMap(), presses.confirm, presses.retry, presses.undo, clock=clock)
    made.close()
    made.close()
    mock_factory.pin(CONFIRM).drive_low()
    assert presses.events == []
    Button(CONFIRM).close()  # the pin is free again


class HeldDownPin(MockPin):
    """A mock pin whose button is already held down when the companion opens it."""

    def _set_pull(self, value):
        super()._set_pull(value)
        self._change_state(False)


def test_buttons_held_at_start_report_nothing_and_warn(mock_factory, clock, presses, caplog):
    factory = MockFactory(pin_class=HeldDownPin)
    with caplog.at_level(logging.WARNING, logger="hardware.buttons"), \
            TableButtons(PinMap(), presses.confirm, presses.retry, presses.undo, pin_factory=factory,
                         clock=clock):
        clock.advance(0.3)
        factory.pin(RETRY).drive_high()
        factory.pin(CONFIRM).drive_high()
    factory.reset()
    assert presses.events == []
    assert "RETRY reads as pressed at start" in caplog.text
    assert "CONFIRM reads as pressed at start" in caplog.text


@pytest.mark.parametrize(("debounce_s", "hold_s"), [(-0.01, 2.0), (0.05, 0.05), (0.05, 0.0)])
def test_bad_wait_times_are_refused(mock_factory, debounce_s, hold_s):
    with pytest.raises(BadWaitTime) as caught:
        TableButtons(PinMap(), print, print, print, debounce_s=debounce_s, hold_s=hold_s)
    assert isinstance(caught.value, HardwareError)
    assert isinstance(caught.value, ValueError)

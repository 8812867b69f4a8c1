"""open_hardware: real GPIO, mock pins only when asked, or None (and a log line) when there is none."""

from __future__ import annotations

import logging

import pytest
from gpiozero import Button, Device
from gpiozero.pins.mock import MockFactory, MockPin

from hardware import BadGpioMode, BadWaitTime, PinMap, TableHardware, open_hardware


def record(events: list[str]):
    return {name: (lambda n=name: events.append(n)) for name in ("on_confirm", "on_retry", "on_undo")}


def test_off_opens_nothing_and_says_so(caplog):
    with caplog.at_level(logging.INFO, logger="hardware.table"):
        assert open_hardware(PinMap(), **record([]), mode="off") is None
    assert "on-screen buttons" in caplog.text


def test_auto_without_gpio_returns_none_never_mock_pins(monkeypatch, caplog):
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)

    def no_gpio_here():
        raise ImportError("No module named 'lgpio'")

    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_gpio_here))
    with caplog.at_level(logging.DEBUG, logger="hardware.table"):
        assert open_hardware(PinMap(), **record([]), mode="auto") is None
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    assert said == ["no GPIO: buttons on the page"]  # no alarming factory names at the default level
    assert "No module named 'lgpio'" in caplog.text  # the engineer's reason, at debug level
    assert Device.pin_factory is None


def test_auto_with_a_pin_factory_that_fails_logs_an_error(monkeypatch, caplog):
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
    with caplog.at_level(logging.ERROR, logger="hardware.table"):
        assert open_hardware(PinMap(), **record([]), mode="auto") is None
    assert "GPIOZERO_PIN_FACTORY=no-such-factory cannot be used" in caplog.text
    assert Device.pin_factory is None


class BusyPin(MockPin):
    """A pin another program holds: the GPIO library refuses it with its own error class."""

    def _set_pull(self, value):
        if value == "up":  # claiming it as a button's input fails; letting it go works
            raise RuntimeError("GPIO busy")
        super()._set_pull(value)


def test_gpio_library_errors_when_opening_pins_mean_on_screen_buttons(monkeypatch, caplog):
    factory = MockFactory(pin_class=BusyPin)
    monkeypatch.setattr(Device, "pin_factory", factory)
    with caplog.at_level(logging.ERROR, logger="hardware.table"):
        assert open_hardware(PinMap(), **record([]), mode="auto") is None
    assert "cannot open the buttons (RuntimeError: GPIO busy)" in caplog.text


def test_bad_hold_time_is_the_callers_error_not_a_missing_gpio(mock_factory):
    with pytest.raises(BadWaitTime):
        open_hardware(PinMap(), **record([]), mode="auto", debounce_s=0.05, hold_s=0.01)


def test_mock_mode_is_explicit_and_its_pins_can_be_pressed(caplog):
    events: list[str] = []
    with caplog.at_level(logging.WARNING, logger="hardware.table"):
        hardware = open_hardware(PinMap(), **record(events), mode="mock")
    assert isinstance(hardware, TableHardware)
    assert "simulated" in caplog.text
    with hardware:
        assert hardware.simulated
        assert isinstance(hardware.pin_factory, MockFactory)
        assert hardware.pin_factory is not Device.pin_factory  # the global factory is left alone
        hardware.pin_factory.pin(17).drive_low()
        hardware.pin_factory.pin(17).drive_high()
        hardware.light.show("reading_ready")
        assert hardware.light.state == "reading_ready"
    assert events == ["on_confirm"]
    assert hardware.buttons.closed


def test_auto_uses_the_configured_pin_factory(mock_factory):
    events: list[str] = []
    hardware = open_hardware(PinMap(confirm=5, retry=6, led=None), **record(events), mode="auto",
                             hold_s=1.0)
    assert hardware is not None and hardware.pin_factory is mock_factory
    with hardware:
        mock_factory.pin(5).drive_low()
        mock_factory.pin(5).drive_high()
    assert events == ["on_confirm"]


def test_pin_held_by_someone_else_returns_none_with_the_reason(mock_factory, caplog):
    busy = Button(17)
    with caplog.at_level(logging.ERROR, logger="hardware.table"):
        assert open_hardware(PinMap(), **record([]), mode="auto") is None
    busy.close()
    assert "cannot open the buttons" in caplog.text
    Button(27).close()  # nothing was left half-open


def test_led_pin_held_by_someone_else_closes_the_buttons_again(mock_factory, caplog):
    busy = Button(22)
    with caplog.at_level(logging.ERROR, logger="hardware.table"):
        assert open_hardware(PinMap(), **record([]), mode="auto") is None
    busy.close()
    assert "cannot open the status light" in caplog.text
    Button(17).close()
    Button(27).close()


def test_unknown_mode_is_refused():
    with pytest.raises(BadGpioMode, match="use auto, mock or off"):
        open_hardware(PinMap(), **record([]), mode="on")

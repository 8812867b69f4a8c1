"""Open the table's buttons and light together, or say why there is no GPIO here.

Wiring: see deploy/WIRING.md (CONFIRM BCM 17, RETRY BCM 27, LED BCM 22 by default).

    from hardware import PinMap, open_hardware

    hardware = open_hardware(PinMap(), on_confirm=confirm, on_retry=retry, on_undo=undo)
    if hardware is None:
        ...                          # no GPIO: the page shows on-screen buttons
    else:
        hardware.light.show("waiting_for_roll")
"""

from __future__ import annotations

import logging
import os
import warnings
from dataclasses import dataclass

from gpiozero import Device
from gpiozero.exc import PinFactoryFallback
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hardware.buttons import Callback, TableButtons
from hardware.errors import BadGpioMode, HardwareError
from hardware.light import StatusLight
from hardware.pins import PinMap

log = logging.getLogger(__name__)

GPIO_MODES = ("auto", "mock", "off")


@dataclass
class TableHardware:
    """The opened buttons and status light, and the gpiozero pin factory they use.

    simulated: True for `mode="mock"`: nothing physical is wired; tests or a developer drive the
        pins with `pin_factory.pin(17).drive_low()`.
    """

    buttons: TableButtons
    light: StatusLight
    pin_factory: object
    simulated: bool

    def close(self) -> None:
        """Release every pin (the light goes off). Safe to call twice."""
        self.buttons.close()
        self.light.close()

    def __enter__(self) -> TableHardware:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_hardware(
    pins: PinMap,
    on_confirm: Callback,
    on_retry: Callback,
    on_undo: Callback,
    *,
    mode: str = "auto",
    debounce_s: float = 0.05,
    hold_s: float = 2.0,
) -> TableHardware | None:
    """Open buttons and light on the real GPIO, on mock pins, or not at all.

    pins: the `PinMap` (BCM numbers). From settings: `PinMap(**dataclasses.asdict(settings.pins))`.
    on_confirm, on_retry, on_undo: see `TableButtons`.
    mode: "auto" uses gpiozero's pin factory (the service sets GPIOZERO_PIN_FACTORY=lgpio);
        "mock" uses gpiozero's MockFactory (nothing physical; chosen explicitly, never as a fallback);
        "off" opens nothing.
    debounce_s, hold_s: in seconds, see `TableButtons`.

    Returns None, and logs why, when the mode is "off", when this machine has no GPIO (not a Pi),
    or when the pins cannot be opened (another program holds them, or no permission: the user must be
    in the gpio group). The page then shows on-screen buttons instead.
    """
    if mode not in GPIO_MODES:
        raise BadGpioMode(f"unknown GPIO mode {mode!r} (use auto, mock or off)")
    if mode == "off":
        log.info("GPIO is off in the settings: the page shows on-screen buttons")
        return None
    if mode == "mock":
        factory = MockFactory(pin_class=MockPWMPin)
        log.warning("GPIO mode is mock: the buttons and light are simulated, nothing physical is used")
    else:
        factory = _real_pin_factory()
        if factory is None:
            return None
    # GPIO libraries raise their own errors (lgpio.error: "GPIO busy", "can not open gpiochip"), so any
    # failure to open a pin is caught here; our own errors (bad wait times) are the caller's to fix.
    try:
        buttons = TableButtons(pins, on_confirm, on_retry, on_undo, pin_factory=factory,
                               debounce_s=debounce_s, hold_s=hold_s)
    except HardwareError:
        raise
    except Exception as err:
        log.error("cannot open the buttons (%s: %s): the page shows on-screen buttons",
                  type(err).__name__, err)
        return None
    try:
        light = StatusLight(pins, pin_factory=factory)
    except Exception as err:
        buttons.close()
        log.error("cannot open the status light (%s: %s): the page shows on-screen buttons",
                  type(err).__name__, err)
        return None
    log.info("GPIO ready on %s: %s", type(factory).__name__,
             ", ".join(f"{job} BCM {pin}" for job, pin in pins.assignments()))
    return TableHardware(buttons, light, factory, simulated=mode == "mock")


def _real_pin_factory():
    """gpiozero's pin factory for this machine, or None (logged) when it has no GPIO."""
    with warnings.catch_warnings(record=True) as fallbacks:
        warnings.simplefilter("always", PinFactoryFallback)
        try:
            Device.ensure_pin_factory()
        except Exception as err:  # ImportError off a Pi, BadPinFactory, lgpio.error without permission
            reasons = "; ".join([*(str(w.message) for w in fallbacks), f"{type(err).__name__}: {err}"])
            chosen = os.environ.get("GPIOZERO_PIN_FACTORY")
            if chosen:  # someone asked for this factory (the service asks for lgpio): that is an error
                log.error("GPIOZERO_PIN_FACTORY=%s cannot be used (%s): the page shows on-screen buttons",
                          chosen, reasons)
            else:
                log.info("no GPIO: buttons on the page")
                log.debug("gpiozero found no pin factory here: %s", reasons)
            return None
    for fallback in fallbacks:
        log.debug("gpiozero: %s", fallback.message)
    factory = Device.pin_factory
    if isinstance(factory, MockFactory):
        log.warning("gpiozero's pin factory is a MockFactory (set by GPIOZERO_PIN_FACTORY or a test): "
                    "the buttons and light are simulated")
    return factory

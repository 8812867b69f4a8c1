"""The status light (a single LED or an RGB LED) and the optional buzzer.

Wire a single LED from its GPIO through a 330 ohm resistor to GND (default BCM 22, physical pin 15).
An RGB LED (common cathode) takes three GPIOs, each through its own 330 ohm resistor, and GND.
An active buzzer goes between its GPIO and GND (through a transistor if it draws over 15 mA).

    from hardware import PinMap, StatusLight

    light = StatusLight(PinMap(led=22))
    light.show("waiting_for_roll")     # slow blink: roll the dice
    light.show("reading_ready")        # fast blink (green): press CONFIRM or RETRY
    light.close()

| state            | single LED               | RGB LED                    | buzzer      |
|------------------|--------------------------|----------------------------|-------------|
| idle             | steady on                | steady dim white           | -           |
| waiting_for_roll | slow blink (1 s / 1 s)   | slow blue blink            | -           |
| reading_ready    | fast blink (0.2 s)       | fast green blink           | one chirp   |
| error            | flicker (0.05 s)         | fast red blink             | two beeps   |
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass

from gpiozero import LED, RGBLED, Buzzer
from gpiozero.exc import PinPWMUnsupported

from hardware.errors import UnknownLightState
from hardware.pins import PinMap

log = logging.getLogger(__name__)

LIGHT_STATES = ("idle", "waiting_for_roll", "reading_ready", "error")

Color = tuple[float, float, float]
OFF: Color = (0.0, 0.0, 0.0)


@dataclass(frozen=True)
class Look:
    """How the light shows one state: a colour (RGB, 0-1), steady or blinking.

    on_s, off_s: blink times in seconds; on_s None means steady.
    """

    color: Color
    on_s: float | None = None
    off_s: float = 0.0


@dataclass(frozen=True)
class Beep:
    """A buzzer pattern: `n` beeps of `on_s` seconds, `off_s` seconds apart."""

    on_s: float
    off_s: float
    n: int


SINGLE_LED_LOOKS: dict[str, Look] = {
    "idle": Look((1.0, 1.0, 1.0)),
    "waiting_for_roll": Look((1.0, 1.0, 1.0), on_s=1.0, off_s=1.0),
    "reading_ready": Look((1.0, 1.0, 1.0), on_s=0.2, off_s=0.2),
    "error": Look((1.0, 1.0, 1.0), on_s=0.05, off_s=0.05),
}

RGB_LOOKS: dict[str, Look] = {
    "idle": Look((0.1, 0.1, 0.1)),
    "waiting_for_roll": Look((0.0, 0.0, 1.0), on_s=1.0, off_s=1.0),
    "reading_ready": Look((0.0, 1.0, 0.0), on_s=0.2, off_s=0.2),
    "error": Look((1.0, 0.0, 0.0), on_s=0.1, off_s=0.1),
}

BEEPS: dict[str, Beep] = {
    "reading_ready": Beep(on_s=0.08, off_s=0.0, n=1),
    "error": Beep(on_s=0.3, off_s=0.2, n=2),
}


class StatusLight:
    """The table's status light, showing one of `LIGHT_STATES`; it starts at "idle".

    Wiring: see the module docstring and deploy/WIRING.md.

        light = StatusLight(PinMap(led=(5, 6, 13)))
        light.show("error")

    pins: the `PinMap` (BCM numbers); `led` (one pin or red, green, blue) and `buzzer` are used.
        With neither, the light only remembers its state.
    pin_factory: a gpiozero pin factory; None uses gpiozero's default (`Device.pin_factory`).

    An RGB LED is dimmed by PWM; if the pin factory cannot do PWM it is driven on/off instead
    (idle is then white at full brightness).
    """

    def __init__(self, pins: PinMap, pin_factory=None) -> None:
        self._led: LED | None = None
        self._rgb: RGBLED | None = None
        self._buzzer: Buzzer | None = None
        self._pwm = False
        self._state = ""
        self._lock = threading.Lock()
        try:
            if isinstance(pins.led, tuple):
                self._rgb = self._open_rgb(pins.led, pin_factory)
            elif pins.led is not None:
                self._led = LED(pins.led, pin_factory=pin_factory)
            if pins.buzzer is not None:
                self._buzzer = Buzzer(pins.buzzer, pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise
        self.show("idle")

    def _open_rgb(self, led: tuple[int, int, int], pin_factory) -> RGBLED:
        red, green, blue = led
        try:
            rgb = RGBLED(red, green, blue, pwm=True, pin_factory=pin_factory)
        except PinPWMUnsupported:
            log.info("this pin factory has no PWM: the RGB LED is driven on/off")
            return RGBLED(red, green, blue, pwm=False, pin_factory=pin_factory)
        self._pwm = True
        return rgb

    @property
    def state(self) -> str:
        """The state shown now, one of `LIGHT_STATES`."""
        return self._state

    def show(self, state: str) -> None:
        """Show `state` (one of `LIGHT_STATES`); showing the state already shown changes nothing."""
        if state not in LIGHT_STATES:
            raise UnknownLightState(f"unknown light state {state!r} (known: {', '.join(LIGHT_STATES)})")
        with self._lock:
            if state == self._state:
                return
            self._state = state
            self._drive(state)

    def _drive(self, state: str) -> None:
        if self._led is not None:
            self._show_single(SINGLE_LED_LOOKS[state])
        if self._rgb is not None:
            self._show_rgb(RGB_LOOKS[state])
        beep = BEEPS.get(state)
        if self._buzzer is not None:
            if beep is None:
                self._buzzer.off()
            else:
                self._buzzer.beep(on_time=beep.on_s, off_time=beep.off_s, n=beep.n, background=True)

    def _show_single(self, look: Look) -> None:
        assert self._led is not None
        if look.on_s is None:
            if any(look.color):
                self._led.on()
            else:
                self._led.off()
        else:
            self._led.blink(on_time=look.on_s, off_time=look.off_s, background=True)

    def _show_rgb(self, look: Look) -> None:
        assert self._rgb is not None
        color = look.color if self._pwm else tuple(1.0 if c > 0 else 0.0 for c in look.color)
        if look.on_s is None:
            self._rgb.color = color
        else:
            self._rgb.blink(on_time=look.on_s, off_time=look.off_s, on_color=color, off_color=OFF,
                            background=True)

    def close(self) -> None:
        """Switch everything off and release the pins. Safe to call twice."""
        with self._lock:
            for device in (self._led, self._rgb, self._buzzer):
                if device is not None:
                    device.close()
            self._led = self._rgb = self._buzzer = None

    def __enter__(self) -> StatusLight:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

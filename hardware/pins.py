"""The pin map: which BCM GPIO each button, light and buzzer is wired to.

Wiring (defaults, see deploy/WIRING.md): CONFIRM button between BCM 17 (physical pin 11) and GND,
RETRY button between BCM 27 (physical pin 13) and GND, LED through a 330 ohm resistor from BCM 22
(physical pin 15) to GND. No buzzer unless you give one.

    from hardware import PinMap

    pins = PinMap()                                  # the defaults above
    pins = PinMap(led=(5, 6, 13))                    # an RGB LED: red, green, blue
    pins = PinMap(confirm=5, retry=6, buzzer=23)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from hardware.errors import BadPinNumber, PinConflict

# BCM numbers brought out on the 40-pin header. 0 and 1 are reserved for a HAT's ID EEPROM.
FIRST_BCM = 2
LAST_BCM = 27

LedPins = int | tuple[int, int, int]


@dataclass(frozen=True)
class PinMap:
    """BCM GPIO numbers of the table's buttons, status light and buzzer.

    Wiring: buttons from their pin to GND, the LED from its pin through 330 ohm to GND
    (deploy/WIRING.md). Example:

        PinMap(confirm=17, retry=27, led=(5, 6, 13), buzzer=23)

    confirm: the CONFIRM button (BCM), wired to GND.
    retry: the RETRY button (BCM), wired to GND; held down it means undo.
    led: one BCM number for a single LED, or three (red, green, blue) for a common-cathode
        RGB LED, or None for no light.
    buzzer: BCM number of an active buzzer, or None (the default) for none.

    Raises `BadPinNumber` for a pin outside BCM 2-27 and `PinConflict` when a pin is used twice.
    """

    confirm: int = 17
    retry: int = 27
    led: LedPins | None = 22
    buzzer: int | None = None

    def __post_init__(self) -> None:
        led = self.led
        if isinstance(led, list):  # from JSON or TOML
            object.__setattr__(self, "led", tuple(led))
        if isinstance(self.led, tuple) and len(self.led) != 3:
            raise BadPinNumber(f"an RGB LED needs three pins (red, green, blue), got {list(self.led)}")
        used: dict[int, str] = {}
        for job, pin in self.assignments():
            if isinstance(pin, bool) or not isinstance(pin, int):
                raise BadPinNumber(f"{job} pin must be a BCM number, got {pin!r}")
            if not FIRST_BCM <= pin <= LAST_BCM:
                raise BadPinNumber(
                    f"{job} pin BCM {pin} is not a GPIO on the header (use {FIRST_BCM}-{LAST_BCM})"
                )
            if pin in used:
                raise PinConflict(f"BCM {pin} is wired to both {used[pin]} and {job}")
            used[pin] = job

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> PinMap:
        """A pin map from a dict such as `settings.pins` (as a dict); missing keys keep the defaults."""
        known = {"confirm", "retry", "led", "buzzer"}
        unknown = sorted(set(values) - known)
        if unknown:
            raise BadPinNumber(f"unknown pin name {unknown[0]!r} (known: confirm, retry, led, buzzer)")
        return cls(**dict(values))

    @property
    def is_rgb(self) -> bool:
        """True when the status light is an RGB LED (three pins)."""
        return isinstance(self.led, tuple)

    def assignments(self) -> Iterator[tuple[str, int]]:
        """Each (job, BCM pin) in use, e.g. ("confirm", 17), ("led red", 5)."""
        yield "confirm", self.confirm
        yield "retry", self.retry
        if isinstance(self.led, tuple):
            yield from zip(("led red", "led green", "led blue"), self.led, strict=True)
        elif self.led is not None:
            yield "led", self.led
        if self.buzzer is not None:
            yield "buzzer", self.buzzer

"""Every error the hardware package raises, each also a builtin so callers can catch either.

    try:
        pins = PinMap(confirm=17, retry=17)
    except ValueError as err:      # or HardwareError, or PinConflict
        print(err)                 # "BCM 17 is wired to both confirm and retry"
"""

from __future__ import annotations


class HardwareError(Exception):
    """Base class of every error raised by the hardware package."""


class PinConflict(HardwareError, ValueError):
    """One BCM pin is given to two jobs (say, CONFIRM and the LED)."""


class BadPinNumber(HardwareError, ValueError):
    """A pin number is not a usable BCM GPIO on the 40-pin header (2 to 27)."""


class UnknownLightState(HardwareError, ValueError):
    """`StatusLight.show()` was asked for a state it does not know."""


class BadGpioMode(HardwareError, ValueError):
    """`open_hardware()` was given a mode other than "auto", "mock" or "off"."""


class BadWaitTime(HardwareError, ValueError):
    """A debounce or hold time is negative, or the hold is not longer than the debounce."""

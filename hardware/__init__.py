"""The table's GPIO: arcade buttons, the status light, an optional buzzer, and the pin map.

This package imports gpiozero and the standard library only. It reports "CONFIRM pressed"; it does not
know what that means. Wiring: deploy/WIRING.md.

    from hardware import PinMap, open_hardware

    hardware = open_hardware(PinMap(), on_confirm=confirm, on_retry=retry, on_undo=undo, mode="auto")
    if hardware is not None:          # None: no GPIO here, the page shows on-screen buttons
        hardware.light.show("waiting_for_roll")
        ...
        hardware.close()
"""

from hardware.buttons import TableButtons
from hardware.errors import (
    BadGpioMode,
    BadPinNumber,
    BadWaitTime,
    HardwareError,
    PinConflict,
    UnknownLightState,
)
from hardware.light import LIGHT_STATES, StatusLight
from hardware.pins import PinMap
from hardware.table import GPIO_MODES, TableHardware, open_hardware

__all__ = [
    "GPIO_MODES",
    "LIGHT_STATES",
    "BadGpioMode",
    "BadPinNumber",
    "BadWaitTime",
    "HardwareError",
    "PinConflict",
    "PinMap",
    "StatusLight",
    "TableButtons",
    "TableHardware",
    "UnknownLightState",
    "open_hardware",
]

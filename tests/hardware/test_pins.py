"""The pin map: defaults, RGB LEDs, and refusing a pin used twice or a pin that is not on the header."""

from __future__ import annotations

import pytest

from hardware import BadPinNumber, HardwareError, PinConflict, PinMap


def test_defaults_match_the_wiring_notes():
    pins = PinMap()
    assert (pins.confirm, pins.retry, pins.led, pins.buzzer) == (17, 27, 22, None)
    assert not pins.is_rgb
    assert list(pins.assignments()) == [("confirm", 17), ("retry", 27), ("led", 22)]


def test_rgb_led_from_a_toml_list_becomes_three_named_pins():
    pins = PinMap(led=[5, 6, 13], buzzer=23)
    assert pins.led == (5, 6, 13)
    assert pins.is_rgb
    assert dict(pins.assignments()) == {
        "confirm": 17, "retry": 27, "led red": 5, "led green": 6, "led blue": 13, "buzzer": 23,
    }


def test_pin_used_twice_is_a_conflict_naming_both_jobs():
    with pytest.raises(PinConflict, match="BCM 17 is wired to both confirm and retry"):
        PinMap(confirm=17, retry=17)


def test_rgb_channel_on_a_button_pin_is_a_conflict():
    with pytest.raises(PinConflict, match="BCM 27 is wired to both retry and led green"):
        PinMap(led=(5, 27, 13))


def test_pin_conflict_is_also_a_value_error_and_a_hardware_error():
    with pytest.raises(ValueError):
        PinMap(buzzer=22)
    with pytest.raises(HardwareError):
        PinMap(buzzer=22)


@pytest.mark.parametrize("pin", [0, 1, 28, 40, -3])
def test_pin_not_on_the_header_is_refused(pin):
    with pytest.raises(BadPinNumber, match=f"BCM {pin} is not a GPIO"):
        PinMap(confirm=pin)


@pytest.mark.parametrize("led", [(5, 6), "22", True, (5, 6, 13, 19)])
def test_led_must_be_one_or_three_bcm_numbers(led):
    with pytest.raises(BadPinNumber):
        PinMap(led=led)


def test_from_mapping_keeps_defaults_and_refuses_unknown_names():
    assert PinMap.from_mapping({"confirm": 5, "led": None}) == PinMap(confirm=5, led=None)
    with pytest.raises(BadPinNumber, match="unknown pin name 'confrim'"):
        PinMap.from_mapping({"confrim": 5})


def test_pin_settings_from_the_config_make_a_pin_map():
    from dataclasses import asdict

    from companion.settings import PinSettings

    assert PinMap(**asdict(PinSettings())) == PinMap()
    assert PinMap(**asdict(PinSettings(led=(5, 6, 13), buzzer=23))) == PinMap(led=(5, 6, 13), buzzer=23)

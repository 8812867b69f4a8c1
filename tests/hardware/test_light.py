"""The status light on mock pins: each state drives the LED (or RGB LED, or buzzer) differently."""

from __future__ import annotations

import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

import hardware.light as light_module
from hardware import LIGHT_STATES, HardwareError, PinMap, StatusLight, UnknownLightState
from hardware.light import Look

LED = 22
RED, GREEN, BLUE = 5, 6, 13
BUZZER = 23


def toggles(pin, within_s: float) -> int:
    """How many times `pin` changed state during the next `within_s` real seconds."""
    pin.clear_states()
    time.sleep(within_s)
    return len(pin.states) - 1


def wait_until(condition, timeout_s: float = 1.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.005)
    return condition()


@pytest.fixture
def single(mock_factory):
    light = StatusLight(PinMap(led=LED))
    yield light
    light.close()


@pytest.fixture
def rgb(mock_factory):
    light = StatusLight(PinMap(led=(RED, GREEN, BLUE), buzzer=BUZZER))
    yield light
    light.close()


def test_single_led_starts_idle_and_steady_on(single, mock_factory):
    assert single.state == "idle"
    pin = mock_factory.pin(LED)
    assert pin.state
    assert toggles(pin, 0.15) == 0


def test_single_led_error_flickers_faster_than_reading_ready_blinks(single, mock_factory):
    pin = mock_factory.pin(LED)
    single.show("error")
    flicker = toggles(pin, 0.45)
    single.show("reading_ready")
    blink = toggles(pin, 0.45)
    assert flicker >= 5
    assert 1 <= blink < flicker


def test_single_led_waiting_for_roll_blinks(single, mock_factory, monkeypatch):
    monkeypatch.setitem(light_module.SINGLE_LED_LOOKS, "waiting_for_roll",
                        Look((1.0, 1.0, 1.0), on_s=0.03, off_s=0.03))
    pin = mock_factory.pin(LED)
    single.show("waiting_for_roll")
    assert toggles(pin, 0.2) >= 2
    single.show("idle")
    assert pin.state
    assert toggles(pin, 0.1) == 0


def test_blink_speeds_tell_the_states_apart():
    for looks in (light_module.SINGLE_LED_LOOKS, light_module.RGB_LOOKS):
        assert looks["idle"].on_s is None
        assert looks["waiting_for_roll"].on_s > looks["reading_ready"].on_s >= looks["error"].on_s


def test_rgb_led_colours_name_the_state(rgb, mock_factory):
    red, green, blue = (mock_factory.pin(p) for p in (RED, GREEN, BLUE))
    assert 0 < red.state < 0.5 and red.state == green.state == blue.state  # idle: dim white
    rgb.show("reading_ready")
    assert wait_until(lambda: green.state == 1)
    assert red.state == 0 and blue.state == 0
    rgb.show("error")
    assert wait_until(lambda: red.state == 1)
    assert green.state == 0 and blue.state == 0
    rgb.show("waiting_for_roll")
    assert wait_until(lambda: blue.state == 1)
    assert red.state == 0 and green.state == 0


def test_buzzer_chirps_when_a_reading_is_ready_and_beeps_twice_on_error(rgb, mock_factory):
    buzzer = mock_factory.pin(BUZZER)
    buzzer.clear_states()
    rgb.show("reading_ready")
    assert wait_until(lambda: [s.state for s in buzzer.states][-2:] == [True, False])
    buzzer.clear_states()
    rgb.show("error")
    assert wait_until(lambda: [s.state for s in buzzer.states].count(True) == 2, timeout_s=2.0)


def test_showing_the_same_state_again_does_not_restart_it(rgb, mock_factory):
    buzzer = mock_factory.pin(BUZZER)
    rgb.show("reading_ready")
    assert wait_until(lambda: [s.state for s in buzzer.states][-2:] == [True, False])
    buzzer.clear_states()
    rgb.show("reading_ready")
    time.sleep(0.15)
    assert len(buzzer.states) == 1


def test_rgb_led_without_pwm_is_driven_on_off(mock_factory):
    factory = MockFactory(pin_class=MockPin)
    with StatusLight(PinMap(led=(RED, GREEN, BLUE)), pin_factory=factory) as light:
        assert [factory.pin(p).state for p in (RED, GREEN, BLUE)] == [True, True, True]
        light.show("error")
        assert wait_until(lambda: factory.pin(RED).state)
        assert not factory.pin(GREEN).state
    factory.reset()


def test_unknown_state_is_refused_with_the_known_ones(single):
    with pytest.raises(UnknownLightState, match="waiting_for_roll") as caught:
        single.show("dice_ready")
    assert isinstance(caught.value, HardwareError) and isinstance(caught.value, ValueError)
    assert single.state == "idle"


def test_light_without_led_or_buzzer_still_follows_the_state(mock_factory):
    light = StatusLight(PinMap(led=None))
    for state in LIGHT_STATES:
        light.show(state)
        assert light.state == state
    light.close()


def test_close_switches_the_led_off_and_frees_the_pin(mock_factory):
    light = StatusLight(PinMap(led=LED))
    pin = mock_factory.pin(LED)
    assert pin.state
    light.close()
    light.close()
    assert not pin.state
    assert pin.function == "input"
    again = StatusLight(PinMap(led=LED))
    assert mock_factory.pin(LED).state
    again.close()

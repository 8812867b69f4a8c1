"""Fixtures: gpiozero's MockFactory swapped in for one test, the previous factory restored after."""

from __future__ import annotations

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin


class FakeClock:
    """A monotonic clock in seconds that moves only when a test says so."""

    def __init__(self, start_s: float = 1000.0) -> None:
        self.now_s = start_s

    def __call__(self) -> float:
        return self.now_s

    def advance(self, seconds: float) -> None:
        self.now_s += seconds


@pytest.fixture
def mock_factory():
    """A fresh MockFactory as gpiozero's default pin factory (PWM-capable pins)."""
    previous = Device.pin_factory
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = previous


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()

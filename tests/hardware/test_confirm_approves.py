"""The physical CONFIRM button, wired by `serve`, approves the phone that asked to be host."""

from __future__ import annotations

import time

from companion.commands.serve import Companion
from companion.settings import Settings


def test_pressing_confirm_on_the_table_makes_the_asking_phone_host(tmp_path):
    settings = Settings(host="127.0.0.1", port=0, camera="sim", data_dir=tmp_path, gpio="mock")
    running = Companion(settings)
    try:
        assert running.hardware is not None and running.hardware.simulated
        session = running.session
        table = session.create("dice-devils", ["Alice", "Bob", "Carol"], token="lost-host-phone")
        alice = session.claim_seat(table.id, 0)
        assert not session.request_host(table.id, alice)["granted"]
        pin = running.hardware.pin_factory.pin(settings.pins.confirm)
        pin.drive_low()
        pin.drive_high()
        deadline = time.monotonic() + 10
        while table.host != alice and time.monotonic() < deadline:
            time.sleep(0.02)
        assert table.host == alice
    finally:
        running.close()

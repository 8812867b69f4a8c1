"""The settle detector on rendered sequences: a roll is 'settled' only when dice lie still long enough."""

import numpy as np

from vision.render import DieSpec, background, render_scene
from vision.settle import SettleDetector

SPECS = [DieSpec("d6", "white", 3), DieSpec("d6", "red", 5)]


def _table(seed=1):
    rng = np.random.default_rng(seed)
    return rng, background(rng, 640, 480, clutter=False)


def _dice(rng, table, specs=SPECS):
    return render_scene(rng, specs, variations=False, backdrop=table)[0]


def _hand(frame):
    out = frame.copy()
    out[300:, 250:420] = (120, 150, 205)  # a forearm reaching in from the bottom edge
    return out


def _feed(detector, frames, step_ms=50, start_ms=0):
    states = []
    for i, frame in enumerate(frames):
        detector.update(frame, start_ms + i * step_ms)
        states.append(detector.state)
    return states


def test_empty_tray_never_settles():
    _, table = _table()
    detector = SettleDetector(settle_ms=300)
    states = _feed(detector, [table] * 30)
    assert "settled" not in states and states[-1] == "empty"


def test_a_roll_settles_after_settle_ms_of_stillness():
    rng, table = _table()
    detector = SettleDetector(settle_ms=400)
    tumbling = [_dice(rng, table) for _ in range(8)]  # the dice land somewhere new in each frame
    rest = _dice(rng, table)
    states = _feed(detector, [table] * 12 + tumbling + [rest] * 20)
    assert states[11] == "empty"
    assert set(states[13:20]) == {"moving"}
    first = states.index("settled")
    # the dice came to rest at frame 20; 400 ms at 50 ms per frame is 8 frames later
    assert 20 + 8 <= first <= 20 + 9
    assert set(states[first:]) == {"settled"}


def test_a_hand_in_the_tray_is_not_settled_even_when_still():
    rng, table = _table()
    detector = SettleDetector(settle_ms=300)
    rest = _dice(rng, table)
    states = _feed(detector, [table] * 12 + [_hand(rest)] * 20)
    assert "settled" not in states[12:]
    assert states[-1] == "hand"
    # once the hand leaves, the dice settle
    more = _feed(detector, [rest] * 12, start_ms=32 * 50)
    assert more[-1] == "settled"


def test_dice_already_in_the_tray_at_start_settle_once_read():
    rng, table = _table(2)
    detector = SettleDetector(settle_ms=300)
    assert detector.update(_dice(rng, table), 0) is False
    states = _feed(detector, [_dice(np.random.default_rng(9), table)] * 12, start_ms=50)
    assert states[-1] == "settled"


def test_set_empty_then_small_grey_die_counts_as_not_empty():
    rng, table = _table(3)
    detector = SettleDetector(settle_ms=200)
    detector.set_empty(table)
    frame = _dice(rng, table, [DieSpec("grey", "grey", 2)])
    states = _feed(detector, [frame] * 10)
    assert states[-1] == "settled"


def test_by_default_the_dice_reader_says_whether_a_still_view_at_start_holds_dice(monkeypatch):
    from vision.readers import DiceReader

    asked = []

    def reads_nothing(frame):
        asked.append(frame.shape)
        return []

    monkeypatch.setattr("vision.readers.open_reader", lambda *args, **kw: DiceReader("blind", reads_nothing))
    rng, table = _table(2)
    detector = SettleDetector(settle_ms=300)
    states = _feed(detector, [_dice(rng, table)] * 12)
    assert "settled" not in states and states[-1] == "empty"  # a reader that sees no die: the empty tray
    assert asked == [(480, 640, 3)]  # asked once, when the view had been still for settle_ms


def test_a_reader_that_fails_on_a_still_view_takes_it_for_a_roll_and_is_logged_once(caplog):
    asked = []

    def broken(frame):
        asked.append(frame.shape)
        raise RuntimeError("the model file went missing")

    rng, table = _table(2)
    detector = SettleDetector(settle_ms=300, read=broken)
    with caplog.at_level("ERROR"):
        states = _feed(detector, [_dice(rng, table)] * 30)
    assert states[-1] == "settled"  # the tray watcher reads it, and asks a person when reading fails
    assert asked == [(480, 640, 3)]  # once this still period, not every frame
    assert caplog.text.count("the dice reader failed on a still view") == 1


def test_a_picture_turned_while_watching_is_a_new_view_learned_afresh():
    rng, table = _table()
    detector = SettleDetector(settle_ms=300)
    _feed(detector, [table] * 12)
    turned, rest = np.rot90(table).copy(), np.rot90(_dice(rng, table)).copy()  # the host turned the camera
    states = _feed(detector, [turned] * 12 + [rest] * 12, start_ms=12 * 50)
    assert states[11] == "empty"  # its empty tray learned again, no error
    assert states[-1] == "settled"  # and a roll in the turned picture settles

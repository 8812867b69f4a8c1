"""`companion replay` on logs with actions of the wrong shape: one line naming its line, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion import gamelog
from companion.cli import main
from companion.games.dice_devils import DiceDevils
from tests.playthrough import NAMES, first_state

DD = DiceDevils()


def draw(kind: str):
    return lambda s: bool(s["draw"]) and s["draw"]["kind"] == kind


def decided(kind: str):
    return lambda s: bool(s["decision"]) and s["decision"]["kind"] == kind


def a_loser_as_float(state) -> float:
    return float(state["decision"]["losers"][0])


CASES = [
    (draw("items"), lambda s: {"type": "reveal", "items": [["bed"], "grill"]}, "entry 1"),
    (draw("items"), lambda s: {"type": "reveal", "items": [{}, "bed"]}, "entry 1"),
    (draw("blind_pick"), lambda s: {"type": "pick", "item": ["grill"]}, 'pick "item"'),
    (draw("blind_pick"), lambda s: {"type": "pick", "item": []}, 'pick "item"'),
    (decided("swap"), lambda s: {"type": "swap", "with": a_loser_as_float(s)}, 'swap "with": a seat'),
    (decided("swap"), lambda s: {"type": "swap", "with": True}, 'swap "with": a seat'),
    (decided("steal"), lambda s: {"type": "steal", "from": a_loser_as_float(s)}, 'steal "from": a seat'),
    (decided("exchange"), lambda s: {**next(a for a in DD.legal_actions(s) if a["type"] == "exchange"),
                                     "from": a_loser_as_float(s)}, 'exchange "from": a seat'),
    (lambda s: bool(s["roll"]), lambda s: {"type": "roll", "values": [6.0] * len(s["roll"]["dice"])},
     'roll "values": entry 1'),
]


@pytest.mark.parametrize("reached, bad, words", CASES)
def test_replay_refuses_a_mistyped_action_in_one_line_naming_its_line(tmp_path, capsys, reached, bad, words):
    state, actions = first_state(DD, 6, reached)
    log = gamelog.GameLog("dice-devils", list(NAMES[:6]), {}, [(0, a) for a in [*actions, bad(state)]])
    path = tmp_path / "bad.jsonl"
    path.write_text(log.dumps(), encoding="utf-8")
    code = main(["replay", "dice-devils", str(path)])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.startswith(f"companion replay: line {len(actions) + 2}: illegal action ")
    assert words in err and err.count("\n") == 1


def test_replay_of_a_line_nested_too_deep_says_so_from_the_shell(tmp_path):
    header = json.dumps({"game": "dice-devils", "players": ["Ann", "Ben", "Cid"]})
    path = tmp_path / "deep.jsonl"
    path.write_text(header + "\n" + "[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "companion", "replay", "dice-devils", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr == "companion replay: line 2: JSON nested too deep for an action\n"

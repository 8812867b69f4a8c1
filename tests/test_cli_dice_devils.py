"""`companion odds dice-devils` and `companion replay dice-devils`: output, errors, a sample log."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from companion import gamelog
from companion.cli import main
from companion.games import FACES
from companion.games.dice_devils import DiceDevils

G = DiceDevils()

SAMPLE_LOG = """\
# Round 1 of a 3-player game: Alice is Oberteufel, Bob Putzteufel, Carol Satansbraten.
{"game": "dice-devils", "players": ["Alice", "Bob", "Carol"], "options": {}}
{"type": "draw_ranks", "ranks": ["oberteufel", "putzteufel", "satansbraten"]}
{"type": "reveal", "items": ["grill", "bed"]}
{"type": "claim", "item": 0}
{"type": "claim", "item": 0}
{"type": "claim", "item": 1}
{"type": "roll", "values": [1, 1, 2, 6, 6]}
{"type": "swap", "with": 0}
"""


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_odds_json_is_one_object_that_sums_to_one(capsys):
    code, out, err = run(capsys, "odds", "dice-devils", "--fighters", "oberteufel,satansbraten", "--json")
    assert code == 0 and err == ""
    result = json.loads(out)
    assert list(result) == ["p_win"]
    assert set(result["p_win"]) == {"oberteufel", "satansbraten"}
    assert sum(result["p_win"].values()) == pytest.approx(1)
    assert result["p_win"]["oberteufel"] == pytest.approx(0.6357, abs=1e-4)


def test_odds_with_known_dice(capsys):
    code, out, _ = run(capsys, "odds", "dice-devils", "--fighters", "oberteufel,satansbraten",
                       "--known", "oberteufel=1,6,6", "--known", "satansbraten=4,4", "--json")
    assert code == 0 and json.loads(out) == {"p_win": {"oberteufel": 1.0, "satansbraten": 0.0}}


def test_odds_text_mode_names_every_fighter(capsys):
    code, out, _ = run(capsys, "odds", "dice-devils", "--fighters", "spielteufel,fehlerteufel,springteufel")
    assert code == 0
    ranks = [line.split(":")[0] for line in out.splitlines()]
    assert ranks == ["spielteufel", "fehlerteufel", "springteufel"]
    assert all(line.endswith("%") for line in out.splitlines())


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--fighters", "oberteufel,beelzebub"], "unknown rank 'beelzebub'"),
        (["--fighters", "oberteufel"], "two or more"),
        (["--fighters", "oberteufel,satansbraten", "--known", "satansbraten=5,5"], "5 is not a face"),
        (["--fighters", "oberteufel,satansbraten", "--known", "oberteufel=1,2"], "rolls 3 dice"),
        (["--fighters", "oberteufel,satansbraten", "--known", "oberteufel=a,b,c"], "whole numbers"),
        (["--fighters", "spielteufel,putzteufel", "--known", "oberteufel=1,2,3"], "not in this fight"),
    ],
)
def test_odds_bad_input_is_one_line_and_exit_nonzero(capsys, argv, words):
    code, out, err = run(capsys, "odds", "dice-devils", *argv, "--json")
    assert code != 0 and out == ""
    assert err.count("\n") == 1 and words in err and "Traceback" not in err


def test_odds_bad_rank_from_the_shell_has_no_traceback():
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "odds", "dice-devils", "--fighters", "oberteufel,imp", "--json"],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode != 0 and proc.stdout == ""
    assert "Traceback" not in proc.stderr and proc.stderr.strip().count("\n") == 0


def test_replay_sample_log(tmp_path, capsys):
    log = tmp_path / "sample.jsonl"
    log.write_text(SAMPLE_LOG, encoding="utf-8")
    code, out, err = run(capsys, "replay", "dice-devils", str(log))
    assert code == 0 and err == ""
    result = json.loads(out)
    state = result["state"]
    assert state["round"] == 2 and state["phase"] == "reveal"
    assert state["collections"] == [[], ["grill"], ["bed"]]
    assert state["ranks"] == ["putzteufel", "oberteufel", "satansbraten"]  # Bob's swap, from round 2
    assert result["summary"]["scores"] == {"Alice": 0, "Bob": 3, "Carol": 1}
    assert result["summary"]["over"] is False


def test_replay_of_a_full_random_game_matches_the_engine(tmp_path, capsys):
    rnd = random.Random(11)
    players = ["Ann", "Ben", "Cid", "Dee", "Eli"]
    state = G.new_game(players)
    actions = []
    while not G.is_over(state):
        request = G.roll_request(state)
        if request is not None:
            action = {"type": "roll", "values": [rnd.choice(FACES[d.kind]) for d in request.dice]}
        else:
            action = rnd.choice(G.legal_actions(state))
        state, _ = G.apply(state, action)
        actions.append(action)
    log = gamelog.GameLog("dice-devils", players, {}, [(i + 2, a) for i, a in enumerate(actions)])
    path = tmp_path / "game.jsonl"
    path.write_text(log.dumps(), encoding="utf-8")
    code, out, _ = run(capsys, "replay", "dice-devils", str(path))
    result = json.loads(out)
    assert code == 0 and result["state"] == state
    assert result["summary"] == G.summary(state) and result["summary"]["over"] is True


def test_replay_stops_at_an_illegal_action_with_its_line(tmp_path, capsys):
    log = tmp_path / "bad.jsonl"
    bad = SAMPLE_LOG.replace('{"type": "swap", "with": 0}', '{"type": "steal", "from": 0}')
    log.write_text(bad, encoding="utf-8")
    code, out, err = run(capsys, "replay", "dice-devils", str(log))
    assert code != 0 and out == ""
    assert "line 9" in err and "Putzteufel (Bob) must swap rank" in err and err.count("\n") == 1

"""`companion replay dog-eat-dog LOG` and `companion odds dog-eat-dog` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.bench_engine import NAMES, play_random_game
from companion.cli import main

EXAMPLE = Path(__file__).parent / "games" / "logs" / "dog-eat-dog-example.jsonl"
HEADER = {"game": "dog-eat-dog", "players": ["Alice", "Bob"], "options": {}}


def write_log(tmp_path: Path, *lines) -> str:
    path = tmp_path / "game.jsonl"
    path.write_text("".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines))
    return str(path)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_of_the_example_log_prints_state_and_summary(capsys):
    code, out, err = run(capsys, "replay", "dog-eat-dog", str(EXAMPLE))
    assert code == 0 and err == ""
    result = json.loads(out)
    assert result["state"]["stacks"] == [["red-M-1", "green-L-1"], ["yellow-M-1", "red-L-1"]]
    assert result["state"]["pyramids"]["yellow-L-1"]["captured_by"] == 2
    assert [row["score"] for row in result["summary"]["players"]] == [1, 0, 2]


def test_replay_of_a_whole_random_game_shows_the_winners(capsys, tmp_path):
    final, actions = play_random_game(3, {"treehouse": True}, seed=11)
    header = {"game": "dog-eat-dog", "players": NAMES[:3], "options": {"treehouse": True}}
    code, out, _ = run(capsys, "replay", "dog-eat-dog", write_log(tmp_path, header, *actions))
    result = json.loads(out)
    assert code == 0 and result["state"] == final
    assert result["summary"]["over"] and result["summary"]["winner_names"]


def test_replay_stops_at_an_illegal_line_with_its_number(capsys, tmp_path):
    log = write_log(tmp_path, HEADER, {"type": "roll", "values": [6, 1]}, "# Alice attacks her own pyramid",
                    {"type": "attack", "attacker": "red-L-1", "target": "red-S-1"})
    code, out, err = run(capsys, "replay", "dog-eat-dog", log)
    assert code != 0 and out == ""
    assert err.startswith("companion replay: line 4: illegal action")
    assert "the small red is yours: attack a pyramid of another colour" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_replay_refuses_a_malformed_json_line(capsys, tmp_path):
    log = write_log(tmp_path, HEADER, {"type": "roll", "values": [6, 1]}, '{"type": "pass"')
    code, out, err = run(capsys, "replay", "dog-eat-dog", log)
    assert code != 0 and out == ""
    assert "line 3: not JSON" in err and len(err.strip().splitlines()) == 1


def test_replay_refuses_bad_options_in_the_header(capsys, tmp_path):
    log = write_log(tmp_path, dict(HEADER, options={"colours": ["red", "pink"]}))
    code, _, err = run(capsys, "replay", "dog-eat-dog", log)
    assert code != 0 and "line 1: unknown colour 'pink'" in err


def test_replay_refuses_a_roll_with_the_wrong_dice(capsys, tmp_path):
    log = write_log(tmp_path, HEADER, {"type": "roll", "values": [6, 1, 3]})
    code, _, err = run(capsys, "replay", "dog-eat-dog", log)
    assert code != 0 and "line 2:" in err and "needs 2 dice" in err


def test_odds_prints_the_exact_chance(capsys):
    code, out, _ = run(capsys, "odds", "dog-eat-dog", "--attacker", "L", "--defender", "M")
    assert code == 0
    assert out.strip() == "attack succeeds: 47.2% (exactly 3667/7776)"


def test_odds_json_for_large_on_medium(capsys):
    code, out, _ = run(capsys, "odds", "dog-eat-dog", "--attacker", "L", "--defender", "M", "--json")
    assert code == 0
    assert json.loads(out)["p_attack_succeeds"] == pytest.approx(3667 / 7776)


def test_odds_for_a_stack_top_first_with_the_treehouse_die(capsys):
    code, out, _ = run(capsys, "odds", "dog-eat-dog", "--attacker", "m", "--defender", "L, S", "--treehouse",
                       "--json")
    assert code == 0
    # HOP (1/6), or 4/6 times one d6 (tie rule on pips: the medium beats the large on a tie, not the small)
    expected = 1 / 6 + 4 / 6 * sum((a / 6) ** 3 * ((a - 1) / 6) for a in range(1, 7)) / 6
    assert json.loads(out)["p_attack_succeeds"] == pytest.approx(expected)


@pytest.mark.parametrize(("argv", "words"), [
    (["--attacker", "X", "--defender", "M"], "unknown size 'X': use S, M or L"),
    (["--attacker", "L", "--defender", "M,Q"], "unknown size 'Q'"),
    (["--attacker", "L", "--defender", ""], "the defender needs at least one size"),
    (["--attacker", "L", "--defender", "M,,S"], "the defender needs at least one size"),
    (["--attacker", "S", "--defender", "M", "--treehouse"], "a small pyramid cannot use the Treehouse die"),
])
def test_odds_errors_are_one_line_and_exit_non_zero(capsys, argv, words):
    code, out, err = run(capsys, "odds", "dog-eat-dog", *argv)
    assert code != 0 and out == ""
    assert err.startswith("companion odds: ") and words in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_bench_engine_prints_figures(capsys):
    code, out, _ = run(capsys, "bench", "engine", "--seconds", "0.02")
    assert code == 0
    assert "games/s" in out and "µs" in out
    assert len([line for line in out.splitlines() if line.strip()[:1].isdigit()]) == 10

"""`companion replay dog LOG` and DOG's figures in `companion bench engine`."""

from __future__ import annotations

import json
from pathlib import Path

from companion.bench_dog import NAMES, play_random_game
from companion.cli import main


def test_replay_of_a_whole_random_dog_game_shows_the_winning_team(capsys, tmp_path: Path):
    options = {"hands": "entered", "canadian_seven": True}
    final, actions = play_random_game(options, seed=5)
    lines = [{"game": "dog", "players": NAMES, "options": options}, *actions]
    log = tmp_path / "dog.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert main(["replay", "dog", str(log)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["state"] == final
    assert result["summary"]["winners"] == [NAMES[s] for s in final["winners"]]


def test_bench_engine_prints_the_worst_case_seven_with_and_without_the_canadian_seven(capsys):
    assert main(["bench", "engine", "--seconds", "0.02"]) == 0
    out = capsys.readouterr().out
    worst = [line.split() for line in out.splitlines() if line.startswith("worst case")]
    assert [row[2] for row in worst] == ["default", "Canadian"]
    assert all(float(row[3]) > 0 for row in worst)
    assert "DOG random games, hands entered:" in out and "DOG random games, hands laid:" in out

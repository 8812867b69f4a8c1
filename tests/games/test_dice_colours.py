"""`Game.dice_colours`: the colour names a game asks for dice by, which the camera's calibration asks the
players to name their sets with. Every colour a roll asks for must be among them."""

from __future__ import annotations

import pytest

from companion.games import get
from tests.playthrough import play


@pytest.mark.parametrize("name, players", [("dog-eat-dog", 3), ("dog-eat-dog", 6), ("dice-devils", 3),
                                           ("dice-devils", 5), ("battle-zone", 2)])
def test_every_colour_a_roll_asks_for_is_one_the_game_names(name, players):
    game = get(name)
    asked: set[str] = set()

    def note(state) -> bool:
        request = game.roll_request(state)
        if request is not None:
            asked.update(d.colour for d in request.dice if d.colour is not None and d.kind == "d6")
            assert set(asked) <= set(game.dice_colours(state)), (asked, game.dice_colours(state))
        return False

    for seed in range(3):
        play(game, players, seed, steps=300, until=note)
    if name in ("dog-eat-dog", "dice-devils"):
        assert asked  # these games do ask for dice by colour


def test_the_colours_are_dog_eat_dogs_seats_and_dice_devils_yellow_and_black():
    ded = get("dog-eat-dog")
    assert ded.dice_colours(ded.new_game(["A", "B", "C"])) == ["red", "yellow", "green"]
    assert ded.dice_colours(ded.new_game(["A", "B"], {"colours": ["blue", "orange"]})) == ["blue", "orange"]
    devils = get("dice-devils")
    assert devils.dice_colours(devils.new_game(["A", "B", "C"])) == ["yellow", "black"]
    for name, players in (("battle-zone", 2), ("dog", 4)):
        game = get(name)
        assert game.dice_colours(game.new_game([f"P{i}" for i in range(players)])) == []

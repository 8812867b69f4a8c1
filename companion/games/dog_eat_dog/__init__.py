"""Dog Eat Dog (Jason Darrah, 2008): the rules engine, its scoring and its exact odds.

    from companion.games.dog_eat_dog import DogEatDog
    game = DogEatDog()
    state = game.new_game(["Alice", "Bob"], {"treehouse": True})
    state, events = game.apply(state, {"type": "roll", "values": [6, 2]})   # Alice goes first

Modules: pieces (ids, names), table (queries), attack (one attack), treehouse (the die's follow-ups),
scoring (trees), odds (exact probabilities), options, rules (the Game).
"""

from .options import DogEatDogOptions
from .rules import DogEatDog

__all__ = ["DogEatDog", "DogEatDogOptions"]

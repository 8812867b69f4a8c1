"""DOG (Brändi Dog family): the referee for the four-player card-and-marble game.

    from companion.games.dog import Dog
    game = Dog()
    state = game.new_game(["Ann", "Ben", "Cat", "Dan"], {"hands": "laid"})
    state, events = game.apply(state, {"type": "start", "card": "A"})   # Ben's first play

Modules: board (holes and their codes), cards, moves (one card on one marble), seven (the 7's splits),
plays (a card's legal plays and playing one), shapes (the actions' exact shapes), options, game (the Game).
"""

from .game import Dog
from .options import DogOptions

__all__ = ["Dog", "DogOptions"]

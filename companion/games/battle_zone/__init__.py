"""Battle Zone (Jason Troutman, 2001): the rules engine, with the rulings of rules/battle-zone.md.

    from companion.games.battle_zone import BattleZone
    game = BattleZone()
    state = game.new_game(["Alice", "Bob"])                  # Alice: rank 1, moves first
    state, events = game.apply(state, {"type": "roll", "values": [1, 4, 6]})
    state, events = game.apply(state, {"type": "place", "die": 0, "colour": "red", "square": "c1"})

Modules: options, board (squares, range, the board as a camera reads it), supply, actions (the five
actions of a die), powers (activation and the powers' steps), game (the Game), odds (exact chances).
"""

from .game import BattleZone
from .options import BattleZoneOptions

__all__ = ["BattleZone", "BattleZoneOptions"]

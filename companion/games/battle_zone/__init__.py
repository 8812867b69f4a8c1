"""Battle Zone (Jason Troutman, 2001): the rules engine, with the rulings of rules/battle-zone.md.

    from companion.games.battle_zone import BattleZone
    game = BattleZone()
    state = game.new_game(["Alice", "Bob"])                  # Alice: rank 1, moves first
    state, events = game.apply(state, {"type": "roll", "values": [1, 4, 6]})
    state, events = game.apply(state, {"type": "place", "die": 0, "colour": "red", "square": "c1"})

Action log (JSON Lines as companion/gamelog.py; header `{"game": "battle-zone", "players": [A, B],
"options": {...}}`). Seat 0 (the first name) starts, and its starting line is rank 1; seat 1's is rank
8. Squares are "a1".."h8" (file a-h, rank 1-8). Directions are compass points with N towards rank 8:
N, NE, E, SE, S, SW, W, NW. Colours are the option's set (rainbow: die 1 red, 2 blue, 3 green,
4 yellow, 5 black; xeno: orange, purple, cyan, clear, white); a 6 is any colour.

    {"type": "roll", "values": [1, 4, 6]}            the three dice, in tray order; "die" indexes them
    {"type": "place",    "die": 0, "colour": "red", "square": "c1"}
    {"type": "take",     "die": 0, "colour": "red", "square": "d4"}
    {"type": "upgrade",  "die": 0, "colour": "red", "square": "d4"}
    {"type": "activate", "die": 0, "colour": "red", "square": "d4"}
    {"type": "move",     "die": 0, "colour": "red", "square": "d4", "direction": "N"}
    {"type": "transport", "square": "e5"}  then  {"type": "put", "square": "f6"}   (Transport, up to X)
    {"type": "stop"}                                 ends a Transport early
    {"type": "grow", "square": "e5"}                 Upgrade power, short supply: this one gets the piece
    {"type": "end"}                                  leaves the dice left unused (B7)
    {"type": "draw"}                                 ends a stalled game (offered after stall_turns)

"colour" may be left out for dice 1-5 (it is the die's); on a 6 it is required. "die" is an int 0-2
(not a bool), squares and directions are strings as above; anything else is refused. The turn ends by
itself when every die is used or none left has a legal action; the move that exits a fifth colour
wins at once. A Transport after activating names the pyramid to move, then its empty square in range,
one pyramid at a time. The Upgrade power asks `grow` only when one colour and size in range has fewer
larger pieces in the supply than pyramids (larges first, then mediums, then smalls: B9); the pyramids
not picked leave the board. Options: colours ("rainbow" | "xeno"), range ("filled" | "ring"),
upgrade_standing (false), must_use_all_dice (false), stall_turns (30; 0 never offers a draw).

Modules: options, board (squares, range, the board as a camera reads it), supply, actions (the five
actions of a die), powers (activation and the powers' steps), game (the Game).
"""

from . import supply
from .game import BattleZone
from .options import BattleZoneOptions

__all__ = ["BattleZone", "BattleZoneOptions", "supply"]

"""Dice Devils: the rules engine (`DiceDevils`) and exact fight odds (`odds.p_win`)."""

from .game import DiceDevils, DiceDevilsOptions

__all__ = ["DiceDevils", "DiceDevilsOptions"]

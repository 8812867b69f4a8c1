"""Every error a game can raise, each also a builtin so callers may catch either (as gpiozero does)."""


class GameError(Exception):
    """Base of the engines' errors; the message is a sentence a player can read."""


class IllegalAction(GameError, ValueError):
    """The action is not allowed now; the state is unchanged."""


class BadAction(IllegalAction):
    """The action is malformed (an unknown type, a field missing, unknown or of the wrong type): bad input,
    whatever the state. The web answers 400 for it, and 409 for an action that is only not allowed now."""


class BadOptions(GameError, ValueError):
    """A game was created with unknown or impossible options (players, colours, rulings)."""


class UnknownGame(GameError, KeyError):
    """No engine has this name."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "unknown game"

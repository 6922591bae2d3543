"""The engine's narrow exceptions.

Both are ``ValueError`` subclasses, so callers that only care about "bad input" can catch
``ValueError``; callers that want to tell a rules violation from a typo can catch each.
"""

from __future__ import annotations


class NotationError(ValueError):
    """Text that is not valid tile, place or move notation."""


class IllegalMove(ValueError):
    """A move the rules do not allow right now.

    ``rule`` names the rule it breaks (``"R18"``); the message says it in a player's words
    and starts with the rule number.

    >>> err = IllegalMove("R19", "you may pass only when the stock is empty")
    >>> str(err), err.rule
    ('R19: you may pass only when the stock is empty', 'R19')
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.reason = message


class NotYourTurn(IllegalMove):
    """A seat moved out of turn (R8).

    >>> isinstance(NotYourTurn("R8", "seat 1 is to play"), IllegalMove)
    True
    """


class RoundOver(IllegalMove):
    """A move after the round ended, before the next deal (R21)."""


class MatchOver(IllegalMove):
    """A move or a deal after the match was won (R24)."""

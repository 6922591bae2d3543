"""Sides (R2): everyone plays alone at two and three players; at four, seats 0 and 2
play against seats 1 and 3 in fixed partnerships."""

from __future__ import annotations


def side_count(players: int) -> int:
    """Sides at a table (R2): partnerships at four, everyone alone otherwise.

    >>> side_count(2), side_count(3), side_count(4)
    (2, 3, 2)
    """
    return 2 if players == 4 else players


def side_of(seat: int, players: int) -> int:
    """The side of a seat (R2): at four players seats 0+2 are side 0, 1+3 side 1.

    >>> [side_of(s, 4) for s in range(4)], [side_of(s, 3) for s in range(3)]
    ([0, 1, 0, 1], [0, 1, 2])
    """
    return seat % 2 if players == 4 else seat


def sides_seats(players: int) -> list[list[int]]:
    """The seats of each side.

    >>> sides_seats(4)
    [[0, 2], [1, 3]]
    """
    return [
        [s for s in range(players) if side_of(s, players) == i] for i in range(side_count(players))
    ]

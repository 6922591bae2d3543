"""Places: attachment points on laid tiles, named ``tile:side`` (R10).

A place is an ``int``: ``tile * 4 + side``. For a non-double the sides are ``low`` (0) and
``high`` (1); for a double ``lineA`` (0), ``lineB`` (1), ``branchA`` (2), ``branchB`` (3).

>>> p = parse_place("4|4:branchA")
>>> format_place(p), PLACE_VALUE[p], place_tile(p) == parse_tile("4|4")
('4|4:branchA', 4, True)
>>> format_place(parse_place("1|4:low")), PLACE_VALUE[parse_place("1|4:low")]
('1|4:low', 1)
"""

from __future__ import annotations

from typing import Final

from .errors import NotationError
from .tiles import ALL_TILES, HIGH, IS_DOUBLE, LOW, NAMES, Tile, parse_tile

Place = int
"""A place: ``tile * 4 + side``."""

LOW_SIDE: Final = 0
HIGH_SIDE: Final = 1
LINE_A: Final = 0
LINE_B: Final = 1
BRANCH_A: Final = 2
BRANCH_B: Final = 3

SINGLE_SIDES: Final[tuple[str, ...]] = ("low", "high")
DOUBLE_SIDES: Final[tuple[str, ...]] = ("lineA", "lineB", "branchA", "branchB")


def _side_names(tile: Tile) -> tuple[str, ...]:
    return DOUBLE_SIDES if IS_DOUBLE[tile] else SINGLE_SIDES


def _value(place: int) -> int:
    tile, side = divmod(place, 4)
    if IS_DOUBLE[tile]:
        return LOW[tile]
    return LOW[tile] if side == LOW_SIDE else HIGH[tile]


NUM_PLACES: Final = len(ALL_TILES) * 4
VALID_PLACE: Final[tuple[bool, ...]] = tuple(
    (p % 4) < len(_side_names(p // 4)) for p in range(NUM_PLACES)
)
PLACE_VALUE: Final[tuple[int, ...]] = tuple(
    _value(p) if VALID_PLACE[p] else -1 for p in range(NUM_PLACES)
)
PLACE_NAMES: Final[tuple[str, ...]] = tuple(
    f"{NAMES[p // 4]}:{_side_names(p // 4)[p % 4]}" if VALID_PLACE[p] else ""
    for p in range(NUM_PLACES)
)
_BY_NAME: Final[dict[str, Place]] = {name: p for p, name in enumerate(PLACE_NAMES) if name}


def place_of(tile: Tile, side: int) -> Place:
    """The place on ``tile``'s ``side``."""
    return tile * 4 + side


def place_tile(place: Place) -> Tile:
    """The tile a place belongs to."""
    return place >> 2


def place_side(place: Place) -> int:
    """The side index of a place (see the module constants)."""
    return place & 3


def side_name(place: Place) -> str:
    """``low``/``high`` or ``lineA``/``lineB``/``branchA``/``branchB``."""
    return _side_names(place >> 2)[place & 3]


def parse_place(text: str) -> Place:
    """Parse ``"tile:side"`` (R10).

    >>> parse_place("1|4:lineA")
    Traceback (most recent call last):
    ...
    app.engine.errors.NotationError: '1|4:lineA' is not a place: a non-double has the sides low and high (R10)
    """
    place = _BY_NAME.get(text) if isinstance(text, str) else None
    if place is not None:
        return place
    if not isinstance(text, str) or text.count(":") != 1:
        raise NotationError(f"{text!r} is not a place: expected tile:side, e.g. 1|4:low (R10)")
    tile_text, _ = text.split(":")
    tile = parse_tile(tile_text)
    if IS_DOUBLE[tile]:
        raise NotationError(
            f"{text!r} is not a place: a double has the sides lineA, lineB, branchA and branchB (R10)"
        )
    raise NotationError(f"{text!r} is not a place: a non-double has the sides low and high (R10)")


def format_place(place: Place) -> str:
    """The notation of a place, ``"tile:side"``."""
    return PLACE_NAMES[place]

"""Tiles of the double-six set (R1) as small integers, and their notation.

A tile is an ``int`` from 0 to 27 (its index in :data:`ALL_TILES`), so that hands can be
bit masks and tables can be indexed without hashing. ``format_tile``/``parse_tile`` turn
it into and from the notation ``"a|b"`` (low pip first, R1).

>>> t = parse_tile("1|4")
>>> format_tile(t), LOW[t], HIGH[t], PIPS[t], IS_DOUBLE[t]
('1|4', 1, 4, 5, False)
>>> format_tile(parse_tile("6|6")), len(ALL_TILES)
('6|6', 28)
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from .errors import NotationError

Tile = int
"""A tile: an index 0..27 into :data:`ALL_TILES`."""

_PAIRS: Final[list[tuple[int, int]]] = [(a, b) for a in range(7) for b in range(a, 7)]

ALL_TILES: Final[tuple[Tile, ...]] = tuple(range(len(_PAIRS)))
LOW: Final[tuple[int, ...]] = tuple(a for a, _ in _PAIRS)
HIGH: Final[tuple[int, ...]] = tuple(b for _, b in _PAIRS)
PIPS: Final[tuple[int, ...]] = tuple(a + b for a, b in _PAIRS)
IS_DOUBLE: Final[tuple[bool, ...]] = tuple(a == b for a, b in _PAIRS)
NAMES: Final[tuple[str, ...]] = tuple(f"{a}|{b}" for a, b in _PAIRS)
BIT: Final[tuple[int, ...]] = tuple(1 << t for t in ALL_TILES)
FULL_SET: Final[int] = (1 << len(ALL_TILES)) - 1

_BY_NAME: Final[dict[str, Tile]] = {name: t for t, name in enumerate(NAMES)}
_BY_PAIR: Final[dict[tuple[int, int], Tile]] = {pair: t for t, pair in enumerate(_PAIRS)}

# VALUE_MASK[t]: bit v set for each pip value v on tile t.
VALUE_MASK: Final[tuple[int, ...]] = tuple((1 << a) | (1 << b) for a, b in _PAIRS)
# FITS[m]: the tiles (as a bit mask) showing at least one value of the value set m.
FITS: Final[tuple[int, ...]] = tuple(
    sum(BIT[t] for t in ALL_TILES if VALUE_MASK[t] & m) for m in range(128)
)


def tile_of(a: int, b: int) -> Tile:
    """The tile with halves ``a`` and ``b`` in either order.

    >>> format_tile(tile_of(5, 3))
    '3|5'
    """
    try:
        return _BY_PAIR[(a, b) if a <= b else (b, a)]
    except KeyError:
        raise NotationError(f"no tile {a}|{b} in a double-six set (R1)") from None


def parse_tile(text: str) -> Tile:
    """Parse ``"a|b"`` with ``a <= b`` (R1). ``"5|3"`` is refused: low pip first.

    >>> parse_tile("0|0"), parse_tile("6|6")
    (0, 27)
    >>> parse_tile("5|3")
    Traceback (most recent call last):
    ...
    app.engine.errors.NotationError: '5|3' is not a tile: write the low pip first, as 3|5 (R1)
    """
    tile = _BY_NAME.get(text) if isinstance(text, str) else None
    if tile is not None:
        return tile
    if isinstance(text, str):
        parts = text.split("|")
        if len(parts) == 2 and all(p.isdigit() and len(p) == 1 for p in parts):
            a, b = int(parts[0]), int(parts[1])
            if a <= 6 and b <= 6 and a > b:
                raise NotationError(
                    f"{text!r} is not a tile: write the low pip first, as {b}|{a} (R1)"
                )
    raise NotationError(f"{text!r} is not a tile: expected a|b with 0 <= a <= b <= 6 (R1)")


def format_tile(tile: Tile) -> str:
    """The notation of a tile, ``"a|b"``."""
    return NAMES[tile]


def tiles_of_mask(mask: int) -> list[Tile]:
    """The tiles of a bit mask, in set order.

    >>> [format_tile(t) for t in tiles_of_mask(BIT[1] | BIT[27])]
    ['0|1', '6|6']
    """
    out: list[Tile] = []
    while mask:
        low_bit = mask & -mask
        out.append(low_bit.bit_length() - 1)
        mask ^= low_bit
    return out


@lru_cache(maxsize=8192)
def names_of_mask(mask: int) -> list[str]:
    """The names of a bit mask's tiles, in set order: one shared list per mask (read-only).

    >>> names_of_mask(BIT[1] | BIT[27])
    ['0|1', '6|6']
    """
    return [NAMES[t] for t in tiles_of_mask(mask)]


def mask_of(tiles: list[Tile] | tuple[Tile, ...]) -> int:
    """The bit mask of a collection of tiles."""
    mask = 0
    for t in tiles:
        mask |= BIT[t]
    return mask

"""Moves as data: ``draw``, ``pass``, an opening tile, or a tile joined to a place.

Every possible move exists exactly once (they are interned), so moves compare and hash by
identity and the engine never allocates one while it plays. Parse/format pairs follow the
notation of the conformance README.

>>> m = Move.parse("4|4@1|4:high")
>>> m.kind, str(m), m is Move.parse(str(m))
('place', '4|4@1|4:high', True)
>>> str(Move.parse("1|4")), Move.parse("1|4").kind, Move.parse("draw") is DRAW
('1|4', 'open', True)
"""

from __future__ import annotations

from typing import Final, Literal

from .errors import NotationError
from .places import NUM_PLACES, PLACE_NAMES, PLACE_VALUE, VALID_PLACE, Place, parse_place
from .tiles import ALL_TILES, HIGH, LOW, NAMES, Tile, parse_tile

MoveKind = Literal["draw", "pass", "open", "place"]


class Move:
    """One move. Build moves with :meth:`parse` or the module tables, never directly.

    ``tile`` is the tile laid (``None`` for draw and pass); ``place`` the place it is
    joined to (``None`` unless ``kind == "place"``).
    """

    __slots__ = ("kind", "place", "text", "tile")

    kind: MoveKind
    tile: Tile | None
    place: Place | None
    text: str

    def __init__(self, kind: MoveKind, tile: Tile | None, place: Place | None, text: str) -> None:
        self.kind = kind
        self.tile = tile
        self.place = place
        self.text = text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Move({self.text!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Move.parse, (self.text,))

    @staticmethod
    def parse(text: str) -> Move:
        """Parse move notation: ``draw``, ``pass``, ``a|b`` or ``a|b@tile:side``.

        A placement of a tile at a place it cannot match is still *notation* (the rules
        refuse it later, R9), but a tile joined to itself is not a move at all.

        >>> Move.parse("2|5@2|5:high")
        Traceback (most recent call last):
        ...
        app.engine.errors.NotationError: '2|5@2|5:high' is not a move: a tile cannot join itself
        """
        found = _BY_TEXT.get(text) if isinstance(text, str) else None
        if found is not None:
            return found
        if not isinstance(text, str):
            raise NotationError(f"{text!r} is not a move: expected text")
        if "@" in text:
            tile_text, _, place_text = text.partition("@")
            try:
                tile = parse_tile(tile_text)
                place = parse_place(place_text)
            except NotationError as exc:
                raise NotationError(f"{text!r} is not a move: {exc}") from None
            if place >> 2 == tile:
                raise NotationError(f"{text!r} is not a move: a tile cannot join itself")
            return _placement(tile, place)
        try:
            parse_tile(text)
        except NotationError as exc:
            raise NotationError(
                f"{text!r} is not a move: expected draw, pass, a tile or tile@place ({exc})"
            ) from None
        raise NotationError(f"{text!r} is not a move")  # pragma: no cover


DRAW: Final = Move("draw", None, None, "draw")
PASS: Final = Move("pass", None, None, "pass")
OPEN: Final[tuple[Move, ...]] = tuple(Move("open", t, None, NAMES[t]) for t in ALL_TILES)

# PLACEMENT[tile][place]: the move joining tile to place, or None where the tile cannot
# show the place's value (the rules engine only ever needs the matching ones).
PLACEMENT: Final[tuple[tuple[Move | None, ...], ...]] = tuple(
    tuple(
        Move("place", t, p, f"{NAMES[t]}@{PLACE_NAMES[p]}")
        if VALID_PLACE[p] and p >> 2 != t and PLACE_VALUE[p] in (LOW[t], HIGH[t])
        else None
        for p in range(NUM_PLACES)
    )
    for t in ALL_TILES
)

# Non-matching placements are valid notation too; they are made on demand and cached.
_MISMATCHED: dict[tuple[Tile, Place], Move] = {}


def _placement(tile: Tile, place: Place) -> Move:
    move = PLACEMENT[tile][place]
    if move is not None:
        return move
    key = (tile, place)
    move = _MISMATCHED.get(key)
    if move is None:
        move = Move("place", tile, place, f"{NAMES[tile]}@{PLACE_NAMES[place]}")
        _MISMATCHED[key] = move
        _BY_TEXT[move.text] = move
    return move


_BY_TEXT: dict[str, Move] = {DRAW.text: DRAW, PASS.text: PASS}
_BY_TEXT.update((m.text, m) for m in OPEN)
_BY_TEXT.update((m.text, m) for row in PLACEMENT for m in row if m is not None)


def parse_move(text: str) -> Move:
    """Alias of :meth:`Move.parse`."""
    return Move.parse(text)


def format_move(move: Move) -> str:
    """The notation of a move."""
    return move.text

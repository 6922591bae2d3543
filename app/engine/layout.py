"""The layout: the tree of laid tiles, its open places and its scoring ends (R9–R16).

>>> from app.engine.tiles import parse_tile as t
>>> from app.engine.places import parse_place as p
>>> board = Layout()
>>> board.open_with(t("1|4"))
5
>>> board.place(t("1|1"), p("1|4:low")), board.place(t("4|4"), p("1|4:high"))
(0, 10)
>>> board.place(t("3|4"), p("4|4:lineB"))
5
>>> [format_place(x) for x in board.open_places()]
['1|1:lineB', '3|4:low', '4|4:branchA', '4|4:branchB']
>>> board.end_sum, board.scoring_ends()
(5, [('1|1', 2), ('3|4', 3)])
"""

from __future__ import annotations

from .errors import IllegalMove
from .places import (
    BRANCH_A,
    BRANCH_B,
    LINE_A,
    LINE_B,
    NUM_PLACES,
    PLACE_VALUE,
    Place,
    format_place,
)
from .tiles import BIT, HIGH, IS_DOUBLE, LOW, NAMES, Tile

NOT_LAID = -2
OPENING = -1


def award(end_sum: int) -> int:
    """Raw points for an end sum (R15): the sum itself if positive and a multiple of 5.

    >>> award(15), award(0), award(8)
    (15, 0, 0)
    """
    return end_sum if end_sum > 0 and end_sum % 5 == 0 else 0


class Layout:
    """The laid tiles as a spinner tree, kept with its open places and end sum.

    The methods :meth:`open_with` and :meth:`place` trust their caller (the round) to have
    checked legality with :meth:`check_opening`/:meth:`check_placement`; they return the raw points
    the placement earns (R15, R16).
    """

    __slots__ = ("_by_value", "_connected", "at", "end_sum", "laid", "open_values", "tiles", "via")

    def __init__(self) -> None:
        self.tiles: list[Tile] = []  # in the order they were laid
        self.at: list[Place] = [NOT_LAID] * 28  # the place each tile was joined to
        self.via: list[int] = [NOT_LAID] * 28  # the tile's own side that was connected
        self.laid = 0  # bit mask of laid tiles
        self._connected = bytearray(NUM_PLACES)
        self._by_value: list[list[Place]] = [[] for _ in range(7)]  # open places per value
        self.open_values = 0  # bit v set while some open place shows v
        self.end_sum = 0  # R14

    # -- queries ------------------------------------------------------------------------
    @property
    def is_empty(self) -> bool:
        return not self.tiles

    def is_open(self, place: Place) -> bool:
        """Whether ``place`` is an open place now (R12)."""
        value = PLACE_VALUE[place]
        return value >= 0 and place in self._by_value[value]

    def places_for_value(self, value: int) -> list[Place]:
        """Open places showing ``value`` (do not mutate the list)."""
        return self._by_value[value]

    def open_places(self) -> list[Place]:
        """All open places (R12), ordered by notation."""
        found = [p for places in self._by_value for p in places]
        return sorted(found, key=format_place)

    def check_opening(self, tile: Tile) -> None:
        """Raise :class:`IllegalMove` unless ``tile`` may open the layout (R8)."""
        if self.tiles:
            raise IllegalMove("R9", "the round is already open: join your tile to an open place")

    def check_placement(self, tile: Tile, place: Place) -> None:
        """Raise :class:`IllegalMove` unless ``tile`` may be joined to ``place`` (R9–R12)."""
        if not self.tiles:
            raise IllegalMove(
                "R8", f"the round has not been opened: lay {NAMES[tile]} alone to open"
            )
        if self.laid & BIT[tile]:
            raise IllegalMove("R1", f"{NAMES[tile]} is already in the layout")
        host = place >> 2
        if not self.laid & BIT[host]:
            raise IllegalMove("R12", f"{format_place(place)} is not in the layout")
        if not self.is_open(place):
            if IS_DOUBLE[host] and (place & 3) >= BRANCH_A and not self._connected[place]:
                raise IllegalMove(
                    "R11", f"{NAMES[host]} spins only after both of its lines are filled"
                )
            raise IllegalMove("R12", f"{format_place(place)} is not an open place")
        value = PLACE_VALUE[place]
        if value != LOW[tile] and value != HIGH[tile]:
            raise IllegalMove(
                "R9", f"{NAMES[tile]} does not match {format_place(place)}, which shows {value}"
            )

    def is_connected(self, place: Place) -> bool:
        return bool(self._connected[place])

    def scoring_ends(self) -> list[tuple[str, int]]:
        """The scoring ends (R13) as ``(tile, value)`` pairs, ordered by tile notation."""
        ends: list[tuple[str, int]] = []
        conn = self._connected
        for tile in sorted(self.tiles):
            base = tile * 4
            if IS_DOUBLE[tile]:
                if not (conn[base + LINE_A] and conn[base + LINE_B]):
                    ends.append((NAMES[tile], 2 * LOW[tile]))
            else:
                if not conn[base]:
                    ends.append((NAMES[tile], LOW[tile]))
                if not conn[base + 1]:
                    ends.append((NAMES[tile], HIGH[tile]))
        return ends

    def points_if_placed(self, tile: Tile, place: Place) -> int:
        """Raw points joining ``tile`` to the open ``place`` would earn (R13–R15), without
        changing anything. ``place`` must be a legal place for ``tile``.

        >>> from app.engine.tiles import parse_tile as t
        >>> from app.engine.places import parse_place as p
        >>> board = Layout(); _ = board.open_with(t("3|6"))
        >>> board.points_if_placed(t("6|6"), p("3|6:high")), board.end_sum
        (15, 9)
        """
        value = PLACE_VALUE[place]
        host = place >> 2
        total = self.end_sum
        if IS_DOUBLE[host]:
            side = place & 3
            if (
                side <= LINE_B
                and self._connected[host * 4 + (LINE_B if side == LINE_A else LINE_A)]
            ):
                total -= 2 * value
        else:
            total -= value
        if IS_DOUBLE[tile]:
            total += 2 * value
        else:
            total += HIGH[tile] if LOW[tile] == value else LOW[tile]
        return total if total > 0 and total % 5 == 0 else 0

    def points_if_opened(self, tile: Tile) -> int:
        """Raw points opening with ``tile`` would earn (R8, R16)."""
        return award(LOW[tile] + HIGH[tile])

    # -- mutations (trusted) -----------------------------------------------------------
    def _add_open(self, place: Place) -> None:
        value = PLACE_VALUE[place]
        self._by_value[value].append(place)
        self.open_values |= 1 << value

    def open_with(self, tile: Tile) -> int:
        """Lay the opening tile (R8); returns the raw points it earns (R16)."""
        self.tiles.append(tile)
        self.at[tile] = OPENING
        self.via[tile] = OPENING
        self.laid |= BIT[tile]
        base = tile * 4
        self._add_open(base)
        self._add_open(base + 1)
        # R13: a non-double counts both halves; a lone double counts its two halves once.
        self.end_sum = LOW[tile] + HIGH[tile]
        return award(self.end_sum)

    def place(self, tile: Tile, place: Place) -> int:
        """Join ``tile`` to the open ``place``; returns the raw points it earns (R15)."""
        value = PLACE_VALUE[place]
        self._by_value[value].remove(place)
        if not self._by_value[value]:
            self.open_values &= ~(1 << value)
        conn = self._connected
        conn[place] = 1
        host = place >> 2
        side = place & 3
        total = self.end_sum
        if IS_DOUBLE[host]:
            if side <= LINE_B:
                base = host * 4
                if conn[base + (LINE_B if side == LINE_A else LINE_A)]:
                    # R11/R13: both lines filled: the double is internal and spins.
                    total -= 2 * value
                    self._add_open(base + BRANCH_A)
                    self._add_open(base + BRANCH_B)
            # joining a branch changes nothing of the double's own count (R13)
        else:
            total -= value  # that side is no longer an end (R13)
        base = tile * 4
        if IS_DOUBLE[tile]:
            # R10: a double joined to a place is connected by its lineA.
            conn[base + LINE_A] = 1
            self.via[tile] = LINE_A
            self._add_open(base + LINE_B)
            total += 2 * value
        elif LOW[tile] == value:
            conn[base] = 1
            self.via[tile] = 0
            self._add_open(base + 1)
            total += HIGH[tile]
        else:
            conn[base + 1] = 1
            self.via[tile] = 1
            self._add_open(base)
            total += LOW[tile]
        self.tiles.append(tile)
        self.at[tile] = place
        self.laid |= BIT[tile]
        self.end_sum = total
        return total if total > 0 and total % 5 == 0 else 0

    def copy(self) -> Layout:
        """An independent copy (for search)."""
        other = Layout()
        other.tiles = self.tiles.copy()
        other.at = self.at.copy()
        other.via = self.via.copy()
        other.laid = self.laid
        other._connected = bytearray(self._connected)
        other._by_value = [lst.copy() for lst in self._by_value]
        other.open_values = self.open_values
        other.end_sum = self.end_sum
        return other


__all__ = ["NOT_LAID", "OPENING", "Layout", "award"]

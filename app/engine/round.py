"""One round: deal, turns, legal moves, forced play, drawing, passing, block, settlement.

Rules: R5–R8 (deal and opening), R17–R20 (drawing, passing, block), R21–R22 (end and
settlement). A round knows seats, not sides or match scores; see :mod:`.match`.

>>> from app.engine.tiles import parse_tile
>>> hands = [["1|4", "1|1", "2|2", "5|6", "6|6"], ["0|0", "0|1", "0|2", "0|3", "0|4"]]
>>> rest = [n for n in NAMES if not any(n in h for h in hands)]
>>> r = Round.from_deal(hands, rest, starter=0)
>>> r.play(Move.parse("1|4"))
5
>>> [str(m) for m in r.legal_moves()]
['0|1@1|4:low', '0|4@1|4:high']
>>> r.play(Move.parse("0|2@1|4:low"))
Traceback (most recent call last):
...
app.engine.errors.IllegalMove: R9: 0|2 does not match 1|4:low, which shows 1
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal, Protocol, TypeAlias, cast

from .errors import IllegalMove
from .layout import Layout
from .moves import DRAW, OPEN, PASS, PLACEMENT, Move
from .tiles import (
    ALL_TILES,
    BIT,
    FITS,
    FULL_SET,
    HIGH,
    LOW,
    NAMES,
    PIPS,
    VALUE_MASK,
    Tile,
    mask_of,
    parse_tile,
    tiles_of_mask,
)

HAND_SIZE: Final = 5  # R6: five tiles each, with 2, 3 or 4 players
NO_TILE: Final = -1

Result = Literal["domino", "blocked"]


class RandomSource(Protocol):
    """What the engine needs of a random source (``random.Random``/``SystemRandom``)."""

    def shuffle(self, x: list[int]) -> None: ...

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int: ...


#: one move of a round's log: ``(seat, move, raw points, drawn tile or -1, must play the
#: drawn tile)`` — a plain tuple (the compiled engine stores it as one, and the collector
#: untracks tuples of plain values)
LogEntry: TypeAlias = tuple[int, Move, int, int, bool]


def settlement_deduction(pips: int) -> int:
    """Displayed points a hand of ``pips`` costs (R22): rounded to the nearest 5, over 5.

    >>> [settlement_deduction(p) for p in (0, 2, 3, 7, 8, 10, 12, 13)]
    [0, 0, 1, 1, 2, 2, 2, 3]
    """
    return (pips + 2) // 5


class Round:
    """The state of one round between ``players`` seats.

    Public, read-only attributes: ``players``, ``starter``, ``turn`` (``None`` once over),
    ``layout``, ``must_play`` (the drawn tile that must be placed, or ``-1``, R18),
    ``result`` and ``finisher`` (R21), ``awards`` (raw points per seat this round) and
    ``log`` (one :class:`LogEntry` per move).
    """

    __slots__ = (
        "_stock",
        "_stock_pos",
        "awards",
        "finisher",
        "hands",
        "layout",
        "log",
        "must_play",
        "players",
        "result",
        "starter",
        "turn",
    )

    def __init__(
        self, players: int, hands: Sequence[int], stock: Sequence[Tile], starter: int
    ) -> None:
        if players not in (2, 3, 4):
            raise ValueError("R2: a round is played by 2, 3 or 4 players")
        if not 0 <= starter < players:
            raise ValueError(f"R7: the starter must be a seat from 0 to {players - 1}")
        if len(hands) != players:
            raise ValueError(f"R6: expected {players} hands")
        self.players = players
        self.hands: list[int] = list(hands)  # bit masks (R5: hidden, never leave unprojected)
        self._stock: list[Tile] = list(stock)
        self._stock_pos = 0
        self.starter = starter
        self.turn: int | None = starter
        self.layout = Layout()
        self.must_play: Tile = NO_TILE
        self.result: Result | None = None
        self.finisher: int | None = None
        self.awards = [0] * players
        self.log: list[LogEntry] = []

    # -- construction ------------------------------------------------------------------
    @classmethod
    def deal(cls, players: int, rng: RandomSource, starter: int | None = None) -> Round:
        """Shuffle (R5), deal five each (R6); the starter is given or drawn by lot (R7)."""
        tiles = list(ALL_TILES)
        rng.shuffle(tiles)
        hands = [mask_of(tiles[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(players)]
        stock = tiles[players * HAND_SIZE :]
        if starter is None:
            starter = rng.randrange(players)  # R7: a uniform lot, no ties to repeat
        return cls(players, hands, stock, starter)

    @classmethod
    def from_deal(cls, hands: Sequence[Sequence[str]], stock: Sequence[str], starter: int) -> Round:
        """An explicit deal in notation (tests, fixtures, replays). Stock: draw order."""
        players = len(hands)
        parsed = [[parse_tile(t) for t in hand] for hand in hands]
        stock_tiles = [parse_tile(t) for t in stock]
        every = [t for hand in parsed for t in hand] + stock_tiles
        if sorted(every) != list(ALL_TILES):
            raise ValueError("R1/R6: hands and stock must hold the 28 tiles, each once")
        return cls(players, [mask_of(h) for h in parsed], stock_tiles, starter)

    # -- queries -----------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def stock_size(self) -> int:
        return len(self._stock) - self._stock_pos

    def stock_tiles(self) -> list[Tile]:
        """The undrawn stock in draw order. Hidden information (R5)."""
        return self._stock[self._stock_pos :]

    def hand(self, seat: int) -> list[Tile]:
        """A seat's tiles in set order. Hidden information (R5)."""
        return tiles_of_mask(self.hands[seat])

    def hand_sizes(self) -> list[int]:
        return [h.bit_count() for h in self.hands]

    def can_play(self, seat: int) -> bool:
        """Whether ``seat`` holds a tile that fits an open place (R17)."""
        if self.layout.is_empty:
            return self.hands[seat] != 0
        return bool(self.hands[seat] & FITS[self.layout.open_values])

    def legal_moves(self) -> list[Move]:
        """The exact legal moves of the seat to move (R8, R9, R17–R19); ``[]`` when over."""
        seat = self.turn
        if seat is None:
            return []
        layout = self.layout
        by_value = layout._by_value
        if self.must_play >= 0:
            tile = self.must_play
            row = cast(tuple[Move, ...], PLACEMENT[tile])
            lo, hi = LOW[tile], HIGH[tile]
            if lo == hi:
                return [row[p] for p in by_value[lo]]
            return [row[p] for p in by_value[lo]] + [row[p] for p in by_value[hi]]
        hand = self.hands[seat]
        if not layout.tiles:
            return [OPEN[t] for t in tiles_of_mask(hand)]  # R8: any tile opens
        playable = hand & FITS[layout.open_values]
        if not playable:
            return [DRAW] if self._stock_pos < len(self._stock) else [PASS]
        moves: list[Move] = []
        while playable:
            low_bit = playable & -playable
            playable ^= low_bit
            tile = low_bit.bit_length() - 1
            row = cast(tuple[Move, ...], PLACEMENT[tile])
            lo, hi = LOW[tile], HIGH[tile]
            for p in by_value[lo]:
                moves.append(row[p])
            if lo != hi:
                for p in by_value[hi]:
                    moves.append(row[p])
        return moves

    def check(self, move: Move) -> None:
        """Raise :class:`IllegalMove` unless ``move`` is legal for the seat to move."""
        if self.turn is None:
            raise IllegalMove("R21", "the round is over")
        seat = self.turn
        layout = self.layout
        kind = move.kind
        if kind == "draw" or kind == "pass":
            if layout.is_empty:
                raise IllegalMove("R8", "the round has not been opened: the starter lays any tile")
            if self.must_play >= 0:
                raise IllegalMove("R18", f"you drew {NAMES[self.must_play]} and must place it now")
            if self.can_play(seat):
                raise IllegalMove(
                    "R17", "you have a tile that can be placed, so you must place one"
                )
            has_stock = self._stock_pos < len(self._stock)
            if kind == "draw" and not has_stock:
                raise IllegalMove("R19", "the stock is empty: you cannot draw, you pass")
            if kind == "pass" and has_stock:
                raise IllegalMove("R19", "you may pass only when the stock is empty; draw a tile")
            return
        tile = move.tile
        assert tile is not None
        if not self.hands[seat] & BIT[tile]:
            raise IllegalMove("R5", f"you do not hold {NAMES[tile]}")
        if kind == "open":
            layout.check_opening(tile)
            return
        place = move.place
        assert place is not None
        if self.must_play >= 0 and tile != self.must_play:
            raise IllegalMove("R18", f"you drew {NAMES[self.must_play]} and must place it now")
        layout.check_placement(tile, place)

    # -- playing -----------------------------------------------------------------------
    def play(self, move: Move) -> int:
        """Play ``move`` for the seat to move; returns the raw points it earned (R15).

        Raises :class:`IllegalMove` (and changes nothing) if the move is not legal.
        """
        self.check(move)
        return self.play_unchecked(move)

    def play_unchecked(self, move: Move) -> int:
        """Play a move known to be legal (one from :meth:`legal_moves`). No checks."""
        seat = self.turn
        assert seat is not None
        kind = move.kind
        if kind == "draw":
            tile = self._stock[self._stock_pos]
            self._stock_pos += 1
            self.hands[seat] |= BIT[tile]
            fits = bool(VALUE_MASK[tile] & self.layout.open_values)
            self.log.append((seat, move, 0, tile, fits))
            if fits:
                self.must_play = tile  # R18: drawing stops; that tile must be placed
            elif self._stock_pos == len(self._stock):
                self._check_block()  # R20
            return 0
        if kind == "pass":
            self.log.append((seat, move, 0, NO_TILE, False))
            self.turn = (seat + 1) % self.players  # R19
            self._check_block()
            return 0
        laid = move.tile
        assert laid is not None
        if kind == "open":
            points = self.layout.open_with(laid)
        else:
            assert move.place is not None
            points = self.layout.place(laid, move.place)
        self.must_play = NO_TILE
        self.hands[seat] &= ~BIT[laid]
        self.awards[seat] += points
        self.log.append((seat, move, points, NO_TILE, False))
        if not self.hands[seat]:
            self.result = "domino"  # R21: the seat finished
            self.finisher = seat
            self.turn = None
            return points
        self.turn = (seat + 1) % self.players  # R8: clockwise
        if self._stock_pos == len(self._stock):
            self._check_block()
        return points

    def _check_block(self) -> None:
        """R20: blocked as soon as the stock is empty and no seat can place a tile."""
        if self._stock_pos < len(self._stock) or self.must_play >= 0:
            return
        fits = FITS[self.layout.open_values]
        for hand in self.hands:
            if hand & fits:
                return
        self.result = "blocked"
        self.turn = None

    # -- settlement --------------------------------------------------------------------
    def pips(self) -> list[int]:
        """Pips left in each hand (R22)."""
        return [sum(PIPS[t] for t in tiles_of_mask(h)) for h in self.hands]

    def deductions(self) -> list[int]:
        """Displayed points each seat loses, each hand rounded on its own (R22)."""
        return [settlement_deduction(p) for p in self.pips()]

    # -- copying and checking ----------------------------------------------------------
    def copy(self) -> Round:
        """An independent copy (for search). Built through the constructor, not
        ``Round.__new__``: the compiled engine (docs/decisions.md) has no bare instances."""
        other = Round(self.players, self.hands, self._stock, self.starter)
        other._stock_pos = self._stock_pos
        other.turn = self.turn
        other.layout = self.layout.copy()
        other.must_play = self.must_play
        other.result = self.result
        other.finisher = self.finisher
        other.awards = self.awards.copy()
        other.log = self.log.copy()
        return other

    def tiles_accounted(self) -> bool:
        """The 28 tiles are exactly partitioned among hands, stock and layout (R1)."""
        seen = self.layout.laid
        total = self.layout.laid.bit_count()
        for h in self.hands:
            seen |= h
            total += h.bit_count()
        for t in self.stock_tiles():
            seen |= BIT[t]
            total += 1
        return seen == FULL_SET and total == 28


__all__ = ["HAND_SIZE", "NO_TILE", "LogEntry", "RandomSource", "Round", "settlement_deduction"]

"""The match record as data: a header and, per finished round, its deal, its moves with
points and scores, and its settlement; a resigned match also holds the round that was in
play, with its moves so far and the resignation instead of a settlement (docs/record.md). The text form (:mod:`.text`) and
the JSON form (:mod:`.jsonform`) are two spellings of this one structure.

Every part remembers the line of the text form it came from (``line``; 0 when it was
not read from text); line numbers never take part in equality.

>>> m = MoveLine(0, "1|4", points=5, scores=(1, 0))
>>> m == MoveLine(0, "1|4", points=5, scores=(1, 0), line=7), m.kind
(True, 'open')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

FORMAT: Final = "fiveup-record/1"

StarterBy = Literal["lot", "finisher"]
Result = Literal["domino", "blocked"]


def _line() -> int:
    return field(default=0, compare=False, repr=False)


@dataclass(frozen=True)
class MoveLine:
    """One move: the seat, the engine's notation, the raw points it earned (R15) and the
    side scores after it (displayed points, R3) for a placement; the drawn tile and
    whether it must be placed (R18) for a draw; nothing more for a pass (R19)."""

    seat: int
    move: str
    points: int = 0
    scores: tuple[int, ...] | None = None
    drawn: str | None = None
    must_play: bool = False
    line: int = _line()

    @property
    def kind(self) -> str:
        if self.move in ("draw", "pass"):
            return self.move
        return "place" if "@" in self.move else "open"


@dataclass(frozen=True)
class Leftover:
    """A seat's hand at the end of a round (R22): its tiles, their pips, the deduction."""

    seat: int
    tiles: tuple[str, ...]
    pips: int
    deduction: int
    line: int = _line()


@dataclass(frozen=True)
class RoundRecord:
    """One finished round. ``hands`` and ``stock`` are the deal (hands in set order, the
    stock in draw order); ``commitment`` and ``seed`` (hex, or ``None`` if the round
    was not dealt from a recorded seed) are written in the header.

    The round in play when the match was resigned has ``resigned`` (the seat that
    resigned) and no end: ``result`` and ``finisher`` are ``None``, ``left`` and
    ``scores`` empty."""

    number: int
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]
    starter: int
    starter_by: StarterBy
    moves: tuple[MoveLine, ...]
    result: Result | None
    finisher: int | None
    left: tuple[Leftover, ...]
    scores: tuple[int, ...]
    commitment: str | None = None
    seed: str | None = None
    resigned: int | None = None
    line: int = _line()
    hand_lines: tuple[int, ...] = field(default=(), compare=False, repr=False)
    stock_line: int = _line()
    starter_line: int = _line()
    end_line: int = _line()
    scores_line: int = _line()
    commit_line: int = _line()
    seed_line: int = _line()


@dataclass(frozen=True)
class Record:
    """A whole match record. ``winner`` is the winning side, ``None`` while the match is
    not over; ``scores`` the side scores after the last recorded round (after the last
    move of a resigned match); ``resigned`` the seat that resigned, ``None`` when the
    match was not resigned."""

    date: str
    table: str
    match: int
    seats: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]
    target: int
    winner: int | None
    scores: tuple[int, ...]
    rounds: tuple[RoundRecord, ...]
    resigned: int | None = None
    lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    @property
    def players(self) -> int:
        return len(self.seats)

    def header_line(self, key: str) -> int:
        """The line of a header tag (0 if the record was not read from text)."""
        return self.lines.get(key, 0)


__all__ = ["FORMAT", "Leftover", "MoveLine", "Record", "Result", "RoundRecord", "StarterBy"]

"""The match record (docs/record.md, the JSON form) and the engine's verdict on one
(``POST /api/records/check``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from app.types import Json


class RecordRound(BaseModel):
    """One finished round of a match record (docs/record.md, the JSON form), or the round
    in play when the match was resigned: ``resigned`` instead of ``end``."""

    round: int
    commitment: str | None = Field(description="the deal commitment published before move 1")
    seed: str | None = Field(description="the revealed seed (64 hex digits), docs/fairness.md")
    hands: list[list[str]] = Field(description="each seat's five dealt tiles (R6)")
    stock: list[str] = Field(description="the undealt tiles in draw order (R18)")
    starter: int
    starter_by: Literal["lot", "finisher"]
    moves: list[Json] = Field(description="{seat, move, points, scores} or draw/pass lines")
    end: Json | None = Field(
        default=None, description="{result, finisher, hands, pips, deductions, scores} (R22)"
    )
    resigned: int | None = Field(
        default=None, description="the seat that resigned in this round (then no end)"
    )


class MatchRecord(BaseModel):
    """A match record, JSON form ``fiveup-record/1`` (docs/record.md): finished rounds
    only; a round still being played never appears, unless the match was resigned in it
    (``resigned``: the seat; the key is absent from a record that was not resigned)."""

    format: Literal["fiveup-record/1"]
    date: str
    table: str = Field(description="the table code the deals are bound to")
    match: int
    seats: list[str]
    sides: list[list[int]]
    target: int
    winner: int | None
    scores: list[int]
    rounds: list[RecordRound]
    resigned: int | None = Field(default=None, description="the seat that resigned the match")


class RecordVerdict(BaseModel):
    """The rules engine's verdict on a record (``POST /api/records/check``)."""

    valid: bool
    line: int = Field(description="the line of the first problem in the text form (0: valid)")
    problem: str = Field(description='"valid", or the first problem, citing its rule')
    record: MatchRecord | None = Field(
        description="the record read, JSON form (null when it could not be read)"
    )

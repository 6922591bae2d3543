"""A profile's figures kept as running totals (migration 0017, docs/games.md): the move
that ends a match adds its seats' figures to them in the same transaction as its result
(app/db/result_writer.py), so a player page reads a few rows, whatever the number of
matches its player finished. Both tables name their profiles with ``ON DELETE
CASCADE``: a deleted profile's totals go, and it leaves every other's head-to-head."""

from __future__ import annotations

from sqlalchemy import Boolean, ForeignKey, Index, Integer
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base


class PlayerFiguresRow(Base):
    """A profile's figures over its finished matches at one player count (2, 3, 4)."""

    __tablename__ = "player_figures"

    profile_id: Mapped[int] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True
    )
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    played: Mapped[int] = mapped_column(Integer)
    won: Mapped[int] = mapped_column(Integer)
    #: the matches' rounds (``match_results.rounds``), summed
    rounds: Mapped[int] = mapped_column(Integer)
    rounds_dominoed: Mapped[int] = mapped_column(Integer)
    points_made: Mapped[int] = mapped_column(Integer)
    deductions: Mapped[int] = mapped_column(Integer)
    best_round: Mapped[int] = mapped_column(Integer)


class PlayerPairRow(Base):
    """Another profile a profile met in its finished matches: on the other side
    (``partners`` false) or on its own (true), how often, and how often it won then."""

    __tablename__ = "player_pairs"

    profile_id: Mapped[int] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True
    )
    partners: Mapped[bool] = mapped_column(Boolean, primary_key=True)
    other_id: Mapped[int] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True
    )
    played: Mapped[int] = mapped_column(Integer)
    won: Mapped[int] = mapped_column(Integer)

    __table_args__ = (
        # a profile's deletion removes the rows that name it as the other one
        Index("ix_player_pairs_other", "other_id"),
    )

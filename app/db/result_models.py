"""The rows of finished matches, ratings and friendships (migration 0012,
docs/profiles.md): written off the move path except for a match's result, which the move
that ends the match writes in its own transaction."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base, utcnow


class MatchResultRow(Base):
    """One finished match (written once: unique by table and match number)."""

    __tablename__ = "match_results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: no foreign key: a result outlives its table's row
    table_id: Mapped[int] = mapped_column(Integer)
    table_code: Mapped[str] = mapped_column(String(8))
    match_number: Mapped[int] = mapped_column(Integer)
    players: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean)
    target: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    #: the winning side (R2's sides), NULL for a match that ended with no winner
    winner_side: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: the seat that resigned the match, if it ended so
    resigned_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        UniqueConstraint("table_id", "match_number", name="uq_match_results_table_match"),
        Index("ix_match_results_finished", "finished_at"),
    )


class MatchPlayerRow(Base):
    """One seat of a finished match: who sat there, its side's result, its figures, and
    (a rated match) its rating before and after."""

    __tablename__ = "match_players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match_results.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    side: Mapped[int] = mapped_column(Integer)
    #: the signed-in player who held the seat at the end (NULL: a guest, a computer
    #: player, or a profile since deleted)
    profile_id: Mapped[int | None] = mapped_column(
        ForeignKey("profiles.id", ondelete="SET NULL"), nullable=True
    )
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    won: Mapped[bool] = mapped_column(Boolean)
    score: Mapped[int] = mapped_column(Integer)
    rounds_dominoed: Mapped[int] = mapped_column(Integer)
    points_made: Mapped[int] = mapped_column(Integer)
    deductions: Mapped[int] = mapped_column(Integer)
    best_round: Mapped[int] = mapped_column(Integer)
    mu_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    mu_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    sigma_after: Mapped[float | None] = mapped_column(Float, nullable=True)

    __table_args__ = (
        UniqueConstraint("match_id", "seat", name="uq_match_players_match_seat"),
        Index("ix_match_players_profile", "profile_id", "match_id"),
    )


class RatingRow(Base):
    """A rating (openskill's mu and sigma) of a profile or of a computer player's level,
    in one pool: ``all`` or a player count (``2``, ``3``, ``4``)."""

    __tablename__ = "ratings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: exactly one of ``profile_id`` and ``bot_level`` is set
    profile_id: Mapped[int | None] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), nullable=True
    )
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    pool: Mapped[str] = mapped_column(String(8))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        UniqueConstraint("profile_id", "pool", name="uq_ratings_profile_pool"),
        UniqueConstraint("bot_level", "pool", name="uq_ratings_bot_pool"),
        # no index on mu: a match's end updates the rows in place (migration 0014)
    )


class FriendshipRow(Base):
    """One direction of a friendship (an accepted friendship is two rows, one each way)."""

    __tablename__ = "friendships"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    profile_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"))
    friend_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        UniqueConstraint("profile_id", "friend_id", name="uq_friendships_pair"),
        Index("ix_friendships_friend", "friend_id"),
    )

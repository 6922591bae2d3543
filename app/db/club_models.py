"""The rows of clubs (migration 0015, docs/clubs.md): a club (its name, owner and
invite link's nonce and token hash), its members and the tables made for it. Every row
names its profiles, clubs and tables with ``ON DELETE CASCADE``: deleting a profile
deletes its memberships and the clubs it owns; deleting a club its members and table
links; a table's row going takes its link with it."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base, utcnow


class ClubRow(Base):
    """A club: a name (not unique), its owner, and its invite link (the nonce the
    link's token is derived from, and the token's SHA-256, its look-up key)."""

    __tablename__ = "clubs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    owner_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"))
    invite_nonce: Mapped[str] = mapped_column(String(64))
    invite_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        UniqueConstraint("invite_hash", name="uq_clubs_invite"),
        Index("ix_clubs_owner", "owner_id"),
    )


class ClubMemberRow(Base):
    """A profile's membership of a club (the owner is a member too)."""

    __tablename__ = "club_members"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"))
    profile_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"))
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        UniqueConstraint("club_id", "profile_id", name="uq_club_members_pair"),
        Index("ix_club_members_profile", "profile_id"),
    )


class ClubTableRow(Base):
    """A table made for a club (its live table, then its finished matches)."""

    __tablename__ = "club_tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("clubs.id", ondelete="CASCADE"))
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        UniqueConstraint("club_id", "table_id", name="uq_club_tables_pair"),
        Index("ix_club_tables_table", "table_id"),
    )

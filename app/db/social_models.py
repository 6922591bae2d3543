"""The rows of friends (migration 0013, docs/friends.md): friend requests, blocks and
friend links. A friendship itself is two rows of ``friendships`` (app/db/result_models.py,
migration 0012). Every row names its profiles with ``ON DELETE CASCADE``: deleting a
profile deletes its requests, blocks and link with it."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base, utcnow


class FriendRequestRow(Base):
    """A friend request from one profile to another, until accepted or declined."""

    __tablename__ = "friend_requests"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    from_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"))
    to_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        UniqueConstraint("from_id", "to_id", name="uq_friend_requests_pair"),
        Index("ix_friend_requests_to", "to_id"),
    )


class BlockRow(Base):
    """One profile blocks another: no friendship or request between them, and no seat
    for the blocked one at a table the blocker hosts."""

    __tablename__ = "profile_blocks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    blocker_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"))
    blocked_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        UniqueConstraint("blocker_id", "blocked_id", name="uq_profile_blocks_pair"),
        Index("ix_profile_blocks_blocked", "blocked_id"),
    )


class FriendLinkRow(Base):
    """A profile's friend link: the SHA-256 of its token (the look-up key) and the nonce
    its owner's token is derived from (app/tables/friends.py). One per profile: rotating
    replaces both, so the old link finds no row."""

    __tablename__ = "friend_links"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    profile_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"))
    nonce: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        UniqueConstraint("profile_id", name="uq_friend_links_profile"),
        UniqueConstraint("token_hash", name="uq_friend_links_token"),
    )

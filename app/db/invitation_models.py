"""The rows of invitations (migration 0016, docs/invitations.md): one profile invites a
friend to a table (optionally to one seat). Every row names its profiles and its table
with ``ON DELETE CASCADE``: deleting a profile or a table deletes its invitations."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, ForeignKey, Index, Integer
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base, utcnow


class InvitationRow(Base):
    """An invitation waiting for its invitee, until dismissed (or its table goes)."""

    __tablename__ = "invitations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    from_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"))
    to_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"))
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_invitations_to", "to_id", "id"),)

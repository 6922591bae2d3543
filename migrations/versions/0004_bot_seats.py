"""computer players: ``players.bot`` holds a bot seat's level

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 14:00:00

A seat held by a computer player (docs/bots.md) is a ``players`` row like a person's,
with ``bot`` set to its level (``easy``, ``medium`` or ``hard``; NULL for a person) and a
random token hash that no token hashes to (app/tables/bot_seats.py), so nobody can act for it.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("bot", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("bot")

"""the host's switch for spectator chat, and an index for the recent chat

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-30 14:00:00

``game_tables.spectator_chat``: whether spectators may post to the table's spectator
chat channel (issue 11; docs/protocol.md ``spectator_chat``). On by default.
``ix_table_events_chat``: a partial index of a table's chat events, so a snapshot's
recent chat (the last 50) is read without scanning the table's moves.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(
            sa.Column("spectator_chat", sa.Boolean(), nullable=False, server_default=sa.true())
        )
    op.create_index(
        "ix_table_events_chat",
        "table_events",
        ["table_id", "seq"],
        postgresql_where=sa.text("kind = 'chat'"),
        sqlite_where=sa.text("kind = 'chat'"),
    )


def downgrade() -> None:
    op.drop_index("ix_table_events_chat", table_name="table_events")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("spectator_chat")

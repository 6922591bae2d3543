"""practice tables remember who created them: the cap on live practice tables per address

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 10:00:00

``game_tables.created_by``: for a practice table, the SHA-256 of the client address that
created it (NULL for every other table). ``POST /api/practice`` counts an address's
practice tables still waiting or in play against ``FIVEUP_MAX_LIVE_PRACTICE_TABLES``
(docs/configuration.md); the count is read from the database, so every server process
sees the same one. The column is written by the insert only: a move never changes it,
so its index keeps the row updates heap-only (0008).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("created_by", sa.String(64), nullable=True))
    op.create_index("ix_game_tables_created_by", "game_tables", ["created_by"])


def downgrade() -> None:
    op.drop_index("ix_game_tables_created_by", table_name="game_tables")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("created_by")

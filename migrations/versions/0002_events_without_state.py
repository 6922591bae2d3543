"""event rows keep only the event: the state lives in game_tables alone

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 13:10:00

Before, every event row carried the whole match state and table info after it (so any
process could build any frame from one row). Delivery now builds frames from the table's
current state and diffs views (app/realtime), so those two columns are dropped: rows are
a few hundred bytes and nothing is serialised twice.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.db.models import JsonType

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("table_events") as batch:
        batch.drop_column("state")
        batch.drop_column("table_info")


def downgrade() -> None:
    with op.batch_alter_table("table_events") as batch:
        batch.add_column(sa.Column("state", JsonType, nullable=True))
        batch.add_column(sa.Column("table_info", JsonType, nullable=False,
                                   server_default=sa.text("'{}'")))

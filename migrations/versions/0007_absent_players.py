"""absent players: the turn clock, the autopilot, device links and resignation

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-30 15:45:00

Issue 9 (docs/protocol.md, Clock and Absent players):

- ``game_tables.clock``: the table's turn clock preset (``none``, ``relaxed``, ``fast``);
- ``game_tables.turn_deadline``: when the seat to move runs out of time (stored, so every
  process and a restarted one fire at the same moment);
- ``game_tables.banks``: each seat's remaining time bank in the round, in seconds;
- ``game_tables.resigned``: the seat that resigned the current match;
- ``players.autopilot`` / ``players.autopilot_moves``: a person's seat played by the
  autopilot until its player returns, and the autopilot's moves in a row for it;
- ``players.link_hash``: the SHA-256 of a "play on another device" link not used yet.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.db.models import JsonType

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("clock", sa.String(16), nullable=False, server_default="none"))
        batch.add_column(sa.Column("turn_deadline", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("banks", JsonType, nullable=True))
        batch.add_column(sa.Column("resigned", sa.Integer(), nullable=True))
    with op.batch_alter_table("players") as batch:
        batch.add_column(
            sa.Column("autopilot", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(
            sa.Column("autopilot_moves", sa.Integer(), nullable=False, server_default="0")
        )
        batch.add_column(sa.Column("link_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("link_hash")
        batch.drop_column("autopilot_moves")
        batch.drop_column("autopilot")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("resigned")
        batch.drop_column("banks")
        batch.drop_column("turn_deadline")
        batch.drop_column("clock")

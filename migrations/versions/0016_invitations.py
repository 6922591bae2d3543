"""invitations: a profile invites its friends to a table

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-04 03:00:00

docs/invitations.md: an invitation (``invitations``) from one profile to another, to a
table and optionally one seat, kept until the invitee dismisses it; read newest first
per invitee (``ix_invitations_to``). Its profiles and its table cascade on delete.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _ref(name: str, table: str) -> sa.Column[int]:
    return sa.Column(
        name, sa.Integer(), sa.ForeignKey(f"{table}.id", ondelete="CASCADE"), nullable=False
    )


def upgrade() -> None:
    op.create_table(
        "invitations",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _ref("from_id", "profiles"),
        _ref("to_id", "profiles"),
        _ref("table_id", "game_tables"),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_invitations_to", "invitations", ["to_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_invitations_to", table_name="invitations")
    op.drop_table("invitations")

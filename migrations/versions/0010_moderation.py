"""moderation: reports, the operator's audit log, bans, chat mutes, table blocks

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03 12:30:00

docs/protocol.md "Moderation": players' reports of a chat message or a player; the
operator's audit log (bounded); address bans with an end time; chat mutes everywhere (an
address or a seat token); the people a table's host blocked there. Addresses are stored
only as SHA-256 hashes.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.Integer(),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("text", sa.String(600), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("address_hash", sa.String(64), nullable=True),
        sa.Column("reporter_hash", sa.String(64), nullable=False),
        sa.Column("resolved", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_at", _TZ, nullable=False),
    )
    op.create_index("ix_reports_open", "reports", ["resolved", "id"])
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target", sa.String(120), nullable=False),
        sa.Column("detail", sa.String(300), nullable=False),
        sa.Column("created_at", _TZ, nullable=False),
    )
    op.create_table(
        "bans",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("address_hash", sa.String(64), nullable=False),
        sa.Column("label", sa.String(120), nullable=False),
        sa.Column("until", _TZ, nullable=False),
        sa.Column("created_at", _TZ, nullable=False),
    )
    op.create_index("ix_bans_address_hash", "bans", ["address_hash"])
    op.create_table(
        "mutes",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("address_hash", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("label", sa.String(120), nullable=False),
        sa.Column("until", _TZ, nullable=True),
        sa.Column("created_at", _TZ, nullable=False),
    )
    op.create_table(
        "table_blocks",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.Integer(),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("address_hash", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created_at", _TZ, nullable=False),
    )
    op.create_index("ix_table_blocks_table", "table_blocks", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_table_blocks_table", table_name="table_blocks")
    op.drop_table("table_blocks")
    op.drop_table("mutes")
    op.drop_index("ix_bans_address_hash", table_name="bans")
    op.drop_table("bans")
    op.drop_table("audit_log")
    op.drop_index("ix_reports_open", table_name="reports")
    op.drop_table("reports")

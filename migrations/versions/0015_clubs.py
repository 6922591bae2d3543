"""clubs: clubs, their members and the tables made for them

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-04 02:45:00

docs/clubs.md: a club (``clubs``: name, owner, the invite link's nonce and its token's
SHA-256, unique), its members (``club_members``, unique by pair) and the tables made for
it (``club_tables``, unique by pair). Every profile, club and table column cascades on
delete.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TZ = sa.DateTime(timezone=True)


def _fk(name: str, target: str) -> sa.Column[int]:
    return sa.Column(name, sa.Integer(), sa.ForeignKey(target, ondelete="CASCADE"), nullable=False)


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(64), nullable=False),
        _fk("owner_id", "profiles.id"),
        sa.Column("invite_nonce", sa.String(64), nullable=False),
        sa.Column("invite_hash", sa.String(64), nullable=False),
        sa.Column("created_at", _TZ, nullable=False),
        sa.UniqueConstraint("invite_hash", name="uq_clubs_invite"),
    )
    op.create_index("ix_clubs_owner", "clubs", ["owner_id"])
    op.create_table(
        "club_members",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _fk("club_id", "clubs.id"),
        _fk("profile_id", "profiles.id"),
        sa.Column("joined_at", _TZ, nullable=False),
        sa.UniqueConstraint("club_id", "profile_id", name="uq_club_members_pair"),
    )
    op.create_index("ix_club_members_profile", "club_members", ["profile_id"])
    op.create_table(
        "club_tables",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _fk("club_id", "clubs.id"),
        _fk("table_id", "game_tables.id"),
        sa.Column("created_at", _TZ, nullable=False),
        sa.UniqueConstraint("club_id", "table_id", name="uq_club_tables_pair"),
    )
    op.create_index("ix_club_tables_table", "club_tables", ["table_id"])


def downgrade() -> None:
    op.drop_index("ix_club_tables_table", table_name="club_tables")
    op.drop_table("club_tables")
    op.drop_index("ix_club_members_profile", table_name="club_members")
    op.drop_table("club_members")
    op.drop_index("ix_clubs_owner", table_name="clubs")
    op.drop_table("clubs")

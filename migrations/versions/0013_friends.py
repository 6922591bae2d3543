"""friends: friend requests, blocks and friend links

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-04 02:10:00

docs/friends.md: a friend request (``friend_requests``, unique by its pair) until it is
accepted (then two ``friendships`` rows, migration 0012) or declined; a block
(``profile_blocks``, unique by its pair); a profile's friend link (``friend_links``,
one per profile, looked up by its token's SHA-256). Every profile column cascades on
delete: deleting a profile deletes its requests, blocks and link.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TZ = sa.DateTime(timezone=True)


def _profile(name: str) -> sa.Column[int]:
    return sa.Column(
        name, sa.Integer(), sa.ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False
    )


def upgrade() -> None:
    op.create_table(
        "friend_requests",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _profile("from_id"),
        _profile("to_id"),
        sa.Column("created_at", _TZ, nullable=False),
        sa.UniqueConstraint("from_id", "to_id", name="uq_friend_requests_pair"),
    )
    op.create_index("ix_friend_requests_to", "friend_requests", ["to_id"])
    op.create_table(
        "profile_blocks",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _profile("blocker_id"),
        _profile("blocked_id"),
        sa.Column("created_at", _TZ, nullable=False),
        sa.UniqueConstraint("blocker_id", "blocked_id", name="uq_profile_blocks_pair"),
    )
    op.create_index("ix_profile_blocks_blocked", "profile_blocks", ["blocked_id"])
    op.create_table(
        "friend_links",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _profile("profile_id"),
        sa.Column("nonce", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", _TZ, nullable=False),
        sa.UniqueConstraint("profile_id", name="uq_friend_links_profile"),
        sa.UniqueConstraint("token_hash", name="uq_friend_links_token"),
    )


def downgrade() -> None:
    op.drop_table("friend_links")
    op.drop_index("ix_profile_blocks_blocked", table_name="profile_blocks")
    op.drop_table("profile_blocks")
    op.drop_index("ix_friend_requests_to", table_name="friend_requests")
    op.drop_table("friend_requests")

"""profiles: passkey profiles, their credentials, sessions, one-time sign-in links and
the WebAuthn ceremonies in progress, the seats bound to a profile

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03 16:30:00

docs/profiles.md: a profile is a handle (unique by its look-alike key) and a display
name; its passkeys (credential id, COSE public key, signature counter); its sessions
and one-time sign-in links, stored only as SHA-256 hashes of their secrets; a ceremony
is the challenge of one registration or sign-in between its options and its verify; a
bound seat is a seat a signed-in player took, with the hash of the seat token it had.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TZ = sa.DateTime(timezone=True)


def _profile_fk() -> sa.Column[int]:
    return sa.Column(
        "profile_id",
        sa.Integer(),
        sa.ForeignKey("profiles.id", ondelete="CASCADE"),
        nullable=False,
    )


def upgrade() -> None:
    op.create_table(
        "profiles",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("handle", sa.String(64), nullable=False),
        sa.Column("handle_key", sa.String(128), nullable=False, unique=True),
        sa.Column("display_name", sa.String(64), nullable=False),
        sa.Column("user_handle", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", _TZ, nullable=False),
    )
    op.create_table(
        "passkeys",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _profile_fk(),
        sa.Column("credential_id", sa.String(1400), nullable=False, unique=True),
        sa.Column("public_key", sa.Text(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("created_at", _TZ, nullable=False),
        sa.Column("last_used_at", _TZ, nullable=True),
    )
    op.create_index("ix_passkeys_profile", "passkeys", ["profile_id"])
    op.create_table(
        "profile_sessions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _profile_fk(),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", _TZ, nullable=False),
        sa.Column("expires_at", _TZ, nullable=False),
    )
    op.create_index("ix_profile_sessions_profile", "profile_sessions", ["profile_id"])
    op.create_table(
        "sign_in_links",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _profile_fk(),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", _TZ, nullable=False),
        sa.Column("expires_at", _TZ, nullable=False),
    )
    op.create_table(
        "profile_seats",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _profile_fk(),
        sa.Column(
            "table_id",
            sa.Integer(),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created_at", _TZ, nullable=False),
        sa.UniqueConstraint("table_id", "seat", name="uq_profile_seats_table_seat"),
    )
    op.create_index("ix_profile_seats_profile", "profile_seats", ["profile_id"])
    op.create_table(
        "ceremonies",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("ceremony_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("challenge", sa.String(128), nullable=False),
        sa.Column("handle", sa.String(64), nullable=True),
        sa.Column("display_name", sa.String(64), nullable=True),
        sa.Column("user_handle", sa.String(64), nullable=True),
        sa.Column("created_at", _TZ, nullable=False),
        sa.Column("expires_at", _TZ, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ceremonies")
    op.drop_index("ix_profile_seats_profile", table_name="profile_seats")
    op.drop_table("profile_seats")
    op.drop_table("sign_in_links")
    op.drop_index("ix_profile_sessions_profile", table_name="profile_sessions")
    op.drop_table("profile_sessions")
    op.drop_index("ix_passkeys_profile", table_name="passkeys")
    op.drop_table("passkeys")
    op.drop_table("profiles")

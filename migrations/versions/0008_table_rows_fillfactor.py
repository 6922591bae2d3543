"""game_tables rows leave room on their pages for their next version (PostgreSQL)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01 10:00:00

Every committed change rewrites its table's row (its state and version). With full pages
PostgreSQL puts the new version on another page and adds an entry to each of the table's
indexes for it; with room left on the page (``fillfactor`` 50) the new version stays on
the same page as a heap-only tuple and no index is touched (docs/benchmarks.md,
"PostgreSQL's share"). Only pages written from now on leave the room; SQLite has no such
setting and is left as it is.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE game_tables SET (fillfactor = 50)")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE game_tables RESET (fillfactor)")

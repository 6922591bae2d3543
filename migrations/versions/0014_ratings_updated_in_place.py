"""ratings rows are updated in place: no index on mu, room on their pages (PostgreSQL)

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-04 02:30:00

A rated match's end rewrites its players' rating rows (μ, σ, matches) in the match-end
transaction (docs/ratings.md). Without an index on a column it changes, and with room on
the page (``fillfactor`` 70), PostgreSQL keeps the new version on the same page as a
heap-only tuple and touches no index: the rating update's share of that commit
(bench/rating_commit.py, docs/benchmarks.md). Leaderboards sort by μ − 3σ, which the
dropped ``(pool, mu)`` index could not give them anyway. SQLite has no fillfactor.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.drop_index("ix_ratings_pool_mu", table_name="ratings")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE ratings SET (fillfactor = 70)")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE ratings RESET (fillfactor)")
    op.create_index("ix_ratings_pool_mu", "ratings", ["pool", "mu"])

"""the running round's deal commitment and secret seed

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30 13:15:00

Every round is dealt from a fresh secret seed (docs/fairness.md). The table keeps the
running round's published commitment (``commitment``, public: it is in the table info)
and its seed (``deal_seed``, hidden until the round is settled; read only by the write
path). Tables dealt before this migration have neither: their rounds have no seed.

Chained to 0003; if migration 0004 is merged first, this revision follows it instead.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("commitment", sa.String(64), nullable=True))
        batch.add_column(sa.Column("deal_seed", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("deal_seed")
        batch.drop_column("commitment")

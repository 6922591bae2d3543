"""the match's finished rounds in a column of their own

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 13:00:00

``game_tables.state`` was the whole match, finished rounds included, rewritten with
every move — a long match made every move write tens of KB. The finished rounds now live
in ``game_tables.history``, written only when a round ends (app/tables/change.py); the
state keeps the current round and the scores.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.db.models import JsonType

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_tables = sa.table(
    "game_tables",
    sa.column("id", sa.Integer),
    sa.column("state", JsonType),
    sa.column("history", JsonType),
)


def _decoded(value: object) -> dict[str, object] | None:
    if value is None or isinstance(value, dict):
        return value
    return json.loads(str(value))


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("history", JsonType, nullable=True))
    conn = op.get_bind()
    for row in conn.execute(sa.select(_tables.c.id, _tables.c.state)).all():
        state = _decoded(row.state)
        if state is not None and "history" in state:
            history = state.pop("history")
            conn.execute(
                sa.update(_tables)
                .where(_tables.c.id == row.id)
                .values(state=state, history=history)
            )


def downgrade() -> None:
    conn = op.get_bind()
    for row in conn.execute(sa.select(_tables.c.id, _tables.c.state, _tables.c.history)).all():
        state = _decoded(row.state)
        if state is not None:
            state["history"] = row.history or []
            conn.execute(sa.update(_tables).where(_tables.c.id == row.id).values(state=state))
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("history")

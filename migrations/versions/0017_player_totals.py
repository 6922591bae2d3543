"""player totals: each profile's figures and pairings kept as running totals

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-05 02:00:00

docs/games.md: ``player_figures`` (a profile's figures per player count) and
``player_pairs`` (whom it met, with and against), added to by the move that ends a
match, in its transaction (app/db/figures_sql.py), so a player page reads a few rows
however many matches its player finished. Filled here from the finished matches so far.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _profile(name: str) -> sa.Column[int]:
    return sa.Column(
        name,
        sa.Integer(),
        sa.ForeignKey("profiles.id", ondelete="CASCADE"),
        primary_key=True,
        nullable=False,
    )


def _count(name: str) -> sa.Column[int]:
    return sa.Column(name, sa.Integer(), nullable=False)


def upgrade() -> None:
    op.create_table(
        "player_figures",
        _profile("profile_id"),
        sa.Column("players", sa.Integer(), primary_key=True, nullable=False),
        *(
            _count(c)
            for c in (
                "played",
                "won",
                "rounds",
                "rounds_dominoed",
                "points_made",
                "deductions",
                "best_round",
            )
        ),
    )
    op.create_table(
        "player_pairs",
        _profile("profile_id"),
        sa.Column("partners", sa.Boolean(), primary_key=True, nullable=False),
        _profile("other_id"),
        _count("played"),
        _count("won"),
    )
    op.create_index("ix_player_pairs_other", "player_pairs", ["other_id"])
    op.execute(
        "INSERT INTO player_figures (profile_id, players, played, won, rounds,"
        " rounds_dominoed, points_made, deductions, best_round)"
        " SELECT mp.profile_id, r.players, count(*),"
        " sum(CASE WHEN mp.won THEN 1 ELSE 0 END), sum(r.rounds), sum(mp.rounds_dominoed),"
        " sum(mp.points_made), sum(mp.deductions), max(mp.best_round)"
        " FROM match_players mp JOIN match_results r ON r.id = mp.match_id"
        " WHERE mp.profile_id IS NOT NULL GROUP BY mp.profile_id, r.players"
    )
    op.execute(
        "INSERT INTO player_pairs (profile_id, partners, other_id, played, won)"
        " SELECT me.profile_id, them.side = me.side, them.profile_id, count(*),"
        " sum(CASE WHEN me.won THEN 1 ELSE 0 END)"
        " FROM match_players me JOIN match_players them"
        " ON them.match_id = me.match_id AND them.seat <> me.seat"
        " WHERE me.profile_id IS NOT NULL AND them.profile_id IS NOT NULL"
        " AND them.profile_id <> me.profile_id"
        " GROUP BY me.profile_id, them.side = me.side, them.profile_id"
    )


def downgrade() -> None:
    op.drop_index("ix_player_pairs_other", table_name="player_pairs")
    op.drop_table("player_pairs")
    op.drop_table("player_figures")

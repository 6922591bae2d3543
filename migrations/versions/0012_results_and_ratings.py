"""results and ratings: rated tables, every finished match's result and each seat's
figures in it, ratings (openskill) of profiles and computer players, a profile's
visibility, friendships

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03 19:20:00

docs/profiles.md: a finished match is written once, in the transaction of the move that
ends it (``match_results``, unique by table and match number), with one
``match_players`` row per seat: who sat there (a profile, a computer player, or a guest's
name), its side, the side's result and the seat's figures (rounds dominoed, points made,
deductions, best round) and, for a rated match, its rating before and after. A rating
(``ratings``) belongs to a profile or to a computer player's level, per pool (``all``,
``2``, ``3``, ``4`` players). A friendship is two rows, one each way.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TZ = sa.DateTime(timezone=True)


def _profile(name: str, *, nullable: bool = False, ondelete: str = "CASCADE") -> sa.Column[int]:
    return sa.Column(
        name,
        sa.Integer(),
        sa.ForeignKey("profiles.id", ondelete=ondelete),
        nullable=nullable,
    )


def upgrade() -> None:
    op.add_column(
        "game_tables",
        sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column(
        "profiles",
        sa.Column("visibility", sa.String(16), nullable=False, server_default="everyone"),
    )
    op.create_table(
        "match_results",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        # no foreign key: a result outlives its table's row
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("table_code", sa.String(8), nullable=False),
        sa.Column("match_number", sa.Integer(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("target", sa.Integer(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("winner_side", sa.Integer(), nullable=True),
        sa.Column("resigned_seat", sa.Integer(), nullable=True),
        sa.Column("finished_at", _TZ, nullable=False),
        sa.UniqueConstraint("table_id", "match_number", name="uq_match_results_table_match"),
    )
    op.create_index("ix_match_results_finished", "match_results", ["finished_at"])
    op.create_table(
        "match_players",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "match_id",
            sa.Integer(),
            sa.ForeignKey("match_results.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("side", sa.Integer(), nullable=False),
        _profile("profile_id", nullable=True, ondelete="SET NULL"),
        sa.Column("bot_level", sa.String(16), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("rounds_dominoed", sa.Integer(), nullable=False),
        sa.Column("points_made", sa.Integer(), nullable=False),
        sa.Column("deductions", sa.Integer(), nullable=False),
        sa.Column("best_round", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=True),
        sa.Column("sigma_before", sa.Float(), nullable=True),
        sa.Column("mu_after", sa.Float(), nullable=True),
        sa.Column("sigma_after", sa.Float(), nullable=True),
        sa.UniqueConstraint("match_id", "seat", name="uq_match_players_match_seat"),
    )
    op.create_index("ix_match_players_profile", "match_players", ["profile_id", "match_id"])
    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        # exactly one of profile_id and bot_level
        _profile("profile_id", nullable=True),
        sa.Column("bot_level", sa.String(16), nullable=True),
        # "all", "2", "3" or "4"
        sa.Column("pool", sa.String(8), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("updated_at", _TZ, nullable=False),
        sa.UniqueConstraint("profile_id", "pool", name="uq_ratings_profile_pool"),
        sa.UniqueConstraint("bot_level", "pool", name="uq_ratings_bot_pool"),
    )
    op.create_index("ix_ratings_pool_mu", "ratings", ["pool", "mu"])
    op.create_table(
        "friendships",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _profile("profile_id"),
        _profile("friend_id"),
        sa.Column("created_at", _TZ, nullable=False),
        sa.UniqueConstraint("profile_id", "friend_id", name="uq_friendships_pair"),
    )
    op.create_index("ix_friendships_friend", "friendships", ["friend_id"])


def downgrade() -> None:
    op.drop_index("ix_friendships_friend", table_name="friendships")
    op.drop_table("friendships")
    op.drop_index("ix_ratings_pool_mu", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("ix_match_players_profile", table_name="match_players")
    op.drop_table("match_players")
    op.drop_index("ix_match_results_finished", table_name="match_results")
    op.drop_table("match_results")
    op.drop_column("profiles", "visibility")
    op.drop_column("game_tables", "rated")

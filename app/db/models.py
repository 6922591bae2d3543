"""SQLAlchemy 2 models: tables (snapshot + version), players (seats), table events
(the append-only log keyed by ``(table_id, seq)``).

These models define the schema (Alembic's metadata and SQLAlchemy Core tables for the
SQLite store); the application reads and writes only through ``app.db.store``. The match
snapshot (``game_tables.state``) and event payloads hold hidden tiles: they reach clients
only through the engine's projections.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
    true,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from app.db.rows import TableStatus

JsonType = JSON().with_variant(JSONB(), "postgresql")


def utcnow() -> datetime:
    """Timezone-aware now (UTC)."""
    return datetime.now(UTC)


class Base(DeclarativeBase):
    """Declarative base holding the app's metadata (used by Alembic)."""


class TableRow(Base):
    """One game table: its settings and the current snapshot.

    ``version`` is the optimistic-concurrency counter: every commit that changes the
    table bumps it with ``UPDATE ... WHERE version = :old`` (SQLAlchemy ``version_id_col``).
    """

    __tablename__ = "game_tables"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    code: Mapped[str] = mapped_column(String(8), unique=True)
    name: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    public: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(16), default=TableStatus.WAITING)
    host_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    match_number: Mapped[int] = mapped_column(Integer, default=0)
    state: Mapped[dict[str, Any] | None] = mapped_column(JsonType, nullable=True)
    #: the match's finished rounds (written when a round ends, not with every move)
    history: Mapped[list[Any] | None] = mapped_column(JsonType, nullable=True)
    #: the running (or last dealt) round's deal commitment (public, docs/fairness.md)
    commitment: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: that round's secret seed (hex), read only by the write path until it is revealed
    deal_seed: Mapped[str | None] = mapped_column(String(64), nullable=True)
    rematch_votes: Mapped[list[int]] = mapped_column(JsonType, default=list)
    ready: Mapped[list[int]] = mapped_column(JsonType, default=list)
    round_over_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: whether spectators may chat (the host's switch)
    spectator_chat: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    #: the turn clock's preset (``none``/``relaxed``/``fast``, docs/protocol.md Clock)
    clock: Mapped[str] = mapped_column(String(16), default="none", server_default="none")
    #: when the seat to move runs out of time (clock tables; stored, so every process and
    #: a restarted one fire at the same moment)
    turn_deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: each seat's remaining time bank this round, in seconds (clock presets with a bank)
    banks: Mapped[list[float] | None] = mapped_column(JsonType, nullable=True)
    #: the seat that resigned the current match (it ended by resignation), else NULL
    resigned: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: a rated table (chosen at creation): every seat a signed-in player or a computer
    #: player, and its finished matches move their ratings (docs/profiles.md Ratings)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: a practice table's creator: the SHA-256 of its client address (NULL for other
    #: tables), counted by the cap on live practice tables per address
    created_by: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012

    __table_args__ = (
        Index("ix_game_tables_lobby", "public", "status"),
        Index("ix_game_tables_created_by", "created_by"),
    )


class PlayerRow(Base):
    """A seated player: display name, the SHA-256 of their seat token, and for a
    computer player its level."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    #: a computer player's level (``easy``/``medium``/``hard``), NULL for a person
    bot: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: a person's seat played by the autopilot until its player comes back
    autopilot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: the autopilot's moves in a row for this seat (reset by its player's own move)
    autopilot_moves: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: the SHA-256 of a "play on another device" link not used yet (docs/protocol.md)
    link_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (UniqueConstraint("table_id", "seat", name="uq_players_table_seat"),)


class EventRow(Base):
    """One committed table event. ``payload`` is the full, unprojected event."""

    __tablename__ = "table_events"

    table_id: Mapped[int] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    player_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    move_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    match_number: Mapped[int] = mapped_column(Integer, default=0)
    payload: Mapped[dict[str, Any]] = mapped_column(JsonType)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        UniqueConstraint("table_id", "move_id", name="uq_table_events_move_id"),
        # the recent chat a snapshot carries, without scanning the table's moves
        Index(
            "ix_table_events_chat",
            "table_id",
            "seq",
            postgresql_where=text("kind = 'chat'"),
            sqlite_where=text("kind = 'chat'"),
        ),
    )


# --- Moderation (docs/protocol.md "Moderation"). Nobody's address is stored: only its
# SHA-256 (``address_hash``, app/tables/moderation.py), as for a practice table's creator.


class ReportRow(Base):
    """A player's report of a chat message (``kind`` ``message``, its ``seq``) or of a
    player (``player``, its ``seat``) at a table."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(16))
    seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: the reported person's name as shown then (a spectator's message: ``spectator``)
    name: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str] = mapped_column(String(32))
    text: Mapped[str] = mapped_column(String(600), default="")
    #: who was reported: their seat token's hash, their address's hash (where known)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    address_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: who reported: their address's hash
    reporter_hash: Mapped[str] = mapped_column(String(64))
    resolved: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_reports_open", "resolved", "id"),)


class AuditRow(Base):
    """One operator action (bounded: ``FIVEUP_AUDIT_LOG_MAX_ROWS``)."""

    __tablename__ = "audit_log"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    action: Mapped[str] = mapped_column(String(32))
    target: Mapped[str] = mapped_column(String(120))
    detail: Mapped[str] = mapped_column(String(300), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class BanRow(Base):
    """An address banned until ``until`` (from every route and socket)."""

    __tablename__ = "bans"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    address_hash: Mapped[str] = mapped_column(String(64), index=True)
    label: Mapped[str] = mapped_column(String(120))
    until: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class MuteRow(Base):
    """A chat mute everywhere: of an address, or of one seat token (when the address of
    the reported author is not known); ``until`` NULL: until lifted."""

    __tablename__ = "mutes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    address_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    label: Mapped[str] = mapped_column(String(120))
    until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TableBlockRow(Base):
    """Someone a table's host blocked there: by address and/or seat token."""

    __tablename__ = "table_blocks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    address_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    name: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_table_blocks_table", "table_id"),)


# --- Profiles (docs/profiles.md). Secrets (session, sign-in link, ceremony ids) are
# stored only as SHA-256 hashes; a passkey's public key and counter are not secret but
# never leave the server either.


class ProfileRow(Base):
    """A passkey profile: a handle unique by its look-alike key, a display name, and the
    random WebAuthn user handle its passkeys carry."""

    __tablename__ = "profiles"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    handle: Mapped[str] = mapped_column(String(64))
    #: ``app.core.names.confusable_key`` of the handle: two look-alike handles clash
    handle_key: Mapped[str] = mapped_column(String(128), unique=True)
    display_name: Mapped[str] = mapped_column(String(64))
    #: base64url of the 32 random bytes given to authenticators as the user id
    user_handle: Mapped[str] = mapped_column(String(64), unique=True)
    #: who sees the player page: ``everyone``, ``friends`` or ``me``
    visibility: Mapped[str] = mapped_column(
        String(16), default="everyone", server_default="everyone"
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PasskeyRow(Base):
    """One passkey of a profile (its credential id and COSE public key, base64url)."""

    __tablename__ = "passkeys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    profile_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"))
    credential_id: Mapped[str] = mapped_column(String(1400), unique=True)
    public_key: Mapped[str] = mapped_column(Text)
    sign_count: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (Index("ix_passkeys_profile", "profile_id"),)


class ProfileSessionRow(Base):
    """A signed-in browser: the SHA-256 of its session cookie's value."""

    __tablename__ = "profile_sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    profile_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_profile_sessions_profile", "profile_id"),)


class SignInLinkRow(Base):
    """A one-time sign-in link shown on a signed-in device (deleted when used)."""

    __tablename__ = "sign_in_links"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    profile_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ProfileSeatRow(Base):
    """A seat a signed-in player took: the SHA-256 of its seat token then (the binding
    holds only while the seat still has that token: a guest's device link that moved
    the seat away, or a leave, ends it)."""

    __tablename__ = "profile_seats"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    profile_id: Mapped[int] = mapped_column(ForeignKey("profiles.id", ondelete="CASCADE"))
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    token_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        UniqueConstraint("table_id", "seat", name="uq_profile_seats_table_seat"),
        Index("ix_profile_seats_profile", "profile_id"),
    )


class CeremonyRow(Base):
    """A WebAuthn ceremony between its options and its verify (single use): its
    challenge, and for a registration the profile asked for."""

    __tablename__ = "ceremonies"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    ceremony_hash: Mapped[str] = mapped_column(String(64), unique=True)
    kind: Mapped[str] = mapped_column(String(16))  # "register" | "sign_in"
    challenge: Mapped[str] = mapped_column(String(128))
    handle: Mapped[str | None] = mapped_column(String(64), nullable=True)
    display_name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    user_handle: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

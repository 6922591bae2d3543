"""Application settings (pydantic-settings; environment variables, no prefix for
``DATABASE_URL``, ``FIVEUP_`` for the rest). Listed in docs/protocol.md."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.core.resources import bundled_dir


class Settings(BaseSettings):
    """Runtime configuration."""

    model_config = SettingsConfigDict(env_prefix="FIVEUP_", extra="ignore", populate_by_name=True)

    database_url: str = Field(
        default="sqlite:///./fiveup.db",
        validation_alias=AliasChoices("DATABASE_URL", "FIVEUP_DATABASE_URL"),
    )
    next_round_seconds: float = 20.0
    #: the browser client: inside the installed package, or the checkout's static/
    #: (app/core/resources.py)
    static_dir: Path = Field(default_factory=lambda: bundled_dir("static"))
    max_frame_bytes: int = 16384
    log_level: str = "INFO"
    #: ``json`` (one JSON object per line), ``console`` (readable lines) or ``auto``:
    #: console when stderr is a terminal, else json (app/core/logging.py)
    log_format: Literal["auto", "json", "console"] = "auto"
    #: PostgreSQL connections of the store (app/db/pg_store.py) — every read and write.
    #: A commit waits for the WAL flush, so commits/s grow with concurrent connections
    #: (group commit); keep room under the server's max_connections per process.
    db_writers: int = Field(default=16, ge=1, le=200)
    #: PostgreSQL: ``in_transaction`` (pg_notify inside each change's transaction: atomic
    #: with the commit) or ``after_commit`` (sent right after it, batched; faster under
    #: load, see app/db/pg_notifier.py for the trade-off)
    notify: Literal["in_transaction", "after_commit"] = "in_transaction"
    #: WebSocket permessage-deflate (``FIVEUP_WS_DEFLATE``). Off by default: it keeps tens
    #: of KB of compression state per open socket on the server and costs CPU per frame.
    ws_deflate: bool = False
    #: PostgreSQL, several processes: a process whose presence reports stop (killed) is
    #: forgotten after this many seconds; each reports every third of it
    presence_ttl_seconds: float = Field(default=30.0, gt=0, le=3600)

    # --- Hardening for the open internet: quotas, HTTP limits, headers.
    # Documented in docs/configuration.md and docs/deployment.md. Rates use the `limits`
    # notation: "10/minute", "5 per 10 seconds", several joined by ";".
    #: where quota counters live: ``memory://`` (this process) or ``redis://host:port``
    #: (shared by every server process; needed when several run behind one proxy)
    rate_limit_storage: str = "memory://"
    #: false turns every quota off (the functional test servers do; never in production)
    rate_limit_enabled: bool = True
    #: table creations per client address
    rate_limit_create: str = "20/minute;200/hour"
    #: public table creations per client address (a public table takes a lobby slot)
    rate_limit_public_tables: str = "10/hour"
    #: joins (seat requests) per client address
    rate_limit_join: str = "30/minute"
    #: table look-ups by code that find nothing, per client address (code guessing)
    rate_limit_lookup_miss: str = "20/minute"
    #: every HTTP request under /api per client address
    rate_limit_http: str = "300/minute"
    #: record checks per client address (``POST /api/records/check``: each replays a
    #: whole match, up to ~0.1 s of CPU)
    rate_limit_record_check: str = "10/minute;100/hour"
    #: computer-player changes (seat, change level, remove) per client address
    rate_limit_bot_changes: str = "20/minute"
    #: practice tables (``POST /api/practice``) waiting or in play at once per client
    #: address; one more is refused with 409 ``too_many_practice_tables``
    max_live_practice_tables: int = Field(default=3, ge=1, le=1000)
    #: moves, next_round and rematch frames per WebSocket
    rate_limit_socket_moves: str = "8/second;240/minute"
    #: every inbound frame (ping and resync included) per WebSocket
    rate_limit_socket_messages: str = "20/second;600/minute"
    #: resync frames per WebSocket (a resync costs a snapshot)
    rate_limit_socket_resync: str = "2/second;30/minute"
    #: chat messages per WebSocket (docs/protocol.md, chat)
    rate_limit_socket_chat: str = "1/second;20/minute"
    #: spectator sockets open at once on one table
    max_spectators_per_table: int = Field(default=50, ge=0)
    #: bytes of frames a socket may have waiting before it is dropped as too slow (1013)
    socket_queue_bytes: int = Field(default=1 << 20, ge=4096)
    #: seconds one frame may take to be written before the socket is cut off (1013)
    socket_send_timeout: float = Field(default=10.0, gt=0)
    #: refused frames in a row after which a socket is closed (4429) as a flood
    socket_flood_refusals: int = Field(default=50, ge=1)
    #: WebSocket Origins allowed besides the page's own (comma-separated, e.g.
    #: "https://fiveup.example"; "*" for any). A browser always sends Origin; clients
    #: that send none (not browsers) are allowed.
    ws_allowed_origins: str = ""
    #: proxies whose X-Forwarded-For / X-Forwarded-Proto are believed: comma-separated
    #: IPs or CIDRs, "*" for any; empty = none (the socket peer is the client address)
    forwarded_allow_ips: str = ""
    #: seconds a client may take to send a request's headers (slowloris)
    header_timeout: float = Field(default=10.0, gt=0)
    #: seconds a client may take between two chunks of a request body
    body_timeout: float = Field(default=15.0, gt=0)
    #: seconds an idle keep-alive HTTP connection stays open
    keepalive_timeout: float = Field(default=5.0, gt=0)
    #: HTTP requests running at once per process before new ones get 503 (WebSockets
    #: and idle connections do not count; /healthz is never refused)
    limit_concurrency: int = Field(default=2000, ge=1)
    #: open HTTP connections per client address (app/core/connection_caps.py); more are
    #: closed at once. A trusted proxy's connections are not counted.
    max_connections_per_address: int = Field(default=256, ge=1)
    #: open WebSockets per client address; more are refused with 429
    max_sockets_per_address: int = Field(default=256, ge=1)
    #: open WebSockets per seat token; more are refused with 429
    max_sockets_per_seat_token: int = Field(default=8, ge=1)
    #: pending TCP connections the kernel queues for the process
    backlog: int = Field(default=2048, ge=1)
    #: WebSocket protocol pings: interval and how long to wait for the pong
    ws_ping_interval: float = Field(default=20.0, gt=0)
    ws_ping_timeout: float = Field(default=20.0, gt=0)
    #: largest request line + headers in bytes (h11's incomplete event size)
    max_header_bytes: int = Field(default=16384, ge=1024)
    #: serve the API documentation at /docs (from packaged files, never a CDN)
    docs: bool = True
    #: computer players (docs/bots.md, "In the server"): the pause before a bot's move,
    #: milliseconds, ``lo-hi`` (uniform) or one number (0 in tests)
    bot_delay_ms: str = Field(default="600-1200", pattern=r"^\d{1,6}(-\d{1,6})?$")
    #: ``hard``'s time budget per move, ms (0: a fixed 8 determinisations, no clock);
    #: shrunk when more hard turns wait than there are workers
    bot_hard_budget_ms: float = Field(default=300.0, ge=0, le=10000)
    #: worker processes thinking for ``medium`` and ``hard`` bots, off the event loop
    bot_pool: int = Field(default=1, ge=1, le=64)
    #: the computer player's level that plays a seat its person left (and the autopilot)
    autopilot_level: Literal["easy", "medium", "hard"] = "medium"
    #: abandoned tables (app/tables/sweep.py, docs/configuration.md): a table waiting or
    #: in play where no person has had a socket for this many seconds is closed (its
    #: computer players' moves do not count); 0 never closes one
    abandoned_table_seconds: float = Field(default=1800.0, ge=0)
    #: seconds between two sweeps for abandoned tables (every process sweeps)
    sweep_interval_seconds: float = Field(default=60.0, gt=0, le=3600)
    #: on SIGTERM (app/api/draining.py): at most this many seconds to finish the
    #: requests and socket frames in flight, close every socket with 1012 and hand the
    #: timers over, before the process shuts down
    drain_seconds: float = Field(default=10.0, gt=0, le=3600)

    # --- Absent players (docs/configuration.md, docs/protocol.md "Clock and
    # autopilot"). The table's clock preset is chosen at creation (none|relaxed|fast).
    #: seconds per move at a ``relaxed`` table
    clock_relaxed_move_seconds: float = Field(default=90.0, gt=0, le=86400)
    #: seconds per move at a ``fast`` table
    clock_fast_move_seconds: float = Field(default=20.0, gt=0, le=86400)
    #: a ``fast`` table's bank per seat and round: time beyond the move's own
    clock_fast_bank_seconds: float = Field(default=60.0, ge=0, le=86400)
    #: at a table without a clock, seconds the seat to move may be disconnected before
    #: the autopilot plays its move
    disconnect_grace_seconds: float = Field(default=60.0, gt=0, le=86400)
    #: autopilot turns in a row after which the seat stays on autopilot until its player
    #: comes back
    autopilot_handover_moves: int = Field(default=3, ge=1, le=1000)

    # --- Metrics for Prometheus (docs/monitoring.md). Off unless one of the two is set.
    #: serve ``/metrics`` on this port of its own (bound to ``metrics_host``)
    metrics_port: int | None = Field(default=None, ge=1, le=65535)
    #: the address the metrics port is bound to (loopback: only this machine scrapes)
    metrics_host: str = "127.0.0.1"
    #: serve ``/metrics`` on the main port to ``Authorization: Bearer <this>`` only (and
    #: require it on the metrics port too); at least 16 characters
    metrics_token: str = ""
    #: distinct values one open-ended metric label (a refusal's error code, a quota, a
    #: cap, a close code, a route template) may take; beyond it the value is ``other``
    metrics_label_values: int = Field(default=64, ge=8, le=1024)

    @field_validator("metrics_token")
    @classmethod
    def _long_enough(cls, token: str) -> str:
        if token and len(token) < 16:
            raise ValueError("FIVEUP_METRICS_TOKEN must be at least 16 characters")
        return token

    # --- Moderation and the operator's page (docs/configuration.md, docs/deployment.md
    # "The operator's page", docs/protocol.md "Moderation").
    #: the operator's secret for ``/admin`` (Bearer header or the page's sign-in); unset
    #: or empty: the operator's page and its API do not exist (404)
    operator_token: str = Field(default="", max_length=256)
    #: reports (of a chat message or a player) per client address
    rate_limit_reports: str = "10/hour"
    #: requests to ``/admin`` and its API per client address (sign-in attempts included)
    rate_limit_admin: str = "120/minute"
    #: rows the operator's audit log keeps (the oldest go first)
    audit_log_max_rows: int = Field(default=10000, ge=10, le=10_000_000)
    #: reports kept (the oldest go first, resolved or not)
    reports_max_rows: int = Field(default=10000, ge=10, le=10_000_000)
    #: seconds between two reads of the bans and mutes from the database (every process
    #: keeps them in memory; the process an operator acts on knows at once)
    moderation_refresh_seconds: float = Field(default=5.0, gt=0, le=3600)

    # --- Profiles (docs/profiles.md, docs/protocol.md "Profiles").
    #: the site's public URL, e.g. ``https://fiveup.example``: its origin is the only one
    #: a passkey ceremony and a cookie-authenticated change accept, its host the WebAuthn
    #: RP id. Empty: each request's own scheme and Host (development, tests)
    public_url: str = Field(default="", max_length=256, pattern=r"^(https?://[^/?#\s]+)?/?$")
    #: a profile handle's length, in characters (after the name rules)
    profile_handle_min: int = Field(default=3, ge=1, le=64)
    profile_handle_max: int = Field(default=24, ge=1, le=64)
    #: a profile's display name's length, in characters
    profile_display_name_max: int = Field(default=32, ge=1, le=64)
    #: days a sign-in lasts (the session row and its cookie)
    profile_session_days: float = Field(default=30.0, gt=0, le=400)
    #: sign-ins (sessions) a profile keeps at once: a new one past it ends the oldest
    profile_sessions_max: int = Field(default=20, ge=1, le=1000)
    #: seconds a one-time sign-in link works (once)
    sign_in_link_seconds: float = Field(default=300.0, gt=0, le=3600)
    #: seconds between a passkey ceremony's options and its verify
    passkey_ceremony_seconds: float = Field(default=300.0, gt=0, le=3600)
    #: profile sign-ups (registration options) per client address
    rate_limit_profile_signups: str = "5/minute;30/hour"
    #: one-time sign-in links made or claimed per client address
    rate_limit_sign_in_links: str = "5/minute"
    #: passkey sign-ins (authentication options) per client address
    rate_limit_passkey_sign_ins: str = "10/minute"
    #: a rating whose uncertainty σ is above this is provisional (docs/ratings.md)
    rating_provisional_sigma: float = Field(default=5.0, gt=0, le=25)
    #: the most entries a leaderboard answers
    leaderboard_max: int = Field(default=100, ge=1, le=1000)

    # --- Friends (docs/friends.md, docs/protocol.md "Friends").
    #: friends a profile may have
    friends_max: int = Field(default=200, ge=1, le=100_000)
    #: friend requests waiting at once: sent by a profile, and sent to a profile
    friends_pending_max: int = Field(default=100, ge=1, le=100_000)
    #: profiles a profile may block
    friends_blocks_max: int = Field(default=500, ge=1, le=100_000)
    #: friend requests (``POST /api/friends/requests``) per client address
    rate_limit_friend_requests: str = "20/minute"

    # --- Clubs (docs/clubs.md, docs/protocol.md "Clubs").
    #: clubs a profile may be in (its own included)
    clubs_per_profile_max: int = Field(default=20, ge=1, le=10_000)
    #: members a club may have (its owner included)
    club_members_max: int = Field(default=100, ge=2, le=10_000)
    #: a club name's characters at most, after the names' clean-up
    club_name_max: int = Field(default=40, ge=1, le=64)
    #: club joins (``POST /api/clubs/join``) per client address
    rate_limit_club_joins: str = "10/minute"

    # -- my games and the player page (docs/games.md) --
    #: finished matches one page of my games holds at most (``limit`` above: 400)
    my_games_page_max: int = Field(default=50, ge=1, le=500)
    #: a page's size when ``limit`` is not given (capped by the page maximum)
    my_games_page_default: int = Field(default=20, ge=1, le=500)
    #: opponents (and partners) a player page lists at most, the most played first
    player_page_people_max: int = Field(default=20, ge=1, le=500)
    #: player pages (``GET /api/players/{handle}``) per client address
    rate_limit_player_pages: str = "60/minute"

    # -- invitations and the profile socket (docs/invitations.md) --
    #: handles one invitation request may name
    invitations_per_request_max: int = Field(default=20, ge=1, le=500)
    #: invitations an invitee keeps waiting (the oldest go past it)
    invitations_pending_max: int = Field(default=50, ge=1, le=1000)
    #: invitations ``GET /api/profile/invitations`` answers at most
    invitations_list_max: int = Field(default=50, ge=1, le=1000)
    #: invitation requests (``POST /api/tables/{code}/invitations``) per client address
    rate_limit_invitations: str = "10/minute"


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read once from the environment."""
    return Settings()

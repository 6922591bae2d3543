"""Application settings (pydantic-settings; environment variables, no prefix for
``DATABASE_URL``, ``FIVEUP_`` for the rest). Listed in docs/protocol.md."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.core.resources import bundled_dir


class Settings(BaseSettings):
    """Runtime configuration."""

    model_config = SettingsConfigDict(env_prefix="FIVEUP_", extra="ignore", populate_by_name=True)

    database_url: str = Field(
        default="sqlite:///./fiveup.db",
        validation_alias=AliasChoices("DATABASE_URL", "FIVEUP_DATABASE_URL"),
    )
    next_round_seconds: float = 8.0
    #: the browser client: inside the installed package, or the checkout's static/
    #: (app/core/resources.py)
    static_dir: Path = Field(default_factory=lambda: bundled_dir("static"))
    max_frame_bytes: int = 16384
    log_level: str = "INFO"
    #: PostgreSQL connections for the hot path's writes (app/db/store.py). A commit
    #: waits for the WAL flush, so commits/s grow with concurrent connections (group
    #: commit); keep room under the server's max_connections (the ORM pool takes 30).
    db_writers: int = Field(default=16, ge=1, le=200)
    #: PostgreSQL: ``in_transaction`` (pg_notify inside each change's transaction: atomic
    #: with the commit) or ``after_commit`` (sent right after it, batched; faster under
    #: load, see app/db/store.py PgNotifier for the trade-off)
    notify: Literal["in_transaction", "after_commit"] = "in_transaction"
    #: WebSocket permessage-deflate (``FIVEUP_WS_DEFLATE``). Off by default: it keeps tens
    #: of KB of compression state per open socket on the server and costs CPU per frame.
    ws_deflate: bool = False
    #: computer players (docs/bots.md, "In the server"): the pause before a bot's move,
    #: milliseconds, ``lo-hi`` (uniform) or one number (0 in tests)
    bot_delay_ms: str = Field(default="600-1200", pattern=r"^\d{1,6}(-\d{1,6})?$")
    #: ``hard``'s time budget per move, ms (0: a fixed 8 determinisations, no clock);
    #: shrunk when more hard turns wait than there are workers
    bot_hard_budget_ms: float = Field(default=300.0, ge=0, le=10000)
    #: worker processes thinking for ``medium`` and ``hard`` bots, off the event loop
    bot_pool: int = Field(default=1, ge=1, le=64)


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read once from the environment."""
    return Settings()

"""Application settings (pydantic-settings; environment variables, no prefix for
``DATABASE_URL``, ``FIVEUP_`` for the rest). Listed in docs/protocol.md."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parents[2]


class Settings(BaseSettings):
    """Runtime configuration."""

    model_config = SettingsConfigDict(env_prefix="FIVEUP_", extra="ignore", populate_by_name=True)

    database_url: str = Field(
        default="sqlite:///./fiveup.db",
        validation_alias=AliasChoices("DATABASE_URL", "FIVEUP_DATABASE_URL"),
    )
    next_round_seconds: float = 8.0
    static_dir: Path = REPO_ROOT / "static"
    max_frame_bytes: int = 16384
    log_level: str = "INFO"


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read once from the environment."""
    return Settings()

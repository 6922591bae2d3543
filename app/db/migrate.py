"""Run Alembic migrations programmatically (``fiveup migrate`` / ``fiveup serve``)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

from app.core.urls import sync_url

REPO_ROOT = Path(__file__).resolve().parents[2]


def alembic_config(database_url: str) -> Config:
    """An Alembic config pointing at our migrations and the given database."""
    cfg = Config(str(REPO_ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(REPO_ROOT / "migrations"))
    cfg.set_main_option("sqlalchemy.url", sync_url(database_url).replace("%", "%%"))
    cfg.attributes["configure_logger"] = False
    return cfg


def migrate_to_head(database_url: str) -> None:
    """Upgrade the database to the newest revision."""
    command.upgrade(alembic_config(database_url), "head")

"""Run Alembic migrations programmatically (``fiveup migrate`` / ``fiveup serve``).

The configuration is built here, not read from an ``alembic.ini`` in the working
directory, and the migrations are found with the package (app/core/resources.py), so
an installed wheel migrates from any directory. (The repository's alembic.ini is only
for running the ``alembic`` command by hand in a checkout.)
"""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from app.core.resources import bundled_dir
from app.core.urls import sync_url


def alembic_config(database_url: str) -> Config:
    """An Alembic config pointing at our migrations and the given database.

    >>> cfg = alembic_config("sqlite:///x.db")
    >>> cfg.config_file_name is None, cfg.get_main_option("script_location").endswith("migrations")
    (True, True)
    """
    cfg = Config()
    cfg.set_main_option("script_location", str(bundled_dir("migrations")))
    cfg.set_main_option("path_separator", "os")
    cfg.set_main_option("sqlalchemy.url", sync_url(database_url).replace("%", "%%"))
    cfg.attributes["configure_logger"] = False
    return cfg


def migrate_to_head(database_url: str) -> None:
    """Upgrade the database to the newest revision."""
    command.upgrade(alembic_config(database_url), "head")

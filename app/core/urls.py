"""Database URL normalisation: users give plain URLs, the app picks its drivers.

>>> async_url("postgres://u@h:5432/db")
'postgresql+psycopg://u@h:5432/db'
>>> async_url("postgresql://u@h/db")
'postgresql+psycopg://u@h/db'
>>> async_url("sqlite:///fiveup.db")
'sqlite+aiosqlite:///fiveup.db'
>>> sync_url("sqlite+aiosqlite:///x.db")
'sqlite:///x.db'
>>> sync_url("postgresql://u@h/db")
'postgresql+psycopg://u@h/db'
"""

from __future__ import annotations


def async_url(url: str) -> str:
    """The SQLAlchemy async URL for a user-supplied database URL."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise ValueError(f"not a database URL: {url!r}")
    base = scheme.split("+", 1)[0]
    if base in ("postgres", "postgresql"):
        return f"postgresql+psycopg://{rest}"
    if base == "sqlite":
        return f"sqlite+aiosqlite://{rest}"
    raise ValueError(f"unsupported database: {scheme!r} (use postgresql:// or sqlite://)")


def sync_url(url: str) -> str:
    """The SQLAlchemy sync URL (for Alembic) for a user-supplied database URL."""
    a = async_url(url)
    if a.startswith("sqlite+aiosqlite://"):
        return "sqlite://" + a.removeprefix("sqlite+aiosqlite://")
    return a  # psycopg 3 serves both sync and async


def is_postgres(url: str) -> bool:
    """Whether the URL points at PostgreSQL."""
    return async_url(url).startswith("postgresql")


def libpq_dsn(url: str) -> str:
    """A libpq connection string (for psycopg's own LISTEN connection)."""
    return "postgresql://" + async_url(url).removeprefix("postgresql+psycopg://")

"""Shared fixtures: a real PostgreSQL database per test run, SQLite files, live servers.

PostgreSQL: ``FIVEUP_TEST_PG_ADMIN`` (default ``postgresql://postgres@127.0.0.1:5432/postgres``)
is used to create ``fiveup_test_<random>`` for the session and to drop it afterwards.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from app.db.migrate import migrate_to_head


def pytest_configure(config: pytest.Config) -> None:
    """``FIVEUP_EXPECT_NATIVE`` (set by ./scripts/test): ``1`` — this run must test the
    compiled build, ``0`` — the build whose move path runs as Python. A run whose
    installed package is not that build stops here, before any test (it would test the
    other one and pass for the wrong reason)."""
    expect = os.environ.get("FIVEUP_EXPECT_NATIVE")
    if expect not in ("0", "1"):
        return
    import app
    from app.core.native import build_status

    wrong = build_status()["python" if expect == "1" else "compiled"]
    if wrong:
        build = "compiled" if expect == "1" else "Python"
        raise pytest.UsageError(
            f"FIVEUP_EXPECT_NATIVE={expect} asks for the {build} build, but app"
            f" ({app.__file__}) has {len(wrong)} modules that are not: {', '.join(wrong[:5])}"
        )


PG_ADMIN = os.environ.get("FIVEUP_TEST_PG_ADMIN", "postgresql://postgres@127.0.0.1:5432/postgres")


def _pg_base(admin: str) -> str:
    return admin.rsplit("/", 1)[0]


def create_pg_database(prefix: str = "fiveup_test") -> str:
    """Create an empty database migrated to head; returns its plain URL."""
    name = f"{prefix}_{secrets.token_hex(4)}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    url = f"{_pg_base(PG_ADMIN)}/{name}"
    migrate_to_head(url)
    return url


def drop_pg_database(url: str) -> None:
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A migrated PostgreSQL database for the whole test session (dropped at the end)."""
    url = create_pg_database()
    try:
        yield url
    finally:
        drop_pg_database(url)


@pytest.fixture(scope="session")
def sqlite_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A migrated SQLite file for the whole test session."""
    path: Path = tmp_path_factory.mktemp("sqlite") / "fiveup.db"
    url = f"sqlite:///{path}"
    migrate_to_head(url)
    return url


@pytest.fixture(params=["postgres", "sqlite"])
def db_url(request: pytest.FixtureRequest) -> str:
    """Each service test runs on PostgreSQL and once on SQLite."""
    return request.getfixturevalue("pg_url" if request.param == "postgres" else "sqlite_url")

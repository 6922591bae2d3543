"""Server test fixtures: the table service on each backend, a live uvicorn server."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from app.core.settings import Settings
from app.main import make_store
from app.tables.service import TableService

from .support import ServerProcess


@pytest.fixture
async def service(db_url: str) -> AsyncIterator[TableService]:
    """The real table service on PostgreSQL and on SQLite (next round dealt at once)."""
    svc = TableService(make_store(Settings(database_url=db_url)), next_round_seconds=0)
    yield svc
    await svc.close()


@pytest.fixture(scope="session")
def live(pg_url: str) -> Iterator[ServerProcess]:
    """One real uvicorn server on PostgreSQL shared by the WebSocket tests."""
    server = ServerProcess(pg_url).start()
    yield server
    server.stop()


@pytest.fixture
async def http(live: ServerProcess) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=live.http, timeout=20) as client:
        yield client

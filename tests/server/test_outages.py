"""Database outages: the connections an outage killed cost no
user action, and a timer whose deadline falls inside an outage fires once the database
is back — on real PostgreSQL, with this test's own database made unreachable."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import psycopg
import pytest
from conftest import PG_ADMIN, create_pg_database, drop_pg_database

from app.core.settings import Settings
from app.main import make_store
from app.tables.service import TableService

from .helpers import current_match, play_random_move, seated


@pytest.fixture
def own_db() -> Iterator[str]:
    url = create_pg_database("fiveup_outage")
    yield url
    cut_off(url, allow_again=True)
    drop_pg_database(url)


def cut_off(url: str, allow_again: bool = False) -> None:
    """Refuse new connections to the database and end the open ones (or allow again)."""
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS {str(allow_again).lower()}')
        if not allow_again:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()",
                (name,),
            )


async def test_connections_killed_by_an_outage_cost_no_user_action(own_db: str) -> None:
    svc = TableService(make_store(Settings(database_url=own_db)), next_round_seconds=0)
    try:
        code, tid, tokens = await seated(svc, 2)
        # several connections in the pool, all idle
        await asyncio.gather(*(svc.store.load(tid) for _ in range(6)))
        cut_off(own_db)
        cut_off(own_db, allow_again=True)  # a restart: every idle connection is dead
        rng = random.Random(3)
        for _ in range(8):  # each would have met a dead connection
            await play_random_move(svc, code, tid, tokens, rng)
            assert (await svc.info(code)).code == code
    finally:
        await svc.close()


async def test_a_timed_next_round_due_during_an_outage_is_dealt_after_it(own_db: str) -> None:
    svc = TableService(make_store(Settings(database_url=own_db)), next_round_seconds=1.0)
    other = TableService(make_store(Settings(database_url=own_db)), next_round_seconds=1.0)
    try:
        code, tid, tokens = await seated(svc, 2)
        rng = random.Random(6)
        while True:
            m, _ = await current_match(svc, code)
            if m.round_over:
                break
            await play_random_move(svc, code, tid, tokens, rng)
        assert not m.over  # one round never reaches 61 (R24)
        cut_off(own_db)  # the deadline (1 s after the settlement) falls in the outage
        try:
            await asyncio.sleep(3.0)
        finally:
            cut_off(own_db, allow_again=True)
        async with asyncio.timeout(30):
            while (await current_match(other, code))[0].round_number != 2:
                await asyncio.sleep(0.2)
        match, _ = await current_match(other, code)
        assert not match.round_over and match.round_number == 2  # dealt once, not twice
        log = await other.history(code, None)
        assert [r["round"] for r in log.rounds] == [1, 2]
    finally:
        await svc.close()
        await other.close()

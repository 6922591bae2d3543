"""A process's own commits are delivered as they are, never read back: the
writer tells the hub which seq it is committing (``Hub.expecting``), so the NOTIFY of
that commit — which PostgreSQL may hand to the process's LISTEN connection before the
write's own answer — waits for the delivery instead of reading the table from the store.
A NOTIFY of another process's commit that comes during a write the version check then
refuses still brings the feed up to date."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest

from app.core.settings import Settings
from app.db.rows import Change
from app.main import make_store
from app.realtime.connection import Connection
from app.realtime.hub import Hub
from app.tables.service import TableService


def _frames(conn: Connection) -> list[dict[str, Any]]:
    out = []
    while (text := conn.next_frame()) is not None:
        out.append(orjson.loads(text))
    return out


async def _two_seat_table(service: TableService) -> tuple[int, str, str]:
    host = await service.create("own commits", 2, False, "Ann")
    guest = await service.join(host.code, "Bob", 1)
    await service.start(host.code, host.token)
    ident = await service.identify(host.code, host.token)
    return ident.table_id, host.token, guest.token


async def test_the_notify_of_a_process_own_move_is_not_read_back_from_the_store(
    pg_url: str,
) -> None:
    store = make_store(Settings(database_url=pg_url))
    hub = Hub(store, next_round_seconds=0)
    service = TableService(store, next_round_seconds=0, delivery=hub)
    reads: list[int] = []
    real_catchup, real_write = store.catchup, store.write

    async def counted_catchup(table_id: int, since: int, limit: int) -> Any:
        reads.append(table_id)
        return await real_catchup(table_id, since, limit)

    async def write_then_notify(change: Change) -> bool:
        written = await real_write(change)
        # the NOTIFY of this commit reaches the hub before the writer has its answer
        await hub.poke(change.table.id, change.table.seq)
        return written

    try:
        tid, host, guest = await _two_seat_table(service)
        conn = Connection(tid, "x", None, None, None)  # a spectator's socket
        await hub.attach(conn)
        snapshot = _frames(conn)[0]
        seq = snapshot["seq"]
        store.catchup = counted_catchup  # type: ignore[method-assign]
        store.write = write_then_notify  # type: ignore[method-assign]
        match = (await service.writer.load(tid)).match
        assert match is not None
        move = match.legal_moves(match.turn)[0].text
        await service.act(tid, host if match.turn == 0 else guest, move, "m-1")
        events = [f for f in _frames(conn) if f["type"] == "event"]
        assert [e["seq"] for e in events] == [seq + 1]  # delivered once, in order
        assert reads == []  # and never read back from the store
    finally:
        await service.close()


@pytest.mark.parametrize("arrival", ["notice", "poke"])
async def test_a_notify_during_a_refused_write_still_brings_the_feed_up_to_date(
    pg_url: str, arrival: str
) -> None:
    """``notice``: as the LISTEN connection hands the NOTIFY over (noted at once, no
    catch-up task for it); ``poke``: as a catch-up already running looks."""
    store = make_store(Settings(database_url=pg_url))
    hub = Hub(store, next_round_seconds=0)
    here = TableService(store, next_round_seconds=0, delivery=hub)
    elsewhere = TableService(make_store(Settings(database_url=pg_url)), next_round_seconds=0)
    try:
        tid, _host, guest = await _two_seat_table(here)
        conn = Connection(tid, "x", None, None, None)
        await hub.attach(conn)
        seq = _frames(conn)[0]["seq"]
        # this process is about to commit seq + 1; another process commits it first
        hub.expecting(tid, seq + 1)
        await elsewhere.chat(tid, guest, "first!", None)
        # its NOTIFY: taken for this process's own, for now
        if arrival == "notice":
            hub.notice(tid, seq + 1)
        else:
            await hub.poke(tid, seq + 1)
        assert not hub.catchups._tasks  # noted for the write's end, no catch-up started
        assert [f for f in _frames(conn) if f["type"] == "event"] == []
        hub.expecting(tid, None)  # the write is over (refused by its version check)
        for _ in range(200):
            events = [f for f in _frames(conn) if f["type"] == "event"]
            if events:
                break
            await asyncio.sleep(0.01)
        assert [e["seq"] for e in events] == [seq + 1]
        assert events[0]["event"]["text"] == "first!"
    finally:
        await here.close()
        await elsewhere.close()

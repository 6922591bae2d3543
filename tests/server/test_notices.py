"""NOTIFYs of other processes' commits are read side by side, table by table:
``Hub.notice`` returns at once, one task per table catches the feed up from the store,
and the NOTIFYs that come while it reads are folded into one more read — the listener
never waits for a read, so a slow table does not hold up the others."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson

from app.core.settings import Settings
from app.main import make_store
from app.realtime.connection import Connection
from app.realtime.hub import Hub
from app.tables.service import TableService


def _events(conn: Connection) -> list[dict[str, Any]]:
    out = []
    while (text := conn.next_frame()) is not None:
        frame = orjson.loads(text)
        if frame["type"] == "event":
            out.append(frame)
    return out


async def test_notices_of_a_burst_of_commits_are_folded_into_few_reads_in_order(
    pg_url: str,
) -> None:
    store = make_store(Settings(database_url=pg_url))
    hub = Hub(store, next_round_seconds=0)
    elsewhere = TableService(make_store(Settings(database_url=pg_url)), next_round_seconds=0)
    reads: list[int] = []
    real_catchup = store.catchup

    async def counted_catchup(table_id: int, since: int, limit: int) -> Any:
        reads.append(table_id)
        await asyncio.sleep(0.05)  # a slow read: more NOTIFYs come meanwhile
        return await real_catchup(table_id, since, limit)

    try:
        host = await elsewhere.create("notices", 2, False, "Ann")
        guest = await elsewhere.join(host.code, "Bob", 1)
        tid = (await elsewhere.identify(host.code, host.token)).table_id
        conn = Connection(tid, host.code, None, None, None)
        await hub.attach(conn)
        seq = orjson.loads(conn.next_frame() or "{}")["seq"]
        store.catchup = counted_catchup  # type: ignore[method-assign]
        for i in range(1, 6):  # five commits of another process, each NOTIFY heard at once
            await elsewhere.chat(tid, guest.token if i % 2 else host.token, f"hi {i}", None)
            hub.notice(tid, seq + i)
        got: list[dict[str, Any]] = []
        for _ in range(300):
            got += _events(conn)
            if len(got) >= 5:
                break
            await asyncio.sleep(0.01)
        assert [e["seq"] for e in got] == [seq + i for i in range(1, 6)]  # gapless, in order
        assert [e["event"]["text"] for e in got] == [f"hi {i}" for i in range(1, 6)]
        assert 1 <= len(reads) < 5  # folded: fewer reads than NOTIFYs
        hub.notice(tid, seq + 5)  # an old NOTIFY: nothing to read
        await asyncio.sleep(0.05)
        assert _events(conn) == [] and len(reads) < 5
    finally:
        await elsewhere.close()

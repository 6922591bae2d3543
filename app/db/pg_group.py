"""Group commit for the PostgreSQL store: the changes that seat nobody (moves, votes,
deals — the hot path) of many tables written by ONE statement, in one transaction with
one WAL flush and one round trip; every caller's write returns only after that commit.

Each change keeps its own guarantees inside the shared transaction: its table's row is
updated only if its version still matches, and its events (and its NOTIFY) exist only if
that row was updated — a change refused by its version check leaves the others alone::

    WITH v AS (SELECT … FROM jsonb_to_recordset(:tables)),       -- one row per table
         u AS (UPDATE game_tables t SET … FROM v
               WHERE t.id = v.id AND t.version = v.version RETURNING t.id, v.note),
         e AS (INSERT INTO table_events … FROM jsonb_to_recordset(:events) JOIN u …)
    SELECT u.id, pg_notify(:channel, u.note) FROM u

The changes travel as one JSON document, the match states inside it: each is encoded
once, by orjson, and parsed once, by PostgreSQL.

A batch is whatever waited while the commits in flight were being committed (at most
:data:`IN_FLIGHT_MAX` of them; at most :data:`GROUP_MAX` changes, at most one change per
table, in a batch): an idle server writes each change alone at once, a busy one writes
many per commit. A batch of one goes through the same statement: its three parameters
cost psycopg less than the per-change statement's two dozen (docs/benchmarks.md). If the statement fails as a
whole — a retried ``move_id`` clashed, two processes' batches deadlocked — nothing was
committed and each change of the batch is written alone, so it meets exactly the answer
it would have met by itself. A lost connection fails every change of the batch with
:class:`~app.db.store.Unavailable`, as it would have failed each alone (the store retries
it once on a fresh connection).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from app.core import metrics
from app.core.json_text import json_text
from app.db.channel import encode_note
from app.db.rows import Change
from app.db.store import Unavailable

#: at most this many changes (tables) in one group commit
GROUP_MAX = 256
#: at most this many group commits in flight at once (a change that arrives while fewer
#: are in flight is sent at once: waiting for a commit in flight would add its WAL flush
#: to the change's latency)
IN_FLIGHT_MAX = 3

_TABLE_COLS = (
    "id int, version int, seq int, status text, host_seat int, match_number int,"
    " state jsonb, rematch_votes jsonb, ready jsonb, round_over_at timestamptz,"
    " commitment text, deal_seed text, spectator_chat bool, turn_deadline timestamptz,"
    " banks jsonb, resigned int, history jsonb, note text"
)
_EVENT_COLS = (
    "table_id int, seq int, kind text, seat int, player_id int, move_id text,"
    " match_number int, payload jsonb"
)


def group_write_sql(notify: bool) -> str:
    """The one statement of a group commit (``notify``: pg_notify for each table written)."""
    return (
        f"WITH v AS (SELECT * FROM jsonb_to_recordset(%(tables)s::jsonb) AS v({_TABLE_COLS})),"
        " u AS (UPDATE game_tables t SET version = t.version + 1, seq = v.seq,"
        " status = v.status, host_seat = v.host_seat, match_number = v.match_number,"
        " state = v.state, rematch_votes = v.rematch_votes, ready = v.ready,"
        " round_over_at = v.round_over_at, commitment = v.commitment,"
        " deal_seed = v.deal_seed, spectator_chat = v.spectator_chat,"
        " turn_deadline = v.turn_deadline, banks = v.banks, resigned = v.resigned,"
        " history = coalesce(v.history, t.history), updated_at = now()"
        " FROM v WHERE t.id = v.id AND t.version = v.version RETURNING t.id, v.note),"
        " e AS (INSERT INTO table_events (table_id, seq, kind, seat, player_id, move_id,"
        " match_number, payload, created_at)"
        " SELECT x.table_id, x.seq, x.kind, x.seat, x.player_id, x.move_id, x.match_number,"
        f" x.payload, now() FROM jsonb_to_recordset(%(events)s::jsonb) AS x({_EVENT_COLS})"
        " JOIN u ON u.id = x.table_id RETURNING 1)"
        + (
            " SELECT u.id, pg_notify(%(channel)s, u.note) FROM u"
            if notify
            else " SELECT u.id FROM u"
        )
    )


def group_params(changes: list[Change], channel: str) -> dict[str, Any]:
    """The statement's parameters: the tables' new columns and the events, as JSON."""
    tables: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    for c in changes:
        t = c.table
        tables.append(
            t.columns()
            | {
                "id": t.id,
                "version": c.old_version,
                "history": c.history,
                "note": encode_note(t.id, t.seq),
            }
        )
        events.extend(e.row(t.id) for e in c.events)
    return {"tables": json_text(tables), "events": json_text(events), "channel": channel}


_Item = tuple[Change, "asyncio.Future[bool]"]


class GroupCommit:
    """Queues one-statement changes and writes them in batches, a few batches at a time.

    ``write_batch`` writes a batch and returns the ids of the tables written (raising
    as a whole); ``write_one`` writes one change alone (the single-change answers:
    written or not, ``MoveIdClash``, ``Unavailable``…); ``dead_connections`` counts the
    connections lost so far (a batch that failed on a lost one is not written again
    change by change: the callers retry it)."""

    def __init__(
        self,
        write_batch: Callable[[list[Change]], Awaitable[set[int]]],
        write_one: Callable[[Change], Awaitable[bool]],
        dead_connections: Callable[[], int],
        max_batch: int = GROUP_MAX,
        max_in_flight: int = IN_FLIGHT_MAX,
    ) -> None:
        self._write_batch = write_batch
        self._write_one = write_one
        self._dead = dead_connections
        self.max_batch = max_batch
        self.max_in_flight = max_in_flight
        self._pending: list[_Item] = []
        self._flushers = 0
        self._tasks: set[asyncio.Task[None]] = set()
        #: batches written and changes in them (for the benchmarks)
        self.batches = 0
        self.changes = 0

    async def write(self, change: Change) -> bool:
        """Write ``change`` with whatever else is waiting; True once committed, False if
        its version check refused it."""
        fut: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._pending.append((change, fut))
        if self._flushers < self.max_in_flight:
            self._flushers += 1
            task = asyncio.get_running_loop().create_task(self._flush())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return await fut

    def _take(self) -> list[_Item]:
        """The next batch: the oldest waiting changes, at most one per table."""
        batch: list[_Item] = []
        rest: list[_Item] = []
        seen: set[int] = set()
        for item in self._pending:
            tid = item[0].table.id
            if tid in seen or len(batch) >= self.max_batch:
                rest.append(item)
            else:
                seen.add(tid)
                batch.append(item)
        self._pending = rest
        return batch

    async def _flush(self) -> None:
        try:
            await self._flush_pending()
        finally:
            self._flushers -= 1

    async def _flush_pending(self) -> None:
        while self._pending:
            batch = self._take()
            self.batches += 1
            self.changes += len(batch)
            dead = self._dead()
            began = time.perf_counter()
            try:
                written = await self._write_batch([c for c, _ in batch])
                metrics.group_committed(len(batch), time.perf_counter() - began)
            except Exception as exc:
                if isinstance(exc, Unavailable) and self._dead() != dead:
                    for _, fut in batch:  # the connection died: unknown, the callers retry
                        _settle(fut, exc=Unavailable(str(exc)))
                    continue
                for item in batch:  # refused as a whole: nothing committed, each alone
                    await self._alone(item)
                continue
            for change, fut in batch:
                _settle(fut, result=change.table.id in written)

    async def _alone(self, item: _Item) -> None:
        change, fut = item
        try:
            written = await self._write_one(change)
        except Exception as exc:
            _settle(fut, exc=exc)
        else:
            _settle(fut, result=written)


def _settle(
    fut: asyncio.Future[bool], *, result: bool = False, exc: BaseException | None = None
) -> None:
    if fut.done():  # the caller was cancelled: it learns nothing, like a cut connection
        return
    if exc is not None:
        fut.set_exception(exc)
    else:
        fut.set_result(result)

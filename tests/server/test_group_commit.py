"""Group commit (app/db/pg_group.py): the changes of many tables written together each
get exactly the answer they would have got alone — committed with their events, refused
by their own version check, or refused for a reused move id — and the others commit."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta

import pytest

from app.core.urls import libpq_dsn
from app.db.pg_store import PgStore
from app.db.rows import Change, EventRecord, TableState
from app.db.store import MoveIdClash
from app.tables.service import TableService

from .helpers import greedy_choice, seated


def _chat_change(t: TableState, *, version_lag: int = 0, move_id: str | None = None) -> Change:
    """A change appending one chat-like event to a loaded table (its state unchanged)."""
    t.seq += 1
    event = EventRecord(
        seq=t.seq,
        kind="chat",
        payload={"type": "chat", "seat": 0, "name": "Host", "channel": "table", "text": "hi"},
        seat=0,
        move_id=move_id,
        match_number=t.match_number,
    )
    return Change(t, t.version - version_lag, [event])


async def _load(store: PgStore, table_id: int) -> TableState:
    got = await store.load(table_id)
    assert got is not None
    return got[0]


async def _seq_and_events(store: PgStore, table_id: int) -> tuple[int, list[int]]:
    cu = await store.catchup(table_id, 0, 1000)
    assert cu is not None
    return cu.table.seq, [e.seq for e in cu.events]


async def test_group_commit_answers_each_change_as_if_written_alone(pg_url: str) -> None:
    store = PgStore(libpq_dsn(pg_url))
    svc = TableService(store, next_round_seconds=0)
    try:
        ids = [(await seated(svc, 2))[1] for _ in range(6)]
        # table 4 already holds an event under move id "m-1"
        assert await store.write(_chat_change(await _load(store, ids[4]), move_id="m-1"))
        loaded = [await _load(store, tid) for tid in ids]
        before = {tid: await _seq_and_events(store, tid) for tid in ids}

        changes = [
            _chat_change(loaded[0]),
            _chat_change(loaded[1], move_id="m-1"),  # the same id on another table: fine
            _chat_change(loaded[2]),
            _chat_change(loaded[3], version_lag=1),  # read before another write: refused
            _chat_change(loaded[4], move_id="m-1"),  # a reused move id: refused
            _chat_change(loaded[5]),
        ]
        batches = store.group.batches
        results = await asyncio.gather(*(store.write(c) for c in changes), return_exceptions=True)

        assert store.group.batches - batches < len(changes)  # some were written together
        assert results[:4] == [True, True, True, False]
        assert isinstance(results[4], MoveIdClash)
        assert results[5] is True
        for i in (0, 1, 2, 5):
            seq, events = await _seq_and_events(store, ids[i])
            assert seq == before[ids[i]][0] + 1
            assert events == [*before[ids[i]][1], seq]
        for i in (3, 4):
            assert await _seq_and_events(store, ids[i]) == before[ids[i]]
    finally:
        await svc.close()


async def test_moves_on_many_tables_at_once_are_committed_in_fewer_transactions(
    pg_url: str,
) -> None:
    """Moves of many tables arriving together share commits; each is acknowledged with
    its own seq and is on its table afterwards."""
    store = PgStore(libpq_dsn(pg_url))
    svc = TableService(store, next_round_seconds=0)
    rng = random.Random(7)
    tables = 12
    try:
        seats = [await seated(svc, 2) for _ in range(tables)]
        moves = []
        for _code, tid, tokens in seats:
            table, _players, match = svc.writer._hot[tid]
            assert match is not None and match.turn is not None
            legal = [{"move": str(m)} for m in match.legal_moves(match.turn)]
            moves.append((tid, tokens[match.turn], greedy_choice(legal, rng), table.seq))
        batches = store.group.batches
        results = await asyncio.gather(
            *(svc.act(tid, token, move, f"mv-{tid}", seq) for tid, token, move, seq in moves)
        )
        assert store.group.batches - batches < tables
        for (tid, _token, _move, seq), result in zip(moves, results, strict=True):
            assert result.seq > seq and not result.duplicate
            stored_seq, events = await _seq_and_events(store, tid)
            assert stored_seq >= result.seq and result.seq in events
    finally:
        await svc.close()


async def test_a_batch_writes_every_column_a_change_sets_clock_and_resignation_included(
    pg_url: str,
) -> None:
    """A table written in a batch keeps what a change wrote alone would keep: the turn
    clock's deadline and banks and the resigned seat travel with the batch."""
    store = PgStore(libpq_dsn(pg_url))
    svc = TableService(store, next_round_seconds=0)
    try:
        ids = [(await seated(svc, 2))[1] for _ in range(4)]
        loaded = [await _load(store, tid) for tid in ids]
        deadline = datetime(2030, 1, 2, 3, 4, 5, 678000, tzinfo=UTC)
        for i, t in enumerate(loaded):
            t.turn_deadline = deadline + timedelta(seconds=i)
            t.banks = [60.0, 12.5 + i]
            t.resigned = i % 2
        batches = store.group.batches
        results = await asyncio.gather(*(store.write(_chat_change(t)) for t in loaded))
        assert results == [True] * len(loaded)
        assert store.group.batches - batches < len(loaded)  # some were written together
        for i, tid in enumerate(ids):
            t = await _load(store, tid)
            assert t.turn_deadline == deadline + timedelta(seconds=i)
            assert t.banks == [60.0, 12.5 + i]
            assert t.resigned == i % 2
    finally:
        await svc.close()


async def test_a_change_written_by_itself_gets_each_of_its_three_answers(pg_url: str) -> None:
    """A change with no other waiting is a batch of one, written by the group statement:
    committed (its event stored), refused by its version check (nothing stored), or
    refused for a reused move id (:class:`MoveIdClash`, from the per-change statement
    the batch falls back to) — the answers of the per-change statement."""
    store = PgStore(libpq_dsn(pg_url))
    svc = TableService(store, next_round_seconds=0)
    try:
        tid = (await seated(svc, 2))[1]
        before = await _seq_and_events(store, tid)
        batches = store.group.batches

        assert await store.write(_chat_change(await _load(store, tid), move_id="m-1")) is True
        assert store.group.batches == batches + 1  # a batch by itself
        seq, events = await _seq_and_events(store, tid)
        assert (seq, events) == (before[0] + 1, [*before[1], before[0] + 1])

        stale = await _load(store, tid)
        assert await store.write(_chat_change(await _load(store, tid))) is True
        assert await store.write(_chat_change(stale)) is False  # its version moved on
        assert (await _seq_and_events(store, tid))[0] == seq + 1

        reused = _chat_change(await _load(store, tid), move_id="m-1")
        with pytest.raises(MoveIdClash):
            await store.write(reused)
        assert (await _seq_and_events(store, tid))[0] == seq + 1
    finally:
        await svc.close()

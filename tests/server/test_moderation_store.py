"""The moderation store on PostgreSQL and on SQLite: reports with their chat in context,
the audit log kept to its bound, bans and mutes with their ends, table blocks, and live
tables read without anything hidden."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest

from app.db.moderation_rows import NewReport
from app.db.moderation_store import CoreModerationStore, make_moderation_store
from app.tables.service import TableService


@pytest.fixture
async def mod(db_url: str) -> AsyncIterator[CoreModerationStore]:
    store = make_moderation_store(db_url)
    yield store
    await store.close()


async def _table_with_chat(service: TableService, lines: int) -> tuple[int, str, list[int]]:
    joined = await service.create("Moderated", 2, False, "Ann")
    guest = await service.join(joined.code, "Bob", 1)
    table_id = await service.table_id(joined.code)
    seqs = []
    for i in range(lines):
        token = joined.token if i % 2 == 0 else guest.token
        seqs.append(await service.chat(table_id, token, f"line {i}", None))
    return table_id, joined.code, seqs


def _report(table_id: int, seq: int | None, reporter: str = "r") -> NewReport:
    return NewReport(table_id, "message", seq, 1, "Bob", "abuse", "rude", "tok", None, reporter)


async def test_a_report_is_read_back_with_the_chat_around_its_message(
    service: TableService, mod: CoreModerationStore
) -> None:
    table_id, code, seqs = await _table_with_chat(service, 9)
    rid = await mod.add_report(_report(table_id, seqs[4]), keep=100)
    got = await mod.report(rid)
    assert got is not None and got.code == code and got.seq == seqs[4] and not got.resolved
    around = await mod.chat_around(table_id, seqs[4], 2)
    assert [line.payload["text"] for line in around] == [f"line {i}" for i in range(2, 7)]
    line = await mod.chat_line(table_id, seqs[4])
    assert line is not None and line.payload["seat"] == 0
    assert await mod.chat_line(table_id, seqs[4] + 1000) is None
    assert rid in [r.id for r in await mod.reports(10)]
    assert await mod.resolve_report(rid) and not await mod.resolve_report(rid + 1000)
    assert rid not in [r.id for r in await mod.reports(10)]
    assert rid in [r.id for r in await mod.reports(10, open_only=False)]


async def test_reports_and_the_audit_log_keep_only_their_newest_rows(
    service: TableService, mod: CoreModerationStore
) -> None:
    table_id, _, _ = await _table_with_chat(service, 0)
    ids = [await mod.add_report(_report(table_id, None), keep=3) for _ in range(5)]
    kept = [r.id for r in await mod.reports(100, open_only=False)]
    assert ids[-3:] == sorted(kept)[-3:] and ids[0] not in kept and ids[1] not in kept
    for i in range(15):
        await mod.add_audit("mute", f"target {i}", "", keep=10)
    audit = await mod.audit(100)
    assert len(audit) == 10 and audit[0].target == "target 14" and audit[-1].target == "target 5"


async def test_bans_and_mutes_end_and_can_be_lifted(mod: CoreModerationStore) -> None:
    now = datetime.now(UTC)
    ended = await mod.add_ban("a" * 64, "old", now - timedelta(minutes=1))
    live = await mod.add_ban("b" * 64, "live", now + timedelta(hours=1))
    active = {b.id for b in await mod.active_bans(now)}
    assert live in active and ended not in active
    assert await mod.remove_ban(live) and live not in {b.id for b in await mod.active_bans(now)}
    forever = await mod.add_mute(None, "t" * 64, "seat", None)
    gone = await mod.add_mute("c" * 64, None, "addr", now - timedelta(seconds=1))
    mutes = {m.id: m for m in await mod.active_mutes(now)}
    assert forever in mutes and gone not in mutes and mutes[forever].token_hash == "t" * 64
    assert await mod.remove_mute(forever) and not await mod.remove_mute(forever)


async def test_blocks_are_read_back_while_their_table_is_not_closed(
    service: TableService, mod: CoreModerationStore
) -> None:
    table_id, _, _ = await _table_with_chat(service, 0)
    await mod.add_block(table_id, "a" * 64, "t" * 64, "Bob")
    assert any(
        (b.table_id, b.address_hash, b.token_hash, b.name) == (table_id, "a" * 64, "t" * 64, "Bob")
        for b in await mod.blocks(1000)
    )
    joined = await service.create("Left", 2, False, "Cy")
    left_id = await service.table_id(joined.code)
    await mod.add_block(left_id, "b" * 64, None, "Dee")
    await service.leave(joined.code, joined.token)  # the last person left: closed
    assert all(b.table_id != left_id for b in await mod.blocks(1000))


async def test_live_tables_show_names_and_seats_only(
    service: TableService, mod: CoreModerationStore
) -> None:
    table_id, code, _ = await _table_with_chat(service, 0)
    found = {t.code: t for t in await mod.live_tables(1000)}
    assert [(s.seat, s.name) for s in found[code].seats] == [(0, "Ann"), (1, "Bob")]
    assert found[code].status == "waiting" and found[code].id == table_id


async def test_its_statements_and_their_parameters_never_reach_the_log_even_at_debug(
    service: TableService, mod: CoreModerationStore, caplog: pytest.LogCaptureFixture
) -> None:
    from app.core.logging import setup_logging

    setup_logging("DEBUG")
    try:
        with caplog.at_level(logging.DEBUG):
            table_id, _, seqs = await _table_with_chat(service, 1)
            await mod.add_report(_report(table_id, seqs[0]), keep=100)
            await mod.chat_around(table_id, seqs[0], 5)
        assert [r for r in caplog.records if r.name.startswith(("sqlalchemy", "aiosqlite"))] == []
        assert "line 0" not in caplog.text
    finally:
        setup_logging("INFO")

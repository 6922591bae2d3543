"""Authority: every move is checked by the engine against the stored state; refusals have
stable codes and change nothing; retries apply at most once; automatic passes (R19)."""

from __future__ import annotations

import asyncio
import json

import pytest

from app.core.settings import Settings
from app.core.urls import is_postgres
from app.db.pg_store import PgStore
from app.db.sqlite_store import SqliteStore
from app.main import make_store
from app.tables.errors import TableError
from app.tables.service import TableService

from .helpers import current_match, seated
from .support import rig_deal

# the deal of shared conformance fixture round-02 (R18, R19): after 6|6 opens, seat 1
# draws the whole stock, cannot place, and its only legal move is then `pass`.
R02_HANDS = [
    ["6|6", "0|0", "1|1", "2|2", "3|3"],
    ["0|1", "0|2", "0|3", "0|4", "0|5"],
    ["0|6", "1|6", "2|6", "1|2", "1|3"],
    ["3|6", "4|6", "5|6", "1|4", "1|5"],
]
R02_STOCK = ["2|3", "2|4", "2|5", "3|4", "3|5", "4|4", "4|5", "5|5"]


async def _stored(service: TableService, code: str) -> tuple[int, int, str]:
    m, table = await current_match(service, code)
    return table.seq, table.version, json.dumps(m.to_dict(), sort_keys=True)


async def _refused(service: TableService, code: str, call, expected: str) -> TableError:  # type: ignore[no-untyped-def]
    before = await _stored(service, code)
    with pytest.raises(TableError) as err:
        await call
    assert err.value.code == expected, err.value.message
    assert await _stored(service, code) == before  # nothing changed
    return err.value


async def test_move_out_of_turn_is_refused_and_changes_nothing(service: TableService) -> None:
    code, tid, tokens = await seated(service, 3)
    m, table = await current_match(service, code)
    other = (m.turn + 1) % 3
    opening = str(m.legal_moves(m.turn)[0])
    await _refused(
        service, code, service.act(tid, tokens[other], opening, "m1", table.seq), "not_your_turn"
    )


async def test_illegal_move_is_refused_with_its_rule(service: TableService) -> None:
    code, tid, tokens = await seated(service, 2)
    await rig_deal(
        service_url(service),
        code,
        [
            R02_HANDS[0] + R02_HANDS[2] + ["2|3", "2|4"],
            R02_HANDS[1] + R02_HANDS[3] + ["2|5", "3|4"],
        ],
        ["3|5", "4|4", "4|5", "5|5"],
        0,
    )
    err = await _refused(service, code, service.act(tid, tokens[0], "0|1"), "illegal_move")
    assert err.rule and err.message.startswith(err.rule)  # not in hand
    await service.act(tid, tokens[0], "6|6")
    err = await _refused(service, code, service.act(tid, tokens[1], "draw"), "illegal_move")
    assert err.rule == "R17"  # seat 1 holds 3|6, 4|6, 5|6: must place, may not draw


@pytest.mark.parametrize("text", ["", "7|7", "banana", "1|4@", "draw draw", "x" * 64])
async def test_garbage_notation_is_refused(service: TableService, text: str) -> None:
    code, tid, tokens = await seated(service, 2)
    m, _ = await current_match(service, code)
    err = await _refused(service, code, service.act(tid, tokens[m.turn], text), "bad_notation")
    assert err.rule is None and err.status == 400


@pytest.mark.parametrize(
    ("move", "move_id", "seq"),
    [
        (None, None, None),
        (5, None, None),
        ("draw", 7, None),
        ("draw", "", None),
        ("draw", "x" * 65, None),
        ("draw", None, "3"),
        ("draw", None, True),
        ("x" * 65, None, None),
    ],
)
async def test_wrong_field_types_are_bad_messages(
    service: TableService, move, move_id, seq
) -> None:  # type: ignore[no-untyped-def]
    code, tid, tokens = await seated(service, 2)
    await _refused(service, code, service.act(tid, tokens[0], move, move_id, seq), "bad_message")


async def test_stale_move_is_refused(service: TableService) -> None:
    code, tid, tokens = await seated(service, 2)
    m, table = await current_match(service, code)
    await _refused(
        service,
        code,
        service.act(tid, tokens[m.turn], str(m.legal_moves(m.turn)[0]), "s1", table.seq - 1),
        "stale",
    )


@pytest.mark.parametrize("token", [None, "", "not-a-token"])
async def test_wrong_or_missing_token_is_unauthorized(service: TableService, token) -> None:  # type: ignore[no-untyped-def]
    code, tid, _ = await seated(service, 2)
    m, _ = await current_match(service, code)
    await _refused(
        service, code, service.act(tid, token, str(m.legal_moves(m.turn)[0])), "unauthorized"
    )


async def test_token_of_another_table_is_unauthorized(service: TableService) -> None:
    code, tid, _ = await seated(service, 2)
    _, _, other_tokens = await seated(service, 2)
    m, _ = await current_match(service, code)
    await _refused(service, code, service.act(tid, other_tokens[m.turn], "draw"), "unauthorized")


async def test_move_before_start_is_not_started(service: TableService) -> None:
    created = await service.create("T", 2, True, "Ann")
    ident = await service.identify(created.code, None)
    with pytest.raises(TableError) as err:
        await service.act(ident.table_id, created.token, "1|4")
    assert err.value.code == "not_started"


async def test_retried_move_id_is_applied_at_most_once(service: TableService) -> None:
    code, tid, tokens = await seated(service, 2)
    m, table = await current_match(service, code)
    move = str(m.legal_moves(m.turn)[0])
    first = await service.act(tid, tokens[m.turn], move, "retry-me", table.seq)
    assert not first.duplicate and first.seq == table.seq + 1
    after = await _stored(service, code)
    again = await service.act(tid, tokens[m.turn], move, "retry-me", table.seq)
    assert again.duplicate and again.seq == first.seq
    assert await _stored(service, code) == after


async def test_only_legal_pass_is_played_automatically(service: TableService) -> None:
    code, tid, tokens = await seated(service, 4)
    await rig_deal(service_url(service), code, R02_HANDS, R02_STOCK, 0)
    await service.act(tid, tokens[0], "6|6")
    for _ in R02_STOCK:  # R18: seat 1 draws the whole stock, nothing fits
        await service.act(tid, tokens[1], "draw")
    m, table = await current_match(service, code)
    assert m.turn == 2  # R19: the pass was made for seat 1 by the server
    last = m.round.log[-1]
    assert last[0] == 1 and str(last[1]) == "pass"
    from .support import read_events

    if is_postgres(service_url(service)):
        events = read_events(service_url(service), code)
        assert events[table.seq]["payload"]["auto"] is True
        assert events[table.seq]["payload"]["kind"] == "pass"


async def test_two_tabs_sending_conflicting_moves_apply_exactly_one(service: TableService) -> None:
    code, tid, tokens = await seated(service, 2)
    m, table = await current_match(service, code)
    seat = m.turn
    a, b = (str(x) for x in m.legal_moves(seat)[:2])
    results = await asyncio.gather(
        service.act(tid, tokens[seat], a, "tab-a", table.seq),
        service.act(tid, tokens[seat], b, "tab-b", table.seq),
        return_exceptions=True,
    )
    ok = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, TableError)]
    assert len(ok) == 1 and len(refused) == 1
    assert refused[0].code in ("stale", "conflict")
    m2, table2 = await current_match(service, code)
    assert table2.seq == table.seq + 1 and len(m2.round.log) == 1


async def test_two_servers_on_one_database_apply_exactly_one(
    service: TableService, db_url: str
) -> None:
    """Two independent services (separate engines and locks, as two processes)."""
    other = TableService(make_store(Settings(database_url=db_url)), next_round_seconds=0)
    try:
        for _ in range(5):
            code, tid, tokens = await seated(service, 2)
            m, table = await current_match(service, code)
            seat = m.turn
            a, b = (str(x) for x in m.legal_moves(seat)[:2])
            results = await asyncio.gather(
                service.act(tid, tokens[seat], a, None, table.seq),
                other.act(tid, tokens[seat], b, None, table.seq),
                return_exceptions=True,
            )
            errors = [r for r in results if isinstance(r, BaseException)]
            assert len(errors) == 1, results
            assert isinstance(errors[0], TableError) and errors[0].code in ("stale", "conflict")
            m2, table2 = await current_match(service, code)
            assert table2.seq == table.seq + 1 and len(m2.round.log) == 1
    finally:
        await other.close()


def service_url(service: TableService) -> str:
    """The plain database URL a service is connected to."""
    store = service.store
    if isinstance(store, PgStore):
        return store.dsn
    assert isinstance(store, SqliteStore)
    return store.engine.url.render_as_string(hide_password=False).replace("+aiosqlite", "")


async def test_retry_that_would_still_be_legal_is_not_applied_twice(service: TableService) -> None:
    """A retried `draw` without seq would be legal again (R18): the move id stops it."""
    code, tid, tokens = await seated(service, 4)
    await rig_deal(service_url(service), code, R02_HANDS, R02_STOCK, 0)
    await service.act(tid, tokens[0], "6|6")
    first = await service.act(tid, tokens[1], "draw", "draw-1")
    after = await _stored(service, code)
    again = await service.act(tid, tokens[1], "draw", "draw-1")
    assert again.duplicate and again.seq == first.seq
    assert await _stored(service, code) == after
    m, _ = await current_match(service, code)
    assert m.round.stock_size == len(R02_STOCK) - 1

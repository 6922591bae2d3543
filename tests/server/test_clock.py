"""The turn clock and the autopilot through the table service, on PostgreSQL and SQLite
(docs/protocol.md, "Clock and autopilot"): the stored deadline and banks, an autopilot
move at the deadline (flagged, ``auto-<seq>``), the handover to the autopilot after N
turns in a row, the take-back by presence and by the player's own move, and the grace
of a disconnected seat at a table without a clock.

Clocks here are fractions of a second; the tests poll with generous deadlines and never
assert how long anything took."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from app.core.clock_presets import Presets
from app.core.settings import Settings
from app.db.rows import EventRecord, TableState
from app.engine import Match
from app.engine.views import legal_entries
from app.main import make_store
from app.tables.autopilot import AutopilotRules
from app.tables.bot_turns import TURN_GONE, BotSettings
from app.tables.errors import TableError
from app.tables.service import TableService

from .helpers import SetPresence, current_match, greedy_choice

#: seats connected as the test says (the hub's ``connected_seats``), and since when the
#: seats without a socket have had none (the hub's ``absent_since``)
Connected = dict[int, list[int]]
Absent = dict[tuple[int, int], float]


def _service(
    db_url: str,
    connected: Connected,
    absent: Absent,
    *,
    move_seconds: float = 0.3,
    handover: int = 2,
) -> TableService:
    return TableService(
        make_store(Settings(database_url=db_url)),
        next_round_seconds=0,
        bot_settings=BotSettings(delay_ms=(0, 0)),
        delivery=SetPresence(
            lambda tid: connected.get(tid, []), lambda tid, seat: absent.get((tid, seat))
        ),
        clocks=Presets(relaxed_move=move_seconds, fast_move=move_seconds, fast_bank=0.2),
        autopilot_rules=AutopilotRules(level="easy", handover_moves=handover, grace_seconds=0.3),
    )


@pytest.fixture
def presence() -> tuple[Connected, Absent]:
    return {}, {}


@pytest.fixture
async def clocked(db_url: str, presence: tuple[Connected, Absent]) -> AsyncIterator[TableService]:
    svc = _service(db_url, *presence)
    yield svc
    await svc.close()


async def _with_bot(svc: TableService, clock: str) -> tuple[str, int, str]:
    """Ann (seat 0, host) and an easy bot (seat 1), the match started."""
    created = await svc.create("Clock", 2, False, "Ann", clock)
    await svc.put_bot(created.code, created.token, 1, "easy")
    await svc.start(created.code, created.token)
    return created.code, await svc.table_id(created.code), created.token


async def _events(svc: TableService, table_id: int) -> list[EventRecord]:
    cu = await svc.store.catchup(table_id, 0, 10_000)
    assert cu is not None
    return cu.events


async def _until(
    svc: TableService, table_id: int, done: Callable[[list[EventRecord]], bool]
) -> list[EventRecord]:
    """Poll the stored events until ``done`` (generous deadline)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        events = await _events(svc, table_id)
        if done(events):
            return events
        await asyncio.sleep(0.05)
    raise AssertionError("the table never got there")


async def _turn_of(svc: TableService, code: str, seat: int) -> tuple[Match, TableState]:
    """Poll until ``seat`` is to move (generous deadline); the match and the columns."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        m, table = await current_match(svc, code)
        if m.turn == seat and not m.round_over:
            return m, table
        await asyncio.sleep(0.02)
    raise AssertionError(f"seat {seat} never got to move")


def _autopilot_events(events: list[EventRecord]) -> list[dict[str, Any]]:
    return [e.payload for e in events if e.kind == "autopilot"]


def _check_autopilot_moves(events: list[EventRecord], seat: int) -> int:
    """Every move of ``seat`` flagged ``autopilot`` is one ``auto-<seq before it>``; no
    other move carries the flag; returns how many."""
    count = 0
    for e in events:
        if e.kind != "move":
            continue
        if e.payload.get("autopilot"):
            assert e.payload["seat"] == seat and e.move_id == f"auto-{e.seq - 1}", e
            count += 1
        else:
            assert not (e.move_id or "").startswith("auto-")
    return count


async def test_a_clock_table_stores_the_deadline_of_the_seat_to_move(
    db_url: str, presence: tuple[Connected, Absent]
) -> None:
    svc = _service(db_url, *presence, move_seconds=600)  # nobody runs out here
    try:
        code, tid, token = await _with_bot(svc, "fast")
        info = await svc.info(code)
        assert info.clock.model_dump() == {
            "preset": "fast",
            "move_seconds": 600.0,
            "bank_seconds": 0.2,
            "grace_seconds": 60.0,
        }
        # Ann's turn (the bot plays at once when it starts): her deadline is stored
        await _until(svc, tid, lambda ev: True)
        await _turn_of(svc, code, 0)
        info = await svc.info(code)
        assert info.turn_deadline is not None and info.banks == [0.2, 0.2]
        left = datetime.fromisoformat(info.turn_deadline) - datetime.now(UTC)
        assert 0 < left.total_seconds() <= 600.2
        m, table = await current_match(svc, code)
        await svc.act(tid, token, greedy_choice(legal_entries(m, 0), random.Random(1)))
        m, table = await current_match(svc, code)
        assert table.banks is not None and table.banks[0] == 0.2  # moved within her time
        plain = await svc.create("Plain", 2, False, "Bo")
        assert plain.table.clock.preset == "none" and plain.table.turn_deadline is None
        assert plain.table.banks is None
    finally:
        await svc.close()


async def test_clock_expiry_autopilot_moves_then_handover_then_presence_takes_back(
    clocked: TableService, presence: tuple[Connected, Absent]
) -> None:
    connected, _ = presence
    svc = clocked
    code, tid, _token = await _with_bot(svc, "relaxed")
    events = await _until(svc, tid, lambda ev: bool(_autopilot_events(ev)))
    assert _autopilot_events(events) == [{"type": "autopilot", "seat": 0, "on": True}]
    assert _check_autopilot_moves(events, 0) >= 2  # two turns in a row (a draw is a move)
    info = await svc.info(code)
    assert info.seats[0].autopilot and not info.seats[1].autopilot
    # Ann's socket opens somewhere: the hub says so; the seat is hers again at once
    connected[tid] = [0]
    svc.presence_changed(tid)
    events = await _until(svc, tid, lambda ev: len(_autopilot_events(ev)) == 2)
    assert _autopilot_events(events)[-1] == {"type": "autopilot", "seat": 0, "on": False}
    info = await svc.info(code)
    assert not info.seats[0].autopilot
    _check_autopilot_moves(await _events(svc, tid), 0)


async def test_a_move_of_the_player_takes_the_seat_back_from_the_autopilot(
    clocked: TableService,
) -> None:
    svc = clocked
    code, tid, token = await _with_bot(svc, "relaxed")
    await _until(svc, tid, lambda ev: bool(_autopilot_events(ev)))
    # the autopilot now plays like a bot: give Ann time to answer on her turn
    svc.bot_turns.settings = BotSettings(delay_ms=(2000, 2000))
    rng = random.Random(4)
    for _ in range(20):
        m, table = await _turn_of(svc, code, 0)
        try:
            await svc.act(tid, token, greedy_choice(legal_entries(m, 0), rng), seq=table.seq)
            break
        except TableError as err:  # the autopilot was first after all: her next turn
            assert err.code == "stale", err
            await _turn_of(svc, code, 1)
    events = await _events(svc, tid)
    ons = _autopilot_events(events)
    assert ons[-1] == {"type": "autopilot", "seat": 0, "on": False}
    off = max(e.seq for e in events if e.kind == "autopilot")
    after = events[[e.seq for e in events].index(off) + 1]
    assert after.kind == "move" and after.payload["seat"] == 0
    assert not after.payload.get("autopilot")  # her own move, right after the take-back
    players = (await svc.store.load(tid) or (None, []))[1]
    ann = next(p for p in players if p.seat == 0)
    assert not ann.autopilot and ann.autopilot_moves == 0


async def test_a_disconnected_seat_at_a_table_without_a_clock_gets_the_autopilot_after_the_grace(
    clocked: TableService, presence: tuple[Connected, Absent]
) -> None:
    _connected, absent = presence
    svc = clocked
    # Bob stays (an empty table is not played: tests/server/test_empty_tables.py)
    created = await svc.create("Clock", 2, False, "Ann", "none")
    bob = await svc.join(created.code, "Bob", 1)
    await svc.start(created.code, created.token)
    code, tid = created.code, await svc.table_id(created.code)
    m, _ = await current_match(svc, code)
    while m.turn == 1:  # Bob moves first: he plays until it is Ann's turn
        await svc.act(tid, bob.token, greedy_choice(legal_entries(m, 1), random.Random(1)))
        m, _ = await current_match(svc, code)
    await _turn_of(svc, code, 0)
    before = await _events(svc, tid)
    assert (await svc.info(code)).turn_deadline is None
    await asyncio.sleep(0.6)  # twice the grace: connected, so nothing happens
    assert len(await _events(svc, tid)) == len(before)
    absent[(tid, 0)] = time.time()  # her last socket closed
    svc.presence_changed(tid)
    events = await _until(svc, tid, lambda ev: _check_autopilot_moves(ev, 0) >= 1)
    assert _check_autopilot_moves(events, 0) >= 1


async def test_two_services_playing_the_same_expiry_at_once_commit_one_autopilot_move(
    db_url: str, presence: tuple[Connected, Absent]
) -> None:
    """Two processes (two services on one database) both send the autopilot's move for
    the same expired deadline at the same moment: the version check (or the unique
    ``auto-<seq>`` id) lets one commit; the other is a no-op."""
    a, b = _service(db_url, *presence), _service(db_url, *presence)
    try:
        for svc in (a, b):  # their own timers stand aside: this test fires both by hand
            svc.bot_turns.rules = None
            svc.bot_turns.settings = BotSettings(delay_ms=(60_000, 60_000))
        created = await a.create("Twice", 2, False, "Ann", "relaxed")
        a.bot_turns.settings = BotSettings(delay_ms=(0, 0))
        await a.put_bot(created.code, created.token, 1, "easy")
        await a.start(created.code, created.token)
        tid = await a.table_id(created.code)
        m, table = await _turn_of(a, created.code, 0)
        assert table.turn_deadline is not None
        a.bot_turns.settings = BotSettings(delay_ms=(60_000, 60_000))
        while datetime.now(UTC) < table.turn_deadline:
            await asyncio.sleep(0.05)
        move = legal_entries(m, 0)[0]["move"]
        results = await asyncio.gather(
            *(svc.play_autopilot(tid, 0, move, f"auto-{table.seq}", table.seq) for svc in (a, b)),
            return_exceptions=True,
        )
        for r in results:  # the second is answered as a duplicate or refused as gone
            assert r is None or (isinstance(r, TableError) and r.code in TURN_GONE), r
        events = [e for e in await _events(a, tid) if e.seq > table.seq]
        assert events and events[0].move_id == f"auto-{table.seq}"
        assert sum(1 for e in events if e.kind == "move" and e.payload["seat"] == 0) == 1
        assert _check_autopilot_moves(await _events(a, tid), 0) == 1
    finally:
        await a.close()
        await b.close()


async def test_a_connected_but_idle_player_stays_on_autopilot_until_a_socket_opens_again(
    clocked: TableService, presence: tuple[Connected, Absent]
) -> None:
    connected, _ = presence
    svc = clocked
    created = await svc.create("Idle", 2, False, "Ann", "relaxed")
    tid = await svc.table_id(created.code)
    connected[tid] = [0]  # Ann's tab is open all along, she just does not play
    svc.presence_changed(tid)
    await svc.put_bot(created.code, created.token, 1, "easy")
    await svc.start(created.code, created.token)
    await _until(svc, tid, lambda ev: bool(_autopilot_events(ev)))
    svc.presence_changed(tid)  # e.g. a spectator came: Ann was connected already
    svc.bot_turns.settings = BotSettings(delay_ms=(300, 300))
    events = await _until(svc, tid, lambda ev: _check_autopilot_moves(ev, 0) >= 4)
    assert _autopilot_events(events) == [{"type": "autopilot", "seat": 0, "on": True}]
    connected[tid] = []  # her tab closes ...
    svc.presence_changed(tid)
    connected[tid] = [0]  # ... and opens again: she is back
    svc.presence_changed(tid)
    events = await _until(svc, tid, lambda ev: len(_autopilot_events(ev)) == 2)
    assert _autopilot_events(events)[-1] == {"type": "autopilot", "seat": 0, "on": False}


async def test_a_clock_table_is_remembered_while_in_play_and_forgotten_when_it_ends(
    clocked: TableService,
) -> None:
    """The tables a process looks at after another process's commits hold the clock
    tables in play, not every table it ever saw (a bounded set)."""
    code, table_id, token = await _with_bot(clocked, "relaxed")
    assert table_id in clocked.timed._timed
    await clocked.resign(code, token)  # the match ends (status finished)
    assert table_id not in clocked.timed._timed


async def test_the_notify_of_a_commit_made_here_starts_no_second_look_at_the_table(
    clocked: TableService, presence: tuple[Connected, Absent]
) -> None:
    """A clock table's commit is planned for (its deadline, the autopilot) when it is
    made; its NOTIFY, which comes back to the same process, does not run another table
    action. A commit announced without a seq of this process's (another process's, or
    a missed NOTIFY) does."""
    connected, _ = presence
    created = await clocked.create("Clock", 2, False, "Ann", "relaxed")
    await clocked.join(created.code, "Bob", 1)
    table_id = await clocked.table_id(created.code)
    connected[table_id] = [0, 1]  # both at the table: no autopilot
    await clocked.start(created.code, created.token)
    own_seq = clocked.timed._timed[table_id]
    assert own_seq >= 0
    remembered = clocked.writer._hot[table_id]
    await clocked.timed._look_again_after(table_id, own_seq)  # our own commit's NOTIFY
    assert clocked.writer._hot[table_id] is remembered  # no table action ran
    await clocked.timed._look_again_after(table_id, None)  # someone else's
    assert clocked.writer._hot[table_id] is not remembered  # the table was looked at

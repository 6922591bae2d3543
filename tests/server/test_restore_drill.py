"""A backup taken while people play restores whole (docs/deployment.md, "Backups and
restore"): ``pg_dump -Fc`` of a live database in the middle of 2-, 3- and 4-player
matches, restored by ``scripts/restore-drill`` into a fresh database, served again: every
table's state and every seat's view are the engine's projection of the restored events,
and play goes on from there. Real PostgreSQL, real pg_dump/pg_restore, real servers and
sockets."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from conftest import PG_ADMIN, create_pg_database, drop_pg_database

from app.core.urls import libpq_dsn
from app.db.migrate import migrate_to_head
from app.engine import view_for
from app.records.stored import match_from_events

from .helpers import greedy_choice
from .support import REPO, ServerProcess, WsClient, read_events, seat_table

DRILL = REPO / "scripts" / "restore-drill"
DESCRIPTIONS = ("description", "description_uk")


def _drill_module() -> ModuleType:
    """scripts/restore_drill.py, for its table check (the script is not a package)."""
    spec = importlib.util.spec_from_file_location(
        "restore_drill", DRILL.with_name("restore_drill.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


async def _seats(server: ServerProcess, code: str, tokens: list[str]) -> list[WsClient]:
    return [
        await WsClient(f"{server.ws}/ws/tables/{code}?token={t}", f"{code}/{i}").connect()
        for i, t in enumerate(tokens)
    ]


async def _mover(clients: list[WsClient]) -> WsClient | None:
    """The seat to move once every seat has seen the newest event (None: match over)."""
    while True:
        target = max(c.last_seq for c in clients)
        for c in clients:
            await c.wait_for(lambda c, t=target: c.last_seq >= t)
        view = clients[0].view
        assert view is not None
        if view["phase"] == "match_over":
            return None
        if view["phase"] == "playing":
            return clients[view["turn"]]
        # round over: the next deal comes at once (FIVEUP_NEXT_ROUND_SECONDS=0)
        await clients[0].wait_for(lambda c, t=target: c.last_seq > t)


async def _play(
    clients: list[WsClient], rng: random.Random, moves: int, until: asyncio.Event | None = None
) -> int:
    """Legal moves through the seats' sockets, each acknowledged: ``moves`` of them, and
    then on until ``until`` is set; returns how many were made."""
    made = 0
    while made < moves or (until is not None and not until.is_set()):
        mover = await _mover(clients)
        if mover is None:
            break
        assert mover.view is not None
        reply = await mover.request(
            {
                "type": "move",
                "move": greedy_choice(mover.view["legal"], rng),
                "move_id": uuid.uuid4().hex,
                "seq": mover.last_seq,
            },
            ("ack", "error"),
        )
        assert reply["type"] == "ack", reply
        made += 1
    return made


def _replayed(events: dict[int, dict[str, Any]], up_to: int) -> Any:
    match, _ = match_from_events(events[s]["payload"] for s in sorted(events) if s <= up_to)
    return match


def _strip(view: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if view is None else {k: v for k, v in view.items() if k not in DESCRIPTIONS}


def _drill(dump: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """scripts/restore-drill on ``dump``, with this test run's Python and PostgreSQL."""
    return subprocess.run(
        [str(DRILL), "--admin", PG_ADMIN, *args, str(dump)],
        capture_output=True,
        text=True,
        env={**os.environ, "FIVEUP_PYTHON": sys.executable},
        check=False,
    )


def _drill_check(url: str) -> subprocess.CompletedProcess[str]:
    """scripts/restore-drill --check: the tables of a database as it is, no restore."""
    return subprocess.run(
        [str(DRILL), "--check", url],
        capture_output=True,
        text=True,
        env={**os.environ, "FIVEUP_PYTHON": sys.executable},
        check=False,
    )


def _verdicts(report: str, code: str) -> list[str]:
    """The drill's verdicts (``OK``/``MISMATCH``) for one table, in report order."""
    return [line.split()[0] for line in report.splitlines() if line.split()[1:2] == [code]]


def _pg_dump(url: str, path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["pg_dump", "-Fc", "-f", str(path), libpq_dsn(url)],
        capture_output=True,
        text=True,
        check=False,
    )


async def test_a_dump_taken_during_play_restores_to_the_engines_truth_and_play_goes_on(
    tmp_path: Path,
) -> None:
    for tool in ("pg_dump", "pg_restore"):
        assert shutil.which(tool), f"{tool} is needed (Debian's postgresql-client)"
    source = create_pg_database("fiveup_restore_src")
    restored = f"{PG_ADMIN.rsplit('/', 1)[0]}/fiveup_restore_dst_{uuid.uuid4().hex[:8]}"
    live = ServerProcess(source)
    again = ServerProcess(restored)
    rng = random.Random(11)
    try:
        live.start()
        async with httpx.AsyncClient(base_url=live.http, timeout=20) as http:
            seated = [await seat_table(http, n) for n in (2, 3, 4)]
        tables = {code: (tokens, await _seats(live, code, tokens)) for code, tokens in seated}
        # every match partway, then the dump while all three tables keep playing
        await asyncio.gather(*(_play(c, rng, 4) for _, c in tables.values()))
        dumped = asyncio.Event()
        players = [asyncio.create_task(_play(c, rng, 0, dumped)) for _, c in tables.values()]
        await asyncio.sleep(0)  # (one turn of the loop: the first moves are on their way)
        dump = await asyncio.to_thread(_pg_dump, source, tmp_path / "fiveup.dump")
        running_at_the_end = sum(not p.done() for p in players)
        dumped.set()
        during = await asyncio.gather(*players)
        assert dump.returncode == 0, dump.stderr
        assert running_at_the_end == 3, "a table stopped playing before the dump ended"
        # and after the dump: moves the backup cannot have
        await asyncio.gather(*(_play(c, rng, 2) for _, c in tables.values()))
        for _, clients in tables.values():
            for c in clients:
                await c.close()
        live.stop()
        at_source = {code: read_events(source, code) for code in tables}

        kept = _drill(tmp_path / "fiveup.dump", "--into", restored.rsplit("/", 1)[1], "--keep")
        assert kept.returncode == 0, kept.stdout + kept.stderr
        for code in tables:
            assert _verdicts(kept.stdout, code) == ["OK"], kept.stdout
        assert "3 OK, 0 mismatch" in kept.stdout

        # the dump is one snapshot: each table's events are a prefix of the source's,
        # taken before the last moves, and its state is their replay
        for code, source_events in at_source.items():
            events = read_events(restored, code)
            assert events == {s: e for s, e in source_events.items() if s <= max(events)}
            assert max(events) < max(source_events), f"{code}: the dump was not mid-play"
        restored_seqs = {code: max(read_events(restored, code)) for code in tables}

        # the drill's own server (on a restore of its own, dropped after): what a
        # spectator is served is the projection too
        served = _drill(tmp_path / "fiveup.dump", "--serve")
        assert served.returncode == 0, served.stdout + served.stderr
        for code in tables:
            assert _verdicts(served.stdout, code) == ["OK", "OK"], served.stdout
        assert "6 OK, 0 mismatch" in served.stdout

        again.start()
        for code, (tokens, _) in tables.items():
            seats = await _seats(again, code, tokens)
            spectator = await WsClient(f"{again.ws}/ws/tables/{code}", f"{code}/spec").connect()
            events = read_events(restored, code)  # (read after the snapshots were sent)
            for who, c in [*enumerate(seats), (None, spectator)]:
                snapshot = next(f for f in c.frames if f["type"] == "snapshot")
                assert restored_seqs[code] <= snapshot["seq"] <= max(events)
                want = json.loads(json.dumps(view_for(_replayed(events, snapshot["seq"]), who)))
                assert _strip(snapshot["view"]) == _strip(want), (code, who)
            tables[code] = (tokens, seats)
            await spectator.close()
        # play goes on from the restored state: legal moves, each acknowledged
        after = await asyncio.gather(*(_play(c, rng, 3) for _, c in tables.values()))
        assert after == [3, 3, 3]
        for _, clients in tables.values():
            for c in clients:
                await c.close()
        assert [v.problem for v in _drill_module().check_database(restored)] == [None] * 3
        print(f"moves acknowledged while pg_dump ran: {during}")
    finally:
        live.stop()
        again.stop()
        drop_pg_database(source)
        drop_pg_database(restored)


@pytest.mark.parametrize("tampered", ["state", "events"])
def test_the_drill_reports_a_table_whose_state_is_not_its_events_replay(
    tmp_path: Path, tampered: str
) -> None:
    """A table whose stored state disagrees with its events is MISMATCH, exit 1."""
    import psycopg

    from app.fairness import DealIds, new_seed, start_match

    url = create_pg_database("fiveup_restore_bad")
    try:
        match = start_match(new_seed(), 2, DealIds("ABC123", 1, 1))
        state = match.to_dict()
        state.pop("history")
        deal = {
            "hands": state["round"]["hands"],
            "stock": state["round"]["stock"],
            "starter": state["round"]["starter"],
        }
        if tampered == "state":
            state["scores"] = [5, 0]
        with psycopg.connect(libpq_dsn(url)) as conn:
            (table_id,) = conn.execute(
                "INSERT INTO game_tables (code, name, players, public, status, version, seq,"
                " match_number, state, history, rematch_votes, ready, created_at, updated_at)"
                " VALUES ('ABC123', 't', 2, true, 'playing', 1, %s, 1, %s::jsonb, '[]'::jsonb,"
                " '[]'::jsonb, '[]'::jsonb, now(), now()) RETURNING id",
                (1 if tampered == "state" else 2, json.dumps(state)),
            ).fetchone()
            conn.execute(
                "INSERT INTO table_events (table_id, seq, kind, match_number, payload, created_at)"
                " VALUES (%s, 1, 'started', 1, %s::jsonb, now())",
                (table_id, json.dumps({"type": "started", "round": 1, "deal": deal})),
            )
        dump = _pg_dump(url, tmp_path / "bad.dump")
        assert dump.returncode == 0, dump.stderr
        drill = _drill(tmp_path / "bad.dump")
        assert drill.returncode == 1, drill.stdout + drill.stderr
        bad = next(line for line in drill.stdout.splitlines() if "ABC123" in line)
        assert bad.startswith("MISMATCH  ABC123")
        assert ("at scores" in bad) if tampered == "state" else ("1 events stored" in bad)
        assert "0 OK, 1 mismatch" in drill.stdout
        in_place = _drill_check(url)  # the same verdict on the database itself
        assert in_place.returncode == 1 and bad in in_place.stdout.splitlines()
    finally:
        drop_pg_database(url)


async def test_the_drill_restores_a_sqlite_file_copied_while_its_server_plays(
    tmp_path: Path,
) -> None:
    """SQLite: the drill copies the live file with the online backup API while moves
    are made, and every table of the copy is its events' replay."""
    url = f"sqlite:///{tmp_path / 'fiveup.db'}"
    migrate_to_head(url)
    live = ServerProcess(url).start()
    rng = random.Random(5)
    try:
        async with httpx.AsyncClient(base_url=live.http, timeout=20) as http:
            seated = [await seat_table(http, n) for n in (2, 4)]
        tables = [await _seats(live, code, tokens) for code, tokens in seated]
        await asyncio.gather(*(_play(c, rng, 3) for c in tables))
        copied = asyncio.Event()
        players = [asyncio.create_task(_play(c, rng, 0, copied)) for c in tables]
        await asyncio.sleep(0)
        drill = await asyncio.to_thread(_drill, tmp_path / "fiveup.db")
        copied.set()
        await asyncio.gather(*players)
        for clients in tables:
            for c in clients:
                await c.close()
    finally:
        live.stop()
    assert drill.returncode == 0, drill.stdout + drill.stderr
    assert "(sqlite)" in drill.stdout
    for code, _ in seated:
        assert _verdicts(drill.stdout, code) == ["OK"], drill.stdout

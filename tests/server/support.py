"""Test support: real uvicorn servers in subprocesses, a recording WebSocket client, and
helpers to seat tables and rig a deal. No mocks: everything talks to the real app."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

import httpx
import psycopg
import websockets

from app.core.urls import libpq_dsn
from app.engine import Match

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``uvicorn app.main:create_app`` on 127.0.0.1:<port> in a subprocess."""

    def __init__(self, database_url: str, port: int | None = None, **env: str) -> None:
        self.database_url = database_url
        self.port = port or free_port()
        self.env = {
            "FIVEUP_NEXT_ROUND_SECONDS": "0",
            "FIVEUP_LOG_LEVEL": "WARNING",
            "FIVEUP_RATE_LIMIT_ENABLED": "false",
            # a few writers: scripts/test runs two passes side by side, and PostgreSQL's
            # 100 connections are shared by every server they start
            "FIVEUP_DB_WRITERS": "4",
            **env,
        }
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"fiveup-test-{self.port}.log"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        """The server's command line (run in the repository, with ``self.env``)."""
        return [
            sys.executable,
            "-m",
            "uvicorn",
            "app.main:create_app",
            "--factory",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--ws-max-size",
            "16384",
            "--log-level",
            "warning",
        ]

    def start(self) -> Self:
        """Start :meth:`command` and wait until ``/healthz`` answers (90 s at most)."""
        env = {**os.environ, **self.env, "DATABASE_URL": self.database_url}
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            self.command(), cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_text()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.http}/healthz", timeout=1).status_code == 200:
                    return self
            time.sleep(0.1)
        raise RuntimeError("server did not become healthy")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, nothing graceful."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """SIGTERM, and the time a drain may take (``FIVEUP_DRAIN_SECONDS``, 10 s by
        default) and more before SIGKILL: a killed server leaves its computer players'
        process pool's semaphores to the resource tracker, which says so in the log."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


class WsClient:
    """A recording WebSocket client: every frame is kept, in order, for oracles."""

    def __init__(self, url: str, label: str = "") -> None:
        self.url = url
        self.label = label
        self.frames: list[dict[str, Any]] = []
        self.last_seq = -1
        self.view: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.conn: websockets.ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._changed = asyncio.Condition()
        self.closed: tuple[int | None, str] | None = None
        self.gaps: list[tuple[int, int]] = []  # (last seq, next event seq) when not +1

    async def connect(self) -> WsClient:
        self.conn = await websockets.connect(self.url, max_size=2**24)
        self.closed = None
        self._reader = asyncio.create_task(self._read())
        await self.wait_for(lambda c: c.last_seq >= 0 or c.closed is not None)
        return self

    async def _read(self) -> None:
        assert self.conn is not None
        try:
            async for raw in self.conn:
                frame = json.loads(raw)
                self.frames.append(frame)
                if frame["type"] == "snapshot":
                    self.last_seq = frame["seq"]
                    self.view, self.table = frame["view"], frame["table"]
                elif frame["type"] == "event":
                    if frame["seq"] != self.last_seq + 1:
                        self.gaps.append((self.last_seq, frame["seq"]))
                    self.last_seq = frame["seq"]
                    if "view" in frame:
                        self.view = frame["view"]
                    elif "view_patch" in frame:
                        assert self.view is not None, f"{self.label}: a patch without a view"
                        self.view = apply_patch(self.view, frame["view_patch"])
                    if "table_patch" in frame:
                        assert self.table is not None
                        self.table = apply_patch(self.table, frame["table_patch"])
                async with self._changed:
                    self._changed.notify_all()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = (self.conn.close_code, self.conn.close_reason or "")
            async with self._changed:
                self._changed.notify_all()

    async def wait_for(self, pred: Callable[[WsClient], bool], timeout: float = 30) -> None:
        """Wait until ``pred(self)``; fails at once if a seq gap was ever seen."""
        async with asyncio.timeout(timeout):
            async with self._changed:
                await self._changed.wait_for(lambda: bool(self.gaps) or pred(self))
        assert not self.gaps, f"{self.label}: seq gaps {self.gaps}"

    async def send(self, obj: Any) -> None:
        assert self.conn is not None
        await self.conn.send(obj if isinstance(obj, str | bytes) else json.dumps(obj))

    async def request(
        self, obj: dict[str, Any], types: tuple[str, ...], timeout: float = 20
    ) -> dict[str, Any]:
        """Send a frame and return the next frame of one of ``types`` received after it."""
        start = len(self.frames)
        await self.send(obj)
        await self.wait_for(
            lambda c: any(f["type"] in types for f in c.frames[start:]) or c.closed is not None,
            timeout,
        )
        return next(f for f in self.frames[start:] if f["type"] in types)

    async def close(self) -> None:
        if self.conn is not None:
            await self.conn.close()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await self._reader


def apply_patch(obj: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """Apply an event frame's patch as docs/protocol.md describes it (written from the
    doc, independently of the server's code): replace each ``set`` path, then extend each
    ``append`` list; paths are dotted."""
    out = json.loads(json.dumps(obj))

    def walk(path: str) -> tuple[dict[str, Any], str]:
        *parents, key = path.split(".")
        node = out
        for p in parents:
            node = node[p]
        return node, key

    for path, value in patch.get("set", {}).items():
        node, key = walk(path)
        node[key] = value
    for path, items in patch.get("append", {}).items():
        node, key = walk(path)
        node[key] = node[key] + items
    return out


async def seat_table(
    http: httpx.AsyncClient, players: int, public: bool = True, start: bool = True
) -> tuple[str, list[str]]:
    """Create a table, fill every seat over HTTP, optionally start. Returns (code, tokens)."""
    r = await http.post(
        "/api/tables",
        json={"name": f"t{players}", "players": players, "public": public, "host_name": "Host"},
    )
    assert r.status_code == 201, r.text
    code, tokens = r.json()["code"], [r.json()["token"]]
    for seat in range(1, players):
        r = await http.post(f"/api/tables/{code}/join", json={"name": f"P{seat}", "seat": seat})
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    if start:
        r = await http.post(
            f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {tokens[0]}"}
        )
        assert r.status_code == 200, r.text
    return code, tokens


def read_events(database_url: str, code: str) -> dict[int, dict[str, Any]]:
    """Every stored event row of a table: seq -> {kind, payload, move_id}."""
    with psycopg.connect(libpq_dsn(database_url)) as conn:
        rows = conn.execute(
            "SELECT e.seq, e.kind, e.payload, e.move_id FROM table_events e "
            "JOIN game_tables t ON t.id = e.table_id WHERE t.code = %s ORDER BY e.seq",
            (code,),
        ).fetchall()
    return {r[0]: {"kind": r[1], "payload": r[2], "move_id": r[3]} for r in rows}


def replay_states(events: dict[int, dict[str, Any]]) -> dict[int, dict[str, Any] | None]:
    """The true match state after every seq, replayed through the engine from the stored
    events alone: each deal is stored with its event (``deal``: hands, stock order,
    starter), every move (automatic passes too) with its seat and notation."""
    states: dict[int, dict[str, Any] | None] = {}
    match: Match | None = None
    for seq in sorted(events):
        payload = events[seq]["payload"]
        kind = payload.get("type")
        if kind in ("started", "rematch_started"):
            deal = payload["deal"]
            match = Match.from_deal(deal["hands"], deal["stock"], deal["starter"])
        elif kind == "round_started":
            assert match is not None
            deal = payload["deal"]
            match.next_round_from_deal(
                deal["hands"],
                deal["stock"],
                None if match.round.result == "domino" else deal["starter"],
            )
        elif kind == "move":
            assert match is not None
            match.play(payload["seat"], payload["move"])
        elif kind == "resigned":  # the match ends by a resignation
            assert match is not None
            assert match.resign(payload["seat"]) == payload
        states[seq] = match.to_dict() if match is not None else None
    return states


def read_state(database_url: str, code: str) -> dict[str, Any]:
    """A table's stored match state (server-side truth)."""
    with psycopg.connect(libpq_dsn(database_url)) as conn:
        row = conn.execute("SELECT state FROM game_tables WHERE code = %s", (code,)).fetchone()
    assert row is not None and row[0] is not None
    return dict(row[0])


async def rig_deal(
    service_or_url: Any, code: str, hands: list[list[str]], stock: list[str], starter: int
) -> None:
    """Replace the current round of a started table with an explicit deal (test setup):
    the table's snapshot, with a version bump, as a write by another process would."""
    state = Match.from_deal(hands, stock, starter).to_dict()
    deal = {"hands": hands, "stock": stock, "starter": starter}
    url = service_or_url
    if url.startswith("sqlite"):
        import sqlite3

        path = url.split("///", 1)[1]
        conn = sqlite3.connect(path)
        with conn:
            conn.execute(
                "UPDATE game_tables SET state=?, version=version+1 WHERE code=?",
                (json.dumps(state), code),
            )
            conn.execute(
                _RIG_EVENT.format(set="json_set(payload, '$.deal', json(?))", code="?"),
                (json.dumps(deal), code),
            )
        conn.close()
        return
    with psycopg.connect(libpq_dsn(url)) as conn:
        conn.execute(
            "UPDATE game_tables SET state=%s, version=version+1 WHERE code=%s",
            (json.dumps(state), code),
        )
        conn.execute(
            _RIG_EVENT.format(set="jsonb_set(payload, '{deal}', %s::jsonb)", code="%s"),
            (json.dumps(deal), code),
        )


#: the newest deal event of a table gets the rigged deal, so replays agree with the state
_RIG_EVENT = (
    "UPDATE table_events SET payload = {set}"
    " WHERE table_id = (SELECT id FROM game_tables WHERE code = {code}) AND seq = (SELECT max(seq)"
    " FROM table_events e WHERE e.table_id = table_events.table_id AND e.kind IN"
    " ('started', 'round_started', 'rematch_started'))"
)

"""Interfaces: health, OpenAPI, the served client, the lobby over HTTP, the ``fiveup``
console script (migrate, serve) and the module doctests of the server packages."""

from __future__ import annotations

import doctest
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psycopg
import pytest
from httpx import ASGITransport

import app.core.security
import app.core.urls
from app.core.settings import Settings
from app.main import create_app

from .support import REPO, ServerProcess, WsClient, free_port, seat_table


async def test_healthz_is_ok_when_the_database_answers(http: httpx.AsyncClient) -> None:
    r = await http.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}


async def test_healthz_is_503_when_the_database_is_unreachable(tmp_path: Path) -> None:
    settings = Settings(
        database_url=f"postgresql://nobody@127.0.0.1:{free_port()}/none",
        next_round_seconds=0,
        static_dir=tmp_path,
    )
    application = create_app(settings)
    async with application.router.lifespan_context(application):
        transport = ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            r = await client.get("/healthz")
            assert r.status_code == 503 and r.json() == {"status": "unavailable"}
            # (the open lobby lists only tables a person is at: with nobody connected it
            # needs no database, so the finished list and a look-up are asked here)
            for path in ("/api/tables?status=finished", "/api/tables/ABCDEF"):
                r = await client.get(path)
                assert r.status_code == 503, path  # a clean refusal, not a 500


async def test_openapi_and_docs_are_served(http: httpx.AsyncClient) -> None:
    spec = (await http.get("/openapi.json")).json()
    for path in (
        "/api/tables",
        "/api/tables/{code}",
        "/api/tables/{code}/join",
        "/api/tables/{code}/start",
        "/api/tables/{code}/history",
        "/healthz",
        "/livez",
        "/readyz",
    ):
        assert path in spec["paths"]
    assert "503" in spec["paths"]["/readyz"]["get"]["responses"]
    assert (await http.get("/docs")).status_code == 200


async def test_client_is_served_at_root_and_invite_links(http: httpx.AsyncClient) -> None:
    for path in ("/", "/t/ABCDEF"):
        r = await http.get(path)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]


async def test_lobby_lists_public_tables_with_seats_and_scores(
    live: ServerProcess, http: httpx.AsyncClient
) -> None:
    code, tokens = await seat_table(http, 4)
    private, private_tokens = await seat_table(http, 2, public=False, start=False)
    hosts = [  # a person at each (the lobby lists only tables with one)
        await WsClient(f"{live.ws}/ws/tables/{c}?token={t[0]}", c).connect()
        for c, t in ((code, tokens), (private, private_tokens))
    ]
    lobby = {t["code"]: t for t in (await http.get("/api/tables")).json()["tables"]}
    for host in hosts:
        await host.close()
    assert private not in lobby
    entry = lobby[code]
    assert entry["status"] == "playing" and entry["seats_taken"] == 4
    assert entry["scores"] == [0, 0] and entry["round"] == 1
    info = (await http.get(f"/api/tables/{code.lower()}")).json()
    assert [s["side"] for s in info["seats"]] == [0, 1, 0, 1]


async def test_history_over_http_is_projected(http: httpx.AsyncClient) -> None:
    code, tokens = await seat_table(http, 2)
    mine = await http.get(
        f"/api/tables/{code}/history", headers={"Authorization": f"Bearer {tokens[1]}"}
    )
    assert mine.status_code == 200 and mine.json()["you"] == 1
    spectator = await http.get(f"/api/tables/{code}/history")
    assert spectator.json()["you"] is None and spectator.json()["rounds"][0]["moves"] == []


def test_fiveup_migrate_creates_the_schema_on_postgres_with_room_for_row_updates() -> None:
    admin = os.environ.get("FIVEUP_TEST_PG_ADMIN", "postgresql://postgres@127.0.0.1:5432/postgres")
    name = f"fiveup_cli_{secrets.token_hex(4)}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    fresh = admin.rsplit("/", 1)[0] + "/" + name
    try:
        out = subprocess.run(
            [sys.executable, "-m", "app.cli", "migrate"],
            cwd=REPO,
            env={**os.environ, "DATABASE_URL": fresh.replace("postgresql", "postgres", 1)},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert out.returncode == 0, out.stderr
        with psycopg.connect(fresh) as conn:
            tables = {
                r[0]
                for r in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname='public'")
            }
            options = conn.execute(
                "SELECT reloptions FROM pg_class WHERE relname = 'game_tables'"
            ).fetchone()
        assert {"game_tables", "players", "table_events", "alembic_version"} <= tables
        # every commit rewrites its table's row: room on the page keeps it a HOT update
        assert options is not None and "fillfactor=50" in (options[0] or [])
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_fiveup_serve_defaults_to_sqlite_in_the_cwd_and_hides_tokens(tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["FIVEUP_NEXT_ROUND_SECONDS"] = "0"
    env["PYTHONPATH"] = str(REPO)  # this checkout's app, whatever the venv has installed
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--port", str(port)],
            cwd=tmp_path,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        else:
            pytest.fail(log.read_text())
        assert (tmp_path / "fiveup.db").exists()
        server = ServerProcess("sqlite:///unused", port=port)
        import asyncio

        async def play() -> str:
            async with httpx.AsyncClient(base_url=server.http) as http:
                code, tokens = await seat_table(http, 2)
            c = await WsClient(f"{server.ws}/ws/tables/{code}?token={tokens[0]}").connect()
            assert c.frames[0]["you"] == 0
            await c.close()
            return tokens[0]

        token = asyncio.run(play())
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
    assert token not in log.read_text()


@pytest.mark.parametrize("module", [app.core.urls, app.core.security])
def test_module_doctests(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.failed == 0 and result.attempted > 0


async def test_a_burst_of_requests_queues_instead_of_failing(http: httpx.AsyncClient) -> None:
    """More concurrent requests than database connections: all answered, no 5xx."""
    import asyncio

    body = {"name": "burst", "players": 2, "public": False, "host_name": "B"}
    replies = await asyncio.gather(*(http.post("/api/tables", json=body) for _ in range(80)))
    assert [r.status_code for r in replies] == [201] * 80
    codes = [r.json()["code"] for r in replies]
    assert len(set(codes)) == 80
    joins = await asyncio.gather(
        *(http.post(f"/api/tables/{c}/join", json={"name": "J", "seat": 1}) for c in codes)
    )
    assert all(r.status_code == 200 for r in joins)

"""``/metrics`` (docs/monitoring.md) on real servers: absent unless configured, behind a
bearer token on the main port, parsed with prometheus-client's own parser, counting
what was really played — and, under ``fiveup serve --workers 2``, the sum of both
workers; no label ever takes a table's code, a token or a player's name."""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import create_pg_database, drop_pg_database
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.parser import text_string_to_metric_families

from .support import ServerProcess, WsClient, seat_table

TOKEN = "metrics-test-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(server: ServerProcess) -> Samples:
    """Every sample of the server's ``/metrics``, parsed by prometheus-client."""
    r = httpx.get(f"{server.http}/metrics", headers=AUTH, timeout=10)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(r.text)
        for s in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels``."""
    want = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and want <= ls)


def _url(server: ServerProcess, code: str, token: str | None = None) -> str:
    return f"{server.ws}/ws/tables/{code}" + (f"?token={token}" if token else "")


@pytest.fixture(scope="module")
def metered(pg_url: str) -> Iterator[ServerProcess]:
    """A real server with ``FIVEUP_METRICS_TOKEN`` set (computer players at once)."""
    server = ServerProcess(pg_url, FIVEUP_METRICS_TOKEN=TOKEN, FIVEUP_BOT_DELAY_MS="0").start()
    yield server
    server.stop()


async def play_moves(server: ServerProcess, moves: int) -> tuple[list[WsClient], WsClient]:
    """A two-seat table with both seats' sockets and a spectator's open, ``moves``
    moves played (each acknowledged) and one refused (``not_your_turn``)."""
    async with httpx.AsyncClient(base_url=server.http, timeout=20) as http:
        code, tokens = await seat_table(http, 2)
    seats = [await WsClient(_url(server, code, t)).connect() for t in tokens]
    spectator = await WsClient(_url(server, code)).connect()
    for n in range(moves):
        mover = next(c for c in seats if c.view and c.view["legal"])
        frame = {"type": "move", "move": mover.view["legal"][0]["move"]}  # type: ignore[index]
        ack = await mover.request(
            frame | {"move_id": f"m{n}", "seq": mover.last_seq}, ("ack", "error")
        )
        assert ack["type"] == "ack", ack
        for c in [*seats, spectator]:
            await c.wait_for(lambda c, seq=ack["seq"]: c.last_seq >= seq)
    mover = next(c for c in seats if c.view and c.view["legal"])
    waiting = next(c for c in seats if c is not mover)
    theirs = mover.view["legal"][0]["move"]  # type: ignore[index]
    refused = await waiting.request({"type": "move", "move": theirs}, ("error",))
    assert refused["code"] == "not_your_turn"
    return seats, spectator


def test_metrics_are_absent_by_default(live: ServerProcess) -> None:
    assert httpx.get(f"{live.http}/metrics", headers=AUTH).status_code == 404
    assert "/metrics" not in httpx.get(f"{live.http}/openapi.json").json()["paths"]


def test_metrics_without_the_bearer_token_are_refused_401(metered: ServerProcess) -> None:
    for headers in (
        {},
        {"Authorization": "Bearer wrong-token-0123456789"},
        {"Authorization": TOKEN},
    ):
        r = httpx.get(f"{metered.http}/metrics", headers=headers)
        assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
        assert r.json()["detail"]["code"] == "unauthorized"
        assert "fiveup_" not in r.text
    assert "/metrics" not in httpx.get(f"{metered.http}/openapi.json").json()["paths"]


async def test_metrics_show_the_moves_commits_and_sockets_of_a_played_table(
    metered: ServerProcess,
) -> None:
    before = scrape(metered)
    seats, spectator = await play_moves(metered, 4)
    after = scrape(metered)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("fiveup_moves_total", source="person", result="accepted") == 4
    assert grew("fiveup_moves_total", source="person", result="not_your_turn") == 1
    assert grew("fiveup_move_commit_seconds_count", source="person") == 4
    assert grew("fiveup_move_commit_seconds_bucket", source="person", le="+Inf") == 4
    assert value(after, "fiveup_websockets_open", role="seat") >= 2
    assert value(after, "fiveup_websockets_open", role="spectator") >= 1
    assert grew("fiveup_websockets_opened_total", role="seat") == 2
    assert grew("fiveup_websocket_frames_sent_total") >= 3 * 4  # an event per socket per move
    assert grew("fiveup_websocket_sent_bytes_total") > grew("fiveup_websocket_frames_sent_total")
    assert grew("fiveup_db_group_commit_changes_count") >= 4
    assert grew("fiveup_http_requests_total", route="/api/tables/{code}/join", status="200") == 1
    assert grew("fiveup_http_requests_total", route="/api/tables", method="POST") == 1
    assert value(after, "fiveup_db_unreachable") == 0
    assert value(after, "fiveup_db_connections_max") > 0

    for c in [*seats, spectator]:
        await c.close()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        closed = scrape(metered)
        if value(closed, "fiveup_websockets_open") == value(before, "fiveup_websockets_open"):
            break
        time.sleep(0.1)
    assert value(closed, "fiveup_websockets_open") == value(before, "fiveup_websockets_open")


async def test_metric_labels_stay_bounded_however_many_tables_are_played(
    metered: ServerProcess,
) -> None:
    """The series after 12 more tables are the series after 6: no label takes a code, a
    token, a name or a raw path, so tables, players and look-ups add none."""
    codes: list[str] = []
    secrets: list[str] = []

    async def tables(n: int) -> None:
        async with httpx.AsyncClient(base_url=metered.http, timeout=20) as http:
            for i in range(n):
                code, tokens = await seat_table(http, 2)
                codes.append(code)
                secrets.extend(tokens)
                await http.get(f"/api/tables/{code}")
                await http.get(f"/t/{code}")
                await http.get(f"/api/tables/NO{i:04d}")  # not found
                await http.get(f"/no/such/page/{code}")  # unmatched
                await http.post(f"/api/tables/{code}/join", json={"name": f"Late{i}"})  # full
        seats, spectator = await play_moves(metered, 2)
        for c in [*seats, spectator]:
            await c.close()

    def kinds(series: set[Any]) -> set[tuple[str, frozenset[str]]]:
        """Each series' metric and label names (its values left out)."""
        return {(name, frozenset(k for k, _ in ls)) for name, ls in series}

    def routes_of(series: set[Any]) -> set[str]:
        return {v for _, ls in series for k, v in ls if k == "route"}

    await tables(6)
    first = set(scrape(metered))
    await tables(12)
    second = set(scrape(metered))
    # no new kind of series and no new route; a bounded label may show a value it had
    # not shown yet (an earlier table's clock running out: result/source "autopilot")
    assert kinds(second) == kinds(first), sorted(kinds(second) - kinds(first))
    assert routes_of(second) == routes_of(first), sorted(routes_of(second) - routes_of(first))
    grown = {(name, ls) for name, ls in second - first}
    assert len(grown) <= 40, sorted(grown)  # (one histogram of a new bounded value: 15)
    labels = {v for _, ls in second for _, v in ls}
    for secret in codes + secrets + ["Host", "P1", "Late3"]:
        assert all(secret not in v for v in labels), secret
    routes = {v for _, ls in second for k, v in ls if k == "route"}
    assert all(r == "unmatched" or r.startswith("/") for r in routes), routes
    assert len(second) < 2000


class ServedWorkers(ServerProcess):
    """``fiveup serve --workers N`` (the command line, with its multiprocess directory
    made under ``PROMETHEUS_MULTIPROC_DIR``, here a test's folder)."""

    workers = 2

    def command(self) -> list[str]:
        return [
            *(sys.executable, "-m", "app.cli", "serve", "--port", str(self.port)),
            *("--workers", str(self.workers)),
        ]


def _worker_files(root: Path) -> dict[int, list[str]]:
    """The per-process files of the run's multiprocess directory, by process."""
    run = next(root.glob("fiveup-metrics-*"))
    by_pid: dict[int, list[str]] = {}
    for f in run.glob("*.db"):
        by_pid.setdefault(int(f.stem.rsplit("_", 1)[1]), []).append(str(f))
    return by_pid


def _live_worker_files(root: Path) -> dict[int, list[str]]:
    """The per-process files of the processes still running."""
    return {pid: files for pid, files in _worker_files(root).items() if _running(pid)}


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _http_count(files: list[str]) -> float:
    return sum(
        s.value
        for metric in MultiProcessCollector.merge(files)
        for s in metric.samples
        if s.name == "fiveup_http_requests_total" and s.labels.get("route") == "/api/tables"
    )


@pytest.fixture
def own_pg_url() -> Iterator[str]:
    """A database of the test's own: a new worker resumes every table's pending bot
    turns and timers, and the session's database holds other tests' tables."""
    url = create_pg_database("fiveup_workers")
    try:
        yield url
    finally:
        drop_pg_database(url)


async def test_metrics_of_two_workers_are_summed_and_a_killed_worker_stops_counting(
    own_pg_url: str, tmp_path: Path
) -> None:
    server = ServedWorkers(
        own_pg_url,
        FIVEUP_METRICS_TOKEN=TOKEN,
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path),
        FIVEUP_DB_WRITERS="5",
    ).start()
    try:
        deadline = time.monotonic() + 60
        requests = 0
        while time.monotonic() < deadline:  # fresh connections, until both workers served
            for _ in range(10):
                assert httpx.get(f"{server.http}/api/tables").status_code == 200
                requests += 1
            files = _live_worker_files(tmp_path)
            if len(files) == 2 and all(_http_count(f) > 0 for f in files.values()):
                break
        live_shares = [_http_count(f) for f in _live_worker_files(tmp_path).values()]
        assert len(live_shares) == 2 and all(share > 0 for share in live_shares)
        # (a worker uvicorn replaced while the machine was slow to start it keeps its
        # files, and what it counted is still summed)
        shares = [_http_count(f) for f in _worker_files(tmp_path).values()]
        samples = scrape(server)
        assert value(samples, "fiveup_http_requests_total", route="/api/tables") == requests
        assert sum(shares) == requests
        assert value(samples, "fiveup_db_connections_max") == 2 * 5  # a live gauge: summed

        await play_moves(server, 3)  # the other worker hears each commit's NOTIFY
        lag = 0.0
        while lag < 3 and time.monotonic() < deadline + 30:
            samples = scrape(server)
            lag = value(samples, "fiveup_notify_lag_seconds_count")
            time.sleep(0.1)
        assert lag >= 3
        assert value(samples, "fiveup_moves_total", result="accepted") == 3

        victim = max(_worker_files(tmp_path))
        os.kill(victim, signal.SIGKILL)  # uvicorn starts another; the reaper marks it dead
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            files = _worker_files(tmp_path)
            live = [p for p in files if p != victim and any("livesum" in f for f in files[p])]
            if len(live) == 2 and not any("livesum" in f for f in files.get(victim, [])):
                break
            time.sleep(0.2)
        while time.monotonic() < deadline:  # until the new worker's store is made
            samples = scrape(server)
            if value(samples, "fiveup_db_connections_max") >= 2 * 5:
                break
            time.sleep(0.2)
        time.sleep(3 * 2.0)  # the reaper's look, a few times over
        samples = scrape(server)
        assert value(samples, "fiveup_db_connections_max") == 2 * 5  # not 3 * 5
        assert value(samples, "fiveup_moves_total", result="accepted") == 3  # counters stay
    finally:
        server.stop()
    assert list(tmp_path.glob("fiveup-metrics-*")) == []  # the run's directory is removed

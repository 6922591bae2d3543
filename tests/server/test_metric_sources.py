"""The metrics of the parts a plain two-person game does not reach (docs/monitoring.md),
on a real server with its own database: a computer player's and the autopilot's moves
and thinking time, a client's resync, a quota's refusal, a database outage seen and
its end — and the cyclic collector's pauses, in a process of their own. The tests poll
with generous deadlines and never assert how long anything took."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator

import httpx
import pytest
from conftest import create_pg_database, drop_pg_database
from prometheus_client.parser import text_string_to_metric_families

from .helpers import greedy_choice
from .support import REPO, ServerProcess, WsClient
from .test_metrics import TOKEN, Samples, scrape, value
from .test_outages import cut_off


@pytest.fixture(scope="module")
def watched() -> Iterator[ServerProcess]:
    """A metered server on a database of its own (cut off by the outage test), with
    bots at once, one-second relaxed clocks and a tight look-up quota."""
    url = create_pg_database("fiveup_metrics")
    server = ServerProcess(
        url,
        FIVEUP_METRICS_TOKEN=TOKEN,
        FIVEUP_BOT_DELAY_MS="0",
        FIVEUP_CLOCK_RELAXED_MOVE_SECONDS="1",
        FIVEUP_AUTOPILOT_LEVEL="easy",
        FIVEUP_RATE_LIMIT_ENABLED="true",
        FIVEUP_RATE_LIMIT_LOOKUP_MISS="2/minute",
    ).start()
    try:
        yield server
    finally:
        server.stop()
        cut_off(url, allow_again=True)
        drop_pg_database(url)


def _socket(server: ServerProcess, code: str, token: str) -> WsClient:
    return WsClient(f"{server.ws}/ws/tables/{code}?token={token}")


async def _play_until(
    server: ServerProcess, me: WsClient, done: str, deadline: float, **labels: str
) -> Samples:
    """``me`` plays each of its turns until ``done`` with ``labels`` is counted."""
    rng = random.Random(5)
    while time.monotonic() < deadline:
        samples = scrape(server)
        if value(samples, done, **labels) >= 1:
            return samples
        if me.view is not None and me.view["legal"] and me.view["phase"] != "match_over":
            reply = await me.request(
                {
                    "type": "move",
                    "move": greedy_choice(me.view["legal"], rng),
                    "move_id": uuid.uuid4().hex,
                    "seq": me.last_seq,
                },
                ("ack", "error"),
            )
            assert reply["type"] in ("ack", "error"), reply
        else:
            await me.wait_for(lambda c, seq=me.last_seq: c.last_seq > seq, timeout=30)
    raise AssertionError(f"{done} {labels} was never counted")


async def test_a_computer_players_moves_and_thinking_are_counted(
    watched: ServerProcess,
) -> None:
    async with httpx.AsyncClient(base_url=watched.http, timeout=20) as http:
        r = await http.post("/api/practice", json={"players": 2, "level": "easy", "name": "S"})
    assert r.status_code == 201, r.text
    me = await _socket(watched, r.json()["code"], r.json()["token"]).connect()
    try:
        samples = await _play_until(
            watched,
            me,
            "fiveup_moves_total",
            time.monotonic() + 60,
            source="bot",
            result="accepted",
        )
    finally:
        await me.close()
    assert value(samples, "fiveup_bot_decision_seconds_count", level="easy") >= 1
    assert value(samples, "fiveup_bot_decision_seconds_bucket", level="easy", le="+Inf") >= 1


async def test_the_autopilots_moves_are_counted_apart_from_a_persons(
    watched: ServerProcess,
) -> None:
    """Seat 1 never connects; its one-second clock runs out and the autopilot moves."""
    async with httpx.AsyncClient(base_url=watched.http, timeout=20) as http:
        r = await http.post(
            "/api/tables",
            json={"name": "t", "players": 2, "public": False, "host_name": "H", "clock": "relaxed"},
        )
        assert r.status_code == 201, r.text
        code, host = r.json()["code"], r.json()["token"]
        r = await http.post(f"/api/tables/{code}/join", json={"name": "Away", "seat": 1})
        assert r.status_code == 200, r.text
        r = await http.post(
            f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {host}"}
        )
        assert r.status_code == 200, r.text
    me = await _socket(watched, code, host).connect()
    try:
        samples = await _play_until(
            watched,
            me,
            "fiveup_moves_total",
            time.monotonic() + 90,
            source="autopilot",
            result="accepted",
        )
    finally:
        await me.close()
    assert value(samples, "fiveup_move_commit_seconds_count", source="autopilot") >= 1
    assert value(samples, "fiveup_bot_decision_seconds_count", level="easy") >= 1


async def test_a_clients_resync_is_counted(watched: ServerProcess) -> None:
    async with httpx.AsyncClient(base_url=watched.http, timeout=20) as http:
        r = await http.post("/api/practice", json={"players": 2, "level": "easy", "name": "R"})
    assert r.status_code == 201, r.text
    me = await _socket(watched, r.json()["code"], r.json()["token"]).connect()
    try:
        before = value(scrape(watched), "fiveup_resyncs_total", reason="client")
        snapshot = await me.request({"type": "resync", "last_seq": me.last_seq}, ("snapshot",))
        assert snapshot["type"] == "snapshot"
        after = scrape(watched)
    finally:
        await me.close()
    assert value(after, "fiveup_resyncs_total", reason="client") == before + 1
    assert value(after, "fiveup_websocket_frames_received_total") >= 1


def test_a_quota_refusal_is_counted_by_its_quota(watched: ServerProcess) -> None:
    before = scrape(watched)
    statuses = [
        httpx.get(f"{watched.http}/api/tables/ZZ{n:04d}", timeout=10).status_code for n in range(4)
    ]
    assert statuses[:2] == [404, 404] and 429 in statuses, statuses
    after = scrape(watched)
    refused = statuses.count(429)
    grew = value(after, "fiveup_quota_refusals_total", quota="lookup_miss") - value(
        before, "fiveup_quota_refusals_total", quota="lookup_miss"
    )
    assert grew == refused
    route = "/api/tables/{code}"
    assert (
        value(after, "fiveup_http_requests_total", route=route, status="429")
        - value(before, "fiveup_http_requests_total", route=route, status="429")
        == refused
    )


def test_a_database_outage_shows_as_unreachable_until_it_ends(watched: ServerProcess) -> None:
    """No request is made meanwhile: the LISTEN connection's retries see it."""
    assert value(scrape(watched), "fiveup_db_unreachable") == 0
    cut_off(watched.database_url)
    try:
        _wait_for(watched, lambda s: value(s, "fiveup_db_unreachable") == 1)
    finally:
        cut_off(watched.database_url, allow_again=True)
    _wait_for(watched, lambda s: value(s, "fiveup_db_unreachable") == 0)
    assert httpx.get(f"{watched.http}/api/tables", timeout=10).status_code == 200


def _wait_for(server: ServerProcess, ok: object, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if ok(scrape(server)):  # type: ignore[operator]
            return
        time.sleep(0.2)
    raise AssertionError("the metrics never showed it")


GC_SCRIPT = """
import gc
from app.core import metrics
from app.core.metrics_export import exposition
metrics.enable()
junk = [[] for _ in range(1000)]
for item in junk:
    item.append(item)  # cycles: only the cyclic collector frees them
del junk, item
gc.collect(0)
gc.collect(2)
print(exposition()[0].decode())
"""


def test_the_collectors_pauses_are_recorded_by_generation() -> None:
    run = subprocess.run(
        [sys.executable, "-c", GC_SCRIPT], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    counts = {
        s.labels["generation"]: s.value
        for family in text_string_to_metric_families(run.stdout)
        for s in family.samples
        if s.name == "fiveup_gc_pause_seconds_count"
    }
    assert counts.get("0", 0) >= 1 and counts.get("2", 0) >= 1, counts


def test_a_metrics_token_shorter_than_16_characters_is_refused_at_start_up() -> None:
    run = subprocess.run(
        [sys.executable, "-c", "from app.core.settings import Settings; Settings()"],
        cwd=REPO,
        env={**os.environ, "FIVEUP_METRICS_TOKEN": "short"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode != 0 and "FIVEUP_METRICS_TOKEN" in run.stderr

"""``FIVEUP_METRICS_PORT`` (docs/monitoring.md): ``/metrics`` on a port of its own, the
main port without it — for one process (the app serves the port from a thread) and
for ``fiveup serve --workers 2`` (its supervisor serves one port for both workers);
with ``FIVEUP_METRICS_TOKEN`` too, the port asks for the token."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
from prometheus_client.parser import text_string_to_metric_families

from .support import ServerProcess, free_port
from .test_metrics import AUTH, TOKEN, ServedWorkers, _http_count, _worker_files, value


def _port_samples(
    port: int, headers: dict[str, str] | None = None
) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    r = httpx.get(f"http://127.0.0.1:{port}/metrics", headers=headers or {}, timeout=10)
    assert r.status_code == 200, r.text
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(r.text)
        for s in family.samples
    }


def test_metrics_on_their_own_port_are_not_on_the_main_port(pg_url: str) -> None:
    port = free_port()
    server = ServerProcess(pg_url, FIVEUP_METRICS_PORT=str(port)).start()
    try:
        assert httpx.get(f"{server.http}/metrics", headers=AUTH).status_code == 404
        for _ in range(3):
            assert httpx.get(f"{server.http}/api/tables").status_code == 200
        samples = _port_samples(port)
        assert value(samples, "fiveup_http_requests_total", route="/api/tables") == 3
        assert value(samples, "fiveup_http_requests_total", route="/metrics") == 0
        other = httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=10)
        assert other.status_code == 404 and "fiveup_" not in other.text
    finally:
        server.stop()


def test_the_metrics_port_of_two_workers_asks_for_the_token_and_sums_both(
    pg_url: str, tmp_path: Path
) -> None:
    port = free_port()
    server = ServedWorkers(
        pg_url,
        FIVEUP_METRICS_PORT=str(port),
        FIVEUP_METRICS_TOKEN=TOKEN,
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path),
    ).start()
    try:
        assert httpx.get(f"{server.http}/metrics", headers=AUTH).status_code == 404
        refused = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10)
        assert refused.status_code == 401 and "fiveup_" not in refused.text
        requests = 0
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # fresh connections, until both workers served
            for _ in range(10):
                assert httpx.get(f"{server.http}/api/tables").status_code == 200
                requests += 1
            shares = [_http_count(files) for files in _worker_files(tmp_path).values()]
            if sum(share > 0 for share in shares) == 2:
                break
        assert sum(share > 0 for share in shares) == 2, shares
        samples = _port_samples(port, AUTH)
        assert value(samples, "fiveup_http_requests_total", route="/api/tables") == requests
    finally:
        server.stop()

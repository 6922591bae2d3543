"""A server that ran computer players shuts down cleanly on SIGTERM: its bots' process
pool is stopped and waited for, so no semaphore is left to multiprocessing's resource
tracker, which would otherwise write a warning — not a log line — into a JSON log after
the server is gone (uvicorn ends the process by raising SIGTERM again, which skips
multiprocessing's exit handlers; app/tables/bot_turns.py, ``BotTurns.shutdown``)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx

from .support import ServerProcess


def resource_trackers_of(pid: int) -> list[int]:
    """The multiprocessing resource trackers started by process ``pid``."""
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            ppid = next(
                int(line.split()[1])
                for line in status.read_text().splitlines()
                if line.startswith("PPid:")
            )
            cmdline = (status.parent / "cmdline").read_bytes()
        except (OSError, StopIteration):
            continue
        if ppid == pid and b"resource_tracker" in cmdline:
            found.append(int(status.parent.name))
    return found


def wait_gone(pids: list[int], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while any(Path(f"/proc/{p}").exists() for p in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(Path(f"/proc/{p}").exists() for p in pids), "resource tracker still runs"


def test_a_server_that_ran_medium_bots_leaves_only_json_lines_after_sigterm(
    pg_url: str, tmp_path: Path
) -> None:
    server = ServerProcess(
        pg_url,
        FIVEUP_LOG_FORMAT="json",
        FIVEUP_BOT_DELAY_MS="0",
        TMPDIR=str(tmp_path),
    )
    server.log_path = tmp_path / "server.log"
    server.start()
    try:
        r = httpx.post(
            f"{server.http}/api/practice",
            json={"players": 4, "level": "medium", "name": "Solo"},
            timeout=20,
        )
        assert r.status_code == 201, r.text
        assert server.proc is not None
        deadline = time.monotonic() + 30
        trackers: list[int] = []
        while not trackers and time.monotonic() < deadline:
            trackers = resource_trackers_of(server.proc.pid)
            time.sleep(0.1)
        assert trackers, "the medium bots' pool did not start"
    finally:
        server.stop()
    wait_gone(trackers)
    log = server.log_text()
    for text in log.splitlines():
        assert "leaked semaphore" not in text, text
        assert isinstance(json.loads(text), dict), text

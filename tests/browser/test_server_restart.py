"""A server process that restarts loses nobody at the table (static/js/net/socket.js,
app/api/draining.py): under ``fiveup serve --workers 2`` each worker in turn gets
SIGTERM; it closes its sockets with 1012 and the page reconnects at once, to the other
worker, quietly — no lost-connection banner, no error message — and plays on."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

from .conftest import ARTIFACTS, SERVER_PIDS, page_maker, running_server
from .flows import start_two_player_game, sync

#: records, in the page, every connection state shown and whether the lost-connection
#: banner or an error message ever appeared
WATCH = """() => {
  const seen = { states: [], banner: false, error: false };
  const look = () => {
    const conn = document.querySelector("[data-testid=conn]");
    const state = conn && conn.dataset.state;
    if (state && seen.states[seen.states.length - 1] !== state) seen.states.push(state);
    if (document.querySelector("[data-testid=offline-banner]")) seen.banner = true;
    if (document.querySelector("[data-testid=error]")) seen.error = true;
  };
  new MutationObserver(look).observe(document.documentElement,
    { subtree: true, childList: true, attributes: true });
  look();
  window.__restartSeen = seen;
}"""


def _workers(supervisor: int) -> set[int]:
    """The live worker processes of a ``--workers`` supervisor."""
    children = Path(f"/proc/{supervisor}/task/{supervisor}/children").read_text().split()
    live = set()
    for pid in map(int, children):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if b"multiprocessing" in cmd and b"resource_tracker" not in cmd and state != "Z":
            live.add(pid)
    return live


def _until(check: Any, timeout: float = 60) -> Any:
    deadline = time.monotonic() + timeout
    while not (result := check()):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)
    return result


def _started(log: Path) -> int:
    return log.read_text(errors="replace").count("Application startup complete")


def test_each_worker_restarting_closes_1012_and_pages_reconnect_without_an_error(
    browser: Any, browser_db: str
) -> None:
    log = ARTIFACTS / "server-restart.log"
    with running_server(
        browser_db, {"FIVEUP_LOG_LEVEL": "INFO"}, log_name=log.name, workers=2
    ) as base:
        supervisor = SERVER_PIDS[base]
        make, close = page_maker(browser, base)
        try:
            ann, bob, _ = start_two_player_game(make)
            pages = (ann, bob)
            _until(lambda: len(_workers(supervisor)) == 2 and _started(log) == 2)
            for p in pages:
                p.evaluate(WATCH)
            for restarted, worker in enumerate(sorted(_workers(supervisor)), start=1):
                os.kill(worker, signal.SIGTERM)
                _until(lambda w=worker: w not in _workers(supervisor))
                _until(
                    lambda n=restarted: len(_workers(supervisor)) == 2 and _started(log) == 2 + n
                )
                for p in pages:
                    p.wait_for_selector("[data-testid=conn][data-state=open]")
            for p in pages:
                seen = p.evaluate("window.__restartSeen")
                assert "resuming" in seen["states"], seen  # its worker closed it: 1012
                assert "reconnecting" not in seen["states"], seen
                assert not seen["banner"] and not seen["error"], seen
            sync(list(pages))  # both in step again, at the same seq
        finally:
            close()

"""Browser tests: real Chromium (Playwright, Python) against a real server subprocess
(uvicorn via ``python -m app.cli serve``) on its own PostgreSQL database
``fiveup_browser_<random>``, dropped afterwards.

Chromium: ``FIVEUP_CHROMIUM`` (default ``/usr/bin/chromium``); never downloaded.
PostgreSQL admin URL: ``FIVEUP_TEST_PG_ADMIN`` (default ``postgresql://postgres@127.0.0.1:5432/postgres``).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
PG_ADMIN = os.environ.get("FIVEUP_TEST_PG_ADMIN", "postgresql://postgres@127.0.0.1:5432/postgres")
CHROMIUM = os.environ.get("FIVEUP_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

playwright_sync = pytest.importorskip("playwright.sync_api")
psycopg = pytest.importorskip("psycopg")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def database() -> Iterator[str]:
    """A fresh PostgreSQL database ``fiveup_browser_<random>`` (its URL), dropped afterwards."""
    name = f"fiveup_browser_{secrets.token_hex(4)}"
    try:
        with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError as e:  # pragma: no cover - environment
        pytest.skip(f"PostgreSQL not available: {e}")
    url = f"{PG_ADMIN.rsplit('/', 1)[0]}/{name}"
    try:
        yield url
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def browser_db() -> Iterator[str]:
    with database() as url:
        yield url


#: the server process of each running server's base URL (the supervisor with --workers)
SERVER_PIDS: dict[str, int] = {}


@contextlib.contextmanager
def running_server(
    db_url: str,
    settings: dict[str, str] | None = None,
    log_name: str = "server.log",
    workers: int = 1,
) -> Iterator[str]:
    """A live server on ``db_url`` (migrates on start; its base URL), with the browser
    tests' settings and then ``settings`` (environment variables) over them; ``workers``
    processes (``fiveup serve --workers``; the supervisor's pid in :data:`SERVER_PIDS`)."""
    port = _free_port()
    env = dict(os.environ)
    env["DATABASE_URL"] = db_url
    env["FIVEUP_DB_WRITERS"] = "4"  # PostgreSQL's connections: shared with the other pass
    # Rounds advance only when every player clicks "ready" (deterministic tests); the
    # countdown is long enough never to fire during a test.
    env["FIVEUP_NEXT_ROUND_SECONDS"] = "900"
    env["FIVEUP_LOG_LEVEL"] = "WARNING"
    env["FIVEUP_RATE_LIMIT_ENABLED"] = "false"  # quotas: tests/server/test_quotas.py
    # computer players move at once, and ``hard`` thinks briefly (docs/bots.md)
    env["FIVEUP_BOT_DELAY_MS"] = "0"
    env["FIVEUP_BOT_HARD_BUDGET_MS"] = "20"
    env.update(settings or {})
    ARTIFACTS.mkdir(exist_ok=True)
    log = open(ARTIFACTS / log_name, "w")  # noqa: SIM115
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1"),
            *("--port", str(port), "--workers", str(workers)),
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            log.close()
            raise RuntimeError(f"server did not start; see test-artifacts/{log_name}")
        time.sleep(0.2)
    SERVER_PIDS[base] = proc.pid
    try:
        yield base
    finally:
        SERVER_PIDS.pop(base, None)
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="session")
def server(browser_db: str) -> Iterator[str]:
    """Base URL of a live server (migrates on start)."""
    with running_server(browser_db) as base:
        yield base


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    with playwright_sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def page_maker(browser, base: str):  # type: ignore[no-untyped-def]
    """Factory of pages, each in a fresh browser context (own localStorage = own player)
    on the server at ``base``; returns ``(make, close)``: ``close()`` closes every
    context and fails on any JavaScript error the pages had."""
    contexts = []
    errors: list[str] = []

    def make(width: int = 1280, height: int = 860, lang: str = "en", csp: bool = False):  # type: ignore[no-untyped-def]
        # Playwright's string predicates (wait_for_function) are eval'd in the page, which
        # the server's CSP forbids: contexts bypass it unless a test asks for it (csp=True,
        # tests/browser/test_security_headers.py).
        ctx = browser.new_context(
            viewport={"width": width, "height": height}, base_url=base, bypass_csp=not csp
        )
        ctx.add_init_script(
            f"try {{ if (!localStorage.getItem('fiveup.lang')) localStorage.setItem('fiveup.lang', '{lang}') }} catch (e) {{}}"
        )
        ctx.set_default_timeout(45_000)  # generous: the machine may be busy
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page

    def close() -> None:
        for ctx in contexts:
            ctx.close()
        assert not errors, f"JavaScript errors on the page: {errors}"

    return make, close


@pytest.fixture
def new_page(browser, server):  # type: ignore[no-untyped-def]
    """Factory: a page in a fresh browser context (own localStorage = own player)."""
    make, close = page_maker(browser, server)
    yield make
    close()


DOCS_SHOTS = ROOT / "docs" / "screenshots"


def publish(artifact: str, name: str) -> None:
    """Copy a screenshot into docs/screenshots (for the README) — only when asked with
    FIVEUP_UPDATE_SCREENSHOTS=1, so ordinary test runs never touch tracked files."""
    if os.environ.get("FIVEUP_UPDATE_SCREENSHOTS") == "1" and (ARTIFACTS / artifact).exists():
        DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(ARTIFACTS / artifact, DOCS_SHOTS / name)


def shot(page, name: str) -> Path:  # type: ignore[no-untyped-def]
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path

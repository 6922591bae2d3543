"""``./scripts/serve``, the README's first command: it serves the compiled build by
default (the build CI tests and the benchmarks measure), saying so and showing progress
while it builds, and ``FIVEUP_SERVE_BUILD=python`` gives the quick pure-Python start.

The first run in a fresh clone builds the wheel (about 2 minutes); the test suite's own
compiled run then reuses that build (``scripts/_common.sh``, ``ensure_native_python``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from .support import REPO, free_port

#: how long the first run may take to build and install the compiled wheel
BUILD_SECONDS = 900


@contextmanager
def served(tmp_path: Path, **env: str) -> Iterator[tuple[int, list[str]]]:
    """Run ``scripts/serve`` until uvicorn listens; yields its port and its output lines."""
    port = free_port()
    environment = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'serve.db'}",
        **env,
    }
    environment.pop("FIVEUP_EXPECT_NATIVE", None)
    process = subprocess.Popen(
        ["bash", str(REPO / "scripts" / "serve"), "--port", str(port)],
        cwd=REPO,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    try:
        assert process.stdout is not None
        deadline = time.monotonic() + BUILD_SECONDS
        for line in process.stdout:
            lines.append(line.rstrip("\n"))
            if "Uvicorn running on" in line or time.monotonic() > deadline:
                break
        assert any("Uvicorn running on" in line for line in lines), "\n".join(lines[-30:])
        yield port, lines
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_serve_runs_the_compiled_build_by_default_and_says_so(tmp_path: Path) -> None:
    with served(tmp_path) as (port, lines):
        assert httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 200
    text = "\n".join(lines)
    assert "serving the compiled build" in text
    assert "the move path runs compiled" in text
    assert "runs as Python" not in text


def test_serve_with_the_python_build_setting_starts_the_editable_install(
    tmp_path: Path,
) -> None:
    with served(tmp_path, FIVEUP_SERVE_BUILD="python") as (port, lines):
        assert httpx.get(f"http://127.0.0.1:{port}/healthz").status_code == 200
    text = "\n".join(lines)
    assert "the move path runs as Python" in text
    assert "serving the compiled build" not in text


def test_serve_refuses_an_unknown_build_setting_with_a_reason() -> None:
    result = subprocess.run(
        ["bash", str(REPO / "scripts" / "serve")],
        cwd=REPO,
        env={**os.environ, "FIVEUP_SERVE_BUILD": "fast"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "FIVEUP_SERVE_BUILD is native or python" in result.stderr

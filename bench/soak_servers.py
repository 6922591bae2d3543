"""Soak benchmark machinery: the server processes it starts, kills and restarts (with
their RSS and logs), its database's outage, and the log of fault windows.

A server is ``python -m app.cli serve`` (``fiveup serve``: migrations, then uvicorn with
the hardening options) on a loopback port, its output appended to one log file across
restarts. The outage is the one of ``tests/server/test_outages.py``: the database
refuses new connections and its open ones are ended, for this database only.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import psycopg

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cut_off(admin: str, db_name: str, allow: bool) -> None:
    """Refuse new connections to ``db_name`` and end the open ones (or allow again)."""
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{db_name}" ALLOW_CONNECTIONS {str(allow).lower()}')
        if not allow:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()",
                (db_name,),
            )


def rss_kib(pid: int) -> int | None:
    """VmRSS of a live process, KiB (None when it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a live process (None when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Incarnation:
    """One life of a server process: its pid and RSS samples (KiB)."""

    pid: int
    started: float
    ended: float | None = None
    how: str = "running"
    rss: list[int] = field(default_factory=list)
    cpu_s: float = 0.0  # user + system CPU seconds at the last sample


class Server:
    """One ``fiveup serve`` process slot: started, killed and restarted on one port."""

    def __init__(self, slot: int, port: int, env: dict[str, str], log: Path) -> None:
        self.slot = slot
        self.port = port
        self.env = env
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.lives: list[Incarnation] = []
        log.write_text("")

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc is not None else None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "app.cli",
                    "serve",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                ],
                cwd=REPO,
                env={**os.environ, **self.env},
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.lives.append(Incarnation(self.proc.pid, time.monotonic()))

    async def wait_healthy(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(timeout=2) as http:
            while time.monotonic() < deadline:
                if self.proc is not None and self.proc.poll() is not None:
                    raise RuntimeError(f"server {self.slot} exited; see {self.log}")
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get(f"{self.http}/healthz")).status_code == 200:
                        return
                await asyncio.sleep(0.2)
        raise RuntimeError(f"server {self.slot} not healthy after {timeout}s")

    def _end(self, how: str) -> None:
        if self.lives and self.lives[-1].ended is None:
            self.lives[-1].ended = time.monotonic()
            self.lives[-1].how = how

    def kill(self) -> None:
        """SIGKILL: no shutdown, nothing flushed."""
        if self.proc is not None and self.proc.poll() is None:
            self.sample_rss()
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
            self._end("SIGKILL")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.sample_rss()
            self.proc.terminate()
            try:
                self.proc.wait(15)
                self._end("stopped at the end")
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
                self._end("SIGKILL after SIGTERM timed out")
        elif self.proc is not None:
            self._end(f"exited {self.proc.returncode}")

    def sample_rss(self) -> None:
        if self.proc is None or self.proc.poll() is not None or not self.lives:
            return
        life = self.lives[-1]
        if time.monotonic() - life.started < 10:
            return  # still importing and migrating: not the serving process's size yet
        kib = rss_kib(self.proc.pid)
        if kib is not None:
            life.rss.append(kib)
        life.cpu_s = cpu_seconds(self.proc.pid) or life.cpu_s

    def rss_mib(self) -> int | None:
        rss = self.lives[-1].rss if self.lives else []
        return round(rss[-1] / 1024) if rss else None

    def incarnations_dict(self) -> list[dict[str, Any]]:
        out = []
        for life in self.lives:
            if not life.rss:
                out.append(
                    {
                        "slot": self.slot,
                        "pid": life.pid,
                        "ended": life.how,
                        "lived_s": round((life.ended or time.monotonic()) - life.started),
                        "rss_first_mib": None,
                        "rss_max_mib": None,
                        "rss_last_mib": None,
                        "rss_quarters_mib": [],
                        "cpu_s": None,
                        "rss_samples": 0,
                    }
                )
                continue
            rss = life.rss
            quarters = [rss[min(len(rss) - 1, len(rss) * q // 4)] for q in (1, 2, 3)]
            out.append(
                {
                    "slot": self.slot,
                    "pid": life.pid,
                    "lived_s": round((life.ended or time.monotonic()) - life.started),
                    "ended": life.how,
                    "rss_first_mib": round(rss[0] / 1024),
                    "rss_max_mib": round(max(rss) / 1024),
                    "rss_last_mib": round(rss[-1] / 1024),
                    "rss_quarters_mib": [round(k / 1024) for k in quarters],
                    "cpu_s": round(life.cpu_s, 1),
                    "rss_samples": len(life.rss),
                }
            )
        return out

    def log_findings(self) -> dict[str, Any]:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        lines = text.splitlines()
        http_500 = [ln for ln in lines if re.search(r'HTTP/1\.[01]" 5\d\d', ln)]
        errors = [ln for ln in lines if " ERROR " in ln or ln.startswith("ERROR")]
        return {
            "log": str(self.log),
            "lines": len(lines),
            "tracebacks": text.count("Traceback (most recent call last)"),
            "http_500_lines": sum(" 500" in ln for ln in http_500),
            "http_5xx_lines": len(http_500),
            "error_lines": len(errors),
            "error_examples": sorted({e[:200] for e in errors})[:8],
            "warning_lines": sum(" WARNING " in ln for ln in lines),
        }


@dataclass
class Window:
    kind: str
    start: float
    end: float | None = None
    note: str = ""

    def as_dict(self, log: FaultLog) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "start_s": round(self.start - log.origin, 1),
            "end_s": round(self.end - log.origin, 1) if self.end else None,
            "start_utc": log.utc(self.start),
            "end_utc": log.utc(self.end) if self.end else None,
            "note": self.note,
        }


@dataclass
class FaultLog:
    """The fault windows of a run, in monotonic time (``origin``: the start of play)."""

    origin: float = 0.0
    windows: list[Window] = field(default_factory=list)
    _wall: float = field(default_factory=lambda: time.time() - time.monotonic())

    def utc(self, t: float) -> str:
        return datetime.fromtimestamp(t + self._wall, UTC).isoformat(timespec="seconds")

    def open(self, kind: str, note: str) -> Window:
        w = Window(kind, time.monotonic(), note=note)
        self.windows.append(w)
        print(f"soak: fault {kind} at {w.start - self.origin:.0f}s: {note}", file=sys.stderr)
        return w

    def close(self, w: Window, note: str) -> None:
        w.end = time.monotonic()
        w.note = f"{w.note}; {note}" if note else w.note
        print(f"soak: fault {w.kind} over at {w.end - self.origin:.0f}s", file=sys.stderr)

    def kinds_at(self, t0: float, t1: float, grace: float) -> list[str]:
        """The kinds of the windows that the span [t0, t1] meets (open ones too), each
        widened by ``grace`` seconds after its end."""
        return sorted(
            {
                w.kind
                for w in self.windows
                if t1 >= w.start and t0 <= (w.end if w.end is not None else t1) + grace
            }
        )

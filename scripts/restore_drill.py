"""The restore drill: restore a backup into a fresh database and prove it is whole.

Run through ``scripts/restore-drill`` (which finds the Python with the ``fiveup``
package); docs/deployment.md, "Backups and restore", says when and why. Steps:

1. **Restore** ``DUMP`` into a database that did not exist before: a ``pg_dump -Fc``
   archive (``pg_restore``), a plain SQL dump (``psql``), or a SQLite file (copied with
   SQLite's online backup API, then ``PRAGMA integrity_check``). The kind is read from
   the file's first bytes.
2. **Migrate** it to the newest schema, as ``fiveup serve`` would (``migrate_to_head``).
3. **Check every table**: its events are numbered 1..seq with no gap, and its stored
   match (``game_tables.state`` with its finished rounds, ``game_tables.history``) is
   exactly the engine's replay of its stored events (``app.records.stored``
   ``match_from_events``) — or there is no match and no deal was stored.
4. With ``--serve``: **start a server** on the restored database and, for each table in
   play, open a spectator WebSocket: its snapshot's view must be the engine's projection
   (``view_for``) of the events up to the snapshot's seq.

One line per table, ``OK`` or ``MISMATCH`` with what differs, then a summary line. Exit
status: 0 when every table is OK, 1 when one is not, 2 when the restore itself failed.
The restored database is dropped at the end unless ``--keep`` (then its URL is printed).
``--check URL`` skips steps 1, 2 and 4: it only reads and checks the tables of an
existing database (one recovered to a point in time, say), and changes nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from app.core.urls import libpq_dsn
from app.db.migrate import migrate_to_head
from app.engine import Match, view_for
from app.records.stored import DEAL_KINDS, match_from_events

DEFAULT_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
#: view fields worded for people, not part of the projection compared
DESCRIPTIONS = ("description", "description_uk")


class DrillError(Exception):
    """The restore or the migration failed: no table could be checked."""


@dataclass
class TableRow:
    """What the check reads of one ``game_tables`` row."""

    id: int
    code: str
    status: str
    seq: int
    match_number: int
    state: dict[str, Any] | None
    history: list[Any] | None


@dataclass
class Verdict:
    """One table's result: ``problem`` is None when it is OK."""

    code: str
    detail: str
    problem: str | None = None

    def line(self) -> str:
        if self.problem is None:
            return f"OK        {self.code}  {self.detail}"
        return f"MISMATCH  {self.code}  {self.detail}: {self.problem}"


# -- restoring -----------------------------------------------------------------------------
def dump_kind(path: Path) -> str:
    """``custom`` (pg_dump -Fc), ``sqlite`` or ``sql`` (plain text), by the first bytes."""
    with path.open("rb") as f:
        head = f.read(16)
    if head.startswith(b"PGDMP"):
        return "custom"
    if head == b"SQLite format 3\x00":
        return "sqlite"
    return "sql"


def restore_postgres(dump: Path, kind: str, admin: str, name: str) -> str:
    """Create database ``name`` (it must not exist) and restore ``dump`` into it; its URL."""
    with psycopg.connect(libpq_dsn(admin), autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            raise DrillError(f"database {name} exists: the drill restores into a fresh one")
        conn.execute(f'CREATE DATABASE "{name}"')
    url = admin.rsplit("/", 1)[0] + "/" + name
    dsn = libpq_dsn(url)
    if kind == "custom":
        cmd = ["pg_restore", "--no-owner", "--no-privileges", "--exit-on-error", "-d", dsn]
    else:
        cmd = ["psql", "--quiet", "-v", "ON_ERROR_STOP=1", "-d", dsn, "-f"]
    done = subprocess.run([*cmd, str(dump)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise DrillError(f"{cmd[0]} failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    return url


def restore_sqlite(dump: Path, target: Path) -> str:
    """Copy a SQLite file with the online backup API (safe while it is being written)
    into ``target`` (must not exist) and check its integrity; its URL."""
    if target.exists():
        raise DrillError(f"{target} exists: the drill restores into a fresh file")
    src = sqlite3.connect(f"file:{dump}?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
        result = dst.execute("PRAGMA integrity_check").fetchone()
    finally:
        src.close()
        dst.close()
    if result is None or result[0] != "ok":
        raise DrillError(f"PRAGMA integrity_check: {result}")
    return f"sqlite:///{target}"


def drop_postgres(admin: str, url: str) -> None:
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(libpq_dsn(admin), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# -- reading -------------------------------------------------------------------------------
@contextlib.contextmanager
def connect(url: str) -> Iterator[Any]:
    """A DB-API connection to the restored database (psycopg or sqlite3)."""
    if url.startswith("sqlite"):
        conn: Any = sqlite3.connect(url.split("///", 1)[1])
    else:
        conn = psycopg.connect(libpq_dsn(url))
    try:
        yield conn
    finally:
        conn.close()


def _json(value: Any) -> Any:
    """A JSON column's value (SQLite gives text, PostgreSQL's JSONB gives Python)."""
    return json.loads(value) if isinstance(value, str) else value


def read_tables(conn: Any) -> list[TableRow]:
    rows = conn.execute(
        "SELECT id, code, status, seq, match_number, state, history FROM game_tables ORDER BY id"
    ).fetchall()
    return [TableRow(r[0], r[1], r[2], r[3], r[4], _json(r[5]), _json(r[6])) for r in rows]


def read_events(conn: Any, table_id: int, up_to: int | None = None) -> list[tuple[int, Any]]:
    """``(seq, payload)`` of a table's events in seq order (those up to ``up_to``)."""
    mark = "?" if isinstance(conn, sqlite3.Connection) else "%s"
    sql = f"SELECT seq, payload FROM table_events WHERE table_id = {mark}"
    params: tuple[int, ...] = (table_id,)
    if up_to is not None:
        sql += f" AND seq <= {mark}"
        params += (up_to,)
    return [(r[0], _json(r[1])) for r in conn.execute(sql + " ORDER BY seq", params).fetchall()]


# -- checking ------------------------------------------------------------------------------
def replay(payloads: Iterable[dict[str, Any]]) -> Match | None:
    """The current match replayed from a table's whole event log (a rematch's deal
    starts a fresh match, so what is left is the current one)."""
    match, _facts = match_from_events(payloads)
    return match


def differences(got: Any, want: Any, path: str = "", limit: int = 4) -> list[str]:
    """The first few dotted paths where two JSON values differ."""
    if isinstance(got, dict) and isinstance(want, dict):
        out: list[str] = []
        for key in sorted(got.keys() | want.keys(), key=str):
            if key not in got or key not in want:
                out.append(f"{path}{key} (only in {'stored' if key in got else 'replay'})")
            else:
                out += differences(got[key], want[key], f"{path}{key}.", limit)
            if len(out) >= limit:
                break
        return out[:limit]
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        out = []
        for i, (a, b) in enumerate(zip(got, want, strict=True)):
            out += differences(a, b, f"{path}{i}.", limit)
            if len(out) >= limit:
                break
        return out[:limit]
    return [] if got == want else [path.rstrip(".") or "(the value)"]


def normal(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples become lists, keys strings)."""
    return json.loads(json.dumps(value))


def check_table(table: TableRow, events: list[tuple[int, Any]]) -> Verdict:
    """Whether a table's stored state is the replay of its stored events."""
    detail = f"(id {table.id}, {table.status}, match {table.match_number}, seq {table.seq})"
    seqs = [seq for seq, _ in events]
    if seqs != list(range(1, len(seqs) + 1)):
        gaps = sorted(set(range(1, max(seqs, default=0) + 1)) - set(seqs))[:5]
        return Verdict(table.code, detail, f"events are not numbered 1..n (missing {gaps})")
    if len(seqs) != table.seq:
        return Verdict(
            table.code, detail, f"{len(seqs)} events stored, the table is at seq {table.seq}"
        )
    match = replay(payload for _, payload in events)
    if match is None:
        if table.state is not None:
            return Verdict(table.code, detail, "a match is stored but no deal event")
        return Verdict(table.code, detail + " no match")
    if table.state is None:
        dealt = sum(1 for _, p in events if p.get("type") in DEAL_KINDS)
        return Verdict(table.code, detail, f"{dealt} deals stored but no match")
    stored = normal({**table.state, "history": table.history or []})
    diff = differences(stored, normal(match.to_dict()))
    summary = f"round {match.round_number}, scores {match.scores}"
    if diff:
        return Verdict(table.code, detail, "stored state != replay at " + ", ".join(diff))
    return Verdict(table.code, f"{detail} {summary}")


def check_database(url: str) -> list[Verdict]:
    """Every table of the database, checked (:func:`check_table`)."""
    with connect(url) as conn:
        return [check_table(t, read_events(conn, t.id)) for t in read_tables(conn)]


# -- serving -------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def server(url: str, log: Path) -> Iterator[int]:
    """``fiveup serve`` on the restored database on a free 127.0.0.1 port (quotas off)."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "FIVEUP_RATE_LIMIT_ENABLED": "false"}
    env.pop("FIVEUP_RATE_LIMIT_STORAGE", None)  # never count against the live site's Redis
    cmd = [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)]
    with log.open("ab") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                raise DrillError(f"the server exited ({proc.returncode}); its log: {log}")
            health = f"http://127.0.0.1:{port}/healthz"
            with contextlib.suppress(OSError), urllib.request.urlopen(health, timeout=2) as r:
                if r.status == 200:
                    break
            if time.monotonic() > deadline:
                raise DrillError(f"the server did not answer /healthz; its log: {log}")
            time.sleep(0.2)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


async def spectator_snapshot(port: int, code: str) -> dict[str, Any]:
    """The snapshot frame a spectator's WebSocket gets first."""
    import websockets

    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/tables/{code}") as ws:
        async with asyncio.timeout(20):
            while True:
                frame = json.loads(await ws.recv())
                if frame.get("type") == "snapshot":
                    return dict(frame)


def strip(view: dict[str, Any] | None) -> dict[str, Any] | None:
    return None if view is None else {k: v for k, v in view.items() if k not in DESCRIPTIONS}


def check_served(url: str, port: int, limit: int) -> list[Verdict]:
    """Each table in play (at most ``limit``, newest first): the server's snapshot view is
    the projection of the events up to the snapshot's seq."""
    out: list[Verdict] = []
    with connect(url) as conn:
        tables = [t for t in read_tables(conn) if t.status == "playing"][::-1][:limit]
        for t in tables:
            snap = asyncio.run(spectator_snapshot(port, t.code))
            match = replay(p for _, p in read_events(conn, t.id, snap["seq"]))
            want = None if match is None else normal(view_for(match, None, describe=False))
            diff = differences(strip(snap["view"]), strip(want))
            problem = "served view != projection at " + ", ".join(diff) if diff else None
            out.append(Verdict(t.code, f"(served, spectator, seq {snap['seq']})", problem))
    return out


# -- the drill -----------------------------------------------------------------------------
def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="restore-drill", description=__doc__.split("\n")[0])
    p.add_argument(
        "dump", type=Path, nargs="?", help="pg_dump -Fc archive, plain SQL dump or SQLite file"
    )
    p.add_argument(
        "--check",
        metavar="URL",
        help="no restore: only check the tables of this database, read-only (e.g. one "
        "recovered to a point in time)",
    )
    p.add_argument(
        "--admin",
        default=os.environ.get("FIVEUP_DRILL_ADMIN", DEFAULT_ADMIN),
        help="a PostgreSQL URL allowed to CREATE DATABASE (default: $FIVEUP_DRILL_ADMIN or "
        f"{DEFAULT_ADMIN})",
    )
    p.add_argument("--into", help="the new database's name (SQLite: file path)")
    p.add_argument("--keep", action="store_true", help="keep the restored database")
    p.add_argument("--serve", action="store_true", help="also start a server on it and check")
    p.add_argument("--serve-limit", type=int, default=200, help="tables checked when serving")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.check is not None:
        if args.dump is not None or args.serve:
            print("restore-drill: --check takes no dump and no --serve", file=sys.stderr)
            return 2
        try:
            return report(check_database(args.check))
        except (psycopg.Error, sqlite3.Error, ValueError) as exc:
            print(f"restore-drill: FAILED: {exc}", file=sys.stderr)
            return 2
    if args.dump is None:
        print("restore-drill: give a dump file (or --check URL)", file=sys.stderr)
        return 2
    dump: Path = args.dump.resolve()
    if not dump.is_file():
        print(f"restore-drill: no such file: {dump}", file=sys.stderr)
        return 2
    kind = dump_kind(dump)
    workdir = Path(tempfile.mkdtemp(prefix="fiveup-drill-"))
    url = None
    failed = True
    try:
        started = time.monotonic()
        if kind == "sqlite":
            url = restore_sqlite(dump, Path(args.into or workdir / "fiveup.db").resolve())
        else:
            url = restore_postgres(dump, kind, args.admin, args.into or _fresh_name())
        print(f"restored  {dump.name} ({kind}) into {url}")
        migrate_to_head(url)
        print(f"migrated  to head ({time.monotonic() - started:.1f} s since the restore began)")
        verdicts = check_database(url)
        if args.serve:
            with server(url, workdir / "server.log") as port:
                verdicts += check_served(url, port, args.serve_limit)
        failed = False
    except (DrillError, psycopg.Error, sqlite3.Error, OSError) as exc:
        print(f"restore-drill: FAILED: {exc} (work files kept in {workdir})", file=sys.stderr)
        return 2
    finally:
        if url is not None and not args.keep:
            if url.startswith("sqlite"):
                Path(url.split("///", 1)[1]).unlink(missing_ok=True)
            else:
                drop_postgres(args.admin, url)
        if not (args.keep or failed):
            shutil.rmtree(workdir, ignore_errors=True)
    return report(verdicts, f"; kept {url}" if args.keep else "")


def report(verdicts: list[Verdict], tail: str = "") -> int:
    """Print one line per table and the summary; the exit status (0 all OK, else 1)."""
    for v in verdicts:
        print(v.line())
    bad = [v for v in verdicts if v.problem is not None]
    print(f"{len(verdicts) - len(bad)} OK, {len(bad)} mismatch{tail}")
    return 1 if bad else 0


def _fresh_name() -> str:
    return f"fiveup_drill_{secrets.token_hex(4)}"


if __name__ == "__main__":
    sys.exit(main())

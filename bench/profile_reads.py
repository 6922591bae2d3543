"""What my games and the player page cost on a filled database (docs/games.md).

Creates a scratch PostgreSQL database migrated to head and fills it server-side in bulk
(``INSERT … SELECT`` over ``generate_series``, one statement per table): ``--profiles``
profiles, each with an ``all`` rating and a session, and ``--matches`` finished matches
(60 % two players, 15 % three, 25 % four) whose seats are profiles (one seat in eight a
guest or computer player, ``profile_id`` NULL), drawn skewed (``random()²``: the low
ids are the heavy players, profile 1 with a few thousand matches), ``matches × 2.65 × 7/8
/ profiles`` matches per profile on average. Then serves it with ``fiveup serve`` (one process,
quotas off) and times, from one client one request at a time, ``--requests`` of each:

- ``GET /api/profile/games`` (first page, 20 matches) of a random signed-in profile;
- the same with the first page's ``before`` cursor (the second page);
- ``GET /api/players/{handle}`` of a random profile;
- both for the heaviest player (profile 1), a tenth as many times;
- ``GET /api/leaderboard`` of each pool in turn, 100 entries.

The database is migrated to 0016 for the fill, then to head: migration 0017 fills the
players' running totals (``player_figures``, ``player_pairs``) from the matches, and its
time is printed. Prints p50/p99 in milliseconds and the plans of the store's two main
queries. Drops the database at the end. Only the local server is used.

    python -m bench.profile_reads --profiles 10000 --matches 100000 --requests 2000
"""

from __future__ import annotations

import argparse
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from datetime import UTC, datetime

import httpx
import psycopg
from alembic import command

from app.core.names import confusable_key
from app.db.migrate import alembic_config, migrate_to_head

#: profiles go in by COPY: each handle's look-alike key is computed here (confusable_key)
PROFILES = (
    "COPY profiles (id, handle, handle_key, display_name, user_handle, created_at) FROM STDIN"
)
#: the sessions' keys are SHA-256 hex of their cookie values, as app/tables/profiles.py digest()
SESSIONS = """
INSERT INTO profile_sessions (profile_id, token_hash, created_at, expires_at)
SELECT g, encode(sha256(('bench-' || g)::bytea), 'hex'), now(), now() + interval '1 day'
FROM generate_series(1, %(n)s) g
"""
RATINGS = """
INSERT INTO ratings (profile_id, pool, mu, sigma, matches, updated_at)
SELECT g, q.pool, 25 + (g %% 17) - 8, 1 + (g %% 5), 10 + g %% 90, now()
FROM generate_series(1, %(n)s) g CROSS JOIN (VALUES ('all'), ('2'), ('3'), ('4')) AS q(pool)
"""
RESULTS = """
INSERT INTO match_results (id, table_id, table_code, match_number, players, rated, target,
  rounds, winner_side, finished_at)
SELECT g, g, 'B' || g, 1, p, g %% 3 = 0, 250, 4 + g %% 9, g %% (CASE WHEN p = 4 THEN 2 ELSE p END),
  now() - make_interval(secs => %(n)s - g)
FROM (SELECT g, CASE WHEN g %% 20 < 12 THEN 2 WHEN g %% 20 < 15 THEN 3 ELSE 4 END AS p
      FROM generate_series(1, %(n)s) g) m
"""
SEATS = """
INSERT INTO match_players (match_id, seat, side, profile_id, name, won, score, rounds_dominoed,
  points_made, deductions, best_round)
SELECT r.id, s, side, CASE WHEN (r.id + s) %% 8 = 0 THEN NULL
                          ELSE 1 + floor(power(random(), 2) * %(profiles)s)::int END,
  'Seat ' || s, side = r.winner_side, CASE WHEN side = r.winner_side THEN 250 ELSE r.id %% 200 END,
  (r.id + s) %% 4, 40 + (r.id * 13 + s) %% 200, (r.id + s) %% 15, 10 + (r.id + s) %% 60
FROM match_results r
CROSS JOIN LATERAL generate_series(0, r.players - 1) s
CROSS JOIN LATERAL (SELECT CASE WHEN r.players = 4 THEN s %% 2 ELSE s END AS side) d
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def fill(url: str, profiles: int, matches: int) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        started = time.perf_counter()
        now = datetime.now(UTC)
        with conn.cursor() as cur, cur.copy(PROFILES) as copy:
            for g in range(1, profiles + 1):
                row = (g, f"p{g}", confusable_key(f"p{g}"), f"Player {g}", f"u{g}", now)
                copy.write_row(row)
        conn.execute(SESSIONS, {"n": profiles})
        conn.execute(RATINGS, {"n": profiles})
        conn.execute(RESULTS, {"n": matches})
        conn.execute(SEATS, {"profiles": profiles})
        for table in ("profiles", "match_results", "match_players", "ratings"):
            conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), max(id)) FROM {table}"
            )
            conn.execute(f"ANALYZE {table}")
        seats = conn.execute("SELECT count(*) FROM match_players").fetchone()
        print(
            f"filled in {time.perf_counter() - started:.1f} s: {profiles} profiles, "
            f"{matches} matches, {seats[0] if seats else 0} seats"
        )


def plans(url: str) -> None:
    """The plans of my games' page and the head-to-head (of the heaviest player)."""
    with psycopg.connect(url, autocommit=True) as conn:
        for table in ("player_figures", "player_pairs"):
            conn.execute(f"ANALYZE {table}")
        for label, sql in (
            (
                "my games page",
                "SELECT r.* FROM match_results r JOIN match_players p ON p.match_id"
                " = r.id WHERE p.profile_id = 1 ORDER BY p.match_id DESC LIMIT 21",
            ),
            (
                "head-to-head",
                "SELECT f.handle, q.played, q.won FROM player_pairs q JOIN profiles f"
                " ON f.id = q.other_id WHERE q.profile_id = 1 AND NOT q.partners"
                " ORDER BY q.played DESC, f.handle LIMIT 20",
            ),
        ):
            plan = conn.execute("EXPLAIN (ANALYZE, BUFFERS) " + sql).fetchall()
            print(f"plan, {label}:")
            for (line,) in plan[:8]:
                print("   ", line)


def _serve(url: str) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = dict(
        os.environ, DATABASE_URL=url, FIVEUP_RATE_LIMIT_ENABLED="false", FIVEUP_LOG_LEVEL="WARNING"
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2):
                return proc, base
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the server did not start")


def _report(label: str, ms: list[float]) -> None:
    ms.sort()
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(f"{label:44s} n={len(ms):5d}  p50 {statistics.median(ms):7.2f} ms  p99 {p99:7.2f} ms")


def measure(base: str, profiles: int, requests: int) -> None:
    rng = random.Random(25)
    with httpx.Client(base_url=base, timeout=30) as http:
        http.get("/api/players/p1")  # warm the pools
        first: list[float] = []
        second: list[float] = []
        page: list[float] = []
        for _ in range(requests):
            who = rng.randint(1, profiles)
            cookies = {"fiveup_session": f"bench-{who}"}
            t0 = time.perf_counter()
            r = http.get("/api/profile/games", cookies=cookies)
            first.append((time.perf_counter() - t0) * 1000)
            assert r.status_code == 200, r.text
            cursor = r.json()["next_before"]
            if cursor:
                t0 = time.perf_counter()
                r = http.get("/api/profile/games", params={"before": cursor}, cookies=cookies)
                second.append((time.perf_counter() - t0) * 1000)
                assert r.status_code == 200, r.text
            t0 = time.perf_counter()
            r = http.get(f"/api/players/p{rng.randint(1, profiles)}")
            page.append((time.perf_counter() - t0) * 1000)
            assert r.status_code == 200, r.text
        _report("GET /api/profile/games (page 1)", first)
        _report("GET /api/profile/games (page 2)", second)
        _report("GET /api/players/{handle}", page)
        heavy_games: list[float] = []
        heavy_page: list[float] = []
        for _ in range(max(1, requests // 10)):  # the heaviest player (profile 1)
            t0 = time.perf_counter()
            r = http.get("/api/profile/games", cookies={"fiveup_session": "bench-1"})
            heavy_games.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            r = http.get("/api/players/p1")
            heavy_page.append((time.perf_counter() - t0) * 1000)
            assert r.status_code == 200, r.text
        played = sum(s["played"] for s in r.json()["stats"] if s["players"] is not None)
        _report(f"GET /api/profile/games (p1, {played} matches)", heavy_games)
        _report("GET /api/players/p1", heavy_page)
        if http.get("/api/leaderboard").status_code == 404:
            print("GET /api/leaderboard: not on this server (skipped)")
        else:
            board = []
            for i in range(requests):
                pool = ("all", "2", "3", "4")[i % 4]
                t0 = time.perf_counter()
                r = http.get("/api/leaderboard", params={"pool": pool, "limit": 100})
                board.append((time.perf_counter() - t0) * 1000)
                assert r.status_code == 200, r.text
            _report("GET /api/leaderboard?pool=…&limit=100 (pools in turn)", board)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--admin", default="postgresql://postgres@127.0.0.1:5432/postgres")
    ap.add_argument("--profiles", type=int, default=10_000)
    ap.add_argument("--matches", type=int, default=100_000)
    ap.add_argument("--requests", type=int, default=2000)
    args = ap.parse_args()
    name = f"fiveup_bench_profiles_{secrets.token_hex(4)}"
    url = f"{args.admin.rsplit('/', 1)[0]}/{name}"
    with psycopg.connect(args.admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        command.upgrade(alembic_config(url), "0016")
        fill(url, args.profiles, args.matches)
        started = time.perf_counter()
        migrate_to_head(url)  # 0017 fills the players' running totals from the matches
        print(f"migration 0017 (the running totals) in {time.perf_counter() - started:.1f} s")
        plans(url)
        proc, base = _serve(url)
        try:
            measure(base, args.profiles, args.requests)
        finally:
            proc.terminate()
            proc.wait(10)
    finally:
        with psycopg.connect(args.admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()

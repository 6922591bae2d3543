#!/usr/bin/env bash
# The server's instructions per committed move, counted by valgrind's callgrind: a
# figure that does not drift with the machine's speed, as CPU seconds do here (±20 %
# between runs minutes apart), so that a change to the move path can be compared with
# its parent in one sitting (docs/benchmarks.md, "Counting instructions").
#
#   bench/server_instructions.sh [TABLES] [SECONDS]      (defaults: 40 tables, 40 s)
#
# What it does, on this machine only:
#   1. a scratch PostgreSQL database (created here, dropped at the end);
#   2. `fiveup serve` on it under `valgrind --tool=callgrind` (about 50 times slower);
#   3. bench/load_tables.py with TABLES two-seat tables playing flat out;
#   4. once every table plays, the counters are zeroed (callgrind_control -z), SECONDS
#      later dumped (-d), and the moves committed in between are counted in the database.
# It prints the moves, the instructions and their quotient. User-space instructions
# only: a system call counts as the instructions that make it, not the kernel's work.
# Under valgrind the server is saturated by a few tables, so its group commits hold more
# changes than at full speed; compare figures from this script with each other only.
#
# PY=.venv-native/bin/python counts the compiled build (-P: the app installed in PY's
# environment is served, not this checkout's app/).
# Environment: PGURL (postgresql://postgres@127.0.0.1:5432/postgres), PY (python3), PYTHONHASHSEED (0),
# PORT (a free one), KEEP_DUMP (a path: the callgrind dump is copied there, for
# `callgrind_annotate --inclusive=yes`), LOAD_ARGS (more bench/load_tables.py arguments:
# LOAD_ARGS="--think-ms 2000" counts a paced move, each alone in its commit). Needs valgrind (Debian's package).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/_serving.sh

tables="${1:-40}"
seconds="${2:-40}"
pgurl="${PGURL:-postgresql://postgres@127.0.0.1:5432/postgres}"
py="${PY:-python3}"
port="${PORT:-$("$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
db="fiveup_instructions_$$"
dburl="${pgurl%/*}/$db"
work="$(mktemp -d)"
server_pid=""
load_pid=""

cleanup() {
    [ -n "$load_pid" ] && kill "$load_pid" 2>/dev/null || true
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    psql -X "$pgurl" -qc "drop database if exists $db" >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
psql -X "$pgurl" -qc "create database $db" >/dev/null
export DATABASE_URL="$dburl" FIVEUP_LOG_LEVEL=WARNING FIVEUP_RATE_LIMIT_ENABLED=false
# the same hash seed in every run: dict and set order, and so the count, do not vary
export PYTHONHASHSEED="${PYTHONHASHSEED:-0}"
"$py" -P -m app.cli migrate >/dev/null
valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
    "$py" -P -m app.cli serve --host 127.0.0.1 --port "$port" >"$work/server.log" 2>&1 &
server_pid=$!
wait_healthy "$py" "$port" "$server_pid" "$work/server.log" 300

"$py" bench/load_tables.py --url "http://127.0.0.1:$port" --tables "$tables" \
    --duration $((seconds + 120)) --warmup 0 --quiet ${LOAD_ARGS:-} >"$work/load.log" 2>&1 &
load_pid=$!
moves() { psql -X -At "$dburl" -c "select count(*) from table_events where kind = 'move'"; }
# every table seated, connected and started (slow under valgrind), then a few moves each
for _ in $(seq 1 300); do
    [ "$(moves)" -ge $((tables * 5)) ] && break
    kill -0 "$load_pid" 2>/dev/null || { cat "$work/load.log" >&2; exit 1; }
    sleep 1
done
before=$(moves)
callgrind_control -z "$server_pid" >/dev/null 2>&1
sleep "$seconds"
callgrind_control -d "$server_pid" >/dev/null 2>&1
after=$(moves)
dump="$(ls -t "$work"/callgrind.out.* | head -1)"
[ -n "${KEEP_DUMP:-}" ] && cp "$dump" "$KEEP_DUMP"  # for callgrind_annotate
instructions="$(awk '/^(summary|totals):/ {print $2; exit}' "$dump")"
count=$((after - before))
echo "server under callgrind, $tables tables, ${seconds} s: committed moves=$count" \
    "instructions=$instructions per move=$((instructions / count))"

#!/usr/bin/env bash
# The whole load benchmark in one go, on this machine only:
#   1. a scratch PostgreSQL database (created here, dropped at the end),
#   2. the server on it (`fiveup serve` on 127.0.0.1:$PORT), started and stopped here,
#   3. bench/load_tables.py against it,
#   4. bench/pgbench_ceiling.sh at the same client concurrency, for comparison.
#
#   bench/run_load.sh [TABLES] [SECONDS] [extra load_tables.py args...]
#   e.g. bench/run_load.sh 500 30 --players 2
#
# Environment: PORT (a free one), PGURL (postgresql://postgres@127.0.0.1:5432/postgres),
# PY (python3), SKIP_PGBENCH=1 to skip step 4, SERVER_LOG (/tmp/fiveup-bench-server.log),
# SERVER_CMD (default "$PY -P -m app.cli serve": the app installed in PY's environment,
# not this checkout's app/ — PY=.venv-native/bin/python serves the compiled build,
# docs/benchmarks.md; e.g. "python3 bench/serve_variant.py
# --workers 2" for the what-if runs in docs/benchmarks.md).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/_serving.sh

tables="${1:-500}"
seconds="${2:-30}"
shift $(( $# >= 2 ? 2 : $# ))
port="${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
pgurl="${PGURL:-postgresql://postgres@127.0.0.1:5432/postgres}"
py="${PY:-python3}"
log="${SERVER_LOG:-/tmp/fiveup-bench-server.log}"
db="fiveup_bench_$$"
dburl="${pgurl%/*}/$db"
server_pid=""

cleanup() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    psql -X "$pgurl" -qc "drop database if exists $db" >/dev/null 2>&1 || true
}
trap cleanup EXIT

psql -X "$pgurl" -qc "create database $db" >/dev/null
echo "server: fiveup serve on 127.0.0.1:$port, DATABASE_URL=$dburl (log: $log)" >&2
# one client address plays every table: the per-address quotas would refuse it
DATABASE_URL="$dburl" FIVEUP_LOG_LEVEL="${FIVEUP_LOG_LEVEL:-WARNING}" FIVEUP_RATE_LIMIT_ENABLED=false \
    ${SERVER_CMD:-$py -P -m app.cli serve} --host 127.0.0.1 --port "$port" >"$log" 2>&1 &
server_pid=$!
wait_healthy "$py" "$port" "$server_pid" "$log" 60

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)," \
    "load average $(cut -d' ' -f1-3 /proc/loadavg) before the run" >&2
"$py" bench/load_tables.py --url "http://127.0.0.1:$port" --tables "$tables" --duration "$seconds" \
    --server-pid "$server_pid" "$@"
echo "server process: $(ps -o rss=,time= -p "$server_pid" | awk '{printf "RSS %.0f MiB, CPU time %s", $1/1024, $2}')" \
    "(workers, if any, not included)" >&2

if [ -z "${SKIP_PGBENCH:-}" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
    bench/pgbench_ceiling.sh "$tables" 20
fi

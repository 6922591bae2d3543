#!/usr/bin/env bash
# The database's own write ceiling on this machine, for comparison with
# bench/load_tables.py: `pgbench -N` (simple-update: one UPDATE, one SELECT, one
# INSERT per transaction) at a given client concurrency, on a scratch database that
# is created first and dropped afterwards. Local server only.
#
#   bench/pgbench_ceiling.sh [CLIENTS] [SECONDS]      # defaults: 500 clients, 20 s
#
# Environment: PGHOST (127.0.0.1), PGPORT (5432), PGUSER (postgres), SCALE (10).
# PostgreSQL refuses more connections than max_connections minus its reserved
# slots; when CLIENTS is above that, the run is made at the highest concurrency the
# server allows and the script says so (the server's configuration is not touched).
set -euo pipefail

clients="${1:-500}"
seconds="${2:-20}"
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
case "$PGHOST" in
    127.*|localhost|/*) ;;
    *) echo "refusing: this benchmark only targets the local server (PGHOST=$PGHOST)" >&2; exit 2 ;;
esac
scale="${SCALE:-10}"
db="fiveup_pgbench_$$"

q() { psql -X -d postgres -Atqc "$1"; }
max_conn="$(q 'show max_connections')"
reserved="$(q 'show superuser_reserved_connections')"
in_use="$(q 'select count(*) from pg_stat_activity where backend_type = '"'"'client backend'"'"'')"
allowed=$((max_conn - reserved - in_use - 2))
effective="$clients"
if [ "$clients" -gt "$allowed" ]; then
    effective="$allowed"
    echo "note: $clients clients asked for, but max_connections=$max_conn" \
        "(reserved $reserved, $in_use in use): running at $effective clients" >&2
fi
jobs=2
[ "$effective" -lt "$jobs" ] && jobs="$effective"

cleanup() { psql -X -d postgres -qc "drop database if exists $db" >/dev/null 2>&1 || true; }
trap cleanup EXIT
q "create database $db" >/dev/null
pgbench -i -q -s "$scale" "$db" >/dev/null 2>&1
out="$(pgbench -N -c "$effective" -j "$jobs" -T "$seconds" -n "$db" 2>&1)"
tps="$(printf '%s\n' "$out" | sed -n 's/^tps = \([0-9.]*\) .*/\1/p' | tail -n 1)"
lat="$(printf '%s\n' "$out" | sed -n 's/^latency average = \(.*\)$/\1/p')"
echo "pgbench -N -c $effective -j $jobs -T $seconds (scale $scale, $(nproc) cores," \
    "synchronous_commit=$(q 'show synchronous_commit')): tps=$tps latency_avg=$lat"
[ -n "$tps" ] || { printf '%s\n' "$out" >&2; exit 1; }

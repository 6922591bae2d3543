#!/usr/bin/env bash
# PostgreSQL's share of a flat-out load run: bench/run_load.sh (pgbench skipped), and
# while its window runs, the CPU time of every process of the `postgres` user over
# SAMPLE seconds and the game_tables row updates that stayed on their page (HOT).
#
#   bench/postgres_share.sh [TABLES] [SECONDS]      (defaults: 200 tables, 20 s)
#
# The load's own lines (moves/s, the server's CPU per move) come first, then
#   postgres CPU: <ticks> in <SAMPLE> s (100 ticks = one core for a second)
#   game_tables updates: <n>, HOT: <m> (<m/n> %)
# PostgreSQL's CPU per move is ticks / 100 / SAMPLE / (moves/s). Needs to run on the
# database's machine, as root or the postgres user (it reads /proc/<pid>/stat).
# Environment: as bench/run_load.sh (PY, PGURL, ...), SAMPLE (10), SETTLE (16: seconds
# from the start to the sampling, past the setup).
set -euo pipefail
cd "$(dirname "$0")/.."
tables="${1:-200}"
seconds="${2:-20}"
sample="${SAMPLE:-10}"
settle="${SETTLE:-16}"
pgurl="${PGURL:-postgresql://postgres@127.0.0.1:5432/postgres}"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT

ticks() {
    local total=0 t
    for pid in $(pgrep -u postgres || true); do
        t=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)
        total=$((total + ${t:-0}))
    done
    echo "$total"
}

SKIP_PGBENCH=1 bench/run_load.sh "$tables" "$seconds" >"$out" 2>&1 &
load=$!
sleep "$settle"
before=$(ticks)
sleep "$sample"
after=$(ticks)
db=$(psql -X -At "$pgurl" -c "select datname from pg_database where datname like 'fiveup_bench_%' limit 1")
hot=$(psql -X -At -F ' ' "${pgurl%/*}/$db" \
    -c "select n_tup_upd, n_tup_hot_upd from pg_stat_user_tables where relname = 'game_tables'")
wait "$load"
grep -E "tables=|server CPU" "$out"
echo "postgres CPU: $((after - before)) ticks in $sample s (100 ticks = one core for a second)"
read -r updates hot_updates <<<"$hot"
echo "game_tables updates: $updates, HOT: $hot_updates ($((100 * hot_updates / (updates > 0 ? updates : 1))) %)"

# Sourced by the bench scripts that start their own server (run_load.sh,
# server_instructions.sh).

# wait_healthy PY PORT PID LOG SECONDS: wait until the server on 127.0.0.1:PORT answers
# /healthz; if its process PID ends first, print its LOG and fail; give up after SECONDS.
wait_healthy() {
    local py="$1" port="$2" pid="$3" log="$4" seconds="$5"
    for _ in $(seq 1 "$seconds"); do
        if "$py" -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/healthz', timeout=5)" 2>/dev/null; then
            return 0
        fi
        kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; return 1; }
        sleep 1
    done
    echo "the server did not answer /healthz within $seconds s" >&2
    return 1
}

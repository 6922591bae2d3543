# Shared helpers for scripts/serve and scripts/test. Sourced, not run.
#
# Python environment (documented in README, "Python environment"):
#   * an already active virtualenv ($VIRTUAL_ENV) is used as it is;
#   * otherwise FIVEUP_VENV=0 uses the first Python >= 3.11 on PATH directly
#     (e.g. a machine-wide pyenv Python);
#   * otherwise (the default) a project-local virtualenv in ./.venv is created
#     from the first Python >= 3.11 on PATH and used.
# Dependencies are (re)installed only when pyproject.toml changed since the last
# install into that environment, so a second run is quick.

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

say() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Run a command as root: directly when we are root, else through sudo if that
# works without a password prompt; otherwise fail with the command to run.
as_root() {
    if [ "$(id -u)" = 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo -n "$@"
    else
        die "need root for: $*  (run it yourself, then re-run this script)"
    fi
}

find_base_python() {
    local cand
    for cand in python3.13 python3.12 python3.11 python3 python; do
        if command -v "$cand" >/dev/null 2>&1 &&
            "$cand" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            "$cand" -c 'import sys; print(sys.executable)'
            return 0
        fi
    done
    die "Python 3.11 or newer is needed (none found on PATH)"
}

# Sets PY to the interpreter to use and makes sure the project (with the given
# extras, e.g. "dev") is installed in it.
ensure_python() {
    local extras="${1:-}"
    if [ -n "${VIRTUAL_ENV:-}" ] && [ -x "$VIRTUAL_ENV/bin/python" ]; then
        PY="$VIRTUAL_ENV/bin/python"
    elif [ "${FIVEUP_VENV:-1}" = 0 ]; then
        PY="$(find_base_python)"
    else
        if [ ! -x "$ROOT/.venv/bin/python" ]; then
            local base
            base="$(find_base_python)"
            say "creating virtualenv .venv (from $base)"
            "$base" -m venv "$ROOT/.venv" ||
                die "could not create .venv (on Debian/Ubuntu: apt-get install python3-venv; or set FIVEUP_VENV=0)"
        fi
        PY="$ROOT/.venv/bin/python"
    fi
    export PATH="$(dirname "$PY"):$PATH"

    # Reinstall only when pyproject.toml (or the checkout's path) changed since
    # the last install of these extras into this environment.
    local prefix want stamp
    prefix="$("$PY" -c 'import sys; print(sys.prefix)')"
    want="$(sha256sum pyproject.toml | cut -c1-16) $ROOT"
    stamp="$prefix/.fiveup-installed-${extras:-base}"
    if [ "$(cat "$stamp" 2>/dev/null)" = "$want" ] ||
        { [ -z "$extras" ] && [ "$(cat "$prefix/.fiveup-installed-dev" 2>/dev/null)" = "$want" ]; }; then
        return 0
    fi
    local spec="."
    [ -n "$extras" ] && spec=".[$extras]"
    say "installing fiveup from $ROOT ($spec) into $prefix (first run: about 30 s)"
    # (The filter drops pip's noise about this machine's optional local indexes.)
    with_ticker "still installing" "$PY" -m pip install --quiet --disable-pip-version-check -e "$spec" \
        2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)
    printf '%s\n' "$want" >"$stamp"
}

# Debian's Chromium for the browser tests (never a Playwright browser download).
ensure_chromium() {
    if [ -n "${FIVEUP_CHROMIUM:-}" ] && [ -x "$FIVEUP_CHROMIUM" ]; then
        return 0
    fi
    local c
    for c in chromium chromium-browser; do
        if command -v "$c" >/dev/null 2>&1; then
            export FIVEUP_CHROMIUM="$(command -v "$c")"
            return 0
        fi
    done
    command -v apt-get >/dev/null 2>&1 ||
        die "Chromium is needed for the browser tests: install it and set FIVEUP_CHROMIUM=/path/to/chromium"
    say "installing Debian's chromium (apt-get)"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    export FIVEUP_CHROMIUM="$(command -v chromium)"
}

# promtool (Debian's prometheus package) checks the alert rules in docs/ (a test).
ensure_promtool() {
    command -v promtool >/dev/null 2>&1 && return 0
    command -v apt-get >/dev/null 2>&1 ||
        die "promtool is needed for the alert rules' test: install Prometheus (promtool on PATH)"
    say "installing Debian's prometheus (apt-get), for promtool"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null
}

# PostgreSQL for the server and browser tests. FIVEUP_TEST_PG_ADMIN (read by
# tests/conftest.py and tests/browser/conftest.py) names a database the tests
# may connect to; they create and drop their own scratch databases from there.
ensure_postgres() {
    export FIVEUP_TEST_PG_ADMIN="${FIVEUP_TEST_PG_ADMIN:-postgresql://postgres@127.0.0.1:5432/postgres}"
    if pg_reachable; then return 0; fi
    if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
        local ver
        ver="$(ls /etc/postgresql | sort -V | tail -n 1)"
        say "starting PostgreSQL $ver (pg_ctlcluster)"
        as_root pg_ctlcluster --skip-systemctl-redirect "$ver" main start || true
        local i
        for i in $(seq 1 30); do
            pg_reachable && return 0
            sleep 1
        done
    fi
    die "PostgreSQL is not reachable at $FIVEUP_TEST_PG_ADMIN (start one, or set FIVEUP_TEST_PG_ADMIN)"
}

pg_reachable() {
    "$PY" - "$FIVEUP_TEST_PG_ADMIN" <<'EOF' >/dev/null 2>&1
import sys, psycopg
url = sys.argv[1].replace("postgresql+psycopg://", "postgresql://", 1)
psycopg.connect(url, connect_timeout=3).close()
EOF
}

# with_ticker MESSAGE CMD...: run CMD, printing "MESSAGE (N s so far)" every 15 s while
# it runs, so a long install or compile never looks hung. The lines go to the script's
# own standard error (fd 9), whatever CMD's output is redirected to.
exec 9>&2
with_ticker() {
    local message="$1" started=$SECONDS ticker rc=0
    shift
    ( while sleep 15; do say "$message ($((SECONDS - started)) s so far)" 2>&9; done ) &
    ticker=$!
    "$@" || rc=$?
    kill "$ticker" 2>/dev/null || true
    wait "$ticker" 2>/dev/null || true
    return "$rc"
}

# The compiled build (setup.py, docs/decisions.md "The compiled move path"): this
# checkout's wheel, built with its modules compiled by mypyc and installed into
# ./.venv-native — with the given extras ("dev" for the tests, "" for scripts/serve; an
# environment that has the dev extras serves too). Rebuilt only when the package's files
# changed. Sets NATIVE_PY. Needs a C compiler (Debian's gcc is installed with apt-get if
# missing).
ensure_native_python() {
    local extras="${1-dev}" venv="$ROOT/.venv-native" want stamp dist base have spec
    want="$(
        {
            sha256sum pyproject.toml setup.py
            find app migrations static -type f -not -name '*.pyc' -print0 | sort -z | xargs -0 sha256sum
        } | sha256sum | cut -c1-16
    ) $ROOT"
    stamp="$venv/.fiveup-native"
    NATIVE_PY="$venv/bin/python"
    have="$(cat "$stamp" 2>/dev/null || true)"
    if [ -x "$NATIVE_PY" ] && { [ "$have" = "$want dev" ] || [ "$have" = "$want ${extras:-base}" ]; }; then
        return 0
    fi
    # Built for serving, now wanted with the dev extras: add them, no second compile.
    if [ -x "$NATIVE_PY" ] && [ "$have" = "$want base" ] && [ -n "$extras" ] &&
        [ -f "$(ls "$venv"/wheel/fiveup-*.whl 2>/dev/null | head -n 1)" ]; then
        say "adding the $extras extras to the compiled build in .venv-native"
        with_ticker "still installing" \
            "$NATIVE_PY" -m pip install --quiet --disable-pip-version-check \
            "$(ls "$venv"/wheel/fiveup-*.whl | head -n 1)[$extras]" \
            2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)
        printf '%s %s\n' "$want" "$extras" >"$stamp"
        return 0
    fi
    if ! command -v cc >/dev/null 2>&1 && ! command -v gcc >/dev/null 2>&1; then
        command -v apt-get >/dev/null 2>&1 ||
            die "a C compiler is needed for the compiled build (install gcc)"
        say "installing Debian's gcc (apt-get), for the compiled build"
        as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc >/dev/null
    fi
    base="$(find_base_python)"
    rm -rf "$venv"
    "$base" -m venv "$venv" || die "could not create .venv-native"
    dist="$(mktemp -d)"
    say "building the compiled wheel into .venv-native (mypyc and a C compile: about 2 minutes, once)"
    # (verbose, into a log: setup.py's warning, if it falls back to Python, is in it)
    with_ticker "still compiling the move path" \
        "$NATIVE_PY" -m pip wheel --verbose --disable-pip-version-check --no-deps -w "$dist" "$ROOT" \
        >"$dist/build.log" 2>&1 || { tail -n 40 "$dist/build.log" >&2; die "building the wheel failed"; }
    spec="$(ls "$dist"/fiveup-*.whl)"
    [ -n "$extras" ] && spec="$spec[$extras]"
    say "installing the compiled wheel${extras:+ with the $extras extras} into .venv-native"
    with_ticker "still installing" \
        "$NATIVE_PY" -m pip install --quiet --disable-pip-version-check "$spec" \
        2> >(grep -v "is ignored: it is neither a file nor a directory" >&2)
    if ! "$NATIVE_PY" -P -c 'from app.core.native import build_status as b; raise SystemExit(bool(b()["python"]))'; then
        grep -E "fiveup:|error:" "$dist/build.log" | head -n 20 >&2
        die "the wheel was built without its compiled modules (setup.py's reasons above)"
    fi
    mkdir -p "$venv/wheel"
    mv "$(ls "$dist"/fiveup-*.whl)" "$venv/wheel/"
    rm -rf "$dist"
    printf '%s %s\n' "$want" "${extras:-base}" >"$stamp"
}

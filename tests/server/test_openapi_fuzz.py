"""Schemathesis (pinned in pyproject) against the live server's ``/openapi.json``, every
check enabled, a bounded number of examples: no 5xx, no response that disagrees with the
schema, no schema-valid request refused for its shape, no invalid one accepted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .support import ServerProcess

EXAMPLES = 40


def test_openapi_schema_holds_under_fuzzing(live: ServerProcess, tmp_path: Path) -> None:
    _fuzz(live, tmp_path)


def test_the_operators_api_holds_under_fuzzing_with_its_token(pg_url: str, tmp_path: Path) -> None:
    """The same with an operator token set and sent: the operator's routes really run
    (all but the drain, which ends the process as it should: test_moderation.py)."""
    server = ServerProcess(pg_url, FIVEUP_OPERATOR_TOKEN="fuzz-operator").start()
    try:
        auth = ("-H", "Authorization: Bearer fuzz-operator")
        _fuzz(server, tmp_path, *auth, "--exclude-path", "/admin/api/drain")
    finally:
        server.stop()


def test_the_profile_routes_hold_under_fuzzing_from_the_sites_own_origin(
    pg_url: str, tmp_path: Path
) -> None:
    """The profile routes with this site's ``Origin``: past the Origin check, their
    bodies, ceremonies and links really run (without it they answer 403 bad_origin, which
    the first fuzz covers)."""
    server = ServerProcess(pg_url).start()
    try:
        origin = ("-H", f"Origin: {server.http}")
        _fuzz(server, tmp_path, *origin, "--include-path-regex", "^/api/profile")
    finally:
        server.stop()


def _fuzz(server: ServerProcess, tmp_path: Path, *extra: str) -> None:
    report = tmp_path / "schemathesis.txt"
    cmd = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "run",
        f"{server.http}/openapi.json",
        "--checks",
        "all",
        "--max-examples",
        str(EXAMPLES),
        "--workers",
        "1",
        "--seed",
        "1",
        "--no-color",
        *extra,
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    report.write_text(proc.stdout + proc.stderr)
    tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-60:])
    assert proc.returncode == 0, f"schemathesis found failures:\n{tail}"
    assert "generated" in proc.stdout, tail  # it really ran cases

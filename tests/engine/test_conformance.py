"""Every rules fixture passes, and the runner reports broken fixtures without crashing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.engine.conformance import check_file, run_fixture

FIXTURES = Path(__file__).resolve().parents[1] / "conformance" / "fixtures"
FILES = sorted(FIXTURES.glob("*.json"))


def test_all_seventeen_shared_fixtures_are_in_the_suite() -> None:
    assert len(FILES) >= 17


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_fixture_passes(path: Path) -> None:
    assert check_file(path) is None


def test_runner_command_prints_the_tally_and_exits_zero() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "app.engine.conformance", str(FIXTURES)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.strip().splitlines()[-1] == f"{len(FILES)} passed, 0 failed"


def test_runner_reports_malformed_and_wrong_fixtures_without_a_traceback(tmp_path: Path) -> None:
    good = json.loads((FIXTURES / "round-01-forced-draw.json").read_text())
    wrong = json.loads(json.dumps(good))
    wrong["actions"][0]["expect"]["points"] = 5
    short_deal = json.loads(json.dumps(good))
    short_deal["stock"] = short_deal["stock"][:-1]
    cases = {
        "not-json.json": "{",
        "unknown-kind.json": json.dumps({"name": "x", "kind": "poker", "rules": []}),
        "bad-notation.json": json.dumps(
            {"name": "x", "kind": "board", "rules": [], "steps": [{"move": "9|9"}]}
        ),
        "short-deal.json": json.dumps(short_deal),
        "wrong-points.json": json.dumps(wrong),
        "not-an-object.json": "[1, 2]",
    }
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
    out = subprocess.run(
        [sys.executable, "-m", "app.engine.conformance", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert out.returncode == 1
    assert "Traceback" not in out.stdout + out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[-1] == "0 passed, 6 failed"
    assert any(
        "wrong-points.json" in line and "action 1" in line and "points" in line for line in lines
    )
    assert any("short-deal.json" in line and "28 tiles" in line for line in lines)


def test_a_fixture_expecting_a_legal_move_to_be_refused_fails() -> None:
    fixture = {
        "name": "x",
        "kind": "board",
        "rules": [],
        "steps": [{"move": "1|4", "illegal": True}],
    }
    assert (
        run_fixture(fixture) == "step 1 ('1|4'): expected the move to be refused, it was accepted"
    )

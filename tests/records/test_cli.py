"""``fiveup record check|replay FILE`` as a user runs it: a real subprocess, with a
database URL that cannot answer (the commands must not need one), and the module
doctests of the fairness and records packages."""

from __future__ import annotations

import doctest
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.records import to_json, write_text

from .matches import recorded_match

REPO = Path(__file__).resolve().parents[2]


def fiveup(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DATABASE_URL="postgresql://nobody@127.0.0.1:1/nothing")
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_prints_valid_for_a_genuine_record_in_either_form(tmp_path: Path) -> None:
    _, record = recorded_match(3, 0)
    (tmp_path / "m.txt").write_text(write_text(record), encoding="utf-8")
    (tmp_path / "m.json").write_text(to_json(record), encoding="utf-8")
    for name in ("m.txt", "m.json"):
        done = fiveup("record", "check", str(tmp_path / name))
        assert (done.returncode, done.stdout) == (0, "valid\n"), done.stderr


def test_check_prints_the_line_of_the_first_problem_and_fails(tmp_path: Path) -> None:
    _, record = recorded_match(2, 1)
    lines = write_text(record).split("\n")
    i = next(n for n, s in enumerate(lines) if " = " in s)
    lines[i] = lines[i].replace(" = ", " = 9")
    (tmp_path / "bad.txt").write_text("\n".join(lines), encoding="utf-8")
    done = fiveup("record", "check", str(tmp_path / "bad.txt"))
    assert done.returncode == 1
    assert done.stdout.startswith(f"line {i + 1}: R3, R15: the scores after this move are")


def test_check_reports_a_file_that_is_not_a_record(tmp_path: Path) -> None:
    (tmp_path / "x.txt").write_text("hello\n", encoding="utf-8")
    done = fiveup("record", "check", str(tmp_path / "x.txt"))
    assert done.returncode == 1 and done.stdout.startswith("line ")


@pytest.mark.parametrize("action", ["check", "replay"])
def test_a_json_record_nested_100000_deep_gets_a_verdict_not_a_traceback(
    tmp_path: Path, action: str
) -> None:
    deep = tmp_path / "deep.json"
    # a JSON object (so it is read as the JSON form) whose "rounds" nests 100,000 deep
    deep.write_text(
        '{"format": "fiveup-record/1", "rounds": ' + "[" * 100_000 + "]" * 100_000 + "}"
    )
    done = fiveup("record", action, str(deep))
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout == "line 1: not a record: nested too deeply to be a record\n"
    assert "Traceback" not in done.stderr and "RecursionError" not in done.stderr


def test_replay_prints_the_layout_after_every_move(tmp_path: Path) -> None:
    _, record = recorded_match(2, 2)
    (tmp_path / "m.txt").write_text(write_text(record), encoding="utf-8")
    done = fiveup("record", "replay", str(tmp_path / "m.txt"))
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout.splitlines()
    moves = sum(len(r.moves) for r in record.rounds)
    assert len(out) == 2 * moves + 1 and out[-1] == "valid"
    first = record.rounds[0].moves[0]
    assert out[0] == f"round 1, 1. {first.seat} {first.move}"
    assert out[1] == f"  Tiles: [{first.move}]." + out[1].split(".", 1)[1]


@pytest.mark.parametrize(
    "name",
    [
        "app.fairness",
        "app.fairness.stream",
        "app.fairness.deal",
        "app.fairness.play",
        "app.fairness.verify",
        "app.records",
        "app.records.model",
        "app.records.build",
        "app.records.text",
        "app.records.jsonform",
        "app.records.check",
    ],
)
def test_module_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0

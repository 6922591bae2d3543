"""``fiveup record check FILE`` and ``fiveup record replay FILE``: no database needed
(``fiveup record import FILE``, which needs one, is run by app/cli.py).

FILE is a record in the text form or the JSON form (told apart by a leading ``{``);
``-`` reads standard input. ``check`` prints ``valid`` (exit 0) or ``line N: problem``
(exit 1); ``replay`` prints the engine's description of the layout after every move,
then the check's verdict.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from app.engine import Match, describe_layout

from .check import check
from .jsonform import from_json
from .model import MoveLine, Record
from .text import RecordSyntaxError, parse_text


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``record`` command and its ``check``/``replay`` subcommands."""
    record = sub.add_parser("record", help="check, replay or import a match record")
    actions = record.add_subparsers(dest="action", required=True)
    for name, text in (
        ("check", "replay a record through the rules engine; print valid or the first problem"),
        ("replay", "print the layout description after every move of a record"),
        ("import", "check a record, then insert it as a finished table (DATABASE_URL)"),
    ):
        action = actions.add_parser(name, help=text)
        action.add_argument("file", help="a record, text or JSON form; - for standard input")


def read(path: str) -> str:
    """The file's text (``-``: standard input)."""
    if path == "-":
        return sys.stdin.read()
    with open(path, encoding="utf-8") as f:
        return f.read()


def load(text: str) -> Record:
    """A record from its text or JSON form."""
    if text.lstrip().startswith("{"):
        return from_json(text)
    return parse_text(text)


def run(action: str, path: str, out: TextIO = sys.stdout) -> int:
    """Run ``check`` or ``replay`` on the file at ``path``; the exit status."""
    try:
        record = load(read(path))
    except RecordSyntaxError as exc:
        print(exc, file=out)
        return 1
    except (OSError, ValueError) as exc:
        print(f"line 1: not a record: {exc}", file=out)
        return 1

    def show(move: MoveLine, match: Match) -> None:
        number = len(match.round.log)
        print(f"round {match.round_number}, {number}. {move.seat} {move.move}", file=out)
        print(f"  {describe_layout(match.round.layout)}", file=out)

    result = check(record, show if action == "replay" else None)
    print(result, file=out)
    return 0 if result.ok else 1


__all__ = ["add_parser", "load", "read", "run"]

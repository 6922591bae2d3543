"""The JSON form of a match record: the same content as the text form, as an object
(docs/record.md). ``from_json(to_json(r)) == r``.

>>> from app.records.text import EXAMPLE, parse_text
>>> rec = parse_text(EXAMPLE)
>>> from_json(to_json(rec)) == rec, json.loads(to_json(rec))["format"]
(True, 'fiveup-record/1')
"""

from __future__ import annotations

import json
from typing import Any

from .model import FORMAT, Leftover, MoveLine, Record, RoundRecord


def _move(m: MoveLine) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": m.seat, "move": m.move}
    if m.move == "draw":
        out["drawn"] = m.drawn
        out["must_play"] = m.must_play
    elif m.move != "pass":
        out["points"] = m.points
        out["scores"] = list(m.scores or ())
    return out


def _round(r: RoundRecord) -> dict[str, Any]:
    out: dict[str, Any] = {
        "round": r.number,
        "commitment": r.commitment,
        "seed": r.seed,
        "hands": [list(h) for h in r.hands],
        "stock": list(r.stock),
        "starter": r.starter,
        "starter_by": r.starter_by,
        "moves": [_move(m) for m in r.moves],
    }
    if r.resigned is not None:  # the round in play: no end, the resignation instead
        out["resigned"] = r.resigned
        return out
    out["end"] = {
        "result": r.result,
        "finisher": r.finisher,
        "hands": [list(x.tiles) for x in r.left],
        "pips": [x.pips for x in r.left],
        "deductions": [x.deduction for x in r.left],
        "scores": list(r.scores),
    }
    return out


def to_data(record: Record) -> dict[str, Any]:
    """The record as JSON-compatible data (``resigned`` only in a resigned match's
    record, at the top and in its last round instead of ``end``)."""
    out: dict[str, Any] = {
        "format": FORMAT,
        "date": record.date,
        "table": record.table,
        "match": record.match,
        "seats": list(record.seats),
        "sides": [list(s) for s in record.sides],
        "target": record.target,
        "winner": record.winner,
        "scores": list(record.scores),
        "rounds": [_round(r) for r in record.rounds],
    }
    if record.resigned is not None:
        out["resigned"] = record.resigned
    return out


def to_json(record: Record) -> str:
    """The JSON form (UTF-8 text, two-space indented, ends with a newline)."""
    return json.dumps(to_data(record), ensure_ascii=False, indent=2) + "\n"


def _move_from(data: dict[str, Any]) -> MoveLine:
    move = str(data["move"])
    if move == "draw":
        return MoveLine(int(data["seat"]), move, drawn=data["drawn"], must_play=data["must_play"])
    if move == "pass":
        return MoveLine(int(data["seat"]), move)
    scores = tuple(int(s) for s in data["scores"])
    return MoveLine(int(data["seat"]), move, int(data["points"]), scores)


def _resigned_round(r: dict[str, Any]) -> RoundRecord:
    if r["starter_by"] not in ("lot", "finisher"):
        raise ValueError("starter_by is lot|finisher")
    return RoundRecord(
        number=int(r["round"]),
        hands=tuple(tuple(h) for h in r["hands"]),
        stock=tuple(r["stock"]),
        starter=int(r["starter"]),
        starter_by=r["starter_by"],
        moves=tuple(_move_from(m) for m in r["moves"]),
        result=None,
        finisher=None,
        left=(),
        scores=(),
        commitment=r["commitment"],
        seed=r["seed"],
        resigned=int(r["resigned"]),
    )


def from_data(data: dict[str, Any]) -> Record:
    """A record from :func:`to_data`'s shape; raises ``ValueError`` if malformed."""
    try:
        if data["format"] != FORMAT:
            raise ValueError(f"unknown record format {data['format']!r} (not {FORMAT})")
        rounds = []
        for r in data["rounds"]:
            if "resigned" in r:
                rounds.append(_resigned_round(r))
                continue
            end = r["end"]
            if r["starter_by"] not in ("lot", "finisher") or end["result"] not in (
                "domino",
                "blocked",
            ):
                raise ValueError("starter_by is lot|finisher, end.result domino|blocked")
            rounds.append(
                RoundRecord(
                    number=int(r["round"]),
                    hands=tuple(tuple(h) for h in r["hands"]),
                    stock=tuple(r["stock"]),
                    starter=int(r["starter"]),
                    starter_by=r["starter_by"],
                    moves=tuple(_move_from(m) for m in r["moves"]),
                    result=end["result"],
                    finisher=end["finisher"],
                    left=tuple(
                        Leftover(s, tuple(t), int(p), int(d))
                        for s, (t, p, d) in enumerate(
                            zip(end["hands"], end["pips"], end["deductions"], strict=True)
                        )
                    ),
                    scores=tuple(int(s) for s in end["scores"]),
                    commitment=r["commitment"],
                    seed=r["seed"],
                )
            )
        return Record(
            date=str(data["date"]),
            table=str(data["table"]),
            match=int(data["match"]),
            seats=tuple(str(s) for s in data["seats"]),
            sides=tuple(tuple(int(x) for x in s) for s in data["sides"]),
            target=int(data["target"]),
            winner=None if data["winner"] is None else int(data["winner"]),
            scores=tuple(int(s) for s in data["scores"]),
            rounds=tuple(rounds),
            resigned=None if data.get("resigned") is None else int(data["resigned"]),
        )
    except (KeyError, TypeError) as exc:
        raise ValueError(f"malformed record: {exc!r}") from exc


def from_json(text: str) -> Record:
    """Read the JSON form; raises ``ValueError`` if it is not a record (a nesting too
    deep for the parser included: a record is five levels deep, and a file nested
    thousands of levels gets the same verdict as any other that is not a record).

    >>> from_json("[" * 100_000 + "]" * 100_000)
    Traceback (most recent call last):
    ...
    ValueError: nested too deeply to be a record
    """
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply to be a record") from None
    if not isinstance(data, dict):
        raise ValueError("a JSON record is an object")
    return from_data(data)


__all__ = ["from_data", "from_json", "to_data", "to_json"]

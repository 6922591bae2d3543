"""The text form of a match record (docs/record.md): :func:`write_text` and
:func:`parse_text`. One statement per line; header tags in the manner of chess's PGN
with JSON string values; rounds as keyword lines. ``parse_text(write_text(r)) == r``.

>>> rec = parse_text(EXAMPLE)
>>> rec.seats, rec.rounds, write_text(rec) == EXAMPLE
(('Ann', 'Bob'), (), True)
>>> parse_text(EXAMPLE.replace('"61"', '"sixty"'))
Traceback (most recent call last):
...
app.records.text.RecordSyntaxError: line 8: Target: expected a whole number, got 'sixty'
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, Final

from app.engine import parse_move, parse_tile

from .model import FORMAT, Leftover, MoveLine, Record, RoundRecord, StarterBy

EXAMPLE: Final = (
    f'[Format "{FORMAT}"]\n[Date "2026-11-30"]\n[Table "ABC123"]\n[Match "1"]\n'
    '[Seat0 "Ann"]\n[Seat1 "Bob"]\n[Sides "0 | 1"]\n[Target "61"]\n[Result "*"]\n'
    '[Scores "0 0"]\n'
)
"""A record of a match before its first round ended (no rounds yet)."""
_TAG_RE: Final = re.compile(r'\[([A-Za-z][A-Za-z0-9]*) (".*")\]')
_HEX_RE: Final = re.compile(r"[0-9a-f]{64}")


class RecordSyntaxError(ValueError):
    """Text that is not a well-formed record; ``line`` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.problem = message


# -- writing -----------------------------------------------------------------------------
def _tag(key: str, value: str) -> str:
    return f"[{key} {json.dumps(value, ensure_ascii=False)}]"


def _nums(values: tuple[int, ...] | list[int]) -> str:
    return " ".join(str(v) for v in values)


def _tiles(tiles: tuple[str, ...]) -> str:
    return " ".join(tiles) if tiles else "-"


def _move_text(index: int, m: MoveLine) -> str:
    head = f"{index}. {m.seat} {m.move}"
    if m.move == "draw":
        return f"{head} {m.drawn or '?'}" + (" must" if m.must_play else "")
    if m.move == "pass":
        return head
    return f"{head} +{m.points} = {_nums(m.scores or ())}"


def write_text(record: Record) -> str:
    """The canonical text form (ends with a newline)."""
    out = [
        _tag("Format", FORMAT),
        _tag("Date", record.date),
        _tag("Table", record.table),
        _tag("Match", str(record.match)),
    ]
    out += [_tag(f"Seat{s}", name) for s, name in enumerate(record.seats)]
    out.append(_tag("Sides", " | ".join(_nums(side) for side in record.sides)))
    out.append(_tag("Target", str(record.target)))
    out.append(_tag("Result", "*" if record.winner is None else str(record.winner)))
    out.append(_tag("Scores", _nums(record.scores)))
    if record.resigned is not None:
        out.append(_tag("Termination", f"resigned {record.resigned}"))
    for r in record.rounds:
        out.append(_tag(f"Commit{r.number}", r.commitment or "-"))
        out.append(_tag(f"Seed{r.number}", r.seed or "-"))
    for r in record.rounds:
        out += ["", f"round {r.number}"]
        out += [f"hand {s} {_tiles(hand)}" for s, hand in enumerate(r.hands)]
        out.append(f"stock {_tiles(r.stock)}")
        out.append(f"starter {r.starter} {r.starter_by}")
        out += [_move_text(i + 1, m) for i, m in enumerate(r.moves)]
        if r.resigned is not None:
            out.append(f"resigned {r.resigned}")
            continue
        out.append(f"end domino {r.finisher}" if r.result == "domino" else "end blocked")
        out += [
            f"left {x.seat} {_tiles(x.tiles)} pips {x.pips} minus {x.deduction}" for x in r.left
        ]
        out.append(f"scores {_nums(r.scores)}")
    return "\n".join(out) + "\n"


# -- reading -----------------------------------------------------------------------------
class _Lines:
    """The meaningful lines (not blank, not ``;`` comments) with their numbers."""

    def __init__(self, text: str) -> None:
        self.items = [
            (n, line.strip())
            for n, line in enumerate(text.splitlines(), start=1)
            if line.strip() and not line.lstrip().startswith(";")
        ]
        self.pos = 0
        self.last = len(text.splitlines()) or 1

    def peek(self) -> tuple[int, str] | None:
        return self.items[self.pos] if self.pos < len(self.items) else None

    def take(self, what: str) -> tuple[int, list[str]]:
        item = self.peek()
        if item is None:
            raise RecordSyntaxError(self.last, f"the record ends where {what} was expected")
        self.pos += 1
        return item[0], item[1].split()


def _int(line: int, token: str, what: str) -> int:
    if not re.fullmatch(r"-?[0-9]+", token):
        raise RecordSyntaxError(line, f"{what}: expected a whole number, got {token!r}")
    return int(token)


def _tile_list(line: int, tokens: list[str]) -> tuple[str, ...]:
    if tokens == ["-"]:
        return ()
    for t in tokens:
        try:
            parse_tile(t)
        except ValueError as exc:
            raise RecordSyntaxError(line, str(exc)) from None
    return tuple(tokens)


def _expect(line: int, tokens: list[str], keyword: str, at_least: int) -> None:
    if not tokens or tokens[0] != keyword or len(tokens) < at_least:
        got = " ".join(tokens)
        raise RecordSyntaxError(line, f"expected a '{keyword}' line here, got {got!r}")


def _header(lines: _Lines) -> tuple[dict[str, str], dict[str, int]]:
    values: dict[str, str] = {}
    where: dict[str, int] = {}
    while (item := lines.peek()) is not None and item[1].startswith("["):
        n, text = item
        lines.pos += 1
        found = _TAG_RE.fullmatch(text)
        value: Any = None
        if found:
            try:
                value = json.loads(found.group(2))
            except ValueError:
                value = None
        if not found or not isinstance(value, str):
            raise RecordSyntaxError(n, 'a header tag is [Key "value"], the value a JSON string')
        key = found.group(1)
        if key in values:
            raise RecordSyntaxError(n, f"tag {key} appears twice")
        values[key], where[key] = value, n
    return values, where


def _move(n: int, tokens: list[str], index: int) -> MoveLine:
    if len(tokens) < 3 or tokens[0] != f"{index}.":
        raise RecordSyntaxError(n, f"expected move {index} ('{index}. SEAT MOVE …') here")
    seat = _int(n, tokens[1], "seat")
    text = tokens[2]
    try:
        parse_move(text)
    except ValueError as exc:
        raise RecordSyntaxError(n, str(exc)) from None
    rest = tokens[3:]
    if text == "draw":
        if not 1 <= len(rest) <= 2 or (len(rest) == 2 and rest[1] != "must"):
            raise RecordSyntaxError(
                n, "a draw is 'N. SEAT draw TILE' with 'must' if it must be laid"
            )
        (drawn,) = _tile_list(n, rest[:1])
        return MoveLine(seat, text, drawn=drawn, must_play=len(rest) == 2, line=n)
    if text == "pass":
        if rest:
            raise RecordSyntaxError(n, "a pass is 'N. SEAT pass'")
        return MoveLine(seat, text, line=n)
    if len(rest) < 3 or not rest[0].startswith("+") or rest[1] != "=":
        raise RecordSyntaxError(n, "a placement is 'N. SEAT MOVE +POINTS = SCORES…'")
    points = _int(n, rest[0][1:], "points")
    scores = tuple(_int(n, t, "score") for t in rest[2:])
    return MoveLine(seat, text, points, scores, line=n)


def _round(lines: _Lines, players: int) -> RoundRecord:
    n_round, tokens = lines.take("'round N'")
    _expect(n_round, tokens, "round", 2)
    number = _int(n_round, tokens[1], "round number")
    hands: list[tuple[str, ...]] = []
    hand_lines: list[int] = []
    for seat in range(players):
        n, tokens = lines.take(f"'hand {seat} …'")
        _expect(n, tokens, "hand", 3)
        if _int(n, tokens[1], "seat") != seat:
            raise RecordSyntaxError(n, f"expected the hand of seat {seat} here")
        hands.append(_tile_list(n, tokens[2:]))
        hand_lines.append(n)
    n_stock, tokens = lines.take("'stock …'")
    _expect(n_stock, tokens, "stock", 2)
    stock = _tile_list(n_stock, tokens[1:])
    n_starter, tokens = lines.take("'starter SEAT lot|finisher'")
    _expect(n_starter, tokens, "starter", 3)
    if len(tokens) != 3 or tokens[2] not in ("lot", "finisher"):
        raise RecordSyntaxError(n_starter, "expected 'starter SEAT lot' or 'starter SEAT finisher'")
    starter = _int(n_starter, tokens[1], "starter")
    starter_by: StarterBy = "lot" if tokens[2] == "lot" else "finisher"
    moves: list[MoveLine] = []
    while (item := lines.peek()) is not None and not item[1].startswith(("end", "resigned")):
        n, tokens = lines.take("a move")
        moves.append(_move(n, tokens, len(moves) + 1))
    n_end, tokens = lines.take("'end domino SEAT', 'end blocked' or 'resigned SEAT'")
    if tokens[0] == "resigned":
        if len(tokens) != 2:
            raise RecordSyntaxError(n_end, "a resignation is 'resigned SEAT'")
        return RoundRecord(
            number=number,
            hands=tuple(hands),
            stock=stock,
            starter=starter,
            starter_by=starter_by,
            moves=tuple(moves),
            result=None,
            finisher=None,
            left=(),
            scores=(),
            resigned=_int(n_end, tokens[1], "seat"),
            line=n_round,
            hand_lines=tuple(hand_lines),
            stock_line=n_stock,
            starter_line=n_starter,
            end_line=n_end,
        )
    if tokens == ["end", "blocked"]:
        result, finisher = "blocked", None
    elif len(tokens) == 3 and tokens[:2] == ["end", "domino"]:
        result, finisher = "domino", _int(n_end, tokens[2], "finisher")
    else:
        raise RecordSyntaxError(n_end, "expected 'end domino SEAT' or 'end blocked'")
    left: list[Leftover] = []
    for seat in range(players):
        n, tokens = lines.take(f"'left {seat} …'")
        _expect(n, tokens, "left", 7)
        if tokens[-4] != "pips" or tokens[-2] != "minus" or _int(n, tokens[1], "seat") != seat:
            raise RecordSyntaxError(n, f"expected 'left {seat} TILES pips P minus D' here")
        tiles = _tile_list(n, tokens[2:-4])
        pips, minus = _int(n, tokens[-3], "pips"), _int(n, tokens[-1], "deduction")
        left.append(Leftover(seat, tiles, pips, minus, line=n))
    n_scores, tokens = lines.take("'scores …'")
    _expect(n_scores, tokens, "scores", 2)
    return RoundRecord(
        number=number,
        hands=tuple(hands),
        stock=stock,
        starter=starter,
        starter_by=starter_by,
        moves=tuple(moves),
        result="domino" if result == "domino" else "blocked",
        finisher=finisher,
        left=tuple(left),
        scores=tuple(_int(n_scores, t, "score") for t in tokens[1:]),
        line=n_round,
        hand_lines=tuple(hand_lines),
        stock_line=n_stock,
        starter_line=n_starter,
        end_line=n_end,
        scores_line=n_scores,
    )


def _sides(line: int, value: str) -> tuple[tuple[int, ...], ...]:
    sides = tuple(tuple(_int(line, t, "Sides") for t in part.split()) for part in value.split("|"))
    if any(not side for side in sides):
        raise RecordSyntaxError(line, "Sides: expected seat numbers, sides separated by |")
    return sides


def _hex_or_none(line: int, key: str, value: str) -> str | None:
    if value == "-":
        return None
    if not _HEX_RE.fullmatch(value):
        raise RecordSyntaxError(line, f"{key}: expected 64 lowercase hex digits or -")
    return value


def _header_record(values: dict[str, str], where: dict[str, int]) -> Iterator[tuple[str, Any]]:
    """The header's fixed tags, checked and converted (Seat/Commit/Seed tags apart)."""

    def get(key: str) -> tuple[str, int]:
        if key not in values:
            raise RecordSyntaxError(min(where.values(), default=1), f"the header has no {key} tag")
        return values[key], where[key]

    fmt, line = get("Format")
    if fmt != FORMAT:
        raise RecordSyntaxError(line, f"unknown record format {fmt!r} (not {FORMAT})")
    yield "date", get("Date")[0]
    yield "table", get("Table")[0]
    value, line = get("Match")
    yield "match", _int(line, value, "Match")
    value, line = get("Sides")
    yield "sides", _sides(line, value)
    value, line = get("Target")
    yield "target", _int(line, value, "Target")
    value, line = get("Result")
    yield "winner", None if value == "*" else _int(line, value, "Result")
    value, line = get("Scores")
    yield "scores", tuple(_int(line, t, "Scores") for t in value.split())
    if "Termination" in values:
        value, line = get("Termination")
        how = value.split()
        if len(how) != 2 or how[0] != "resigned":
            raise RecordSyntaxError(line, "Termination: expected 'resigned SEAT'")
        yield "resigned", _int(line, how[1], "Termination")


def parse_text(text: str) -> Record:
    """Read a record's text form; raises :class:`RecordSyntaxError` (a ``ValueError``)."""
    lines = _Lines(text)
    values, where = _header(lines)
    fields = dict(_header_record(values, where))
    seats: list[str] = []
    while f"Seat{len(seats)}" in values:
        seats.append(values[f"Seat{len(seats)}"])
    if not 2 <= len(seats) <= 4:
        line = where.get("Seat0", min(where.values(), default=1))
        raise RecordSyntaxError(line, "R2: the header names 2, 3 or 4 seats, Seat0 …")
    rounds: list[RoundRecord] = []
    while lines.peek() is not None:
        if rounds and rounds[-1].resigned is not None:
            n = rounds[-1].end_line
            raise RecordSyntaxError(n, "a resignation ends the match: no round follows it")
        r = _round(lines, len(seats))
        if r.number != len(rounds) + 1:
            raise RecordSyntaxError(r.line, f"expected round {len(rounds) + 1} here")
        ck, sk = f"Commit{r.number}", f"Seed{r.number}"
        if ck not in values or sk not in values:
            raise RecordSyntaxError(r.line, f"the header has no {ck} and {sk} tags")
        rounds.append(
            replace(
                r,
                commitment=_hex_or_none(where[ck], ck, values[ck]),
                seed=_hex_or_none(where[sk], sk, values[sk]),
                commit_line=where[ck],
                seed_line=where[sk],
            )
        )
    known = {"Format", "Date", "Table", "Match", "Sides", "Target", "Result", "Scores"}
    known.add("Termination")
    known |= {f"Seat{s}" for s in range(len(seats))}
    known |= {f"{k}{r.number}" for r in rounds for k in ("Commit", "Seed")}
    for key in values:
        if key not in known:
            raise RecordSyntaxError(where[key], f"unknown header tag {key}")
    return Record(seats=tuple(seats), rounds=tuple(rounds), lines=dict(where), **fields)


__all__ = ["EXAMPLE", "RecordSyntaxError", "parse_text", "write_text"]

"""Checking a record against the rules: replay every round through the engine and report
the first problem with its line in the text form, or ``valid`` (docs/record.md).

Problems: a tag the rules contradict (R2 sides, R4 target), a commitment that does not
match its revealed seed, a deal that is not the committed one or not a deal at all (R1,
R6), a wrong starter (R7, R23), an illegal move, points or scores that disagree with the
rules (R3, R15), a draw that is not the next stock tile (R18), a wrong end or
settlement (R21, R22), a round after the match was won (R24), a wrong result. A
resigned record (``Termination``) may end with the round in play: its moves are
replayed, then the resignation (a table's decision, not a rule: ``Match.resign``), and
Result and Scores are checked against what the resignation gives.

>>> from app.records.text import EXAMPLE, parse_text
>>> str(check(parse_text(EXAMPLE)))
'valid'
>>> str(check(parse_text(EXAMPLE.replace('"61"', '"50"'))))
'line 8: R4: a match is played to 61, not 50'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from app.engine import TARGET, Match, sides_seats
from app.fairness import DealIds, commitment, deal_from_seed

from .model import MoveLine, Record, RoundRecord
from .text import RecordSyntaxError, parse_text, write_text

OnMove = Callable[[MoveLine, Match], None]


@dataclass(frozen=True)
class CheckResult:
    """``ok`` with ``problem == "valid"``, or the first problem and its 1-based ``line``.
    ``match`` is the engine's match after the replay (``None`` when a problem stopped
    it): its ``to_dict()`` is what the server stores for an imported record."""

    ok: bool
    line: int
    problem: str
    match: Match | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return "valid" if self.ok else f"line {self.line}: {self.problem}"


class _Problem(Exception):
    def __init__(self, line: int, problem: str) -> None:
        super().__init__(problem)
        self.line = line
        self.problem = problem


def _nums(values: tuple[int, ...] | list[int]) -> str:
    return " ".join(str(v) for v in values) or "-"


def _check_header(rec: Record) -> None:
    line = rec.header_line
    sides = tuple(tuple(s) for s in sides_seats(rec.players))
    if rec.sides != sides:
        shown = " | ".join(_nums(s) for s in sides)
        raise _Problem(line("Sides"), f"R2: with {rec.players} players the sides are {shown}")
    if rec.target != TARGET:
        raise _Problem(line("Target"), f"R4: a match is played to {TARGET}, not {rec.target}")
    for r in rec.rounds:
        if r.seed is None and r.commitment is None:
            continue
        if r.seed is None:
            raise _Problem(r.seed_line, "a finished round's seed is revealed with its commitment")
        if r.commitment is None:
            raise _Problem(r.seed_line, "a seed without its published commitment proves nothing")
        try:
            ids = DealIds(rec.table, rec.match, r.number)
        except ValueError as exc:
            raise _Problem(line("Table"), f"no deal can be bound to this table: {exc}") from None
        if commitment(bytes.fromhex(r.seed), ids) != r.commitment:
            raise _Problem(
                r.commit_line,
                f"the commitment does not match Seed{r.number}: the deal was not the one "
                "committed to before the round (docs/fairness.md)",
            )


def _check_deal(rec: Record, r: RoundRecord) -> None:
    seen: set[str] = set()
    for hand, n in zip(r.hands, r.hand_lines, strict=True):
        if len(hand) != 5:
            raise _Problem(n, f"R6: a hand is dealt 5 tiles, this one has {len(hand)}")
    for tile, n in zip(
        [t for h in r.hands for t in h] + list(r.stock), _tile_lines(r), strict=True
    ):
        if tile in seen:
            raise _Problem(n, f"R1: {tile} is dealt twice")
        seen.add(tile)
    if len(r.stock) != 28 - 5 * rec.players:
        raise _Problem(r.stock_line, f"R6: the stock holds {28 - 5 * rec.players} tiles")
    if r.seed is None:
        return
    deal = deal_from_seed(
        bytes.fromhex(r.seed), rec.players, DealIds(rec.table, rec.match, r.number)
    )
    for seat, (hand, n) in enumerate(zip(r.hands, r.hand_lines, strict=True)):
        if sorted(hand) != sorted(deal.hands[seat]):
            raise _Problem(
                n, f"seat {seat}'s hand is not the committed deal's {' '.join(deal.hands[seat])}"
            )
    for k, (tile, due) in enumerate(zip(r.stock, deal.stock, strict=True)):
        if tile != due:
            raise _Problem(
                r.stock_line,
                f"the stock order is not the committed one: tile {k + 1} is {tile}, "
                f"the seed gives {due}",
            )


def _tile_lines(r: RoundRecord) -> list[int]:
    """The line of each dealt tile: hands in seat order, then the stock."""
    return [n for hand, n in zip(r.hands, r.hand_lines, strict=True) for _ in hand] + [
        r.stock_line
    ] * len(r.stock)


def _check_starter(rec: Record, r: RoundRecord, match: Match | None) -> None:
    previous = None if match is None else match.settlement
    by = "finisher" if previous is not None and previous["result"] == "domino" else "lot"
    if r.starter_by != by:
        rule = "R23" if previous is not None else "R7"
        raise _Problem(r.starter_line, f"{rule}: this round's starter is chosen by the {by}")
    if by == "finisher" and previous is not None and r.starter != previous["finisher"]:
        raise _Problem(r.starter_line, f"R23: seat {previous['finisher']} finished and starts")
    if not 0 <= r.starter < rec.players:
        raise _Problem(r.starter_line, f"R7: there is no seat {r.starter}")
    if by == "lot" and r.seed is not None:
        ids = DealIds(rec.table, rec.match, r.number)
        lot = deal_from_seed(bytes.fromhex(r.seed), rec.players, ids).lot
        if r.starter != lot:
            raise _Problem(r.starter_line, f"R7: the committed lot chose seat {lot}")


def _play(match: Match, m: MoveLine, on_move: OnMove | None) -> None:
    try:
        ev = match.play(m.seat, m.move)
    except ValueError as exc:
        raise _Problem(m.line, f"illegal move {m.move} by seat {m.seat}: {exc}") from None
    if m.move == "draw":
        if ev["drawn"] != m.drawn:
            raise _Problem(
                m.line, f"R18: the next stock tile is {ev['drawn']}, the record says {m.drawn}"
            )
        if ev["must_play"] != m.must_play:
            must = "must" if ev["must_play"] else "need not"
            raise _Problem(m.line, f"R18: {ev['drawn']} {must} be laid at once")
    elif m.move != "pass":
        if ev["points"] != m.points:
            raise _Problem(
                m.line, f"R15: this placement earns {ev['points']} raw points, not {m.points}"
            )
        if tuple(ev["scores"]) != m.scores:
            raise _Problem(
                m.line,
                f"R3, R15: the scores after this move are {_nums(ev['scores'])}, "
                f"not {_nums(m.scores or ())}",
            )
    if on_move is not None:
        on_move(m, match)


def _check_end(r: RoundRecord, match: Match) -> None:
    if not match.round_over:
        raise _Problem(
            r.end_line,
            f"R21: the round is not over after these moves: seat {match.turn} is to play",
        )
    st = match.settlement
    assert st is not None
    if (st["result"], st["finisher"]) != (r.result, r.finisher):
        how = f"domino {st['finisher']}" if st["result"] == "domino" else "blocked"
        raise _Problem(r.end_line, f"R20, R21: the round ends {how}")
    for x in r.left:
        seat = x.seat
        if sorted(x.tiles) != sorted(st["hands"][seat]):
            held = " ".join(st["hands"][seat]) or "-"
            raise _Problem(x.line, f"R22: seat {seat} is left with {held}")
        if (x.pips, x.deduction) != (st["pips"][seat], st["deductions"][seat]):
            raise _Problem(
                x.line,
                f"R22: {st['pips'][seat]} pips, rounded to the nearest 5, "
                f"cost {st['deductions'][seat]}",
            )
    if tuple(st["scores"]) != r.scores:
        raise _Problem(
            r.scores_line, f"R22: the scores after the settlement are {_nums(st['scores'])}"
        )


def _resign(rec: Record, r: RoundRecord | None, match: Match) -> None:
    """Apply the record's resignation after round ``r``'s moves (``None``: after the last
    settled round)."""
    line = rec.header_line("Termination")
    if r is not None:
        if rec.resigned is None:
            raise _Problem(
                r.end_line,
                "a round ends by its settlement (R21, R22) unless the match is "
                "resigned, and the header has no Termination tag",
            )
        if r.resigned != rec.resigned:
            raise _Problem(r.end_line, f"the header says seat {rec.resigned} resigned")
        if match.round_over:
            raise _Problem(
                r.end_line,
                "R21: the round is over after these moves; it ends 'end …', "
                "and a resignation comes after its settlement",
            )
        line = r.end_line
    assert rec.resigned is not None
    if not 0 <= rec.resigned < rec.players:
        raise _Problem(line, f"there is no seat {rec.resigned} to resign")
    try:
        match.resign(rec.resigned)
    except ValueError as exc:
        raise _Problem(line, f"this resignation is refused: {exc}") from None


def _walk(rec: Record, on_move: OnMove | None) -> Match | None:
    _check_header(rec)
    match: Match | None = None
    for r in rec.rounds:
        if match is not None and match.over:
            raise _Problem(r.line, f"R24: the match was over after round {r.number - 1}")
        _check_deal(rec, r)
        _check_starter(rec, r, match)
        try:
            if match is None:
                match = Match.from_deal(r.hands, r.stock, r.starter, target=rec.target)
            else:
                match.next_round_from_deal(r.hands, r.stock, r.starter)
        except ValueError as exc:  # pragma: no cover - the checks above come first
            raise _Problem(r.line, f"the engine refuses this deal: {exc}") from None
        for m in r.moves:
            _play(match, m, on_move)
        if r.resigned is None:
            _check_end(r, match)
        else:
            _resign(rec, r, match)
    resigned_in_play = bool(rec.rounds) and rec.rounds[-1].resigned is not None
    if rec.resigned is not None and match is not None and not resigned_in_play:
        if match.over:
            raise _Problem(
                rec.header_line("Termination"),
                "R24: the match was won by its last round; nobody resigned it",
            )
        _resign(rec, None, match)  # resigned between a settled round and the next deal
    winner = match.winner if match is not None else None
    if winner != rec.winner:
        shown = "*" if winner is None else f"side {winner} wins"
        raise _Problem(rec.header_line("Result"), f"R24, R25: the result is {shown}")
    scores = tuple(match.scores) if match is not None else (0,) * len(rec.sides)
    if scores != rec.scores:
        raise _Problem(rec.header_line("Scores"), f"the final scores are {_nums(scores)}")
    return match


def check(record: Record, on_move: OnMove | None = None) -> CheckResult:
    """Replay ``record`` through the engine; the first problem, or ``valid``.

    Line numbers are those of the text the record was read from, or of its canonical
    text form (:func:`write_text`) when it was built or read from JSON. ``on_move`` is
    called after each replayed move (``fiveup record replay`` prints the layout).
    """
    try:
        if not record.lines:
            record = parse_text(write_text(record))
        match = _walk(record, on_move)
    except _Problem as problem:
        return CheckResult(False, problem.line, problem.problem)
    except RecordSyntaxError as exc:
        return CheckResult(False, exc.line, exc.problem)
    return CheckResult(True, 0, "valid", match)


__all__ = ["CheckResult", "OnMove", "check"]

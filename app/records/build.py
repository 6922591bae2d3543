"""Making a record from what the server stores: the match's history (``Match.history``,
as in ``Match.to_dict()["history"]``) plus the table's facts and the rounds' seeds.

The record is written from the stored data as it is, not recomputed: :func:`..check`
is what proves it agrees with the rules. A round dealt from a recorded seed gets its
deal from the seed (docs/fairness.md); a round without one gets the deal rebuilt from
its moves and revealed hands (R22), with the never-drawn rest of the stock in set order.

>>> import random
>>> from app.engine import Match
>>> m = Match.new(2, random.Random(5))
>>> while not m.round_over:
...     _ = m.play(m.turn, m.legal_moves(m.turn)[0])
>>> rec = record_from_match(m, RecordMeta("2026-11-30", "ABC123", 1, ("Ann", "Bob")))
>>> len(rec.rounds), rec.rounds[0].starter_by, rec.winner
(1, 'lot', None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from app.engine import ALL_TILES, TARGET, Match, format_tile, parse_move, side_of, sides_seats
from app.fairness import DealIds, commitment, deal_from_seed

from .model import Leftover, MoveLine, Record, RoundRecord, StarterBy


@dataclass(frozen=True)
class RecordMeta:
    """The table's facts a match state does not hold: the date (ISO 8601, e.g.
    ``2026-11-30``), the table code, the match number at the table, the seat names, and
    per round number its revealed seed and published commitment (when it has them; a
    missing commitment is computed from the seed)."""

    date: str
    table: str
    match: int
    seats: Sequence[str]
    seeds: Mapping[int, bytes] = field(default_factory=dict)
    commitments: Mapping[int, str] = field(default_factory=dict)


def _rebuilt_deal(
    players: int, log: Sequence[Sequence[Any]], final: Sequence[Sequence[str]]
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """The deal a round must have had: hands = revealed hands + laid tiles − drawn tiles;
    stock = the drawn tiles in order, then the rest in set order."""
    hands = [set(hand) for hand in final]
    drawn: list[str] = []
    drawn_by: list[set[str]] = [set() for _ in range(players)]
    for seat, text, _points, tile, _must in log:
        move = parse_move(text)
        if move.kind == "draw" and tile is not None:
            drawn.append(tile)
            drawn_by[seat].add(tile)
        elif move.tile is not None:
            hands[seat].add(format_tile(move.tile))
    for seat in range(players):
        hands[seat] -= drawn_by[seat]
    used = set(drawn).union(*hands)
    rest = [format_tile(t) for t in ALL_TILES if format_tile(t) not in used]
    ordered = tuple(tuple(sorted(h, key=_set_order)) for h in hands)
    return ordered, (*drawn, *rest)


def _set_order(tile: str) -> tuple[int, int]:
    low, _, high = tile.partition("|")
    return int(low), int(high)


def _moves(log: Sequence[Sequence[Any]], players: int, scores: list[int]) -> list[MoveLine]:
    """A round's log as move lines; ``scores`` (the side scores) are updated in place."""
    moves: list[MoveLine] = []
    for seat, text, points, drawn, must_play in log:
        kind = parse_move(text).kind
        if kind in ("open", "place"):
            scores[side_of(seat, players)] += int(points) // 5  # R3, R15
            moves.append(MoveLine(seat, text, int(points), tuple(scores)))
        elif kind == "draw":
            moves.append(MoveLine(seat, text, drawn=drawn, must_play=bool(must_play)))
        else:
            moves.append(MoveLine(seat, text))
    return moves


@dataclass(frozen=True)
class Resigned:
    """A resignation: the seat, the winner and, when a round was in play (not between
    a settled round and the next deal), its number, starter, log (as in
    ``Match.history``) and the hands held at the resignation."""

    seat: int
    winner: int
    in_play: bool
    number: int = 0
    starter: int = 0
    log: Sequence[Sequence[Any]] = ()
    hands: Sequence[Sequence[str]] = ()


def _resigned_round(
    players: int, r: Resigned, meta: RecordMeta, previous: Mapping[str, Any] | None
) -> RoundRecord:
    seed = meta.seeds.get(r.number)
    ids = DealIds(meta.table, meta.match, r.number)
    if seed is not None:
        deal = deal_from_seed(seed, players, ids)
        hands, stock = deal.hands, deal.stock
    else:
        hands, stock = _rebuilt_deal(players, r.log, r.hands)
    published = meta.commitments.get(r.number)
    if published is None and seed is not None:
        published = commitment(seed, ids)
    by_finisher = previous is not None and previous["result"] == "domino"
    return RoundRecord(
        number=r.number,
        hands=hands,
        stock=stock,
        starter=r.starter,
        starter_by="finisher" if by_finisher else "lot",
        moves=(),  # filled by the caller, which keeps the running scores
        result=None,
        finisher=None,
        left=(),
        scores=(),
        commitment=published,
        seed=None if seed is None else seed.hex(),
        resigned=r.seat,
    )


def record_from_rounds(
    players: int,
    rounds: Sequence[Mapping[str, Any]],
    meta: RecordMeta,
    target: int = TARGET,
    resigned: Resigned | None = None,
) -> Record:
    """The record of finished rounds given as ``Match.history`` entries (``round``,
    ``starter``, ``log`` as ``[seat, move, points, drawn, must_play]``, ``settlement``)
    and, for a resigned match, of the round in play (``resigned``)."""
    if len(meta.seats) != players:
        raise ValueError(f"R2: {players} players need {players} seat names")
    sides = len(sides_seats(players))
    scores = [0] * sides
    previous: Mapping[str, Any] | None = None
    out: list[RoundRecord] = []
    winner: int | None = None
    for entry in rounds:
        number = int(entry["round"])
        settlement = entry["settlement"]
        seed = meta.seeds.get(number)
        ids = DealIds(meta.table, meta.match, number)
        if seed is not None:
            deal = deal_from_seed(seed, players, ids)
            hands, stock = deal.hands, deal.stock
        else:
            hands, stock = _rebuilt_deal(players, entry["log"], settlement["hands"])
        moves = _moves(entry["log"], players, scores)
        starter_by: StarterBy = (
            "finisher" if previous is not None and previous["result"] == "domino" else "lot"
        )
        left = tuple(
            Leftover(s, tuple(settlement["hands"][s]), settlement["pips"][s], d)
            for s, d in enumerate(settlement["deductions"])
        )
        scores = list(settlement["scores"])
        published = meta.commitments.get(number)
        if published is None and seed is not None:
            published = commitment(seed, ids)
        out.append(
            RoundRecord(
                number=number,
                hands=hands,
                stock=stock,
                starter=int(entry["starter"]),
                starter_by=starter_by,
                moves=tuple(moves),
                result=settlement["result"],
                finisher=settlement["finisher"],
                left=left,
                scores=tuple(scores),
                commitment=published,
                seed=None if seed is None else seed.hex(),
            )
        )
        winner = settlement["winner"] if settlement["match_over"] else None
        previous = settlement
    if resigned is not None and resigned.in_play:
        rnd = _resigned_round(players, resigned, meta, previous)
        out.append(replace(rnd, moves=tuple(_moves(resigned.log, players, scores))))
    if resigned is not None:
        winner = resigned.winner
    return Record(
        date=meta.date,
        table=meta.table,
        match=meta.match,
        seats=tuple(meta.seats),
        sides=tuple(tuple(s) for s in sides_seats(players)),
        target=target,
        winner=winner,
        scores=tuple(scores),
        rounds=tuple(out),
        resigned=None if resigned is None else resigned.seat,
    )


def record_from_match(match: Match, meta: RecordMeta, resigned: int | None = None) -> Record:
    """The record of a match's finished rounds (a running round is never included: its
    hands and stock are hidden, R5) — unless the match ended by ``resigned``'s
    resignation: then the round that was in play is its last round, public now that the
    match is over (docs/fairness.md)."""
    running: Resigned | None = None
    if resigned is not None:
        if not match.over or match.winner is None:
            raise ValueError("a resigned match is over")
        state = match.to_dict()["round"]
        running = Resigned(
            resigned,
            match.winner,
            not match.round_over,
            match.round_number,
            state["starter"],
            state["log"],
            state["hands"],
        )
    return record_from_rounds(match.players, match.history, meta, match.target, running)


__all__ = ["RecordMeta", "Resigned", "record_from_match", "record_from_rounds"]

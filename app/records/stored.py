"""Records from what the server stores: a match rebuilt from its table events (each deal
event holds the round's deal, its seed and the code it is bound to; each move event the
seat and the notation), and the events an imported record becomes.

Only finished rounds make a record, and only their seeds are put in it: a running
round's deal and seed stay on the server (R5; docs/fairness.md) — except when the match
was resigned: then the round in play is over with the match, and its deal, moves and
seed go in as the record's last round. Both directions go
through the engine, so ``record_of(events_of(check(r).match, …)) == r`` for a valid
record ``r`` whose rounds all have seeds (tests/server/test_records_wiring.py).

>>> from app.fairness import new_seed, start_match, DealIds
>>> seed = bytes(range(32))
>>> m = start_match(seed, 2, DealIds("ABC123", 1, 1))
>>> while not m.round_over:
...     _ = m.play(m.turn, m.legal_moves(m.turn)[0])
>>> rec = record_from_match(m, RecordMeta("2026-11-30", "ABC123", 1, ("Ann", "Bob"), {1: seed}))
>>> events = events_of_record(rec)
>>> [e["type"] for e in events][:1], events[-1]["type"]
(['started'], 'revealed')
>>> record_from_events(events, ("Ann", "Bob")) == rec
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.engine import Match
from app.fairness import DealIds, commitment
from app.types import Json

from .build import RecordMeta, record_from_match
from .model import Record

#: event kinds that deal a round (app/tables/rounds.py)
DEAL_KINDS = ("started", "round_started", "rematch_started")


def match_from_events(payloads: Iterable[Mapping[str, Any]]) -> tuple[Match | None, Json]:
    """Replay one match's stored events through the engine: the match, and what the
    events tell beyond it — ``date``, ``code``, ``match`` and per round number its
    ``seeds`` (bytes) and ``commitments`` (hex), and ``resigned``: the seat that resigned
    the match (``None`` if nobody did)."""
    match: Match | None = None
    facts: Json = {"date": None, "code": None, "match": None, "seeds": {}, "commitments": {}}
    facts["resigned"] = None
    for p in payloads:
        kind = p.get("type")
        if kind in DEAL_KINDS:
            deal = p["deal"]
            if kind == "round_started":
                assert match is not None, "a round dealt before the match started"
                match.next_round_from_deal(deal["hands"], deal["stock"], deal["starter"])
            else:
                match = Match.from_deal(deal["hands"], deal["stock"], deal["starter"])
                facts["date"] = p.get("date")
                facts["match"] = p.get("match")
            number = match.round_number
            if deal.get("seed"):
                facts["seeds"][number] = bytes.fromhex(deal["seed"])
                facts["code"] = deal.get("code") or facts["code"]
            if p.get("commitment"):
                facts["commitments"][number] = p["commitment"]
        elif kind == "move":
            assert match is not None, "a move before the match started"
            match.play(int(p["seat"]), str(p["move"]))
        elif kind == "resigned":
            assert match is not None, "a resignation before the match started"
            match.resign(int(p["seat"]))
            facts["resigned"] = int(p["seat"])
    return match, facts


def record_from_events(
    payloads: Iterable[Mapping[str, Any]],
    seats: Sequence[str],
    *,
    code: str | None = None,
    date: str | None = None,
    match_number: int | None = None,
) -> Record | None:
    """The record of one match's finished rounds from its stored events (``None`` before
    the match started), and of the round in play if the match was resigned. Seeds and
    commitments go in for those rounds only."""
    match, facts = match_from_events(payloads)
    if match is None:
        return None
    resigned = facts["resigned"]
    done = len(match.history) + (1 if resigned is not None and not match.round_over else 0)
    seeds = {r: s for r, s in facts["seeds"].items() if r <= done}
    commitments = {r: c for r, c in facts["commitments"].items() if r in seeds}
    number = facts["match"] if facts["match"] is not None else match_number
    meta = RecordMeta(
        date=facts["date"] or date or "",
        table=facts["code"] or code or "",
        match=int(number if number is not None else 1),
        seats=tuple(seats),
        seeds=seeds,
        commitments=commitments,
    )
    return record_from_match(match, meta, resigned)


def events_of_record(record: Record) -> list[Json]:
    """The table events a (checked) record becomes when imported: per round its deal
    event (deal, seed, commitment), its moves as the engine reports them, and, once the
    round is settled (or the match resigned), the ``revealed`` event — what a table that
    played it would store, the ``resigned`` event included."""
    events: list[Json] = []
    match: Match | None = None
    for rnd in record.rounds:
        ids = DealIds(record.table, record.match, rnd.number)
        deal: Json = {
            "hands": [list(h) for h in rnd.hands],
            "stock": list(rnd.stock),
            "starter": rnd.starter,
        }
        if rnd.seed is not None:
            deal |= {"seed": rnd.seed, "code": record.table}
        published = rnd.commitment
        if published is None and rnd.seed is not None:
            published = commitment(bytes.fromhex(rnd.seed), ids)
        head: Json = {"round": rnd.number, "starter": rnd.starter}
        if published is not None:
            head["commitment"] = published
        if match is None:
            match = Match.from_deal(rnd.hands, rnd.stock, rnd.starter)
            events.append(
                {"type": "started", "match": record.match, **head, "date": record.date}
                | {"deal": deal}
            )
        else:
            match.next_round_from_deal(rnd.hands, rnd.stock, rnd.starter)
            events.append({"type": "round_started", **head, "deal": deal})
        for line in rnd.moves:
            events.append(match.play(line.seat, line.move))
        if rnd.resigned is not None:
            events.append(match.resign(rnd.resigned))
        if rnd.seed is not None and published is not None:
            events.append(
                {
                    "type": "revealed",
                    "match": record.match,
                    "round": rnd.number,
                    "commitment": published,
                    "seed": rnd.seed,
                }
            )
    if record.resigned is not None and match is not None and not match.over:
        events.append(match.resign(record.resigned))  # between rounds: no round in play
    return events


__all__ = ["DEAL_KINDS", "events_of_record", "match_from_events", "record_from_events"]

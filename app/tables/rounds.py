"""Matches and rounds: the start, the next deal (by every seat's ``next_round`` or by the
countdown), rematch votes. Dealing is the engine's (R5–R7, R23); randomness is the OS
CSPRNG unless a test injects its own.
"""

from __future__ import annotations

import random

from app.db.records import PlayerState, TableStatus
from app.engine import Match
from app.tables.change import TableChange
from app.tables.errors import TableError


def dealt(match: Match) -> dict[str, object]:
    """The round just dealt — every hand and the stock in drawing order (R5, R6) — as
    stored with its event, so the record of a table replays exactly. Hidden: the
    projection's whitelist never lets it out (app/realtime/frames.py)."""
    rnd = match.to_dict()["round"]
    return {"hands": rnd["hands"], "stock": rnd["stock"], "starter": rnd["starter"]}


def start(tx: TableChange, player: PlayerState, rng: random.Random) -> None:
    """The host starts the match once every seat is filled (R2)."""
    if player.seat != tx.table.host_seat:
        raise TableError("not_host", "only the host can start the match", 403)
    if tx.table.status != TableStatus.WAITING:
        raise TableError("already_started", "the match has already started", 409)
    if len(tx.players) != tx.table.players:
        raise TableError("seats_not_filled", "every seat must be filled to start", 409)
    new_match(tx, "started", rng)


def new_match(tx: TableChange, kind: str, rng: random.Random) -> None:
    """Deal a new match (R5, R6; starter by lot, R7) and announce it as ``kind``."""
    tx.match = Match.new(players=tx.table.players, rng=rng)
    tx.table.match_number += 1
    tx.table.status = TableStatus.PLAYING
    tx.table.rematch_votes = []
    tx.table.ready = []
    tx.table.round_over_at = None
    tx.emit(
        kind,
        {
            "type": kind,
            "match": tx.table.match_number,
            "round": 1,
            "starter": tx.match.round.starter,
            "deal": dealt(tx.match),
        },
    )


def waiting_for_deal(tx: TableChange) -> bool:
    """A settled round of a match still in play (R21, R24 not reached)."""
    m = tx.match
    return m is not None and tx.table.status == TableStatus.PLAYING and m.round_over and not m.over


def deal_next(tx: TableChange, rng: random.Random) -> None:
    """Deal the next round: the starter is the finisher, or by lot after a block (R23)."""
    m = tx.match
    assert m is not None
    event = m.next_round(rng)
    tx.table.ready = []
    tx.table.round_over_at = None
    tx.emit(
        "round_started",
        {
            "type": "round_started",
            "round": event["round"],
            "starter": event["starter"],
            "deal": dealt(m),
        },
    )


def ready(tx: TableChange, player: PlayerState, rng: random.Random) -> None:
    """A seat is ready for the next round; dealt when every seat is ready."""
    if not waiting_for_deal(tx):
        raise TableError("not_round_over", "there is no settled round to move on from", 409)
    if player.seat not in tx.table.ready:
        tx.table.ready = sorted([*tx.table.ready, player.seat])
        tx.emit("ready", {"type": "ready", "seat": player.seat}, seat=player.seat, player=player)
    if len(tx.table.ready) >= len(tx.players):
        deal_next(tx, rng)


def rematch_vote(tx: TableChange, player: PlayerState, rng: random.Random) -> None:
    """Vote for a rematch; when every seat agreed, a new match starts, same seats."""
    if tx.table.status != TableStatus.FINISHED:
        raise TableError("match_not_over", "a rematch needs a finished match", 409)
    if player.seat in tx.table.rematch_votes:
        return
    tx.table.rematch_votes = sorted([*tx.table.rematch_votes, player.seat])
    tx.emit(
        "rematch_vote",
        {"type": "rematch_vote", "seat": player.seat},
        seat=player.seat,
        player=player,
    )
    if len(tx.table.rematch_votes) >= len(tx.players):
        new_match(tx, "rematch_started", rng)

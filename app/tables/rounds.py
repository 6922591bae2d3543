"""Matches and rounds: the start, the next deal (by every seat's ``next_round`` or by the
countdown), rematch votes, and the provably fair deal's commit and reveal.

Every round is dealt by :mod:`app.fairness` from a fresh 256-bit seed drawn from the OS
CSPRNG (R5, R6; the starter's lot too, R7, R23; docs/fairness.md). The round's
commitment is published with its deal event and in the table info before the first move;
the seed stays hidden — in the deal event's ``deal`` (never projected,
app/realtime/frames.py) and the table's ``deal_seed`` column, read only by the write
path — until the round is settled, when a ``revealed`` event makes it public (R22), or
until the match is resigned with the round in play: the match is over, and the same
``revealed`` event follows the ``resigned`` one (app/tables/departures.py).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from app.db.rows import PlayerState, TableStatus
from app.engine import Match
from app.fairness import DealIds, commitment, next_round, start_match
from app.tables.change import TableChange
from app.tables.errors import TableError

#: where seeds come from (``app.fairness.new_seed``: the OS CSPRNG; tests may inject)
SeedSource = Callable[[], bytes]

#: the event kinds that deal a round (their payload holds the deal and its seed)
DEAL_KINDS = ("started", "round_started", "rematch_started")


def dealt(match: Match, seed: bytes, ids: DealIds) -> dict[str, object]:
    """The round just dealt — every hand and the stock in drawing order (R5, R6), the seed
    it came from and the identifiers it is bound to — as stored with its event, so the
    record of a table replays exactly. Hidden: the projection's whitelist never lets it
    out (app/realtime/frames.py); the seed is revealed only by the ``revealed`` event."""
    rnd = match.to_dict()["round"]
    return {
        "hands": rnd["hands"],
        "stock": rnd["stock"],
        "starter": rnd["starter"],
        "seed": seed.hex(),
        "code": ids.code,
    }


def _commit(tx: TableChange, seed: bytes, ids: DealIds) -> str:
    """Remember the running round's seed (hidden) and its commitment (public)."""
    published = commitment(seed, ids)
    tx.table.commitment = published
    tx.table.deal_seed = seed.hex()
    return published


def start(tx: TableChange, player: PlayerState, new_seed: SeedSource) -> None:
    """The host starts the match once every seat is filled (R2)."""
    if player.seat != tx.table.host_seat:
        raise TableError("not_host", "only the host can start the match", 403)
    if tx.table.status != TableStatus.WAITING:
        raise TableError("already_started", "the match has already started", 409)
    if len(tx.players) != tx.table.players:
        raise TableError("seats_not_filled", "every seat must be filled to start", 409)
    new_match(tx, "started", new_seed)


def new_match(tx: TableChange, kind: str, new_seed: SeedSource) -> None:
    """Deal a new match from a fresh seed (R5, R6; starter by the committed lot, R7) and
    announce it as ``kind`` with the round's commitment."""
    tx.table.match_number += 1
    seed, ids = new_seed(), DealIds(tx.table.code, tx.table.match_number, 1)
    tx.match = start_match(seed, tx.table.players, ids)
    tx.table.status = TableStatus.PLAYING
    tx.table.rematch_votes = []
    tx.table.ready = []
    tx.table.round_over_at = None
    tx.table.resigned = None  # a new match: the last one's resignation is history
    tx.emit(
        kind,
        {
            "type": kind,
            "match": tx.table.match_number,
            "round": 1,
            "starter": tx.match.round.starter,
            "commitment": _commit(tx, seed, ids),
            "date": datetime.now(UTC).date().isoformat(),
            "deal": dealt(tx.match, seed, ids),
        },
    )


def waiting_for_deal(tx: TableChange) -> bool:
    """A settled round of a match still in play (R21, R24 not reached)."""
    m = tx.match
    return m is not None and tx.table.status == TableStatus.PLAYING and m.round_over and not m.over


def deal_next(tx: TableChange, new_seed: SeedSource) -> None:
    """Deal the next round from a fresh seed: the starter is the finisher, or the
    committed lot after a block (R23)."""
    m = tx.match
    assert m is not None
    seed, ids = new_seed(), DealIds(tx.table.code, tx.table.match_number, m.round_number + 1)
    event = next_round(m, seed, ids)
    tx.table.ready = []
    tx.table.round_over_at = None
    tx.emit(
        "round_started",
        {
            "type": "round_started",
            "round": event["round"],
            "starter": event["starter"],
            "commitment": _commit(tx, seed, ids),
            "deal": dealt(m, seed, ids),
        },
    )


def reveal(tx: TableChange) -> None:
    """The round just settled (R21, R22), or the match just resigned in its course: publish
    its seed, so anyone can recompute the deal and check it against the commitment
    published before its first move."""
    m = tx.match
    assert m is not None and (m.round_over or m.over)
    if tx.table.deal_seed is None or tx.table.commitment is None:
        return  # a round dealt before seeds were recorded: nothing to reveal
    tx.emit(
        "revealed",
        {
            "type": "revealed",
            "match": tx.table.match_number,
            "round": m.round_number,
            "commitment": tx.table.commitment,
            "seed": tx.table.deal_seed,
        },
    )


def ready(tx: TableChange, player: PlayerState, new_seed: SeedSource) -> None:
    """A seat is ready for the next round; dealt when every seat is ready."""
    if not waiting_for_deal(tx):
        raise TableError("not_round_over", "there is no settled round to move on from", 409)
    if player.seat not in tx.table.ready:
        tx.table.ready = sorted([*tx.table.ready, player.seat])
        tx.emit("ready", {"type": "ready", "seat": player.seat}, seat=player.seat, player=player)
    if len(tx.table.ready) >= len(tx.players):
        deal_next(tx, new_seed)


def rematch_vote(tx: TableChange, player: PlayerState, new_seed: SeedSource) -> None:
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
        new_match(tx, "rematch_started", new_seed)

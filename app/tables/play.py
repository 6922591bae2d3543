"""Playing: a seat's move, checked by the engine alone, and what follows it — automatic
passes (R19) and the bookkeeping of a settled round or a finished match.

The service never checks a rule itself: ``Match.play`` decides (R8 turn, R9–R12
placement, R17–R19 draw and pass, R21 round over, R24 match over) and its narrow errors
map to protocol codes in :func:`app.tables.errors.from_engine`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app.core.security import valid_move_id
from app.db.rows import PlayerState, PriorMove, TableStatus
from app.engine import Move
from app.tables.change import TableChange
from app.tables.errors import TableError, from_engine, table_closed
from app.tables.rounds import reveal

MOVE_ID_MAX = 64
MOVE_TEXT_MAX = 64


@dataclass(slots=True)
class MoveRequest:
    """A move as a client sent it, checked for shape (not for legality)."""

    move: str
    move_id: str | None
    seq: int | None

    @classmethod
    def parse(cls, move: Any, move_id: Any, seq: Any) -> MoveRequest:
        if not isinstance(move, str) or len(move) > MOVE_TEXT_MAX:
            raise TableError("bad_message", "move must be a notation string", 400)
        if move_id is not None and not valid_move_id(move_id):
            raise TableError(
                "bad_message", f"move_id must be 1..{MOVE_ID_MAX} chars of A-Z a-z 0-9 _ . : -"
            )
        if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool)):
            raise TableError("bad_message", "seq must be an integer", 400)
        return cls(move, move_id, seq)


@dataclass(slots=True)
class MoveResult:
    """The answer to a move: the seq of its event; ``duplicate`` for a retry."""

    seq: int
    duplicate: bool = False


def same_move(prior: PriorMove, seat: int, move: str) -> bool:
    """Whether a retried ``move_id`` names the move that was committed under it."""
    if prior.seat != seat or prior.move is None:
        return False
    try:
        return str(Move.parse(move)) == prior.move
    except ValueError:
        return False


def play(
    tx: TableChange, player: PlayerState, req: MoveRequest, *, autopilot: bool = False
) -> MoveResult:
    """Apply the move for ``player`` (raises TableError; then nothing changed);
    ``autopilot``: played for the absent person by the autopilot (said in the event)."""
    if tx.table.status == TableStatus.CLOSED:
        raise table_closed()
    if tx.table.status != TableStatus.PLAYING or tx.match is None:
        raise TableError("not_started", "no match is being played at this table", 409)
    if req.seq is not None and req.seq != tx.table.seq:
        raise TableError(
            "stale", f"the table is at seq {tx.table.seq}, your move was made at {req.seq}", 409
        )
    try:
        event = tx.match.play(player.seat, req.move)
    except ValueError as exc:  # IllegalMove (and its narrow kinds) or NotationError
        raise from_engine(exc) from None
    if autopilot:
        event["autopilot"] = True
    row = tx.emit("move", event, seat=player.seat, player=player, move_id=req.move_id)
    after_move(tx)
    return MoveResult(row.seq)


def after_move(tx: TableChange) -> None:
    """Automatic passes (R19: a pass is the only legal move), then the round's or the
    match's end (R21, R24): the seed revealed (R22, docs/fairness.md), the table's status
    and the next-round countdown's start."""
    m = tx.match
    assert m is not None
    while not m.round_over and m.turn is not None:
        legal = m.legal_moves(m.turn)
        if not (len(legal) == 1 and legal[0].kind == "pass"):
            break
        seat = m.turn
        event = m.play(seat, legal[0])
        event["auto"] = True
        tx.emit("move", event, seat=seat)
    if m.round_over:
        reveal(tx)
    if m.over:
        tx.table.status = TableStatus.FINISHED
        tx.table.rematch_votes = []
        tx.table.round_over_at = None
    elif m.round_over:
        tx.table.ready = []
        tx.table.round_over_at = datetime.now(UTC)

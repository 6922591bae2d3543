"""Seating before the start: create, join, change seat, leave, kick (R2: 2–4 seats,
partnerships 0+2 against 1+3 at four). Each function decides one change on a
:class:`~app.tables.change.TableChange`; the writer writes it.
"""

from __future__ import annotations

from app.core.names import NothingVisible, names_collide
from app.core.security import NAME_MAX, TABLE_NAME_MAX, clean_name
from app.db.rows import PlayerState, TableState, TableStatus
from app.tables.change import TableChange, token_hash
from app.tables.errors import TableError


def checked_name(raw: object, max_len: int = NAME_MAX, default: str | None = None) -> str:
    """A display or table name, cleaned; ``default`` if nothing visible is left (else
    ``invalid_name``, as for a name too long or not a string)."""
    try:
        return clean_name(raw, max_len)  # type: ignore[arg-type]
    except NothingVisible:
        if default is None:
            raise TableError(
                "invalid_name", "name must contain a visible letter or digit", 422
            ) from None
        return default
    except ValueError as exc:
        raise TableError("invalid_name", str(exc), 422) from None


def default_name(seat: int) -> str:
    """The name of a player whose own shows nothing."""
    return f"Player {seat + 1}"


def new_table(name: str, players: int, public: bool, host_name: str) -> TableState:
    """The columns of a table about to be created (its code is drawn by the writer)."""
    if players not in (2, 3, 4):  # R2
        raise TableError("bad_players", "R2: a table has 2, 3 or 4 players", 400)
    return TableState(
        id=0,
        code="",
        name=checked_name(name, TABLE_NAME_MAX, default=host_name),
        players=players,
        public=public,
        status=TableStatus.WAITING,
        host_seat=0,
        version=0,
        seq=0,
        match_number=0,
        state=None,
        rematch_votes=[],
        ready=[],
        round_over_at=None,
    )


def seat_host(tx: TableChange, host_name: str, token: str) -> None:
    """The creator takes seat 0 and is host (the ``created`` event, seq 1)."""
    player = PlayerState(0, 0, host_name, token_hash(token))
    tx.add_player(player)
    tx.emit("created", {"type": "created", "seat": 0, "name": host_name}, seat=0, player=player)


def join(tx: TableChange, raw_name: str, seat: object, token: str) -> int:
    """Take a free seat before the start."""
    s = tx.seat_number(seat)
    name = checked_name(raw_name, NAME_MAX, default=default_name(s))
    if tx.table.status == TableStatus.CLOSED:
        raise TableError("table_closed", "everybody left this table", 409)
    if tx.table.status != TableStatus.WAITING:
        raise TableError("already_started", "the match has already started", 409)
    if tx.player_at(s) is not None:
        raise TableError("seat_taken", f"seat {s} is taken", 409)
    if any(names_collide(name, p.name) for p in tx.players):
        raise TableError(
            "name_taken", "a player here has that name, or one that looks like it", 409
        )
    player = PlayerState(0, s, name, token_hash(token))
    tx.add_player(player)
    tx.emit("seated", {"type": "seated", "seat": s, "name": name}, seat=s, player=player)
    return s


def change_seat(tx: TableChange, player: PlayerState, seat: object) -> None:
    """Move to a free seat before the start (the host stays host)."""
    s = tx.seat_number(seat)
    if tx.table.status != TableStatus.WAITING:
        raise TableError("already_started", "seats are fixed once the match starts", 409)
    if s == player.seat:
        return
    if tx.player_at(s) is not None:
        raise TableError("seat_taken", f"seat {s} is taken", 409)
    old = player.seat
    tx.move_player(player, s)
    if tx.table.host_seat == old:
        tx.table.host_seat = s
    tx.emit(
        "moved_seat",
        {"type": "moved_seat", "from": old, "to": s, "name": player.name},
        seat=s,
        player=player,
    )


def leave(tx: TableChange, player: PlayerState) -> None:
    """Leave before the start; the token stops working, the host role passes on (to a
    person: when only computer players are left, the table closes)."""
    if tx.table.status != TableStatus.WAITING:
        raise TableError("already_started", "you cannot leave a match in play", 409)
    _remove(tx, player, "left")


def kick(tx: TableChange, host: PlayerState, seat: object) -> None:
    """The host removes a player before the start."""
    if host.seat != tx.table.host_seat:
        raise TableError("not_host", "only the host can remove players", 403)
    s = tx.seat_number(seat)
    if tx.table.status != TableStatus.WAITING:
        raise TableError("already_started", "the match has already started", 409)
    target = tx.player_at(s)
    if target is None:
        raise TableError("bad_seat", f"seat {s} is empty", 409)
    if target is host:
        raise TableError("bad_seat", "use leave to leave your own table", 409)
    _remove(tx, target, "kicked")


def _remove(tx: TableChange, player: PlayerState, kind: str) -> None:
    tx.remove_player(player)
    tx.emit(
        kind,
        {"type": kind, "seat": player.seat, "name": player.name},
        seat=player.seat,
        player=player,
    )
    people = [p for p in tx.players if p.bot is None]  # a computer player is never host
    if tx.table.host_seat == player.seat:
        if people:
            tx.table.host_seat = min(p.seat for p in people)
            tx.emit(
                "host_changed",
                {"type": "host_changed", "seat": tx.table.host_seat},
                seat=tx.table.host_seat,
            )
        else:
            tx.table.host_seat = None
            tx.table.status = TableStatus.CLOSED
            tx.emit("closed", {"type": "closed", "reason": "left"})

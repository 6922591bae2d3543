"""Leaving a match, resigning it, and replacing a departed player between matches
(docs/protocol.md, "Leave, resign, replace").

- **Leave** (during a match, or after it): the person's row becomes a computer player of
  the autopilot's level, keeping the seat and the name (the match's record keeps its
  players); the token stops working (the hub closes its sockets with 4411) and
  ``seat_left`` is committed. A partnership plays on: the partner's game never ends. The
  host role passes to the lowest seated person; when no person is left the table closes.
  Before the start, leaving frees the seat as it always did (:func:`seating.leave`).
- **Resign** (two or three players, a match in play): the match ends at once
  (``resigned``; status ``finished``; ``game_tables.resigned`` = the seat). The winner is
  the engine's (:meth:`Match.resign`): the other player at two, the higher score of the
  other two at three. A match normally ends only by R24 after a settled round; this is
  the one other way. A round in play is over with the match: its seed is revealed at
  once (``revealed`` after ``resigned``), as a settled round's is (R22,
  docs/fairness.md). Partnerships (four players) cannot resign: ``resign_partnership``.
- **Replace** (between matches, the host): the seat's player — a computer player that
  took over a leaver's seat, or a person — is replaced by a new computer player, or the
  seat is freed for a new person by invite. A freed seat puts the table back to
  ``waiting`` (the lobby lists it as looking for players; the host starts match n+1 once
  every seat is filled), exactly like a new table between its seats and its start.
"""

from __future__ import annotations

from app.bots import Level
from app.db.rows import PlayerState, TableStatus
from app.tables import bot_seats, rounds, seating
from app.tables.change import TableChange
from app.tables.errors import TableError, from_engine

REPLACE_BY = ("bot", "invite")


def leave(tx: TableChange, player: PlayerState, level: Level) -> None:
    """Leave the table: before the start the seat is freed (:func:`seating.leave`);
    during or after a match a computer player takes it (:func:`leave_match`)."""
    if tx.table.status == TableStatus.WAITING:
        seating.leave(tx, player)
    else:
        leave_match(tx, player, level)


def leave_match(tx: TableChange, player: PlayerState, level: Level) -> None:
    """A person leaves a match in play or finished: a computer player of ``level`` takes
    the seat (``seat_left``); the host role passes on; no person left closes the table."""
    if tx.table.status not in (TableStatus.PLAYING, TableStatus.FINISHED):
        raise TableError("table_closed", "this table is closed", 409)
    player.bot = level
    player.token_hash = bot_seats.bot_token_hash()
    player.link_hash = None
    player.autopilot, player.autopilot_moves = False, 0
    tx.move_player(player, player.seat)  # the same row, now a computer player's
    tx.emit(
        "seat_left",
        {"type": "seat_left", "seat": player.seat, "name": player.name, "level": level},
        seat=player.seat,
        player=player,
    )
    _pass_host(tx, player.seat)


def _pass_host(tx: TableChange, gone: int) -> None:
    people = [p for p in tx.players if not bot_seats.is_bot(p)]
    if not people:
        tx.table.host_seat = None
        tx.table.status = TableStatus.CLOSED
        tx.table.turn_deadline = None
        tx.emit("closed", {"type": "closed", "reason": "left"})
    elif tx.table.host_seat == gone:
        tx.table.host_seat = min(p.seat for p in people)
        tx.emit(
            "host_changed",
            {"type": "host_changed", "seat": tx.table.host_seat},
            seat=tx.table.host_seat,
        )


def resign(tx: TableChange, player: PlayerState) -> None:
    """A person resigns the match in play (two or three players): it ends now."""
    if tx.table.status != TableStatus.PLAYING or tx.match is None:
        raise TableError("match_not_in_play", "there is no match in play to resign", 409)
    if tx.table.players == 4:
        raise TableError(
            "resign_partnership",
            "a partnership game cannot be resigned; leave the table and a computer player"
            " takes your seat",
            409,
        )
    in_play = not tx.match.round_over
    try:
        event = tx.match.resign(player.seat)
    except ValueError as exc:  # the match is over already (R24)
        raise from_engine(exc) from None
    tx.table.status = TableStatus.FINISHED
    tx.table.resigned = player.seat
    tx.table.ready = []
    tx.table.round_over_at = None
    tx.table.turn_deadline = None
    tx.emit("resigned", event, seat=player.seat, player=player)
    if in_play:  # a settled round's seed is public already
        rounds.reveal(tx)


def replace(
    tx: TableChange,
    host: PlayerState,
    seat: object,
    by: object,
    level: object,
    default_level: Level = "medium",
) -> None:
    """The host replaces the player in ``seat`` between matches: by a computer player of
    ``level`` (``by="bot"``; ``default_level`` if None), or frees the seat for a new
    person (``by="invite"``; the table goes back to ``waiting``). The host replaces
    others, never themself."""
    s = tx.seat_number(seat)
    if by not in REPLACE_BY:
        raise TableError("bad_replace", "by is 'bot' or 'invite'", 400)
    bot_level = (
        bot_seats.level_of(default_level if level is None else level) if by == "bot" else None
    )
    if host.seat != tx.table.host_seat:
        raise TableError("not_host", "only the host can replace players", 403)
    if tx.table.status != TableStatus.FINISHED:
        raise TableError(
            "not_between_matches", "players are replaced between matches (match over)", 409
        )
    held = tx.player_at(s)
    if held is None:
        raise TableError("bad_seat", f"seat {s} is empty", 409)
    if held is host:
        raise TableError("bad_seat", "use leave to leave your own table", 409)
    tx.remove_player(held)
    tx.table.rematch_votes = [v for v in tx.table.rematch_votes if v != s]
    name: str | None = None
    if bot_level is not None:
        name = bot_seats.BOT_NAMES[s]
        tx.add_player(PlayerState(0, s, name, bot_seats.bot_token_hash(), bot_level))
    else:
        tx.table.status = TableStatus.WAITING
        tx.table.rematch_votes = []
        tx.table.resigned = None
    tx.emit(
        "seat_replaced",
        {"type": "seat_replaced", "seat": s, "by": by, "level": bot_level, "name": name},
        seat=s,
        player=host,
    )

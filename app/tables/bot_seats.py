"""Computer players at a table (docs/bots.md): the host seats a bot before the start,
changes its level or removes it; bots say they are ready for the next round and vote for
a rematch by themselves, in the change that settles the round or ends the match.

A bot's seat is a player row like a person's, with ``bot`` set to its level and a random
token hash that no token hashes to (a SHA-256 is 64 hex digits; this one starts with
``bot-``), so nobody can act for it: its moves are played by the server
(:mod:`app.tables.bot_turns`) through the same path as a person's.

>>> bot_token_hash().startswith("bot-"), len(bot_token_hash())
(True, 64)
>>> level_of("hard")
'hard'
>>> level_of("expert")
Traceback (most recent call last):
...
app.tables.errors.TableError: a level is one of easy, medium, hard
"""

from __future__ import annotations

import secrets

from app.bots import LEVELS, Level
from app.db.rows import PlayerState, TableStatus
from app.tables import rounds, seating
from app.tables.change import TableChange
from app.tables.errors import TableError

#: bots' display names, by seat (shown with a "computer" label by clients)
BOT_NAMES = ("Ada", "Alan", "Grace", "Edsger")


def bot_token_hash() -> str:
    """A token hash no token can have: ``bot-`` and 60 random hex digits."""
    return "bot-" + secrets.token_hex(30)


def level_of(raw: object) -> Level:
    """A bot level (``easy``, ``medium``, ``hard``), else ``unknown_level`` (400)."""
    for level in LEVELS:
        if raw == level:
            return level
    raise TableError("unknown_level", f"a level is one of {', '.join(LEVELS)}", 400)


def is_bot(player: PlayerState | None) -> bool:
    return player is not None and player.bot is not None


def _host_before_start(tx: TableChange, host: PlayerState, what: str) -> None:
    if host.seat != tx.table.host_seat:
        raise TableError("not_host", f"only the host can {what}", 403)
    if tx.table.status != TableStatus.WAITING:
        raise TableError("already_started", "the match has already started", 409)


def put_bot(tx: TableChange, host: PlayerState, seat: object, raw_level: object) -> None:
    """The host seats a bot of ``raw_level`` in an empty seat, or changes the level of
    the bot in ``seat`` (before the start)."""
    s = tx.seat_number(seat)
    level = level_of(raw_level)
    _host_before_start(tx, host, "seat computer players")
    held = tx.player_at(s)
    if held is None:
        add_bot(tx, s, level)
        return
    if not is_bot(held):
        raise TableError("seat_taken", f"seat {s} is taken", 409)
    if held.bot == level:
        return
    held.bot = level
    tx.move_player(held, s)  # written as an update of the player's row
    tx.emit(
        "bot_changed",
        {"type": "bot_changed", "seat": s, "name": held.name, "level": level},
        seat=s,
        player=held,
    )


def add_bot(tx: TableChange, seat: int, level: Level) -> PlayerState:
    """Seat a bot in the empty ``seat`` (the ``bot_added`` event)."""
    player = PlayerState(0, seat, BOT_NAMES[seat], bot_token_hash(), level)
    tx.add_player(player)
    tx.emit(
        "bot_added",
        {"type": "bot_added", "seat": seat, "name": player.name, "level": level},
        seat=seat,
        player=player,
    )
    return player


def seat_practice(
    tx: TableChange, name: str, token: str, level: Level, new_seed: rounds.SeedSource
) -> None:
    """A new practice table: the person at seat 0 (host), bots of ``level`` in every
    other seat, the match dealt (R5–R7) — ``created``, ``bot_added``…, ``started``."""
    tx.table.match_number = 0  # (the writer decides again if the drawn code clashes)
    seating.seat_host(tx, name, token)
    for seat in range(1, tx.table.players):
        add_bot(tx, seat, level)
    rounds.new_match(tx, "started", new_seed)


def remove_bot(tx: TableChange, host: PlayerState, seat: object) -> None:
    """The host removes the bot in ``seat`` before the start (``bad_seat`` if the seat
    holds no bot)."""
    s = tx.seat_number(seat)
    _host_before_start(tx, host, "remove computer players")
    held = tx.player_at(s)
    if held is None or not is_bot(held):
        raise TableError("bad_seat", f"seat {s} holds no computer player", 400)
    tx.remove_player(held)
    tx.emit("bot_removed", {"type": "bot_removed", "seat": s, "name": held.name}, seat=s)


def vote(tx: TableChange, new_seed: rounds.SeedSource) -> None:
    """Bots are ready for the next round (a settled round waits for a deal, R21) and
    vote for a rematch (the match is over, R24) at once, as ``ready`` and
    ``rematch_vote`` events of their seats in the same change."""
    for player in sorted(tx.players, key=lambda p: p.seat):
        if not is_bot(player):
            continue
        if tx.table.status == TableStatus.FINISHED:
            if player.seat not in tx.table.rematch_votes:
                rounds.rematch_vote(tx, player, new_seed)
        elif rounds.waiting_for_deal(tx) and player.seat not in tx.table.ready:
            rounds.ready(tx, player, new_seed)


def bot_to_move(tx: TableChange) -> PlayerState | None:
    """The bot whose turn it is in a match in play, if any."""
    m = tx.match
    if tx.table.status != TableStatus.PLAYING or m is None or m.round_over or m.turn is None:
        return None
    player = tx.player_at(m.turn)
    return player if is_bot(player) else None

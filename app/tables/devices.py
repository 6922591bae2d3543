"""Moving a seat to another device (docs/protocol.md, "Play on another device").

A seated person — or the host, for any person's seat — asks for a *device link*: a fresh
single-use credential carried in the page's URL fragment (``/t/CODE#seat=<link>``, never
a query string, never logged). Only its hash is stored (``players.link_hash``); asking
again replaces it, so an older link stops working. Claiming the link (from the new
device) revokes the seat's old token and the link, gives the new device a fresh seat
token and commits a public ``seat_moved`` event: every socket still holding the old
token is closed by the hub (4410) on every process.

>>> link_path("K7QX2M", "abc")
'/t/K7QX2M#seat=abc'
"""

from __future__ import annotations

from app.db.records import PlayerState, TableStatus
from app.tables.bots import is_bot
from app.tables.change import TableChange, token_hash
from app.tables.errors import TableError

#: the longest link credential a claim may carry (a new one is 43 characters)
LINK_MAX = 256
#: events of this module that change nothing a move is decided on: a move made before
#: one is not ``stale`` (as with chat)
NEUTRAL_KINDS = frozenset({"link_issued"})


def link_path(code: str, link: str) -> str:
    """The page a link opens: the table, the credential in the fragment only."""
    return f"/t/{code}#seat={link}"


def link_used() -> TableError:
    return TableError(
        "link_used",
        "this device link was used already or replaced by a newer one; ask for a new link",
        404,
    )


def issue(tx: TableChange, caller: PlayerState, seat: object, link: str) -> int:
    """Store ``link``'s hash for ``seat`` (the caller's own seat, or any person's seat
    if the caller is the host) and commit ``link_issued``; an older link of that seat
    stops working. Returns the seat."""
    s = tx.seat_number(seat)
    if tx.table.status == TableStatus.CLOSED:
        raise TableError("table_closed", "this table is closed", 409)
    if s != caller.seat and caller.seat != tx.table.host_seat:
        raise TableError("not_host", "only the host can make a link for another seat", 403)
    held = tx.player_at(s)
    if held is None:
        raise TableError("bad_seat", f"seat {s} is empty", 409)
    if is_bot(held):
        raise TableError("bad_seat", f"seat {s} holds a computer player", 409)
    held.link_hash = token_hash(link)
    tx.move_player(held, s)  # written as an update of the player's row
    tx.emit("link_issued", {"type": "link_issued", "seat": s}, seat=s, player=caller)
    return s


def claim(tx: TableChange, link: object, new_token: str) -> PlayerState:
    """The seat whose unused link is ``link`` moves to the device presenting it: its
    token becomes ``new_token`` (the old one and the link stop working) and
    ``seat_moved`` is committed. An unknown, used or replaced link is ``link_used``."""
    if not isinstance(link, str) or not 0 < len(link) <= LINK_MAX:
        raise link_used()
    if tx.table.status == TableStatus.CLOSED:
        raise TableError("table_closed", "this table is closed", 409)
    wanted = token_hash(link)
    player = next((p for p in tx.players if p.link_hash == wanted and not is_bot(p)), None)
    if player is None:
        raise link_used()
    player.token_hash = token_hash(new_token)
    player.link_hash = None
    tx.move_player(player, player.seat)
    tx.emit(
        "seat_moved", {"type": "seat_moved", "seat": player.seat}, seat=player.seat, player=player
    )
    return player

"""Moving a seat to another device (docs/protocol.md, "Play on another device").

A seated person asks for a *device link* to their own seat: a fresh single-use
credential carried in the page's URL fragment (``/t/CODE#seat=<link>``, never a query
string, never logged). Only its hash is stored (``players.link_hash``); asking again
replaces it, so an older link stops working. Claiming the link (from the new device)
revokes the seat's old token and the link, gives the new device a fresh seat token and
commits a public ``seat_moved`` event: every socket still holding the old token is
closed by the hub (4410) on every process.

The host may ask for another person's seat only when that person is gone: no socket on
any process for at least the presence grace (``FIVEUP_DISCONNECT_GRACE_SECONDS``, the
autopilot's), else ``409 seat_present`` — and the same holds when that link is claimed,
so a player who came back in between keeps the seat. A host's link is told from the
seat's own by what is hashed: ``HOST_MARK`` + the credential (:func:`stored_hash`).

>>> link_path("K7QX2M", "abc")
'/t/K7QX2M#seat=abc'
>>> rule = HostMoves(grace_seconds=60.0, absent_since=lambda table, seat: 1000.0)
>>> rule.wait(7, 1, now=1030.0), rule.wait(7, 1, now=1060.0)
(30.0, 0.0)
>>> HostMoves(60.0, lambda table, seat: None).wait(7, 1, now=1.0) is None  # a socket now
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from app.db.rows import PlayerState, TableStatus
from app.tables.bot_seats import is_bot
from app.tables.change import TableChange, token_hash
from app.tables.errors import TableError

#: the longest link credential a claim may carry (a new one is 43 characters)
LINK_MAX = 256
#: events of this module that change nothing a move is decided on: a move made before
#: one is not ``stale`` (as with chat)
NEUTRAL_KINDS = frozenset({"link_issued"})
#: what is hashed before a host's link (a link for another person's seat)
HOST_MARK = "host:"

#: (table id, seat) -> UNIX time since the seat has had no socket on any process, or
#: None while it has one (the hub's ``absent_since``)
AbsentSince = Callable[[int, int], float | None]


@dataclass(frozen=True, slots=True)
class HostMoves:
    """When the host may move another person's seat: once it has had no socket on any
    process for ``grace_seconds``. Without a presence source nobody is known to be gone,
    so the host may never move another seat."""

    grace_seconds: float = 60.0
    absent_since: AbsentSince | None = None

    def wait(self, table_id: int, seat: int, now: float | None = None) -> float | None:
        """Seconds until the host may move ``seat`` (0: now); None while it has a socket."""
        since = None if self.absent_since is None else self.absent_since(table_id, seat)
        if since is None:
            return None
        when = time.time() if now is None else now
        return max(0.0, since + self.grace_seconds - when)

    def check(self, tx: TableChange, seat: int) -> None:
        """Refuse with ``409 seat_present`` unless the seat's person is gone long enough."""
        wait = self.wait(tx.table.id, seat)
        if wait is not None and wait <= 0:
            return
        grace = f"{self.grace_seconds:g}"
        if wait is None:
            now = f"the player of seat {seat} is here (a socket is open)"
        else:
            now = f"the player of seat {seat} left less than {grace} s ago (wait {wait:.0f} s)"
        raise TableError(
            "seat_present",
            f"{now}: the host can move a seat to another device only once its player has"
            f" been gone for {grace} s",
            409,
        )


def stored_hash(link: str, by_host: bool) -> str:
    """What ``players.link_hash`` holds for ``link`` (a host's link is marked).

    >>> stored_hash("abc", True) != stored_hash("abc", False)
    True
    """
    return token_hash(HOST_MARK + link if by_host else link)


def link_path(code: str, link: str) -> str:
    """The page a link opens: the table, the credential in the fragment only."""
    return f"/t/{code}#seat={link}"


def link_used() -> TableError:
    return TableError(
        "link_used",
        "this device link was used already or replaced by a newer one; ask for a new link",
        404,
    )


def issue(tx: TableChange, caller: PlayerState, seat: object, link: str, rule: HostMoves) -> int:
    """Store ``link``'s hash for ``seat`` (the caller's own seat, or — the host — the seat
    of a person gone for the ``rule``'s grace, else ``seat_present``) and commit
    ``link_issued``; an older link of that seat stops working. Returns the seat."""
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
    by_host = s != caller.seat
    if by_host:
        rule.check(tx, s)
    held.link_hash = stored_hash(link, by_host)
    tx.move_player(held, s)  # written as an update of the player's row
    tx.emit("link_issued", {"type": "link_issued", "seat": s}, seat=s, player=caller)
    return s


def linked(tx: TableChange, link: object) -> tuple[PlayerState, bool]:
    """The person whose unused link is ``link``, and whether the host made it; an
    unknown, used or replaced link is ``link_used``. Changes nothing."""
    if not isinstance(link, str) or not 0 < len(link) <= LINK_MAX:
        raise link_used()
    if tx.table.status == TableStatus.CLOSED:
        raise TableError("table_closed", "this table is closed", 409)
    own, host = stored_hash(link, False), stored_hash(link, True)
    for p in tx.players:
        if p.link_hash in (own, host) and not is_bot(p):
            return p, p.link_hash == host
    raise link_used()


def claim(tx: TableChange, link: object, new_token: str, rule: HostMoves) -> PlayerState:
    """The seat whose unused link is ``link`` moves to the device presenting it: its
    token becomes ``new_token`` (the old one and the link stop working) and
    ``seat_moved`` is committed (``by``: ``"host"`` for the host's link, else
    ``"seat"``). A host's link is refused (``seat_present``) while the seat's person is
    not gone for the ``rule``'s grace. An unknown, used or replaced link is
    ``link_used``."""
    player, by_host = linked(tx, link)
    if by_host:
        rule.check(tx, player.seat)
    player.token_hash = token_hash(new_token)
    player.link_hash = None
    tx.move_player(player, player.seat)
    tx.emit(
        "seat_moved",
        {"type": "seat_moved", "seat": player.seat, "by": "host" if by_host else "seat"},
        seat=player.seat,
        player=player,
    )
    return player


def open_bound(tx: TableChange, seat: int, bound_hash: str, new_token: str) -> PlayerState:
    """A signed-in player opens their bound seat on this device: the seat, still held by
    the token whose hash the profile bound, gets ``new_token`` (the old one stops
    working) and ``seat_moved`` (``by`` ``"seat"``: its own person moved it) is
    committed. Anything else — the seat moved on by a guest's link, left, another's —
    is ``404 not_your_seat``."""
    if tx.table.status == TableStatus.CLOSED:
        raise TableError("table_closed", "this table is closed", 409)
    player = tx.player_at(seat) if 0 <= seat < tx.table.players else None
    if player is None or is_bot(player) or player.token_hash != bound_hash:
        raise TableError("not_your_seat", "this profile holds no seat here any more", 404)
    player.token_hash = token_hash(new_token)
    player.link_hash = None
    tx.move_player(player, seat)
    tx.emit(
        "seat_moved", {"type": "seat_moved", "seat": seat, "by": "seat"}, seat=seat, player=player
    )
    return player

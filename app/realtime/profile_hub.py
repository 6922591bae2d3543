"""The profile sockets (``/ws/profile``, docs/invitations.md): which profiles have one
open, on this process and on the others, and what to send them.

Each process keeps its own sockets by profile id. With PostgreSQL, processes tell each
other on the NOTIFY channel :data:`~app.db.channel.PROFILES_CHANNEL`, payloads
``"<process>|<kind>|<profile ids, comma-separated>[|<invitation id>]"``, never anything
else (a receiver reads what to send from the database):

- ``inv`` — an invitation for that profile was just stored (its id last);
- ``on`` / ``off`` — the profiles' first socket on that process opened, their last one
  closed;
- ``seat`` — the profiles took, moved or left a seat (their friends' frames name the
  public table they sit at);
- ``here`` — a heartbeat every ``ttl / 3`` seconds listing the profiles with a socket
  there (in chunks); a process that stops sending is forgotten after ``ttl`` seconds.

A profile is *online* while it has a profile socket on any process. When that changes,
or when an online profile takes, moves or leaves a seat, each of its friends with a
socket here gets a new ``friends_online`` frame (its friends, and the public tables
where the online ones hold a bound seat, are read when the frame is built: a friendship
made later shows after a reconnect or the next change).

Every socket has a bounded queue (:data:`QUEUE_MAX_FRAMES` frames): a socket that falls
that far behind is closed (1013), as table sockets are.

>>> decode_note("ab|inv|7|12"), decode_note("ab|here|1,2"), decode_note("x|on|a")
(('ab', 'inv', [7], 12), ('ab', 'here', [1, 2], None), None)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import orjson

from app.db.invitations_store import Invitation, InvitationsStore, PublicSeat
from app.db.store import Unavailable

log = logging.getLogger(__name__)

#: frames a profile socket may have waiting before it is closed as too slow
QUEUE_MAX_FRAMES = 64
#: profile ids per heartbeat payload (NOTIFY payloads stay far below 8000 bytes)
CHUNK = 500


def decode_note(payload: str) -> tuple[str, str, list[int], int | None] | None:
    """(process, kind, profile ids, invitation id) of a payload, or None."""
    parts = payload.split("|")
    if len(parts) not in (3, 4) or not parts[0]:
        return None
    ids = [p for p in parts[2].split(",") if p]
    if not all(p.isdigit() for p in ids) or (len(parts) == 4 and not parts[3].isdigit()):
        return None
    return parts[0], parts[1], [int(p) for p in ids], int(parts[3]) if len(parts) == 4 else None


def _iso(at: datetime) -> str:
    """ISO 8601 UTC with milliseconds and ``Z`` (SQLite gives naive UTC datetimes)."""
    at = at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _table(seat: PublicSeat | None) -> dict[str, object] | None:
    """A friend's public table in a ``friends_online`` frame (null: none, or offline)."""
    if seat is None:
        return None
    return {"code": seat.code, "name": seat.name, "players": seat.players, "status": seat.status}


def invitation_frame(inv: Invitation) -> dict[str, object]:
    """The ``invitation`` frame (docs/protocol.md): handles and names, no id of a profile."""
    return {
        "type": "invitation",
        "id": inv.id,
        "from": {"handle": inv.from_handle, "display_name": inv.from_display_name},
        "table": {
            "code": inv.code,
            "name": inv.name,
            "players": inv.players,
            "status": inv.status,
        },
        "seat": inv.seat,
        "url": f"/t/{inv.code}",
        "at": _iso(inv.at),
    }


@dataclass(eq=False)
class ProfileSocket:
    """One open ``/ws/profile`` socket: its profile and its bounded queue."""

    profile_id: int
    max_frames: int = QUEUE_MAX_FRAMES
    overflowed: bool = False
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    _frames: deque[bytes] = field(default_factory=deque)

    def put(self, frame: dict[str, object]) -> None:
        if self.overflowed:
            return
        if len(self._frames) >= self.max_frames:
            self.overflowed = True
            self._frames.clear()
        else:
            self._frames.append(orjson.dumps(frame))
        self.ready.set()

    def take(self) -> list[bytes]:
        frames = list(self._frames)
        self._frames.clear()
        self.ready.clear()
        return frames


class ProfileHub:
    """This process's profile sockets, and what it heard of the others'."""

    def __init__(
        self,
        store: InvitationsStore,
        process: str,
        *,
        ttl: float = 30.0,
        friends_max: int = 200,
        publish: Callable[[str], None] | None = None,
    ) -> None:
        self.store = store
        self.process = process
        self.ttl = ttl
        self.friends_max = friends_max
        self.publish = publish
        self.local: dict[int, set[ProfileSocket]] = {}
        #: process → profile → when last heard (monotonic)
        self.remote: dict[str, dict[int, float]] = {}
        #: the friends each local profile was last shown (whose changes concern it)
        self._friend_ids: dict[int, set[int]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    # -- who is online -----------------------------------------------------------------
    def online(self, profile_id: int, now: float | None = None) -> bool:
        if profile_id in self.local:
            return True
        now = time.monotonic() if now is None else now
        return any(now - seen.get(profile_id, -1e18) < self.ttl for seen in self.remote.values())

    def _say(self, kind: str, ids: Iterable[int], extra: int | None = None) -> None:
        if self.publish is None:
            return
        ids = sorted(ids)
        for i in range(0, max(len(ids), 1), CHUNK):
            note = f"{self.process}|{kind}|{','.join(str(p) for p in ids[i : i + CHUNK])}"
            self.publish(note if extra is None else f"{note}|{extra}")

    # -- sockets -----------------------------------------------------------------------
    async def add(self, sock: ProfileSocket) -> None:
        """A socket opened: it gets its ``friends_online`` frame; its profile's friends
        here hear of it if it just came online."""
        was = self.online(sock.profile_id)
        self.local.setdefault(sock.profile_id, set()).add(sock)
        await self._send_friends(sock.profile_id, [sock])
        if len(self.local[sock.profile_id]) == 1:
            self._say("on", [sock.profile_id])
        if not was:
            await self._changed({sock.profile_id})

    async def remove(self, sock: ProfileSocket) -> None:
        socks = self.local.get(sock.profile_id)
        if socks is None:
            return
        socks.discard(sock)
        if socks:
            return
        del self.local[sock.profile_id]
        self._friend_ids.pop(sock.profile_id, None)
        self._say("off", [sock.profile_id])
        if not self.online(sock.profile_id):
            await self._changed({sock.profile_id})

    async def _send_friends(self, profile_id: int, socks: Iterable[ProfileSocket]) -> None:
        try:
            friends = await self.store.friends(profile_id, self.friends_max)
        except Unavailable as exc:
            log.warning("friends not read for the online list (%s)", exc)
            return
        self._friend_ids[profile_id] = {f.id for f in friends}
        online = {f.id for f in friends if self.online(f.id)}
        try:
            seats = await self.store.public_seats(sorted(online))
        except Unavailable as exc:
            log.warning("friends' tables not read for the online list (%s)", exc)
            seats = {}
        frame: dict[str, object] = {
            "type": "friends_online",
            "friends": [
                {
                    "handle": f.handle,
                    "display_name": f.display_name,
                    "online": f.id in online,
                    "table": _table(seats.get(f.id)),
                }
                for f in friends
            ],
        }
        for sock in socks:
            sock.put(frame)

    async def _changed(self, ids: set[int]) -> None:
        """These profiles came online or went offline: tell their friends here."""
        for pid, friend_ids in list(self._friend_ids.items()):
            socks = self.local.get(pid)
            if socks and friend_ids & ids:
                await self._send_friends(pid, list(socks))

    async def seated(self, profile_id: int) -> None:
        """The profile took, moved or left a seat: its friends here see its table anew,
        and the other processes are told (``seat``)."""
        self._say("seat", [profile_id])
        if self.online(profile_id):
            await self._changed({profile_id})

    # -- invitations -------------------------------------------------------------------
    async def invited(self, to_id: int, invitation_id: int) -> None:
        """An invitation was stored: deliver it here and tell the other processes."""
        self._say("inv", [to_id], invitation_id)
        await self._deliver(to_id, invitation_id)

    async def _deliver(self, to_id: int, invitation_id: int) -> None:
        socks = self.local.get(to_id)
        if not socks:
            return
        try:
            inv = await self.store.get(invitation_id)
        except Unavailable as exc:
            log.warning("invitation not read for delivery (%s)", exc)
            return
        if inv is not None and inv.to_id == to_id:
            frame = invitation_frame(inv)
            for sock in list(socks):
                sock.put(frame)

    # -- the other processes -----------------------------------------------------------
    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def heard(self, payload: str) -> None:
        """A note on the profiles channel (the listener calls this)."""
        self._spawn(self._heard(payload))

    async def _heard(self, payload: str, now: float | None = None) -> None:
        note = decode_note(payload)
        if note is None or note[0] == self.process:
            return
        process, kind, ids, extra = note
        now = time.monotonic() if now is None else now
        if kind == "inv" and extra is not None:
            for pid in ids:
                await self._deliver(pid, extra)
            return
        if kind == "seat":
            await self._changed({pid for pid in ids if self.online(pid, now)})
            return
        before = {pid: self.online(pid, now) for pid in ids}
        seen = self.remote.setdefault(process, {})
        if kind in ("on", "here"):
            for pid in ids:
                seen[pid] = now
        elif kind == "off":
            for pid in ids:
                seen.pop(pid, None)
        changed = {pid for pid in ids if self.online(pid, now) != before[pid]}
        if changed:
            await self._changed(changed)

    def heartbeat(self) -> None:
        """Say who has sockets here; forget the others' profiles not heard for ``ttl``."""
        if self.local:
            self._say("here", list(self.local))
        now = time.monotonic()
        gone: set[int] = set()
        for process, seen in list(self.remote.items()):
            for pid, at in list(seen.items()):
                if now - at >= self.ttl:
                    del seen[pid]
                    gone.add(pid)
            if not seen:
                del self.remote[process]
        gone = {pid for pid in gone if not self.online(pid, now)}
        if gone:
            self._spawn(self._changed(gone))

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

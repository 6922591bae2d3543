"""One client socket on one table, and its outbound queue — bounded in bytes.

Frames are queued already encoded (:func:`app.realtime.frames.encode`: the UTF-8 bytes
of their JSON), and the queue counts their bytes: what a socket holds is exactly what it
will send, byte for byte, as the payloads of WebSocket text frames. A client that falls
more than ``max_bytes`` bytes behind is dropped (it can reconnect and resync): the writer closes it with 1013. A new snapshot supersedes every
snapshot and event still queued before it (acks, errors and presence stay). Nothing runs
for an idle socket: the socket's writer task exists only while frames wait.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from app.core.security import hash_token

#: per-socket bytes of frames waiting to be written before the socket is dropped
QUEUE_MAX_BYTES = 1 << 20

_SUPERSEDED = ("snapshot", "event")


@dataclass(eq=False)
class Connection:
    """A socket: its table, who it is (``seat`` None for spectators) and its queue."""

    table_id: int
    code: str
    seat: int | None
    player_id: int | None
    token: str | None
    max_bytes: int = QUEUE_MAX_BYTES
    last_seq: int = -1  # -1 until the snapshot was queued
    overflowed: bool = False
    closed: bool = False
    #: the client's page is hidden (it said ``{"type":"presence","state":"away"}``)
    away: bool = False
    #: called when frames wait and nothing is writing them (the socket starts a writer
    #: then; an idle socket has none)
    on_ready: Callable[[], None] | None = None
    #: a close asked for by the hub (code, reason): sent once the queued frames went out,
    #: and nothing more is queued (app/realtime/revoke.py)
    closing: tuple[int, str] | None = None
    _digest: str | None = None
    _frames: deque[tuple[str, bytes]] = field(default_factory=deque)
    _bytes: int = 0

    @property
    def queued_bytes(self) -> int:
        """The bytes of the frames waiting: the payload bytes they will take on the wire."""
        return self._bytes

    def token_digest(self) -> str | None:
        """The seat token's hash as stored (computed once per socket)."""
        if self._digest is None and self.token is not None:
            self._digest = hash_token(self.token)
        return self._digest

    def close_after(self, code: int, reason: str) -> None:
        """Close the socket with ``code`` once its queued frames went out; queue no more."""
        self.closing = (code, reason)
        if self.on_ready is not None:
            self.on_ready()

    def put(self, data: bytes, kind: str = "other") -> None:
        """Queue an encoded frame (its UTF-8 JSON bytes) of ``kind`` (``snapshot``,
        ``event`` or other)."""
        if self.closed or self.overflowed or self.closing is not None:
            return
        if kind == "snapshot" and self._frames:
            kept = deque(f for f in self._frames if f[0] not in _SUPERSEDED)
            self._bytes = sum(len(d) for _, d in kept)
            self._frames = kept
        if self._bytes + len(data) > self.max_bytes:
            self.overflowed = True  # too slow: the sender closes the socket (1013)
            self._frames.clear()
            self._bytes = 0
        else:
            self._frames.append((kind, data))
            self._bytes += len(data)
        if self.on_ready is not None:
            self.on_ready()

    def next_frame(self) -> bytes | None:
        """The next frame to send, or None when there is none (see :attr:`overflowed`)."""
        if not self._frames:
            return None
        _, data = self._frames.popleft()
        self._bytes -= len(data)
        return data

    def take_all(self) -> list[bytes]:
        """Every frame waiting, in order (the queue is then empty)."""
        frames = [data for _, data in self._frames]
        self._frames.clear()
        self._bytes = 0
        return frames

    def empty(self) -> bool:
        return not self._frames

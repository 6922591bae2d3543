"""Soak benchmark players: two seats per table that play whole matches through server
kills, database outages and reconnects, and record every acknowledged move.

A table is seated and started over HTTP with ``bench.load_tables.TableBot`` (its
``setup``/``start``); each seat then keeps one WebSocket open to one of the server
processes for the whole run (its *home*: seat ``s`` of table ``i`` on server
``(i + s) % 2``, so every table's events cross processes). When the socket drops the
seat reconnects — to the other process first (the dropped one was likely killed), then
back and forth with a back-off — and later goes home again on its own.

Every move has a ``move_id``; it is retried with the same id and the same ``seq``
(docs/protocol.md: a retry of a committed move is answered with the original ``seq``
and ``duplicate``) after a reconnect, after an ``unavailable`` error and when no answer
came within ``RESEND_AFTER`` seconds. Every ``ack`` goes into :class:`Ledger`, which
``bench/soak.py`` checks against the database at the end. Seq gaps follow the protocol:
a gap is counted, a ``resync`` sent and nothing applied until the snapshot (counted as
repaired when it comes, or when a reconnect's snapshot replaces everything).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from bench.load_tables import Run, TableBot, apply_patch

#: seconds without an answer to a move before it is sent again (same id, same seq)
RESEND_AFTER = 10.0
#: errors after which a move is known not to be committed under its id: give it up
GIVE_UP = {
    "stale",
    "conflict",
    "not_your_turn",
    "illegal_move",
    "round_over",
    "match_over",
    "not_started",
    "move_id_reused",
    "bad_message",
    "bad_notation",
}


@dataclass
class Sample:
    """One acknowledged move: first send, ack time (monotonic), sends, server of ack."""

    t0: float
    t1: float
    sends: int


@dataclass
class Ledger:
    """Everything the players saw, shared by all seats of the run."""

    acked: dict[str, tuple[str, int]] = field(default_factory=dict)  # move_id -> (code, seq)
    ack_mismatch: list[str] = field(default_factory=list)  # same id acked at two seqs
    samples: list[Sample] = field(default_factory=list)
    sent: int = 0  # distinct moves sent (first sends)
    resends: int = 0  # sends of a move again under its id
    duplicates: int = 0  # acks with "duplicate": true
    given_up: Counter[str] = field(default_factory=Counter)  # moves refused, by code
    errors: Counter[str] = field(default_factory=Counter)  # every error frame, by code
    closes: Counter[str] = field(default_factory=Counter)  # seat socket closes, by code
    connects: int = 0
    reconnects: int = 0
    connect_failures: int = 0
    go_home: int = 0  # planned reconnects back to the home server
    gaps_seen: int = 0
    gaps_repaired_resync: int = 0
    gaps_repaired_reconnect: int = 0
    rounds: int = 0
    rematches: int = 0
    stopping: bool = False

    def ack(self, code: str, move_id: str, seq: int) -> None:
        prior = self.acked.get(move_id)
        if prior is not None and prior != (code, seq):
            self.ack_mismatch.append(f"{code}:{move_id}: acked at {prior[1]} and at {seq}")
        self.acked.setdefault(move_id, (code, seq))


@dataclass
class Inflight:
    move_id: str
    move: str
    seq: int
    t0: float
    last_send: float
    sends: int = 1


class SoakTable(TableBot):
    """A table of the soak: seated and started by ``TableBot``, played by two seats."""

    def __init__(self, run: Run, index: int, ledger: Ledger, ws_bases: list[str]) -> None:
        super().__init__(run, index)
        self.ledger = ledger
        self.ws_bases = ws_bases
        self.seats: list[Seat] = []
        self.last_event_at = time.monotonic()
        self.max_seq_seen = 0

    def begin_play(self) -> list[asyncio.Task[None]]:
        self.seats = [
            Seat(self, s, tok, (self.index + s) % len(self.ws_bases))
            for s, tok in enumerate(self.tokens)
        ]
        return [asyncio.create_task(seat.run_forever()) for seat in self.seats]


class Seat:
    """One seat's socket through the whole run (reconnecting), and its moves."""

    def __init__(self, table: SoakTable, seat: int, token: str, home: int) -> None:
        self.table = table
        self.seat = seat
        self.token = token
        self.home = home
        self.ledger = table.ledger
        self.args: argparse.Namespace = table.run.args
        self.rng = random.Random(f"{self.args.seed}-{table.index}-{seat}")
        self.ws: ClientConnection | None = None
        self.server = home
        self.synced = False
        self.resync_pending = False
        self.last_seq = 0
        self.view: dict[str, Any] | None = None
        self.info: dict[str, Any] | None = None
        self.inflight: Inflight | None = None
        self.thinking = False
        self.moves = 0
        self.asked: set[tuple[str, int, int]] = set()  # next_round / rematch sent, by key
        self.home_at = float("inf")  # when to go home, while away from it
        self.done = asyncio.Event()

    # -- the connection ----------------------------------------------------------------
    async def run_forever(self) -> None:
        backoff = 0.25
        first = True
        while not self.ledger.stopping:
            url = f"{self.table.ws_bases[self.server]}/ws/tables/{self.table.code}"
            try:
                ws = await connect(
                    f"{url}?token={self.token}", open_timeout=10, ping_interval=None, max_size=None
                )
            except (OSError, InvalidHandshake, TimeoutError):
                self.ledger.connect_failures += 1
                self.server = (self.server + 1) % len(self.table.ws_bases)
                await asyncio.sleep(backoff * (0.5 + self.rng.random()))
                backoff = min(backoff * 2, 4.0)
                continue
            backoff = 0.25
            self.ledger.connects += 1
            if not first:
                self.ledger.reconnects += 1
            first = False
            self.ws = ws
            self.home_at = (
                float("inf")
                if self.server == self.home
                else time.monotonic() + self.rng.uniform(30, 120)
            )
            ticker = asyncio.create_task(self.tick(ws))
            try:
                await self.read(ws)
            finally:
                ticker.cancel()
                self.ws = None
                self.synced = False
                self.thinking = False
            if self.resync_pending:  # the reconnect's snapshot replaces everything
                self.ledger.gaps_repaired_reconnect += 1
                self.resync_pending = False
            code = ws.close_code
            self.ledger.closes[str(code) if code is not None else "abrupt"] += 1
            if self.ledger.stopping:
                break
            if code == 1000 and self.server != self.home:  # our own close: going home
                self.server = self.home
            else:
                self.server = (self.server + 1) % len(self.table.ws_bases)
            await asyncio.sleep(self.rng.uniform(0.1, 0.6))
        self.done.set()

    async def read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                await self.on_frame(json.loads(raw))
        except ConnectionClosed:
            pass

    async def tick(self, ws: ClientConnection) -> None:
        """Once a second: resend an unanswered move, go home when due, act if idle."""
        while True:
            await asyncio.sleep(1.0)
            now = time.monotonic()
            fl = self.inflight
            if fl is not None and self.synced and now - fl.last_send > RESEND_AFTER:
                await self.send_move(fl)
            elif now > self.home_at and fl is None and not self.ledger.stopping:
                self.ledger.go_home += 1
                await ws.close()  # run_forever reconnects to the home server
                return
            else:
                await self.act()

    async def send(self, frame: dict[str, Any]) -> None:
        ws = self.ws
        if ws is None:
            return
        with contextlib.suppress(ConnectionClosed):
            await ws.send(json.dumps(frame))

    # -- frames ------------------------------------------------------------------------
    async def on_frame(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "snapshot":
            if self.resync_pending:
                self.ledger.gaps_repaired_resync += 1
                self.resync_pending = False
            self.last_seq, self.view, self.info = msg["seq"], msg["view"], msg["table"]
            self.seen(self.last_seq)
            first_after_connect = not self.synced
            self.synced = True
            if first_after_connect and self.inflight is not None:
                await self.send_move(self.inflight)  # the retry: same id, same seq
            await self.act()
        elif kind == "event":
            if not self.synced:
                return  # waiting for the snapshot that answers our resync
            seq = msg["seq"]
            if seq != self.last_seq + 1:
                self.ledger.gaps_seen += 1
                self.synced = False
                self.resync_pending = True
                await self.send({"type": "resync", "last_seq": self.last_seq})
                return
            self.last_seq = seq
            self.seen(seq)
            if "view" in msg:
                self.view = msg["view"]
            elif "view_patch" in msg and self.view is not None:
                self.view = apply_patch(self.view, msg["view_patch"])
            if "table_patch" in msg and self.info is not None:
                self.info = apply_patch(self.info, msg["table_patch"])
            await self.act()
        elif kind == "ack":
            self.on_ack(msg)
            await self.act()
        elif kind == "error":
            await self.on_error(msg)

    def seen(self, seq: int) -> None:
        self.table.last_event_at = time.monotonic()
        self.table.max_seq_seen = max(self.table.max_seq_seen, seq)

    def on_ack(self, msg: dict[str, Any]) -> None:
        move_id = msg.get("move_id")
        if not isinstance(move_id, str):
            return
        self.ledger.ack(self.table.code, move_id, int(msg["seq"]))
        if msg.get("duplicate"):
            self.ledger.duplicates += 1
        fl = self.inflight
        if fl is not None and fl.move_id == move_id:
            self.ledger.samples.append(Sample(fl.t0, time.monotonic(), fl.sends))
            self.inflight = None

    async def on_error(self, msg: dict[str, Any]) -> None:
        code = str(msg.get("code"))
        self.ledger.errors[code] += 1
        fl = self.inflight
        if fl is not None and msg.get("move_id") == fl.move_id:
            if code in GIVE_UP:
                self.ledger.given_up[code] += 1
                self.inflight = None  # a snapshot follows stale/conflict
            else:  # unavailable, rate_limited: the same move again, a little later
                fl.last_send = time.monotonic() - RESEND_AFTER + self.rng.uniform(0.5, 1.5)
        elif msg.get("move_id") is None:
            self.asked.clear()  # a next_round / rematch may have failed: ask again

    # -- playing -----------------------------------------------------------------------
    async def act(self) -> None:
        view = self.view
        if (
            self.ledger.stopping
            or not self.synced
            or view is None
            or self.inflight is not None
            or self.thinking
        ):
            return
        phase = view.get("phase")
        match = int((self.info or {}).get("match") or 0)
        if phase == "playing":
            legal = view.get("legal") or []
            if view.get("turn") != self.seat or not legal:
                return
            if len(legal) == 1 and legal[0]["kind"] == "pass":
                return  # the server plays a forced pass itself
            self.thinking = True
            task = asyncio.create_task(self.think(self.last_seq))
            self.table.run.tasks.add(task)
            task.add_done_callback(self.table.run.tasks.discard)
        elif phase in ("round_over", "match_over"):
            kind = "next_round" if phase == "round_over" else "rematch"
            key = (kind, match, int(view.get("round") or 0))
            if key not in self.asked:
                self.asked.add(key)
                if self.seat == 0:
                    if kind == "next_round":
                        self.ledger.rounds += 1
                    else:
                        self.ledger.rematches += 1
                await self.send({"type": kind})

    async def think(self, seq: int) -> None:
        lo, hi = self.args.think
        try:
            await asyncio.sleep(self.rng.uniform(lo, hi) / 1000)
        finally:
            self.thinking = False
        view = self.view
        if (
            self.ledger.stopping
            or not self.synced
            or self.last_seq != seq
            or self.inflight is not None
            or view is None
            or view.get("turn") != self.seat
        ):
            await self.act()
            return
        legal = view.get("legal") or []
        places = [m for m in legal if m["kind"] in ("place", "open")]
        choice = self.rng.choice(places)["move"] if places else legal[0]["move"]
        self.moves += 1
        now = time.monotonic()
        fl = Inflight(f"t{self.table.index}s{self.seat}m{self.moves}", choice, seq, now, now, 0)
        self.inflight = fl
        self.ledger.sent += 1
        await self.send_move(fl)

    async def send_move(self, fl: Inflight) -> None:
        if fl.sends:
            self.ledger.resends += 1
        fl.sends += 1
        fl.last_send = time.monotonic()
        await self.send({"type": "move", "move": fl.move, "move_id": fl.move_id, "seq": fl.seq})

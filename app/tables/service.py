"""The table service: every change to a table goes through :meth:`TableService._mutate`.

One change = one database transaction: load the table (snapshot + ``version``), let the
engine decide, insert the event row(s) keyed ``(table_id, seq)``, store the new snapshot
with ``UPDATE ... WHERE version = :old``. A second writer at the same version fails
cleanly (``conflict``). Listeners are told only after the commit (in-process callback and,
on PostgreSQL, ``NOTIFY`` — which Postgres delivers only on commit).

The server never decides a rule itself: legality, scoring, settlement and dealing are the
engine's (``Match.play``, ``Match.next_round``, ``Match.new``).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.exc import StaleDataError

from app.core.locks import KeyedLocks
from app.core.security import (
    NAME_MAX,
    TABLE_NAME_MAX,
    clean_name,
    hash_token,
    new_table_code,
    new_token,
    normalise_code,
    valid_move_id,
)
from app.core.urls import libpq_dsn
from app.db.models import PlayerRow, TableRow, TableStatus
from app.db.session import GatedSessions
from app.db.store import (
    Busy,
    CoreStore,
    EventRecord,
    MoveIdClash,
    PgStore,
    PlayerState,
    TableState,
    Unavailable,
)
from app.engine import IllegalMove, Match, history_for
from app.tables.errors import TableError, not_found, unauthorized
from app.tables.info import lobby_entry, table_info

log = logging.getLogger(__name__)

NOTIFY_CHANNEL = "fiveup_events"
MOVE_ID_MAX = 64

CommitListener = Callable[[int, "list[EventRecord] | None"], Awaitable[None]]
#: delays before re-running a commit listener that failed (delivery is idempotent)
LISTENER_RETRY_DELAYS = (0.2, 0.5, 1.0, 2.0, 5.0)
#: tables whose state this process keeps in memory (least recently changed dropped first)
HOT_TABLES_MAX = 5000


@dataclass
class ActResult:
    """The answer to a move: the seq of the move's event; ``duplicate`` for a retry."""

    seq: int
    duplicate: bool = False


@dataclass
class _Tx:
    """A change being built inside one transaction."""

    session: AsyncSession | None  # None on the fast path (no seating changes there)
    table: Any  # TableRow (seating, ORM) or TableState (everything else)
    players: list[Any]  # PlayerRow or PlayerState
    match: Match | None
    events: list[EventRecord] = field(default_factory=list)
    next_round_seconds: float = 0.0  # the service's countdown (TableInfo.next_round_at)

    def info(self) -> dict[str, Any]:
        """The table info as it stands now in this change."""
        return table_info(self.table, self.players, self.match,
                          next_round_seconds=self.next_round_seconds)

    def player_at(self, seat: int) -> Any:
        return next((p for p in self.players if p.seat == seat), None)

    def emit(
        self,
        kind: str,
        payload: dict[str, Any],
        *,
        seat: int | None = None,
        player_id: int | None = None,
        move_id: str | None = None,
    ) -> EventRecord:
        """Record one event (with the state and table info *after* it)."""
        self.table.seq += 1
        row = EventRecord(
            table_id=self.table.id,
            seq=self.table.seq,
            kind=kind,
            seat=seat,
            player_id=player_id,
            move_id=move_id,
            match_number=self.table.match_number,
            payload=payload,
            state=_event_state(self.match),
            table_info=self.info(),
        )
        self.events.append(row)
        return row


@dataclass
class Identity:
    """Who is asking: the table and, with a valid token, the seat."""

    table_id: int
    code: str
    seat: int | None
    player_id: int | None


class TableService:
    """Create/join/seat/start/act/rematch. Stateless apart from in-process locks/timers."""

    def __init__(
        self,
        sessionmaker: GatedSessions,
        *,
        postgres: bool,
        next_round_seconds: float = 8.0,
        rng: random.Random | None = None,
        db_writers: int = 16,
        notify_after_commit: bool = False,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.postgres = postgres
        self.next_round_seconds = next_round_seconds
        self.rng = rng or random.SystemRandom()  # R5/R7: the OS CSPRNG
        self.listeners: list[CommitListener] = []
        self._lock = KeyedLocks()  # one lock per table, alive while in use
        self._timers: set[asyncio.Task[None]] = set()
        # The hot path (moves, votes, deals): state kept in memory per table, keyed by
        # its version, and written without the ORM. A write by another process moves
        # the version on: ours then writes nothing, and the change is re-decided on
        # state read fresh from the database.
        self._hot: dict[int, tuple[TableState, list[PlayerState], Match | None]] = {}
        self._delivering: dict[int, int] = {}  # table id -> seq being committed/delivered
        self._held_back: set[int] = set()  # tables with a NOTIFY left to that delivery
        engine = sessionmaker.kw["bind"]
        self.store: PgStore | CoreStore
        if postgres:
            url = engine.url.render_as_string(hide_password=False)
            self.store = PgStore(libpq_dsn(url), NOTIFY_CHANNEL, size=db_writers,
                                 notify_after_commit=notify_after_commit)
        else:
            self.store = CoreStore(engine, sessionmaker._gate)

    # -- plumbing ----------------------------------------------------------------------
    async def _table_id(self, code: str) -> int:
        norm = normalise_code(code)
        if norm is None:
            raise not_found()
        async with self.sessionmaker() as s:
            tid = await s.scalar(select(TableRow.id).where(TableRow.code == norm))
        if tid is None:
            raise not_found()
        return tid

    async def _retrying(
        self, table_id: int, change: Callable[[_Tx], Awaitable[Any]], attempts: int = 4,
        *, seating: bool = False,
    ) -> tuple[Any, _Tx]:
        """``_mutate`` for table actions that are re-decided on fresh state (seating,
        start, votes): a conflict with another writer is retried, never for moves (a
        move was chosen against one state; it gets ``stale``/``conflict`` instead)."""
        mutate = self._mutate if seating else self._mutate_fast
        for attempt in range(attempts):
            try:
                return await mutate(table_id, change)
            except TableError as err:
                if err.code != "conflict" or attempt == attempts - 1:
                    raise
        raise AssertionError("unreachable")

    async def _mutate(
        self, table_id: int, change: Callable[[_Tx], Awaitable[Any]]
    ) -> tuple[Any, _Tx]:
        """Run ``change`` in one ORM transaction with a version check; notify after
        commit. Used for seating changes (they add and remove players)."""
        async with self._lock(table_id):
            self._hot.pop(table_id, None)
            try:
                async with self.sessionmaker() as s, s.begin():
                    table = await s.get(TableRow, table_id)
                    if table is None:
                        raise not_found()
                    players = list(
                        await s.scalars(select(PlayerRow).where(PlayerRow.table_id == table_id))
                    )
                    match = Match.from_dict(table.state) if table.state else None
                    tx = _Tx(s, table, players, match,
                             next_round_seconds=self.next_round_seconds)
                    result = await change(tx)
                    if tx.events:
                        table.state = tx.match.to_dict() if tx.match else None
                        s.add_all([e.as_row() for e in tx.events])
                        await s.flush()  # UPDATE ... WHERE version = :old, then INSERTs
                        if self.postgres:
                            await s.execute(
                                text("SELECT pg_notify(:ch, :payload)"),
                                {"ch": NOTIFY_CHANNEL, "payload": f"{table_id}:{table.seq}"},
                            )
            except OperationalError as exc:
                if "locked" not in str(exc.orig).lower():  # SQLite's busy writer only
                    raise
                log.info("table %s: database busy; refused as a conflict", table_id)
                raise TableError(
                    "conflict", "another change was committed first; resync", 409
                ) from None
            except (StaleDataError, IntegrityError) as exc:
                log.info("table %s: concurrent write refused (%s)", table_id, type(exc).__name__)
                raise TableError(
                    "conflict", "another change was committed first; resync", 409
                ) from None
        if tx.events:
            self._committed(table_id, tx.events)
            await self._notify(table_id, tx.events)
        return result, tx

    @staticmethod
    def _committed(table_id: int, events: list[EventRecord]) -> None:
        if log.isEnabledFor(logging.INFO):
            log.info("table %s: committed seq %s..%s (%s)", table_id, events[0].seq,
                     events[-1].seq, ",".join(e.kind for e in events))

    async def _mutate_fast(
        self, table_id: int, change: Callable[[_Tx], Awaitable[Any]]
    ) -> tuple[Any, _Tx]:
        """Run ``change`` on the table's state and write it as one transaction with a
        version check (:mod:`app.db.store`); notify after commit.

        The state comes from this process's memory when it has the table at hand, else
        from the database. Decided on remembered state, a refusal or a version that has
        moved on (another process wrote) is not final: the change is decided once more on
        fresh state, exactly as if it had arrived a moment later. Memory is updated only
        after a successful write; any failure forgets the table.
        """
        async with self._lock(table_id):
            hot = self._hot.pop(table_id, None)
            while True:
                remembered = hot is not None
                if hot is None:
                    try:
                        loaded = await self.store.load(table_id)
                    except Unavailable:
                        raise _unavailable() from None
                    if loaded is None:
                        raise not_found()
                    table, players = loaded
                    match = Match.from_dict(table.state) if table.state else None
                else:
                    table, players, match = hot
                    hot = None
                tx = _Tx(None, table, players, match,
                         next_round_seconds=self.next_round_seconds)
                try:
                    result = await change(tx)
                except TableError:
                    if remembered:
                        continue  # maybe refused only because memory was behind
                    raise
                match = tx.match  # a new match replaces the old one (start, rematch)
                if not tx.events:
                    self._remember(table_id, table, players, match)
                    return result, tx
                table.state = match.to_dict() if match else None
                # until this process has delivered it, a NOTIFY of this commit is ours
                self._delivering[table_id] = table.seq
                try:
                    written = await self.store.write(table, table.version, tx.events)
                except BaseException as exc:
                    self._delivered(table_id, table.seq, ok=False)
                    if isinstance(exc, (MoveIdClash, Busy)):
                        log.info("table %s: concurrent write refused (%s)", table_id,
                                 type(exc).__name__)
                        raise _conflict() from None
                    if isinstance(exc, Unavailable):
                        raise _unavailable() from None
                    raise
                if not written:
                    self._delivered(table_id, table.seq, ok=False)
                    if remembered:
                        continue  # another process wrote: decide again on fresh state
                    log.info("table %s: concurrent write refused (version)", table_id)
                    raise _conflict()
                table.version += 1
                table.state = None  # memory keeps the Match; the dict was for the write
                self._remember(table_id, table, players, match)
                break
        self._committed(table_id, tx.events)
        try:
            await self._notify(table_id, tx.events)
        finally:
            self._delivered(table_id, tx.events[-1].seq, ok=True)
        return result, tx

    def _delivered(self, table_id: int, seq: int, *, ok: bool) -> None:
        """The local write of ``seq`` has been delivered (``ok``) or did not happen: in
        that case a NOTIFY for that seq held back meanwhile was someone else's."""
        if self._delivering.get(table_id) == seq:
            del self._delivering[table_id]
        if table_id in self._held_back:
            self._held_back.discard(table_id)
            if not ok:
                self._spawn(self._retry_listeners(table_id))

    async def _retry_listeners(self, table_id: int) -> None:
        for listener in self.listeners:
            await self._retry_listener(listener, table_id, first_delay=0.0)

    def _remember(self, table_id: int, table: TableState, players: list[PlayerState],
                  match: Match | None) -> None:
        self._hot[table_id] = (table, players, match)
        if len(self._hot) > HOT_TABLES_MAX:
            del self._hot[next(iter(self._hot))]

    def observed(self, table_id: int | None, seq: int | None) -> bool:
        """A commit seen on the database (NOTIFY): forget the table if memory is behind
        (``None``: notifications may have been missed, forget every table). Only saves
        work: the version check is what keeps remembered state from being written.

        True if the commit is one this process is itself delivering right now (the
        NOTIFY overtook the local delivery): the hub need not read it back."""
        if table_id is None:
            self._hot.clear()
            return False
        if seq is not None and self._delivering.get(table_id) == seq:
            self._held_back.add(table_id)
            return True
        hot = self._hot.get(table_id)
        if hot is not None and (seq is None or seq > hot[0].seq):
            del self._hot[table_id]
        return False

    async def _notify(self, table_id: int, events: list[EventRecord] | None = None) -> None:
        """Tell listeners (the hub) about committed events. A listener that fails is
        retried in the background: a committed change is always delivered."""
        for listener in self.listeners:
            try:
                await listener(table_id, events)
            except Exception as exc:  # a listener must never undo a committed change
                log.warning("commit listener failed for table %s (%s); retrying",
                            table_id, type(exc).__name__)
                self._spawn(self._retry_listener(listener, table_id))

    async def _retry_listener(
        self, listener: CommitListener, table_id: int, first_delay: float | None = None
    ) -> None:
        delays = LISTENER_RETRY_DELAYS if first_delay is None else (
            first_delay, *LISTENER_RETRY_DELAYS)
        for delay in delays:
            await asyncio.sleep(delay)
            try:
                await listener(table_id, None)
                return
            except Exception as exc:
                log.warning("commit listener retry failed for table %s (%s)",
                            table_id, type(exc).__name__)
        log.error("giving up delivering table %s; clients will resync", table_id)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._timers.add(task)
        task.add_done_callback(self._timers.discard)

    @staticmethod
    def _auth(tx: _Tx, token: str | None) -> Any:
        if not token:
            raise unauthorized()
        h = _hash_token(token)
        player = next((p for p in tx.players if p.token_hash == h), None)
        if player is None:
            raise unauthorized()
        return player

    @staticmethod
    def _check_seat(tx: _Tx, seat: Any) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < tx.table.players:
            raise TableError("bad_seat", f"seat must be 0..{tx.table.players - 1}", 400)
        return seat

    # -- lobby and seating -------------------------------------------------------------
    async def create(
        self, name: str, players: int, public: bool, host_name: str
    ) -> tuple[dict[str, Any], str, int]:
        """Create a table; the creator takes seat 0 and is host. Returns (info, token, seat)."""
        tname = _name(name, TABLE_NAME_MAX)
        hname = _name(host_name, NAME_MAX)
        if players not in (2, 3, 4):  # R2
            raise TableError("bad_players", "R2: a table has 2, 3 or 4 players", 400)
        token = new_token()
        for _ in range(20):
            try:
                async with self.sessionmaker() as s, s.begin():
                    table = TableRow(
                        code=new_table_code(),
                        name=tname,
                        players=players,
                        public=public,
                        status=TableStatus.WAITING,
                        host_seat=0,
                        seq=0,
                        match_number=0,
                        rematch_votes=[],
                        ready=[],
                    )
                    s.add(table)
                    await s.flush()
                    player = PlayerRow(
                        table_id=table.id, seat=0, name=hname, token_hash=hash_token(token)
                    )
                    s.add(player)
                    await s.flush()
                    tx = _Tx(s, table, [player], None)
                    tx.emit("created", {"type": "created", "seat": 0, "name": hname},
                            seat=0, player_id=player.id)
                    s.add_all([e.as_row() for e in tx.events])
                    await s.flush()
                break
            except IntegrityError:
                continue  # code collision: draw another
        else:  # pragma: no cover - 31^6 codes
            raise TableError("unavailable", "could not allocate a table code", 503)
        await self._notify(table.id, tx.events)
        return tx.info(), token, 0

    async def join(self, code: str, name: str, seat: Any) -> tuple[dict[str, Any], str, int]:
        """Take a free seat before the start. Returns (info, token, seat)."""
        pname = _name(name, NAME_MAX)
        token = new_token()

        async def change(tx: _Tx) -> int:
            s = self._check_seat(tx, seat)
            if tx.table.status == TableStatus.CLOSED:
                raise TableError("table_closed", "everybody left this table", 409)
            if tx.table.status != TableStatus.WAITING:
                raise TableError("already_started", "the match has already started", 409)
            if tx.player_at(s) is not None:
                raise TableError("seat_taken", f"seat {s} is taken", 409)
            player = PlayerRow(table_id=tx.table.id, seat=s, name=pname,
                               token_hash=hash_token(token))
            assert tx.session is not None
            tx.session.add(player)
            await tx.session.flush()
            tx.players.append(player)
            tx.emit("seated", {"type": "seated", "seat": s, "name": pname},
                    seat=s, player_id=player.id)
            return s

        s, tx = await self._retrying(await self._table_id(code), change, seating=True)
        return tx.info(), token, s

    async def change_seat(self, code: str, token: str | None, seat: Any) -> dict[str, Any]:
        """Move to a free seat before the start (the host stays host)."""

        async def change(tx: _Tx) -> None:
            player = self._auth(tx, token)
            s = self._check_seat(tx, seat)
            if tx.table.status != TableStatus.WAITING:
                raise TableError("already_started", "seats are fixed once the match starts", 409)
            if s == player.seat:
                return
            if tx.player_at(s) is not None:
                raise TableError("seat_taken", f"seat {s} is taken", 409)
            old = player.seat
            player.seat = s
            if tx.table.host_seat == old:
                tx.table.host_seat = s
            tx.emit("moved_seat", {"type": "moved_seat", "from": old, "to": s, "name": player.name},
                    seat=s, player_id=player.id)

        _, tx = await self._retrying(await self._table_id(code), change, seating=True)
        return tx.info()

    async def leave(self, code: str, token: str | None) -> dict[str, Any]:
        """Leave before the start. The token stops working; the host role passes on."""

        async def change(tx: _Tx) -> None:
            player = self._auth(tx, token)
            if tx.table.status != TableStatus.WAITING:
                raise TableError("already_started", "you cannot leave a match in play", 409)
            await self._remove(tx, player, "left")

        _, tx = await self._retrying(await self._table_id(code), change, seating=True)
        return tx.info()

    async def kick(self, code: str, token: str | None, seat: Any) -> dict[str, Any]:
        """The host removes a player before the start."""

        async def change(tx: _Tx) -> None:
            host = self._auth(tx, token)
            if host.seat != tx.table.host_seat:
                raise TableError("not_host", "only the host can remove players", 403)
            s = self._check_seat(tx, seat)
            if tx.table.status != TableStatus.WAITING:
                raise TableError("already_started", "the match has already started", 409)
            target = tx.player_at(s)
            if target is None:
                raise TableError("bad_seat", f"seat {s} is empty", 400)
            if target.id == host.id:
                raise TableError("bad_seat", "use leave to leave your own table", 400)
            await self._remove(tx, target, "kicked")

        _, tx = await self._retrying(await self._table_id(code), change, seating=True)
        return tx.info()

    @staticmethod
    async def _remove(tx: _Tx, player: PlayerRow, kind: str) -> None:
        assert tx.session is not None
        await tx.session.delete(player)
        tx.players.remove(player)
        tx.emit(kind, {"type": kind, "seat": player.seat, "name": player.name},
                seat=player.seat, player_id=player.id)
        if tx.table.host_seat == player.seat:
            if tx.players:
                tx.table.host_seat = min(p.seat for p in tx.players)
                tx.emit("host_changed", {"type": "host_changed", "seat": tx.table.host_seat},
                        seat=tx.table.host_seat)
            else:
                tx.table.host_seat = None
                tx.table.status = TableStatus.CLOSED
                tx.emit("closed", {"type": "closed"})

    async def start(self, code: str, token: str | None) -> dict[str, Any]:
        """The host starts the match once every seat is filled (R5–R7 by the engine)."""

        async def change(tx: _Tx) -> None:
            host = self._auth(tx, token)
            if host.seat != tx.table.host_seat:
                raise TableError("not_host", "only the host can start the match", 403)
            if tx.table.status != TableStatus.WAITING:
                raise TableError("already_started", "the match has already started", 409)
            if len(tx.players) != tx.table.players:
                raise TableError("seats_not_filled", "every seat must be filled to start", 409)
            self._new_match(tx, "started")

        _, tx = await self._retrying(await self._table_id(code), change)
        return tx.info()

    def _new_match(self, tx: _Tx, kind: str) -> None:
        tx.match = Match.new(players=tx.table.players, rng=self.rng)
        tx.table.match_number += 1
        tx.table.status = TableStatus.PLAYING
        tx.table.rematch_votes = []
        tx.table.ready = []
        tx.table.round_over_at = None
        tx.emit(kind, {"type": kind, "match": tx.table.match_number,
                       "round": 1, "starter": tx.match.round.starter})

    async def rematch(self, code: str, token: str | None) -> dict[str, Any]:
        """Vote for a rematch; when every seat agreed, a new match starts, same seats."""
        return await self.rematch_by_id(await self._table_id(code), token)

    async def rematch_by_id(self, table_id: int, token: str | None) -> dict[str, Any]:
        async def change(tx: _Tx) -> None:
            player = self._auth(tx, token)
            if tx.table.status != TableStatus.FINISHED:
                raise TableError("match_not_over", "a rematch needs a finished match", 409)
            if player.seat in tx.table.rematch_votes:
                return
            tx.table.rematch_votes = sorted([*tx.table.rematch_votes, player.seat])
            tx.emit("rematch_vote", {"type": "rematch_vote", "seat": player.seat},
                    seat=player.seat, player_id=player.id)
            if len(tx.table.rematch_votes) >= len(tx.players):
                self._new_match(tx, "rematch_started")

        _, tx = await self._retrying(table_id, change)
        return tx.info()

    # -- play --------------------------------------------------------------------------
    async def act(
        self,
        table_id: int,
        token: str | None,
        move: Any,
        move_id: Any = None,
        seq: Any = None,
    ) -> ActResult:
        """Play ``move`` for the token's seat (checked by the engine against stored state).

        ``seq``, if given, must be the table's current seq (else ``stale``). A ``move_id``
        already committed on this table is answered with its original seq, once.
        """
        if not isinstance(move, str) or len(move) > 64:
            raise TableError("bad_message", "move must be a notation string", 400)
        if move_id is not None and not valid_move_id(move_id):
            raise TableError("bad_message",
                             f"move_id must be 1..{MOVE_ID_MAX} chars of A-Z a-z 0-9 _ . : -")
        if seq is not None and (not isinstance(seq, int) or isinstance(seq, bool)):
            raise TableError("bad_message", "seq must be an integer", 400)

        async def change(tx: _Tx) -> ActResult:
            player = self._auth(tx, token)
            try:
                return self._play(tx, player, move, move_id, seq)
            except TableError:
                # a retry of a committed move fails the checks now (stale, not your
                # turn, ...): answer it with the original result. A retry that would
                # still be legal is stopped by the unique (table_id, move_id) key.
                if move_id is not None:
                    prior = await self._prior(table_id, move_id)
                    if prior is not None:
                        return prior
                raise

        try:
            result, tx = await self._mutate_fast(table_id, change)
        except TableError as err:
            if err.code == "conflict" and move_id is not None:
                prior = await self._prior(table_id, move_id)
                if prior is not None:
                    return prior
            raise
        assert isinstance(result, ActResult)
        if not result.duplicate:
            self._maybe_schedule(tx)
        return result

    def _play(self, tx: _Tx, player: Any, move: str, move_id: str | None,
              seq: int | None) -> ActResult:
        """The checks and the engine call of one move (raises TableError)."""
        if tx.table.status != TableStatus.PLAYING or tx.match is None:
            raise TableError("not_started", "no match is being played at this table", 409)
        if seq is not None and seq != tx.table.seq:
            raise TableError(
                "stale", f"the table is at seq {tx.table.seq}, your move was made at {seq}", 409
            )
        m = tx.match
        if m.round_over:
            raise TableError("round_over", "R21: the round is over; wait for the next deal",
                             409, rule="R21")
        if m.turn != player.seat:
            raise TableError("not_your_turn", f"it is seat {m.turn}'s turn", 409, rule="R8")
        try:
            ev = m.play(player.seat, move)
        except IllegalMove as exc:
            raise TableError("illegal_move", str(exc), 422, rule=exc.rule) from None
        except ValueError as exc:  # NotationError and friends
            raise TableError("illegal_move", f"not a move: {exc}", 422) from None
        row = tx.emit("move", ev, seat=player.seat, player_id=player.id, move_id=move_id)
        self._after_move(tx)
        return ActResult(row.seq)

    async def _prior(self, table_id: int, move_id: str) -> ActResult | None:
        """The committed result of ``move_id`` on this table, if any (a retry)."""
        try:
            seq = await self.store.prior_seq(table_id, move_id)
        except Unavailable:
            raise _unavailable() from None
        return None if seq is None else ActResult(seq, duplicate=True)

    def _after_move(self, tx: _Tx) -> None:
        """Automatic passes (R19: a pass is the only legal move), then round/match end."""
        m = tx.match
        assert m is not None
        while not m.round_over and m.turn is not None:
            legal = m.legal_moves(m.turn)
            if not (len(legal) == 1 and legal[0].kind == "pass"):
                break
            seat = m.turn
            ev = m.play(seat, legal[0])
            ev["auto"] = True
            tx.emit("move", ev, seat=seat)
        if m.over:
            tx.table.status = TableStatus.FINISHED
            tx.table.rematch_votes = []
        elif m.round_over:
            tx.table.ready = []
            if self.next_round_seconds <= 0:
                self._deal_next(tx)
            else:
                tx.table.round_over_at = datetime.now(UTC)
                # the settling event (the last one) carries the countdown's deadline
                tx.events[-1].table_info = tx.info()

    def _deal_next(self, tx: _Tx) -> None:
        m = tx.match
        assert m is not None
        ev = m.next_round(self.rng)  # R23 starter, R5/R6 deal
        tx.table.ready = []
        tx.table.round_over_at = None
        tx.emit("round_started", {"type": "round_started", "round": ev["round"],
                                  "starter": ev["starter"]})

    def _maybe_schedule(self, tx: _Tx) -> None:
        m = tx.match
        at = tx.table.round_over_at
        if (m is not None and m.round_over and not m.over and self.next_round_seconds > 0
                and at is not None):
            # due at the deadline clients are shown (TableInfo.next_round_at)
            elapsed = (datetime.now(UTC) - _aware(at)).total_seconds()
            self.schedule_next_round(tx.table.id, m.round_number,
                                     self.next_round_seconds - elapsed)

    def schedule_next_round(self, table_id: int, round_number: int, delay: float) -> None:
        """Deal round ``round_number + 1`` after ``delay`` seconds unless done before."""

        async def fire() -> None:
            await asyncio.sleep(max(0.0, delay))
            try:
                await self.advance_round(table_id, round_number)
            except TableError as err:
                log.info("table %s: timed next round skipped (%s)", table_id, err.code)

        self._spawn(fire())

    async def advance_round(self, table_id: int, round_number: int) -> None:
        """Deal the next round if round ``round_number`` is still the settled one."""

        async def change(tx: _Tx) -> None:
            m = tx.match
            if (m is not None and tx.table.status == TableStatus.PLAYING and m.round_over
                    and not m.over and m.round_number == round_number):
                self._deal_next(tx)

        await self._retrying(table_id, change)

    async def ready(self, table_id: int, token: str | None) -> None:
        """A seat is ready for the next round; dealt when every seat is ready."""

        async def change(tx: _Tx) -> None:
            player = self._auth(tx, token)
            m = tx.match
            if tx.table.status != TableStatus.PLAYING or m is None or not m.round_over or m.over:
                raise TableError("not_round_over", "there is no settled round to move on from", 409)
            if player.seat not in tx.table.ready:
                tx.table.ready = sorted([*tx.table.ready, player.seat])
                tx.emit("ready", {"type": "ready", "seat": player.seat},
                        seat=player.seat, player_id=player.id)
            if len(tx.table.ready) >= len(tx.players):
                self._deal_next(tx)

        await self._retrying(table_id, change)

    async def resume_timers(self) -> None:
        """After a (re)start: schedule the next deal for every table waiting on one."""
        if self.next_round_seconds <= 0:
            return
        async with self.sessionmaker() as s:
            rows = (await s.execute(
                select(TableRow.id, TableRow.state, TableRow.round_over_at).where(
                    TableRow.status == TableStatus.PLAYING, TableRow.round_over_at.is_not(None)
                )
            )).all()
        now = datetime.now(UTC)
        for tid, state, at in rows:
            if not state:
                continue
            elapsed = (now - _aware(at)).total_seconds()
            self.schedule_next_round(tid, int(state["round_number"]),
                                     self.next_round_seconds - elapsed)

    async def close(self) -> None:
        """Cancel pending timers (shutdown) and close the store's connections."""
        for task in list(self._timers):
            task.cancel()
        await self.store.close()

    # -- reading -----------------------------------------------------------------------
    async def identify(self, code: str, token: str | None) -> Identity:
        """Resolve a table code and optional token. Bad token → ``unauthorized``."""
        async with self.sessionmaker() as s:
            table = await _table_by_code(s, code)
            if token is None:
                return Identity(table.id, table.code, None, None)
            player = await s.scalar(
                select(PlayerRow).where(
                    PlayerRow.table_id == table.id, PlayerRow.token_hash == hash_token(token)
                )
            )
        if player is None:
            raise unauthorized()
        return Identity(table.id, table.code, player.seat, player.id)

    async def info(self, code: str) -> dict[str, Any]:
        """Public table info."""
        async with self.sessionmaker() as s:
            table = await _table_by_code(s, code)
            players = list(await s.scalars(select(PlayerRow).where(PlayerRow.table_id == table.id)))
        match = Match.from_dict(table.state) if table.state else None
        return table_info(table, players, match, next_round_seconds=self.next_round_seconds)

    async def lobby(self, limit: int = 200) -> list[dict[str, Any]]:
        """Public tables waiting or in play, newest first."""
        async with self.sessionmaker() as s:
            taken = (
                select(PlayerRow.table_id, func.count().label("n"))
                .group_by(PlayerRow.table_id)
                .subquery()
            )
            rows = (await s.execute(
                select(TableRow, func.coalesce(taken.c.n, 0))
                .outerjoin(taken, taken.c.table_id == TableRow.id)
                .where(TableRow.public.is_(True),
                       TableRow.status.in_([TableStatus.WAITING, TableStatus.PLAYING]))
                .order_by(TableRow.created_at.desc(), TableRow.id.desc())
                .limit(limit)
            )).all()
        return [
            lobby_entry(t, int(n), Match.from_dict(t.state) if t.state else None) for t, n in rows
        ]

    async def history(self, code: str, token: str | None) -> dict[str, Any]:
        """The current match's rounds, projected for the token's seat (or a spectator)."""
        ident = await self.identify(code, token)
        async with self.sessionmaker() as s:
            table = await s.get(TableRow, ident.table_id)
        assert table is not None
        match = Match.from_dict(table.state) if table.state else None
        return {
            "code": table.code,
            "seq": table.seq,
            "match": table.match_number,
            "you": ident.seat,
            "rounds": history_for(match, ident.seat) if match else [],
        }


#: the seat token's hash, remembered for the tokens of open sockets (one SHA-256 per
#: move saved; tokens are in memory anyway, in the connections)
_hash_token = functools.lru_cache(maxsize=16384)(hash_token)


def _conflict() -> TableError:
    return TableError("conflict", "another change was committed first; resync", 409)


def _unavailable() -> TableError:
    return TableError("unavailable", "the database is unavailable; retry", 503)


async def _table_by_code(session: AsyncSession, code: str) -> TableRow:
    """The table with this code; ``not_found`` for a malformed or unknown code."""
    norm = normalise_code(code)
    if norm is None:
        raise not_found()
    table = await session.scalar(select(TableRow).where(TableRow.code == norm))
    if table is None:
        raise not_found()
    return table


def _event_state(match: Match | None) -> dict[str, Any] | None:
    """The state stored with an event: enough for ``view_for`` (the current round,
    scores, settlement). Finished rounds' logs stay in the table snapshot only, so event
    rows stay small however long the match."""
    if match is None:
        return None
    state = match.to_dict()
    state["history"] = []
    return state


def _name(raw: Any, max_len: int) -> str:
    try:
        return clean_name(raw, max_len)
    except ValueError as exc:
        raise TableError("invalid_name", str(exc), 422) from None


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo else at.replace(tzinfo=UTC)

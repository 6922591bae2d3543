"""Recording the server's Prometheus metrics (:mod:`app.core.metric_families`): the
one-line calls the rest of the server makes (docs/monitoring.md lists each metric).

Recording is off until :func:`enable` is called (by ``app.api.metrics_route.install``
when ``FIVEUP_METRICS_PORT`` or ``FIVEUP_METRICS_TOKEN`` is set): every helper here
returns at once while it is off, so a server without metrics pays one flag test per
call. Serving the numbers is :mod:`app.core.metrics_export`.

Label values are bounded by construction, never a table code, a token, a name or a raw
path: roles, sources, levels and reasons are fixed sets; error codes, quota names and
close codes are the server's own constants, and :class:`_Bounded` folds anything beyond
:data:`MAX_VALUES` distinct values (or not shaped like a code) into ``other``.

Several processes (``fiveup serve --workers N``) record into files of their own under
``PROMETHEUS_MULTIPROC_DIR`` (prometheus-client's multiprocess mode).

>>> _Bounded(3).label("not_your_turn"), _Bounded(3).label("Table ABC123"), _method("BREW")
('not_your_turn', 'other', 'other')
>>> b = _Bounded(2); [b.label(c) for c in ("a", "b", "c", "a")]
['a', 'b', 'other', 'a']
"""

from __future__ import annotations

import asyncio
import functools
import gc
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, ParamSpec, Protocol, TypeVar

from app.core.metric_families import (
    BOT_DECISION,
    CONNECTION_REFUSALS,
    DB_ERRORS,
    DB_FAILURES,
    DB_IN_USE,
    DB_MAX,
    DB_UNREACHABLE,
    DB_WAITING,
    GC_PAUSE,
    GROUP_COMMIT_CHANGES,
    GROUP_COMMIT_SECONDS,
    HTTP_DURATION,
    HTTP_REQUESTS,
    MOVE_COMMIT,
    MOVES,
    NOTIFY_LAG,
    QUOTA_REFUSALS,
    RESYNCS,
    WS_CLOSES,
    WS_CUT_OFF,
    WS_FRAMES_RECEIVED,
    WS_FRAMES_SENT,
    WS_OPEN,
    WS_OPENED,
    WS_QUEUE_MAX_BYTES,
    WS_QUEUED_BYTES,
    WS_SENT_BYTES,
)

P = ParamSpec("P")
R = TypeVar("R")
S = TypeVar("S")
L = TypeVar("L", bound=str)
V = TypeVar("V")

#: distinct values one open-ended label (an error code, a quota) may take; more: "other"
#: (``FIVEUP_METRICS_LABEL_VALUES`` sets it: :func:`enable`)
MAX_VALUES = 64
#: seconds between two samples of the sockets' queues (and flushes of the GC pauses)
SAMPLE_SECONDS = 5.0

ROLES = ("seat", "spectator")
SOURCES = ("person", "bot", "autopilot")
LEVELS = ("easy", "medium", "hard")
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_CODE = re.compile(r"[a-z][a-z0-9_]{0,47}")


class _Bounded:
    """Label values of one open-ended label: the first ``limit`` code-shaped values
    as they are, anything else ``other``."""

    def __init__(self, limit: int = MAX_VALUES, shape: re.Pattern[str] = _CODE) -> None:
        self.limit = limit
        self.shape = shape
        self.seen: set[str] = set()

    def label(self, value: str) -> str:
        if value in self.seen:
            return value
        if len(self.seen) >= self.limit or not self.shape.fullmatch(value):
            return "other"
        self.seen.add(value)
        return value


_results = _Bounded()
_quotas = _Bounded()
_caps = _Bounded()
_close_codes = _Bounded(shape=re.compile(r"[1-4][0-9]{3}"))
#: route templates (the application's own, or ``unmatched``)
_routes = _Bounded(shape=re.compile(r"[A-Za-z0-9_/{}.:-]{1,200}"))
_BOUNDED = (_results, _quotas, _caps, _close_codes, _routes)

_on = False
_ws_open = {role: WS_OPEN.labels(role) for role in ROLES}
_ws_opened = {role: WS_OPENED.labels(role) for role in ROLES}
_gc_pause = {str(g): GC_PAUSE.labels(str(g)) for g in range(3)}
_gc_pauses: deque[tuple[int, float]] = deque(maxlen=4096)
_gc_began = 0.0
_db_up = True


def enable(label_values: int = MAX_VALUES) -> None:
    """Record from now on (once per process; later calls do nothing), each open-ended
    label taking at most ``label_values`` distinct values (then ``other``)."""
    global _on
    if _on:
        return
    _on = True
    for bounded in _BOUNDED:
        bounded.limit = label_values
    gc.callbacks.append(_gc_phase)


def enabled() -> bool:
    return _on


def _method(method: str) -> str:
    return method if method in METHODS else "other"


# -- HTTP ------------------------------------------------------------------------------
def http_answered(method: str, route: str, status: int, seconds: float) -> None:
    """One HTTP request answered (``route``: its template, ``unmatched`` for none)."""
    if not _on:
        return
    m, r = _method(method), _routes.label(route)
    HTTP_REQUESTS.labels(m, r, str(status)).inc()
    HTTP_DURATION.labels(m, r).observe(seconds)
    _tick()


def refused(cap: str) -> None:
    """A connection or request refused by a cap (``connections_per_address``,
    ``sockets_per_address``, ``sockets_per_token``, ``http_budget``)."""
    if _on:
        CONNECTION_REFUSALS.labels(_caps.label(cap)).inc()


def quota_refused(quota: str) -> None:
    """A use refused by the quota named ``quota`` (app/core/quotas.py's names)."""
    if _on:
        QUOTA_REFUSALS.labels(_quotas.label(quota)).inc()


# -- WebSockets ------------------------------------------------------------------------
class _Queued(Protocol):
    @property
    def queued_bytes(self) -> int: ...


_sockets: set[Any] = set()
_sampler: asyncio.TimerHandle | None = None
_sampler_loop: asyncio.AbstractEventLoop | None = None


def socket_opened(conn: _Queued, spectator: bool) -> None:
    """A socket attached to its table (its queue is sampled until :func:`socket_closed`)."""
    if not _on:
        return
    role = ROLES[spectator]
    _ws_open[role].inc()
    _ws_opened[role].inc()
    _sockets.add(conn)
    _tick()


def socket_closed(conn: _Queued, spectator: bool) -> None:
    """The socket of :func:`socket_opened` ended."""
    if not _on or conn not in _sockets:
        return
    _sockets.discard(conn)
    _ws_open[ROLES[spectator]].dec()


def payloads_sent(payloads: Iterable[bytes]) -> None:
    """Frames of these (UTF-8) payloads written to a socket."""
    if _on:
        sizes = [len(p) for p in payloads]
        WS_FRAMES_SENT.inc(len(sizes))
        WS_SENT_BYTES.inc(sum(sizes))


def frame_received() -> None:
    if _on:
        WS_FRAMES_RECEIVED.inc()


def cut_off(reason: str) -> None:
    """A socket cut off as too slow: ``queue_full`` or ``send_timeout``."""
    if _on:
        WS_CUT_OFF.labels(reason).inc()


def socket_closed_with(code: int) -> None:
    """The server closed a socket with ``code``."""
    if _on:
        WS_CLOSES.labels(_close_codes.label(str(code))).inc()


def resync(reason: str) -> None:
    """A snapshot sent to resynchronise a socket: ``client`` (it asked), ``stale`` or
    ``conflict`` (its move was refused so)."""
    if _on:
        RESYNCS.labels(reason).inc()


# -- moves -----------------------------------------------------------------------------
def counts_move(source: str) -> Callable[[Callable[P, Awaitable[R]]], Callable[P, Awaitable[R]]]:
    """Decorator of a move's entry point (``person``, ``bot``, ``autopilot``): counts
    each call by its answer (``accepted``, ``duplicate`` — a result whose ``duplicate``
    is true —, or the ``code`` of what it raised) and times the accepted ones."""
    timer = MOVE_COMMIT.labels(source)

    def wrap(entry: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
        @functools.wraps(entry)
        async def counted(*args: P.args, **kwargs: P.kwargs) -> R:
            if not _on:
                return await entry(*args, **kwargs)
            began = time.perf_counter()
            try:
                result = await entry(*args, **kwargs)
            except Exception as exc:
                code = getattr(exc, "code", None)
                label = code if isinstance(code, str) else "unavailable"
                MOVES.labels(source, _results.label(label)).inc()
                raise
            if getattr(result, "duplicate", False):
                MOVES.labels(source, "duplicate").inc()
            else:
                timer.observe(time.perf_counter() - began)
                MOVES.labels(source, "accepted").inc()
            return result

        return counted

    return wrap


def times_decision(
    choose: Callable[[S, L, V], Awaitable[str]],
) -> Callable[[S, L, V], Awaitable[str]]:
    """Decorator of a bot's ``choose(self, level, view)``: its thinking time by level."""

    @functools.wraps(choose)
    async def timed(owner: S, level: L, view: V) -> str:
        if not _on:
            return await choose(owner, level, view)
        began = time.perf_counter()
        try:
            return await choose(owner, level, view)
        finally:
            BOT_DECISION.labels(level if level in LEVELS else "other").observe(
                time.perf_counter() - began
            )

    return timed


# -- the database ----------------------------------------------------------------------
def group_committed(changes: int, seconds: float) -> None:
    if _on:
        GROUP_COMMIT_CHANGES.observe(changes)
        GROUP_COMMIT_SECONDS.observe(seconds)


def db_pool(size: int) -> None:
    """A store with ``size`` connections was made (closed: ``-size``)."""
    if _on:
        DB_MAX.inc(size)


def db_checkout(delta: int) -> None:
    """A connection handed out (+1) or given back (-1)."""
    if _on:
        DB_IN_USE.inc(delta)


def db_wait(delta: int) -> None:
    """An operation starts (+1) or stops (-1) waiting for a connection."""
    if _on:
        DB_WAITING.inc(delta)


def db_reached() -> None:
    """A store operation (or the LISTEN connection) reached the database."""
    global _db_up
    if _on and not _db_up:
        _db_up = True
        DB_UNREACHABLE.set(0)


def db_lost() -> None:
    """The database could not be reached (a connection broke or could not be made):
    ``fiveup_db_unreachable`` is 1 until :func:`db_reached`. An outage is a 1, never a
    0 that a process which never recorded would show too: the processes' values combine
    by their maximum."""
    global _db_up
    if _on and _db_up:
        _db_up = False
        DB_UNREACHABLE.set(1)


def db_failed(link_lost: bool) -> None:
    """A store operation failed with a database error; ``link_lost``: the connection
    broke or could not be made (:func:`db_lost`)."""
    if not _on:
        return
    DB_ERRORS.inc()
    if link_lost:
        db_lost()


def db_connection_failed() -> None:
    if _on:
        DB_FAILURES.inc()


def notify_heard(sent_at: float) -> None:
    """Another process's commit announcement heard, sent at ``sent_at`` (its wall clock,
    seconds since the epoch): the lag until now."""
    if _on:
        NOTIFY_LAG.observe(max(0.0, time.time() - sent_at))


# -- the collector and the samples -----------------------------------------------------
def _gc_phase(phase: str, info: dict[str, int]) -> None:
    """``gc.callbacks``: note the pause. Nothing is recorded here — the collector may
    run inside a metric's lock — but by :func:`flush` soon after."""
    global _gc_began
    if phase == "start":
        _gc_began = time.perf_counter()
    elif _gc_began:
        _gc_pauses.append((info.get("generation", -1), time.perf_counter() - _gc_began))
        _gc_began = 0.0


def flush() -> None:
    """Record what was noted meanwhile: the collector's pauses and the sockets' queues.
    Safe from another thread (the metrics port's): the set of sockets is copied in one
    step, and each pause is taken once, whichever thread takes it."""
    while True:
        try:
            generation, seconds = _gc_pauses.popleft()
        except IndexError:
            break
        timer = _gc_pause.get(str(generation))
        if timer is not None:
            timer.observe(seconds)
    sizes = [conn.queued_bytes for conn in _sockets.copy()]
    WS_QUEUED_BYTES.set(sum(sizes))
    WS_QUEUE_MAX_BYTES.set(max(sizes, default=0))


def _tick() -> None:
    """Keep the sampler running on this event loop (every :data:`SAMPLE_SECONDS`)."""
    global _sampler, _sampler_loop
    if _sampler is not None and _sampler_loop is not None and not _sampler_loop.is_closed():
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    _sampler_loop = loop
    _sampler = loop.call_later(SAMPLE_SECONDS, _sample, loop)


def _sample(loop: asyncio.AbstractEventLoop) -> None:
    global _sampler
    _sampler = None
    flush()
    if not loop.is_closed():
        _sampler = loop.call_later(SAMPLE_SECONDS, _sample, loop)

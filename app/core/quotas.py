"""Quotas: how often one client address or one socket may do a thing.

Built on the ``limits`` library (moving windows), in this process's memory by default
(``FIVEUP_RATE_LIMIT_STORAGE=memory://``) or in Redis when several server processes
must share the counts (``FIVEUP_RATE_LIMIT_STORAGE=redis://127.0.0.1:6379``). Every
limit is a setting (``app/core/settings.py``, ``docs/configuration.md``):

========================  ==========================  ==================================
name                      identifier                  setting
========================  ==========================  ==================================
``create``                client address              ``FIVEUP_RATE_LIMIT_CREATE``
``public_tables``         client address              ``FIVEUP_RATE_LIMIT_PUBLIC_TABLES``
``join``                  client address              ``FIVEUP_RATE_LIMIT_JOIN``
``lookup_miss``           client address              ``FIVEUP_RATE_LIMIT_LOOKUP_MISS``
``http``                  client address              ``FIVEUP_RATE_LIMIT_HTTP``
``record_check``          client address              ``FIVEUP_RATE_LIMIT_RECORD_CHECK``
``bot_changes``           client address              ``FIVEUP_RATE_LIMIT_BOT_CHANGES``
``reports``               client address              ``FIVEUP_RATE_LIMIT_REPORTS``
``admin``                 client address              ``FIVEUP_RATE_LIMIT_ADMIN``
``profile_signups``       client address              ``FIVEUP_RATE_LIMIT_PROFILE_SIGNUPS``
``sign_in_links``         client address              ``FIVEUP_RATE_LIMIT_SIGN_IN_LINKS``
``passkey_sign_ins``      client address              ``FIVEUP_RATE_LIMIT_PASSKEY_SIGN_INS``
``friend_requests``       client address              ``FIVEUP_RATE_LIMIT_FRIEND_REQUESTS``
``club_joins``            client address              ``FIVEUP_RATE_LIMIT_CLUB_JOINS``
``player_pages``          client address              ``FIVEUP_RATE_LIMIT_PLAYER_PAGES``
``invitations``           client address              ``FIVEUP_RATE_LIMIT_INVITATIONS``
``socket_moves``          socket id                   ``FIVEUP_RATE_LIMIT_SOCKET_MOVES``
``socket_messages``       socket id                   ``FIVEUP_RATE_LIMIT_SOCKET_MESSAGES``
``socket_resync``         socket id                   ``FIVEUP_RATE_LIMIT_SOCKET_RESYNC``
``socket_chat``           socket id                   ``FIVEUP_RATE_LIMIT_SOCKET_CHAT``
========================  ==========================  ==================================

Plus counts of things open at once: spectators per table
(``FIVEUP_MAX_SPECTATORS_PER_TABLE``; ``enter_spectator`` / ``leave_spectator``), and
live practice tables per client address (``FIVEUP_MAX_LIVE_PRACTICE_TABLES``,
``max_live_practice``: counted in the database, :mod:`app.tables.practice_cap`).

A socket to a table code that does not exist counts as a ``lookup_miss`` of its client
address too, and a socket from an address over that quota is refused (``app/api/ws.py``).

The HTTP side is ``app/api/quota_deps.py``. The WebSocket side calls, per inbound frame::

    counter = quotas.socket_counter()            # once per socket
    verdict = counter.hit("messages")            # per frame; or "moves", "resync", "chat"
    if not verdict.allowed: ...  # answer error "rate_limited" (retry_after seconds)

(The socket quotas are counted on the socket itself, :mod:`app.core.socket_windows`, not
in ``limits``' storage: they need no sharing, and that storage's expiry pass cost most of
the server's CPU under load.)

``quotas_for(app)`` gives the application's one ``Quotas`` (made on first use).
A storage failure (Redis down) lets the request through and logs a warning: quotas
protect the service, they must not take it down.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from limits import RateLimitItem, parse_many
from limits.aio.storage import Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string

from app.core import metrics
from app.core.settings import Settings
from app.core.socket_windows import MovingWindows

log = logging.getLogger(__name__)

#: the limiter's ``hit`` (count one use) or ``test`` (would one more pass): item, name, who
_Probe = Callable[[RateLimitItem, str, str], Awaitable[bool]]

QuotaName = Literal[
    "create",
    "public_tables",
    "join",
    "lookup_miss",
    "http",
    "record_check",
    "bot_changes",
    "reports",
    "admin",
    "profile_signups",
    "sign_in_links",
    "passkey_sign_ins",
    "friend_requests",
    "club_joins",
    "player_pages",
    "invitations",
    "socket_moves",
    "socket_messages",
    "socket_resync",
    "socket_chat",
]
SocketQuota = Literal["moves", "messages", "resync", "chat"]

_SOCKET_QUOTAS: dict[SocketQuota, QuotaName] = {
    "moves": "socket_moves",
    "messages": "socket_messages",
    "resync": "socket_resync",
    "chat": "socket_chat",
}

#: how long a spectator count lives without being touched (heals counts of a process that
#: died without calling ``leave_spectator``)
SPECTATOR_COUNT_TTL = 6 * 3600


@dataclass(frozen=True)
class Verdict:
    """The answer to one hit: allowed, or refused with seconds to wait."""

    allowed: bool
    retry_after: int = 0
    limit: str = ""


ALLOWED = Verdict(True)


def storage_uri(setting: str) -> str:
    """The ``limits`` async storage URI for a ``FIVEUP_RATE_LIMIT_STORAGE`` value.

    >>> storage_uri("memory://"), storage_uri("redis://127.0.0.1:6379/2")
    ('async+memory://', 'async+redis://127.0.0.1:6379/2')
    >>> storage_uri("async+redis://h:1")
    'async+redis://h:1'
    """
    return setting if setting.startswith("async+") else f"async+{setting}"


class SocketCounter:
    """One socket's frames, counted on the socket (app/core/socket_windows.py): a
    socket lives on one process, so its counts need no storage shared with anything."""

    __slots__ = ("_enabled", "_windows")

    def __init__(self, windows: dict[SocketQuota, MovingWindows], enabled: bool) -> None:
        self._windows = windows
        self._enabled = enabled

    def hit(self, kind: SocketQuota) -> Verdict:
        """Count one inbound frame of ``kind``; refused (and not counted) once a window
        is full."""
        if not self._enabled:
            return ALLOWED
        windows = self._windows[kind]
        wait = windows.hit(now=time.monotonic())
        if wait <= 0.0:
            return ALLOWED
        metrics.quota_refused(_SOCKET_QUOTAS[kind])
        return Verdict(False, max(1, math.ceil(wait)), windows.refused_by)


class Quotas:
    """The named limits of one application, counted in one storage."""

    def __init__(self, settings: Settings, key_prefix: str = "fiveup") -> None:
        uri = storage_uri(settings.rate_limit_storage)
        options: dict[str, Any] = {}
        if "redis" in uri:
            options["key_prefix"] = key_prefix
        storage = storage_from_string(uri, **options)
        assert isinstance(storage, Storage)  # an "async+" URI gives an asyncio storage
        self.storage: Storage = storage
        self.limiter = MovingWindowRateLimiter(self.storage)
        self.limits: dict[QuotaName, list[RateLimitItem]] = {
            "create": parse_many(settings.rate_limit_create),
            "public_tables": parse_many(settings.rate_limit_public_tables),
            "join": parse_many(settings.rate_limit_join),
            "lookup_miss": parse_many(settings.rate_limit_lookup_miss),
            "http": parse_many(settings.rate_limit_http),
            "record_check": parse_many(settings.rate_limit_record_check),
            "bot_changes": parse_many(settings.rate_limit_bot_changes),
            "reports": parse_many(settings.rate_limit_reports),
            "admin": parse_many(settings.rate_limit_admin),
            "profile_signups": parse_many(settings.rate_limit_profile_signups),
            "sign_in_links": parse_many(settings.rate_limit_sign_in_links),
            "passkey_sign_ins": parse_many(settings.rate_limit_passkey_sign_ins),
            "friend_requests": parse_many(settings.rate_limit_friend_requests),
            "club_joins": parse_many(settings.rate_limit_club_joins),
            "player_pages": parse_many(settings.rate_limit_player_pages),
            "invitations": parse_many(settings.rate_limit_invitations),
            "socket_moves": parse_many(settings.rate_limit_socket_moves),
            "socket_messages": parse_many(settings.rate_limit_socket_messages),
            "socket_resync": parse_many(settings.rate_limit_socket_resync),
            "socket_chat": parse_many(settings.rate_limit_socket_chat),
        }
        self.max_spectators = settings.max_spectators_per_table
        #: practice tables waiting or in play at once per client address
        self.max_live_practice = settings.max_live_practice_tables
        self.enabled = settings.rate_limit_enabled

    async def hit(self, name: QuotaName, identifier: str) -> Verdict:
        """Count one use of ``name`` by ``identifier``; refused once any window is full."""
        return await self._ask(self.limiter.hit, name, identifier)

    async def check(self, name: QuotaName, identifier: str) -> Verdict:
        """Whether one more use would be allowed, without counting it."""
        return await self._ask(self.limiter.test, name, identifier)

    async def _ask(self, probe: _Probe, name: QuotaName, identifier: str) -> Verdict:
        """``probe`` (count or test) each window of ``name``; the first full one refuses.
        A storage that fails allows (fail open), with a warning."""
        if not self.enabled:
            return ALLOWED
        try:
            for item in self.limits[name]:
                if not await probe(item, name, identifier):
                    return await self._refusal(item, name, identifier)
        except Exception as exc:  # storage unavailable: fail open
            log.warning("quota storage failed (%s); allowing %s", type(exc).__name__, name)
        return ALLOWED

    def socket_counter(self) -> SocketCounter:
        """The frame counts of one new socket (:meth:`SocketCounter.hit`)."""
        return SocketCounter(
            {kind: MovingWindows(self.limits[name]) for kind, name in _SOCKET_QUOTAS.items()},
            self.enabled,
        )

    async def enter_spectator(self, table: str) -> bool:
        """Take a spectator place at ``table``; False (nothing taken) when it is full."""
        if not self.enabled:
            return True
        key = f"spectators/{table}"
        try:
            count = await self.storage.incr(key, SPECTATOR_COUNT_TTL)
            if count > self.max_spectators:
                await self.storage.incr(key, SPECTATOR_COUNT_TTL, amount=-1)
                metrics.quota_refused("spectators")
                return False
        except Exception as exc:
            log.warning("quota storage failed (%s); allowing a spectator", type(exc).__name__)
        return True

    async def leave_spectator(self, table: str) -> None:
        """Give back a place taken by ``enter_spectator``."""
        key = f"spectators/{table}"
        try:
            if await self.storage.get(key) > 0:
                await self.storage.incr(key, SPECTATOR_COUNT_TTL, amount=-1)
        except Exception as exc:
            log.warning("quota storage failed (%s)", type(exc).__name__)

    async def _refusal(self, item: RateLimitItem, name: str, identifier: str) -> Verdict:
        metrics.quota_refused(name)
        stats = await self.limiter.get_window_stats(item, name, identifier)
        wait = max(1, math.ceil(stats.reset_time - time.time()))
        return Verdict(False, wait, str(item))


def quotas_for(app: Any) -> Quotas:
    """The application's ``Quotas`` (``app.state.quotas``), made from its settings."""
    quotas: Quotas | None = getattr(app.state, "quotas", None)
    if quotas is None:
        quotas = Quotas(app.state.settings)
        app.state.quotas = quotas
    return quotas

"""The FastAPI application: ``create_app()`` wires settings, store, service, hub,
listener and routes. ``uvicorn --factory app.main:create_app`` or ``fiveup serve``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from app.api import (
    client,
    docs,
    health,
    metrics_route,
    routes_admin,
    routes_bots,
    routes_clubs,
    routes_friends,
    routes_games,
    routes_invitations,
    routes_moderation,
    routes_profiles,
    routes_ratings,
    routes_records,
    routes_seats,
    routes_tables,
    ws,
    ws_profile,
)
from app.api.body_timeout import BodyReadTimeout
from app.api.draining import Drain, DrainGate
from app.api.errors import install_error_handlers
from app.api.headers import SecurityHeaders
from app.api.limits import BodySizeLimit
from app.api.request_id import RequestIds
from app.core.clock_presets import Presets
from app.core.connection_caps import SocketCaps
from app.core.gc_tuning import tune_gc
from app.core.logging import setup_logging
from app.core.native import describe_build
from app.core.settings import Settings, get_settings
from app.core.urls import is_postgres, libpq_dsn
from app.db.channel import PROFILES_CHANNEL
from app.db.club_store import make_club_store
from app.db.friends_store import make_friends_store
from app.db.games_store import make_games_store
from app.db.invitations_store import make_invitations_store
from app.db.moderation_store import make_moderation_store
from app.db.pg_listener import PgListener
from app.db.pg_notifier import PgNotifier
from app.db.pg_store import PgStore
from app.db.profile_store import make_profile_store
from app.db.rating_store import make_rating_store
from app.db.session import make_engine
from app.db.sqlite_store import SqliteStore
from app.db.store import Store
from app.realtime import presence
from app.realtime.hub import Hub
from app.realtime.profile_hub import ProfileHub
from app.realtime.socket_book import SocketBook
from app.tables.autopilot import AutopilotRules
from app.tables.bot_turns import BotSettings, delay_range
from app.tables.clubs import ClubLimits, Clubs
from app.tables.friends import FriendLimits, Friends
from app.tables.games import Games, GamesLimits
from app.tables.invitations import InvitationLimits, Invitations
from app.tables.leaderboards import Leaderboards
from app.tables.moderation import Moderation
from app.tables.operator import Operator
from app.tables.profiles import Limits, Profiles
from app.tables.service import TableService
from app.tables.sweep import Sweep

log = logging.getLogger(__name__)

RECONCILE_SECONDS = 2.0


async def _reconcile_every(hub: Hub, seconds: float) -> None:
    """With NOTIFY after commit, a notification can be lost if the committing process
    dies in between: check the local tables against the database now and then."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await hub.reconcile()
        except Exception as exc:  # the next round tries again
            log.warning("reconcile failed (%s)", type(exc).__name__)


async def _every(seconds: float, action: Callable[[], None]) -> None:
    """Run ``action`` every ``seconds`` (presence heartbeats)."""
    while True:
        await asyncio.sleep(seconds)
        try:
            action()
        except Exception as exc:  # the next beat tries again
            log.warning("periodic task failed (%s)", type(exc).__name__)


def make_store(settings: Settings, notifier: PgNotifier | None = None) -> Store:
    """The store for ``DATABASE_URL``: PostgreSQL (psycopg) or SQLite (SQLAlchemy Core)."""
    if is_postgres(settings.database_url):
        return PgStore(
            libpq_dsn(settings.database_url),
            size=settings.db_writers,
            notify_in_transaction=notifier is None,
            on_commit=notifier.send if notifier is not None else None,
        )
    return SqliteStore(make_engine(settings.database_url))


def profile_limits(settings: Settings) -> Limits:
    """The bounds of profiles' inputs and lifetimes, from the settings."""
    return Limits(
        handle_min=settings.profile_handle_min,
        handle_max=settings.profile_handle_max,
        display_name_max=settings.profile_display_name_max,
        session_seconds=settings.profile_session_days * 86400,
        sessions_max=settings.profile_sessions_max,
        link_seconds=settings.sign_in_link_seconds,
        ceremony_seconds=settings.passkey_ceremony_seconds,
    )


def games_limits(settings: Settings) -> GamesLimits:
    """The bounds of my games and the player page, from the settings."""
    return GamesLimits(
        page_max=settings.my_games_page_max,
        page_default=min(settings.my_games_page_default, settings.my_games_page_max),
        provisional_sigma=settings.rating_provisional_sigma,
        people_max=settings.player_page_people_max,
    )


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the application (the database is connected in the lifespan)."""
    settings = settings or get_settings()
    setup_logging(settings.log_level, settings.log_format)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        postgres = is_postgres(settings.database_url)
        after_commit = postgres and settings.notify == "after_commit"
        dsn = libpq_dsn(settings.database_url)
        notifier = PgNotifier(dsn) if after_commit else None
        store = make_store(settings, notifier)
        reporter = PgNotifier(dsn, presence.CHANNEL) if postgres else None
        clocks = Presets(
            relaxed_move=settings.clock_relaxed_move_seconds,
            fast_move=settings.clock_fast_move_seconds,
            fast_bank=settings.clock_fast_bank_seconds,
            grace=settings.disconnect_grace_seconds,
        )
        hub = Hub(
            store,
            next_round_seconds=settings.next_round_seconds,
            remote=(
                presence.RemotePresence(presence.new_process_id(), settings.presence_ttl_seconds)
                if postgres
                else None
            ),
            publish=reporter.send if reporter is not None else None,
            clocks=clocks,
        )

        service = TableService(
            store,
            next_round_seconds=settings.next_round_seconds,
            delivery=hub,
            bot_settings=BotSettings(
                delay_ms=delay_range(settings.bot_delay_ms),
                hard_budget_ms=settings.bot_hard_budget_ms,
                pool=settings.bot_pool,
            ),
            clocks=clocks,
            autopilot_rules=AutopilotRules(
                level=settings.autopilot_level,
                handover_moves=settings.autopilot_handover_moves,
                grace_seconds=settings.disconnect_grace_seconds,
            ),
            autopilot_level=settings.autopilot_level,
        )
        moderation_store = make_moderation_store(settings.database_url)
        moderation = Moderation(
            moderation_store,
            service,
            SocketBook(),
            reports_keep=settings.reports_max_rows,
            refresh_seconds=settings.moderation_refresh_seconds,
        )
        app.state.moderation = moderation
        app.state.operator = Operator(
            moderation_store, moderation, service, hub, audit_keep=settings.audit_log_max_rows
        )
        profile_store = make_profile_store(settings.database_url)
        app.state.profiles = Profiles(profile_store, profile_limits(settings))
        rating_store = make_rating_store(settings.database_url)
        app.state.leaderboards = Leaderboards(
            rating_store, settings.rating_provisional_sigma, settings.leaderboard_max
        )
        friends_store = make_friends_store(settings.database_url)
        app.state.friends = Friends(
            friends_store,
            FriendLimits(
                friends_max=settings.friends_max,
                pending_max=settings.friends_pending_max,
                blocks_max=settings.friends_blocks_max,
            ),
        )
        invitations_store = make_invitations_store(settings.database_url)
        profiles_notifier = PgNotifier(dsn, PROFILES_CHANNEL) if postgres else None
        profile_hub = app.state.profile_hub = ProfileHub(
            invitations_store,
            presence.new_process_id(),
            ttl=settings.presence_ttl_seconds,
            friends_max=settings.friends_max,
            publish=profiles_notifier.send if profiles_notifier is not None else None,
        )
        app.state.invitations = Invitations(
            invitations_store,
            profile_hub,
            app.state.friends,
            InvitationLimits(
                per_request_max=settings.invitations_per_request_max,
                pending_max=settings.invitations_pending_max,
                list_max=settings.invitations_list_max,
            ),
        )
        games_store = make_games_store(settings.database_url)
        club_store = make_club_store(settings.database_url)
        app.state.clubs = Clubs(
            club_store,
            app.state.leaderboards,
            ClubLimits(
                clubs_per_profile=settings.clubs_per_profile_max,
                members_max=settings.club_members_max,
                name_max=settings.club_name_max,
            ),
        )
        app.state.clubs.table_hooks.append(app.state.invitations.club_table_made)
        app.state.games = Games(games_store, games_limits(settings))
        listener = PgListener(dsn) if postgres else None
        app.state.store = store
        app.state.hub = hub
        app.state.service = service
        app.state.listener = listener
        tasks: list[asyncio.Task[None]] = [asyncio.get_running_loop().create_task(moderation.run())]
        if listener is not None:

            async def forget(table_id: int | None, seq: int | None) -> None:
                service.writer.forget(table_id, seq)

            async def catch_up(table_id: int | None, seq: int | None) -> None:
                if table_id is None:
                    await hub.poke_all()
                else:
                    service.seen_commit(table_id, seq)  # its clock runs here too
                    if seq is None:
                        await hub.poke(table_id)
                    else:
                        hub.notice(table_id, seq)  # read in the background, table by table

            listener.subscribers += [forget, catch_up]
            listener.presence_subscribers.append(hub.heard)
            listener.channels.setdefault(PROFILES_CHANNEL, []).append(profile_hub.heard)
            listener.start()
            tasks.append(
                asyncio.get_running_loop().create_task(
                    _every(settings.presence_ttl_seconds / 3, hub.presence_heartbeat)
                )
            )
            tasks.append(
                asyncio.get_running_loop().create_task(
                    _every(settings.presence_ttl_seconds / 3, profile_hub.heartbeat)
                )
            )
        if after_commit:
            tasks.append(
                asyncio.get_running_loop().create_task(_reconcile_every(hub, RECONCILE_SECONDS))
            )
        if settings.abandoned_table_seconds > 0:
            sweep = Sweep(
                store,
                service.close_abandoned,
                hub.connected_seats,
                timeout=settings.abandoned_table_seconds,
                interval=settings.sweep_interval_seconds,
            )
            tasks.append(asyncio.get_running_loop().create_task(sweep.run()))
        await service.resume_timers()
        drain.install(hub, service, listener)  # SIGTERM drains first (app/api/draining.py)
        log.info("serving: %s", describe_build())
        tune_gc()  # after startup: what it built is frozen out of the collector's sight
        try:
            yield
        finally:
            drain.uninstall()
            for task in tasks:
                task.cancel()
            hub.goodbye()
            if reporter is not None:
                await reporter.close()
            await service.close()
            await moderation_store.close()
            await profile_store.close()
            await rating_store.close()
            await friends_store.close()
            await games_store.close()
            await club_store.close()
            await profile_hub.close()
            if profiles_notifier is not None:
                await profiles_notifier.close()
            await invitations_store.close()
            if listener is not None:
                await listener.stop()
            if notifier is not None:
                await notifier.close()

    app = FastAPI(
        title="Five Up Online",
        version="0.2.0",
        description="Authoritative multiplayer server for the domino game Five Up. "
        "WebSocket protocol: docs/protocol.md.",
        lifespan=lifespan,
        docs_url=None,  # served from packaged files by app.api.docs
        redoc_url=None,
    )
    app.state.settings = settings
    app.add_middleware(
        BodySizeLimit,
        max_bytes=64 * 1024,
        per_path={routes_records.CHECK_PATH: routes_records.RECORD_MAX_BYTES},
    )
    app.add_middleware(BodyReadTimeout, seconds=settings.body_timeout)
    app.add_middleware(SecurityHeaders)  # every HTTP answer gets the headers
    metrics_route.install(app, settings)  # off unless configured (docs/monitoring.md)
    app.add_middleware(ws.DirectSockets)
    app.add_middleware(  # app/core/connection_caps.py
        SocketCaps,
        per_address=settings.max_sockets_per_address,
        per_token=settings.max_sockets_per_seat_token,
    )
    drain = app.state.drain = Drain(settings.drain_seconds)
    app.add_middleware(DrainGate, drain=drain)  # a draining process refuses (before caps)
    app.add_middleware(RequestIds)  # added last, the outermost: every line has the id
    install_error_handlers(app)
    app.include_router(health.router)
    if settings.docs:
        app.include_router(docs.router)
    app.include_router(routes_tables.router)
    app.include_router(routes_bots.router)
    app.include_router(routes_seats.router)
    app.include_router(routes_records.router)
    app.include_router(routes_moderation.router)
    app.include_router(routes_profiles.router)
    app.include_router(routes_ratings.router)
    app.include_router(routes_friends.router)
    app.include_router(routes_games.router)
    app.include_router(routes_clubs.router)
    app.include_router(routes_invitations.router)
    # draining this process from the operator's page: the SIGTERM sequence, started now
    app.include_router(routes_admin.admin_router(drain=drain.begin))
    app.include_router(ws.router)
    app.include_router(ws_profile.router)
    app.include_router(client.router)
    app.mount("/static", StaticFiles(directory=settings.static_dir, check_dir=False), name="static")
    return app

"""The FastAPI application: ``create_app()`` wires settings, database, service, hub,
broker and routes. ``uvicorn --factory app.main:create_app`` or ``fiveup serve``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError

from app.api import client, docs, health, routes_tables, ws
from app.api.body_timeout import BodyReadTimeout
from app.api.headers import SecurityHeaders
from app.api.limits import BodySizeLimit
from app.core.logging import setup_logging
from app.core.settings import Settings, get_settings
from app.core.urls import is_postgres, libpq_dsn
from app.db.session import make_engine, make_sessionmaker
from app.realtime.broker import PgBroker
from app.realtime.hub import Hub
from app.tables.errors import TableError
from app.tables.service import TableService

log = logging.getLogger(__name__)


async def _reconcile_every(hub: Hub, seconds: float) -> None:
    """With NOTIFY after commit, a notification can be lost if the committing process
    dies in between: check the local tables against the database now and then."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await hub.reconcile()
        except Exception as exc:  # the next round tries again
            log.warning("reconcile failed (%s)", type(exc).__name__)


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the application (the database is connected in the lifespan)."""
    settings = settings or get_settings()
    setup_logging(settings.log_level)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.database_url)
        sessionmaker = make_sessionmaker(engine)
        postgres = is_postgres(settings.database_url)
        hub = Hub(sessionmaker)
        service = TableService(
            sessionmaker,
            postgres=postgres,
            next_round_seconds=settings.next_round_seconds,
            db_writers=settings.db_writers,
            notify_after_commit=settings.notify == "after_commit",
        )
        service.listeners.append(hub.poke)
        broker = PgBroker(libpq_dsn(settings.database_url), hub) if postgres else None
        app.state.db_engine = engine
        app.state.hub = hub
        app.state.service = service
        app.state.broker = broker
        if broker is not None:
            broker.observers.append(service.observed)  # forget tables others changed
            broker.start()
        reconciler = None
        if postgres and settings.notify == "after_commit":
            reconciler = asyncio.get_running_loop().create_task(_reconcile_every(hub, 2.0))
        await service.resume_timers()
        try:
            yield
        finally:
            if reconciler is not None:
                reconciler.cancel()
            await service.close()
            if broker is not None:
                await broker.stop()
            await engine.dispose()

    app = FastAPI(
        title="Five Up Online",
        version="0.1.0",
        description="Authoritative multiplayer server for the domino game Five Up. "
        "WebSocket protocol: docs/protocol.md.",
        lifespan=lifespan,
        docs_url=None,  # served from packaged files by app.api.docs
        redoc_url=None,
    )
    app.state.settings = settings
    app.add_middleware(BodySizeLimit, max_bytes=64 * 1024)
    app.add_middleware(BodyReadTimeout, seconds=settings.body_timeout)
    app.add_middleware(SecurityHeaders)  # outermost: every answer gets the headers

    @app.exception_handler(TableError)
    async def table_error(_request: Request, err: TableError) -> JSONResponse:
        return JSONResponse({"detail": err.as_dict()}, status_code=err.status)

    @app.exception_handler(SQLAlchemyError)
    async def database_error(_request: Request, err: SQLAlchemyError) -> JSONResponse:
        log.warning("database error: %s", type(err).__name__)
        return JSONResponse(
            {"detail": {"code": "unavailable", "message": "the database is unavailable"}},
            status_code=503,
        )

    app.include_router(health.router)
    if settings.docs:
        app.include_router(docs.router)
    app.include_router(routes_tables.router)
    app.include_router(ws.router)
    app.include_router(client.router)
    app.mount("/static", StaticFiles(directory=settings.static_dir, check_dir=False), name="static")
    return app

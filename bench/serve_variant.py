"""Run the server with what-if knobs, for the load benchmark's experiments.

This changes nothing in ``app/``: it patches a few things from the outside when the
process starts, so a suggestion from docs/benchmarks.md can be measured before anyone
changes the server. Knobs (environment variables, so that uvicorn's worker processes
see them too):

* ``VARIANT_PRE_PING=0`` — create the PostgreSQL engine without ``pool_pre_ping``
  (saves one round trip per session checkout);
* ``VARIANT_POOL_SIZE=N`` — the pool size (default: the app's own);
* ``VARIANT_COUNT_SQL=1`` — count the SQL statements executed per process and print
  them (with the number of commits) to stderr at shutdown;
* ``VARIANT_NO_BROKER=1`` — do not start the LISTEN/NOTIFY listener. Only for ONE
  process: it measures what skipping the redundant re-read of a process's own commits
  (suggestion 3 in docs/benchmarks.md) would save; with several processes, events would
  not reach the other processes' sockets.

Usage (DATABASE_URL as for ``fiveup serve``; run ``fiveup migrate`` first)::

    VARIANT_PRE_PING=0 python bench/serve_variant.py --port 8000 [--workers 2]
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
import sys
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi import FastAPI

REPORTS: list[Callable[[], None]] = []


def _patch() -> None:
    import sqlalchemy.ext.asyncio as sa_async
    from sqlalchemy import event

    import app.db.session as session_mod

    original = sa_async.create_async_engine
    counts: collections.Counter[str] = collections.Counter()

    def create_async_engine(url: Any, **kw: Any) -> Any:
        if "pool_pre_ping" in kw and os.environ.get("VARIANT_PRE_PING") == "0":
            kw["pool_pre_ping"] = False
        if "pool_size" in kw and os.environ.get("VARIANT_POOL_SIZE"):
            kw["pool_size"] = int(os.environ["VARIANT_POOL_SIZE"])
        engine = original(url, **kw)
        if os.environ.get("VARIANT_COUNT_SQL") == "1":

            @event.listens_for(engine.sync_engine, "before_cursor_execute")
            def _count(_c: Any, _cur: Any, statement: str, *_a: Any) -> None:
                counts[statement.split(None, 1)[0].upper()] += 1
                counts["all"] += 1

            @event.listens_for(engine.sync_engine, "commit")
            def _commit(_c: Any) -> None:
                counts["COMMIT"] += 1

            REPORTS.append(
                lambda: print(
                    f"[pid {os.getpid()}] SQL statements: {dict(counts)}", file=sys.stderr
                )
            )
        return engine

    session_mod.create_async_engine = create_async_engine  # type: ignore[assignment]

    if os.environ.get("VARIANT_NO_BROKER") == "1":
        from app.realtime.broker import PgBroker

        PgBroker.start = lambda self: None  # type: ignore[method-assign]


def factory() -> FastAPI:
    """uvicorn factory: patch, then build the real app (reports printed at shutdown:
    uvicorn re-raises SIGTERM after its shutdown, so atexit hooks would not run)."""
    _patch()
    from app.main import create_app

    app = create_app()
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(a: FastAPI) -> AsyncIterator[Any]:
        async with inner(a) as state:
            yield state
        for report in REPORTS:
            report()

    app.router.lifespan_context = lifespan
    return app


def main() -> None:
    import uvicorn

    from app.core.settings import get_settings
    from app.db.migrate import migrate_to_head

    p = argparse.ArgumentParser(description="fiveup serve, with what-if knobs")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--workers", type=int, default=1)
    args = p.parse_args()
    settings = get_settings()
    migrate_to_head(settings.database_url)
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    uvicorn.run(
        "bench.serve_variant:factory",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        ws_max_size=settings.max_frame_bytes,
        log_level=settings.log_level.lower(),
    )


if __name__ == "__main__":
    main()

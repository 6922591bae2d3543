"""The ``fiveup`` console script: ``fiveup migrate``, ``fiveup serve``,
``fiveup record check|replay FILE`` (no database) and ``fiveup record import FILE``
(checks a record and inserts it as a finished table in ``DATABASE_URL``)."""

from __future__ import annotations

import argparse
import sys

from app.core.settings import get_settings
from app.core.urls import is_postgres


def main(argv: list[str] | None = None) -> int:
    """Entry point (declared in pyproject as ``fiveup = app.cli:main``)."""
    parser = argparse.ArgumentParser(prog="fiveup", description="Five Up Online server")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("migrate", help="migrate the database (DATABASE_URL) to the newest schema")
    serve = sub.add_parser("serve", help="migrate, then serve HTTP + WebSocket with uvicorn")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--workers",
        type=_positive_int,
        default=1,
        help="uvicorn worker processes on the one database (default 1)",
    )
    from app.records import cli as record_cli

    record_cli.add_parser(sub)
    args = parser.parse_args(argv)
    if args.command == "record" and args.action != "import":
        return record_cli.run(args.action, args.file)

    settings = get_settings()
    if args.command == "serve" and args.workers > 1 and not is_postgres(settings.database_url):
        # Processes learn of each other's moves through PostgreSQL's LISTEN/NOTIFY.
        parser.error("--workers above 1 needs PostgreSQL (DATABASE_URL=postgresql://...)")
    from app.db.migrate import migrate_to_head

    migrate_to_head(settings.database_url)
    if args.command == "migrate":
        print("database is at the newest schema")
        return 0
    if args.command == "record":
        return _import(args.file)

    return _serve(args.host, args.port, args.workers)


def _import(path: str) -> int:
    """``fiveup record import FILE``: check the record, then insert it as a finished
    table (through the store, like any table); prints the table's code."""
    import asyncio

    from app.main import make_store
    from app.records import RecordSyntaxError
    from app.records import cli as record_cli
    from app.tables.errors import TableError
    from app.tables.service import TableService

    try:
        record = record_cli.load(record_cli.read(path))
    except RecordSyntaxError as exc:
        print(exc)
        return 1
    except (OSError, ValueError) as exc:
        print(f"line 1: not a record: {exc}")
        return 1

    async def run() -> str:
        service = TableService(make_store(get_settings()), next_round_seconds=0)
        try:
            return await service.import_record(record)
        finally:
            await service.close()

    try:
        code = asyncio.run(run())
    except TableError as err:
        print(err.message)
        return 1
    print(f"imported as table {code}: replay at /t/{code}/replay")
    return 0


def _positive_int(text: str) -> int:
    """argparse type for ``--workers``: an integer >= 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _serve(host: str, port: int, workers: int) -> int:
    """uvicorn on the (already migrated) database. The app is given as an import string
    and a factory, so that each of the ``workers`` processes builds its own from the
    same environment (``app.main:create_app`` reads the settings from it). With metrics
    on, several workers get a fresh multiprocess directory for this run, and the metrics
    port, if any, is served by this process (docs/monitoring.md)."""
    import contextlib
    import os

    import uvicorn

    from app.core import metrics_export
    from app.core.serving import uvicorn_options

    settings = get_settings()
    with contextlib.ExitStack() as stack:
        if settings.metrics_port is not None or settings.metrics_token:
            if (
                workers > 1
            ):  # each worker records into files of its own (app/core/metrics_export.py)
                stack.enter_context(metrics_export.prepare_processes())
            if settings.metrics_port is not None and metrics_export.serve_port(
                settings.metrics_host, settings.metrics_port, settings.metrics_token
            ):
                os.environ[metrics_export.PORT_SERVED_ENV] = "1"  # not the workers: this process
        uvicorn.run(
            "app.main:create_app",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            **uvicorn_options(settings),  # limits, deadlines, pings, forwarded headers
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The ``fiveup`` console script: ``fiveup migrate``, ``fiveup serve`` and
``fiveup record check|replay FILE`` (records need no database)."""

from __future__ import annotations

import argparse
import sys

from app.core.settings import get_settings


def main(argv: list[str] | None = None) -> int:
    """Entry point (declared in pyproject as ``fiveup = app.cli:main``)."""
    parser = argparse.ArgumentParser(prog="fiveup", description="Five Up Online server")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("migrate", help="migrate the database (DATABASE_URL) to the newest schema")
    serve = sub.add_parser("serve", help="migrate, then serve HTTP + WebSocket with uvicorn")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    from app.records import cli as record_cli

    record_cli.add_parser(sub)
    args = parser.parse_args(argv)
    if args.command == "record":
        return record_cli.run(args.action, args.file)

    settings = get_settings()
    from app.db.migrate import migrate_to_head

    migrate_to_head(settings.database_url)
    if args.command == "migrate":
        print("database is at the newest schema")
        return 0

    import uvicorn

    from app.main import create_app

    uvicorn.run(
        create_app(settings),
        host=args.host,
        port=args.port,
        ws_max_size=settings.max_frame_bytes,
        log_level=settings.log_level.lower(),
        proxy_headers=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Logging setup: structured lines, and what never reaches them.

**Every line is structured** (structlog's ``ProcessorFormatter`` on the root logger):
the app's stdlib loggers (``logging.getLogger(__name__)``) and uvicorn's alike come out
as one JSON object per line, or as a readable line for a person at a terminal
(``FIVEUP_LOG_FORMAT``: ``auto`` is ``console`` when stderr is a terminal, else
``json``; :func:`resolve_format`). A line has ``timestamp`` (UTC, ISO 8601), ``level``,
``logger``, ``event`` (the message), and where they exist ``request_id`` (bound by
``app/api/request_id.py`` for a request's or a WebSocket's life), ``table`` (code) and
``seat`` (bound by the WebSocket handler), ``seq`` (a commit); a request line (uvicorn's
access line, a WebSocket's accept line) also has ``client``, ``method``, ``path`` and
``status``. Only those fields are taken from a record's ``extra`` (:data:`FIELDS`), so
nothing else a call passes can reach a line. uvicorn's own handlers are replaced (its
records propagate to the root's handler); :func:`logging_config` is the same set-up as
a ``dictConfig`` for ``uvicorn.run(log_config=...)``, so a ``--workers`` parent's lines
are structured too.

>>> import json
>>> record = logging.LogRecord("app.x", logging.INFO, "", 0, "table %s: ok", ("AB12",), None)
>>> record.seq, record.hand = 7, ["0|5"]
>>> line = json.loads(structured_formatter("json").format(record))
>>> sorted(line), line["event"], line["seq"], line["level"]
(['event', 'level', 'logger', 'seq', 'timestamp'], 'table AB12: ok', 7, 'info')

Never log hands, the stock, deal seeds or seat tokens: log table codes, seqs and event
kinds only — at every level, ``DEBUG`` included.

**Query strings are never logged.** Seat tokens travel in WebSocket URLs
(``?token=...``), which uvicorn's access log and its WebSocket lines print. ``DropQueries``
removes every query string (and fragment) from the records of uvicorn's loggers: an
argument that is a path (it starts with ``/``) is cut at its first ``?`` or ``#``, and in
any other text a ``?`` or ``#`` directly after a non-space character is cut up to the
next whitespace (a closing quote before it is kept). Nothing is parsed, so no spelling of
a parameter, no ``#``, ``'`` or ``;`` inside the query lets a value through.

>>> drop_query_strings('GET /ws/tables/ABC?tok%65n=s3cret&x=1 HTTP/1.1')
'GET /ws/tables/ABC HTTP/1.1'
>>> drop_query_strings('"GET /p?a=1#&token=T HTTP/1.1" 200, "WebSocket /q?a=\\'&token=T" ok?')
'"GET /p HTTP/1.1" 200, "WebSocket /q" ok'
>>> drop_path_query('/api/tables/ABC?a=1#&token=T'), drop_path_query('200 OK')
('/api/tables/ABC', '200 OK')

**Frames are never logged.** At ``DEBUG`` the ``websockets`` library logs every frame it
sends and receives (an excerpt of its text: a snapshot's hand, a move's tile) and the
handshake's headers; uvicorn hands its own ``uvicorn.error`` logger to that library, and
at ``TRACE`` logs ASGI messages on ``uvicorn.asgi``. :data:`FRAME_LOGGERS` are kept at
``INFO`` or above whatever ``FIVEUP_LOG_LEVEL`` is (the library then does not even build
the excerpts: it asks its logger once per connection).

**Nor is SQL.** ``aiosqlite`` logs every operation with its parameters at ``DEBUG`` (an
event's deal, a seat token's hash) and SQLAlchemy's engine every statement at ``INFO``:
:data:`SQL_LOGGERS` are kept at ``WARNING`` or above.
"""

from __future__ import annotations

import logging
import re
import sys
from typing import Any, Literal, TextIO

import structlog
from structlog.typing import EventDict, Processor, WrappedLogger

#: loggers that dump frames, handshakes or ASGI messages below INFO
FRAME_LOGGERS = ("websockets", "uvicorn.error", "uvicorn.protocols", "uvicorn.asgi")
#: the SQL loggers (SQLAlchemy's; aiosqlite's at DEBUG): their records carry the
#: statements' parameters (a table's state with its hands, chat, names), so they stay at
#: WARNING at any log level
SQL_LOGGERS = ("sqlalchemy.engine", "sqlalchemy.pool", "aiosqlite")
#: loggers whose records may carry a request's path and query
_PATH_LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn", "websockets")
#: uvicorn's loggers that get handlers of their own from uvicorn's default config
_UVICORN_HANDLED = ("uvicorn", "uvicorn.access")
#: the only ``extra=`` fields a record brings to its line
FIELDS = ("request_id", "table", "seat", "seq")
#: a query or fragment in free text: after a non-space, up to whitespace (a quote that
#: closes the quoted path just before the whitespace is kept)
_QUERY = re.compile(r"(?<=\S)[?#]\S*?(?=\"?(?:\s|$))")
#: uvicorn's WebSocket lines: ``'%s - "WebSocket %s" [accepted]'`` (or a status)
_WS_LINE = '%s - "WebSocket %s"'

Format = Literal["json", "console"]


def drop_path_query(text: str) -> str:
    """``text`` cut at its first ``?`` or ``#`` if it is a path (starts with ``/``)."""
    if text.startswith("/"):
        return re.split(r"[?#]", text, maxsplit=1)[0]
    return drop_query_strings(text)


def drop_query_strings(text: str) -> str:
    """``text`` with every query string and fragment of a URL in it removed."""
    if "?" not in text and "#" not in text:
        return text
    return _QUERY.sub("", text)


class DropQueries(logging.Filter):
    """Remove query strings from a record's message and string arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                drop_path_query(a) if isinstance(a, str) else a for a in record.args
            )
        if isinstance(record.msg, str):
            record.msg = drop_query_strings(record.msg)
        return True


def resolve_format(setting: str, stream: TextIO | None = None) -> Format:
    """``json`` or ``console`` for ``FIVEUP_LOG_FORMAT``: ``auto`` is ``console`` when
    ``stream`` (stderr) is a terminal, else ``json`` (a service manager, a container's
    log, a file, a pipe).

    >>> import io
    >>> resolve_format("auto", io.StringIO()), resolve_format("console", io.StringIO())
    ('json', 'console')
    """
    if setting in ("json", "console"):
        return "console" if setting == "console" else "json"
    stream = stream if stream is not None else sys.stderr
    isatty = getattr(stream, "isatty", None)
    return "console" if isatty is not None and isatty() else "json"


def request_line_fields(_logger: WrappedLogger, _name: str, event: EventDict) -> EventDict:
    """A processor: ``client``, ``method``, ``path``, ``status`` of uvicorn's request
    lines, from their arguments (the query already dropped by :class:`DropQueries`);
    no other record's arguments reach a line but through its message."""
    args = event.pop("positional_args", ())
    record = event.get("_record")
    if record is None or not isinstance(args, tuple):
        return event
    if record.name == "uvicorn.access" and len(args) == 5:
        event.update(client=args[0], method=args[1], path=args[2], status=args[4])
    elif isinstance(record.msg, str) and record.msg.startswith(_WS_LINE) and len(args) >= 2:
        event.update(client=args[0], method="WEBSOCKET", path=args[1])
        event["status"] = args[2] if len(args) > 2 else 101
    return event


def _shared_processors() -> list[Processor]:
    """What every line gets, whoever logged it (stdlib records and structlog's own)."""
    return [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.stdlib.ExtraAdder(allow=FIELDS),
        request_line_fields,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]


def structured_formatter(fmt: str = "json") -> structlog.stdlib.ProcessorFormatter:
    """The root handler's formatter: one JSON object per line (``json``) or a readable
    line (``console``, coloured on a terminal)."""
    renderer: Processor
    if fmt == "console":
        renderer = structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty())
        tail: list[Processor] = [renderer]
    else:
        tail = [
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ]
    return structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=_shared_processors(),
        pass_foreign_args=True,  # (for request_line_fields, which takes them off)
        processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, *tail],
    )


def logging_config(level: str = "INFO", fmt: str = "auto") -> dict[str, Any]:
    """The whole set-up as a ``logging.config.dictConfig`` dict (``uvicorn.run``'s
    ``log_config``; picklable for ``--workers``): the structured root handler on
    stderr, uvicorn's loggers propagating to it, the frame loggers' floor."""
    root = logging.getLevelNamesMapping().get(level.upper(), logging.INFO)
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "structured": {
                "()": "app.core.logging.structured_formatter",
                "fmt": resolve_format(fmt),
            }
        },
        "handlers": {
            "structured": {
                "class": "logging.StreamHandler",
                "formatter": "structured",
                "stream": "ext://sys.stderr",
            }
        },
        "root": {"handlers": ["structured"], "level": level.upper()},
        "loggers": {
            **{name: {"handlers": [], "propagate": True} for name in _UVICORN_HANDLED},
            **{name: {"level": logging.getLevelName(lvl)} for name, lvl in _floors(root)},
        },
    }


def setup_logging(level: str = "INFO", fmt: str = "auto") -> None:
    """Configure logging once (idempotent): the structured root handler (unless the
    root already has handlers: a test runner's, or :func:`logging_config`'s), uvicorn's
    loggers propagating to it, the query filter, the frame loggers' floor (INFO)."""
    root = logging.getLogger()
    if not root.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(structured_formatter(resolve_format(fmt)))
        root.addHandler(handler)
    root.setLevel(level.upper())
    structlog.configure(  # structlog's own loggers, should a module use one
        processors=[
            structlog.stdlib.filter_by_level,
            structlog.contextvars.merge_contextvars,
            structlog.stdlib.add_log_level,
            structlog.stdlib.add_logger_name,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
    for name in _UVICORN_HANDLED:  # uvicorn's default handlers give way to the root's
        logger = logging.getLogger(name)
        for h in list(logger.handlers):
            if _is_uvicorns(h):
                logger.removeHandler(h)
        if not logger.handlers:
            logger.propagate = True
    for name, floor in _floors(root.level):  # (NOTSET: it followed the root's level)
        logger = logging.getLogger(name)
        logger.setLevel(max(floor, logger.level or root.level))
    for name in _PATH_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, DropQueries) for f in logger.filters):
            logger.addFilter(DropQueries())


def _floors(level: int) -> list[tuple[str, int]]:
    """Each quieted logger and the least level it may have (``level``: the root's)."""
    frames = [(name, max(logging.INFO, level)) for name in FRAME_LOGGERS]
    return frames + [(name, max(logging.WARNING, level)) for name in SQL_LOGGERS]


def _is_uvicorns(handler: logging.Handler) -> bool:
    """A handler of uvicorn's default logging config (its formatters' base class)."""
    return type(handler.formatter).__module__.startswith("uvicorn.")

"""Logging setup. Never log hands, the stock or seat tokens: log table codes, seqs and
event kinds only — at every level, ``DEBUG`` included.

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
"""

from __future__ import annotations

import logging
import re

#: loggers that dump frames, handshakes or ASGI messages below INFO
FRAME_LOGGERS = ("websockets", "uvicorn.error", "uvicorn.protocols", "uvicorn.asgi")
#: the SQL loggers (SQLAlchemy's; aiosqlite's at DEBUG): their records carry the
#: statements' parameters (a table's state with its hands, chat, names), so they stay at
#: WARNING at any log level
SQL_LOGGERS = ("sqlalchemy.engine", "sqlalchemy.pool", "aiosqlite")
#: loggers whose records may carry a request's path and query
_PATH_LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn", "websockets")
#: a query or fragment in free text: after a non-space, up to whitespace (a quote that
#: closes the quoted path just before the whitespace is kept)
_QUERY = re.compile(r"(?<=\S)[?#]\S*?(?=\"?(?:\s|$))")


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


def setup_logging(level: str = "INFO") -> None:
    """Configure the root logger once (idempotent), the query filter, the frame
    loggers' floor (INFO) and SQLAlchemy's (WARNING)."""
    root = logging.getLogger()
    if not root.handlers:
        logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    root.setLevel(level.upper())
    for name in FRAME_LOGGERS:
        logger = logging.getLogger(name)  # (NOTSET: it followed the root's level)
        logger.setLevel(max(logging.INFO, logger.level or root.level))
    for name in SQL_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)
    for name in _PATH_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, DropQueries) for f in logger.filters):
            logger.addFilter(DropQueries())

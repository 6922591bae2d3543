"""Logging setup. Never log hands, the stock or seat tokens: log table codes, seqs and
event kinds only.

Seat tokens travel in WebSocket URLs (``?token=...``), which uvicorn's access log
prints. ``RedactTokens`` removes them by parsing, not by pattern: every query string in
a log record's message and string arguments is split into parameters, each name is
percent-decoded the way the server decodes it (``+`` as space, repeatedly, so
``tok%65n``, ``%74oken`` and ``tok%2565n`` all count) and compared case-insensitively
with ``token``; a match keeps its spelling but its value becomes ``***``.

>>> redact_query_strings('GET /ws/tables/ABC?tok%65n=s3cret&x=1 HTTP/1.1')
'GET /ws/tables/ABC?tok%65n=***&x=1 HTTP/1.1'
>>> redact_query_strings('/p?TOKEN=a&token=b;c&TOKEN')
'/p?TOKEN=***&token=***&TOKEN'
"""

from __future__ import annotations

import logging
import re
from urllib.parse import unquote_plus

#: the parameter whose value is secret (compared after decoding and casefolding)
SECRET_PARAMETER = "token"
#: a query string inside a log line: from ``?`` to whitespace, a quote or a fragment
_QUERY = re.compile(r"\?([^\s\"'#]*)")


def _decoded_name(raw: str) -> str:
    """A parameter name decoded as the server would, repeatedly (until stable)."""
    name = raw
    for _ in range(5):
        decoded = unquote_plus(name)
        if decoded == name:
            break
        name = decoded
    return name.strip().casefold()


def _redact_query(query: str) -> str:
    parts = []
    for part in query.split("&"):
        name, sep, _value = part.partition("=")
        if sep and _decoded_name(name) == SECRET_PARAMETER:
            part = f"{name}=***"
        parts.append(part)
    return "&".join(parts)


def redact_query_strings(text: str) -> str:
    """``text`` with the value of every ``token`` query parameter replaced by ``***``."""
    if "?" not in text:
        return text
    return _QUERY.sub(lambda m: "?" + _redact_query(m.group(1)), text)


class RedactTokens(logging.Filter):
    """Redact seat tokens from a record's message and string arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                redact_query_strings(a) if isinstance(a, str) else a for a in record.args
            )
        if isinstance(record.msg, str):
            record.msg = redact_query_strings(record.msg)
        return True


def setup_logging(level: str = "INFO") -> None:
    """Configure the root logger once (idempotent) and the token filter."""
    root = logging.getLogger()
    if not root.handlers:
        logging.basicConfig(format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    root.setLevel(level.upper())
    for name in ("uvicorn.access", "uvicorn.error", "uvicorn"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())

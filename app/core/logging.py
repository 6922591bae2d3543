"""Logging setup. Never log hands, the stock or seat tokens: log table codes, seqs and
event kinds only. Seat tokens in WebSocket URLs are redacted from uvicorn's logs."""

from __future__ import annotations

import logging
import re

_TOKEN = re.compile(r"(token=)[^&\s\"']+")


class RedactTokens(logging.Filter):
    """Replace ``token=<secret>`` with ``token=***`` in a record's message."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.args:
            record.args = (
                tuple(_TOKEN.sub(r"\1***", a) if isinstance(a, str) else a for a in record.args)
                if isinstance(record.args, tuple)
                else record.args
            )
        if isinstance(record.msg, str):
            record.msg = _TOKEN.sub(r"\1***", record.msg)
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

"""The table service's one exception type: a stable error ``code`` plus a message.

The API layer maps ``status`` to HTTP and ``code`` to WebSocket error frames
(docs/protocol.md lists every code).
"""

from __future__ import annotations


class TableError(Exception):
    """A refused request. Nothing was changed."""

    def __init__(self, code: str, message: str, status: int = 400, rule: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.rule = rule

    def as_dict(self) -> dict[str, object]:
        """The client-facing error body (no hidden information is ever in a message)."""
        out: dict[str, object] = {"code": self.code, "message": self.message}
        if self.rule:
            out["rule"] = self.rule
        return out


def not_found() -> TableError:
    return TableError("not_found", "no such table", 404)


def unauthorized() -> TableError:
    return TableError("unauthorized", "missing or wrong seat token", 401)

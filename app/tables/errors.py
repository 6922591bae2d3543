"""The table service's one exception type, and the one table mapping engine and store
errors to protocol error codes (docs/protocol.md lists every code).

>>> from app.engine import NotYourTurn
>>> err = from_engine(NotYourTurn("R8", "it is not your turn: seat 1 is to play"))
>>> err.code, err.status, err.rule
('not_your_turn', 409, 'R8')
"""

from __future__ import annotations

from app.engine import IllegalMove, MatchOver, NotationError, NotYourTurn, RoundOver


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


#: engine exception → (protocol code, HTTP status); the most specific class first
ENGINE_ERRORS: tuple[tuple[type[ValueError], str, int], ...] = (
    (NotYourTurn, "not_your_turn", 409),
    (RoundOver, "round_over", 409),
    (MatchOver, "match_over", 409),
    (IllegalMove, "illegal_move", 422),
    (NotationError, "bad_notation", 400),
)


def from_engine(exc: ValueError) -> TableError:
    """The protocol error for an engine refusal (a rule's number travels with it)."""
    for kind, code, status in ENGINE_ERRORS:
        if isinstance(exc, kind):
            rule = exc.rule if isinstance(exc, IllegalMove) else None
            message = str(exc) if rule else f"not a move in the notation: {exc}"
            return TableError(code, message, status, rule=rule)
    return TableError("bad_notation", f"not a move in the notation: {exc}", 400)


def not_found() -> TableError:
    return TableError("not_found", "no such table", 404)


def unauthorized() -> TableError:
    return TableError("unauthorized", "missing or wrong seat token", 401)


def conflict() -> TableError:
    return TableError("conflict", "another change was committed first; resync", 409)


def unavailable() -> TableError:
    return TableError("unavailable", "the database is unavailable; retry", 503)


def table_closed() -> TableError:
    """Any change at a closed table (everybody left, or it was abandoned)."""
    return TableError("table_closed", "this table is closed", 409)


def profile_required() -> TableError:
    """A seat at a rated table without a signed-in profile (docs/ratings.md)."""
    return TableError(
        "profile_required", "a rated table is for signed-in players: sign in to your profile", 403
    )

"""Who may use the operator's page ``/admin`` and its API ``/admin/api`` (docs/deployment.md
"The operator's page").

- ``FIVEUP_OPERATOR_TOKEN`` unset or empty: there is no operator's page — every route
  under ``/admin`` answers ``404 not_found``, as for a path that does not exist.
- A credential is either the header ``Authorization: Bearer <operator token>`` (scripts,
  ``curl``) or the session cookie :data:`COOKIE` that the page's sign-in sets
  (``HttpOnly; SameSite=Strict; Path=/admin``, ``Secure`` over HTTPS). The cookie's value is a
  digest of the token, not the token: changing the token signs every page out.
- None: ``401 unauthorized``; a wrong one: ``403 forbidden``. Compared in constant time.
- A state-changing request (POST, DELETE) authenticated by the cookie must carry an
  ``Origin`` that is this site's own (``403 bad_origin`` otherwise): another site cannot
  make the operator's browser act. The sign-in itself is checked the same way.
- Every route counts against ``FIVEUP_RATE_LIMIT_ADMIN`` per client address (wrong
  tokens included: guessing is slow).
"""

from __future__ import annotations

import hashlib
import hmac

from fastapi import Request

from app.api.quota_deps import admin_quota
from app.api.socket_guard import origin_allowed
from app.core.settings import Settings
from app.tables.errors import TableError

COOKIE = "fiveup_operator"
SAFE_METHODS = frozenset(("GET", "HEAD", "OPTIONS"))


def session_value(token: str) -> str:
    """The cookie's value for an operator token.

    >>> session_value("x") == session_value("x") != session_value("y")
    True
    """
    return hashlib.sha256(f"fiveup-operator-session:{token}".encode()).hexdigest()


def operator_token(request: Request) -> str:
    """The configured token; ``404`` when there is none (no operator's page)."""
    settings: Settings = request.app.state.settings
    if not settings.operator_token:
        raise TableError("not_found", "not found", 404)
    return settings.operator_token


def same_origin(request: Request) -> bool:
    """Whether the request's ``Origin`` is present and this site's own."""
    origin = request.headers.get("origin")
    if origin is None:
        return False
    return origin_allowed(
        origin.encode("latin-1", "replace"),
        request.headers.get("host", "").encode("latin-1", "replace"),
        "",
    )


async def page_exists(request: Request) -> None:
    """Dependency of every ``/admin`` route: 404 without a token, then the quota."""
    operator_token(request)
    await admin_quota(request)


async def operator(request: Request) -> None:
    """Dependency of the operator's API: a valid credential (see the module)."""
    token = operator_token(request)
    header = request.headers.get("authorization")
    if header is not None:
        scheme, _, given = header.partition(" ")
        if scheme.lower() != "bearer" or not given.strip():
            raise TableError("unauthorized", "use 'Authorization: Bearer <operator token>'", 401)
        if not hmac.compare_digest(given.strip().encode(), token.encode()):
            raise TableError("forbidden", "not the operator's token", 403)
        return
    cookie = request.cookies.get(COOKIE)
    if cookie is None:
        raise TableError("unauthorized", "sign in as the operator", 401)
    if not hmac.compare_digest(cookie.encode(), session_value(token).encode()):
        raise TableError("forbidden", "this session is no longer valid; sign in again", 403)
    if request.method not in SAFE_METHODS and not same_origin(request):
        raise TableError("bad_origin", "a request from another site", 403)

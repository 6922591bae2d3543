"""Every HTTP error in one shape: ``{"detail": {"code", "message", "rule"?}}``
(``ErrorResponse``), whatever raised it — a refused action (:class:`TableError`), a body
that does not validate (``422 invalid_request``; the input is never echoed, so NaN,
infinities and lone surrogates cannot break the answer), an unknown route or method, a
database that did not answer (``503 unavailable``, whichever store raised it).
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.routing import Match

from app.db.store import Unavailable
from app.tables.errors import TableError, unavailable

log = logging.getLogger(__name__)

_HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "too_large", 429: "rate_limited"}


def error_response(status: int, code: str, message: str, rule: str | None = None) -> JSONResponse:
    body: dict[str, object] = {"code": code, "message": message}
    if rule:
        body["rule"] = rule
    return JSONResponse({"detail": body}, status_code=status)


def validation_message(exc: RequestValidationError) -> str:
    """``field: problem`` for each error, from the location and message only."""
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        parts.append(f"{loc}: {err.get('msg', 'invalid')}")
    return "; ".join(parts)[:500]


NAME_FIELDS = ("name", "host_name")


def validation_code(exc: RequestValidationError) -> str:
    """``invalid_name`` when only names are wrong (as the service says for its own name
    checks), else ``invalid_request``."""
    locs = [err.get("loc", ()) for err in exc.errors()]
    if locs and all(loc and loc[-1] in NAME_FIELDS for loc in locs):
        return "invalid_name"
    return "invalid_request"


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(TableError)
    async def table_error(_request: Request, err: TableError) -> JSONResponse:
        return error_response(err.status, err.code, err.message, err.rule)

    @app.exception_handler(Unavailable)
    async def store_unavailable(_request: Request, err: Unavailable) -> JSONResponse:
        # a store off the move path that no route mapped: the database is away, retry
        log.warning("the database did not answer (%s)", type(err).__name__)
        e = unavailable()
        return error_response(e.status, e.code, e.message)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(422, validation_code(exc), validation_message(exc))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        code = _HTTP_CODES.get(exc.status_code, "http_error")
        response = error_response(exc.status_code, code, str(exc.detail))
        if exc.headers:
            response.headers.update(exc.headers)
        if exc.status_code == 405:
            response.headers["Allow"] = ", ".join(allowed_methods(request))
        return response


METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(request: Request) -> list[str]:
    """Every method some route serves at this path (Starlette names only the first)."""
    routes = request.app.router.routes
    return [
        method
        for method in METHODS
        if any(r.matches({**request.scope, "method": method})[0] == Match.FULL for r in routes)
    ]

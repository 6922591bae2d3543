"""``/metrics`` for Prometheus, and the HTTP requests' metrics (docs/monitoring.md).

:func:`install` (one call in ``create_app``) does nothing unless ``FIVEUP_METRICS_PORT``
or ``FIVEUP_METRICS_TOKEN`` is set. Then it turns recording on
(:func:`app.core.metrics.enable`), adds :class:`HttpMetrics`, and serves the metrics:

* ``FIVEUP_METRICS_PORT``: on that port (``FIVEUP_METRICS_HOST``, loopback by
  default), from a thread of this process — or of ``fiveup serve``'s supervisor when it
  runs several workers; the main port has no ``/metrics`` (404);
* else ``FIVEUP_METRICS_TOKEN``: ``GET /metrics`` on the main port, answered only to
  ``Authorization: Bearer <token>``; without it, or with another, ``401`` with
  ``WWW-Authenticate: Bearer`` (the route is an operator's, not the public API's: it is
  left out of ``/openapi.json``).

The HTTP metrics are labelled by the route's template (``/api/tables/{code}``), never
the path as requested; a request that matches no route is ``unmatched``.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core import metrics
from app.core.metrics_export import exposition, port_served_here, serve_port, token_matches
from app.core.settings import Settings

PATH = "/metrics"


def install(app: FastAPI, settings: Settings) -> None:
    """Metrics for ``app`` as its settings say (see the module's docstring)."""
    if settings.metrics_port is None and not settings.metrics_token:
        return
    metrics.enable(settings.metrics_label_values)
    app.add_middleware(HttpMetrics)
    if settings.metrics_port is not None:
        if not port_served_here():
            serve_port(settings.metrics_host, settings.metrics_port, settings.metrics_token)
        return
    app.include_router(_router(settings.metrics_token))


def _router(token: str) -> APIRouter:
    router = APIRouter(include_in_schema=False)

    @router.get(PATH)
    async def metrics_text(request: Request) -> Response:
        if not token_matches(request.headers.get("authorization"), token):
            return JSONResponse(
                {"detail": {"code": "unauthorized", "message": "a bearer token is required"}},
                status_code=401,
                headers={"WWW-Authenticate": "Bearer"},
            )
        body, content_type = exposition(request.headers.get("accept", ""))
        return Response(body, media_type=content_type)

    return router


class HttpMetrics:
    """ASGI middleware: each HTTP request's count and duration by method, route
    template and status (WebSockets pass through untouched)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        status = 500  # what the server answers if the application raises first

        async def sent(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, sent)
        finally:
            metrics.http_answered(
                scope.get("method", ""), route_template(scope), status, time.perf_counter() - began
            )


def route_template(scope: Scope) -> str:
    """The template of the route that served (or would serve) ``scope``: the router's
    choice, else the first route that matches (a request refused before routing, e.g.
    413), else ``unmatched``."""
    route = scope.get("route")
    if route is None:
        app = scope.get("app")
        for candidate in _routes(getattr(getattr(app, "router", None), "routes", ())):
            if candidate.matches(scope)[0] is not Match.NONE:
                route = candidate
                break
    path = getattr(route, "path", None)
    return path if isinstance(path, str) and path else "unmatched"


def _routes(routes: Iterable[BaseRoute]) -> Iterator[BaseRoute]:
    """The routes with a template, those of included routers among them (FastAPI keeps
    an included router as one route whose own routes carry the full paths: this
    application includes its routers without a prefix)."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None and hasattr(inner, "routes"):
            yield from _routes(inner.routes)
        else:
            yield route

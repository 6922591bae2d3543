"""The probes: ``GET /livez``, ``GET /readyz`` and ``GET /healthz``
(docs/deployment.md, "Restarts and probes", says which to use for what).

* ``/livez`` — the process runs and its event loop answers: always 200, no database
  asked. A failing liveness probe means "restart this process".
* ``/readyz`` — send this process traffic: 200 when the database answers and the
  process is not draining, else 503 in the API's error shape with the reason
  (``draining`` or ``unavailable``).
* ``/healthz`` — 200 once the database answers, 503 otherwise (draining or not).

Never refused by the HTTP budget nor by a drain (``app/core/connection_caps.EXEMPT_PATHS``):
a load balancer's probe is answered whatever the load."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from app.api.draining import DRAINING_MESSAGE, Drain
from app.api.errors import error_response
from app.schemas import ErrorResponse, Health

router = APIRouter(tags=["health"])

#: seconds a probe waits for the database
PING_SECONDS = 3


async def _database_answers(request: Request) -> bool:
    try:
        async with asyncio.timeout(PING_SECONDS):
            await request.app.state.store.ping()
    except Exception:
        return False
    return True


@router.get(
    "/healthz",
    response_model=Health,
    responses={503: {"model": Health, "description": "the database does not answer"}},
)
async def healthz(request: Request) -> JSONResponse:
    """Liveness + database reachability."""
    if not await _database_answers(request):
        return JSONResponse({"status": "unavailable"}, status_code=503)
    return JSONResponse({"status": "ok"})


@router.get("/livez", response_model=Health)
async def livez() -> JSONResponse:
    """The process runs: 200 whenever the event loop answers (no database asked)."""
    return JSONResponse({"status": "ok"})


@router.get(
    "/readyz",
    response_model=Health,
    responses={
        503: {
            "model": ErrorResponse,
            "description": "not ready: `draining` (the process is shutting down on "
            "SIGTERM) or `unavailable` (the database does not answer)",
        }
    },
)
async def readyz(request: Request) -> JSONResponse:
    """Ready for traffic: the database answers and the process is not draining."""
    drain: Drain = request.app.state.drain
    if drain.draining:
        return error_response(503, "draining", DRAINING_MESSAGE)
    if not await _database_answers(request):
        return error_response(503, "unavailable", "the database does not answer")
    if drain.draining:  # it began while the database was asked
        return error_response(503, "draining", DRAINING_MESSAGE)
    return JSONResponse({"status": "ok"})

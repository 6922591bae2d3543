"""``GET /healthz``: 200 once the database answers, 503 otherwise.

Never refused by the HTTP budget (``app/core/connection_caps.EXEMPT_PATHS``): a load
balancer's probe is answered whatever the load."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from app.schemas import Health

router = APIRouter(tags=["health"])


@router.get(
    "/healthz",
    response_model=Health,
    responses={503: {"model": Health, "description": "the database does not answer"}},
)
async def healthz(request: Request) -> JSONResponse:
    """Liveness + database reachability."""
    try:
        async with asyncio.timeout(3):
            await request.app.state.store.ping()
    except Exception:
        return JSONResponse({"status": "unavailable"}, status_code=503)
    return JSONResponse({"status": "ok"})

"""HTTP routes for who holds a seat once seated (docs/protocol.md, "Devices, leave,
resign, replace"): a device link and its claim, resigning, and the host's replacement of
a player between matches (leaving is ``POST /api/tables/{code}/leave``, in
:mod:`app.api.routes_tables`). Bodies are the models of :mod:`app.schemas`; errors are
``ErrorResponse``. A link's credential is only ever in a body or a URL fragment — never a
path or a query string, so never in an access log.
"""

from __future__ import annotations

from fastapi import APIRouter, Path

from app.api.deps import ServiceDep, TokenDep
from app.api.quota_deps import HttpQuota, JoinQuota, LookupMissQuota
from app.api.routes_tables import ERRORS, Code
from app.schemas import ClaimSeat, DeviceLink, ErrorResponse, Joined, ReplaceSeat, TableInfo

router = APIRouter(
    prefix="/api/tables",
    tags=["seats"],
    dependencies=[HttpQuota],
    responses={429: {"model": ErrorResponse, "description": "rate limited (Retry-After)"}},
)

Seat = Path(ge=0, le=3, description="a seat, 0..players-1 (else 409 bad_seat)")


@router.post("/{code}/seats/{seat}/link", response_model=DeviceLink, responses=ERRORS)
async def device_link(
    service: ServiceDep, token: TokenDep, code: str = Code, seat: int = Seat
) -> DeviceLink:
    """A fresh single-use link that moves ``seat`` to another device: your own seat, or
    (the host) any person's seat. Asking again replaces the seat's older link."""
    return await service.device_link(code, token, seat)


@router.post(
    "/{code}/claim",
    response_model=Joined,
    responses=ERRORS,
    dependencies=[JoinQuota, LookupMissQuota],
)
async def claim(body: ClaimSeat, service: ServiceDep, code: str = Code) -> Joined:
    """Take a seat over on this device with its link: returns a fresh seat token; the
    seat's old token and the link stop working (its old sockets are closed, 4410)."""
    return await service.claim(code, body.link)


@router.post("/{code}/resign", response_model=TableInfo, responses=ERRORS)
async def resign(service: ServiceDep, token: TokenDep, code: str = Code) -> TableInfo:
    """Resign the match in play (two or three players; a partnership game is 409
    resign_partnership): the match ends, the other side wins."""
    return await service.resign(code, token)


@router.post("/{code}/seats/{seat}/replace", response_model=TableInfo, responses=ERRORS)
async def replace(
    body: ReplaceSeat, service: ServiceDep, token: TokenDep, code: str = Code, seat: int = Seat
) -> TableInfo:
    """The host replaces the player in ``seat`` between matches: by a computer player, or
    by a new person (the seat is freed and the table waits for a join)."""
    return await service.replace(code, token, seat, body.by, body.level)

"""HTTP routes for who holds a seat once seated (docs/protocol.md, "Devices, leave,
resign, replace"): a device link and its claim, resigning, and the host's replacement of
a player between matches (leaving is ``POST /api/tables/{code}/leave``, in
:mod:`app.api.routes_tables`). Bodies are the models of :mod:`app.schemas`; errors are
``ErrorResponse``. A link's credential is only ever in a body or a URL fragment — never a
path or a query string, so never in an access log.
"""

from __future__ import annotations

from typing import Any

from fastapi import Path, Request

from app.api.deps import ServiceDep, TokenDep
from app.api.profile_auth import bind_if_signed_in, request_profile, seats_changed
from app.api.quota_deps import JoinQuota, LookupMissQuota, quota_router
from app.api.routes_tables import ERRORS, Code
from app.schemas import (
    ClaimSeat,
    DeviceLink,
    ErrorResponse,
    Joined,
    LinkedSeat,
    ReplaceSeat,
    TableInfo,
)

router = quota_router("/api/tables", "seats")

Seat = Path(ge=0, le=3, description="a seat, 0..players-1 (else 409 bad_seat)")


#: a host's link for a person who is not gone (docs/protocol.md, "Devices, leave, …")
SEAT_PRESENT: dict[int | str, dict[str, Any]] = {
    409: {
        "model": ErrorResponse,
        "description": "`seat_present`: a host's link for another person's seat while that"
        " person has a socket or has had none for less than FIVEUP_DISCONNECT_GRACE_SECONDS;"
        " also `bad_seat`, `table_closed`",
    }
}


@router.post(
    "/{code}/seats/{seat}/link", response_model=DeviceLink, responses={**ERRORS, **SEAT_PRESENT}
)
async def device_link(
    service: ServiceDep, token: TokenDep, code: str = Code, seat: int = Seat
) -> DeviceLink:
    """A fresh single-use link that moves ``seat`` to another device: your own seat,
    always; or (the host) the seat of a person who has had no socket for the presence
    grace (else 409 ``seat_present``). Asking again replaces the seat's older link."""
    return await service.device_link(code, token, seat)


@router.post(
    "/{code}/claim",
    response_model=Joined,
    responses={**ERRORS, **SEAT_PRESENT},
    dependencies=[JoinQuota, LookupMissQuota],
)
async def claim(body: ClaimSeat, request: Request, service: ServiceDep, code: str = Code) -> Joined:
    """Take a seat over on this device with its link: returns a fresh seat token; the
    seat's old token and the link stop working (its old sockets are closed, 4410). A
    host's link is refused (409 ``seat_present``) if the seat's person came back; a
    rated table's seat only to a signed-in browser (403 ``profile_required``)."""
    profile = await request_profile(request)
    joined = await service.claim(code, body.link, signed_in=profile is not None)
    await bind_if_signed_in(request, joined, profile)  # a signed-in device binds the seat
    return joined


@router.post(
    "/{code}/claim/seat",
    response_model=LinkedSeat,
    responses=ERRORS,
    dependencies=[JoinQuota, LookupMissQuota],
)
async def claim_seat(body: ClaimSeat, service: ServiceDep, code: str = Code) -> LinkedSeat:
    """Which seat a device link would move, and who made it, without claiming it (a
    page asks this before claiming, to ask its user first); 404 ``link_used`` as for a
    claim."""
    return await service.linked_seat(code, body.link)


@router.post("/{code}/resign", response_model=TableInfo, responses=ERRORS)
async def resign(
    request: Request, service: ServiceDep, token: TokenDep, code: str = Code
) -> TableInfo:
    """Resign the match in play (two or three players; a partnership game is 409
    resign_partnership): the match ends, the other side wins."""
    info = await service.resign(code, token)
    await seats_changed(request, code)
    return info


@router.post("/{code}/seats/{seat}/replace", response_model=TableInfo, responses=ERRORS)
async def replace(
    request: Request,
    body: ReplaceSeat,
    service: ServiceDep,
    token: TokenDep,
    code: str = Code,
    seat: int = Seat,
) -> TableInfo:
    """The host replaces the player in ``seat`` between matches: by a computer player, or
    by a new person (the seat is freed and the table waits for a join)."""
    info = await service.replace(code, token, seat, body.by, body.level)
    await seats_changed(request, code)
    return info

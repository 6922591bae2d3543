"""HTTP routes for tables: create, lobby, info, join, seat, leave, kick, start, rematch,
history, and the match record (text and JSON forms). Bodies are the models of :mod:`app.schemas`; errors are ``ErrorResponse``."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import Path, Query, Request, status
from fastapi.responses import PlainTextResponse

from app.api.deps import ServiceDep, TokenDep
from app.api.friend_guard import refuse_if_host_blocks
from app.api.profile_auth import (
    bind_if_signed_in,
    follow_seat_change,
    request_profile,
    seats_changed,
)
from app.api.quota_deps import (
    CreateQuota,
    JoinQuota,
    LookupMissQuota,
    client_address,
    quota_router,
)
from app.records import to_data, write_text
from app.schemas import (
    CreateTable,
    ErrorResponse,
    History,
    Joined,
    JoinTable,
    Lobby,
    MatchRecord,
    SeatRequest,
    TableInfo,
)
from app.tables.errors import TableError, profile_required
from app.tables.moderation import Moderation, address_key

router = quota_router("/api/tables", "tables")

Code = Path(min_length=1, max_length=16, description="table code, case-insensitive")
ERRORS: dict[int | str, dict[str, Any]] = {
    c: {"model": ErrorResponse} for c in (400, 401, 403, 404, 409, 413, 422, 503)
}


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=Joined,
    responses=ERRORS,
    dependencies=[CreateQuota],
)
async def create_table(body: CreateTable, request: Request, service: ServiceDep) -> Joined:
    """Create a table; the creator sits at seat 0 and is the host (bound to their
    profile when signed in). A rated table needs a signed-in creator (``403
    profile_required``)."""
    profile = await request_profile(request)
    if body.rated and profile is None:
        raise profile_required()
    joined = await service.create(
        body.name, body.players, body.public, body.host_name, body.clock, rated=body.rated
    )
    await bind_if_signed_in(request, joined, profile)
    return joined


@router.get("", response_model=Lobby, responses={c: {"model": ErrorResponse} for c in (422, 503)})
async def lobby(service: ServiceDep, status: Literal["open", "finished"] = "open") -> Lobby:
    """Public tables waiting or in play, those looking for players first (``status=open``,
    the default), or public tables whose match is over, newest first
    (``status=finished``: their replays)."""
    if status == "finished":
        return Lobby(tables=await service.finished_tables())
    return Lobby(tables=await service.lobby())


@router.get("/{code}", response_model=TableInfo, responses=ERRORS, dependencies=[LookupMissQuota])
async def get_table(service: ServiceDep, code: str = Code) -> TableInfo:
    """Public table information: seats, names, presence, status, scores."""
    return await service.info(code)


@router.post(
    "/{code}/join",
    response_model=Joined,
    responses=ERRORS,
    dependencies=[JoinQuota, LookupMissQuota],
)
async def join(body: JoinTable, request: Request, service: ServiceDep, code: str = Code) -> Joined:
    """Take a free seat before the start; returns your secret seat token. ``403
    blocked``: the host blocked this address, or a name that looks like this one, here,
    or the host's profile blocks the signed-in joiner's; ``403 profile_required``: a
    rated table, and this browser is not signed in."""
    moderation: Moderation | None = getattr(request.app.state, "moderation", None)
    if moderation is not None:
        address = address_key(client_address(request))
        if moderation.blocked(await service.table_id(code), address, body.name):
            raise TableError("blocked", "the host has blocked you at this table", 403)
    profile = await request_profile(request)
    await refuse_if_host_blocks(request, code, profile)  # their profile blocks yours
    joined = await service.join(code, body.name, body.seat, signed_in=profile is not None)
    await bind_if_signed_in(request, joined, profile)
    return joined


@router.post("/{code}/seat", response_model=TableInfo, responses=ERRORS)
async def change_seat(
    request: Request, body: SeatRequest, service: ServiceDep, token: TokenDep, code: str = Code
) -> TableInfo:
    """Move to another free seat before the start."""
    info = await service.change_seat(code, token, body.seat)
    if token:
        await follow_seat_change(request, code, token, body.seat)
    return info


@router.post("/{code}/leave", response_model=TableInfo, responses=ERRORS)
async def leave(
    request: Request, service: ServiceDep, token: TokenDep, code: str = Code
) -> TableInfo:
    """Leave the table before the start (your token stops working)."""
    info = await service.leave(code, token)
    await seats_changed(request, code)
    return info


@router.post("/{code}/kick", response_model=TableInfo, responses=ERRORS)
async def kick(
    request: Request, body: SeatRequest, service: ServiceDep, token: TokenDep, code: str = Code
) -> TableInfo:
    """The host removes the player in ``seat`` before the start."""
    info = await service.kick(code, token, body.seat)
    await seats_changed(request, code)
    return info


@router.post("/{code}/start", response_model=TableInfo, responses=ERRORS)
async def start(service: ServiceDep, token: TokenDep, code: str = Code) -> TableInfo:
    """The host starts the match (all seats filled)."""
    return await service.start(code, token)


@router.post("/{code}/rematch", response_model=TableInfo, responses=ERRORS)
async def rematch(service: ServiceDep, token: TokenDep, code: str = Code) -> TableInfo:
    """Vote for a rematch; when every seat has voted a new match starts."""
    return await service.rematch(code, token)


@router.get(
    "/{code}/history", response_model=History, responses=ERRORS, dependencies=[LookupMissQuota]
)
async def history(service: ServiceDep, token: TokenDep, code: str = Code) -> History:
    """The match's moves and round results, projected for your seat (or as a spectator)."""
    return await service.history(code, token)


MatchNumber = Query(
    default=None, ge=1, description="the match number at the table (default: the current one)"
)
RECORD_ERRORS: dict[int | str, dict[str, Any]] = {
    c: {
        "model": ErrorResponse,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}},
    }
    for c in (404, 422, 429, 503)
}


@router.get(
    "/{code}/record.txt",
    response_class=PlainTextResponse,
    responses={
        200: {"content": {"text/plain": {}}, "description": "the record, text form"},
        **RECORD_ERRORS,
    },
    dependencies=[LookupMissQuota],
)
async def record_text(
    service: ServiceDep, code: str = Code, match: int | None = MatchNumber
) -> PlainTextResponse:
    """The match record in its text form (docs/record.md): the finished rounds only."""
    record = await service.record(code, match)
    return PlainTextResponse(
        write_text(record),
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'inline; filename="{code}-{record.match}.txt"'},
    )


@router.get(
    "/{code}/record.json",
    response_model=MatchRecord,
    response_model_exclude_unset=True,  # ``resigned``/``end`` only where the record has them
    responses=RECORD_ERRORS,
    dependencies=[LookupMissQuota],
)
async def record_json(
    service: ServiceDep, code: str = Code, match: int | None = MatchNumber
) -> MatchRecord:
    """The match record in its JSON form (docs/record.md): the finished rounds only (and
    the round in play of a resigned match)."""
    return MatchRecord.model_validate(to_data(await service.record(code, match)))

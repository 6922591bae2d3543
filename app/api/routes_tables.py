"""HTTP routes for tables: create, lobby, info, join, seat, leave, kick, start, rematch,
history. Errors are ``TableError`` → ``{"detail": {"code", "message"}}`` (see main)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Path, status

from app.api.deps import HubDep, ServiceDep, TokenDep
from app.api.quota_deps import CreateQuota, HttpQuota, JoinQuota, LookupMissQuota
from app.api.schemas import (
    CreateTable,
    ErrorResponse,
    History,
    Joined,
    JoinTable,
    Lobby,
    SeatRequest,
    TableInfo,
)
from app.realtime.hub import Hub
from app.realtime.projection import with_presence

router = APIRouter(prefix="/api/tables", tags=["tables"], dependencies=[HttpQuota])

Code = Path(min_length=1, max_length=16, description="table code, case-insensitive")
ERRORS: dict[int | str, dict[str, Any]] = {
    c: {"model": ErrorResponse} for c in (400, 401, 403, 404, 409, 422, 429)
}


def _present(hub: Hub, info: dict[str, Any]) -> dict[str, Any]:
    """Table info with this process's presence."""
    tid = hub.table_ids.get(info["code"])
    return with_presence(info, hub.connected_seats(tid) if tid is not None else [])


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=Joined,
    responses=ERRORS,
    dependencies=[CreateQuota],
)
async def create_table(body: CreateTable, service: ServiceDep, hub: HubDep) -> dict[str, Any]:
    """Create a table; the creator sits at seat 0 and is the host."""
    info, token, seat = await service.create(body.name, body.players, body.public, body.host_name)
    return {"code": info["code"], "token": token, "seat": seat, "table": _present(hub, info)}


@router.get("", response_model=Lobby)
async def lobby(service: ServiceDep) -> dict[str, Any]:
    """Public tables waiting or in play."""
    return {"tables": await service.lobby()}


@router.get("/{code}", response_model=TableInfo, responses=ERRORS, dependencies=[LookupMissQuota])
async def get_table(service: ServiceDep, hub: HubDep, code: str = Code) -> dict[str, Any]:
    """Public table information: seats, names, presence, status, scores."""
    return _present(hub, await service.info(code))


@router.post(
    "/{code}/join",
    response_model=Joined,
    responses=ERRORS,
    dependencies=[JoinQuota, LookupMissQuota],
)
async def join(body: JoinTable, service: ServiceDep, hub: HubDep, code: str = Code) -> dict[str, Any]:
    """Take a free seat before the start; returns your secret seat token."""
    info, token, seat = await service.join(code, body.name, body.seat)
    return {"code": info["code"], "token": token, "seat": seat, "table": _present(hub, info)}


@router.post("/{code}/seat", response_model=TableInfo, responses=ERRORS)
async def change_seat(
    body: SeatRequest, service: ServiceDep, hub: HubDep, token: TokenDep, code: str = Code
) -> dict[str, Any]:
    """Move to another free seat before the start."""
    return _present(hub, await service.change_seat(code, token, body.seat))


@router.post("/{code}/leave", response_model=TableInfo, responses=ERRORS)
async def leave(service: ServiceDep, hub: HubDep, token: TokenDep, code: str = Code) -> dict[str, Any]:
    """Leave the table before the start (your token stops working)."""
    return _present(hub, await service.leave(code, token))


@router.post("/{code}/kick", response_model=TableInfo, responses=ERRORS)
async def kick(
    body: SeatRequest, service: ServiceDep, hub: HubDep, token: TokenDep, code: str = Code
) -> dict[str, Any]:
    """The host removes the player in ``seat`` before the start."""
    return _present(hub, await service.kick(code, token, body.seat))


@router.post("/{code}/start", response_model=TableInfo, responses=ERRORS)
async def start(service: ServiceDep, hub: HubDep, token: TokenDep, code: str = Code) -> dict[str, Any]:
    """The host starts the match (all seats filled)."""
    return _present(hub, await service.start(code, token))


@router.post("/{code}/rematch", response_model=TableInfo, responses=ERRORS)
async def rematch(service: ServiceDep, hub: HubDep, token: TokenDep, code: str = Code) -> dict[str, Any]:
    """Vote for a rematch; when every seat has voted a new match starts."""
    return _present(hub, await service.rematch(code, token))


@router.get(
    "/{code}/history", response_model=History, responses=ERRORS, dependencies=[LookupMissQuota]
)
async def history(service: ServiceDep, token: TokenDep, code: str = Code) -> dict[str, Any]:
    """The match's moves and round results, projected for your seat (or as a spectator)."""
    return await service.history(code, token)

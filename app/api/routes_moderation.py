"""HTTP routes of moderation at a table (docs/protocol.md "Moderation"): anyone at a
table reports a chat message or a player; the host removes someone (and blocks them).

Every route counts against the HTTP quota of its client address; a report also against
``FIVEUP_RATE_LIMIT_REPORTS`` (``429`` with ``Retry-After``)."""

from __future__ import annotations

from fastapi import Depends, Request, status

from app.api.deps import ModerationDep, TokenDep
from app.api.quota_deps import client_address, quota_router, reports_quota
from app.api.routes_tables import ERRORS, Code
from app.moderation_schemas import (
    MessageReport,
    PlayerReport,
    RemoveAuthor,
    Removed,
    RemoveIn,
    RemoveSeat,
    ReportFiled,
    ReportIn,
)
from app.tables.moderation import ReportRequest, address_key

router = quota_router("/api/tables", "moderation")


@router.post(
    "/{code}/reports",
    status_code=status.HTTP_201_CREATED,
    response_model=ReportFiled,
    responses=ERRORS,
    dependencies=[Depends(reports_quota)],
)
async def report(
    body: ReportIn,
    request: Request,
    token: TokenDep,
    moderation: ModerationDep,
    code: str = Code,
) -> ReportFiled:
    """Report a chat message (``kind`` ``message``, its ``seq``) or the person in a seat
    (``player``, ``seat``) to the operator, with a reason and a short text. The seat
    token is optional (a spectator reports too); if given it must be a seat here."""
    seq = body.seq if isinstance(body, MessageReport) else None
    seat = body.seat if isinstance(body, PlayerReport) else None
    req = ReportRequest.parse(body.kind, seq, seat, body.reason, body.text)
    reporter = address_key(client_address(request))
    return ReportFiled(report=await moderation.report(code, token, reporter, req))


@router.post("/{code}/remove", response_model=Removed, responses=ERRORS)
async def remove(
    body: RemoveIn,
    token: TokenDep,
    moderation: ModerationDep,
    code: str = Code,
) -> Removed:
    """The host removes the author of chat message ``seq`` (a spectator, or a seat) or
    the person in ``seat`` — a seat only before the start (then kicked; ``409
    already_started`` after) — closing their sockets; with ``block`` (the default) they
    cannot take a seat or watch here again."""
    seat = body.seat if isinstance(body, RemoveSeat) else None
    seq = body.seq if isinstance(body, RemoveAuthor) else None
    done = await moderation.remove(code, token, seat, seq, body.block)
    return Removed(closed=done.closed, blocked=done.blocked)

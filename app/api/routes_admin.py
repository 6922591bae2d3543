"""The operator's page ``/admin`` and its JSON API ``/admin/api`` (docs/protocol.md
"The operator's API", docs/deployment.md "The operator's page"). Who may use them:
app/api/admin_auth.py. Every action is written to the audit log (app/tables/operator.py).

``admin_router(drain)`` builds the routes. ``drain`` is the one place where draining this
process is wired: an async callable that starts the drain, or None — then there is no
``POST /admin/api/drain`` and the overview says ``"drain": false``, so the page shows no
button.
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable
from pathlib import Path as FilePath
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Request, Response
from fastapi.responses import FileResponse, HTMLResponse

from app.api.admin_auth import COOKIE, operator, page_exists, same_origin, session_value
from app.api.routes_tables import Code
from app.moderation_schemas import (
    Acted,
    AdminAudit,
    AdminBan,
    AdminChatLine,
    AdminMute,
    AdminOverview,
    AdminReport,
    AdminSeat,
    AdminTable,
    BanIn,
    BanReport,
    Done,
    MuteIn,
    MuteReport,
    SignedIn,
    SignIn,
)
from app.schemas import ErrorResponse
from app.tables.errors import TableError
from app.tables.operator import Operator, Overview, ReportView

DrainAction = Callable[[], Awaitable[None]]


def _row_id() -> Any:
    """A path id (each route its own: FastAPI names the one it is given)."""
    return Path(ge=0, le=2**31 - 1, description="the id of a report, mute or ban")


_ERRORS: dict[int | str, dict[str, Any]] = {
    c: {"model": ErrorResponse} for c in (400, 401, 403, 404, 409, 422, 429, 503)
}
#: the page's errors are JSON, not HTML (as every error)
_JSON_ERRORS: dict[int | str, dict[str, Any]] = {
    c: {
        "description": "an error",
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorResponse"}}},
    }
    for c in (404, 429)
}
_PLACEHOLDER = "<!doctype html><title>Five Up operator</title><p>The page is not installed."


def get_operator(request: Request) -> Operator:
    op: Operator = request.app.state.operator
    return op


OperatorDep = Annotated[Operator, Depends(get_operator)]


def admin_router(drain: DrainAction | None) -> APIRouter:
    """The page, the sign-in and the operator's API (``drain``: see the module)."""
    router = APIRouter(tags=["operator"], dependencies=[Depends(page_exists)])
    session = APIRouter(responses=_ERRORS)
    api = APIRouter(prefix="/admin/api", dependencies=[Depends(operator)], responses=_ERRORS)

    @router.get("/admin", response_class=HTMLResponse, responses=_JSON_ERRORS)
    async def page(request: Request) -> Response:
        """The operator's page (it signs in with the operator token)."""
        static_dir: FilePath = request.app.state.settings.static_dir
        index = static_dir / "admin.html"
        if index.is_file():
            return FileResponse(index, media_type="text/html")
        return HTMLResponse(_PLACEHOLDER)

    @session.post("/admin/session", response_model=SignedIn)
    async def sign_in(body: SignIn, request: Request, response: Response) -> SignedIn:
        """Sign the page in: sets the session cookie (``HttpOnly``, ``SameSite=Strict``).
        ``403 forbidden`` for a wrong token, ``403 bad_origin`` from another site."""
        if not same_origin(request):
            raise TableError("bad_origin", "a request from another site", 403)
        token: str = request.app.state.settings.operator_token
        if not hmac.compare_digest(body.token.encode(), token.encode()):
            raise TableError("forbidden", "not the operator's token", 403)
        response.set_cookie(
            COOKIE,
            session_value(token),
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            path="/admin",
        )
        return SignedIn(ok=True)

    @session.delete("/admin/session", response_model=SignedIn)
    async def sign_out(response: Response) -> SignedIn:
        """Sign the page out (the cookie is cleared)."""
        response.delete_cookie(COOKIE, path="/admin")
        return SignedIn(ok=False)

    @api.get("/overview", response_model=AdminOverview)
    async def overview(op: OperatorDep) -> AdminOverview:
        """Live tables with their players and spectators, the open reports with the
        chat around each reported message, active bans and mutes, the audit log."""
        return _overview(await op.overview(), drain is not None)

    @api.post("/reports/{report_id}/resolve", response_model=Done)
    async def resolve(op: OperatorDep, report_id: int = _row_id()) -> Done:
        """Take a report off the queue."""
        await op.resolve(report_id)
        return Done(ok=True, id=report_id)

    @api.post("/mutes", response_model=Done)
    async def mute(body: MuteIn, op: OperatorDep) -> Done:
        """Mute the author of a report (keyed on their address when it is known, else on
        their seat token) or an address, in every table's chat."""
        report, address = _target(body)
        return Done(ok=True, id=await op.mute(report, address, body.until))

    @api.delete("/mutes/{mute_id}", response_model=Done)
    async def unmute(op: OperatorDep, mute_id: int = _row_id()) -> Done:
        await op.unmute(mute_id)
        return Done(ok=True, id=mute_id)

    @api.post("/bans", response_model=Done)
    async def ban(body: BanIn, op: OperatorDep) -> Done:
        """Ban the author of a report (their address must be known) or an address until
        an end time: every ``/api`` request refused (``403 banned``), sockets closed."""
        report, address = _target(body)
        return Done(ok=True, id=await op.ban(report, address, body.until))

    @api.delete("/bans/{ban_id}", response_model=Done)
    async def unban(op: OperatorDep, ban_id: int = _row_id()) -> Done:
        await op.unban(ban_id)
        return Done(ok=True, id=ban_id)

    @api.post("/tables/{code}/close", response_model=Acted)
    async def close_table(op: OperatorDep, code: str = Code) -> Acted:
        """Close a table (event ``closed`` with reason ``operator``)."""
        await op.close_table(code)
        return Acted(ok=True)

    if drain is not None:
        run_drain = drain

        @api.post("/drain", response_model=Acted)
        async def drain_process(op: OperatorDep) -> Acted:
            """Drain the process that answers (docs/deployment.md)."""
            await op.drained()
            await run_drain()
            return Acted(ok=True)

    router.include_router(session)
    router.include_router(api)
    return router


def _target(body: MuteIn | BanIn) -> tuple[int | None, str | None]:
    """(report, address): exactly one of them, as the body's model says."""
    if isinstance(body, MuteReport | BanReport):
        return body.report, None
    return None, body.address


def _overview(o: Overview, drain: bool) -> AdminOverview:
    return AdminOverview(
        tables=[
            AdminTable(
                code=t.table.code,
                name=t.table.name,
                status=t.table.status,
                public=t.table.public,
                players=t.table.players,
                seats=[
                    AdminSeat(seat=s.seat, name=s.name, bot=s.bot, connected=s.seat in t.connected)
                    for s in t.table.seats
                ],
                spectators=t.spectators,
            )
            for t in o.tables
        ],
        reports=[_report(r) for r in o.reports],
        bans=[AdminBan(id=b.id, label=b.label, until=b.until) for b in o.bans],
        mutes=[
            AdminMute(
                id=m.id, label=m.label, until=m.until, by="address" if m.address_hash else "seat"
            )
            for m in o.mutes
        ],
        audit=[
            AdminAudit(id=a.id, at=a.created_at, action=a.action, target=a.target, detail=a.detail)
            for a in o.audit
        ],
        drain=drain,
    )


def _report(v: ReportView) -> AdminReport:
    r = v.report
    known: Literal["address", "seat", "none"] = (
        "address" if r.address_hash else "seat" if r.token_hash else "none"
    )
    context = []
    for line in v.context:
        p = line.payload
        seat = p.get("seat") if isinstance(p.get("seat"), int) else None
        context.append(
            AdminChatLine(
                seq=line.seq,
                seat=seat,
                name=v.names.get(seat, f"seat {seat}") if seat is not None else "spectator",
                channel=str(p.get("channel", "")),
                text=p.get("text") if isinstance(p.get("text"), str) else None,
                quick=p.get("quick") if isinstance(p.get("quick"), str) else None,
                reported=line.seq == r.seq,
            )
        )
    return AdminReport(
        id=r.id,
        code=r.code,
        kind=r.kind,
        seq=r.seq,
        seat=r.seat,
        name=r.name,
        reason=r.reason,
        text=r.text,
        created_at=r.created_at,
        author_known=known,
        context=context,
    )

"""FastAPI dependencies that apply the quotas of ``app/core/quotas.py`` to HTTP routes.

A refused request gets ``429 {"detail": {"code": "rate_limited", "message": ...}}`` with
a ``Retry-After`` header (seconds): an ``HTTPException(429)``, which
``app/api/errors.py`` renders with the code ``rate_limited``. The client address is ``request.client.host``:
uvicorn replaces it with ``X-Forwarded-For`` only for proxies listed in
``FIVEUP_FORWARDED_ALLOW_IPS`` (``app/core/serving.py``).

* ``HttpQuota`` — every request under the router (``rate_limit_http``); a
  :func:`quota_router` applies it to each of its routes.
* ``CreateQuota`` — table creation (``create``; ``public_tables`` too when the body asks
  for a public table).
* ``JoinQuota`` — joins (``join``).
* ``RecordCheckQuota`` — record checks (``record_check``).
* ``LookupMissQuota`` — code look-ups: refused while the address is over
  ``lookup_miss``; a look-up whose table does not exist (``not_found``) counts. (The
  WebSocket endpoint applies the same quota to its sockets: ``app/api/ws.py``.)
* ``BotQuota`` — computer-player changes (``bot_changes``).
* ``reports_quota`` — players' reports (``reports``); ``admin_quota`` — the operator's
  page and its API (``admin``).
* ``profile_signups_quota``, ``sign_in_links_quota``, ``passkey_sign_ins_quota`` — profile
  sign-ups, one-time sign-in links made or claimed, passkey sign-ins (docs/profiles.md).
* ``friend_requests_quota`` — friend requests sent (``friend_requests``, docs/friends.md).
* ``club_joins_quota`` — club joins by invite link (``club_joins``, docs/clubs.md).
* ``player_pages_quota`` — player pages (``player_pages``, docs/games.md).
* ``invitations_quota`` — invitation requests (``invitations``, docs/invitations.md).
* A banned address (app/tables/moderation.py) is refused by ``HttpQuota``: ``403
  banned``.
* ``practice_quota`` — a practice table: ``create``, and the caller as the table's
  :class:`~app.tables.practice_cap.PracticeCreator` (the cap on live practice tables;
  None when quotas are off).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request
from starlette.requests import HTTPConnection

from app.core.quotas import QuotaName, Quotas, Verdict, quotas_for
from app.schemas import ErrorResponse
from app.tables.errors import TableError
from app.tables.moderation import address_key
from app.tables.practice_cap import PracticeCreator, creator_key


def client_address(request: HTTPConnection) -> str:
    """The address quotas count against (after uvicorn's trusted-proxy handling); a
    request's or a WebSocket's."""
    return request.client.host if request.client is not None else "unknown"


def rate_limited(verdict: Verdict) -> HTTPException:
    """The 429 answer for a refused verdict."""
    return HTTPException(
        status_code=429,
        detail=f"too many requests ({verdict.limit}); retry in {verdict.retry_after} s",
        headers={"Retry-After": str(verdict.retry_after)},
    )


async def _hit(request: Request, name: QuotaName) -> None:
    quotas: Quotas = quotas_for(request.app)
    verdict = await quotas.hit(name, client_address(request))
    if not verdict.allowed:
        raise rate_limited(verdict)


async def http_quota(request: Request) -> None:
    """The overall quota; and a banned address is refused here (``403 banned``)."""
    moderation = getattr(request.app.state, "moderation", None)
    if moderation is not None:
        until = moderation.banned_until(address_key(client_address(request)))
        if until is not None:
            raise TableError("banned", f"this address is banned until {until.isoformat()}", 403)
    await _hit(request, "http")


async def create_quota(request: Request) -> None:
    await _hit(request, "create")
    try:
        body: Any = await request.json()  # cached: FastAPI has parsed it already
    except ValueError:
        return
    if isinstance(body, dict) and body.get("public", True) is True:
        await _hit(request, "public_tables")


async def record_check_quota(request: Request) -> None:
    await _hit(request, "record_check")


async def join_quota(request: Request) -> None:
    await _hit(request, "join")


async def bot_quota(request: Request) -> None:
    await _hit(request, "bot_changes")


async def reports_quota(request: Request) -> None:
    await _hit(request, "reports")


async def admin_quota(request: Request) -> None:
    await _hit(request, "admin")


async def profile_signups_quota(request: Request) -> None:
    await _hit(request, "profile_signups")


async def sign_in_links_quota(request: Request) -> None:
    await _hit(request, "sign_in_links")


async def passkey_sign_ins_quota(request: Request) -> None:
    await _hit(request, "passkey_sign_ins")


async def friend_requests_quota(request: Request) -> None:
    """Friend requests sent (docs/friends.md)."""
    await _hit(request, "friend_requests")


async def club_joins_quota(request: Request) -> None:
    """Club joins by invite link (docs/clubs.md)."""
    await _hit(request, "club_joins")


async def player_pages_quota(request: Request) -> None:
    await _hit(request, "player_pages")


async def invitations_quota(request: Request) -> None:
    """Invitation requests (docs/invitations.md)."""
    await _hit(request, "invitations")


async def practice_quota(request: Request) -> PracticeCreator | None:
    """Count a practice table against ``create``; who creates it, with the cap on their
    live practice tables (None when quotas are off: no cap)."""
    await _hit(request, "create")
    quotas = quotas_for(request.app)
    if not quotas.enabled:
        return None
    return PracticeCreator(creator_key(client_address(request)), quotas.max_live_practice)


async def lookup_miss_quota(request: Request) -> AsyncIterator[None]:
    quotas = quotas_for(request.app)
    address = client_address(request)
    verdict = await quotas.check("lookup_miss", address)
    if not verdict.allowed:
        raise rate_limited(verdict)
    try:
        yield
    except TableError as err:
        if err.code == "not_found":
            await quotas.hit("lookup_miss", address)
        raise


HttpQuota = Depends(http_quota)
CreateQuota = Depends(create_quota)
JoinQuota = Depends(join_quota)
RecordCheckQuota = Depends(record_check_quota)
LookupMissQuota = Depends(lookup_miss_quota)
BotQuota = Depends(bot_quota)

#: the answer every router under the HTTP quota documents
RATE_LIMITED: dict[int | str, dict[str, Any]] = {
    429: {"model": ErrorResponse, "description": "rate limited (Retry-After)"}
}


def quota_router(
    prefix: str, tag: str, responses: dict[int | str, dict[str, Any]] | None = None
) -> APIRouter:
    """A router under ``prefix`` whose every route counts against ``HttpQuota`` and
    documents its ``429`` (besides ``responses``)."""
    return APIRouter(
        prefix=prefix,
        tags=[tag],
        dependencies=[HttpQuota],
        responses={**(responses or {}), **RATE_LIMITED},
    )

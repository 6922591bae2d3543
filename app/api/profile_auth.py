"""Who is signed in (docs/profiles.md "Sessions and the Origin check").

- The session is the cookie :data:`COOKIE`: ``HttpOnly``, ``SameSite=Lax``, ``Path=/``,
  ``Secure`` when the site is served over TLS; its value is a random secret whose
  SHA-256 is the session row's key. Sign-out deletes the row (and the cookie).
- A state-changing request (anything but GET, HEAD, OPTIONS) to a profile route, and
  every request that sets the cookie, must carry an ``Origin`` equal to the site's own
  (``FIVEUP_PUBLIC_URL``'s, or the request's scheme and Host): else ``403 bad_origin``.
  SameSite=Lax already keeps the cookie off other sites' POSTs; the Origin check also
  stops a sibling subdomain and old browsers.
- No cookie, or one whose session ended or expired: ``401 unauthorized``.
"""

from __future__ import annotations

import logging
from typing import Annotated

from fastapi import Depends, Request, Response

from app.db.profile_rows import Profile
from app.db.store import Unavailable
from app.realtime.profile_hub import ProfileHub
from app.schemas import Joined
from app.tables.errors import TableError
from app.tables.passkeys import RelyingParty
from app.tables.profiles import Profiles, SignedIn

log = logging.getLogger(__name__)

COOKIE = "fiveup_session"
SAFE_METHODS = frozenset(("GET", "HEAD", "OPTIONS"))


def get_profiles(request: Request) -> Profiles:
    profiles: Profiles = request.app.state.profiles
    return profiles


def relying_party(request: Request) -> RelyingParty:
    """Who we are to an authenticator for this request."""
    return RelyingParty.of(
        request.app.state.settings.public_url,
        request.url.scheme,
        request.headers.get("host", ""),
    )


def check_origin(request: Request) -> None:
    """``403 bad_origin`` unless the request's Origin is the site's own."""
    if request.headers.get("origin", "").rstrip("/") != relying_party(request).origin:
        raise TableError("bad_origin", "a request from another site", 403)


async def origin_guard(request: Request) -> None:
    """The router's dependency: state-changing requests are Origin-checked."""
    if request.method not in SAFE_METHODS:
        check_origin(request)


async def signed_in(request: Request) -> Profile:
    """The profile of the session cookie (``401 unauthorized`` without one)."""
    profiles = get_profiles(request)
    profile = await profiles.signed_in(request.cookies.get(COOKIE))
    if profile is None:
        raise TableError("unauthorized", "sign in to your profile first", 401)
    return profile


def set_session(request: Request, response: Response, done: SignedIn) -> None:
    """Give the browser its session cookie."""
    response.set_cookie(
        COOKIE,
        done.session,
        max_age=int(get_profiles(request).limits.session_seconds),
        httponly=True,
        samesite="lax",
        secure=relying_party(request).origin.startswith("https:"),
        path="/",
    )


def clear_session(response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")


async def request_profile(request: Request) -> Profile | None:
    """The profile this request's session cookie signs in, else None (a guest; also
    when the store does not answer, logged: a seat is never refused for that, only
    left unbound — and a rated table's seat refused, as for a guest)."""
    profiles: Profiles | None = getattr(request.app.state, "profiles", None)
    session = request.cookies.get(COOKIE)
    if profiles is None or not session:
        return None
    try:
        return await profiles.signed_in(session)
    except Unavailable as exc:
        log.warning("session not read (%s)", exc)
        return None


async def bind_if_signed_in(
    request: Request, joined: Joined, profile: Profile | bool | None = True
) -> None:
    """A seat just taken (created, joined, practice, claimed) by a signed-in browser is
    bound to its profile; a guest's is not. ``profile``: the request's profile when the
    route read it already (None: a guest), True to read it here. Never fails the seat:
    a store that does not answer leaves the seat unbound (logged)."""
    profiles: Profiles | None = getattr(request.app.state, "profiles", None)
    if profiles is None:
        return
    found = await request_profile(request) if profile is True else profile
    if not isinstance(found, Profile):
        return
    try:
        table_id = await request.app.state.service.table_id(joined.code)
        await profiles.bind(found, table_id, joined.seat, joined.token)
    except Unavailable as exc:
        log.warning("seat not bound to its profile (%s)", exc)
        return
    await tell_friends(request, [found.id])


async def tell_friends(request: Request, profile_ids: list[int]) -> None:
    """These profiles took, moved or left a seat: their friends' online lists name the
    public table each now sits at (docs/invitations.md)."""
    hub: ProfileHub | None = getattr(request.app.state, "profile_hub", None)
    if hub is None:
        return
    for profile_id in profile_ids:
        await hub.seated(profile_id)


async def seats_changed(request: Request, code: str) -> None:
    """A table's seats changed (a leave, a removal, a replacement, a resignation): the
    friends of everyone bound to a seat there see their tables anew. Never fails the
    change (logged)."""
    hub: ProfileHub | None = getattr(request.app.state, "profile_hub", None)
    if hub is None:
        return
    try:
        table_id = await request.app.state.service.table_id(code)
        profile_ids = await hub.store.bound_profiles(table_id)
    except (Unavailable, TableError) as exc:
        log.warning("friends not told of a seat change (%s)", exc)
        return
    await tell_friends(request, profile_ids)


async def follow_seat_change(request: Request, code: str, token: str, seat: int) -> None:
    """A bound seat's binding follows the seat change its token just made (so the
    profile keeps the table in its list). Never fails the change (logged)."""
    profiles: Profiles | None = getattr(request.app.state, "profiles", None)
    if profiles is None:
        return
    try:
        table_id = await request.app.state.service.table_id(code)
        await profiles.follow(table_id, token, seat)
    except Unavailable as exc:
        log.warning("seat binding not moved (%s)", exc)


ProfilesDep = Annotated[Profiles, Depends(get_profiles)]
ProfileDep = Annotated[Profile, Depends(signed_in)]
RpDep = Annotated[RelyingParty, Depends(relying_party)]

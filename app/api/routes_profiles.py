"""HTTP routes of profiles (docs/protocol.md "Profiles", docs/profiles.md): sign up and
sign in with a passkey (options, then verify), the signed-in profile, sign out (here or
everywhere), one-time sign-in links with their QR code, and deletion.

Every route counts against the HTTP quota of its address; sign-ups against
``FIVEUP_RATE_LIMIT_PROFILE_SIGNUPS``, passkey sign-ins against
``FIVEUP_RATE_LIMIT_PASSKEY_SIGN_INS``, links made or claimed against
``FIVEUP_RATE_LIMIT_SIGN_IN_LINKS`` (``429`` with ``Retry-After``). Every state-changing
route is Origin-checked (app/api/profile_auth.py)."""

from __future__ import annotations

import io
from typing import Any

import segno
from fastapi import Depends, Request, Response

from app.api.deps import ServiceDep
from app.api.profile_auth import (
    COOKIE,
    ProfileDep,
    ProfilesDep,
    RpDep,
    clear_session,
    origin_guard,
    set_session,
)
from app.api.quota_deps import (
    passkey_sign_ins_quota,
    profile_signups_quota,
    quota_router,
    sign_in_links_quota,
)
from app.api.routes_tables import Code
from app.db.profile_rows import Profile
from app.profile_schemas import (
    Ceremony,
    ClaimLinkIn,
    Ended,
    Me,
    MyTable,
    MyTables,
    Ok,
    OpenSeat,
    SignInLink,
    SignUpIn,
    VerifyIn,
)
from app.schemas import ErrorResponse, Joined
from app.tables.profiles import Profiles, SignedIn

ERRORS: dict[int | str, dict[str, Any]] = {
    c: {"model": ErrorResponse} for c in (400, 401, 403, 404, 409, 413, 422, 503)
}

router = quota_router("/api/profile", "profiles", ERRORS)
router.dependencies.append(Depends(origin_guard))


async def _me(profiles: Profiles, profile: Profile) -> Me:
    return Me(
        handle=profile.handle,
        display_name=profile.display_name,
        passkeys=await profiles.passkey_count(profile),
        sessions=await profiles.sessions(profile),
    )


async def _signed_in(
    request: Request, response: Response, profiles: Profiles, done: SignedIn
) -> Me:
    set_session(request, response, done)
    return await _me(profiles, done.profile)


@router.post(
    "/signup/options", response_model=Ceremony, dependencies=[Depends(profile_signups_quota)]
)
async def signup_options(body: SignUpIn, profiles: ProfilesDep, rp: RpDep) -> Ceremony:
    """Start a sign-up: the options for ``navigator.credentials.create`` (a discoverable
    passkey, user verification required). ``409 handle_taken``: the handle, or one that
    looks like it, is someone's."""
    ceremony, options = await profiles.register_options(rp, body.handle, body.display_name)
    return Ceremony(ceremony=ceremony, options=options)


@router.post("/signup/verify", response_model=Me)
async def signup_verify(
    body: VerifyIn, request: Request, response: Response, profiles: ProfilesDep, rp: RpDep
) -> Me:
    """Finish a sign-up with the authenticator's answer: the profile is created and this
    browser signed in (the session cookie). ``401 passkey_refused``, ``404
    ceremony_expired``."""
    done = await profiles.register_verify(rp, body.ceremony, body.credential)
    return await _signed_in(request, response, profiles, done)


@router.post(
    "/signin/options", response_model=Ceremony, dependencies=[Depends(passkey_sign_ins_quota)]
)
async def signin_options(profiles: ProfilesDep, rp: RpDep) -> Ceremony:
    """Start a passkey sign-in: the options for ``navigator.credentials.get``."""
    ceremony, options = await profiles.sign_in_options(rp)
    return Ceremony(ceremony=ceremony, options=options)


@router.post("/signin/verify", response_model=Me)
async def signin_verify(
    body: VerifyIn, request: Request, response: Response, profiles: ProfilesDep, rp: RpDep
) -> Me:
    """Finish a passkey sign-in (origin, RP id, challenge, signature and counter are
    checked): this browser is signed in."""
    done = await profiles.sign_in_verify(rp, body.ceremony, body.credential)
    return await _signed_in(request, response, profiles, done)


@router.get("", response_model=Me)
async def me(profile: ProfileDep, profiles: ProfilesDep) -> Me:
    """The signed-in profile (``401 unauthorized`` when signed out)."""
    return await _me(profiles, profile)


@router.post("/signout", response_model=Ok)
async def sign_out(request: Request, response: Response, profiles: ProfilesDep) -> Ok:
    """Sign this browser out (its session ends; signed out already is fine)."""
    session = request.cookies.get(COOKIE)
    if session:
        await profiles.sign_out(session)
    clear_session(response)
    return Ok(ok=True)


@router.post("/signout-everywhere", response_model=Ended)
async def sign_out_everywhere(
    profile: ProfileDep, response: Response, profiles: ProfilesDep
) -> Ended:
    """End every session of the profile, on every device, this one included."""
    ended = await profiles.sign_out_everywhere(profile)
    clear_session(response)
    return Ended(ended=ended)


@router.post("/links", response_model=SignInLink, dependencies=[Depends(sign_in_links_quota)])
async def new_link(profile: ProfileDep, profiles: ProfilesDep, rp: RpDep) -> SignInLink:
    """A one-time sign-in link for another device, and its QR code (SVG): it works once,
    for ``FIVEUP_SIGN_IN_LINK_SECONDS``."""
    secret, expires = await profiles.new_link(profile)
    link = f"/profile#signin={secret}"
    return SignInLink(link=link, expires_at=expires, qr_svg=_qr_svg(rp.origin + link))


def _qr_svg(text: str) -> str:
    """``text`` as a QR code: a standalone SVG document (with its namespace, so that an
    ``<img>`` shows it), no XML declaration."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4, border=2, xmldecl=False)
    return out.getvalue().decode()


@router.post("/links/claim", response_model=Me, dependencies=[Depends(sign_in_links_quota)])
async def claim_link(
    body: ClaimLinkIn, request: Request, response: Response, profiles: ProfilesDep
) -> Me:
    """Sign this browser in with a one-time link (``404 link_used``: used, expired or
    unknown)."""
    done = await profiles.claim_link(body.link)
    return await _signed_in(request, response, profiles, done)


@router.delete("", response_model=Ok)
async def delete_profile(profile: ProfileDep, response: Response, profiles: ProfilesDep) -> Ok:
    """Delete the profile: its handle, display name, passkeys, sessions and links are
    erased; this browser is signed out."""
    await profiles.delete(profile)
    clear_session(response)
    return Ok(ok=True)


@router.get("/tables", response_model=MyTables)
async def my_tables(profile: ProfileDep, profiles: ProfilesDep) -> MyTables:
    """The live tables (waiting or in play) where the profile holds a seat it took while
    signed in, and still holds (at most 50, the newest first)."""
    return MyTables(
        tables=[
            MyTable(code=b.code, name=b.name, status=b.status, players=b.players, seat=b.seat)
            for b in await profiles.tables(profile)
        ]
    )


@router.post("/tables/{code}/open", response_model=Joined)
async def open_table(
    body: OpenSeat,
    profile: ProfileDep,
    profiles: ProfilesDep,
    service: ServiceDep,
    code: str = Code,
) -> Joined:
    """Open one of the profile's seats on this device: a fresh seat token, handed only
    here (the cookie route); the seat's older token stops working (``seat_moved``, its
    sockets close 4410) as with a device link. ``404 not_your_seat``."""
    bound = await profiles.bound_hash(profile, code, body.seat)
    joined = await service.open_bound(code, body.seat, bound)
    await profiles.bind(profile, await service.table_id(joined.code), joined.seat, joined.token)
    return joined
